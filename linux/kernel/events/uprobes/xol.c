// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: the execute-out-of-line (XOL) area.
 *
 * Each address space that hits a probe gets one special page, mapped
 * executable and not copied on fork, cut in UPROBE_XOL_SLOT_BYTES slots.
 * Slot 0 holds the return-probe trampoline; a thread that single-steps a
 * probed instruction borrows another slot for the duration of the step.
 * When all slots are borrowed, the next thread sleeps until one is given
 * back: steps are short, so nobody waits long and no hit is lost.
 *
 * Other slots are given for good (boost.c): boosted copies of probed
 * instructions, and the stubs that probed nops jump to (stub.c). A forked
 * child whose code jumps to stubs gets a copy of its parent's area at the
 * same place.
 */
#include <linux/highmem.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/wait.h>

#include "internal.h"
#include "xol.h"

static vm_fault_t xol_fault(const struct vm_special_mapping *sm,
			    struct vm_area_struct *vma, struct vm_fault *vmf)
{
	struct xol_area *area = READ_ONCE(vma->vm_mm->uprobes_state.xol_area);

	if (!area)
		return VM_FAULT_SIGBUS;
	vmf->page = area->page;
	get_page(vmf->page);
	return 0;
}

static const struct vm_special_mapping xol_mapping = {
	.name = "[uprobes]",
	.fault = xol_fault,
};

/* How far below the first probed address the XOL area may go. */
#define XOL_NEAR	SZ_1G

/*
 * The highest free page below the probed address current is handling, if
 * there is one within XOL_NEAR: a boosted copy of an instruction there
 * reaches what a rip-relative operand of the original reaches (the code
 * and data of the same file). Else the highest free page below the task's
 * address space limit.
 */
static unsigned long xol_pick_vaddr(void)
{
	struct uprobe_task *utask = current->utask;
	unsigned long near = utask ? utask->vaddr & PAGE_MASK : 0;
	struct vm_unmapped_area_info info = {
		.flags = VM_UNMAPPED_AREA_TOPDOWN,
		.length = PAGE_SIZE,
		.low_limit = max_t(unsigned long, PAGE_SIZE, mmap_min_addr),
		.high_limit = TASK_SIZE,
	};
	unsigned long vaddr;

	if (near > info.low_limit && near <= TASK_SIZE) {
		struct vm_unmapped_area_info below = info;

		below.low_limit = max(info.low_limit,
				      near > XOL_NEAR ? near - XOL_NEAR : 0);
		below.high_limit = near;
		vaddr = vm_unmapped_area(&below);
		if (!IS_ERR_VALUE(vaddr))
			return vaddr;
	}
	return vm_unmapped_area(&info);
}

static struct xol_area *xol_area_alloc(void)
{
	struct xol_area *area;

	area = kzalloc(sizeof(*area), GFP_KERNEL);
	if (!area)
		return NULL;
	area->page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!area->page) {
		kfree(area);
		return NULL;
	}
	init_waitqueue_head(&area->wq);
	mutex_init(&area->boost_lock);
	set_bit(0, area->slots);
	return area;
}

static void xol_area_release(struct xol_area *area)
{
	__free_page(area->page);
	kfree(area);
}

/*
 * Maps @area in @mm at @vaddr, or at a place of xol_pick_vaddr()'s when
 * @vaddr is 0, and publishes it; @mm's mmap lock is held for writing.
 * Returns 0 or an error, @area still the caller's then.
 */
static int xol_area_map(struct mm_struct *mm, struct xol_area *area,
			unsigned long vaddr)
{
	struct vm_area_struct *vma;

	if (!vaddr)
		vaddr = xol_pick_vaddr();
	if (IS_ERR_VALUE(vaddr))
		return (long)vaddr;
	vma = _install_special_mapping(mm, vaddr, PAGE_SIZE,
				       VM_EXEC | VM_MAYEXEC | VM_DONTCOPY |
				       VM_IO, &xol_mapping);
	if (IS_ERR(vma))
		return PTR_ERR(vma);
	area->vaddr = vaddr;
	/* Publish the area initialised; pairs with the acquires. */
	smp_store_release(&mm->uprobes_state.xol_area, area);
	return 0;
}

/*
 * xol_area_map() under @mm's mmap lock. Returns the area @mm has then:
 * @area, one another thread installed first (@area is freed), or an
 * error.
 */
static struct xol_area *xol_area_install(struct mm_struct *mm,
					 struct xol_area *area,
					 unsigned long vaddr)
{
	int err;

	err = mmap_write_lock_killable(mm);
	if (err)
		goto free;
	if (mm->uprobes_state.xol_area) {
		/* Another thread was faster. */
		mmap_write_unlock(mm);
		xol_area_release(area);
		return mm->uprobes_state.xol_area;
	}
	err = xol_area_map(mm, area, vaddr);
	mmap_write_unlock(mm);
	if (!err)
		return area;
free:
	xol_area_release(area);
	return ERR_PTR(err);
}

/*
 * Creates the XOL area of current's address space, at @vaddr if it is not
 * zero (a forked child must have it where its parent had it).
 */
static struct xol_area *xol_area_create(unsigned long vaddr)
{
	struct xol_area *area = xol_area_alloc();
	unsigned long size;
	void *tramp;

	if (!area)
		return ERR_PTR(-ENOMEM);
	tramp = arch_uprobe_trampoline(&size);
	arch_uprobe_copy_ixol(area->page, 0, tramp, size);
	return xol_area_install(current->mm, area, vaddr);
}

/**
 * xol_area_get() - current's XOL area, created if it does not exist
 *
 * Return: the area, or an error pointer (no memory, no room, a fatal
 * signal).
 */
struct xol_area *xol_area_get(void)
{
	struct xol_area *area;

	/* Pairs with the release in xol_area_map(). */
	area = smp_load_acquire(&current->mm->uprobes_state.xol_area);
	return area ? area : xol_area_create(0);
}

/**
 * xol_area_vaddr() - where the XOL area (and the trampoline) of an mm is
 * @mm: the address space
 *
 * Return: the address, or 0 if the area does not exist.
 */
unsigned long xol_area_vaddr(struct mm_struct *mm)
{
	struct xol_area *area;

	/* Pairs with the release in xol_area_map(). */
	area = smp_load_acquire(&mm->uprobes_state.xol_area);
	return area ? area->vaddr : 0;
}

/**
 * xol_area_ensure() - create current's XOL area if it does not exist
 *
 * Return: its address, or 0 when it cannot be created.
 */
unsigned long xol_area_ensure(void)
{
	struct xol_area *area = xol_area_get();

	return IS_ERR(area) ? 0 : area->vaddr;
}

/**
 * xol_area_dup() - give a forked child the XOL area of its parent
 * @vaddr: where the parent's is
 *
 * Called in the child: return addresses on its stack point there.
 *
 * Return: 0 or an error.
 */
int xol_area_dup(unsigned long vaddr)
{
	return PTR_ERR_OR_ZERO(xol_area_create(vaddr));
}

/**
 * xol_area_free() - free the XOL area of a dying address space
 * @mm: the address space
 */
void xol_area_free(struct mm_struct *mm)
{
	struct xol_area *area = mm->uprobes_state.xol_area;

	if (!area)
		return;
	put_page(area->page);
	kfree(area);
	mm->uprobes_state.xol_area = NULL;
}

/**
 * xol_try_take() - take a free slot of an XOL area
 * @area: the area
 * @slot: set to the slot's index
 *
 * Return: false when every slot is taken.
 */
bool xol_try_take(struct xol_area *area, unsigned int *slot)
{
	unsigned int s;

	for (;;) {
		s = find_first_zero_bit(area->slots, XOL_NR_SLOTS);
		if (s >= XOL_NR_SLOTS)
			return false;
		if (!test_and_set_bit(s, area->slots)) {
			*slot = s;
			return true;
		}
	}
}

/**
 * xol_give_back() - give back a slot, waking a thread that waits for one
 * @area: the area
 * @s: the slot's index
 */
void xol_give_back(struct xol_area *area, unsigned int s)
{
	/* The slot's content (and what xol_fill_slot() kept) goes with it. */
	clear_bit_unlock(s, area->slots);
	/* Order the release of the slot before looking for sleepers. */
	smp_mb__after_atomic();
	if (wq_has_sleeper(&area->wq))
		wake_up(&area->wq);
}

#ifdef CONFIG_UPROBES_LEGACY_ARCH
/*
 * Was @slot filled with @insn last? The stock arch_uprobe_copy_ixol() may
 * write more than @insn (riscv an ebreak after the instruction, over the
 * bytes that followed it), so a slot never holds @insn alone: what it was
 * filled with is kept aside, by its holder (the slot's bit is taken), and
 * @insn noted as what it is about to hold. Only the borrowed slots are
 * written (no boosts, no stubs), after the area was made with none filled.
 */
static bool xol_slot_holds(struct xol_area *area, unsigned int slot,
			   const u8 *insn)
{
	if (test_bit(slot, area->filled_ok) &&
	    !memcmp(area->filled[slot], insn, UPROBE_IXOL_BYTES))
		return true;
	memcpy(area->filled[slot], insn, UPROBE_IXOL_BYTES);
	set_bit(slot, area->filled_ok);
	return false;
}
#else
/*
 * Does @kaddr hold @insn? Word by word where the size allows: a call of
 * memcmp() would cost as much as the rest of taking a slot.
 */
static bool xol_holds(const u8 *kaddr, const u8 *insn)
{
	unsigned int i;

	if (UPROBE_IXOL_BYTES % sizeof(long))
		return !memcmp(kaddr, insn, UPROBE_IXOL_BYTES);
	for (i = 0; i < UPROBE_IXOL_BYTES; i += sizeof(long))
		if (get_unaligned((const unsigned long *)(kaddr + i)) !=
		    get_unaligned((const unsigned long *)(insn + i)))
			return false;
	return true;
}

/* Does @slot of @area hold @insn? */
static bool xol_slot_holds(struct xol_area *area, unsigned int slot,
			   const u8 *insn)
{
	u8 *kaddr = kmap_local_page(area->page);
	bool same = xol_holds(kaddr + slot * UPROBE_XOL_SLOT_BYTES, insn);

	kunmap_local(kaddr);
	return same;
}
#endif

/*
 * Puts @insn in @slot of @area, unless it is there already (the slot was
 * used last for the same instruction): the step of a hot probe by the
 * same thread writes nothing.
 */
static void xol_fill_slot(struct xol_area *area, unsigned int slot,
			  const u8 *insn)
{
	if (!xol_slot_holds(area, slot, insn))
		arch_uprobe_copy_ixol(area->page,
				      area->vaddr + slot * UPROBE_XOL_SLOT_BYTES,
				      (void *)insn, UPROBE_IXOL_BYTES);
}

/**
 * xol_get_slot() - borrow a slot of current's XOL area for one step
 * @utask: current's uprobes state; its xol_vaddr is set
 * @insn: the instruction to step, UPROBE_IXOL_BYTES, copied into the slot
 *
 * The slot the thread used last is taken if it is free. May sleep until
 * a slot is free.
 *
 * Return: the slot's address, or 0 on failure (no memory, fatal signal).
 */
unsigned long xol_get_slot(struct uprobe_task *utask, const u8 *insn)
{
	struct xol_area *area = xol_area_get();
	unsigned long last;
	unsigned int slot;

	if (IS_ERR(area))
		return 0;
	/* 0 (slot 0 is the trampoline, never borrowed) when there is none. */
	last = utask->xol_last - area->vaddr;
	slot = last < PAGE_SIZE ? last / UPROBE_XOL_SLOT_BYTES : 0;
	if (!slot || test_and_set_bit(slot, area->slots)) {
		if (wait_event_killable(area->wq, xol_try_take(area, &slot)))
			return 0;
	}
	xol_fill_slot(area, slot, insn);
	utask->xol_vaddr = area->vaddr + slot * UPROBE_XOL_SLOT_BYTES;
	utask->xol_last = utask->xol_vaddr;
	return utask->xol_vaddr;
}

/**
 * xol_put_slot() - give back the slot a step borrowed
 * @utask: the stepping thread's uprobes state
 */
void xol_put_slot(struct uprobe_task *utask)
{
	struct mm_struct *mm = current->mm;
	struct xol_area *area;
	unsigned int slot;

	if (!utask->xol_vaddr || !mm)
		return;
	area = mm->uprobes_state.xol_area;
	slot = (utask->xol_vaddr - area->vaddr) / UPROBE_XOL_SLOT_BYTES;
	utask->xol_vaddr = 0;
	xol_give_back(area, slot);
}

/**
 * xol_area_fork() - give a forked child a copy of its parent's XOL area
 * @oldmm: the parent's address space, mmap lock held for writing
 * @child: the child's copy of it, mmap lock held for writing
 *
 * Only when the area holds stubs: the child's code jumps to them, so the
 * copy goes where the parent's area is, with the same stubs and boosted
 * slots, and none of the slots the parent's threads borrowed.
 *
 * Return: 0, or -ENOMEM (or an error mapping the copy); the child then
 * has no area.
 */
int xol_area_fork(struct mm_struct *oldmm, struct mm_struct *child)
{
	struct xol_area *parent, *area;
	unsigned int i;
	int err;

	/* Pairs with the release in xol_area_map(). */
	parent = smp_load_acquire(&oldmm->uprobes_state.xol_area);
	if (!parent || !READ_ONCE(parent->nr_stub))
		return 0;
	area = xol_area_alloc();
	if (!area)
		return -ENOMEM;
	mutex_lock(&parent->boost_lock);
	/* Slots given for good are written under the lock, before use. */
	copy_highpage(area->page, parent->page);
	area->nr_boost = parent->nr_boost;
	area->nr_stub = parent->nr_stub;
	memcpy(area->boost, parent->boost,
	       area->nr_boost * sizeof(area->boost[0]));
	memcpy(area->slot_entry, parent->slot_entry, sizeof(area->slot_entry));
	mutex_unlock(&parent->boost_lock);
	for (i = 0; i < area->nr_boost; i++)
		if (area->boost[i].slot)
			set_bit((area->boost[i].slot - parent->vaddr) /
				UPROBE_XOL_SLOT_BYTES, area->slots);
	err = xol_area_map(child, area, parent->vaddr);
	if (err)
		xol_area_release(area);
	return err;
}

/**
 * uprobe_get_trampoline_vaddr() - where current's return trampoline is
 *
 * Return: its address, or UPROBE_NO_TRAMPOLINE_VADDR.
 */
unsigned long uprobe_get_trampoline_vaddr(void)
{
	unsigned long vaddr = current->mm ? xol_area_vaddr(current->mm) : 0;

	return vaddr ? vaddr : UPROBE_NO_TRAMPOLINE_VADDR;
}
