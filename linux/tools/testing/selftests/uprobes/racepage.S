/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The race page of racetarget (layout in racetarget.h): page aligned and
 * padded to a whole page, so that no other code shares it.
 */
#include "racetarget.h"
#include "upng_asm.h"

	.text
	.p2align 12
	.globl race_page
	.type race_page, @object
race_page:
	.globl race_pad
	.type race_pad, @object
race_pad:
	.fill RACE_PAD_LEN, 1, RACE_PAD_BYTE
	.size race_pad, . - race_pad

	.p2align 3
	.globl race_word
	.type race_word, @object
race_word:
	.quad 0
	.size race_word, . - race_word

#if defined(__aarch64__)
/* long race_a(long x): 5x + 1 */
FUNC race_a
	add	x0, x0, x0, lsl #2
	add	x0, x0, #1
	ret
ENDF race_a

/* long race_b(long x): 3x + 2 */
FUNC race_b
	add	x0, x0, x0, lsl #1
	add	x0, x0, #2
	ret
ENDF race_b

/* long race_c(long x): 9x + 3 */
FUNC race_c
	add	x0, x0, x0, lsl #3
	add	x0, x0, #3
	ret
ENDF race_c
#elif defined(__riscv)
/* long race_a(long x): 5x + 1 */
FUNC race_a
	slli	a1, a0, 2
	add	a0, a0, a1
	addi	a0, a0, 1
	ret
ENDF race_a

/* long race_b(long x): 3x + 2 */
FUNC race_b
	slli	a1, a0, 1
	add	a0, a0, a1
	addi	a0, a0, 2
	ret
ENDF race_b

/* long race_c(long x): 9x + 3 */
FUNC race_c
	slli	a1, a0, 3
	add	a0, a0, a1
	addi	a0, a0, 3
	ret
ENDF race_c
#elif defined(__s390x__)
/* long race_a(long x): 5x + 1 */
FUNC race_a
	mghi	%r2, 5
	aghi	%r2, 1
	br	%r14
ENDF race_a

/* long race_b(long x): 3x + 2 */
FUNC race_b
	mghi	%r2, 3
	aghi	%r2, 2
	br	%r14
ENDF race_b

/* long race_c(long x): 9x + 3 */
FUNC race_c
	mghi	%r2, 9
	aghi	%r2, 3
	br	%r14
ENDF race_c
#else
/* long race_a(long x): 5x + 1 */
FUNC race_a
	mov	%rdi, %rax
	lea	1(%rax,%rax,4), %rax
	ret
ENDF race_a

/* long race_b(long x): 3x + 2 */
FUNC race_b
	mov	%rdi, %rax
	lea	2(%rax,%rax,2), %rax
	ret
ENDF race_b

/* long race_c(long x): 9x + 3 */
FUNC race_c
	mov	%rdi, %rax
	lea	3(%rax,%rax,8), %rax
	ret
ENDF race_c
#endif

	/* The rest of the page: alignment padding only. */
	.p2align 12
	.size race_page, . - race_page

	.section .note.GNU-stack, "", @progbits
