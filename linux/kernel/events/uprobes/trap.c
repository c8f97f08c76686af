// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: breakpoint hits and the out-of-line single-step.
 *
 * A breakpoint hit is handled in the architecture's exception handler,
 * which calls uprobe_breakpoint_trap() in process context (or, where an
 * architecture only has the exception notifier, uprobe_pre_sstep_notifier()
 * flags the thread with TIF_UPROBE, and uprobe_notify_resume() handles the
 * hit on the way back to user mode): find the probe, run the consumers'
 * handlers, then let the architecture emulate the instruction, run its
 * boosted copy, or single-step a copy of it in an XOL slot. The step ends
 * with a single-step trap: the architecture's handler finishes it at once
 * with uprobe_sstep_trap() (x86, arm64), or flags the thread through
 * uprobe_post_sstep_notifier() for uprobe_notify_resume() to finish it,
 * applying the architecture's fix-ups. Signals that arrive meanwhile are
 * held back until the step is complete, so a handler never sees the
 * thread with its instruction pointer in the XOL area.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "internal.h"

/**
 * uprobe_utask_alloc() - allocate current's uprobes state
 *
 * The slow part of uprobe_utask().
 *
 * Return: the state, or NULL without memory.
 */
struct uprobe_task *uprobe_utask_alloc(void)
{
	if (!current->utask)
		current->utask = kzalloc(sizeof(*current->utask), GFP_KERNEL);
	return current->utask;
}

/**
 * uprobe_current_auprobe() - the probe whose handlers current is running
 *
 * Return: its architecture data, or NULL outside of entry handlers and
 * of the preparation of their return probe (the architecture's
 * arch_uretprobe_hijack_return_addr()).
 */
struct arch_uprobe *uprobe_current_auprobe(void)
{
	struct uprobe_task *utask = current->utask;

	return utask && utask->handling ? &utask->handling->arch : NULL;
}

/**
 * uprobe_current_func_ip() - the probed address of the running handler
 *
 * Return: the breakpoint address in an entry handler, the function's
 * address in a return handler, 0 elsewhere.
 */
unsigned long uprobe_current_func_ip(void)
{
	struct uprobe_task *utask = current->utask;

	return utask ? utask->func_ip : 0;
}

/**
 * uprobe_run_handlers() - call the entry handlers of a probe
 * @uprobe: the probe hit by current
 * @regs: the user registers, instruction pointer at the probe
 *
 * Must be called in a uprobes SRCU read section. Removes the breakpoint
 * from this address space when every handler asked for it and no filter
 * objects; else watches the function's return for the consumers with a
 * ret_handler whose handler did not decline it, unless a handler moved
 * the instruction pointer.
 */
static void uprobe_run_handlers(struct uprobe *uprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long func = instruction_pointer(regs);
	struct return_instance *ri = NULL;
	struct uprobe_consumer *uc;
	bool remove = true;

	utask->handling = uprobe;
	utask->func_ip = func;
	list_for_each_entry_srcu(uc, &uprobe->consumers, cons_node,
				 uprobes_srcu_held()) {
		__u64 cookie = 0;
		int rc = 0;

		if (uc->handler) {
			rc = uc->handler(uc, regs, &cookie);
			WARN_ONCE(rc & ~UPROBE_HANDLER_MASK,
				  "bad rc=0x%x from %ps()\n", rc, uc->handler);
		}
		remove &= !!(rc & UPROBE_HANDLER_REMOVE);
		if (uc->ret_handler && !(rc & UPROBE_HANDLER_MASK))
			ri = uprobe_return_add(ri, uc->id, cookie);
	}
	utask->func_ip = 0;

	if (remove && !list_empty(&uprobe->consumers)) {
		utask->handling = NULL;
		uprobe_return_discard(ri);
		/* Nobody wants this process: no return to watch either. */
		uprobe_remove_from_current(uprobe, utask->vaddr, false);
		return;
	}
	/*
	 * The architecture may look at the probed instruction. A handler
	 * that moved ip took the thread elsewhere: the function is not
	 * entered, there is no return of it to watch.
	 */
	if (ri && instruction_pointer(regs) == func)
		uprobe_prepare_return(uprobe, ri, regs);
	else
		uprobe_return_discard(ri);
	utask->handling = NULL;
}

/**
 * uprobe_remove_from_current() - take a breakpoint out of current's mm
 * @uprobe: the probe hit by current
 * @vaddr: where its breakpoint is
 * @force: remove it even if a consumer wants it here
 *
 * Without @force, only when no consumer wants it, checked again under
 * the mmap lock that serialises breakpoint writes, so that a consumer
 * registered meanwhile keeps its breakpoint.
 */
void uprobe_remove_from_current(struct uprobe *uprobe, unsigned long vaddr,
				bool force)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (mmap_write_lock_killable(mm))
		return;
	vma = uprobe_vma_at(uprobe, mm, vaddr);
	if (vma && (force || !uprobe_wanted_by(uprobe, mm)))
		uprobe_remove(uprobe, mm, vma, vaddr);
	mmap_write_unlock(mm);
}

static struct uprobe *uprobe_vma_lookup(struct vm_area_struct *vma,
					unsigned long vaddr)
{
	if (!uprobe_vma_probeable(vma))
		return NULL;
	return uprobe_lookup(file_inode(vma->vm_file),
			     uprobe_vma_vaddr_offset(vma, vaddr));
}

/*
 * Finds the probe of the breakpoint at @bp_vaddr in current's address
 * space: under the vma's own lock when it can be had, so that threads
 * hitting probes do not contend on the mmap lock. When there is no probe,
 * *@is_trap tells whether a trap instruction is still there (someone
 * else's) or not (a probe removed since the hit).
 */
static struct uprobe *uprobe_find_hit(unsigned long bp_vaddr, bool *is_trap)
{
	struct mm_struct *mm = current->mm;
	struct uprobe *uprobe = NULL;
	struct vm_area_struct *vma;

	vma = lock_vma_under_rcu(mm, bp_vaddr);
	if (vma) {
		uprobe = uprobe_vma_lookup(vma, bp_vaddr);
		vma_end_read(vma);
		if (uprobe)
			return uprobe;
	}

	mmap_read_lock(mm);
	vma = vma_lookup(mm, bp_vaddr);
	if (vma)
		uprobe = uprobe_vma_lookup(vma, bp_vaddr);
	if (!uprobe)
		*is_trap = uprobe_is_trap_at(mm, bp_vaddr);
	mmap_read_unlock(mm);
	return uprobe;
}

#ifdef CONFIG_PER_VMA_LOCK
/*
 * The probes a thread hit last, by address, so that its next hit of one
 * looks up neither the vma nor the registry. An entry holds while the
 * address space's mm_lock_seq is still what it was, even, when the probe
 * was found (every change of a mapping and every breakpoint write or
 * removal of the engine's is done under the mmap write lock, which moves
 * it; a debugger's write over a probed instruction, under the read lock,
 * does not, and needs not: the lookup finds a probe by its file offset
 * too, not by the breakpoint) and while the probe is live. The entry keeps its probe's memory (see
 * uprobe_remember()): a probe can outlive its breakpoints (a pending
 * return holds it) and go without this address space being locked at
 * all, and the next hit must then find it not live, not freed.
 */
static struct uprobe_hit *uprobe_hit_entry(struct uprobe_task *utask,
					   unsigned long vaddr,
					   unsigned int *seq)
{
	*seq = raw_read_seqcount(&current->mm->mm_lock_seq);
	return &utask->hits[hash_long(vaddr, UPROBE_HITS_BITS)];
}

/* Remembers @uprobe, found since @seq was read, if no writer came by. */
static bool uprobe_hit_remember(struct uprobe_hit *hit, unsigned long vaddr,
				struct uprobe *uprobe, unsigned int seq)
{
	if (seq & 1 || read_seqcount_retry(&current->mm->mm_lock_seq, seq) ||
	    !uprobe_remember(uprobe))
		return false;
	if (hit->uprobe)
		uprobe_forget(hit->uprobe);
	hit->vaddr = vaddr;
	hit->uprobe = uprobe;
	hit->seq = seq;
	hit->boost = 0;
	hit->stamp = jiffies;
	return true;
}

/* Drops the references of a thread's remembered hits. */
static void uprobe_hits_forget(struct uprobe_task *utask)
{
	int i;

	for (i = 0; i < UPROBE_HITS; i++)
		if (utask->hits[i].uprobe)
			uprobe_forget(utask->hits[i].uprobe);
}
#else
static struct uprobe_hit *uprobe_hit_entry(struct uprobe_task *utask,
					   unsigned long vaddr,
					   unsigned int *seq)
{
	return NULL;
}

static bool uprobe_hit_remember(struct uprobe_hit *hit, unsigned long vaddr,
				struct uprobe *uprobe, unsigned int seq)
{
	return false;
}

static void uprobe_hits_forget(struct uprobe_task *utask)
{
}
#endif

/*
 * How long an entry is trusted: far less than the 2^31 changes of its
 * address space that make mm_lock_seq come back to the same value.
 */
#define UPROBE_HIT_TTL	(10 * HZ)

/* Only entries made by uprobe_hit_remember() have a probe. */
static bool uprobe_hit_valid(struct uprobe_hit *hit, unsigned long vaddr,
			     unsigned int seq)
{
	return hit->uprobe && hit->vaddr == vaddr && hit->seq == seq &&
	       time_before(jiffies, hit->stamp + UPROBE_HIT_TTL) &&
	       READ_ONCE(hit->uprobe->live);
}

/*
 * The hit at @vaddr ran its handlers: the thread's next hit there, its
 * instruction restarted, does not run them again. With @trap, only if
 * the thread is back there after the SIGTRAP that reports a debugger's
 * breakpoint (see uprobe_restart_check()).
 */
static void uprobe_set_restart(struct uprobe_task *utask, unsigned long vaddr,
			       bool trap)
{
	utask->restart_vaddr = vaddr;
	utask->restart_trap = trap;
}

/*
 * Prepares the single-step of the probed instruction in an XOL slot.
 * When it cannot (no memory, a fatal signal), the thread is back on the
 * breakpoint, and the handlers, which ran, do not run again when it
 * traps there.
 */
static void uprobe_step_out_of_line(struct uprobe_task *utask,
				    struct uprobe *uprobe,
				    struct pt_regs *regs)
{
	if (xol_get_slot(utask, (const u8 *)&uprobe->arch.ixol)) {
		/* The step works on a copy: the probe may go meanwhile. */
		utask->step = uprobe->arch;
		utask->state = UTASK_SSTEP;
		if (!arch_uprobe_pre_xol(&utask->step, regs))
			return;
		utask->state = UTASK_RUNNING;
		xol_put_slot(utask);
	}
	instruction_pointer_set(regs, utask->vaddr);
	uprobe_set_restart(utask, utask->vaddr, false);
}

/*
 * Sends the thread through the probe's boosted XOL slot, if it has one:
 * the copy followed by a jump back, no single-step. Not with a signal
 * pending, which would be delivered with the thread in the slot. @hit,
 * when it is this hit's entry, keeps the slot: a boosted slot stays
 * until the address space goes.
 */
static bool uprobe_boost(struct uprobe *uprobe, struct uprobe_hit *hit,
			 struct pt_regs *regs)
{
	long slot;

	if (READ_ONCE(uprobe->no_boost) || task_sigpending(current) ||
	    !arch_uprobe_boost_ok(regs))
		return false;
	slot = hit ? hit->boost : 0;
	if (!slot) {
		slot = xol_boost_slot(&uprobe->arch, current->utask->vaddr,
				      regs);
		if (slot == -EOPNOTSUPP)
			WRITE_ONCE(uprobe->no_boost, true);
		if (slot <= 0)
			return false;
		if (hit)
			hit->boost = slot;
	}
	instruction_pointer_set(regs, slot);
	return true;
}

/*
 * Was current preempted, migrated or signalled since it trapped at
 * @vaddr, which is in its rseq critical section? Unprobed, the section
 * would be aborted before the instruction runs: so it is, on the way back
 * to user mode, and the instruction is not executed now (see
 * uprobe_rseq_abort()); if no abort comes, the thread traps there again
 * and executes it.
 */
static bool uprobe_rseq_aborts(unsigned long vaddr)
{
#ifdef CONFIG_RSEQ
	struct task_struct *t = current;
	struct rseq_cs __user *ucs;
	u64 ptr, start, len;

	if (likely(!t->rseq || !READ_ONCE(t->rseq_event_mask)))
		return false;
	if (get_user(ptr, &t->rseq->rseq_cs) || !ptr)
		return false;
	ucs = (struct rseq_cs __user *)(unsigned long)ptr;
	if (get_user(start, &ucs->start_ip) ||
	    get_user(len, &ucs->post_commit_offset))
		return false;
	return vaddr - start < len;
#else
	return false;
#endif
}

/*
 * Runs the handlers of the hit at @vaddr, unless they ran already (a
 * @restart of it). False when the probed instruction is not to be
 * executed now: a handler moved the instruction pointer (it took over),
 * or the thread's rseq critical section is aborted first.
 */
static bool uprobe_hit_handlers(struct uprobe_task *utask,
				struct uprobe *uprobe, unsigned long vaddr,
				bool restart, struct pt_regs *regs)
{
	if (restart)
		return true;
	uprobe_run_handlers(uprobe, regs);
	if (instruction_pointer(regs) != vaddr) {
		arch_uprobe_redirected(regs);
		return false;
	}
	if (uprobe_rseq_aborts(vaddr)) {
		uprobe_set_restart(utask, vaddr, false);
		return false;
	}
	return true;
}

/*
 * The probe current's thread cache has for a hit at @vaddr, or NULL; @hit
 * is set to the thread's entry for @vaddr (NULL without a utask) and @seq
 * to the address space's sequence read for it.
 */
static struct uprobe *uprobe_hit_cached(struct uprobe_task *utask,
					unsigned long vaddr,
					struct uprobe_hit **hit,
					unsigned int *seq)
{
	*seq = 0;
	*hit = utask ? uprobe_hit_entry(utask, vaddr, seq) : NULL;
	if (*hit && uprobe_hit_valid(*hit, vaddr, *seq))
		return (*hit)->uprobe;
	return NULL;
}

/*
 * The probe of a hit at @vaddr the thread cache did not have, looked up
 * and remembered in @hit (set to NULL when it is not). A debugger's int3
 * stays when the probe's breakpoint goes (debugger.c), so it does not
 * keep the probe alive: a probe found under one is not remembered.
 * Without a probe, *@is_trap tells whether a trap instruction is there.
 */
static struct uprobe *uprobe_hit_lookup(unsigned long vaddr,
					struct uprobe_hit **hit,
					unsigned int seq, bool *is_trap)
{
	struct uprobe *uprobe = uprobe_find_hit(vaddr, is_trap);

	if (!uprobe || (*hit && (uprobe_dbg_bp_at(current->mm, vaddr) ||
				 !uprobe_hit_remember(*hit, vaddr, uprobe,
						      seq))))
		*hit = NULL;
	return uprobe;
}

/*
 * Executes the probed instruction at @vaddr after its handlers ran:
 * emulated, or through its boosted slot, or single-stepped out of line.
 * An emulated instruction that may be replaced with a jump to a stub is.
 */
static void uprobe_hit_execute(struct uprobe_task *utask,
			       struct uprobe *uprobe, struct uprobe_hit *hit,
			       unsigned long vaddr, struct pt_regs *regs)
{
	if (arch_uprobe_skip_sstep(&uprobe->arch, regs)) {
		if (unlikely(!READ_ONCE(uprobe->no_stub)))
			uprobe_stub_upgrade(uprobe, vaddr, regs);
		return;
	}
	if (!uprobe_boost(uprobe, hit, regs))
		uprobe_step_out_of_line(utask, uprobe, regs);
}

/*
 * The probe's part of a hit is done: a debugger's breakpoint there too
 * (@dbg) is reported to it, with the registers as the trap left them
 * (@trap_ip). Returns whether the trap was only the probe's.
 */
static bool uprobe_hit_report(bool dbg, unsigned long trap_ip,
			      struct pt_regs *regs)
{
	if (!dbg)
		return true;
	instruction_pointer_set(regs, trap_ip);
	return false;
}

/*
 * Handles a hit of @uprobe at @vaddr: runs its handlers, then executes
 * the probed instruction. @hit is this hit's entry in the thread cache,
 * or NULL. @dbg: the trap was a debugger's breakpoint instruction, not
 * ours. Returns false when the trap is to be reported as the
 * architecture would without uprobes (a debugger's breakpoint there too).
 */
static bool uprobe_hit_run(struct uprobe_task *utask, struct uprobe *uprobe,
			   struct uprobe_hit *hit, unsigned long vaddr,
			   bool dbg, struct pt_regs *regs)
{
	unsigned long trap_ip = instruction_pointer(regs);
	bool restart;

	dbg = dbg || uprobe_dbg_bp_at(current->mm, vaddr);
	instruction_pointer_set(regs, vaddr);
	if (unlikely(uprobe->is_64bit != arch_uprobe_hit_is_64bit(regs))) {
		/* Decoded for the other mode: not executable here. */
		pr_warn_ratelimited("pid %d: probe at 0x%lx was analysed as %s code, hit in %s mode: removed from this process\n",
				    current->pid, vaddr,
				    uprobe->is_64bit ? "64-bit" : "32-bit",
				    uprobe->is_64bit ? "32-bit" : "64-bit");
		uprobe_remove_from_current(uprobe, vaddr, true);
		return uprobe_hit_report(dbg, trap_ip, regs);
	}
	if (!utask) {
		/* No memory: the hit is skipped, or retried if need be. */
		if (!dbg &&
		    !arch_uprobe_ignore(&uprobe->arch, regs))
			arch_uprobe_skip_sstep(&uprobe->arch, regs);
		return uprobe_hit_report(dbg, trap_ip, regs);
	}
	utask->vaddr = vaddr;
	/* The handlers of a restarted hit ran already. */
	restart = utask->restart_vaddr == vaddr;
	utask->restart_vaddr = 0;
	if (arch_uprobe_ignore(&uprobe->arch, regs) ||
	    !uprobe_hit_handlers(utask, uprobe, vaddr, restart, regs))
		return true;
	/* A debugger's int3 noted here outlives handler-requested removal. */
	if (dbg) {
		/* The debugger steps over its breakpoint: the same hit. */
		uprobe_set_restart(utask, vaddr, true);
		return uprobe_hit_report(dbg, trap_ip, regs);
	}
	uprobe_hit_execute(utask, uprobe, hit, vaddr, regs);
	return true;
}

/*
 * Handles the breakpoint current trapped on. Returns false when the trap
 * is not a probe's to handle, with the registers as the trap left them:
 * the architecture reports it as it would without uprobes (an int3 of the
 * program's own, or a debugger's, also one over a probe's, after the
 * probe's handlers).
 */
static bool uprobe_handle_breakpoint(struct pt_regs *regs, bool dbg)
{
	unsigned long bp_vaddr = uprobe_get_swbp_addr(regs);
	struct uprobe_task *utask = uprobe_utask();
	bool is_trap = false, ours;
	struct uprobe_hit *hit;
	struct uprobe *uprobe;
	unsigned int seq;
	int idx;

	idx = uprobes_srcu_lock();
	uprobe = uprobe_hit_cached(utask, bp_vaddr, &hit, &seq);
	if (!uprobe && bp_vaddr == uprobe_get_trampoline_vaddr()) {
		uprobes_srcu_unlock(idx);
		uprobe_handle_trampoline(regs);
		return true;
	}
	if (!uprobe)
		uprobe = uprobe_hit_lookup(bp_vaddr, &hit, seq, &is_trap);
	if (uprobe) {
		ours = uprobe_hit_run(utask, uprobe, hit, bp_vaddr, dbg, regs);
	} else {
		/* Not a trap any more: the probe went since, run the code. */
		ours = !dbg && !is_trap;
		if (ours)
			instruction_pointer_set(regs, bp_vaddr);
	}
	uprobes_srcu_unlock(idx);
	return ours;
}

/**
 * uprobe_stub_hit() - the stub of a probed instruction was entered
 * @regs: current's user registers as at the probed instruction (ip on it)
 *
 * Called from the stub's system call, or when a signal finds the thread
 * in the stub. The hit is handled like a breakpoint's, the handlers see
 * @regs as at the probed instruction, then the instruction is executed:
 * @regs are left as after it, or as a handler that moved ip set them.
 */
void uprobe_stub_hit(struct pt_regs *regs)
{
	unsigned long vaddr = instruction_pointer(regs);
	struct uprobe_task *utask = uprobe_utask();
	struct uprobe *uprobe = NULL;
	struct uprobe_hit *hit;
	unsigned int seq = 0;
	bool is_trap, restart;
	int idx;

	idx = uprobes_srcu_lock();
	hit = utask ? uprobe_hit_entry(utask, vaddr, &seq) : NULL;
	if (hit && uprobe_hit_valid(hit, vaddr, seq)) {
		uprobe = hit->uprobe;
	} else if (utask) {
		uprobe = uprobe_find_hit(vaddr, &is_trap);
		if (uprobe && hit)
			uprobe_hit_remember(hit, vaddr, uprobe, seq);
	}
	if (!uprobe)
		goto skip;
	utask->vaddr = vaddr;
	/* The handlers of a restarted hit ran already. */
	restart = utask->restart_vaddr == vaddr;
	utask->restart_vaddr = 0;
	if (!uprobe_hit_handlers(utask, uprobe, vaddr, restart, regs))
		goto out;
skip:
	uprobe_stub_skip(regs, uprobe);
out:
	uprobes_srcu_unlock(idx);
}

static void uprobe_finish_step(struct uprobe_task *utask,
			       struct pt_regs *regs)
{
	int err = 0;

	/*
	 * An abort: a fatal signal, a trap of the copy, or a breakpoint that
	 * trapped before the step's end (still %UTASK_SSTEP). The stock
	 * architectures' abort_xol does not undo all their pre_xol did (arm's
	 * scratch register, mips's ra and epc), as it did not on the stock
	 * kernel, which aborted for the first two. The
	 * third is not expected there: their step ends with
	 * uprobe_post_sstep_notifier() (a single-step trap, or the trap
	 * after the copy), and their analysis emulates or refuses the
	 * instructions that would leave the copy for a breakpoint (the
	 * stock kernel warned, and left the thread in its XOL slot). An
	 * rseq abort ends only the steps abort_xol undoes whole (see
	 * uprobe_legacy_step_abandonable()).
	 */
	if (utask->state == UTASK_SSTEP_ACK)
		err = arch_uprobe_post_xol(&utask->step, regs);
	else
		arch_uprobe_abort_xol(&utask->step, regs);
	if (err && IS_ENABLED(CONFIG_UPROBES_LEGACY_ARCH)) {
		/*
		 * As on the stock kernel: the stock post_xol may fail after
		 * the copy took effect (sparc's, when a jmpl's return address
		 * cannot be stored into the register window on the stack),
		 * and executing it again would fail the same way, forever.
		 */
		pr_warn_ratelimited("pid %d: probed instruction at 0x%lx cannot be completed: SIGILL\n",
				    current->pid, utask->vaddr);
		force_sig(SIGILL);
	} else if (err) {
		/* The instruction is restarted, not the hit. */
		instruction_pointer_set(regs, utask->vaddr);
		uprobe_set_restart(utask, utask->vaddr, false);
	}

	utask->state = UTASK_RUNNING;
	xol_put_slot(utask);

	/* Signals held back during the step may be delivered now. */
	if (utask->signal_held) {
		utask->signal_held = false;
		spin_lock_irq(&current->sighand->siglock);
		recalc_sigpending();
		spin_unlock_irq(&current->sighand->siglock);
	}
}

/*
 * Back to user mode after the SIGTRAP that reported a debugger's
 * breakpoint over a probe's: a thread that goes back on the probed
 * instruction with a breakpoint still there (the debugger steps over its
 * own, ours is under it) executes it for the hit whose handlers ran;
 * anywhere else (the debugger moved it, a signal handler runs), or with
 * no breakpoint left to hit, its next hit there is a hit of its own.
 */
static void uprobe_restart_check(struct uprobe_task *utask,
				 struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;

	utask->restart_trap = false;
	if (instruction_pointer(regs) != utask->restart_vaddr) {
		utask->restart_vaddr = 0;
		return;
	}
	mmap_read_lock(mm);
	if (uprobe_breakpoint_at(mm, utask->restart_vaddr) <= 0)
		utask->restart_vaddr = 0;
	mmap_read_unlock(mm);
}

/**
 * uprobe_notify_resume() - handle a breakpoint hit or the end of a step
 * @regs: the user registers
 *
 * Called on the way back to user mode when TIF_UPROBE is set; also after
 * the delivery of the SIGTRAP of a debugger's breakpoint over a probe's.
 */
void uprobe_notify_resume(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	clear_thread_flag(TIF_UPROBE);
	if (utask && uprobe_stepping(utask))
		uprobe_finish_step(utask, regs);
	else if (utask && utask->restart_trap)
		uprobe_restart_check(utask, regs);
	else if (uprobe_handle_breakpoint(regs, false))
		return;
	else if (IS_ENABLED(CONFIG_UPROBES_LEGACY_ARCH))
		uprobe_legacy_sigtrap(regs);
	else
		force_sig(SIGTRAP);
}

/**
 * uprobe_sstep_trap() - the single-step of an out-of-line copy trapped
 * @regs: the user registers, after the copy
 *
 * Called by the architecture's single-step trap handler, in process
 * context with interrupts enabled, for a trap it recognised as the end
 * of current's step (state %UTASK_SSTEP): the step is finished at once,
 * instead of on the way back to user mode.
 */
void uprobe_sstep_trap(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	utask->state = UTASK_SSTEP_ACK;
	uprobe_finish_step(utask, regs);
}

/* May a breakpoint of current's address space be a probe's? */
static __always_inline bool uprobe_current_mm_probed(void)
{
	struct mm_struct *mm = current->mm;

	return mm && test_bit(MMF_HAS_UPROBES, &mm->flags);
}

/**
 * uprobe_breakpoint_trap() - a breakpoint trapped in user mode
 * @regs: the user registers, just after the breakpoint instruction
 *
 * Called by the architecture's breakpoint exception handler before any
 * other user of the trap, in process context with interrupts enabled:
 * the hit is handled at once, without a second pass on the way out.
 *
 * The stock architectures (legacy_arch.c) hand their own breakpoint to
 * uprobe_pre_sstep_notifier(); one whose debuggers' breakpoint is another
 * instruction, which its trap handler reports itself (s390's 0x0001),
 * calls this for that one: it is a debugger's, whether noted or not
 * (debugger.c notes only what it sees written while breakpoints are
 * hidden), and the probe under it runs its handlers, not its instruction.
 *
 * Return: true when the trap was taken care of (a probe's hit), false to
 * leave it to others: a breakpoint that is not a probe's, or a debugger's
 * over a probe's, whose handlers ran.
 */
bool uprobe_breakpoint_trap(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!uprobe_current_mm_probed())
		return false;
	if (unlikely(utask && uprobe_stepping(utask))) {
		set_thread_flag(TIF_UPROBE);	/* ends the step, as it did */
		return true;
	}
	return uprobe_handle_breakpoint(regs,
					IS_ENABLED(CONFIG_UPROBES_LEGACY_ARCH));
}

/**
 * uprobe_pre_sstep_notifier() - a breakpoint trapped in user mode
 * @regs: the user registers
 *
 * Runs in the exception handler: only flags the thread.
 *
 * Return: 1 if the breakpoint may be ours, 0 to leave it to others.
 */
int uprobe_pre_sstep_notifier(struct pt_regs *regs)
{
	if (!uprobe_current_mm_probed())
		return 0;
	set_thread_flag(TIF_UPROBE);
	return 1;
}

/**
 * uprobe_post_sstep_notifier() - a single-step trap in user mode
 * @regs: the user registers
 *
 * Return: 1 if it ends one of our out-of-line steps, 0 otherwise.
 */
int uprobe_post_sstep_notifier(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!current->mm || !utask || utask->state != UTASK_SSTEP)
		return 0;
	utask->state = UTASK_SSTEP_ACK;
	set_thread_flag(TIF_UPROBE);
	return 1;
}

/* The signals an instruction's fault raises (forced: never blocked). */
#define UPROBE_FAULT_SIGNALS	(sigmask(SIGSEGV) | sigmask(SIGBUS) | \
				 sigmask(SIGILL) | sigmask(SIGFPE))

/*
 * Is a signal of current's own making pending: one the kernel raised for
 * an instruction the thread executed (a positive si_code), queued to the
 * thread and not blocked? No unblocked signal was pending when the thread
 * entered a boosted slot, so such a one found there was raised by the
 * copy.
 */
static bool __uprobe_fault_pending(unsigned long mask)
{
	struct sigqueue *q;

	lockdep_assert_held(&current->sighand->siglock);
	list_for_each_entry(q, &current->pending.list, list)
		if (q->info.si_code > SI_USER &&
		    (sigmask(q->info.si_signo) & mask) &&
		    !sigismember(&current->blocked, q->info.si_signo))
			return true;
	return false;
}

static bool uprobe_fault_pending(void)
{
	struct sighand_struct *sighand = current->sighand;
	bool fault;

	spin_lock_irq(&sighand->siglock);
	fault = __uprobe_fault_pending(UPROBE_FAULT_SIGNALS);
	spin_unlock_irq(&sighand->siglock);
	return fault;
}

/**
 * uprobe_drop_fault() - forget a fault that uprobes' own code raised
 * @sig: the signal it raised
 *
 * For a fault of code the program did not write (a stub's stack pushes,
 * where the program has no stack below its red zone): the program never
 * sees it.
 *
 * Return: true when one was pending, and is no more.
 */
bool uprobe_drop_fault(int sig)
{
	struct sighand_struct *sighand = current->sighand;
	enum pid_type type;
	kernel_siginfo_t info;
	sigset_t others;
	bool fault;

	siginitsetinv(&others, sigmask(sig));
	spin_lock_irq(&sighand->siglock);
	fault = __uprobe_fault_pending(sigmask(sig));
	if (fault)
		dequeue_signal(&others, &info, &type);
	spin_unlock_irq(&sighand->siglock);
	return fault;
}

/*
 * A signal is about to be delivered to a thread that may be in a boosted
 * XOL slot, which nothing it can observe may show. Past the copy of the
 * instruction, on the jump back, it is moved to where the jump goes. On
 * the copy, the copy raised the signal, which is delivered at the probed
 * address as the original's would be (executing it again could now
 * succeed, and the signal would come after a completed instruction); or
 * another signal came first, and the instruction is single-stepped out of
 * line before it is delivered, held like during any step.
 *
 * Return: true when a step was set up and the signal must wait.
 */
static bool uprobe_leave_boost(struct uprobe_task *utask,
			       struct pt_regs *regs)
{
	unsigned long ip = instruction_pointer(regs), slot, vaddr;
	struct uprobe *uprobe;
	bool is_trap;
	int idx;

	slot = xol_boost_lookup(ip, &vaddr);
	if (likely(!slot))
		return false;
	if (ip != slot) {
		/* The copy keeps the length of the original. */
		instruction_pointer_set(regs, vaddr + (ip - slot));
		return false;
	}
	/* Back on the breakpoint, unless the step can be had. */
	instruction_pointer_set(regs, vaddr);
	if (__fatal_signal_pending(current) || uprobe_fault_pending())
		return false;
	idx = uprobes_srcu_lock();
	uprobe = uprobe_find_hit(vaddr, &is_trap);
	if (uprobe) {
		utask->vaddr = vaddr;
		uprobe_step_out_of_line(utask, uprobe, regs);
	}
	uprobes_srcu_unlock(idx);
	return uprobe_stepping(utask);
}

/*
 * Did the copy being stepped trap? s390's arch_uprobe_xol_was_trapped()
 * compares the interruption code in the registers, which an interrupt
 * taken in the XOL slot before the copy ran overwrites too: there, the
 * copy trapped when it raised a fault signal.
 */
static bool uprobe_xol_trapped(struct task_struct *t)
{
	if (!arch_uprobe_xol_was_trapped(t))
		return false;
	return !IS_ENABLED(CONFIG_S390) || uprobe_fault_pending();
}

/**
 * uprobe_deny_signal() - hold signals back during an out-of-line step
 *
 * Called by get_signal(). A signal caused by the stepped instruction
 * itself (a fault in the copy), or a fatal one, ends the step early: the
 * thread goes back to the probed address and the signal is delivered
 * there. Others wait until the step is complete. A thread in a boosted
 * slot or in a stub is first moved out of it (see uprobe_leave_boost()
 * and uprobe_stub_leave()).
 *
 * Return: true when get_signal() must not deliver now.
 */
bool uprobe_deny_signal(void)
{
	struct task_struct *t = current;
	struct uprobe_task *utask;

	if (unlikely(t->mm && t->mm->uprobes_state.xol_area) &&
	    !(t->flags & (PF_KTHREAD | PF_USER_WORKER)))
		uprobe_stub_leave(task_pt_regs(t));
	utask = t->utask;
	if (likely(!utask))
		return false;
	if (!uprobe_stepping(utask)) {
		/*
		 * A hit in the signal handler is a hit of its own. After
		 * the debugger's SIGTRAP, where the thread goes back to
		 * user mode tells (uprobe_restart_check()).
		 */
		if (utask->restart_trap)
			set_tsk_thread_flag(t, TIF_UPROBE);
		else
			utask->restart_vaddr = 0;
		if (!uprobe_leave_boost(utask, task_pt_regs(t)))
			return false;
	}
	WARN_ON_ONCE(utask->state != UTASK_SSTEP);

	if (task_sigpending(t)) {
		spin_lock_irq(&t->sighand->siglock);
		clear_tsk_thread_flag(t, TIF_SIGPENDING);
		spin_unlock_irq(&t->sighand->siglock);
		utask->signal_held = true;

		if (__fatal_signal_pending(t) || uprobe_xol_trapped(t)) {
			utask->state = UTASK_SSTEP_TRAPPED;
			set_tsk_thread_flag(t, TIF_UPROBE);
		}
	}
	return true;
}

/**
 * uprobe_get_trap_addr() - address to report for a trap in user mode
 * @regs: the user registers
 *
 * Return: the probed address while its copy is being stepped or runs from
 * a boosted slot, so that a fault in the copy (#UD, #DE, a SIMD
 * exception) looks like a fault of the original instruction.
 */
unsigned long uprobe_get_trap_addr(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long ip = instruction_pointer(regs), slot, vaddr;

	if (unlikely(utask && uprobe_stepping(utask)))
		return utask->vaddr;
	if (unlikely(utask)) {
		slot = xol_boost_lookup(ip, &vaddr);
		if (slot)
			return vaddr + (ip - slot);
	}
	return ip;
}

/**
 * uprobe_rseq_ip() - where current is, for its restartable sequence
 * @regs: current's user registers, on the way back to user mode
 *
 * A thread that executes a probed instruction out of line (stepped, in a
 * boosted slot, or in a stub) is, for the program, at that instruction or
 * past it, and so for its rseq critical section, which must be aborted as
 * if the thread were there.
 *
 * Return: the address the program is at.
 */
unsigned long uprobe_rseq_ip(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long slot, vaddr;
	struct pt_regs stub;

	if (likely(!current->mm || !current->mm->uprobes_state.xol_area))
		return instruction_pointer(regs);
	/*
	 * Where the architecture's abort_xol cannot abandon a step whole
	 * (see uprobe_legacy_step_abandonable()), or where the copy ran
	 * already and the breakpoint after it is still to trap (riscv's,
	 * loongarch's: the instruction must not run twice), the thread is
	 * in its XOL slot, outside the section, until the step is done.
	 */
	if (utask && uprobe_stepping(utask)) {
		if (!IS_ENABLED(CONFIG_UPROBES_LEGACY_ARCH) ||
		    (uprobe_legacy_step_abandonable() &&
		     instruction_pointer(regs) == utask->xol_vaddr))
			return utask->vaddr;
		return instruction_pointer(regs);
	}
	slot = uprobe_stub_lookup(instruction_pointer(regs), &vaddr);
	if (slot && vaddr) {
		stub = *regs;
		if (arch_uprobe_stub_unwind(&stub, vaddr, slot) >= 0)
			return instruction_pointer(&stub);
	}
	return uprobe_get_trap_addr(regs);
}

/**
 * uprobe_rseq_abort() - current's rseq critical section is being aborted
 * @regs: current's user registers; uprobe_rseq_ip() was in the section
 *
 * What the thread does out of line is abandoned, the registers as the
 * program left them, before the abort handler's address is set: a step
 * in progress, a boosted slot (nothing to undo), a stub (its stack
 * pushes). The probe's handlers ran, or run when it is hit again.
 */
void uprobe_rseq_abort(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long slot, vaddr;

	if (!utask)
		return;
	/* The abort handler's next hit of the probe is a hit of its own. */
	utask->restart_vaddr = 0;
	if (uprobe_stepping(utask)) {
		utask->state = UTASK_SSTEP_TRAPPED;
		uprobe_finish_step(utask, regs);
		/* Nothing is left to do on the way back to user mode. */
		clear_thread_flag(TIF_UPROBE);
		return;
	}
	slot = uprobe_stub_lookup(instruction_pointer(regs), &vaddr);
	if (slot && vaddr && arch_uprobe_stub_unwind(regs, vaddr, slot) < 0)
		force_sig(SIGSEGV);
}

/* Tries to recreate the parent's XOL area, for the return trampoline. */
#define UPROBE_DUP_XOL_TRIES	16

static void uprobe_dup_xol_work(struct callback_head *work)
{
	struct uprobe_task *utask = current->utask;
	int err, tries = 0;

	do {
		if (current->flags & PF_EXITING || fatal_signal_pending(current))
			return;
		err = xol_area_dup(utask->dup_xol_addr);
	} while (err == -ENOMEM && ++tries < UPROBE_DUP_XOL_TRIES);
	if (!err)
		return;
	pr_warn_ratelimited("pid %d: no XOL area after fork (%pe), pending return probes abandoned\n",
			    current->pid, ERR_PTR(err));
	uprobe_abandon_returns();
}

/**
 * uprobe_copy_process() - set up a new task's uprobes state
 * @t: the new task
 * @flags: its clone flags
 *
 * A child that returns through functions its parent was in needs the
 * parent's pending return probes, and its XOL area at the same address
 * (a child whose code jumps to stubs got it with its address space, see
 * uprobe_dup_bps()).
 */
void uprobe_copy_process(struct task_struct *t, unsigned long flags)
{
	struct uprobe_task *utask = current->utask;
	struct uprobe_task *child;

	t->utask = NULL;
	if (!utask || !utask->return_instances)
		return;
	/* A new thread runs on its own stack. */
	if (t->mm == current->mm && !(flags & CLONE_VFORK))
		return;

	/* Not failing: the child returns through the trampoline. */
	child = kzalloc(sizeof(*child), GFP_KERNEL | __GFP_NOFAIL);
	uprobe_dup_return_instances(child, utask);
	t->utask = child;
	if (t->mm == current->mm)
		return;
	child->dup_xol_addr = xol_area_vaddr(current->mm);
	init_task_work(&child->dup_xol_work, uprobe_dup_xol_work);
	task_work_add(t, &child->dup_xol_work, TWA_RESUME);
}

/**
 * uprobe_free_utask() - free a task's uprobes state
 * @t: the task, leaving its address space (exit or exec)
 */
void uprobe_free_utask(struct task_struct *t)
{
	struct uprobe_task *utask = t->utask;

	if (!utask)
		return;
	/*
	 * Unpublished first: a perf callchain taken in an NMI reads the
	 * return instances of current's utask.
	 */
	WRITE_ONCE(t->utask, NULL);
	barrier();
	if (uprobe_stepping(utask) && t == current)
		xol_put_slot(utask);
	uprobe_free_return_instances(utask);
	uprobe_hits_forget(utask);
	kfree(utask);
}

static struct notifier_block uprobe_exception_nb = {
	.notifier_call	= arch_uprobe_exception_notify,
	.priority	= INT_MAX - 1,	/* notified after kprobes */
};

/**
 * uprobes_init() - hook the engine into the exception notifiers
 */
void __init uprobes_init(void)
{
	WARN_ON(register_die_notifier(&uprobe_exception_nb));
}
