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
 * The record (struct uprobes_state::bps) is an xarray of the pages that
 * hold recorded addresses, each with the sorted offsets of its addresses,
 * allocated with the first breakpoint. Each address is recorded with the
 * file and offset mapped there when the breakpoint was noted (a hash of
 * them, uprobe_bps_key()): an address the record kept after its mapping
 * went, where another file is mapped now, is not taken for one of ours
 * there (an int3 the program wrote into its copy of that file's code,
 * probed later, is the program's: readers see it, and the probe's
 * removal leaves it). It grows under the mmap lock held for writing, with
 * the breakpoints, and shrinks under the lock held for reading too, when
 * a write through ptrace or /proc/PID/mem takes a breakpoint's place;
 * lookups hold the mmap lock, and the xarray's lock where they may meet
 * such a write. Noting an address costs a lookup and a move of the
 * page's later offsets, and an allocation only for the page's first
 * address or when its array is full: a registration notes one address
 * per process mapping the file (a maple tree, which allocates nodes for
 * most stores of a single address, made perf's registration of 2,000
 * probes in 20 processes cost more than the stock engine's, which
 * records nothing). A forked child gets a copy, or the fork fails.
 * Moved code takes its addresses along.
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
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "internal.h"

/* Fewer recorded addresses than this are never pruned. */
#define BPS_PRUNE_MIN	64L

/**
 * struct uprobe_bps_page - the recorded addresses of one page
 * @nr: how many
 * @room: how many @at has room for
 * @at: the addresses' offsets in the page, in increasing order, each with
 *	its key (uprobe_bps_key())
 */
struct uprobe_bps_page {
	unsigned int		nr;
	unsigned int		room;
	struct {
		u32		key;
		u32		off;
	} at[];
};

/* Room of a page's first array; each full one is replaced with twice. */
#define BPS_PAGE_ROOM	4

/**
 * struct uprobe_bps - the record of an address space's breakpoints
 * @pages: the pages with recorded addresses, by number (vaddr >> PAGE_SHIFT)
 * @nr: how many addresses (also changed under the mmap lock held for reading)
 * @prune_at: @nr at which the addresses of mappings gone are dropped
 * @remapped: a file was mapped since the last pass that dropped them
 * @lost: a breakpoint could not be recorded (see uprobe_bps_move())
 * @removed: how many times breakpoints of ours went (uprobe_bps_removed())
 */
struct uprobe_bps {
	struct xarray		pages;
	atomic_long_t		nr;
	long			prune_at;
	bool			remapped;
	bool			lost;
	atomic_long_t		removed;
};

/*
 * What an address of @mm is recorded with: a hash of the file and offset
 * mapped at @vaddr, or 0 where no file is (the KUnit tests' address
 * spaces have no mapping).
 */
static u32 uprobe_bps_key(struct mm_struct *mm, unsigned long vaddr)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);
	struct inode *inode;
	loff_t off;
	u32 id[6];

	if (!vma || !vma->vm_file)
		return 0;
	inode = file_inode(vma->vm_file);
	off = uprobe_vma_vaddr_offset(vma, vaddr);
	id[0] = lower_32_bits(inode->i_ino);
	id[1] = upper_32_bits(inode->i_ino);
	id[2] = inode->i_sb->s_dev;
	id[3] = inode->i_generation;
	id[4] = lower_32_bits(off);
	id[5] = upper_32_bits(off);
	return jhash2(id, ARRAY_SIZE(id), 0);
}

static struct uprobe_bps *uprobe_bps_alloc(void)
{
	struct uprobe_bps *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	xa_init(&b->pages);
	b->prune_at = BPS_PRUNE_MIN;
	return b;
}

/* An array with room for @room addresses, holding those of @from if any. */
static struct uprobe_bps_page *uprobe_bps_page_alloc(unsigned int room,
						     struct uprobe_bps_page *from)
{
	struct uprobe_bps_page *p;

	p = kvmalloc(struct_size(p, at, room), GFP_KERNEL);
	if (!p)
		return NULL;
	p->nr = from ? from->nr : 0;
	p->room = room;
	if (from)
		memcpy(p->at, from->at, from->nr * sizeof(p->at[0]));
	return p;
}

/*
 * Sets *@i to the index in @p of the first offset at or above @off, and
 * tells whether it is @off.
 */
static bool uprobe_bps_page_find(struct uprobe_bps_page *p, unsigned int off,
				 unsigned int *i)
{
	unsigned int lo = 0, hi = p->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (p->at[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*i = lo;
	return lo < p->nr && p->at[lo].off == off;
}

/*
 * Is @vaddr recorded, and with which key? Safe beside an erase under the
 * read lock.
 */
static bool uprobe_bps_lookup(struct uprobe_bps *b, unsigned long vaddr,
			      u32 *key)
{
	unsigned int off = offset_in_page(vaddr), i;
	struct uprobe_bps_page *p;
	bool found = false;

	xa_lock(&b->pages);
	p = xa_load(&b->pages, vaddr >> PAGE_SHIFT);
	found = p && uprobe_bps_page_find(p, off, &i);
	if (found)
		*key = p->at[i].key;
	xa_unlock(&b->pages);
	return found;
}

/* Forgets @vaddr, if recorded. Needs no memory. */
static void uprobe_bps_erase(struct uprobe_bps *b, unsigned long vaddr)
{
	unsigned long index = vaddr >> PAGE_SHIFT;
	struct uprobe_bps_page *p, *empty = NULL;
	unsigned int i;

	xa_lock(&b->pages);
	p = xa_load(&b->pages, index);
	if (p && uprobe_bps_page_find(p, offset_in_page(vaddr), &i)) {
		p->nr--;
		memmove(&p->at[i], &p->at[i + 1],
			(p->nr - i) * sizeof(p->at[0]));
		atomic_long_dec(&b->nr);
		if (!p->nr) {
			__xa_erase(&b->pages, index);
			empty = p;
		}
	}
	xa_unlock(&b->pages);
	kvfree(empty);
}

/* The breakpoint at @vaddr went, with its record: counted. */
static void uprobe_bps_gone(struct uprobe_bps *b, unsigned long vaddr)
{
	uprobe_bps_erase(b, vaddr);
	atomic_long_inc(&b->removed);
}

/*
 * Records @vaddr with @key, counted if it is new: 0 or -ENOMEM. Under the
 * mmap lock held for writing: no lookup or erase runs meanwhile, and the
 * page's array can be replaced.
 */
static int uprobe_bps_store(struct uprobe_bps *b, unsigned long vaddr,
			    u32 key)
{
	unsigned long index = vaddr >> PAGE_SHIFT;
	unsigned int off = offset_in_page(vaddr), i = 0, room;
	struct uprobe_bps_page *p, *old;
	int err;

	old = xa_load(&b->pages, index);
	p = old;
	if (p && uprobe_bps_page_find(p, off, &i)) {
		p->at[i].key = key;
		return 0;
	}
	if (!p || p->nr == p->room) {
		/* A page has no more than PAGE_SIZE addresses. */
		room = old ? min_t(unsigned int, 2 * old->room, PAGE_SIZE) :
			     BPS_PAGE_ROOM;
		p = uprobe_bps_page_alloc(room, old);
		if (!p)
			return -ENOMEM;
	}
	memmove(&p->at[i + 1], &p->at[i], (p->nr - i) * sizeof(p->at[0]));
	p->at[i].off = off;
	p->at[i].key = key;
	p->nr++;
	if (p != old) {
		/* Replacing an entry needs no memory; a new one may. */
		err = xa_err(xa_store(&b->pages, index, p, GFP_KERNEL));
		if (err) {
			kvfree(p);
			return err;
		}
		kvfree(old);
	}
	atomic_long_inc(&b->nr);
	return 0;
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
	struct uprobe_bps_page *p;
	unsigned long index;
	unsigned int i, kept;

	mmap_assert_write_locked(mm);
	b->remapped = false;
	xa_for_each(&b->pages, index, p) {
		for (i = 0, kept = 0; i < p->nr; i++)
			if (uprobe_bps_may_be(mm, (index << PAGE_SHIFT) +
						  p->at[i].off))
				p->at[kept++] = p->at[i];
		atomic_long_sub(p->nr - kept, &b->nr);
		p->nr = kept;
		if (!kept) {
			xa_erase(&b->pages, index);
			kvfree(p);
		}
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
	u32 key = uprobe_bps_key(mm, vaddr), old;
	bool found;

	mmap_assert_write_locked(mm);
	if (!b) {
		b = uprobe_bps_alloc();
		if (!b)
			return -ENOMEM;
		mm->uprobes_state.bps = b;
	}
	found = uprobe_bps_lookup(b, vaddr, &old);
	if (found && old == key)
		return 0;
	if (!found && b->remapped && atomic_long_read(&b->nr) >= b->prune_at)
		uprobe_bps_prune(mm, b);
	/* An address recorded for another file's code takes this one's. */
	return uprobe_bps_store(b, vaddr, key);
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
	u32 key;

	mmap_assert_locked(mm);
	return b && (b->lost || (uprobe_bps_lookup(b, vaddr, &key) &&
				 key == uprobe_bps_key(mm, vaddr)));
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
	u32 key;
	u8 byte;

	mmap_assert_write_locked(mm);
	if (!b || b->lost || !uprobe_bps_lookup(b, vaddr, &key))
		return;
	if (!uprobe_peek(mm, vaddr, &byte, 1, &anon) && !anon)
		uprobe_bps_gone(b, vaddr);
}

/**
 * uprobe_bps_move() - code with breakpoints of ours was moved (mremap)
 * @mm: the address space, mmap lock held for writing
 * @old_addr: where the range was (page aligned, as mremap() gives it)
 * @new_addr: where it is now (page aligned)
 * @len: its length (page aligned)
 *
 * The breakpoints went with the pages: their addresses follow. Should one
 * not be recorded at its new place (no memory), the record no longer
 * tells: every probed address of @mm counts as one with a breakpoint of
 * ours, from then on (logged).
 */
void uprobe_bps_move(struct mm_struct *mm, unsigned long old_addr,
		     unsigned long new_addr, unsigned long len)
{
	unsigned long first = old_addr >> PAGE_SHIFT, index, to;
	unsigned long last = (old_addr + len - 1) >> PAGE_SHIFT;
	struct uprobe_bps *b = mm->uprobes_state.bps;
	struct uprobe_bps_page *p;

	mmap_assert_write_locked(mm);
	if (!b || !len || old_addr == new_addr)
		return;
	/*
	 * No mmap hook runs for the moved code; and MREMAP_DONTUNMAP's
	 * breakpoints put back where it was make this a new mapping's.
	 */
	b->remapped = true;
	/* What was recorded where the code lands is gone (MREMAP_FIXED). */
	xa_for_each_range(&b->pages, index, p, new_addr >> PAGE_SHIFT,
			  (new_addr + len - 1) >> PAGE_SHIFT) {
		xa_erase(&b->pages, index);
		atomic_long_sub(p->nr, &b->nr);
		atomic_long_add(p->nr, &b->removed);
		kvfree(p);
	}
	/* The same file and offset, at their new address: whole pages. */
	xa_for_each_range(&b->pages, index, p, first, last) {
		xa_erase(&b->pages, index);
		to = (new_addr >> PAGE_SHIFT) + (index - first);
		if (!xa_err(xa_store(&b->pages, to, p, GFP_KERNEL)))
			continue;
		atomic_long_sub(p->nr, &b->nr);
		kvfree(p);
		if (!b->lost) {
			b->lost = true;
			pr_warn("pid %d: breakpoints moved to 0x%lx not recorded: every probed address of mm %p counts as a breakpoint's\n",
				current->pid, to << PAGE_SHIFT, mm);
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
	struct uprobe_bps_page *p, *copy;
	unsigned long index;
	int err = 0;

	mmap_assert_write_locked(oldmm);
	if (!old || (!atomic_long_read(&old->nr) && !old->lost))
		return 0;
	b = uprobe_bps_alloc();
	if (!b)
		return -ENOMEM;
	/* Published first: uprobe_bps_free() frees a partial copy. */
	newmm->uprobes_state.bps = b;
	xa_for_each(&old->pages, index, p) {
		copy = uprobe_bps_page_alloc(p->nr, p);
		if (!copy) {
			err = -ENOMEM;
			break;
		}
		err = xa_err(xa_store(&b->pages, index, copy, GFP_KERNEL));
		if (err) {
			kvfree(copy);
			break;
		}
		atomic_long_add(copy->nr, &b->nr);
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
	struct uprobe_bps_page *p;
	unsigned long index;

	if (!b)
		return;
	mm->uprobes_state.bps = NULL;
	xa_for_each(&b->pages, index, p)
		kvfree(p);
	xa_destroy(&b->pages);
	kfree(b);
}

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/written-kunit.h"
#endif
