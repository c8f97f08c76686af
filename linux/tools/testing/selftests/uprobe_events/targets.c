// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events on targets of every kind: USDT semaphores (reference
 * counters), a position independent program, a forked child, a 32-bit
 * process (x86), a file whose name is reused, strings longer than a
 * record, an event toggled while the target hits it in a tight loop, and
 * a file on 9p.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../uprobes/upng.h"
#include "uev_lib.h"

FIXTURE(tg) {
	struct uev_state s;
};

FIXTURE_SETUP(tg)
{
	if (!uev_can_run(_metadata))
		return;
	ASSERT_EQ(0, uev_state_init(&self->s));
}

FIXTURE_TEARDOWN(tg)
{
	upng_tracefs_write("trace_clock", "local");
	upng_tracefs_reset();
}

/* A reference counter (USDT semaphore) is raised while the event is enabled. */
TEST_F(tg, ref_ctr_semaphore)
{
	static const int ns[] = { 0, 1 };
	struct uev_proc a, b;
	struct upng_sym sem;
	unsigned long v;

	ASSERT_EQ(0, upng_elf_sym(self->s.path, "uev_semaphore", &sem));
	ASSERT_EQ(0, uev_spawn(&a, self->s.path));
	ASSERT_EQ(0, uev_query(&a, 's', &v));
	ASSERT_EQ(0UL, v);
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/sem %s:0x%lx(0x%lx) n=%s:s64",
					 self->s.path, self->s.count.offset, sem.offset,
					 UEV_R_ARG1));
	ASSERT_EQ(0, uev_query(&a, 's', &v));
	ASSERT_EQ(0UL, v);
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/sem/enable", "1"));
	ASSERT_EQ(0, uev_query(&a, 's', &v));
	ASSERT_EQ(1UL, v);
	/* A process started now gets it raised when it maps the file. */
	ASSERT_EQ(0, uev_spawn(&b, self->s.path));
	ASSERT_EQ(0, uev_query(&b, 's', &v));
	ASSERT_EQ(1UL, v);
	ASSERT_EQ(0, uev_cmd(&a, 'c', 2));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/sem/enable", "0"));
	ASSERT_EQ(0, uev_query(&a, 's', &v));
	ASSERT_EQ(0UL, v);
	ASSERT_EQ(0, uev_query(&b, 's', &v));
	ASSERT_EQ(0UL, v);
	ASSERT_EQ(0, uev_finish(&a));
	ASSERT_EQ(0, uev_finish(&b));
	ASSERT_TRUE(uev_trace_ns(&self->s, "sem", ns, 2));
}

/*
 * A position independent target: the trace shows the run-time address
 * (in its header, and as the instruction pointer where a register names
 * it: not on s390) and @+OFFSET is resolved against where the probed file
 * offset is mapped.
 */
#ifdef UEV_R_PC
#define PIE_IP	"ip=" UEV_R_PC
#else
#define PIE_IP	""
#endif
TEST_F(tg, pie_runtime_address)
{
	struct upng_sym count, tconst;
	char pie[256], want[UPNG_TRACE_LINE_LEN];
	struct uev_proc p;
	unsigned long at;

	snprintf(pie, sizeof(pie), "%s", upng_path("bin/" UEV_TARGET_PIE));
	ASSERT_EQ(0, upng_elf_sym(pie, "uev_count_func", &count));
	ASSERT_EQ(0, upng_elf_sym(pie, "uev_text_const", &tconst));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/pie %s:0x%lx %s k=@+0x%lx",
					 pie, count.offset, PIE_IP,
					 tconst.value - (count.value - count.offset)));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/pie/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, pie));
	ASSERT_EQ(0, uev_query(&p, 'i', &at));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/pie/enable", "0"));
	ASSERT_EQ(1, upng_trace_get("trace", "pie", &self->s.t));
#ifdef UEV_R_PC
	snprintf(want, sizeof(want), "(0x%lx) ip=0x%lx k=0xbadc0ffee0ddf00", at, at);
#else
	snprintf(want, sizeof(want), "(0x%lx) k=0xbadc0ffee0ddf00", at);
#endif
	ASSERT_STREQ(want, self->s.t.line[0]);
}

/* A child forked by the target inherits the probe. */
TEST_F(tg, fork_child_hit)
{
	static const int ns[] = { 0, 1000, 1 };
	struct uev_proc p;
	char key[32], *first;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, uev_cmd(&p, 'f', 1));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, 3));
	/* Two of the hits are the parent's. */
	ASSERT_LT(0, upng_tracefs_read_len("trace", self->s.buf, sizeof(self->s.buf)));
	snprintf(key, sizeof(key), "-%d ", p.pid);
	first = strstr(self->s.buf, key);
	ASSERT_NE(NULL, first);
	ASSERT_NE(NULL, strstr(first + 1, key));
}

#if defined(__x86_64__)
/* Entry and return probes on a function of a 32-bit process. */
TEST_F(tg, ia32_entry_and_return)
{
	char t32[256], want[UPNG_TRACE_LINE_LEN];
	struct upng_sym count;
	int i;

	snprintf(t32, sizeof(t32), "%s", upng_path("bin/" UEV_TARGET32));
	ASSERT_EQ(0, upng_elf_sym(t32, "uev_count_func", &count));
	ASSERT_EQ(0, uev_define("p:uprobes/c32", t32, count.offset, "n=+4($stack):s32"));
	ASSERT_EQ(0, uev_define("r:uprobes/c32_ret", t32, count.offset, "rv=$retval:s32"));
	ASSERT_EQ(0, uev_run("events/uprobes/enable", t32, 'c', 4));
	ASSERT_EQ(4, upng_trace_get("trace", "c32", &self->s.t));
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), "(0x%lx) n=%d", count.value, i);
		ASSERT_STREQ(want, self->s.t.line[i]);
	}
	/* The return address is in main(): check the rest. */
	ASSERT_EQ(4, upng_trace_get("trace", "c32_ret", &self->s.t));
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), " <- 0x%lx) rv=%d", count.value, i);
		ASSERT_EQ(0, strncmp(self->s.t.line[i], "(0x", 3));
		ASSERT_NE(NULL, strstr(self->s.t.line[i], want)) {
			TH_LOG("line %d: %s", i, self->s.t.line[i]);
		}
	}
}
#endif

/*
 * Entry and return probes on a recursive function, in a 64-bit and in a
 * 32-bit process: the entries come in call order, the returns in reverse
 * order, each with its own return value.
 */
static void nested(struct __test_metadata *_metadata, const char *target,
		   const char *depth_arg)
{
	static char trace[1 << 16];
	char path[256], want[128];
	struct upng_sym rec;
	const char *pos;
	int i;

	snprintf(path, sizeof(path), "%s/%s", upng_path("bin"), target);
	ASSERT_EQ(0, upng_elf_sym(path, "uev_rec", &rec));
	ASSERT_EQ(0, uev_define("p:uprobes/rec", path, rec.offset, depth_arg));
	ASSERT_EQ(0, uev_define("r:uprobes/rec_ret", path, rec.offset, "rv=$retval:s32"));
	ASSERT_EQ(0, uev_run("events/uprobes/enable", path, 'n', 2));
	ASSERT_LT(0, upng_tracefs_read_len("trace", trace, sizeof(trace)));
	pos = trace;
	for (i = 0; i < 16; i++) {
		int d = i % 8 < 4 ? 3 - i % 8 : i % 8 - 4;

		if (i % 8 < 4)
			snprintf(want, sizeof(want), " rec: (0x%lx) d=%d\n", rec.value, d);
		else
			snprintf(want, sizeof(want), " <- 0x%lx) rv=%d\n", rec.value, d);
		pos = strstr(pos, want);
		ASSERT_NE(NULL, pos) {
			TH_LOG("no '%.*s' in order in:\n%s", (int)strlen(want) - 1, want, trace);
		}
		pos += strlen(want);
	}
	ASSERT_EQ(8, upng_trace_get("trace", "rec", &(struct upng_trace){ 0 }));
	ASSERT_EQ(8, upng_trace_get("trace", "rec_ret", &(struct upng_trace){ 0 }));
}

TEST_F(tg, nested_return_probes)
{
	nested(_metadata, UEV_TARGET, "d=" UEV_R_ARG1 ":s64");
}

#if defined(__x86_64__)
TEST_F(tg, ia32_nested_return_probes)
{
	nested(_metadata, UEV_TARGET32, "d=+4($stack):s32");
}
#endif

/*
 * Toggle the event while the target calls the probed function in a tight
 * loop: the target must survive (no stray breakpoint left behind), every
 * hit is traced at most once and in order, and no more lines than the hits
 * uprobe_profile counted (a hit racing with disabling is counted without
 * being traced).
 */
TEST_F_TIMEOUT(tg, toggle_under_load, 120)
{
	long hits, lines = 0, last = -1, n;
	char ack, *pos, *line = NULL, size_kb[32];
	size_t cap = 0;
	struct uev_proc p;
	int toggles;
	FILE *trace;

	ASSERT_LT(0, upng_tracefs_read_len("buffer_size_kb", size_kb, sizeof(size_kb)));
	ASSERT_EQ(0, upng_tracefs_write("buffer_size_kb", "8192"));
	/*
	 * The target may move between CPUs: only a global clock orders the
	 * lines of the per-CPU buffers as the hits happened.
	 */
	ASSERT_EQ(0, upng_tracefs_write("trace_clock", "counter"));
	ASSERT_EQ(0, uev_define("p:uprobes/tog", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/tog/enable", "1"));
	ASSERT_EQ(1, write(p.to, "l", 1));
	/* Wait for the loop to hit the probe, then toggle it 20 times. */
	for (toggles = 0; toggles < 10000; toggles++) {
		if (upng_probe_hits_at(self->s.path, "tog") > 0)
			break;
		usleep(1000);
	}
	ASSERT_LT(0, upng_probe_hits_at(self->s.path, "tog"));
	for (toggles = 1; toggles <= 20; toggles++) {
		ASSERT_EQ(0, upng_tracefs_write("events/uprobes/tog/enable",
						toggles % 2 ? "0" : "1"));
		usleep(5000);
	}
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/tog/enable", "0"));
	/* Stop the loop; it acknowledges. */
	ASSERT_EQ(1, write(p.to, "x", 1));
	ASSERT_EQ(1, read(p.from, &ack, 1));
	ASSERT_EQ('l', ack);
	ASSERT_EQ(0, uev_finish(&p));
	hits = upng_probe_hits_at(self->s.path, "tog");
	/*
	 * Streamed line by line: the text of two 8 MiB buffers is larger than
	 * any buffer a test would read it into, and a line cut at the end of
	 * one would parse as a smaller n.
	 */
	trace = fopen(UPNG_TRACEFS "/trace", "r");
	ASSERT_NE(NULL, trace);
	while (getline(&line, &cap, trace) > 0) {
		if (!strstr(line, " tog: "))
			continue;
		pos = strstr(line, " n=");
		ASSERT_NE(NULL, pos);
		ASSERT_NE(NULL, strchr(pos, '\n'));
		n = strtol(pos + 3, NULL, 10);
		ASSERT_LT(last, n);
		last = n;
		lines++;
	}
	fclose(trace);
	free(line);
	TH_LOG("%ld hits, %ld lines", hits, lines);
	ASSERT_GE(hits, lines);
	ASSERT_LT(0, lines);
	ASSERT_EQ(0, upng_tracefs_write("buffer_size_kb", size_kb));
}

/*
 * A string longer than a record can hold is cut (uprobes-ng) or recorded as
 * (fault) (6.12); either way the arguments after it stay intact.
 */
TEST_F(tg, long_string)
{
	struct upng_sym ls;
	size_t n;
	char *v;

	ASSERT_EQ(0, upng_elf_sym(self->s.path, "uev_long_string", &ls));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/ls %s:0x%lx s=@0x%lx:string di=%s",
					 self->s.path, self->s.regs.offset, ls.value, UEV_R_ARG1));
	ASSERT_EQ(0, uev_run("events/uprobes/ls/enable", self->s.path, 'a', 1));
	ASSERT_LT(0, upng_tracefs_read_len("trace", self->s.buf, sizeof(self->s.buf)));
	v = strstr(self->s.buf, " ls: ");
	ASSERT_NE(NULL, v);
	v = strstr(v, " s=");
	ASSERT_NE(NULL, v);
	v += 3;
	if (!strncmp(v, "(fault)", 7)) {
		v += 7;
	} else {
		ASSERT_EQ('"', *v);
		n = strspn(++v, "A");
		TH_LOG("%zu characters of the string recorded", n);
		ASSERT_LE(64UL, n);
		ASSERT_GT(6000UL, n);
		ASSERT_EQ('"', v[n]);
		v += n + 1;
	}
	ASSERT_EQ(0, strncmp(v, " di=0x2a\n", 9));
}

/*
 * Check the value of a string argument at @v (after "NAME="): a quoted run
 * of at least 64 and at most @max 'A's, or (fault); returns what follows.
 */
static const char *skip_a_string(const char *v, size_t max)
{
	size_t n;

	if (!strncmp(v, "(fault)", 7))
		return v + 7;
	if (*v != '"')
		return NULL;
	n = strspn(++v, "A");
	if (n < 64 || n > max || v[n] != '"')
		return NULL;
	return v + n + 1;
}

/*
 * Strings that fit MAX_STRING_SIZE but together (or with the record
 * header) not in a page: the hit is still recorded, the strings cut as
 * needed, the arguments after them intact, and the kernel does not warn.
 * 6.12 warns (WARN_ON_ONCE in prepare_uprobe_buffer) and drops the hit.
 */
TEST_F(tg, strings_over_a_page)
{
	long warnings = upng_kmsg_count("WARNING:");
	struct upng_sym ls;
	const char *v;

	ASSERT_EQ(0, upng_elf_sym(self->s.path, "uev_long_string", &ls));
	/* One string of 4095 characters, then two of 3000. */
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/big1 %s:0x%lx s=@0x%lx:string di=%s",
					 self->s.path, self->s.regs.offset,
					 ls.value + 6000 - 4095, UEV_R_ARG1));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/big2 %s:0x%lx s=@0x%lx:string t=@0x%lx:ustring di=%s",
					 self->s.path, self->s.regs.offset, ls.value + 3000,
					 ls.value + 3000, UEV_R_ARG1));
	ASSERT_EQ(0, uev_run("events/uprobes/enable", self->s.path, 'a', 1));
	ASSERT_EQ(warnings, upng_kmsg_count("WARNING:"));
	ASSERT_EQ(1, upng_trace_get("trace", "big1", &self->s.t));
	v = strstr(self->s.t.line[0], " s=");
	ASSERT_NE(NULL, v);
	v = skip_a_string(v + 3, 4095);
	ASSERT_NE(NULL, v);
	ASSERT_STREQ(" di=0x2a", v);
	ASSERT_EQ(1, upng_trace_get("trace", "big2", &self->s.t));
	v = strstr(self->s.t.line[0], " s=");
	ASSERT_NE(NULL, v);
	v = skip_a_string(v + 3, 3000);
	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, strncmp(v, " t=", 3));
	v = skip_a_string(v + 3, 3000);
	ASSERT_NE(NULL, v);
	ASSERT_STREQ(" di=0x2a", v);
}

/* Copy the target to @to, executable. */
static int copy_target(const char *from, const char *to)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	}
	if (n < 0)
		err = -errno;
	close(in);
	close(out);
	return err;
}

/*
 * A probe belongs to the file it was defined on, not to its name: after the
 * name is given to a new file, the running old one is still probed and the
 * new one is not.
 */
TEST_F(tg, inode_not_name)
{
	static const int ns[] = { 0, 1 };
	char dir[200], name[256], old[264];
	struct uev_proc a, b;

	ASSERT_NE(NULL, getcwd(dir, sizeof(dir)));
	snprintf(name, sizeof(name), "%s/copy", dir);
	snprintf(old, sizeof(old), "%s.old", name);
	unlink(name);
	unlink(old);
	ASSERT_EQ(0, copy_target(self->s.path, name));
	ASSERT_EQ(0, uev_define("p:uprobes/ino", name, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ino/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&a, name));
	ASSERT_EQ(0, uev_cmd(&a, 'c', 1));
	ASSERT_EQ(0, rename(name, old));
	ASSERT_EQ(0, copy_target(self->s.path, name));
	ASSERT_EQ(0, uev_spawn(&b, name));
	ASSERT_EQ(0, uev_cmd(&b, 'c', 3));
	ASSERT_EQ(0, uev_cmd(&a, 'c', 1));
	ASSERT_EQ(0, uev_finish(&a));
	ASSERT_EQ(0, uev_finish(&b));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ino/enable", "0"));
	ASSERT_TRUE(uev_trace_ns(&self->s, "ino", ns, 2));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:ino"));
	unlink(name);
	unlink(old);
}

/*
 * A file on 9p (make check shares a host directory at /mnt/host, but not
 * with the debug kernel, whose 9p mount hangs under TCG): enabled
 * before any process has it open or mapped, the probe must still read the
 * probed instruction (9p reads pages only for an open file) and fire.
 */
static bool mounted_9p(const char *dir)
{
	char line[512], mnt[256], type[32];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %255s %31s", mnt, type) == 2 &&
			!strcmp(mnt, dir) && !strcmp(type, "9p");
	fclose(f);
	return found;
}

TEST_F(tg, file_on_9p)
{
	static const char *name = "/mnt/host/uev_target_9p";
	static const int ns[] = { 0, 1, 2 };

	/* statfs() over 9p reports the host's file system type */
	if (!mounted_9p("/mnt/host"))
		SKIP(return, "no 9p mount at /mnt/host");
	unlink(name);
	ASSERT_EQ(0, copy_target(self->s.path, name));
	ASSERT_EQ(0, uev_define("p:uprobes/nine", name, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_run("events/uprobes/nine/enable", name, 'c', 3));
	ASSERT_TRUE(uev_trace_ns(&self->s, "nine", ns, 3));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:nine"));
	unlink(name);
}

TEST_HARNESS_MAIN
