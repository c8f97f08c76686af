/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests of the record of an address space's breakpoints
 * (written.c), on address spaces of their own with no mapping.
 */
#include <kunit/test.h>
#include <linux/sched/mm.h>

static void uprobe_bps_test_drop(void *mm)
{
	mmput(mm);
}

/* A new address space, dropped when the test ends. */
static struct mm_struct *uprobe_bps_test_mm(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, mm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							uprobe_bps_test_drop,
							mm), 0);
	return mm;
}

/* The record's calls, each under the mmap lock as the engine makes them. */
static int bps_t_note(struct mm_struct *mm, unsigned long vaddr)
{
	int err;

	mmap_write_lock(mm);
	err = uprobe_bps_note(mm, vaddr);
	mmap_write_unlock(mm);
	return err;
}

static void bps_t_unnote(struct mm_struct *mm, unsigned long vaddr)
{
	mmap_read_lock(mm);
	uprobe_bps_unnote(mm, vaddr);
	mmap_read_unlock(mm);
}

static bool bps_t_noted(struct mm_struct *mm, unsigned long vaddr)
{
	bool ret;

	mmap_read_lock(mm);
	ret = uprobe_bps_noted(mm, vaddr);
	mmap_read_unlock(mm);
	return ret;
}

static void bps_t_move(struct mm_struct *mm, unsigned long old_addr,
		       unsigned long new_addr, unsigned long len)
{
	mmap_write_lock(mm);
	uprobe_bps_move(mm, old_addr, new_addr, len);
	mmap_write_unlock(mm);
}

static int bps_t_dup(struct mm_struct *mm, struct mm_struct *child)
{
	int err;

	mmap_write_lock(mm);
	err = uprobe_bps_dup(mm, child);
	mmap_write_unlock(mm);
	return err;
}

static long bps_t_nr(struct mm_struct *mm)
{
	return atomic_long_read(&mm->uprobes_state.bps->nr);
}

/* Noted until taken out; once per address; moved with the code. */
static void uprobe_bps_test_note(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);

	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1000));
	bps_t_unnote(mm, 0x1000);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1005), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x3000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x8010), 0);
	bps_t_unnote(mm, 0x8010);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x8020), 0);
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 4);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1001));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0xfff));

	/*
	 * [0x1000, 0x2000) to 0x8000: 0x3000 stays, what was recorded at
	 * the destination (0x8020) goes.
	 */
	bps_t_move(mm, 0x1000, 0x8000, 0x1000);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x8020));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1005));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x8000));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x8005));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x3000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 3);

	bps_t_unnote(mm, 0x8000);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x8000));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x8005));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 2);

	/* A breakpoint that could not be recorded: every address counts. */
	mm->uprobes_state.bps->lost = true;
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x5555));
}

static unsigned long bps_t_removed(struct mm_struct *mm)
{
	unsigned long n;

	mmap_read_lock(mm);
	n = uprobe_bps_removed(mm);
	mmap_read_unlock(mm);
	return n;
}

/*
 * Each breakpoint taken out is counted, for good, and so is one whose
 * address moved code lands on, and each drop of the process's copies of
 * probed pages; a moved one is not.
 */
static void uprobe_bps_test_removed(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);

	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x2000), 0);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 0);
	bps_t_unnote(mm, 0x1000);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 1);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	bps_t_move(mm, 0x1000, 0x5000, 0x1000);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 1);
	bps_t_unnote(mm, 0x5000);
	bps_t_unnote(mm, 0x2000);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 3);
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 0);
	/* Code moved over 0x3000: its breakpoint went. */
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x3000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x7000), 0);
	bps_t_move(mm, 0x7000, 0x3000, 0x1000);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 4);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x3000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 1);
	mmap_read_lock(mm);
	uprobe_bps_dropped(mm);
	mmap_read_unlock(mm);
	KUNIT_EXPECT_EQ(test, bps_t_removed(mm), 5);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x3000));
}

/* A child gets a copy: what either does later is its own. */
static void uprobe_bps_test_dup(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	struct mm_struct *child = uprobe_bps_test_mm(test);
	struct mm_struct *other = uprobe_bps_test_mm(test);

	/* Nothing to copy: no record. */
	KUNIT_EXPECT_EQ(test, bps_t_dup(mm, other), 0);
	KUNIT_EXPECT_NULL(test, other->uprobes_state.bps);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, ULONG_MAX - 7), 0);
	KUNIT_ASSERT_EQ(test, bps_t_dup(mm, child), 0);
	bps_t_unnote(mm, 0x1000);

	KUNIT_EXPECT_TRUE(test, bps_t_noted(child, 0));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(child, 0x1000));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(child, ULONG_MAX - 7));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(child, 0x2000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(child), 3);
	KUNIT_ASSERT_EQ(test, bps_t_note(child, 0x2000), 0);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1000));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x2000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 2);
}

/*
 * Addresses no mapping covers go when the record has grown, once a file
 * was mapped (none was before: the addresses are kept).
 */
static void uprobe_bps_test_prune(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	unsigned long i;

	for (i = 0; i < BPS_PRUNE_MIN; i++)
		KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000 + 16 * i), 0);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1000));
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x100000), 0);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), BPS_PRUNE_MIN + 1);

	mmap_write_lock(mm);
	uprobe_bps_remapped(mm);
	mmap_write_unlock(mm);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x100000 + 16), 0);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x100000));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x100000 + 16));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 1);
	KUNIT_EXPECT_EQ(test, mm->uprobes_state.bps->prune_at, BPS_PRUNE_MIN);
}

/*
 * Code moved away while a copy stays mapped (mremap()'s
 * MREMAP_DONTUNMAP, the breakpoints put back in the old range) and the
 * moved copy unmapped, over and over with no file mapped meanwhile: the
 * addresses left behind are still pruned as the record grows.
 */
static void uprobe_bps_test_moved_away(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	unsigned long i;

	mmap_write_lock(mm);
	uprobe_bps_remapped(mm);
	mmap_write_unlock(mm);
	/* The first pass finds them all gone, and is done. */
	for (i = 0; i <= BPS_PRUNE_MIN; i++)
		KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000 + 16 * i), 0);
	KUNIT_ASSERT_FALSE(test, mm->uprobes_state.bps->remapped);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	for (i = 0; i < 10 * BPS_PRUNE_MIN; i++) {
		bps_t_move(mm, 0x1000, 0x100000 + 0x1000 * i, 0x1000);
		KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1000), 0);
	}
	KUNIT_EXPECT_LE(test, bps_t_nr(mm), 2 * BPS_PRUNE_MIN + 1);
}

/*
 * A large record is freed whole: 50,000 addresses (the BPF selftests'
 * uprobe_multi bench probes 50,000 functions of one program), freed when
 * the address space goes, with the xarray's nodes, which go after a
 * grace period: the test waits for those.
 */
static void uprobe_bps_test_large(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();
	unsigned long i;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, mm);
	mmap_write_lock(mm);
	err = uprobe_bps_note(mm, 0x400000);
	/* No mapping covers these: keep them from being pruned. */
	if (!err)
		mm->uprobes_state.bps->prune_at = LONG_MAX;
	for (i = 1; !err && i < 50000; i++)
		err = uprobe_bps_note(mm, 0x400000 + 16 * i);
	mmap_write_unlock(mm);
	KUNIT_EXPECT_EQ(test, err, 0);
	if (!err) {
		KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 50000);
		KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x400000 + 16 * 49999));
	}
	mmput(mm);
	rcu_barrier();
}

/*
 * A page's addresses stay sorted whatever the order they come and go
 * in, its array grows past its first room (a child's copy too, which
 * has no room to spare), and a page holds every one of its offsets.
 */
static void uprobe_bps_test_order(struct kunit *test)
{
	static const unsigned long order[] = { 0x1010, 0x1008, 0x1018, 0x1000,
					       0x1004, 0x1ffc, 0x1001 };
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	struct mm_struct *child = uprobe_bps_test_mm(test);
	unsigned long i;
	u32 key = 0;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_ASSERT_EQ(test, bps_t_note(mm, order[i]), 0);
	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, order[i]));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x100c));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x2000));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), ARRAY_SIZE(order));

	/* Another key for a recorded address replaces its key only. */
	mmap_write_lock(mm);
	KUNIT_EXPECT_EQ(test, uprobe_bps_store(mm->uprobes_state.bps, 0x1008,
					       0x1234), 0);
	KUNIT_EXPECT_TRUE(test, uprobe_bps_lookup(mm->uprobes_state.bps,
						  0x1008, &key));
	mmap_write_unlock(mm);
	KUNIT_EXPECT_EQ(test, key, 0x1234);
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), ARRAY_SIZE(order));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1008));
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x1008), 0);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1008));

	bps_t_unnote(mm, 0x1008);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x1008));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1004));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x1010));

	/* The child's exact copy grows with its first new address. */
	KUNIT_ASSERT_EQ(test, bps_t_dup(mm, child), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(child, 0x100c), 0);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(child, 0x100c));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(child, 0x1010));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x100c));
	KUNIT_EXPECT_EQ(test, bps_t_nr(child), ARRAY_SIZE(order));

	/* Every offset of a page, then taken out in two interleaved passes. */
	for (i = 0; i < PAGE_SIZE && i < 4096; i++)
		KUNIT_ASSERT_EQ(test, bps_t_note(mm, 0x40000 + i), 0);
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x40000 + i - 1));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), ARRAY_SIZE(order) - 1 + i);
	for (i = 0; i < 4096 && i < PAGE_SIZE; i += 2)
		bps_t_unnote(mm, 0x40000 + i);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x40000));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, 0x40001));
	for (i = 1; i < 4096 && i < PAGE_SIZE; i += 2)
		bps_t_unnote(mm, 0x40000 + i);
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, 0x40001));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), ARRAY_SIZE(order) - 1);
}

/*
 * Moved code takes the addresses of its pages along, and only those:
 * the pages just before and after the moved range keep theirs.
 */
static void uprobe_bps_test_move_pages(struct kunit *test)
{
	struct mm_struct *mm = uprobe_bps_test_mm(test);
	const unsigned long from = 0x100000, to = 0x200000;
	const unsigned long len = 3 * PAGE_SIZE;

	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from - 1), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from + 8), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from + PAGE_SIZE + 4), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from + len - 1), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, from + len), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, to + 2 * PAGE_SIZE + 16), 0);
	KUNIT_ASSERT_EQ(test, bps_t_note(mm, to + len), 0);
	bps_t_move(mm, from, to, len);

	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, from - 1));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, from + len));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, from));
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, from + PAGE_SIZE + 4));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, to));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, to + 8));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, to + PAGE_SIZE + 4));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, to + len - 1));
	/* What was recorded where the code landed went; past it stays. */
	KUNIT_EXPECT_FALSE(test, bps_t_noted(mm, to + 2 * PAGE_SIZE + 16));
	KUNIT_EXPECT_TRUE(test, bps_t_noted(mm, to + len));
	KUNIT_EXPECT_EQ(test, bps_t_nr(mm), 7);
}

static struct kunit_case uprobe_bps_test_cases[] = {
	KUNIT_CASE(uprobe_bps_test_note),
	KUNIT_CASE(uprobe_bps_test_removed),
	KUNIT_CASE(uprobe_bps_test_dup),
	KUNIT_CASE(uprobe_bps_test_prune),
	KUNIT_CASE(uprobe_bps_test_moved_away),
	KUNIT_CASE(uprobe_bps_test_large),
	KUNIT_CASE(uprobe_bps_test_order),
	KUNIT_CASE(uprobe_bps_test_move_pages),
	{}
};

static struct kunit_suite uprobe_bps_test_suite = {
	.name = "uprobes_written",
	.test_cases = uprobe_bps_test_cases,
};

kunit_test_suite(uprobe_bps_test_suite);
