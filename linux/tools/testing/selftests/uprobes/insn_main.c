// SPDX-License-Identifier: GPL-2.0
/*
 * Runner for the instruction table (insn64.S / insn32.S).  Every function
 * insn_t_NAME of the table returns a value that depends on the probed
 * instruction having executed exactly right; the probe site in it is the
 * label insn_p_NAME, executed exactly once per call of insn_t_NAME.
 *
 *   insn64 run N    call every insn_t_* N times, print "NAME VALUE" each, "end"
 *   insn64 serve    print "ready ANCHOR" (refused_insns), then run "run N" commands from
 *                   stdin until "quit"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_common.h"

#define MAX_TESTS INSN_MAX

static void run_all(long loops)
{
	static struct upng_sym syms[MAX_TESTS];
	const char *self = upng_self_path();
	struct upng_sym anchor;
	unsigned long delta;
	long i, j, v;
	int n;

	n = upng_elf_syms(self, "insn_t_", syms, MAX_TESTS);
	if (n <= 0 || n > MAX_TESTS ||
	    upng_elf_sym(self, "refused_insns", &anchor)) {
		printf("error symbols\n");
		return;
	}
	delta = (unsigned long)refused_insns - anchor.value;
	for (i = 0; i < n; i++) {
		bool stable = true;
		long (*fn)(void);

		fn = (void *)(syms[i].value + delta);
		v = fn();
		for (j = 1; j < loops; j++)
			stable &= fn() == v;
		printf("%s %#lx%s\n", syms[i].name + strlen("insn_t_"), (unsigned long)v,
		       stable ? "" : " unstable");
	}
	printf("end\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char line[128];
	long n;

	if (argc == 3 && !strcmp(argv[1], "run")) {
		run_all(atol(argv[2]));
		return 0;
	}
	if (argc != 2 || strcmp(argv[1], "serve"))
		return 2;
	printf("ready %lx\n", (unsigned long)refused_insns);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "run %ld", &n) == 1)
			run_all(n);
		else if (!strncmp(line, "quit", 4))
			return 0;
	}
	return 0;
}
