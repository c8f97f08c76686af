// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded stress test of the engine. Worker processes (bin/stress_target,
 * NWORKERS of them with NTHREADS compute threads each) hit entry and return
 * probes on checksum, recursion, leaf and USDT-semaphore functions, some in
 * a second mapping of the binary that they map, mprotect() and munmap();
 * they fork children that compute and exit, fork from inside a probed
 * function, and re-exec themselves from inside one. Meanwhile, in helper
 * processes:
 *  - a signal sender queues SIGRTMIN at the workers (whose handler calls
 *    probed functions),
 *  - a tracer PTRACE_SEIZEs a worker thread, interrupts it, reads the
 *    probed entry of st_sum() (it must see the probe's int3 over the
 *    file's bytes) and writes back what it read, plants an int3 of its own
 *    on st_cold() (code no thread runs) and restores it, single-steps a
 *    few instructions and detaches; no stop may show an instruction
 *    pointer inside [uprobes] beyond the trampoline, nor a SIGTRAP that is
 *    not a step,
 *  - a killer forks a task that enables or disables (registers or
 *    unregisters) a probe and SIGKILLs it at a random moment of the write,
 *  - in the chaos case only, a toggler enables, disables, deletes and adds
 *    back the probes that are not pinned, in a loop.
 *
 * steady: the probes stay as they are (but the killer's), the workers exec
 * only between computations: every probe's uprobe_profile hits must equal
 * the calls the workers counted, and every signal sent must be handled.
 * chaos: the toggler runs and the workers exec with their threads running;
 * every probe's hits are at most the calls, those of the pinned probes at
 * least the calls that completed.
 *
 * At the end of each case, with the workers parked: every probed address of
 * every (non-writable) mapping of the binary in every worker holds an int3
 * exactly when one of its probes is enabled, all other bytes are the
 * file's, and the semaphores count the enabled probes; once all probes are
 * deleted, the text is the file's again and the semaphores read 0; the
 * workers then check that themselves, compute once more and must exit 0
 * (each verified all its results, no thread or child died of a signal).
 * Finally a fresh process reads 0 semaphores, a fresh mapping of the file
 * too, the file's bytes (through the page cache) are unchanged, and the
 * kernel logged no splat.
 *
 * On arm64 "int3" reads: the probe's brk #5 (UPNG_BKPT), the tracer's own
 * brk #0 (upng_regs.h), four bytes each.
 *
 * Environment: UPROBES_NG_STRESS_SECS seconds for the two cases together
 * (40% steady, 60% chaos); by default DEFAULT_SECS, at most half of
 * UPROBES_NG_TIMEOUT, the seconds the runner gives the program.
 * UPROBES_NG_STRESS_SEED repeats a run's random choices (as far as the
 * scheduling allows). UPROBES_NG_STRESS_KILLER=0 leaves the killer out:
 * the 6.12 engine leaves the breakpoints of a SIGKILLed (un)registration
 * behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "stress.h"
#include "upng.h"
#include "upng_regs.h"

#define NWORKERS	3
#define NTHREADS	3
#define DEFAULT_SECS	150	/* both cases together */
#define MIN_SECS	20
#define WAIT_MS		60000	/* longest wait for a process or a stop */
#define PROGRESS_MS	10000
/* Whether words A and B (in memory order) differ past a breakpoint. */
#define DIFF_PAST_BKPT(a, b)						\
	memcmp((char *)&(a) + UPNG_BKPT_SIZE, (char *)&(b) + UPNG_BKPT_SIZE, \
	       sizeof(long) - UPNG_BKPT_SIZE)

#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)
#define ADD(v, x) __atomic_add_fetch(&(v), (x), __ATOMIC_SEQ_CST)

struct st_event {
	const char *tag;	/* part of the event name */
	const char *sym;	/* probed function (its first instruction) */
	char kind;		/* 'p': entry, 'r': return probe */
	int fn;			/* enum st_fn: the calls it counts */
	int sem;		/* 1: st_semaphore, 2: st_ksem */
	bool pinned;		/* chaos: enabled throughout, never toggled */
	bool killer;		/* toggled by the killer, in both cases */
};

#define EV(t, s, k, f, ...) \
	{ .tag = t, .sym = s, .kind = k, .fn = f, __VA_ARGS__ }

static const struct st_event st_events[] = {
	EV("sum", "st_sum", 'p', ST_FN_SUM, .pinned = true),
	EV("sumret", "st_sum", 'r', ST_FN_SUM),
	EV("rec", "st_rec", 'p', ST_FN_REC),
	EV("recret", "st_rec", 'r', ST_FN_REC, .pinned = true),
	EV("leaf", "st_leaf", 'p', ST_FN_LEAF),
	EV("leafret", "st_leaf", 'r', ST_FN_LEAF),
	EV("usdta", "st_usdt_a", 'p', ST_FN_USDT_A, .sem = 1),
	EV("usdtaret", "st_usdt_a", 'r', ST_FN_USDT_A, .sem = 1),
	EV("usdtb", "st_usdt_b", 'p', ST_FN_USDT_B, .sem = 1),
	EV("forkret", "st_forker", 'r', ST_FN_FORKER),
	EV("execret", "st_execer", 'r', ST_FN_EXECER),
	EV("exitret", "st_exiter", 'r', ST_FN_EXITER),
	EV("many0", "st_many_0", 'p', ST_FN_MANY + 0),
	EV("many1", "st_many_1", 'p', ST_FN_MANY + 1),
	EV("many2", "st_many_2", 'p', ST_FN_MANY + 2),
	EV("many3", "st_many_3", 'p', ST_FN_MANY + 3),
	EV("many4", "st_many_4", 'p', ST_FN_MANY + 4),
	EV("many5", "st_many_5", 'p', ST_FN_MANY + 5),
	EV("many6", "st_many_6", 'p', ST_FN_MANY + 6),
	EV("many7", "st_many_7", 'p', ST_FN_MANY + 7),
	EV("ksite", "st_ksite", 'p', ST_FN_KSITE, .sem = 2, .killer = true),
};

#define NEV ((int)ARRAY_SIZE(st_events))

enum { H_SIGNALS, H_TRACER, H_KILLER, H_TOGGLER, H_NR };
static const char *const helper_names[H_NR] = {
	"signal sender", "tracer", "killer", "toggler",
};

struct st_ctx {
	int mode, secs;
	bool killer;
	uint64_t seed;
	char target[PATH_MAX];
	unsigned char *file;		/* the target's bytes at the start */
	size_t file_len;
	uint64_t hash;
	ino_t ino;
	unsigned long off[NEV];		/* file offsets of the probes */
	char name[NEV][64];
	int kidx;			/* the killer's event */
	unsigned long sem_off, ksem_off, sem_addr, ksem_addr;
	unsigned long poke_addr, poke_off;	/* st_sum(): pinned probe */
	unsigned long cold_addr, cold_off;	/* st_cold(): never runs */
	int shm_fd;
	struct st_shm *shm;
	pid_t workers[NWORKERS];
	int wdone[NWORKERS], wstatus[NWORKERS];
	pid_t helpers[H_NR];
	int hdone[H_NR], hstatus[H_NR];
	int kmsg;
};

/* ---- budget ---- */

/* The number in environment variable NAME, or -1. */
static int env_int(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : -1;
}

/*
 * Seconds for both cases; *LIMIT: the runner's limit for this program
 * (-1: none known). By default at most half of it, for the set-up, the
 * checks and a slower (debug) kernel.
 */
static int budget(int *limit)
{
	int secs = env_int("UPROBES_NG_STRESS_SECS");

	*limit = env_int("UPROBES_NG_TIMEOUT");
	if (secs <= 0) {
		secs = DEFAULT_SECS;
		if (*limit > 0 && secs > *limit / 2)
			secs = *limit / 2;
	}
	return secs < MIN_SECS ? MIN_SECS : secs;
}

/* ---- processes ---- */

/* Wait up to MS for PID; 1 with *STATUS, 0 on time-out, or -errno. */
static int wait_for(pid_t pid, int *status, long ms, int flags)
{
	long long end = upng_now_ms() + ms;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, flags | WNOHANG);
		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (upng_now_ms() > end)
			return 0;
		if (!r)
			usleep(2000);
	}
}

static void helper_fail(struct st_ctx *c, const char *fmt, ...)
{
	struct st_shm *shm = c->shm;
	int zero = 0;
	va_list ap;

	if (!__atomic_compare_exchange_n(&shm->helper_failed, &zero, 1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	va_start(ap, fmt);
	vsnprintf(shm->helper_msg, sizeof(shm->helper_msg), fmt, ap);
	va_end(ap);
}

static pid_t start_helper(struct st_ctx *c, int (*fn)(struct st_ctx *))
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid) {
		upng_die_with_parent();
		_exit(fn(c) ? 1 : 0);
	}
	return pid;
}

static pid_t spawn_worker(struct st_ctx *c, int w)
{
	char fd[16], slot[16];
	pid_t pid;

	snprintf(fd, sizeof(fd), "%d", c->shm_fd);
	snprintf(slot, sizeof(slot), "%d", w);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid) {
		upng_die_with_parent();
		execl(c->target, c->target, "--worker", fd, slot, "0",
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Is worker W still running? Records its status when it ended. */
static bool worker_alive(struct st_ctx *c, int w)
{
	if (c->wdone[w] || c->workers[w] <= 0)
		return false;
	if (waitpid(c->workers[w], &c->wstatus[w], WNOHANG) == c->workers[w]) {
		c->wdone[w] = 1;
		return false;
	}
	return true;
}

static bool helper_alive(struct st_ctx *c, int h)
{
	if (c->hdone[h] || c->helpers[h] <= 0)
		return false;
	if (waitpid(c->helpers[h], &c->hstatus[h], WNOHANG) == c->helpers[h]) {
		c->hdone[h] = 1;
		return false;
	}
	return true;
}

/* Tell the workers CMD; returns the generation they acknowledge. */
static int command(struct st_ctx *c, int cmd)
{
	int gen = ADD(c->shm->cmd_gen, 1);

	STORE(c->shm->cmd, cmd);
	return gen;
}

static bool wait_parked(struct st_ctx *c, int gen)
{
	long long end = upng_now_ms() + WAIT_MS;
	int w, parked;

	do {
		for (w = parked = 0; w < NWORKERS; w++)
			if (!worker_alive(c, w) ||
			    LOAD(c->shm->slot[w].ack) == gen)
				parked++;
		if (parked == NWORKERS)
			return true;
		usleep(10000);
	} while (upng_now_ms() < end);
	return false;
}

/* ---- /proc/PID/maps ---- */

struct st_map {
	unsigned long start, end, off, ino;
	char perms[8];
	char name[PATH_MAX];
};

#define MAX_MAPS 256

static int read_maps(pid_t pid, struct st_map *m, int max)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		m[n].name[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %lu %4095s", &m[n].start,
			   &m[n].end, m[n].perms, &m[n].off, &m[n].ino,
			   m[n].name) >= 5)
			n++;
	}
	fclose(f);
	return n;
}

/* ---- the signal sender ---- */

static int signals_main(struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	uint64_t rs = c->seed ^ 0x5165;
	union sigval v;
	pid_t pid, tid;
	int w, r;

	while (!LOAD(shm->helpers_stop)) {
		for (w = 0; w < NWORKERS; w++) {
			struct st_slot *s = &shm->slot[w];

			pid = LOAD(s->pid);
			/* A few in flight: the workers must get to work too. */
			if (!LOAD(s->ready) ||
			    LOAD(s->sig_sent) - LOAD(s->sig_handled) >= 4)
				continue;
			/*
			 * Chaos: at a thread too. A signal queued at a thread
			 * is lost with the thread (exec kills it), so the
			 * steady case sends to the process only.
			 */
			tid = 0;
			if (c->mode == ST_CHAOS && !(st_rnd(&rs) % 3))
				tid = LOAD(s->tids[st_rnd(&rs) % NTHREADS]);
			if (tid > 0) {
				r = syscall(SYS_tgkill, pid, tid, SIGRTMIN);
			} else {
				v.sival_int = st_rnd(&rs) & 0xffff;
				r = sigqueue(pid, SIGRTMIN, v);
			}
			if (!r) {
				ADD(s->sig_sent, 1);
				ADD(shm->sig_sent, 1);
				if (tid > 0)
					ADD(shm->sig_thread, 1);
			} else if (errno == EAGAIN) {
				ADD(shm->sig_eagain, 1);
			} else if (errno != ESRCH) {
				helper_fail(c, "signal sender: %s",
					    strerror(errno));
				return 1;
			}
		}
		usleep(2000 + st_rnd(&rs) % 8000);
	}
	return 0;
}

/* ---- the tracer ---- */

enum { STOP_GONE, STOP_INTERRUPT, STOP_STEP, STOP_SIGNAL, STOP_ERROR };

struct tracee {
	struct st_ctx *c;
	pid_t pid, tid;
	int inject;			/* signal to deliver on resuming */
	unsigned long lo, hi;		/* [uprobes] of the process */
	struct st_map maps[MAX_MAPS];
	int nmaps;
};

static void tr_maps(struct tracee *t)
{
	int i;

	t->nmaps = read_maps(t->pid, t->maps, MAX_MAPS);
	if (t->nmaps < 0)
		t->nmaps = 0;
	t->lo = 0;
	t->hi = 0;
	for (i = 0; i < t->nmaps; i++) {
		if (!strcmp(t->maps[i].name, "[uprobes]")) {
			t->lo = t->maps[i].start;
			t->hi = t->maps[i].end;
		}
	}
}

/* A traced thread that went away must be reaped by its tracer. */
static void tr_reap(struct tracee *t)
{
	int status;

	ADD(t->c->shm->tr_gone, 1);
	wait_for(t->tid, &status, 10000, __WALL);
}

/* 1: ip acceptable, 0: not in any mapping known, -1: in an XOL slot. */
static int tr_ip_where(struct tracee *t, unsigned long ip)
{
	int i;

	if (t->lo && ip >= t->lo && ip < t->hi)
		return ip - t->lo < ST_TRAMP_BYTES ? 1 : -1;
	for (i = 0; i < t->nmaps; i++)
		if (ip >= t->maps[i].start && ip < t->maps[i].end &&
		    t->maps[i].perms[2] == 'x')
			return 1;
	return 0;
}

static int tr_check_ip(struct tracee *t, unsigned long ip, const char *what)
{
	int where = tr_ip_where(t, ip);

	if (!where) {
		tr_maps(t);	/* mapped since, or the first hit made [uprobes] */
		where = tr_ip_where(t, ip);
	}
	if (t->lo && ip >= t->lo && ip < t->hi)
		ADD(t->c->shm->tr_tramp, 1);
	if (where > 0)
		return 0;
	if (where < 0)
		helper_fail(t->c, "tracer: %s of %d at %#lx: [uprobes] %#lx-%#lx",
			    what, t->tid, ip, t->lo, t->hi);
	else
		helper_fail(t->c, "tracer: %s of %d at %#lx, in no executable mapping",
			    what, t->tid, ip);
	return -1;
}

/*
 * How the tracer steps a thread: PTRACE_SINGLESTEP; riscv has no
 * hardware single-step (EIO) and stepping with breakpoints would trap
 * the other threads running the same code: there the thread runs to its
 * next syscall stop (or signal) instead, which the same checks apply to.
 */
#if defined(__riscv)
#define TR_STEP		PTRACE_SYSCALL
#define TR_STEP_NAME	"PTRACE_SYSCALL"
#else
#define TR_STEP		PTRACE_SINGLESTEP
#define TR_STEP_NAME	"PTRACE_SINGLESTEP"
#endif

/*
 * Whether the SIGTRAP of a stop, SI, is a single-step's: a step
 * (TRAP_TRACE; TRAP_HWBKPT, a PER event, on s390), a step over a syscall
 * (TRAP_BRKPT on x86; on arm64 and s390 the generic report, SI_USER from
 * no process), a step into a signal handler (si_code SIGTRAP; riscv's
 * syscall stops too); but not a breakpoint (x86's int3: SI_KERNEL,
 * arm64's brk, riscv's ebreak and s390's 0x0001: TRAP_BRKPT) nor a
 * SIGTRAP sent by someone.
 */
static bool tr_step_trap(const siginfo_t *si)
{
#ifdef UPNG_STEP_SI_USER
	if (si->si_code == SI_USER)
		return !si->si_pid;
	return si->si_code > 0 && si->si_code != TRAP_BRKPT;
#else
	return si->si_code != SI_KERNEL && si->si_code > 0;
#endif
}

/* Classify the stop STATUS of the tracee and check where it is. */
static int tr_stop(struct tracee *t, int status, const char *what)
{
	struct st_shm *shm = t->c->shm;
	struct user_regs_struct regs;
	int sig, kind;
	siginfo_t si;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		ADD(shm->tr_gone, 1);
		if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
			helper_fail(t->c, "tracer: thread %d (worker pid %d) killed by signal %d",
				    t->tid, t->pid, WTERMSIG(status));
			return STOP_ERROR;
		}
		return STOP_GONE;
	}
	ADD(shm->tr_stops, 1);
	sig = WSTOPSIG(status);
	if ((unsigned int)status >> 16 == PTRACE_EVENT_STOP) {
		kind = STOP_INTERRUPT;
	} else if (sig == SIGTRAP) {
		if (ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &si))
			goto gone;
		kind = STOP_STEP;
		if (!tr_step_trap(&si)) {
			memset(&regs, 0, sizeof(regs));
			upng_getregs(t->tid, &regs);
			helper_fail(t->c, "tracer: %s: %d got a SIGTRAP (si_code %#x) at %#llx",
				    what, t->tid, si.si_code,
				    (unsigned long long)UPNG_REGS_PC(&regs));
			t->inject = SIGTRAP;
			return STOP_ERROR;
		}
	} else {
		/* Signal-delivery stop: deliver it on resuming. */
		t->inject = sig;
		ADD(shm->tr_signals, 1);
		kind = STOP_SIGNAL;
	}
	if (upng_getregs(t->tid, &regs))
		goto gone;
	if (tr_check_ip(t, UPNG_REGS_PC(&regs), what))
		return STOP_ERROR;
	return kind;
gone:
	if (errno != ESRCH) {
		helper_fail(t->c, "tracer: ptrace of thread %d: %s", t->tid,
			    strerror(errno));
		return STOP_ERROR;
	}
	tr_reap(t);
	return STOP_GONE;
}

/* PEEKTEXT: 0, 1 (the tracee went away) or -1. */
static int tr_peek(struct tracee *t, unsigned long addr, long *word)
{
	errno = 0;
	*word = ptrace(PTRACE_PEEKTEXT, t->tid, (void *)addr, NULL);
	if (!errno)
		return 0;
	if (errno == ESRCH) {
		tr_reap(t);
		return 1;
	}
	helper_fail(t->c, "tracer: PEEKTEXT %#lx of %d: %s", addr, t->tid,
		    strerror(errno));
	return -1;
}

static int tr_poke(struct tracee *t, unsigned long addr, long word)
{
	long back;
	int r;

	if (ptrace(PTRACE_POKETEXT, t->tid, (void *)addr, (void *)word)) {
		if (errno == ESRCH) {
			tr_reap(t);
			return 1;
		}
		helper_fail(t->c, "tracer: POKETEXT %#lx of %d: %s", addr,
			    t->tid, strerror(errno));
		return -1;
	}
	ADD(t->c->shm->tr_pokes, 1);
	r = tr_peek(t, addr, &back);
	if (!r && back != word) {
		helper_fail(t->c, "tracer: POKETEXT %#lx of %d wrote %016lx, PEEKTEXT reads %016lx",
			    addr, t->tid, word, back);
		return -1;
	}
	return r;
}

/*
 * What a debugger observes: at the armed probe it reads the probe's int3
 * over the file's bytes. It may only write back what it read (the file's
 * byte would disarm the probe, for every thread of the process). Its own
 * int3 goes on st_cold(), which no thread runs, and the original back.
 * 0, 1 (the tracee went away) or -1.
 */
static int tr_pokes(struct tracee *t)
{
	struct st_ctx *c = t->c;
	long file_p, file_q, w;
	int r;

	memcpy(&file_p, c->file + c->poke_off, sizeof(file_p));
	memcpy(&file_q, c->file + c->cold_off, sizeof(file_q));
	r = tr_peek(t, c->poke_addr, &w);
	if (r)
		return r;
	if (!upng_is_bkpt(&w) || DIFF_PAST_BKPT(w, file_p)) {
		helper_fail(c, "tracer: st_sum %#lx in %d: %016lx, not int3 over %016lx",
			    c->poke_addr, t->tid, w, file_p);
		return -1;
	}
	r = tr_poke(t, c->poke_addr, w);
	if (r)
		return r;
	r = tr_peek(t, c->cold_addr, &w);
	if (r)
		return r;
	if (w != file_q) {
		helper_fail(c, "tracer: st_cold %#lx in %d: %016lx, the file has %016lx",
			    c->cold_addr, t->tid, w, file_q);
		return -1;
	}
	r = tr_poke(t, c->cold_addr, upng_with_dbg_bkpt(w));
	if (r)
		return r;
	return tr_poke(t, c->cold_addr, w);
}

/* Tgid of thread TID, or -1. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* One session on thread TID of worker W; 0, or -1 after an error. */
static int tr_session(struct st_ctx *c, int w, pid_t tid, uint64_t *rs)
{
	struct st_shm *shm = c->shm;
	static struct tracee t;
	int status, r, kind, i, steps;

	memset(&t, 0, sizeof(t));
	t.c = c;
	t.tid = tid;
	t.pid = LOAD(shm->slot[w].pid);
	if (t.pid <= 0 || ptrace(PTRACE_SEIZE, tid, NULL, NULL)) {
		ADD(shm->tr_gone, 1);
		return 0;
	}
	ADD(shm->tr_sessions, 1);
	if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL)) {
		if (errno == ESRCH) {
			tr_reap(&t);
			return 0;
		}
		helper_fail(c, "tracer: PTRACE_INTERRUPT %d: %s", tid,
			    strerror(errno));
		goto err;
	}
	r = wait_for(tid, &status, WAIT_MS, __WALL);
	if (!r) {
		helper_fail(c, "tracer: %d did not stop within %d s of PTRACE_INTERRUPT",
			    tid, WAIT_MS / 1000);
		goto err;
	}
	if (r < 0) {
		ADD(shm->tr_gone, 1);
		return 0;
	}
	if (!WIFSTOPPED(status))
		return tr_stop(&t, status, "exit") == STOP_ERROR ? -1 : 0;
	/* A recycled thread id: not a worker's thread, leave it alone. */
	if (tgid_of(tid) != t.pid) {
		if ((unsigned int)status >> 16 != PTRACE_EVENT_STOP)
			t.inject = WSTOPSIG(status);
		ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)t.inject);
		ADD(shm->tr_gone, 1);
		return 0;
	}
	tr_maps(&t);
	kind = tr_stop(&t, status, "PTRACE_INTERRUPT stop");
	if (kind == STOP_GONE)
		return 0;
	if (kind == STOP_ERROR)
		goto err;

	r = tr_pokes(&t);
	if (r > 0)
		return 0;
	if (r < 0)
		goto err;

	steps = 1 + st_rnd(rs) % 8;
	for (i = 0; i < steps; i++) {
		if (ptrace(TR_STEP, tid, NULL, (void *)(long)t.inject)) {
			if (errno == ESRCH) {
				tr_reap(&t);
				return 0;
			}
			helper_fail(c, "tracer: " TR_STEP_NAME " %d: %s", tid,
				    strerror(errno));
			goto err;
		}
		t.inject = 0;
		r = wait_for(tid, &status, WAIT_MS, __WALL);
		if (!r) {
			helper_fail(c, "tracer: %d did not stop within %d s of a step",
				    tid, WAIT_MS / 1000);
			goto err;
		}
		if (r < 0) {
			ADD(shm->tr_gone, 1);
			return 0;
		}
		kind = tr_stop(&t, status, "single-step stop");
		if (kind == STOP_GONE)
			return 0;
		if (kind == STOP_ERROR)
			goto err;
		if (kind == STOP_STEP)
			ADD(shm->tr_steps, 1);
	}
	if (ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)t.inject)) {
		if (errno == ESRCH) {
			tr_reap(&t);
			return 0;
		}
		helper_fail(c, "tracer: PTRACE_DETACH %d: %s", tid,
			    strerror(errno));
		return -1;
	}
	return 0;
err:
	ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)t.inject);
	return -1;
}

static int tracer_main(struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	uint64_t rs = c->seed ^ 0x7ace;
	struct st_slot *s;
	pid_t tid;
	int w, i;

	while (!LOAD(shm->helpers_stop)) {
		w = st_rnd(&rs) % NWORKERS;
		s = &shm->slot[w];
		i = st_rnd(&rs) % (NTHREADS + 1);
		/* A compute thread mostly, the main thread now and then. */
		tid = i == NTHREADS ? LOAD(s->pid) : LOAD(s->tids[i]);
		if (LOAD(s->ready) && tid > 0 && tr_session(c, w, tid, &rs))
			return 1;
		usleep(10000 + st_rnd(&rs) % 40000);
	}
	return 0;
}

/* ---- the killer ---- */

/*
 * Toggle the killer's probe from a forked task, SIGKILLed at a random
 * moment of its write: before, while or after it (un)registers. Every
 * fourth write is left to complete, to learn how long one takes.
 */
static int killer_main(struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	const char *ev = c->name[c->kidx];
	uint64_t rs = c->seed ^ 0x4111;
	long long t0, write_us = 20000;
	int state, status, r, round;
	bool measure;
	pid_t pid;

	for (round = 0; !LOAD(shm->helpers_stop); round++) {
		state = upng_probe_enabled(ev);
		if (state < 0) {
			helper_fail(c, "killer: reading %s/enable: %s", ev,
				    strerror(-state));
			return 1;
		}
		measure = !(round % 4);
		t0 = upng_now_ms();
		pid = fork();
		if (!pid) {
			r = upng_probe_enable(ev, !state);
			_exit(r ? -r : 0);
		}
		if (pid < 0) {
			helper_fail(c, "killer: fork: %s", strerror(errno));
			return 1;
		}
		if (!measure) {
			usleep(st_rnd(&rs) % (write_us * 3 / 2 + 1));
			kill(pid, SIGKILL);
		}
		r = wait_for(pid, &status, WAIT_MS, 0);
		if (!r) {
			helper_fail(c, "killer: the task writing %d to %s/enable %s within %d s",
				    !state, ev, measure ? "did not finish" :
				    "did not die of SIGKILL", WAIT_MS / 1000);
			kill(pid, SIGKILL);
			return 1;
		}
		if (r < 0) {
			helper_fail(c, "killer: waitpid: %s", strerror(-r));
			return 1;
		}
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			ADD(shm->k_completed, 1);
			if (measure)
				write_us = (write_us +
					    (upng_now_ms() - t0) * 1000) / 2;
		} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
			   !measure) {
			if (state)
				ADD(shm->k_killed_unreg, 1);
			else
				ADD(shm->k_killed_reg, 1);
		} else {
			helper_fail(c, "killer: writing %d to %s/enable: %s (status %#x)",
				    !state, ev, WIFEXITED(status) ?
				    strerror(WEXITSTATUS(status)) : "killed",
				    status);
			return 1;
		}
		ADD(shm->k_rounds, 1);
		STORE(shm->k_write_us, write_us);
		usleep(st_rnd(&rs) % 10000);
	}
	return 0;
}

/* ---- the toggler ---- */

static int ev_add(struct st_ctx *c, int i)
{
	const struct st_event *e = &st_events[i];
	unsigned long sem = e->sem == 1 ? c->sem_off :
			    e->sem == 2 ? c->ksem_off : 0;

	if (e->kind == 'r')
		return upng_retprobe_add_sem(c->name[i], c->target, c->off[i],
					     sem, NULL);
	return upng_probe_add_sem(c->name[i], c->target, c->off[i], sem, NULL);
}

static bool toggled(int i)
{
	return !st_events[i].pinned && !st_events[i].killer;
}

/*
 * Chaos: disable, enable, delete (counting the hits of the incarnation
 * that goes) and add back the probes that are neither pinned nor the
 * killer's; now and then disable all that are enabled and enable them
 * again.
 */
static int toggler_main(struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	uint64_t rs = c->seed ^ 0x7066;
	bool exists[NEV], enabled[NEV];
	const char *op = "";
	int i, err = 0;
	long hits;

	for (i = 0; i < NEV; i++) {
		exists[i] = true;
		enabled[i] = true;
	}
	while (!LOAD(shm->helpers_stop) && !err) {
		ADD(shm->tg_ops, 1);
		if (!(st_rnd(&rs) % 25)) {
			ADD(shm->tg_bursts, 1);
			op = "disable (burst)";
			for (i = 0; i < NEV && !err; i++)
				if (toggled(i) && enabled[i])
					err = upng_probe_enable(c->name[i], false);
			if (err) {
				i--;
				break;
			}
			op = "enable (burst)";
			for (i = 0; i < NEV && !err; i++)
				if (toggled(i) && enabled[i])
					err = upng_probe_enable(c->name[i], true);
			if (err) {
				i--;
				break;
			}
			continue;
		}
		do
			i = st_rnd(&rs) % NEV;
		while (!toggled(i));
		if (!exists[i]) {
			op = "add";
			err = ev_add(c, i);
			exists[i] = !err;
			enabled[i] = false;
			ADD(shm->tg_adds, 1);
		} else if (enabled[i]) {
			op = "disable";
			err = upng_probe_enable(c->name[i], false);
			enabled[i] = !!err;
			ADD(shm->tg_disables, 1);
		} else if (st_rnd(&rs) % 3) {
			op = "enable";
			err = upng_probe_enable(c->name[i], true);
			enabled[i] = !err;
			ADD(shm->tg_enables, 1);
		} else {
			op = "delete";
			hits = upng_probe_hits(c->name[i]);
			err = upng_probe_del(c->name[i]);
			if (!err) {
				ADD(shm->tg_hits[i], hits > 0 ? hits : 0);
				exists[i] = false;
			}
			ADD(shm->tg_dels, 1);
		}
		usleep(st_rnd(&rs) % 15000);
	}
	if (err) {
		helper_fail(c, "toggler: %s %s: %s", op, c->name[i],
			    strerror(-err));
		return 1;
	}
	return 0;
}

/* ---- checks ---- */

/*
 * Whether B, at file offset OFF, is the byte there of the breakpoint of
 * an enabled probe.
 */
static bool armed_byte(struct st_ctx *c, const bool *armed, unsigned long off,
		       unsigned char b)
{
	unsigned char bp[UPNG_BKPT_SIZE];
	unsigned long k;
	int i;

	upng_insn_put(bp, UPNG_BKPT_SIZE, UPNG_BKPT);	/* in memory order */
	for (i = 0; i < NEV; i++) {
		k = off - c->off[i];
		if (armed[i] && k < UPNG_BKPT_SIZE && b == bp[k])
			return true;
	}
	return false;
}

/* Enabled probes counted in semaphore SEM: one per probed address. */
static unsigned int sem_expected(struct st_ctx *c, const bool *armed, int sem)
{
	unsigned int n = 0;
	int i, j;

	for (i = 0; i < NEV; i++) {
		if (st_events[i].sem != sem || !armed[i])
			continue;
		for (j = 0; j < i; j++)
			if (st_events[j].sem == sem && armed[j] &&
			    c->off[j] == c->off[i])
				break;
		n += j == i;
	}
	return n;
}

/*
 * Compare the memory of worker W with the file and the probes: the
 * executable mappings of the binary and its second mapping (whatever its
 * protection) hold the file's bytes, with an int3 at the probes ARMED;
 * the semaphores count them. The number of differences; the first in WHY.
 */
static int check_worker(struct st_ctx *c, int w, const bool *armed,
			char *why, size_t len)
{
	struct st_slot *s = &c->shm->slot[w];
	unsigned long page = sysconf(_SC_PAGESIZE);
	unsigned long abase = LOAD(s->alias_base);
	unsigned long alen = (LOAD(s->alias_len) + page - 1) & ~(page - 1);
	unsigned int sem = sem_expected(c, armed, 1);
	unsigned int ksem = sem_expected(c, armed, 2);
	static struct st_map maps[MAX_MAPS];
	static unsigned char buf[65536];
	unsigned long addr, foff, n, j;
	pid_t pid = LOAD(s->pid);
	int nmaps, i, e, fd, bad = 0, text = 0;
	bool in_alias;
	unsigned short v;
	char path[64];

	nmaps = read_maps(pid, maps, MAX_MAPS);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (nmaps < 0 || fd < 0) {
		snprintf(why, len, "worker %d (pid %d): cannot read its memory",
			 w, pid);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	for (i = 0; i < nmaps; i++) {
		struct st_map *m = &maps[i];

		if (m->ino != c->ino || strcmp(m->name, c->target) ||
		    m->perms[1] == 'w')
			continue;
		/* Not the others (relocated data made read-only). */
		in_alias = alen && m->start >= abase && m->end <= abase + alen;
		if (m->perms[2] != 'x' && !in_alias)
			continue;
		text += !in_alias;
		for (addr = m->start; addr < m->end; addr += n) {
			foff = m->off + (addr - m->start);
			if (foff >= c->file_len)
				break;
			n = m->end - addr;
			if (n > sizeof(buf))
				n = sizeof(buf);
			if (n > c->file_len - foff)
				n = c->file_len - foff;
			if (pread(fd, buf, n, addr) != (ssize_t)n) {
				if (m->perms[0] == '-')
					break;	/* not readable */
				if (!bad++)
					snprintf(why, len, "pid %d: cannot read %#lx: %s",
						 pid, addr, strerror(errno));
				break;
			}
			for (j = memcmp(buf, c->file + foff, n) ? 0 : n;
			     j < n; j++) {
				if (buf[j] == c->file[foff + j] ||
				    armed_byte(c, armed, foff + j, buf[j]))
					continue;
				if (!bad++)
					snprintf(why, len, "pid %d: %#lx (%s %#lx): %#x, file %#x",
						 pid, addr + j, m->perms,
						 foff + j, buf[j],
						 c->file[foff + j]);
			}
			for (e = 0; e < NEV; e++) {
				if (!armed[e] || c->off[e] < foff ||
				    c->off[e] + UPNG_BKPT_SIZE > foff + n ||
				    upng_is_bkpt(buf + c->off[e] - foff))
					continue;
				if (!bad++)
					snprintf(why, len, "pid %d: %s enabled, %#lx (%s): %#x",
						 pid, c->name[e],
						 addr + c->off[e] - foff,
						 m->perms,
						 buf[c->off[e] - foff]);
			}
		}
	}
	if (!text && !bad++)
		snprintf(why, len, "pid %d: no executable mapping of the target",
			 pid);
	if (pread(fd, &v, sizeof(v), c->sem_addr) != sizeof(v) || v != sem) {
		if (!bad++)
			snprintf(why, len, "pid %d: st_semaphore %u, %u probes on it",
				 pid, v, sem);
	}
	if (pread(fd, &v, sizeof(v), c->ksem_addr) != sizeof(v) || v != ksem) {
		if (!bad++)
			snprintf(why, len, "pid %d: st_ksem %u, %u probes on it",
				 pid, v, ksem);
	}
	close(fd);
	return bad;
}

static int check_memory(struct __test_metadata *_metadata, struct st_ctx *c,
			const bool *armed, const char *when)
{
	char why[512] = "";
	int w, bad = 0;

	for (w = 0; w < NWORKERS; w++) {
		if (!worker_alive(c, w))
			continue;
		/* The first difference only. */
		bad += check_worker(c, w, armed, why, bad ? 0 : sizeof(why));
	}
	if (bad)
		TH_LOG("%s: %d differences, the first: %s", when, bad, why);
	return bad;
}

static long slot_total(struct st_ctx *c, size_t field)
{
	long sum = 0;
	int w;

	for (w = 0; w < NWORKERS; w++)
		sum += LOAD(*(long *)((char *)&c->shm->slot[w] + field));
	return sum;
}

#define TOTAL(c, field) slot_total(c, offsetof(struct st_slot, field))

static void progress(struct st_ctx *c, const char *what, long long ms)
{
	struct st_shm *shm = c->shm;
	long calls = 0;
	int w, f;

	for (w = 0; w < NWORKERS; w++)
		for (f = 0; f < ST_NFN; f++)
			calls += LOAD(shm->slot[w].finished[f]);
	ksft_print_msg("%s %lld s: %ld calls, %ld hits of st_sum; %ld forks, %ld execs, %ld maps\n",
		       what, ms / 1000, calls, upng_probe_hits(c->name[0]),
		       TOTAL(c, forks) + TOTAL(c, forkers), TOTAL(c, execs),
		       TOTAL(c, maps));
	ksft_print_msg("%s %lld s: %ld signals, %ld handled; tracer %ld sessions, %ld steps\n",
		       what, ms / 1000, LOAD(shm->sig_sent),
		       TOTAL(c, sig_handled), LOAD(shm->tr_sessions),
		       LOAD(shm->tr_steps));
	ksft_print_msg("%s %lld s: killer %ld rounds, toggler %ld ops; %ld errors\n",
		       what, ms / 1000, LOAD(shm->k_rounds), LOAD(shm->tg_ops),
		       TOTAL(c, errors));
	fflush(stdout);
}

/* The workers' own errors, each with its first one spelled out. */
static void report_worker_errors(struct __test_metadata *_metadata,
				 struct st_ctx *c)
{
	struct st_slot *s;
	long code;
	int w;

	for (w = 0; w < NWORKERS; w++) {
		s = &c->shm->slot[w];
		code = LOAD(s->err_code);
		EXPECT_EQ(0, LOAD(s->errors))
			TH_LOG("worker %d (pid %d): %ld errors, the first: %s: %#lx %#lx %#lx",
			       w, c->workers[w], LOAD(s->errors),
			       st_err_name(code),
			       LOAD(s->err_a), LOAD(s->err_b), LOAD(s->err_c));
	}
}

/* Hits against calls, once the workers are parked. */
static void check_hits(struct __test_metadata *_metadata, struct st_ctx *c,
		       const bool *exists, const long *hits)
{
	long started[ST_NFN] = { 0 }, finished[ST_NFN] = { 0 };
	struct st_shm *shm = c->shm;
	long s, f, total;
	int i, w;

	for (w = 0; w < NWORKERS; w++) {
		for (i = 0; i < ST_NFN; i++) {
			started[i] += LOAD(shm->slot[w].started[i]);
			finished[i] += LOAD(shm->slot[w].finished[i]);
		}
	}
	for (i = 0; i < NEV; i++) {
		const struct st_event *e = &st_events[i];

		s = started[e->fn];
		f = finished[e->fn];
		total = (exists[i] ? hits[i] : 0) + LOAD(shm->tg_hits[i]);
		/* Never more hits than entries: no hit counted twice. */
		EXPECT_LE(total, s)
			TH_LOG("%s (%c %s): %ld hits, %ld calls", c->name[i],
			       e->kind, e->sym, total, s);
		if (c->mode == ST_STEADY && !e->killer) {
			/* Enabled throughout, no call cut short: exact. */
			EXPECT_EQ(f, total)
				TH_LOG("%s (%c %s): %ld hits, %ld calls",
				       c->name[i], e->kind, e->sym, total, f);
		} else if (e->pinned) {
			/* Every call that returned was hit. */
			EXPECT_LE(f, total)
				TH_LOG("%s (%c %s): %ld hits, %ld calls completed",
				       c->name[i], e->kind, e->sym, total, f);
		}
	}
	if (c->mode == ST_STEADY) {
		for (i = 0; i < ST_NFN; i++) {
			EXPECT_EQ(started[i], finished[i])
				TH_LOG("function %d: %ld calls started, %ld returned",
				       i, started[i], finished[i]);
		}
	}
	/* It did run. */
	EXPECT_LT(0, finished[ST_FN_SUM]);
	EXPECT_LT(0, finished[ST_FN_REC]);
	EXPECT_LT(0, finished[ST_FN_FORKER]);
	EXPECT_LT(0, finished[ST_FN_EXECER]);
	EXPECT_LT(0, TOTAL(c, forks));
	EXPECT_LT(0, TOTAL(c, maps));
	EXPECT_LT(0, TOTAL(c, sig_handled));
	EXPECT_LT(0, LOAD(shm->tr_sessions));
	if (c->killer)
		EXPECT_LT(0, LOAD(shm->k_rounds));
	if (c->mode == ST_CHAOS)
		EXPECT_LT(0, LOAD(shm->tg_ops));
}

/* ---- the test ---- */

FIXTURE(stress) {
	struct st_ctx *c;
};

FIXTURE_VARIANT(stress) {
	int mode;
	int percent;	/* of the time budget */
};

FIXTURE_VARIANT_ADD(stress, steady) {
	.mode = ST_STEADY,
	.percent = 40,
};

FIXTURE_VARIANT_ADD(stress, chaos) {
	.mode = ST_CHAOS,
	.percent = 60,
};

static int sym(struct st_ctx *c, const char *name, unsigned long *off,
	       unsigned long *addr)
{
	struct upng_sym s;
	int err = upng_elf_sym(c->target, name, &s);

	if (err)
		return err;
	*off = s.offset;
	if (addr)
		*addr = s.value;
	return 0;
}

FIXTURE_SETUP(stress)
{
	struct st_ctx *c;
	const char *env;
	struct stat st;
	int limit, i, j;
	ssize_t n;
	int fd;

	upng_die_with_parent();
	c = calloc(1, sizeof(*c));
	self->c = c;
	ASSERT_NE(NULL, c);
	c->kmsg = -1;
	c->shm_fd = -1;
	c->mode = variant->mode;
	c->kmsg = upng_kmsg_open();
	ASSERT_LE(0, c->kmsg) TH_LOG("/dev/kmsg: %s", strerror(-c->kmsg));
	c->secs = budget(&limit) * variant->percent / 100;
	c->killer = env_int("UPROBES_NG_STRESS_KILLER") != 0;
	env = getenv("UPROBES_NG_STRESS_SEED");
	c->seed = env && *env ? strtoull(env, NULL, 0) :
		  (uint64_t)upng_now_ms() * 0x9e3779b97f4a7c15ULL ^ getpid();
	c->seed |= 1;

	ASSERT_NE(NULL, realpath(upng_path("bin/stress_target"), c->target))
		TH_LOG("bin/stress_target: %s", strerror(errno));
	fd = open(c->target, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	c->ino = st.st_ino;
	c->file_len = st.st_size;
	c->file = malloc(c->file_len);
	ASSERT_NE(NULL, c->file);
	n = pread(fd, c->file, c->file_len, 0);
	close(fd);
	ASSERT_EQ((ssize_t)c->file_len, n);
	c->hash = upng_file_hash(c->target);

	c->kidx = -1;
	for (i = 0; i < NEV; i++) {
		ASSERT_EQ(0, sym(c, st_events[i].sym, &c->off[i], NULL))
			TH_LOG("%s", st_events[i].sym);
		if (st_events[i].killer)
			c->kidx = i;
		ASSERT_FALSE(upng_is_bkpt(c->file + c->off[i]));
	}
	ASSERT_LE(0, c->kidx);
	ASSERT_EQ(0, sym(c, "st_semaphore", &c->sem_off, &c->sem_addr));
	ASSERT_EQ(0, sym(c, "st_ksem", &c->ksem_off, &c->ksem_addr));
	ASSERT_EQ(0, c->file[c->sem_off] | c->file[c->sem_off + 1]);
	ASSERT_EQ(0, c->file[c->ksem_off] | c->file[c->ksem_off + 1]);
	ASSERT_EQ(0, sym(c, "st_sum", &c->poke_off, &c->poke_addr));
	ASSERT_EQ(0, sym(c, "st_cold", &c->cold_off, &c->cold_addr));
	/*
	 * The tracer's word writes must not cover another probe: a stale
	 * byte written back over a probe toggled meanwhile would be a
	 * debugger's breakpoint (or undo the probe's).
	 */
	for (i = 0; i < NEV; i++) {
		ASSERT_FALSE(c->off[i] > c->poke_off &&
			     c->off[i] < c->poke_off + sizeof(long))
			TH_LOG("%s within a word of st_sum", st_events[i].sym);
		ASSERT_FALSE(c->off[i] >= c->cold_off &&
			     c->off[i] < c->cold_off + sizeof(long))
			TH_LOG("%s within a word of st_cold", st_events[i].sym);
		for (j = 0; j < NEV; j++) {
			/* One semaphore per probed address. */
			ASSERT_FALSE(c->off[i] == c->off[j] &&
				     st_events[i].sem != st_events[j].sem);
		}
	}
	ASSERT_EQ(c->poke_off, c->off[0]);	/* the pinned "sum" probe */

	c->shm_fd = memfd_create("uprobes-ng-stress", 0);
	ASSERT_LE(0, c->shm_fd);
	ASSERT_EQ(0, ftruncate(c->shm_fd, sizeof(struct st_shm)));
	c->shm = mmap(NULL, sizeof(struct st_shm), PROT_READ | PROT_WRITE,
		      MAP_SHARED, c->shm_fd, 0);
	ASSERT_NE(MAP_FAILED, c->shm);
	ASSERT_EQ(0, upng_trace_reset());
	ksft_print_msg("stress %s: %d s, %d workers x %d threads, %d probes, seed %#llx%s\n",
		       c->mode == ST_STEADY ? "steady" : "chaos", c->secs,
		       NWORKERS, NTHREADS, NEV, (unsigned long long)c->seed,
		       c->killer ? "" : ", no killer");
	fflush(stdout);
}

FIXTURE_TEARDOWN(stress)
{
	struct st_ctx *c = self->c;
	int i;

	if (!c)
		return;
	if (c->shm && c->shm != MAP_FAILED)
		STORE(c->shm->helpers_stop, 1);
	for (i = 0; i < H_NR; i++) {
		if (c->helpers[i] > 0 && !c->hdone[i]) {
			kill(c->helpers[i], SIGKILL);
			waitpid(c->helpers[i], NULL, 0);
		}
	}
	for (i = 0; i < NWORKERS; i++) {
		if (c->workers[i] > 0 && !c->wdone[i]) {
			kill(c->workers[i], SIGKILL);
			waitpid(c->workers[i], NULL, 0);
		}
	}
	for (i = 0; i < NEV; i++)
		if (c->name[i][0])
			upng_probe_del(c->name[i]);
	if (c->shm && c->shm != MAP_FAILED)
		munmap(c->shm, sizeof(struct st_shm));
	if (c->shm_fd >= 0)
		close(c->shm_fd);
	if (c->kmsg >= 0)
		close(c->kmsg);
	free(c->file);
	free(c);
}

/* Start the workers and the helpers, let them run, stop the helpers. */
static void run(struct __test_metadata *_metadata, struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	const char *what = c->mode == ST_STEADY ? "steady" : "chaos";
	long long t0, next, ms;
	int i, w, ready;

	memset(shm, 0, sizeof(*shm));
	shm->mode = c->mode;
	shm->nworkers = NWORKERS;
	shm->nthreads = NTHREADS;
	shm->seed = c->seed;
	shm->sem_exact = c->mode == ST_STEADY ? 2 : -1;
	shm->cmd = ST_RUN;
	for (i = 0; i < NEV; i++) {
		upng_evname(c->name[i], sizeof(c->name[i]), st_events[i].tag);
		ASSERT_EQ(0, ev_add(c, i)) TH_LOG("adding %s", c->name[i]);
		ASSERT_EQ(0, upng_probe_enable(c->name[i], true))
			TH_LOG("enabling %s", c->name[i]);
	}
	for (w = 0; w < NWORKERS; w++) {
		c->workers[w] = spawn_worker(c, w);
		ASSERT_LT(0, c->workers[w]);
	}
	t0 = upng_now_ms();
	do {
		for (w = ready = 0; w < NWORKERS; w++)
			ready += LOAD(shm->slot[w].ready);
		for (w = 0; w < NWORKERS; w++) {
			ASSERT_TRUE(worker_alive(c, w))
				TH_LOG("worker %d: status %#x", w,
				       c->wstatus[w]);
		}
		usleep(10000);
	} while (ready < NWORKERS && upng_now_ms() - t0 < WAIT_MS);
	ASSERT_EQ(NWORKERS, ready);

	c->helpers[H_SIGNALS] = start_helper(c, signals_main);
	c->helpers[H_TRACER] = start_helper(c, tracer_main);
	if (c->killer)
		c->helpers[H_KILLER] = start_helper(c, killer_main);
	if (c->mode == ST_CHAOS)
		c->helpers[H_TOGGLER] = start_helper(c, toggler_main);
	for (i = 0; i < H_NR && c->helpers[i] >= 0; i++)
		;
	ASSERT_EQ(H_NR, i) TH_LOG("starting the %s", helper_names[i]);

	t0 = upng_now_ms();
	next = t0 + PROGRESS_MS;
	while ((ms = upng_now_ms() - t0) < c->secs * 1000LL) {
		usleep(200000);
		for (w = 0; w < NWORKERS; w++)
			if (!worker_alive(c, w))
				break;
		for (i = 0; i < H_NR; i++)
			if (c->helpers[i] && !helper_alive(c, i))
				break;
		if (w < NWORKERS || i < H_NR)
			break;
		if (upng_now_ms() >= next) {
			progress(c, what, ms);
			next += PROGRESS_MS;
		}
	}
	progress(c, what, upng_now_ms() - t0);
	for (w = 0; w < NWORKERS; w++) {
		EXPECT_TRUE(worker_alive(c, w))
			TH_LOG("worker %d (pid %d) ended early: status %#x",
			       w, c->workers[w], c->wstatus[w]);
	}

	STORE(shm->helpers_stop, 1);
	for (i = 0; i < H_NR; i++) {
		if (!c->helpers[i])
			continue;
		if (!c->hdone[i]) {
			EXPECT_EQ(1, wait_for(c->helpers[i], &c->hstatus[i],
					      WAIT_MS, 0))
				TH_LOG("the %s did not stop", helper_names[i]);
			c->hdone[i] = 1;
		}
		EXPECT_EQ(0, c->hstatus[i])
			TH_LOG("the %s: status %#x", helper_names[i],
			       c->hstatus[i]);
	}
	EXPECT_EQ(0, LOAD(shm->helper_failed)) TH_LOG("%s", shm->helper_msg);
}

/* Park the workers, check them, delete the probes, check again, finish. */
static void finish(struct __test_metadata *_metadata, struct st_ctx *c)
{
	struct st_shm *shm = c->shm;
	bool exists[NEV], armed[NEV];
	long hits[NEV];
	int i, w, r, status;

	EXPECT_TRUE(wait_parked(c, command(c, ST_PARK)))
		TH_LOG("the workers did not park within %d s", WAIT_MS / 1000);
	for (i = 0; i < NEV; i++) {
		r = upng_probe_enabled(c->name[i]);
		EXPECT_TRUE(r >= 0 || r == -ENOENT)
			TH_LOG("%s/enable: %s", c->name[i], strerror(-r));
		exists[i] = r >= 0;
		armed[i] = r == 1;
		hits[i] = exists[i] ? upng_probe_hits(c->name[i]) : 0;
		EXPECT_TRUE(!exists[i] || hits[i] >= 0) TH_LOG("%s", c->name[i]);
	}
	/* Removals a SIGKILLed writer left are retried by the engine. */
	EXPECT_EQ(0, upng_wait_unstranded(WAIT_MS));
	EXPECT_EQ(0, check_memory(_metadata, c, armed,
				  "parked, probes as registered"));
	check_hits(_metadata, c, exists, hits);

	for (i = 0; i < NEV; i++) {
		if (exists[i]) {
			EXPECT_EQ(0, upng_probe_del(c->name[i]))
				TH_LOG("deleting %s", c->name[i]);
		}
		armed[i] = false;
	}
	EXPECT_EQ(0, check_memory(_metadata, c, armed,
				  "parked, every probe deleted"));

	STORE(shm->sem_exact, 0);
	command(c, ST_FINAL);
	for (w = 0; w < NWORKERS; w++) {
		if (!c->wdone[w]) {
			r = wait_for(c->workers[w], &status, WAIT_MS, 0);
			EXPECT_EQ(1, r) TH_LOG("worker %d did not exit", w);
			if (r == 1) {
				c->wdone[w] = 1;
				c->wstatus[w] = status;
			}
		}
		EXPECT_TRUE(c->wdone[w] && WIFEXITED(c->wstatus[w]) &&
			    !WEXITSTATUS(c->wstatus[w]))
			TH_LOG("worker %d (pid %d): status %#x", w,
			       c->workers[w], c->wstatus[w]);
	}
	report_worker_errors(_metadata, c);
	TH_LOG("calls: %ld of st_sum (%ld hits), %ld in the second mapping",
	       TOTAL(c, finished[ST_FN_SUM]), hits[0], TOTAL(c, alias_calls));
	TH_LOG("processes: %ld forks, %ld in st_forker, %ld execs",
	       TOTAL(c, forks), TOTAL(c, forkers), TOTAL(c, execs));
	TH_LOG("mappings: %ld mmaps, %ld munmaps, %ld mprotects; %ld semaphore reads",
	       TOTAL(c, maps), TOTAL(c, unmaps), TOTAL(c, mprotects),
	       TOTAL(c, sem_reads));
	TH_LOG("signals: %ld sent (%ld at threads, %ld EAGAIN), %ld handled",
	       LOAD(shm->sig_sent), LOAD(shm->sig_thread),
	       LOAD(shm->sig_eagain), TOTAL(c, sig_handled));
	TH_LOG("tracer: %ld sessions, %ld stops, %ld steps, %ld pokes, %ld signals",
	       LOAD(shm->tr_sessions), LOAD(shm->tr_stops),
	       LOAD(shm->tr_steps), LOAD(shm->tr_pokes),
	       LOAD(shm->tr_signals));
	TH_LOG("tracer: %ld stops in the trampoline, %ld tracees gone",
	       LOAD(shm->tr_tramp), LOAD(shm->tr_gone));
	TH_LOG("killer: %ld rounds, SIGKILLed %ld unregistering, %ld registering",
	       LOAD(shm->k_rounds), LOAD(shm->k_killed_unreg),
	       LOAD(shm->k_killed_reg));
	TH_LOG("killer: %ld writes completed, %ld us each",
	       LOAD(shm->k_completed), LOAD(shm->k_write_us));
	TH_LOG("toggler: %ld ops: %ld enables, %ld disables, %ld deletes, %ld adds",
	       LOAD(shm->tg_ops), LOAD(shm->tg_enables),
	       LOAD(shm->tg_disables), LOAD(shm->tg_dels),
	       LOAD(shm->tg_adds));
}

/* The semaphore at file offset OFF in a fresh private writable mapping. */
static int fresh_sem(struct st_ctx *c, unsigned long off)
{
	unsigned long page = sysconf(_SC_PAGESIZE);
	unsigned long base = off & ~(page - 1);
	unsigned short v;
	void *p;
	int fd;

	fd = open(c->target, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		 base);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	memcpy(&v, (char *)p + off - base, sizeof(v));
	munmap(p, 2 * page);
	return v;
}

/* No probe left: semaphores of a fresh process and mapping, the file, the log. */
static void final_checks(struct __test_metadata *_metadata, struct st_ctx *c)
{
	struct upng_child child;
	unsigned int s = 1, k = 1;
	unsigned char *copy;
	char line[128] = "", first[512];
	long nkmsg, nref = 0;
	int fd, n;

	ASSERT_EQ(0, upng_spawn(&child, c->target, "--report", NULL));
	EXPECT_LT(0, upng_recv(&child, line, sizeof(line), WAIT_MS));
	n = sscanf(line, "sem %u %u", &s, &k);
	EXPECT_EQ(2, n) TH_LOG("'%s'", line);
	EXPECT_EQ(0U, s);
	EXPECT_EQ(0U, k);
	EXPECT_EQ(0, upng_finish(&child, WAIT_MS));

	EXPECT_EQ(0, fresh_sem(c, c->sem_off)) TH_LOG("st_semaphore");
	EXPECT_EQ(0, fresh_sem(c, c->ksem_off)) TH_LOG("st_ksem");

	fd = open(c->target, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);

	copy = malloc(c->file_len + 1);
	ASSERT_NE(NULL, copy);
	EXPECT_EQ((ssize_t)c->file_len, pread(fd, copy, c->file_len + 1, 0));
	EXPECT_EQ(0, memcmp(copy, c->file, c->file_len))
		TH_LOG("%s changed", c->target);
	free(copy);
	close(fd);
	EXPECT_EQ(c->hash, upng_file_hash(c->target));

	/* Splats (WARNING, BUG, Oops, KASAN, lockdep ...), refcount reports. */
	nkmsg = upng_kmsg_scan(c->kmsg, "refcount", &nref, first,
			       sizeof(first));
	EXPECT_EQ(0, nkmsg) TH_LOG("kernel log: %s", first);
	EXPECT_EQ(0, nref) TH_LOG("kernel log: %ld refcount reports", nref);
}

TEST_F_TIMEOUT(stress, run, 3600)
{
	struct st_ctx *c = self->c;

	run(_metadata, c);
	finish(_metadata, c);
	final_checks(_metadata, c);
}

/*
 * The harness's timeout for a case: twice its longest share of the time
 * and two minutes for the rest, within the runner's limit if it leaves
 * room for the run.
 */
static void __attribute__((constructor(KSELFTEST_PRIO_TEST + 10)))
stress_timeout(void)
{
	int limit, secs = budget(&limit), share = secs * 60 / 100;
	int t = 2 * share + 120;

	if (limit > 0 && t >= limit && limit - 5 > share + 30)
		t = limit - 5;
	_stress_run_object->timeout = t;
}

TEST_HARNESS_MAIN
