// SPDX-License-Identifier: GPL-2.0
/*
 * Probe target of the tail call tests (tailcall.c), built as a 64-bit and
 * a 32-bit static program with the functions of tailcall.S (on arm64 as
 * one 64-bit program with those of tailcall_a64.S).  It runs the
 * steps of its argument, a comma-separated list of NAME:NUMBER, in order,
 * and prints one line per step on stdout (unbuffered):
 *   a:X    tc_a(X)                       "a v VALUE"
 *   b:X    tc_b(X)                       "b v VALUE"
 *   oa:X   tc_outer(X, 0, tc_a)          "oa v VALUE"
 *   r:N    tc_r(N, 1)                    "r v VALUE"
 *   or:N   tc_outer(N, 1, tc_r)          "or v VALUE"
 *   oc:X   tc_outer(X, 0, tc_c)          "oc v VALUE"
 *   ljo:X  tc_outer(X, 0, tc_lc), left by siglongjmp() from tc_escape()
 *          (called by the tail-called tc_ld): "ljo lj VALUE", VALUE the
 *          argument of tc_escape()
 *   ljd:X  the same from deeper in the stack: "ljd lj VALUE"
 *   k0:X   tc_catch(X, 0)                "k0 v VALUE"
 *   k1:X   tc_catch(X, 1)                "k1 v VALUE"
 *   ok1:X  tc_outer(X, 1, tc_catch)      "ok1 v VALUE"
 *   peek:X T = tc_peek(X)                "peek tramp T inxol 0|1", inxol
 *                                        whether T is in the [uprobes]
 *                                        mapping
 *   pn:X   tc_guard(X, T, 0, tc_pushjmp): tc_b(X) returning to T
 *   pl:X   tc_guard(X, T, tc_pushjmp, tc_outer): the same inside the
 *          return-probed tc_outer
 *   ljn:N  N times from one call site in one frame (one sp), tc_lc(I)
 *          left by siglongjmp() from tc_escape(), then tc_a(N):
 *          "ljn v VALUE", VALUE what tc_a() returned
 * On x86-64 and arm64:
 *   cc:X   tc_f0(X), X + 4, through a tail call: "cc v VALUE"
 * On arm64 and s390 only:
 *   fl:X   tc_fl(X), which calls tc_b() without a frame of its own:
 *          "fl v VALUE"
 *   ofl:X  tc_outer(X, 0, tc_fl)         "ofl v VALUE"
 * A step that gets SIGILL, SIGSEGV, SIGBUS, SIGTRAP or SIGFPE prints
 * "NAME sig SIGNO" instead, and the program goes on with the next step.
 * After the last step it prints "done" and exits 0.  The program stays on
 * the CPU it started on, so that the trace is in event order.
 */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tailcall.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static sigjmp_buf step_env, lj_env, catch_env;
static sigjmp_buf *lj_target;
static long lj_val;
static long tramp;
static char altstack[65536];

/* Called by tc_ld: leave the tail-called chain. */
__attribute__((noipa)) void tc_escape(long v)
{
	lj_val = v;
	siglongjmp(*lj_target, 1);
}

/*
 * Calls the chain tc_lc -> tc_ld -> tc_escape, which jumps back here;
 * then (mode 1) calls tc_a() and returns 2000 more than the value passed
 * to tc_escape() (or than tc_a() of it).
 */
__attribute__((noipa)) long tc_catch(long x, long mode)
{
	long v;

	if (sigsetjmp(catch_env, 0)) {
		v = lj_val;
		if (mode)
			v = tc_a(v);
		return v + 2000;
	}
	lj_target = &catch_env;
	v = tc_lc(x);
	asm volatile("" : "+r" (v));
	return v + 3000;	/* not reached */
}

/*
 * tc_lc(i) for i < n, each left by siglongjmp() back into this frame, from
 * the same call site and with the same sp, then tc_a(n).
 */
static sigjmp_buf loop_env;
static long loop_i, loop_end;

static __attribute__((noipa)) long lj_loop(long n)
{
	long v;

	loop_i = 0;
	loop_end = n;
	lj_target = &loop_env;
	sigsetjmp(loop_env, 0);
	while (loop_i < loop_end) {
		v = loop_i++;
		tc_lc(v);
	}
	return tc_a(loop_end);
}

/* tc_outer(x, 0, tc_lc) from a frame well below the caller's. */
static __attribute__((noipa)) long deep_call(long x)
{
	char pad[1024];
	long v;

	pad[0] = 1;
	asm volatile("" : : "r" (pad) : "memory");
	v = tc_outer(x, 0, tc_lc);
	asm volatile("" : : "r" (pad) : "memory");
	return v + pad[0];
}

static void out(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(1, line, n) != n)
		_exit(3);
}

static void on_signal(int sig)
{
	siglongjmp(step_env, sig);
}

static int in_xol(unsigned long addr)
{
	unsigned long lo, hi;
	char line[512];
	int ret = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[uprobes]"))
			continue;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    addr >= lo && addr < hi)
			ret = 1;
	}
	fclose(f);
	return ret;
}

static void run_step(const char *name, long x)
{
	long v;
	int sig;

	sig = sigsetjmp(step_env, 1);
	if (sig) {
		out("%s sig %d", name, sig);
		return;
	}
	if (!strcmp(name, "a")) {
		out("a v %ld", tc_a(x));
	} else if (!strcmp(name, "b")) {
		out("b v %ld", tc_b(x));
	} else if (!strcmp(name, "oa")) {
		out("oa v %ld", tc_outer(x, 0, tc_a));
	} else if (!strcmp(name, "r")) {
		out("r v %ld", tc_r(x, 1));
	} else if (!strcmp(name, "or")) {
		out("or v %ld", tc_outer(x, 1, tc_r));
	} else if (!strcmp(name, "oc")) {
		out("oc v %ld", tc_outer(x, 0, tc_c));
	} else if (!strcmp(name, "ljo") || !strcmp(name, "ljd")) {
		lj_target = &lj_env;
		if (!sigsetjmp(lj_env, 0)) {
			if (name[2] == 'o')
				v = tc_outer(x, 0, tc_lc);
			else
				v = deep_call(x);
			out("%s v %ld", name, v);	/* wrong */
		} else {
			out("%s lj %ld", name, (long)lj_val);
		}
	} else if (!strcmp(name, "k0") || !strcmp(name, "k1")) {
		out("%s v %ld", name, tc_catch(x, name[1] - '0'));
	} else if (!strcmp(name, "ok1")) {
		out("ok1 v %ld", tc_outer(x, 1, tc_catch));
	} else if (!strcmp(name, "ljn")) {
		out("ljn v %ld", lj_loop(x));
#if defined(__x86_64__) || defined(__aarch64__)
	} else if (!strcmp(name, "cc")) {
		out("cc v %ld", tc_f0(x));
#endif
#ifdef TC_LINK_REGISTER
	} else if (!strcmp(name, "fl")) {
		out("fl v %ld", tc_fl(x));
	} else if (!strcmp(name, "ofl")) {
		out("ofl v %ld", tc_outer(x, 0, tc_fl));
#endif
	} else if (!strcmp(name, "peek")) {
		tramp = tc_peek(x);
		out("peek tramp %lu inxol %d", (unsigned long)tramp,
		    in_xol(tramp));
	} else if (!strcmp(name, "pn")) {
		out("pn v %ld", tc_guard(x, tramp, 0, tc_pushjmp));
	} else if (!strcmp(name, "pl")) {
		out("pl v %ld", tc_guard(x, tramp, (long)tc_pushjmp, tc_outer));
	} else {
		out("%s unknown", name);
	}
}

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGILL, SIGSEGV, SIGBUS, SIGTRAP, SIGFPE };
	struct sigaction sa;
	stack_t ss;
	cpu_set_t cpus;
	char *steps, *step, *colon, *save;
	unsigned int i;
	int cpu;

	if (argc < 2) {
		fprintf(stderr, "usage: %s NAME:NUMBER[,NAME:NUMBER...]\n",
			argv[0]);
		return 2;
	}
	cpu = sched_getcpu();
	if (cpu >= 0) {
		CPU_ZERO(&cpus);
		CPU_SET(cpu, &cpus);
		sched_setaffinity(0, sizeof(cpus), &cpus);
	}
	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);

	steps = strdup(argv[1]);
	for (step = strtok_r(steps, ",", &save); step;
	     step = strtok_r(NULL, ",", &save)) {
		colon = strchr(step, ':');
		if (!colon) {
			out("%s unknown", step);
			continue;
		}
		*colon = '\0';
		run_step(step, strtol(colon + 1, NULL, 0));
	}
	out("done");
	return 0;
}
