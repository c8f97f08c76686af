// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: instruction analysis.
 *
 * A probed instruction is replaced by a BRK with the uprobes immediate.
 * When the breakpoint is hit the instruction is either simulated on the
 * user registers or copied to a per-thread execute-out-of-line (XOL) slot
 * and single-stepped there.  This file decides, once per probe and from
 * the word in the file, whether that is possible and how.
 *
 * The policy, in short:
 *  - Only A64 code: a 32-bit (AArch32) file is refused.
 *  - Simulate every instruction that reads pc, so that it never runs at
 *    another address: b, bl, b.cond, bc.cond, cbz, cbnz, tbz, tbnz, br,
 *    blr, ret, adr, adrp, ldr and ldrsw (literal); the few that do
 *    nothing but move pc on: nop, bti, prfm; and what a function's entry
 *    does most: stp of two general registers (the frame record), ldr and
 *    str of one (immediate offset or index), add and sub (immediate or
 *    shifted register: sub sp, sp, #N; mov x29, sp; cmp), logic (shifted
 *    register: mov, tst), movz, movn, movk.  They cost one trap, no
 *    single-step.
 *  - Refuse the pc readers that cannot be simulated: branches with pointer
 *    authentication (the kernel would need the thread's keys), FEAT_PAuth_LR's
 *    signing and authentication with pc as a modifier (a copy in a slot
 *    would use the slot's address), exception returns, SIMD&FP literal
 *    loads, and literal loads into the zero register (whose fallback step
 *    needs a base register).
 *  - Refuse what must not be stepped from a slot: exclusive loads and
 *    stores (the trap clears the exclusive monitor: a store-exclusive
 *    after it fails for ever), FEAT_MOPS copy and set sequences (their
 *    parts must run in order, and a MOPS exception restarts them
 *    relative to pc), exception-generating instructions (svc, hvc, smc,
 *    brk, hlt, dcps), and system instructions beyond the ones user space
 *    uses: hints, barriers, the user PSTATE fields (flag manipulation,
 *    SSBS, DIT, TCO), dc/ic by address, mrs/msr of the EL0 registers and
 *    mrs of ID registers (emulated by the kernel).
 *  - Refuse the reserved and unallocated top-level encoding groups and
 *    every unmatched encoding of the branch, exception and system group.
 *  - Step everything else: the rest of data processing, the rest of the
 *    loads and stores, SIMD&FP, SVE and SME.  None of it depends on pc; an
 *    unallocated encoding there raises SIGILL, as the original would.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

/* Top-level encoding group of an A64 instruction: bits 28:25. */
#define UPROBE_ARM64_OP0(insn)		(((insn) >> 25) & 0xf)

/* Fields of a system instruction (class 1101 0101 00). */
#define UPROBE_ARM64_SYS_CLASS_MASK	0xffc00000
#define UPROBE_ARM64_SYS_CLASS		0xd5000000
#define UPROBE_ARM64_SYS_L		BIT(21)
#define UPROBE_ARM64_SYS_OP0(insn)	(((insn) >> 19) & 0x3)
#define UPROBE_ARM64_SYS_OP1(insn)	(((insn) >> 16) & 0x7)
#define UPROBE_ARM64_SYS_CRN(insn)	(((insn) >> 12) & 0xf)
#define UPROBE_ARM64_SYS_OP2(insn)	(((insn) >> 5) & 0x7)

/* The hint number of a hint instruction: CRm:op2. */
#define UPROBE_ARM64_HINT_MASK		0xfe0

/* drps: debug state only */
#define UPROBE_ARM64_DRPS		0xd6bf03e0

/* Load register (literal): opc 011 V 00 imm19 Rt */
#define UPROBE_ARM64_LDR_LIT_MASK	0x3b000000
#define UPROBE_ARM64_LDR_LIT		0x18000000
#define UPROBE_ARM64_LDR_LIT_SIMD	BIT(26)

/* In the exclusive load/store space, o1 without bit 31 is casp. */
#define UPROBE_ARM64_EXCL_O1		BIT(21)

/*
 * FEAT_PAuth_LR.  With pc as a modifier: paciasppc, pacibsppc and
 * pacnbiasppc, pacnbibsppc sign x30 with their own address (bit 10: key
 * B); autiasppc, autibsppc (bit 21: key B) authenticate it with the
 * address of a label relative to pc, retaasppc and retabsppc too and
 * return; retaasppcr, retabsppcr Xm authenticate with the address in Xm
 * and return (with Xm = 31, retaa and retab).  autiasppcr, the
 * 171615 forms and pacm take the address from a register: stepped.
 */
#define UPROBE_ARM64_PACSPPC_MASK	0xfffffbff
#define UPROBE_ARM64_PACSPPC		0xdac1a3fe
#define UPROBE_ARM64_PACNBSPPC		0xdac183fe
#define UPROBE_ARM64_SPPC_IMM_MASK	0xffc0001f
#define UPROBE_ARM64_AUTSPPC_IMM	0xf380001f
#define UPROBE_ARM64_RETSPPC_IMM	0x5500001f
#define UPROBE_ARM64_RETSPPCR_MASK	0xfffffbe0
#define UPROBE_ARM64_RETSPPCR		0xd65f0be0

/* Does @insn sign or authenticate with pc as a modifier (FEAT_PAuth_LR)? */
static bool uprobe_arm64_pauth_lr(u32 insn)
{
	u32 pac = insn & UPROBE_ARM64_PACSPPC_MASK;
	u32 imm = insn & UPROBE_ARM64_SPPC_IMM_MASK;

	if (pac == UPROBE_ARM64_PACSPPC || pac == UPROBE_ARM64_PACNBSPPC)
		return true;
	if (imm == UPROBE_ARM64_AUTSPPC_IMM || imm == UPROBE_ARM64_RETSPPC_IMM)
		return true;
	return (insn & UPROBE_ARM64_RETSPPCR_MASK) == UPROBE_ARM64_RETSPPCR &&
	       (insn & 0x1f) != 0x1f;
}

/* Is msr (immediate) to PSTATE field (@op1, @op2) one user code uses? */
static bool uprobe_arm64_user_pstate(u32 op1, u32 op2)
{
	/* cfinv, xaflag, axflag */
	if (op1 == 0)
		return op2 <= 2;
	/* ssbs, dit, tco */
	return op1 == 3 && (op2 == 1 || op2 == 2 || op2 == 4);
}

/* Why system instruction @insn cannot be probed, or NULL. */
static const char *uprobe_arm64_plan_system(struct arch_uprobe *au, u32 insn)
{
	u32 op1 = UPROBE_ARM64_SYS_OP1(insn);
	u32 crn = UPROBE_ARM64_SYS_CRN(insn);
	bool l = insn & UPROBE_ARM64_SYS_L;

	if (aarch64_insn_is_hint(insn)) {
		/* Every hint executes (unallocated ones as nops): step. */
		if ((insn & UPROBE_ARM64_HINT_MASK) == AARCH64_INSN_HINT_NOP ||
		    aarch64_insn_is_bti(insn))
			au->sim = UPROBE_ARM64_NOP;
		return NULL;
	}

	switch (UPROBE_ARM64_SYS_OP0(insn)) {
	case 0:
		if (aarch64_insn_is_barrier(insn))
			return NULL;
		if (aarch64_insn_is_msr_imm(insn))
			return uprobe_arm64_user_pstate(op1,
							UPROBE_ARM64_SYS_OP2(insn)) ?
			       NULL : "PSTATE write";
		/* wfet, wfit, transactional memory, ... */
		return "system instruction";
	case 1:
		/* sys: dc and ic by address, which user space may do */
		return !l && op1 == 3 && crn == 7 ? NULL : "system instruction";
	case 2:
		return "debug register access";
	}
	/* mrs, msr: the EL0 registers, and the ID registers (emulated) */
	if (op1 == 3 || (l && op1 == 0 && crn == 0))
		return NULL;
	return "system register access";
}

/* The BTYPE field a br, blr or ret leaves in PSTATE. */
static u8 uprobe_arm64_btype(u32 insn)
{
	/*
	 * blr: "call".  br: "jump or call" (0b01), what br x16/x17 and any
	 * br from an unguarded page set; at the hit, simulate.c makes it
	 * "jump" (0b11) for another register in a guarded page.
	 */
	if (aarch64_insn_is_blr(insn))
		return PSR_BTYPE_C >> PSR_BTYPE_SHIFT;
	if (aarch64_insn_is_br(insn))
		return PSR_BTYPE_JC >> PSR_BTYPE_SHIFT;
	return PSR_BTYPE_NONE >> PSR_BTYPE_SHIFT;
}

/* Branches, exception generation, system: why refused, or NULL. */
static const char *uprobe_arm64_plan_branch(struct arch_uprobe *au, u32 insn)
{
	if (aarch64_insn_is_b(insn) || aarch64_insn_is_bl(insn)) {
		au->sim = UPROBE_ARM64_B;
		if (aarch64_insn_is_bl(insn))
			au->flags = UPROBE_ARM64_LINK;
	} else if (aarch64_insn_is_cbz(insn) || aarch64_insn_is_cbnz(insn)) {
		au->sim = UPROBE_ARM64_CBZ;
		if (aarch64_insn_is_cbnz(insn))
			au->flags |= UPROBE_ARM64_NZ;
		if (!(insn & BIT(31)))
			au->flags |= UPROBE_ARM64_W;
		au->reg = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT,
						       insn);
	} else if (aarch64_insn_is_tbz(insn) || aarch64_insn_is_tbnz(insn)) {
		au->sim = UPROBE_ARM64_TBZ;
		if (aarch64_insn_is_tbnz(insn))
			au->flags = UPROBE_ARM64_NZ;
		/* b5:b40, the bit number */
		au->cond = (insn >> 31) << 5 | ((insn >> 19) & 0x1f);
		au->reg = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT,
						       insn);
	} else if (aarch64_insn_is_bcond(insn)) {
		/* bc.cond (o0 set) only exists with FEAT_HBC */
		if ((insn & BIT(4)) && !cpu_have_named_feature(HBC))
			return "undefined instruction";
		au->sim = UPROBE_ARM64_BCOND;
		au->cond = insn & 0xf;
	} else if (aarch64_insn_is_exception(insn)) {
		return "exception-generating instruction";
	} else if ((insn & UPROBE_ARM64_SYS_CLASS_MASK) ==
		   UPROBE_ARM64_SYS_CLASS) {
		return uprobe_arm64_plan_system(au, insn);
	} else if (aarch64_insn_is_br(insn) || aarch64_insn_is_blr(insn) ||
		   aarch64_insn_is_ret(insn)) {
		au->sim = UPROBE_ARM64_BR;
		if (aarch64_insn_is_blr(insn))
			au->flags = UPROBE_ARM64_LINK;
		au->cond = uprobe_arm64_btype(insn);
		au->reg = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RN,
						       insn);
		return NULL;
	} else if (aarch64_insn_is_br_auth(insn) ||
		   aarch64_insn_is_blr_auth(insn) ||
		   aarch64_insn_is_ret_auth(insn)) {
		return "branch with pointer authentication";
	} else if (aarch64_insn_is_eret(insn) ||
		   aarch64_insn_is_eret_auth(insn) ||
		   insn == UPROBE_ARM64_DRPS) {
		return "exception return";
	} else {
		return "undefined instruction";
	}
	au->offset = aarch64_get_branch_offset(insn);
	return NULL;
}

/* ldr, ldrsw, prfm (literal): why refused, or NULL. */
static const char *uprobe_arm64_plan_literal(struct arch_uprobe *au, u32 insn)
{
	enum aarch64_insn_size_type size = AARCH64_INSN_SIZE_64;
	enum aarch64_insn_ldst_type type = AARCH64_INSN_LDST_LOAD_IMM_OFFSET;
	u32 opc = insn >> 30;
	__le32 ixol;

	if (insn & UPROBE_ARM64_LDR_LIT_SIMD)
		return opc == 3 ? "undefined instruction" :
		       "SIMD&FP literal load";
	if (opc == 3) {
		/* prfm: a hint, with no effect the program can see */
		au->sim = UPROBE_ARM64_NOP;
		return NULL;
	}
	au->reg = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT, insn);
	if (au->reg == AARCH64_INSN_REG_ZR)
		return "literal load into the zero register";
	au->sim = UPROBE_ARM64_LDR;
	au->offset = sign_extend64(aarch64_insn_decode_immediate(AARCH64_INSN_IMM_19,
								 insn), 18) *
		     AARCH64_INSN_SIZE;
	if (opc != 1) {
		au->flags = UPROBE_ARM64_W;
		size = AARCH64_INSN_SIZE_32;
	}
	if (opc == 2) {
		au->flags |= UPROBE_ARM64_SIGNED;
		type = AARCH64_INSN_LDST_SIGNED_LOAD_IMM_OFFSET;
	}
	/* The fallback step: the same load, from [Rt], Rt = the literal. */
	ixol = cpu_to_le32(aarch64_insn_gen_load_store_imm(au->reg, au->reg, 0,
							   size, type));
	memcpy(au->ixol, &ixol, sizeof(ixol));
	return NULL;
}

/* stp of two general registers: simulated, but for an unpredictable one. */
static void uprobe_arm64_plan_stp(struct arch_uprobe *au, u32 insn)
{
	u8 rt = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT, insn);
	u8 rt2 = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT2, insn);
	u8 rn = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RN, insn);
	int size = insn & BIT(31) ? 8 : 4;

	/* a written-back base that is also stored: left to the CPU */
	if (!aarch64_insn_is_stp(insn) && rn != AARCH64_INSN_REG_SP &&
	    (rn == rt || rn == rt2))
		return;
	au->sim = UPROBE_ARM64_STP;
	au->reg = rt;
	au->reg2 = rt2;
	au->cond = rn;
	au->offset = sign_extend64(aarch64_insn_decode_immediate(AARCH64_INSN_IMM_7,
								 insn), 6) * size;
	if (size == 4)
		au->flags = UPROBE_ARM64_W;
	if (aarch64_insn_is_stp_pre(insn))
		au->flags |= UPROBE_ARM64_PRE;
	else if (aarch64_insn_is_stp_post(insn))
		au->flags |= UPROBE_ARM64_POST;
}

/*
 * Load/store of one general register (V, bit 26, clear), immediate: an
 * unsigned offset, or a 9-bit signed one, unscaled (bits 11:10 = 00),
 * post-indexed (01) or pre-indexed (11); 10 is ldtr/sttr, unprivileged.
 */
#define UPROBE_ARM64_LDST_UIMM_MASK	0x3f000000
#define UPROBE_ARM64_LDST_UIMM		0x39000000
#define UPROBE_ARM64_LDST_IMM9_MASK	0x3f200000
#define UPROBE_ARM64_LDST_IMM9		0x38000000
#define UPROBE_ARM64_LDST_UNPRIV	0x800

/* ldr, str (immediate) of one general register: simulated or prfm. */
static void uprobe_arm64_plan_ldr_str(struct arch_uprobe *au, u32 insn)
{
	u32 size = insn >> 30, opc = (insn >> 22) & 0x3;
	bool uimm = insn & BIT(24);
	bool writeback = !uimm && (insn & BIT(10));
	u8 rt = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RT, insn);
	u8 rn = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RN, insn);

	if (!uimm && (insn & 0xc00) == UPROBE_ARM64_LDST_UNPRIV)
		return;
	if (size == 3 && opc == 2) {
		/* prfm, prfum: hints; indexed, unallocated */
		if (!writeback)
			au->sim = UPROBE_ARM64_NOP;
		return;
	}
	/* unallocated; a written-back base also transferred: to the CPU */
	if ((size >= 2 && opc == 3) ||
	    (writeback && rn == rt && rn != AARCH64_INSN_REG_SP))
		return;
	au->sim = UPROBE_ARM64_LDST;
}

/* Loads and stores: why refused, or NULL. */
static const char *uprobe_arm64_plan_ldst(struct arch_uprobe *au, u32 insn)
{
	if ((insn & UPROBE_ARM64_LDR_LIT_MASK) == UPROBE_ARM64_LDR_LIT)
		return uprobe_arm64_plan_literal(au, insn);
	if (aarch64_insn_is_stp(insn) || aarch64_insn_is_stp_pre(insn) ||
	    aarch64_insn_is_stp_post(insn)) {
		uprobe_arm64_plan_stp(au, insn);
		return NULL;
	}
	if ((insn & UPROBE_ARM64_LDST_UIMM_MASK) == UPROBE_ARM64_LDST_UIMM ||
	    (insn & UPROBE_ARM64_LDST_IMM9_MASK) == UPROBE_ARM64_LDST_IMM9) {
		uprobe_arm64_plan_ldr_str(au, insn);
		return NULL;
	}
	if (aarch64_insn_is_mops(insn))
		return "memory copy or set (FEAT_MOPS)";
	if (aarch64_insn_is_exclusive(insn) &&
	    !((insn & UPROBE_ARM64_EXCL_O1) && !(insn & BIT(31))))
		return "exclusive load/store";
	return NULL;
}

/* Add/subtract (immediate), not the tag forms (bit 23: addg, subg). */
#define UPROBE_ARM64_ADD_IMM_ENC_MASK	0x1f800000
#define UPROBE_ARM64_ADD_IMM_ENC	0x11000000

/* Move wide (immediate): movn, movz, movk. */
#define UPROBE_ARM64_MOVW_ENC_MASK	0x1f800000
#define UPROBE_ARM64_MOVW_ENC		0x12800000

/* movn, movz, movk: simulated but for the unallocated encodings. */
static void uprobe_arm64_plan_movw(struct arch_uprobe *au, u32 insn)
{
	/* opc 01; a w register shifted by 32 or 48 */
	if (((insn >> 29) & 0x3) == 1 ||
	    (!(insn & BIT(31)) && (insn & BIT(22))))
		return;
	au->sim = UPROBE_ARM64_MOVW;
}

/* adr, adrp, add, sub, move wide: simulated; the rest stepped. */
static void uprobe_arm64_plan_dp_imm(struct arch_uprobe *au, u32 insn)
{
	s64 imm;

	if ((insn & UPROBE_ARM64_ADD_IMM_ENC_MASK) == UPROBE_ARM64_ADD_IMM_ENC) {
		au->sim = UPROBE_ARM64_ADD_IMM;
		return;
	}
	if ((insn & UPROBE_ARM64_MOVW_ENC_MASK) == UPROBE_ARM64_MOVW_ENC) {
		uprobe_arm64_plan_movw(au, insn);
		return;
	}
	if (!aarch64_insn_is_adr_adrp(insn))
		return;
	imm = sign_extend64(aarch64_insn_decode_immediate(AARCH64_INSN_IMM_ADR,
							  insn), 20);
	au->reg = aarch64_insn_decode_register(AARCH64_INSN_REGTYPE_RD, insn);
	if (aarch64_insn_is_adrp(insn)) {
		au->sim = UPROBE_ARM64_ADRP;
		au->offset = imm * SZ_4K;
	} else {
		au->sim = UPROBE_ARM64_ADR;
		au->offset = imm;
	}
}

/* Logical and add/subtract (shifted register) */
#define UPROBE_ARM64_LOGIC_REG_ENC_MASK	0x1f000000
#define UPROBE_ARM64_LOGIC_REG_ENC	0x0a000000
#define UPROBE_ARM64_ADD_REG_ENC_MASK	0x1f200000
#define UPROBE_ARM64_ADD_REG_ENC		0x0b000000

/* Data processing (register): the shifted-register forms simulated. */
static void uprobe_arm64_plan_dp_reg(struct arch_uprobe *au, u32 insn)
{
	/* a shift by 32 or more of a w register is unallocated */
	if (!(insn & BIT(31)) && (insn & BIT(15)))
		return;
	if ((insn & UPROBE_ARM64_LOGIC_REG_ENC_MASK) ==
	    UPROBE_ARM64_LOGIC_REG_ENC)
		au->sim = UPROBE_ARM64_LOGIC_REG;
	/* add/sub's shift 11 is reserved */
	else if ((insn & UPROBE_ARM64_ADD_REG_ENC_MASK) ==
		 UPROBE_ARM64_ADD_REG_ENC && ((insn >> 22) & 0x3) != 3)
		au->sim = UPROBE_ARM64_ADD_REG;
}

/* Decide how @insn runs; returns a reason to refuse it, or NULL. */
static const char *uprobe_arm64_plan(struct arch_uprobe *au, u32 insn)
{
	if (uprobe_arm64_pauth_lr(insn))
		return "pointer authentication with pc (FEAT_PAuth_LR)";
	switch (UPROBE_ARM64_OP0(insn)) {
	case 0x0:
		/* reserved (udf), or SME with bit 31 set */
		return insn & BIT(31) ? NULL : "undefined instruction";
	case 0x1:
	case 0x3:
		return "undefined instruction";
	case 0x8:
	case 0x9:
		uprobe_arm64_plan_dp_imm(au, insn);
		return NULL;
	case 0xa:
	case 0xb:
		return uprobe_arm64_plan_branch(au, insn);
	case 0x4:
	case 0x6:
	case 0xc:
	case 0xe:
		return uprobe_arm64_plan_ldst(au, insn);
	case 0x5:
	case 0xd:
		uprobe_arm64_plan_dp_reg(au, insn);
		return NULL;
	}
	/* SVE, SIMD&FP */
	return NULL;
}

/**
 * arch_uprobe_analyze - check and prepare a probed instruction
 * @auprobe: probe whose ->insn holds the word read from the file
 * @is_64bit: the file is a 64-bit ELF (A64 code)
 * @reason: set to a short static explanation when the probe is refused
 *
 * Decodes ->insn, refuses what cannot be simulated or stepped out of
 * line, and fills in ->ixol (the copy that is single-stepped) and the
 * simulation's description.
 *
 * Return: 0, or -EOPNOTSUPP if the instruction cannot be probed.
 */
int arch_uprobe_analyze(struct arch_uprobe *auprobe, bool is_64bit,
			const char **reason)
{
	u32 insn = le32_to_cpup((__le32 *)auprobe->insn);
	const char *why;

	*reason = NULL;
	if (!is_64bit) {
		*reason = "AArch32 code is not supported";
		return -EOPNOTSUPP;
	}
	memcpy(auprobe->ixol, auprobe->insn, sizeof(auprobe->ixol));
	auprobe->offset = 0;
	auprobe->sim = UPROBE_ARM64_STEP;
	auprobe->reg = 0;
	auprobe->cond = 0;
	auprobe->flags = 0;
	auprobe->reg2 = 0;
	why = uprobe_arm64_plan(auprobe, insn);
	if (why) {
		*reason = why;
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * arch_uprobe_kind - how hits of a probed instruction are executed
 * @auprobe: the analysed instruction
 * @is_64bit: it was analysed as 64-bit code (always, on arm64)
 *
 * Return: "emulated" (simulated on the registers) or "stepped".
 */
const char *arch_uprobe_kind(struct arch_uprobe *auprobe, bool is_64bit)
{
	return auprobe->sim == UPROBE_ARM64_STEP ? "stepped" : "emulated";
}

#ifdef CONFIG_UPROBES_ARM64_KUNIT_TEST
#include "tests/insn-kunit.h"
#endif
