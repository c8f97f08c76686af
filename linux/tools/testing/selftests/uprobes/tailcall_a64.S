/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the tail call tests (tailcall.c) on arm64, with the
 * symbols and results of tailcall.S.  The return address is in x30 at a
 * function's entry; the tail calls are real b instructions, so that a
 * tail-called function is entered with its caller's x30 (the trampoline
 * once a return probe has diverted the caller's return) and its sp.
 * Functions that call save x29 and x30 in a frame record.  Arguments in
 * x0..x3, results in x0.
 *
 *   tc_b(x)          3x + 7
 *   tc_a(x)          x += 100, b tc_b
 *   tc_outer(x,y,fn) fn(x, y) + 1000, called with blr
 *   tc_r(n,acc)      n == 0: acc; else acc = 3acc + n, n -= 1, b tc_r
 *   tc_c(x)          x *= 2, b tc_d
 *   tc_d(x)          x += 5, b tc_e
 *   tc_e(x)          5x + 11
 *   tc_lc(x)         x *= 2, b tc_ld
 *   tc_ld(x)         calls tc_escape(x + 5), which never returns
 *   tc_peek(x)       its own return address as read by its first
 *                    instruction, from x30 (the trampoline once a return
 *                    probe has diverted it)
 *   tc_pushjmp(x,t)  puts t in x30 and b tc_b: tc_b(x) returns to t
 *   tc_guard(x,y,z,fn) fn(x, y, z), with the stack pointer (kept in x19)
 *                    and its frame restored afterwards whatever fn did
 *   tc_fl(x)         tc_b(x) + 1, called without a frame of its own: its
 *                    return address kept in x9 across the call (tc_b
 *                    leaves x9 alone), so that tc_b is entered with the sp
 *                    tc_fl was entered with
 *   tc_f0(x)         tc_f1(x) + 1, with a frame record; tc_f0_ret is its
 *                    call's return address
 *   tc_f1(x)         tc_f2(x) + 1, likewise (tc_f1_ret)
 *   tc_f2(x)         b tc_f3
 *   tc_f3(x)         tc_f4(x) + 1, likewise (tc_f3_ret)
 *   tc_f4(x)         x + 1
 */
#include "upng_asm.h"

FUNC tc_b
	add	x1, x0, x0, lsl #1
	add	x0, x1, #7
	ret
ENDF tc_b

FUNC tc_a
	add	x0, x0, #100
	b	tc_b
ENDF tc_a

FUNC tc_outer
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	blr	x2
	add	x0, x0, #1000
	ldp	x29, x30, [sp], #16
	ret
ENDF tc_outer

FUNC tc_r
	cbz	x0, 1f
	add	x1, x1, x1, lsl #1
	add	x1, x1, x0
	sub	x0, x0, #1
	b	tc_r
1:	mov	x0, x1
	ret
ENDF tc_r

FUNC tc_c
	add	x0, x0, x0
	b	tc_d
ENDF tc_c

FUNC tc_d
	add	x0, x0, #5
	b	tc_e
ENDF tc_d

FUNC tc_e
	add	x1, x0, x0, lsl #2
	add	x0, x1, #11
	ret
ENDF tc_e

FUNC tc_lc
	add	x0, x0, x0
	b	tc_ld
ENDF tc_lc

FUNC tc_ld
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	add	x0, x0, #5
	bl	tc_escape
	ldp	x29, x30, [sp], #16
	ret
ENDF tc_ld

FUNC tc_peek
	mov	x0, x30
	ret
ENDF tc_peek

FUNC tc_pushjmp
	mov	x30, x1
	b	tc_b
ENDF tc_pushjmp

FUNC tc_guard
	stp	x29, x30, [sp, #-32]!
	mov	x29, sp
	str	x19, [sp, #16]
	mov	x19, sp
	blr	x3
	mov	sp, x19
	ldr	x19, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
ENDF tc_guard

FUNC tc_fl
	mov	x9, x30
	bl	tc_b
	add	x0, x0, #1
	mov	x30, x9
	ret
ENDF tc_fl

	/* A function with a frame record calling CALLEE, RET after its call */
	.macro FRAMECALL name, callee, ret
FUNC \name
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	\callee
	.globl	\ret
\ret:
	add	x0, x0, #1
	ldp	x29, x30, [sp], #16
	ret
ENDF \name
	.endm

	FRAMECALL tc_f0, tc_f1, tc_f0_ret
	FRAMECALL tc_f1, tc_f2, tc_f1_ret

FUNC tc_f2
	b	tc_f3
ENDF tc_f2

	FRAMECALL tc_f3, tc_f4, tc_f3_ret

FUNC tc_f4
	add	x0, x0, #1
	ret
ENDF tc_f4

	.section .note.GNU-stack, "", @progbits
