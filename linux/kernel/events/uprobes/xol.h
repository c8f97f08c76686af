/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uprobes engine: the XOL area, as xol.c (its slots lent for a step) and
 * boost.c (its slots given for good) see it.
 */
#ifndef _UPROBES_XOL_H
#define _UPROBES_XOL_H

#include <linux/mutex.h>
#include <linux/wait.h>

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
 * @len: the instruction's length (arch_uprobe_insn_len()), which a stub's
 *	hit moves ip on by
 */
struct xol_boost {
	unsigned long	vaddr;
	u8		insn[UPROBE_INSN_BYTES];
	unsigned long	slot;
	bool		stub;
	u8		len;
};

/**
 * struct xol_area - the XOL page of an address space
 * @wq: threads waiting for a free slot
 * @slots: bitmap of the slots in use: 0 (the trampoline), those borrowed
 *	for a step and those given for good (boosted copies, stubs)
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
#ifdef CONFIG_UPROBES_LEGACY_ARCH
	/* The instruction each slot was filled with, see xol_fill_slot() */
	DECLARE_BITMAP(filled_ok, XOL_NR_SLOTS);
	u8			filled[XOL_NR_SLOTS][UPROBE_IXOL_BYTES];
#endif
};

struct xol_area *xol_area_get(void);
bool xol_try_take(struct xol_area *area, unsigned int *slot);
void xol_give_back(struct xol_area *area, unsigned int s);

#endif /* _UPROBES_XOL_H */
