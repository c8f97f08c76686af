// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: the exceptions that reach the engine.
 *
 * debug-monitors.c calls uprobe_brk_handler() for every BRK in user mode,
 * and uprobe_single_step_handler() for every software step exception in
 * user mode, in process context, interrupts enabled.  A hit or the end of
 * a step is handled there and then, not on the way back to user mode;
 * what is not ours gets the SIGTRAP it would get without uprobes
 * (DBG_HOOK_ERROR).
 *
 * A BRK exception leaves pc on the BRK, not after it: that is the
 * breakpoint's address.  Ours is a BRK with the uprobes immediate; any
 * other BRK (a debugger's is brk #0) is reported as without uprobes, and
 * one a debugger wrote over a probe (debugger.c) runs the probe's
 * handlers first.
 */
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uprobes.h>

#include <asm/debug-monitors.h>
#include <asm/insn.h>

/**
 * is_trap_insn - does this instruction trap like a breakpoint?
 * @insn: the instruction, as in memory
 *
 * Return: true for every BRK, whatever its immediate.
 */
bool is_trap_insn(uprobe_opcode_t *insn)
{
	return aarch64_insn_is_brk(le32_to_cpu(*insn));
}

/**
 * uprobe_get_swbp_addr - address of the breakpoint that just trapped
 * @regs: the user registers after the BRK exception
 *
 * Return: pc, which the BRK exception leaves on the BRK.
 */
unsigned long uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

/**
 * uprobe_brk_handler - a BRK in user mode
 * @regs: the user registers, pc on the BRK
 * @esr: the exception's syndrome
 *
 * Return: DBG_HOOK_HANDLED when the core took care of it (a probe's hit,
 * the return trampoline), DBG_HOOK_ERROR to have it
 * reported as a breakpoint: a BRK of the program's own, or a debugger's
 * over a probe.
 */
int uprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	/*
	 * A hardware breakpoint on this address fired first, and the
	 * kernel single-steps to get past it: the BRK was that step.
	 * Ended here, it leaves the software step to the debugger alone.
	 */
	preempt_disable();
	try_step_suspended_breakpoints(regs);
	preempt_enable();
	if (!uprobe_breakpoint_trap(regs))
		return DBG_HOOK_ERROR;
	return DBG_HOOK_HANDLED;
}

/**
 * uprobe_single_step_handler - a software step exception in user mode
 * @regs: the user registers, pc after the stepped instruction
 * @esr: the exception's syndrome
 *
 * The step of the copy in an XOL slot is over: the core finishes it.
 * Any other step is the debugger's, also the stop that
 * arch_uprobe_post_xol() and arch_uprobe_skip_sstep() leave pending for it.
 *
 * Return: DBG_HOOK_HANDLED for our step, DBG_HOOK_ERROR for the others.
 */
int uprobe_single_step_handler(struct pt_regs *regs, unsigned long esr)
{
	struct uprobe_task *utask = current->utask;

	if (!utask || utask->state != UTASK_SSTEP)
		return DBG_HOOK_ERROR;
	uprobe_sstep_trap(regs);
	return DBG_HOOK_HANDLED;
}

/**
 * arch_uprobe_exception_notify - die notifier for uprobes traps
 * @self: the notifier block
 * @val: DIE_* event
 * @data: &struct die_args of the trap
 *
 * arm64 raises no die notification for user-mode BRK or step exceptions:
 * they come to the handlers above.
 *
 * Return: NOTIFY_DONE.
 */
int arch_uprobe_exception_notify(struct notifier_block *self,
				 unsigned long val, void *data)
{
	return NOTIFY_DONE;
}
