/* SPDX-License-Identifier: GPL-2.0 */
/* Functions of tailcall.S (see there), and what tailcall_target.c adds. */
#ifndef TAILCALL_H
#define TAILCALL_H

long tc_b(long x);
long tc_a(long x);
long tc_outer(long x, long y, void *fn);
long tc_r(long n, long acc);
long tc_c(long x);
long tc_lc(long x);
long tc_peek(long x);
long tc_pushjmp(long x, long t);
long tc_guard(long x, long y, long z, void *fn);
/*
 * Where a call leaves the return address in a register and does not move
 * the stack pointer (arm64's x30, riscv's ra, s390's r14): tc_fl() and
 * the cases of frameless callers.
 */
#if defined(__aarch64__) || defined(__riscv)
#define TC_LINK_REGISTER
#elif defined(__s390x__)
#define TC_LINK_REGISTER
#endif

#ifdef TC_LINK_REGISTER
long tc_fl(long x);
#endif
#if defined(__x86_64__) || defined(__aarch64__)
long tc_f0(long x);
#endif

/* In tailcall_target.c: called by tc_ld, never returns. */
void tc_escape(long v);
long tc_catch(long x, long mode);

#endif /* TAILCALL_H */
