// SPDX-License-Identifier: GPL-2.0
/*
 * Prefiltering: a probe whose only consumer is a perf event bound to one
 * process, or a uprobe event with an "if pid==ID" clause, gets its
 * breakpoint in that process only. Two copies of the target run; a
 * counting uprobe perf event is opened on the first one. Checked: the
 * breakpoint bytes in each process (/proc/PID/mem), the count (exactly the
 * first process's calls), and that closing the event puts the original
 * instruction back.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "upng.h"

static int open_uprobe_counter(const char *path, unsigned long off, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = upng_uprobe_pmu_type();
	attr.config1 = (unsigned long)path;	/* uprobe_path */
	attr.config2 = off;			/* probe_offset */
	attr.disabled = 1;
	return syscall(__NR_perf_event_open, &attr, pid, -1, -1, 0);
}

static long long counter(int fd)
{
	long long v = -1;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

/* "ready MAIN FUNC" -> FUNC */
static unsigned long start_target(struct __test_metadata *_metadata,
				  struct upng_child *c)
{
	unsigned long main_addr, func;
	char line[256];
	int n;

	ASSERT_EQ(0, upng_spawn(c, upng_path("bin/target"), NULL, NULL));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), 30000));
	n = sscanf(line, "ready %lx %lx", &main_addr, &func);
	ASSERT_EQ(2, n);
	return func;
}

static void run_calls(struct __test_metadata *_metadata,
		      struct upng_child *c, int n)
{
	char cmd[32], line[256];

	snprintf(cmd, sizeof(cmd), "%s %d", "call", n);
	ASSERT_EQ(0, upng_send(c, cmd));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), 60000));
	ASSERT_EQ(0, strncmp(line, "sum ", 4));
}

/* The UPNG_BKPT_SIZE bytes at ADDR of PID, as UPNG_BKPT reads them. */
static uint32_t insn_at(struct __test_metadata *_metadata, pid_t pid,
			unsigned long addr)
{
	unsigned char b[UPNG_BKPT_SIZE];

	EXPECT_EQ(0, upng_mem_read(pid, addr, b, sizeof(b)));
	return upng_insn_val(b, sizeof(b));
}

FIXTURE(prefilter) {
	struct upng_child a, b;
	unsigned long func;
	struct upng_sym sym;
	uint32_t orig;
};

FIXTURE_SETUP(prefilter)
{
	unsigned char b[UPNG_BKPT_SIZE];
	unsigned long func_b;

	ASSERT_LE(0, upng_uprobe_pmu_type());
	ASSERT_EQ(0, upng_elf_sym(upng_path("bin/target"), "target_func",
				  &self->sym));
	ASSERT_EQ(0, upng_file_read(upng_path("bin/target"), self->sym.offset,
				    b, sizeof(b)));
	self->orig = upng_insn_val(b, sizeof(b));
	ASSERT_NE(UPNG_BKPT, self->orig);
	self->func = start_target(_metadata, &self->a);
	func_b = start_target(_metadata, &self->b);
	ASSERT_EQ(self->func, func_b);	/* static, not PIE */
}

FIXTURE_TEARDOWN(prefilter)
{
	upng_send(&self->a, "quit");
	upng_send(&self->b, "quit");
	upng_finish(&self->a, 10000);
	upng_finish(&self->b, 10000);
	upng_probe_del("pf_pid");
	upng_probe_del("pf_all");
}

TEST_F_TIMEOUT(prefilter, perf_event_on_one_process, 300)
{
	int fd;

	fd = open_uprobe_counter(upng_path("bin/target"), self->sym.offset,
				 self->a.pid);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->a.pid, self->func));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));

	run_calls(_metadata, &self->a, 25);
	run_calls(_metadata, &self->b, 40);
	EXPECT_EQ(25, counter(fd));
	/* The other process never even had the breakpoint. */
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));

	close(fd);
	EXPECT_EQ(self->orig, insn_at(_metadata, self->a.pid, self->func));
	run_calls(_metadata, &self->a, 5);
}

/* Two bound events: the union of their processes gets the breakpoint. */
TEST_F_TIMEOUT(prefilter, two_events_two_processes, 300)
{
	int fa, fb;

	fa = open_uprobe_counter(upng_path("bin/target"), self->sym.offset,
				 self->a.pid);
	ASSERT_LE(0, fa);
	ASSERT_EQ(0, ioctl(fa, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));

	fb = open_uprobe_counter(upng_path("bin/target"), self->sym.offset,
				 self->b.pid);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->a.pid, self->func));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->b.pid, self->func));

	run_calls(_metadata, &self->a, 7);
	run_calls(_metadata, &self->b, 11);
	EXPECT_EQ(7, counter(fa));
	EXPECT_EQ(11, counter(fb));

	close(fa);
	EXPECT_EQ(self->orig, insn_at(_metadata, self->a.pid, self->func));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->b.pid, self->func));
	close(fb);
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));
}

/*
 * A uprobe event whose definition ends in "if pid==A": only A gets the
 * breakpoint. Another event on the same instruction without a clause puts
 * it into B as well; B's hits still do not count for the first.
 */
TEST_F_TIMEOUT(prefilter, event_task_filter, 300)
{
	const char *path = upng_path("bin/target");
	char clause[32];

	snprintf(clause, sizeof(clause), "if pid==%d", self->a.pid);
	ASSERT_EQ(0, upng_probe_add("pf_pid", path, self->sym.offset, clause));
	ASSERT_EQ(0, upng_probe_add("pf_all", path, self->sym.offset, ""));
	ASSERT_EQ(0, upng_probe_enable("pf_pid", true));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->a.pid, self->func));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));

	run_calls(_metadata, &self->a, 25);
	run_calls(_metadata, &self->b, 40);
	EXPECT_EQ(25, upng_probe_hits("pf_pid"));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));

	ASSERT_EQ(0, upng_probe_enable("pf_all", true));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->b.pid, self->func));
	run_calls(_metadata, &self->b, 10);
	run_calls(_metadata, &self->a, 5);
	EXPECT_EQ(30, upng_probe_hits("pf_pid"));
	EXPECT_EQ(15, upng_probe_hits("pf_all"));

	/* Without the unfiltered event, B goes back to its instruction. */
	ASSERT_EQ(0, upng_probe_enable("pf_all", false));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->b.pid, self->func));
	EXPECT_EQ(UPNG_BKPT, insn_at(_metadata, self->a.pid, self->func));
	ASSERT_EQ(0, upng_probe_enable("pf_pid", false));
	EXPECT_EQ(self->orig, insn_at(_metadata, self->a.pid, self->func));
}

/*
 * "if pid==A" names a process, not its first thread: after that thread
 * exited (the others go on), A still gets the breakpoint and its hits.
 */
TEST_F_TIMEOUT(prefilter, pid_after_first_thread_exited, 300)
{
	const char *path = upng_path("bin/target");
	char clause[32], line[64];

	ASSERT_EQ(0, upng_send(&self->a, "leave"));
	ASSERT_LT(0, upng_recv(&self->a, line, sizeof(line), 30000));
	ASSERT_STREQ("left", line);
	snprintf(clause, sizeof(clause), "if pid==%d", self->a.pid);
	ASSERT_EQ(0, upng_probe_add("pf_pid", path, self->sym.offset, clause));
	ASSERT_EQ(0, upng_probe_enable("pf_pid", true));
	run_calls(_metadata, &self->a, 9);
	run_calls(_metadata, &self->b, 4);
	EXPECT_EQ(9, upng_probe_hits("pf_pid"));
	ASSERT_EQ(0, upng_probe_enable("pf_pid", false));
}

TEST_HARNESS_MAIN
