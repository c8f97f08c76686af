// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: simulation of loads and stores of general registers.
 *
 * A function saves its frame record and callee-saved registers (stp, str)
 * and reads its arguments' fields (ldr) before anything else: simulated,
 * these hits cost one trap and no single-step.  The access is the one the
 * instruction makes, of the same size at the same address, through the
 * user's page tables (get_user() and put_user() use the unprivileged
 * accesses, checked as the program's own).
 *
 * Whatever the kernel cannot do the instruction's way is left to the
 * single-step, which then does it or faults with the signal the original
 * raises: a fault (unmapped, read-only, a guard page), sp not 16-byte
 * aligned as a base (the CPU's stack alignment check, SCTLR_EL1.SA0), a
 * check the kernel's access would skip (a debugger's watchpoint, MTE's
 * asynchronous tag checks), a memory error (a synchronous external abort,
 * which the kernel's access would otherwise take).
 * Nothing is written back to a register before the access succeeded.
 */
#include <linux/align.h>
#include <linux/bits.h>
#include <linux/preempt.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/extable.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>

#include "internal.h"

/**
 * uprobe_arm64_access_ok - may the kernel access memory for the program?
 *
 * Not where the kernel's user access is not checked as the program's own
 * access is: with a debugger's watchpoint on the thread (a watchpoint
 * hit by the kernel's access is stepped over without a report), and in
 * MTE's asynchronous tag check mode (the kernel leaves tag checks off
 * for it).  The instruction is stepped then, and the CPU checks it.
 *
 * Return: true if a simulated access is the program's own.
 */
bool uprobe_arm64_access_ok(void)
{
	u64 tcf = current->thread.sctlr_user & SCTLR_EL1_TCF0_MASK;
#ifdef CONFIG_HAVE_HW_BREAKPOINT
	struct debug_info *debug = &current->thread.debug;
	int i;

	for (i = 0; i < ARM_MAX_WRP; i++)
		if (READ_ONCE(debug->hbp_watch[i]))
			return false;
#endif
	return !system_supports_mte() ||
	       tcf != SCTLR_EL1_TCF0_ASYNC << SCTLR_EL1_TCF0_SHIFT;
}

/**
 * uprobe_arm64_sea_fixup - a memory error in a simulated access
 * @regs: the kernel's registers at the abort
 * @esr: its syndrome
 *
 * A synchronous external abort (a memory error) taken by the kernel's
 * user access, while current is at a probe (simulating the probed load or
 * store, or running the probe's handlers): unprobed, the program's own
 * access would take it, and get SIGBUS.  The user access fails instead,
 * as for a fault, and the instruction is stepped, which takes it.
 *
 * Return: true if the abort was fixed up.
 */
bool uprobe_arm64_sea_fixup(struct pt_regs *regs, unsigned long esr)
{
	struct uprobe_task *utask = current->utask;

	if (!in_task() || !current->mm || !utask ||
	    utask->state != UTASK_RUNNING ||
	    instruction_pointer(task_pt_regs(current)) != utask->vaddr)
		return false;
	return fixup_exception(regs);
}

/* sp as the base of an access must be 16-byte aligned, or the step faults */
static bool uprobe_arm64_base_ok(const struct pt_regs *regs, u8 rn)
{
	return rn != AARCH64_INSN_REG_SP || IS_ALIGNED(regs->sp, 16);
}

/*
 * Must an stp of x registers to @addr be one 16-byte store?  With
 * FEAT_LSE2 (the USCAT hwcap) a 16-byte aligned pair is single-copy
 * atomic, which libatomic's 16-byte atomics rely on, and the kernel's
 * user access has no such store: the instruction is stepped.  But for a
 * push below sp (stp ..., [sp, #-N]!, a frame record): that memory is no
 * other thread's, nothing can see the pair half written.
 */
static bool uprobe_arm64_pair_atomic(const struct arch_uprobe *au,
				     unsigned long addr)
{
	if ((au->flags & UPROBE_ARM64_W) || !IS_ALIGNED(addr, 16) ||
	    !cpu_have_named_feature(USCAT))
		return false;
	return au->cond != AARCH64_INSN_REG_SP ||
	       !(au->flags & UPROBE_ARM64_PRE) || au->offset >= 0;
}

/*
 * stp: the pair to user memory, then the base written back.  Each
 * register is one store of its size, single-copy atomic as the
 * instruction's are; a w pair 8-byte aligned, which FEAT_LSE2 makes one
 * access, one 8-byte store (in memory order, whatever the endianness).
 */
static bool uprobe_arm64_store_pair(const struct arch_uprobe *au,
				    struct pt_regs *regs)
{
	u64 base = uprobe_arm64_reg_sp(regs, au->cond);
	u64 a = uprobe_arm64_reg(regs, au->reg);
	u64 b = uprobe_arm64_reg(regs, au->reg2);
	unsigned long addr = base;
	union {
		u32 w[2];
		u64 x;
	} pair;

	if (!uprobe_arm64_base_ok(regs, au->cond))
		return false;
	if (!(au->flags & UPROBE_ARM64_POST))
		addr += au->offset;
	if (uprobe_arm64_pair_atomic(au, addr))
		return false;
	if (!(au->flags & UPROBE_ARM64_W)) {
		if (put_user(a, (u64 __user *)addr) ||
		    put_user(b, (u64 __user *)(addr + 8)))
			return false;
	} else if (IS_ALIGNED(addr, 8)) {
		pair.w[0] = a;
		pair.w[1] = b;
		if (put_user(pair.x, (u64 __user *)addr))
			return false;
	} else if (put_user((u32)a, (u32 __user *)addr) ||
		   put_user((u32)b, (u32 __user *)(addr + 4))) {
		return false;
	}
	if (au->flags & (UPROBE_ARM64_PRE | UPROBE_ARM64_POST))
		uprobe_arm64_set_reg_sp(regs, au->cond, base + au->offset);
	return true;
}

/* Load 1 << @size bytes at @addr, zero-extended, into @val. */
static int uprobe_arm64_get(unsigned long addr, unsigned int size, u64 *val)
{
	int err;

	switch (size) {
	case 0: {
		u8 v;

		err = get_user(v, (u8 __user *)addr);
		*val = v;
		break;
	}
	case 1: {
		u16 v;

		err = get_user(v, (u16 __user *)addr);
		*val = v;
		break;
	}
	case 2: {
		u32 v;

		err = get_user(v, (u32 __user *)addr);
		*val = v;
		break;
	}
	default:
		err = get_user(*val, (u64 __user *)addr);
		break;
	}
	return err;
}

/* Store the low 1 << @size bytes of @val at @addr. */
static int uprobe_arm64_put(unsigned long addr, unsigned int size, u64 val)
{
	switch (size) {
	case 0:
		return put_user((u8)val, (u8 __user *)addr);
	case 1:
		return put_user((u16)val, (u16 __user *)addr);
	case 2:
		return put_user((u32)val, (u32 __user *)addr);
	}
	return put_user(val, (u64 __user *)addr);
}

/*
 * ldr, ldrb, ldrh, ldrsb, ldrsh, ldrsw, str, strb, strh with an unsigned
 * offset (bit 24), an unscaled one (ldur, stur) or a pre- or post-indexed
 * base (bits 11:10 = 11, 01).  opc (bits 23:22): 00 store, 01 load, 10
 * load sign-extended to 64 bits, 11 to 32 bits.
 */
static bool uprobe_arm64_load_store(const struct arch_uprobe *au,
				    struct pt_regs *regs)
{
	u32 insn = le32_to_cpup((const __le32 *)au->insn);
	unsigned int size = insn >> 30, opc = (insn >> 22) & 0x3;
	u8 rt = UPROBE_ARM64_RD(insn), rn = UPROBE_ARM64_RN(insn);
	u64 base = uprobe_arm64_reg_sp(regs, rn);
	bool post = false, writeback = false;
	unsigned long addr;
	s64 offset;
	u64 val;

	if (insn & BIT(24)) {
		offset = (u64)((insn >> 10) & 0xfff) << size;
	} else {
		offset = sign_extend64(insn >> 12, 8);
		writeback = insn & BIT(10);
		post = writeback && !(insn & BIT(11));
	}
	if (!uprobe_arm64_base_ok(regs, rn))
		return false;
	addr = post ? base : base + offset;
	if (!opc) {
		if (uprobe_arm64_put(addr, size, uprobe_arm64_reg(regs, rt)))
			return false;
	} else {
		if (uprobe_arm64_get(addr, size, &val))
			return false;
		if (opc & 2)
			val = sign_extend64(val, (8 << size) - 1);
		if (opc == 3)
			val = (u32)val;
		uprobe_arm64_set_reg(regs, rt, val);
	}
	if (writeback)
		uprobe_arm64_set_reg_sp(regs, rn, base + offset);
	return true;
}

/**
 * uprobe_arm64_simulate_ldst - execute a load or store in the kernel
 * @au: the analysed instruction, of sim %UPROBE_ARM64_STP or
 *	%UPROBE_ARM64_LDST
 * @regs: user registers at the hit; pc is left to the caller
 *
 * Return: true if the access was made and @regs updated, false if it
 * could not be made as the instruction makes it and @regs are as they
 * were: the instruction is then single-stepped.
 */
bool uprobe_arm64_simulate_ldst(const struct arch_uprobe *au,
				struct pt_regs *regs)
{
	if (!uprobe_arm64_access_ok())
		return false;
	if (au->sim == UPROBE_ARM64_STP)
		return uprobe_arm64_store_pair(au, regs);
	return uprobe_arm64_load_store(au, regs);
}
