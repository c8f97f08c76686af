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
 * placed after the signing finds x30 signed, with bits above the user
 * address range set: that return is not diverted.
 */
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uprobes.h>

#include <asm/processor.h>

/**
 * arch_uretprobe_hijack_return_addr - divert a return into the trampoline
 * @trampoline_vaddr: user address of the return trampoline
 * @regs: user registers at the function entry (return address in x30)
 *
 * Return: the original return address (the trampoline itself when the
 * return was already diverted), or -1 when x30 holds no plain user
 * address (a signed one).
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	unsigned long orig = procedure_link_pointer(regs);

	if (orig >= TASK_SIZE)
		return -1;
	procedure_link_pointer_set(regs, trampoline_vaddr);
	if (current->utask)
		current->utask->autask.diverted = orig;
	return orig;
}

/*
 * Was the call that entered the frame of @ret made again, with the return
 * address @ra?  @ret and the instances under it entered at the same sp
 * (callers without a frame of their own, under their callees) were
 * called from the sites their return addresses follow: a call from one
 * of those sites, at that sp, is made by the frame that made that call
 * before, which has therefore ended it and every frame entered since.
 */
static bool uprobe_arm64_called_again(const struct return_instance *ret,
				      unsigned long ra)
{
	unsigned long sp = ret->stack;

	for (; ret && ret->stack == sp; ret = ret->next)
		if (ret->orig_ret_vaddr == ra)
			return true;
	return false;
}

/*
 * Is the frame of @ret still on the stack, sp being @sp, @ra the return
 * address a new entry diverted and @top the most recent return instance?
 * The stack grows down, and a call does not move sp: a function is
 * entered, and returns, with its caller's sp.
 *
 * At a new function entry a frame entered below sp has gone (longjmp,
 * exceptions); one entered at sp is either a caller that calls without a
 * stack frame of its own (f: mov x9, x30; bl g; mov x30, x9; ret: g is
 * entered with f's sp) or a frame left by longjmp back into the frame
 * that now makes this call.  A frame's return address tells them apart:
 * the longjmp case calls from the site it called the left frame from
 * (a loop calling the same function), or from another one, and then the
 * frame left stays until a return or an entry higher up ends it; a
 * caller without a frame calls from its own code.  At a tail call (a
 * chained entry) sp is that of the frame that enters, and a frame
 * entered at sp is still there.
 *
 * At a return through the trampoline sp is back at the returning
 * function's entry sp.  A frame entered higher is live (a caller), one
 * entered lower has gone.  A frame entered at sp itself is either the one
 * returning, the frames above it having been left by longjmp (their
 * instances, on top, were entered lower), or a caller that made its call
 * without a stack frame of its own, under the returning frame at the top,
 * entered at the same sp.  Taking the first for the second would run the
 * handlers of the frames longjmp left and send the program to a return
 * address of theirs; the second for the first, the caller's.
 */
static bool uprobe_arm64_ret_alive(const struct return_instance *ret,
				   enum rp_check ctx, unsigned long sp,
				   unsigned long ra,
				   const struct return_instance *top)
{
	switch (ctx) {
	case RP_CHECK_CALL:
		if (sp != ret->stack)
			return sp < ret->stack;
		return !uprobe_arm64_called_again(ret, ra);
	case RP_CHECK_CHAIN_CALL:
		return sp <= ret->stack;
	default:
		break;
	}
	if (sp != ret->stack)
		return sp < ret->stack;
	return top && top != ret && top->stack == sp;
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

	if (!utask)
		return uprobe_arm64_ret_alive(ret, ctx, user_stack_pointer(regs),
					      0, NULL);
	return uprobe_arm64_ret_alive(ret, ctx, user_stack_pointer(regs),
				      utask->autask.diverted,
				      utask->return_instances);
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
