// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: XOL slots given for good.
 *
 * A probed instruction that can run out of line without a single-step
 * gets a slot of its own in the XOL area (xol.c), holding a copy of it and
 * a jump back after the original: a boosted slot. A probed instruction
 * replaced with a jump (stub.c) gets one too, holding its stub. Either is
 * made on the first request in an address space, with the code the
 * architecture writes for it, and stays until the address space goes: a
 * thread may be inside it at any time. The table of these slots is read
 * without a lock on every hit: entries are published complete, and never
 * change or go away.
 */
#include <linux/mm.h>
#include <linux/string.h>

#include "internal.h"
#include "xol.h"

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
 * The stub at @vaddr among the @nr entries of @area, or NULL: an address
 * has one at most (see xol_give_slot()).
 */
static struct xol_boost *xol_stub_at(struct xol_area *area, unsigned int nr,
				     unsigned long vaddr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct xol_boost *b = &area->boost[i];

		if (b->vaddr == vaddr && b->stub && b->slot)
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
	if (nr == XOL_MAX_BOOST)
		goto out;
	/*
	 * One stub an address: the jump in memory is then always the one
	 * found by the address (hiding, removal, a hit whose probe went).
	 * Another instruction there keeps its breakpoint.
	 */
	if (stub && xol_stub_at(area, nr, vaddr))
		goto record;
	if (!xol_try_take(area, &s))
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
	area->boost[nr].len = arch_uprobe_insn_len(auprobe);
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

	/* Pairs with the release in xol_area_map(). */
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

	/* Pairs with the release in xol_area_map(). */
	area = mm ? smp_load_acquire(&mm->uprobes_state.xol_area) : NULL;
	return area && READ_ONCE(area->nr_stub) ? area : NULL;
}

/* The stub at @vaddr in @mm (mmap lock held, or current's), or NULL. */
static struct xol_boost *xol_stub_of(struct mm_struct *mm, unsigned long vaddr)
{
	struct xol_area *area = xol_stub_area(mm);

	/* Pairs with the release in xol_give_slot(). */
	return area ? xol_stub_at(area, smp_load_acquire(&area->nr_boost),
				  vaddr) : NULL;
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

	/* Pairs with the release in xol_area_map(). */
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
	struct xol_boost *b = xol_stub_of(mm, vaddr);

	if (!b)
		return 0;
	memcpy(insn, b->insn, sizeof(b->insn));
	return b->slot;
}

/**
 * xol_stub_len() - length of the instruction a jump of current's stands for
 * @vaddr: the probed address
 * @mem: the bytes at @vaddr now
 * @n: how many of them
 *
 * For a stub whose probe has gone: the stub whose jump @mem holds, none
 * when the jump was taken out since the thread went through it.
 *
 * Return: the length, 0 when @mem is no jump to a stub of current's.
 */
unsigned int xol_stub_len(unsigned long vaddr, const u8 *mem, unsigned int n)
{
	struct xol_boost *b = xol_stub_of(current->mm, vaddr);
	u8 jump[UPROBE_INSN_BYTES];
	int len;

	if (!b)
		return 0;
	len = arch_uprobe_stub_jump(vaddr, b->slot, jump);
	return len > 0 && len <= n && !memcmp(jump, mem, len) ? b->len : 0;
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
