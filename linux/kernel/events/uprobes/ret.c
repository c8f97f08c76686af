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

/* Room for this many consumers comes with every instance. */
#define UPROBE_RI_CONSUMERS	4

static struct return_instance *uprobe_new_instance(struct uprobe_task *utask)
{
	struct return_instance *ri = utask->ri_spare;

	if (ri) {
		utask->ri_spare = ri->next;
		return ri;
	}
	ri = kmalloc(struct_size(ri, consumers, UPROBE_RI_CONSUMERS),
		     GFP_KERNEL);
	if (ri)
		ri->max_consumers = UPROBE_RI_CONSUMERS;
	return ri;
}

/**
 * uprobe_return_add() - a consumer waits for the return of current's hit
 * @ri: the hit's instance so far, or NULL for the first such consumer
 * @id: the consumer's &uprobe_consumer.id
 * @cookie: what its entry handler left in its cookie
 *
 * An instance grows when it has no room left, and keeps its size when
 * reused: a thread allocates only for more consumers than ever before.
 *
 * Return: the instance, NULL if none could be had; without memory to
 * grow, @ri as it was (this consumer misses this return).
 */
struct return_instance *uprobe_return_add(struct return_instance *ri,
					  u64 id, u64 cookie)
{
	struct return_instance *big;
	unsigned int n;

	if (!ri) {
		ri = uprobe_new_instance(current->utask);
		if (!ri)
			return NULL;
		ri->nr_consumers = 0;
	}
	n = ri->nr_consumers;
	if (n == ri->max_consumers) {
		big = krealloc(ri, struct_size(ri, consumers, 2 * n),
			       GFP_KERNEL);
		if (!big) {
			pr_warn_ratelimited("pid %d: no memory for a return probe's consumer\n",
					    current->pid);
			return ri;
		}
		ri = big;
		ri->max_consumers = 2 * n;
	}
	ri->consumers[n].id = id;
	ri->consumers[n].cookie = cookie;
	ri->nr_consumers = n + 1;
	return ri;
}

/**
 * uprobe_return_discard() - no return to watch for current's hit after all
 * @ri: what uprobe_return_add() gave, or NULL
 */
void uprobe_return_discard(struct return_instance *ri)
{
	if (ri)
		uprobe_recycle_instance(current->utask, ri);
}

/* Drops instances of frames that were left without returning. */
static void uprobe_drop_dead_instances(struct uprobe_task *utask,
				       enum rp_check ctx, struct pt_regs *regs)
{
	while (utask->return_instances &&
	       !arch_uretprobe_is_alive(utask->return_instances, ctx, regs))
		uprobe_recycle_instance(utask, uprobe_pop_instance(utask));
}

/*
 * Was the call that entered the frame of @ret made again, with the return
 * address @ra? @ret and the instances under it entered at the same sp
 * (callers without a frame of their own, under their callees) were
 * called from the sites their return addresses follow: a call from one
 * of those sites, at that sp, is made by the frame that made that call
 * before, which has therefore ended it and every frame entered since.
 */
static bool uprobe_called_again(const struct return_instance *ret,
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
 * A call leaves the return address in a register and sp as it is: a
 * function is entered, and returns, with its caller's sp.
 *
 * At a new entry a frame entered below sp has gone (longjmp). One entered
 * at sp is either a caller without a stack frame of its own (arm64: mov
 * x9, x30; bl g; mov x30, x9; ret; s390: lgr %r0,%r14; brasl %r14,g; ...:
 * g is entered with its caller's sp) or a frame longjmp left, back in the
 * frame that now calls: the latter calls again from a site such a frame
 * was called from (uprobe_called_again()). At a tail call a frame entered
 * at sp is still there.
 *
 * At a return through the trampoline sp is the returning function's entry
 * sp: a frame entered higher is a live caller, one entered lower has gone.
 * A frame entered at sp itself is either the one returning, the frames
 * above it left by longjmp (their instances, on top, entered lower), or a
 * caller without a frame under the returning one at the top, entered at
 * the same sp. Taking the first for the second would run the handlers of
 * the frames longjmp left and send the program to a return address of
 * theirs; the second for the first, the caller's.
 */
static bool uprobe_lr_alive(const struct return_instance *ret,
			    enum rp_check ctx, unsigned long sp,
			    unsigned long ra, const struct return_instance *top)
{
	switch (ctx) {
	case RP_CHECK_CALL:
		if (sp != ret->stack)
			return sp < ret->stack;
		return !uprobe_called_again(ret, ra);
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
 * uprobe_lr_ret_alive() - arch_uretprobe_is_alive() for a link register
 * @ret: the return instance, ->stack is sp at the function's entry
 * @ctx: where current is: at a (chained) function entry, or returning
 * @sp: current's stack pointer
 * @ra: at an entry (%RP_CHECK_CALL), the return address it diverted
 *
 * For an architecture whose calls leave the return address in a register
 * and sp as it is (arm64, s390): see uprobe_lr_alive() for the rule.
 *
 * Return: true if the frame of @ret may still return.
 */
bool uprobe_lr_ret_alive(const struct return_instance *ret,
			 enum rp_check ctx, unsigned long sp, unsigned long ra)
{
	struct uprobe_task *utask = current->utask;

	return uprobe_lr_alive(ret, ctx, sp, ra,
			       utask ? utask->return_instances : NULL);
}

/**
 * uprobe_prepare_return() - watch the return of the function just entered
 * @uprobe: the probe at the function's entry, hit by current
 * @ri: the consumers waiting for the return (uprobe_return_add()); the
 *	instance is used or recycled
 * @regs: the user registers at the entry
 *
 * Must be called in a uprobes SRCU read section: @uprobe may be on its
 * way out (its last consumer gone while the entry handlers ran), and is
 * then not watched.
 */
void uprobe_prepare_return(struct uprobe *uprobe, struct return_instance *ri,
			   struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long tramp, orig;
	bool chained;

	tramp = xol_area_ensure();
	if (!tramp)
		goto free;
	/* Everything that can fail comes before the return address changes. */
	uprobe_drop_dead_instances(utask, RP_CHECK_CHAIN_CALL, regs);
	if (utask->depth >= MAX_URETPROBE_DEPTH) {
		pr_warn_ratelimited("pid %d: return probes nested deeper than %d, ignoring\n",
				    current->pid, MAX_URETPROBE_DEPTH);
		goto free;
	}
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

/*
 * The entry of consumer @id in @ri, looked for from *@next on: entries
 * are in the order of the probe's consumer list, which consumers leave
 * and join but never reorder.
 */
static struct return_consumer *uprobe_return_consumer(struct return_instance *ri,
						      unsigned int *next, u64 id)
{
	unsigned int n = ri->nr_consumers, i, k;

	for (i = 0; i < n; i++) {
		k = *next + i;
		if (k >= n)
			k -= n;
		if (ri->consumers[k].id == id) {
			*next = k + 1;
			return &ri->consumers[k];
		}
	}
	return NULL;
}

/*
 * A consumer with an entry handler (a session) gets the return only if
 * it has an entry in @ri: not when it was registered after the entry or
 * declined the return there. One with only a ret_handler gets every
 * return, with a zero cookie if it came after the entry.
 */
static void uprobe_run_ret_handlers(struct return_instance *ri,
				    struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_consumer *rc;
	struct uprobe_consumer *uc;
	unsigned int next = 0;
	__u64 cookie;
	int idx;

	idx = uprobes_srcu_lock();
	utask->func_ip = ri->func;
	list_for_each_entry_srcu(uc, &ri->uprobe->consumers, cons_node,
				 uprobes_srcu_held()) {
		if (!uc->ret_handler)
			continue;
		rc = uprobe_return_consumer(ri, &next, uc->id);
		if (rc) {
			uc->ret_handler(uc, ri->func, regs, &rc->cookie);
		} else if (!uc->handler) {
			cookie = 0;
			uc->ret_handler(uc, ri->func, regs, &cookie);
		}
	}
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
		size_t size;

		/* As full as the original, not as large: no room to spare. */
		size = struct_size(ri, consumers, ri->nr_consumers);
		copy = kmalloc(size, GFP_KERNEL | __GFP_NOFAIL);
		memcpy(copy, ri, size);
		copy->max_consumers = ri->nr_consumers;
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
