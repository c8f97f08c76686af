/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 probe sites for the signal, register-loop and ptrace tests.  The
 * probed instructions are ones the engine has to single-step (or emulate
 * exactly), not trivially skippable ones.
 */
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
 * reads memory) and site_xv_step (pushfw: single-stepped, its flags
 * image fixed up).  The loop ends at site_xv_end.
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
	dec	%rdi
	jnz	1b
	ret
	.globl site_xv_end
site_xv_end:
	.size site_xv_loop, . - site_xv_loop

	.section .note.GNU-stack, "", @progbits

/* A page of its own, so that a test can take the read permission away. */
	.bss
	.p2align 12
	.globl site_ripdata
	.type site_ripdata, @object
site_ripdata:
	.zero 4096
	.size site_ripdata, . - site_ripdata
