// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events: definitions.
 *
 * Parses "p|r[:[GRP/][EVENT]] PATH:OFFSET[%return][(REF_CTR_OFFSET)]
 * [FETCHARGS] [if pid|tid|ppid|sid==ID]" and "-:[GRP/]EVENT" commands (from
 * uprobe_events and dynamic_events), creates and deletes the events, and
 * shows them back in canonical form. Also provides the anonymous events perf's uprobe PMU
 * creates, and what BPF asks about an event.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/ctype.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "trace_uprobe_events.h"

/* Room the offset takes in a default event name: "p_" "_0x" + 16 digits */
#define DEFAULT_NAME_FIXED	(2 + 3 + 2 * sizeof(unsigned long))

static int trace_uprobe_create(const char *raw_command);
static int trace_uprobe_show(struct seq_file *m, struct dyn_event *ev);
static bool trace_uprobe_is_busy(struct dyn_event *ev);
static int trace_uprobe_release(struct dyn_event *ev);
static bool trace_uprobe_match(const char *system, const char *event,
			       int argc, const char **argv,
			       struct dyn_event *ev);

struct dyn_event_operations trace_uprobe_ops = {
	.create		= trace_uprobe_create,
	.show		= trace_uprobe_show,
	.is_busy	= trace_uprobe_is_busy,
	.free		= trace_uprobe_release,
	.match		= trace_uprobe_match,
};

static struct trace_uprobe *alloc_trace_uprobe(const char *group,
					       const char *event, int nargs,
					       bool is_return)
{
	struct trace_uprobe *tu;
	int ret = -ENOMEM;

	tu = kzalloc(struct_size(tu, tp.args, nargs), GFP_KERNEL);
	if (!tu)
		return ERR_PTR(-ENOMEM);
	tu->nhits = alloc_percpu(unsigned long);
	if (!tu->nhits)
		goto fail;
	ret = trace_probe_init(&tu->tp, event, group, true, nargs);
	if (ret)
		goto fail;

	dyn_event_init(&tu->devent, &trace_uprobe_ops);
	tu->is_return = is_return;
	tu->consumer.handler = trace_uprobe_hit;
	if (is_return)
		tu->consumer.ret_handler = trace_uprobe_ret_hit;
	return tu;
fail:
	free_percpu(tu->nhits);
	kfree(tu);
	return ERR_PTR(ret);
}

/*
 * The probed files held open, one per inode, shared by all definitions on
 * it (perf opens thousands of local events on one file, a struct file
 * each cost as much as the rest of the definition): by the real inode,
 * which is what the engine reads and probes.
 */
struct probed_file {
	struct hlist_node	node;
	struct inode		*inode;
	struct file		*file;
	unsigned int		users;
};

static DEFINE_HASHTABLE(probed_files, 6);
static DEFINE_MUTEX(probed_files_lock);

/*
 * Hold the probed file open (see struct trace_uprobe); best effort, and
 * only for files read through the page cache (the only ones the engine
 * can probe: read_folio, or tmpfs), so that no special file's open() has
 * side effects. The engine reads the probed instruction through it.
 */
static void hold_probed_file(struct trace_uprobe *tu)
{
	struct inode *inode = d_real_inode(tu->path.dentry);
	struct probed_file *pf;
	struct file *file;

	tu->file = NULL;
	if (!inode->i_mapping->a_ops->read_folio &&
	    !shmem_mapping(inode->i_mapping))
		return;
	mutex_lock(&probed_files_lock);
	hash_for_each_possible(probed_files, pf, node, (unsigned long)inode) {
		if (pf->inode == inode) {
			pf->users++;
			tu->file = pf->file;
			goto out;
		}
	}
	pf = kmalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		goto out;
	file = dentry_open(&tu->path, O_RDONLY, current_cred());
	if (IS_ERR(file)) {
		kfree(pf);
		goto out;
	}
	pf->inode = inode;
	pf->file = file;
	pf->users = 1;
	hash_add(probed_files, &pf->node, (unsigned long)inode);
	tu->file = file;
out:
	mutex_unlock(&probed_files_lock);
}

/* By the file: the real inode of an overlay path may change (copy-up). */
static void release_probed_file(struct trace_uprobe *tu)
{
	struct probed_file *pf;
	int bkt;

	if (!tu->file)
		return;
	mutex_lock(&probed_files_lock);
	hash_for_each(probed_files, bkt, pf, node) {
		if (pf->file != tu->file)
			continue;
		if (!--pf->users) {
			hash_del(&pf->node);
			fput(pf->file);
			kfree(pf);
		}
		break;
	}
	mutex_unlock(&probed_files_lock);
	tu->file = NULL;
}

static void free_trace_uprobe(struct trace_uprobe *tu)
{
	release_probed_file(tu);
	path_put(&tu->path);
	trace_probe_cleanup(&tu->tp);
	kfree(tu->filename);
	free_percpu(tu->nhits);
	kfree(tu);
}

static struct trace_uprobe *find_trace_uprobe(const char *group,
					      const char *event)
{
	struct dyn_event *pos;
	struct trace_uprobe *tu;

	for_each_dyn_event(pos) {
		if (!is_trace_uprobe(pos))
			continue;
		tu = to_trace_uprobe(pos);
		if (!strcmp(trace_probe_name(&tu->tp), event) &&
		    !strcmp(trace_probe_group_name(&tu->tp), group))
			return tu;
	}
	return NULL;
}

static bool same_location(struct trace_uprobe *a, struct trace_uprobe *b)
{
	return d_real_inode(a->path.dentry) == d_real_inode(b->path.dentry) &&
	       a->offset == b->offset;
}

/*
 * The engine keeps one reference counter per probed location: every
 * definition on a location must agree on it.
 */
static int check_ref_ctr(struct trace_uprobe *tu)
{
	struct dyn_event *pos;
	struct trace_uprobe *other;

	for_each_dyn_event(pos) {
		if (!is_trace_uprobe(pos))
			continue;
		other = to_trace_uprobe(pos);
		if (same_location(tu, other) &&
		    tu->ref_ctr_offset != other->ref_ctr_offset) {
			trace_probe_log_set_index(1);
			trace_probe_log_err(0, BAD_REFCNT);
			return -EINVAL;
		}
	}
	return 0;
}

/* Add @tu as a further location of the existing event of @to. */
static int append_trace_uprobe(struct trace_uprobe *tu, struct trace_uprobe *to)
{
	struct trace_uprobe *sib;
	int ret, i;

	trace_probe_log_set_index(0);
	if (tu->is_return != to->is_return) {
		trace_probe_log_err(0, DIFF_PROBE_TYPE);
		return -EEXIST;
	}
	ret = trace_probe_compare_arg_type(&tu->tp, &to->tp);
	if (ret) {
		/* the first fetch argument is word 2 of the command */
		trace_probe_log_set_index(ret + 1);
		trace_probe_log_err(0, DIFF_ARG_TYPE);
		return -EEXIST;
	}
	list_for_each_entry(sib, trace_probe_probe_list(&to->tp), tp.list) {
		if (!same_location(tu, sib))
			continue;
		for (i = 0; i < tu->tp.nr_args; i++)
			if (strcmp(tu->tp.args[i].comm, sib->tp.args[i].comm))
				break;
		if (i == tu->tp.nr_args) {
			trace_probe_log_err(0, SAME_PROBE);
			return -EEXIST;
		}
	}

	ret = trace_probe_append(&tu->tp, &to->tp);
	if (ret)
		return ret;
	ret = trace_uprobe_arm_appended(tu);
	if (ret) {
		trace_probe_log_err(0, FAIL_REG_PROBE);
		trace_probe_unlink(&tu->tp);
		return ret;
	}
	return dyn_event_add(&tu->devent, trace_probe_event_call(&tu->tp));
}

static int register_trace_uprobe(struct trace_uprobe *tu)
{
	struct trace_uprobe *old;
	int ret;

	guard(mutex)(&event_mutex);

	ret = check_ref_ctr(tu);
	if (ret)
		return ret;

	old = find_trace_uprobe(trace_probe_group_name(&tu->tp),
				trace_probe_name(&tu->tp));
	if (old)
		return append_trace_uprobe(tu, old);

	trace_uprobe_init_call(tu);
	ret = trace_probe_register_event_call(&tu->tp);
	if (ret) {
		trace_probe_log_set_index(0);
		if (ret == -EEXIST)
			trace_probe_log_err(0, EVENT_EXIST);
		else
			trace_probe_log_err(0, FAIL_REG_PROBE);
		return ret;
	}
	return dyn_event_add(&tu->devent, trace_probe_event_call(&tu->tp));
}

/* The probed location of a definition, as parsed from PATH:OFFSET... */
struct uprobe_location {
	char		*filename;
	struct path	path;
	unsigned long	offset;
	unsigned long	ref_ctr_offset;
	bool		is_return;
};

/* Parse the "(REF_CTR_OFFSET)" suffix starting at @open in @buf. */
static int parse_ref_ctr(char *buf, char *open, unsigned long *ref_ctr)
{
	char *close = strchr(open, ')');

	if (!close) {
		trace_probe_log_err(open + strlen(open) - buf,
				    REFCNT_OPEN_BRACE);
		return -EINVAL;
	}
	if (close[1]) {
		trace_probe_log_err(close + 1 - buf, BAD_REFCNT_SUFFIX);
		return -EINVAL;
	}
	*open = '\0';
	*close = '\0';
	if (kstrtoul(open + 1, 0, ref_ctr)) {
		trace_probe_log_err(open + 1 - buf, BAD_REFCNT);
		return -EINVAL;
	}
	return 0;
}

/*
 * Parse "PATH:OFFSET[%return][(REF_CTR_OFFSET)]" (@spec has a ':' followed
 * by a digit). On success @loc holds a reference to the file's path.
 */
static int parse_location(const char *spec, struct uprobe_location *loc)
{
	char *buf, *offs, *p;
	int ret;

	trace_probe_log_set_index(1);
	buf = kstrdup(spec, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* the last ':' ends the path, which may itself contain ':' */
	offs = strrchr(buf, ':');
	*offs++ = '\0';

	ret = kern_path(buf, LOOKUP_FOLLOW, &loc->path);
	if (ret) {
		trace_probe_log_err(0, FILE_NOT_FOUND);
		kfree(buf);
		return ret;
	}
	ret = -EINVAL;
	if (!d_is_reg(loc->path.dentry)) {
		trace_probe_log_err(0, NO_REGULAR_FILE);
		goto fail;
	}

	p = strchr(offs, '(');
	if (p && parse_ref_ctr(buf, p, &loc->ref_ctr_offset))
		goto fail;

	p = strchr(offs, '%');
	if (p) {
		if (strcmp(p, "%return")) {
			trace_probe_log_err(p - buf, BAD_ADDR_SUFFIX);
			goto fail;
		}
		*p = '\0';
		loc->is_return = true;
	}

	if (kstrtoul(offs, 0, &loc->offset)) {
		trace_probe_log_err(offs - buf, BAD_UPROBE_OFFS);
		goto fail;
	}
	/* refuse it now rather than when the event is enabled */
	if (loc->offset >= i_size_read(d_real_inode(loc->path.dentry))) {
		trace_probe_log_err(offs - buf, UPROBE_OFFS_EOF);
		goto fail;
	}
	loc->filename = buf;
	return 0;
fail:
	path_put(&loc->path);
	kfree(buf);
	return ret;
}

/*
 * The default event name: 'p', the file's base name up to its first '.',
 * '-' or '_', and the offset (p_zsh_0x46420). Characters an event name
 * cannot have become '_'.
 */
static void default_event_name(char *buf, const char *filename,
			       unsigned long offset)
{
	const char *base = kbasename(filename);
	int len = strcspn(base, ".-_");
	char *p;

	len = min_t(int, len, MAX_EVENT_NAME_LEN - 1 - DEFAULT_NAME_FIXED);
	snprintf(buf, MAX_EVENT_NAME_LEN, "p_%.*s_0x%lx", len, base, offset);
	for (p = buf + 2; *p; p++)
		if (!isalnum(*p) && *p != '_')
			*p = '_';
}

static const char * const task_filter_kinds[] = {
	[UPROBE_FILTER_PID]	= "pid",
	[UPROBE_FILTER_TID]	= "tid",
	[UPROBE_FILTER_PPID]	= "ppid",
	[UPROBE_FILTER_SID]	= "sid",
};

/* "ppid==" and the digits of a non-negative int, with the NUL */
#define TASK_FILTER_LEN	(sizeof("ppid==") + 10)

/* @tu's task filter as its clause is written: "KIND==ID". */
static void task_filter_string(const struct trace_uprobe *tu, char *buf,
			       size_t len)
{
	snprintf(buf, len, "%s==%d", task_filter_kinds[tu->task_filter.kind],
		 tu->task_filter.nr);
}

/* Log a malformed clause: word @index of the command, at @offset in it. */
static int bad_task_filter(int index, int offset)
{
	trace_probe_log_set_index(index);
	trace_probe_log_err(offset, BAD_TASK_FILTER);
	return -EINVAL;
}

/*
 * Parse the "KIND==ID" word of an "if" clause, word @index of the
 * command, into @f. Ids are those of the initial pid namespace, the ones
 * the trace shows.
 */
static int parse_task_filter(const char *word, int index,
			     struct uprobe_task_filter *f)
{
	const char *eq = strstr(word, "==");
	size_t len;
	int kind, nr;

	if (!eq)
		return bad_task_filter(index, 0);
	len = eq - word;
	for (kind = 0; kind < ARRAY_SIZE(task_filter_kinds); kind++)
		if (strlen(task_filter_kinds[kind]) == len &&
		    !strncmp(word, task_filter_kinds[kind], len))
			break;
	if (kind == ARRAY_SIZE(task_filter_kinds))
		return bad_task_filter(index, 0);
	/*
	 * Plain decimal, as the clause is shown back (and deleted with): no
	 * sign, no leading zero. A session or parent may be the kernel's
	 * (0), a task may not.
	 */
	if (!isdigit(eq[2]) || (eq[2] == '0' && eq[3]) ||
	    kstrtoint(eq + 2, 10, &nr) || nr < 0 ||
	    (!nr && (kind == UPROBE_FILTER_PID || kind == UPROBE_FILTER_TID)))
		return bad_task_filter(index, len + 2);
	f->kind = kind;
	f->nr = nr;
	return 0;
}

/*
 * Take a trailing "if KIND==ID" off @argc into @f. Return: 1 if there was
 * one, 0 if not, -EINVAL for a misplaced or malformed clause.
 */
static int parse_if_clause(int *argc, const char *const *argv,
			   struct uprobe_task_filter *f)
{
	int i, ret;

	for (i = 2; i < *argc; i++)
		if (!strcmp(argv[i], "if"))
			break;
	if (i == *argc)
		return 0;
	if (i != *argc - 2)
		return bad_task_filter(i, 0);
	ret = parse_task_filter(argv[i + 1], i + 1, f);
	if (ret)
		return ret;
	*argc = i;
	return 1;
}

static int parse_fetch_args(struct trace_uprobe *tu, int argc,
			    const char **argv)
{
	unsigned int flags = TPARG_FL_USER;
	int i, ret;

	if (tu->is_return)
		flags |= TPARG_FL_RETURN;
	for (i = 0; i < argc; i++) {
		struct traceprobe_parse_context ctx = { .flags = flags };

		trace_probe_log_set_index(i + 2);
		ret = traceprobe_parse_probe_arg(&tu->tp, i, argv[i], &ctx);
		traceprobe_finish_parse(&ctx);
		if (ret)
			return ret;
	}
	tu->args_in_regs = trace_uprobe_args_in_regs(&tu->tp);
	return traceprobe_set_print_fmt(&tu->tp, tu->is_return ?
					PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL);
}

/* Called with argv already split; -ECANCELED: not a uprobe definition. */
static int parse_and_register(int argc, const char **argv)
{
	const char *event = NULL, *group = UPROBE_EVENT_SYSTEM;
	char namebuf[MAX_EVENT_NAME_LEN], groupbuf[MAX_EVENT_NAME_LEN];
	struct uprobe_location loc = {};
	struct uprobe_task_filter filter;
	struct trace_uprobe *tu;
	const char *colon;
	bool has_filter;
	int ret;

	if ((argv[0][0] != 'p' && argv[0][0] != 'r') ||
	    (argv[0][1] != '\0' && argv[0][1] != ':') || argc < 2)
		return -ECANCELED;
	/* PATH:OFFSET, with a '/' in PATH (else it is no uprobe) */
	colon = strrchr(argv[1], ':');
	if (!strchr(argv[1], '/') || !colon || !isdigit(colon[1]))
		return -ECANCELED;

	trace_probe_log_init("trace_uprobe", argc, argv);

	ret = parse_if_clause(&argc, argv, &filter);
	if (ret < 0)
		goto out;
	has_filter = ret;
	if (argc - 2 > MAX_TRACE_ARGS) {
		ret = -E2BIG;
		goto out;
	}
	ret = parse_location(argv[1], &loc);
	if (ret)
		goto out;
	if (argv[0][0] == 'r')
		loc.is_return = true;

	trace_probe_log_set_index(0);
	if (argv[0][1] == ':') {
		event = &argv[0][2];
		ret = traceprobe_parse_event_name(&event, &group, groupbuf, 2);
		if (ret)
			goto free_loc;
	}
	if (!event) {
		default_event_name(namebuf, loc.filename, loc.offset);
		event = namebuf;
	}

	tu = alloc_trace_uprobe(group, event, argc - 2, loc.is_return);
	if (IS_ERR(tu)) {
		ret = PTR_ERR(tu);
		goto free_loc;
	}
	tu->filename = loc.filename;
	tu->path = loc.path;
	hold_probed_file(tu);
	tu->offset = loc.offset;
	tu->ref_ctr_offset = loc.ref_ctr_offset;

	tu->task_filter = filter;
	tu->has_task_filter = has_filter;
	ret = parse_fetch_args(tu, argc - 2, argv + 2);
	if (!ret)
		ret = register_trace_uprobe(tu);
	if (ret)
		free_trace_uprobe(tu);
	goto out;

free_loc:
	path_put(&loc.path);
	kfree(loc.filename);
out:
	trace_probe_log_clear();
	return ret;
}

static int trace_uprobe_create(const char *raw_command)
{
	return trace_probe_create(raw_command, parse_and_register);
}

/**
 * trace_uprobe_run_command - run one line written to uprobe_events
 * @raw_command: a definition, or "-:[GRP/]EVENT" to delete one
 *
 * Return: 0 or a negative errno (-EINVAL for a line that is no uprobe
 * definition at all).
 */
int trace_uprobe_run_command(const char *raw_command)
{
	int ret;

	if (raw_command[0] == '-')
		return dyn_event_release(raw_command, &trace_uprobe_ops);

	ret = dyn_event_create(raw_command, &trace_uprobe_ops);
	return ret == -ECANCELED ? -EINVAL : ret;
}

static bool trace_uprobe_is_busy(struct dyn_event *ev)
{
	return trace_probe_is_enabled(&to_trace_uprobe(ev)->tp);
}

static int trace_uprobe_release(struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	int ret;

	if (trace_probe_is_enabled(&tu->tp))
		return -EBUSY;
	if (!trace_probe_has_sibling(&tu->tp)) {
		if (trace_event_dyn_busy(trace_probe_event_call(&tu->tp)))
			return -EBUSY;
		ret = trace_probe_unregister_event_call(&tu->tp);
		if (ret)
			return ret;
	}
	dyn_event_remove(&tu->devent);
	trace_probe_unlink(&tu->tp);
	free_trace_uprobe(tu);
	return 0;
}

/* "PATH:0x<16 digits>[(0xREF)]", as uprobe_events shows the location. */
static char *location_string(struct trace_uprobe *tu)
{
	int width = 2 * sizeof(void *);

	if (tu->ref_ctr_offset)
		return kasprintf(GFP_KERNEL, "%s:0x%0*lx(0x%lx)", tu->filename,
				 width, tu->offset, tu->ref_ctr_offset);
	return kasprintf(GFP_KERNEL, "%s:0x%0*lx", tu->filename, width,
			 tu->offset);
}

static int trace_uprobe_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	char *where = location_string(tu);
	int i;

	if (!where)
		return -ENOMEM;
	seq_printf(m, "%c:%s/%s %s", tu->is_return ? 'r' : 'p',
		   trace_probe_group_name(&tu->tp), trace_probe_name(&tu->tp),
		   where);
	for (i = 0; i < tu->tp.nr_args; i++)
		seq_printf(m, " %s=%s", tu->tp.args[i].name,
			   tu->tp.args[i].comm);
	if (tu->has_task_filter) {
		char clause[TASK_FILTER_LEN];

		task_filter_string(tu, clause, sizeof(clause));
		seq_printf(m, " if %s", clause);
	}
	seq_putc(m, '\n');
	kfree(where);
	return 0;
}

static bool trace_uprobe_match(const char *system, const char *event,
			       int argc, const char **argv,
			       struct dyn_event *ev)
{
	struct trace_uprobe *tu = to_trace_uprobe(ev);
	char *where;
	bool same;

	if (event[0] && strcmp(trace_probe_name(&tu->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(&tu->tp), system))
		return false;
	if (!argc)
		return true;

	/* a trailing "if KIND==ID" must be the definition's task filter */
	if (argc > 2 && !strcmp(argv[argc - 2], "if")) {
		char clause[TASK_FILTER_LEN];

		if (!tu->has_task_filter)
			return false;
		task_filter_string(tu, clause, sizeof(clause));
		if (strcmp(clause, argv[argc - 1]))
			return false;
		argc -= 2;
	}
	where = location_string(tu);
	same = where && !strcmp(where, argv[0]);
	kfree(where);
	return same && trace_probe_match_command_args(&tu->tp, argc - 1,
						      argv + 1);
}

/**
 * create_local_trace_uprobe - an anonymous uprobe event for perf's PMU
 * @name: path of the file to probe
 * @offs: file offset of the probed instruction
 * @ref_ctr_offset: file offset of the SDT semaphore, 0 if none
 * @is_return: probe the function's return instead of its entry
 *
 * The event is not listed in uprobe_events and has no tracefs directory;
 * perf registers it through its class's reg() like any other event.
 *
 * Return: the event call, or an ERR_PTR().
 */
struct trace_event_call *
create_local_trace_uprobe(char *name, unsigned long offs,
			  unsigned long ref_ctr_offset, bool is_return)
{
	struct trace_uprobe *tu;
	struct path path;
	int ret;

	ret = kern_path(name, LOOKUP_FOLLOW, &path);
	if (ret)
		return ERR_PTR(ret);
	if (!d_is_reg(path.dentry)) {
		path_put(&path);
		return ERR_PTR(-EINVAL);
	}

	/* never listed, so the name cannot clash with another event */
	tu = alloc_trace_uprobe(UPROBE_EVENT_SYSTEM, "DUMMY_EVENT", 0,
				is_return);
	if (IS_ERR(tu)) {
		path_put(&path);
		return ERR_CAST(tu);
	}
	tu->path = path;
	hold_probed_file(tu);
	tu->offset = offs;
	tu->ref_ctr_offset = ref_ctr_offset;
	tu->filename = kstrdup(name, GFP_KERNEL);
	if (!tu->filename) {
		ret = -ENOMEM;
		goto fail;
	}

	tu->local = true;
	trace_uprobe_init_call(tu);
	ret = traceprobe_set_print_fmt(&tu->tp, is_return ?
				       PROBE_PRINT_RETURN : PROBE_PRINT_NORMAL);
	if (ret < 0)
		goto fail;
	return trace_probe_event_call(&tu->tp);
fail:
	free_trace_uprobe(tu);
	return ERR_PTR(ret);
}

/*
 * Perf-local events closed without waiting for their handlers (see
 * uprobe_perf_close()): one grace period of the engine frees all those
 * queued before it started.
 */
static LLIST_HEAD(local_reap_list);

static void reap_local_trace_uprobes(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&local_reap_list);
	struct trace_uprobe *tu, *next;

	uprobe_unregister_sync();
	llist_for_each_entry_safe(tu, next, list, reap)
		free_trace_uprobe(tu);
}

static DECLARE_WORK(local_reap_work, reap_local_trace_uprobes);

/**
 * destroy_local_trace_uprobe - free an event made by create_local_trace_uprobe()
 * @event_call: the event call returned by create_local_trace_uprobe()
 *
 * The event's probes are unregistered, but its handlers may still be
 * running: it is freed from a work item, after the engine's grace period,
 * so that closing a perf event does not wait for one.
 */
void destroy_local_trace_uprobe(struct trace_event_call *event_call)
{
	struct trace_uprobe *tu = trace_uprobe_from_call(event_call);

	if (!tu)
		return;
	llist_add(&tu->reap, &local_reap_list);
	schedule_work(&local_reap_work);
}

/**
 * bpf_get_uprobe_info - describe the uprobe behind a perf event for BPF
 * @event: a perf event on a uprobe event or from perf's uprobe PMU
 * @fd_type: set to BPF_FD_TYPE_UPROBE or BPF_FD_TYPE_URETPROBE
 * @filename: set to the probed file's name
 * @probe_offset: set to the probed file offset
 * @probe_addr: set to 0 (uprobes have no address of their own)
 * @perf_type_tracepoint: @event was opened as a tracepoint (by event id)
 *
 * Return: 0, or -EINVAL if the event is no (longer a) uprobe event.
 */
int bpf_get_uprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **filename, u64 *probe_offset,
			u64 *probe_addr, bool perf_type_tracepoint)
{
	struct trace_event_call *call = event->tp_event;
	struct trace_uprobe *tu;

	if (perf_type_tracepoint)
		tu = find_trace_uprobe(call->class->system,
				       trace_event_name(call));
	else
		tu = trace_uprobe_from_call(call);
	if (!tu)
		return -EINVAL;

	*fd_type = tu->is_return ? BPF_FD_TYPE_URETPROBE : BPF_FD_TYPE_UPROBE;
	*filename = tu->filename;
	*probe_offset = tu->offset;
	*probe_addr = 0;
	return 0;
}

#ifdef CONFIG_UPROBE_EVENTS_KUNIT_TEST
#include "tests/trace_uprobe_events-kunit.h"
#endif
