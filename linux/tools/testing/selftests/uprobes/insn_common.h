/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by insn.c and refuse.c: read the result table an insn64/insn32/
 * insna64 runner prints ("NAME VALUE" lines up to "end"). Also the symbols
 * of insn64.S/insn32.S/insn_a64.S that insn_main.c and faults.c use
 * directly.
 */
#ifndef INSN_COMMON_H
#define INSN_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "upng.h"

/* Probe sites (and result lines) of one table, at most: arm64 has ~260. */
#define INSN_MAX 384
#define INSN_RECV_MS 60000

/* Global function of every table, the anchor for run-time addresses. */
void refused_insns(void);
/* Functions of every table (insn_t_NAME, see insn64.S), called directly. */
long insn_t_call_reg(void);
long insn_t_push_reg(void);

struct insn_results {
	int n;
	char line[INSN_MAX][96];
};

/* Read result lines up to "end"; 0, or -errno / -EPROTO on bad output. */
static inline int insn_read_results(struct upng_child *c,
				    struct insn_results *r)
{
	char buf[sizeof(r->line[0])];
	int len;

	r->n = 0;
	for (;;) {
		len = upng_recv(c, buf, sizeof(buf), INSN_RECV_MS);
		if (len < 0)
			return len;
		if (!strcmp(buf, "end"))
			return 0;
		if (r->n == INSN_MAX || !strncmp(buf, "error", 5))
			return -EPROTO;
		snprintf(r->line[r->n++], sizeof(r->line[0]), "%s", buf);
	}
}

#endif /* INSN_COMMON_H */
