// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: return probes.
 *
 * At the entry of a function with a return probe the return address on
 * the stack is replaced by the address of a trampoline the core maps in
 * the XOL area.  32-bit tasks get an int3 there, which the core recognises.
 * 64-bit tasks get a few instructions that enter the kernel with the
 * uretprobe system call instead, which is cheaper than a trap (tramp.S).
 *
 * sys_uretprobe() takes the three registers back from the stack, so the
 * return handlers see the registers exactly as the function returned
 * them, lets the core run the handlers and set ip to the real return
 * address, and returns to it directly: the trampoline is never resumed.
 */
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/mmu_context.h>
#include <asm/shstk.h>

#include "internal.h"

/**
 * arch_uretprobe_hijack_return_addr - divert a return into the trampoline
 * @trampoline_vaddr: user address of the return trampoline
 * @regs: user registers at the function entry (return address at sp)
 *
 * Also updates the top of a shadow stack, when the task has one.
 *
 * Return: the original return address (the trampoline itself when the
 * return was already diverted), or -1 if the stack could not be updated.
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	unsigned long orig;

	/* One access of the slot's size each way: never half an address. */
	if (uprobe_x86_get_word(regs, regs->sp, &orig))
		return -1;
	if (orig == trampoline_vaddr)
		return orig;
	if (uprobe_x86_put_word(regs, regs->sp, trampoline_vaddr))
		return -1;
	if (shstk_update_last_frame(trampoline_vaddr)) {
		/* Shadow stack unchanged: put the return back, no probe. */
		if (uprobe_x86_put_word(regs, regs->sp, orig))
			force_sig(SIGSEGV);
		return -1;
	}
	return orig;
}

/**
 * arch_uretprobe_restore_return_addr - put a diverted return address back
 * @ri: a pending instance, not chained, of a function current is still in
 * @regs: a copy of current's user registers, changed
 *
 * The return address is where the function's entry found it, at sp.
 *
 * Return: true when the original is back.
 */
bool arch_uretprobe_restore_return_addr(struct return_instance *ri,
					struct pt_regs *regs)
{
	regs->sp = ri->stack;
	return arch_uretprobe_hijack_return_addr(ri->orig_ret_vaddr, regs) !=
	       -1UL;
}

/**
 * arch_uretprobe_is_alive - may a diverted frame still return?
 * @ret: the return instance, ->stack is sp at the function entry
 * @ctx: where we are: at a (chained) function entry, or returning
 * @regs: current user registers
 *
 * The stack grows down.  At a function entry the new return address is
 * at sp, so a frame whose return address slot is at or below sp has gone
 * (longjmp, exceptions); when returning, sp is past the slot just popped.
 *
 * Return: true if the frame of @ret is still on the stack.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	if (ctx == RP_CHECK_CALL)
		return regs->sp < ret->stack;
	return regs->sp <= ret->stack;
}

#ifdef CONFIG_X86_64
/**
 * sys_uretprobe - return probe hit, entered from the trampoline, or the
 * hit of a probed nop, entered from its stub (stub.c)
 *
 * Return: the probed function's return value (%rax), or the value %rax had
 * at the nop, possibly changed by a handler; the task gets SIGILL when not
 * called from the trampoline or a stub.
 */
SYSCALL_DEFINE0(uretprobe)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long vaddr, slot = uprobe_stub_lookup(regs->ip, &vaddr);

	if (!slot)
		goto sigill;
	if (vaddr) {
		if (!uprobe_x86_stub_syscall(regs, slot, vaddr))
			goto sigill;
		return regs->ax;
	}
	if (regs->ip != slot + (uprobe_x86_uret_tramp_ret - uprobe_x86_uret_tramp) ||
	    uprobe_x86_pop_saved(regs, regs->sp, 3))
		goto sigill;
	regs->sp += 3 * sizeof(unsigned long);
	/* regs is now the user's state at the return: no syscall restart. */
	regs->orig_ax = -1;

	uprobe_handle_trampoline(regs);
	/*
	 * Return to regs->ip, the real return address.  It differs from
	 * %rcx, so the exit path uses iret and restores every register.
	 */
	return regs->ax;

sigill:
	force_sig(SIGILL);
	return -1;
}
#endif

/**
 * arch_uprobe_trampoline - code for the return trampoline of current's mm
 * @psize: set to its size in bytes
 *
 * Return: the trampoline's bytes: the system call sequence for 64-bit
 * tasks, a lone int3 for 32-bit ones.
 */
void *arch_uprobe_trampoline(unsigned long *psize)
{
	static const uprobe_opcode_t int3 = UPROBE_SWBP_INSN;

#ifdef CONFIG_X86_64
	if (is_64bit_mm(current->mm)) {
		*psize = uprobe_x86_uret_tramp_end - uprobe_x86_uret_tramp;
		return (void *)uprobe_x86_uret_tramp;
	}
#endif
	*psize = UPROBE_SWBP_INSN_SIZE;
	return (void *)&int3;
}
