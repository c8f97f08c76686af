// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: return probes.
 *
 * At the entry of a function with a return probe its return address is
 * in the link register, x30: it is replaced by the address of the
 * trampoline the core maps in the XOL area, a BRK with the uprobes
 * immediate (the core's default trampoline).  The function saves and
 * restores x30 as it would its own return address, and its ret goes to
 * the trampoline, whose hit the core recognises by its address: it sets
 * pc, and x30 if the ret went through it, to the real return address and
 * runs the return handlers.
 *
 * A function that signs its return address (paciasp) does so after the
 * entry, so it signs and authenticates the trampoline's address.  A probe
 * placed after the signing finds x30 signed, and must leave it alone: the
 * function would authenticate the trampoline's address with a code made
 * for another, and fail.  A signed pointer cannot be told by its value
 * (its authentication code may be 0), so where the thread's instruction
 * keys are on the code tells: x30 is diverted at an instruction that
 * signs it or marks a function's entry, and elsewhere only when no
 * instruction that signs it precedes the probe in its function.
 */
#include <linux/align.h>
#include <linux/bits.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/insn.h>
#include <asm/processor.h>
#include <asm/sysreg.h>

/*
 * Instructions that sign x30: paciaz, paciasp, pacibz, pacibsp (hints
 * 24 to 27); pacia, pacib x30, Xn; paciza, pacizb x30; and FEAT_PAuth_LR's
 * paciasppc, pacibsppc, pacnbiasppc, pacnbibsppc (bit 10: key B).
 */
#define UPROBE_ARM64_PACI_HINT_MASK	0xffffff9f
#define UPROBE_ARM64_PACI_HINT		0xd503231f
#define UPROBE_ARM64_PACI_LR_MASK	0xfffff81f
#define UPROBE_ARM64_PACI_LR		0xdac1001e
#define UPROBE_ARM64_KEYB_MASK		0xfffffbff
#define UPROBE_ARM64_PACIZ_LR		0xdac123fe
#define UPROBE_ARM64_PACSPPC		0xdac1a3fe
#define UPROBE_ARM64_PACNBSPPC		0xdac183fe
/* autiaz, autiasp, autibz, autibsp (hints 28 to 31) */
#define UPROBE_ARM64_AUTI_HINT_MASK	0xffffff9f
#define UPROBE_ARM64_AUTI_HINT		0xd503239f
/* bti c, bti jc: where a function is called */
#define UPROBE_ARM64_BTI_C_MASK		0xffffff7f
#define UPROBE_ARM64_BTI_C		0xd503245f

/* Instructions looked at before the probe, at most. */
#define UPROBE_ARM64_LR_SCAN		64

static bool uprobe_arm64_signs_lr(u32 insn)
{
	u32 keya = insn & UPROBE_ARM64_KEYB_MASK;

	return (insn & UPROBE_ARM64_PACI_HINT_MASK) == UPROBE_ARM64_PACI_HINT ||
	       (insn & UPROBE_ARM64_PACI_LR_MASK) == UPROBE_ARM64_PACI_LR ||
	       keya == UPROBE_ARM64_PACIZ_LR || keya == UPROBE_ARM64_PACSPPC ||
	       keya == UPROBE_ARM64_PACNBSPPC;
}

/* A function's first instruction (bti c, bti jc), or x30 signed next. */
static bool uprobe_arm64_lr_entry(u32 insn)
{
	return (insn & UPROBE_ARM64_BTI_C_MASK) == UPROBE_ARM64_BTI_C ||
	       uprobe_arm64_signs_lr(insn);
}

/*
 * Going back from the probe: the end of the code before this function
 * (a return, an unconditional branch, padding), its entry, or x30
 * authenticated: x30 is plain from there on.
 */
static bool uprobe_arm64_lr_plain_after(u32 insn)
{
	return aarch64_insn_is_ret(insn) || aarch64_insn_is_ret_auth(insn) ||
	       aarch64_insn_is_b(insn) || aarch64_insn_is_br(insn) ||
	       aarch64_insn_is_br_auth(insn) || !insn ||
	       (insn & UPROBE_ARM64_AUTI_HINT_MASK) == UPROBE_ARM64_AUTI_HINT ||
	       (insn & UPROBE_ARM64_BTI_C_MASK) == UPROBE_ARM64_BTI_C;
}

/*
 * May the function have signed x30 before the probe at @pc, @probed the
 * instruction there?  The code from @pc back to where x30 is plain is
 * read: an instruction that signs it there says yes.  So does what
 * cannot be read through (a breakpoint hides an instruction), and code
 * longer than the scan: no answer is no diversion.  The end of the
 * mapping ends the code.
 */
static bool uprobe_arm64_lr_signed(unsigned long pc, u32 probed)
{
	__le32 buf[16];
	unsigned long end = pc, start;
	int n = 0, i;
	u32 insn;

	if (uprobe_arm64_lr_entry(probed))
		return false;
	if ((probed & UPROBE_ARM64_AUTI_HINT_MASK) == UPROBE_ARM64_AUTI_HINT)
		return true;
	/* Aligned pieces: none reaches out of the mapping's first page. */
	while (n < UPROBE_ARM64_LR_SCAN) {
		if (!end)
			return false;
		start = ALIGN_DOWN(end - 1, sizeof(buf));
		if (copy_from_user(buf, (void __user *)start, end - start))
			return false;
		for (i = (end - start) / sizeof(buf[0]) - 1; i >= 0; i--, n++) {
			insn = le32_to_cpu(buf[i]);
			if (uprobe_arm64_signs_lr(insn) ||
			    aarch64_insn_is_brk(insn))
				return true;
			if (uprobe_arm64_lr_plain_after(insn))
				return false;
		}
		end = start;
	}
	return true;
}

/* Does the thread sign with an instruction key (or are those nops)? */
static bool uprobe_arm64_insn_keys(void)
{
	return system_supports_address_auth() &&
	       (current->thread.sctlr_user & (SCTLR_ELx_ENIA | SCTLR_ELx_ENIB));
}

/**
 * arch_uretprobe_hijack_return_addr - divert a return into the trampoline
 * @trampoline_vaddr: user address of the return trampoline
 * @regs: user registers at the function entry (return address in x30)
 *
 * Return: the original return address (the trampoline itself when the
 * return was already diverted), or -1 when x30 holds no plain user
 * address, or may be signed: the function will authenticate it.
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	unsigned long orig = procedure_link_pointer(regs);
	struct arch_uprobe *au = uprobe_current_auprobe();

	if (orig >= TASK_SIZE)
		return -1;
	if (orig != trampoline_vaddr && uprobe_arm64_insn_keys() &&
	    (!au || uprobe_arm64_lr_signed(instruction_pointer(regs),
					   le32_to_cpup((__le32 *)au->insn))))
		return -1;
	procedure_link_pointer_set(regs, trampoline_vaddr);
	if (current->utask)
		current->utask->autask.diverted = orig;
	return orig;
}

/**
 * arch_uretprobe_is_alive - may a diverted frame still return?
 * @ret: the return instance, ->stack is sp at the function entry
 * @ctx: where we are: at a (chained) function entry, or returning
 * @regs: current user registers
 *
 * Return: true if the frame of @ret is still on the stack.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	return uprobe_lr_ret_alive(ret, ctx, user_stack_pointer(regs),
				   utask ? utask->autask.diverted : 0);
}

/**
 * arch_uretprobe_set_return - send a thread at the trampoline to its caller
 * @regs: the user registers, pc on the trampoline
 * @orig_ret_vaddr: the return address the probe diverted
 *
 * A ret to the trampoline through x30 left the trampoline's address
 * there, where the program, unprobed, would have its return address:
 * the return handlers, and the program after them, see that one.
 */
void arch_uretprobe_set_return(struct pt_regs *regs,
			       unsigned long orig_ret_vaddr)
{
	if (procedure_link_pointer(regs) == instruction_pointer(regs))
		procedure_link_pointer_set(regs, orig_ret_vaddr);
	instruction_pointer_set(regs, orig_ret_vaddr);
}

#ifdef CONFIG_UPROBES_ARM64_KUNIT_TEST
#include "tests/retprobe-kunit.h"
#endif
