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
 * The notes belong to the address space they are about (struct
 * uprobes_state::dbg_notes), allocated at its first and charged to its
 * memory cgroup of the writer: what one process writes into its own code
 * (through /proc/self/mem, which a JIT may) costs nobody else anything.
 * Only code a probe may be in (probeable mappings) gets notes, at most
 * DBG_MAX_BPS per address space (a debugger's breakpoints, a few
 * thousand at most); past the bound an int3 is not noted, which is
 * logged, and is taken for a probe's should one be there, in that
 * process only. The hit path reads the address space's pointer first and
 * looks no further while it has none; a lookup takes no lock (RCU).
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "internal.h"

/*
 * A debugger's int3 at @vaddr; @over: one of our breakpoints is under it
 * (it goes back in when the debugger takes its int3 out).
 */
struct uprobe_dbg_bp {
	struct hlist_node	node;
	unsigned long		vaddr;
	bool			over;
	struct rcu_head		rcu;
};

#define DBG_HASH_BITS	6
#define DBG_MAX_BPS	4096

/**
 * struct uprobe_dbg_notes - the debugger's breakpoints of an address space
 * @lock: serialises changes; lookups are RCU readers
 * @nr: how many are noted
 * @full: the bound was reached (logged once)
 * @buckets: the notes, hashed by address
 */
struct uprobe_dbg_notes {
	spinlock_t		lock;	/* see above */
	unsigned int		nr;
	bool			full;
	struct hlist_head	buckets[1 << DBG_HASH_BITS];
};

static struct uprobe_dbg_notes *uprobe_dbg_notes(struct mm_struct *mm)
{
	/* Pairs with the release in uprobe_dbg_notes_get(). */
	return smp_load_acquire(&mm->uprobes_state.dbg_notes);
}

/* @mm's notes, allocated at the first; NULL without memory. */
static struct uprobe_dbg_notes *uprobe_dbg_notes_get(struct mm_struct *mm)
{
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(mm), *old;
	int i;

	if (n)
		return n;
	n = kzalloc(sizeof(*n), GFP_KERNEL_ACCOUNT);
	if (!n)
		return NULL;
	spin_lock_init(&n->lock);
	for (i = 0; i < ARRAY_SIZE(n->buckets); i++)
		INIT_HLIST_HEAD(&n->buckets[i]);
	/* Writers of one address space may race here (mmap lock shared). */
	old = cmpxchg_release(&mm->uprobes_state.dbg_notes, NULL, n);
	if (!old)
		return n;
	kfree(n);
	return old;
}

static struct hlist_head *uprobe_dbg_bucket(struct uprobe_dbg_notes *n,
					    unsigned long vaddr)
{
	return &n->buckets[hash_long(vaddr, DBG_HASH_BITS)];
}

static struct uprobe_dbg_bp *uprobe_dbg_find(struct uprobe_dbg_notes *n,
					     unsigned long vaddr)
{
	struct uprobe_dbg_bp *d;

	lockdep_assert_held(&n->lock);
	hlist_for_each_entry(d, uprobe_dbg_bucket(n, vaddr), node)
		if (d->vaddr == vaddr)
			return d;
	return NULL;
}

/* The note at @vaddr, found by an RCU reader. */
static struct uprobe_dbg_bp *uprobe_dbg_find_rcu(struct uprobe_dbg_notes *n,
						 unsigned long vaddr)
{
	struct uprobe_dbg_bp *d;

	hlist_for_each_entry_rcu(d, uprobe_dbg_bucket(n, vaddr), node)
		if (d->vaddr == vaddr)
			return d;
	return NULL;
}

static void uprobe_dbg_free(struct uprobe_dbg_notes *n,
			    struct uprobe_dbg_bp *d)
{
	lockdep_assert_held(&n->lock);
	hlist_del_rcu(&d->node);
	n->nr--;
	kfree_rcu(d, rcu);
}

static void uprobe_dbg_insert(struct uprobe_dbg_notes *n,
			      struct uprobe_dbg_bp *d)
{
	lockdep_assert_held(&n->lock);
	hlist_add_head_rcu(&d->node, uprobe_dbg_bucket(n, d->vaddr));
	n->nr++;
}

/**
 * __uprobe_dbg_bp_at() - is a debugger's breakpoint noted here?
 * @mm: the address space
 * @vaddr: the probed address
 *
 * The slow part of uprobe_dbg_bp_at().
 *
 * Return: true when one was noted at @vaddr.
 */
bool __uprobe_dbg_bp_at(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(mm);
	bool found;

	if (!n)
		return false;
	rcu_read_lock();
	found = uprobe_dbg_find_rcu(n, vaddr);
	rcu_read_unlock();
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
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(mm);
	struct uprobe_dbg_bp *d;
	bool over;

	if (!n)
		return false;
	rcu_read_lock();
	d = uprobe_dbg_find_rcu(n, vaddr);
	over = d && READ_ONCE(d->over);
	rcu_read_unlock();
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
	struct uprobe_dbg_notes *n = uprobe_dbg_notes_get(mm);
	struct uprobe_dbg_bp *d, *old;

	if (!n)
		return;
	d = kmalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	spin_lock(&n->lock);
	old = uprobe_dbg_find(n, vaddr);
	if (old) {
		WRITE_ONCE(old->over, over);
	} else if (d && n->nr < DBG_MAX_BPS) {
		d->vaddr = vaddr;
		d->over = over;
		uprobe_dbg_insert(n, d);
		d = NULL;
	} else if (d && !n->full) {
		n->full = true;
		pr_warn("pid %d: more than %d breakpoints written into mm %p: those past them are not told from probes'\n",
			current->pid, DBG_MAX_BPS, mm);
	}
	spin_unlock(&n->lock);
	kfree(d);
}

/**
 * uprobe_trap_len() - does an instruction trap like a breakpoint?
 * @insn: its bytes, from its first
 * @len: how many of them may be read, UPROBE_SWBP_INSN_SIZE at least
 *
 * A trap is a debugger's breakpoint instruction the architecture's
 * is_trap_insn() does not know (uprobe_legacy_dbg_bp_len()), or what
 * is_trap_insn() takes for one: in the breakpoint's UPROBE_SWBP_INSN_SIZE
 * bytes, or in the whole of uprobe_opcode_t where that is longer and @len
 * has it (riscv's 4-byte ebreak, a debugger's breakpoint at a 4-byte
 * instruction, where ours is the 2-byte c.ebreak).
 *
 * Return: the trap's length in bytes, or 0 when @insn is no trap.
 */
int uprobe_trap_len(const void *insn, unsigned int len)
{
	const unsigned int s = UPROBE_SWBP_INSN_SIZE;
	uprobe_opcode_t op;
	int n;

	n = uprobe_legacy_dbg_bp_len(insn, len);
	if (n)
		return n;
	uprobe_opcode_init(&op);
	memcpy(&op, insn, s);
	if (is_trap_insn(&op))
		return s;
	if (sizeof(op) == s || len < sizeof(op))
		return 0;
	memcpy(&op, insn, sizeof(op));
	return is_trap_insn(&op) ? sizeof(op) : 0;
}

/**
 * uprobe_dbg_bps_written() - a debugger writes to a process's memory
 * @mm: the address space, mmap lock held
 * @addr: where
 * @buf: the bytes written (after uprobe_keep_bps() kept our breakpoints)
 * @cur: the bytes there before
 * @len: how many, not crossing a page
 *
 * A breakpoint instruction (uprobe_trap_len()) written into code where
 * there was none is the debugger's breakpoint; any other instruction written
 * where one was noted ends it. Only the instructions the write covers
 * whole are looked at: a debugger writes its breakpoint in one piece.
 */
void uprobe_dbg_bps_written(struct mm_struct *mm, unsigned long addr,
			    const u8 *buf, const u8 *cur, size_t len)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	const unsigned int s = UPROBE_SWBP_INSN_SIZE;
	unsigned long a, end = addr + len;
	unsigned int n;
	bool trap;

	if (!vma || !uprobe_vma_probeable(vma))
		return;
	for (a = ALIGN(addr, s); a + s <= end; a += s) {
		n = min_t(unsigned long, end - a, sizeof(uprobe_opcode_t));
		trap = uprobe_trap_len(buf + (a - addr), n);
		if (trap && !uprobe_trap_len(cur + (a - addr), n) &&
		    !uprobe_dbg_bp_at(mm, a))
			uprobe_dbg_bp_set(mm, a, false);
		else if (!trap && uprobe_dbg_bp_at(mm, a))
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
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(mm);
	struct uprobe_dbg_bp *d;
	struct hlist_node *tmp;
	unsigned int i;

	if (!n)
		return;
	spin_lock(&n->lock);
	if (end - start == 1) {
		d = uprobe_dbg_find(n, start);
		if (d)
			uprobe_dbg_free(n, d);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(n->buckets); i++)
		hlist_for_each_entry_safe(d, tmp, &n->buckets[i], node)
			if (d->vaddr >= start && d->vaddr < end)
				uprobe_dbg_free(n, d);
out:
	spin_unlock(&n->lock);
}

/**
 * uprobe_dbg_notes_free() - an address space is torn down
 * @mm: the address space, which nothing else uses any more
 */
void uprobe_dbg_notes_free(struct mm_struct *mm)
{
	struct uprobe_dbg_notes *n = mm->uprobes_state.dbg_notes;

	if (!n)
		return;
	uprobe_dbg_bps_forget(mm, 0, ULONG_MAX);
	mm->uprobes_state.dbg_notes = NULL;
	kfree(n);
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
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(oldmm);
	struct uprobe_dbg_bp *d;
	unsigned int i;

	/* The parent's notes change only under its mmap lock, held. */
	if (!n)
		return;
	for (i = 0; i < ARRAY_SIZE(n->buckets); i++)
		hlist_for_each_entry(d, &n->buckets[i], node)
			uprobe_dbg_bp_set(newmm, d->vaddr, d->over);
}

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/debugger-kunit.h"
#endif
