// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: breakpoints in process memory.
 *
 * The file and its page cache are never written. A breakpoint is written
 * with a forced write through GUP into the private mapping, which makes
 * the kernel's copy-on-write give this address space its own anonymous
 * copy of the page. Removing the breakpoint writes the original bytes
 * back, and when the copy is then identical to the file's page, drops the
 * copy so the process maps the page cache page again.
 *
 * USDT semaphores (ref_ctr_offset) are counted here too, as the
 * breakpoint bytes change: a semaphore whose page is not mapped yet is
 * remembered and updated by the mmap hook.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/elf.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include "internal.h"

/**
 * uprobe_read_insn() - read bytes of a file through its page cache
 * @inode: the file
 * @offset: where to start
 * @buf: destination; zero filled past the end of the file
 * @len: how many bytes
 *
 * Return: 0, -EINVAL when @offset is past the end, or the read error.
 */
int uprobe_read_insn(struct inode *inode, loff_t offset, void *buf,
		     size_t len)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t size = i_size_read(inode);
	u8 *dst = buf;

	if (offset < 0 || offset >= size)
		return -EINVAL;
	memset(buf, 0, len);
	len = min_t(loff_t, len, size - offset);
	while (len) {
		size_t off = offset_in_page(offset);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;

		if (shmem_mapping(mapping))
			page = shmem_read_mapping_page(mapping,
						       offset >> PAGE_SHIFT);
		else
			page = read_mapping_page(mapping, offset >> PAGE_SHIFT,
						 NULL);
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
 * uprobe_file_is_64bit() - is the probed file a 64-bit program?
 * @inode: the file
 *
 * The instruction set of a probe is decided once, from the ELF class of
 * the file it is in; anything that is not a 32-bit ELF is analysed as
 * native code.
 *
 * Return: false for an ELFCLASS32 file, true otherwise.
 */
bool uprobe_file_is_64bit(struct inode *inode)
{
	u8 ident[EI_CLASS + 1];

	if (!IS_ENABLED(CONFIG_64BIT))
		return false;
	if (uprobe_read_insn(inode, 0, ident, sizeof(ident)))
		return true;
	return memcmp(ident, ELFMAG, SELFMAG) || ident[EI_CLASS] != ELFCLASS32;
}

/* ---- USDT semaphores ---- */

struct uprobe_pending_ctr {
	struct list_head	node;
	struct uprobe		*uprobe;
	struct mm_struct	*mm;
};

/* Semaphores waiting for their page to be mapped. */
static LIST_HEAD(pending_ctrs);
static DEFINE_MUTEX(pending_ctrs_lock);

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

static struct vm_area_struct *uprobe_find_ctr_vma(struct uprobe *uprobe,
						  struct mm_struct *mm)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	for_each_vma(vmi, vma)
		if (uprobe_ctr_vma(uprobe, vma))
			return vma;
	return NULL;
}

static struct uprobe_pending_ctr *uprobe_pending_find(struct uprobe *uprobe,
						      struct mm_struct *mm)
{
	struct uprobe_pending_ctr *p;

	lockdep_assert_held(&pending_ctrs_lock);
	list_for_each_entry(p, &pending_ctrs, node)
		if (p->uprobe == uprobe && p->mm == mm)
			return p;
	return NULL;
}

static void uprobe_pending_free(struct uprobe_pending_ctr *p)
{
	list_del(&p->node);
	uprobe_put(p->uprobe);
	kfree(p);
}

/* Counts the breakpoint going in (+1) or out (-1) in the semaphore. */
static int uprobe_ctr_update(struct uprobe *uprobe, struct mm_struct *mm,
			     int d)
{
	struct uprobe_pending_ctr *p;
	struct vm_area_struct *vma;
	int err = 0;

	if (!uprobe->ref_ctr_offset)
		return 0;
	vma = uprobe_find_ctr_vma(uprobe, mm);
	if (vma)
		return uprobe_ctr_add(mm, uprobe_vma_offset_vaddr(vma,
					uprobe->ref_ctr_offset), d);

	mutex_lock(&pending_ctrs_lock);
	p = uprobe_pending_find(uprobe, mm);
	if (d < 0) {
		if (p)
			uprobe_pending_free(p);
	} else if (!p) {
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (p) {
			p->uprobe = uprobe_get(uprobe);
			p->mm = mm;
			list_add(&p->node, &pending_ctrs);
		} else {
			err = -ENOMEM;
		}
	}
	mutex_unlock(&pending_ctrs_lock);
	return err;
}

/**
 * uprobe_mmap_pending_ctrs() - update semaphores whose page just got mapped
 * @vma: a new writable mapping
 *
 * Called with the mmap lock held for writing.
 */
void uprobe_mmap_pending_ctrs(struct vm_area_struct *vma)
{
	struct uprobe_pending_ctr *p, *tmp;

	if (list_empty_careful(&pending_ctrs))
		return;
	mutex_lock(&pending_ctrs_lock);
	list_for_each_entry_safe(p, tmp, &pending_ctrs, node) {
		if (p->mm != vma->vm_mm || !uprobe_ctr_vma(p->uprobe, vma))
			continue;
		uprobe_ctr_add(vma->vm_mm,
			       uprobe_vma_offset_vaddr(vma,
						       p->uprobe->ref_ctr_offset),
			       1);
		uprobe_pending_free(p);
	}
	mutex_unlock(&pending_ctrs_lock);
}

/**
 * uprobe_forget_pending_ctrs() - drop the semaphores of a dying mm
 * @mm: the address space being torn down
 */
void uprobe_forget_pending_ctrs(struct mm_struct *mm)
{
	struct uprobe_pending_ctr *p, *tmp;

	if (list_empty_careful(&pending_ctrs))
		return;
	mutex_lock(&pending_ctrs_lock);
	list_for_each_entry_safe(p, tmp, &pending_ctrs, node)
		if (p->mm == mm)
			uprobe_pending_free(p);
	mutex_unlock(&pending_ctrs_lock);
}

/* ---- breakpoint bytes ---- */

/* Reads the first byte at @vaddr without breaking copy-on-write. */
static int uprobe_peek(struct mm_struct *mm, unsigned long vaddr,
		       uprobe_opcode_t *opcode, bool *anon)
{
	struct vm_area_struct *vma;
	struct page *page;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE, &vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	memcpy_from_page((char *)opcode, page, offset_in_page(vaddr),
			 sizeof(*opcode));
	*anon = PageAnon(page);
	put_page(page);
	return 0;
}

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

	return !uprobe_peek(mm, vaddr, &opcode, &anon) && is_trap_insn(&opcode);
}

/*
 * Writes @opcode at @vaddr in @mm's private copy of the page, creating
 * the copy if needed. Single-byte (or naturally aligned) stores keep
 * threads running the page concurrently consistent.
 */
static int uprobe_poke(struct mm_struct *mm, unsigned long vaddr,
		       const uprobe_opcode_t *opcode)
{
	struct vm_area_struct *vma;
	struct page *page;
	void *kaddr;

	page = get_user_page_vma_remote(mm, vaddr, FOLL_FORCE | FOLL_WRITE,
					&vma);
	if (IS_ERR(page))
		return PTR_ERR(page);
	kaddr = kmap_local_page(page);
	copy_to_user_page(vma, page, vaddr, kaddr + offset_in_page(vaddr),
			  opcode, sizeof(*opcode));
	kunmap_local(kaddr);
	set_page_dirty_lock(page);
	put_page(page);
	return 0;
}

/*
 * After the original bytes are back, give the address space the file's
 * own page again if the private copy no longer differs from it.
 */
static void uprobe_drop_identical_copy(struct uprobe *uprobe,
				       struct vm_area_struct *vma,
				       unsigned long vaddr)
{
	struct address_space *mapping = uprobe->inode->i_mapping;
	struct page *page, *cache;
	struct folio *folio;
	bool same;
	void *a, *b;

	vaddr &= PAGE_MASK;
	page = get_user_page_vma_remote(vma->vm_mm, vaddr, FOLL_FORCE, &vma);
	if (IS_ERR(page))
		return;
	folio = filemap_get_folio(mapping, uprobe_vma_vaddr_offset(vma, vaddr)
				  >> PAGE_SHIFT);
	if (IS_ERR(folio)) {
		put_page(page);
		return;
	}
	cache = folio_file_page(folio, uprobe_vma_vaddr_offset(vma, vaddr) >>
				PAGE_SHIFT);
	same = false;
	if (PageAnon(page) && folio_test_uptodate(folio)) {
		a = kmap_local_page(page);
		b = kmap_local_page(cache);
		same = !memcmp(a, b, PAGE_SIZE);
		kunmap_local(b);
		kunmap_local(a);
	}
	folio_put(folio);
	put_page(page);
	if (same)
		zap_page_range_single(vma, vaddr, PAGE_SIZE, NULL);
}

/**
 * uprobe_install() - put the breakpoint of a probe in an address space
 * @uprobe: the probe
 * @mm: the address space, mmap lock held
 * @vma: the mapping of the probe's file containing @vaddr
 * @vaddr: where the probed instruction is in @mm
 *
 * Does nothing if the breakpoint is there already, or if the process
 * changed the instruction itself (its code is not the file's any more).
 *
 * Return: 0, or an error from faulting the page in or -ENOMEM.
 */
int uprobe_install(struct uprobe *uprobe, struct mm_struct *mm,
		   struct vm_area_struct *vma, unsigned long vaddr)
{
	uprobe_opcode_t cur, bp = UPROBE_SWBP_INSN;
	bool anon;
	int err;

	err = uprobe_peek(mm, vaddr, &cur, &anon);
	if (err)
		return err;
	if (is_swbp_insn(&cur)) {
		set_bit(MMF_HAS_UPROBES, &mm->flags);
		return 0;
	}
	if (memcmp(&cur, uprobe->arch.insn, sizeof(cur)))
		return 0;

	/* Hits need the flag before they can happen. */
	set_bit(MMF_HAS_UPROBES, &mm->flags);
	err = uprobe_ctr_update(uprobe, mm, 1);
	if (err)
		return err;
	err = uprobe_poke(mm, vaddr, &bp);
	if (err)
		uprobe_ctr_update(uprobe, mm, -1);
	return err;
}

/**
 * uprobe_remove() - take the breakpoint of a probe out of an address space
 * @uprobe: the probe
 * @mm: the address space, mmap lock held
 * @vma: the mapping of the probe's file containing @vaddr
 * @vaddr: where the probed instruction is in @mm
 *
 * Return: 0, or an error from faulting the page in.
 */
int uprobe_remove(struct uprobe *uprobe, struct mm_struct *mm,
		  struct vm_area_struct *vma, unsigned long vaddr)
{
	uprobe_opcode_t cur;
	bool anon;
	int err;

	err = uprobe_peek(mm, vaddr, &cur, &anon);
	if (err)
		return err;
	if (!anon || !is_swbp_insn(&cur))
		return 0;
	err = uprobe_poke(mm, vaddr, (uprobe_opcode_t *)uprobe->arch.insn);
	if (err)
		return err;
	uprobe_ctr_update(uprobe, mm, -1);
	uprobe_drop_identical_copy(uprobe, vma, vaddr);
	return 0;
}
