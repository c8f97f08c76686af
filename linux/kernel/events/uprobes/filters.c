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
#include <linux/sched/task.h>
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

/* Does @p's thread group use @mm? Its threads share one, or none left. */
static bool uprobe_group_uses_mm(struct task_struct *p, struct mm_struct *mm)
{
	struct task_struct *t;

	for_each_thread(p, t) {
		struct mm_struct *tmm = READ_ONCE(t->mm);

		if (tmm)
			return tmm == mm;
	}
	return false;
}

/* The process of id @nr, found by its thread group (its leader may be gone). */
static struct task_struct *uprobe_filter_group(pid_t nr)
{
	return pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_TGID);
}

/* A child process of parent @nr using @mm: only the parent's children. */
static bool uprobe_child_uses_mm(pid_t nr, struct mm_struct *mm)
{
	struct task_struct *parent, *pt, *child;
	bool match = false;

	read_lock(&tasklist_lock);
	parent = uprobe_filter_group(nr);
	if (parent) {
		for_each_thread(parent, pt) {
			list_for_each_entry(child, &pt->children, sibling) {
				match = uprobe_group_uses_mm(child, mm);
				if (match)
					goto out;
			}
		}
	}
out:
	read_unlock(&tasklist_lock);
	return match;
}

/* A process of session @nr using @mm: only the session's processes. */
static bool uprobe_session_uses_mm(pid_t nr, struct mm_struct *mm)
{
	struct task_struct *p;
	bool match = false;

	rcu_read_lock();
	do_each_pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_SID, p) {
		match = uprobe_group_uses_mm(p, mm);
		if (match)
			goto out;
	} while_each_pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_SID, p);
out:
	rcu_read_unlock();
	return match;
}

/* The kernel's session or children (id 0) are found by a full scan. */
static bool uprobe_any_task_uses_mm(const struct uprobe_task_filter *f,
				    struct mm_struct *mm)
{
	struct task_struct *p, *t;
	bool match = false;

	rcu_read_lock();
	for_each_process_thread(p, t) {
		if (t->mm == mm && uprobe_task_filter_match(f, t)) {
			match = true;
			break;
		}
	}
	rcu_read_unlock();
	return match;
}

/**
 * uprobe_task_filter_match_mm() - does a task of an address space match?
 * @f: the filter
 * @mm: the address space
 *
 * Only the tasks the filter names are looked at: the process (by its
 * thread group, so a process whose first thread exited still matches),
 * the thread, the parent's children or the session's processes.
 *
 * Return: true when a task using @mm matches @f.
 */
bool uprobe_task_filter_match_mm(const struct uprobe_task_filter *f,
				 struct mm_struct *mm)
{
	struct task_struct *t;
	bool match = false;

	if ((f->kind == UPROBE_FILTER_PPID || f->kind == UPROBE_FILTER_SID) &&
	    !f->nr)
		return uprobe_any_task_uses_mm(f, mm);
	if (f->kind == UPROBE_FILTER_PPID)
		return uprobe_child_uses_mm(f->nr, mm);
	if (f->kind == UPROBE_FILTER_SID)
		return uprobe_session_uses_mm(f->nr, mm);

	rcu_read_lock();
	if (f->kind == UPROBE_FILTER_PID) {
		t = uprobe_filter_group(f->nr);
		match = t && uprobe_group_uses_mm(t, mm);
	} else if (f->kind == UPROBE_FILTER_TID) {
		t = pid_task(find_pid_ns(f->nr, &init_pid_ns), PIDTYPE_PID);
		match = t && READ_ONCE(t->mm) == mm;
	}
	rcu_read_unlock();
	return match;
}
EXPORT_SYMBOL_GPL(uprobe_task_filter_match_mm);

#ifdef CONFIG_UPROBES_KUNIT_TEST
#include "tests/filters-kunit.h"
#endif
