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
	return orig;
}

/**
 * arch_uretprobe_is_alive - may a diverted frame still return?
 * @ret: the return instance, ->stack is sp at the function entry
 * @ctx: where we are: at a (chained) function entry, or returning
 * @regs: current user registers
 *
 * The stack grows down, and a call does not move sp: a function is
 * entered, and returns, with its caller's sp.  At a new function entry a
 * frame entered at or below sp has gone (longjmp, exceptions); at a tail
 * call (chained entry) or at a return through the trampoline, sp is that
 * of the frame that enters or returns, and a frame entered at sp is still
 * there.
 *
 * Return: true if the frame of @ret is still on the stack.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	if (ctx == RP_CHECK_CALL)
		return user_stack_pointer(regs) < ret->stack;
	return user_stack_pointer(regs) <= ret->stack;
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
