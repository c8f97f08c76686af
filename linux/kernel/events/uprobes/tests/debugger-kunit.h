/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the notes of a debugger's breakpoints over ours, on
 * address spaces that are only keys (never dereferenced).
 */
#include <kunit/test.h>

#define DBG_TEST_MM(n)	((struct mm_struct *)(0x10000UL * (n)))

/* Notes of @mm in [@start, @end). */
static unsigned int uprobe_dbg_test_count(struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	unsigned long a;
	unsigned int n = 0;

	for (a = start; a < end; a++)
		n += __uprobe_dbg_bp_at(mm, a);
	return n;
}

static void uprobe_dbg_test_set_forget(struct kunit *test)
{
	struct mm_struct *a = DBG_TEST_MM(1), *b = DBG_TEST_MM(2);
	unsigned long base = READ_ONCE(uprobe_nr_dbg_bps);

	uprobe_dbg_bp_set(a, 0x1000, true);
	uprobe_dbg_bp_set(a, 0x1000, false);	/* noted once, updated */
	uprobe_dbg_bp_set(a, 0x1010, true);
	uprobe_dbg_bp_set(b, 0x1000, false);
	KUNIT_EXPECT_EQ(test, READ_ONCE(uprobe_nr_dbg_bps), base + 3);
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_over(a, 0x1000));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_over(a, 0x1010));
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_over(a, 0x1020));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_at(a, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_at(a, 0x1001));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_at(b, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_at(b, 0x1010));

	/* A range forgets its own address space's notes only. */
	uprobe_dbg_bps_forget(a, 0x1001, 0x1011);
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_at(a, 0x1000));
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_at(a, 0x1010));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_at(b, 0x1000));
	uprobe_dbg_bps_forget(a, 0, ULONG_MAX);
	uprobe_dbg_bps_forget(b, 0x1000, 0x1001);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(a, 0xff0, 0x1020), 0U);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(b, 0xff0, 0x1020), 0U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(uprobe_nr_dbg_bps), base);
}

static void uprobe_dbg_test_dup(struct kunit *test)
{
	unsigned long base = READ_ONCE(uprobe_nr_dbg_bps);
	struct mm_struct *parent = DBG_TEST_MM(3), *child = DBG_TEST_MM(4);
	unsigned long i;

	for (i = 0; i < 5; i++)
		uprobe_dbg_bp_set(parent, 0x2000 + 16 * i, i & 1);
	uprobe_dbg_bps_dup(parent, child);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(child, 0x2000, 0x2050), 5U);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(parent, 0x2000, 0x2050), 5U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(uprobe_nr_dbg_bps), base + 10);
	/* The copies say what the originals say. */
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_over(child, 0x2000));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_over(child, 0x2010));
	/* Forgetting the child's leaves the parent's. */
	uprobe_dbg_bps_forget(child, 0, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(parent, 0x2000, 0x2050), 5U);
	uprobe_dbg_bps_forget(parent, 0, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, READ_ONCE(uprobe_nr_dbg_bps), base);
	/* Nothing to copy: nothing copied. */
	uprobe_dbg_bps_dup(parent, child);
	KUNIT_EXPECT_EQ(test, READ_ONCE(uprobe_nr_dbg_bps), base);
}

static struct kunit_case uprobe_dbg_test_cases[] = {
	KUNIT_CASE(uprobe_dbg_test_set_forget),
	KUNIT_CASE(uprobe_dbg_test_dup),
	{}
};

static struct kunit_suite uprobe_dbg_test_suite = {
	.name = "uprobes_debugger",
	.test_cases = uprobe_dbg_test_cases,
};

kunit_test_suite(uprobe_dbg_test_suite);
