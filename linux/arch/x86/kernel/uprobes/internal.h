/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 uprobes: what the single-step, emulation and return probe code
 * share: helpers for the user's registers, the return trampoline.
 */
#ifndef _X86_KERNEL_UPROBES_INTERNAL_H
#define _X86_KERNEL_UPROBES_INTERNAL_H

#include <linux/types.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/uprobes.h>

/* Size of a stack slot (and of a return address) in the user's mode. */
static inline unsigned int uprobe_x86_word(struct pt_regs *regs)
{
	return user_64bit_mode(regs) ? 8 : 4;
}

/* One read of @size (1, 4 or 8) bytes at @addr, zero-extended, as one access. */
static inline int uprobe_x86_get(unsigned long addr, unsigned int size,
				 unsigned long *val)
{
	if (size == 8) {
		u64 v;

		if (get_user(v, (u64 __user *)addr))
			return -EFAULT;
		*val = v;
	} else if (size == 4) {
		u32 v;

		if (get_user(v, (u32 __user *)addr))
			return -EFAULT;
		*val = v;
	} else {
		u8 v;

		if (get_user(v, (u8 __user *)addr))
			return -EFAULT;
		*val = v;
	}
	return 0;
}

/* One write of the low @size (4 or 8) bytes of @val at @addr. */
static inline int uprobe_x86_put(unsigned long addr, unsigned int size,
				 unsigned long val)
{
	if (size == 8)
		return put_user((u64)val, (u64 __user *)addr) ? -EFAULT : 0;
	return put_user((u32)val, (u32 __user *)addr) ? -EFAULT : 0;
}

/* One read of a stack-slot-sized word at @addr, zero-extended. */
static inline int uprobe_x86_get_word(struct pt_regs *regs,
				      unsigned long addr, unsigned long *val)
{
	return uprobe_x86_get(addr, uprobe_x86_word(regs), val);
}

/* One write of a stack-slot-sized word at @addr. */
static inline int uprobe_x86_put_word(struct pt_regs *regs,
				      unsigned long addr, unsigned long val)
{
	return uprobe_x86_put(addr, uprobe_x86_word(regs), val);
}

/* The jump that replaces a probed nop: e9 rel32 (stub.c). */
#define UPROBE_X86_STUB_JMP_LEN	5

/*
 * A nop that may become a jump to a stub in 64-bit code (stub.c): one of
 * at least the jump's five bytes, whatever its form (nopl, nopw with 66
 * and 2e padding, ...). The jump replaces its first five bytes, the stub
 * returns after the whole nop.
 */
static inline bool uprobe_x86_stub_nop(struct arch_uprobe *auprobe)
{
	return auprobe->emul == UPROBE_X86_NOP &&
	       auprobe->len >= UPROBE_X86_STUB_JMP_LEN;
}

/* A computed ip, wrapped the way the CPU wraps it in the user's mode. */
static inline unsigned long uprobe_x86_ip(struct pt_regs *regs,
					  unsigned long ip)
{
	return user_64bit_mode(regs) ? ip : (u32)ip;
}

/* analyze.c: pt_regs offsets of the registers, in ModRM/REX order */
#define UPROBE_X86_NR_GPRS	(IS_ENABLED(CONFIG_X86_64) ? 16 : 8)
extern const u8 uprobe_x86_gpr_off[UPROBE_X86_NR_GPRS];

/* The register at pt_regs offset @off (see arch_uprobe::reg). */
static inline unsigned long *uprobe_x86_reg(struct pt_regs *regs, u8 off)
{
	return (unsigned long *)((u8 *)regs + off);
}

#ifdef CONFIG_X86_64
/* tramp.S: the trampoline, and where its system call returns to */
extern const u8 uprobe_x86_uret_tramp[];
extern const u8 uprobe_x86_uret_tramp_ret[];
extern const u8 uprobe_x86_uret_tramp_end[];

/*
 * uprobe_x86_pop_saved - take back registers the trampoline or a stub saved
 * @regs: the user registers
 * @sp: where the first of them is
 * @n: how many: the last @n of r11, rcx, rax, as the sequence "push %rax;
 *	push %rcx; push %r11" leaves them from @sp up
 *
 * Return: 0, or -EFAULT with @regs unchanged.
 */
static __always_inline int uprobe_x86_pop_saved(struct pt_regs *regs,
						unsigned long sp, int n)
{
	unsigned long __user *p = (unsigned long __user *)sp;
	unsigned long r11 = regs->r11, cx = regs->cx, ax;

	if (!user_access_begin(p, n * sizeof(*p)))
		return -EFAULT;
	if (n == 3)
		unsafe_get_user(r11, p++, efault);
	if (n >= 2)
		unsafe_get_user(cx, p++, efault);
	unsafe_get_user(ax, p, efault);
	user_access_end();
	regs->r11 = r11;
	regs->cx = cx;
	regs->ax = ax;
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

/* stub.c */
bool uprobe_x86_stub_syscall(struct pt_regs *regs, unsigned long slot,
			     unsigned long vaddr);
#endif /* CONFIG_X86_64 */

/* x87.c */
bool uprobe_x86_x87_runs(u8 form);
int uprobe_x86_x87(u8 form, unsigned long ea, struct pt_regs *regs);
void uprobe_x86_x87_fix_fip(struct arch_uprobe *auprobe, struct pt_regs *regs,
			    unsigned long slot, unsigned long vaddr);

#endif /* _X86_KERNEL_UPROBES_INTERNAL_H */
