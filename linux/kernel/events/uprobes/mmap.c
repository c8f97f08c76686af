// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: address space hooks.
 *
 * A process that maps a probed file after registration gets the
 * breakpoints from uprobe_mmap(); a forked child inherits them with the
 * parent's pages. Registration and fork are kept apart by dup_mmap_sem so
 * that a child is never copied from a parent whose breakpoints are being
 * changed while the child is not yet visible to the registration's walk.
 */
#include <linux/percpu-rwsem.h>
#include <linux/sched/mm.h>

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
 * The XOL area is not copied (VM_DONTCOPY).
 */
void uprobe_dup_mmap(struct mm_struct *oldmm, struct mm_struct *newmm)
{
	uprobe_dbg_bps_dup(oldmm, newmm);
	if (!test_bit(MMF_HAS_UPROBES, &oldmm->flags))
		return;
	set_bit(MMF_HAS_UPROBES, &newmm->flags);
	uprobe_dup_ctrs(oldmm, newmm);
}

#define UPROBE_MMAP_BATCH	16

/**
 * uprobe_mmap() - insert the breakpoints of a file that is being mapped
 * @vma: the new mapping; mmap lock held for writing
 *
 * Return: 0. A breakpoint that cannot be inserted (no memory) is missed
 * in this process only; the mapping itself must not fail because of it.
 */
int uprobe_mmap(struct vm_area_struct *vma)
{
	struct uprobe *batch[UPROBE_MMAP_BATCH];
	struct inode *inode;
	loff_t start, end;
	int i, nr;

	if (uprobes_registry_empty() || !vma->vm_file)
		return 0;
	if (vma->vm_flags & VM_WRITE)
		uprobe_mmap_ctrs(vma);
	if (!uprobe_vma_probeable(vma))
		return 0;

	inode = file_inode(vma->vm_file);
	start = uprobe_vma_vaddr_offset(vma, vma->vm_start);
	end = uprobe_vma_vaddr_offset(vma, vma->vm_end);
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
			    !uprobe_prepare(uprobe, vma->vm_file))
				uprobe_install(uprobe, vma->vm_mm, vma, vaddr);
			else if (uprobe->ref_ctr_offset && uprobe_ready(uprobe) &&
				 uprobe_is_trap_at(vma->vm_mm, vaddr))
				/* A breakpoint kept by a writable mapping. */
				uprobe_ctr_hold(uprobe, vma->vm_mm);
			start = uprobe->offset + 1;
			uprobe_put(uprobe);
		}
	} while (nr == UPROBE_MMAP_BATCH);
	return 0;
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
 * int3, drops the note.) MMF_HAS_UPROBES
 * stays set, which at worst makes a foreign int3 take the slower path in
 * uprobe_notify_resume(). Nothing to do for an address space torn down.
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
	uprobe_dbg_bps_forget(mm, 0, ULONG_MAX);
	xol_area_free(mm);
}
