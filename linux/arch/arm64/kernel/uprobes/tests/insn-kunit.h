/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the arm64 uprobes instruction analysis.
 *
 * Included at the end of analyze.c.  Each case is an A64 instruction word
 * as it would be read from a file (the encodings are the GNU assembler's)
 * and what arch_uprobe_analyze() must make of it: the reason for a
 * refusal, otherwise the simulation and its register, condition, flags
 * and pc-relative offset, or a single-step of the copy.
 */
#ifndef _ARM64_UPROBES_INSN_KUNIT_H
#define _ARM64_UPROBES_INSN_KUNIT_H

#include <kunit/test.h>

/**
 * struct uprobe_arm64_insn_case - one analysis test case
 * @name: the instruction (shown as the parameter name)
 * @insn: its encoding
 * @reason: expected reason of a refusal, NULL when accepted
 * @sim: expected &enum uprobe_arm64_sim
 * @reg: expected register
 * @cond: expected condition, bit number or BTYPE
 * @flags: expected UPROBE_ARM64_* flags
 * @offset: expected pc-relative offset, or the offset of an stp
 * @reg2: expected second register of an stp
 * @ixol: expected copy for the out-of-line step, when not 0 (else the
 *	instruction itself)
 */
struct uprobe_arm64_insn_case {
	const char *name;
	u32 insn;
	const char *reason;
	u8 sim;
	u8 reg;
	u8 cond;
	u8 flags;
	s64 offset;
	u32 ixol;
	u8 reg2;
};

#define STEP		.sim = UPROBE_ARM64_STEP
#define SIM(s)		.sim = UPROBE_ARM64_##s
#define REFUSED(why)	.reason = (why)
#define LINK		UPROBE_ARM64_LINK
#define NZ		UPROBE_ARM64_NZ
#define W		UPROBE_ARM64_W
#define SIGNED		UPROBE_ARM64_SIGNED
#define PRE		UPROBE_ARM64_PRE
#define POST		UPROBE_ARM64_POST
#define BTYPE(t)	.cond = PSR_BTYPE_##t >> PSR_BTYPE_SHIFT
#define PAUTH_LR	"pointer authentication with pc (FEAT_PAuth_LR)"

static const struct uprobe_arm64_insn_case uprobe_arm64_insn_cases[] = {
	/* nothing to do but move pc on: simulated */
	{ "nop", 0xd503201f, SIM(NOP) },
	{ "bti", 0xd503241f, SIM(NOP) },
	{ "bti c", 0xd503245f, SIM(NOP) },
	{ "bti j", 0xd503249f, SIM(NOP) },
	{ "bti jc", 0xd50324df, SIM(NOP) },
	{ "prfm pldl1keep, .+0x40", 0xd8000200, SIM(NOP) },

	/* branches: simulated */
	{ "b .+0x100", 0x14000040, SIM(B), .offset = 0x100 },
	{ "b .-4", 0x17ffffff, SIM(B), .offset = -4 },
	{ "bl .+0x1000", 0x94000400, SIM(B), .flags = LINK,
	  .offset = 0x1000 },
	{ "b.eq .+8", 0x54000040, SIM(BCOND), .cond = 0, .offset = 8 },
	{ "b.ne .-0x20", 0x54ffff01, SIM(BCOND), .cond = 1,
	  .offset = -0x20 },
	{ "b.al .+4", 0x5400002e, SIM(BCOND), .cond = 14, .offset = 4 },
	{ "b.nv .+0x7fffc", 0x543fffef, SIM(BCOND), .cond = 15,
	  .offset = 0x7fffc },
	{ "cbz x3, .+16", 0xb4000083, SIM(CBZ), .reg = 3, .offset = 16 },
	{ "cbnz w5, .-8", 0x35ffffc5, SIM(CBZ), .reg = 5, .flags = NZ | W,
	  .offset = -8 },
	{ "cbz wzr, .+16", 0x3400009f, SIM(CBZ), .reg = 31, .flags = W,
	  .offset = 16 },
	{ "tbz x1, #63, .+4", 0xb6f80021, SIM(TBZ), .reg = 1, .cond = 63,
	  .offset = 4 },
	{ "tbnz w2, #3, .-0x8000", 0x371c0002, SIM(TBZ), .reg = 2, .cond = 3,
	  .flags = NZ, .offset = -0x8000 },
	{ "br x16", 0xd61f0200, SIM(BR), .reg = 16, BTYPE(JC) },
	{ "blr x8", 0xd63f0100, SIM(BR), .reg = 8, .flags = LINK, BTYPE(C) },
	{ "blr x30", 0xd63f03c0, SIM(BR), .reg = 30, .flags = LINK,
	  BTYPE(C) },
	{ "ret", 0xd65f03c0, SIM(BR), .reg = 30, BTYPE(NONE) },
	{ "ret x1", 0xd65f0020, SIM(BR), .reg = 1, BTYPE(NONE) },

	/* pc-relative addresses: simulated */
	{ "adr x0, .+0x10", 0x10000080, SIM(ADR), .reg = 0, .offset = 0x10 },
	{ "adr x1, .-1", 0x70ffffe1, SIM(ADR), .reg = 1, .offset = -1 },
	{ "adr xzr, .+8", 0x1000005f, SIM(ADR), .reg = 31, .offset = 8 },
	{ "adrp x2, .+0x1000", 0xb0000002, SIM(ADRP), .reg = 2,
	  .offset = 0x1000 },
	{ "adrp x3, .-4G", 0x90800003, SIM(ADRP), .reg = 3,
	  .offset = -0x100000000LL },
	{ "adrp x4, .+0xfffff000", 0xf07fffe4, SIM(ADRP), .reg = 4,
	  .offset = 0xfffff000LL },

	/* literal loads: simulated, the copy rewritten for a fallback */
	{ "ldr w1, .+8", 0x18000041, SIM(LDR), .reg = 1, .flags = W,
	  .offset = 8, .ixol = 0xb9400021 /* ldr w1, [x1] */ },
	{ "ldr x2, .-16", 0x58ffff82, SIM(LDR), .reg = 2, .offset = -16,
	  .ixol = 0xf9400042 /* ldr x2, [x2] */ },
	{ "ldrsw x3, .+0x100", 0x98000803, SIM(LDR), .reg = 3,
	  .flags = W | SIGNED, .offset = 0x100,
	  .ixol = 0xb9800063 /* ldrsw x3, [x3] */ },
	{ "ldr x30, .+0xffffc", 0x587ffffe, SIM(LDR), .reg = 30,
	  .offset = 0xffffc, .ixol = 0xf94003de /* ldr x30, [x30] */ },
	{ "ldr x5, .-0x100000", 0x58800005, SIM(LDR), .reg = 5,
	  .offset = -0x100000, .ixol = 0xf94000a5 /* ldr x5, [x5] */ },

	/* a function's entry: simulated */
	{ "add x0, x1, #1", 0x91000420, SIM(ADD_IMM) },
	{ "mov x29, sp", 0x910003fd, SIM(ADD_IMM) },
	{ "sub sp, sp, #0x40", 0xd10103ff, SIM(ADD_IMM) },
	{ "sub sp, sp, #0x2, lsl #12", 0xd1400bff, SIM(ADD_IMM) },
	{ "add w0, w1, #4095", 0x113ffc20, SIM(ADD_IMM) },
	{ "adds x0, x1, #1", 0xb1000420, SIM(ADD_IMM) },
	{ "cmp x0, #1", 0xf100041f, SIM(ADD_IMM) },
	{ "cmn w3, #0x10", 0x3100407f, SIM(ADD_IMM) },
	{ "add x0, x1, x2", 0x8b020020, SIM(ADD_REG) },
	{ "cmp x0, x1", 0xeb01001f, SIM(ADD_REG) },
	{ "sub w2, w3, w4, asr #31", 0x4b847c62, SIM(ADD_REG) },
	{ "neg x0, x1, lsl #3", 0xcb010fe0, SIM(ADD_REG) },
	{ "mov x1, x0", 0xaa0003e1, SIM(LOGIC_REG) },
	{ "mov w19, w0", 0x2a0003f3, SIM(LOGIC_REG) },
	{ "tst x0, x1, lsl #2", 0xea01081f, SIM(LOGIC_REG) },
	{ "bic x0, x1, x2, ror #63", 0x8ae2fc20, SIM(LOGIC_REG) },
	{ "eon w0, w1, w2", 0x4a220020, SIM(LOGIC_REG) },
	{ "mov x0, #1", 0xd2800020, SIM(MOVW) },
	{ "mov w0, #-1", 0x12800000, SIM(MOVW) },
	{ "movk x1, #0x1234, lsl #48", 0xf2e24681, SIM(MOVW) },
	{ "stp x29, x30, [sp, #-16]!", 0xa9bf7bfd, SIM(STP), .reg = 29,
	  .reg2 = 30, .cond = 31, .flags = PRE, .offset = -16 },
	{ "stp x19, x20, [sp, #16]", 0xa90153f3, SIM(STP), .reg = 19,
	  .reg2 = 20, .cond = 31, .offset = 16 },
	{ "stp w0, wzr, [x1], #8", 0x28817c20, SIM(STP), .reg = 0,
	  .reg2 = 31, .cond = 1, .flags = W | POST, .offset = 8 },
	{ "ldr x0, [x1]", 0xf9400020, SIM(LDST) },
	{ "str w0, [x1, #4]", 0xb9000420, SIM(LDST) },
	{ "str x0, [sp, #8]", 0xf90007e0, SIM(LDST) },
	{ "str x30, [sp, #-16]!", 0xf81f0ffe, SIM(LDST) },
	{ "ldr x19, [sp], #16", 0xf84107f3, SIM(LDST) },
	{ "ldur w0, [x29, #-4]", 0xb85fc3a0, SIM(LDST) },
	{ "ldrsb x0, [x1, #1]", 0x39800420, SIM(LDST) },
	{ "ldrsh w0, [x1, #2]", 0x79c00420, SIM(LDST) },
	{ "ldrsw x0, [x1, #4]", 0xb9800420, SIM(LDST) },
	{ "strb wzr, [x0, #4095]", 0x393ffc1f, SIM(LDST) },
	{ "prfm pldl1keep, [x0]", 0xf9800000, SIM(NOP) },
	{ "prfum pldl1keep, [x0, #-1]", 0xf89ff000, SIM(NOP) },

	/* position-independent, not simulated: stepped */
	{ "stp x0, x1, [x0, #16]! (base stored too)", 0xa9810400, STEP },
	{ "ldr x0, [x0], #8 (base loaded too)", 0xf8408400, STEP },
	{ "str x1, [x1, #-8]! (base stored too)", 0xf81f8c21, STEP },
	{ "ldtr x0, [x1]", 0xf8400820, STEP },
	{ "ldr x0, [x1, x2, lsl #3]", 0xf8627820, STEP },
	{ "add x0, x1, w2, uxtw", 0x8b224020, STEP },
	{ "add w0, w1, w2, lsl #32 (unallocated)", 0x0b028020, STEP },
	{ "add x0, x1, x2, ror #1 (reserved)", 0x8bc20420, STEP },
	{ "movz w0, #1, lsl #32 (unallocated)", 0x52c00020, STEP },
	{ "move wide opc 01 (unallocated)", 0xb2800020, STEP },
	{ "ldrsw x0, [x1]! opc 11 (unallocated)", 0xb8c00c20, STEP },
	{ "and x0, x1, #0xff", 0x92401c20, STEP },
	{ "adc x0, x1, x2", 0x9a020020, STEP },
	{ "addg x0, x1, #16, #1", 0x91810420, STEP },
	{ "stp q0, q1, [sp, #-32]!", 0xadbf07e0, STEP },
	{ "stgp x0, x1, [x2]", 0x69000440, STEP },
	{ "ldp x19, x20, [sp], #16", 0xa8c153f3, STEP },
	{ "str q0, [sp, #16]", 0x3d8007e0, STEP },
	{ "ldr q0, [x1]", 0x3dc00020, STEP },
	{ "ld1 {v0.16b}, [x0]", 0x4c407000, STEP },
	{ "udiv x0, x1, x2", 0x9ac20820, STEP },
	{ "csel x0, x1, x2, eq", 0x9a820020, STEP },
	{ "fadd d0, d1, d2", 0x1e622820, STEP },
	{ "add z0.d, z1.d, z2.d (SVE)", 0x04e20020, STEP },
	{ "zero {za} (SME)", 0xc00800ff, STEP },
	{ "fmopa za0.s, ... (SME)", 0x80812000, STEP },
	{ "paciasp", 0xd503233f, STEP },
	{ "autiasp", 0xd50323bf, STEP },
	{ "xpaclri", 0xd50320ff, STEP },
	{ "yield", 0xd503203f, STEP },
	{ "wfe", 0xd503205f, STEP },
	{ "dmb ish", 0xd5033bbf, STEP },
	{ "dsb sy", 0xd5033f9f, STEP },
	{ "isb", 0xd5033fdf, STEP },
	{ "clrex", 0xd5033f5f, STEP },
	{ "sb", 0xd50330ff, STEP },
	{ "ldar x0, [x1]", 0xc8dffc20, STEP },
	{ "stlr w0, [x1]", 0x889ffc20, STEP },
	{ "cas x0, x1, [x2]", 0xc8a07c41, STEP },
	{ "casp x0, x1, x2, x3, [x4]", 0x48207c82, STEP },
	{ "ldadd w0, w1, [x2]", 0xb8200041, STEP },
	{ "ldapr x0, [x1]", 0xf8bfc020, STEP },
	{ "mrs x0, tpidr_el0", 0xd53bd040, STEP },
	{ "msr tpidr_el0, x0", 0xd51bd040, STEP },
	{ "mrs x0, nzcv", 0xd53b4200, STEP },
	{ "msr fpcr, x0", 0xd51b4400, STEP },
	{ "mrs x0, cntvct_el0", 0xd53be040, STEP },
	{ "mrs x0, ctr_el0", 0xd53b0020, STEP },
	{ "mrs x0, midr_el1 (emulated)", 0xd5380000, STEP },
	{ "mrs x0, id_aa64isar0_el1 (emulated)", 0xd5380600, STEP },
	{ "dc zva, x0", 0xd50b7420, STEP },
	{ "dc civac, x0", 0xd50b7e20, STEP },
	{ "ic ivau, x0", 0xd50b7520, STEP },
	{ "msr ssbs, #1", 0xd503413f, STEP },
	{ "msr dit, #1", 0xd503415f, STEP },
	{ "msr tco, #1", 0xd503419f, STEP },
	{ "cfinv", 0xd500401f, STEP },

	/* exclusive loads and stores: the trap clears the monitor */
	{ "ldxr x0, [x1]", 0xc85f7c20, REFUSED("exclusive load/store") },
	{ "stxr w2, x0, [x1]", 0xc8027c20, REFUSED("exclusive load/store") },
	{ "ldaxrb w0, [x1]", 0x085ffc20, REFUSED("exclusive load/store") },
	{ "stlxr w3, w0, [x1]", 0x8803fc20, REFUSED("exclusive load/store") },
	{ "ldxp x0, x1, [x2]", 0xc87f0440, REFUSED("exclusive load/store") },
	{ "stxp w4, x0, x1, [x2]", 0xc8240440,
	  REFUSED("exclusive load/store") },

	/* FEAT_MOPS sequences */
	{ "cpyfp [x0]!, [x1]!, x2!", 0x19010440,
	  REFUSED("memory copy or set (FEAT_MOPS)") },
	{ "cpyp [x0]!, [x1]!, x2!", 0x1d010440,
	  REFUSED("memory copy or set (FEAT_MOPS)") },
	{ "setp [x0]!, x1!, x2", 0x19c20420,
	  REFUSED("memory copy or set (FEAT_MOPS)") },

	/* exception generation */
	{ "svc #0", 0xd4000001, REFUSED("exception-generating instruction") },
	{ "hvc #0", 0xd4000002, REFUSED("exception-generating instruction") },
	{ "smc #0", 0xd4000003, REFUSED("exception-generating instruction") },
	{ "brk #0", 0xd4200000, REFUSED("exception-generating instruction") },
	{ "brk #5 (ours)", 0xd42000a0,
	  REFUSED("exception-generating instruction") },
	{ "hlt #0", 0xd4400000, REFUSED("exception-generating instruction") },

	/* pc readers that are not simulated */
	{ "braa x0, x1", 0xd71f0801,
	  REFUSED("branch with pointer authentication") },
	{ "blraa x0, x1", 0xd73f0801,
	  REFUSED("branch with pointer authentication") },
	{ "retaa", 0xd65f0bff, REFUSED("branch with pointer authentication") },
	{ "retab", 0xd65f0fff, REFUSED("branch with pointer authentication") },
	{ "braaz x3", 0xd61f087f,
	  REFUSED("branch with pointer authentication") },
	/* FEAT_PAuth_LR: pc as a modifier refused, a register's stepped */
	{ "paciasppc", 0xdac1a3fe, REFUSED(PAUTH_LR) },
	{ "pacibsppc", 0xdac1a7fe, REFUSED(PAUTH_LR) },
	{ "pacnbiasppc", 0xdac183fe, REFUSED(PAUTH_LR) },
	{ "pacnbibsppc", 0xdac187fe, REFUSED(PAUTH_LR) },
	{ "autiasppc .-4", 0xf380003f, REFUSED(PAUTH_LR) },
	{ "autibsppc .-8", 0xf3a0005f, REFUSED(PAUTH_LR) },
	{ "retaasppc .-4", 0x5500003f, REFUSED(PAUTH_LR) },
	{ "retabsppc .-8", 0x5520005f, REFUSED(PAUTH_LR) },
	{ "retaasppcr x16", 0xd65f0bf0, REFUSED(PAUTH_LR) },
	{ "retabsppcr x2", 0xd65f0fe2, REFUSED(PAUTH_LR) },
	{ "autiasppcr x16", 0xdac1921e, STEP },
	{ "autibsppcr x1", 0xdac1943e, STEP },
	{ "pacia171615", 0xdac18bfe, STEP },
	{ "autib171615", 0xdac1bffe, STEP },
	{ "pacm", 0xd50324ff, STEP },
	{ "eret", 0xd69f03e0, REFUSED("exception return") },
	{ "eretaa", 0xd69f0bff, REFUSED("exception return") },
	{ "drps", 0xd6bf03e0, REFUSED("exception return") },
	{ "ldr q0, .+8", 0x9c000040, REFUSED("SIMD&FP literal load") },
	{ "ldr d1, .+8", 0x5c000041, REFUSED("SIMD&FP literal load") },
	{ "ldr s2, .-8", 0x1cffffc2, REFUSED("SIMD&FP literal load") },
	{ "ldr xzr, .+8", 0x5800005f,
	  REFUSED("literal load into the zero register") },

	/* system instructions */
	{ "msr daifset, #2", 0xd50342df, REFUSED("PSTATE write") },
	{ "msr spsel, #1", 0xd50041bf, REFUSED("PSTATE write") },
	{ "msr pan, #1", 0xd500419f, REFUSED("PSTATE write") },
	{ "smstart", 0xd503477f, REFUSED("PSTATE write") },
	{ "msr sctlr_el1, x0", 0xd5181000, REFUSED("system register access") },
	{ "mrs x0, sctlr_el1", 0xd5381000, REFUSED("system register access") },
	{ "mrs x0, mdccsr_el0", 0xd5330100, REFUSED("debug register access") },
	{ "msr dbgdtr_el0, x0", 0xd5130400, REFUSED("debug register access") },
	{ "tlbi vmalle1", 0xd508871f, REFUSED("system instruction") },
	{ "dc ivac, x0", 0xd5087620, REFUSED("system instruction") },
	{ "at s1e1r, x0", 0xd5087800, REFUSED("system instruction") },
	{ "wfet x0", 0xd5031000, REFUSED("system instruction") },
	{ "tstart x0", 0xd5233060, REFUSED("system instruction") },
	{ "tcommit", 0xd503307f, REFUSED("system instruction") },

	/* unallocated */
	{ "udf #0", 0x00000000, REFUSED("undefined instruction") },
	{ "group 0001", 0x02000000, REFUSED("undefined instruction") },
	{ "group 0011", 0x06000000, REFUSED("undefined instruction") },
	{ "branch group 0x74", 0x74000000, REFUSED("undefined instruction") },
	{ "ldr (literal) opc 11 V 1", 0xdc000000,
	  REFUSED("undefined instruction") },
};

static void uprobe_arm64_insn_case_desc(const struct uprobe_arm64_insn_case *c,
					char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(uprobe_arm64_insn, uprobe_arm64_insn_cases,
		  uprobe_arm64_insn_case_desc);

/* Analyses @insn as A64 code into @au. */
static int uprobe_arm64_analyze_word(struct arch_uprobe *au, u32 insn,
				     const char **reason)
{
	__le32 word = cpu_to_le32(insn);

	memset(au, 0, sizeof(*au));
	memcpy(au->insn, &word, sizeof(word));
	return arch_uprobe_analyze(au, true, reason);
}

static void uprobe_arm64_insn_test(struct kunit *test)
{
	const struct uprobe_arm64_insn_case *c = test->param_value;
	__le32 word = cpu_to_le32(c->insn);
	__le32 ixol = cpu_to_le32(c->ixol ? c->ixol : c->insn);
	const char *reason = "untouched";
	struct arch_uprobe au;
	int err;

	err = uprobe_arm64_analyze_word(&au, c->insn, &reason);
	/* ->insn is what the breakpoint replaced: never modified */
	KUNIT_EXPECT_MEMEQ(test, au.insn, &word, sizeof(word));
	if (c->reason) {
		KUNIT_EXPECT_EQ(test, err, -EOPNOTSUPP);
		KUNIT_EXPECT_STREQ(test, reason, c->reason);
		return;
	}
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_NULL(test, reason);
	KUNIT_EXPECT_EQ(test, au.sim, c->sim);
	KUNIT_EXPECT_EQ(test, au.reg, c->reg);
	KUNIT_EXPECT_EQ(test, au.cond, c->cond);
	KUNIT_EXPECT_EQ(test, au.flags, c->flags);
	KUNIT_EXPECT_EQ(test, au.offset, c->offset);
	KUNIT_EXPECT_EQ(test, au.reg2, c->reg2);
	KUNIT_EXPECT_MEMEQ(test, au.ixol, &ixol, sizeof(ixol));
	KUNIT_EXPECT_STREQ(test, arch_uprobe_kind(&au, true),
			   c->sim == UPROBE_ARM64_STEP ? "stepped" : "emulated");
}

/* bc.cond exists with FEAT_HBC only: else it is undefined. */
static void uprobe_arm64_insn_bc_cond(struct kunit *test)
{
	const char *reason;
	struct arch_uprobe au;
	int err;

	/* bc.eq .+8 */
	err = uprobe_arm64_analyze_word(&au, 0x54000050, &reason);
	if (!cpu_have_named_feature(HBC)) {
		KUNIT_EXPECT_EQ(test, err, -EOPNOTSUPP);
		KUNIT_EXPECT_STREQ(test, reason, "undefined instruction");
		return;
	}
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, au.sim, UPROBE_ARM64_BCOND);
	KUNIT_EXPECT_EQ(test, au.cond, 0);
	KUNIT_EXPECT_EQ(test, au.offset, 8);
}

/* A 32-bit file holds AArch32 code: refused, whatever the word. */
static void uprobe_arm64_insn_aarch32(struct kunit *test)
{
	struct arch_uprobe au = { };
	const char *reason;

	KUNIT_EXPECT_EQ(test, arch_uprobe_analyze(&au, false, &reason),
			-EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, reason, "AArch32 code is not supported");
}

/* Analysing twice (re-registration) gives the same result. */
static void uprobe_arm64_insn_idempotent(struct kunit *test)
{
	struct arch_uprobe a, b;
	const char *reason;

	/* ldrsw x3, .+0x100: rewritten copy */
	KUNIT_ASSERT_EQ(test, uprobe_arm64_analyze_word(&a, 0x98000803,
							&reason), 0);
	b = a;
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&b, true, &reason), 0);
	KUNIT_EXPECT_MEMEQ(test, &a, &b, sizeof(a));
}

/*
 * Every encoding of the branch, exception and system group with the
 * register and immediate fields cleared gets a verdict, and whatever is
 * accepted and reads pc is simulated, never stepped from a slot.
 */
static void uprobe_arm64_insn_branch_group(struct kunit *test)
{
	const char *reason;
	struct arch_uprobe au;
	u32 hi;
	int err;

	for (hi = 0; hi < 0x100; hi++) {
		u32 insn = hi << 24 | 0x001f0000;

		if ((insn >> 26 & 0x7) != 0x5)
			continue;
		err = uprobe_arm64_analyze_word(&au, insn, &reason);
		if (err) {
			KUNIT_EXPECT_NOT_NULL_MSG(test, reason, "%#x", insn);
			continue;
		}
		if (aarch64_insn_is_branch(insn))
			KUNIT_EXPECT_NE_MSG(test, au.sim, UPROBE_ARM64_STEP,
					    "%#x", insn);
	}
}

#undef STEP
#undef SIM
#undef REFUSED
#undef LINK
#undef NZ
#undef W
#undef SIGNED
#undef PRE
#undef POST
#undef BTYPE

static struct kunit_case uprobe_arm64_insn_test_cases[] = {
	KUNIT_CASE_PARAM(uprobe_arm64_insn_test, uprobe_arm64_insn_gen_params),
	KUNIT_CASE(uprobe_arm64_insn_bc_cond),
	KUNIT_CASE(uprobe_arm64_insn_aarch32),
	KUNIT_CASE(uprobe_arm64_insn_idempotent),
	KUNIT_CASE(uprobe_arm64_insn_branch_group),
	{}
};

static struct kunit_suite uprobe_arm64_insn_suite = {
	.name = "uprobes_arm64_insn",
	.test_cases = uprobe_arm64_insn_test_cases,
};

kunit_test_suite(uprobe_arm64_insn_suite);

#endif /* _ARM64_UPROBES_INSN_KUNIT_H */
