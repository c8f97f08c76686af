// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: the probe registry and (un)registration of consumers.
 *
 * A probe is identified by (inode, offset). Registering the first consumer
 * reads and analyses the probed instruction once, then inserts a breakpoint
 * in every address space that maps the file and that one of the probe's
 * consumers wants (prefiltering). Later consumers only re-evaluate the
 * filters; the last one leaving removes the breakpoints.
 *
 * Locking, outermost first:
 *   uprobe->reg_mutex        changes of this probe's consumers, and the
 *                            walk of one registration; a batch walks after
 *                            dropping it (see uprobe_walk_mm())
 *   dup_mmap_sem (mmap.c)    keeps fork from copying a half-updated mm list
 *   i_mmap_rwsem             only while collecting the mappings of the
 *                            file, never held with an mmap_lock
 *   mmap_lock                per address space, while changing its text
 *   uprobes_lock             the two indexes; never held while sleeping
 * Consumers lists are read under uprobes_srcu, so breakpoint handlers and
 * the mmap hook never wait for a registration in progress.
 */
#define pr_fmt(fmt) "uprobe: " fmt

#include <linux/elf.h>
#include <linux/hash.h>
#include <linux/pagemap.h>
#include <linux/ratelimit.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/workqueue.h>

#include "internal.h"

DEFINE_SRCU(uprobes_srcu);

#define UPROBES_HASH_BITS	10

static struct hlist_head uprobes_hash[1 << UPROBES_HASH_BITS];
static struct rb_root uprobes_tree = RB_ROOT;
static DEFINE_SPINLOCK(uprobes_lock);
static unsigned long uprobes_nr;

static struct hlist_head *uprobe_bucket(struct inode *inode, loff_t offset)
{
	return &uprobes_hash[hash_64((u64)(unsigned long)inode ^
				     hash_64(offset, 64), UPROBES_HASH_BITS)];
}

/* Orders the tree by inode address, then by offset. */
static int uprobe_key_cmp(struct inode *inode, loff_t offset,
			  const struct uprobe *uprobe)
{
	if (inode != uprobe->inode)
		return inode < uprobe->inode ? -1 : 1;
	if (offset != uprobe->offset)
		return offset < uprobe->offset ? -1 : 1;
	return 0;
}

/**
 * uprobes_registry_empty() - is any probe registered at all?
 *
 * A racy hint for fast paths: a probe added concurrently is also inserted
 * by its registration's own walk of the file's mappings.
 *
 * Return: true when there are no probes.
 */
bool uprobes_registry_empty(void)
{
	return !READ_ONCE(uprobes_nr);
}

/**
 * uprobe_lookup() - find the probe at (@inode, @offset) on the hit path
 * @inode: probed file
 * @offset: offset in @inode
 *
 * Takes no lock and allocates nothing. The caller must be in a uprobes
 * SRCU read section, which keeps the returned probe's memory alive; take a
 * reference with uprobe_tryget() to keep it beyond that.
 *
 * Return: the probe, or NULL (also for one not analysed yet, or no longer
 * live: neither has breakpoints).
 */
struct uprobe *uprobe_lookup(struct inode *inode, loff_t offset)
{
	struct uprobe *uprobe;

	hlist_for_each_entry_srcu(uprobe, uprobe_bucket(inode, offset), hnode,
				  srcu_read_lock_held(&uprobes_srcu)) {
		if (uprobe->inode == inode && uprobe->offset == offset &&
		    refcount_read(&uprobe->ref) && READ_ONCE(uprobe->live) &&
		    uprobe_ready(uprobe))
			return uprobe;
	}
	return NULL;
}

/**
 * uprobe_tryget() - take a reference to a probe that may be dying
 * @uprobe: probe found under SRCU
 *
 * Return: @uprobe, or NULL when its last reference is already gone.
 */
struct uprobe *uprobe_tryget(struct uprobe *uprobe)
{
	return refcount_inc_not_zero(&uprobe->ref) ? uprobe : NULL;
}

/**
 * uprobe_get() - take another reference to a probe
 * @uprobe: a probe the caller holds a reference to
 *
 * Return: @uprobe.
 */
struct uprobe *uprobe_get(struct uprobe *uprobe)
{
	refcount_inc(&uprobe->ref);
	return uprobe;
}

static void uprobe_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct uprobe, rcu));
}

/* The memory goes after the SRCU readers that may still see it. */
static void uprobe_mem_put(struct uprobe *uprobe)
{
	if (refcount_dec_and_test(&uprobe->mem))
		call_srcu(&uprobes_srcu, &uprobe->rcu, uprobe_free_rcu);
}

/**
 * uprobe_put() - drop a reference to a probe
 * @uprobe: the probe
 *
 * The last reference unlinks the probe from both indexes and lets its
 * file go; its memory goes once no thread remembers it either.
 */
void uprobe_put(struct uprobe *uprobe)
{
	if (!refcount_dec_and_lock(&uprobe->ref, &uprobes_lock))
		return;
	hlist_del_rcu(&uprobe->hnode);
	rb_erase(&uprobe->rb, &uprobes_tree);
	WRITE_ONCE(uprobes_nr, uprobes_nr - 1);
	WRITE_ONCE(uprobe->live, false);
	spin_unlock(&uprobes_lock);

	iput(uprobe->inode);
	uprobe_mem_put(uprobe);
}

/**
 * uprobe_remember() - keep a probe's memory for a thread's next hit
 * @uprobe: probe found under SRCU
 *
 * What a thread remembers must not keep the probe's file, or its place
 * in the registry, beyond the probe's last reference: only its memory
 * is kept, and the probe is used again only while it is live.
 *
 * Return: @uprobe, or NULL when its memory is already going.
 */
struct uprobe *uprobe_remember(struct uprobe *uprobe)
{
	return refcount_inc_not_zero(&uprobe->mem) ? uprobe : NULL;
}

/**
 * uprobe_forget() - drop what uprobe_remember() took
 * @uprobe: the probe
 */
void uprobe_forget(struct uprobe *uprobe)
{
	uprobe_mem_put(uprobe);
}

/**
 * uprobe_walk() - call a function for every probe of the registry
 * @fn: called with uprobes_lock held, in (inode, offset) order: must not
 *	sleep
 * @arg: passed to @fn
 */
void uprobe_walk(void (*fn)(struct uprobe *uprobe, void *arg), void *arg)
{
	struct rb_node *n;

	spin_lock(&uprobes_lock);
	for (n = rb_first(&uprobes_tree); n; n = rb_next(n))
		fn(rb_entry(n, struct uprobe, rb), arg);
	spin_unlock(&uprobes_lock);
}

/**
 * uprobe_collect_range() - references to the probes of a file range
 * @inode: the file
 * @start: first offset of the range
 * @end: offset after the range
 * @out: array receiving the probes, each with a reference
 * @max: size of @out
 *
 * Probes come out in offset order; when @max are returned, call again
 * from the last one's offset + 1.
 *
 * Return: the number of probes stored in @out.
 */
int uprobe_collect_range(struct inode *inode, loff_t start, loff_t end,
			 struct uprobe **out, int max)
{
	struct rb_node *n, *first = NULL;
	int nr = 0;

	spin_lock(&uprobes_lock);
	n = uprobes_tree.rb_node;
	while (n) {
		struct uprobe *u = rb_entry(n, struct uprobe, rb);

		if (uprobe_key_cmp(inode, start, u) <= 0) {
			first = n;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	for (n = first; n && nr < max; n = rb_next(n)) {
		struct uprobe *u = rb_entry(n, struct uprobe, rb);

		if (u->inode != inode || u->offset >= end)
			break;
		if (uprobe_tryget(u))
			out[nr++] = u;
	}
	spin_unlock(&uprobes_lock);
	return nr;
}

/**
 * uprobe_wanted_by() - should the breakpoint be in this address space?
 * @uprobe: the probe
 * @mm: the address space
 *
 * Return: true when a consumer without a filter, or whose filter accepts
 * @mm, is registered.
 */
bool uprobe_wanted_by(struct uprobe *uprobe, struct mm_struct *mm)
{
	struct uprobe_consumer *uc;
	bool wanted = false;
	int idx;

	idx = srcu_read_lock(&uprobes_srcu);
	list_for_each_entry_srcu(uc, &uprobe->consumers, cons_node,
				 srcu_read_lock_held(&uprobes_srcu)) {
		wanted = !uc->filter || uc->filter(uc, mm);
		if (wanted)
			break;
	}
	srcu_read_unlock(&uprobes_srcu, idx);
	return wanted;
}

/*
 * Says in the kernel log why @uprobe cannot be probed; @again for a
 * refusal analysed before, rate-limited: every client refused (perf and
 * BPF get only the errno) finds the reason, and a file mapped again and
 * again does not flood the log.
 */
static void uprobe_log_refusal(struct uprobe *uprobe, int err, bool again)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	struct dentry *dentry;

	if (again && !__ratelimit(&rs))
		return;
	/* Name the file as well as the inode allows: a path tail. */
	dentry = d_find_any_alias(uprobe->inode);
	if (dentry)
		pr_warn("%pd4:0x%llx: cannot probe: %s (%pe)\n", dentry,
			uprobe->offset, uprobe->refusal, ERR_PTR(err));
	else
		pr_warn("inode %lu:0x%llx: cannot probe: %s (%pe)\n",
			uprobe->inode->i_ino, uprobe->offset, uprobe->refusal,
			ERR_PTR(err));
	dput(dentry);
}

/* Analyses the instruction read into @uprobe->arch.insn. */
static int uprobe_analyze(struct uprobe *uprobe, bool is_64bit)
{
	const char *reason = NULL;
	int err;

	err = arch_uprobe_analyze(&uprobe->arch, is_64bit, &reason);
	if (!err) {
		uprobe->is_64bit = is_64bit;
		return 0;
	}
	uprobe->refusal = reason ?: "undecodable instruction";
	uprobe_log_refusal(uprobe, err, false);
	return err;
}

/**
 * uprobe_prepare() - analyse the probed instruction, once
 * @uprobe: the probe
 * @file: the probed file (or another open file of the same content, e.g.
 *	of an overlay) to read the instruction through
 *
 * The first caller to succeed analyses the instruction; later ones get
 * the same verdict, and a refusal's reason in the kernel log each. A read
 * error is not one: the next caller tries again.
 * The file is read before prep_mutex is taken, so that no lock of the
 * filesystem nests inside it. May be called with an mmap lock held.
 *
 * Return: 0 when the probe can be used, else the read or analysis error.
 */
int uprobe_prepare(struct uprobe *uprobe, struct file *file)
{
	u8 insn[UPROBE_INSN_BYTES];
	bool is_64bit;
	int err;

	/* The analysis is complete when seen; pairs with the release below. */
	err = smp_load_acquire(&uprobe->prep);
	if (err > 0)
		return 0;
	if (err) {
		uprobe_log_refusal(uprobe, err, true);
		return err;
	}
	err = uprobe_read_insn(uprobe->inode, file, uprobe->offset, insn,
			       sizeof(insn));
	if (err) {
		pr_warn_ratelimited("inode %lu:0x%llx: cannot read the instruction (%pe)\n",
				    uprobe->inode->i_ino, uprobe->offset,
				    ERR_PTR(err));
		return err;
	}
	is_64bit = uprobe_file_is_64bit(uprobe->inode, file);

	mutex_lock(&uprobe->prep_mutex);
	err = uprobe->prep;
	if (!err) {
		memcpy(uprobe->arch.insn, insn, sizeof(uprobe->arch.insn));
		err = uprobe_analyze(uprobe, is_64bit);
		/* Publish the analysis; pairs with uprobe_ready(). */
		smp_store_release(&uprobe->prep, err ? err : 1);
	} else if (err < 0) {
		/* Refused by a concurrent caller. */
		uprobe_log_refusal(uprobe, err, true);
	}
	mutex_unlock(&uprobe->prep_mutex);
	return err > 0 ? 0 : err;
}

/*
 * A file through which the probed instruction can be read: the caller's,
 * else the file of a mapping of the inode, else none (the analysis waits
 * for the first mapping, see uprobe_mmap()).
 */
static struct file *uprobe_find_file(struct inode *inode, struct file *file)
{
	struct address_space *mapping = inode->i_mapping;
	struct vm_area_struct *vma;

	if (file)
		return get_file(file);
	i_mmap_lock_read(mapping);
	vma_interval_tree_foreach(vma, &mapping->i_mmap, 0, ULONG_MAX) {
		if (vma->vm_file && file_inode(vma->vm_file) == inode &&
		    (vma->vm_file->f_mode & FMODE_READ)) {
			file = get_file(vma->vm_file);
			break;
		}
	}
	i_mmap_unlock_read(mapping);
	return file;
}

static struct uprobe *uprobe_alloc(struct inode *inode, loff_t offset,
				   loff_t ref_ctr_offset)
{
	struct uprobe *uprobe;

	uprobe = kzalloc(sizeof(*uprobe), GFP_KERNEL);
	if (!uprobe)
		return ERR_PTR(-ENOMEM);
	uprobe->inode = inode;
	uprobe->offset = offset;
	uprobe->ref_ctr_offset = ref_ctr_offset;
	refcount_set(&uprobe->ref, 1);
	refcount_set(&uprobe->mem, 1);
	mutex_init(&uprobe->reg_mutex);
	mutex_init(&uprobe->prep_mutex);
	INIT_LIST_HEAD(&uprobe->consumers);
	INIT_LIST_HEAD(&uprobe->stranded_node);
	return uprobe;
}

/*
 * Returns the live probe at (inode, offset) with a new reference, creating
 * it when there is none; when two registrations race, the first insertion
 * wins. A new probe is not analysed yet (see uprobe_prepare()).
 */
static struct uprobe *uprobe_find_or_create(struct inode *inode, loff_t offset,
					    loff_t ref_ctr_offset)
{
	struct uprobe *found, *fresh = NULL;
	struct rb_node **link, *parent;

	for (;;) {
		found = NULL;
		spin_lock(&uprobes_lock);
		link = &uprobes_tree.rb_node;
		parent = NULL;
		while (*link) {
			struct uprobe *u = rb_entry(*link, struct uprobe, rb);
			int cmp = uprobe_key_cmp(inode, offset, u);

			parent = *link;
			if (!cmp && uprobe_tryget(u)) {
				found = u;
				break;
			}
			/* A dying twin sorts before the new probe. */
			link = cmp < 0 ? &parent->rb_left : &parent->rb_right;
		}
		if (!found && fresh) {
			ihold(inode);
			rb_link_node(&fresh->rb, parent, link);
			rb_insert_color(&fresh->rb, &uprobes_tree);
			hlist_add_head_rcu(&fresh->hnode,
					   uprobe_bucket(inode, offset));
			WRITE_ONCE(uprobes_nr, uprobes_nr + 1);
			found = fresh;
			fresh = NULL;
		}
		spin_unlock(&uprobes_lock);
		if (found)
			break;
		fresh = uprobe_alloc(inode, offset, ref_ctr_offset);
		if (IS_ERR(fresh))
			return fresh;
	}
	kfree(fresh);
	return found;
}

/* A mapping of the probed file, as it was when the walk collected it. */
struct uprobe_target {
	struct mm_struct	*mm;
	unsigned long		start;
	unsigned long		end;
	pgoff_t			pgoff;
};

/*
 * One walk of the address spaces for @cnt probes of one file (one probe
 * for a registration, all of a batch otherwise): bit i of @left_over is
 * set when a breakpoint of @uprobes[i] that nobody wants stays behind;
 * @targets holds the @nr_targets mappings the walk collected.
 */
struct uprobe_walk {
	struct uprobe		**uprobes;
	unsigned int		cnt;
	unsigned long		*left_over;
	struct uprobe_target	*targets;
	unsigned int		nr_targets;
};

/* Room for the mappings of most files; more is allocated when seen. */
#define UPROBE_TARGETS		32

static void uprobe_free_targets(struct uprobe_walk *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_targets; i++)
		mmput(w->targets[i].mm);
	kfree(w->targets);
	w->targets = NULL;
	w->nr_targets = 0;
}

/*
 * Collects every mapping of the pages holding the walk's probes, in one
 * array. Allocation under i_mmap_rwsem must not enter reclaim (which
 * takes it too), so the array is allocated beforehand and the walk starts
 * over with a larger one when it runs out.
 */
static int uprobe_collect_targets(struct uprobe_walk *w)
{
	struct address_space *mapping = w->uprobes[0]->inode->i_mapping;
	unsigned int i, room = UPROBE_TARGETS, seen;
	pgoff_t first = ULONG_MAX, last = 0;
	struct vm_area_struct *vma;

	for (i = 0; i < w->cnt; i++) {
		first = min_t(pgoff_t, first, w->uprobes[i]->offset >> PAGE_SHIFT);
		last = max_t(pgoff_t, last, w->uprobes[i]->offset >> PAGE_SHIFT);
	}
	for (;;) {
		w->targets = kmalloc_array(room, sizeof(*w->targets),
					   GFP_KERNEL);
		if (!w->targets)
			return -ENOMEM;
		w->nr_targets = 0;
		seen = 0;
		i_mmap_lock_read(mapping);
		vma_interval_tree_foreach(vma, &mapping->i_mmap, first, last) {
			struct uprobe_target *t;

			if (!uprobe_vma_probeable(vma) || seen++ >= room ||
			    !mmget_not_zero(vma->vm_mm))
				continue;
			t = &w->targets[w->nr_targets++];
			t->mm = vma->vm_mm;
			t->start = vma->vm_start;
			t->end = vma->vm_end;
			t->pgoff = vma->vm_pgoff;
		}
		i_mmap_unlock_read(mapping);
		if (seen <= room)
			return 0;
		/* Start over with room for what was seen. */
		uprobe_free_targets(w);
		room = seen + UPROBE_TARGETS;
	}
}

/*
 * Makes one address space agree with the consumers of the walk's probes
 * that the collected mapping @t covers, under its mmap lock held for
 * writing, where the filters are evaluated: whatever registrations run
 * meanwhile, the last update of an address space sees their consumers.
 * Returns 0 or the first error inserting a breakpoint.
 */
static int uprobe_walk_mm(struct uprobe_walk *w, struct uprobe_target *t)
{
	loff_t first = (loff_t)t->pgoff << PAGE_SHIFT;
	struct vm_area_struct *vma = NULL;
	struct mm_struct *mm = t->mm;
	int err, first_err = 0;
	unsigned int i;

	mmap_write_lock(mm);
	for (i = 0; i < w->cnt; i++) {
		struct uprobe *uprobe = w->uprobes[i];
		unsigned long vaddr;

		if (i && !(i % 256))
			cond_resched();	/* a batch may have a million */
		if (uprobe->offset < first ||
		    uprobe->offset - first >= t->end - t->start)
			continue;
		vaddr = t->start + (uprobe->offset - first);
		/* The probes of a batch mostly share the mapping. */
		if (!vma || vaddr < vma->vm_start || vaddr >= vma->vm_end)
			vma = vma_lookup(mm, vaddr);
		if (!vma || !uprobe_vma_maps(uprobe, vma, vaddr))
			continue;
		if (!uprobe_wanted_by(uprobe, mm)) {
			if (uprobe_remove(uprobe, mm, vma, vaddr))
				__set_bit(i, w->left_over);
		} else if (uprobe_vma_insertable(vma)) {
			err = uprobe_prepare(uprobe, vma->vm_file);
			if (!err)
				err = uprobe_install(uprobe, mm, vma, vaddr);
			if (err && !first_err)
				first_err = err;
		}
	}
	mmap_write_unlock(mm);
	return first_err;
}

/*
 * Makes every address space mapping the walk's probes agree with their
 * consumers: a breakpoint where one of them wants it, the original
 * instruction elsewhere. Each address space is updated once, for all the
 * probes, so that the mmap hook and handler-requested removals see a
 * consistent state.
 *
 * Return: 0 or the first error inserting a breakpoint (-ENOMEM, ...);
 * the bits of w->left_over are set for the probes whose breakpoints
 * could not all be removed.
 */
static int uprobe_walk_mms(struct uprobe_walk *w)
{
	int err, first_err = 0;
	unsigned int i;

	bitmap_zero(w->left_over, w->cnt);
	uprobe_dup_mmap_lock();
	err = uprobe_collect_targets(w);
	if (err) {
		/* Nothing was checked: removals are still to be done. */
		bitmap_fill(w->left_over, w->cnt);
		goto out;
	}
	for (i = 0; i < w->nr_targets; i++) {
		err = uprobe_walk_mm(w, &w->targets[i]);
		if (err && !first_err)
			first_err = err;
		cond_resched();
	}
	uprobe_free_targets(w);
	err = first_err;
out:
	uprobe_dup_mmap_unlock();
	return err;
}

/* Wait between two attempts at removing stranded breakpoints. */
#define UPROBE_SWEEP_DELAY	HZ

/*
 * The probes with stranded breakpoints, each holding a reference, and the
 * one worker that retries them. Lock order: reg_mutex, then
 * uprobes_stranded_lock.
 */
static LIST_HEAD(uprobes_stranded);
static DEFINE_MUTEX(uprobes_stranded_lock);
static void uprobe_sweep_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(uprobe_sweep, uprobe_sweep_work);

/*
 * A breakpoint of @uprobe that nobody wants could not be removed: the
 * probe keeps a reference (and so its place in the registry and its
 * analysed instruction, which hits of that breakpoint need) and the walk
 * is retried from a worker that no signal interrupts. The reference
 * belongs to the worker, which drops it after a walk that left nothing
 * behind. Called with uprobe->reg_mutex held.
 */
static void uprobe_strand(struct uprobe *uprobe)
{
	lockdep_assert_held(&uprobe->reg_mutex);
	if (uprobe->stranded)
		return;
	pr_warn_ratelimited("inode %lu:0x%llx: breakpoint not removed from every process, retrying\n",
			    uprobe->inode->i_ino, uprobe->offset);
	WRITE_ONCE(uprobe->stranded, true);
	uprobe_get(uprobe);
	mutex_lock(&uprobes_stranded_lock);
	list_add_tail(&uprobe->stranded_node, &uprobes_stranded);
	mutex_unlock(&uprobes_stranded_lock);
	schedule_delayed_work(&uprobe_sweep, UPROBE_SWEEP_DELAY);
}

/*
 * After a walk of @uprobe's address spaces: what it could not remove goes
 * to the sweep worker; with no consumer and nothing left behind, the
 * probe has no breakpoint anywhere and is no longer found by hits.
 * Called with uprobe->reg_mutex held.
 */
static void uprobe_settle(struct uprobe *uprobe, bool left_over)
{
	lockdep_assert_held(&uprobe->reg_mutex);
	if (left_over)
		uprobe_strand(uprobe);
	else if (list_empty(&uprobe->consumers) && !uprobe->stranded)
		WRITE_ONCE(uprobe->live, false);
}

/*
 * The walk of one probe's address spaces (see uprobe_walk_mms()), with
 * what it leaves behind handed to the sweep worker. Called with
 * uprobe->reg_mutex held.
 *
 * Return: as uprobe_walk_mms().
 */
static int uprobe_sync_mms(struct uprobe *uprobe)
{
	unsigned long left_over;
	struct uprobe_walk w = {
		.uprobes = &uprobe, .cnt = 1, .left_over = &left_over,
	};
	int err;

	lockdep_assert_held(&uprobe->reg_mutex);
	err = uprobe_walk_mms(&w);
	uprobe_settle(uprobe, left_over);
	return err;
}

/*
 * Walks each stranded probe again, taken off the list meanwhile (its
 * reg_mutex comes first in the lock order); those still stranded go back
 * for the next round, the others drop the list's reference.
 */
static void uprobe_sweep_work(struct work_struct *work)
{
	struct uprobe *uprobe, *next;
	unsigned long left_over;
	LIST_HEAD(batch);

	mutex_lock(&uprobes_stranded_lock);
	list_splice_init(&uprobes_stranded, &batch);
	mutex_unlock(&uprobes_stranded_lock);

	list_for_each_entry_safe(uprobe, next, &batch, stranded_node) {
		struct uprobe_walk w = {
			.uprobes = &uprobe, .cnt = 1, .left_over = &left_over,
		};

		mutex_lock(&uprobe->reg_mutex);
		uprobe_walk_mms(&w);
		if (left_over) {
			mutex_lock(&uprobes_stranded_lock);
			list_move_tail(&uprobe->stranded_node,
				       &uprobes_stranded);
			mutex_unlock(&uprobes_stranded_lock);
			mutex_unlock(&uprobe->reg_mutex);
			continue;
		}
		list_del_init(&uprobe->stranded_node);
		WRITE_ONCE(uprobe->stranded, false);
		uprobe_settle(uprobe, false);
		mutex_unlock(&uprobe->reg_mutex);
		uprobe_put(uprobe);
	}

	mutex_lock(&uprobes_stranded_lock);
	if (!list_empty(&uprobes_stranded))
		schedule_delayed_work(&uprobe_sweep, UPROBE_SWEEP_DELAY);
	mutex_unlock(&uprobes_stranded_lock);
}

static bool uprobe_has_consumer(struct uprobe *uprobe,
				struct uprobe_consumer *uc)
{
	struct uprobe_consumer *c;

	lockdep_assert_held(&uprobe->reg_mutex);
	list_for_each_entry(c, &uprobe->consumers, cons_node)
		if (c == uc)
			return true;
	return false;
}

static int uprobe_check_file(struct inode *inode, loff_t offset,
			     loff_t ref_ctr_offset)
{
	loff_t size = i_size_read(inode);

	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (!inode->i_mapping->a_ops->read_folio &&
	    !shmem_mapping(inode->i_mapping))
		return -EIO;
	/* Also no breakpoint across two instructions (or two pages). */
	if (offset < 0 || offset >= size ||
	    !IS_ALIGNED(offset, UPROBE_SWBP_INSN_SIZE))
		return -EINVAL;
	if (ref_ctr_offset < 0 || ref_ctr_offset + sizeof(short) > size ||
	    !IS_ALIGNED(ref_ctr_offset, sizeof(short)))
		return -EINVAL;
	return 0;
}

/* Consumer ids: pending returns name their consumers by them. */
static atomic64_t uprobe_consumer_ids = ATOMIC64_INIT(0);

/*
 * The probe at (@inode, @offset), analysed, with @uc among its consumers
 * and its reg_mutex held, or an ERR_PTR() (see uprobe_register_file());
 * no address space has been changed yet.
 */
static struct uprobe *uprobe_add_locked(struct inode *inode,
					struct file *file, loff_t offset,
					loff_t ref_ctr_offset,
					struct uprobe_consumer *uc)
{
	struct uprobe *uprobe;
	int err;

	if (!uc->handler && !uc->ret_handler)
		return ERR_PTR(-EINVAL);
	err = uprobe_check_file(inode, offset, ref_ctr_offset);
	if (err)
		return ERR_PTR(err);

	uprobe = uprobe_find_or_create(inode, offset, ref_ctr_offset);
	if (IS_ERR(uprobe))
		return uprobe;
	file = uprobe_find_file(inode, file);
	if (file) {
		err = uprobe_prepare(uprobe, file);
		fput(file);
		if (err)
			goto put;
	}

	mutex_lock(&uprobe->reg_mutex);
	if (uprobe->ref_ctr_offset != ref_ctr_offset) {
		pr_warn("inode %lu:0x%llx: semaphore 0x%llx conflicts with 0x%llx\n",
			inode->i_ino, offset, ref_ctr_offset,
			uprobe->ref_ctr_offset);
		mutex_unlock(&uprobe->reg_mutex);
		err = -EINVAL;
		goto put;
	}
	/*
	 * Live before the consumer is seen (list_add_rcu() orders it): a
	 * walk or the mmap hook inserts breakpoints for consumers it sees.
	 */
	WRITE_ONCE(uprobe->live, true);
	uc->id = atomic64_inc_return(&uprobe_consumer_ids);
	list_add_rcu(&uc->cons_node, &uprobe->consumers);
	return uprobe;
put:
	uprobe_put(uprobe);
	return ERR_PTR(err);
}

/**
 * uprobe_register_file() - add a consumer to the probe at (@inode, @offset)
 * @inode: the file to probe (for a file on an overlay, the real inode,
 *	as mappings of the file see it)
 * @file: an open file @inode's content can be read through (the probed
 *	file itself, or the overlay file above it), or NULL
 * @offset: file offset of the instruction to probe
 * @ref_ctr_offset: file offset of a USDT semaphore (a short) to count the
 *	address spaces the probe is active in, or 0
 * @uc: the consumer; its handler and/or ret_handler are called on hits,
 *	its filter (optional) decides which address spaces get the probe
 *
 * The first consumer of a probe reads the instruction and analyses it:
 * through @file, else through the file of a mapping of @inode; with
 * neither, at the first mapping of the file. An instruction that cannot
 * be probed fails the registration, with the reason in the kernel log.
 * The breakpoint is then put in every address space that maps the file
 * and is wanted by a consumer; processes that map the file later get it
 * from the mmap hook.
 *
 * Return: the probe, to pass to uprobe_unregister_nosync() and
 * uprobe_apply(), or an ERR_PTR(): -EINVAL for a bad offset, file type or
 * semaphore, -EOPNOTSUPP for an instruction that cannot be probed, -EIO
 * for a file that cannot be read, -ENOMEM. On failure, handlers of @uc
 * that a partial registration let start have returned.
 */
struct uprobe *uprobe_register_file(struct inode *inode, struct file *file,
				    loff_t offset, loff_t ref_ctr_offset,
				    struct uprobe_consumer *uc)
{
	struct uprobe *uprobe;
	int err;

	uprobe = uprobe_add_locked(inode, file, offset, ref_ctr_offset, uc);
	if (IS_ERR(uprobe))
		return uprobe;
	err = uprobe_sync_mms(uprobe);
	if (!err) {
		mutex_unlock(&uprobe->reg_mutex);
		return uprobe;
	}
	list_del_rcu(&uc->cons_node);
	uprobe_sync_mms(uprobe);
	mutex_unlock(&uprobe->reg_mutex);
	/* Handlers of @uc may have started where insertion succeeded. */
	synchronize_srcu(&uprobes_srcu);
	uprobe_put(uprobe);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(uprobe_register_file);

/**
 * uprobe_register() - add a consumer to the probe at (@inode, @offset)
 * @inode: the file to probe
 * @offset: file offset of the instruction to probe
 * @ref_ctr_offset: file offset of a USDT semaphore, or 0
 * @uc: the consumer
 *
 * uprobe_register_file() without an open file: the instruction is read
 * through a mapping of @inode, or when the file is first mapped.
 *
 * Return: as uprobe_register_file().
 */
struct uprobe *uprobe_register(struct inode *inode, loff_t offset,
			       loff_t ref_ctr_offset, struct uprobe_consumer *uc)
{
	return uprobe_register_file(inode, NULL, offset, ref_ctr_offset, uc);
}
EXPORT_SYMBOL_GPL(uprobe_register);

/* Room for a walk of up to @cnt probes. */
static int uprobe_walk_alloc(struct uprobe_walk *w, unsigned int cnt)
{
	w->cnt = 0;
	w->targets = NULL;
	w->nr_targets = 0;
	w->uprobes = kvcalloc(cnt, sizeof(*w->uprobes), GFP_KERNEL);
	w->left_over = kvcalloc(BITS_TO_LONGS(cnt), sizeof(long), GFP_KERNEL);
	if (w->uprobes && w->left_over)
		return 0;
	kvfree(w->uprobes);
	kvfree(w->left_over);
	return -ENOMEM;
}

static void uprobe_walk_free(struct uprobe_walk *w)
{
	kvfree(w->uprobes);
	kvfree(w->left_over);
}

/* uprobe_settle() for each probe of a batch's walk. */
static void uprobe_settle_walk(struct uprobe_walk *w)
{
	unsigned int i;

	for (i = 0; i < w->cnt; i++) {
		mutex_lock(&w->uprobes[i]->reg_mutex);
		uprobe_settle(w->uprobes[i], test_bit(i, w->left_over));
		mutex_unlock(&w->uprobes[i]->reg_mutex);
	}
}

/*
 * Takes the consumers of a batch's first @cnt probes off them, then makes
 * the address spaces agree in one walk. The probes' references are still
 * held.
 */
static void uprobe_del_batch(struct uprobe_walk *w, unsigned int cnt,
			     uprobe_batch_fn nth, void *ctx)
{
	struct uprobe_consumer *uc;
	struct uprobe **slot;
	loff_t offset, ref_ctr_offset;
	unsigned int i;

	for (i = 0; i < cnt; i++) {
		uc = nth(ctx, i, &offset, &ref_ctr_offset, &slot);
		mutex_lock(&w->uprobes[i]->reg_mutex);
		if (!WARN_ON_ONCE(!uprobe_has_consumer(w->uprobes[i], uc)))
			list_del_rcu(&uc->cons_node);
		mutex_unlock(&w->uprobes[i]->reg_mutex);
	}
	w->cnt = cnt;
	if (!cnt)
		return;
	uprobe_walk_mms(w);
	uprobe_settle_walk(w);
}

/**
 * uprobe_register_batch() - add consumers to many probes of one file
 * @inode: the file to probe, as for uprobe_register_file()
 * @file: an open file @inode's content can be read through, or NULL
 * @cnt: how many probes
 * @nth: gives the file offset, semaphore offset and consumer of each
 *	probe, and where to store it
 * @ctx: passed to @nth
 *
 * uprobe_register_file() for each probe, but the address spaces mapping
 * the file are each updated once for all of them: attaching thousands of
 * probes (BPF's uprobe_multi links) costs one walk, not one per probe.
 *
 * Return: 0, with every probe stored where @nth said; or the first error
 * (as uprobe_register_file()), after every consumer of the batch was
 * removed again and the handlers that started meanwhile have returned.
 */
int uprobe_register_batch(struct inode *inode, struct file *file,
			  unsigned int cnt, uprobe_batch_fn nth, void *ctx)
{
	struct uprobe_consumer *uc;
	struct uprobe_walk w;
	struct uprobe **slot;
	loff_t offset, ref_ctr_offset;
	unsigned int i, added;
	int err;

	if (!cnt)
		return 0;
	err = uprobe_walk_alloc(&w, cnt);
	if (err)
		return err;
	for (added = 0; added < cnt; added++) {
		uc = nth(ctx, added, &offset, &ref_ctr_offset, &slot);
		w.uprobes[added] = uprobe_add_locked(inode, file, offset,
						     ref_ctr_offset, uc);
		if (IS_ERR(w.uprobes[added])) {
			err = PTR_ERR(w.uprobes[added]);
			break;
		}
		mutex_unlock(&w.uprobes[added]->reg_mutex);
	}
	if (!err) {
		w.cnt = cnt;
		err = uprobe_walk_mms(&w);
		uprobe_settle_walk(&w);
	}
	if (err) {
		uprobe_del_batch(&w, added, nth, ctx);
		/* Handlers may have started where insertion succeeded. */
		synchronize_srcu(&uprobes_srcu);
	}
	for (i = 0; i < added; i++) {
		nth(ctx, i, &offset, &ref_ctr_offset, &slot);
		if (err)
			uprobe_put(w.uprobes[i]);
		*slot = err ? NULL : w.uprobes[i];
	}
	uprobe_walk_free(&w);
	return err;
}
EXPORT_SYMBOL_GPL(uprobe_register_batch);

/**
 * uprobe_unregister_batch() - remove the consumers of a registered batch
 * @cnt: how many probes
 * @nth: as for uprobe_register_batch(); the probes are read from where
 *	it says they were stored
 * @ctx: passed to @nth
 *
 * uprobe_unregister_nosync() for each probe, with one walk of the address
 * spaces for all of them. Call uprobe_unregister_sync() before freeing
 * the consumers.
 */
void uprobe_unregister_batch(unsigned int cnt, uprobe_batch_fn nth, void *ctx)
{
	struct uprobe_consumer *uc;
	struct uprobe_walk w;
	struct uprobe **slot;
	loff_t offset, ref_ctr_offset;
	unsigned int i;

	if (!cnt || uprobe_walk_alloc(&w, cnt))
		goto one_by_one;
	for (i = 0; i < cnt; i++) {
		nth(ctx, i, &offset, &ref_ctr_offset, &slot);
		w.uprobes[i] = *slot;
		/* One walk covers the mappings of one file. */
		if (WARN_ON_ONCE(w.uprobes[i]->inode != w.uprobes[0]->inode)) {
			uprobe_walk_free(&w);
			goto one_by_one;
		}
	}
	uprobe_del_batch(&w, cnt, nth, ctx);
	for (i = 0; i < cnt; i++)
		uprobe_put(w.uprobes[i]);
	uprobe_walk_free(&w);
	return;

one_by_one:
	/* Without memory for one walk, one per probe. */
	for (i = 0; i < cnt; i++) {
		uc = nth(ctx, i, &offset, &ref_ctr_offset, &slot);
		uprobe_unregister_nosync(*slot, uc);
	}
}
EXPORT_SYMBOL_GPL(uprobe_unregister_batch);

/**
 * uprobe_apply() - re-evaluate a consumer's filter in every address space
 * @uprobe: probe returned by uprobe_register()
 * @uc: a consumer registered on @uprobe
 * @add: true when the filter now accepts more address spaces, false when
 *	fewer; both are handled by one walk
 *
 * Return: 0, -ENOENT if @uc is not registered on @uprobe, or the first
 * error of the walk, as for uprobe_register_file().
 */
int uprobe_apply(struct uprobe *uprobe, struct uprobe_consumer *uc, bool add)
{
	int err = -ENOENT;

	mutex_lock(&uprobe->reg_mutex);
	if (uprobe_has_consumer(uprobe, uc))
		err = uprobe_sync_mms(uprobe);
	mutex_unlock(&uprobe->reg_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(uprobe_apply);

/**
 * uprobe_unregister_nosync() - remove a consumer from a probe
 * @uprobe: probe returned by uprobe_register()
 * @uc: the consumer
 *
 * Breakpoints that no remaining consumer wants are removed before this
 * returns; one that cannot be removed now (the caller got a fatal signal,
 * no memory) is removed later, and until then its hits execute the
 * original instruction. Handlers of @uc that already started may still
 * be running: call uprobe_unregister_sync() before freeing @uc (once for
 * a batch).
 */
void uprobe_unregister_nosync(struct uprobe *uprobe, struct uprobe_consumer *uc)
{
	mutex_lock(&uprobe->reg_mutex);
	if (!WARN_ON_ONCE(!uprobe_has_consumer(uprobe, uc))) {
		list_del_rcu(&uc->cons_node);
		uprobe_sync_mms(uprobe);
	}
	mutex_unlock(&uprobe->reg_mutex);
	uprobe_put(uprobe);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_nosync);

/**
 * uprobe_unregister_sync() - wait for handlers of removed consumers
 *
 * After this returns, no handler of a consumer passed to
 * uprobe_unregister_nosync() before the call runs any more. Expedited:
 * perf closes its uprobe events one by one, each waiting here, and a
 * normal grace period (tens of milliseconds) made closing thousands of
 * them take minutes.
 */
void uprobe_unregister_sync(void)
{
	synchronize_srcu_expedited(&uprobes_srcu);
}
EXPORT_SYMBOL_GPL(uprobe_unregister_sync);

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/core-kunit.h"
#endif
