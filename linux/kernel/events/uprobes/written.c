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
 * allocated with the first breakpoint. Each address is recorded with the
 * file and offset mapped there when the breakpoint was noted (a hash of
 * them, uprobe_bps_key()): an address the record kept after its mapping
 * went, where another file is mapped now, is not taken for one of ours
 * there (an int3 the program wrote into its copy of that file's code,
 * probed later, is the program's: readers see it, and the probe's
 * removal leaves it). It changes under the mmap lock held
 * for writing, with the breakpoints, and under the lock held for reading
 * when a write through ptrace or /proc/PID/mem takes a breakpoint's place;
 * lookups hold the mmap lock too, and the tree's own lock where they may
 * meet such a write. The tree is not in RCU mode, which would copy a node
 * for every address stored (a probe's registration stores one per
 * process mapping the file). A forked child gets
 * a copy, or the fork fails. Moved code takes its addresses along.
 * Unmapping does not touch the record: the hook also runs when a mapping
 * is only split or merged, and the breakpoints stay. A probed address of
 * a mapping made or changed that gets no breakpoint is forgotten where
 * the page is the file's (uprobe_bps_recheck()). Addresses where no
 * breakpoint of ours can be any more (no mapping of a file with a live
 * probe there) are pruned as the record grows, so that a process mapping
 * probed code at ever new addresses does not make it grow for ever. Such
 * addresses are left by unmapping, and the record grows past them only
 * with code mapped or moved to new addresses: a pass is made only when a
 * file was mapped or code moved since the last (a registration noting
 * thousands of addresses in processes that map nothing meanwhile paid
 * passes for nothing: 10% of perf's registration of 2,000 probes in 20
 * processes). An
 * address still mapped and probed whose page went back to the file's with
 * no mapping change (the process dropped its copy, and the probe does not
 * want it) makes an int3 the program writes there later count as ours,
 * in that process only.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/jhash.h>
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
 * @remapped: a file was mapped since the last pass that dropped them
 * @lost: a breakpoint could not be recorded (see uprobe_bps_move())
 * @removed: how many times breakpoints of ours went (uprobe_bps_removed())
 */
struct uprobe_bps {
	struct maple_tree	tree;
	atomic_long_t		nr;
	long			prune_at;
	bool			remapped;
	bool			lost;
	atomic_long_t		removed;
};

/*
 * What an address of @mm is recorded with: a hash of the file and offset
 * mapped at @vaddr (odd), or 0 where no file is (the KUnit tests' address
 * spaces have no mapping).
 */
static void *uprobe_bps_key(struct mm_struct *mm, unsigned long vaddr)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);
	struct inode *inode;
	loff_t off;
	u32 id[6];

	if (!vma || !vma->vm_file)
		return xa_mk_value(0);
	inode = file_inode(vma->vm_file);
	off = uprobe_vma_vaddr_offset(vma, vaddr);
	id[0] = lower_32_bits(inode->i_ino);
	id[1] = upper_32_bits(inode->i_ino);
	id[2] = inode->i_sb->s_dev;
	id[3] = inode->i_generation;
	id[4] = lower_32_bits(off);
	id[5] = upper_32_bits(off);
	return xa_mk_value((jhash2(id, ARRAY_SIZE(id), 0) >> 1) | 1);
}

static struct uprobe_bps *uprobe_bps_alloc(void)
{
	struct uprobe_bps *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	/*
	 * An allocation tree, as the VMA tree: in 6.12 the RCU callback
	 * freeing the nodes of a tree in RCU mode without
	 * MT_FLAGS_ALLOC_RANGE (mt_free_walk()) takes the metadata kept in
	 * the last slot of an inner node with 15 children for a 16th child,
	 * and oopses; a record of a few thousand addresses has such nodes.
	 * The record left RCU mode since, and keeps the flag.
	 */
	mt_init_flags(&b->tree, MT_FLAGS_ALLOC_RANGE);
	b->prune_at = BPS_PRUNE_MIN;
	return b;
}

/*
 * Erasing may need memory too: without it the address stays, counted,
 * and keeps counting as ours.
 */
static void uprobe_bps_erase(struct uprobe_bps *b, unsigned long vaddr)
{
	MA_STATE(mas, &b->tree, vaddr, vaddr);
	void *entry, *left;

	/* An erase without memory returns the entry and leaves it. */
	mtree_lock(&b->tree);
	entry = mas_erase(&mas);
	mas_set(&mas, vaddr);
	left = mas_walk(&mas);
	mtree_unlock(&b->tree);
	if (entry && !left)
		atomic_long_dec(&b->nr);
}

/* The breakpoint at @vaddr went, with its record: counted. */
static void uprobe_bps_gone(struct uprobe_bps *b, unsigned long vaddr)
{
	uprobe_bps_erase(b, vaddr);
	atomic_long_inc(&b->removed);
}

/* What @vaddr is recorded with. Safe beside an erase under the read lock. */
static void *uprobe_bps_entry(struct uprobe_bps *b, unsigned long vaddr)
{
	void *entry;

	mtree_lock(&b->tree);
	entry = mtree_load(&b->tree, vaddr);
	mtree_unlock(&b->tree);
	return entry;
}

/* Records @vaddr with @entry, counted if it is new: 0 or -ENOMEM. */
static int uprobe_bps_store(struct uprobe_bps *b, unsigned long vaddr,
			    void *entry, bool new)
{
	int err = mtree_store(&b->tree, vaddr, entry, GFP_KERNEL);

	if (!err && new)
		atomic_long_inc(&b->nr);
	return err;
}

/*
 * Is the breakpoint recorded at @vaddr possibly still there: a mapping of
 * a file covers it, and a live probe of that file is at that offset?
 */
static bool uprobe_bps_may_be(struct mm_struct *mm, unsigned long vaddr)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);
	bool found;
	int idx;

	if (!vma || !uprobe_vma_probeable(vma))
		return false;
	idx = uprobes_srcu_lock();
	found = uprobe_lookup(file_inode(vma->vm_file),
			      uprobe_vma_vaddr_offset(vma, vaddr));
	uprobes_srcu_unlock(idx);
	return found;
}

/*
 * Drops the addresses where no breakpoint of ours can be any more: the
 * mapping went, or the file mapped there now has no probe there.
 */
static void uprobe_bps_prune(struct mm_struct *mm, struct uprobe_bps *b)
{
	unsigned long index = 0;
	void *entry;

	mmap_assert_write_locked(mm);
	b->remapped = false;
	/* Each search leaves @index just past the address it found. */
	mt_for_each(&b->tree, entry, index, ULONG_MAX)
		if (!uprobe_bps_may_be(mm, index - 1))
			uprobe_bps_erase(b, index - 1);
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
	void *key = uprobe_bps_key(mm, vaddr), *entry;

	mmap_assert_write_locked(mm);
	if (!b) {
		b = uprobe_bps_alloc();
		if (!b)
			return -ENOMEM;
		mm->uprobes_state.bps = b;
	}
	entry = mtree_load(&b->tree, vaddr);
	if (entry == key)
		return 0;
	if (!entry && b->remapped && atomic_long_read(&b->nr) >= b->prune_at)
		uprobe_bps_prune(mm, b);
	/* An address recorded for another file's code takes this one's. */
	return uprobe_bps_store(b, vaddr, key, !entry);
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
		uprobe_bps_gone(b, vaddr);
}

/**
 * uprobe_bps_dropped() - breakpoints of ours went with their pages
 * @mm: the address space, mmap lock held
 *
 * The process's copies of probed pages were dropped (MADV_DONTNEED, or
 * the range MREMAP_DONTUNMAP leaves): the file's pages come back, without
 * the breakpoints, which stay recorded until they are put back. Counted
 * as breakpoints gone (uprobe_bps_removed()).
 */
void uprobe_bps_dropped(struct mm_struct *mm)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_locked(mm);
	if (b)
		atomic_long_inc(&b->removed);
}

/**
 * uprobe_bps_removed() - how many times breakpoints of ours went from an mm
 * @mm: the address space, mmap lock held
 *
 * Counted under the mmap lock, after the instruction is back: written
 * back (uprobe_bps_unnote()), dropped with the process's copy of the page
 * (uprobe_bps_dropped()), or the address given to other code (a mapping
 * replaced, code moved over it). So a thread that found an instruction
 * where it trapped on a breakpoint, and then takes the mmap lock for
 * writing, finds the breakpoint's going counted. For an architecture
 * whose breakpoint traps as any invalid instruction does (s390, see
 * uprobe_s390_bkpt_gone()).
 *
 * Return: the count, 0 when none ever went.
 */
unsigned long uprobe_bps_removed(struct mm_struct *mm)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_locked(mm);
	return b ? atomic_long_read(&b->removed) : 0;
}

/**
 * uprobe_bps_noted() - is a breakpoint at an address ours?
 * @mm: the address space, mmap lock held
 * @vaddr: the address
 *
 * Return: true when the engine put a breakpoint at @vaddr in @mm, into
 * the code mapped there now, and has not taken it out.
 */
bool uprobe_bps_noted(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_locked(mm);
	return b && (b->lost ||
		     uprobe_bps_entry(b, vaddr) == uprobe_bps_key(mm, vaddr));
}

/**
 * uprobe_bps_remapped() - a file is being mapped in the address space
 * @mm: the address space, mmap lock held for writing
 *
 * Called by the mmap hook, for a new mapping or one split or merged, also
 * while no probe is registered: breakpoints may now be noted at new
 * addresses, and the record grow past addresses that unmapping left.
 */
void uprobe_bps_remapped(struct mm_struct *mm)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;

	mmap_assert_write_locked(mm);
	if (b)
		b->remapped = true;
}

/**
 * uprobe_bps_recheck() - a probed address gets no breakpoint when mapped
 * @mm: the address space, mmap lock held for writing
 * @vaddr: the address, in a mapping of a file just made or changed
 *
 * An address recorded for code mapped there before and unmapped since
 * (a library closed and opened again at the same place, where the probe
 * does not want the process now) is forgotten, unless the process's own
 * copy of the page is there: a mapping only split or merged keeps its
 * breakpoints, and a file's page has none of ours.
 */
void uprobe_bps_recheck(struct mm_struct *mm, unsigned long vaddr)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;
	bool anon;
	u8 byte;

	mmap_assert_write_locked(mm);
	if (!b || b->lost || !mtree_load(&b->tree, vaddr))
		return;
	if (!uprobe_peek(mm, vaddr, &byte, 1, &anon) && !anon)
		uprobe_bps_gone(b, vaddr);
}

/**
 * uprobe_bps_move() - code with breakpoints of ours was moved (mremap)
 * @mm: the address space, mmap lock held for writing
 * @old_addr: where the range was
 * @new_addr: where it is now
 * @len: its length
 *
 * The breakpoints went with the pages: their addresses follow. Should one
 * not be recorded at its new place (no memory), the record no longer
 * tells: every probed address of @mm counts as one with a breakpoint of
 * ours, from then on (logged).
 */
void uprobe_bps_move(struct mm_struct *mm, unsigned long old_addr,
		     unsigned long new_addr, unsigned long len)
{
	struct uprobe_bps *b = mm->uprobes_state.bps;
	unsigned long index = old_addr, vaddr;
	void *entry;

	mmap_assert_write_locked(mm);
	if (!b || !len || old_addr == new_addr)
		return;
	/*
	 * No mmap hook runs for the moved code; and MREMAP_DONTUNMAP's
	 * breakpoints put back where it was make this a new mapping's.
	 */
	b->remapped = true;
	/* What was recorded where the code lands is gone (MREMAP_FIXED). */
	for (vaddr = new_addr; mt_find(&b->tree, &vaddr, new_addr + len - 1);)
		uprobe_bps_gone(b, vaddr - 1);
	/* The same file and offset, at their new address. */
	while ((entry = mt_find(&b->tree, &index, old_addr + len - 1))) {
		vaddr = new_addr + (index - 1 - old_addr);
		uprobe_bps_erase(b, index - 1);
		if (uprobe_bps_store(b, vaddr, entry, true) && !b->lost) {
			b->lost = true;
			pr_warn("pid %d: breakpoint moved to 0x%lx not recorded: every probed address of mm %p counts as a breakpoint's\n",
				current->pid, vaddr, mm);
		}
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
	void *entry;
	int err = 0;

	mmap_assert_write_locked(oldmm);
	if (!old || (!atomic_long_read(&old->nr) && !old->lost))
		return 0;
	b = uprobe_bps_alloc();
	if (!b)
		return -ENOMEM;
	/* Published first: uprobe_bps_free() frees a partial copy. */
	newmm->uprobes_state.bps = b;
	mt_for_each(&old->tree, entry, index, ULONG_MAX) {
		err = uprobe_bps_store(b, index - 1, entry, true);
		if (err)
			break;
	}
	b->prune_at = old->prune_at;
	b->remapped = old->remapped;
	b->lost = old->lost;
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
