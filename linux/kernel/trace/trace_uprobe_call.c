// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events: the trace event class.
 *
 * Describes the record (format file), prints it, and turns enabling and
 * disabling the event (by ftrace instances or by perf) into registering
 * and unregistering our consumer with the uprobes engine. For perf events
 * bound to a task, and for definitions with a task filter, the consumer's
 * filter limits the breakpoints to the address spaces that have a task
 * to trace.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/dcache.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#include "trace_uprobe_events.h"

static enum print_line_t print_uprobe_event(struct trace_iterator *iter,
					    int flags,
					    struct trace_event *event)
{
	struct uprobe_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	struct trace_uprobe *tu;

	tu = trace_uprobe_from_call(container_of(event, struct trace_event_call,
						 event));
	if (WARN_ON_ONCE(!tu))
		goto out;

	if (tu->is_return)
		trace_seq_printf(s, "%s: (0x%lx <- 0x%lx)",
				 trace_probe_name(&tu->tp),
				 entry->vaddr[1], entry->vaddr[0]);
	else
		trace_seq_printf(s, "%s: (0x%lx)", trace_probe_name(&tu->tp),
				 entry->vaddr[0]);

	if (trace_probe_print_args(s, tu->tp.args, tu->tp.nr_args,
				   (u8 *)entry + trace_uprobe_head_size(tu),
				   entry) < 0)
		goto out;
	trace_seq_putc(s, '\n');
out:
	return trace_handle_return(s);
}

static int uprobe_event_define_fields(struct trace_event_call *event_call)
{
	struct trace_uprobe *tu = trace_uprobe_from_call(event_call);
	struct uprobe_trace_entry_head field;
	int ret;

	if (WARN_ON_ONCE(!tu))
		return -ENODEV;

	if (tu->is_return) {
		DEFINE_FIELD(unsigned long, vaddr[0], FIELD_STRING_FUNC, 0);
		DEFINE_FIELD(unsigned long, vaddr[1], FIELD_STRING_RETIP, 0);
	} else {
		DEFINE_FIELD(unsigned long, vaddr[0], FIELD_STRING_IP, 0);
	}
	return traceprobe_define_arg_fields(event_call,
					    trace_uprobe_head_size(tu), &tu->tp);
}

/* Consumer filter of a definition with a task filter, used by ftrace. */
static bool task_filter_wants_mm(struct uprobe_consumer *uc,
				 struct mm_struct *mm)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe,
					       consumer);

	return uprobe_task_filter_match_mm(&tu->task_filter, mm);
}

/* The consumer filter of @tu, with perf (@perf) or ftrace using it. */
static void set_consumer_filter(struct trace_uprobe *tu, bool perf)
{
	if (perf)
		tu->consumer.filter = trace_uprobe_perf_filter;
	else if (tu->has_task_filter)
		tu->consumer.filter = task_filter_wants_mm;
	else
		tu->consumer.filter = NULL;
}

/* Register every location of the event with the engine. */
static int arm_probes(struct trace_probe *tp, bool perf)
{
	struct trace_uprobe *tu;
	struct uprobe *uprobe;

	list_for_each_entry(tu, trace_probe_probe_list(tp), tp.list) {
		set_consumer_filter(tu, perf);
		uprobe = uprobe_register_file(d_real_inode(tu->path.dentry),
					      tu->file, tu->offset,
					      tu->ref_ctr_offset,
					      &tu->consumer);
		if (IS_ERR(uprobe))
			return PTR_ERR(uprobe);
		tu->uprobe = uprobe;
	}
	return 0;
}

/* Is any location of the event registered with the engine? */
static bool probes_armed(struct trace_probe *tp)
{
	struct trace_uprobe *tu;

	list_for_each_entry(tu, trace_probe_probe_list(tp), tp.list)
		if (tu->uprobe)
			return true;
	return false;
}

/*
 * Unregister what arm_probes() registered, without waiting for the handlers
 * in flight. Return: whether anything was registered.
 */
static bool unregister_probes(struct trace_probe *tp)
{
	struct trace_uprobe *tu;
	bool armed = false;

	list_for_each_entry(tu, trace_probe_probe_list(tp), tp.list) {
		if (!tu->uprobe)
			continue;
		uprobe_unregister_nosync(tu->uprobe, &tu->consumer);
		tu->uprobe = NULL;
		armed = true;
	}
	return armed;
}

/* Unregister what arm_probes() registered and wait for running handlers. */
static void disarm_probes(struct trace_probe *tp)
{
	if (unregister_probes(tp))
		uprobe_unregister_sync();
}

/**
 * trace_uprobe_arm_appended - register a location added to an enabled event
 * @tu: the new location, already appended to its event's probe list
 *
 * An event that is in use when a further location is defined for it must
 * trace that location too. Called with event_mutex held.
 *
 * Return: 0, or the engine's error for @tu (it then stays unregistered).
 */
int trace_uprobe_arm_appended(struct trace_uprobe *tu)
{
	struct uprobe *uprobe;
	bool perf;

	lockdep_assert_held(&event_mutex);
	if (!trace_probe_is_enabled(&tu->tp))
		return 0;

	perf = trace_probe_test_flag(&tu->tp, TP_FLAG_PROFILE);
	set_consumer_filter(tu, perf);
	uprobe = uprobe_register_file(d_real_inode(tu->path.dentry), tu->file,
				      tu->offset, tu->ref_ctr_offset,
				      &tu->consumer);
	if (IS_ERR(uprobe))
		return PTR_ERR(uprobe);
	tu->uprobe = uprobe;
	return 0;
}

/*
 * Enable the event for an ftrace instance (@file) or for perf (@file is
 * NULL). The two are exclusive, as the consumer filter differs.
 */
static int uprobe_event_enable(struct trace_event_call *call,
			       struct trace_event_file *file)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	bool was_enabled;
	int ret;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	was_enabled = trace_probe_is_enabled(tp);

	if (file) {
		if (trace_probe_test_flag(tp, TP_FLAG_PROFILE))
			return -EINTR;
		ret = trace_probe_add_file(tp, file);
		if (ret)
			return ret;
	} else {
		if (trace_probe_test_flag(tp, TP_FLAG_TRACE))
			return -EINTR;
		trace_probe_set_flag(tp, TP_FLAG_PROFILE);
	}
	if (was_enabled)
		return 0;

	ret = trace_uprobe_scratch_get();
	if (ret)
		goto undo_flag;
	/*
	 * For perf, uprobe_perf_open() follows under event_mutex and arms the
	 * probes once its event is in the filter: one walk of the address
	 * spaces instead of an empty one here and another there.
	 */
	if (!file)
		return 0;
	ret = arm_probes(tp, false);
	if (ret) {
		disarm_probes(tp);
		trace_uprobe_scratch_put();
		goto undo_flag;
	}
	return 0;

undo_flag:
	if (file)
		trace_probe_remove_file(tp, file);
	else
		trace_probe_clear_flag(tp, TP_FLAG_PROFILE);
	return ret;
}

static void uprobe_event_disable(struct trace_event_call *call,
				 struct trace_event_file *file)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);

	if (WARN_ON_ONCE(!tp) || !trace_probe_is_enabled(tp))
		return;

	if (file) {
		if (trace_probe_remove_file(tp, file) < 0 ||
		    trace_probe_is_enabled(tp))
			return;
	} else {
		trace_probe_clear_flag(tp, TP_FLAG_PROFILE);
	}
	disarm_probes(tp);
	trace_uprobe_scratch_put();
}

/* Does a task-bound perf event of @filter watch @mm? Lock held. */
static bool perf_watches_mm(struct trace_uprobe_filter *filter,
			    struct mm_struct *mm)
{
	struct perf_event *event;

	list_for_each_entry(event, &filter->perf_events, hw.tp_list)
		if (event->hw.target->mm == mm)
			return true;
	return false;
}

/**
 * trace_uprobe_perf_filter - consumer filter while perf uses the event
 * @uc: the consumer embedded in a &struct trace_uprobe
 * @mm: an address space the engine considers installing breakpoints in
 *
 * Return: true if a system-wide perf event uses the event or a perf event
 * bound to a task of @mm does, and the definition's task filter, if any,
 * matches a task of @mm.
 */
bool trace_uprobe_perf_filter(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);
	struct trace_uprobe_filter *filter = tu->tp.event->filter;
	bool ret;

	if (tu->has_task_filter &&
	    !uprobe_task_filter_match_mm(&tu->task_filter, mm))
		return false;
	if (READ_ONCE(filter->nr_systemwide))
		return true;

	read_lock(&filter->rwlock);
	ret = perf_watches_mm(filter, mm);
	read_unlock(&filter->rwlock);
	return ret;
}

/* Ask the engine to re-evaluate the filter of every location. */
static int reapply_filter(struct trace_probe *tp, bool add)
{
	struct trace_uprobe *tu;
	int ret;

	list_for_each_entry(tu, trace_probe_probe_list(tp), tp.list) {
		ret = uprobe_apply(tu->uprobe, &tu->consumer, add);
		if (ret)
			return ret;
	}
	return 0;
}

static int uprobe_perf_close(struct trace_event_call *call,
			     struct perf_event *event)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	struct trace_uprobe_filter *filter;
	struct task_struct *target;
	bool still_covered, last;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	filter = tp->event->filter;
	target = event->hw.target;

	write_lock(&filter->rwlock);
	if (target) {
		list_del(&event->hw.tp_list);
		still_covered = filter->nr_systemwide ||
				(READ_ONCE(target->flags) & PF_EXITING) ||
				perf_watches_mm(filter, target->mm);
	} else {
		still_covered = --filter->nr_systemwide > 0;
	}
	last = !filter->nr_systemwide && list_empty(&filter->perf_events);
	write_unlock(&filter->rwlock);

	/*
	 * Without perf events left the probes are unregistered here, in one
	 * walk; uprobe_event_disable(), which follows under event_mutex,
	 * finds nothing left to remove.
	 *
	 * A perf-local event is not waited for: nothing can arm it again,
	 * record_to_perf() looks at perf's buffers only while TP_FLAG_PROFILE
	 * is set (perf frees them an RCU grace period after clearing it), and
	 * destroy_local_trace_uprobe() frees the event once its handlers in
	 * flight have returned. The close saves an SRCU grace period.
	 */
	if (last) {
		if (container_of(tp, struct trace_uprobe, tp)->local)
			unregister_probes(tp);
		else
			disarm_probes(tp);
		return 0;
	}
	return still_covered ? 0 : reapply_filter(tp, false);
}

static int uprobe_perf_open(struct trace_event_call *call,
			    struct perf_event *event)
{
	struct trace_probe *tp = trace_probe_primary_from_call(call);
	struct trace_uprobe_filter *filter;
	struct task_struct *target;
	bool covered, armed;
	int ret;

	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	filter = tp->event->filter;
	target = event->hw.target;

	write_lock(&filter->rwlock);
	if (target) {
		/*
		 * An inherited event's mm is a fork of a probed one, which
		 * keeps its breakpoints; enable_on_exec events get theirs
		 * installed when the new image is mapped.
		 */
		covered = filter->nr_systemwide || event->parent ||
			  event->attr.enable_on_exec ||
			  perf_watches_mm(filter, target->mm);
		list_add(&event->hw.tp_list, &filter->perf_events);
	} else {
		covered = filter->nr_systemwide++ > 0;
	}
	write_unlock(&filter->rwlock);

	armed = probes_armed(tp);
	if (armed && covered)
		return 0;
	/* The first perf event arms the probes: see uprobe_event_enable(). */
	ret = armed ? reapply_filter(tp, true) :
		      arm_probes(tp, true);
	if (ret)
		uprobe_perf_close(call, event);
	return ret;
}

static int uprobe_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	switch (type) {
	case TRACE_REG_REGISTER:
		return uprobe_event_enable(call, data);
	case TRACE_REG_UNREGISTER:
		uprobe_event_disable(call, data);
		return 0;
	case TRACE_REG_PERF_REGISTER:
		return uprobe_event_enable(call, NULL);
	case TRACE_REG_PERF_UNREGISTER:
		uprobe_event_disable(call, NULL);
		return 0;
	case TRACE_REG_PERF_OPEN:
		return uprobe_perf_open(call, data);
	case TRACE_REG_PERF_CLOSE:
		return uprobe_perf_close(call, data);
	default:
		return 0;
	}
}

static struct trace_event_functions uprobe_event_funcs = {
	.trace	= print_uprobe_event,
};

static struct trace_event_fields uprobe_event_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = uprobe_event_define_fields },
	{}
};

/**
 * trace_uprobe_init_call - set up the event call of a new uprobe event
 * @tu: the event's first (primary) location
 *
 * Also initialises the per-mm filter perf uses.
 */
void trace_uprobe_init_call(struct trace_uprobe *tu)
{
	struct trace_event_call *call = trace_probe_event_call(&tu->tp);
	struct trace_uprobe_filter *filter = tu->tp.event->filter;

	rwlock_init(&filter->rwlock);
	filter->nr_systemwide = 0;
	INIT_LIST_HEAD(&filter->perf_events);

	call->event.funcs = &uprobe_event_funcs;
	call->class->fields_array = uprobe_event_fields;
	call->class->reg = uprobe_event_reg;
	call->flags = TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_CAP_ANY;
}
