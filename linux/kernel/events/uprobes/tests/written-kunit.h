/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests of the record of an address space's breakpoints
 * (written.c), on address spaces of their own with no mapping.
 */
#include <kunit/test.h>
#include <linux/sched/mm.h>

static void uprobe_bps_test_drop(void *mm)
{
	mmap_write_unlock(mm);
	mmput(mm);
}

/* A new address space, locked, dropped when the test ends. */
static struct mm_struct *uprobe_bps_test_mm(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, mm);
	mmap_write_lock(mm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							uprobe_bps_test_drop,
							mm), 0);
	return mm;
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

	/* A breakpoint that could not be recorded: every address counts. */
	mm->uprobes_state.bps->lost = true;
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(mm, 0x5555));
}

/* A child gets a copy: what either does later is its own. */
static void uprobe_bps_test_dup(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	struct mm_struct *child = uprobe_bps_test_mm(test);
	struct mm_struct *other = uprobe_bps_test_mm(test);

	/* Nothing to copy: no record. */
	KUNIT_EXPECT_EQ(test, uprobe_bps_dup(mm, other), 0);
	KUNIT_EXPECT_NULL(test, other->uprobes_state.bps);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(mm, ULONG_MAX - 7), 0);
	KUNIT_ASSERT_EQ(test, uprobe_bps_dup(mm, child), 0);
	uprobe_bps_unnote(mm, 0x1000);

	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(child, 0));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(child, 0x1000));
	KUNIT_EXPECT_TRUE(test, uprobe_bps_noted(child, ULONG_MAX - 7));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(child, 0x2000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&child->uprobes_state.bps->nr),
			3);
	KUNIT_ASSERT_EQ(test, uprobe_bps_note(child, 0x2000), 0);
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_bps_noted(mm, 0x2000));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mm->uprobes_state.bps->nr), 2);
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
