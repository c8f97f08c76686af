// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: simple task filters for kernel consumers.
 *
 * A consumer that only cares about one process, thread, parent or session
 * embeds a &struct uprobe_task_filter and calls
 * uprobe_task_filter_match_mm() from its ->filter() (so the breakpoint is
 * only inserted where a matching task runs) and uprobe_task_filter_match()
 * from its ->handler() (to ignore other threads of a shared address space).
 * Ids are those of the initial pid namespace.
 */
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uprobes.h>

/**
 * uprobe_task_filter_match() - does a task match a filter?
 * @f: the filter
 * @t: the task
 *
 * Return: true when @t's id of the filter's kind equals the filter's.
 */
bool uprobe_task_filter_match(const struct uprobe_task_filter *f,
			      struct task_struct *t)
{
	pid_t nr;

	switch (f->kind) {
	case UPROBE_FILTER_PID:
		return task_tgid_nr(t) == f->nr;
	case UPROBE_FILTER_TID:
		return task_pid_nr(t) == f->nr;
	case UPROBE_FILTER_PPID:
		rcu_read_lock();
		nr = task_tgid_nr(rcu_dereference(t->real_parent));
		rcu_read_unlock();
		return nr == f->nr;
	case UPROBE_FILTER_SID:
		return pid_nr(task_session(t)) == f->nr;
	}
	return false;
}
EXPORT_SYMBOL_GPL(uprobe_task_filter_match);

/**
 * uprobe_task_filter_match_mm() - does a task of an address space match?
 * @f: the filter
 * @mm: the address space
 *
 * Return: true when a task using @mm matches @f.
 */
bool uprobe_task_filter_match_mm(const struct uprobe_task_filter *f,
				 struct mm_struct *mm)
{
	struct task_struct *p, *t;
	bool match = false;

	rcu_read_lock();
	if (f->kind == UPROBE_FILTER_PID || f->kind == UPROBE_FILTER_TID) {
		t = pid_task(find_pid_ns(f->nr, &init_pid_ns), PIDTYPE_PID);
		match = t && t->mm == mm && uprobe_task_filter_match(f, t);
		goto out;
	}
	for_each_process_thread(p, t) {
		if (t->mm == mm && uprobe_task_filter_match(f, t)) {
			match = true;
			goto out;
		}
	}
out:
	rcu_read_unlock();
	return match;
}
EXPORT_SYMBOL_GPL(uprobe_task_filter_match_mm);

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/filters-kunit.h"
#endif
