// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: single-stepping the copy of a probed instruction in the
 * thread's execute-out-of-line (XOL) slot.
 *
 * The core copies arch_uprobe::ixol into the slot and calls
 * arch_uprobe_pre_xol(); we point ip at the slot and set TF.  The #DB that
 * follows the instruction comes to uprobe_x86_sstep_trap() (or, with a data
 * breakpoint, through arch_uprobe_exception_notify()) and the core calls
 * arch_uprobe_post_xol(), which moves the results that depend on the
 * instruction's address back next to the original.
 *
 * TF belongs to the user as much as to us: a debugger may be single-
 * stepping the thread (TF already set) or the program itself may use it.
 * We remember whether TF was set before the step, take our own trap
 * silently, hand the user the trap a real single-step would have given,
 * and never leave our TF behind in the flags or in a pushf image.
 *
 * An x87 instruction records its own address as the FPU's last
 * instruction pointer (FIP), which fnstenv, fnsave, fxsave and xsave show
 * the program: after the step it is the slot's, and is moved back too
 * (x87.c).
 */
#include <linux/errno.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/debugreg.h>
#include <asm/processor.h>
#include <asm/shstk.h>
#include <asm/traps.h>

#include "internal.h"

/* thread.trap_nr while stepping: no exception has this vector */
#define UPROBE_X86_TRAP_NR	UINT_MAX

/**
 * arch_uprobe_pre_xol - prepare to single-step the copy in the XOL slot
 * @auprobe: the probed instruction
 * @regs: user registers, ip at the probed address
 *
 * Loads the scratch register of a rewritten rip-relative operand, moves ip
 * to current->utask->xol_vaddr and sets TF.  thread.trap_nr is poisoned
 * so that arch_uprobe_xol_was_trapped() can tell whether the copy faulted.
 *
 * Return: 0.
 */
int arch_uprobe_pre_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct arch_uprobe_task *at = &utask->autask;

	at->fixups = auprobe->fixups;
	at->user_tf = regs->flags & X86_EFLAGS_TF;
	at->saved_sp = regs->sp;
	if (auprobe->fixups & UPROBE_X86_FIX_RIPREL) {
		unsigned long *scratch = uprobe_x86_reg(regs, auprobe->reg);

		at->saved_scratch = *scratch;
		*scratch = utask->vaddr + auprobe->len;
	}
	at->saved_trap_nr = current->thread.trap_nr;
	current->thread.trap_nr = UPROBE_X86_TRAP_NR;

	regs->ip = utask->xol_vaddr;
	regs->flags |= X86_EFLAGS_TF;
	/* PTRACE_SINGLEBLOCK's BTF would turn our step into a branch step. */
	if (test_thread_flag(TIF_BLOCKSTEP))
		set_task_blockstep(current, false);
	return 0;
}

/* Give back what the step took: scratch register, trap_nr, our TF. */
static void uprobe_x86_xol_restore(struct arch_uprobe *auprobe,
				   struct pt_regs *regs, bool keep_tf)
{
	struct arch_uprobe_task *at = &current->utask->autask;

	if (auprobe->fixups & UPROBE_X86_FIX_RIPREL)
		*uprobe_x86_reg(regs, auprobe->reg) = at->saved_scratch;
	current->thread.trap_nr = at->saved_trap_nr;
	if (!at->user_tf && !keep_tf)
		regs->flags &= ~X86_EFLAGS_TF;
}

/*
 * Point the return address the stepped call pushed after the original,
 * on the stack and, when the task has one, on its shadow stack.
 */
static int uprobe_x86_fix_call(struct pt_regs *regs, unsigned long ret)
{
	if (copy_to_user((void __user *)regs->sp, &ret, uprobe_x86_word(regs)))
		return -EFAULT;
	if (shstk_update_last_frame(ret))
		return -EFAULT;
	return 0;
}

/* Clear our TF (bit 8, in the second byte) in the image pushf stored. */
static int uprobe_x86_fix_pushf(struct pt_regs *regs)
{
	u8 __user *hi = (u8 __user *)regs->sp + 1;
	u8 byte;

	if (get_user(byte, hi))
		return -EFAULT;
	byte &= ~(X86_EFLAGS_TF >> 8);
	return put_user(byte, hi);
}

/**
 * arch_uprobe_post_xol - finish a single-step of the copy
 * @auprobe: the probed instruction
 * @regs: user registers after the step
 *
 * Applies the fix-ups chosen by the analysis: ip back next to the original
 * instruction or to the branch target, the return address of a call, the
 * scratch register, the flags image of pushf.  Drops our TF, and if the
 * user had TF set delivers the SIGTRAP its single-step expects.
 *
 * Return: 0, or -EFAULT if the user's stack could not be fixed; then the
 * stack pointer is back at its value before the step and the core restarts
 * the probed instruction.
 */
int arch_uprobe_post_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct arch_uprobe_task *at = &utask->autask;
	unsigned long next = utask->vaddr + auprobe->len;
	u8 fix = auprobe->fixups;
	int err = 0;

	uprobe_x86_xol_restore(auprobe, regs, fix & UPROBE_X86_FIX_POPF);

	if (fix & UPROBE_X86_FIX_IP)
		regs->ip += utask->vaddr - utask->xol_vaddr;
	if (fix & UPROBE_X86_FIX_TARGET)
		regs->ip = uprobe_x86_ip(regs, next + auprobe->disp);
	if (fix & UPROBE_X86_FIX_CALL)
		err = uprobe_x86_fix_call(regs, uprobe_x86_ip(regs, next));
	if (!err && (fix & UPROBE_X86_FIX_PUSHF) && !at->user_tf)
		err = uprobe_x86_fix_pushf(regs);

	if (err) {
		regs->sp = at->saved_sp;
		regs->ip = utask->vaddr;
		return err;
	}
	if (fix & UPROBE_X86_FIX_FIP)
		uprobe_x86_x87_fix_fip(auprobe, regs, utask->xol_vaddr,
				       utask->vaddr);
	if (at->user_tf) {
		current->thread.virtual_dr6 |= DR_STEP;
		send_sigtrap(regs, 0, TRAP_TRACE);
	}
	return 0;
}

/**
 * arch_uprobe_xol_was_trapped - did the stepped copy raise an exception?
 * @tsk: the stepping task (current)
 *
 * Every exception handler records its vector in thread.trap_nr, which
 * arch_uprobe_pre_xol() set to a value no vector has.
 *
 * Return: true if the copy trapped, e.g. with a page fault turned signal.
 */
bool arch_uprobe_xol_was_trapped(struct task_struct *tsk)
{
	return tsk->thread.trap_nr != UPROBE_X86_TRAP_NR;
}

/**
 * arch_uprobe_abort_xol - abandon a single-step
 * @auprobe: the probed instruction
 * @regs: user registers
 *
 * The copy faulted (or the thread is dying): undo arch_uprobe_pre_xol() and
 * put ip back on the probed address, so that the signal reports it there
 * and a restart executes the original instruction through the probe again.
 * The faulting instruction did not complete, so sp and memory are intact;
 * a rep string instruction keeps its progress in cx/si/di and resumes.
 */
void arch_uprobe_abort_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	uprobe_x86_xol_restore(auprobe, regs, false);
	regs->ip = current->utask->vaddr;
}

/*
 * #DB in user mode.  Only a single-step trap of a thread that is stepping
 * an XOL copy is ours; hardware breakpoints and the user's own steps are
 * left to the normal path.
 */
static int uprobe_x86_debug(struct pt_regs *regs, unsigned long *dr6)
{
	struct uprobe_task *utask = current->utask;
	unsigned long other;

	if (!(*dr6 & DR_STEP) || !utask || utask->state != UTASK_SSTEP)
		return NOTIFY_DONE;

	/*
	 * With TF set a rep string instruction traps after each iteration,
	 * ip still on the instruction.  Let it run on in the slot rather than
	 * through the breakpoint (and the handlers) once per iteration.
	 */
	if (!((utask->autask.fixups & UPROBE_X86_FIX_REP) &&
	      regs->ip == utask->xol_vaddr) &&
	    !uprobe_post_sstep_notifier(regs))
		return NOTIFY_DONE;

	/* Our step is no step of the user's: do not report it as one. */
	*dr6 &= ~DR_STEP;
	current->thread.virtual_dr6 &= ~DR_STEP;
	/*
	 * A data breakpoint that fired on the copy (or on one iteration of
	 * a rep string instruction) still gets its SIGTRAP.
	 */
	other = (*dr6 | current->thread.virtual_dr6) & DR_TRAP_BITS;
	return other ? NOTIFY_DONE : NOTIFY_STOP;
}

/**
 * uprobe_x86_sstep_trap - #DB in user mode, before the die notifiers
 * @regs: the user registers
 * @dr6: the debug status of the trap
 *
 * The single-step trap that ends an out-of-line step is handled at once,
 * in process context, rather than flagged for the way back to user mode.
 * A trap that also reports a data breakpoint is left to the notifiers
 * (uprobe_x86_debug()). Called with interrupts disabled, which are
 * enabled to finish the step.
 *
 * Return: true when the trap was consumed.
 */
bool uprobe_x86_sstep_trap(struct pt_regs *regs, unsigned long dr6)
{
	struct uprobe_task *utask = current->utask;

	if ((dr6 & (DR_STEP | DR_TRAP_BITS)) != DR_STEP || !utask ||
	    utask->state != UTASK_SSTEP)
		return false;
	/* Our step is no step of the user's: do not report it as one. */
	current->thread.virtual_dr6 &= ~DR_STEP;
	/* Another iteration of a rep string instruction: it runs on. */
	if ((utask->autask.fixups & UPROBE_X86_FIX_REP) &&
	    regs->ip == utask->xol_vaddr)
		return true;
	local_irq_enable();
	uprobe_sstep_trap(regs);
	local_irq_disable();
	return true;
}

/**
 * arch_uprobe_exception_notify - die notifier for uprobes traps
 * @self: the notifier block
 * @val: DIE_* event
 * @data: &struct die_args of the trap
 *
 * #DB in user mode may be the end of an out-of-line single-step that also
 * reports a data breakpoint. int3 in user mode is not looked at here:
 * do_int3_user() gave it to the core already (uprobe_breakpoint_trap()),
 * and what the core left is reported as without uprobes.
 *
 * Return: NOTIFY_STOP when the trap was consumed, NOTIFY_DONE otherwise.
 */
int arch_uprobe_exception_notify(struct notifier_block *self,
				 unsigned long val, void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;

	if (val != DIE_DEBUG || !regs || !user_mode(regs))
		return NOTIFY_DONE;
	return uprobe_x86_debug(regs, (unsigned long *)args->err);
}
