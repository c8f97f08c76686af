/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the arm64 uprobes return probes: the diversion of the
 * link register and the registers a return through the trampoline
 * leaves (the liveness of diverted frames is the engine's, ret-kunit.h).
 *
 * Included at the end of retprobe.c.
 */
#ifndef _ARM64_UPROBES_RETPROBE_KUNIT_H
#define _ARM64_UPROBES_RETPROBE_KUNIT_H

#include <kunit/test.h>

#define RET_TRAMP	0xffff0000UL
#define RET_ADDR	0x412348UL

/* x30 is diverted; a diverted one stays; a signed one is left alone. */
static void uprobe_arm64_ret_hijack(struct kunit *test)
{
	/* bits above the user range: a pointer authentication code */
	unsigned long signed_lr = RET_ADDR | 0x002a000000000000UL;
	struct pt_regs regs = { };

	regs.regs[30] = RET_ADDR;
	KUNIT_EXPECT_EQ(test, arch_uretprobe_hijack_return_addr(RET_TRAMP,
								&regs),
			RET_ADDR);
	KUNIT_EXPECT_EQ(test, regs.regs[30], RET_TRAMP);

	KUNIT_EXPECT_EQ(test, arch_uretprobe_hijack_return_addr(RET_TRAMP,
								&regs),
			RET_TRAMP);
	KUNIT_EXPECT_EQ(test, regs.regs[30], RET_TRAMP);

	regs.regs[30] = signed_lr;
	KUNIT_EXPECT_EQ(test, arch_uretprobe_hijack_return_addr(RET_TRAMP,
								&regs),
			-1UL);
	KUNIT_EXPECT_EQ(test, regs.regs[30], signed_lr);
}

/* What signs x30, what begins a function, where x30 is plain again. */
static void uprobe_arm64_ret_signing(struct kunit *test)
{
	static const u32 signs[] = {
		0xd503233f,	/* paciasp */
		0xd503237f,	/* pacibsp */
		0xd503231f,	/* paciaz */
		0xd503235f,	/* pacibz */
		0xdac103fe,	/* pacia x30, sp */
		0xdac1043e,	/* pacib x30, x1 */
		0xdac123fe,	/* paciza x30 */
		0xdac1a3fe,	/* paciasppc */
		0xdac187fe,	/* pacnbibsppc */
	};
	static const u32 others[] = {
		0xd503211f,	/* pacia1716: x17 */
		0xdac10020,	/* pacia x0, x1 */
		0xdac10bfe,	/* pacda x30, sp */
		0xd50323bf,	/* autiasp */
		0xd503245f,	/* bti c */
		0xa9bf7bfd,	/* stp x29, x30, [sp, #-16]! */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(signs); i++) {
		KUNIT_EXPECT_TRUE_MSG(test, uprobe_arm64_signs_lr(signs[i]),
				      "%08x", signs[i]);
		KUNIT_EXPECT_TRUE_MSG(test, uprobe_arm64_lr_entry(signs[i]),
				      "%08x", signs[i]);
	}
	for (i = 0; i < ARRAY_SIZE(others); i++)
		KUNIT_EXPECT_FALSE_MSG(test, uprobe_arm64_signs_lr(others[i]),
				       "%08x", others[i]);
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_entry(0xd503245f));	/* bti c */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_entry(0xd50324df));	/* bti jc */
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_lr_entry(0xd503249f));	/* bti j */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_plain_after(0xd65f03c0));	/* ret */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_plain_after(0x14000010));	/* b */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_plain_after(0xd61f0220));	/* br x17 */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_plain_after(0xd50323bf));	/* autiasp */
	KUNIT_EXPECT_TRUE(test, uprobe_arm64_lr_plain_after(0));	/* udf #0 */
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_lr_plain_after(0x94000010));	/* bl */
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_lr_plain_after(0x54000040));	/* b.eq */
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_lr_plain_after(0xa9bf7bfd));	/* stp */
}

/* Back from the trampoline: pc, and x30 where ret took it from there. */
static void uprobe_arm64_ret_set_return(struct kunit *test)
{
	struct pt_regs regs = { };

	regs.pc = RET_TRAMP;
	regs.regs[30] = RET_TRAMP;
	arch_uretprobe_set_return(&regs, RET_ADDR);
	KUNIT_EXPECT_EQ(test, regs.pc, RET_ADDR);
	KUNIT_EXPECT_EQ(test, regs.regs[30], RET_ADDR);

	/* "ret x5": x30 is the program's own, untouched */
	regs.pc = RET_TRAMP;
	regs.regs[30] = 0x400100UL;
	arch_uretprobe_set_return(&regs, RET_ADDR);
	KUNIT_EXPECT_EQ(test, regs.pc, RET_ADDR);
	KUNIT_EXPECT_EQ(test, regs.regs[30], 0x400100UL);
}

#undef RET_TRAMP
#undef RET_ADDR

static struct kunit_case uprobe_arm64_ret_test_cases[] = {
	KUNIT_CASE(uprobe_arm64_ret_hijack),
	KUNIT_CASE(uprobe_arm64_ret_signing),
	KUNIT_CASE(uprobe_arm64_ret_set_return),
	{}
};

static struct kunit_suite uprobe_arm64_ret_suite = {
	.name = "uprobes_arm64_retprobe",
	.test_cases = uprobe_arm64_ret_test_cases,
};

kunit_test_suite(uprobe_arm64_ret_suite);

#endif /* _ARM64_UPROBES_RETPROBE_KUNIT_H */
