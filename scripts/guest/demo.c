// SPDX-License-Identifier: GPL-2.0
/*
 * Target of "make demo": a function called a few times with known
 * arguments. The demo probes the entry of demo_add() with
 * "p demo:OFFSET %ip %ax" and shows the trace lines.
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline, noipa)) long demo_add(long a, long b)
{
	return a + b;
}

#if defined(__aarch64__) || defined(__riscv) || defined(__s390x__)
/*
 * Is @addr in the uprobes XOL area ("[uprobes]" in /proc/self/maps)?
 * After demo_add() returned through a return probe's trampoline, the
 * link register (x30, ra, r14) must hold the return address, not the
 * trampoline's.
 */
static int in_xol_area(unsigned long addr)
{
	unsigned long start, end;
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 &&
		    strstr(line, "[uprobes]") && addr >= start && addr < end)
			found = 1;
	fclose(f);
	return found;
}
#endif

int main(void)
{
	long sum = 0;
	int xol = 0;
	long i;

	for (i = 1; i <= 5; i++) {
		sum = demo_add(sum, i);
#if defined(__aarch64__) || defined(__riscv) || defined(__s390x__)
		{
			unsigned long lr;

#if defined(__aarch64__)
			asm volatile("mov %0, x30" : "=r"(lr));
#elif defined(__riscv)
			asm volatile("mv %0, ra" : "=r"(lr));
#else
			asm volatile("lgr %0, %%r14" : "=r"(lr));
#endif
			if (in_xol_area(lr)) {
				printf("demo: link register = %#lx, in the XOL area\n", lr);
				xol = 1;
			}
		}
#endif
	}
	printf("demo: sum of 1..5 = %ld\n", sum);
	return sum == 15 && !xol ? 0 : 1;
}
