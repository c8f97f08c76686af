/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the pointer authentication tests (pauth.c): each signs
 * its return address (paciasp, pacibsp: sp is the modifier), saves it in
 * its frame record, restores and authenticates it (autiasp, autibsp) and
 * returns 3x + 7.  pa_*_saved labels the frame record's stp, right after
 * the signing: a return probe there finds x30 signed.  pa_plain does the
 * same without signing, its stp after a mov.  pa_call(x, depth, fn) calls fn(x) with sp
 * 16 * depth bytes lower, so that each call signs with another modifier.
 */
#include "upng_asm.h"

	.arch	armv8.3-a

FUNC pa_sign_a
	paciasp
	.globl pa_sign_a_saved
pa_sign_a_saved:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	add	x1, x0, x0, lsl #1
	add	x0, x1, #7
	ldp	x29, x30, [sp], #16
	autiasp
	ret
ENDF pa_sign_a

FUNC pa_sign_b
	pacibsp
	.globl pa_sign_b_saved
pa_sign_b_saved:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	add	x1, x0, x0, lsl #1
	add	x0, x1, #7
	ldp	x29, x30, [sp], #16
	autibsp
	ret
ENDF pa_sign_b

FUNC pa_plain
	mov	x1, x0
	.globl pa_plain_saved
pa_plain_saved:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	add	x1, x1, x1, lsl #1
	add	x0, x1, #7
	ldp	x29, x30, [sp], #16
	ret
ENDF pa_plain

FUNC pa_call
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	sub	sp, sp, x1, lsl #4
	blr	x2
	mov	sp, x29
	ldp	x29, x30, [sp], #16
	ret
ENDF pa_call

	.section .note.GNU-stack, "", %progbits
