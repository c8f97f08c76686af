/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 instruction table for the uprobes engine tests.
 *
 * insn_t_NAME: a function returning in %rax a value that is only right when the
 * instruction at the label insn_p_NAME ran exactly as it would unprobed (branch
 * targets, return addresses, rip-relative operands, stack, flags, memory).
 * Every insn_p_ label runs once per call of its function; a label ending _xN
 * runs N times; one ending _rN is a rep-prefixed string instruction doing
 * N iterations (the 6.12 engine reports a hit per iteration, one hit per
 * execution is right too).  insn_r_NAME labels (in a function never
 * called) mark instructions the engine must refuse to probe.
 */
#include "insn_asm.h"

	.data
	.p2align 4
vx:	.quad 0x0706050403020100, 0x0f0e0d0c0b0a0908
vxo:	.quad 0, 0
v64:	.quad 0x1122334455667788
v64b:	.quad 0
v32:	.long 0x01020304
v32b:	.long 0
v16:	.word 0
vsp:	.quad 0
vb:	.byte 0x5a
vbo:	.byte 0
	.p2align 3
fnptr:	.quad retaddr_helper
jmpptr:	.quad jmp_riprel_target
src:	.ascii "uprobes-ng string op test 0123456789abcdef"
	.byte 0
	.p2align 3
dst:	.space 64

	.text
/* Returns its own return address. */
retaddr_helper:
	mov	(%rsp), %rax
	ret

/* ---- call ---- */
FUNC call_rel32
PROBE call_rel32
	call	retaddr_helper
1:	lea	1b(%rip), %rdx
	sub	%rdx, %rax
	add	$0x1001, %rax
	ret
ENDF call_rel32

FUNC call_reg
	lea	retaddr_helper(%rip), %rcx
PROBE call_reg
	call	*%rcx
1:	lea	1b(%rip), %rdx
	sub	%rdx, %rax
	add	$0x1002, %rax
	ret
ENDF call_reg

FUNC call_riprel
PROBE call_riprel
	call	*fnptr(%rip)
1:	lea	1b(%rip), %rdx
	sub	%rdx, %rax
	add	$0x1003, %rax
	ret
ENDF call_riprel

FUNC call_next_pop
PROBE call_next_pop
	call	1f
1:	pop	%rax
	lea	1b(%rip), %rdx
	sub	%rdx, %rax
	add	$0x1004, %rax
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
	.p2align 4
	.skip	160, 0xcc
1:	mov	$0x2002, %eax
	ret
ENDF jmp_rel32

FUNC jmp_reg
	lea	1f(%rip), %rcx
PROBE jmp_reg
	jmp	*%rcx
	mov	$0xbad, %eax
	ret
1:	mov	$0x2003, %eax
	ret
ENDF jmp_reg

FUNC jmp_riprel
PROBE jmp_riprel
	jmp	*jmpptr(%rip)
	mov	$0xbad, %eax
	ret
jmp_riprel_target:
	mov	$0x2004, %eax
	ret
ENDF jmp_riprel

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

FUNC jcc_backward
	mov	$3, %ecx
	xor	%eax, %eax
1:	add	$0x10, %eax
	dec	%ecx
PROBE jcc_backward_x3
	jnz	1b
	add	$0x3005, %eax
	ret
ENDF jcc_backward

FUNC loop
	mov	$4, %ecx
	xor	%eax, %eax
1:	add	$2, %eax
PROBE loop_x4
	loop	1b
	add	$0x3006, %eax
	ret
ENDF loop

FUNC jrcxz
	xor	%ecx, %ecx
PROBE jrcxz
	jrcxz	1f
	mov	$0xbad, %eax
	ret
1:	mov	$0x3007, %eax
	ret
ENDF jrcxz

/* ---- ret ---- */
ret_helper:
	mov	$0x5001, %eax
PROBE ret
	ret

reti_helper:
	mov	$0x5002, %eax
PROBE ret_imm16
	ret	$8

FUNC ret
	mov	%rsp, %r8
	call	ret_helper
	sub	%rsp, %r8
	add	%r8, %rax
	ret
ENDF ret

FUNC ret_imm16
	mov	%rsp, %r8
	push	$0
	call	reti_helper
	sub	%rsp, %r8
	add	%r8, %rax
	ret
ENDF ret_imm16

/* ---- rip-relative loads ---- */
FUNC load_rax
PROBE load_rax
	mov	v64(%rip), %rax
	ret
ENDF load_rax

FUNC load_rcx
PROBE load_rcx
	mov	v64(%rip), %rcx
	lea	1(%rcx), %rax
	ret
ENDF load_rcx

FUNC load_rsi
PROBE load_rsi
	mov	v64(%rip), %rsi
	lea	2(%rsi), %rax
	ret
ENDF load_rsi

FUNC load_rdi
PROBE load_rdi
	mov	v64(%rip), %rdi
	lea	3(%rdi), %rax
	ret
ENDF load_rdi

FUNC load_rbx
	push	%rbx
	mov	$7, %ebx
PROBE load_rbx
	mov	v64(%rip), %rbx
	lea	4(%rbx), %rax
	pop	%rbx
	ret
ENDF load_rbx

FUNC load_r9
PROBE load_r9
	mov	v64(%rip), %r9
	lea	5(%r9), %rax
	ret
ENDF load_r9

FUNC load_movzb
	mov	$-1, %rax
PROBE load_movzb
	movzbl	vb(%rip), %eax
	ret
ENDF load_movzb

FUNC load32_zext
	mov	$-1, %rcx
PROBE load32_zext
	mov	v64(%rip), %ecx
	mov	%rcx, %rax
	ret
ENDF load32_zext

FUNC load_hireg
	push	%r12
	mov	$9, %r12d
PROBE load_hireg
	mov	v64(%rip), %r12
	lea	6(%r12), %rax
	pop	%r12
	ret
ENDF load_hireg

FUNC load_rsp
	mov	%rsp, %rdx
	mov	%rsp, vsp(%rip)
PROBE load_rsp
	mov	vsp(%rip), %rsp
	mov	%rsp, %rax
	sub	%rdx, %rax
	add	$0x33, %rax
	ret
ENDF load_rsp

FUNC add_rip
	mov	$0x100, %eax
	mov	$0x200, %esi
	mov	$0x300, %edi
PROBE add_rip
	add	v64(%rip), %rax
	add	%rsi, %rax
	add	%rdi, %rax
	ret
ENDF add_rip

FUNC add_rip_to_rsi
	mov	$0x100, %eax
	mov	$0x200, %esi
PROBE add_rip_to_rsi
	add	v64(%rip), %rsi
	add	%rsi, %rax
	ret
ENDF add_rip_to_rsi

FUNC lea_rip
PROBE lea_rip
	lea	v64(%rip), %rax
	lea	v64(%rip), %rdx
	sub	%rdx, %rax
	add	$0x6001, %rax
	ret
ENDF lea_rip

FUNC lea_rip_hireg
	push	%r13
PROBE lea_rip_hireg
	lea	v64(%rip), %r13
	lea	v64(%rip), %rdx
	sub	%rdx, %r13
	lea	0x77(%r13), %rax
	pop	%r13
	ret
ENDF lea_rip_hireg

FUNC cmp_imm8_rip
	xor	%eax, %eax
PROBE cmp_imm8_rip
	cmpb	$0x5a, vb(%rip)
	sete	%al
	add	$0x6002, %eax
	ret
ENDF cmp_imm8_rip

FUNC cmp_imm32_rip
	xor	%eax, %eax
PROBE cmp_imm32_rip
	cmpl	$0x01020304, v32(%rip)
	sete	%al
	add	$0x6003, %eax
	ret
ENDF cmp_imm32_rip

FUNC cmp_flags_rip
PROBE cmp_flags_rip
	cmpq	$-3, v64(%rip)
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_flags_rip

/* cmp and test of a rip-relative operand: the flags they leave */
FUNC cmp_reg_rip
	mov	$0x1122334455667789, %rcx
PROBE cmp_reg_rip
	cmp	%rcx, v64(%rip)
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_reg_rip

FUNC cmp_rip_reg
	mov	$0x1122334455667789, %rcx
PROBE cmp_rip_reg
	cmp	v64(%rip), %rcx
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_rip_reg

FUNC cmp_r9d_rip
	mov	$0x55667788, %r9d
PROBE cmp_r9d_rip
	cmp	%r9d, v64(%rip)
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_r9d_rip

FUNC cmp_rip_r9d
	mov	$0x80000000, %r9d
PROBE cmp_rip_r9d
	cmp	v32(%rip), %r9d
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_rip_r9d

FUNC cmp_neg_imm8_rip
PROBE cmp_neg_imm8_rip
	cmpl	$-1, v32(%rip)
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_neg_imm8_rip

FUNC cmp_imm32_rip64
PROBE cmp_imm32_rip64
	cmpq	$0x7fffffff, v64(%rip)
	pushf
	pop	%rax
	and	$0x8d5, %eax
	ret
ENDF cmp_imm32_rip64

FUNC test_imm8_rip
PROBE test_imm8_rip
	testb	$0x42, vb(%rip)
	pushf
	pop	%rax
	and	$0x8c5, %eax
	ret
ENDF test_imm8_rip

FUNC test_imm32_rip
PROBE test_imm32_rip
	testq	$-0x100, v64(%rip)
	pushf
	pop	%rax
	and	$0x8c5, %eax
	ret
ENDF test_imm32_rip

FUNC test_reg_rip
	mov	$0x8000000000000088, %rdx
PROBE test_reg_rip
	test	%rdx, v64(%rip)
	pushf
	pop	%rax
	and	$0x8c5, %eax
	ret
ENDF test_reg_rip

FUNC imul_imm8_rip
PROBE imul_imm8_rip
	imul	$3, v32(%rip), %eax
	ret
ENDF imul_imm8_rip

FUNC imul_imm32_rip
PROBE imul_imm32_rip
	imul	$0x10001, v32(%rip), %eax
	ret
ENDF imul_imm32_rip

FUNC cmpxchg_rsi_rip
	mov	v64(%rip), %rax
	mov	%rax, v64b(%rip)
	mov	$0xabc, %esi
PROBE cmpxchg_rsi_rip
	cmpxchg	%rsi, v64b(%rip)
	sete	%cl
	movzbl	%cl, %ecx
	mov	v64b(%rip), %rax
	shl	$8, %rax
	or	%rcx, %rax
	ret
ENDF cmpxchg_rsi_rip

/* ---- rip-relative stores ---- */
FUNC store_rax
	movq	$0, v64b(%rip)
	mov	$0x1234, %eax
PROBE store_rax
	mov	%rax, v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF store_rax

FUNC store_rdi
	movq	$0, v64b(%rip)
	mov	$0x4321, %edi
PROBE store_rdi
	mov	%rdi, v64b(%rip)
	mov	v64b(%rip), %rax
	add	%rdi, %rax
	ret
ENDF store_rdi

FUNC store_rsi
	movq	$0, v64b(%rip)
	mov	$0x5432, %esi
PROBE store_rsi
	mov	%rsi, v64b(%rip)
	mov	v64b(%rip), %rax
	add	%rsi, %rax
	ret
ENDF store_rsi

FUNC store_r12
	push	%r12
	movq	$0, v64b(%rip)
	mov	$0x6543, %r12d
PROBE store_r12
	mov	%r12, v64b(%rip)
	mov	v64b(%rip), %rax
	pop	%r12
	ret
ENDF store_r12

FUNC store_ecx
	movq	$-1, v64b(%rip)
	mov	$0x7654321, %ecx
PROBE store_ecx
	mov	%ecx, v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF store_ecx

FUNC store_rsp
	movq	$0, v64b(%rip)
PROBE store_rsp
	mov	%rsp, v64b(%rip)
	mov	v64b(%rip), %rax
	sub	%rsp, %rax
	add	$0x99, %rax
	ret
ENDF store_rsp

FUNC store_imm32
	movq	$0, v64b(%rip)
PROBE store_imm32
	movq	$0x5a5a5a, v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF store_imm32

FUNC store_imm16
	movw	$0, v16(%rip)
PROBE store_imm16
	movw	$0x1234, v16(%rip)
	movzwl	v16(%rip), %eax
	ret
ENDF store_imm16

FUNC store_imm8
	movb	$0, vbo(%rip)
PROBE store_imm8
	movb	$0x7e, vbo(%rip)
	movzbl	vbo(%rip), %eax
	ret
ENDF store_imm8

FUNC add_imm8_mem
	movq	$100, v64b(%rip)
PROBE add_imm8_mem
	addq	$5, v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF add_imm8_mem

FUNC add_imm32_mem
	movl	$7, v32b(%rip)
PROBE add_imm32_mem
	addl	$0x10000, v32b(%rip)
	mov	v32b(%rip), %eax
	ret
ENDF add_imm32_mem

FUNC inc_mem
	movq	$41, v64b(%rip)
PROBE inc_mem
	incq	v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF inc_mem

/* ---- push / pop ---- */
FUNC push_reg
	mov	$0x7001, %ecx
PROBE push_reg
	push	%rcx
	pop	%rax
	ret
ENDF push_reg

FUNC push_r12
PROBE push_r12
	push	%r12
	pop	%rax
	sub	%r12, %rax
	add	$0x7002, %rax
	ret
ENDF push_r12

FUNC pop_reg
	push	$0x7003
PROBE pop_reg
	pop	%rax
	ret
ENDF pop_reg

FUNC pop_r11
	push	$0x7004
PROBE pop_r11
	pop	%r11
	mov	%r11, %rax
	ret
ENDF pop_r11

FUNC push_imm8
PROBE push_imm8
	push	$0x15
	pop	%rax
	ret
ENDF push_imm8

FUNC push_imm32
PROBE push_imm32
	push	$0x12345678
	pop	%rax
	ret
ENDF push_imm32

FUNC push_riprel
PROBE push_riprel
	pushq	v64(%rip)
	pop	%rax
	ret
ENDF push_riprel

FUNC pop_riprel
	movq	$0, v64b(%rip)
	push	$0x7777
PROBE pop_riprel
	popq	v64b(%rip)
	mov	v64b(%rip), %rax
	ret
ENDF pop_riprel

FUNC push_rsp
	mov	%rsp, %rdx
PROBE push_rsp
	push	%rsp
	pop	%rax
	sub	%rdx, %rax
	add	$0x7005, %rax
	ret
ENDF push_rsp

FUNC leave
	mov	%rsp, %rdx
	push	%rbp
	mov	%rsp, %rbp
	sub	$32, %rsp
	movq	$0x7006, -8(%rbp)
	mov	-8(%rbp), %rax
PROBE leave
	leave
	sub	%rsp, %rdx
	add	%rdx, %rax
	ret
ENDF leave

/* ---- string instructions ---- */
FUNC rep_movsb
	lea	dst(%rip), %rdi
	xor	%eax, %eax
	mov	$8, %ecx
	rep stosq
	lea	src(%rip), %rsi
	lea	dst(%rip), %rdi
	mov	$40, %ecx
PROBE rep_movsb_r40
	rep movsb
	lea	dst(%rip), %rdx
	sub	%rdx, %rdi
	shl	$16, %rdi
	shl	$8, %rcx
	movzbl	dst+39(%rip), %eax
	add	%rdi, %rax
	add	%rcx, %rax
	ret
ENDF rep_movsb

FUNC rep_stosq
	lea	dst(%rip), %rdi
	mov	$0x0101010101010101, %rax
	mov	$4, %ecx
PROBE rep_stosq_r4
	rep stosq
	lea	dst(%rip), %rdx
	sub	%rdx, %rdi
	mov	dst+24(%rip), %rax
	add	%rdi, %rax
	ret
ENDF rep_stosq

FUNC movsq
	movq	$0, dst(%rip)
	lea	src(%rip), %rsi
	lea	dst(%rip), %rdi
PROBE movsq
	movsq
	lea	src(%rip), %rdx
	sub	%rdx, %rsi
	mov	dst(%rip), %rax
	add	%rsi, %rax
	ret
ENDF movsq

FUNC movsb_backward
	movb	$0, dst+9(%rip)
	lea	src+9(%rip), %rsi
	lea	dst+9(%rip), %rdi
	std
PROBE movsb_backward
	movsb
	cld
	lea	src(%rip), %rdx
	sub	%rdx, %rsi
	shl	$8, %rsi
	movzbl	dst+9(%rip), %eax
	add	%rsi, %rax
	ret
ENDF movsb_backward

FUNC repne_scasb
	lea	src(%rip), %rdi
	xor	%eax, %eax
	mov	$-1, %rcx
PROBE repne_scasb_r43
	repne scasb
	not	%rcx
	lea	-1(%rcx), %rax
	ret
ENDF repne_scasb

FUNC repe_cmpsb
	lea	src(%rip), %rsi
	lea	src(%rip), %rdi
	mov	$20, %ecx
PROBE repe_cmpsb_r20
	repe cmpsb
	sete	%al
	movzbl	%al, %eax
	shl	$8, %rcx
	add	%rcx, %rax
	ret
ENDF repe_cmpsb

/* ---- SSE with rip-relative operands ---- */
FUNC movdqu_load
PROBE movdqu_load
	movdqu	vx(%rip), %xmm0
	movq	%xmm0, %rax
	psrldq	$8, %xmm0
	movq	%xmm0, %rdx
	rol	$7, %rdx
	xor	%rdx, %rax
	ret
ENDF movdqu_load

FUNC movaps_store
	movq	$0, vxo+8(%rip)
	movdqu	vx(%rip), %xmm1
PROBE movaps_store
	movaps	%xmm1, vxo(%rip)
	mov	vxo+8(%rip), %rax
	ret
ENDF movaps_store

FUNC paddq_rip
	movdqu	vx(%rip), %xmm0
PROBE paddq_rip
	paddq	vx(%rip), %xmm0
	movq	%xmm0, %rax
	ret
ENDF paddq_rip

FUNC pshufd_imm_rip
PROBE pshufd_imm_rip
	pshufd	$0x1b, vx(%rip), %xmm0
	movq	%xmm0, %rax
	ret
ENDF pshufd_imm_rip

FUNC cvtsi2sd_rip
PROBE cvtsi2sd_rip
	cvtsi2sdl v32(%rip), %xmm0
	cvttsd2si %xmm0, %rax
	ret
ENDF cvtsi2sd_rip

FUNC movsd_xmm9_rip
PROBE movsd_xmm9_rip
	movsd	vx+8(%rip), %xmm9
	movq	%xmm9, %rax
	ret
ENDF movsd_xmm9_rip

/* ---- flags ---- */
FUNC pushf
	xor	%eax, %eax
PROBE pushf
	pushf
	pop	%rax
	and	$0xdd5, %eax
	ret
ENDF pushf

/* 16-bit: stepped, its flags image fixed up */
FUNC pushfw
	xor	%eax, %eax
PROBE pushfw
	pushfw
	popw	%ax
	and	$0xdd5, %eax
	ret
ENDF pushfw

FUNC popf
	push	$0x203
PROBE popf
	popf
	pushf
	pop	%rax
	and	$0xdd5, %eax
	ret
ENDF popf

/* ---- miscellaneous ---- */
FUNC nop1
PROBE nop1
	nop
	mov	$0x9001, %eax
	ret
ENDF nop1

FUNC nop5
PROBE nop5
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	mov	$0x9002, %eax
	ret
ENDF nop5

FUNC endbr64
PROBE endbr64
	.byte	0xf3, 0x0f, 0x1e, 0xfa
	mov	$0x9003, %eax
	ret
ENDF endbr64

FUNC fs_load
	mov	%fs:0, %rdx
PROBE fs_load
	mov	%fs:0, %rax
	sub	%rdx, %rax
	add	$0x9004, %rax
	ret
ENDF fs_load

FUNC stack_load
	push	$0x9005
PROBE stack_load
	mov	(%rsp), %rax
	pop	%rdx
	ret
ENDF stack_load

FUNC xchg_reg
	mov	$1, %eax
	mov	$0x9006, %edx
PROBE xchg_reg
	xchg	%rax, %rdx
	shl	$4, %rdx
	add	%rdx, %rax
	ret
ENDF xchg_reg

FUNC movabs
PROBE movabs
	movabs	$0x123456789abcdef0, %rax
	ret
ENDF movabs

FUNC div
	mov	$100, %eax
	xor	%edx, %edx
	mov	$7, %ecx
PROBE div
	div	%ecx
	shl	$8, %rdx
	or	%rdx, %rax
	ret
ENDF div

FUNC cpuid
	push	%rbx
	xor	%eax, %eax
	xor	%ecx, %ecx
PROBE cpuid
	cpuid
	mov	%ebx, %eax
	pop	%rbx
	ret
ENDF cpuid

/*
 * ---- x87: on disp32(%rip) operands (the kernel runs them), through a
 * register (stepped); loads, arithmetic, compare, store, control word ----
 */
	.data
	.p2align 4
x87d:	.double 1.5
x87d27:	.double 2.7
x87t:	.quad 0xc000000000000000	/* 3.0 as an 80-bit extended */
	.word 0x4000
	.p2align 3
x87o:	.quad 0
x87i:	.long 0
x87cw:	.word 0
x87cwz:	.word 0x0f7f			/* round toward zero */

	.text
FUNC x87_fldl_riprel
	fninit
PROBE x87_fldl_riprel
	fldl	x87d(%rip)
	fadd	%st(0), %st(0)
	fistpl	x87i(%rip)
	mov	x87i(%rip), %eax
	ret
ENDF x87_fldl_riprel

FUNC x87_faddl_riprel
	fninit
	fld1
PROBE x87_faddl_riprel
	faddl	x87d(%rip)
	fadd	%st(0), %st(0)
	fistpl	x87i(%rip)
	mov	x87i(%rip), %eax
	ret
ENDF x87_faddl_riprel

FUNC x87_fstpl_riprel
	fninit
	fldpi
PROBE x87_fstpl_riprel
	fstpl	x87o(%rip)
	fnstsw	%ax
	movzwl	%ax, %eax
	xor	x87o(%rip), %rax
	ret
ENDF x87_fstpl_riprel

FUNC x87_fcoml_riprel
	fninit
	fld1
PROBE x87_fcoml_riprel
	fcoml	x87d(%rip)
	fnstsw	%ax
	fstp	%st(0)
	and	$0x4700, %eax
	ret
ENDF x87_fcoml_riprel

FUNC x87_fldcw_riprel
	fninit
	fldl	x87d27(%rip)
PROBE x87_fldcw_riprel
	fldcw	x87cwz(%rip)
	fistpl	x87i(%rip)
	fninit
	mov	x87i(%rip), %eax
	ret
ENDF x87_fldcw_riprel

FUNC x87_fnstcw_riprel
	fninit
PROBE x87_fnstcw_riprel
	fnstcw	x87cw(%rip)
	movzwl	x87cw(%rip), %eax
	ret
ENDF x87_fnstcw_riprel

FUNC x87_fldt_riprel
	fninit
PROBE x87_fldt_riprel
	fldt	x87t(%rip)
	fistpl	x87i(%rip)
	mov	x87i(%rip), %eax
	ret
ENDF x87_fldt_riprel

FUNC x87_fildl_riprel
	fninit
PROBE x87_fildl_riprel
	fildl	v32(%rip)
	fistpl	x87i(%rip)
	mov	x87i(%rip), %eax
	ret
ENDF x87_fildl_riprel

FUNC x87_fldl_reg
	fninit
	lea	x87d(%rip), %rcx
PROBE x87_fldl_reg
	fldl	(%rcx)
	fadd	%st(0), %st(0)
	fistpl	x87i(%rip)
	mov	x87i(%rip), %eax
	ret
ENDF x87_fldl_reg

/* ---- instructions that must be refused; never executed ---- */
	.text
	.globl refused_insns
	.type refused_insns, @function
refused_insns:
REFUSE int3
	int3
REFUSE int80
	int	$0x80
REFUSE int1
	.byte	0xf1
REFUSE iret
	iretq
REFUSE in
	in	$0x80, %al
REFUSE out
	out	%al, $0x80
REFUSE in_dx
	in	(%dx), %al
REFUSE hlt
	hlt
REFUSE cli
	cli
REFUSE sti
	sti
REFUSE syscall
	syscall
REFUSE sysenter
	sysenter
REFUSE ud2
	ud2
REFUSE lock_inc
	lock incl v32b(%rip)
REFUSE lock_cmpxchg
	lock cmpxchg %rcx, v64b(%rip)
REFUSE seg_ds
	.byte	0x3e, 0x48, 0x8b, 0x00		/* mov %ds:(%rax), %rax */
REFUSE seg_es
	.byte	0x26, 0x48, 0x8b, 0x00		/* mov %es:(%rax), %rax */
REFUSE seg_cs
	.byte	0x2e, 0x48, 0x8b, 0x00		/* mov %cs:(%rax), %rax */
REFUSE seg_ss
	.byte	0x36, 0x48, 0x8b, 0x00		/* mov %ss:(%rax), %rax */
REFUSE invalid_06
	.byte	0x06				/* invalid in 64-bit mode */
	ret
	.size refused_insns, . - refused_insns

	.section .note.GNU-stack, "", @progbits
