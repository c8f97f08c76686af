// SPDX-License-Identifier: GPL-2.0
/*
 * The XOL area is invisible: a thread that runs a probed instruction out of
 * line must never be seen with its instruction pointer in [uprobes].  A
 * boosted slot (the copy followed by a jump back, no single-step) is left
 * by the thread on its own, so anything that stops the thread there would
 * see, or save, an address in the slot: a signal frame (and a fork() from
 * the handler, whose child has no [uprobes] to return to), a ptrace stop,
 * a SIGSTOP (/proc/PID/syscall, /proc/PID/stat), an exiting task.
 *
 * A loop in sites.S runs a probed instruction again and again, a
 * register-only lea or an add from memory (boosted), a pushfw
 * (single-stepped) or a five- or ten-byte nop (a jump to a stub in
 * [uprobes], whose system call enters the kernel), while
 * signals, forks, ptrace interrupts or SIGSTOP/SIGCONT hit it at random.
 * Every place the thread is seen stopped is checked against the [uprobes]
 * mapping, the loop's results against a computation without probe, the
 * probe's hits against the loop's iterations, and forked children must
 * finish their computation and exit normally.
 *
 * On arm64 (sites_a64.S) nothing runs from a boosted slot or a stub: the
 * probed instruction is a mul or a load, single-stepped in [uprobes],
 * or the loop's cbnz, simulated.  The cases on rip-relative reach and x87
 * state are x86's; on s390 the breaking-event address after a stepped
 * branch (lastbreak_after_probed_basr) is checked too.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"
#include "upng_regs.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define CHUNK		128	/* iterations per call of site_xv_loop() */
#define RUN_MS		2000	/* a case runs at least this long, */
#define MAX_MS		10000	/* and at most this long for its minimums */
#define TIMER_US	500	/* period of the POSIX timer */
#define KILL_IN_FLIGHT	4	/* pthread_kill() signals queued at a time */
#define MIN_SIGNALS	100	/* signals a storm must have delivered */
#define MIN_STOPS	50	/* stops a tracer or SIGSTOP must have made */
#define NFORK		48	/* forks from the signal handler, at most */
#define FORK_EVERY	32	/* fork from every FORK_EVERY-th handler */
#define MIN_FORKS	8
#define CHILD_CHUNKS	2	/* what a child forked by the handler runs */
#define NDIE		6	/* children killed while looping */
#define DIE_POLLS	5000	/* /proc/PID/stat reads while one exits */

#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)
#define ADD(v, x) __atomic_add_fetch(&(v), (x), __ATOMIC_SEQ_CST)

static const unsigned long xv_k = 0x9e3779b97f4a7c15UL;

/* What site_xv_loop() computes, without probe. */
static unsigned long xv_ref(unsigned long n, unsigned long acc)
{
	while (n--)
		acc = acc * 3 + 1 + xv_k;
	return acc;
}

/* Where the thread was seen: instruction pointers sorted by place. */
struct xv_where {
	long n;			/* observations */
	long in_loop;		/* inside site_xv_loop() */
	long at_site;		/* on the probed instruction itself */
	long in_xol;		/* inside [uprobes]: must stay 0 */
	unsigned long bad_ip;	/* the first of those */
};

/*
 * State of the signal cases, shared with the handler (which runs in the
 * looping thread only; the sender thread reads kill_sigs).
 */
static struct {
	unsigned long site;		/* the probed address */
	unsigned long xol_lo, xol_hi;	/* [uprobes] of this process */
	struct xv_where w;		/* interrupted instruction pointers */
	long timer_sigs, kill_sigs;	/* signals handled, by origin */
	int forks_left;			/* forks the handler may still do */
	int fork_errors;
	int nkids;
	pid_t kids[NFORK];
	int is_child;			/* set in a child forked by the handler */
	bool no_xol;			/* hits need no [uprobes] (simulated) */
} xv;

static int xv_sig_timer, xv_sig_kill;

static void xv_note(struct xv_where *w, unsigned long ip, unsigned long lo,
		    unsigned long hi)
{
	w->n++;
	if (ip >= (unsigned long)site_xv_loop && ip < (unsigned long)site_xv_end)
		w->in_loop++;
	if (ip == xv.site)
		w->at_site++;
	if (ip >= lo && ip < hi && !w->in_xol++)
		w->bad_ip = ip;
}

static void xv_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long ip = UPNG_UC_PC(uc);
	long seen_xol = xv.w.in_xol;
	int saved_errno = errno;
	pid_t pid;

	if (sig == xv_sig_kill)
		ADD(xv.kill_sigs, 1);
	else
		ADD(xv.timer_sigs, 1);
	xv_note(&xv.w, ip, xv.xol_lo, xv.xol_hi);

	/*
	 * Fork now and then, and whenever the thread was caught in [uprobes]:
	 * the child returns from this handler to where the parent would.
	 * The process has a single thread: glibc's fork() takes no lock.
	 */
	if (xv.forks_left > 0 &&
	    (xv.w.in_xol != seen_xol || !(xv.w.n % FORK_EVERY))) {
		pid = fork();
		if (!pid) {
			xv.forks_left = 0;
			STORE(xv.is_child, 1);
		} else if (pid < 0) {
			xv.fork_errors++;
		} else {
			xv.kids[xv.nkids++] = pid;
			xv.forks_left--;
		}
	}
	errno = saved_errno;
}

/* The loop in progress: its accumulator, iterations and wrong results. */
struct xv_run {
	unsigned long acc;
	long iters, bad;
};

static void xv_chunk_once(struct xv_run *r)
{
	unsigned long acc = r->acc, got;

	got = site_xv_loop(CHUNK, acc, &xv_k);
	if (got != xv_ref(CHUNK, acc))
		r->bad++;
	r->acc = got;
	r->iters += CHUNK;
}

/* In a child forked by the signal handler: finish the work and exit. */
static void xv_child_end(struct xv_run *r)
{
	int i;

	if (!LOAD(xv.is_child))
		return;
	for (i = 0; i < CHILD_CHUNKS; i++)
		xv_chunk_once(r);
	_exit(r->bad ? 3 : 0);
}

/* One call of the loop, checked. */
static void xv_chunk(struct xv_run *r)
{
	xv_chunk_once(r);
	xv_child_end(r);
}

static long xv_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static unsigned long xv_rand(unsigned long *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	return *seed;
}

/* Let the target run for a random while, 0 to 1 ms. */
static void xv_delay(unsigned long *seed)
{
	unsigned long us = xv_rand(seed) % 1000;
	struct timespec ts = { 0, us * 1000 };

	if (us < 100)
		sched_yield();
	else
		nanosleep(&ts, NULL);
}

/* Read the small file PATH into BUF; its length or -errno. */
static int xv_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	return n;
}

/* Field 3 (state) and 30 (kstkeip) of /proc/PID/stat; 0 or -errno. */
static int xv_proc_stat(pid_t pid, char *state, unsigned long *eip)
{
	char path[64], buf[1024], *p;
	int i, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	n = xv_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -EINVAL;
	p += 2;
	*state = *p;
	for (i = 3; i < 30; i++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	*eip = strtoul(p, NULL, 10);
	return 0;
}

/*
 * The user instruction pointer of a blocked task, the last field of
 * /proc/PID/syscall; 0, -EAGAIN when it says "running", or -errno.
 */
static int xv_proc_pc(pid_t pid, unsigned long *pc)
{
	char path[64], buf[512], *p;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	n = xv_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (!strncmp(buf, "running", 7))
		return -EAGAIN;
	p = strrchr(buf, ' ');
	if (!p)
		return -EINVAL;
	*pc = strtoul(p + 1, NULL, 16);
	return 0;
}

#if defined(__x86_64__)
static sigjmp_buf xv_jmp;
static int xv_found;

static void xv_fault(int sig)
{
	siglongjmp(xv_jmp, 1);
}

/*
 * Does this process's [uprobes] page hold the probed instruction followed
 * by a jmp (ff 25), i.e. a boosted slot?  1, 0, or -1 when unreadable.
 * Only a diagnostic: it tells whether the boosted case really was one.
 */
static int xv_boosted_copy(const unsigned char *insn, size_t len)
{
	struct sigaction sa, old_segv, old_bus;
	const unsigned char *page = (const void *)xv.xol_lo, *p;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = xv_fault;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	xv_found = -1;
	if (!sigsetjmp(xv_jmp, 1)) {
		xv_found = 0;
		for (p = page; p + len + 2 <= page + (xv.xol_hi - xv.xol_lo); p++) {
			if (!memcmp(p, insn, len) && p[len] == 0xff &&
			    p[len + 1] == 0x25) {
				xv_found = 1;
				break;
			}
		}
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return xv_found;
}
#endif

FIXTURE(xolvis) {
	char ev[64];
	pid_t pid;		/* child to kill in the teardown */
	unsigned char insn[16];	/* the probed instruction, from the file */
};

FIXTURE_VARIANT(xolvis) {
	const char *sym;	/* probed instruction in site_xv_loop() */
	char *addr;
	size_t len;		/* its length */
	bool no_xol;		/* simulated: maybe no [uprobes] at all */
};

#if defined(__aarch64__)
FIXTURE_VARIANT_ADD(xolvis, stepped) {
	.sym = "site_xv_step", .addr = site_xv_step, .len = 4,
};

FIXTURE_VARIANT_ADD(xolvis, stepped_mem) {
	.sym = "site_xv_mem", .addr = site_xv_mem, .len = 4,
};

FIXTURE_VARIANT_ADD(xolvis, simulated) {
	.sym = "site_xv_sim", .addr = site_xv_sim, .len = 4, .no_xol = true,
};
#elif defined(__riscv)
FIXTURE_VARIANT_ADD(xolvis, stepped) {
	.sym = "site_xv_step", .addr = site_xv_step, .len = 4,
};

FIXTURE_VARIANT_ADD(xolvis, stepped_mem) {
	.sym = "site_xv_mem", .addr = site_xv_mem, .len = 4,
};

/* c.bnez: a compressed branch, simulated. */
FIXTURE_VARIANT_ADD(xolvis, simulated) {
	.sym = "site_xv_sim", .addr = site_xv_sim, .len = 2, .no_xol = true,
};
#elif defined(__s390x__)
/* Both stepped out of line (msgr, lg): s390 emulates no such instruction. */
FIXTURE_VARIANT_ADD(xolvis, stepped) {
	.sym = "site_xv_step", .addr = site_xv_step, .len = 4,
};

FIXTURE_VARIANT_ADD(xolvis, stepped_mem) {
	.sym = "site_xv_mem", .addr = site_xv_mem, .len = 6,
};
#else
FIXTURE_VARIANT_ADD(xolvis, boosted) {
	.sym = "site_xv_boost", .addr = site_xv_boost, .len = 5,
};

FIXTURE_VARIANT_ADD(xolvis, boosted_mem) {
	.sym = "site_xv_mem", .addr = site_xv_mem, .len = 3,
};

FIXTURE_VARIANT_ADD(xolvis, stepped) {
	.sym = "site_xv_step", .addr = site_xv_step, .len = 2,
};

FIXTURE_VARIANT_ADD(xolvis, stub) {
	.sym = "site_xv_nop5", .addr = site_xv_nop5, .len = 5,
};

FIXTURE_VARIANT_ADD(xolvis, stub_nop10) {
	.sym = "site_xv_nop10", .addr = site_xv_nop10, .len = 10,
};
#endif

FIXTURE_SETUP(xolvis)
{
	struct upng_sym sym;

	upng_die_with_parent();
	memset(&xv, 0, sizeof(xv));
	xv.no_xol = variant->no_xol;
	self->pid = 0;
	xv_sig_timer = SIGRTMIN;
	xv_sig_kill = SIGRTMIN + 1;
	upng_evname(self->ev, sizeof(self->ev), "xolvis");
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), variant->sym, &sym));
	ASSERT_EQ((unsigned long)variant->addr, sym.value);
	ASSERT_EQ(0, upng_file_read(upng_self_path(), sym.offset, self->insn,
				    variant->len));
	xv.site = sym.value;
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
}

FIXTURE_TEARDOWN(xolvis)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	upng_probe_del(self->ev);
}

/*
 * The [uprobes] mapping of PID (0: this process) into *LO, *HI; with no
 * such mapping, an empty range where hits need none.  0 or -errno.
 */
static int xv_xol_range(pid_t pid, unsigned long *lo, unsigned long *hi)
{
	int err = upng_xol_range(pid, lo, hi);

	if (err == -ENOENT && xv.no_xol) {
		*lo = 0;
		*hi = 0;
		return 0;
	}
	return err;
}

/*
 * First hits in this process: the probe works, [uprobes] exists (if the
 * hits need it).
 */
static void xv_prime(struct __test_metadata *_metadata, const char *ev,
		     struct xv_run *r)
{
	xv_chunk(r);
	ASSERT_EQ(0, r->bad);
	ASSERT_EQ(CHUNK, upng_probe_hits(ev));
	ASSERT_EQ(0, xv_xol_range(0, &xv.xol_lo, &xv.xol_hi))
		TH_LOG("no [uprobes] mapping after %d hits", CHUNK);
}

static int xv_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = xv_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, xv_sig_timer);
	sigaddset(&sa.sa_mask, xv_sig_kill);
	if (sigaction(xv_sig_timer, &sa, NULL) ||
	    sigaction(xv_sig_kill, &sa, NULL))
		return -errno;
	return 0;
}

/* Block the storm's signals in this thread. */
static void xv_block(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, xv_sig_timer);
	sigaddset(&set, xv_sig_kill);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* A POSIX timer sending xv_sig_timer to this thread every TIMER_US. */
static int xv_timer_start(timer_t *t)
{
	struct itimerspec its = {
		.it_interval = { 0, TIMER_US * 1000 },
		.it_value = { 0, TIMER_US * 1000 },
	};
	struct sigevent sev;
	int err;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = xv_sig_timer;
	sev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, t))
		return -errno;
	if (timer_settime(*t, 0, &its, NULL)) {
		err = -errno;
		timer_delete(*t);
		return err;
	}
	return 0;
}

/* A thread that keeps KILL_IN_FLIGHT signals queued for the target. */
struct xv_sender {
	pthread_t target;
	long sent;
	int stop;
};

static void *xv_sender_main(void *arg)
{
	struct xv_sender *s = arg;

	xv_block();
	while (!LOAD(s->stop)) {
		if (LOAD(s->sent) - LOAD(xv.kill_sigs) < KILL_IN_FLIGHT &&
		    !pthread_kill(s->target, xv_sig_kill))
			ADD(s->sent, 1);
		sched_yield();
	}
	return NULL;
}

/*
 * Run the loop for RUN_MS and until MIN_SIGNALS signals were handled (half
 * of them in the loop: on a slow guest, most arrive elsewhere) and
 * MIN_KIDS children forked, MAX_MS at most; the time it took.
 */
static long xv_storm(struct xv_run *r, int min_kids)
{
	struct timespec t0;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		xv_chunk(r);
		ms = xv_ms(&t0);
	} while (ms < MAX_MS &&
		 (ms < RUN_MS || LOAD(xv.w.n) < MIN_SIGNALS ||
		  LOAD(xv.w.in_loop) < MIN_SIGNALS / 2 ||
		  LOAD(xv.nkids) < min_kids));
	return ms;
}

/*
 * A timer and another thread bombard the looping thread with signals; the
 * handler must never find the interrupted instruction pointer in
 * [uprobes], the results must be exact and every iteration one hit.
 */
TEST_F_TIMEOUT(xolvis, signal_frames, 60)
{
	struct xv_sender snd = { .target = pthread_self() };
	struct xv_run run = { .acc = 1 };
	long ms, hits, spins;
	pthread_t th;
	timer_t tm;
#if defined(__x86_64__)
	int copy;
#endif

	xv_prime(_metadata, self->ev, &run);
#if defined(__x86_64__)
	copy = xv_boosted_copy(self->insn, variant->len);
#endif
	ASSERT_EQ(0, xv_handlers());
	ASSERT_EQ(0, xv_timer_start(&tm));
	ASSERT_EQ(0, pthread_create(&th, NULL, xv_sender_main, &snd));
	ms = xv_storm(&run, 0);
	STORE(snd.stop, 1);
	pthread_join(th, NULL);
	timer_delete(tm);
	/* Take the signals still queued. */
	for (spins = 0; LOAD(xv.kill_sigs) < snd.sent && spins < 100000; spins++)
		sched_yield();
	xv_block();
	hits = upng_probe_hits(self->ev);

	TH_LOG("%s: %ld ms, %ld iterations, %ld hits", variant->sym, ms,
	       run.iters, hits);
#if defined(__x86_64__)
	TH_LOG("[uprobes] %lx-%lx, boosted copy there: %s", xv.xol_lo,
	       xv.xol_hi, copy < 0 ? "unreadable" : copy ? "yes" : "no");
#else
	TH_LOG("[uprobes] %lx-%lx", xv.xol_lo, xv.xol_hi);
#endif
	TH_LOG("%ld timer + %ld thread signals (%ld sent)", xv.timer_sigs,
	       xv.kill_sigs, snd.sent);
	TH_LOG("interrupted: %ld in the loop, %ld at the probe, %ld in [uprobes]",
	       xv.w.in_loop, xv.w.at_site, xv.w.in_xol);
	ASSERT_EQ(0, run.bad) TH_LOG("wrong results from the loop");
	ASSERT_EQ(0, xv.w.in_xol)
		TH_LOG("a signal frame holds ip %#lx, in [uprobes]", xv.w.bad_ip);
	ASSERT_LE(MIN_SIGNALS, xv.w.n);
	ASSERT_LE(MIN_SIGNALS / 2, xv.w.in_loop);
	ASSERT_EQ(snd.sent, xv.kill_sigs);
	ASSERT_EQ(run.iters, hits);
}

/*
 * The handler forks now and then (and whenever it found the thread in
 * [uprobes]): the child has no XOL area of its own yet and gets none of
 * the parent's, yet it returns from the handler to the interrupted
 * instruction pointer.  It must finish its computation and exit(0).
 */
TEST_F_TIMEOUT(xolvis, fork_in_handler, 60)
{
	struct xv_run run = { .acc = 1 };
	int i, status, ok = 0, crashed = 0, failed = 0;
	int first_status = 0;
	long ms;
	timer_t tm;

	xv_prime(_metadata, self->ev, &run);
	xv.forks_left = NFORK;
	ASSERT_EQ(0, xv_handlers());
	ASSERT_EQ(0, xv_timer_start(&tm));
	ms = xv_storm(&run, MIN_FORKS);
	xv_block();
	/* A child forked after the last chunk ends here. */
	xv_child_end(&run);
	timer_delete(tm);

	for (i = 0; i < xv.nkids; i++) {
		ASSERT_EQ(xv.kids[i], waitpid(xv.kids[i], &status, 0));
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			ok++;
			continue;
		}
		if (WIFSIGNALED(status))
			crashed++;
		else
			failed++;
		if (!first_status)
			first_status = status;
	}

	TH_LOG("%s: %ld ms, %ld iterations, %ld signals", variant->sym, ms,
	       run.iters, xv.w.n);
	TH_LOG("interrupted: %ld in the loop, %ld at the probe, %ld in [uprobes] %lx-%lx",
	       xv.w.in_loop, xv.w.at_site, xv.w.in_xol, xv.xol_lo, xv.xol_hi);
	TH_LOG("%d children forked by the handler: %d exited 0, %d killed, %d failed",
	       xv.nkids, ok, crashed, failed);
	ASSERT_EQ(0, run.bad) TH_LOG("wrong results from the loop");
	ASSERT_EQ(0, crashed)
		TH_LOG("a child died of signal %d", WTERMSIG(first_status));
	ASSERT_EQ(0, failed)
		TH_LOG("a child exited with %d (3: wrong results)",
		       WEXITSTATUS(first_status));
	ASSERT_EQ(0, xv.w.in_xol)
		TH_LOG("a signal frame holds ip %#lx, in [uprobes]", xv.w.bad_ip);
	ASSERT_EQ(0, xv.fork_errors);
	ASSERT_LE(MIN_FORKS, xv.nkids);
	ASSERT_LE(MIN_SIGNALS, xv.w.n);
}

/* Shared with a looping child. */
struct xv_shared {
	long iters, bad;
	int stop;
};

/* The child of the ptrace and SIGSTOP cases: loop until told to stop. */
static void xv_child_main(struct xv_shared *sh)
{
	struct xv_run r = { .acc = 1 };

	upng_die_with_parent();
	while (!LOAD(sh->stop)) {
		xv_chunk(&r);
		STORE(sh->bad, r.bad);
		STORE(sh->iters, r.iters);
	}
	_exit(r.bad ? 3 : 0);
}

/*
 * Start a looping child (its pid also in *PIDP, for the teardown), wait
 * for its first hits; its [uprobes] in *LO, *HI.
 */
static pid_t xv_spawn(struct __test_metadata *_metadata, pid_t *pidp,
		      struct xv_shared *sh, unsigned long *lo,
		      unsigned long *hi)
{
	pid_t pid;
	int i;

	memset(sh, 0, sizeof(*sh));
	pid = fork();
	if (!pid)
		xv_child_main(sh);
	ASSERT_LT(0, pid);
	*pidp = pid;
	for (i = 0; i < 10000 && !LOAD(sh->iters); i++)
		usleep(1000);
	ASSERT_NE(0, LOAD(sh->iters)) TH_LOG("the child does not loop");
	ASSERT_EQ(0, xv_xol_range(pid, lo, hi))
		TH_LOG("no [uprobes] mapping in the child");
	return pid;
}

/* Reap a child, letting a tracee run on through its stops; wait status. */
static int xv_reap(pid_t pid)
{
	int status;

	for (;;) {
		if (waitpid(pid, &status, 0) != pid)
			return -1;
		if (!WIFSTOPPED(status))
			return status;
		ptrace(PTRACE_CONT, pid, NULL,
		       (void *)(long)(status >> 16 ? 0 : WSTOPSIG(status)));
	}
}

/*
 * A tracer interrupts the looping child at random times: the registers it
 * reads must not hold an instruction pointer in [uprobes].  Every other
 * stop it writes them back, as debuggers do; the child's results and the
 * hits must stay exact.
 */
TEST_F_TIMEOUT(xolvis, ptrace_interrupt, 60)
{
	struct user_regs_struct regs;
	struct xv_where w = { 0 };
	unsigned long lo, hi, seed = getpid() | 1, other_ip = 0;
	int status, other = 0;
	struct xv_shared *sh;
	struct timespec t0;
	long ms, hits;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	pid = xv_spawn(_metadata, &self->pid, sh, &lo, &hi);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, NULL,
			    (void *)PTRACE_O_EXITKILL));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		xv_delay(&seed);
		ASSERT_EQ(0, ptrace(PTRACE_INTERRUPT, pid, NULL, NULL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFSTOPPED(status)) TH_LOG("status %#x", status);
		ASSERT_EQ(0, upng_getregs(pid, &regs));
		if (status >> 16 != PTRACE_EVENT_STOP) {
			/* A signal: the child faulted. Deliver it. */
			other = WSTOPSIG(status);
			other_ip = UPNG_REGS_PC(&regs);
			ptrace(PTRACE_CONT, pid, NULL, (void *)(long)other);
			break;
		}
		xv_note(&w, UPNG_REGS_PC(&regs), lo, hi);
		if (w.n & 1)
			ASSERT_EQ(0, upng_setregs(pid, &regs));
		ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		ms = xv_ms(&t0);
	} while (ms < MAX_MS && (ms < RUN_MS || w.n < MIN_STOPS));
	STORE(sh->stop, 1);
	status = xv_reap(pid);
	self->pid = 0;
	hits = upng_probe_hits(self->ev);

	TH_LOG("%s: %ld iterations, %ld hits, %ld stops", variant->sym,
	       sh->iters, hits, w.n);
	TH_LOG("stopped: %ld in the loop, %ld at the probe, %ld in [uprobes] %lx-%lx",
	       w.in_loop, w.at_site, w.in_xol, lo, hi);
	ASSERT_EQ(0, other) TH_LOG("signal %d at ip %#lx", other, other_ip);
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("3: wrong results");
	ASSERT_EQ(0, w.in_xol)
		TH_LOG("the tracee's registers gave ip %#lx, in [uprobes]",
		       w.bad_ip);
	ASSERT_LE(MIN_STOPS, w.n);
	ASSERT_LE(MIN_STOPS / 2, w.in_loop);
	ASSERT_EQ(sh->iters, hits);
}

/*
 * SIGSTOP the looping child at random times: /proc/PID/syscall shows where
 * the stopped task is in user space, /proc/PID/stat's kstkeip shows it for
 * exiting tasks only (fs/proc/array.c: PF_EXITING, PF_DUMPCORE), so it is
 * checked when not 0.  Then kill looping children and read their stat
 * while they exit.
 */
TEST_F_TIMEOUT(xolvis, sigstop_proc, 60)
{
	struct xv_where w = { 0 }, eips = { 0 };
	unsigned long lo, hi, pc, eip, seed = getpid() | 1;
	long ms, hits, running = 0;
	struct xv_shared *sh;
	struct timespec t0;
	int i, err, status;
	char state;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	pid = xv_spawn(_metadata, &self->pid, sh, &lo, &hi);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		xv_delay(&seed);
		ASSERT_EQ(0, kill(pid, SIGSTOP));
		ASSERT_EQ(pid, waitpid(pid, &status, WUNTRACED));
		ASSERT_TRUE(WIFSTOPPED(status)) TH_LOG("status %#x", status);
		err = xv_proc_pc(pid, &pc);
		if (err == -EAGAIN)
			running++;
		else
			ASSERT_EQ(0, err);
		if (!err)
			xv_note(&w, pc, lo, hi);
		ASSERT_EQ(0, xv_proc_stat(pid, &state, &eip));
		if (eip)
			xv_note(&eips, eip, lo, hi);
		ASSERT_EQ(0, kill(pid, SIGCONT));
		ms = xv_ms(&t0);
	} while (ms < MAX_MS && (ms < RUN_MS || w.n < MIN_STOPS));
	STORE(sh->stop, 1);
	status = xv_reap(pid);
	self->pid = 0;
	hits = upng_probe_hits(self->ev);

	TH_LOG("%s: %ld iterations, %ld hits, %ld stops (%ld \"running\")",
	       variant->sym, sh->iters, hits, w.n + running, running);
	TH_LOG("stopped: %ld in the loop, %ld at the probe, %ld in [uprobes] %lx-%lx",
	       w.in_loop, w.at_site, w.in_xol, lo, hi);
	TH_LOG("kstkeip of the stopped task given %ld times", eips.n);
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("3: wrong results");
	ASSERT_EQ(0, w.in_xol)
		TH_LOG("/proc/PID/syscall gave ip %#lx, in [uprobes]", w.bad_ip);
	ASSERT_EQ(0, eips.in_xol)
		TH_LOG("/proc/PID/stat gave kstkeip %#lx, in [uprobes]",
		       eips.bad_ip);
	ASSERT_LE(MIN_STOPS, w.n);
	ASSERT_LE(MIN_STOPS / 2, w.in_loop);
	ASSERT_EQ(sh->iters, hits);

	/* Exiting tasks: kstkeip is shown while they tear down. */
	memset(&eips, 0, sizeof(eips));
	for (i = 0; i < NDIE; i++) {
		int polls;

		pid = xv_spawn(_metadata, &self->pid, sh, &lo, &hi);
		xv_delay(&seed);
		ASSERT_EQ(0, kill(pid, SIGKILL));
		for (polls = 0; polls < DIE_POLLS; polls++) {
			if (xv_proc_stat(pid, &state, &eip) || state == 'Z')
				break;
			if (eip)
				xv_note(&eips, eip, lo, hi);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		self->pid = 0;
		ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			TH_LOG("status %#x", status);
	}
	TH_LOG("%d children killed: kstkeip given %ld times, %ld in [uprobes]",
	       NDIE, eips.n, eips.in_xol);
	ASSERT_EQ(0, eips.in_xol)
		TH_LOG("/proc/PID/stat of an exiting task gave kstkeip %#lx, in [uprobes]",
		       eips.bad_ip);
}

#if defined(__x86_64__)
/*
 * Where the XOL area goes: within 1 GiB below the first probed address,
 * so that a boosted copy of a rip-relative instruction reaches what the
 * original does. The same instruction mapped again far away (a second
 * mapping of its file page) is out of a slot's rel32 reach: it is
 * single-stepped there, and computes the same.
 */
TEST(xol_area_near_first_hit)
{
	unsigned long lo, hi, page = sysconf(_SC_PAGESIZE);
	unsigned long site = (unsigned long)site_far;
	long (*far)(long x);
	struct upng_sym sym;
	char ev[64];
	void *map;
	int fd;

	upng_evname(ev, sizeof(ev), "xolnear");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_far_probe", &sym));
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	ASSERT_EQ(0x1235, site_far(1));
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	EXPECT_LT(lo, site);
	EXPECT_GE(1UL << 30, site - lo);

	fd = open(upng_self_path(), O_RDONLY);
	ASSERT_LE(0, fd);
	map = mmap((void *)0x700000000000UL, page, PROT_READ | PROT_EXEC,
		   MAP_PRIVATE, fd, sym.offset & ~(page - 1));
	close(fd);
	ASSERT_NE(MAP_FAILED, map);
	far = (long (*)(long x))((char *)map + (sym.offset & (page - 1)));
	ASSERT_LT(1L << 32, labs((long)((unsigned long)far - lo)))
		TH_LOG("second mapping at %p, XOL area at 0x%lx", map, lo);
	ASSERT_EQ(0x1236, far(2));
	ASSERT_EQ(0x1237, far(3));
	ASSERT_EQ(0x1238, site_far(4));
	EXPECT_EQ(4, upng_probe_hits(ev));
	munmap(map, page);
	EXPECT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(0, upng_probe_del(ev));
}

/*
 * An x87 instruction records its address as the FPU's last instruction
 * pointer (FIP) that fnstenv shows, and its opcode (FOP): one on a
 * rip-relative operand, which the kernel runs, records the kernel's, one
 * stepped out of line the slot's (and, rip-relative, the copy's ModRM);
 * the engine puts the probed instruction's there. Seen only on a CPU whose
 * fldenv loads FIP (the hardware's does; QEMU's TCG keeps the last x87
 * instruction's address): elsewhere the cases run the probe and then skip.
 */

/* Does fldenv load FIP on this CPU? */
static bool fldenv_loads_fip(void)
{
	unsigned char env[28], back[28];
	uint32_t fip = 0x1234560, got;

	asm volatile("fninit\n fldz\n fnstenv %0" : "=m" (env));
	memcpy(env + 12, &fip, sizeof(fip));
	asm volatile("fldenv %1\n fnstenv %0\n fldenv %0\n fstp %%st(0)"
		     : "=m" (back) : "m" (env));
	memcpy(&got, back + 12, sizeof(got));
	return got == fip;
}

/*
 * Defines and enables a probe on this program's symbol @name, as event
 * @ev (@len bytes) named after @tag; x87_unprobe() checks that it was hit
 * once and deletes it.
 */
static void x87_probe(struct __test_metadata *_metadata, const char *name,
		      const char *tag, char *ev, size_t len)
{
	struct upng_sym s;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), name, &s));
	upng_evname(ev, len, tag);
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), s.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
}

static void x87_unprobe(struct __test_metadata *_metadata, const char *ev)
{
	EXPECT_EQ(1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}

/*
 * FIP and FOP after @fn's x87 load at @site, which is probed meanwhile:
 * as without the probe.
 */
static void check_x87_fip(struct __test_metadata *_metadata,
			  unsigned long (*fn)(void), const char *site,
			  const char *name)
{
	uint32_t want = (uint32_t)(unsigned long)site, fip;
	unsigned long before = fn(), after;
	char ev[64];

	ASSERT_EQ(want, (uint32_t)before) TH_LOG("FIP without a probe");
	x87_probe(_metadata, name, "x87", ev, sizeof(ev));
	after = fn();
	x87_unprobe(_metadata, ev);
	fip = (uint32_t)after;
	if (!fldenv_loads_fip())
		SKIP(return, "no fldenv of FIP (QEMU TCG): %#x after the probed x87 load at %#x",
		     fip, want);
	EXPECT_EQ(want, fip)
		TH_LOG("FIP %#x after the probed x87 load at %#x (kernel's? slot's?)",
		       fip, want);
	EXPECT_EQ(before >> 32, after >> 32)
		TH_LOG("FOP %#lx probed, %#lx unprobed", after >> 32,
		       before >> 32);
}

TEST(x87_fip_is_the_probed_address)
{
	check_x87_fip(_metadata, site_x87_fip, site_x87_fldl,
		      "site_x87_fldl");
}

TEST(x87_fip_is_the_probed_address_stepped)
{
	check_x87_fip(_metadata, site_x87_fip_reg, site_x87_fldl_reg,
		      "site_x87_fldl_reg");
}

/*
 * A 64-bit program sees all 64 bits of FIP and FDP (fxsave64, xsave64, its
 * signal frames, a debugger) where the CPU saves them: the probed load's
 * (far above 4 GiB in a PIE) and its operand's, never cut to their 32-bit
 * fnstenv halves. FDP, which the engine does not set, must be as without
 * the probe on every CPU; FIP and FOP only where fxrstor64 and fldenv
 * load FIP (not QEMU's TCG).
 */
struct x87_fx64 {
	alignas(16) uint16_t cwd;
	uint16_t swd, twd, fop;
	uint64_t rip, rdp;
	uint8_t rest[480];
};

/*
 * Does fxrstor64 load FIP on this CPU? fnstenv tells, which shows FIP on
 * every CPU (fxsave64 shows none on some while no exception is pending).
 */
static bool fxrstor_loads_fip(void)
{
	struct x87_fx64 fx;
	unsigned char env[28];
	uint32_t got;

	asm volatile("fninit\n fldz\n fxsave64 %0" : "=m" (fx));
	fx.rip = 0x123456789a0;
	asm volatile("fxrstor64 %1\n fnstenv %0\n fldenv %0\n fstp %%st(0)"
		     : "=m" (env) : "m" (fx));
	memcpy(&got, env + 12, sizeof(got));
	return got == 0x456789a0;
}

/*
 * The 64-bit FIP, FDP and FOP after @fn's x87 load at @site, probed
 * meanwhile: as without the probe (the probed address, or 0 where the
 * CPU saves no pointers while no exception is pending).
 */
static void check_x87_fx64(struct __test_metadata *_metadata,
			   void (*fn)(void *), const char *site,
			   const char *name)
{
	struct x87_fx64 before, fx;
	char ev[64];

	fn(&before);
	x87_probe(_metadata, name, "x87fx", ev, sizeof(ev));
	fn(&fx);
	x87_unprobe(_metadata, ev);
	EXPECT_EQ(before.rdp, fx.rdp)
		TH_LOG("FDP %#lx probed, %#lx unprobed (operand at %p)",
		       (unsigned long)fx.rdp, (unsigned long)before.rdp,
		       &site_x87_val);
	if (!fxrstor_loads_fip() || !fldenv_loads_fip())
		SKIP(return, "FIP not loaded (QEMU TCG): %#lx after the probed x87 load at %p",
		     (unsigned long)fx.rip, site);
	EXPECT_TRUE(before.rip == (unsigned long)site || !before.rip)
		TH_LOG("FIP %#lx unprobed, the load at %p",
		       (unsigned long)before.rip, site);
	EXPECT_EQ(before.rip, fx.rip);
	EXPECT_EQ(before.fop, fx.fop);
}

TEST(x87_fip_fdp_64bit)
{
	check_x87_fx64(_metadata, site_x87_fxsave, site_x87_fldl_fx,
		       "site_x87_fldl_fx");
}

TEST(x87_fip_fdp_64bit_stepped)
{
	check_x87_fx64(_metadata, site_x87_fxsave_reg, site_x87_fldl_fx_reg,
		       "site_x87_fldl_fx_reg");
}

/* How a function that dies of a signal died. */
struct x87_death {
	int sig, code;
	unsigned long ip, addr;
};

static sigjmp_buf x87_jmp;
static struct x87_death x87_seen;

static void x87_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	x87_seen = (struct x87_death){
		.sig = sig, .code = si->si_code,
		.ip = uc->uc_mcontext.gregs[REG_RIP],
		.addr = (unsigned long)si->si_addr,
	};
	siglongjmp(x87_jmp, 1);
}

static struct x87_death x87_run(void (*fn)(void))
{
	struct sigaction sa = { .sa_sigaction = x87_handler,
				.sa_flags = SA_SIGINFO | SA_NODEFER };
	struct sigaction old_fpe, old_segv;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGFPE, &sa, &old_fpe);
	sigaction(SIGSEGV, &sa, &old_segv);
	memset(&x87_seen, 0, sizeof(x87_seen));
	if (!sigsetjmp(x87_jmp, 1))
		fn();
	sigaction(SIGFPE, &old_fpe, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	asm volatile("fninit");
	return x87_seen;
}

/*
 * What the kernel cannot take of a probed x87 instruction on a rip-relative
 * operand is stepped, and faults as the original: the exception an earlier
 * instruction left pending (#MF, SIGFPE) and a store into read-only data
 * (SIGSEGV) are raised at the probed address, with the same signal code
 * and address as without the probe, and the probe is hit once.
 */
static void check_x87_fault(struct __test_metadata *_metadata,
			    void (*fn)(void), const char *site,
			    const char *name, int sig)
{
	struct x87_death bare, probed;
	char ev[64];

	bare = x87_run(fn);
	if (sig == SIGFPE && !bare.sig)
		SKIP(return, "no #MF for a pending x87 exception on this CPU (QEMU TCG?)");
	ASSERT_EQ(sig, bare.sig);
	ASSERT_EQ((unsigned long)site, bare.ip);

	x87_probe(_metadata, name, "x87f", ev, sizeof(ev));
	probed = x87_run(fn);
	x87_unprobe(_metadata, ev);
	EXPECT_EQ(bare.sig, probed.sig);
	EXPECT_EQ(bare.code, probed.code);
	EXPECT_EQ(bare.ip, probed.ip) TH_LOG("ip %#lx, not the probed %#lx",
					     probed.ip, bare.ip);
	EXPECT_EQ(bare.addr, probed.addr) TH_LOG("si_addr %#lx, not %#lx",
						 probed.addr, bare.addr);
}

TEST(x87_pending_exception_raised_at_the_probe)
{
	check_x87_fault(_metadata, site_x87_fpe, site_x87_fldl_fpe,
			"site_x87_fldl_fpe", SIGFPE);
}

TEST(x87_store_fault_raised_at_the_probe)
{
	check_x87_fault(_metadata, site_x87_store_ro, site_x87_fstpl,
			"site_x87_fstpl", SIGSEGV);
}
#elif defined(__s390x__)
/* What a tracer saw of the child stopped after the call of site_lastbreak(). */
struct lastbreak {
	unsigned long psw;		/* the PSW address there */
	unsigned long last_break;	/* NT_S390_LAST_BREAK */
	unsigned long per_address;	/* the user area's per_info.address */
	unsigned long xol_lo, xol_hi;	/* its [uprobes], if any */
};

static unsigned long lastbreak_psw(pid_t pid)
{
	struct user_regs_struct regs;

	return upng_getregs(pid, &regs) ? 0 : UPNG_REGS_PC(&regs);
}

/*
 * A traced child calls site_lastbreak(), which stops on gdb's breakpoint
 * before its call: the tracer single-steps to the basr and the basr, and
 * reads what the child shows then.
 */
static void lastbreak_stop(struct __test_metadata *_metadata,
			   struct lastbreak *lb)
{
	struct iovec iov = { &lb->last_break, sizeof(lb->last_break) };
	int i, status;
	pid_t pid;

	memset(lb, 0, sizeof(*lb));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		upng_die_with_parent();
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		site_lastbreak();
		_exit(0);
	}
	/* Its breakpoint, then the larl, then the basr. */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP)
		TH_LOG("status %#x", status);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP)
			TH_LOG("step %d: status %#x", i, status);
		if (!i)
			ASSERT_EQ((unsigned long)site_lastbreak_probe,
				  lastbreak_psw(pid));
	}
	lb->psw = lastbreak_psw(pid);
	ASSERT_EQ(0, ptrace(PTRACE_GETREGSET, pid,
			    (void *)NT_S390_LAST_BREAK, &iov));
	errno = 0;
	lb->per_address = ptrace(PTRACE_PEEKUSER, pid,
				 (void *)offsetof(struct user,
						  regs.per_info.address),
				 NULL);
	ASSERT_EQ(0, errno);
	if (upng_xol_range(pid, &lb->xol_lo, &lb->xol_hi)) {
		lb->xol_lo = 0;
		lb->xol_hi = 0;
	}
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("status %#x", status);
}

/*
 * The breaking-event address, the last taken branch's (ptrace's
 * NT_S390_LAST_BREAK and PTRACE_GET_LAST_BREAK, core dumps, a signal
 * handler's r5 or r6), after a probed basr, stepped out of line: the
 * basr's own, as unprobed, never the XOL slot's. Nor is the last PER
 * event's address, which the step's own gives, in the XOL area. A
 * debugger single-steps the basr, and reads them at the step's stop.
 */
TEST(lastbreak_after_probed_basr)
{
	unsigned long want = (unsigned long)site_lastbreak_probe;
	struct lastbreak bare, probed;
	struct upng_sym sym;
	char ev[64];

	upng_die_with_parent();
	ASSERT_EQ(0, upng_trace_reset());
	lastbreak_stop(_metadata, &bare);
	if (bare.last_break != want)
		SKIP(return, "last break %#lx after a step of the basr at %#lx",
		     bare.last_break, want);

	upng_evname(ev, sizeof(ev), "lastbreak");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_lastbreak_probe",
				  &sym));
	ASSERT_EQ(want, sym.value);
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	lastbreak_stop(_metadata, &probed);
	ASSERT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	ASSERT_NE(0UL, probed.xol_hi) TH_LOG("no [uprobes]: nothing stepped");
	EXPECT_EQ(bare.psw, probed.psw);
	EXPECT_EQ(want, probed.last_break)
		TH_LOG("breaking-event address %#lx, [uprobes] at %#lx-%#lx",
		       probed.last_break, probed.xol_lo, probed.xol_hi);
	EXPECT_FALSE(probed.per_address >= probed.xol_lo &&
		     probed.per_address < probed.xol_hi)
		TH_LOG("PER address %#lx in [uprobes] at %#lx-%#lx",
		       probed.per_address, probed.xol_lo, probed.xol_hi);
}
#endif

TEST_HARNESS_MAIN
