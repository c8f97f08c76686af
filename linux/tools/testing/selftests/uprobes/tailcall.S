/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the tail call tests (tailcall.c), for x86-64 and i386
 * (built with -m32): the tail calls are real jmp instructions, so that a
 * tail-called function is entered with its caller's return address slot.
 * Arguments follow the C calling convention of the target (registers on
 * x86-64, the stack on i386); every function returns in %rax/%eax.
 *
 *   tc_b(x)          3x + 7
 *   tc_a(x)          x += 100, jmp tc_b
 *   tc_outer(x,y,fn) fn(x, y) + 1000, called with a real call
 *   tc_r(n,acc)      n == 0: acc; else acc = 3acc + n, n -= 1, jmp tc_r
 *   tc_c(x)          x *= 2, jmp tc_d
 *   tc_d(x)          x += 5, jmp tc_e
 *   tc_e(x)          5x + 11
 *   tc_lc(x)         x *= 2, jmp tc_ld
 *   tc_ld(x)         calls tc_escape(x + 5), which never returns
 *   tc_peek(x)       its own return address as read by its first
 *                    instruction (the trampoline once a return probe
 *                    has diverted it)
 *   tc_pushjmp(x,t)  pushes t and jmps to tc_b: tc_b(x) returns to t
 *   tc_guard(x,y,z,fn) fn(x, y, z), with the stack pointer restored
 *                    afterwards whatever fn did to it
 * x86-64 only, each with a frame (%rbp) but tc_f2, for the callchain case:
 *   tc_f0(x)         tc_f1(x) + 1; tc_f0_ret is its call's return address
 *   tc_f1(x)         tc_f2(x) + 1; tc_f1_ret likewise
 *   tc_f2(x)         jmp tc_f3
 *   tc_f3(x)         tc_f4(x) + 1; tc_f3_ret likewise
 *   tc_f4(x)         x + 1, its first instruction push %rbp
 */
#include "upng_asm.h"

#ifdef __x86_64__

FUNC tc_b
	lea	7(%rdi,%rdi,2), %rax
	ret
ENDF tc_b

FUNC tc_a
	add	$100, %rdi
	jmp	tc_b
ENDF tc_a

FUNC tc_outer
	push	%rbx			/* aligns the callee's stack */
	call	*%rdx
	add	$1000, %rax
	pop	%rbx
	ret
ENDF tc_outer

FUNC tc_r
	test	%rdi, %rdi
	jz	1f
	lea	(%rsi,%rsi,2), %rsi
	add	%rdi, %rsi
	dec	%rdi
	jmp	tc_r
1:	mov	%rsi, %rax
	ret
ENDF tc_r

FUNC tc_c
	add	%rdi, %rdi
	jmp	tc_d
ENDF tc_c

FUNC tc_d
	add	$5, %rdi
	jmp	tc_e
ENDF tc_d

FUNC tc_e
	lea	(%rdi,%rdi,4), %rax
	add	$11, %rax
	ret
ENDF tc_e

FUNC tc_lc
	add	%rdi, %rdi
	jmp	tc_ld
ENDF tc_lc

FUNC tc_ld
	push	%rbx
	add	$5, %rdi
	call	tc_escape
	pop	%rbx
	ret
ENDF tc_ld

FUNC tc_peek
	mov	(%rsp), %rax
	ret
ENDF tc_peek

FUNC tc_pushjmp
	push	%rsi
	jmp	tc_b
ENDF tc_pushjmp

FUNC tc_guard
	push	%rbp
	mov	%rsp, %rbp
	call	*%rcx
	mov	%rbp, %rsp
	pop	%rbp
	ret
ENDF tc_guard

	/* F: a function with a frame calling CALLEE, RET after its call */
	.macro FRAMECALL name, callee, ret
FUNC \name
	push	%rbp
	mov	%rsp, %rbp
	call	\callee
	.globl	\ret
\ret:
	inc	%rax
	pop	%rbp
	ret
ENDF \name
	.endm

	FRAMECALL tc_f0, tc_f1, tc_f0_ret
	FRAMECALL tc_f1, tc_f2, tc_f1_ret

FUNC tc_f2
	jmp	tc_f3
ENDF tc_f2

	FRAMECALL tc_f3, tc_f4, tc_f3_ret

FUNC tc_f4
	push	%rbp
	mov	%rsp, %rbp
	lea	1(%rdi), %rax
	pop	%rbp
	ret
ENDF tc_f4

#else /* i386: arguments at 4(%esp), 8(%esp), ... on entry */

FUNC tc_b
	mov	4(%esp), %eax
	lea	7(%eax,%eax,2), %eax
	ret
ENDF tc_b

FUNC tc_a
	addl	$100, 4(%esp)
	jmp	tc_b
ENDF tc_a

FUNC tc_outer
	push	%ebx
	mov	16(%esp), %ecx		/* fn */
	mov	12(%esp), %edx		/* y */
	mov	8(%esp), %eax		/* x */
	push	%edx
	push	%eax			/* 16-byte aligned call */
	call	*%ecx
	add	$8, %esp
	add	$1000, %eax
	pop	%ebx
	ret
ENDF tc_outer

FUNC tc_r
	mov	4(%esp), %ecx
	test	%ecx, %ecx
	jz	1f
	mov	8(%esp), %eax
	lea	(%eax,%eax,2), %eax
	add	%ecx, %eax
	mov	%eax, 8(%esp)
	dec	%ecx
	mov	%ecx, 4(%esp)
	jmp	tc_r
1:	mov	8(%esp), %eax
	ret
ENDF tc_r

FUNC tc_c
	mov	4(%esp), %eax
	add	%eax, %eax
	mov	%eax, 4(%esp)
	jmp	tc_d
ENDF tc_c

FUNC tc_d
	addl	$5, 4(%esp)
	jmp	tc_e
ENDF tc_d

FUNC tc_e
	mov	4(%esp), %eax
	lea	(%eax,%eax,4), %eax
	add	$11, %eax
	ret
ENDF tc_e

FUNC tc_lc
	mov	4(%esp), %eax
	add	%eax, %eax
	mov	%eax, 4(%esp)
	jmp	tc_ld
ENDF tc_lc

FUNC tc_ld
	mov	4(%esp), %eax
	add	$5, %eax
	sub	$8, %esp
	push	%eax			/* 16-byte aligned call */
	call	tc_escape
	add	$12, %esp
	ret
ENDF tc_ld

FUNC tc_peek
	mov	(%esp), %eax
	ret
ENDF tc_peek

FUNC tc_pushjmp
	mov	4(%esp), %eax		/* x */
	mov	8(%esp), %edx		/* t */
	push	%eax
	push	%edx
	jmp	tc_b
ENDF tc_pushjmp

FUNC tc_guard
	push	%ebp
	mov	%esp, %ebp
	sub	$12, %esp
	pushl	16(%ebp)		/* z */
	pushl	12(%ebp)		/* y */
	pushl	8(%ebp)			/* x; aligned call */
	call	*20(%ebp)
	mov	%ebp, %esp
	pop	%ebp
	ret
ENDF tc_guard

#endif

	.section .note.GNU-stack, "", @progbits
