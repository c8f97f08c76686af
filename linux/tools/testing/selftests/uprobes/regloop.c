// SPDX-License-Identifier: GPL-2.0
/*
 * Register/unregister in a loop while four threads hit the probe: the
 * process never crashes, every call returns the right value, hits happen
 * only while the probe is registered (none after the last unregister),
 * and no hit is traced twice.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"

#define THREADS 4
#define ROUNDS 40
#define TAG_SHIFT 40

struct hitter {
	pthread_t thread;
	long tag;
	long calls, errors;
	int *stop;
};

static void *hitter_main(void *arg)
{
	struct hitter *h = arg;
	long x;

	while (!__atomic_load_n(h->stop, __ATOMIC_ACQUIRE)) {
		x = (h->tag << TAG_SHIFT) | h->calls;
		if (site_work(x) != SITE_WORK(x))
			h->errors++;
		__atomic_store_n(&h->calls, h->calls + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static long calls_of(struct hitter *h)
{
	return __atomic_load_n(&h->calls, __ATOMIC_ACQUIRE);
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(regloop) {
	char ev[64];
};

FIXTURE_SETUP(regloop)
{
	struct upng_sym sym;

	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "regloop");
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_work_probe", &sym));
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    "x=%di:u64"));
}

FIXTURE_TEARDOWN(regloop)
{
	upng_probe_del(self->ev);
}

TEST_F_TIMEOUT(regloop, four_threads, 600)
{
	struct hitter h[THREADS];
	unsigned long long *vals;
	long hits, calls = 0, n, i, mark[THREADS];
	int stop = 0, t, round;
	char *trace;

	for (t = 0; t < THREADS; t++) {
		h[t] = (struct hitter){ .tag = t + 1, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&h[t].thread, NULL, hitter_main,
					    &h[t]));
	}
	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(0, upng_probe_enable(self->ev, true));
		usleep(2000 + round * 100);
		ASSERT_EQ(0, upng_probe_enable(self->ev, false));
		usleep(1000);
	}
	/* Unregistered: the threads go on, the hit count must not. */
	hits = upng_probe_hits(self->ev);
	for (t = 0; t < THREADS; t++)
		mark[t] = calls_of(&h[t]);
	for (t = 0; t < THREADS; t++)
		while (calls_of(&h[t]) < mark[t] + 2000)
			sched_yield();
	ASSERT_EQ(hits, upng_probe_hits(self->ev));
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (t = 0; t < THREADS; t++) {
		pthread_join(h[t].thread, NULL);
		EXPECT_EQ(0, h[t].errors) TH_LOG("thread %d", t);
		calls += h[t].calls;
	}
	TH_LOG("%ld hits of %ld calls", hits, calls);
	ASSERT_LT(0, hits);
	ASSERT_GT(calls, hits);

	trace = upng_trace_read();
	ASSERT_NE(NULL, trace);
	vals = calloc(hits + 1, sizeof(*vals));
	ASSERT_NE(NULL, vals);
	n = upng_trace_values(trace, self->ev, "x=", vals, hits + 1);
	free(trace);
	ASSERT_LT(0, n);
	ASSERT_GE(hits, n);
	qsort(vals, n, sizeof(*vals), cmp_ull);
	for (i = 0; i < n; i++) {
		unsigned long long tag = vals[i] >> TAG_SHIFT;
		unsigned long long seq = vals[i] & ((1ULL << TAG_SHIFT) - 1);

		ASSERT_TRUE(tag >= 1 && tag <= THREADS) TH_LOG("%llx", vals[i]);
		ASSERT_GT((unsigned long long)h[tag - 1].calls, seq);
		if (i)
			ASSERT_NE(vals[i - 1], vals[i]) TH_LOG("traced twice");
	}
	free(vals);
}

TEST_HARNESS_MAIN
