/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the tail call tests (tailcall.c) on riscv64, with the
 * symbols and results of tailcall.S. The return address is in ra at a
 * function's entry, as x30 on arm64, and a call does not move the stack
 * pointer; the tail calls are real j instructions, so that a tail-called
 * function is entered with its caller's ra (the trampoline once a return
 * probe has diverted the caller's return) and its sp. Functions that
 * call save ra in a frame of 16 bytes. Arguments in a0..a3, results in
 * a0.
 *
 *   tc_b(x)          3x + 7 (uses a0 and t0 only)
 *   tc_a(x)          x += 100, j tc_b
 *   tc_outer(x,y,fn) fn(x, y) + 1000, called with jalr
 *   tc_r(n,acc)      n == 0: acc; else acc = 3acc + n, n -= 1, j tc_r
 *   tc_c(x)          x *= 2, j tc_d
 *   tc_d(x)          x += 5, j tc_e
 *   tc_e(x)          5x + 11
 *   tc_lc(x)         x *= 2, j tc_ld
 *   tc_ld(x)         calls tc_escape(x + 5), which never returns
 *   tc_peek(x)       its own return address as read by its first
 *                    instruction, from ra (the trampoline once a return
 *                    probe has diverted it)
 *   tc_pushjmp(x,t)  puts t in ra and j tc_b: tc_b(x) returns to t
 *   tc_guard(x,y,z,fn) fn(x, y, z), with the stack pointer (kept in s1)
 *                    and its frame restored afterwards whatever fn did
 *   tc_fl(x)         tc_b(x) + 1, called without a frame of its own: its
 *                    return address kept in t1 across the call (tc_b
 *                    leaves t1 alone), so that tc_b is entered with the
 *                    sp tc_fl was entered with
 */
#include "upng_asm.h"

FUNC tc_b
	slli	t0, a0, 1
	add	a0, a0, t0
	addi	a0, a0, 7
	ret
ENDF tc_b

FUNC tc_a
	addi	a0, a0, 100
	j	tc_b
ENDF tc_a

FUNC tc_outer
	addi	sp, sp, -16
	sd	ra, 8(sp)
	jalr	a2
	addi	a0, a0, 1000
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
ENDF tc_outer

FUNC tc_r
	beqz	a0, 1f
	slli	t0, a1, 1
	add	a1, a1, t0
	add	a1, a1, a0
	addi	a0, a0, -1
	j	tc_r
1:	mv	a0, a1
	ret
ENDF tc_r

FUNC tc_c
	add	a0, a0, a0
	j	tc_d
ENDF tc_c

FUNC tc_d
	addi	a0, a0, 5
	j	tc_e
ENDF tc_d

FUNC tc_e
	slli	t0, a0, 2
	add	a0, a0, t0
	addi	a0, a0, 11
	ret
ENDF tc_e

FUNC tc_lc
	add	a0, a0, a0
	j	tc_ld
ENDF tc_lc

FUNC tc_ld
	addi	sp, sp, -16
	sd	ra, 8(sp)
	addi	a0, a0, 5
	call	tc_escape
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
ENDF tc_ld

FUNC tc_peek
	mv	a0, ra
	ret
ENDF tc_peek

FUNC tc_pushjmp
	mv	ra, a1
	j	tc_b
ENDF tc_pushjmp

FUNC tc_guard
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s1, 0(sp)
	mv	s1, sp
	jalr	a3
	mv	sp, s1
	ld	s1, 0(sp)
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
ENDF tc_guard

FUNC tc_fl
	mv	t1, ra
	call	tc_b
	addi	a0, a0, 1
	mv	ra, t1
	ret
ENDF tc_fl

	.section .note.GNU-stack, "", @progbits
