// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: address space hooks.
 *
 * A process that maps a probed file after registration gets the
 * breakpoints from uprobe_mmap(), and gets them back when it drops its
 * copies of probed pages (uprobe_dontneed()); a forked child inherits them
 * with the parent's pages, their record, and the stubs its code jumps to
 * with a copy of the XOL area (uprobe_dup_bps()). Registration and fork
 * are kept apart by dup_mmap_sem so that a child is never copied from a
 * parent whose breakpoints are being changed while the child is not yet
 * visible to the registration's walk.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/percpu-rwsem.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "internal.h"

DEFINE_STATIC_PERCPU_RWSEM(dup_mmap_sem);

/**
 * uprobe_dup_mmap_lock() - keep forks out while breakpoints change
 */
void uprobe_dup_mmap_lock(void)
{
	percpu_down_write(&dup_mmap_sem);
}

/**
 * uprobe_dup_mmap_unlock() - let forks copy address spaces again
 */
void uprobe_dup_mmap_unlock(void)
{
	percpu_up_write(&dup_mmap_sem);
}

/**
 * uprobe_start_dup_mmap() - fork is about to copy an address space
 */
void uprobe_start_dup_mmap(void)
{
	percpu_down_read(&dup_mmap_sem);
}

/**
 * uprobe_end_dup_mmap() - fork finished copying an address space
 */
void uprobe_end_dup_mmap(void)
{
	percpu_up_read(&dup_mmap_sem);
}

/**
 * uprobe_dup_mmap() - a child's address space is copied from its parent
 * @oldmm: the parent's
 * @newmm: the child's
 *
 * The breakpoints come with the copied pages, and the semaphores with
 * their counts; the child is marked as having some, and its semaphores
 * as counting them. A debugger's int3s, copied too, stay the debugger's.
 * The XOL area (VM_DONTCOPY) is not copied with the mappings: the child
 * gets its own copy once they are (uprobe_dup_bps()), if it has stubs.
 */
void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	uprobe_dbg_bps_dup(oldmm, newmm);
	if (!test_bit(MMF_HAS_UPROBES, &oldmm->flags))
		return;
	set_bit(MMF_HAS_UPROBES, &newmm->flags);
	uprobe_dup_ctrs(oldmm, newmm);
}

/**
 * uprobe_dup_bps() - give a forked child what its breakpoints need
 * @oldmm: the parent's address space, mmap lock held for writing
 * @newmm: the child's copy of it, mmap lock held for writing
 *
 * Called once the mappings are copied. The breakpoints came with the
 * child's copies of the probed pages: the child gets the record of where
 * they are (written.c), and the stubs its jumps go to, in the XOL area,
 * which is not copied with them.
 *
 * Return: 0, or the error that fails the fork: a child never runs a jump
 * without its stub, nor shows its readers breakpoints of ours.
 */
int uprobe_dup_bps(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	int err = uprobe_bps_dup(oldmm, newmm);

	if (!err)
		err = xol_area_fork(oldmm, newmm);
	if (err)
		pr_warn_ratelimited("pid %d: fork failed: no copy of the breakpoints' record or XOL area (%pe)\n",
				    current->pid, ERR_PTR(err));
	return err;
}

#define UPROBE_MMAP_BATCH	16

/* Inserts the breakpoints of @vma's file that [@s, @e) of it maps. */
static void uprobe_mmap_range(struct vm_area_struct *vma, unsigned long s,
			      unsigned long e)
{
	struct uprobe *batch[UPROBE_MMAP_BATCH];
	struct inode *inode = file_inode(vma->vm_file);
	loff_t start = uprobe_vma_vaddr_offset(vma, s);
	loff_t end = uprobe_vma_vaddr_offset(vma, e);
	int i, nr;

	do {
		nr = uprobe_collect_range(inode, start, end, batch,
					  UPROBE_MMAP_BATCH);
		for (i = 0; i < nr; i++) {
			struct uprobe *uprobe = batch[i];
			unsigned long vaddr;

			vaddr = uprobe_vma_offset_vaddr(vma, uprobe->offset);
			/* A probe registered with no file is analysed here. */
			if (uprobe_vma_insertable(vma) &&
			    uprobe_wanted_by(uprobe, vma->vm_mm) &&
			    !uprobe_prepare(uprobe, vma->vm_file)) {
				uprobe_install(uprobe, vma->vm_mm, vma, vaddr);
			} else {
				uprobe_bps_recheck(vma->vm_mm, vaddr);
				/* A breakpoint kept by a writable mapping. */
				if (uprobe->ref_ctr_offset &&
				    uprobe_ready(uprobe) &&
				    uprobe_is_trap_at(vma->vm_mm, vaddr))
					uprobe_ctr_hold(uprobe, vma->vm_mm);
			}
			start = uprobe->offset + 1;
			uprobe_put(uprobe);
		}
	} while (nr == UPROBE_MMAP_BATCH);
}

/**
 * uprobe_mmap() - insert the breakpoints of a file that is being mapped
 * @vma: the new mapping; mmap lock held for writing
 *
 * Return: 0. A breakpoint that cannot be inserted (no memory) is missed
 * in this process only; the mapping itself must not fail because of it.
 */
int uprobe_mmap(struct vm_area_struct *vma)
{
	if (!vma->vm_file)
		return 0;
	/* A probe registered later may note addresses of this mapping. */
	uprobe_bps_remapped(vma->vm_mm);
	if (uprobes_registry_empty())
		return 0;
	if (vma->vm_flags & VM_WRITE)
		uprobe_mmap_ctrs(vma);
	if (uprobe_vma_probeable(vma))
		uprobe_mmap_range(vma, vma->vm_start, vma->vm_end);
	return 0;
}

/* Breakpoints to put back into current's address space, in [start, end). */
struct uprobe_resync {
	struct callback_head	work;
	unsigned long		start;
	unsigned long		end;
};

static void uprobe_resync_work(struct callback_head *head)
{
	struct uprobe_resync *r = container_of(head, struct uprobe_resync,
					       work);
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (mm && !mmap_write_lock_killable(mm)) {
		VMA_ITERATOR(vmi, mm, r->start);

		for_each_vma_range(vmi, vma, r->end)
			if (vma->vm_file && uprobe_vma_probeable(vma))
				uprobe_mmap_range(vma, max(r->start, vma->vm_start),
						  min(r->end, vma->vm_end));
		mmap_write_unlock(mm);
	}
	kfree(r);
}

/**
 * uprobe_resync_later() - put breakpoints back before returning to user mode
 * @vma: the mapping, mmap lock held
 * @start: first address of a range of @vma whose probes are looked for
 * @end: address after it
 * @at: where that code's pages went back to the file's, while mapped
 *
 * The process's copies of the probed pages are gone from [@at, @at +
 * @end - @start): touched again, the file's pages come back, without
 * breakpoints. Where @vma has a probe in [@start, @end), the breakpoints
 * there are inserted again before current returns to user mode, so that
 * a registered probe does not stop firing (in current's address space
 * only). Meanwhile they count as gone (uprobe_bps_dropped()).
 */
void uprobe_resync_later(struct vm_area_struct *vma, unsigned long start,
			 unsigned long end, unsigned long at)
{
	struct uprobe_resync *r;
	struct uprobe *probe;

	if (!uprobe_vma_insertable(vma) ||
	    !test_bit(MMF_HAS_UPROBES, &vma->vm_mm->flags))
		return;
	uprobe_bps_dropped(vma->vm_mm);
	if (vma->vm_mm != current->mm || uprobes_registry_empty())
		return;
	/* Only a range with a probe in it costs anything more. */
	if (!uprobe_collect_range(file_inode(vma->vm_file),
				  uprobe_vma_vaddr_offset(vma, start),
				  uprobe_vma_vaddr_offset(vma, end), &probe, 1))
		return;
	uprobe_put(probe);
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (r) {
		r->start = at;
		r->end = at + (end - start);
		init_task_work(&r->work, uprobe_resync_work);
		if (!task_work_add(current, &r->work, TWA_RESUME))
			return;
		kfree(r);
	}
	pr_warn_ratelimited("pid %d: breakpoints dropped with pages at 0x%lx-0x%lx not put back\n",
			    current->pid, at, at + (end - start));
}

/**
 * uprobe_dontneed() - pages of a mapping were dropped (MADV_DONTNEED)
 * @vma: the mapping, of current's address space; mmap lock held
 * @start: first address of the range dropped
 * @end: address after it
 *
 * The process's copies of probed pages went with the range: their
 * breakpoints are put back (uprobe_resync_later()).
 */
void uprobe_dontneed(struct vm_area_struct *vma, unsigned long start,
		     unsigned long end)
{
	uprobe_resync_later(vma, start, end, start);
}

/**
 * uprobe_munmap() - part of a mapping goes away
 * @vma: the mapping
 * @start: first address unmapped
 * @end: address after the range
 *
 * Breakpoints leave with the pages; a semaphore stops counting a probe
 * whose last breakpoint in the address space leaves. (A debugger's int3
 * noted in the range stays noted: the hook also runs when a mapping is
 * only split or merged. A probe inserted there later, where there is no
 * int3, drops the note.) MMF_HAS_UPROBES stays set, which at worst makes
 * a foreign int3 look for a probe (uprobe_breakpoint_trap()) before it
 * is reported. Nothing to do for an address space torn down.
 */
void uprobe_munmap(struct vm_area_struct *vma, unsigned long start,
		   unsigned long end)
{
	if (!test_bit(MMF_HAS_UPROBES, &vma->vm_mm->flags) ||
	    !atomic_read(&vma->vm_mm->mm_users))
		return;
	uprobe_munmap_ctrs(vma, start, end);
}

/**
 * uprobe_clear_state() - an address space is torn down
 * @mm: the address space
 */
void uprobe_clear_state(struct mm_struct *mm)
{
	uprobe_forget_ctrs(mm);
	uprobe_dbg_notes_free(mm);
	uprobe_bps_free(mm);
	xol_area_free(mm);
}
