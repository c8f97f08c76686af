/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the stress test (stress.c) and its worker program (stress_target.c)
 * share: the probed functions, the error codes, and the layout of the
 * shared memory (a memfd the workers inherit and keep across exec) through
 * which the workers count their calls and errors and the test steers them.
 */
#ifndef STRESS_H
#define STRESS_H

#include <stdint.h>

#define ST_MAX_WORKERS	8
#define ST_MAX_THREADS	8
#define ST_NMANY	8	/* st_many_0() .. st_many_7() */
#define ST_MAX_CHILDREN	3	/* forked children a worker has at a time */
#define ST_MAX_EVENTS	32
/* Bytes of [uprobes] holding the return-probe trampoline (slot 0). */
#define ST_TRAMP_BYTES	64

/* The probed functions of stress_target; the counters are indexed by them. */
enum st_fn {
	ST_FN_SUM,	/* st_sum(): checksum of a buffer */
	ST_FN_REC,	/* st_rec(): recursion through a pointer */
	ST_FN_LEAF,	/* st_leaf(): leaf, also called in a second mapping */
	ST_FN_USDT_A,	/* st_usdt_a(): called only while st_semaphore != 0 */
	ST_FN_USDT_B,	/* st_usdt_b(): likewise */
	ST_FN_FORKER,	/* st_forker(): fork()s from inside, returns twice */
	ST_FN_EXECER,	/* st_execer(): exec()s from inside, never returns */
	ST_FN_EXITER,	/* st_exiter(): _exit()s from inside */
	ST_FN_KSITE,	/* st_ksite(): the probe the killer toggles */
	ST_FN_MANY,	/* st_many_N(): ST_NMANY small functions */
	ST_NFN = ST_FN_MANY + ST_NMANY,
};

/* Results of the probed functions, for their callers to check. */
#define ST_LEAF(x)	((x) * 5 + 1)
#define ST_USDT_A(x)	((x) ^ 0x5a5a)
#define ST_USDT_B(x)	((x) + 77)
#define ST_KSITE(x)	((x) * 9 - 4)
#define ST_FORKER(x, child) ((x) * 3 + (child))

static inline long st_many_value(int i, long x)
{
	return x * (i + 3) + i;
}

/* st_rec(n): rec(0) = 1, rec(n) = 2 rec(n - 1) + n */
static inline long st_rec_value(long n)
{
	return (3L << n) - n - 2;
}

/* The next number of the xorshift64* generator of state S. */
static inline uint64_t st_rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/*
 * The USDT-style semaphores of stress_target, in its .probes section (so
 * in the file, not in .bss), raised by the probes defined with them.
 */
extern unsigned short st_semaphore, st_ksem;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Errors a worker (or one of its children) records in its slot. */
enum st_err {
	ST_E_NONE,
	ST_E_SUM,	/* a: len, b: seed, c: result */
	ST_E_REC,	/* a: n, b: result */
	ST_E_LEAF,	/* a: x, b: result, c: 1 if through the second mapping */
	ST_E_USDT,	/* a: x, b: result */
	ST_E_MANY,	/* a: index, b: x, c: result */
	ST_E_KSITE,	/* a: x, b: result */
	ST_E_SEM_EXACT,	/* a: st_semaphore, b: expected */
	ST_E_SEM_RANGE,	/* a: st_semaphore */
	ST_E_KSEM_RANGE, /* a: st_ksem */
	ST_E_FORKER,	/* a: result, b: expected */
	ST_E_CHILD,	/* a: pid, b: wait status */
	ST_E_SIGNAL,	/* a: signal, b: ip, c: si_code (fatal signal) */
	ST_E_SIG_LOST,	/* a: sent, b: handled */
	ST_E_SYS,	/* a: source line, b: errno */
	ST_E_FINAL_SEM,	/* a: st_semaphore, b: st_ksem, no probe left */
	ST_E_XOL_IP,	/* a: interrupted ip in [uprobes], b: its start */
	ST_E_NR,
};

static inline const char *st_err_name(long code)
{
	static const char *const names[ST_E_NR] = {
		[ST_E_NONE] = "none",
		[ST_E_SUM] = "st_sum wrong (len, seed, result)",
		[ST_E_REC] = "st_rec wrong (n, result)",
		[ST_E_LEAF] = "st_leaf wrong (x, result, second mapping)",
		[ST_E_USDT] = "st_usdt wrong (x, result)",
		[ST_E_MANY] = "st_many wrong (index, x, result)",
		[ST_E_KSITE] = "st_ksite wrong (x, result)",
		[ST_E_SEM_EXACT] = "st_semaphore not as expected (value, expected)",
		[ST_E_SEM_RANGE] = "st_semaphore out of range (value)",
		[ST_E_KSEM_RANGE] = "st_ksem out of range (value)",
		[ST_E_FORKER] = "st_forker wrong (result, expected)",
		[ST_E_CHILD] = "child failed (pid, wait status)",
		[ST_E_SIGNAL] = "fatal signal (signal, ip, si_code)",
		[ST_E_SIG_LOST] = "signals lost (sent, handled)",
		[ST_E_SYS] = "system call failed (line, errno)",
		[ST_E_FINAL_SEM] = "semaphore not 0 without probes (st_semaphore, st_ksem)",
		[ST_E_XOL_IP] = "signal frame ip in [uprobes] (ip, start)",
	};

	return code >= 0 && code < ST_E_NR ? names[code] : "?";
}

enum st_mode { ST_STEADY = 1, ST_CHAOS };
/*
 * Commands to the workers. RUN: compute, fork, exec, map. PARK: stop the
 * threads, reap the children, wait for the signals sent, acknowledge
 * (ack = cmd_gen) and wait. FINAL: no probe is left; check that the
 * semaphores read 0, compute once more and exit.
 */
enum st_cmd { ST_RUN = 1, ST_PARK, ST_FINAL };

/* One worker: its process, its exec()ed successors and forked children. */
struct st_slot {
	long started[ST_NFN];	/* function entries about to happen */
	long finished[ST_NFN];	/* function entries that returned */
	long errors;
	long err_code, err_a, err_b, err_c;	/* the first error */
	long sig_sent;		/* written by the signal sender */
	long sig_handled;
	long forks, forkers, execs, maps, unmaps, mprotects, alias_calls;
	long children;		/* forked, not reaped yet */
	long sem_reads;
	unsigned long alias_base, alias_len;	/* second mapping, if any */
	int pid, gen, ready, ack;
	int tids[ST_MAX_THREADS];	/* compute threads (0: none) */
};

struct st_shm {
	int mode, nworkers, nthreads;
	int cmd, cmd_gen;
	int sem_exact;		/* st_semaphore must read this, or -1 */
	int helpers_stop;
	unsigned long seed;
	struct st_slot slot[ST_MAX_WORKERS];

	/* Figures and the first error of the helper processes. */
	long sig_sent, sig_eagain, sig_thread;
	long tr_sessions, tr_stops, tr_steps, tr_pokes, tr_signals, tr_gone,
	     tr_tramp;
	long tg_ops, tg_enables, tg_disables, tg_dels, tg_adds, tg_bursts;
	long tg_hits[ST_MAX_EVENTS];	/* hits of deleted incarnations */
	long k_rounds, k_killed_unreg, k_killed_reg, k_completed,
	     k_write_us;
	int helper_failed;
	char helper_msg[512];
};

#endif /* STRESS_H */
