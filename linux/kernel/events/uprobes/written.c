// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: where an address space has breakpoints of ours.
 *
 * Whether a breakpoint found at a probed address is ours can be told
 * neither from the memory (the program or a debugger may have written the
 * same int3) nor from the consumers' filters: those change before the walk
 * that follows them (a perf event closes, then its breakpoints are
 * removed), and some change with no walk at all (a forked child keeps the
 * breakpoints of a parent a filter named, a process leaves the session a
 * filter names). So each address space records the addresses where this
 * engine put a breakpoint and has not taken it out: readers' copies hide
 * those only, and a debugger's int3 over one of them is over ours.
 *
 * The record (struct uprobes_state::bps) is a maple tree of addresses,
 * allocated with the first breakpoint. It changes under the mmap lock held
 * for writing, with the breakpoints, and under the lock held for reading
 * when a write through ptrace or /proc/PID/mem takes a breakpoint's place
 * (the tree has its own lock; lookups are RCU readers). A forked child gets
 * a copy, or the fork fails. Moved code takes its addresses along.
 * Unmapping does not touch the record (the hook also runs when a mapping
 * is only split or merged, and the breakpoints stay): what is left of
 * mappings gone is pruned as the record grows, so that a process mapping
 * probed code at ever new addresses does not make it grow for ever. An
 * address left recorded where the page went back to the file's (its
 * copy dropped) makes an int3 written there later count as ours, in that
 * process only.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "internal.h"

/* Fewer recorded addresses than this are never pruned. */
#define BPS_PRUNE_MIN	64L

/**
 * struct uprobe_bps - the record of an address space's breakpoints
 * @tree: the addresses, each with a value entry
 * @nr: how many (also changed under the mmap lock held for reading)
 * @prune_at: @nr at which the addresses of mappings gone are dropped
 */
struct uprobe_bps {
	struct maple_tree	tree;
	atomic_long_t		nr;
	long			prune_at;
};

#define BPS_ENTRY	xa_mk_value(1)

static struct uprobe_bps *uprobe_bps_alloc(void)
{
	struct uprobe_bps *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	mt_init_flags(&b->tree, MT_FLAGS_USE_RCU);
	b->prune_at = BPS_PRUNE_MIN;
	return b;
}

static void uprobe_bps_erase(struct uprobe_bps *b, unsigned long vaddr)
{
	if (mtree_erase(&b->tree, vaddr))
		atomic_long_dec(&b->nr);
}

/* Drops the addresses no probeable mapping of @mm covers any more. */
static void uprobe_bps_prune(struct mm_struct *mm, struct uprobe_bps *b)
{
	struct vm_area_struct *vma;
	unsigned long index = 0;

	mmap_assert_write_locked(mm);
	/* The search leaves @index after the address found, 0 past the end. */
	while (mt_find_after(&b->tree, &index, ULONG_MAX)) {
		vma = vma_lookup(mm, index - 1);
		if (!vma || !uprobe_vma_probeable(vma))
			uprobe_bps_erase(b, index - 1);
	}
	b->prune_at = max(2 * atomic_long_read(&b->nr), BPS_PRUNE_MIN);
}

/**
 * uprobe_bps_note() - a breakpoint of ours is to be at an address
 * @mm: the address space, mmap lock held for writing
 * @vaddr: where
 *
 * Called before the breakpoint is written (or found there, having come
 * with the pages).
 *
 * Return: 0 or -ENOMEM (the breakpoint must not be written then).
 */
int uprobe_bps_note(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;
	int err;

	mmap_assert_write_locked(mm);
	if (!b) {
		b = uprobe_bps_alloc();
		if (!b)
			return -ENOMEM;
		mm->uprobes_state.bps = b;
	}
	if (mtree_load(&b->tree, vaddr))
		return 0;
	if (atomic_long_read(&b->nr) >= b->prune_at)
		uprobe_bps_prune(mm, b);
	err = mtree_store(&b->tree, vaddr, BPS_ENTRY, GFP_KERNEL);
	if (!err)
		atomic_long_inc(&b->nr);
	return err;
}

/**
 * uprobe_bps_unnote() - the breakpoint of ours at an address is gone
 * @mm: the address space, mmap lock held
 * @vaddr: where it was
 */
void uprobe_bps_unnote(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_locked(mm);
	if (b)
		uprobe_bps_erase(b, vaddr);
}

/**
 * uprobe_bps_noted() - is a breakpoint at an address ours?
 * @mm: the address space, mmap lock held
 * @vaddr: the address
 *
 * Return: true when the engine put a breakpoint at @vaddr in @mm and has
 * not taken it out.
 */
bool uprobe_bps_noted(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_locked(mm);
	return b && mtree_load(&b->tree, vaddr);
}

/**
 * uprobe_bps_move() - code with breakpoints of ours was moved (mremap)
 * @mm: the address space, mmap lock held for writing
 * @old_addr: where the range was
 * @new_addr: where it is now
 * @len: its length
 *
 * The breakpoints went with the pages: their addresses follow. One that
 * cannot be recorded at its new place (no memory) is logged, and taken
 * for someone else's there.
 */
void uprobe_bps_move(struct mm_struct *mm, unsigned long old_addr,
		     unsigned long new_addr, unsigned long len)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;
	unsigned long index = old_addr, vaddr;

	mmap_assert_write_locked(mm);
	if (!b || !len || old_addr == new_addr)
		return;
	while (mt_find(&b->tree, &index, old_addr + len - 1)) {
		vaddr = index - 1;
		uprobe_bps_erase(b, vaddr);
		if (uprobe_bps_note(mm, new_addr + (vaddr - old_addr)))
			pr_warn_ratelimited("pid %d: breakpoint moved to 0x%lx not recorded\n",
					    current->pid,
					    new_addr + (vaddr - old_addr));
	}
}

/**
 * uprobe_bps_dup() - a forked child has its parent's breakpoints
 * @oldmm: the parent's address space, mmap lock held for writing
 * @newmm: the child's, not yet running
 *
 * Return: 0 or -ENOMEM, which fails the fork: a child whose breakpoints
 * are not known to be ours would show them to its readers.
 */
int uprobe_bps_dup(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	struct uprobe_bps *old = oldmm->uprobes_state.bps, *b;
	unsigned long index = 0;
	int err = 0;

	mmap_assert_write_locked(oldmm);
	if (!old || !atomic_long_read(&old->nr))
		return 0;
	b = uprobe_bps_alloc();
	if (!b)
		return -ENOMEM;
	/* Published first: uprobe_bps_free() frees a partial copy. */
	newmm->uprobes_state.bps = b;
	while (!err && mt_find_after(&old->tree, &index, ULONG_MAX)) {
		err = mtree_store(&b->tree, index - 1, BPS_ENTRY, GFP_KERNEL);
		if (!err)
			atomic_long_inc(&b->nr);
	}
	b->prune_at = old->prune_at;
	return err;
}

/**
 * uprobe_bps_free() - an address space is torn down
 * @mm: the address space
 */
void uprobe_bps_free(struct mm_struct *mm)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	if (!b)
		return;
	mm->uprobes_state.bps = NULL;
	mtree_destroy(&b->tree);
	kfree(b);
}

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/written-kunit.h"
#endif
