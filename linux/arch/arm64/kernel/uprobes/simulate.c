// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: simulation of the instructions that read pc.
 *
 * Branches, adr/adrp and literal loads are executed on the user registers
 * at the breakpoint hit: one trap, no single-step, and no copy running at
 * an address that is not its own; nop, bti and prfm (literal) only move pc
 * on.  A literal the kernel cannot read is loaded by stepping a rewritten
 * copy instead (xol.c), which faults with the signal the original would
 * have raised.  The instructions a function starts with, stp of a pair of
 * registers and add/sub (immediate), are simulated too, to spare their
 * hits the single-step; a store the kernel cannot make (a fault, sp not
 * 16-byte aligned as its base) is stepped, and faults, the same way.
 *
 * PSTATE.BTYPE is left as the instruction leaves it: "call" after blr,
 * "jump or call" after br (see analyze.c), none after anything else.  A
 * hit reached by an indirect branch has the branch's BTYPE in the saved
 * PSTATE (a BRK is compatible with every BTYPE): kept, it would make the
 * instruction after a probed landing pad fault.
 */
#include <linux/ptrace.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/insn.h>

#include "internal.h"

/* Does condition @cond (of b.cond) hold for the flags in @pstate? */
static bool uprobe_arm64_cond_holds(u64 pstate, u8 cond)
{
	bool n = pstate & PSR_N_BIT, z = pstate & PSR_Z_BIT;
	bool c = pstate & PSR_C_BIT, v = pstate & PSR_V_BIT;
	bool holds;

	switch (cond >> 1) {
	case 0:				/* eq, ne */
		holds = z;
		break;
	case 1:				/* cs, cc */
		holds = c;
		break;
	case 2:				/* mi, pl */
		holds = n;
		break;
	case 3:				/* vs, vc */
		holds = v;
		break;
	case 4:				/* hi, ls */
		holds = c && !z;
		break;
	case 5:				/* ge, lt */
		holds = n == v;
		break;
	case 6:				/* gt, le */
		holds = !z && n == v;
		break;
	default:			/* al, nv: both always hold */
		return true;
	}
	return holds ^ (cond & 1);
}

/* Register @reg as a source: 31 is the zero register. */
static u64 uprobe_arm64_reg(struct pt_regs *regs, u8 reg)
{
	return reg == AARCH64_INSN_REG_ZR ? 0 : regs->regs[reg];
}

/* ldr, ldrsw (literal): one read of the literal's size at @addr. */
static int uprobe_arm64_load(struct arch_uprobe *au, struct pt_regs *regs,
			     unsigned long addr)
{
	u64 val;

	if (au->flags & UPROBE_ARM64_W) {
		u32 w;

		if (get_user(w, (u32 __user *)addr))
			return -EFAULT;
		val = au->flags & UPROBE_ARM64_SIGNED ? (u64)(s64)(s32)w : w;
	} else if (get_user(val, (u64 __user *)addr)) {
		return -EFAULT;
	}
	/* The analysis refused a load into the zero register. */
	regs->regs[au->reg] = val;
	return 0;
}

/* Register @reg as a base or an add's operand: 31 is sp. */
static u64 uprobe_arm64_reg_sp(struct pt_regs *regs, u8 reg)
{
	return reg == AARCH64_INSN_REG_SP ? regs->sp : regs->regs[reg];
}

/* Set register @reg (31: sp) to @val. */
static void uprobe_arm64_set_reg_sp(struct pt_regs *regs, u8 reg, u64 val)
{
	if (reg == AARCH64_INSN_REG_SP)
		regs->sp = val;
	else
		regs->regs[reg] = val;
}

/* stp: the pair to user memory, then the base written back. */
static int uprobe_arm64_store_pair(struct arch_uprobe *au,
				   struct pt_regs *regs)
{
	u64 base = uprobe_arm64_reg_sp(regs, au->cond);
	u64 a = uprobe_arm64_reg(regs, au->reg);
	u64 b = uprobe_arm64_reg(regs, au->reg2);
	unsigned long addr = base;
	unsigned long left;

	/* sp as a base must be aligned (SCTLR_EL1.SA0): the step faults */
	if (au->cond == AARCH64_INSN_REG_SP && !IS_ALIGNED(base, 16))
		return -EFAULT;
	if (!(au->flags & UPROBE_ARM64_POST))
		addr += au->offset;
	if (au->flags & UPROBE_ARM64_W) {
		u32 pair[2] = { a, b };

		left = copy_to_user((void __user *)addr, pair, sizeof(pair));
	} else {
		u64 pair[2] = { a, b };

		left = copy_to_user((void __user *)addr, pair, sizeof(pair));
	}
	if (left)
		return -EFAULT;
	if (au->flags & (UPROBE_ARM64_PRE | UPROBE_ARM64_POST))
		uprobe_arm64_set_reg_sp(regs, au->cond, base + au->offset);
	return 0;
}

/* Leave the BTYPE @btype (a PSTATE.BTYPE field value) in @regs. */
static void uprobe_arm64_set_btype(struct pt_regs *regs, u8 btype)
{
	regs->pstate &= ~PSR_BTYPE_MASK;
	if (system_supports_bti())
		regs->pstate |= (u64)btype << PSR_BTYPE_SHIFT;
}

/**
 * arch_uprobe_skip_sstep - execute the probed instruction in the kernel
 * @auprobe: the probed instruction
 * @regs: user registers, pc at the probed address
 *
 * Simulates nop, bti, prfm (literal), b, bl, b.cond, bc.cond, cbz, cbnz,
 * tbz, tbnz, br, blr, ret, adr, adrp, ldr and ldrsw (literal), add and sub
 * (immediate) and stp.  A user who single-steps gets the trap of a step
 * that ends after the instruction.
 *
 * Return: true if the instruction was executed and @regs updated, false
 * if it must be single-stepped out of line (not simulated, a literal the
 * kernel could not read or a pair it could not store).
 */
bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	unsigned long pc = instruction_pointer(regs);
	unsigned long target = pc + auprobe->offset;
	unsigned long next = pc + AARCH64_INSN_SIZE;
	u8 btype = PSR_BTYPE_NONE >> PSR_BTYPE_SHIFT;
	bool nz = auprobe->flags & UPROBE_ARM64_NZ;
	u64 val;

	switch (auprobe->sim) {
	case UPROBE_ARM64_NOP:
		break;
	case UPROBE_ARM64_B:
		next = target;
		break;
	case UPROBE_ARM64_BCOND:
		if (uprobe_arm64_cond_holds(regs->pstate, auprobe->cond))
			next = target;
		break;
	case UPROBE_ARM64_CBZ:
		val = uprobe_arm64_reg(regs, auprobe->reg);
		if (auprobe->flags & UPROBE_ARM64_W)
			val = (u32)val;
		if (!val != nz)
			next = target;
		break;
	case UPROBE_ARM64_TBZ:
		val = uprobe_arm64_reg(regs, auprobe->reg) >> auprobe->cond;
		if (!(val & 1) != nz)
			next = target;
		break;
	case UPROBE_ARM64_BR:
		/* Read before the link is written: blr x30. */
		next = uprobe_arm64_reg(regs, auprobe->reg);
		btype = auprobe->cond;
		break;
	case UPROBE_ARM64_ADR:
		if (auprobe->reg != AARCH64_INSN_REG_ZR)
			regs->regs[auprobe->reg] = target;
		break;
	case UPROBE_ARM64_ADRP:
		if (auprobe->reg != AARCH64_INSN_REG_ZR)
			regs->regs[auprobe->reg] = (pc & ~(SZ_4K - 1UL)) +
						   auprobe->offset;
		break;
	case UPROBE_ARM64_LDR:
		if (uprobe_arm64_load(auprobe, regs, target))
			return false;
		break;
	case UPROBE_ARM64_ADD:
		val = uprobe_arm64_reg_sp(regs, auprobe->cond) + auprobe->offset;
		if (auprobe->flags & UPROBE_ARM64_W)
			val = (u32)val;
		uprobe_arm64_set_reg_sp(regs, auprobe->reg, val);
		break;
	case UPROBE_ARM64_STP:
		if (uprobe_arm64_store_pair(auprobe, regs))
			return false;
		break;
	default:
		return false;
	}
	if (auprobe->flags & UPROBE_ARM64_LINK)
		regs->regs[30] = pc + AARCH64_INSN_SIZE;
	instruction_pointer_set(regs, next);
	uprobe_arm64_set_btype(regs, btype);
	uprobe_arm64_user_step_done();
	return true;
}

#ifdef CONFIG_UPROBES_ARM64_KUNIT_TEST
#include "tests/simulate-kunit.h"
#endif
