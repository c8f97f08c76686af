/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 uprobes: what the simulation and the single-step code share.
 */
#ifndef _ARM64_KERNEL_UPROBES_INTERNAL_H
#define _ARM64_KERNEL_UPROBES_INTERNAL_H

#include <linux/sched.h>
#include <linux/thread_info.h>

#include <asm/debug-monitors.h>

/*
 * The probed instruction is complete.  A thread that ptrace single-steps
 * must stop right after it, as it would without the probe: its step is
 * left active-pending, so that the single-step exception is taken on the
 * return to user mode, before the next instruction, and reported to the
 * debugger as usual.
 */
static inline void uprobe_arm64_user_step_done(void)
{
	if (test_thread_flag(TIF_SINGLESTEP))
		user_fastforward_single_step(current);
}

#endif /* _ARM64_KERNEL_UPROBES_INTERNAL_H */
