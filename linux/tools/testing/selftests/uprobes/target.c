// SPDX-License-Identifier: GPL-2.0
/*
 * Probe target driven over stdin/stdout, built as a 64-bit and a 32-bit
 * static program.  It prints "ready MAIN FUNC" (run-time addresses of
 * main() and target_func()) and then obeys one command per line:
 *   call N         call target_func(i) for i < N, print "sum S"
 *   threads T N    T threads call target_func(t * 1000000 + i), i < N,
 *                  print "sum S"
 *   fork N         a forked child runs "call N" and prints "child S",
 *                  the parent prints "waited STATUS"
 *   exec PATH N    execv(PATH, PATH --run N)
 *   rec N          print "sum S", S = target_rec(N) (recursion depth N)
 *   longjmp N      N times: target_lj() leaves by longjmp(), never
 *                  returning; print "jumps N"
 *   leave          the commands go on in a new thread, the first one
 *                  exits (pthread_exit()); "left" once it is gone
 *   quit           exit(0)
 * "target --run N" runs "call N" once, prints the sum and exits.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct worker {
	pthread_t thread;
	long base, count;
	long long sum;
	int done;
	char stack[65536];
};

static jmp_buf lj_env;
static long lj_count;
/* Global, so the compiler cannot turn the recursion into a loop. */
long (*target_rec_ptr)(long n);

__attribute__((noipa)) long target_func(long x)
{
	asm volatile("" : "+r" (x) : : "memory");
	return x * 7 + 3;
}

/* rec(0) = 1, rec(n) = 2 * rec(n - 1) + n; called through a pointer. */
__attribute__((noipa)) long target_rec(long n)
{
	long r;

	if (!n)
		return 1;
	r = target_rec_ptr(n - 1);
	return r * 2 + n;
}

/* Never returns: jumps back to the caller's setjmp(). */
__attribute__((noipa)) long target_lj(long x)
{
	asm volatile("" : "+r" (x) : : "memory");
	lj_count++;
	longjmp(lj_env, 1);
}

static long run_longjmp(long n)
{
	long i, start = lj_count;

	for (i = 0; i < n; i++) {
		if (!setjmp(lj_env))
			target_lj(i);
	}
	return lj_count - start;
}

static long long call_n(long base, long n)
{
	long long sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += target_func(base + i);
	return sum;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->sum = call_n(w->base, w->count);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * 32-bit glibc waits with the old futex syscall, which a kernel without
 * CONFIG_COMPAT_32BIT_TIME lacks: there the workers are bare clone()
 * threads (same mm, no TLS use) and the main thread polls for them.
 */
static int clone_worker_main(void *arg)
{
	worker_main(arg);
	return 0;
}

static int start_worker(struct worker *w)
{
	if (sizeof(long) == 8)
		return pthread_create(&w->thread, NULL, worker_main, w);
	return clone(clone_worker_main, w->stack + sizeof(w->stack),
		     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		     CLONE_THREAD | CLONE_SYSVSEM, w) < 0;
}

static void run_threads(int nthreads, long n)
{
	static struct worker w[64];
	long long sum = 0;
	int t;

	if (nthreads > 64)
		nthreads = 64;
	for (t = 0; t < nthreads; t++) {
		w[t].base = t * 1000000L;
		w[t].count = n;
		w[t].done = 0;
		if (start_worker(&w[t])) {
			printf("error thread start\n");
			return;
		}
	}
	for (t = 0; t < nthreads; t++) {
		while (!__atomic_load_n(&w[t].done, __ATOMIC_ACQUIRE))
			sched_yield();
		if (sizeof(long) == 8)
			pthread_join(w[t].thread, NULL);
		sum += w[t].sum;
	}
	printf("sum %lld\n", sum);
}

static void run_fork(long n)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("error fork\n");
		return;
	}
	if (!pid) {
		printf("child %lld\n", call_n(0, n));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("waited %d\n", status);
}

static void *commands(void *leader);

/*
 * "leave": the commands go on in a new thread once the thread running
 * them (the process's first) has exited, its task a zombie.
 */
static void leave(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, commands, (void *)pthread_self())) {
		printf("error thread\n");
		return;
	}
	pthread_exit(NULL);
}

/* A leader that exited is a zombie once its status says so. */
static void wait_zombie(pid_t tid)
{
	char path[64], buf[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return;
		while (fgets(buf, sizeof(buf), f))
			if (!strncmp(buf, "State:", 6))
				break;
		fclose(f);
		if (strchr(buf, 'Z'))
			return;
		usleep(1000);
	}
}

static void *commands(void *leader)
{
	char line[512], path[256];
	long a, b;

	if (leader) {
		pthread_join((pthread_t)leader, NULL);
		wait_zombie(getpid());
		printf("left\n");
		fflush(stdout);
	}
	while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4)) {
		if (!strncmp(line, "leave", 5)) {
			leave();
		} else if (sscanf(line, "call %ld", &a) == 1) {
			printf("sum %lld\n", call_n(0, a));
		} else if (sscanf(line, "threads %ld %ld", &a, &b) == 2) {
			run_threads(a, b);
		} else if (sscanf(line, "fork %ld", &a) == 1) {
			run_fork(a);
		} else if (sscanf(line, "rec %ld", &a) == 1) {
			printf("sum %ld\n", target_rec(a));
		} else if (sscanf(line, "longjmp %ld", &a) == 1) {
			printf("jumps %ld\n", run_longjmp(a));
		} else if (sscanf(line, "exec %255s %ld", path, &a) == 2) {
			char num[32];

			snprintf(num, sizeof(num), "%ld", a);
			fflush(stdout);
			execl(path, path, "--run", num, (char *)NULL);
			printf("error exec\n");
		} else {
			printf("error unknown command\n");
		}
		fflush(stdout);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--run")) {
		printf("sum %lld\n", call_n(0, atol(argv[2])));
		return 0;
	}
	target_rec_ptr = target_rec;
	printf("ready %lx %lx\n", (unsigned long)main,
	       (unsigned long)target_func);
	fflush(stdout);
	commands(NULL);
	return 0;
}
