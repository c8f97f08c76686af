/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 32-bit code in a 64-bit program, as Wine runs it: modes_call32() far
 * calls modes_code32 through the 32-bit user code segment, on a stack
 * below 4 GiB, and comes back with lret.
 *
 * At modes_probe32 the bytes 48 83 c0 05 are "dec %eax; add $5,%eax" in
 * 32-bit mode (x - 1 + 5) but "add $5,%rax" in 64-bit mode (x + 5): an
 * engine that executes its 64-bit analysis there computes x + 5.
 */
	.text
	.code64
	.globl	modes_call32
	.type	modes_call32, @function
/* unsigned int modes_call32(unsigned int x, void *stack_top_below_4g) */
modes_call32:
	push	%rbx
	mov	%rsp, %rbx
	mov	%rsi, %rsp
	mov	%edi, %eax
	lcall	*modes_farptr(%rip)
	mov	%rbx, %rsp
	pop	%rbx
	ret
	.size	modes_call32, . - modes_call32

	.code32
	.globl	modes_code32
	.globl	modes_probe32
	.type	modes_code32, @function
modes_code32:
	nop
modes_probe32:
	.byte	0x48, 0x83, 0xc0, 0x05
	lret
	.size	modes_code32, . - modes_code32
	.code64

	.data
	.p2align 3
modes_farptr:
	.long	modes_code32
	.word	0x23
	.section .note.GNU-stack, "", @progbits
