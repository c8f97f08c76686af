/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the arm64 uprobes out-of-line single-step.
 *
 * Included at the end of xol.c.  The test thread is given a made-up
 * uprobes state for the duration of each case; the step itself is played
 * by moving pc as the CPU would.  Arming the software step touches the
 * saved PSTATE of the test thread (a kernel thread, which never returns
 * to user mode): it is put back afterwards.
 */
#ifndef _ARM64_UPROBES_XOL_KUNIT_H
#define _ARM64_UPROBES_XOL_KUNIT_H

#include <kunit/test.h>
#include <linux/gfp.h>

#define XOL_VADDR	0x412348UL
#define XOL_SLOT	0xffff0040UL
/* a thread.fault_code from before the step */
#define XOL_OLD_ESR	0x12345UL
/* the ESR of a data abort, as a fault in the copy records it */
#define XOL_FAULT_ESR	0x92000046UL

/**
 * struct uprobe_arm64_xol_env - what a case changes in the test thread
 * @utask: the made-up uprobes state
 * @saved_utask: the thread's own
 * @saved_fault_code: its thread.fault_code
 * @saved_pstate: the PSTATE saved in its pt_regs
 * @saved_ss: its TIF_SINGLESTEP
 */
struct uprobe_arm64_xol_env {
	struct uprobe_task	utask;
	struct uprobe_task	*saved_utask;
	unsigned long		saved_fault_code;
	u64			saved_pstate;
	bool			saved_ss;
};

static void uprobe_arm64_xol_enter(struct uprobe_arm64_xol_env *e)
{
	memset(&e->utask, 0, sizeof(e->utask));
	e->utask.state = UTASK_SSTEP;
	e->utask.vaddr = XOL_VADDR;
	e->utask.xol_vaddr = XOL_SLOT;
	e->saved_utask = current->utask;
	e->saved_fault_code = current->thread.fault_code;
	e->saved_pstate = task_pt_regs(current)->pstate;
	e->saved_ss = test_thread_flag(TIF_SINGLESTEP);
	current->utask = &e->utask;
	current->thread.fault_code = XOL_OLD_ESR;
}

static void uprobe_arm64_xol_leave(struct uprobe_arm64_xol_env *e)
{
	current->utask = e->saved_utask;
	current->thread.fault_code = e->saved_fault_code;
	task_pt_regs(current)->pstate = e->saved_pstate;
	if (e->saved_ss)
		set_thread_flag(TIF_SINGLESTEP);
	else
		clear_thread_flag(TIF_SINGLESTEP);
}

/* Analyses @insn (A64) into @au; false if it is refused. */
static bool uprobe_arm64_xol_prepare(struct arch_uprobe *au, u32 insn)
{
	__le32 word = cpu_to_le32(insn);
	const char *reason;

	memset(au, 0, sizeof(*au));
	memcpy(au->insn, &word, sizeof(word));
	return !arch_uprobe_analyze(au, true, &reason);
}

static void uprobe_arm64_xol_regs(struct pt_regs *regs)
{
	memset(regs, 0, sizeof(*regs));
	regs->regs[2] = 0x2222;
	regs->pc = XOL_VADDR;
}

/* A step that completes: pc back after the original, all restored. */
static void uprobe_arm64_xol_step(struct kunit *test)
{
	struct uprobe_arm64_xol_env e;
	struct arch_uprobe au;
	struct pt_regs regs;

	/* add x0, x1, #1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_xol_prepare(&au, 0x91000420));
	uprobe_arm64_xol_regs(&regs);
	uprobe_arm64_xol_enter(&e);
	clear_thread_flag(TIF_SINGLESTEP);

	KUNIT_EXPECT_EQ(test, arch_uprobe_pre_xol(&au, &regs), 0);
	KUNIT_EXPECT_EQ(test, regs.pc, XOL_SLOT);
	KUNIT_EXPECT_TRUE(test, test_thread_flag(TIF_SINGLESTEP));
	/* armed active-not-pending: the step runs one instruction */
	KUNIT_EXPECT_TRUE(test, task_pt_regs(current)->pstate & DBG_SPSR_SS);
	KUNIT_EXPECT_FALSE(test, arch_uprobe_xol_was_trapped(current));

	regs.pc += AARCH64_INSN_SIZE;
	KUNIT_EXPECT_EQ(test, arch_uprobe_post_xol(&au, &regs), 0);
	KUNIT_EXPECT_EQ(test, regs.pc, XOL_VADDR + AARCH64_INSN_SIZE);
	KUNIT_EXPECT_FALSE(test, test_thread_flag(TIF_SINGLESTEP));
	KUNIT_EXPECT_EQ(test, current->thread.fault_code, XOL_OLD_ESR);

	uprobe_arm64_xol_leave(&e);
}

/* The fallback of a literal load: base register loaded, then restored. */
static void uprobe_arm64_xol_ldr_abort(struct kunit *test)
{
	struct uprobe_arm64_xol_env e;
	struct arch_uprobe au;
	struct pt_regs regs;

	/* ldr x2, .-16 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_xol_prepare(&au, 0x58ffff82));
	uprobe_arm64_xol_regs(&regs);
	uprobe_arm64_xol_enter(&e);

	KUNIT_EXPECT_EQ(test, arch_uprobe_pre_xol(&au, &regs), 0);
	KUNIT_EXPECT_EQ(test, regs.regs[2], XOL_VADDR - 16);
	KUNIT_EXPECT_EQ(test, regs.pc, XOL_SLOT);

	/* the thread is killed before the step */
	arch_uprobe_abort_xol(&au, &regs);
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x2222);
	KUNIT_EXPECT_EQ(test, regs.pc, XOL_VADDR);
	KUNIT_EXPECT_FALSE(test, test_thread_flag(TIF_SINGLESTEP));
	KUNIT_EXPECT_EQ(test, current->thread.fault_code, XOL_OLD_ESR);

	uprobe_arm64_xol_leave(&e);
}

/* A copy that faults: seen as trapped, its ESR kept for the signal. */
static void uprobe_arm64_xol_trapped(struct kunit *test)
{
	struct uprobe_arm64_xol_env e;
	struct arch_uprobe au;
	struct pt_regs regs;

	/* ldr x0, [x1] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_xol_prepare(&au, 0xf9400020));
	uprobe_arm64_xol_regs(&regs);
	uprobe_arm64_xol_enter(&e);

	KUNIT_EXPECT_EQ(test, arch_uprobe_pre_xol(&au, &regs), 0);
	current->thread.fault_code = XOL_FAULT_ESR;
	KUNIT_EXPECT_TRUE(test, arch_uprobe_xol_was_trapped(current));
	arch_uprobe_abort_xol(&au, &regs);
	KUNIT_EXPECT_EQ(test, regs.pc, XOL_VADDR);
	KUNIT_EXPECT_EQ(test, current->thread.fault_code, XOL_FAULT_ESR);

	uprobe_arm64_xol_leave(&e);
}

/* A debugger single-steps: its flag stays, its stop comes right after. */
static void uprobe_arm64_xol_user_step(struct kunit *test)
{
	struct uprobe_arm64_xol_env e;
	struct arch_uprobe au;
	struct pt_regs regs;

	/* add x0, x1, #1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_xol_prepare(&au, 0x91000420));
	uprobe_arm64_xol_regs(&regs);
	uprobe_arm64_xol_enter(&e);
	set_thread_flag(TIF_SINGLESTEP);
	task_pt_regs(current)->pstate &= ~DBG_SPSR_SS;

	KUNIT_EXPECT_EQ(test, arch_uprobe_pre_xol(&au, &regs), 0);
	KUNIT_EXPECT_TRUE(test, e.utask.autask.user_step);
	KUNIT_EXPECT_TRUE(test, task_pt_regs(current)->pstate & DBG_SPSR_SS);

	regs.pc += AARCH64_INSN_SIZE;
	KUNIT_EXPECT_EQ(test, arch_uprobe_post_xol(&au, &regs), 0);
	KUNIT_EXPECT_TRUE(test, test_thread_flag(TIF_SINGLESTEP));
	/* active-pending: the debugger's stop, before the next insn */
	KUNIT_EXPECT_FALSE(test, task_pt_regs(current)->pstate & DBG_SPSR_SS);

	uprobe_arm64_xol_leave(&e);
}

/* The copy lands at its slot's offset in the page, nothing else moves. */
static void uprobe_arm64_xol_copy(struct kunit *test)
{
	__le32 insn = cpu_to_le32(0x91000420), zero = 0;
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	u8 *kaddr;

	KUNIT_ASSERT_NOT_NULL(test, page);
	arch_uprobe_copy_ixol(page, XOL_SLOT, &insn, sizeof(insn));
	kaddr = kmap_local_page(page);
	KUNIT_EXPECT_MEMEQ(test, kaddr + offset_in_page(XOL_SLOT), &insn,
			   sizeof(insn));
	KUNIT_EXPECT_MEMEQ(test, kaddr + offset_in_page(XOL_SLOT) +
			   sizeof(insn), &zero, sizeof(zero));
	KUNIT_EXPECT_MEMEQ(test, kaddr, &zero, sizeof(zero));
	kunmap_local(kaddr);
	__free_page(page);
}

#undef XOL_VADDR
#undef XOL_SLOT
#undef XOL_OLD_ESR
#undef XOL_FAULT_ESR

static struct kunit_case uprobe_arm64_xol_test_cases[] = {
	KUNIT_CASE(uprobe_arm64_xol_step),
	KUNIT_CASE(uprobe_arm64_xol_ldr_abort),
	KUNIT_CASE(uprobe_arm64_xol_trapped),
	KUNIT_CASE(uprobe_arm64_xol_user_step),
	KUNIT_CASE(uprobe_arm64_xol_copy),
	{}
};

static struct kunit_suite uprobe_arm64_xol_suite = {
	.name = "uprobes_arm64_xol",
	.test_cases = uprobe_arm64_xol_test_cases,
};

kunit_test_suite(uprobe_arm64_xol_suite);

#endif /* _ARM64_UPROBES_XOL_KUNIT_H */
