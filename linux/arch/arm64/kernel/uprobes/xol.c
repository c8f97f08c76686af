// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: single-stepping the copy of a probed instruction in the
 * thread's execute-out-of-line (XOL) slot.
 *
 * The core copies arch_uprobe::ixol into the slot (arch_uprobe_copy_ixol()
 * makes it visible to instruction fetches) and calls arch_uprobe_pre_xol();
 * we point pc at the slot and arm the software step.  The single-step
 * exception that follows the instruction comes to
 * uprobe_single_step_handler() (traps.c), and the core calls
 * arch_uprobe_post_xol(), which moves pc back next to the original.  Only
 * instructions that do not read pc are stepped (analyze.c), so nothing
 * else needs moving.
 *
 * The software step belongs to ptrace as much as to us: a debugger may be
 * single-stepping the thread (TIF_SINGLESTEP already set).  We remember
 * it, leave its flag in place, and hand it the stop a real step of the
 * original instruction would have given.
 *
 * Whether the copy faulted is told by thread.fault_code, which every
 * user fault and undefined-instruction path records (the ESR, or 0) and
 * which is set to a value no ESR has for the duration of the step; a
 * watchpoint or floating-point trap of the copy is recorded there too.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/uprobes.h>

#include <asm/cacheflush.h>
#include <asm/debug-monitors.h>

#include "internal.h"

/* thread.fault_code while stepping: ESR bits 63:56 are RES0 */
#define UPROBE_ARM64_FAULT_CODE		(~0UL)

/**
 * arch_uprobe_pre_xol - prepare to single-step the copy in the XOL slot
 * @auprobe: the probed instruction
 * @regs: user registers, pc at the probed address
 *
 * Loads the base register of a rewritten literal load with the literal's
 * address, moves pc to current->utask->xol_vaddr and arms the software
 * step.  thread.fault_code is poisoned so that
 * arch_uprobe_xol_was_trapped() can tell whether the copy faulted.
 *
 * Return: 0.
 */
int arch_uprobe_pre_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct arch_uprobe_task *at = &utask->autask;

	at->saved_fault_code = current->thread.fault_code;
	current->thread.fault_code = UPROBE_ARM64_FAULT_CODE;
	at->quiet_trap = false;
	if (auprobe->sim == UPROBE_ARM64_LDR) {
		at->saved_reg = regs->regs[auprobe->reg];
		regs->regs[auprobe->reg] = utask->vaddr + auprobe->offset;
	}
	at->user_step = test_thread_flag(TIF_SINGLESTEP);
	instruction_pointer_set(regs, utask->xol_vaddr);
	/*
	 * Ours, or the debugger's already: either way the step must run one
	 * instruction (active-not-pending), whatever the BRK left in SPSR.SS.
	 */
	user_enable_single_step(current);
	user_rewind_single_step(current);
	return 0;
}

/* The step is over: the debugger's software step stays, ours goes. */
static void uprobe_arm64_step_off(struct arch_uprobe_task *at)
{
	if (!at->user_step)
		user_disable_single_step(current);
}

/**
 * arch_uprobe_post_xol - finish a single-step of the copy
 * @auprobe: the probed instruction
 * @regs: user registers after the step
 *
 * Moves pc from the slot back next to the original instruction and gives
 * the software step back; a debugger that single-steps the thread gets
 * its stop right after the instruction.
 *
 * Return: 0.
 */
int arch_uprobe_post_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct arch_uprobe_task *at = &utask->autask;

	current->thread.fault_code = at->saved_fault_code;
	instruction_pointer_set(regs, instruction_pointer(regs) +
				utask->vaddr - utask->xol_vaddr);
	uprobe_arm64_step_off(at);
	uprobe_arm64_user_step_done();
	return 0;
}

/**
 * arch_uprobe_xol_was_trapped - did the stepped copy raise an exception?
 * @tsk: the stepping task (current)
 *
 * Return: true if the copy faulted (a fault or undefined instruction
 * recorded its ESR in thread.fault_code), e.g. with a signal pending.
 */
bool arch_uprobe_xol_was_trapped(struct task_struct *tsk)
{
	return tsk->thread.fault_code != UPROBE_ARM64_FAULT_CODE;
}

/**
 * arch_uprobe_abort_xol - abandon a single-step
 * @auprobe: the probed instruction
 * @regs: user registers
 *
 * The copy faulted (or the thread is dying): undo arch_uprobe_pre_xol()
 * and put pc back on the probed address, so that the signal reports it
 * there and a restart executes the original instruction through the
 * probe again.  The fault's ESR stays in thread.fault_code, for the
 * signal frame.
 */
void arch_uprobe_abort_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct arch_uprobe_task *at = &utask->autask;

	/* A trap that records no ESR of its own (see below) leaves none. */
	if (!arch_uprobe_xol_was_trapped(current) || at->quiet_trap)
		current->thread.fault_code = at->saved_fault_code;
	at->quiet_trap = false;
	if (auprobe->sim == UPROBE_ARM64_LDR)
		regs->regs[auprobe->reg] = at->saved_reg;
	instruction_pointer_set(regs, utask->vaddr);
	uprobe_arm64_step_off(at);
}

/**
 * uprobe_arm64_copy_trapped - a user exception that records no fault
 * @regs: the user registers, pc on the instruction that trapped
 * @esr: the exception's syndrome
 *
 * A watchpoint (taken before the access, then the debugger's SIGTRAP)
 * and a trapped floating-point exception (SIGFPE) do not record their
 * ESR in thread.fault_code.  Raised by a copy stepped in the XOL slot,
 * their signal, held for the end of the step, would wait for ever: the
 * copy traps again each time it is resumed.  They are told as the
 * copy's trap: the step ends, the thread goes back to the probed
 * instruction, and the signal is delivered there, as it would be
 * unprobed.
 */
void uprobe_arm64_copy_trapped(struct pt_regs *regs, unsigned long esr)
{
	struct uprobe_task *utask = current->utask;

	if (utask && utask->state == UTASK_SSTEP &&
	    instruction_pointer(regs) == utask->xol_vaddr) {
		current->thread.fault_code = esr;
		utask->autask.quiet_trap = true;
	}
}

/**
 * arch_uprobe_copy_ixol - write an instruction into the XOL page
 * @page: the XOL page
 * @vaddr: user address of the slot (or its offset in the page)
 * @src: the instruction
 * @len: its length
 *
 * The page is written through the kernel's mapping and executed through
 * the user's: the data cache is cleaned and the instruction cache
 * invalidated to the point of unification, for every alias of the page.
 * The stepping thread's return to user mode synchronises its context.
 */
void arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
			   void *src, unsigned long len)
{
	void *kaddr = kmap_local_page(page) + offset_in_page(vaddr);

	memcpy(kaddr, src, len);
	sync_icache_aliases((unsigned long)kaddr, (unsigned long)kaddr + len);
	kunmap_local(kaddr);
}

#ifdef CONFIG_UPROBES_ARM64_KUNIT_TEST
#include "tests/xol-kunit.h"
#endif
