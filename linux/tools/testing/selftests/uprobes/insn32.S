/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386 instruction table for the uprobes engine tests (32-bit processes).
 * Same conventions as insn64.S: insn_t_NAME returns in %eax a value that
 * is only right when the instruction at insn_p_NAME ran as it would
 * unprobed; insn_p_ labels run once per call (_xN: N times; _rN: rep string
 * instruction of N iterations, see insn64.S); insn_r_
 * labels mark instructions that must be refused.  Static, non-PIE: plain
 * absolute addresses.
 */
#include "insn_asm.h"

	.data
	.p2align 4
vx:	.long 0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c
v32:	.long 0x01020304
v32b:	.long 0
v16:	.word 0
vb:	.byte 0x5a
	.p2align 2
fnptr:	.long retaddr_helper
jmpptr:	.long jmp_mem_target
src:	.ascii "uprobes-ng string op test 0123456789abcdef"
	.byte 0
	.p2align 2
dst:	.space 64

	.text
retaddr_helper:
	mov	(%esp), %eax
	ret

/* ---- call ---- */
FUNC call_rel32
PROBE call_rel32
	call	retaddr_helper
1:	sub	$1b, %eax
	add	$0x1001, %eax
	ret
ENDF call_rel32

FUNC call_reg
	mov	$retaddr_helper, %ecx
PROBE call_reg
	call	*%ecx
1:	sub	$1b, %eax
	add	$0x1002, %eax
	ret
ENDF call_reg

FUNC call_mem
PROBE call_mem
	call	*fnptr
1:	sub	$1b, %eax
	add	$0x1003, %eax
	ret
ENDF call_mem

FUNC call_next_pop
PROBE call_next_pop
	call	1f
1:	pop	%eax
	sub	$1b, %eax
	add	$0x1004, %eax
	ret
ENDF call_next_pop

/* ---- jmp ---- */
FUNC jmp_rel8
PROBE jmp_rel8
	jmp	1f
	mov	$0xbad, %eax
	ret
1:	mov	$0x2001, %eax
	ret
ENDF jmp_rel8

FUNC jmp_rel32
PROBE jmp_rel32
	.byte	0xe9
	.long	1f - 2f
2:	mov	$0xbad, %eax
	ret
	.skip	160, 0xcc
1:	mov	$0x2002, %eax
	ret
ENDF jmp_rel32

FUNC jmp_reg
	mov	$1f, %ecx
PROBE jmp_reg
	jmp	*%ecx
	mov	$0xbad, %eax
	ret
1:	mov	$0x2003, %eax
	ret
ENDF jmp_reg

FUNC jmp_mem
PROBE jmp_mem
	jmp	*jmpptr
	mov	$0xbad, %eax
	ret
jmp_mem_target:
	mov	$0x2004, %eax
	ret
ENDF jmp_mem

/* ---- jcc, loop ---- */
FUNC jcc8_taken
	xor	%eax, %eax
PROBE jcc8_taken
	je	1f
	mov	$0xbad, %eax
	ret
1:	mov	$0x3001, %eax
	ret
ENDF jcc8_taken

FUNC jcc8_not_taken
	xor	%eax, %eax
PROBE jcc8_not_taken
	jne	1f
	mov	$0x3002, %eax
	ret
1:	mov	$0xbad, %eax
	ret
ENDF jcc8_not_taken

FUNC jcc32_taken
	mov	$5, %eax
	cmp	$3, %eax
PROBE jcc32_taken
	.byte	0x0f, 0x8f		/* jg rel32 */
	.long	1f - 2f
2:	mov	$0xbad, %eax
	ret
	.skip	160, 0xcc
1:	mov	$0x3003, %eax
	ret
ENDF jcc32_taken

FUNC jcc32_not_taken
	mov	$5, %eax
	cmp	$3, %eax
PROBE jcc32_not_taken
	.byte	0x0f, 0x8c		/* jl rel32 */
	.long	1f - 2f
2:	mov	$0x3004, %eax
	ret
	.skip	160, 0xcc
1:	mov	$0xbad, %eax
	ret
ENDF jcc32_not_taken

FUNC loop
	mov	$4, %ecx
	xor	%eax, %eax
1:	add	$2, %eax
PROBE loop_x4
	loop	1b
	add	$0x3006, %eax
	ret
ENDF loop

FUNC jecxz
	xor	%ecx, %ecx
PROBE jecxz
	jecxz	1f
	mov	$0xbad, %eax
	ret
1:	mov	$0x3007, %eax
	ret
ENDF jecxz

/* ---- ret ---- */
ret_helper:
	mov	$0x5001, %eax
PROBE ret
	ret

reti_helper:
	mov	$0x5002, %eax
PROBE ret_imm16
	ret	$4

FUNC ret
	mov	%esp, %edx
	call	ret_helper
	sub	%esp, %edx
	add	%edx, %eax
	ret
ENDF ret

FUNC ret_imm16
	mov	%esp, %edx
	push	$0
	call	reti_helper
	sub	%esp, %edx
	add	%edx, %eax
	ret
ENDF ret_imm16

/* ---- absolute memory operands (the 32-bit form of rip-relative) ---- */
FUNC load_moffs
PROBE load_moffs
	mov	v32, %eax
	ret
ENDF load_moffs

FUNC load_abs_ecx
PROBE load_abs_ecx
	mov	v32, %ecx
	lea	1(%ecx), %eax
	ret
ENDF load_abs_ecx

FUNC store_abs_imm32
	movl	$0, v32b
PROBE store_abs_imm32
	movl	$0x5a5a5a, v32b
	mov	v32b, %eax
	ret
ENDF store_abs_imm32

FUNC store_abs_imm16
	movw	$0, v16
PROBE store_abs_imm16
	movw	$0x1234, v16
	movzwl	v16, %eax
	ret
ENDF store_abs_imm16

FUNC add_imm8_mem
	movl	$100, v32b
PROBE add_imm8_mem
	addl	$5, v32b
	mov	v32b, %eax
	ret
ENDF add_imm8_mem

FUNC cmp_imm8_mem
	xor	%eax, %eax
PROBE cmp_imm8_mem
	cmpb	$0x5a, vb
	sete	%al
	add	$0x6002, %eax
	ret
ENDF cmp_imm8_mem

FUNC stack_load
	push	$0x9005
PROBE stack_load
	mov	(%esp), %eax
	pop	%edx
	ret
ENDF stack_load

/* ---- push / pop ---- */
FUNC push_reg
	mov	$0x7001, %ecx
PROBE push_reg
	push	%ecx
	pop	%eax
	ret
ENDF push_reg

FUNC pop_reg
	push	$0x7003
PROBE pop_reg
	pop	%eax
	ret
ENDF pop_reg

FUNC push_imm8
PROBE push_imm8
	push	$0x15
	pop	%eax
	ret
ENDF push_imm8

FUNC push_imm32
PROBE push_imm32
	push	$0x12345678
	pop	%eax
	ret
ENDF push_imm32

FUNC push_mem
PROBE push_mem
	pushl	v32
	pop	%eax
	ret
ENDF push_mem

FUNC pop_mem
	movl	$0, v32b
	push	$0x7777
PROBE pop_mem
	popl	v32b
	mov	v32b, %eax
	ret
ENDF pop_mem

FUNC push_esp
	mov	%esp, %edx
PROBE push_esp
	push	%esp
	pop	%eax
	sub	%edx, %eax
	add	$0x7005, %eax
	ret
ENDF push_esp

FUNC leave
	mov	%esp, %edx
	push	%ebp
	mov	%esp, %ebp
	sub	$32, %esp
	movl	$0x7006, -4(%ebp)
	mov	-4(%ebp), %eax
PROBE leave
	leave
	sub	%esp, %edx
	add	%edx, %eax
	ret
ENDF leave

/* ---- string instructions ---- */
FUNC rep_movsb
	push	%esi
	push	%edi
	mov	$dst, %edi
	xor	%eax, %eax
	mov	$16, %ecx
	rep stosl
	mov	$src, %esi
	mov	$dst, %edi
	mov	$40, %ecx
PROBE rep_movsb_r40
	rep movsb
	sub	$dst, %edi
	shl	$16, %edi
	shl	$8, %ecx
	movzbl	dst+39, %eax
	add	%edi, %eax
	add	%ecx, %eax
	pop	%edi
	pop	%esi
	ret
ENDF rep_movsb

FUNC rep_stosl
	push	%edi
	mov	$dst, %edi
	mov	$0x01010101, %eax
	mov	$4, %ecx
PROBE rep_stosl_r4
	rep stosl
	sub	$dst, %edi
	mov	dst+12, %eax
	add	%edi, %eax
	pop	%edi
	ret
ENDF rep_stosl

FUNC repne_scasb
	push	%edi
	mov	$src, %edi
	xor	%eax, %eax
	mov	$-1, %ecx
PROBE repne_scasb_r43
	repne scasb
	not	%ecx
	lea	-1(%ecx), %eax
	pop	%edi
	ret
ENDF repne_scasb

/* ---- SSE with absolute memory operands ---- */
FUNC movdqu_load
PROBE movdqu_load
	movdqu	vx, %xmm0
	movd	%xmm0, %eax
	psrldq	$12, %xmm0
	movd	%xmm0, %edx
	rol	$7, %edx
	xor	%edx, %eax
	ret
ENDF movdqu_load

FUNC pshufd_imm_mem
PROBE pshufd_imm_mem
	pshufd	$0x1b, vx, %xmm0
	movd	%xmm0, %eax
	ret
ENDF pshufd_imm_mem

/* ---- flags ---- */
FUNC pushf
	xor	%eax, %eax
PROBE pushf
	pushf
	pop	%eax
	and	$0xdd5, %eax
	ret
ENDF pushf

FUNC popf
	push	$0x203
PROBE popf
	popf
	pushf
	pop	%eax
	and	$0xdd5, %eax
	ret
ENDF popf

/* ---- miscellaneous ---- */
FUNC nop5
PROBE nop5
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	mov	$0x9002, %eax
	ret
ENDF nop5

FUNC gs_load
	mov	%gs:0, %edx
PROBE gs_load
	mov	%gs:0, %eax
	sub	%edx, %eax
	add	$0x9004, %eax
	ret
ENDF gs_load

FUNC xchg_reg
	mov	$1, %eax
	mov	$0x9006, %edx
PROBE xchg_reg
	xchg	%eax, %edx
	shl	$4, %edx
	add	%edx, %eax
	ret
ENDF xchg_reg

FUNC div
	mov	$100, %eax
	xor	%edx, %edx
	mov	$7, %ecx
PROBE div
	div	%ecx
	shl	$8, %edx
	or	%edx, %eax
	ret
ENDF div

/* ---- instructions that must be refused; never executed ---- */
	.text
	.globl refused_insns
	.type refused_insns, @function
refused_insns:
REFUSE int3
	int3
REFUSE int80
	int	$0x80
REFUSE iret
	iret
REFUSE in
	in	$0x80, %al
REFUSE out
	out	%al, $0x80
REFUSE hlt
	hlt
REFUSE cli
	cli
REFUSE sysenter
	sysenter
REFUSE ud2
	ud2
REFUSE lock_inc
	lock incl v32b
REFUSE seg_ds
	.byte	0x3e, 0x8b, 0x00		/* mov %ds:(%eax), %eax */
REFUSE seg_es
	.byte	0x26, 0x8b, 0x00		/* mov %es:(%eax), %eax */
REFUSE pop_ds
	pop	%ds
REFUSE mov_ss
	mov	%eax, %ss
	ret
	.size refused_insns, . - refused_insns

	.section .note.GNU-stack, "", @progbits
