/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the uprobes registry: ordering, lookup and range walks,
 * on probes linked by hand (no file behind them).
 */
#include <kunit/test.h>

static void uprobe_core_test_key_order(struct kunit *test)
{
	struct uprobe u = { .inode = (struct inode *)0x2000, .offset = 100 };

	KUNIT_EXPECT_EQ(test, uprobe_key_cmp(u.inode, 100, &u), 0);
	KUNIT_EXPECT_LT(test, uprobe_key_cmp(u.inode, 99, &u), 0);
	KUNIT_EXPECT_GT(test, uprobe_key_cmp(u.inode, 101, &u), 0);
	/* The inode decides before the offset. */
	KUNIT_EXPECT_LT(test, uprobe_key_cmp((struct inode *)0x1000, 500, &u), 0);
	KUNIT_EXPECT_GT(test, uprobe_key_cmp((struct inode *)0x3000, 0, &u), 0);
}

static void uprobe_core_test_vma_math(struct kunit *test)
{
	struct vm_area_struct vma = {
		.vm_start = 0x400000, .vm_end = 0x402000, .vm_pgoff = 3,
	};

	KUNIT_EXPECT_EQ(test, uprobe_vma_offset_vaddr(&vma, 0x3010), 0x400010UL);
	KUNIT_EXPECT_EQ(test, uprobe_vma_vaddr_offset(&vma, 0x401ff0), 0x4ff0LL);
	KUNIT_EXPECT_EQ(test,
			uprobe_vma_vaddr_offset(&vma, uprobe_vma_offset_vaddr(&vma, 0x4321)),
			0x4321LL);
}

static void uprobe_core_test_link(struct uprobe *u)
{
	struct rb_node **link = &uprobes_tree.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (uprobe_key_cmp(u->inode, u->offset,
				   rb_entry(parent, struct uprobe, rb)) < 0)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&u->rb, parent, link);
	rb_insert_color(&u->rb, &uprobes_tree);
	hlist_add_head_rcu(&u->hnode, uprobe_bucket(u->inode, u->offset));
}

/* Probes of two files, in random order; walk one file's range. */
static void uprobe_core_test_registry(struct kunit *test)
{
	static const loff_t offs[] = { 0x500, 0x10, 0x2000, 0x7ff, 0x800, 0x0 };
	struct inode *a = (struct inode *)0x1000, *b = (struct inode *)0x3000;
	struct uprobe *u, *got[8];
	int i, nr, idx;

	u = kunit_kcalloc(test, 2 * ARRAY_SIZE(offs), sizeof(*u), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u);
	spin_lock(&uprobes_lock);
	for (i = 0; i < 2 * ARRAY_SIZE(offs); i++) {
		u[i].inode = i < ARRAY_SIZE(offs) ? a : b;
		u[i].offset = offs[i % ARRAY_SIZE(offs)];
		refcount_set(&u[i].ref, 1);
		u[i].prep = 1;
		u[i].live = true;
		uprobe_core_test_link(&u[i]);
	}
	spin_unlock(&uprobes_lock);

	idx = uprobes_srcu_lock();
	KUNIT_EXPECT_PTR_EQ(test, uprobe_lookup(a, 0x7ff), &u[3]);
	KUNIT_EXPECT_PTR_EQ(test, uprobe_lookup(b, 0x7ff), &u[9]);
	KUNIT_EXPECT_NULL(test, uprobe_lookup(a, 0x7fe));
	refcount_set(&u[3].ref, 0);
	KUNIT_EXPECT_NULL(test, uprobe_lookup(a, 0x7ff));
	refcount_set(&u[3].ref, 1);
	/* Not analysed (or refused): no breakpoint can be its. */
	u[3].prep = 0;
	KUNIT_EXPECT_NULL(test, uprobe_lookup(a, 0x7ff));
	u[3].prep = -EOPNOTSUPP;
	KUNIT_EXPECT_NULL(test, uprobe_lookup(a, 0x7ff));
	u[3].prep = 1;
	/* No breakpoint left (kept for a pending return): not a hit's. */
	u[3].live = false;
	KUNIT_EXPECT_NULL(test, uprobe_lookup(a, 0x7ff));
	u[3].live = true;
	uprobes_srcu_unlock(idx);

	/* [0x10, 0x800) of a: 0x10, 0x500, 0x7ff in order, not 0x800. */
	nr = uprobe_collect_range(a, 0x10, 0x800, got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, nr, 3);
	KUNIT_EXPECT_EQ(test, got[0]->offset, 0x10);
	KUNIT_EXPECT_EQ(test, got[1]->offset, 0x500);
	KUNIT_EXPECT_EQ(test, got[2]->offset, 0x7ff);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_PTR_EQ(test, got[i]->inode, a);
		KUNIT_EXPECT_EQ(test, refcount_read(&got[i]->ref), 2);
		refcount_dec(&got[i]->ref);
	}
	/* A full batch stops early; the caller resumes after the last. */
	nr = uprobe_collect_range(b, 0, 0x10000, got, 2);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_EQ(test, got[0]->offset, 0x0);
	KUNIT_EXPECT_EQ(test, got[1]->offset, 0x10);
	refcount_dec(&got[0]->ref);
	refcount_dec(&got[1]->ref);

	spin_lock(&uprobes_lock);
	for (i = 0; i < 2 * ARRAY_SIZE(offs); i++) {
		rb_erase(&u[i].rb, &uprobes_tree);
		hlist_del_rcu(&u[i].hnode);
	}
	spin_unlock(&uprobes_lock);
	synchronize_srcu(&uprobes_srcu);
}

static struct kunit_case uprobe_core_test_cases[] = {
	KUNIT_CASE(uprobe_core_test_key_order),
	KUNIT_CASE(uprobe_core_test_vma_math),
	KUNIT_CASE(uprobe_core_test_registry),
	{}
};

static struct kunit_suite uprobe_core_test_suite = {
	.name = "uprobes_core",
	.test_cases = uprobe_core_test_cases,
};

kunit_test_suite(uprobe_core_test_suite);
