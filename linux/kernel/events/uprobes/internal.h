/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uprobes engine internals, shared by the files of kernel/events/uprobes/.
 *
 * A probe is a (file, offset) pair. It is kept in two indexes: a hash
 * table that the breakpoint hit path searches locklessly under SRCU
 * (uprobes_srcu, which also keeps the consumers' handlers), and a
 * tree ordered by (inode, offset) that the slow paths (mmap, registration)
 * walk to find every probe of a file range.
 */
#ifndef _KERNEL_EVENTS_UPROBES_INTERNAL_H
#define _KERNEL_EVENTS_UPROBES_INTERNAL_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/refcount.h>
#include <linux/srcu.h>
#include <linux/mutex.h>
#include <linux/uprobes.h>

/*
 * What the engine keeps of a probed instruction: struct arch_uprobe's
 * insn, read from the file, and its ixol, copied into an XOL slot to be
 * stepped. On x86 and arm64 both are MAX_UINSN_BYTES; the stock layouts
 * of the other architectures' structures differ (arm's ixol is its
 * instruction and a breakpoint after it, s390 has no MAX_UINSN_BYTES).
 */
#define UPROBE_INSN_BYTES	sizeof_field(struct arch_uprobe, insn)
#define UPROBE_IXOL_BYTES	sizeof_field(struct arch_uprobe, ixol)

/**
 * struct uprobe - one probed (file, offset)
 * @hnode: link in the hit-path hash table (SRCU)
 * @rb: link in the ordered tree
 * @ref: one reference per registered consumer, pending return instance
 *	and counted semaphore, and the sweep worker's while @stranded
 * @mem: references to the memory: one for all of @ref, one per thread
 *	remembering the probe for its next hit (which keeps neither the
 *	file nor the probe's place in the registry)
 * @inode: the probed file (a reference is held)
 * @offset: offset of the probed instruction in the file
 * @ref_ctr_offset: file offset of the USDT semaphore, or 0
 * @reg_mutex: serialises (un)registrations of this probe
 * @consumers: the registered &struct uprobe_consumer (SRCU list)
 * @prep_mutex: serialises the analysis of the instruction
 * @prep: 0 before the analysis, 1 once it succeeded, or its error
 * @refusal: why the analysis refused the instruction (a static string),
 *	set before @prep is
 * @is_64bit: the instruction was analysed as 64-bit code
 * @no_boost: the instruction cannot run from a boosted XOL slot
 * @no_stub: the breakpoint is never replaced with a jump to a stub
 * @live: a breakpoint of the probe may be in some address space: set
 *	when a consumer is added, before any is inserted; cleared under
 *	@reg_mutex once a walk with no consumer left removed them all. Only
 *	a live probe is found on the hit path: a probe kept for a pending
 *	return or a thread's memory of its last hits owns no breakpoint
 * @stranded: some breakpoint could not be removed; the sweep worker
 *	retries, and holds a reference meanwhile, so that a hit of that
 *	breakpoint always finds the probe and executes the original
 *	instruction
 * @stranded_node: link in the sweep worker's list while @stranded
 * @rcu: delays freeing past lockless hash readers
 * @arch: the probed instruction and how to execute it out of line
 */
struct uprobe {
	struct hlist_node	hnode;
	struct rb_node		rb;
	refcount_t		ref;
	refcount_t		mem;
	struct inode		*inode;
	loff_t			offset;
	loff_t			ref_ctr_offset;
	struct mutex		reg_mutex;	/* see @reg_mutex above */
	struct list_head	consumers;
	struct mutex		prep_mutex;	/* see @prep_mutex above */
	int			prep;
	const char		*refusal;
	bool			is_64bit;
	bool			no_boost;
	bool			no_stub;
	bool			live;
	bool			stranded;
	struct list_head	stranded_node;
	struct rcu_head		rcu;
	struct arch_uprobe	arch;
};

/**
 * uprobe_ready() - has the probed instruction been analysed successfully?
 * @uprobe: the probe
 *
 * Only a ready probe has breakpoints; one found on the hit path that is
 * not ready is not ours to handle.
 *
 * Return: true when @uprobe->arch may be used.
 */
static inline bool uprobe_ready(struct uprobe *uprobe)
{
	/* Pairs with the release in uprobe_prepare(). */
	return smp_load_acquire(&uprobe->prep) > 0;
}

/* core.c: registry */
extern struct srcu_struct uprobes_srcu;

/* A read section over probes and consumers: the hit path's, inlined. */
static __always_inline int uprobes_srcu_lock(void)
{
	return srcu_read_lock(&uprobes_srcu);
}

static __always_inline void uprobes_srcu_unlock(int idx)
{
	srcu_read_unlock(&uprobes_srcu, idx);
}

static inline bool uprobes_srcu_held(void)
{
	return srcu_read_lock_held(&uprobes_srcu);
}

struct uprobe *uprobe_lookup(struct inode *inode, loff_t offset);
struct uprobe *uprobe_tryget(struct uprobe *uprobe);
struct uprobe *uprobe_get(struct uprobe *uprobe);
void uprobe_put(struct uprobe *uprobe);
struct uprobe *uprobe_remember(struct uprobe *uprobe);
void uprobe_forget(struct uprobe *uprobe);
bool uprobe_wanted_by(struct uprobe *uprobe, struct mm_struct *mm);
int uprobe_prepare(struct uprobe *uprobe, struct file *file);
int uprobe_collect_range(struct inode *inode, loff_t start, loff_t end,
			 struct uprobe **out, int max);
bool uprobes_registry_empty(void);
void uprobe_walk(void (*fn)(struct uprobe *uprobe, void *arg), void *arg);

/* bkpt.c: breakpoints in process memory */
int uprobe_read_insn(struct inode *inode, struct file *file, loff_t offset,
		     void *buf, size_t len);
bool uprobe_file_is_64bit(struct inode *inode, struct file *file);
int uprobe_peek(struct mm_struct *mm, unsigned long vaddr, void *buf,
		size_t len, bool *anon);
bool uprobe_jump_tail_at(struct mm_struct *mm, unsigned long vaddr,
			 const u8 *jump, int len);
int uprobe_replace_site(struct mm_struct *mm, unsigned long vaddr,
			const void *expect, const void *new, size_t len);
int uprobe_write_locked(struct mm_struct *mm, struct vm_area_struct *vma,
			unsigned long vaddr, const void *expect,
			const void *new, size_t len, bool restore);
int uprobe_install(struct uprobe *uprobe, struct mm_struct *mm,
		   struct vm_area_struct *vma, unsigned long vaddr);
int uprobe_remove(struct uprobe *uprobe, struct mm_struct *mm,
		  struct vm_area_struct *vma, unsigned long vaddr);
bool uprobe_is_trap_at(struct mm_struct *mm, unsigned long vaddr);
int uprobe_breakpoint_at(struct mm_struct *mm, unsigned long vaddr);

/* ctr.c: USDT semaphores */
int uprobe_ctr_hold(struct uprobe *uprobe, struct mm_struct *mm);
int uprobe_ctr_release(struct uprobe *uprobe, struct mm_struct *mm,
		       struct vm_area_struct *skip, unsigned long start,
		       unsigned long end);
void uprobe_mmap_ctrs(struct vm_area_struct *vma);
void uprobe_munmap_ctrs(struct vm_area_struct *vma, unsigned long start,
			unsigned long end);
void uprobe_dup_ctrs(struct mm_struct *oldmm, struct mm_struct *newmm);
void uprobe_forget_ctrs(struct mm_struct *mm);

/* mmap.c: address space hooks */
void uprobe_resync_later(struct vm_area_struct *vma, unsigned long start,
			 unsigned long end, unsigned long at);
void uprobe_dup_mmap_lock(void);
void uprobe_dup_mmap_unlock(void);

/**
 * uprobe_vma_probeable() - may this mapping hold one of our breakpoints?
 * @vma: the mapping
 *
 * Only private file mappings that may execute: shared ones would need
 * writing to the file, which the engine never does. A breakpoint found
 * in one of them is handled and removed even if the process has made
 * the mapping writable since.
 *
 * Return: true when @vma is a candidate.
 */
static inline bool uprobe_vma_probeable(struct vm_area_struct *vma)
{
	return vma->vm_file &&
	       (vma->vm_flags & (VM_HUGETLB | VM_MAYEXEC | VM_MAYSHARE)) ==
		VM_MAYEXEC;
}

/**
 * uprobe_vma_insertable() - may a new breakpoint go into this mapping?
 * @vma: the mapping
 *
 * As uprobe_vma_probeable(), and not writable: a writable private
 * mapping of the file is its data, never its code.
 *
 * Return: true when a breakpoint may be inserted in @vma.
 */
static inline bool uprobe_vma_insertable(struct vm_area_struct *vma)
{
	return uprobe_vma_probeable(vma) && !(vma->vm_flags & VM_WRITE);
}

/**
 * uprobe_vma_offset_vaddr() - user address of a file offset in a mapping
 * @vma: the mapping
 * @offset: file offset
 *
 * Return: the address; it lies in @vma only if @offset is mapped by it.
 */
static inline unsigned long uprobe_vma_offset_vaddr(struct vm_area_struct *vma,
						    loff_t offset)
{
	return vma->vm_start + offset - ((loff_t)vma->vm_pgoff << PAGE_SHIFT);
}

/**
 * uprobe_vma_vaddr_offset() - file offset of a user address in a mapping
 * @vma: the mapping
 * @vaddr: address inside @vma
 *
 * Return: the offset in @vma's file.
 */
static inline loff_t uprobe_vma_vaddr_offset(struct vm_area_struct *vma,
					     unsigned long vaddr)
{
	return ((loff_t)vma->vm_pgoff << PAGE_SHIFT) + (vaddr - vma->vm_start);
}

/**
 * uprobe_vma_maps() - does a mapping hold a probe's instruction?
 * @uprobe: the probe
 * @vma: the mapping, containing @vaddr
 * @vaddr: where the probed instruction should be
 *
 * Return: true if @vma maps the probe's (file, offset) at @vaddr and may
 * hold the breakpoint.
 */
static inline bool uprobe_vma_maps(struct uprobe *uprobe,
				   struct vm_area_struct *vma,
				   unsigned long vaddr)
{
	return uprobe_vma_probeable(vma) &&
	       file_inode(vma->vm_file) == uprobe->inode &&
	       uprobe_vma_vaddr_offset(vma, vaddr) == uprobe->offset;
}

/**
 * uprobe_vma_at() - the mapping of a probe's instruction at an address
 * @uprobe: the probe
 * @mm: the address space, mmap lock held
 * @vaddr: where the probed instruction should be
 *
 * Return: the mapping, if @vaddr still maps the probe's (file, offset)
 * in a mapping that may hold the breakpoint, else NULL.
 */
static inline struct vm_area_struct *uprobe_vma_at(struct uprobe *uprobe,
						   struct mm_struct *mm,
						   unsigned long vaddr)
{
	struct vm_area_struct *vma = vma_lookup(mm, vaddr);

	return vma && uprobe_vma_maps(uprobe, vma, vaddr) ? vma : NULL;
}

/**
 * uprobe_put_swbp() - put the breakpoint instruction at the start of a buffer
 * @buf: at least UPROBE_SWBP_INSN_SIZE bytes
 */
static inline void uprobe_put_swbp(u8 *buf)
{
	uprobe_opcode_t bp = UPROBE_SWBP_INSN;

	memcpy(buf, &bp, UPROBE_SWBP_INSN_SIZE);
}

/**
 * uprobe_opcode_init() - prepare an opcode for a breakpoint's bytes
 * @op: the opcode, about to receive UPROBE_SWBP_INSN_SIZE bytes or more
 *
 * The breakpoint may be shorter than uprobe_opcode_t (riscv and csky: a
 * 2-byte breakpoint, a 32-bit type): the bytes past those read are
 * zeroed, so that is_swbp_insn() and is_trap_insn() see no stale ones.
 */
static inline void uprobe_opcode_init(uprobe_opcode_t *op)
{
	if (sizeof(*op) > UPROBE_SWBP_INSN_SIZE)
		*op = 0;
}

/**
 * uprobe_opcode_len() - how many bytes of an opcode to read at an address
 * @vaddr: where the instruction is
 *
 * A trap instruction may be longer than our breakpoint (riscv's 4-byte
 * ebreak, where ours is the 2-byte c.ebreak): is_trap_insn() is given the
 * whole of uprobe_opcode_t, but what the page holds only, since a 2-byte
 * instruction may end it.
 *
 * Return: sizeof(uprobe_opcode_t), or what is left of @vaddr's page.
 */
static inline unsigned int uprobe_opcode_len(unsigned long vaddr)
{
	if (sizeof(uprobe_opcode_t) == UPROBE_SWBP_INSN_SIZE)
		return UPROBE_SWBP_INSN_SIZE;
	return min_t(unsigned long, sizeof(uprobe_opcode_t),
		     PAGE_SIZE - offset_in_page(vaddr));
}

/* hide.c */
extern bool uprobe_hide_breakpoints;

/* debugger.c: a debugger's breakpoints over ours */
int uprobe_trap_len(const void *insn, unsigned int len);
void uprobe_legacy_sigtrap(struct pt_regs *regs);
#ifdef CONFIG_UPROBES_LEGACY_ARCH
int uprobe_legacy_dbg_bp_len(const void *insn, unsigned int len);
bool uprobe_legacy_step_abandonable(void);
#else
static inline int uprobe_legacy_dbg_bp_len(const void *insn, unsigned int len)
{
	return 0;
}

static inline bool uprobe_legacy_step_abandonable(void)
{
	return true;
}
#endif
bool __uprobe_dbg_bp_at(struct mm_struct *mm, unsigned long vaddr);
bool uprobe_dbg_bp_over(struct mm_struct *mm, unsigned long vaddr);
void uprobe_dbg_bp_set(struct mm_struct *mm, unsigned long vaddr, bool over);
void uprobe_dbg_bps_written(struct mm_struct *mm, unsigned long addr,
			    const u8 *buf, const u8 *cur, size_t len);
void uprobe_dbg_bps_forget(struct mm_struct *mm, unsigned long start,
			   unsigned long end);
void uprobe_dbg_bps_dup(struct mm_struct *oldmm, struct mm_struct *newmm);
void uprobe_dbg_notes_free(struct mm_struct *mm);

/**
 * uprobe_dbg_bp_at() - is a debugger's breakpoint noted here?
 * @mm: the address space
 * @vaddr: the probed address
 *
 * The hit path's test: one load while no debugger has written a
 * breakpoint into this address space.
 *
 * Return: true when a debugger's int3 is noted at @vaddr (over one of
 * our breakpoints or not).
 */
static __always_inline bool uprobe_dbg_bp_at(struct mm_struct *mm,
					     unsigned long vaddr)
{
	return unlikely(READ_ONCE(mm->uprobes_state.dbg_notes)) &&
	       __uprobe_dbg_bp_at(mm, vaddr);
}

/* written.c: where an address space has breakpoints of ours */
int uprobe_bps_note(struct mm_struct *mm, unsigned long vaddr);
void uprobe_bps_unnote(struct mm_struct *mm, unsigned long vaddr);
void uprobe_bps_dropped(struct mm_struct *mm);
unsigned long uprobe_bps_removed(struct mm_struct *mm);
bool uprobe_bps_noted(struct mm_struct *mm, unsigned long vaddr);
void uprobe_bps_remapped(struct mm_struct *mm);
void uprobe_bps_recheck(struct mm_struct *mm, unsigned long vaddr);
void uprobe_bps_move(struct mm_struct *mm, unsigned long old_addr,
		     unsigned long new_addr, unsigned long len);
int uprobe_bps_dup(struct mm_struct *oldmm, struct mm_struct *newmm);
void uprobe_bps_free(struct mm_struct *mm);

/* xol.c: the execute-out-of-line area */
unsigned long xol_get_slot(struct uprobe_task *utask, const u8 *insn);
void xol_put_slot(struct uprobe_task *utask);
int xol_area_dup(unsigned long vaddr);
unsigned long xol_area_vaddr(struct mm_struct *mm);
unsigned long xol_area_ensure(void);
void xol_area_free(struct mm_struct *mm);
int xol_area_fork(struct mm_struct *oldmm, struct mm_struct *child);

/* boost.c: XOL slots given for good, boosted instructions and stubs */
long xol_boost_slot(struct arch_uprobe *auprobe, unsigned long vaddr,
		    struct pt_regs *regs);
unsigned long xol_boost_lookup(unsigned long ip, unsigned long *vaddr);
unsigned long xol_stub_slot(struct arch_uprobe *auprobe, unsigned long vaddr);
unsigned long xol_stub_find(struct mm_struct *mm, unsigned long vaddr,
			    u8 *insn);
unsigned int xol_stub_len(unsigned long vaddr, const u8 *mem, unsigned int n);
bool xol_area_has_stubs(struct mm_struct *mm);
bool xol_stub_nth(struct mm_struct *mm, unsigned int i, unsigned long *vaddr,
		  unsigned long *slot, u8 *insn);

/* stub.c: probed instructions replaced with a jump to a stub */
void uprobe_stub_upgrade(struct uprobe *uprobe, unsigned long vaddr,
			 struct pt_regs *regs);
int uprobe_stub_jump(struct mm_struct *mm, unsigned long vaddr, u8 *jump,
		     u8 *orig);
bool uprobe_stub_leave(struct pt_regs *regs);
void uprobe_stub_skip(struct pt_regs *regs, struct uprobe *uprobe);
bool uprobe_drop_fault(int sig);

/* trap.c */
struct uprobe_task *uprobe_utask_alloc(void);

/* current's uprobes state, allocated on first use; NULL without memory */
static __always_inline struct uprobe_task *uprobe_utask(void)
{
	struct uprobe_task *utask = current->utask;

	return likely(utask) ? utask : uprobe_utask_alloc();
}

/* Is the thread of @utask single-stepping a probed instruction? */
static inline bool uprobe_stepping(struct uprobe_task *utask)
{
	return utask->state != UTASK_RUNNING;
}

void uprobe_remove_from_current(struct uprobe *uprobe, unsigned long vaddr,
				bool force);

/* ret.c: return probes */
struct return_instance *uprobe_return_add(struct return_instance *ri,
					  u64 id, u64 cookie);
void uprobe_return_discard(struct return_instance *ri);
void uprobe_prepare_return(struct uprobe *uprobe, struct return_instance *ri,
			   struct pt_regs *regs);
void uprobe_abandon_returns(void);
void uprobe_free_return_instances(struct uprobe_task *utask);
void uprobe_dup_return_instances(struct uprobe_task *child,
				 struct uprobe_task *parent);

#endif /* _KERNEL_EVENTS_UPROBES_INTERNAL_H */
