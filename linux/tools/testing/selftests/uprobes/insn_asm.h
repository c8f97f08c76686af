/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly of the instruction tables (insn32.S, insn64.S, insn_a64.S,
 * insn_riscv.S): FUNC NAME ... ENDF NAME is the table's function
 * insn_t_NAME (global, in .text, 16-byte aligned, typed and sized),
 * PROBE NAME the probed instruction's label insn_p_NAME in it, REFUSE
 * NAME the label insn_r_NAME of an instruction the engine must refuse.
 */
#ifndef INSN_ASM_H
#define INSN_ASM_H

	.macro FUNC name
	.text
	.p2align 4
	.globl insn_t_\name
	.type insn_t_\name, %function
insn_t_\name:
	.endm

	.macro ENDF name
	.size insn_t_\name, . - insn_t_\name
	.endm

	.macro PROBE name
	.globl insn_p_\name
insn_p_\name:
	.endm

	.macro REFUSE name
	.globl insn_r_\name
insn_r_\name:
	.endm

#endif
