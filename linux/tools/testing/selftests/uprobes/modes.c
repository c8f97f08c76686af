// SPDX-License-Identifier: GPL-2.0
/*
 * A probe is analysed once, for the instruction set of its file (64-bit
 * here). A thread that hits it running 32-bit code (a far call to the
 * 32-bit code segment, as Wine does) must not get the 64-bit decoding
 * executed: the engine removes the breakpoint from that process, and the
 * program computes what it would without the probe.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "modes.h"
#include "upng.h"

#define CALLS 64

/* Runs the 32-bit code CALLS times; 0 when every result was x + 4. */
static int run_calls(void)
{
	char *stack = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	unsigned int x, got;

	if (stack == MAP_FAILED)
		return 2;
	for (x = 100; x < 100 + CALLS; x++) {
		got = modes_call32(x, stack + 65536 - 64);
		if (got != x + 4) {
			fprintf(stderr, "modes_call32(%u) = %u, want %u\n",
				x, got, x + 4);
			return 1;
		}
	}
	return 0;
}

FIXTURE(modes) {
	char ev[64];
	struct upng_sym sym;
	int kmsg;
};

FIXTURE_SETUP(modes)
{
	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "modes");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "modes_probe32",
				  &self->sym));
	ASSERT_EQ((unsigned long)modes_probe32, self->sym.value);
	self->kmsg = upng_kmsg_open();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(modes)
{
	upng_probe_del(self->ev);
	close(self->kmsg);
}

/* Without a probe the 32-bit code computes x + 4: the test is sound. */
TEST_F(modes, unprobed)
{
	ASSERT_EQ(0, run_calls());
}

/*
 * With the probe (analysed as "add $5,%rax"), hits in 32-bit mode still
 * compute x + 4, in a child that exits normally; the breakpoint is gone
 * from that process afterwards, and the kernel said why without a
 * warning.
 */
TEST_F(modes, other_mode_hit)
{
	char first[256] = "";
	long nword = 0;
	int status;
	pid_t pid;

	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(),
				    self->sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(run_calls());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) {
		TH_LOG("child killed by signal %d", WTERMSIG(status));
	}
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, upng_kmsg_scan(self->kmsg, "removed from this process",
				    &nword, first, sizeof(first))) {
		TH_LOG("kernel problem: %s", first);
	}
	EXPECT_LE(1, nword);
	/* Handlers never ran on a wrongly decoded hit. */
	EXPECT_EQ(0, upng_probe_hits(self->ev));
}

TEST_HARNESS_MAIN
