// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: breakpoints in process memory.
 *
 * The file and its page cache are never written. Every breakpoint write,
 * in or out, goes through uprobe_write_locked() (uprobe_replace_site()
 * for another writer's change of a probed instruction): the bytes are
 * replaced in the address space's anonymous copy of the page, made first
 * by a forced write fault when there is none (copy-on-write), under the
 * page-table lock and
 * with the entry cleared and flushed so that no thread can write the page
 * meanwhile, the byte that is there is checked again and replaced. A
 * removal that leaves the copy identical to the file's page gives the
 * address space the page cache page back, unless something else may
 * rely on the copy (mlock, userfaultfd, an extra reference).
 *
 * Breakpoint writes of one address space are serialised by its mmap lock
 * held for writing: registration, the mmap hook and handler-requested
 * removal all take it, so each re-checks what the others did. A write
 * through ptrace or /proc/PID/mem that replaces a probed instruction
 * (hide.c) takes a breakpoint out under the lock held for reading.
 *
 * The USDT semaphores of the probes (ctr.c) are counted on the same
 * transitions, under the same lock.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/elf.h>
#include <linux/highmem.h>
#include <linux/mmu_notifier.h>
#include <linux/pagemap.h>
#include <linux/pagewalk.h>
#include <linux/rmap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/userfaultfd_k.h>

#include "internal.h"

/* Reads through the page cache of @file's own inode, with @file. */
static int uprobe_read_cache(struct file *file, loff_t offset, u8 *dst,
			     size_t len)
{
	struct address_space *mapping = file->f_mapping;

	while (len) {
		size_t off = offset_in_page(offset);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;

		if (shmem_mapping(mapping))
			page = shmem_read_mapping_page(mapping,
						       offset >> PAGE_SHIFT);
		else
			page = read_mapping_page(mapping, offset >> PAGE_SHIFT,
						 file);
		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy_from_page(dst, page, off, n);
		put_page(page);
		dst += n;
		offset += n;
		len -= n;
	}
	return 0;
}

/**
 * uprobe_read_insn() - read bytes of a probed file
 * @inode: the probed inode
 * @file: an open file of @inode, or of a file whose content is @inode's
 *	(an overlay's)
 * @offset: where to start
 * @buf: destination; zero filled past the end of the file
 * @len: how many bytes
 *
 * Filesystems that fill their page cache only for an open file (FUSE,
 * 9p, NFS, CIFS) get one. A file of @inode itself is read through its
 * page cache's read_folio, which takes no lock the mmap hook may not
 * hold; another file (only at registration) through its read method.
 *
 * Return: 0, -EINVAL when @offset is past the end, or the read error.
 */
int uprobe_read_insn(struct inode *inode, struct file *file, loff_t offset,
		     void *buf, size_t len)
{
	loff_t pos = offset;
	u8 *dst = buf;
	ssize_t n;

	if (offset < 0 || offset >= i_size_read(inode))
		return -EINVAL;
	memset(buf, 0, len);
	len = min_t(loff_t, len, i_size_read(inode) - offset);
	if (file_inode(file) == inode)
		return uprobe_read_cache(file, offset, dst, len);
	while (len) {
		n = kernel_read(file, dst, len, &pos);
		if (n < 0)
			return n;
		if (!n)
			break;
		dst += n;
		len -= n;
	}
	return 0;
}

/**
 * uprobe_file_is_64bit() - is the probed file a 64-bit program?
 * @inode: the probed inode
 * @file: an open file to read it through, as for uprobe_read_insn()
 *
 * The instruction set of a probe is taken from the ELF class of its
 * file; anything that is not a 32-bit ELF is analysed as native code.
 * A hit from a thread running code of the other kind is not handled
 * with that analysis (see uprobe_hit_run(): the breakpoint is removed
 * from that process).
 *
 * Return: false for an ELFCLASS32 file, true otherwise.
 */
bool uprobe_file_is_64bit(struct inode *inode, struct file *file)
{
	u8 ident[EI_CLASS + 1];

	if (!IS_ENABLED(CONFIG_64BIT))
		return false;
	if (uprobe_read_insn(inode, file, 0, ident, sizeof(ident)))
		return true;
	return memcmp(ident, ELFMAG, SELFMAG) || ident[EI_CLASS] != ELFCLASS32;
}

/**
 * uprobe_peek() - read process memory without breaking copy-on-write
 * @mm: the address space, mmap lock held
 * @vaddr: where to read
 * @buf: destination
 * @len: how many bytes, not crossing a page
 * @anon: set when the page is the process's own copy
 *
 * Return: 0, or an error from faulting the page in.
 */
int uprobe_peek(struct mm_struct *mm, unsigned long vaddr, void *buf,
		size_t len, bool *anon)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);
	struct folio_walk fw;
	struct folio *folio;
	struct page *page;

	/* A page mapped already is read under the page-table lock. */
	folio = vma ? folio_walk_start(&fw, vma, vaddr, 0) : NULL;
	if (folio) {
		memcpy_from_page(buf, fw.page, offset_in_page(vaddr), len);
		*anon = folio_test_anon(folio);
		folio_walk_end(&fw, vma);
		return 0;
	}
	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE, &vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	memcpy_from_page(buf, page, offset_in_page(vaddr), len);
	*anon = PageAnon(page);
	put_page(page);
	return 0;
}

/*
 * Reads the opcode at @vaddr into @op, uprobe_opcode_len() bytes of it
 * (see uprobe_opcode_init()), with uprobe_peek().
 */
static int uprobe_peek_opcode(struct mm_struct *mm, unsigned long vaddr,
			      uprobe_opcode_t *op, bool *anon)
{
	uprobe_opcode_init(op);
	return uprobe_peek(mm, vaddr, op, uprobe_opcode_len(vaddr), anon);
}

/*
 * Is the jump to the stub of the probed instruction at @vaddr there (see
 * stub.c)? Returns its length, with its bytes in @jump and the original
 * instruction in @orig, or 0.
 */
static int uprobe_jump_at(struct mm_struct *mm, unsigned long vaddr, u8 *jump,
			  u8 *orig)
{
	u8 cur[UPROBE_INSN_BYTES];
	bool anon;
	int len;

	len = uprobe_stub_jump(mm, vaddr, jump, orig);
	if (len <= 0 || uprobe_peek(mm, vaddr, cur, len, &anon) || !anon ||
	    memcmp(cur, jump, len))
		return 0;
	return len;
}

/**
 * uprobe_jump_tail_at() - a debugger's breakpoint over the start of a jump?
 * @mm: the address space, mmap lock held
 * @vaddr: the probed address, where a breakpoint instruction is
 * @jump: the jump to the stub that the probed instruction became
 * @len: its length
 *
 * The engine's own breakpoint-first rewrite of a site happens under the
 * mmap lock held for writing: with the lock held, a breakpoint followed
 * by the rest of our jump is a debugger's breakpoint over it.
 *
 * Return: true when the rest of @jump follows the breakpoint at @vaddr.
 */
bool uprobe_jump_tail_at(struct mm_struct *mm, unsigned long vaddr,
			 const u8 *jump, int len)
{
	const int s = UPROBE_SWBP_INSN_SIZE;
	u8 tail[UPROBE_INSN_BYTES];
	bool anon;

	return len > s && !uprobe_peek(mm, vaddr + s, tail, len - s, &anon) &&
	       !memcmp(tail, jump + s, len - s);
}

/*
 * Is there a breakpoint at @vaddr, whose opcode is @opcode: a trap (an
 * int3) or a jump to a stub?
 */
static bool uprobe_bp_at(struct mm_struct *mm, unsigned long vaddr,
			 uprobe_opcode_t opcode)
{
	u8 jump[UPROBE_INSN_BYTES], orig[UPROBE_INSN_BYTES];

	return uprobe_trap_len(&opcode, uprobe_opcode_len(vaddr)) ||
	       uprobe_jump_at(mm, vaddr, jump, orig);
}

/* ---- breakpoint bytes ---- */

/**
 * uprobe_is_trap_at() - is there a trap instruction at an address?
 * @mm: the address space, mmap lock held
 * @vaddr: the address
 *
 * Return: true when the instruction at @vaddr traps like a breakpoint.
 */
bool uprobe_is_trap_at(struct mm_struct *mm, unsigned long vaddr)
{
	uprobe_opcode_t opcode;
	bool anon;

	return !uprobe_peek_opcode(mm, vaddr, &opcode, &anon) &&
	       uprobe_trap_len(&opcode, uprobe_opcode_len(vaddr));
}

/**
 * uprobe_breakpoint_at() - is a breakpoint at an address?
 * @mm: the address space, mmap lock held
 * @vaddr: the address
 *
 * Return: 1 when an int3 (ours or not) or our jump to a stub is there,
 * 0 when not, or the error that kept us from reading the address (a fatal
 * signal of the caller, no memory, no mapping).
 */
int uprobe_breakpoint_at(struct mm_struct *mm, unsigned long vaddr)
{
	uprobe_opcode_t opcode;
	bool anon;
	int err;

	err = uprobe_peek_opcode(mm, vaddr, &opcode, &anon);
	if (err)
		return err;
	return uprobe_bp_at(mm, vaddr, opcode);
}

/*
 * May the private copy @folio, mapped in @vma and now identical to the
 * file again, be dropped in favour of the page cache page? Not when
 * userfaultfd would see a missing page, when the mapping is locked in
 * memory (the page cache page would have to be faulted in again), when
 * the copy is large, or when someone beyond its mappings and our
 * reference (and the swap cache) holds it: a pin would keep using the
 * copy after we dropped it. @refs: the references the caller holds.
 */
static bool uprobe_copy_droppable(struct vm_area_struct *vma,
				  struct folio *folio, int refs)
{
	refs += folio_mapcount(folio);

	if (userfaultfd_missing(vma) || (vma->vm_flags & VM_LOCKED) ||
	    folio_test_large(folio))
		return false;
	if (folio_test_swapcache(folio))
		refs++;
	return folio_ref_count(folio) == refs;
}

static bool uprobe_same_as_file(struct page *page, struct folio *cache,
				pgoff_t index)
{
	void *a, *b;
	bool same;

	if (!cache || !folio_test_uptodate(cache))
		return false;
	a = kmap_local_page(page);
	b = kmap_local_page(folio_file_page(cache, index));
	same = !memcmp(a, b, PAGE_SIZE);
	kunmap_local(b);
	kunmap_local(a);
	return same;
}

/*
 * Replaces the @len bytes @expect at @vaddr with @new in @page, which is
 * mapped there as an exclusive anonymous page, all under the page-table
 * lock with the entry cleared and flushed: no thread can fetch or write
 * the page meanwhile, so the new bytes appear at once, never half
 * written. With @cache (the file's page of the same offset), drops the
 * copy when it became identical to it. A NULL @page (no reference held)
 * stands for whatever exclusive anonymous page is mapped at @vaddr: the
 * process's copy made by an earlier write, so that only the first write
 * to a page needs the fault that makes the copy.
 *
 * Return: 0, -EAGAIN when the entry does not map @page (or, for a NULL
 * @page, such a copy that can be dropped as above), -ESRCH when the bytes
 * are not @expect (somebody else changed them).
 */
static int uprobe_replace_locked(struct vm_area_struct *vma,
				 unsigned long vaddr, struct page *page,
				 const u8 *expect, const u8 *new, size_t len,
				 struct folio *cache, pgoff_t index)
{
	struct mm_struct *mm = vma->vm_mm;
	struct mmu_notifier_range range;
	struct folio_walk fw;
	struct folio *folio;
	int err = 0, refs = 0;
	u8 *p;
	pte_t pte;

	mmu_notifier_range_init(&range, MMU_NOTIFY_CLEAR, 0, mm,
				vaddr & PAGE_MASK, (vaddr & PAGE_MASK) + PAGE_SIZE);
	mmu_notifier_invalidate_range_start(&range);
	folio = folio_walk_start(&fw, vma, vaddr, 0);
	if (!folio) {
		err = -EAGAIN;
		goto out;
	}
	if (!page && !userfaultfd_armed(vma) &&
	    (!cache || folio_test_lru(folio)))
		page = fw.page;
	else
		refs = 1;
	if (fw.level != FW_LEVEL_PTE || fw.page != page ||
	    !folio_test_anon(folio) || !PageAnonExclusive(page)) {
		err = -EAGAIN;
		goto end;
	}
	p = kmap_local_page(page) + offset_in_page(vaddr);
	if (memcmp(p, expect, len)) {
		kunmap_local(p);
		err = -ESRCH;
		goto end;
	}
	/* No thread can use the page while the entry is clear. */
	flush_cache_page(vma, vaddr, pte_pfn(fw.pte));
	pte = ptep_clear_flush(vma, vaddr, fw.ptep);
	/* Not const: sparc64's copy_to_user_page() passes it on as is. */
	copy_to_user_page(vma, page, vaddr, p, (void *)new, len);
	kunmap_local(p);

	if (cache && uprobe_copy_droppable(vma, folio, refs) &&
	    uprobe_same_as_file(page, cache, index)) {
		/* The next access maps the page cache page again. */
		dec_mm_counter(mm, MM_ANONPAGES);
		folio_remove_rmap_pte(folio, page, vma);
		folio_put(folio);
	} else {
		/* The new bytes must be visible before the entry is. */
		smp_wmb();
		set_pte_at(mm, vaddr, fw.ptep, pte_mkdirty(pte));
	}
end:
	folio_walk_end(&fw, vma);
out:
	mmu_notifier_invalidate_range_end(&range);
	return err;
}

/**
 * uprobe_replace_site() - replace a probed instruction for another writer
 * @mm: the address space, mmap lock held
 * @vaddr: where; the @len bytes do not cross a page
 * @expect: the bytes there now
 * @new: the bytes that replace them
 * @len: how many
 *
 * For a write into the process's memory (ptrace, /proc/PID/mem) that
 * replaces a probed instruction, whose page the writer made the process's
 * own copy: the writer's bytes and the original's where ours are go in at
 * once, so that no thread runs a mix of them.
 *
 * Return: 0, -EAGAIN when no such copy is mapped at @vaddr, -ESRCH when
 * the bytes are not @expect.
 */
int uprobe_replace_site(struct mm_struct *mm, unsigned long vaddr,
			const void *expect, const void *new, size_t len)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);

	mmap_assert_locked(mm);
	if (!vma || WARN_ON_ONCE(offset_in_page(vaddr) + len > PAGE_SIZE))
		return -EAGAIN;
	return uprobe_replace_locked(vma, vaddr, NULL, expect, new, len, NULL,
				     0);
}

/**
 * uprobe_write_locked() - the one way breakpoint bytes go in or out
 * @mm: the address space, mmap lock held for writing
 * @vma: the mapping containing @vaddr
 * @vaddr: where to write; the @len bytes do not cross a page
 * @expect: the bytes that must be there
 * @new: the bytes that replace them
 * @len: how many
 * @restore: let the private copy of the page go when it becomes
 *	identical to the file again
 *
 * Replaces @expect with @new at @vaddr in @mm's private copy of the page,
 * creating the copy first when needed.
 *
 * Return: 0, -ESRCH when the bytes are not @expect, or an error from
 * faulting the page in (-ENOMEM, -EINTR on a fatal signal, -EFAULT,
 * -EHWPOISON).
 */
int uprobe_write_locked(struct mm_struct *mm, struct vm_area_struct *vma,
			unsigned long vaddr, const void *expect,
			const void *new, size_t len, bool restore)
{
	struct folio *cache = NULL;
	struct page *page;
	pgoff_t index = 0;
	int err, tries = 0;

	mmap_assert_write_locked(mm);
	if (WARN_ON_ONCE(offset_in_page(vaddr) + len > PAGE_SIZE))
		return -EINVAL;
	if (restore) {
		index = uprobe_vma_vaddr_offset(vma, vaddr) >> PAGE_SHIFT;
		cache = filemap_get_folio(vma->vm_file->f_mapping, index);
		if (IS_ERR(cache))
			cache = NULL;
	}
	/* Most writes go to the copy an earlier one made. */
	err = uprobe_replace_locked(vma, vaddr, NULL, expect, new, len, cache,
				    index);
	while (err == -EAGAIN && tries++ < 8) {
		/* A forced write fault makes the page private and exclusive. */
		page = get_user_page_vma_remote(mm, vaddr,
						FOLL_FORCE | FOLL_WRITE, &vma);
		if (IS_ERR(page)) {
			err = PTR_ERR(page);
			break;
		}
		/* A folio batched for the LRU holds a reference of its own. */
		if (cache && !folio_test_lru(page_folio(page))) {
			lru_add_drain();
			if (!folio_test_lru(page_folio(page)))
				lru_add_drain_all();
		}
		err = uprobe_replace_locked(vma, vaddr, page, expect, new, len,
					    cache, index);
		put_page(page);
	}
	if (cache)
		folio_put(cache);
	return err;
}

/*
 * A jump that replaced a probed instruction also covers the bytes after
 * its first one: a breakpoint going in there first puts that probe back
 * on its int3, which leaves the rest of the instruction as it was.
 * Returns 0, or the error that kept the jump in place.
 */
static int uprobe_uncover(struct mm_struct *mm, unsigned long vaddr)
{
	u8 jump[UPROBE_INSN_BYTES], orig[UPROBE_INSN_BYTES];
	struct vm_area_struct *vma;
	unsigned long site;
	int k, len, err;

	if (!xol_area_has_stubs(mm))
		return 0;
	for (k = 1; k < UPROBE_INSN_BYTES && k <= vaddr; k++) {
		site = vaddr - k;
		if ((site ^ vaddr) & PAGE_MASK)
			break;
		len = uprobe_jump_at(mm, site, jump, orig);
		vma = vma_lookup(mm, site);
		if (len <= k || !vma)
			continue;
		uprobe_put_swbp(orig);
		err = uprobe_write_locked(mm, vma, site, jump, orig, len, false);
		if (err && err != -ESRCH)
			return err;
	}
	return 0;
}

/*
 * Did faulting in the page at @vaddr fail because the file has no page
 * there (truncated while mapped)? The process has no page there either,
 * not even its private copy (truncation unmaps those too): no breakpoint.
 */
static bool uprobe_no_page(struct vm_area_struct *vma, unsigned long vaddr,
			   int err)
{
	loff_t size = i_size_read(file_inode(vma->vm_file));

	return err == -EFAULT &&
	       uprobe_vma_vaddr_offset(vma, vaddr) >= round_up(size, PAGE_SIZE);
}

/**
 * uprobe_install() - put the breakpoint of a probe in an address space
 * @uprobe: the probe, analysed (uprobe_ready())
 * @mm: the address space, mmap lock held for writing
 * @vma: the mapping of the probe's file containing @vaddr
 * @vaddr: where the probed instruction is in @mm
 *
 * Does nothing if the breakpoint is there already, if the process
 * changed the instruction itself (its code is not the file's any more),
 * or if the file has no page there any more.
 *
 * Return: 0, or an error from faulting the page in or -ENOMEM.
 */
int uprobe_install(struct uprobe *uprobe, struct mm_struct *mm,
		   struct vm_area_struct *vma, unsigned long vaddr)
{
	uprobe_opcode_t cur, bp = UPROBE_SWBP_INSN;
	bool anon, was_noted;
	int err;

	mmap_assert_write_locked(mm);
	err = uprobe_uncover(mm, vaddr);
	if (err)
		return err;
	/* Hits need the flag and the semaphore before they can happen. */
	set_bit(MMF_HAS_UPROBES, &mm->flags);
	err = uprobe_ctr_hold(uprobe, mm);
	if (err)
		return err;
	/* Recorded before it can be seen: readers hold the mmap lock. */
	was_noted = uprobe_bps_noted(mm, vaddr);
	err = uprobe_bps_note(mm, vaddr);
	if (err)
		goto release;
	/* Most often the original instruction is there: one write. */
	err = uprobe_write_locked(mm, vma, vaddr, uprobe->arch.insn, &bp,
				  UPROBE_SWBP_INSN_SIZE, false);
	if (!err) {
		/* No int3 was there: a debugger's noted there is gone. */
		uprobe_dbg_bps_forget(mm, vaddr, vaddr + 1);
		return 0;
	}
	if (err == -ESRCH && !uprobe_peek_opcode(mm, vaddr, &cur, &anon) &&
	    uprobe_bp_at(mm, vaddr, cur)) {
		/*
		 * Ours came with the pages (fork, mremap); under a debugger's
		 * int3, ours is there too from now on. Any other int3 is the
		 * program's own.
		 */
		if (uprobe_dbg_bp_at(mm, vaddr)) {
			uprobe_dbg_bp_set(mm, vaddr, true);
			return 0;
		}
		if (was_noted)
			return 0;
	}
	/*
	 * The process changed the instruction (not ours to probe), or the
	 * file has no page there: no breakpoint of ours. Else (no memory,
	 * a fatal signal) it is as it was.
	 */
	if (err == -ESRCH || uprobe_no_page(vma, vaddr, err)) {
		err = 0;
		was_noted = false;
	}
	if (!was_noted)
		uprobe_bps_unnote(mm, vaddr);
release:
	uprobe_ctr_release(uprobe, mm, NULL, 0, 0);
	return err;
}

/**
 * uprobe_remove() - take the breakpoint of a probe out of an address space
 * @uprobe: the probe
 * @mm: the address space, mmap lock held for writing
 * @vma: the mapping of the probe's file containing @vaddr
 * @vaddr: where the probed instruction is in @mm
 *
 * Return: 0 (also when there was no breakpoint, or no page at all), or
 * an error from faulting the page in: the breakpoint, or the semaphore's
 * count, is then still there, for a later attempt.
 */
int uprobe_remove(struct uprobe *uprobe, struct mm_struct *mm,
		  struct vm_area_struct *vma, unsigned long vaddr)
{
	u8 jump[UPROBE_INSN_BYTES], orig[UPROBE_INSN_BYTES];
	uprobe_opcode_t cur, bp = UPROBE_SWBP_INSN;
	const size_t s = UPROBE_SWBP_INSN_SIZE;
	bool anon, dbg;
	int err, len;

	mmap_assert_write_locked(mm);
	/* What the engine did not write there is not its to take out. */
	if (!uprobe_bps_noted(mm, vaddr))
		goto uncount;
	err = uprobe_peek_opcode(mm, vaddr, &cur, &anon);
	if (uprobe_no_page(vma, vaddr, err))
		goto uncount;
	if (err)
		return err;
	if (!anon)
		goto uncount;
	dbg = uprobe_dbg_bp_at(mm, vaddr);
	/* Ours, or a debugger's breakpoint (another instruction) over it. */
	if (is_swbp_insn(&cur) ||
	    (dbg && uprobe_trap_len(&cur, uprobe_opcode_len(vaddr)))) {
		len = uprobe_stub_jump(mm, vaddr, jump, orig);
		if (uprobe_jump_tail_at(mm, vaddr, jump, len))
			/*
			 * A debugger's breakpoint over the start of our jump:
			 * the rest of the jump goes, the breakpoint stays.
			 */
			err = uprobe_write_locked(mm, vma, vaddr + s, jump + s,
						  orig + s, len - s, true);
		else if (!dbg)
			err = uprobe_write_locked(mm, vma, vaddr, &bp,
						  uprobe->arch.insn, s, true);
		/* The debugger's int3 stays, nothing of ours under it. */
		if (dbg && (!err || err == -ESRCH))
			uprobe_dbg_bp_set(mm, vaddr, false);
	} else {
		len = uprobe_jump_at(mm, vaddr, jump, orig);
		if (!len)
			goto uncount;
		err = uprobe_write_locked(mm, vma, vaddr, jump, orig, len, true);
	}
	if (err && err != -ESRCH)	/* -ESRCH: somebody else removed it */
		return err;
uncount:
	uprobe_bps_unnote(mm, vaddr);
	/*
	 * Also a count an earlier, interrupted removal left behind; an int3
	 * still at @vaddr is not ours.
	 */
	return uprobe_ctr_release(uprobe, mm, vma, vaddr, vaddr + 1);
}
