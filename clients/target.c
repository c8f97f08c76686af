// SPDX-License-Identifier: GPL-2.0
/*
 * The probed program of the client scenarios. "target N" calls
 * cl_work(i) for i < N, cl_w1/cl_w2/cl_w3 N, 2N and 3N times, cl_str()
 * with "hello" (on the stack) once, and fires the USDT probe cl:tick N times when its
 * semaphore says it is traced; then prints "work=SUM ticks=T". With
 * "wait" as a second argument it first waits for a line on stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short cl_tick_semaphore __attribute__((section(".probes")));
#define CL_TICK_ENABLED() __builtin_expect(cl_tick_semaphore, 0)

__attribute__((noinline)) long cl_work(long i)
{
	__asm__ volatile("");
	return i * 3 + 1;
}

__attribute__((noinline)) long cl_w1(long i) { __asm__ volatile(""); return i; }
__attribute__((noinline)) long cl_w2(long i) { __asm__ volatile(""); return i; }
__attribute__((noinline)) long cl_w3(long i) { __asm__ volatile(""); return i; }

__attribute__((noinline)) size_t cl_str(const char *s)
{
	__asm__ volatile("");
	return strlen(s);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, i, sum = 0, ticks = 0;
	char line[16];

	if (argc > 2 && !strcmp(argv[2], "wait")) {
		printf("ready\n");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 2;
	}
	for (i = 0; i < n; i++) {
		sum += cl_work(i);
		if (CL_TICK_ENABLED()) {
			DTRACE_PROBE1(cl, tick, i);
			ticks++;
		}
	}
	for (i = 0; i < 6 * n; i++)
		sum += i < n ? cl_w1(0) : i < 3 * n ? cl_w2(0) : cl_w3(0);
	/* On the stack: a BPF program cannot fault a page in. */
	strcpy(line, "hello");
	sum += cl_str(line) - 5;
	printf("work=%ld ticks=%ld\n", sum, ticks);
	return 0;
}
