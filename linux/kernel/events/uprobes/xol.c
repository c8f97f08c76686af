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
 * Other slots are given for good: boosted copies of probed instructions,
 * and the stubs that probed nops jump to (stub.c). A forked child whose
 * code jumps to stubs gets a copy of its parent's area at the same place.
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

#define XOL_NR_SLOTS	(PAGE_SIZE / UPROBE_XOL_SLOT_BYTES)
static_assert(UPROBE_IXOL_BYTES <= UPROBE_XOL_SLOT_BYTES);
/*
 * At most half of the slots are given for good (boosts and stubs), and no
 * more than xol_area::slot_entry, a u8, can index: with 64K pages arm64
 * has 1024 slots, and entry 256 would be recorded as 0 (none) and 257 as
 * 1, a stub lookup finding entry 0's; small slots (8 bytes on riscv and
 * powerpc, whose 64K pages have 8192) would also make the area large.
 */
#define XOL_MAX_BOOST	MIN(XOL_NR_SLOTS / 2, U8_MAX)
static_assert(XOL_MAX_BOOST <= U8_MAX);

/**
 * struct xol_boost - a slot given for good to a probed instruction
 * @vaddr: address of the probed instruction
 * @insn: the instruction: the slot is valid for these bytes at @vaddr
 * @slot: address of the slot, 0 when it would be out of reach
 * @stub: the slot is the stub a jump at @vaddr goes to, not a boosted
 *	copy of the instruction
 */
struct xol_boost {
	unsigned long	vaddr;
	u8		insn[UPROBE_INSN_BYTES];
	unsigned long	slot;
	bool		stub;
};

/**
 * struct xol_area - the XOL page of an address space
 * @wq: threads waiting for a free slot
 * @slots: bitmap of borrowed slots (slot 0 is the trampoline)
 * @page: the page, also written by the kernel through its direct mapping
 * @vaddr: where it is mapped
 * @boost_lock: serialises the creation of boosted slots
 * @nr_boost: entries of @boost in use, only ever grows
 * @nr_stub: how many of them are stubs
 * @slot_entry: for each slot, 1 + the index in @boost of its entry, or 0
 * @boost: the slots given for good; they stay until the address space
 *	goes, since a thread may be inside one at any time
 */
struct xol_area {
	wait_queue_head_t	wq;
	DECLARE_BITMAP(slots, XOL_NR_SLOTS);
	struct page		*page;
	unsigned long		vaddr;
	struct mutex		boost_lock;	/* see @boost_lock above */
	unsigned int		nr_boost;
	unsigned int		nr_stub;
	u8			slot_entry[XOL_NR_SLOTS];
	struct xol_boost	boost[XOL_MAX_BOOST];
};

/**
 * arch_uprobe_trampoline() - code a return probe returns through
 * @psize: set to its size
 *
 * The default is a breakpoint the core recognises by its address.
 *
 * Return: the code.
 */
void * __weak arch_uprobe_trampoline(unsigned long *psize)
{
	static uprobe_opcode_t insn = UPROBE_SWBP_INSN;

	*psize = UPROBE_SWBP_INSN_SIZE;
	return &insn;
}

/**
 * arch_uprobe_copy_ixol() - write an instruction into the XOL page
 * @page: the XOL page
 * @vaddr: user address of the slot
 * @src: the instruction
 * @len: its length
 */
void __weak arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
				  void *src, unsigned long len)
{
	memcpy_to_page(page, offset_in_page(vaddr), src, len);
	flush_dcache_page(page);
}

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

static struct xol_area *xol_area_get(void)
{
	struct xol_area *area;

	/* Pairs with the release in xol_area_install(). */
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

	/* Pairs with the release in xol_area_install(). */
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

static bool xol_try_take(struct xol_area *area, unsigned int *slot)
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

/* Gives back slot @s, waking a thread that waits for one. */
static void xol_give_back(struct xol_area *area, unsigned int s)
{
	clear_bit(s, area->slots);
	/* Order the release of the slot before looking for sleepers. */
	smp_mb__after_atomic();
	if (wq_has_sleeper(&area->wq))
		wake_up(&area->wq);
}

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

/*
 * Puts @insn in @slot of @area, unless it is there already (the slot was
 * used last for the same instruction): the step of a hot probe by the
 * same thread writes nothing.
 */
static void xol_fill_slot(struct xol_area *area, unsigned int slot,
			  const u8 *insn)
{
	unsigned long off = slot * UPROBE_XOL_SLOT_BYTES;
	u8 *kaddr = kmap_local_page(area->page);
	bool same = xol_holds(kaddr + off, insn);

	kunmap_local(kaddr);
	if (!same)
		arch_uprobe_copy_ixol(area->page, area->vaddr + off,
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
 * arch_uprobe_boost_insn() - code for a boosted XOL slot
 * @auprobe: the probed instruction
 * @regs: the user registers of a thread hitting the probe
 * @vaddr: where the probed instruction is
 * @slot: where the slot is
 * @buf: receives the code, UPROBE_XOL_SLOT_BYTES at most: a copy of the
 *	instruction, of the original's length, then a jump back after it
 *
 * Return: the size of the code, 0 when it cannot be boosted (by default
 * nothing is), or -ERANGE when it cannot be from this slot.
 */
int __weak arch_uprobe_boost_insn(struct arch_uprobe *auprobe,
				  struct pt_regs *regs, unsigned long vaddr,
				  unsigned long slot, u8 *buf)
{
	return 0;
}

/**
 * arch_uprobe_kind() - how hits of a probed instruction are executed
 * @auprobe: the analysed instruction
 * @is_64bit: it was analysed as 64-bit code
 *
 * Return: "emulated", "boosted" or "stepped"; by default "stepped".
 */
const char * __weak arch_uprobe_kind(struct arch_uprobe *auprobe,
				     bool is_64bit)
{
	return "stepped";
}

/**
 * arch_uprobe_boost_ok() - may this hit run a boosted slot?
 * @regs: the user registers
 *
 * Return: true when the thread may run through a boosted slot.
 */
bool __weak arch_uprobe_boost_ok(struct pt_regs *regs)
{
	return false;
}

static struct xol_boost *xol_boost_find(struct xol_area *area,
					unsigned int nr,
					struct arch_uprobe *auprobe,
					unsigned long vaddr, bool stub)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct xol_boost *b = &area->boost[i];

		if (b->vaddr == vaddr && b->stub == stub &&
		    !memcmp(b->insn, auprobe->insn, sizeof(b->insn)))
			return b;
	}
	return NULL;
}

/*
 * The slot given for good to the instruction at @vaddr, as a boosted copy
 * or as its stub: made on the first request, with the code the
 * architecture writes for it, and kept with its verdict until the address
 * space goes. Returns the slot, 0 (none left, out of reach, failure) or
 * -EOPNOTSUPP (the architecture wrote nothing).
 */
static long xol_give_slot(struct arch_uprobe *auprobe, unsigned long vaddr,
			  struct pt_regs *regs, bool stub)
{
	struct xol_area *area = xol_area_get();
	u8 code[UPROBE_XOL_SLOT_BYTES];
	unsigned long slot = 0;
	struct xol_boost *b;
	unsigned int nr, s;
	int len;

	if (IS_ERR(area))
		return 0;
	/* Pairs with the release below: entries are complete. */
	nr = smp_load_acquire(&area->nr_boost);
	b = xol_boost_find(area, nr, auprobe, vaddr, stub);
	if (b)
		return b->slot;

	mutex_lock(&area->boost_lock);
	nr = area->nr_boost;
	b = xol_boost_find(area, nr, auprobe, vaddr, stub);
	if (b) {
		slot = b->slot;
		goto out;
	}
	if (nr == XOL_MAX_BOOST || !xol_try_take(area, &s))
		goto out;
	slot = area->vaddr + s * UPROBE_XOL_SLOT_BYTES;
	if (stub)
		len = arch_uprobe_stub_code(auprobe, vaddr, slot, code);
	else
		len = arch_uprobe_boost_insn(auprobe, regs, vaddr, slot, code);
	if (len == -ERANGE) {
		xol_give_back(area, s);
		slot = 0;
		goto record;
	}
	if (len <= 0) {
		xol_give_back(area, s);
		mutex_unlock(&area->boost_lock);
		return -EOPNOTSUPP;
	}
	arch_uprobe_copy_ixol(area->page, slot, code, len);
record:
	area->boost[nr].vaddr = vaddr;
	memcpy(area->boost[nr].insn, auprobe->insn, sizeof(auprobe->insn));
	area->boost[nr].slot = slot;
	area->boost[nr].stub = stub;
	if (slot)
		WRITE_ONCE(area->slot_entry[s], nr + 1);
	if (stub && slot)
		WRITE_ONCE(area->nr_stub, area->nr_stub + 1);
	/* Publish the entry complete; pairs with the acquire above. */
	smp_store_release(&area->nr_boost, nr + 1);
out:
	mutex_unlock(&area->boost_lock);
	return slot;
}

/**
 * xol_boost_slot() - the boosted slot of a probed instruction
 * @auprobe: the probed instruction
 * @vaddr: its address in current's address space
 * @regs: current's user registers
 *
 * A boosted slot holds the instruction followed by a jump back after the
 * original: running it needs no single-step. It is made on the first hit
 * in each address space and kept until the address space goes; so is the
 * verdict that the slot would be too far from the memory a rip-relative
 * operand addresses (an entry without slot: stepped in this one).
 *
 * Return: the slot's address, 0 when the slots for boosting are used up,
 * out of reach, or on failure, or -EOPNOTSUPP when the instruction cannot
 * be boosted.
 */
long xol_boost_slot(struct arch_uprobe *auprobe, unsigned long vaddr,
		    struct pt_regs *regs)
{
	return xol_give_slot(auprobe, vaddr, regs, false);
}

/**
 * xol_stub_slot() - the stub a probed instruction may jump to
 * @auprobe: the probed instruction, one arch_uprobe_stub_ok() accepted
 * @vaddr: its address in current's address space
 *
 * The stub is made on the first request in each address space and kept
 * until the address space goes, like a boosted slot.
 *
 * Return: the stub's address, or 0 when the slots are used up, the stub
 * would be out of the jump's reach, or on failure.
 */
unsigned long xol_stub_slot(struct arch_uprobe *auprobe, unsigned long vaddr)
{
	long slot = xol_give_slot(auprobe, vaddr, NULL, true);

	return slot > 0 ? slot : 0;
}

/**
 * xol_boost_lookup() - the boosted slot an address of current's is in
 * @ip: a user address
 * @vaddr: set to the probed address the slot stands for
 *
 * Return: the slot's address, or 0 when @ip is in no boosted slot.
 */
unsigned long xol_boost_lookup(unsigned long ip, unsigned long *vaddr)
{
	struct mm_struct *mm = current->mm;
	struct xol_area *area;
	unsigned int i, nr;

	/* Pairs with the release in xol_area_install(). */
	area = mm ? smp_load_acquire(&mm->uprobes_state.xol_area) : NULL;
	if (!area || ip - area->vaddr >= PAGE_SIZE)
		return 0;
	/* Pairs with the release in xol_give_slot(). */
	nr = smp_load_acquire(&area->nr_boost);
	for (i = 0; i < nr; i++) {
		struct xol_boost *b = &area->boost[i];

		if (b->slot && !b->stub && ip - b->slot < UPROBE_XOL_SLOT_BYTES) {
			*vaddr = b->vaddr;
			return b->slot;
		}
	}
	return 0;
}

/* @mm's XOL area if it has stubs; mmap lock held, or @mm is current's. */
static struct xol_area *xol_stub_area(struct mm_struct *mm)
{
	struct xol_area *area;

	/* Pairs with the release in xol_area_install(). */
	area = mm ? smp_load_acquire(&mm->uprobes_state.xol_area) : NULL;
	return area && READ_ONCE(area->nr_stub) ? area : NULL;
}

/**
 * uprobe_stub_lookup() - the stub or trampoline an address of current's is in
 * @ip: a user address
 * @vaddr: set to the probed address the stub stands for, 0 for the return
 *	trampoline (slot 0)
 *
 * Return: the address of the stub or of the trampoline, or 0 when @ip is
 * in neither.
 */
unsigned long uprobe_stub_lookup(unsigned long ip, unsigned long *vaddr)
{
	struct mm_struct *mm = current->mm;
	struct xol_area *area;
	struct xol_boost *b;
	unsigned int i, nr;

	/* Pairs with the release in xol_area_install(). */
	area = mm ? smp_load_acquire(&mm->uprobes_state.xol_area) : NULL;
	if (!area || ip - area->vaddr >= PAGE_SIZE)
		return 0;
	if (ip - area->vaddr < UPROBE_XOL_SLOT_BYTES) {
		*vaddr = 0;
		return area->vaddr;
	}
	/* Pairs with the release in xol_give_slot(): entries up to nr. */
	nr = smp_load_acquire(&area->nr_boost);
	i = READ_ONCE(area->slot_entry[(ip - area->vaddr) /
				       UPROBE_XOL_SLOT_BYTES]);
	if (!i || i > nr)
		return 0;
	b = &area->boost[i - 1];
	if (!b->stub)
		return 0;
	*vaddr = b->vaddr;
	return b->slot;
}

/**
 * xol_stub_find() - the stub of the probed instruction at an address
 * @mm: the address space, mmap lock held
 * @vaddr: the probed address
 * @insn: receives the original instruction, UPROBE_INSN_BYTES
 *
 * Return: the stub's address, or 0 when @mm has none for @vaddr.
 */
unsigned long xol_stub_find(struct mm_struct *mm, unsigned long vaddr,
			    u8 *insn)
{
	struct xol_area *area = xol_stub_area(mm);
	unsigned int i, nr;

	if (!area)
		return 0;
	/* Pairs with the release in xol_give_slot(). */
	nr = smp_load_acquire(&area->nr_boost);
	for (i = 0; i < nr; i++) {
		struct xol_boost *b = &area->boost[i];

		if (b->stub && b->slot && b->vaddr == vaddr) {
			memcpy(insn, b->insn, sizeof(b->insn));
			return b->slot;
		}
	}
	return 0;
}

/**
 * xol_stub_nth() - one of the stubs of an address space
 * @mm: the address space, mmap lock held
 * @i: its index, from 0
 * @vaddr: receives the probed address it stands for
 * @slot: receives its address
 * @insn: receives the original instruction, UPROBE_INSN_BYTES
 *
 * Return: false when there are fewer than @i + 1 stubs.
 */
bool xol_stub_nth(struct mm_struct *mm, unsigned int i, unsigned long *vaddr,
		  unsigned long *slot, u8 *insn)
{
	struct xol_area *area = xol_stub_area(mm);
	unsigned int j, nr;

	if (!area)
		return false;
	/* Pairs with the release in xol_give_slot(). */
	nr = smp_load_acquire(&area->nr_boost);
	for (j = 0; j < nr; j++) {
		struct xol_boost *b = &area->boost[j];

		if (!b->stub || !b->slot || i--)
			continue;
		*vaddr = b->vaddr;
		*slot = b->slot;
		memcpy(insn, b->insn, sizeof(b->insn));
		return true;
	}
	return false;
}

/**
 * xol_area_has_stubs() - may code of an address space jump to stubs?
 * @mm: the address space
 *
 * Return: true when its XOL area holds at least one stub.
 */
bool xol_area_has_stubs(struct mm_struct *mm)
{
	return xol_stub_area(mm);
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
	struct xol_area *parent = xol_stub_area(oldmm), *area;
	unsigned int i;
	int err;

	if (!parent)
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
