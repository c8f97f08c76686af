// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: breakpoints that readers of a process's memory do not
 * see.
 *
 * A breakpoint lives in the process's private copy of a page of its
 * code. Whoever reads that memory from outside the process - a debugger
 * through ptrace or /proc/PID/mem, process_vm_readv(), the core dump -
 * gets the probed instruction where the breakpoint (an int3, or the jump
 * to a stub) is: a debugger disassembles the program's code, not ours.
 * And what it writes back of what it read (a word around its own
 * breakpoint) leaves ours in place; its own breakpoint written over ours
 * is noted (debugger.c), shown to readers and reported to it when hit.
 * Any other write over a probed instruction (a hot patcher's new code)
 * wins: our breakpoint leaves that address of that process, whole.
 * Only what this engine wrote into this address space is hidden or kept,
 * as the address space's record of our breakpoints says (written.c).
 * The program's own loads still see the breakpoint; nothing on the hit
 * path pays for this.
 *
 * The first UPROBE_SWBP_INSN_SIZE bytes of a breakpoint, where a
 * debugger's breakpoint instruction goes too, are judged as a whole: an
 * instruction that shares some of its bytes with ours (another BRK) is
 * not ours. A debugger's breakpoint may be longer than ours (riscv's
 * 4-byte ebreak over our 2-byte c.ebreak): it is judged by its own
 * length, and no more than our breakpoint's bytes are ever put back.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched/coredump.h>
#include <linux/uprobes.h>

#include "internal.h"

/* Probes looked up at a time. */
#define HIDE_BATCH	16

/* A trap instruction's bytes fit with a probed instruction's. */
static_assert(sizeof(uprobe_opcode_t) <= UPROBE_INSN_BYTES);

/*
 * Whether readers see probed instructions: on by default; debugfs
 * uprobes/hide_breakpoints turns it off, for tests that look at the
 * breakpoints themselves.
 */
bool uprobe_hide_breakpoints __read_mostly = true;

/* A copy of @len bytes of memory at @addr, and what to do with it. */
struct uprobe_hide_copy {
	unsigned long	addr;
	size_t		len;
	u8		*buf;		/* the copy, changed */
	u8		*mem;		/* for a write: the memory there now */
};

/*
 * The @n bytes @ours that a breakpoint wrote at @vaddr over @orig, byte
 * by byte: a reader gets the original's where the copy has ours; a
 * writer that gives back what it read (see uprobe_hide_write_wins()) keeps
 * ours. The first UPROBE_SWBP_INSN_SIZE bytes are left to
 * uprobe_hide_fix_first().
 */
static void uprobe_hide_fix(struct uprobe_hide_copy *c, unsigned long vaddr,
			    const u8 *ours, const u8 *orig, int n)
{
	unsigned long a, s = max(vaddr + UPROBE_SWBP_INSN_SIZE, c->addr);
	unsigned long e = min(vaddr + n, c->addr + c->len);

	for (a = s; a < e; a++) {
		u8 *b = c->buf + (a - c->addr);
		int i = a - vaddr;

		if (!c->mem) {
			if (*b == ours[i])
				*b = orig[i];
		} else if (*b == orig[i] && *b != ours[i] &&
			   c->mem[a - c->addr] == ours[i]) {
			*b = ours[i];
		}
	}
}

/*
 * The opcode at @vaddr, uprobe_opcode_len() bytes (a debugger's breakpoint
 * may be longer than ours): in @b as the copy has them (as memory will,
 * for a write), in @now as memory has them now. Bytes the copy does not
 * cover are read from memory. Returns how many, or 0 when the copy
 * covers none of the first UPROBE_SWBP_INSN_SIZE, or memory cannot be
 * read.
 */
static unsigned int uprobe_hide_unit(struct uprobe_hide_copy *c,
				     struct mm_struct *mm, unsigned long vaddr,
				     u8 *b, u8 *now)
{
	const unsigned int s = UPROBE_SWBP_INSN_SIZE;
	const unsigned int u = uprobe_opcode_len(vaddr);
	unsigned long end = c->addr + c->len;
	unsigned int i;
	bool anon;

	if (vaddr + s <= c->addr || vaddr >= end)
		return 0;
	if ((vaddr < c->addr || vaddr + u > end) &&
	    uprobe_peek(mm, vaddr, now, u, &anon))
		return 0;
	for (i = 0; i < u; i++) {
		unsigned long a = vaddr + i;

		if (a < c->addr || a >= end) {
			b[i] = now[i];
			continue;
		}
		b[i] = c->buf[a - c->addr];
		now[i] = c->mem ? c->mem[a - c->addr] : b[i];
	}
	return u;
}

/* Puts @bytes in the copy where it covers the first unit at @vaddr. */
static void uprobe_hide_unit_put(struct uprobe_hide_copy *c,
				 unsigned long vaddr, const u8 *bytes)
{
	unsigned int i;

	for (i = 0; i < UPROBE_SWBP_INSN_SIZE; i++)
		if (vaddr + i >= c->addr && vaddr + i < c->addr + c->len)
			c->buf[vaddr + i - c->addr] = bytes[i];
}

/*
 * The first unit of the breakpoint at @vaddr, @ours (our breakpoint, or
 * a jump's first bytes), over @orig. A debugger's breakpoint instruction
 * written there is noted (see debugger.c): readers see it, until the
 * debugger writes back what it read, which gives ours back.
 */
static void uprobe_hide_fix_first(struct uprobe_hide_copy *c,
				  struct mm_struct *mm, unsigned long vaddr,
				  const u8 *ours, int n, const u8 *orig)
{
	const unsigned int s = UPROBE_SWBP_INSN_SIZE;
	uprobe_opcode_t b, now;
	unsigned int u;
	bool dbg;

	uprobe_opcode_init(&b);
	uprobe_opcode_init(&now);
	u = uprobe_hide_unit(c, mm, vaddr, (u8 *)&b, (u8 *)&now);
	if (!u)
		return;
	dbg = uprobe_dbg_bp_at(mm, vaddr);
	if (!c->mem) {
		if (!memcmp(&b, ours, s) && !dbg)
			uprobe_hide_unit_put(c, vaddr, orig);
		return;
	}
	/*
	 * Ours, or a debugger's breakpoint over ours (the same instruction
	 * where there is only one) or over the start of our jump.
	 */
	if (memcmp(&now, ours, s) &&
	    !(uprobe_trap_len(&now, u) &&
	      (dbg || uprobe_jump_tail_at(mm, vaddr, ours, n))))
		return;
	if (uprobe_trap_len(&b, u)) {
		if (!dbg)
			uprobe_dbg_bp_set(mm, vaddr, true);
		return;
	}
	/* Ours again, unless the breakpoint was the debugger's alone. */
	if (!memcmp(&b, orig, s) && memcmp(orig, ours, s) &&
	    (!dbg || uprobe_dbg_bp_over(mm, vaddr)))
		uprobe_hide_unit_put(c, vaddr, ours);
	/* Anything else replaces the breakpoint, the debugger's too. */
	if (dbg)
		uprobe_dbg_bps_forget(mm, vaddr, vaddr + 1);
}

/*
 * Memory at the probed instruction of @len bytes at @vaddr (and past it,
 * as the caller asks), before a write (@now) and as the write leaves it
 * (@after). False when it cannot be read.
 */
static bool uprobe_hide_site(struct uprobe_hide_copy *c, struct mm_struct *mm,
			     unsigned long vaddr, int len, u8 *now, u8 *after)
{
	unsigned long a;
	bool anon;
	int i;

	if (uprobe_peek(mm, vaddr, now, len, &anon))
		return false;
	for (i = 0; i < len; i++) {
		a = vaddr + i;
		after[i] = a >= c->addr && a < c->addr + c->len ?
			   c->buf[a - c->addr] : now[i];
	}
	return true;
}

/*
 * Does a write replace the probed instruction at @vaddr (@ours, @n bytes,
 * over @orig, @len bytes) with other code? A write that gives back what
 * readers were shown leaves every byte of the instruction as the original
 * or as it is now; its first unit may also become a debugger's
 * breakpoint, which may be longer than ours (riscv's 4-byte ebreak over a
 * c.ebreak): its bytes are judged as its own. Any other write wins,
 * whole: the instruction is replaced at once with the writer's bytes and
 * the original's where ours were, and our breakpoint is no longer there.
 * A breakpoint instruction the writer leaves in front (a patcher
 * guarding its own rewrite) is noted as its own, not ours.
 */
static bool uprobe_hide_write_wins(struct uprobe_hide_copy *c,
				   struct mm_struct *mm, unsigned long vaddr,
				   const u8 *ours, int n, const u8 *orig, int len)
{
	const int s = UPROBE_SWBP_INSN_SIZE;
	u8 now[UPROBE_INSN_BYTES], after[UPROBE_INSN_BYTES];
	unsigned long a;
	int i, m, trap;
	bool dbg;

	len = min_t(int, max(len, n), PAGE_SIZE - offset_in_page(vaddr));
	/* What a trap instruction's length needs read: see uprobe_trap_len(). */
	m = max_t(int, len, uprobe_opcode_len(vaddr));
	if (!c->mem || n > len || vaddr + len <= c->addr ||
	    vaddr >= c->addr + c->len ||
	    !uprobe_hide_site(c, mm, vaddr, m, now, after))
		return false;
	/* Ours there, its first unit maybe under a debugger's breakpoint? */
	dbg = uprobe_dbg_bp_at(mm, vaddr);
	if (memcmp(now + s, ours + s, n - s) ||
	    (memcmp(now, ours, s) &&
	     !(uprobe_trap_len(now, m) && (n > s || dbg))))
		return false;
	trap = uprobe_trap_len(after, m);
	for (i = 0; i < len; i++)
		if (after[i] != orig[i] && after[i] != now[i] && i >= trap)
			break;
	if (i == len)
		return false;
	/* What the write leaves of ours goes back to the original's. */
	for (i = dbg ? s : 0; i < n; i++) {
		a = vaddr + i;
		if ((a < c->addr || a >= c->addr + c->len) && now[i] == ours[i])
			after[i] = orig[i];
	}
	if (uprobe_replace_site(mm, vaddr, now, after, len)) {
		/* No copy of ours to replace at once: the page written to. */
		for (i = 0; i < n; i++) {
			a = vaddr + i;
			if (a < c->addr || a >= c->addr + c->len)
				c->mem[(long)(a - c->addr)] = after[i];
		}
	}
	uprobe_bps_unnote(mm, vaddr);
	if (uprobe_trap_len(after, m))
		uprobe_dbg_bp_set(mm, vaddr, false);
	else if (dbg)
		uprobe_dbg_bps_forget(mm, vaddr, vaddr + 1);
	pr_info_ratelimited("probed instruction at 0x%lx overwritten by pid %d (%s): its breakpoint there is gone\n",
			    vaddr, current->pid, current->comm);
	return true;
}

/*
 * Was the breakpoint of @uprobe at @vaddr written into @mm by us? Only
 * where the address space's record says so (see written.c): an int3 at
 * a probe's address in a process its consumers filter out is the
 * program's own.
 */
static bool uprobe_hide_ours(struct uprobe *uprobe, struct mm_struct *mm,
			     unsigned long vaddr)
{
	return uprobe_ready(uprobe) && READ_ONCE(uprobe->live) &&
	       uprobe_bps_noted(mm, vaddr);
}

/* Fixes the copy where the breakpoint of @uprobe, at @vaddr, is. */
static void uprobe_hide_fix_one(struct uprobe_hide_copy *c,
				struct uprobe *uprobe, struct mm_struct *mm,
				unsigned long vaddr)
{
	u8 jump[UPROBE_INSN_BYTES], orig[UPROBE_INSN_BYTES];
	const u8 *insn = (const u8 *)uprobe->arch.insn;
	uprobe_opcode_t bp = UPROBE_SWBP_INSN;
	const int s = UPROBE_SWBP_INSN_SIZE;
	int n, len;

	if (!uprobe_hide_ours(uprobe, mm, vaddr))
		return;
	len = arch_uprobe_insn_len(&uprobe->arch);
	n = uprobe_stub_jump(mm, vaddr, jump, orig);
	if (n > 0 && uprobe_jump_tail_at(mm, vaddr, jump, n)) {
		/* The jump (maybe under a debugger's int3). */
		if (uprobe_hide_write_wins(c, mm, vaddr, jump, n, orig, len))
			return;
		uprobe_hide_fix(c, vaddr, jump, orig, n);
		uprobe_hide_fix_first(c, mm, vaddr, jump, n, orig);
	} else {
		if (uprobe_hide_write_wins(c, mm, vaddr, (u8 *)&bp, s, insn,
					   len))
			return;
		uprobe_hide_fix(c, vaddr, (u8 *)&bp, insn, s);
		uprobe_hide_fix_first(c, mm, vaddr, (u8 *)&bp, s, insn);
	}
}

/* Fixes the copy in [@s, @e), where @vma maps a file. */
static void uprobe_hide_fix_vma(struct uprobe_hide_copy *c,
				struct vm_area_struct *vma, unsigned long s,
				unsigned long e)
{
	struct inode *inode = file_inode(vma->vm_file);
	struct uprobe *batch[HIDE_BATCH];
	loff_t start, end;
	int nr, i;

	/* A breakpoint may begin before @s and reach into it. */
	s = max(vma->vm_start,
		s - min(s, (unsigned long)UPROBE_INSN_BYTES - 1));
	start = uprobe_vma_vaddr_offset(vma, s);
	end = uprobe_vma_vaddr_offset(vma, e);
	do {
		nr = uprobe_collect_range(inode, start, end, batch, HIDE_BATCH);
		for (i = 0; i < nr; i++) {
			struct uprobe *uprobe = batch[i];
			unsigned long vaddr;

			vaddr = uprobe_vma_offset_vaddr(vma, uprobe->offset);
			uprobe_hide_fix_one(c, uprobe, vma->vm_mm, vaddr);
			start = uprobe->offset + 1;
			uprobe_put(uprobe);
		}
	} while (nr == HIDE_BATCH);
}

static void uprobe_hide_fix_copy(struct mm_struct *mm,
				 struct uprobe_hide_copy *c)
{
	VMA_ITERATOR(vmi, mm, c->addr);
	unsigned long end = c->addr + c->len;
	struct vm_area_struct *vma;

	if (!c->len || end < c->addr || !READ_ONCE(uprobe_hide_breakpoints) ||
	    !test_bit(MMF_HAS_UPROBES, &mm->flags) ||
	    uprobes_registry_empty())
		return;
	mmap_assert_locked(mm);
	for_each_vma_range(vmi, vma, end)
		if (uprobe_vma_probeable(vma))
			uprobe_hide_fix_vma(c, vma, max(c->addr, vma->vm_start),
					    min(end, vma->vm_end));
}

/**
 * uprobe_hide_bps() - show a copy of process memory without our breakpoints
 * @mm: the address space the bytes were read from; mmap lock held
 * @addr: where they were read
 * @buf: the bytes, a copy in the kernel
 * @len: how many
 *
 * Readers of another process's memory (ptrace, /proc/PID/mem,
 * process_vm_readv(), core dumps) see the probed instructions, not the
 * breakpoints that replace them: where @buf holds a byte a breakpoint
 * wrote (an int3, or one of a jump to a stub), it is replaced with the
 * probed instruction's. Any other value (the process or a debugger wrote
 * there), and a debugger's int3 over ours, is left as it is.
 */
void uprobe_hide_bps(struct mm_struct *mm, unsigned long addr, void *buf,
		     size_t len)
{
	struct uprobe_hide_copy c = { .addr = addr, .len = len, .buf = buf };

	uprobe_hide_fix_copy(mm, &c);
}

/**
 * uprobe_keep_bps() - keep our breakpoints under a write of what was read
 * @mm: the address space written to; mmap lock held
 * @addr: where
 * @buf: the bytes to write, a copy in the kernel; changed
 * @mem: the memory written to, in the kernel's mapping of its page
 * @len: how many, not crossing a page
 *
 * A debugger writes back what it read around its own breakpoint (a word
 * of PTRACE_POKETEXT, or the byte its breakpoint replaced): where that is
 * the probed instruction uprobe_hide_bps() showed in place of a
 * breakpoint still in memory, @buf gets the breakpoint's byte again (the
 * first byte of a jump to a stub also where the debugger's int3 is on
 * it). Other bytes are written as they are. A write that puts other code
 * in place of a probed instruction wins: our breakpoint leaves that
 * address, and what of it the write does not cover is written back to
 * the original in @mem's page. An int3 the debugger writes into code,
 * over one of ours or not, is noted as its own (see debugger.c) until it
 * writes something else there.
 */
void uprobe_keep_bps(struct mm_struct *mm, unsigned long addr, void *buf,
		     void *mem, size_t len)
{
	struct uprobe_hide_copy c = {
		.addr = addr, .len = len, .buf = buf, .mem = mem,
	};

	if (!len || !READ_ONCE(uprobe_hide_breakpoints))
		return;
	uprobe_hide_fix_copy(mm, &c);
	uprobe_dbg_bps_written(mm, addr, buf, mem, len);
}
