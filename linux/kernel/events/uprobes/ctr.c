// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: USDT semaphores.
 *
 * A probe registered with a reference counter offset (ref_ctr_offset, the
 * semaphore of a USDT probe) is counted in that short of each address
 * space that holds one of its breakpoints: once per address space,
 * however many mappings of the file it has. The count goes in with the
 * first breakpoint (bkpt.c) and out when the last one leaves, removed or
 * unmapped; a semaphore whose page is not mapped yet (the loader maps
 * data after text) is written by the mmap hook. Forked children inherit
 * their parent's counts. All of this runs under the address space's mmap
 * lock, as the breakpoint writes do.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "internal.h"

/*
 * A probe counted in the semaphore of an address space: one count per
 * address space that holds at least one of the probe's breakpoints, in
 * any number of mappings of the file. The count goes in with the first
 * breakpoint and out when the last one leaves, removed or unmapped with
 * its mapping; while the semaphore's page is not mapped (the loader maps
 * data after text) it waits, not @applied, for the mmap hook.
 */
struct uprobe_ctr_count {
	struct list_head	node;
	struct uprobe		*uprobe;	/* a reference is held */
	struct mm_struct	*mm;
	bool			applied;
};

/* Counts hashed by address space: an mm's are all in one bucket. */
#define CTR_HASH_BITS	6
static struct list_head ctr_buckets[1 << CTR_HASH_BITS];
static unsigned long nr_ctr_counts;
static DEFINE_MUTEX(ctr_counts_lock);

static struct list_head *uprobe_ctr_bucket(struct mm_struct *mm)
{
	return &ctr_buckets[hash_ptr(mm, CTR_HASH_BITS)];
}

/* A racy hint for the hooks: no semaphore is counted anywhere. */
static bool uprobe_no_ctrs(void)
{
	return !READ_ONCE(nr_ctr_counts);
}

static int __init uprobe_ctr_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ctr_buckets); i++)
		INIT_LIST_HEAD(&ctr_buckets[i]);
	return 0;
}
core_initcall(uprobe_ctr_init);

static bool uprobe_ctr_vma(struct uprobe *uprobe, struct vm_area_struct *vma)
{
	loff_t start, end;

	if (!vma->vm_file || file_inode(vma->vm_file) != uprobe->inode ||
	    (vma->vm_flags & (VM_WRITE | VM_SHARED)) != VM_WRITE)
		return false;
	start = (loff_t)vma->vm_pgoff << PAGE_SHIFT;
	end = start + vma->vm_end - vma->vm_start;
	return uprobe->ref_ctr_offset >= start &&
	       uprobe->ref_ctr_offset + (loff_t)sizeof(short) <= end;
}

/* Adds @d to the semaphore at @vaddr; the mmap lock serialises writers. */
static int uprobe_ctr_add(struct mm_struct *mm, unsigned long vaddr, int d)
{
	struct vm_area_struct *vma;
	struct page *page;
	short *ctr;
	int err = 0;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_WRITE, &vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	ctr = kmap_local_page(page) + offset_in_page(vaddr);
	if (*ctr + d < 0) {
		pr_warn("semaphore at 0x%lx in pid %d would go negative\n",
			vaddr, current->pid);
		err = -EINVAL;
	} else {
		*ctr += d;
	}
	kunmap_local(ctr);
	set_page_dirty_lock(page);
	put_page(page);
	return err;
}

/* Adds @d to @uprobe's semaphore in @mm, if its page is mapped. */
static int uprobe_ctr_apply(struct uprobe *uprobe, struct mm_struct *mm,
			    int d)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	for_each_vma(vmi, vma)
		if (uprobe_ctr_vma(uprobe, vma))
			return uprobe_ctr_add(mm, uprobe_vma_offset_vaddr(vma,
						uprobe->ref_ctr_offset), d);
	return -ENOENT;
}

static struct uprobe_ctr_count *uprobe_ctr_find(struct uprobe *uprobe,
						struct mm_struct *mm)
{
	struct uprobe_ctr_count *c;

	lockdep_assert_held(&ctr_counts_lock);
	list_for_each_entry(c, uprobe_ctr_bucket(mm), node)
		if (c->uprobe == uprobe && c->mm == mm)
			return c;
	return NULL;
}

/*
 * Drops a count, taking it out of the semaphore first with @unapply.
 * Returns 0, or the error that kept it (and the count) in place.
 */
static int uprobe_ctr_free(struct uprobe_ctr_count *c, bool unapply)
{
	int err;

	if (unapply && c->applied) {
		err = uprobe_ctr_apply(c->uprobe, c->mm, -1);
		/* No semaphore page any more: nothing left to count in. */
		if (err && err != -ENOENT && err != -EINVAL)
			return err;
	}
	list_del(&c->node);
	WRITE_ONCE(nr_ctr_counts, nr_ctr_counts - 1);
	uprobe_put(c->uprobe);
	kfree(c);
	return 0;
}

/*
 * Writes a count into its semaphore: 0 when written, or waiting for the
 * semaphore's page to be mapped (the mmap hook writes it then), or the
 * error that keeps the semaphore from being written.
 */
static int uprobe_ctr_try_apply(struct uprobe_ctr_count *c)
{
	int err = uprobe_ctr_apply(c->uprobe, c->mm, 1);

	c->applied = !err;
	return err == -ENOENT ? 0 : err;
}

/**
 * uprobe_ctr_hold() - count a probe in the semaphore of an address space
 * @uprobe: the probe, with a breakpoint (about to be) in @mm
 * @mm: the address space, mmap lock held
 *
 * A breakpoint must not go in where its semaphore cannot count it: the
 * program would never reach the probe. The count waits when the
 * semaphore's page is not mapped yet.
 *
 * Return: 0, or -ENOMEM, or the error writing the semaphore (-EFAULT,
 * -EINTR for a fatal signal of the caller, ...).
 */
int uprobe_ctr_hold(struct uprobe *uprobe, struct mm_struct *mm)
{
	struct uprobe_ctr_count *c;
	int err = 0;

	if (!uprobe->ref_ctr_offset)
		return 0;
	mutex_lock(&ctr_counts_lock);
	c = uprobe_ctr_find(uprobe, mm);
	if (c) {
		/*
		 * The count may still wait for its write: the semaphore's
		 * page was not mapped, or its write failed when the mmap
		 * hook tried it. Try again.
		 */
		if (!c->applied)
			err = uprobe_ctr_try_apply(c);
		goto out;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		err = -ENOMEM;
		goto out;
	}
	c->uprobe = uprobe;
	c->mm = mm;
	err = uprobe_ctr_try_apply(c);
	if (err) {
		kfree(c);
		goto out;
	}
	uprobe_get(uprobe);
	list_add(&c->node, uprobe_ctr_bucket(mm));
	WRITE_ONCE(nr_ctr_counts, nr_ctr_counts + 1);
out:
	mutex_unlock(&ctr_counts_lock);
	return err;
}

/*
 * Does @mm hold a breakpoint of @uprobe, apart from [@start, @end) of
 * @skip (a mapping that is going away)? 1 or 0, or the error that keeps
 * us from telling (a fatal signal of the caller, no memory).
 */
static int uprobe_mm_has_bp(struct uprobe *uprobe, struct mm_struct *mm,
			    struct vm_area_struct *skip, unsigned long start,
			    unsigned long end)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;
	int ret;

	for_each_vma(vmi, vma) {
		unsigned long vaddr = uprobe_vma_offset_vaddr(vma,
							       uprobe->offset);

		if (!uprobe_vma_probeable(vma) ||
		    file_inode(vma->vm_file) != uprobe->inode ||
		    vaddr < vma->vm_start || vaddr >= vma->vm_end)
			continue;
		if (vma == skip && vaddr >= start && vaddr < end)
			continue;
		ret = uprobe_breakpoint_at(mm, vaddr);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * uprobe_ctr_release() - a probe's breakpoint left an address space
 * @uprobe: the probe
 * @mm: the address space, mmap lock held for writing
 * @skip: a mapping going away, or NULL
 * @start: first address of @skip's range going away
 * @end: address after that range
 *
 * When that was the last breakpoint of @uprobe in @mm (apart from
 * [@start, @end) of @skip), the semaphore stops counting the probe.
 *
 * Return: 0, or the error that kept the count in place, for a later
 * attempt.
 */
int uprobe_ctr_release(struct uprobe *uprobe, struct mm_struct *mm,
		       struct vm_area_struct *skip, unsigned long start,
		       unsigned long end)
{
	struct uprobe_ctr_count *c;
	int err = 0;

	if (!uprobe->ref_ctr_offset || uprobe_no_ctrs())
		return 0;
	mutex_lock(&ctr_counts_lock);
	c = uprobe_ctr_find(uprobe, mm);
	if (c)
		err = uprobe_mm_has_bp(uprobe, mm, skip, start, end);
	if (!err && c)
		err = uprobe_ctr_free(c, true);
	mutex_unlock(&ctr_counts_lock);
	return err < 0 ? err : 0;
}

/**
 * uprobe_mmap_ctrs() - apply the counts waiting for a semaphore's page
 * @vma: a new writable mapping; mmap lock held for writing
 */
void uprobe_mmap_ctrs(struct vm_area_struct *vma)
{
	struct uprobe_ctr_count *c;
	unsigned long vaddr;

	if (uprobe_no_ctrs())
		return;
	mutex_lock(&ctr_counts_lock);
	list_for_each_entry(c, uprobe_ctr_bucket(vma->vm_mm), node) {
		if (c->applied || c->mm != vma->vm_mm ||
		    !uprobe_ctr_vma(c->uprobe, vma))
			continue;
		vaddr = uprobe_vma_offset_vaddr(vma, c->uprobe->ref_ctr_offset);
		c->applied = !uprobe_ctr_add(vma->vm_mm, vaddr, 1);
	}
	mutex_unlock(&ctr_counts_lock);
}

/**
 * uprobe_munmap_ctrs() - breakpoints leave with an unmapped range
 * @vma: a mapping of a probed file; mmap lock held
 * @start: first address unmapped
 * @end: address after the range
 *
 * A probe whose last breakpoint in the address space was in the range
 * is no longer counted in its semaphore.
 */
void uprobe_munmap_ctrs(struct vm_area_struct *vma, unsigned long start,
			unsigned long end)
{
	struct uprobe_ctr_count *c, *tmp;
	struct mm_struct *mm = vma->vm_mm;

	if (uprobe_no_ctrs() || !uprobe_vma_probeable(vma))
		return;
	mutex_lock(&ctr_counts_lock);
	list_for_each_entry_safe(c, tmp, uprobe_ctr_bucket(mm), node) {
		unsigned long vaddr = uprobe_vma_offset_vaddr(vma,
							      c->uprobe->offset);

		if (c->mm != mm || c->uprobe->inode != file_inode(vma->vm_file) ||
		    vaddr < start || vaddr >= end)
			continue;
		/* On an error the count stays: better high than negative. */
		if (!uprobe_mm_has_bp(c->uprobe, mm, vma, start, end))
			uprobe_ctr_free(c, true);
	}
	mutex_unlock(&ctr_counts_lock);
}

/**
 * uprobe_dup_ctrs() - a forked child's semaphores count what its parent's do
 * @oldmm: the parent's address space
 * @newmm: the child's, a copy with the same breakpoints and semaphores
 */
void uprobe_dup_ctrs(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	struct uprobe_ctr_count *c, *n;
	LIST_HEAD(copies);

	if (uprobe_no_ctrs())
		return;
	mutex_lock(&ctr_counts_lock);
	list_for_each_entry(c, uprobe_ctr_bucket(oldmm), node) {
		if (c->mm != oldmm)
			continue;
		/* The child's semaphores hold these counts already. */
		n = kmemdup(c, sizeof(*c), GFP_KERNEL | __GFP_NOFAIL);
		n->mm = newmm;
		uprobe_get(n->uprobe);
		list_add(&n->node, &copies);
		WRITE_ONCE(nr_ctr_counts, nr_ctr_counts + 1);
	}
	list_splice(&copies, uprobe_ctr_bucket(newmm));
	mutex_unlock(&ctr_counts_lock);
}

/**
 * uprobe_forget_ctrs() - drop the counts of a dying address space
 * @mm: the address space being torn down
 */
void uprobe_forget_ctrs(struct mm_struct *mm)
{
	struct uprobe_ctr_count *c, *tmp;

	if (uprobe_no_ctrs())
		return;
	mutex_lock(&ctr_counts_lock);
	list_for_each_entry_safe(c, tmp, uprobe_ctr_bucket(mm), node)
		if (c->mm == mm)
			uprobe_ctr_free(c, false);
	mutex_unlock(&ctr_counts_lock);
}
