/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86-64 uprobes: the return trampoline of 64-bit tasks.
 *
 * Not executed here: arch_uprobe_trampoline() hands these bytes to the
 * core, which copies them to the start of each XOL area.  A probed
 * function returns into them; they enter the kernel with the uretprobe
 * system call, saving the registers that syscall clobbers (rcx, r11) and
 * the return value (rax) on the stack for sys_uretprobe() to take back.
 * sys_uretprobe() returns straight to the real return address, so the
 * ud2 is reached only if the system call is refused.
 */
#include <linux/linkage.h>
#include <asm/unistd.h>

	.section .rodata, "a"
SYM_DATA_START(uprobe_x86_uret_tramp)
	pushq	%rax
	pushq	%rcx
	pushq	%r11
	movl	$__NR_uretprobe, %eax
	syscall
SYM_INNER_LABEL(uprobe_x86_uret_tramp_ret, SYM_L_GLOBAL)
	ud2
SYM_DATA_END_LABEL(uprobe_x86_uret_tramp, SYM_L_GLOBAL, uprobe_x86_uret_tramp_end)
