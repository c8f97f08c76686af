/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the tail call tests (tailcall.c) on s390x, with the
 * symbols and results of tailcall.S. The return address is in r14 at a
 * function's entry, as x30 on arm64, and a call does not move the stack
 * pointer (r15); the tail calls are real jg instructions, so that a
 * tail-called function is entered with its caller's r14 (the trampoline
 * once a return probe has diverted the caller's return) and its r15.
 * Functions that call save r14 and r15 in their caller's register save
 * area and get a frame of 160 bytes. Arguments in r2..r5, results in r2.
 *
 *   tc_b(x)          3x + 7 (uses r2 only)
 *   tc_a(x)          x += 100, jg tc_b
 *   tc_outer(x,y,fn) fn(x, y) + 1000, called with basr
 *   tc_r(n,acc)      n == 0: acc; else acc = 3acc + n, n -= 1, jg tc_r
 *   tc_c(x)          x *= 2, jg tc_d
 *   tc_d(x)          x += 5, jg tc_e
 *   tc_e(x)          5x + 11
 *   tc_lc(x)         x *= 2, jg tc_ld
 *   tc_ld(x)         calls tc_escape(x + 5), which never returns
 *   tc_peek(x)       its own return address as read by its first
 *                    instruction, from r14 (the trampoline once a return
 *                    probe has diverted it)
 *   tc_pushjmp(x,t)  puts t in r14 and jg tc_b: tc_b(x) returns to t
 *   tc_guard(x,y,z,fn) fn(x, y, z), with the stack pointer (kept in r11)
 *                    and its frame restored afterwards whatever fn did
 *   tc_fl(x)         tc_b(x) + 1, called without a frame of its own: its
 *                    return address kept in r0 across the call (tc_b
 *                    leaves r0 alone), so that tc_b is entered with the
 *                    r15 tc_fl was entered with
 */
#include "upng_asm.h"

FUNC tc_b
	mghi	%r2, 3
	aghi	%r2, 7
	br	%r14
ENDF tc_b

FUNC tc_a
	aghi	%r2, 100
	jg	tc_b
ENDF tc_a

FUNC tc_outer
	stmg	%r14, %r15, 112(%r15)
	aghi	%r15, -160
	lgr	%r1, %r4
	basr	%r14, %r1
	aghi	%r2, 1000
	lmg	%r14, %r15, 272(%r15)
	br	%r14
ENDF tc_outer

FUNC tc_r
	ltgr	%r2, %r2
	jz	1f
	mghi	%r3, 3
	agr	%r3, %r2
	aghi	%r2, -1
	jg	tc_r
1:	lgr	%r2, %r3
	br	%r14
ENDF tc_r

FUNC tc_c
	agr	%r2, %r2
	jg	tc_d
ENDF tc_c

FUNC tc_d
	aghi	%r2, 5
	jg	tc_e
ENDF tc_d

FUNC tc_e
	mghi	%r2, 5
	aghi	%r2, 11
	br	%r14
ENDF tc_e

FUNC tc_lc
	agr	%r2, %r2
	jg	tc_ld
ENDF tc_lc

FUNC tc_ld
	stmg	%r14, %r15, 112(%r15)
	aghi	%r15, -160
	aghi	%r2, 5
	brasl	%r14, tc_escape
	lmg	%r14, %r15, 272(%r15)
	br	%r14
ENDF tc_ld

FUNC tc_peek
	lgr	%r2, %r14
	br	%r14
ENDF tc_peek

FUNC tc_pushjmp
	lgr	%r14, %r3
	jg	tc_b
ENDF tc_pushjmp

FUNC tc_guard
	stmg	%r11, %r15, 88(%r15)
	lgr	%r11, %r15
	aghi	%r15, -160
	lgr	%r1, %r5
	basr	%r14, %r1
	lgr	%r15, %r11
	lmg	%r11, %r15, 88(%r15)
	br	%r14
ENDF tc_guard

FUNC tc_fl
	lgr	%r0, %r14
	brasl	%r14, tc_b
	aghi	%r2, 1
	lgr	%r14, %r0
	br	%r14
ENDF tc_fl

	.section .note.GNU-stack, "", @progbits
