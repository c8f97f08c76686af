// SPDX-License-Identifier: GPL-2.0
/*
 * Target of the race tests (races.c), driven over stdin/stdout. It prints
 * "ready PAGE" (the run-time address of its race page, see racetarget.h)
 * and then obeys one command per line:
 *   call F N       call race_F(i) for i < N (F is a, b or c), print "sum S"
 *                  (S = the sum of the results)
 *   spin F T [US]  start T threads calling race_F in a loop (sleeping US
 *                  microseconds between calls), each checking the results
 *                  and sampling race_sem; print "spinning T"
 *   stop           stop them; print "calls N errors E semmin M semmax X"
 *   sem            print "sem V", V = race_sem as the program reads it
 *   mlock          mlockall(MCL_CURRENT | MCL_FUTURE); print "mlock 0" or
 *                  "mlock -ERRNO"
 *   drop N         drop the process's copy of the race page N times
 *                  (MADV_DONTNEED); print "dropped D", D the drops done
 *   wstart         make the race page writable (PROT_READ | PROT_WRITE |
 *                  PROT_EXEC) and start a thread that writes race_word
 *                  without pause, alternately 0 (the file's value) and a
 *                  new counter value, and after each write reads it back;
 *                  print "writing" once it runs
 *   wstop          stop it, make the page read-only and executable again;
 *                  print "wrote W lost L expected E got G": W counter
 *                  values written, L reads that did not return the value
 *                  last written, the first of them E (written) and G (read)
 *   quit           exit(0)
 * race_sem is a USDT-style semaphore: a 16-bit counter in the program's
 * data, RACE_SEM_BASE in the file, that the kernel counts probes in.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "racetarget.h"

short race_sem = RACE_SEM_BASE;

/* The semaphore as a USDT probe site reads it: from memory, each time. */
static short sem_now(void)
{
	return __atomic_load_n(&race_sem, __ATOMIC_RELAXED);
}

#define MAX_SPIN 16
/* Iterations of the pause between a write of race_word and its check. */
#define WHOLD 1000

typedef long (*race_fn)(long x);

struct spinner {
	pthread_t thread;
	race_fn fn, expect;
	long base, sleep_us;
	long calls, errors;
	short semmin, semmax;
};

static struct spinner spinners[MAX_SPIN];
static int nspin, spin_stop;

static long expect_a(long x) { return RACE_A(x); }
static long expect_b(long x) { return RACE_B(x); }
static long expect_c(long x) { return RACE_C(x); }

static int pick(char f, race_fn *fn, race_fn *expect)
{
	switch (f) {
	case 'a':
		*fn = race_a;
		*expect = expect_a;
		return 0;
	case 'b':
		*fn = race_b;
		*expect = expect_b;
		return 0;
	case 'c':
		*fn = race_c;
		*expect = expect_c;
		return 0;
	}
	return -1;
}

static void *spin_main(void *arg)
{
	struct spinner *s = arg;
	long i = 0, x;
	short v;

	s->semmin = sem_now();
	s->semmax = s->semmin;
	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED)) {
		x = s->base + i++;
		if (s->fn(x) != s->expect(x))
			s->errors++;
		v = sem_now();
		if (v < s->semmin)
			s->semmin = v;
		if (v > s->semmax)
			s->semmax = v;
		s->calls++;
		if (s->sleep_us)
			usleep(s->sleep_us);
	}
	return NULL;
}

static void spin_start(char f, int n, long sleep_us)
{
	race_fn fn, expect;
	int t;

	if (nspin || n < 1 || n > MAX_SPIN || pick(f, &fn, &expect)) {
		printf("error spin\n");
		return;
	}
	spin_stop = 0;
	for (t = 0; t < n; t++) {
		spinners[t] = (struct spinner){
			.fn = fn, .expect = expect, .sleep_us = sleep_us,
			.base = t * 100000000L,
		};
		if (pthread_create(&spinners[t].thread, NULL, spin_main,
				   &spinners[t])) {
			printf("error thread\n");
			spin_stop = 1;
			while (t--)
				pthread_join(spinners[t].thread, NULL);
			return;
		}
	}
	nspin = n;
	printf("spinning %d\n", n);
}

static void spin_end(void)
{
	long calls = 0, errors = 0;
	short lo = sem_now(), hi = lo;
	int t;

	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
	for (t = 0; t < nspin; t++) {
		pthread_join(spinners[t].thread, NULL);
		calls += spinners[t].calls;
		errors += spinners[t].errors;
		if (spinners[t].semmin < lo)
			lo = spinners[t].semmin;
		if (spinners[t].semmax > hi)
			hi = spinners[t].semmax;
	}
	nspin = 0;
	printf("calls %ld errors %ld semmin %d semmax %d\n", calls, errors,
	       lo, hi);
}

/* ---- writes into the race page ---- */

enum { W_IDLE, W_WRITE, W_QUIT };

static pthread_t writer;
static int writer_started, wphase, wack;
static unsigned long wcount, wwrites, wlost, wexp, wgot;

static void whold(void)
{
	int i;

	for (i = 0; i < WHOLD; i++)
		asm volatile("" ::: "memory");
}

static void wset(unsigned long v)
{
	__atomic_store_n(&race_word, v, __ATOMIC_RELAXED);
}

static void wcheck(unsigned long expect)
{
	unsigned long v = __atomic_load_n(&race_word, __ATOMIC_RELAXED);

	if (v == expect)
		return;
	if (!wlost++) {
		wexp = expect;
		wgot = v;
	}
}

static void *writer_main(void *arg)
{
	int ph;

	for (;;) {
		ph = __atomic_load_n(&wphase, __ATOMIC_ACQUIRE);
		if (ph == W_QUIT)
			break;
		if (ph != W_WRITE) {
			__atomic_store_n(&wack, ph, __ATOMIC_RELEASE);
			usleep(200);
			continue;
		}
		/* The page is the file's again when race_word is 0 ... */
		wset(0);
		__atomic_store_n(&wack, W_WRITE, __ATOMIC_RELEASE);
		whold();
		wcheck(0);
		/* ... and differs from it again from this write on. */
		wset(++wcount);
		wwrites++;
		whold();
		wcheck(wcount);
	}
	return NULL;
}

static void wstart(void)
{
	if (!writer_started) {
		if (pthread_create(&writer, NULL, writer_main, NULL)) {
			printf("error thread\n");
			return;
		}
		writer_started = 1;
	}
	if (__atomic_load_n(&wphase, __ATOMIC_RELAXED) != W_IDLE) {
		printf("error writing already\n");
		return;
	}
	if (mprotect(race_page, RACE_PAGE_SIZE,
		     PROT_READ | PROT_WRITE | PROT_EXEC)) {
		printf("error mprotect %d\n", -errno);
		return;
	}
	wwrites = 0;
	wlost = 0;
	wexp = 0;
	wgot = 0;
	__atomic_store_n(&wphase, W_WRITE, __ATOMIC_RELEASE);
	while (__atomic_load_n(&wack, __ATOMIC_ACQUIRE) != W_WRITE)
		sched_yield();
	printf("writing\n");
}

static void wstop(void)
{
	__atomic_store_n(&wphase, W_IDLE, __ATOMIC_RELEASE);
	while (writer_started &&
	       __atomic_load_n(&wack, __ATOMIC_ACQUIRE) != W_IDLE)
		sched_yield();
	if (mprotect(race_page, RACE_PAGE_SIZE, PROT_READ | PROT_EXEC)) {
		printf("error mprotect %d\n", -errno);
		return;
	}
	printf("wrote %lu lost %lu expected %lu got %lu\n", wwrites, wlost,
	       wexp, wgot);
}

int main(int argc, char **argv)
{
	race_fn fn, expect;
	long long sum;
	char line[256], f;
	long n, i, us;
	int t;

	printf("ready %lx\n", (unsigned long)race_page);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4)) {
		us = 0;
		if (sscanf(line, "call %c %ld", &f, &n) == 2 &&
		    !pick(f, &fn, &expect)) {
			sum = 0;
			for (i = 0; i < n; i++)
				sum += fn(i);
			printf("sum %lld\n", sum);
		} else if (sscanf(line, "spin %c %d %ld", &f, &t, &us) >= 2) {
			spin_start(f, t, us);
		} else if (!strncmp(line, "stop", 4)) {
			spin_end();
		} else if (!strncmp(line, "sem", 3)) {
			printf("sem %d\n", sem_now());
		} else if (sscanf(line, "drop %ld", &n) == 1) {
			for (i = 0; i < n; i++)
				if (madvise(race_page, RACE_PAGE_SIZE,
					    MADV_DONTNEED))
					break;
			printf("dropped %ld\n", i);
		} else if (!strncmp(line, "mlock", 5)) {
			printf("mlock %d\n",
			       mlockall(MCL_CURRENT | MCL_FUTURE) ? -errno : 0);
		} else if (!strncmp(line, "wstart", 6)) {
			wstart();
		} else if (!strncmp(line, "wstop", 5)) {
			wstop();
		} else {
			printf("error unknown command\n");
		}
		fflush(stdout);
	}
	if (writer_started) {
		__atomic_store_n(&wphase, W_QUIT, __ATOMIC_RELEASE);
		pthread_join(writer, NULL);
	}
	if (nspin) {
		__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
		for (t = 0; t < nspin; t++)
			pthread_join(spinners[t].thread, NULL);
	}
	return 0;
}
