// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: the architecture hooks' defaults.
 *
 * An architecture part (arch/x86/kernel/uprobes/, arch/arm64/kernel/uprobes/,
 * or a stock one through legacy_arch.c) overrides what it supports; these
 * defaults describe a machine without it: a breakpoint instruction of
 * UPROBE_SWBP_INSN reported after it, every hit single-stepped out of line,
 * no boosted slots, no jumps to stubs, return addresses on the stack.
 */
#include <linux/highmem.h>
#include <linux/ptrace.h>
#include <linux/uprobes.h>

#include "internal.h"

/**
 * is_swbp_insn() - is this the breakpoint instruction uprobes inserts?
 * @insn: the opcode
 *
 * Return: true for UPROBE_SWBP_INSN.
 */
bool __weak is_swbp_insn(uprobe_opcode_t *insn)
{
	return *insn == UPROBE_SWBP_INSN;
}

/**
 * is_trap_insn() - does this instruction trap like a breakpoint?
 * @insn: the opcode
 *
 * Return: true when executing @insn raises the breakpoint exception.
 */
bool __weak is_trap_insn(uprobe_opcode_t *insn)
{
	return is_swbp_insn(insn);
}

/**
 * uprobe_get_swbp_addr() - address of the breakpoint that just trapped
 * @regs: the user registers after the trap
 *
 * Return: the breakpoint's address.
 */
unsigned long __weak uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs) - UPROBE_SWBP_INSN_SIZE;
}

/**
 * arch_uprobe_ignore() - should this hit be ignored?
 * @aup: the probe
 * @regs: the user registers
 *
 * Return: false; architectures with conditional instructions override it.
 */
bool __weak arch_uprobe_ignore(struct arch_uprobe *aup, struct pt_regs *regs)
{
	return false;
}

/**
 * arch_uprobe_hit_is_64bit() - does the thread run 64-bit code?
 * @regs: the user registers at a breakpoint hit
 *
 * Architectures that run 32-bit code in 64-bit processes override this.
 *
 * Return: true when the instruction at the hit is decoded as 64-bit code.
 */
bool __weak arch_uprobe_hit_is_64bit(struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_64BIT);
}

/**
 * arch_uprobe_trampoline() - code a return probe returns through
 * @psize: set to its size
 *
 * The default is a breakpoint the core recognises by its address.
 *
 * Return: the code.
 */
void * __weak arch_uprobe_trampoline(unsigned long *psize)
{
	static uprobe_opcode_t insn = UPROBE_SWBP_INSN;

	*psize = UPROBE_SWBP_INSN_SIZE;
	return &insn;
}

/**
 * arch_uprobe_copy_ixol() - write an instruction into the XOL page
 * @page: the XOL page
 * @vaddr: user address of the slot
 * @src: the instruction
 * @len: its length
 */
void __weak arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
				  void *src, unsigned long len)
{
	memcpy_to_page(page, offset_in_page(vaddr), src, len);
	flush_dcache_page(page);
}

/**
 * arch_uprobe_insn_len() - length of a probed instruction
 * @aup: the analysed instruction
 *
 * Return: its length in bytes; UPROBE_SWBP_INSN_SIZE where every
 * instruction has the breakpoint's.
 */
int __weak arch_uprobe_insn_len(struct arch_uprobe *aup)
{
	return UPROBE_SWBP_INSN_SIZE;
}

/**
 * arch_uprobe_boost_insn() - code for a boosted XOL slot
 * @auprobe: the probed instruction
 * @regs: the user registers of a thread hitting the probe
 * @vaddr: where the probed instruction is
 * @slot: where the slot is
 * @buf: receives the code, UPROBE_XOL_SLOT_BYTES at most: a copy of the
 *	instruction, of the original's length, then a jump back after it
 *
 * Return: the size of the code, 0 when it cannot be boosted (by default
 * nothing is), or -ERANGE when it cannot be from this slot.
 */
int __weak arch_uprobe_boost_insn(struct arch_uprobe *auprobe,
				  struct pt_regs *regs, unsigned long vaddr,
				  unsigned long slot, u8 *buf)
{
	return 0;
}

/**
 * arch_uprobe_kind() - how hits of a probed instruction are executed
 * @auprobe: the analysed instruction
 * @is_64bit: it was analysed as 64-bit code
 *
 * Return: "jump", "emulated", "boosted", "stepped" or "legacy"; by
 * default "stepped".
 */
const char * __weak arch_uprobe_kind(struct arch_uprobe *auprobe,
				     bool is_64bit)
{
	return "stepped";
}

/**
 * arch_uprobe_boost_ok() - may this hit run a boosted slot?
 * @regs: the user registers
 *
 * Return: true when the thread may run through a boosted slot.
 */
bool __weak arch_uprobe_boost_ok(struct pt_regs *regs)
{
	return false;
}

/**
 * arch_uprobe_stub_ok() - may this probe's breakpoint become a jump?
 * @auprobe: the probed instruction
 * @regs: the user registers at a hit, past the instruction
 *
 * Return: false by default.
 */
bool __weak arch_uprobe_stub_ok(struct arch_uprobe *auprobe,
				struct pt_regs *regs)
{
	return false;
}

/**
 * arch_uprobe_stub_code() - code of the stub of a probed instruction
 * @auprobe: the probed instruction, accepted by arch_uprobe_stub_ok()
 * @vaddr: its address
 * @slot: the stub's address
 * @buf: receives the code, UPROBE_XOL_SLOT_BYTES at most
 *
 * Return: the code's size, or -ERANGE when @slot is out of reach.
 */
int __weak arch_uprobe_stub_code(struct arch_uprobe *auprobe,
				 unsigned long vaddr, unsigned long slot,
				 u8 *buf)
{
	return -ERANGE;
}

/**
 * arch_uprobe_stub_jump() - the jump that replaces a probed instruction
 * @vaddr: the probed address
 * @slot: the stub's address
 * @buf: receives the jump, UPROBE_INSN_BYTES at most
 *
 * Return: its size.
 */
int __weak arch_uprobe_stub_jump(unsigned long vaddr, unsigned long slot,
				 u8 *buf)
{
	return 0;
}

/**
 * arch_uprobe_stub_unwind() - take a thread out of a stub
 * @regs: the user registers, ip inside the stub at @slot
 * @vaddr: the probed address the stub stands for
 * @slot: the stub's address
 *
 * Undoes what the stub did so far, or completes it, without its probe.
 *
 * Return: 0 when @regs are now as before the probed instruction (ip at
 * @vaddr), 1 when as after it, or an error (the stack is not readable).
 */
int __weak arch_uprobe_stub_unwind(struct pt_regs *regs, unsigned long vaddr,
				   unsigned long slot)
{
	return -EINVAL;
}

/**
 * arch_uprobe_redirected() - a handler moved the instruction pointer
 * @regs: the user registers, ip where the handler put it
 *
 * The probed instruction is not executed: the thread resumes at the new
 * ip as if a direct jump took it there. Nothing to do by default.
 */
void __weak arch_uprobe_redirected(struct pt_regs *regs)
{
}

/**
 * arch_uprobe_syscall_is_ours() - is this system call a uprobes stub's?
 * @regs: the user registers at a system call entry
 *
 * Return: false by default.
 */
bool __weak arch_uprobe_syscall_is_ours(struct pt_regs *regs)
{
	return false;
}

/**
 * arch_uretprobe_is_alive() - is a return instance's frame still live?
 * @ret: the instance
 * @ctx: where we are: at a call (a new entry) or at a return
 * @regs: the user registers
 *
 * Return: true when the frame of @ret is still on the stack.
 */
bool __weak arch_uretprobe_is_alive(struct return_instance *ret,
				    enum rp_check ctx, struct pt_regs *regs)
{
	return true;
}

/**
 * arch_uretprobe_set_return() - send a thread at the trampoline to its caller
 * @regs: the user registers, at the return trampoline
 * @orig_ret_vaddr: the return address the probe diverted
 *
 * Sets the instruction pointer, and puts back whatever else the return
 * through the trampoline left as the program would not have it: the
 * return handlers see the registers the program will run with.
 */
void __weak arch_uretprobe_set_return(struct pt_regs *regs,
				      unsigned long orig_ret_vaddr)
{
	instruction_pointer_set(regs, orig_ret_vaddr);
}

/**
 * arch_uretprobe_restore_return_addr() - put a diverted return address back
 * @ri: a pending instance, not chained, of a function current is still in
 * @regs: a copy of current's user registers, the architecture's to change
 *
 * Only where the return address is on the stack at the function's entry,
 * at @ri->stack, can it be found again; where it was in a register, the
 * function saved it where only its code knows.
 *
 * Return: true when the original is back; false by default.
 */
bool __weak arch_uretprobe_restore_return_addr(struct return_instance *ri,
					       struct pt_regs *regs)
{
	return false;
}
