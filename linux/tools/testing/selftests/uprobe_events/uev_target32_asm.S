/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe points of uev_target_asm.S for a 32-bit (ia32) process, built
 * into uev_target32. Pointers in uev_data are followed by four zero bytes:
 * a dereference in a fetch argument loads a 64-bit word even for a 32-bit
 * process.
 */

	.data
	.balign 64
	.globl uev_data
	.type uev_data, @object
uev_data:
	.long	0x55667788, 0x11223344		/* +0:  u64 */
	.long	0xdeadbeef			/* +8:  u32 */
	.short	0xcafe				/* +12: u16 */
	.byte	0xfb				/* +14: s8 -5 */
	.byte	0xb5				/* +15: bits 1011 0101 */
	.ascii	"fetch-me\0\0\0\0\0\0\0\0"	/* +16: char[16] */
	.short	1, 2, 0xfffe, 4			/* +32: u16[4] */
	.long	uev_string, 0			/* +40: char * */
	.long	uev_data, 0			/* +48: pointer to itself */
	.size	uev_data, . - uev_data

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

	.text
/*
 * Loads known values into the general purpose registers and pushes two
 * known words, then runs the probed instruction at uev_regs_probe.
 */
	.globl uev_regs_func
	.type uev_regs_func, @function
uev_regs_func:
	push	%ebp
	push	%ebx
	push	%esi
	push	%edi
	mov	$0x76543210, %eax
	mov	$uev_data, %ebx
	mov	$-123, %ecx
	mov	$0x80000001, %edx
	mov	$uev_string, %esi
	mov	$42, %edi
	mov	$uev_data + 16, %ebp
	push	$0x5555
	push	$0x6666
	.globl uev_regs_probe
uev_regs_probe:
	add	$0, %eax
	add	$8, %esp
	pop	%edi
	pop	%esi
	pop	%ebx
	pop	%ebp
	ret
	.size	uev_regs_func, . - uev_regs_func

/* Returns -2; called from uev_ret_caller, which it returns to at uev_ret_site. */
	.globl uev_ret_func
	.type uev_ret_func, @function
uev_ret_func:
	mov	$-2, %eax
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

/* long uev_count_func(long n): returns n (cdecl: n is at 4(%esp)). */
	.globl uev_count_func
	.type uev_count_func, @function
uev_count_func:
	mov	4(%esp), %eax
	ret
	.size	uev_count_func, . - uev_count_func

/* long uev_rec(long depth): calls itself down to depth 0; returns depth. */
	.globl uev_rec
	.type uev_rec, @function
uev_rec:
	mov	4(%esp), %eax
	test	%eax, %eax
	jz	1f
	dec	%eax
	push	%eax
	call	uev_rec
	add	$4, %esp
	mov	4(%esp), %eax
1:
	ret
	.size	uev_rec, . - uev_rec

/* Instructions that cannot be probed; never executed. */
	.globl uev_bad_int3
uev_bad_int3:
	int3
	.globl uev_bad_iret
uev_bad_iret:
	iret

/* A constant inside the text segment, for @+FILE_OFFSET. */
	.balign 8
	.globl uev_text_const
	.type uev_text_const, @object
uev_text_const:
	.long	0xee0ddf00, 0x0badc0ff
	.size	uev_text_const, . - uev_text_const

	.section .note.GNU-stack, "", @progbits
