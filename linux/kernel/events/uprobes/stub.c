// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: probed instructions replaced with a jump to a stub.
 *
 * A probe on an instruction the architecture can jump over (x86: a nop
 * of five bytes or more, as at USDT sites, patchable function entries and
 * in the compiler's padding) starts as a breakpoint like any other. At its
 * first hit in an address space, the breakpoint is upgraded: the
 * instruction's first bytes are replaced with a jump to a stub in the XOL
 * area, which enters the kernel with a system call instead of a trap, and
 * the kernel returns straight after the whole probed instruction, whose
 * length the stub's record keeps. The stub stays until the address space
 * goes, so a thread that jumped to it just before the probe went away
 * still finds it; it then only executes the probed instruction.
 *
 * The jump is written like a breakpoint (bkpt.c): with the page's entry
 * cleared and flushed, so no thread ever runs half of it, and only over
 * the breakpoint and the original bytes, re-checked under the page-table
 * lock. It is taken out like a breakpoint too, the original bytes put
 * back.
 *
 * Nothing the program or a debugger can observe shows the stub: a signal,
 * a stop or a single-step that catches a thread inside it first moves the
 * thread back before the probed instruction or past it (see
 * uprobe_stub_leave()), the stub's system call is hidden from ptrace,
 * seccomp, audit and syscall tracing, and a forked child gets a copy of
 * the stubs its code jumps to.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Is a probe registered within the bytes a jump at @uprobe would cover? */
static bool uprobe_stub_covers(struct uprobe *uprobe, unsigned int len)
{
	unsigned int k;

	for (k = 1; k < len; k++)
		if (uprobe_lookup(uprobe->inode, uprobe->offset + k))
			return true;
	return false;
}

/**
 * uprobe_stub_upgrade() - replace a breakpoint just hit with a jump
 * @uprobe: the probe, hit by current at @vaddr; in a SRCU read section
 * @vaddr: the probed address
 * @regs: current's user registers, the hit handled
 *
 * Only the breakpoint and the original bytes are replaced; a breakpoint
 * that went or changed since the hit, or is under a debugger's int3, is
 * left alone, and so is a probe
 * whose jump would cover another probe or cross a page. A probe whose
 * instruction cannot become a jump is marked, so that its next hits do
 * not call this again.
 */
void uprobe_stub_upgrade(struct uprobe *uprobe, unsigned long vaddr,
			 struct pt_regs *regs)
{
	u8 jump[UPROBE_INSN_BYTES], cur[UPROBE_INSN_BYTES];
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long slot;
	int len;

	if (!arch_uprobe_stub_ok(&uprobe->arch, regs)) {
		WRITE_ONCE(uprobe->no_stub, true);
		return;
	}
	slot = xol_stub_slot(&uprobe->arch, vaddr);
	if (!slot)
		return;
	len = arch_uprobe_stub_jump(vaddr, slot, jump);
	if (len <= 0 || offset_in_page(vaddr) + len > PAGE_SIZE ||
	    uprobe_stub_covers(uprobe, len)) {
		WRITE_ONCE(uprobe->no_stub, true);
		return;
	}
	memcpy(cur, uprobe->arch.insn, len);
	uprobe_put_swbp(cur);

	if (mmap_write_lock_killable(mm))
		return;
	vma = uprobe_vma_at(uprobe, mm, vaddr);
	/*
	 * Only over our breakpoint: not over a debugger's int3 (written
	 * since the hit), nor over the program's own.
	 */
	if (vma && uprobe_vma_insertable(vma) && uprobe_bps_noted(mm, vaddr) &&
	    !uprobe_dbg_bp_at(mm, vaddr))
		uprobe_write_locked(mm, vma, vaddr, cur, jump, len, false);
	mmap_write_unlock(mm);
}

/**
 * uprobe_stub_jump() - the jump a probed instruction of an mm became
 * @mm: the address space, mmap lock held
 * @vaddr: the probed address
 * @jump: receives the jump's bytes
 * @orig: receives the original instruction, UPROBE_INSN_BYTES
 *
 * Return: the jump's length, 0 when @mm has no stub for @vaddr.
 */
int uprobe_stub_jump(struct mm_struct *mm, unsigned long vaddr, u8 *jump,
		     u8 *orig)
{
	unsigned long slot = xol_stub_find(mm, vaddr, orig);

	return slot ? arch_uprobe_stub_jump(vaddr, slot, jump) : 0;
}

/**
 * uprobe_stub_leave() - take current out of a stub before a signal
 * @regs: current's user registers
 *
 * Called by get_signal(), through uprobe_deny_signal(), so that a signal
 * handler, a stop, a debugger's single-step or a core dump never sees the
 * thread inside a stub. A thread that has not entered the kernel from the
 * stub yet is moved back before the probed instruction, and then past it
 * with the probe hit (unless the signal is fatal): a single-step over the
 * probed instruction then stops after it, as without the stub. A thread
 * whose system call was refused is moved past the instruction.
 *
 * Return: true when @regs were changed.
 */
bool uprobe_stub_leave(struct pt_regs *regs)
{
	unsigned long vaddr, slot;
	int where;

	slot = uprobe_stub_lookup(instruction_pointer(regs), &vaddr);
	if (likely(!slot || !vaddr))
		return false;
	where = arch_uprobe_stub_unwind(regs, vaddr, slot);
	if (where < 0) {
		pr_warn_ratelimited("pid %d: stack unreadable in the stub of 0x%lx\n",
				    current->pid, vaddr);
		force_sig(SIGSEGV);
		return false;
	}
	/*
	 * Before its system call, the stub only pushes: a fault there is on
	 * the stack below the red zone, which the program may not have.
	 */
	if (!where)
		uprobe_drop_fault(SIGSEGV);
	if (!where && !__fatal_signal_pending(current))
		uprobe_stub_hit(regs);
	return true;
}

/**
 * uprobe_stub_skip() - execute the probed instruction a stub stands for
 * @regs: current's user registers, ip at the instruction
 * @uprobe: its probe, NULL when it has gone
 *
 * After a stub's hit whose handlers let the instruction run, or whose
 * probe has gone: the instruction (a nop) only moves ip on, past its
 * whole length (the jump may have covered only its first bytes), which
 * the probe's analysis gives, or else the record of the stub whose jump
 * is at ip. With no such jump there any more, the thread goes back to ip
 * and runs what is there now.
 */
void uprobe_stub_skip(struct pt_regs *regs, struct uprobe *uprobe)
{
	unsigned long vaddr = instruction_pointer(regs);
	u8 mem[UPROBE_INSN_BYTES];
	unsigned int len = 0, n;

	/* A jump is never written across a page. */
	n = min_t(unsigned long, sizeof(mem), PAGE_SIZE - offset_in_page(vaddr));
	if (uprobe)
		len = arch_uprobe_insn_len(&uprobe->arch);
	else if (!copy_from_user(mem, (void __user *)vaddr, n))
		len = xol_stub_len(vaddr, mem, n);
	instruction_pointer_set(regs, vaddr + len);
}

/**
 * uprobe_mremap() - code that jumps to stubs was moved
 * @vma: the mapping at the new place, mmap lock held for writing
 * @new_addr: where the moved range starts now
 * @old_addr: where it started
 * @len: its length
 *
 * The record of our breakpoints follows the code; a range left mapped
 * (MREMAP_DONTUNMAP) gets its breakpoints back. A jump to a stub is
 * relative to where it is: moved, it points elsewhere. Each jump of the
 * moved range is put back on the probe's breakpoint, which works
 * anywhere (its first hit at the new place may make a new jump).
 */
void uprobe_mremap(struct vm_area_struct *vma, unsigned long new_addr,
		   unsigned long old_addr, unsigned long len)
{
	u8 jump[UPROBE_INSN_BYTES], orig[UPROBE_INSN_BYTES];
	struct mm_struct *mm = vma->vm_mm;
	unsigned long vaddr, slot, at;
	unsigned int i;
	int n, err;

	uprobe_bps_move(mm, old_addr, new_addr, len);
	/* Left mapped (MREMAP_DONTUNMAP), the old range has the file's. */
	uprobe_resync_later(vma, new_addr, new_addr + len, old_addr);
	if (!xol_area_has_stubs(mm) || !uprobe_vma_probeable(vma))
		return;
	for (i = 0; xol_stub_nth(mm, i, &vaddr, &slot, orig); i++) {
		if (vaddr - old_addr >= len)
			continue;
		at = new_addr + (vaddr - old_addr);
		n = arch_uprobe_stub_jump(vaddr, slot, jump);
		if (n <= 0 || at < vma->vm_start || at + n > vma->vm_end)
			continue;
		uprobe_put_swbp(orig);
		err = uprobe_write_locked(mm, vma, at, jump, orig, n, false);
		/* -ESRCH: no such jump there (never made, or overwritten). */
		if (err && err != -ESRCH)
			pr_warn_ratelimited("pid %d: moved jump at 0x%lx left without its stub (%pe)\n",
					    current->pid, at, ERR_PTR(err));
	}
}

/**
 * uprobe_syscall_enter_hidden() - should syscall tracing skip this entry?
 * @regs: the user registers at a system call entry with work to do
 *
 * A uprobes stub's or trampoline's system call is not the program's: no
 * ptrace stop, seccomp filter, audit record or tracepoint sees it.
 *
 * Return: true when the entry (and then the exit) work must be skipped.
 */
bool uprobe_syscall_enter_hidden(struct pt_regs *regs)
{
	struct uprobe_task *utask;

	if (likely(!arch_uprobe_syscall_is_ours(regs))) {
		if (current->utask)
			current->utask->syscall_hidden = false;
		return false;
	}
	utask = uprobe_utask();
	if (!utask)
		return false;
	utask->syscall_hidden = true;
	return true;
}

/**
 * uprobe_syscall_exit_hidden() - should syscall tracing skip this exit?
 *
 * Return: true after an entry uprobe_syscall_enter_hidden() hid.
 */
bool uprobe_syscall_exit_hidden(void)
{
	struct uprobe_task *utask = current->utask;

	if (likely(!utask || !utask->syscall_hidden))
		return false;
	utask->syscall_hidden = false;
	return true;
}
