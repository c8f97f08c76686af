// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events: the hit path.
 *
 * The engine calls our consumer in the context of the task that hit the
 * probe, with preemption enabled, so the fetch arguments are read from the
 * task's memory with the ordinary, faulting user-copy helpers. Because a
 * fault may sleep, arguments are fetched into a per-CPU scratch page that
 * a mutex protects (we may migrate while we hold it), and only then copied
 * into the ring buffer or the perf buffer, where sleeping is not allowed.
 *
 * Events whose arguments never touch memory (registers, constants,
 * addresses) cannot fault: when only the trace files want them, they are
 * fetched straight into the reserved ring buffer record, without the
 * scratch page, its mutex and the copy.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate_trace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "trace_uprobe_events.h"
#include "trace_probe_tmpl.h"

#define SCRATCH_SIZE	PAGE_SIZE

struct uprobe_scratch {
	struct mutex	lock;	/* owns @buf while one hit is recorded */
	void		*buf;
};

/*
 * Allocated while any uprobe event is enabled and freed some time after
 * the last one is disabled, once no handler can be using it; written under
 * event_mutex, read by handlers (which may see NULL after a disable).
 */
static struct uprobe_scratch __percpu *scratch;
static unsigned int scratch_users;

/* What a fetch instruction needs to know about the hit being recorded. */
struct uprobe_fetch_ctx {
	struct pt_regs	*regs;
	unsigned long	load_base;	/* user address of file offset 0 */
};

static void scratch_free(struct uprobe_scratch __percpu *pages)
{
	int cpu;

	for_each_possible_cpu(cpu)
		free_page((unsigned long)per_cpu_ptr(pages, cpu)->buf);
	free_percpu(pages);
}

static struct uprobe_scratch __percpu *scratch_alloc(void)
{
	struct uprobe_scratch __percpu *pages;
	int cpu;

	pages = alloc_percpu(struct uprobe_scratch);
	if (!pages)
		return NULL;
	for_each_possible_cpu(cpu) {
		struct uprobe_scratch *s = per_cpu_ptr(pages, cpu);
		struct page *page;

		mutex_init(&s->lock);
		page = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL, 0);
		if (!page) {
			scratch_free(pages);
			return NULL;
		}
		s->buf = page_address(page);
	}
	return pages;
}

/*
 * Events may be disabled without waiting for their handlers (perf-local
 * ones, see uprobe_perf_close()): the pages are taken away first, so that
 * handlers starting later see NULL, and freed after the engine's grace
 * period. Pages in use again by then are kept.
 */
static void scratch_reap(struct work_struct *work)
{
	struct uprobe_scratch __percpu *pages = NULL;

	mutex_lock(&event_mutex);
	if (!scratch_users) {
		pages = scratch;
		WRITE_ONCE(scratch, NULL);
	}
	mutex_unlock(&event_mutex);
	if (!pages)
		return;
	uprobe_unregister_sync();
	scratch_free(pages);
}

static DECLARE_WORK(scratch_reap_work, scratch_reap);

/**
 * trace_uprobe_scratch_get - make sure the per-CPU scratch pages exist
 *
 * Called with event_mutex held before an event's probes are registered.
 *
 * Return: 0 or -ENOMEM.
 */
int trace_uprobe_scratch_get(void)
{
	struct uprobe_scratch __percpu *pages;

	lockdep_assert_held(&event_mutex);
	if (!scratch) {
		pages = scratch_alloc();
		if (!pages)
			return -ENOMEM;
		WRITE_ONCE(scratch, pages);
	}
	scratch_users++;
	return 0;
}

/**
 * trace_uprobe_scratch_put - drop a reference to the scratch pages
 *
 * Called with event_mutex held once an event's probes are unregistered.
 * The last reference frees the pages later, once no handler can be using
 * them.
 */
void trace_uprobe_scratch_put(void)
{
	lockdep_assert_held(&event_mutex);
	if (!WARN_ON_ONCE(!scratch_users) && !--scratch_users)
		schedule_work(&scratch_reap_work);
}

/*
 * The helpers trace_probe_tmpl.h expects. Every address an argument of a
 * uprobe event refers to is a user address of the current task.
 */
static nokprobe_inline int probe_mem_read(void *dest, void *src, size_t size)
{
	return copy_from_user(dest, (void __user __force *)src, size) ?
		-EFAULT : 0;
}

static nokprobe_inline int
probe_mem_read_user(void *dest, void *src, size_t size)
{
	return probe_mem_read(dest, src, size);
}

/* Length of the user string at @addr, its NUL included; 0 on a fault. */
static nokprobe_inline int fetch_store_strlen(unsigned long addr)
{
	long len = strnlen_user((const char __user __force *)addr,
				MAX_STRING_SIZE);

	return len > MAX_STRING_SIZE ? 0 : len;
}

static nokprobe_inline int fetch_store_strlen_user(unsigned long addr)
{
	return fetch_store_strlen(addr);
}

/*
 * Copy the user string at @addr into the data area *@dest points to; a
 * fault leaves an empty string, which prints as the "(fault)" marker.
 */
static nokprobe_inline int
fetch_store_string(unsigned long addr, void *dest, void *base)
{
	u32 room = get_loc_len(*(u32 *)dest);
	char *to = get_loc_data(dest, base);
	long len;

	if (!room)
		return -ENOMEM;
	len = strncpy_from_user(to, (const char __user __force *)addr, room);
	if (len < 0) {
		*(u32 *)dest = make_data_loc(0, (void *)to - base);
		return len;
	}
	if (len == room)
		to[--len] = '\0';	/* truncated */
	*(u32 *)dest = make_data_loc(len + 1, (void *)to - base);
	return len + 1;
}

static nokprobe_inline int
fetch_store_string_user(unsigned long addr, void *dest, void *base)
{
	return fetch_store_string(addr, dest, base);
}

/*
 * $comm and immediate strings live in kernel memory: store them here
 * rather than through the user-memory string helpers.
 */
static int fetch_kernel_string(const char *str, void *dest, void *base)
{
	u32 room;
	char *to;
	ssize_t len;

	if (!dest)
		return strlen(str) + 1;
	room = get_loc_len(*(u32 *)dest);
	if (!room)
		return -ENOMEM;
	to = get_loc_data(dest, base);
	len = strscpy(to, str, room);
	len = len < 0 ? room : len + 1;
	*(u32 *)dest = make_data_loc(len, (void *)to - base);
	return len;
}

/* Slot @n of the user stack (0 is the word at the stack pointer). */
static unsigned long user_stack_slot(struct pt_regs *regs, unsigned int n)
{
	unsigned long sp = user_stack_pointer(regs);
	unsigned long val;

	if (IS_ENABLED(CONFIG_STACK_GROWSUP))
		sp -= n * sizeof(long);
	else
		sp += n * sizeof(long);
	if (copy_from_user(&val, (void __user *)sp, sizeof(val)))
		return 0;
	return val;
}

static int process_fetch_insn(struct fetch_insn *code, void *rec,
			      void *edata, void *dest, void *base)
{
	struct uprobe_fetch_ctx *ctx = rec;
	struct pt_regs *regs = ctx->regs;
	unsigned long val;
	int ret;

	switch (code->op) {
	case FETCH_OP_REG:
		val = regs_get_register(regs, code->param);
		break;
	case FETCH_OP_STACK:
		val = user_stack_slot(regs, code->param);
		break;
	case FETCH_OP_STACKP:
		val = user_stack_pointer(regs);
		break;
	case FETCH_OP_RETVAL:
		val = regs_return_value(regs);
		break;
	case FETCH_OP_FOFFS:
		val = ctx->load_base + code->immediate;
		break;
	case FETCH_OP_COMM:
	case FETCH_OP_DATA:
		if (code[1].op == FETCH_OP_ST_STRING &&
		    code[2].op == FETCH_OP_END)
			return fetch_kernel_string(code->op == FETCH_OP_COMM ?
						   current->comm : code->data,
						   dest, base);
		fallthrough;
	default:
		ret = process_common_fetch_insn(code, &val);
		if (ret < 0)
			return ret;
	}
	return process_fetch_insn_bottom(code + 1, val, dest, base);
}

/* Bytes the dynamic (string) arguments need for this hit. */
static int dynamic_args_size(struct trace_probe *tp,
			     struct uprobe_fetch_ctx *ctx)
{
	int i, len, total = 0;

	for (i = 0; i < tp->nr_args; i++) {
		if (!tp->args[i].dynamic)
			continue;
		len = process_fetch_insn(tp->args[i].code, ctx, NULL, NULL, NULL);
		if (len > 0)
			total += len;
	}
	return total;
}

/* Fetch operations that neither read memory nor store variable data. */
static bool fetch_op_in_regs(enum fetch_op op)
{
	switch (op) {
	case FETCH_OP_REG:
	case FETCH_OP_STACKP:
	case FETCH_OP_RETVAL:
	case FETCH_OP_IMM:
	case FETCH_OP_FOFFS:
	case FETCH_OP_ST_RAW:
	case FETCH_OP_MOD_BF:
		return true;
	default:
		return false;
	}
}

/**
 * trace_uprobe_args_in_regs - can the arguments be fetched without a fault?
 * @tp: a probe whose arguments are parsed
 *
 * Return: true when no argument reads memory (no dereference, stack slot,
 * string or array), so that all of them can be fetched with preemption
 * disabled, straight into a reserved record.
 */
bool trace_uprobe_args_in_regs(struct trace_probe *tp)
{
	struct fetch_insn *code;
	int i;

	for (i = 0; i < tp->nr_args; i++) {
		if (tp->args[i].dynamic)
			return false;
		for (code = tp->args[i].code; code->op != FETCH_OP_END; code++)
			if (!fetch_op_in_regs(code->op))
				return false;
	}
	return true;
}

/* Room for the arguments of one record: a scratch page, a ring buffer event. */
static int record_room(struct trace_uprobe *tu)
{
	struct trace_array *tr = top_trace_array();
	int room = SCRATCH_SIZE;

	if (tr && tr->array_buffer.buffer)
		room = min_t(int, room,
			     ring_buffer_max_event_size(tr->array_buffer.buffer) -
			     sizeof(struct trace_entry) -
			     trace_uprobe_head_size(tu));
	return room;
}

/*
 * Fetch all arguments into this CPU's scratch page, which is returned
 * locked, and report how many bytes of it hold the arguments.
 */
static struct uprobe_scratch *fetch_args(struct trace_uprobe *tu,
					 struct uprobe_scratch __percpu *pages,
					 struct uprobe_fetch_ctx *ctx,
					 int *len)
{
	struct uprobe_scratch *s;
	int dyn = dynamic_args_size(&tu->tp, ctx);

	/*
	 * Long strings are cut short rather than overflowing the page, or
	 * making a record the ring buffer refuses (the hit would be lost).
	 */
	dyn = min_t(int, dyn, record_room(tu) - tu->tp.size);
	dyn = max(dyn, 0);

	s = per_cpu_ptr(pages, raw_smp_processor_id());
	mutex_lock(&s->lock);
	/* a fetch that faults leaves zeroes, not a previous hit's data */
	memset(s->buf, 0, tu->tp.size);
	store_trace_args(s->buf, &tu->tp, ctx, NULL,
			 trace_uprobe_head_size(tu), dyn);
	*len = tu->tp.size + dyn;
	return s;
}

static void *fill_head(struct trace_uprobe *tu,
		       struct uprobe_trace_entry_head *entry,
		       unsigned long addr, struct pt_regs *regs)
{
	entry->vaddr[0] = addr;
	if (tu->is_return)
		entry->vaddr[1] = instruction_pointer(regs);
	return (void *)entry + trace_uprobe_head_size(tu);
}

/* The reserve and commit of record_to_file(), with the record's locals. */
static __always_inline void
record_into_buffer(struct trace_uprobe *tu, struct trace_event_file *file,
		   unsigned long addr, struct uprobe_fetch_ctx *ctx,
		   const void *args, int len)
{
	int head_size = trace_uprobe_head_size(tu);
	struct uprobe_trace_entry_head *entry;
	struct trace_event_buffer fbuffer;
	void *data;

	entry = trace_event_buffer_reserve(&fbuffer, file, head_size + len);
	if (!entry)
		return;
	data = fill_head(tu, entry, addr, ctx->regs);
	if (args) {
		memcpy(data, args, len);
	} else {
		memset(data, 0, len);
		store_trace_args(data, &tu->tp, ctx, NULL, head_size, 0);
	}
	trace_event_buffer_commit(&fbuffer);
}

/*
 * Record a hit into one trace file: the @len bytes of arguments fetched
 * into @args, or, with @args NULL (see trace_uprobe_args_in_regs()),
 * arguments fetched straight into the reserved record. Inlined, so that
 * each of record_hit()'s two calls keeps only its own branch (the hit
 * path: an out-of-line copy cost 30 guest instructions per hit), and the
 * record's locals are only set up when there is a buffer to record into.
 */
static __always_inline void
record_to_file(struct trace_uprobe *tu, struct trace_event_file *file,
	       unsigned long addr, struct uprobe_fetch_ctx *ctx,
	       const void *args, int len)
{
	/* The event's flags change while probes hit (see record_wanted()). */
	unsigned long flags = READ_ONCE(file->flags);

	/*
	 * trace_trigger_soft_disabled() with the flags read once: triggers
	 * without a condition run, a soft-disabled event records nothing.
	 */
	if (unlikely(flags & (EVENT_FILE_FL_TRIGGER_MODE |
			      EVENT_FILE_FL_SOFT_DISABLED |
			      EVENT_FILE_FL_PID_FILTER)) &&
	    !(flags & EVENT_FILE_FL_TRIGGER_COND) &&
	    __trace_trigger_soft_disabled(file))
		return;
	/*
	 * Buffer off (tracing_on 0): only a trigger that reads it needs it.
	 * buffer_disabled mirrors tracing_on for fast paths; a hit racing
	 * with the switch is reserved and dropped by the ring buffer.
	 */
	if (!(flags & EVENT_FILE_FL_TRIGGER_COND) &&
	    READ_ONCE(file->tr->buffer_disabled))
		return;
	record_into_buffer(tu, file, addr, ctx, args, len);
}

static __always_inline void
record_to_files(struct trace_uprobe *tu, unsigned long addr,
		struct uprobe_fetch_ctx *ctx, const void *args, int len)
{
	struct event_file_link *link;

	rcu_read_lock();
	trace_probe_for_each_link_rcu(link, &tu->tp)
		record_to_file(tu, link->file, addr, ctx, args, len);
	rcu_read_unlock();
}

/* Run the BPF programs attached to the event; false: they drop the hit. */
static bool run_bpf(struct trace_event_call *call, struct pt_regs *regs)
{
#ifdef CONFIG_BPF_EVENTS
	if (!bpf_prog_array_valid(call))
		return true;

	/* uprobe programs may sleep: not trace_call_bpf(), which cannot. */
	return bpf_prog_run_array_uprobe_rcu(&call->prog_array, regs,
					     bpf_prog_run);
#else
	return true;
#endif
}

static void record_to_perf(struct trace_uprobe *tu, unsigned long addr,
			   struct pt_regs *regs, const void *args, int len)
{
	struct trace_event_call *call = trace_probe_event_call(&tu->tp);
	struct uprobe_trace_entry_head *entry;
	struct hlist_head *head;
	int head_size = trace_uprobe_head_size(tu);
	int size, rctx;
	void *data;

	/* perf adds a u32 size in front of the record, keep it u64 aligned */
	size = ALIGN(head_size + len + sizeof(u32), sizeof(u64)) - sizeof(u32);
	if (WARN_ONCE(size > PERF_MAX_TRACE_SIZE,
		      "uprobe event too large for perf\n"))
		return;

	preempt_disable();
	/*
	 * A perf-local event is closed without waiting for its handlers: perf
	 * frees its per-CPU lists an RCU grace period after TP_FLAG_PROFILE
	 * is cleared, so they are only used in the same non-preemptible
	 * section as a test of the flag.
	 */
	if (!(trace_probe_load_flag(&tu->tp) & TP_FLAG_PROFILE))
		goto out;
	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		goto out;
	entry = perf_trace_buf_alloc(size, NULL, &rctx);
	if (!entry)
		goto out;
	data = fill_head(tu, entry, addr, regs);
	memcpy(data, args, len);
	memset(data + len, 0, size - head_size - len);
	perf_trace_buf_submit(entry, size, rctx, call->event.type, 1, regs,
			      head, NULL);
out:
	preempt_enable();
}

/*
 * Record one hit of @tu at @addr (the probe address, or the function
 * address for a return probe) into every enabled consumer of the event.
 */
static void record_hit(struct trace_uprobe *tu, unsigned long addr,
		       struct pt_regs *regs)
{
	unsigned int flags = trace_probe_load_flag(&tu->tp);
	struct uprobe_fetch_ctx ctx = {
		.regs = regs,
		.load_base = addr - tu->offset,
	};
	struct uprobe_scratch __percpu *pages;
	bool to_perf = false;
	struct uprobe_scratch *s;
	int len;

	if (flags & TP_FLAG_PROFILE)
		to_perf = run_bpf(trace_probe_event_call(&tu->tp), regs);
	if (!(flags & TP_FLAG_TRACE) && !to_perf)
		return;
	if (tu->args_in_regs && !to_perf) {
		record_to_files(tu, addr, &ctx, NULL, tu->tp.size);
		return;
	}
	/* NULL only for a hit racing with the event's disabling */
	pages = READ_ONCE(scratch);
	if (!pages)
		return;

	s = fetch_args(tu, pages, &ctx, &len);
	if (flags & TP_FLAG_TRACE)
		record_to_files(tu, addr, &ctx, s->buf, len);
	if (to_perf)
		record_to_perf(tu, addr, regs, s->buf, len);
	mutex_unlock(&s->lock);
}

/*
 * Has a hit of @tu anything to do beyond its count: perf or BPF, or a
 * trace file that records it or has triggers? Tested before record_hit()
 * sets up its frame, so that with tracing_on 0 a hit costs this loop.
 */
static __always_inline bool record_wanted(struct trace_uprobe *tu)
{
	unsigned int flags = trace_probe_load_flag(&tu->tp);
	struct event_file_link *link;
	bool wanted = false;

	if (flags & TP_FLAG_PROFILE)
		return true;
	if (!(flags & TP_FLAG_TRACE))
		return false;
	rcu_read_lock();
	trace_probe_for_each_link_rcu(link, &tu->tp) {
		/*
		 * Enabling and disabling the event changes the flags while
		 * probes hit (set_bit(), under event_mutex): a hit sees the
		 * flags before or after, as ftrace's own readers do.
		 */
		unsigned long flags = READ_ONCE(link->file->flags);

		if (flags & (EVENT_FILE_FL_TRIGGER_MODE |
			     EVENT_FILE_FL_TRIGGER_COND) ||
		    (!(flags & EVENT_FILE_FL_SOFT_DISABLED) &&
		     !READ_ONCE(link->file->tr->buffer_disabled))) {
			wanted = true;
			break;
		}
	}
	rcu_read_unlock();
	return wanted;
}

/**
 * trace_uprobe_hit - consumer handler: a probe's breakpoint was hit
 * @uc: the consumer embedded in a &struct trace_uprobe
 * @regs: user registers of the current task at the breakpoint
 * @data: the call's cookie (unused)
 *
 * Counts the hit and, for entry probes, records the event; hits of tasks
 * the definition's task filter does not match are neither.
 *
 * Return: UPROBE_HANDLER_REMOVE when only perf uses the event and none of
 * its perf events wants the current process, or when no task of the
 * current process matches the task filter; UPROBE_HANDLER_IGNORE for
 * another task of a process the filter matches (no return to watch for
 * it); else 0.
 */
int trace_uprobe_hit(struct uprobe_consumer *uc, struct pt_regs *regs,
		     __u64 *data)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);

	if (!trace_uprobe_traces_task(tu, current))
		return uprobe_task_filter_match_mm(&tu->task_filter,
						   current->mm) ?
		       UPROBE_HANDLER_IGNORE : UPROBE_HANDLER_REMOVE;
	this_cpu_inc(*tu->nhits);

	if (trace_probe_load_flag(&tu->tp) == TP_FLAG_PROFILE &&
	    !trace_uprobe_perf_filter(uc, current->mm))
		return UPROBE_HANDLER_REMOVE;

	if (!tu->is_return && record_wanted(tu))
		record_hit(tu, uprobe_current_func_ip(), regs);
	return 0;
}

/**
 * trace_uprobe_ret_hit - consumer return handler: a probed function returned
 * @uc: the consumer embedded in a &struct trace_uprobe
 * @func: address of the probed function
 * @regs: user registers of the current task at the return address
 * @data: the call's cookie (unused)
 *
 * Return: 0.
 */
int trace_uprobe_ret_hit(struct uprobe_consumer *uc, unsigned long func,
			 struct pt_regs *regs, __u64 *data)
{
	struct trace_uprobe *tu = container_of(uc, struct trace_uprobe, consumer);

	if (trace_uprobe_traces_task(tu, current) && record_wanted(tu))
		record_hit(tu, func, regs);
	return 0;
}

#ifdef CONFIG_UPROBE_EVENTS_KUNIT_TEST
#include "tests/trace_uprobe_record-kunit.h"
#endif
