/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the notes of a debugger's breakpoints over ours, kept
 * by each address space (fresh ones, which no task uses).
 */
#include <kunit/test.h>
#include <linux/sched/mm.h>

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

/* How many notes @mm has. */
static unsigned int uprobe_dbg_test_nr(struct mm_struct *mm)
{
	struct uprobe_dbg_notes *n = uprobe_dbg_notes(mm);

	unsigned int nr;

	if (!n)
		return 0;
	spin_lock(&n->lock);
	nr = n->nr;
	spin_unlock(&n->lock);
	return nr;
}

static struct mm_struct *uprobe_dbg_test_mm(struct kunit *test)
{
	struct mm_struct *mm = mm_alloc();

	KUNIT_ASSERT_NOT_NULL(test, mm);
	return mm;
}

static void uprobe_dbg_test_set_forget(struct kunit *test)
{
	struct mm_struct *a = uprobe_dbg_test_mm(test);
	struct mm_struct *b = uprobe_dbg_test_mm(test);

	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_at(a, 0x1000));
	uprobe_dbg_bp_set(a, 0x1000, true);
	uprobe_dbg_bp_set(a, 0x1000, false);	/* noted once, updated */
	uprobe_dbg_bp_set(a, 0x1010, true);
	uprobe_dbg_bp_set(b, 0x1000, false);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(a), 2U);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(b), 1U);
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
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(a) + uprobe_dbg_test_nr(b), 0U);
	mmput(b);
	mmput(a);
}

/* One address space full of notes leaves another's room intact. */
static void uprobe_dbg_test_bound(struct kunit *test)
{
	struct mm_struct *a = uprobe_dbg_test_mm(test);
	struct mm_struct *b = uprobe_dbg_test_mm(test);
	unsigned long i;

	for (i = 0; i < DBG_MAX_BPS + 16; i++)
		uprobe_dbg_bp_set(a, 0x10000 + i, false);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(a), (unsigned int)DBG_MAX_BPS);
	uprobe_dbg_bp_set(b, 0x1000, true);
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_over(b, 0x1000));
	mmput(b);
	mmput(a);
}

static void uprobe_dbg_test_dup(struct kunit *test)
{
	struct mm_struct *parent = uprobe_dbg_test_mm(test);
	struct mm_struct *child = uprobe_dbg_test_mm(test);
	unsigned long i;

	/* Nothing to copy: nothing copied. */
	uprobe_dbg_bps_dup(parent, child);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(child), 0U);
	for (i = 0; i < 5; i++)
		uprobe_dbg_bp_set(parent, 0x2000 + 16 * i, i & 1);
	uprobe_dbg_bps_dup(parent, child);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(child, 0x2000, 0x2050), 5U);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(parent, 0x2000, 0x2050), 5U);
	/* The copies say what the originals say. */
	KUNIT_EXPECT_FALSE(test, uprobe_dbg_bp_over(child, 0x2000));
	KUNIT_EXPECT_TRUE(test, uprobe_dbg_bp_over(child, 0x2010));
	/* Forgetting the child's leaves the parent's. */
	uprobe_dbg_bps_forget(child, 0, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_count(parent, 0x2000, 0x2050), 5U);
	KUNIT_EXPECT_EQ(test, uprobe_dbg_test_nr(child), 0U);
	mmput(child);
	mmput(parent);
}

/* Trap instructions and their lengths: ours, and longer ones. */
static void uprobe_dbg_test_trap_len(struct kunit *test)
{
#if defined(CONFIG_RISCV) && defined(CONFIG_RISCV_ISA_C)
	static const u8 ebreak[] = { 0x73, 0x00, 0x10, 0x00 };
	static const u8 c_nops[] = { 0x01, 0x00, 0x01, 0x00 };
#elif defined(CONFIG_S390)
	static const u8 dbg_bp[] = { 0x00, 0x01 };
#elif defined(CONFIG_ARM) && defined(CONFIG_CPU_ENDIAN_BE32)
	/* gdb's and ptrace's BREAKINST_ARM, 0xe7f001f0 */
	static const u8 dbg_bp[] = { 0xe7, 0xf0, 0x01, 0xf0 };
#elif defined(CONFIG_ARM)
	static const u8 dbg_bp[] = { 0xf0, 0x01, 0xf0, 0xe7 };
#elif defined(CONFIG_SPARC64)
	static const u8 dbg_bp[] = { 0x91, 0xd0, 0x20, 0x01 };	/* ta 1 */
#endif
	const int s = UPROBE_SWBP_INSN_SIZE;
	uprobe_opcode_t bp = UPROBE_SWBP_INSN;
	u8 buf[sizeof(uprobe_opcode_t)] = {};

	memcpy(buf, &bp, s);
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(buf, sizeof(buf)), s);
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(buf, s), s);
#ifdef CONFIG_X86
	buf[0] = 0x90;				/* nop */
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(buf, sizeof(buf)), 0);
#endif
#if defined(CONFIG_RISCV) && defined(CONFIG_RISCV_ISA_C)
	/* ebreak, a debugger's breakpoint at a 4-byte instruction */
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(ebreak, 4), 4);
	/* Its first half alone, at the end of a page, is none. */
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(ebreak, 2), 0);
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(c_nops, 4), 0);
#endif
#ifdef CONFIG_S390
	/* gdb's breakpoint, not ours (0x0002) */
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(dbg_bp, 2), 2);
#endif
#if defined(CONFIG_ARM) || defined(CONFIG_SPARC64)
	KUNIT_EXPECT_EQ(test, uprobe_trap_len(dbg_bp, 4), 4);
#endif
}

static struct kunit_case uprobe_dbg_test_cases[] = {
	KUNIT_CASE(uprobe_dbg_test_trap_len),
	KUNIT_CASE(uprobe_dbg_test_set_forget),
	KUNIT_CASE(uprobe_dbg_test_bound),
	KUNIT_CASE(uprobe_dbg_test_dup),
	{}
};

static struct kunit_suite uprobe_dbg_test_suite = {
	.name = "uprobes_debugger",
	.test_cases = uprobe_dbg_test_cases,
};

kunit_test_suite(uprobe_dbg_test_suite);
