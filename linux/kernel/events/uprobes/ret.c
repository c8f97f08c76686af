// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: return probes.
 *
 * When a probe with a ret_handler is hit at a function's entry, the return
 * address on the stack is replaced with the address of a trampoline in the
 * XOL area, and the original is remembered in a return_instance pushed on
 * the thread's list. The function returns to the trampoline, which traps
 * (or makes the uretprobe system call); the ret_handlers run and the
 * thread continues at the original return address.
 *
 * Frames left with longjmp() never return through the trampoline: their
 * instances are recognised by their stack pointer and dropped.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>

#include "internal.h"

/*
 * An NMI's user stack trace reads the list (uprobe_fixup_callchain()):
 * the head moves with WRITE_ONCE(), after the instance is complete.
 */
static struct return_instance *uprobe_pop_instance(struct uprobe_task *utask)
{
	struct return_instance *ri = utask->return_instances;

	WRITE_ONCE(utask->return_instances, ri->next);
	utask->depth--;
	uprobe_put(ri->uprobe);
	return ri;
}

/*
 * A thread keeps the instances it is done with for its next return
 * probes: it allocates only when it has more pending than ever before
 * (at most MAX_URETPROBE_DEPTH), so a recursive function allocates none
 * after its first deep call. They are freed with the thread's state.
 */
static void uprobe_recycle_instance(struct uprobe_task *utask,
				    struct return_instance *ri)
{
	WRITE_ONCE(ri->next, utask->ri_spare);
	utask->ri_spare = ri;
}

static struct return_instance *uprobe_new_instance(struct uprobe_task *utask)
{
	struct return_instance *ri = utask->ri_spare;

	if (!ri)
		return kmalloc(sizeof(*ri), GFP_KERNEL);
	utask->ri_spare = ri->next;
	return ri;
}

/* Drops instances of frames that were left without returning. */
static void uprobe_drop_dead_instances(struct uprobe_task *utask,
				       enum rp_check ctx, struct pt_regs *regs)
{
	while (utask->return_instances &&
	       !arch_uretprobe_is_alive(utask->return_instances, ctx, regs))
		uprobe_recycle_instance(utask, uprobe_pop_instance(utask));
}

/**
 * uprobe_prepare_return() - watch the return of the function just entered
 * @uprobe: the probe at the function's entry, hit by current
 * @regs: the user registers at the entry
 *
 * Must be called in a uprobes SRCU read section: @uprobe may be on its
 * way out (its last consumer gone while the entry handlers ran), and is
 * then not watched.
 */
void uprobe_prepare_return(struct uprobe *uprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri;
	unsigned long tramp, orig;
	bool chained;

	tramp = xol_area_ensure();
	if (!tramp)
		return;
	/* Everything that can fail comes before the return address changes. */
	uprobe_drop_dead_instances(utask, RP_CHECK_CHAIN_CALL, regs);
	if (utask->depth >= MAX_URETPROBE_DEPTH) {
		pr_warn_ratelimited("pid %d: return probes nested deeper than %d, ignoring\n",
				    current->pid, MAX_URETPROBE_DEPTH);
		return;
	}
	ri = uprobe_new_instance(utask);
	if (!ri)
		return;
	ri->uprobe = uprobe_tryget(uprobe);
	if (!ri->uprobe)
		goto free;
	orig = arch_uretprobe_hijack_return_addr(tramp, regs);
	if (orig == -1UL)
		goto put;
	/*
	 * A tail call: the return address was diverted already, by the
	 * caller's instance, which must stay (same stack slot). Otherwise
	 * an instance at this very slot belongs to a frame that is gone.
	 */
	chained = orig == tramp;
	if (!chained) {
		uprobe_drop_dead_instances(utask, RP_CHECK_CALL, regs);
	} else {
		if (!utask->return_instances) {
			/* The program put the trampoline there itself. */
			pr_warn_ratelimited("pid %d: return trampoline address at a function entry without a pending return probe\n",
					    current->pid);
			goto put;
		}
		orig = utask->return_instances->orig_ret_vaddr;
	}
	ri->chained = chained;
	ri->func = instruction_pointer(regs);
	ri->stack = user_stack_pointer(regs);
	ri->orig_ret_vaddr = orig;
	ri->next = utask->return_instances;
	barrier();
	WRITE_ONCE(utask->return_instances, ri);
	utask->depth++;
	return;
put:
	uprobe_put(ri->uprobe);
free:
	uprobe_recycle_instance(utask, ri);
}

static void uprobe_run_ret_handlers(struct return_instance *ri,
				    struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct uprobe_consumer *uc;
	int idx;

	idx = uprobes_srcu_lock();
	utask->func_ip = ri->func;
	list_for_each_entry_srcu(uc, &ri->uprobe->consumers, cons_node,
				 uprobes_srcu_held())
		if (uc->ret_handler)
			uc->ret_handler(uc, ri->func, regs);
	utask->func_ip = 0;
	uprobes_srcu_unlock(idx);
}

/*
 * The instance after the chain that starts with @ri: instances made by
 * tail calls share their caller's return, and are handled with it.
 */
static struct return_instance *uprobe_chain_end(struct return_instance *ri)
{
	bool chained;

	do {
		chained = ri->chained;
		ri = ri->next;
	} while (chained && ri);
	return ri;
}

/**
 * uprobe_handle_trampoline() - a probed function returned
 * @regs: the user registers, at the trampoline
 *
 * Finds the innermost chain of instances whose frame is the one
 * returning (chains above it belong to frames that longjmp() left: they
 * are dropped without calling their handlers), sends the thread to its
 * original return address and runs the chain's ret_handlers, innermost
 * first. A thread that reaches the trampoline without an instance gets
 * SIGILL.
 */
void uprobe_handle_trampoline(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *next, *chain, *ri;

	if (!utask || !utask->return_instances)
		goto bad;
	for (;;) {
		next = uprobe_chain_end(utask->return_instances);
		/* Returning from this chain's frame: the next one is live. */
		if (!next || arch_uretprobe_is_alive(next, RP_CHECK_RET, regs))
			break;
		while (utask->return_instances != next)
			uprobe_recycle_instance(utask,
						uprobe_pop_instance(utask));
	}
	chain = utask->return_instances;
	arch_uretprobe_set_return(regs, chain->orig_ret_vaddr);
	/*
	 * The chain is off the list before its handlers run: a user stack
	 * trace they take (perf, bpf_get_stack()) gives each trampoline
	 * address still on the stack the return address of the next
	 * pending chain (uprobe_fixup_callchain()), and this frame's is on
	 * the stack no more.
	 */
	for (ri = chain; ri != next; ri = ri->next)
		utask->depth--;
	WRITE_ONCE(utask->return_instances, next);
	while (chain != next) {
		ri = chain;
		chain = ri->next;
		uprobe_run_ret_handlers(ri, regs);
		uprobe_put(ri->uprobe);
		uprobe_recycle_instance(utask, ri);
	}
	return;
bad:
	pr_warn_ratelimited("pid %d: return trampoline without a pending return probe\n",
			    current->pid);
	force_sig(SIGILL);
}

/**
 * uprobe_abandon_returns() - give up current's pending return probes
 *
 * For a thread left without a trampoline (a forked child whose XOL area
 * could not be made): every diverted return address the architecture
 * can find gets its original back, so the program returns normally,
 * without its return handlers. A return through one it cannot find
 * faults.
 */
void uprobe_abandon_returns(void)
{
	struct uprobe_task *utask = current->utask;
	struct pt_regs regs = *task_pt_regs(current);
	struct return_instance *ri;
	bool lost = false;

	for (ri = utask->return_instances; ri; ri = ri->next) {
		/* A chain shares the slot of its outermost instance. */
		if (!ri->chained)
			lost |= !arch_uretprobe_restore_return_addr(ri, &regs);
	}
	if (lost)
		pr_warn_ratelimited("pid %d: diverted return addresses not restored, returns through them will fault\n",
				    current->pid);
	uprobe_free_return_instances(utask);
}

/**
 * uprobe_free_return_instances() - forget every pending return probe
 * @utask: the thread's state
 *
 * The instances kept for reuse go too.
 */
void uprobe_free_return_instances(struct uprobe_task *utask)
{
	struct return_instance *ri;

	while (utask->return_instances)
		kfree(uprobe_pop_instance(utask));
	while (utask->ri_spare) {
		ri = utask->ri_spare;
		utask->ri_spare = ri->next;
		kfree(ri);
	}
}

/**
 * uprobe_dup_return_instances() - copy pending return probes to a child
 * @child: the child's fresh state
 * @parent: the parent's state
 *
 * Cannot fail: the child's stack returns through the trampoline, and
 * would get SIGILL there without its instances. The copies are small and
 * at most MAX_URETPROBE_DEPTH.
 */
void uprobe_dup_return_instances(struct uprobe_task *child,
				 struct uprobe_task *parent)
{
	struct return_instance *ri, **tail = &child->return_instances;

	for (ri = parent->return_instances; ri; ri = ri->next) {
		struct return_instance *copy;

		copy = kmemdup(ri, sizeof(*ri), GFP_KERNEL | __GFP_NOFAIL);
		uprobe_get(copy->uprobe);
		copy->next = NULL;
		*tail = copy;
		tail = &copy->next;
		child->depth++;
	}
}

/**
 * uprobe_fixup_callchain() - put real return addresses in a user stack trace
 * @ips: the user part of a callchain
 * @nr: its length
 *
 * Pending return probes replaced return addresses with the trampoline;
 * each occurrence stands for the next pending chain of instances (an
 * instance and those of the tail calls it made), innermost first.
 */
void uprobe_fixup_callchain(u64 *ips, unsigned int nr)
{
	/* May interrupt current's own uprobe_free_utask(): read it once. */
	struct uprobe_task *utask = READ_ONCE(current->utask);
	struct return_instance *ri;
	unsigned long tramp;
	unsigned int i;

	ri = utask ? READ_ONCE(utask->return_instances) : NULL;
	if (likely(!ri))
		return;
	tramp = uprobe_get_trampoline_vaddr();
	for (i = 0; i < nr && ri; i++) {
		if (ips[i] == tramp) {
			ips[i] = ri->orig_ret_vaddr;
			/* A chain has one trampoline address on the stack. */
			ri = uprobe_chain_end(ri);
		}
	}
}

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/ret-kunit.h"
#endif
