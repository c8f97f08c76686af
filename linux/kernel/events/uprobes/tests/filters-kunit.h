/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the uprobes task filters.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/sched/mm.h>

static void uprobe_filters_test_ids(struct kunit *test)
{
	struct task_struct *t = current;
	struct uprobe_task_filter f;

	f = (struct uprobe_task_filter){ UPROBE_FILTER_PID, task_tgid_nr(t) };
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match(&f, t));
	f.nr++;
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match(&f, t));

	f = (struct uprobe_task_filter){ UPROBE_FILTER_TID, task_pid_nr(t) };
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match(&f, t));
	f.nr = -1;
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match(&f, t));

	rcu_read_lock();
	f = (struct uprobe_task_filter){ UPROBE_FILTER_PPID,
		task_tgid_nr(rcu_dereference(t->real_parent)) };
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match(&f, t));
	f.nr = task_tgid_nr(t);
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match(&f, t));

	f = (struct uprobe_task_filter){ UPROBE_FILTER_SID,
		pid_nr(task_session(t)) };
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match(&f, t));
	f.nr = 0x7ffffff0;
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match(&f, t));
}

/*
 * An address space matches through the tasks using it: borrow a fresh one
 * for the test thread, which then is its only user.
 */
static void uprobe_filters_test_mm(struct kunit *test)
{
	struct uprobe_task_filter f;
	struct mm_struct *mm, *other;

	mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, mm);
	other = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, other);
	kthread_use_mm(mm);

	f = (struct uprobe_task_filter){ UPROBE_FILTER_PID,
		task_tgid_nr(current) };
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match_mm(&f, mm));
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match_mm(&f, other));
	f.kind = UPROBE_FILTER_TID;
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match_mm(&f, mm));
	f.nr = 1;
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match_mm(&f, mm));
	f = (struct uprobe_task_filter){ UPROBE_FILTER_SID,
		pid_nr(task_session(current)) };
	KUNIT_EXPECT_TRUE(test, uprobe_task_filter_match_mm(&f, mm));
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match_mm(&f, other));
	f.nr = 0x7ffffff0;
	KUNIT_EXPECT_FALSE(test, uprobe_task_filter_match_mm(&f, mm));

	kthread_unuse_mm(mm);
	mmput(other);
	mmput(mm);
}

static struct kunit_case uprobe_filters_test_cases[] = {
	KUNIT_CASE(uprobe_filters_test_ids),
	KUNIT_CASE(uprobe_filters_test_mm),
	{}
};

static struct kunit_suite uprobe_filters_test_suite = {
	.name = "uprobes_filters",
	.test_cases = uprobe_filters_test_cases,
};

kunit_test_suite(uprobe_filters_test_suite);
