/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 probe sites for the signal, register-loop and ptrace tests.  The
 * probed instructions are ones the engine has to single-step (or emulate
 * exactly), not trivially skippable ones.
 */

#include "sites.h"

/*
 * Multi-byte nops as compilers pad with them, spelled out: gas would
 * shorten or choose its own. NOPn_BYTES is the n-byte one: nopl
 * 0x0(%rax,%rax,1), nopw 0x0(%rax,%rax,1), nopl 0x0(%rax) and nopl
 * 0x0(%rax,%rax,1) with a disp32, nopw %cs:0x0(%rax,%rax,1).
 */
#define NOP5_BYTES	0x0f, 0x1f, 0x44, 0x00, 0x00
#define NOP6_BYTES	0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00
#define NOP7_BYTES	0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00
#define NOP8_BYTES	0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
#define NOP10_BYTES	0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
#define NOP5	.byte NOP5_BYTES

	.text

/* long site_work(long x): returns x * 3 + 1; probe at site_work_probe. */
	.p2align 4
	.globl site_work
	.type site_work, @function
site_work:
	mov	%rdi, %rax
	.globl site_work_probe
site_work_probe:
	imul	$3, %rax, %rax
	add	$1, %rax
	ret
	.size site_work, . - site_work

/*
 * void site_badret(unsigned long to): returns to @to, probe on the ret
 * (emulated): a non-canonical @to raises #GP at the ret, rsp unchanged.
 */
	.p2align 4
	.globl site_badret
	.type site_badret, @function
site_badret:
	mov	%rdi, (%rsp)
	.globl site_badret_probe
site_badret_probe:
	ret
	.size site_badret, . - site_badret

/*
 * long site_movimm(void): returns 0x1234, from the five-byte
 * "mov $0x1234, %eax" at site_movimm_probe (code patched over it in
 * hidden.c's tests returns something else).
 */
	.p2align 4
	.globl site_movimm
	.type site_movimm, @function
site_movimm:
	.globl site_movimm_probe
site_movimm_probe:
	mov	$0x1234, %eax
	ret
	.size site_movimm, . - site_movimm

/*
 * long site_call_on_stack(long x, void *sp, long (*fn)(long)): fn(x)
 * with the stack pointer at @sp, for a stack of the test's making.
 */
	.p2align 4
	.globl site_call_on_stack
	.type site_call_on_stack, @function
site_call_on_stack:
	push	%rbx
	mov	%rsp, %rbx
	mov	%rsi, %rsp
	call	*%rdx
	mov	%rbx, %rsp
	pop	%rbx
	ret
	.size site_call_on_stack, . - site_call_on_stack

/*
 * int site_rseq_incr(long *counts, struct rseq *rs): adds 1 to
 * counts[8 * cpu] (a cache line per CPU) in an rseq critical section,
 * whose commit store is site_rseq_probe. 0, or 1 when the section was
 * aborted (the count unchanged: try again).
 */
	.pushsection __rseq_cs, "aw"
	.balign 32
site_rseq_cs:
	.long	0, 0				/* version, flags */
	.quad	.Lrseq_start			/* start_ip */
	.quad	.Lrseq_commit - .Lrseq_start	/* post_commit_offset */
	.quad	.Lrseq_abort			/* abort_ip */
	.popsection

	.p2align 4
	.globl site_rseq_incr
	.type site_rseq_incr, @function
site_rseq_incr:
	lea	site_rseq_cs(%rip), %rax
	mov	%rax, 8(%rsi)			/* rs->rseq_cs */
.Lrseq_start:
	mov	4(%rsi), %eax			/* rs->cpu_id */
	shl	$6, %rax
	mov	(%rdi,%rax), %rcx
	add	$1, %rcx
	.globl site_rseq_probe
site_rseq_probe:
	mov	%rcx, (%rdi,%rax)		/* commit */
.Lrseq_commit:
	xor	%eax, %eax
	ret
	.long	0x53053053			/* RSEQ_SIG */
.Lrseq_abort:
	mov	$1, %eax
	ret
	.size site_rseq_incr, . - site_rseq_incr

/* long site_load(long *p): returns *p; probe on the load itself. */
	.p2align 4
	.globl site_load
	.type site_load, @function
site_load:
	.globl site_load_probe
site_load_probe:
	mov	(%rdi), %rax
	ret
	.size site_load, . - site_load

/*
 * long site_ripload(void): returns site_ripdata[0]; probe on the
 * rip-relative load, which the engine emulates.
 */
	.p2align 4
	.globl site_ripload
	.type site_ripload, @function
site_ripload:
	.globl site_ripload_probe
site_ripload_probe:
	mov	site_ripdata(%rip), %rax
	ret
	.size site_ripload, . - site_ripload

/*
 * long site_ripstore(long x): stores x in site_ripdata[0] and returns it;
 * long site_ripcmp(long x): returns site_ripdata[0] == x. Probes on the
 * rip-relative store and compare, which the engine emulates.
 */
	.p2align 4
	.globl site_ripstore
	.type site_ripstore, @function
site_ripstore:
	.globl site_ripstore_probe
site_ripstore_probe:
	mov	%rdi, site_ripdata(%rip)
	mov	%rdi, %rax
	ret
	.size site_ripstore, . - site_ripstore

	.p2align 4
	.globl site_ripcmp
	.type site_ripcmp, @function
site_ripcmp:
	xor	%eax, %eax
	.globl site_ripcmp_probe
site_ripcmp_probe:
	cmp	%rdi, site_ripdata(%rip)
	sete	%al
	ret
	.size site_ripcmp, . - site_ripcmp

/*
 * long site_ripor(long x): site_ripdata[0] |= x, returns it; long
 * site_ripsse(long x): returns site_ripdata[0] through %xmm0. Probes on
 * the rip-relative or and movq, which run from boosted slots, their
 * operand relocated.
 */
	.p2align 4
	.globl site_ripor
	.type site_ripor, @function
site_ripor:
	.globl site_ripor_probe
site_ripor_probe:
	or	%rdi, site_ripdata(%rip)
	mov	site_ripdata(%rip), %rax
	ret
	.size site_ripor, . - site_ripor

	.p2align 4
	.globl site_ripsse
	.type site_ripsse, @function
site_ripsse:
	.globl site_ripsse_probe
site_ripsse_probe:
	movq	site_ripdata(%rip), %xmm0
	movq	%xmm0, %rax
	ret
	.size site_ripsse, . - site_ripsse

/*
 * long site_invept(void *desc): invept, which raises #UD outside VMX
 * operation (always, in a user process); the probe on it runs from a
 * boosted slot, where it raises #UD first.
 */
	.p2align 4
	.globl site_invept
	.type site_invept, @function
site_invept:
	xor	%eax, %eax
	.globl site_invept_probe
site_invept_probe:
	invept	(%rdi), %rax
	ret
	.size site_invept, . - site_invept

/*
 * long site_far(long x): returns x plus the quad that follows the code,
 * read rip-relative from the same text page, so that another mapping of
 * that page anywhere computes the same.
 */
	.p2align 6
	.globl site_far
	.type site_far, @function
site_far:
	.globl site_far_probe
site_far_probe:
	add	site_far_val(%rip), %rdi
	mov	%rdi, %rax
	ret
	.p2align 3
site_far_val:
	.quad	0x1234
	.size site_far, . - site_far

/*
 * long site_steps(long x): returns ((x + 5) * 3) ^ 0x55, one instruction
 * per label site_step0..site_step4 (the last is the ret).
 */
	.p2align 4
	.globl site_steps
	.type site_steps, @function
site_steps:
	.globl site_step0
site_step0:
	mov	%rdi, %rax
	.globl site_step1
site_step1:
	add	$5, %rax
	.globl site_step2
site_step2:
	imul	$3, %rax, %rax
	.globl site_step3
site_step3:
	xor	$0x55, %rax
	.globl site_step4
site_step4:
	ret
	.size site_steps, . - site_steps

/*
 * unsigned long site_xv_loop(unsigned long n, unsigned long acc,
 *			      const unsigned long *k): N > 0 times
 * acc = acc * 3 + 1 + *k; returns acc.  Three probe sites, one per kind
 * of out-of-line execution: site_xv_boost (lea: register-only, run from a
 * boosted slot), site_xv_mem (add from memory: boosted too, its copy
 * reads memory), site_xv_step (pushfw: single-stepped, its flags
 * image fixed up), site_xv_nop5 and site_xv_nop10 (a five- and a ten-byte
 * nop: a jump to a stub once hit).  The loop ends at site_xv_end.
 */
	.p2align 4
	.globl site_xv_loop
	.type site_xv_loop, @function
site_xv_loop:
	mov	%rsi, %rax
1:
	.globl site_xv_boost
site_xv_boost:
	lea	1(%rax,%rax,2), %rax
	.globl site_xv_mem
site_xv_mem:
	add	(%rdx), %rax
	.globl site_xv_step
site_xv_step:
	pushfw
	popfw
	.p2align 3		/* the nop never crosses a page */
	.globl site_xv_nop5
site_xv_nop5:
	NOP5
	.p2align 4
	.globl site_xv_nop10
site_xv_nop10:
	.byte	NOP10_BYTES
	dec	%rdi
	jnz	1b
	ret
	.globl site_xv_end
site_xv_end:
	.size site_xv_loop, . - site_xv_loop

/*
 * long site_nop5(long x): x * 3 + 1, its first instruction a five-byte
 * nop (site_nop5_probe), as at a patchable function entry.
 */
	.p2align 4
	.globl site_nop5
	.type site_nop5, @function
site_nop5:
	.globl site_nop5_probe
site_nop5_probe:
	NOP5
	lea	1(%rdi,%rdi,2), %rax
	ret
	.size site_nop5, . - site_nop5

/*
 * long site_nop<n>(long x) for n = 6, 7, 8, 10: x * 3 + 1, its first
 * instruction the n-byte nop NOP<n>_BYTES (site_nop<n>_probe), as in the
 * compiler's padding; 16-byte aligned: the nop never crosses a page.
 */
	.macro	SITE_NOP n:req, bytes:vararg
	.p2align 4
	.globl site_nop\n
	.type site_nop\n, @function
site_nop\n:
	.globl site_nop\n\()_probe
site_nop\n\()_probe:
	.byte	\bytes
	lea	1(%rdi,%rdi,2), %rax
	ret
	.size site_nop\n, . - site_nop\n
	.endm

	SITE_NOP 6, NOP6_BYTES
	SITE_NOP 7, NOP7_BYTES
	SITE_NOP 8, NOP8_BYTES
	SITE_NOP 10, NOP10_BYTES

/*
 * long site_mov(long x), long site_nop1(long x): x * 3 + 1, their first
 * instruction a three-byte mov and a one-byte nop (a debugger's
 * breakpoint on a probed instruction, debugger.c).
 */
	.p2align 4
	.globl site_mov
	.type site_mov, @function
site_mov:
	mov	%rdi, %rax
	lea	1(%rax,%rax,2), %rax
	ret
	.size site_mov, . - site_mov

	.p2align 4
	.globl site_nop1
	.type site_nop1, @function
site_nop1:
	nop
	lea	1(%rdi,%rdi,2), %rax
	ret
	.size site_nop1, . - site_nop1

/*
 * void site_nop<n>_regs(struct site_regs *out) for n = 5, 6, 7, 8, 10:
 * sets the flags, writes a pattern to the 128 bytes below the stack
 * pointer (the red zone) and into every general register, executes the
 * n-byte nop NOP<n>_BYTES at site_nop<n>_regs_probe, then stores into
 * *out what the registers, the stack pointer, the flags and the red zone
 * hold after it (see sites.h).
 */
	.macro	SITE_NOP_REGS n:req, bytes:vararg
	.p2align 4
	.globl site_nop\n\()_regs
	.type site_nop\n\()_regs, @function
site_nop\n\()_regs:
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rdi, site_regs_out(%rip)
	mov	%rsp, site_regs_sp(%rip)
	pushq	$SITE_REGS_FLAGS
	popfq
	movabs	$SITE_REGS_RZ, %rax
	.irp	i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
	mov	%rax, -8 * \i(%rsp)
	lea	1(%rax), %rax
	.endr
	movabs	$SITE_REGS_GPR * 1, %rax
	movabs	$SITE_REGS_GPR * 2, %rcx
	movabs	$SITE_REGS_GPR * 3, %rdx
	movabs	$SITE_REGS_GPR * 4, %rbx
	movabs	$SITE_REGS_GPR * 6, %rbp
	movabs	$SITE_REGS_GPR * 7, %rsi
	movabs	$SITE_REGS_GPR * 8, %rdi
	movabs	$SITE_REGS_GPR * 9, %r8
	movabs	$SITE_REGS_GPR * 10, %r9
	movabs	$SITE_REGS_GPR * 11, %r10
	movabs	$SITE_REGS_GPR * 12, %r11
	movabs	$SITE_REGS_GPR * 13, %r12
	movabs	$SITE_REGS_GPR * 14, %r13
	movabs	$SITE_REGS_GPR * 15, %r14
	movabs	$SITE_REGS_GPR * 16, %r15
	.p2align 4		/* the nop never crosses a page */
	.globl site_nop\n\()_regs_probe
site_nop\n\()_regs_probe:
	.byte	\bytes
	/* Only moves until the flags are saved. */
	mov	%rax, site_regs_tmp(%rip)
	mov	site_regs_out(%rip), %rax
	mov	%rcx, 8 * 1(%rax)
	mov	%rdx, 8 * 2(%rax)
	mov	%rbx, 8 * 3(%rax)
	mov	%rsp, 8 * 4(%rax)
	mov	%rbp, 8 * 5(%rax)
	mov	%rsi, 8 * 6(%rax)
	mov	%rdi, 8 * 7(%rax)
	mov	%r8, 8 * 8(%rax)
	mov	%r9, 8 * 9(%rax)
	mov	%r10, 8 * 10(%rax)
	mov	%r11, 8 * 11(%rax)
	mov	%r12, 8 * 12(%rax)
	mov	%r13, 8 * 13(%rax)
	mov	%r14, 8 * 14(%rax)
	mov	%r15, 8 * 15(%rax)
	mov	site_regs_tmp(%rip), %rcx
	mov	%rcx, (%rax)
	.irp	i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
	mov	-8 * \i(%rsp), %rcx
	mov	%rcx, 8 * (17 + \i)(%rax)
	.endr
	mov	site_regs_sp(%rip), %rcx
	mov	%rcx, 8 * 17(%rax)
	pushfq
	pop	%rcx
	mov	%rcx, 8 * 16(%rax)
	pushq	$0x202
	popfq
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret
	.size site_nop\n\()_regs, . - site_nop\n\()_regs
	.endm

	SITE_NOP_REGS 5, NOP5_BYTES
	SITE_NOP_REGS 6, NOP6_BYTES
	SITE_NOP_REGS 7, NOP7_BYTES
	SITE_NOP_REGS 8, NOP8_BYTES
	SITE_NOP_REGS 10, NOP10_BYTES

/*
 * unsigned long site_x87_fip(void): the FPU's last instruction pointer
 * (FIP, 32 bits) and, in bits 32-42, opcode (FOP) that fnstenv shows
 * after the x87 load at site_x87_fldl.
 */
	.globl site_x87_fip
	.type site_x87_fip, @function
site_x87_fip:
	fninit
	.globl site_x87_fldl
site_x87_fldl:
	fldl	site_x87_val(%rip)
	fnstenv	site_x87_env(%rip)
	fldenv	site_x87_env(%rip)
	fstp	%st(0)
	movzwl	site_x87_env + 18(%rip), %eax
	shl	$32, %rax
	movl	site_x87_env + 12(%rip), %edx
	or	%rdx, %rax
	ret
	.size site_x87_fip, . - site_x87_fip

/*
 * unsigned long site_x87_fip_reg(void): the same after a load through a
 * register, at site_x87_fldl_reg.
 */
	.globl site_x87_fip_reg
	.type site_x87_fip_reg, @function
site_x87_fip_reg:
	fninit
	lea	site_x87_val(%rip), %rax
	.globl site_x87_fldl_reg
site_x87_fldl_reg:
	fldl	(%rax)
	fnstenv	site_x87_env(%rip)
	fldenv	site_x87_env(%rip)
	fstp	%st(0)
	movzwl	site_x87_env + 18(%rip), %eax
	shl	$32, %rax
	movl	site_x87_env + 12(%rip), %edx
	or	%rdx, %rax
	ret
	.size site_x87_fip_reg, . - site_x87_fip_reg

/*
 * void site_x87_fxsave(void *fx): the fxsave64 image (512 bytes, 16-byte
 * aligned: 64-bit FIP and FDP) after the x87 load at site_x87_fldl_fx;
 * site_x87_fxsave_reg the same after a load through a register, at
 * site_x87_fldl_fx_reg.
 */
	.globl site_x87_fxsave
	.type site_x87_fxsave, @function
site_x87_fxsave:
	fninit
	.globl site_x87_fldl_fx
site_x87_fldl_fx:
	fldl	site_x87_val(%rip)
	fxsave64 (%rdi)
	fstp	%st(0)
	ret
	.size site_x87_fxsave, . - site_x87_fxsave

	.globl site_x87_fxsave_reg
	.type site_x87_fxsave_reg, @function
site_x87_fxsave_reg:
	fninit
	lea	site_x87_val(%rip), %rax
	.globl site_x87_fldl_fx_reg
site_x87_fldl_fx_reg:
	fldl	(%rax)
	fxsave64 (%rdi)
	fstp	%st(0)
	ret
	.size site_x87_fxsave_reg, . - site_x87_fxsave_reg

/*
 * void site_x87_fpe(void): 1 / 0 with the zero-divide exception unmasked,
 * which the next x87 instruction, the load at site_x87_fldl_fpe, raises
 * (#MF: SIGFPE there). Does not return.
 */
	.globl site_x87_fpe
	.type site_x87_fpe, @function
site_x87_fpe:
	fninit
	fldcw	site_x87_cw_zm(%rip)
	fldz
	fld1
	fdivp
	.globl site_x87_fldl_fpe
site_x87_fldl_fpe:
	fldl	site_x87_val(%rip)
	ret
	.size site_x87_fpe, . - site_x87_fpe

/*
 * void site_x87_store_ro(void): a store into read-only data, site_x87_ro,
 * at site_x87_fstpl (SIGSEGV there). Does not return.
 */
	.globl site_x87_store_ro
	.type site_x87_store_ro, @function
site_x87_store_ro:
	fninit
	fld1
	.globl site_x87_fstpl
site_x87_fstpl:
	fstpl	site_x87_ro(%rip)
	ret
	.size site_x87_store_ro, . - site_x87_store_ro

	.section .note.GNU-stack, "", @progbits

	.section .rodata
	.p2align 3
	.globl site_x87_ro
site_x87_ro:	.double 0.0
/* the default control word with the zero-divide exception unmasked */
site_x87_cw_zm:	.word 0x037b

	.data
	.p2align 3
	.globl site_x87_val
site_x87_val:	.double 1.5

	.bss
	.p2align 3
site_regs_out:	.skip 8
site_regs_sp:	.skip 8
site_regs_tmp:	.skip 8
site_x87_env:	.skip 28

/* A page of its own, so that a test can take the read permission away. */
	.p2align 12
	.globl site_ripdata
	.type site_ripdata, @object
site_ripdata:
	.zero 4096
	.size site_ripdata, . - site_ripdata
