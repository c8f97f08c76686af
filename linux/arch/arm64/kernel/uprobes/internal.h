/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 uprobes: what the simulation files and the single-step code share.
 */
#ifndef _ARM64_KERNEL_UPROBES_INTERNAL_H
#define _ARM64_KERNEL_UPROBES_INTERNAL_H

#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/thread_info.h>

#include <asm/debug-monitors.h>
#include <asm/insn.h>

struct arch_uprobe;

/* Register @reg as a source where 31 is the zero register. */
static inline u64 uprobe_arm64_reg(const struct pt_regs *regs, u8 reg)
{
	return reg == AARCH64_INSN_REG_ZR ? 0 : regs->regs[reg];
}

/* Set register @reg to @val, where 31 is the zero register: discarded. */
static inline void uprobe_arm64_set_reg(struct pt_regs *regs, u8 reg, u64 val)
{
	if (reg != AARCH64_INSN_REG_ZR)
		regs->regs[reg] = val;
}

/* Register @reg as a base or an add's operand, where 31 is sp. */
static inline u64 uprobe_arm64_reg_sp(const struct pt_regs *regs, u8 reg)
{
	return reg == AARCH64_INSN_REG_SP ? regs->sp : regs->regs[reg];
}

/* Set register @reg to @val, where 31 is sp. */
static inline void uprobe_arm64_set_reg_sp(struct pt_regs *regs, u8 reg,
					   u64 val)
{
	if (reg == AARCH64_INSN_REG_SP)
		regs->sp = val;
	else
		regs->regs[reg] = val;
}

/* Fields of an A64 instruction word the simulation files decode. */
#define UPROBE_ARM64_RD(insn)		((insn) & 0x1f)
#define UPROBE_ARM64_RN(insn)		(((insn) >> 5) & 0x1f)
#define UPROBE_ARM64_RM(insn)		(((insn) >> 16) & 0x1f)

void uprobe_arm64_simulate_dp(const struct arch_uprobe *au,
			      struct pt_regs *regs);
bool uprobe_arm64_access_ok(void);
bool uprobe_arm64_simulate_ldst(const struct arch_uprobe *au,
				struct pt_regs *regs);

/*
 * The probed instruction is complete.  A thread that ptrace single-steps
 * must stop right after it, as it would without the probe: its step is
 * left active-pending, so that the single-step exception is taken on the
 * return to user mode, before the next instruction, and reported to the
 * debugger as usual.
 */
static inline void uprobe_arm64_user_step_done(void)
{
	if (test_thread_flag(TIF_SINGLESTEP))
		user_fastforward_single_step(current);
}

#endif /* _ARM64_KERNEL_UPROBES_INTERNAL_H */
