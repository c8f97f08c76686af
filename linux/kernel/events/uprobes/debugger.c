// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: a debugger's breakpoints on probed instructions.
 *
 * A debugger that puts its breakpoint where one of ours is writes an
 * int3 over our int3, or over the first byte of our jump to a stub: the
 * memory cannot tell that there are two. So every int3 a debugger writes
 * into the code of a process (uprobe_keep_bps() sees the writes of
 * ptrace, /proc/PID/mem and access_process_vm()) is noted here, until it
 * writes something else there, one of our breakpoints goes in where no
 * int3 is, or the address space goes: an int3 noted is the debugger's,
 * whether a probe was there before it or comes after it.
 *
 * A hit of a probe under a noted int3 runs the probe's handlers, then is
 * left to the architecture, which reports it to the debugger as it would
 * without the probe. The debugger then takes its breakpoint out and steps
 * over the instruction: that hit of ours is the same execution, and runs
 * no handlers (see uprobe_task::restart_trap). Readers of the process's
 * memory see the debugger's int3 there, and removing the probe leaves it.
 *
 * The notes are few (a debugger's breakpoints): a hash table of (address
 * space, address) under one spinlock; the hit path reads a count first
 * and looks no further while there are none. A process can write int3s
 * into its own code through /proc/self/mem: the notes are charged to its
 * memory cgroup and their number is bounded; past the bound an int3 is
 * not noted (a debugger's over a probe's is then taken for the probe's).
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "internal.h"

/*
 * A debugger's int3 at @vaddr in @mm; @over: one of our breakpoints is
 * under it (it goes back in when the debugger takes its int3 out).
 */
struct uprobe_dbg_bp {
	struct hlist_node	node;
	struct mm_struct	*mm;
	unsigned long		vaddr;
	bool			over;
};

#define DBG_HASH_BITS	8
#define DBG_MAX_BPS	(64 << DBG_HASH_BITS)
static struct hlist_head dbg_buckets[1 << DBG_HASH_BITS];
static DEFINE_SPINLOCK(dbg_lock);
unsigned long uprobe_nr_dbg_bps;

static struct hlist_head *uprobe_dbg_bucket(struct mm_struct *mm,
					    unsigned long vaddr)
{
	return &dbg_buckets[hash_long((unsigned long)mm ^ vaddr,
				      DBG_HASH_BITS)];
}

static struct uprobe_dbg_bp *uprobe_dbg_find(struct mm_struct *mm,
					     unsigned long vaddr)
{
	struct uprobe_dbg_bp *d;

	lockdep_assert_held(&dbg_lock);
	hlist_for_each_entry(d, uprobe_dbg_bucket(mm, vaddr), node)
		if (d->mm == mm && d->vaddr == vaddr)
			return d;
	return NULL;
}

static void uprobe_dbg_free(struct uprobe_dbg_bp *d)
{
	lockdep_assert_held(&dbg_lock);
	hlist_del(&d->node);
	WRITE_ONCE(uprobe_nr_dbg_bps, uprobe_nr_dbg_bps - 1);
	kfree(d);
}

static void uprobe_dbg_insert(struct uprobe_dbg_bp *d)
{
	lockdep_assert_held(&dbg_lock);
	hlist_add_head(&d->node, uprobe_dbg_bucket(d->mm, d->vaddr));
	WRITE_ONCE(uprobe_nr_dbg_bps, uprobe_nr_dbg_bps + 1);
}

/**
 * __uprobe_dbg_bp_at() - is a debugger's breakpoint over ours here?
 * @mm: the address space
 * @vaddr: the probed address
 *
 * The slow part of uprobe_dbg_bp_at().
 *
 * Return: true when one was noted at @vaddr.
 */
bool __uprobe_dbg_bp_at(struct mm_struct *mm, unsigned long vaddr)
{
	bool found;

	spin_lock(&dbg_lock);
	found = uprobe_dbg_find(mm, vaddr);
	spin_unlock(&dbg_lock);
	return found;
}

/**
 * uprobe_dbg_bp_over() - is one of our breakpoints under a debugger's?
 * @mm: the address space
 * @vaddr: the probed address
 *
 * Return: true when a debugger's int3 is noted at @vaddr over one of ours.
 */
bool uprobe_dbg_bp_over(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_dbg_bp *d;
	bool over;

	spin_lock(&dbg_lock);
	d = uprobe_dbg_find(mm, vaddr);
	over = d && d->over;
	spin_unlock(&dbg_lock);
	return over;
}

/**
 * uprobe_dbg_bp_set() - note a debugger's breakpoint
 * @mm: the address space, mmap lock held
 * @vaddr: where, in code
 * @over: one of our breakpoints is under it
 *
 * A debugger wrote its int3 (@over: onto ours), or one of ours went in
 * under it (@over) or out from under it (!@over). Without memory a new
 * int3 is not noted: it is then taken for a probe's, should one be there.
 */
void uprobe_dbg_bp_set(struct mm_struct *mm, unsigned long vaddr, bool over)
{
	struct uprobe_dbg_bp *d = kmalloc(sizeof(*d), GFP_KERNEL_ACCOUNT), *old;

	spin_lock(&dbg_lock);
	old = uprobe_dbg_find(mm, vaddr);
	if (old) {
		old->over = over;
	} else if (d && uprobe_nr_dbg_bps < DBG_MAX_BPS) {
		d->mm = mm;
		d->vaddr = vaddr;
		d->over = over;
		uprobe_dbg_insert(d);
		d = NULL;
	}
	spin_unlock(&dbg_lock);
	kfree(d);
}

/**
 * uprobe_dbg_bps_written() - a debugger writes to a process's memory
 * @mm: the address space, mmap lock held
 * @addr: where
 * @buf: the bytes written (after uprobe_keep_bps() kept our breakpoints)
 * @cur: the bytes there before
 * @len: how many, not crossing a page
 *
 * A breakpoint instruction (is_trap_insn()) written into code where there
 * was none is the debugger's breakpoint; any other instruction written
 * where one was noted ends it. Only the instructions the write covers
 * whole are looked at: a debugger writes its breakpoint in one piece.
 */
void uprobe_dbg_bps_written(struct mm_struct *mm, unsigned long addr,
			    const u8 *buf, const u8 *cur, size_t len)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	uprobe_opcode_t b, now;
	unsigned long a;

	if (!vma || !uprobe_vma_probeable(vma))
		return;
	for (a = ALIGN(addr, sizeof(b)); a + sizeof(b) <= addr + len;
	     a += sizeof(b)) {
		memcpy(&b, buf + (a - addr), sizeof(b));
		memcpy(&now, cur + (a - addr), sizeof(now));
		if (is_trap_insn(&b) && !is_trap_insn(&now) &&
		    !uprobe_dbg_bp_at(mm, a))
			uprobe_dbg_bp_set(mm, a, false);
		else if (!is_trap_insn(&b) && uprobe_dbg_bp_at(mm, a))
			uprobe_dbg_bps_forget(mm, a, a + 1);
	}
}

/**
 * uprobe_dbg_bps_forget() - forget a debugger's breakpoints in a range
 * @mm: the address space: mmap lock held, or being torn down
 * @start: first address
 * @end: address after the range
 *
 * Called when the debugger writes something else at a breakpoint, when
 * one of ours goes in where there was no int3 (one address each), and
 * for the whole space when it is torn down.
 */
void uprobe_dbg_bps_forget(struct mm_struct *mm, unsigned long start,
			   unsigned long end)
{
	struct uprobe_dbg_bp *d;
	struct hlist_node *tmp;
	unsigned int i;

	if (!READ_ONCE(uprobe_nr_dbg_bps))
		return;
	spin_lock(&dbg_lock);
	if (end - start == 1) {
		d = uprobe_dbg_find(mm, start);
		if (d)
			uprobe_dbg_free(d);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(dbg_buckets); i++)
		hlist_for_each_entry_safe(d, tmp, &dbg_buckets[i], node)
			if (d->mm == mm && d->vaddr >= start && d->vaddr < end)
				uprobe_dbg_free(d);
out:
	spin_unlock(&dbg_lock);
}

/**
 * uprobe_dbg_bps_dup() - a forked child keeps the debugger's breakpoints
 * @oldmm: the parent's address space, mmap lock held for writing
 * @newmm: the child's, a copy of the parent's pages to be
 *
 * The child's pages have the debugger's int3s as the parent's do; a
 * debugger that follows the child keeps them, one that detaches from it
 * writes back what it read. A note that cannot be allocated leaves the
 * child's breakpoint taken for ours.
 */
void uprobe_dbg_bps_dup(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	struct uprobe_dbg_bp *d, **copies;
	unsigned int n = 0, i, b;

	if (!READ_ONCE(uprobe_nr_dbg_bps))
		return;
	/* The parent's notes change only under its mmap lock. */
	spin_lock(&dbg_lock);
	for (b = 0; b < ARRAY_SIZE(dbg_buckets); b++)
		hlist_for_each_entry(d, &dbg_buckets[b], node)
			n += d->mm == oldmm;
	spin_unlock(&dbg_lock);
	if (!n)
		return;
	copies = kcalloc(n, sizeof(*copies), GFP_KERNEL);
	if (!copies)
		return;
	for (i = 0; i < n; i++) {
		copies[i] = kmalloc(sizeof(**copies), GFP_KERNEL_ACCOUNT);
		if (!copies[i])
			break;
		copies[i]->mm = newmm;
	}
	n = i;
	i = 0;
	spin_lock(&dbg_lock);
	for (b = 0; b < ARRAY_SIZE(dbg_buckets) && i < n; b++) {
		hlist_for_each_entry(d, &dbg_buckets[b], node) {
			if (d->mm != oldmm || i == n ||
			    uprobe_nr_dbg_bps >= DBG_MAX_BPS)
				continue;
			copies[i]->vaddr = d->vaddr;
			copies[i]->over = d->over;
			uprobe_dbg_insert(copies[i++]);
		}
	}
	spin_unlock(&dbg_lock);
	while (i < n)
		kfree(copies[i++]);
	kfree(copies);
}

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/debugger-kunit.h"
#endif
