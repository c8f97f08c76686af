// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events: the tracefs control files.
 *
 * uprobe_events lists the definitions and takes new ones (opening it with
 * O_TRUNC deletes them all first); uprobe_profile shows how often each
 * probe was hit. Registers the uprobe event type with dynamic_events.
 */
#define pr_fmt(fmt)	"trace_uprobe: " fmt

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/security.h>
#include <linux/seq_file.h>

#include "trace_uprobe_events.h"

static int uprobe_events_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;

	return is_trace_uprobe(ev) ? ev->ops->show(m, ev) : 0;
}

static const struct seq_operations uprobe_events_seq_ops = {
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
	.show	= uprobe_events_seq_show,
};

static int uprobe_events_open(struct inode *inode, struct file *file)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = dyn_events_release_all(&trace_uprobe_ops);
		if (ret)
			return ret;
	}
	return seq_open(file, &uprobe_events_seq_ops);
}

static ssize_t uprobe_events_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	return trace_parse_run_command(file, buf, count, ppos,
				       trace_uprobe_run_command);
}

static const struct file_operations uprobe_events_fops = {
	.open		= uprobe_events_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
	.write		= uprobe_events_write,
};

static int uprobe_profile_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;
	struct trace_uprobe *tu;
	unsigned long hits = 0;
	int cpu;

	if (!is_trace_uprobe(ev))
		return 0;

	tu = to_trace_uprobe(ev);
	/* Hits go on counting meanwhile, each CPU its own: a snapshot. */
	for_each_possible_cpu(cpu)
		hits += READ_ONCE(*per_cpu_ptr(tu->nhits, cpu));
	seq_printf(m, "  %s %-44s %15lu\n", tu->filename,
		   trace_probe_name(&tu->tp), hits);
	return 0;
}

static const struct seq_operations uprobe_profile_seq_ops = {
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
	.show	= uprobe_profile_seq_show,
};

static int uprobe_profile_open(struct inode *inode, struct file *file)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	return seq_open(file, &uprobe_profile_seq_ops);
}

static const struct file_operations uprobe_profile_fops = {
	.open		= uprobe_profile_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

static __init int uprobe_events_init(void)
{
	int ret;

	ret = dyn_event_register(&trace_uprobe_ops);
	if (ret)
		return ret;

	if (tracing_init_dentry())
		return 0;

	trace_create_file("uprobe_events", TRACE_MODE_WRITE, NULL, NULL,
			  &uprobe_events_fops);
	trace_create_file("uprobe_profile", TRACE_MODE_READ, NULL, NULL,
			  &uprobe_profile_fops);
	return 0;
}
fs_initcall(uprobe_events_init);
