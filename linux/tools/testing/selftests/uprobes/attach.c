// SPDX-License-Identifier: GPL-2.0
/*
 * Where a probe fires: a process running before registration, one started
 * after it, a forked child, a process that exec()s the probed file, a
 * dlopen()ed library, a 32-bit program (x86) and four threads at once.  Every
 * case checks the exact hit count and the target's own results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "upng.h"

#define RECV_MS 30000

/*
 * A second probed program, a file of its own: the 32-bit build of the
 * target on x86, a copy of the target elsewhere.
 */
#if defined(__x86_64__)
#define OTHER_TARGET "bin/target32"
#else
#define OTHER_TARGET "bin/target2"
#endif

static long long expect_sum(long base, long n)
{
	return 7LL * (base * n + n * (n - 1) / 2) + 3LL * n;
}

FIXTURE(attach) {
	struct upng_child child;
	char ev[64];
};

FIXTURE_SETUP(attach)
{
	upng_die_with_parent();
	memset(&self->child, 0, sizeof(self->child));
	upng_evname(self->ev, sizeof(self->ev), "attach");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(attach)
{
	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
}

static void add_probe(struct __test_metadata *_metadata, const char *ev,
		      const char *path, const char *sym, const char *args)
{
	struct upng_sym s;

	ASSERT_EQ(0, upng_elf_sym(path, sym, &s)) TH_LOG("%s in %s", sym, path);
	ASSERT_EQ(0, upng_probe_add(ev, path, s.offset, args));
}

static void spawn(struct __test_metadata *_metadata, struct upng_child *c,
		  const char *bin)
{
	char line[128];

	ASSERT_EQ(0, upng_spawn(c, bin, NULL, NULL));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), RECV_MS));
	ASSERT_EQ(0, strncmp(line, "ready", 5)) TH_LOG("got '%s'", line);
}

/* Send CMD (unless empty), expect a reply "WORD VALUE", return VALUE. */
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

static void quit(struct __test_metadata *_metadata, struct upng_child *c)
{
	int status;

	EXPECT_EQ(0, upng_send(c, "quit"));
	status = upng_finish(c, RECV_MS);
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F_TIMEOUT(attach, running_process, 300)
{
	const char *bin = upng_path("bin/target");
	char *trace;

	spawn(_metadata, &self->child, bin);
	ASSERT_EQ(expect_sum(0, 10), ask(_metadata, &self->child, "call 10", "sum"));
	add_probe(_metadata, self->ev, bin, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(expect_sum(0, 100), ask(_metadata, &self->child, "call 100", "sum"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(expect_sum(0, 10), ask(_metadata, &self->child, "call 10", "sum"));
	quit(_metadata, &self->child);
	EXPECT_EQ(100, upng_probe_hits(self->ev));
	trace = upng_trace_read();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(100, upng_trace_count(trace, self->ev));
	free(trace);
}

TEST_F_TIMEOUT(attach, started_later, 300)
{
	const char *bin = upng_path("bin/target");
	struct upng_child second;

	add_probe(_metadata, self->ev, bin, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	spawn(_metadata, &self->child, bin);
	spawn(_metadata, &second, bin);
	ASSERT_EQ(expect_sum(0, 60), ask(_metadata, &self->child, "call 60", "sum"));
	ASSERT_EQ(expect_sum(0, 40), ask(_metadata, &second, "call 40", "sum"));
	quit(_metadata, &second);
	quit(_metadata, &self->child);
	EXPECT_EQ(100, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(attach, forked_child, 300)
{
	const char *bin = upng_path("bin/target");

	spawn(_metadata, &self->child, bin);
	add_probe(_metadata, self->ev, bin, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(expect_sum(0, 50), ask(_metadata, &self->child, "fork 50", "child"));
	ASSERT_EQ(0, ask(_metadata, &self->child, "", "waited"));
	ASSERT_EQ(expect_sum(0, 20), ask(_metadata, &self->child, "call 20", "sum"));
	quit(_metadata, &self->child);
	EXPECT_EQ(70, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(attach, exec_probed_file, 300)
{
	const char *bin = upng_path("bin/target");
	char cmd[512];

	spawn(_metadata, &self->child, bin);
	add_probe(_metadata, self->ev, bin, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(expect_sum(0, 5), ask(_metadata, &self->child, "call 5", "sum"));
	/* The same file again: the new mm gets the breakpoint at exec. */
	snprintf(cmd, sizeof(cmd), "exec %s 40", bin);
	ASSERT_EQ(expect_sum(0, 40), ask(_metadata, &self->child, cmd, "sum"));
	EXPECT_EQ(0, upng_finish(&self->child, RECV_MS));
	EXPECT_EQ(45, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(attach, exec_other_file, 300)
{
	const char *bin = upng_path("bin/target");
	const char *bin32 = upng_path(OTHER_TARGET);
	char cmd[512];

	spawn(_metadata, &self->child, bin);
	add_probe(_metadata, self->ev, bin32, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(expect_sum(0, 5), ask(_metadata, &self->child, "call 5", "sum"));
	snprintf(cmd, sizeof(cmd), "exec %s 33", bin32);
	ASSERT_EQ(expect_sum(0, 33), ask(_metadata, &self->child, cmd, "sum"));
	EXPECT_EQ(0, upng_finish(&self->child, RECV_MS));
	EXPECT_EQ(33, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(attach, dlopen_after_register, 300)
{
	const char *lib = upng_path("lib/libuptarget.so");
	char cmd[512], line[256];

	add_probe(_metadata, self->ev, lib, "lib_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	spawn(_metadata, &self->child, upng_path("bin/dltarget"));
	snprintf(cmd, sizeof(cmd), "load %s", lib);
	ASSERT_EQ(0, upng_send(&self->child, cmd));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	ASSERT_EQ(0, strncmp(line, "loaded ", 7)) TH_LOG("'%s'", line);
	ASSERT_EQ(5LL * 59 * 60 / 2 + 60,
		  ask(_metadata, &self->child, "call 60", "sum"));
	EXPECT_EQ(60, upng_probe_hits(self->ev));
	/* Unmapped and mapped again: the breakpoint comes back. */
	ASSERT_EQ(0, upng_send(&self->child, "unload"));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	ASSERT_STREQ("unloaded", line);
	ASSERT_EQ(0, upng_send(&self->child, cmd));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	ASSERT_EQ(0, strncmp(line, "loaded ", 7)) TH_LOG("'%s'", line);
	ASSERT_EQ(5LL * 9 * 10 / 2 + 10,
		  ask(_metadata, &self->child, "call 10", "sum"));
	quit(_metadata, &self->child);
	EXPECT_EQ(70, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(attach, dlopen_before_register, 300)
{
	const char *lib = upng_path("lib/libuptarget.so");
	char cmd[512], line[256];

	spawn(_metadata, &self->child, upng_path("bin/dltarget"));
	snprintf(cmd, sizeof(cmd), "load %s", lib);
	ASSERT_EQ(0, upng_send(&self->child, cmd));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	ASSERT_EQ(0, strncmp(line, "loaded ", 7)) TH_LOG("'%s'", line);
	add_probe(_metadata, self->ev, lib, "lib_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(5LL * 24 * 25 / 2 + 25,
		  ask(_metadata, &self->child, "call 25", "sum"));
	quit(_metadata, &self->child);
	EXPECT_EQ(25, upng_probe_hits(self->ev));
}

#if defined(__x86_64__)
TEST_F_TIMEOUT(attach, compat_32bit, 300)
{
	const char *bin32 = upng_path("bin/target32");

	ASSERT_EQ(1, upng_elf_is32(bin32));
	spawn(_metadata, &self->child, bin32);
	add_probe(_metadata, self->ev, bin32, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(expect_sum(0, 100), ask(_metadata, &self->child, "call 100", "sum"));
	ASSERT_EQ(expect_sum(0, 30), ask(_metadata, &self->child, "fork 30", "child"));
	ASSERT_EQ(0, ask(_metadata, &self->child, "", "waited"));
	quit(_metadata, &self->child);
	EXPECT_EQ(130, upng_probe_hits(self->ev));
}
#endif

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

#define THREADS 4
#define PER_THREAD 500

TEST_F_TIMEOUT(attach, four_threads, 600)
{
	const char *bin = upng_path("bin/target");
	unsigned long long *vals;
	long long sum = 0;
	char cmd[64], *trace;
	long n, i, t;

	for (t = 0; t < THREADS; t++)
		sum += expect_sum(t * 1000000L, PER_THREAD);
	spawn(_metadata, &self->child, bin);
	add_probe(_metadata, self->ev, bin, "target_func", "x=" UPNG_ARG1 ":u64");
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	snprintf(cmd, sizeof(cmd), "threads %d %d", THREADS, PER_THREAD);
	ASSERT_EQ(sum, ask(_metadata, &self->child, cmd, "sum"));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	quit(_metadata, &self->child);
	EXPECT_EQ(THREADS * PER_THREAD, upng_probe_hits(self->ev));

	/* Every argument value traced exactly once: no lost, no double hit. */
	trace = upng_trace_read();
	ASSERT_NE(NULL, trace);
	vals = calloc(THREADS * PER_THREAD + 1, sizeof(*vals));
	ASSERT_NE(NULL, vals);
	n = upng_trace_values(trace, self->ev, "x=", vals, THREADS * PER_THREAD + 1);
	free(trace);
	ASSERT_EQ(THREADS * PER_THREAD, n);
	qsort(vals, n, sizeof(*vals), cmp_ull);
	for (t = 0; t < THREADS; t++) {
		for (i = 0; i < PER_THREAD; i++) {
			ASSERT_EQ(t * 1000000ULL + i, vals[t * PER_THREAD + i])
				TH_LOG("thread %ld, value %ld", t, i);
		}
	}
	free(vals);
}

#if defined(__x86_64__)
TEST_F_TIMEOUT(attach, four_threads_32bit, 600)
{
	const char *bin32 = upng_path("bin/target32");
	long long sum = 0;
	char cmd[64];
	int t;

	for (t = 0; t < THREADS; t++)
		sum += expect_sum(t * 1000000L, 200);
	spawn(_metadata, &self->child, bin32);
	add_probe(_metadata, self->ev, bin32, "target_func", NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	snprintf(cmd, sizeof(cmd), "threads %d 200", THREADS);
	ASSERT_EQ(sum, ask(_metadata, &self->child, cmd, "sum"));
	quit(_metadata, &self->child);
	EXPECT_EQ(THREADS * 200, upng_probe_hits(self->ev));
}
#endif

/* More threads than a page of XOL slots: none may block for ever or miss. */
#define MANY 48

TEST_F_TIMEOUT(attach, many_threads, 600)
{
	static const char * const bins[] = { "bin/target", OTHER_TARGET };
	long long sum = 0;
	char cmd[64];
	int b, t;

	for (t = 0; t < MANY; t++)
		sum += expect_sum(t * 1000000L, 40);
	snprintf(cmd, sizeof(cmd), "threads %d 40", MANY);
	for (b = 0; b < 2; b++) {
		const char *bin = upng_path(bins[b]);
		char ev[80];

		snprintf(ev, sizeof(ev), "%s_%d", self->ev, b);
		spawn(_metadata, &self->child, bin);
		add_probe(_metadata, ev, bin, "target_func", NULL);
		ASSERT_EQ(0, upng_probe_enable(ev, true));
		EXPECT_EQ(sum, ask(_metadata, &self->child, cmd, "sum"));
		quit(_metadata, &self->child);
		EXPECT_EQ(MANY * 40, upng_probe_hits(ev)) TH_LOG("%s", bins[b]);
		EXPECT_EQ(0, upng_probe_del(ev));
	}
}

TEST_HARNESS_MAIN
