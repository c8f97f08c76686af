// SPDX-License-Identifier: GPL-2.0
/*
 * Instructions that cannot be single-stepped safely (int3, int, iret,
 * in/out, hlt, cli/sti, syscall/sysenter, ud2, lock prefix, es/cs/ss/ds
 * segment overrides, mov to %ss, invalid opcodes) are refused: enabling a
 * probe on one fails with an errno while the file is mapped by a running
 * process, the event stays disabled, no byte of the process changes, and
 * the process keeps running correctly (same results as before, and a
 * probe on a good instruction still works in it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "insn_common.h"

/* Kernel-internal "not supported", what the 6.12 engine returns. */
#define ENOTSUPP_KERNEL 524

FIXTURE(refuse) {
	struct upng_child child;
	struct insn_results base, after;
	char ev[64];
};

FIXTURE_VARIANT(refuse) {
	const char *bin;
};

FIXTURE_VARIANT_ADD(refuse, x86_64) {
	.bin = "bin/insn64",
};

FIXTURE_VARIANT_ADD(refuse, i386) {
	.bin = "bin/insn32",
};

FIXTURE_SETUP(refuse)
{
	memset(&self->child, 0, sizeof(self->child));
	upng_evname(self->ev, sizeof(self->ev), "refuse");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(refuse)
{
	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
}

static void run_once(struct __test_metadata *_metadata, struct upng_child *c,
		     struct insn_results *r)
{
	ASSERT_EQ(0, upng_send(c, "run 1"));
	ASSERT_EQ(0, insn_read_results(c, r));
}

TEST_F_TIMEOUT(refuse, refused_and_intact, 300)
{
	static struct upng_sym sym[64];
	const char *path = upng_path(variant->bin);
	unsigned char file[16], mem[16];
	char *argv[] = { (char *)path, "serve", NULL };
	unsigned long mainaddr, delta;
	struct upng_sym mainsym, good;
	uint64_t hash = upng_file_hash(path);
	char line[128];
	int i, n, err;

	ASSERT_EQ(0, upng_elf_sym(path, "main", &mainsym));
	ASSERT_EQ(0, upng_elf_sym(path, "insn_p_nop5", &good));
	n = upng_elf_syms(path, "insn_r_", sym, 64);
	ASSERT_LT(10, n);
	ASSERT_GE(64, n);

	ASSERT_EQ(0, upng_spawn(&self->child, argv));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), INSN_RECV_MS));
	ASSERT_EQ(1, sscanf(line, "ready %lx", &mainaddr));
	delta = mainaddr - mainsym.value;
	run_once(_metadata, &self->child, &self->base);

	for (i = 0; i < n; i++) {
		char ev[64];

		snprintf(ev, sizeof(ev), "%s_%d", self->ev, i);
		ASSERT_EQ(0, upng_probe_add(ev, path, sym[i].offset, NULL));
		err = upng_probe_enable(ev, true);
		EXPECT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP_KERNEL ||
			    err == -EINVAL)
			TH_LOG("%s: enable returned %d", sym[i].name, err);
		EXPECT_EQ(0, upng_probe_enabled(ev)) TH_LOG("%s", sym[i].name);
		ASSERT_EQ(0, upng_file_read(path, sym[i].offset, file,
					    sizeof(file)));
		ASSERT_EQ(0, upng_mem_read(self->child.pid, sym[i].value + delta,
					   mem, sizeof(mem)));
		EXPECT_EQ(0, memcmp(file, mem, sizeof(mem)))
			TH_LOG("%s: bytes changed", sym[i].name);
		EXPECT_EQ(0, upng_probe_del(ev)) TH_LOG("%s", sym[i].name);
	}

	/* The process is intact and a good probe still works in it. */
	ASSERT_EQ(0, upng_probe_add(self->ev, path, good.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	run_once(_metadata, &self->child, &self->after);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(1, upng_probe_hits(self->ev));
	ASSERT_EQ(self->base.n, self->after.n);
	for (i = 0; i < self->base.n; i++)
		EXPECT_STREQ(self->base.line[i], self->after.line[i]);
	ASSERT_EQ(0, upng_send(&self->child, "quit"));
	ASSERT_EQ(0, upng_finish(&self->child, INSN_RECV_MS));
	ASSERT_EQ(hash, upng_file_hash(path));
}

TEST_HARNESS_MAIN
