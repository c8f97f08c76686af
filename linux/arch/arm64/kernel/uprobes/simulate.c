// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: simulation of the probed instruction, and of the
 * instructions that read pc.
 *
 * arch_uprobe_skip_sstep() executes what the analysis marked as simulated
 * on the user registers at the breakpoint hit: one trap, no single-step.
 * Branches, adr/adrp and literal loads are done here, so that no copy of
 * them ever runs at an address that is not its own; nop, bti and prfm
 * only move pc on.  A literal the kernel cannot read is loaded by stepping
 * a rewritten copy instead (xol.c), which faults with the signal the
 * original would have raised.  Data processing (dataproc.c) and loads and
 * stores (ldst.c), what functions start with, are simulated to spare
 * their hits the single-step; an access the kernel cannot make is stepped
 * the same way.
 *
 * PSTATE.BTYPE is left as the instruction leaves it: "call" after blr,
 * after br "jump" from a guarded page (but through x16 and x17) and "jump
 * or call" from another, none after anything else.  A hit reached by an
 * indirect branch has the branch's BTYPE in the saved PSTATE (a BRK is
 * compatible with every BTYPE): in a guarded page the probed instruction
 * must accept the branch, or the program gets the SIGILL it would get,
 * before anything is simulated or stepped; kept, the BTYPE would make
 * the instruction after a probed landing pad fault.
 */
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/insn.h>
#include <asm/memory.h>
#include <asm/traps.h>

#include "internal.h"

/* paciasp, pacibsp: landing pads like bti c */
#define UPROBE_ARM64_PACIASP	0xd503233f
#define UPROBE_ARM64_PACIBSP	0xd503237f
/* the targets of a bti (bits 7:6): calls, jumps */
#define UPROBE_ARM64_BTI_C	0x1
#define UPROBE_ARM64_BTI_J	0x2

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

/* Is @pc in a guarded page (mapped with PROT_BTI)? */
static bool uprobe_arm64_guarded(unsigned long pc)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	bool guarded;

	if (!system_supports_bti() || !mm)
		return false;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, pc);
	guarded = vma && (vma->vm_flags & VM_ARM64_BTI);
	mmap_read_unlock(mm);
	return guarded;
}

/*
 * Does @insn accept an indirect branch of type @btype (not 0) in a
 * guarded page?  bti c takes calls (10) and br x16/x17 or from an
 * unguarded page (01), bti j jumps (11) and 01, bti jc all; paciasp and
 * pacibsp are bti c (the kernel sets SCTLR_EL1.BT0).  Nothing else.
 */
static bool uprobe_arm64_lands(u32 insn, u8 btype)
{
	u8 targets;

	if (aarch64_insn_is_bti(insn))
		targets = (insn >> 6) & 0x3;
	else if (insn == UPROBE_ARM64_PACIASP || insn == UPROBE_ARM64_PACIBSP)
		targets = UPROBE_ARM64_BTI_C;
	else
		return false;
	switch (btype) {
	case PSR_BTYPE_JC >> PSR_BTYPE_SHIFT:
		return targets;
	case PSR_BTYPE_C >> PSR_BTYPE_SHIFT:
		return targets & UPROBE_ARM64_BTI_C;
	default:
		return targets & UPROBE_ARM64_BTI_J;
	}
}

/*
 * The hit was reached by an indirect branch (PSTATE.BTYPE is its type,
 * which our breakpoint accepts, as every BRK does): in a guarded page the
 * probed instruction must accept it, or the program gets the SIGILL of
 * a branch target exception there, as unprobed (do_el0_bti()).  The
 * instruction is not executed.  Steps included: a copy in the XOL page,
 * which is not guarded, would not check.
 */
static bool uprobe_arm64_bti_fault(const struct arch_uprobe *au,
				   struct pt_regs *regs)
{
	u8 btype = (regs->pstate & PSR_BTYPE_MASK) >> PSR_BTYPE_SHIFT;

	if (likely(!btype) ||
	    uprobe_arm64_lands(le32_to_cpup((__le32 *)au->insn), btype) ||
	    !uprobe_arm64_guarded(instruction_pointer(regs)))
		return false;
	force_signal_inject(SIGILL, ILL_ILLOPC, instruction_pointer(regs), 0);
	return true;
}

/*
 * The BTYPE of br Xn: a jump (11) from a guarded page, but for x16 and
 * x17, which a veneer or PLT jumps through to a bti c; from an unguarded
 * page "jump or call" (01).
 */
static u8 uprobe_arm64_br_btype(const struct arch_uprobe *au,
				unsigned long pc)
{
	if (au->reg == 16 || au->reg == 17 || !uprobe_arm64_guarded(pc))
		return PSR_BTYPE_JC >> PSR_BTYPE_SHIFT;
	return PSR_BTYPE_J >> PSR_BTYPE_SHIFT;
}

/* Leave the BTYPE @btype (a PSTATE.BTYPE field value) in @regs. */
static void uprobe_arm64_set_btype(struct pt_regs *regs, u8 btype)
{
	regs->pstate &= ~PSR_BTYPE_MASK;
	if (system_supports_bti())
		regs->pstate |= (u64)btype << PSR_BTYPE_SHIFT;
}

/**
 * arch_uprobe_redirected - a handler moved pc: the probed instruction is
 *	not executed
 * @regs: user registers, pc where the handler put it
 *
 * The thread resumes there as after a direct branch: with no BTYPE, the
 * one of the branch that reached the probe would fault on an instruction
 * that is not a landing pad in a guarded page.
 */
void arch_uprobe_redirected(struct pt_regs *regs)
{
	uprobe_arm64_set_btype(regs, PSR_BTYPE_NONE >> PSR_BTYPE_SHIFT);
}

/**
 * arch_uprobe_skip_sstep - execute the probed instruction in the kernel
 * @auprobe: the probed instruction
 * @regs: user registers, pc at the probed address
 *
 * Simulates nop, bti, prfm, b, bl, b.cond, bc.cond, cbz, cbnz, tbz, tbnz,
 * br, blr, ret, adr, adrp, ldr and ldrsw (literal), add/sub (immediate and
 * shifted register, cmp and cmn), logic (shifted register: mov, tst),
 * movz/movn/movk, ldr/str (immediate) and stp.  A user who single-steps
 * gets the trap of a step that ends after the instruction.
 *
 * Return: true if the instruction was executed and @regs updated, false
 * if it must be single-stepped out of line (not simulated, or an access
 * the kernel could not make).
 */
bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	unsigned long pc = instruction_pointer(regs);
	unsigned long target = pc + auprobe->offset;
	unsigned long next = pc + AARCH64_INSN_SIZE;
	u8 btype = PSR_BTYPE_NONE >> PSR_BTYPE_SHIFT;
	bool nz = auprobe->flags & UPROBE_ARM64_NZ;
	u64 val;

	if (uprobe_arm64_bti_fault(auprobe, regs))
		return true;
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
		/*
		 * Read before the link is written: blr x30.  The tag of a
		 * tagged address is not in pc: the top byte of a branch
		 * target is ignored (TBI), the CPU's pc gets bit 55 there.
		 */
		next = __untagged_addr(uprobe_arm64_reg(regs, auprobe->reg));
		btype = auprobe->cond;
		if (btype == PSR_BTYPE_JC >> PSR_BTYPE_SHIFT &&
		    system_supports_bti())
			btype = uprobe_arm64_br_btype(auprobe, pc);
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
		if (!uprobe_arm64_access_ok() ||
		    uprobe_arm64_load(auprobe, regs, target))
			return false;
		break;
	case UPROBE_ARM64_ADD_IMM:
	case UPROBE_ARM64_ADD_REG:
	case UPROBE_ARM64_LOGIC_REG:
	case UPROBE_ARM64_MOVW:
		uprobe_arm64_simulate_dp(auprobe, regs);
		break;
	case UPROBE_ARM64_STP:
	case UPROBE_ARM64_LDST:
		if (!uprobe_arm64_simulate_ldst(auprobe, regs))
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
