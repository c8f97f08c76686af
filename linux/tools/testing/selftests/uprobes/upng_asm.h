/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly of the test programs: FUNC NAME ... ENDF NAME is a global
 * function in .text, aligned to 16 bytes, with its ELF type and size (the
 * tests find functions and probe offsets by symbol); LABEL NAME a global
 * label inside one.
 */
#ifndef UPNG_ASM_H
#define UPNG_ASM_H

	.macro FUNC name
	.text
	.p2align 4
	.globl \name
	.type \name, %function
\name:
	.endm

	.macro ENDF name
	.size \name, . - \name
	.endm

	.macro LABEL name
	.globl \name
\name:
	.endm

#endif
