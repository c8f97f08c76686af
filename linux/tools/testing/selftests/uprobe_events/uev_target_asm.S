/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe points with known register, stack and memory contents for the
 * uprobe_events tests. The tests look every global symbol below up in the
 * symbol table of the binary; the values are spelled out in the expected
 * trace lines of fetchargs.c.
 */

	.data
	.balign 64
	.globl uev_data
	.type uev_data, @object
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
	.type uev_semaphore, @object
uev_semaphore:
	.short	0
	.size	uev_semaphore, . - uev_semaphore

	.globl uev_string
	.type uev_string, @object
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
	.type uev_long_string, @object
uev_long_string:
	.fill	6000, 1, 'A'
	.byte	0
	.size	uev_long_string, . - uev_long_string

	.text
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

/* A constant inside the text segment, for @+FILE_OFFSET. */
	.balign 8
	.globl uev_text_const
	.type uev_text_const, @object
uev_text_const:
	.quad	0x0badc0ffee0ddf00
	.size	uev_text_const, . - uev_text_const

	.section .note.GNU-stack, "", @progbits
