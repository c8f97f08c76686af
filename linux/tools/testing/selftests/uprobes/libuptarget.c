// SPDX-License-Identifier: GPL-2.0
/* Shared library probed by the dlopen() tests (OUTPUT/lib/libuptarget.so). */

__attribute__((noipa)) long lib_func(long x)
{
	asm volatile("" : "+r" (x) : : "memory");
	return x * 5 + 1;
}
