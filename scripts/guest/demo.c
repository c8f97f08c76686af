// SPDX-License-Identifier: GPL-2.0
/*
 * Target of "make demo": a function called a few times with known
 * arguments. The demo probes the entry of demo_add() with
 * "p demo:OFFSET %ip %ax" and shows the trace lines.
 */
#include <stdio.h>

__attribute__((noinline, noipa)) long demo_add(long a, long b)
{
	return a + b;
}

int main(void)
{
	long sum = 0;
	long i;

	for (i = 1; i <= 5; i++)
		sum = demo_add(sum, i);
	printf("demo: sum of 1..5 = %ld\n", sum);
	return sum == 15 ? 0 : 1;
}
