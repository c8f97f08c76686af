// SPDX-License-Identifier: GPL-2.0
/*
 * Worker program of the stress test (stress.c), whose functions it probes:
 *   stress_target --worker FD SLOT GEN   worker SLOT of the shared memory
 *                                        (struct st_shm) open as FD,
 *                                        exec generation GEN
 *   stress_target --report               print "sem S K": the values of
 *                                        st_semaphore and st_ksem
 *
 * A worker runs compute threads that call the probed functions and check
 * every result against a computation without probe (or a closed form),
 * and read the USDT-style semaphores, calling st_usdt_a()/st_usdt_b() only
 * while st_semaphore is raised, as a USDT site does. Its main thread forks
 * children that compute and exit (some through a probed function that
 * calls _exit()), calls st_forker() (fork() inside a function with a
 * return probe: the child returns through the trampoline too), maps the
 * whole binary a second time, calls probed code there, mprotect()s and
 * munmap()s it, and re-execs itself (from inside st_execer(), which has a
 * return probe) with GEN + 1. SIGRTMIN handlers call probed functions too.
 *
 * Every entry of a probed function is counted in the slot before the call
 * (started) and after it returned (finished), so that the test can compare
 * them with the probes' hit counts. The steady mode stops the threads
 * before an exec (nothing is left unfinished, hits must equal the calls);
 * the chaos mode execs with the threads running, killing them wherever
 * they are. Errors are recorded in the slot (the first one with its
 * values) and make the worker exit with 1; a fatal signal (SIGTRAP from a
 * stray breakpoint, SIGSEGV, SIGILL, ...) is recorded and exits with 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "stress.h"
#include "upng.h"
#include "upng_regs.h"

#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)
#define ADD(v, x) __atomic_add_fetch(&(v), (x), __ATOMIC_SEQ_CST)

/*
 * The probed functions, next to each other. st_sum(), st_leaf() and
 * st_many_N() neither call anything nor address data relative to rip:
 * they also run from the second mapping.
 */
#define ST_TEXT __attribute__((noipa))

/* The semaphores (see stress.h): in the file's data, as USDT has them. */
asm(".pushsection .probes, \"aw\", @progbits\n"
	".balign 8\n"
	".globl st_semaphore\n"
	".type st_semaphore, @object\n"
	"st_semaphore: .short 0\n"
	".size st_semaphore, 2\n"
	".balign 8\n"
	".globl st_ksem\n"
	".type st_ksem, @object\n"
	"st_ksem: .short 0\n"
	".size st_ksem, 2\n"
	".popsection");

/* Called through a pointer, so that the recursion stays a recursion. */
long (*st_rec_ptr)(long n);

ST_TEXT uint64_t st_sum(const unsigned char *p, long len, uint64_t seed)
{
	uint64_t h = seed ^ 0xcbf29ce484222325ULL;
	long i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

ST_TEXT long st_rec(long n)
{
	if (!n)
		return 1;
	return st_rec_ptr(n - 1) * 2 + n;
}

ST_TEXT long st_leaf(long x)
{
	asm volatile("" : "+r" (x));
	return ST_LEAF(x);
}

ST_TEXT long st_usdt_a(long x)
{
	asm volatile("" : "+r" (x));
	return ST_USDT_A(x);
}

ST_TEXT long st_usdt_b(long x)
{
	asm volatile("" : "+r" (x));
	return ST_USDT_B(x);
}

ST_TEXT long st_ksite(long x)
{
	asm volatile("" : "+r" (x));
	return ST_KSITE(x);
}

/* Never called: the test's tracer plants and removes an int3 here. */
ST_TEXT long st_cold(long x)
{
	asm volatile("" : "+r" (x));
	return x * 13 + 7;
}

ST_TEXT long st_forker(long x, pid_t *pid)
{
	*pid = fork();
	asm volatile("" : "+r" (x) : : "memory");
	return ST_FORKER(x, *pid == 0);
}

ST_TEXT int st_execer(const char *path, char *const argv[])
{
	execv(path, argv);
	return -errno;
}

ST_TEXT void st_exiter(int code)
{
	_exit(code);
}

#define ST_MANY_FN(i)						\
ST_TEXT long st_many_##i(long x)				\
{								\
	asm volatile("" : "+r" (x));				\
	return st_many_value(i, x);				\
}

ST_MANY_FN(0)

ST_MANY_FN(1)

ST_MANY_FN(2)

ST_MANY_FN(3)

ST_MANY_FN(4)

ST_MANY_FN(5)

ST_MANY_FN(6)

ST_MANY_FN(7)

static long (*const st_many[ST_NMANY])(long) = {
	st_many_0, st_many_1, st_many_2, st_many_3,
	st_many_4, st_many_5, st_many_6, st_many_7,
};

/* st_sum() written differently, never probed: the reference. */
static __attribute__((noipa)) uint64_t ref_sum(const unsigned char *p,
					       long len, uint64_t seed)
{
	const unsigned char *end = p + len;
	uint64_t h = seed ^ 0xcbf29ce484222325ULL;

	while (p < end) {
		h = (h ^ *p++) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

static struct st_shm *shm;
static struct st_slot *me;
static int slot_no, gen, shm_fd;
static char self[PATH_MAX];
static long local_errors;	/* of this process (a child's exit status) */
static int threads_stop, nthreads_running;
static pthread_t threads[ST_MAX_THREADS];
static unsigned long xol_lo, xol_hi;	/* [uprobes], once it exists */
static unsigned char hbuf[64];		/* what the signal handler sums */

/* The second mapping of the binary (all of it) and its state. */
enum { AL_NONE, AL_RX, AL_RO, AL_NOACC, AL_SPLIT };
static int alias_state;
static unsigned char *alias;
static size_t alias_len;
static unsigned long off_sum, off_leaf, off_many[ST_NMANY];

enum { OP_SUM, OP_REC, OP_LEAF, OP_USDT, OP_MANY, OP_KSITE, OP_NR };

static void fill(unsigned char *buf, size_t len, uint64_t *rs)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = st_rnd(rs);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Record an error; async-signal-safe. */
static void fail(long code, long a, long b, long c)
{
	long zero = 0;

	ADD(local_errors, 1);
	ADD(me->errors, 1);
	if (__atomic_compare_exchange_n(&me->err_code, &zero, code, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		STORE(me->err_a, a);
		STORE(me->err_b, b);
		STORE(me->err_c, c);
	}
}

#define SYSFAIL() fail(ST_E_SYS, __LINE__, errno, 0)

/*
 * Read the semaphores: st_semaphore counts the enabled probes on the two
 * USDT sites (exactly sem_exact of them when that is set), st_ksem the
 * killer's one probe.
 */
static unsigned int sem_check(void)
{
	unsigned int s = LOAD(st_semaphore), k = LOAD(st_ksem);
	int exact = LOAD(shm->sem_exact);

	ADD(me->sem_reads, 1);
	if (exact >= 0 && s != (unsigned int)exact)
		fail(ST_E_SEM_EXACT, s, exact, 0);
	else if (s > 2)
		fail(ST_E_SEM_RANGE, s, 0, 0);
	if (k > 1)
		fail(ST_E_KSEM_RANGE, k, 0, 0);
	return s;
}

static void op_run(uint64_t *rs, const unsigned char *buf, int op)
{
	long x = st_rnd(rs) & 0xffffff, r, n;
	uint64_t seed, h;
	int i;

	switch (op) {
	case OP_SUM:
		n = 1 + st_rnd(rs) % 200;
		seed = st_rnd(rs);
		ADD(me->started[ST_FN_SUM], 1);
		h = st_sum(buf, n, seed);
		ADD(me->finished[ST_FN_SUM], 1);
		if (h != ref_sum(buf, n, seed))
			fail(ST_E_SUM, n, seed, h);
		break;
	case OP_REC:
		n = st_rnd(rs) % 12;
		ADD(me->started[ST_FN_REC], n + 1);
		r = st_rec(n);
		ADD(me->finished[ST_FN_REC], n + 1);
		if (r != st_rec_value(n))
			fail(ST_E_REC, n, r, 0);
		break;
	case OP_LEAF:
		ADD(me->started[ST_FN_LEAF], 1);
		r = st_leaf(x);
		ADD(me->finished[ST_FN_LEAF], 1);
		if (r != ST_LEAF(x))
			fail(ST_E_LEAF, x, r, 0);
		break;
	case OP_USDT:
		if (sem_check()) {
			ADD(me->started[ST_FN_USDT_A], 1);
			r = st_usdt_a(x);
			ADD(me->finished[ST_FN_USDT_A], 1);
			if (r != ST_USDT_A(x))
				fail(ST_E_USDT, x, r, 0);
		}
		if (sem_check()) {
			ADD(me->started[ST_FN_USDT_B], 1);
			r = st_usdt_b(x);
			ADD(me->finished[ST_FN_USDT_B], 1);
			if (r != ST_USDT_B(x))
				fail(ST_E_USDT, x, r, 0);
		}
		break;
	case OP_MANY:
		i = st_rnd(rs) % ST_NMANY;
		ADD(me->started[ST_FN_MANY + i], 1);
		r = st_many[i](x);
		ADD(me->finished[ST_FN_MANY + i], 1);
		if (r != st_many_value(i, x))
			fail(ST_E_MANY, i, x, r);
		break;
	case OP_KSITE:
		sem_check();
		ADD(me->started[ST_FN_KSITE], 1);
		r = st_ksite(x);
		ADD(me->finished[ST_FN_KSITE], 1);
		if (r != ST_KSITE(x))
			fail(ST_E_KSITE, x, r, 0);
		break;
	}
}

/* Calls into the second mapping, which must be mapped executable. */
static void alias_calls(uint64_t *rs, const unsigned char *buf, int n)
{
	uint64_t (*sum)(const unsigned char *p, long len, uint64_t seed);
	long (*fn)(long), x, r;
	uint64_t seed, h;
	int i, k;

	for (k = 0; k < n; k++) {
		x = st_rnd(rs) & 0xffffff;
		switch (st_rnd(rs) % 3) {
		case 0:
			fn = (void *)(alias + off_leaf);
			ADD(me->started[ST_FN_LEAF], 1);
			r = fn(x);
			ADD(me->finished[ST_FN_LEAF], 1);
			if (r != ST_LEAF(x))
				fail(ST_E_LEAF, x, r, 1);
			break;
		case 1:
			i = st_rnd(rs) % ST_NMANY;
			fn = (void *)(alias + off_many[i]);
			ADD(me->started[ST_FN_MANY + i], 1);
			r = fn(x);
			ADD(me->finished[ST_FN_MANY + i], 1);
			if (r != st_many_value(i, x))
				fail(ST_E_MANY, i, x, r);
			break;
		default:
			sum = (void *)(alias + off_sum);
			seed = st_rnd(rs);
			ADD(me->started[ST_FN_SUM], 1);
			h = sum(buf, 64, seed);
			ADD(me->finished[ST_FN_SUM], 1);
			if (h != ref_sum(buf, 64, seed))
				fail(ST_E_SUM, 64, seed, h);
			break;
		}
	}
	ADD(me->alias_calls, n);
}

static void rt_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long ip = UPNG_UC_PC(uc);
	unsigned long lo = LOAD(xol_lo), hi = LOAD(xol_hi);
	long x = si->si_code == SI_QUEUE ? si->si_value.sival_int : 0, r;
	int saved_errno = errno;
	uint64_t h;

	/* Only the trampoline of [uprobes] is code the program may be in. */
	if (lo && ip >= lo + ST_TRAMP_BYTES && ip < hi)
		fail(ST_E_XOL_IP, ip, lo, 0);
	ADD(me->started[ST_FN_LEAF], 1);
	r = st_leaf(x);
	ADD(me->finished[ST_FN_LEAF], 1);
	if (r != ST_LEAF(x))
		fail(ST_E_LEAF, x, r, 0);
	ADD(me->started[ST_FN_SUM], 1);
	h = st_sum(hbuf, sizeof(hbuf), x);
	ADD(me->finished[ST_FN_SUM], 1);
	if (h != ref_sum(hbuf, sizeof(hbuf), x))
		fail(ST_E_SUM, sizeof(hbuf), x, h);
	ADD(me->started[ST_FN_REC], 4);
	r = st_rec(3);
	ADD(me->finished[ST_FN_REC], 4);
	if (r != st_rec_value(3))
		fail(ST_E_REC, 3, r, 0);
	ADD(me->sig_handled, 1);
	errno = saved_errno;
}

static void fatal_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	fail(ST_E_SIGNAL, sig, UPNG_UC_PC(uc), si->si_code);
	_exit(3);
}

static int handlers(void)
{
	static const int fatal[] = { SIGTRAP, SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sa.sa_sigaction = rt_handler;
	if (sigaction(SIGRTMIN, &sa, NULL))
		return -1;
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = fatal_handler;
	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		if (sigaction(fatal[i], &sa, NULL))
			return -1;
	return 0;
}

static void block_rt(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

static uint64_t seed_for(int what)
{
	return (LOAD(shm->seed) ^ ((uint64_t)slot_no << 56) ^
		((uint64_t)gen << 40) ^ ((uint64_t)what << 24) ^ getpid()) | 1;
}

static void *compute_main(void *arg)
{
	int idx = (int)(long)arg;
	uint64_t rs = seed_for(idx + 1);
	unsigned char buf[256];
	long n;

	fill(buf, sizeof(buf), &rs);
	STORE(me->tids[idx], (int)syscall(SYS_gettid));
	for (n = 1; !LOAD(threads_stop); n++) {
		op_run(&rs, buf, st_rnd(&rs) % OP_NR);
		if (!(n % 16))
			sched_yield();
		if (!(n % 256))
			fill(buf, sizeof(buf), &rs);
	}
	STORE(me->tids[idx], 0);
	return NULL;
}

static void start_threads(void)
{
	int i, n = LOAD(shm->nthreads);

	STORE(threads_stop, 0);
	for (i = 0; i < n && i < ST_MAX_THREADS; i++) {
		errno = pthread_create(&threads[i], NULL, compute_main,
				       (void *)(long)i);
		if (errno) {
			SYSFAIL();
			break;
		}
	}
	nthreads_running = i;
}

static void stop_threads(void)
{
	int i;

	STORE(threads_stop, 1);
	for (i = 0; i < nthreads_running; i++)
		pthread_join(threads[i], NULL);
	nthreads_running = 0;
}

/* Reap forked children (all of them when BLOCK); each must exit with 0. */
static void reap(bool block)
{
	int status;
	pid_t pid;

	while (LOAD(me->children) > 0) {
		pid = waitpid(-1, &status, block ? 0 : WNOHANG);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0) {
			if (errno != ECHILD)
				SYSFAIL();
			else
				fail(ST_E_CHILD, 0, LOAD(me->children), 0);
			STORE(me->children, 0);
			break;
		}
		if (!pid)
			break;
		ADD(me->children, -1);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fail(ST_E_CHILD, pid, status, 0);
	}
}

/* What a forked child does before it exits (with 2 after an error). */
static void child_body(uint64_t seed)
{
	uint64_t rs = seed | 1;
	unsigned char buf[256];
	int i, n = 10 + st_rnd(&rs) % 30;

	fill(buf, sizeof(buf), &rs);
	for (i = 0; i < n; i++)
		op_run(&rs, buf, st_rnd(&rs) % OP_NR);
	if (alias_state == AL_RX)
		alias_calls(&rs, buf, 3);
	if (st_rnd(&rs) & 1) {
		/* Exits inside a function with a return probe. */
		ADD(me->started[ST_FN_EXITER], 1);
		ADD(me->finished[ST_FN_EXITER], 1);
		st_exiter(LOAD(local_errors) ? 2 : 0);
	}
	_exit(LOAD(local_errors) ? 2 : 0);
}

static void fork_child(uint64_t *rs)
{
	uint64_t seed = st_rnd(rs);
	pid_t pid;

	if (LOAD(me->children) >= ST_MAX_CHILDREN)
		return;
	ADD(me->children, 1);
	pid = fork();
	if (!pid) {
		STORE(local_errors, 0);
		child_body(seed);
	}
	if (pid < 0) {
		ADD(me->children, -1);
		SYSFAIL();
		return;
	}
	ADD(me->forks, 1);
}

/* fork() from inside st_forker(): both return through its return probe. */
static void forker(uint64_t *rs)
{
	long x = st_rnd(rs) & 0xffff, r;
	uint64_t seed = st_rnd(rs);
	pid_t pid = -1;

	if (LOAD(me->children) >= ST_MAX_CHILDREN)
		return;
	ADD(me->children, 1);
	ADD(me->started[ST_FN_FORKER], 1);
	r = st_forker(x, &pid);
	if (!pid) {
		STORE(local_errors, 0);
		if (r != ST_FORKER(x, 1))
			fail(ST_E_FORKER, r, ST_FORKER(x, 1), 0);
		child_body(seed);
	}
	ADD(me->finished[ST_FN_FORKER], 1);
	if (pid < 0) {
		ADD(me->children, -1);
		SYSFAIL();
		return;
	}
	ADD(me->forkers, 1);
	if (r != ST_FORKER(x, 0))
		fail(ST_E_FORKER, r, ST_FORKER(x, 0), 0);
}

static int alias_map(void)
{
	struct stat st;
	void *p;
	int fd;

	fd = open(self, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	alias = p;
	alias_len = st.st_size;
	alias_state = AL_RX;
	STORE(me->alias_base, (unsigned long)alias);
	STORE(me->alias_len, (unsigned long)alias_len);
	ADD(me->maps, 1);
	return 0;
}

static void alias_unmap(void)
{
	STORE(me->alias_len, 0UL);
	if (munmap(alias, alias_len))
		SYSFAIL();
	alias_state = AL_NONE;
	ADD(me->unmaps, 1);
}

static void alias_protect(unsigned char *p, size_t len, int prot, int state)
{
	if (mprotect(p, len, prot)) {
		SYSFAIL();
		return;
	}
	alias_state = state;
	ADD(me->mprotects, 1);
}

/* One step of the second mapping's life; calls only while executable. */
static void alias_op(uint64_t *rs, const unsigned char *buf)
{
	size_t half = (alias_len / 2) & ~4095UL;
	int r = st_rnd(rs) % 8;

	switch (alias_state) {
	case AL_NONE:
		if (alias_map())
			SYSFAIL();
		break;
	case AL_RX:
		if (r < 4)
			alias_calls(rs, buf, 4);
		else if (r == 4)
			alias_protect(alias, alias_len, PROT_READ, AL_RO);
		else if (r == 5)
			alias_protect(alias, alias_len, PROT_NONE, AL_NOACC);
		else if (r == 6 && half)
			alias_protect(alias, half, PROT_READ, AL_SPLIT);
		else
			alias_unmap();
		break;
	default:
		if (r < 5)
			alias_protect(alias, alias_len, PROT_READ | PROT_EXEC,
				      AL_RX);
		else
			alias_unmap();
		break;
	}
}

/* Run again as generation GEN + 1, from inside st_execer(). */
static void do_exec(bool brutal)
{
	char fd[16], slot[16], next[16];
	char worker_arg[] = "--worker";
	char *argv[6];
	int err;

	argv[0] = self;
	argv[1] = worker_arg;
	argv[2] = fd;
	argv[3] = slot;
	argv[4] = next;
	argv[5] = NULL;

	snprintf(fd, sizeof(fd), "%d", shm_fd);
	snprintf(slot, sizeof(slot), "%d", slot_no);
	snprintf(next, sizeof(next), "%d", gen + 1);
	if (!brutal)
		stop_threads();
	/*
	 * The new program resets the handlers: it gets the signals sent
	 * meanwhile once it has installed its own.
	 */
	block_rt(true);
	ADD(me->execs, 1);
	ADD(me->started[ST_FN_EXECER], 1);
	ADD(me->finished[ST_FN_EXECER], 1);
	err = st_execer(self, argv);
	fail(ST_E_SYS, __LINE__, -err, 0);
	ADD(me->execs, -1);
	block_rt(false);
	if (!brutal)
		start_threads();
}

/* The [uprobes] mapping, once the process has one. */
static void find_xol(void)
{
	unsigned long lo, hi;
	char line[512];
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[uprobes]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			STORE(xol_hi, hi);
			STORE(xol_lo, lo);
			break;
		}
	}
	fclose(f);
}

/* Wait for the signals sent so far (the sender has stopped). */
static void wait_signals(void)
{
	bool steady = LOAD(shm->mode) == ST_STEADY;
	double t0 = now();
	long sent, handled;

	for (;;) {
		sent = LOAD(me->sig_sent);
		handled = LOAD(me->sig_handled);
		if (handled >= sent || now() - t0 > (steady ? 30 : 3))
			break;
		usleep(10000);
	}
	/*
	 * An exec with the threads running (chaos) loses the signals that
	 * the threads it kills were handling; none may be handled twice.
	 */
	if (handled > sent || (steady && handled != sent))
		fail(ST_E_SIG_LOST, sent, handled, 0);
}

static void park(void)
{
	int g = LOAD(shm->cmd_gen);

	stop_threads();
	reap(true);
	wait_signals();
	STORE(me->ack, g);
	while (LOAD(shm->cmd) == ST_PARK && LOAD(shm->cmd_gen) == g)
		usleep(10000);
	if (LOAD(shm->cmd) == ST_RUN)
		start_threads();
}

/* No probe is left: nothing may hold a semaphore; compute, then exit. */
static void final(void)
{
	uint64_t rs = seed_for(100);
	unsigned int s = LOAD(st_semaphore), k = LOAD(st_ksem);
	unsigned char buf[256];
	pid_t pid;
	int i;

	stop_threads();
	reap(true);
	if (s || k)
		fail(ST_E_FINAL_SEM, s, k, 0);
	fill(buf, sizeof(buf), &rs);
	for (i = 0; i < 4 * OP_NR; i++)
		op_run(&rs, buf, i % OP_NR);
	if (alias_state != AL_NONE)
		alias_unmap();
	if (!alias_map()) {
		alias_calls(&rs, buf, 8);
		alias_unmap();
	}
	ADD(me->children, 1);
	pid = fork();
	if (!pid) {
		STORE(local_errors, 0);
		child_body(st_rnd(&rs));
	}
	if (pid < 0) {
		ADD(me->children, -1);
		SYSFAIL();
	}
	reap(true);
	exit(LOAD(me->errors) ? 1 : 0);
}

static void worker(void)
{
	bool chaos = LOAD(shm->mode) == ST_CHAOS;
	uint64_t rs = seed_for(0);
	unsigned char buf[256];
	double next_exec;
	int cmd;

	fill(buf, sizeof(buf), &rs);
	next_exec = now() + 0.5 + (st_rnd(&rs) % 3000) / 1000.0;
	start_threads();
	for (;;) {
		cmd = LOAD(shm->cmd);
		if (cmd == ST_PARK) {
			park();
			continue;
		}
		if (cmd == ST_FINAL)
			final();
		if (!LOAD(xol_lo))
			find_xol();
		reap(false);
		if (now() >= next_exec) {
			do_exec(chaos);
			next_exec = now() + 1;
		}
		switch (st_rnd(&rs) % 10) {
		case 0:
		case 1:
			fork_child(&rs);
			break;
		case 2:
			forker(&rs);
			break;
		case 3:
		case 4:
		case 5:
		case 6:
			alias_op(&rs, buf);
			break;
		default:
			op_run(&rs, buf, st_rnd(&rs) % OP_NR);
			op_run(&rs, buf, st_rnd(&rs) % OP_NR);
			break;
		}
		usleep(2000 + st_rnd(&rs) % 10000);
	}
}

static int offsets(void)
{
	struct upng_sym s;
	char name[32];
	int i;

	if (upng_elf_sym(self, "st_sum", &s))
		return -1;
	off_sum = s.offset;
	if (upng_elf_sym(self, "st_leaf", &s))
		return -1;
	off_leaf = s.offset;
	for (i = 0; i < ST_NMANY; i++) {
		snprintf(name, sizeof(name), "st_many_%d", i);
		if (upng_elf_sym(self, name, &s))
			return -1;
		off_many[i] = s.offset;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i;
	void *p;

	st_rec_ptr = st_rec;
	if (argc == 2 && !strcmp(argv[1], "--report")) {
		printf("sem %u %u\n", LOAD(st_semaphore), LOAD(st_ksem));
		return 0;
	}
	if (argc != 5 || strcmp(argv[1], "--worker")) {
		fprintf(stderr, "usage: %s --worker FD SLOT GEN | --report\n",
			argv[0]);
		return 2;
	}
	shm_fd = atoi(argv[2]);
	slot_no = atoi(argv[3]);
	gen = atoi(argv[4]);
	if (slot_no < 0 || slot_no >= ST_MAX_WORKERS)
		return 2;
	p = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED,
		 shm_fd, 0);
	if (p == MAP_FAILED)
		return 2;
	shm = p;
	me = &shm->slot[slot_no];
	snprintf(self, sizeof(self), "%s", upng_self_path());
	for (i = 0; i < sizeof(hbuf); i++)
		hbuf[i] = i * 37 + 11;
	if (handlers() || offsets()) {
		SYSFAIL();
		return 1;
	}
	STORE(me->alias_len, 0UL);
	for (i = 0; i < ST_MAX_THREADS; i++)
		STORE(me->tids[i], 0);
	STORE(me->gen, gen);
	STORE(me->pid, (int)getpid());
	/* Blocked across the exec that started this generation. */
	block_rt(false);
	STORE(me->ready, 1);
	worker();
	return 0;
}
