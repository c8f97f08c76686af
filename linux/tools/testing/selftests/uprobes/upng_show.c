// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into every test program of the uprobes engine selftests, and
 * only there (neither into their probe targets nor into the uprobe_events
 * selftests, which share the other upng_*.c files): the programs start
 * with our breakpoints shown to readers of process memory.
 */
#include "upng.h"

/* Test programs see breakpoints (see upng.h); targets do not link this. */
static void __attribute__((constructor)) upng_show_breakpoints(void)
{
	upng_hide_breakpoints(false);
}
