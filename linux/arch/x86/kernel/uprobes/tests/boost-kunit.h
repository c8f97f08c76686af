/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the choice of boosted execution (boost.c).
 *
 * Included at the end of boost.c.  Each case is an instruction as read
 * from a file, analysed, then classified by arch_uprobe_kind(): emulated
 * in the kernel, run from a boosted slot (copy and jump back), or
 * single-stepped.
 */
#ifndef _X86_UPROBES_BOOST_KUNIT_H
#define _X86_UPROBES_BOOST_KUNIT_H

#include <kunit/test.h>
#include <linux/sizes.h>

/**
 * struct uprobe_x86_boost_case - one classification test case
 * @name: description (shown as the parameter name)
 * @bytes: the probed bytes, zero padded
 * @is_64bit: decode as a 64-bit (true) or 32-bit program
 * @kind: expected arch_uprobe_kind()
 */
struct uprobe_x86_boost_case {
	const char *name;
	u8 bytes[MAX_UINSN_BYTES];
	bool is_64bit;
	const char *kind;
};

#define B64(n, k, ...)	{ n, { __VA_ARGS__ }, true, k }
#define B32(n, k, ...)	{ n, { __VA_ARGS__ }, false, k }

static const struct uprobe_x86_boost_case uprobe_x86_boost_cases[] = {
	/* emulated: never boosted */
	B64("push %rbp", "emulated", 0x55),
	B64("ret", "emulated", 0xc3),
	B64("mov 0x10(%rip),%rax", "emulated", 0x48, 0x8b, 0x05, 0x10, 0, 0, 0),
	B64("mov %rax,0x10(%rip)", "emulated", 0x48, 0x89, 0x05, 0x10, 0, 0, 0),
	B64("cmpb $0,0x10(%rip)", "emulated", 0x80, 0x3d, 0x10, 0, 0, 0, 0x00),
	B64("pushf", "emulated", 0x9c),
	/* a nop of five bytes or more: a jump to a stub, in 64-bit code only */
	B64("nopl 0x0(%rax,%rax,1)", "jump", 0x0f, 0x1f, 0x44, 0x00, 0x00),
	B64("nopw 0x0(%rax,%rax,1)", "jump",
	    0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00),
	B64("nopl 0x0(%rax) (disp32)", "jump",
	    0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00),
	B64("nopl 0x0(%rax,%rax,1) (disp32)", "jump",
	    0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	B64("nopw %cs:0x0(%rax,%rax,1)", "jump",
	    0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	B64("data16 nopw %cs:0x0(%rax,%rax,1)", "jump",
	    0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	B32("nopl 0x0(%eax,%eax,1)", "emulated", 0x0f, 0x1f, 0x44, 0x00, 0x00),
	B32("nopw %cs:0x0(%eax,%eax,1)", "emulated",
	    0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00),
	B64("nopl 0x0(%rax)", "emulated", 0x0f, 0x1f, 0x40, 0x00),
	/* registers only */
	B64("mov %rdi,%rax", "boosted", 0x48, 0x89, 0xf8),
	B64("sub $8,%rsp", "boosted", 0x48, 0x83, 0xec, 0x08),
	B64("xor %eax,%eax", "boosted", 0x31, 0xc0),
	B64("test %rdi,%rdi", "boosted", 0x48, 0x85, 0xff),
	B64("lea 8(%rdi),%rax", "boosted", 0x48, 0x8d, 0x47, 0x08),
	B64("mov $1,%eax", "boosted", 0xb8, 0x01, 0, 0, 0),
	/* memory operands, not rip-relative */
	B64("mov (%rdi),%eax", "boosted", 0x8b, 0x07),
	B64("mov %rdi,-8(%rsp)", "boosted", 0x48, 0x89, 0x7c, 0x24, 0xf8),
	B64("add (%rdx),%rax", "boosted", 0x48, 0x03, 0x02),
	B64("cmpb $0,(%rdi)", "boosted", 0x80, 0x3f, 0x00),
	B64("movzbl (%rsi),%eax", "boosted", 0x0f, 0xb6, 0x06),
	B64("incl (%rax)", "boosted", 0xff, 0x00),
	B64("mov %fs:0x28,%rax", "boosted",
	    0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0),
	B64("pop %rbx", "boosted", 0x5b),
	B64("push $1", "boosted", 0x6a, 0x01),
	B64("leave", "boosted", 0xc9),
	B32("mov 4(%esp),%eax", "boosted", 0x8b, 0x44, 0x24, 0x04),
	/* rip-relative: relocated for the slot */
	B64("orb $1,0x10(%rip)", "boosted", 0x80, 0x0d, 0x10, 0, 0, 0, 0x01),
	B64("addl $1,0x10(%rip)", "boosted", 0x83, 0x05, 0x10, 0, 0, 0, 0x01),
	B64("movzbl 0x10(%rip),%eax", "boosted", 0x0f, 0xb6, 0x05, 0x10, 0, 0, 0),
	/* MMX, SSE and AVX */
	B64("movdqu (%rdi),%xmm0", "boosted", 0xf3, 0x0f, 0x6f, 0x07),
	B64("movdqu 0x10(%rip),%xmm0", "boosted",
	    0xf3, 0x0f, 0x6f, 0x05, 0x10, 0, 0, 0),
	B64("movsd 0x10(%rip),%xmm9", "boosted",
	    0xf2, 0x44, 0x0f, 0x10, 0x0d, 0x10, 0, 0, 0),
	B64("movq %xmm0,%rax", "boosted", 0x66, 0x48, 0x0f, 0x7e, 0xc0),
	B64("pxor %xmm1,%xmm1", "boosted", 0x66, 0x0f, 0xef, 0xc9),
	B64("vmovdqu 0x10(%rip),%ymm0", "boosted",
	    0xc5, 0xfe, 0x6f, 0x05, 0x10, 0, 0, 0),
	B64("vxorps %ymm0,%ymm0,%ymm0", "boosted", 0xc5, 0xfc, 0x57, 0xc0),
	B64("cvtsi2sdl 0x10(%rip),%xmm0", "boosted",
	    0xf2, 0x0f, 0x2a, 0x05, 0x10, 0, 0, 0),
	B64("divsd %xmm1,%xmm0", "boosted", 0xf2, 0x0f, 0x5e, 0xc1),
	B64("pshufb (%rdi),%xmm0 (0f 38)", "boosted",
	    0x66, 0x0f, 0x38, 0x00, 0x07),
	B64("pcmpestri $0,(%rdi),%xmm0 (0f 3a)", "boosted",
	    0x66, 0x0f, 0x3a, 0x61, 0x07, 0x00),
	B64("vmovntdqa (%rdi),%ymm0 (VEX 0f 38)", "boosted",
	    0xc4, 0xe2, 0x7d, 0x2a, 0x07),
	B64("vpermq $0,%ymm1,%ymm0 (VEX 0f 3a)", "boosted",
	    0xc4, 0xe3, 0xfd, 0x00, 0xc1, 0x00),
	/* stepped: address-dependent, fixed up, or not in the lists */
	B64("pushfw", "stepped", 0x66, 0x9c),
	B64("call *0x10(%rip)", "stepped", 0xff, 0x15, 0x10, 0, 0, 0),
	B64("flds (%rax) (x87 records its address)", "stepped",
	    0xd9, 0x00),
	B64("emms", "stepped", 0x0f, 0x77),
	B64("vmovups (%rdi),%zmm0 (EVEX)", "stepped",
	    0x62, 0xf1, 0x7c, 0x48, 0x10, 0x07),
	B64("call *%rax", "stepped", 0xff, 0xd0),
	B64("jmp *(%rax)", "stepped", 0xff, 0x20),
	B64("rep movsb", "stepped", 0xf3, 0xa4),
	B64("xlat", "stepped", 0xd7),
	B64("mov %es,%eax", "stepped", 0x8c, 0xc0),
};

static void uprobe_x86_boost_case_desc(const struct uprobe_x86_boost_case *c,
				       char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (%s)", c->name,
		 c->is_64bit ? "64" : "32");
}

KUNIT_ARRAY_PARAM(uprobe_x86_boost, uprobe_x86_boost_cases,
		  uprobe_x86_boost_case_desc);

static void uprobe_x86_boost_test(struct kunit *test)
{
	const struct uprobe_x86_boost_case *c = test->param_value;
	struct arch_uprobe au = { };
	const char *reason;

	if (c->is_64bit && !IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "64-bit code on a 32-bit kernel");

	memcpy(au.insn, c->bytes, sizeof(au.insn));
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&au, c->is_64bit, &reason), 0);
	KUNIT_EXPECT_STREQ(test, arch_uprobe_kind(&au, c->is_64bit), c->kind);
}

/*
 * x87 on a disp32(%rip) operand is never boosted (it records its address):
 * the kernel runs it, or, where FIP cannot be put back, it is stepped.
 */
static void uprobe_x86_boost_x87_test(struct kunit *test)
{
	static const u8 flds[] = { 0xd9, 0x05, 0x10, 0, 0, 0 };
	struct arch_uprobe au = { };
	const char *reason;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "64-bit code on a 32-bit kernel");
	memcpy(au.insn, flds, sizeof(flds));
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&au, true, &reason), 0);
	KUNIT_EXPECT_STREQ(test, arch_uprobe_kind(&au, true),
			   uprobe_x86_x87_runs(010) ? "emulated" : "stepped");
}

#ifdef CONFIG_X86_64
/*
 * A boosted copy of a rip-relative instruction addresses the original's
 * target from its slot; a slot out of rel32 reach is refused (-ERANGE).
 */
static void uprobe_x86_boost_riprel_test(struct kunit *test)
{
	/* movdqu 0x10(%rip),%xmm0: the target is vaddr + 8 + 0x10 */
	static const u8 movdqu[] = { 0xf3, 0x0f, 0x6f, 0x05, 0x10, 0, 0, 0 };
	unsigned long vaddr = 0x555555554000UL, slot = vaddr - 0x10000;
	struct pt_regs regs = { .cs = __USER_CS };
	u8 buf[UPROBE_XOL_SLOT_BYTES];
	struct arch_uprobe au = { };
	const char *reason;
	int len;

	memcpy(au.insn, movdqu, sizeof(movdqu));
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&au, true, &reason), 0);
	len = arch_uprobe_boost_insn(&au, &regs, vaddr, slot, buf);
	/* the copy, then jmp *0(%rip) and the address after the original */
	KUNIT_ASSERT_EQ(test, len, 8 + 6 + 8);
	KUNIT_EXPECT_MEMEQ(test, buf, movdqu, 4);
	KUNIT_EXPECT_EQ(test, (long)(s32)get_unaligned_le32(buf + 4),
			(long)(vaddr + 8 + 0x10 - (slot + 8)));
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf + 14), vaddr + 8);
	/* 4 GiB away: no rel32 reaches */
	KUNIT_EXPECT_EQ(test, arch_uprobe_boost_insn(&au, &regs, vaddr,
						     vaddr - SZ_4G, buf),
			-ERANGE);
}
#endif

#ifdef CONFIG_X86_64
/*
 * The stub of a nop of five to eleven bytes: the nop's first five bytes
 * become a jump to it, its final jmp goes after the whole nop; not in
 * 32-bit code.
 */
static void uprobe_x86_stub_code_test(struct kunit *test)
{
	static const u8 nops[][11] = {
		{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00,
		  0x00 },
	};
	unsigned long vaddr = 0x555555554ff0UL, slot = 0x555555540040UL;
	struct pt_regs regs64 = { .cs = __USER_CS };
	struct pt_regs regs32 = { .cs = __USER32_CS };
	u8 buf[UPROBE_XOL_SLOT_BYTES], jump[UPROBE_X86_STUB_JMP_LEN];
	const char *reason;
	int i, len;

	for (i = 0; i < ARRAY_SIZE(nops); i++) {
		struct arch_uprobe au = { };

		memcpy(au.insn, nops[i], sizeof(nops[i]));
		KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&au, true, &reason), 0);
		KUNIT_EXPECT_EQ(test, au.len, 5 + i);
		KUNIT_EXPECT_TRUE(test, arch_uprobe_stub_ok(&au, &regs64));
		KUNIT_EXPECT_FALSE(test, arch_uprobe_stub_ok(&au, &regs32));
		len = arch_uprobe_stub_code(&au, vaddr, slot, buf);
		KUNIT_ASSERT_GT(test, len, UPROBE_X86_STUB_JMP_LEN);
		/* the stub ends with jmp vaddr + the nop's length */
		KUNIT_EXPECT_EQ(test, buf[len - 5], 0xe9);
		KUNIT_EXPECT_EQ(test, slot + len +
				(long)(s32)get_unaligned_le32(buf + len - 4),
				vaddr + 5 + i);
		KUNIT_ASSERT_EQ(test, arch_uprobe_stub_jump(vaddr, slot, jump),
				UPROBE_X86_STUB_JMP_LEN);
		KUNIT_EXPECT_EQ(test, jump[0], 0xe9);
		KUNIT_EXPECT_EQ(test, vaddr + 5 +
				(long)(s32)get_unaligned_le32(jump + 1), slot);
	}
}
#endif

#undef B64
#undef B32

static struct kunit_case uprobe_x86_boost_test_cases[] = {
	KUNIT_CASE_PARAM(uprobe_x86_boost_test, uprobe_x86_boost_gen_params),
	KUNIT_CASE(uprobe_x86_boost_x87_test),
#ifdef CONFIG_X86_64
	KUNIT_CASE(uprobe_x86_boost_riprel_test),
	KUNIT_CASE(uprobe_x86_stub_code_test),
#endif
	{}
};

static struct kunit_suite uprobe_x86_boost_suite = {
	.name = "uprobes_x86_boost",
	.test_cases = uprobe_x86_boost_test_cases,
};

kunit_test_suite(uprobe_x86_boost_suite);

#endif /* _X86_UPROBES_BOOST_KUNIT_H */
