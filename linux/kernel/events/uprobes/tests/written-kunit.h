/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests of the record of an address space's breakpoints
 * (written.c), on address spaces of their own with no mapping.
 */
#include <kunit/test.h>
#include <linux/sched/mm.h>

static struct mm_struct *uprobe_bps_test_mm(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, mm);
	mmap_write_lock(mm);
	return mm;
}

static void uprobe_bps_test_put(struct mm_struct *mm)
{
	mmap_write_unlock(mm);
	mmput(mm);
}

/* Noted until taken out; once per address; moved with the code. */
static void uprobe_bps_test_note(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);

	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1000));
	uprobe_bps_unnote(mm, 0x1000);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1005), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x3000), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mm->uprobes_state.bps->nr), 3);
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1001));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0xfff));

	/* [0x1000, 0x2000) to 0x8000: 0x3000 stays. */
	uprobe_bps_move(mm, 0x1000, 0x8000, 0x1000);
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1005));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x8000));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x8005));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x3000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mm->uprobes_state.bps->nr), 3);

	uprobe_bps_unnote(mm, 0x8000);
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x8000));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x8005));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mm->uprobes_state.bps->nr), 2);
	uprobe_bps_test_put(mm);
}

/* A child gets a copy: what either does later is its own. */
static void uprobe_bps_test_dup(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	struct mm_struct *child = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, child);
	/* Nothing to copy: no record. */
	KUNIT_EXPECT_EQ(test, uprobe_bps_dup(mm, child), 0);
	KUNIT_EXPECT_NULL(test, child->uprobes_state.bps);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, ULONG_MAX - 7), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_dup(mm, child), 0);
	uprobe_bps_unnote(mm, 0x1000);

	mmap_write_lock(child);
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(child, 0x1000));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(child, ULONG_MAX - 7));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&child->uprobes_state.bps->nr),
			2);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(child, 0x2000), 0);
	mmap_write_unlock(child);
	mmput(child);

	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x2000));
	uprobe_bps_test_put(mm);
}

/* Addresses no mapping covers go when the record has grown. */
static void uprobe_bps_test_prune(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	unsigned long i;

	for (i = 0; i < BPS_PRUNE_MIN; i++)
		KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1000 + 16 * i), 0);
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x100000), 0);
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x100000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mm->uprobes_state.bps->nr), 1);
	KUNIT_EXPECT_EQ(test, mm->uprobes_state.bps->prune_at, BPS_PRUNE_MIN);
	uprobe_bps_test_put(mm);
}

static struct kunit_case uprobe_bps_test_cases[] = {
	KUNIT_CASE(uprobe_bps_test_note),
	KUNIT_CASE(uprobe_bps_test_dup),
	KUNIT_CASE(uprobe_bps_test_prune),
	{}
};

static struct kunit_suite uprobe_bps_test_suite = {
	.name = "uprobes_written",
	.test_cases = uprobe_bps_test_cases,
};

kunit_test_suite(uprobe_bps_test_suite);
