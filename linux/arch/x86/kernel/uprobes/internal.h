/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 uprobes: what the single-step, emulation and return probe code
 * share: helpers for the user's registers, the return trampoline.
 */
#ifndef _X86_KERNEL_UPROBES_INTERNAL_H
#define _X86_KERNEL_UPROBES_INTERNAL_H

#include <linux/types.h>
#include <asm/ptrace.h>

/* Size of a stack slot (and of a return address) in the user's mode. */
static inline unsigned int uprobe_x86_word(struct pt_regs *regs)
{
	return user_64bit_mode(regs) ? 8 : 4;
}

/* A computed ip, wrapped the way the CPU wraps it in the user's mode. */
static inline unsigned long uprobe_x86_ip(struct pt_regs *regs,
					  unsigned long ip)
{
	return user_64bit_mode(regs) ? ip : (u32)ip;
}

/* The register at pt_regs offset @off (see arch_uprobe::reg). */
static inline unsigned long *uprobe_x86_reg(struct pt_regs *regs, u8 off)
{
	return (unsigned long *)((u8 *)regs + off);
}

/* tramp.S: the trampoline, and where its system call returns to */
extern const u8 uprobe_x86_uret_tramp[];
extern const u8 uprobe_x86_uret_tramp_ret[];
extern const u8 uprobe_x86_uret_tramp_end[];

#endif /* _X86_KERNEL_UPROBES_INTERNAL_H */
