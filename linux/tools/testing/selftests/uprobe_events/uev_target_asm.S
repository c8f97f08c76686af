/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe points with known register, stack and memory contents for the
 * uprobe_events tests, in x86-64, A64, riscv64 or s390x code: the same
 * symbols, data and behaviour (uev_target32_asm.S has them for ia32). The
 * tests look every global symbol below up in the symbol table of the
 * binary; the values are spelled out in the expected trace lines of
 * fetchargs.c, the registers holding them are named in uev_lib.h
 * (UEV_R_*). Addresses are formed relative to the pc, never loaded from a
 * literal, so that the position independent build has no relocation in
 * its text.
 */

	.data
	.balign 64
	.globl uev_data
	.type uev_data, %object
uev_data:
	.quad	0x1122334455667788		/* +0:  u64 */
	.long	0xdeadbeef			/* +8:  u32 */
	.short	0xcafe				/* +12: u16 */
	.byte	0xfb				/* +14: s8 -5 */
	.byte	0xb5				/* +15: bits 1011 0101 */
	.ascii	"fetch-me\0\0\0\0\0\0\0\0"	/* +16: char[16] */
	.short	1, 2, 0xfffe, 4			/* +32: u16[4] */
	.quad	uev_string			/* +40: char * */
	.quad	uev_data			/* +48: pointer to itself */
	.size	uev_data, . - uev_data

/* A USDT-style semaphore: probes defined with it as reference counter
 * increment it while they are enabled.
 */
	.balign 8
	.globl uev_semaphore
	.type uev_semaphore, %object
uev_semaphore:
	.short	0
	.size	uev_semaphore, . - uev_semaphore

	.globl uev_string
	.type uev_string, %object
uev_string:
	.asciz	"hello, uprobe"
	.size	uev_string, . - uev_string

/*
 * 6000 'A's, longer than any string the tracer records, after 16 KiB of
 * zeroes so that no short offset from the other data reaches them.
 */
	.section .data.uev_far, "aw"
	.skip	16384
	.globl uev_long_string
	.type uev_long_string, %object
uev_long_string:
	.fill	6000, 1, 'A'
	.byte	0
	.size	uev_long_string, . - uev_long_string

	.text
#if defined(__x86_64__)
/*
 * Loads known values into every general purpose register and pushes two
 * known quadwords, then runs the probed instruction at uev_regs_probe.
 */
	.globl uev_regs_func
	.type uev_regs_func, @function
uev_regs_func:
	push	%rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	movabs	$0xfedcba9876543210, %rax
	lea	uev_data(%rip), %rbx
	mov	$-123, %rcx
	movabs	$0x8000000000000001, %rdx
	lea	uev_string(%rip), %rsi
	mov	$42, %edi
	lea	uev_data+16(%rip), %rbp
	movabs	$0x0102030405060708, %r8
	mov	$0x10, %r9d			/* an address that is never mapped */
	mov	$0x1010, %r10d
	mov	$0xb0b0, %r11d
	mov	$-1, %r12
	mov	$0x7fffffff, %r13d
	mov	$0xe0e0e0e0, %r14d
	mov	$0xf, %r15d
	push	$0x5555
	push	$0x6666
	.globl uev_regs_probe
uev_regs_probe:
	mov	%rax, %r11
	add	$16, %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	ret
	.size	uev_regs_func, . - uev_regs_func

/* Returns -2; called from uev_ret_caller, which it returns to at uev_ret_site. */
	.globl uev_ret_func
	.type uev_ret_func, @function
uev_ret_func:
	mov	$-2, %rax
	ret
	.size	uev_ret_func, . - uev_ret_func

	.globl uev_ret_caller
	.type uev_ret_caller, @function
uev_ret_caller:
	call	uev_ret_func
	.globl uev_ret_site
uev_ret_site:
	ret
	.size	uev_ret_caller, . - uev_ret_caller

/* long uev_count_func(long n): returns n. */
	.globl uev_count_func
	.type uev_count_func, @function
uev_count_func:
	mov	%rdi, %rax
	ret
	.size	uev_count_func, . - uev_count_func

/* long uev_rec(long depth): calls itself down to depth 0; returns depth. */
	.globl uev_rec
	.type uev_rec, @function
uev_rec:
	test	%rdi, %rdi
	jz	1f
	push	%rdi
	dec	%rdi
	call	uev_rec
	pop	%rdi
1:
	mov	%rdi, %rax
	ret
	.size	uev_rec, . - uev_rec

/* Instructions that cannot be probed; never executed. */
	.globl uev_bad_int3
uev_bad_int3:
	int3
	.globl uev_bad_iret
uev_bad_iret:
	iretq

#elif defined(__aarch64__)
/*
 * Loads known values into every general purpose register x0..x30 and
 * pushes two known doublewords (0x6666 at sp, 0x5555 at sp + 8), sets the
 * condition flags to N=1 Z=0 C=1 V=0 (cmp of a negative number with 0),
 * then runs the probed instruction at uev_regs_probe, a register move.
 * x9..x30 hold N * 0x0101010101010101 for register xN.
 */
	.globl uev_regs_func
	.type uev_regs_func, %function
uev_regs_func:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	mov	x0, #0x6666
	mov	x1, #0x5555
	stp	x0, x1, [sp, #-16]!
	mov	x0, #42
	adrp	x1, uev_string
	add	x1, x1, :lo12:uev_string
	mov	x2, #-123
	ldr	x3, =0x8000000000000001
	ldr	x4, =0xfedcba9876543210
	adrp	x5, uev_data
	add	x5, x5, :lo12:uev_data
	add	x6, x5, #16
	mov	x7, #0x10			/* an address that is never mapped */
	ldr	x8, =0x0102030405060708
	ldr	x9, =0x0909090909090909
	ldr	x10, =0x0a0a0a0a0a0a0a0a
	ldr	x11, =0x0b0b0b0b0b0b0b0b
	ldr	x12, =0x0c0c0c0c0c0c0c0c
	ldr	x13, =0x0d0d0d0d0d0d0d0d
	ldr	x14, =0x0e0e0e0e0e0e0e0e
	ldr	x15, =0x0f0f0f0f0f0f0f0f
	ldr	x16, =0x1010101010101010
	ldr	x17, =0x1111111111111111
	ldr	x18, =0x1212121212121212
	ldr	x19, =0x1313131313131313
	ldr	x20, =0x1414141414141414
	ldr	x21, =0x1515151515151515
	ldr	x22, =0x1616161616161616
	ldr	x23, =0x1717171717171717
	ldr	x24, =0x1818181818181818
	ldr	x25, =0x1919191919191919
	ldr	x26, =0x1a1a1a1a1a1a1a1a
	ldr	x27, =0x1b1b1b1b1b1b1b1b
	ldr	x28, =0x1c1c1c1c1c1c1c1c
	ldr	x29, =0x1d1d1d1d1d1d1d1d
	ldr	x30, =0x1e1e1e1e1e1e1e1e
	cmp	x2, #0
	.globl uev_regs_probe
uev_regs_probe:
	mov	x9, x4
	add	sp, sp, #16
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret
	.ltorg
	.size	uev_regs_func, . - uev_regs_func

/* Returns -2; called from uev_ret_caller, which it returns to at uev_ret_site. */
	.globl uev_ret_func
	.type uev_ret_func, %function
uev_ret_func:
	mov	x0, #-2
	ret
	.size	uev_ret_func, . - uev_ret_func

	.globl uev_ret_caller
	.type uev_ret_caller, %function
uev_ret_caller:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	bl	uev_ret_func
	.globl uev_ret_site
uev_ret_site:
	ldp	x29, x30, [sp], #16
	ret
	.size	uev_ret_caller, . - uev_ret_caller

/* long uev_count_func(long n): returns n. */
	.globl uev_count_func
	.type uev_count_func, %function
uev_count_func:
	mov	x9, x0
	mov	x0, x9
	ret
	.size	uev_count_func, . - uev_count_func

/* long uev_rec(long depth): calls itself down to depth 0; returns depth. */
	.globl uev_rec
	.type uev_rec, %function
uev_rec:
	cbz	x0, 1f
	stp	x0, x30, [sp, #-16]!
	sub	x0, x0, #1
	bl	uev_rec
	ldp	x0, x30, [sp], #16
1:
	ret
	.size	uev_rec, . - uev_rec

/* Instructions that cannot be probed; never executed. */
	.globl uev_bad_brk
uev_bad_brk:
	brk	#0x7
	.globl uev_bad_ldxr
uev_bad_ldxr:
	ldxr	x0, [x1]
	.globl uev_bad_retaa
uev_bad_retaa:
	.inst	0xd65f0bff			/* retaa (FEAT_PAuth) */

#elif defined(__riscv)
/*
 * Loads known values into the argument registers a0..a7 and into every
 * temporary and saved register (t0..t6, s0..s11: xN holds
 * N * 0x0101010101010101; ra, gp and tp are left as they are), pushes two
 * known doublewords (0x6666 at sp, 0x5555 at sp + 8), then runs the
 * probed instruction at uev_regs_probe, a compressed register move
 * (c.mv, stepped out of line).
 */
	.globl uev_regs_func
	.type uev_regs_func, %function
uev_regs_func:
	addi	sp, sp, -112
	sd	ra, 104(sp)
	sd	s0, 0(sp)
	sd	s1, 8(sp)
	sd	s2, 16(sp)
	sd	s3, 24(sp)
	sd	s4, 32(sp)
	sd	s5, 40(sp)
	sd	s6, 48(sp)
	sd	s7, 56(sp)
	sd	s8, 64(sp)
	sd	s9, 72(sp)
	sd	s10, 80(sp)
	sd	s11, 88(sp)
	addi	sp, sp, -16
	li	t0, 0x6666
	sd	t0, 0(sp)
	li	t0, 0x5555
	sd	t0, 8(sp)
	li	a0, 42
	lla	a1, uev_string
	li	a2, -123
	li	a3, 0x8000000000000001
	li	a4, 0xfedcba9876543210
	lla	a5, uev_data
	addi	a6, a5, 16
	li	a7, 0x10			/* an address that is never mapped */
	li	t0, 0x0505050505050505
	li	t1, 0x0606060606060606
	li	t2, 0x0707070707070707
	li	s0, 0x0808080808080808
	li	s1, 0x0909090909090909
	li	s2, 0x1212121212121212
	li	s3, 0x1313131313131313
	li	s4, 0x1414141414141414
	li	s5, 0x1515151515151515
	li	s6, 0x1616161616161616
	li	s7, 0x1717171717171717
	li	s8, 0x1818181818181818
	li	s9, 0x1919191919191919
	li	s10, 0x1a1a1a1a1a1a1a1a
	li	s11, 0x1b1b1b1b1b1b1b1b
	li	t3, 0x1c1c1c1c1c1c1c1c
	li	t4, 0x1d1d1d1d1d1d1d1d
	li	t5, 0x1e1e1e1e1e1e1e1e
	li	t6, 0x1f1f1f1f1f1f1f1f
	.globl uev_regs_probe
uev_regs_probe:
	c.mv	t0, a4
	addi	sp, sp, 16
	ld	s0, 0(sp)
	ld	s1, 8(sp)
	ld	s2, 16(sp)
	ld	s3, 24(sp)
	ld	s4, 32(sp)
	ld	s5, 40(sp)
	ld	s6, 48(sp)
	ld	s7, 56(sp)
	ld	s8, 64(sp)
	ld	s9, 72(sp)
	ld	s10, 80(sp)
	ld	s11, 88(sp)
	ld	ra, 104(sp)
	addi	sp, sp, 112
	ret
	.size	uev_regs_func, . - uev_regs_func

/* Returns -2; called from uev_ret_caller, which it returns to at uev_ret_site. */
	.globl uev_ret_func
	.type uev_ret_func, %function
uev_ret_func:
	li	a0, -2
	ret
	.size	uev_ret_func, . - uev_ret_func

	.globl uev_ret_caller
	.type uev_ret_caller, %function
uev_ret_caller:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	jal	ra, uev_ret_func
	.globl uev_ret_site
uev_ret_site:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
	.size	uev_ret_caller, . - uev_ret_caller

/* long uev_count_func(long n): returns n. */
	.globl uev_count_func
	.type uev_count_func, %function
uev_count_func:
	mv	t1, a0
	mv	a0, t1
	ret
	.size	uev_count_func, . - uev_count_func

/* long uev_rec(long depth): calls itself down to depth 0; returns depth. */
	.globl uev_rec
	.type uev_rec, %function
uev_rec:
	beqz	a0, 1f
	addi	sp, sp, -16
	sd	a0, 0(sp)
	sd	ra, 8(sp)
	addi	a0, a0, -1
	jal	ra, uev_rec
	ld	a0, 0(sp)
	ld	ra, 8(sp)
	addi	sp, sp, 16
1:
	ret
	.size	uev_rec, . - uev_rec

/* Instructions that cannot be probed; never executed. */
	.globl uev_bad_ebreak
uev_bad_ebreak:
	.option push
	.option norvc
	ebreak
	.option pop
	.globl uev_bad_c_ebreak
uev_bad_c_ebreak:
	c.ebreak
	.globl uev_bad_fence
uev_bad_fence:
	fence	rw, rw
	.p2align 2

#elif defined(__s390x__)
/*
 * Loads known values into r0..r13 and pushes two known doublewords
 * (0x6666 at r15, 0x5555 at r15 + 8), then runs the probed instruction at
 * uev_regs_probe, a register move. r9..r13 hold N * 0x0101010101010101
 * for register rN; r14 is the return address.
 */
	.globl uev_regs_func
	.type uev_regs_func, @function
uev_regs_func:
	stmg	%r6, %r15, 48(%r15)
	aghi	%r15, -16
	lghi	%r0, 0x6666
	stg	%r0, 0(%r15)
	lghi	%r0, 0x5555
	stg	%r0, 8(%r15)
	llihf	%r0, 0x80000000
	oilf	%r0, 0x00000001
	llihf	%r1, 0x01020304
	oilf	%r1, 0x05060708
	lghi	%r2, 42
	larl	%r3, uev_string
	lghi	%r4, -123
	llihf	%r5, 0xfedcba98
	oilf	%r5, 0x76543210
	larl	%r6, uev_data
	la	%r7, 16(%r6)
	lghi	%r8, 0x10			/* an address that is never mapped */
	llihf	%r9, 0x09090909
	oilf	%r9, 0x09090909
	llihf	%r10, 0x0a0a0a0a
	oilf	%r10, 0x0a0a0a0a
	llihf	%r11, 0x0b0b0b0b
	oilf	%r11, 0x0b0b0b0b
	llihf	%r12, 0x0c0c0c0c
	oilf	%r12, 0x0c0c0c0c
	llihf	%r13, 0x0d0d0d0d
	oilf	%r13, 0x0d0d0d0d
	.globl uev_regs_probe
uev_regs_probe:
	lgr	%r9, %r5
	aghi	%r15, 16
	lmg	%r6, %r15, 48(%r15)
	br	%r14
	.size	uev_regs_func, . - uev_regs_func

/* Returns -2; called from uev_ret_caller, which it returns to at uev_ret_site. */
	.globl uev_ret_func
	.type uev_ret_func, @function
uev_ret_func:
	lghi	%r2, -2
	br	%r14
	.size	uev_ret_func, . - uev_ret_func

	.globl uev_ret_caller
	.type uev_ret_caller, @function
uev_ret_caller:
	stmg	%r14, %r15, 112(%r15)
	aghi	%r15, -160
	brasl	%r14, uev_ret_func
	.globl uev_ret_site
uev_ret_site:
	lmg	%r14, %r15, 272(%r15)
	br	%r14
	.size	uev_ret_caller, . - uev_ret_caller

/* long uev_count_func(long n): returns n. */
	.globl uev_count_func
	.type uev_count_func, @function
uev_count_func:
	lgr	%r1, %r2
	lgr	%r2, %r1
	br	%r14
	.size	uev_count_func, . - uev_count_func

/* long uev_rec(long depth): calls itself down to depth 0; returns depth. */
	.globl uev_rec
	.type uev_rec, @function
uev_rec:
	ltgr	%r2, %r2
	jz	1f
	stmg	%r14, %r15, 112(%r15)
	aghi	%r15, -168
	stg	%r2, 160(%r15)
	aghi	%r2, -1
	brasl	%r14, uev_rec
	lg	%r2, 160(%r15)
	lmg	%r14, %r15, 280(%r15)
1:
	br	%r14
	.size	uev_rec, . - uev_rec

/* Instructions that cannot be probed; never executed. */
	.globl uev_bad_ex
uev_bad_ex:
	ex	%r0, 0
	.globl uev_bad_exrl
uev_bad_exrl:
	exrl	%r0, uev_bad_ex
	.globl uev_bad_bkpt
uev_bad_bkpt:
	.short	0x0001				/* gdb's breakpoint */

#else
#error "uev_target_asm.S: no probe points for this architecture"
#endif

/* A constant inside the text segment, for @+FILE_OFFSET. */
	.balign 8
	.globl uev_text_const
	.type uev_text_const, %object
uev_text_const:
	.quad	0x0badc0ffee0ddf00
	.size	uev_text_const, . - uev_text_const

	.section .note.GNU-stack, "", %progbits
