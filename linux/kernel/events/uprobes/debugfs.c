// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: the registered probes, listed in debugfs.
 *
 * /sys/kernel/debug/uprobes/probes has one line per probe, in (inode,
 * offset) order:
 *
 *   <inode number> 0x<offset> <how> <device major>:<minor>[ stranded]
 *
 * where <how> says what a hit does with the probed instruction:
 * "jump" (replaced with a jump to a stub after its first hit in each
 * process, see stub.c), "emulated" (executed in the kernel), "boosted"
 * (run from an XOL slot
 * that jumps back), "stepped" (single-stepped in an XOL slot), "legacy"
 * (emulated or stepped, as the architecture's stock code decides at each
 * hit, see legacy_arch.c), "pending" (not analysed yet: the file was never
 * mapped or open, or could not be read) or "refused".
 * "stranded" marks a probe kept for a breakpoint that could not be
 * removed from some process yet.
 *
 * /sys/kernel/debug/uprobes/hide_breakpoints (Y by default) makes readers
 * of a process's memory see probed instructions instead of breakpoints
 * (see hide.c); N shows them, for tests that look at the breakpoints.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>

#include "internal.h"

static void uprobe_debugfs_show_one(struct uprobe *uprobe, void *arg)
{
	struct seq_file *m = arg;
	const char *how;
	int prep = READ_ONCE(uprobe->prep);

	if (!prep)
		how = "pending";
	else if (prep < 0)
		how = "refused";
	else
		how = arch_uprobe_kind(&uprobe->arch, uprobe->is_64bit);
	seq_printf(m, "%lu 0x%llx %s %u:%u%s\n", uprobe->inode->i_ino,
		   uprobe->offset, how, MAJOR(uprobe->inode->i_sb->s_dev),
		   MINOR(uprobe->inode->i_sb->s_dev),
		   READ_ONCE(uprobe->stranded) ? " stranded" : "");
}

static int uprobe_debugfs_show(struct seq_file *m, void *v)
{
	uprobe_walk(uprobe_debugfs_show_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uprobe_debugfs);

static int __init uprobe_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("uprobes", NULL);

	debugfs_create_file("probes", 0400, dir, NULL, &uprobe_debugfs_fops);
	debugfs_create_bool("hide_breakpoints", 0600, dir,
			    &uprobe_hide_breakpoints);
	return 0;
}
late_initcall(uprobe_debugfs_init);
