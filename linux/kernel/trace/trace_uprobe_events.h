/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uprobe-based dynamic events: definitions shared by the parts of the
 * tracer (definition parsing and tracefs files, the trace event class,
 * and the hit path that records events).
 */
#ifndef _TRACE_UPROBE_EVENTS_H
#define _TRACE_UPROBE_EVENTS_H

#include <linux/llist.h>
#include <linux/path.h>
#include <linux/uprobes.h>

#include "trace_dynevent.h"
#include "trace_probe.h"

#define UPROBE_EVENT_SYSTEM	"uprobes"

/**
 * struct trace_uprobe - one probe location of a uprobe event
 * @devent: entry in the dynamic event list
 * @consumer: our consumer of the engine's probe at @path:@offset
 * @path: the probed file, pinned for the lifetime of the definition
 * @file: the probed file held open read-only (one struct file per inode,
 *        shared by every definition on it), or NULL: some filesystems
 *        (9p) read a page into the page cache only for an open file, and
 *        the engine reads the probed instruction before any process may
 *        have mapped or opened it
 * @filename: the file name as the user wrote it (shown back verbatim)
 * @uprobe: the engine's probe while the event is enabled, else NULL
 * @offset: file offset of the probed instruction
 * @ref_ctr_offset: file offset of the SDT semaphore, 0 if none
 * @nhits: per-CPU count of breakpoint hits, shown in uprobe_profile
 * @reap: entry in the list of perf-local events freed once their handlers
 *        in flight have returned, see destroy_local_trace_uprobe()
 * @task_filter: the definition's "if KIND==ID" clause, valid when
 *               @has_task_filter: only the tasks it matches are traced,
 *               and the breakpoint goes only into their address spaces
 * @is_return: this is a return probe (records on function return)
 * @args_in_regs: no argument reads memory, see trace_uprobe_args_in_regs()
 * @local: made by create_local_trace_uprobe() for one perf event of perf's
 *         uprobe PMU, never listed in uprobe_events nor armed twice
 * @has_task_filter: the definition has a task filter
 * @tp: the generic probe: event call, arguments (must be last)
 *
 * Several trace_uprobes may share one event (same GRP/EVENT defined on
 * more than one location); they are then linked on @tp's probe list.
 */
struct trace_uprobe {
	struct dyn_event		devent;
	struct uprobe_consumer		consumer;
	struct path			path;
	struct file			*file;
	char				*filename;
	struct uprobe			*uprobe;
	unsigned long			offset;
	unsigned long			ref_ctr_offset;
	unsigned long __percpu		*nhits;
	struct llist_node		reap;
	struct uprobe_task_filter	task_filter;
	bool				is_return;
	bool				args_in_regs;
	bool				local;
	bool				has_task_filter;
	struct trace_probe		tp;
};

/**
 * struct uprobe_trace_entry_head - fixed head of a recorded uprobe event
 * @ent: common trace entry header
 * @vaddr: probe address; for return probes the function address followed
 *         by the return address
 *
 * The fetched arguments follow @vaddr. The layout is the one user space
 * knows from the events' format files.
 */
struct uprobe_trace_entry_head {
	struct trace_entry	ent;
	unsigned long		vaddr[];
};

/**
 * trace_uprobe_head_size - size of the fixed part of a recorded event
 * @tu: the probe
 *
 * Return: bytes before the first fetched argument.
 */
static __always_inline size_t
trace_uprobe_head_size(const struct trace_uprobe *tu)
{
	/* one address, two for a return probe: no overflow to check */
	return sizeof(struct uprobe_trace_entry_head) +
	       (tu->is_return ? 2 : 1) * sizeof(unsigned long);
}

/**
 * trace_uprobe_from_call - first probe location of an event
 * @call: the event call of a uprobe event
 *
 * Return: the primary trace_uprobe, or NULL if the event has none.
 */
static inline struct trace_uprobe *
trace_uprobe_from_call(struct trace_event_call *call)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	return tp ? container_of(tp, struct trace_uprobe, tp) : NULL;
}

/* trace_uprobe_events.c: definitions of uprobe events */
extern struct dyn_event_operations trace_uprobe_ops;
int trace_uprobe_run_command(const char *raw_command);

/**
 * is_trace_uprobe - is this dynamic event a uprobe event?
 * @ev: any dynamic event
 *
 * Return: true if @ev is embedded in a &struct trace_uprobe.
 */
static inline bool is_trace_uprobe(struct dyn_event *ev)
{
	return ev->ops == &trace_uprobe_ops;
}

/**
 * to_trace_uprobe - the uprobe event a dynamic event belongs to
 * @ev: a dynamic event for which is_trace_uprobe() is true
 *
 * Return: the containing &struct trace_uprobe.
 */
static inline struct trace_uprobe *to_trace_uprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_uprobe, devent);
}

/* trace_uprobe_call.c: the trace event class of uprobe events */
void trace_uprobe_init_call(struct trace_uprobe *tu);
int trace_uprobe_arm_appended(struct trace_uprobe *tu);
bool trace_uprobe_perf_filter(struct uprobe_consumer *uc, struct mm_struct *mm);

/**
 * trace_uprobe_traces_task - does a definition trace a task?
 * @tu: the definition
 * @t: the task that hit its probe
 *
 * Return: false when the definition's task filter does not match @t.
 */
static inline bool trace_uprobe_traces_task(const struct trace_uprobe *tu,
					    struct task_struct *t)
{
	return !tu->has_task_filter ||
	       uprobe_task_filter_match(&tu->task_filter, t);
}

/* trace_uprobe_record.c: what runs when a probe is hit */
int trace_uprobe_scratch_get(void);
void trace_uprobe_scratch_put(void);
bool trace_uprobe_args_in_regs(struct trace_probe *tp);
int trace_uprobe_hit(struct uprobe_consumer *uc, struct pt_regs *regs,
		     __u64 *data);
int trace_uprobe_ret_hit(struct uprobe_consumer *uc, unsigned long func,
			 struct pt_regs *regs, __u64 *data);

#endif /* _TRACE_UPROBE_EVENTS_H */
