// SPDX-License-Identifier: GPL-2.0
/*
 * Restartable sequences and probes: a probed instruction of an rseq
 * critical section behaves as unprobed. A thread preempted, migrated or
 * signalled while the instruction runs out of line (stepped, in a boosted
 * slot) has its critical section aborted as if it were at the
 * instruction, as the kernel does for any thread in the section.
 *
 * More threads than CPUs, their affinities shuffled all the time, add 1
 * to per-CPU counters in a critical section whose commit store is probed
 * (site_rseq_incr() in sites.S): no increment is lost, and the probe
 * counts every store. glibc registers each thread's struct rseq; the
 * guest kernel has CONFIG_RSEQ.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"

#define MAX_THREADS	16
#define INCREMENTS	20000
#define MAX_CPUS	64

/* A cache line of its own per CPU. */
static long counts[MAX_CPUS * 8];
static int stop, ncpu;
static pid_t tids[MAX_THREADS];

struct worker {
	pthread_t thread;
	int idx;
	long aborts;
};

#if defined(__riscv) && !defined(RSEQ_SIG)
/*
 * glibc 2.36 has no RSEQ_SIG for riscv and registers no rseq: each thread
 * registers its own, with the signature sites_riscv.S puts before its
 * abort handler (csrr mhartid, x0, as the kernel's rseq selftests).
 */
#define OWN_RSEQ_SIG	0xf1401073
static __thread struct rseq own_rseq;	/* 32-byte aligned: <sys/rseq.h> */
static __thread int own_rseq_on;
#endif

/* This thread's struct rseq, which glibc (or my_rseq()) registered. */
static struct rseq *my_rseq(void)
{
	char *tp;

#ifdef OWN_RSEQ_SIG
	if (!own_rseq_on &&
	    syscall(__NR_rseq, &own_rseq, sizeof(own_rseq), 0, OWN_RSEQ_SIG))
		return NULL;
	own_rseq_on = 1;
	return &own_rseq;
#endif

#if defined(__aarch64__)
	asm volatile("mrs %0, tpidr_el0" : "=r" (tp));
#elif defined(__riscv)
	asm volatile("mv %0, tp" : "=r" (tp));
#elif defined(__s390x__)
	tp = __builtin_thread_pointer();
#else
	asm volatile("mov %%fs:0, %0" : "=r" (tp));
#endif
	return (struct rseq *)(tp + __rseq_offset);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct rseq *rs = my_rseq();
	long done = 0;

	if (!rs)
		abort();
	__atomic_store_n(&tids[w->idx], (pid_t)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	while (done < INCREMENTS) {
		if (site_rseq_incr(counts, rs))
			w->aborts++;
		else
			done++;
	}
	return NULL;
}

/* Moves the workers from CPU to CPU until told to stop. */
static void *shuffle_main(void *arg)
{
	int nthreads = *(int *)arg, i = 0;
	cpu_set_t set;
	pid_t tid;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		tid = __atomic_load_n(&tids[i % nthreads], __ATOMIC_SEQ_CST);
		CPU_ZERO(&set);
		CPU_SET((i / nthreads) % ncpu, &set);
		if (tid)
			sched_setaffinity(tid, sizeof(set), &set);
		i++;
		usleep(200);
	}
	return NULL;
}

/*
 * Every commit is a hit, stepped out of line where the architecture does
 * not boost it (riscv, s390): under TCG on a loaded host that takes
 * longer than the harness's default 30 s.
 */
FIXTURE(rseq) {
};

FIXTURE_SETUP(rseq)
{
}

FIXTURE_TEARDOWN(rseq)
{
}

TEST_F_TIMEOUT(rseq, per_cpu_counter, 300)
{
	struct worker w[MAX_THREADS];
	int nthreads, i, c;
	pthread_t shuffler;
	struct upng_sym sym;
	long sum = 0, aborts = 0, hits;
	char ev[64];

	upng_die_with_parent();
#ifdef OWN_RSEQ_SIG
	ASSERT_NE(NULL, my_rseq()) TH_LOG("rseq: %s", strerror(errno));
#else
	ASSERT_LT(0, (int)__rseq_size)
		TH_LOG("glibc registered no rseq: no CONFIG_RSEQ?");
#endif
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	ASSERT_LT(0, ncpu);
	ASSERT_GE(MAX_CPUS, ncpu);
	nthreads = 2 * ncpu + 1 < MAX_THREADS ? 2 * ncpu + 1 : MAX_THREADS;
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_rseq_probe", &sym));
	upng_evname(ev, sizeof(ev), "rseq");
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));

	ASSERT_EQ(0, pthread_create(&shuffler, NULL, shuffle_main, &nthreads));
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .idx = i };
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, worker_main,
					    &w[i]));
	}
	for (i = 0; i < nthreads; i++) {
		ASSERT_EQ(0, pthread_join(w[i].thread, NULL));
		aborts += w[i].aborts;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, pthread_join(shuffler, NULL));
	hits = upng_probe_hits(ev);
	ASSERT_EQ(0, upng_probe_del(ev));

	for (c = 0; c < ncpu; c++)
		sum += counts[8 * c];
	TH_LOG("%d threads on %d CPUs: %ld increments, %ld aborted sections, %ld hits",
	       nthreads, ncpu, sum, aborts, hits);
	EXPECT_EQ((long)nthreads * INCREMENTS, sum)
		TH_LOG("%ld increments lost", (long)nthreads * INCREMENTS - sum);
	/* Every commit was a hit; an aborted section may have been one. */
	EXPECT_LE((long)nthreads * INCREMENTS, hits);
	EXPECT_GE((long)nthreads * INCREMENTS + aborts, hits);
}

TEST_HARNESS_MAIN
