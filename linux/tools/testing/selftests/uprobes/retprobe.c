// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes ("r:" events): they fire once per return with the right
 * return value (uprobe_profile counts a return probe's function entries,
 * the trace buffer its returns), in 64-bit and (x86) 32-bit programs, in
 * threads and forked
 * children, after the entry probe of the same call, through recursion,
 * and frames left by longjmp() neither fire nor disturb later returns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "upng.h"

#define RECV_MS 30000

static long long func_value(long x)
{
	return 7LL * x + 3;
}

static long long expect_sum(long base, long n)
{
	return 7LL * (base * n + n * (n - 1) / 2) + 3LL * n;
}

static long rec_value(long n)
{
	return n ? rec_value(n - 1) * 2 + n : 1;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(retprobe) {
	struct upng_child child;
	char ev[64], ev2[64];
	char *trace;
	unsigned long long *vals;
};

FIXTURE_VARIANT(retprobe) {
	const char *bin;
	const char *retval;	/* fetch argument for the return value */
};

#if defined(__x86_64__)
FIXTURE_VARIANT_ADD(retprobe, x86_64) {
	.bin = "bin/target",
	.retval = "ret=$retval:s64",
};

FIXTURE_VARIANT_ADD(retprobe, i386) {
	.bin = "bin/target32",
	.retval = "ret=$retval:s32",
};
#elif defined(__aarch64__)
FIXTURE_VARIANT_ADD(retprobe, aarch64) {
	.bin = "bin/target",
	.retval = "ret=$retval:s64",
};
#elif defined(__riscv)
FIXTURE_VARIANT_ADD(retprobe, riscv64) {
	.bin = "bin/target",
	.retval = "ret=$retval:s64",
};
#elif defined(__s390x__)
FIXTURE_VARIANT_ADD(retprobe, s390x) {
	.bin = "bin/target",
	.retval = "ret=$retval:s64",
};
#endif

FIXTURE_SETUP(retprobe)
{
	char line[128];

	upng_die_with_parent();
	memset(&self->child, 0, sizeof(self->child));
	self->trace = NULL;
	self->vals = calloc(4096, sizeof(*self->vals));
	ASSERT_NE(NULL, self->vals);
	upng_evname(self->ev, sizeof(self->ev), "ret");
	upng_evname(self->ev2, sizeof(self->ev2), "ret");
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_spawn(&self->child, upng_path(variant->bin), NULL,
				NULL));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	ASSERT_EQ(0, strncmp(line, "ready", 5)) TH_LOG("got '%s'", line);
}

FIXTURE_TEARDOWN(retprobe)
{
	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
	upng_probe_del(self->ev2);
	free(self->trace);
	free(self->vals);
}

static void add(struct __test_metadata *_metadata, bool ret, const char *ev,
		const char *bin, const char *sym, const char *args)
{
	struct upng_sym s;
	int err;

	ASSERT_EQ(0, upng_elf_sym(bin, sym, &s)) TH_LOG("%s", sym);
	err = ret ? upng_retprobe_add(ev, bin, s.offset, args) :
		    upng_probe_add(ev, bin, s.offset, args);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, upng_probe_enable(ev, true));
}

static long long ask(struct __test_metadata *_metadata, struct upng_child *c,
		     const char *cmd, const char *word)
{
	char line[256], got[32];
	long long v = -1;
	int n;

	if (*cmd)
		EXPECT_EQ(0, upng_send(c, cmd));
	EXPECT_LT(0, upng_recv(c, line, sizeof(line), RECV_MS)) TH_LOG("%s", cmd);
	n = sscanf(line, "%31s %lld", got, &v);
	EXPECT_EQ(2, n) TH_LOG("'%s'", line);
	EXPECT_STREQ(word, got) TH_LOG("'%s' -> '%s'", cmd, line);
	return v;
}

/* Sorted values of "ret=" of EV in the trace into VALS; their number. */
static long ret_values(const char *ev, unsigned long long *vals)
{
	char *trace = upng_trace_read();
	long n;

	if (!trace)
		return -1;
	n = upng_trace_values(trace, ev, "ret=", vals, 4096);
	free(trace);
	if (n > 0 && n <= 4096)
		qsort(vals, n, sizeof(*vals), cmp_ull);
	return n;
}

TEST_F_TIMEOUT(retprobe, return_values, 300)
{
	const char *bin = upng_path(variant->bin);
	long i;

	add(_metadata, true, self->ev, bin, "target_func", variant->retval);
	ASSERT_EQ(expect_sum(0, 50), ask(_metadata, &self->child, "call 50", "sum"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(50, upng_probe_hits(self->ev));
	ASSERT_EQ(50, ret_values(self->ev, self->vals));
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(func_value(i), (long long)self->vals[i])
			TH_LOG("call %ld", i);
	}
}

TEST_F_TIMEOUT(retprobe, threads_and_fork, 300)
{
	const char *bin = upng_path(variant->bin);
	unsigned long long want[420];
	long long sum = 0;
	long t, i, n = 0;

	add(_metadata, true, self->ev, bin, "target_func", variant->retval);
	for (t = 0; t < 4; t++) {
		sum += expect_sum(t * 1000000L, 100);
		for (i = 0; i < 100; i++)
			want[n++] = func_value(t * 1000000L + i);
	}
	for (i = 0; i < 20; i++)
		want[n++] = func_value(i);
	qsort(want, n, sizeof(*want), cmp_ull);
	ASSERT_EQ(sum, ask(_metadata, &self->child, "threads 4 100", "sum"));
	ASSERT_EQ(expect_sum(0, 20),
		  ask(_metadata, &self->child, "fork 20", "child"));
	ASSERT_EQ(0, ask(_metadata, &self->child, "", "waited"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(420, upng_probe_hits(self->ev));
	ASSERT_EQ(420, ret_values(self->ev, self->vals));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(want[i], self->vals[i])
			TH_LOG("return %ld", i);
	}
}

TEST_F_TIMEOUT(retprobe, entry_then_return, 300)
{
	const char *bin = upng_path(variant->bin);
	const char *line, *end, *e, *r;
	int state = 0, pairs = 0;
	char pe[80], pr[80];

	add(_metadata, false, self->ev, bin, "target_func", NULL);
	add(_metadata, true, self->ev2, bin, "target_func", variant->retval);
	ASSERT_EQ(expect_sum(0, 30), ask(_metadata, &self->child, "call 30", "sum"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(0, upng_probe_enable(self->ev2, false));
	ASSERT_EQ(30, upng_probe_hits(self->ev));
	ASSERT_EQ(30, upng_probe_hits(self->ev2));

	/* In the trace every entry is followed by its return. */
	self->trace = upng_trace_read();
	ASSERT_NE(NULL, self->trace);
	snprintf(pe, sizeof(pe), " %s: ", self->ev);
	snprintf(pr, sizeof(pr), " %s: ", self->ev2);
	for (line = self->trace; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (*line == '#')
			continue;
		e = strstr(line, pe);
		r = strstr(line, pr);
		if (e && e < end) {
			ASSERT_EQ(0, state) TH_LOG("entry twice");
			state = 1;
		} else if (r && r < end) {
			ASSERT_EQ(1, state) TH_LOG("return without entry");
			state = 0;
			pairs++;
		}
	}
	ASSERT_EQ(30, pairs);
}

TEST_F_TIMEOUT(retprobe, recursion, 300)
{
	const char *bin = upng_path(variant->bin);
	long i;

	add(_metadata, true, self->ev, bin, "target_rec", variant->retval);
	ASSERT_EQ(rec_value(10), ask(_metadata, &self->child, "rec 10", "sum"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(11, upng_probe_hits(self->ev));
	ASSERT_EQ(11, ret_values(self->ev, self->vals));
	for (i = 0; i <= 10; i++) {
		ASSERT_EQ(rec_value(i), (long long)self->vals[i])
			TH_LOG("depth %ld", i);
	}
}

TEST_F_TIMEOUT(retprobe, longjmp_over_frames, 300)
{
	const char *bin = upng_path(variant->bin);
	char ev3[80];

	snprintf(ev3, sizeof(ev3), "%s_f", self->ev);
	add(_metadata, false, self->ev, bin, "target_lj", NULL);
	add(_metadata, true, self->ev2, bin, "target_lj", variant->retval);
	add(_metadata, true, ev3, bin, "target_func", variant->retval);
	ASSERT_EQ(40, ask(_metadata, &self->child, "longjmp 40", "jumps"));
	ASSERT_EQ(expect_sum(0, 10), ask(_metadata, &self->child, "call 10", "sum"));
	ASSERT_EQ(6, ask(_metadata, &self->child, "longjmp 6", "jumps"));
	ASSERT_EQ(expect_sum(0, 10), ask(_metadata, &self->child, "call 10", "sum"));
	ASSERT_EQ(0, upng_probe_enable(ev3, false));
	EXPECT_EQ(46, upng_probe_hits(self->ev));
	EXPECT_EQ(20, upng_probe_hits(ev3));
	EXPECT_EQ(20, ret_values(ev3, self->vals));
	/*
	 * No return of target_lj was traced (uprobe_profile counts the
	 * entries of a return probe's function, so it cannot tell).
	 */
	self->trace = upng_trace_read();
	ASSERT_NE(NULL, self->trace);
	EXPECT_EQ(0, upng_trace_count(self->trace, self->ev2));
	EXPECT_EQ(0, upng_probe_del(ev3));
}

TEST_HARNESS_MAIN
