// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 uprobes: simulation of data processing on general registers.
 *
 * What a function computes before its first call, besides its frame:
 * moves between registers (mov is orr with the zero register), constants
 * (movz, movn, movk), comparisons (cmp, cmn, tst: subs, adds and ands
 * into the zero register) and the add, sub and logic of the immediate and
 * shifted-register forms.  Simulated on the user registers, their hits
 * cost one trap and no single-step; none of them reads memory or can
 * fault.
 *
 * The analysis (analyze.c) hands over allocated encodings only: a 32-bit
 * form shifting by 32 or more, add/sub's reserved shift, movn/movz/movk of
 * a w register with a shift of 32 or 48 are stepped and raise SIGILL as
 * the original does.  The fields are decoded from the word at each hit:
 * a few shifts, against the cost of a trap.
 */
#include <linux/bits.h>
#include <linux/uprobes.h>

#include <asm/ptrace.h>

#include "internal.h"

/* Shift type (bits 23:22) and amount (bits 15:10) of the register forms. */
#define UPROBE_ARM64_SHIFT(insn)	(((insn) >> 22) & 0x3)
#define UPROBE_ARM64_AMOUNT(insn)	(((insn) >> 10) & 0x3f)

enum {
	UPROBE_ARM64_LSL,
	UPROBE_ARM64_LSR,
	UPROBE_ARM64_ASR,
	UPROBE_ARM64_ROR,
};

/* The operation's width: bit 31 (sf) clear is 32 bits. */
static bool uprobe_arm64_is_w(u32 insn)
{
	return !(insn & BIT(31));
}

/* @val cut to the operation's width. */
static u64 uprobe_arm64_width(u64 val, bool w)
{
	return w ? (u32)val : val;
}

/* Set NZCV from @res (already cut to its width) and carry @c, overflow @v. */
static void uprobe_arm64_set_nzcv(struct pt_regs *regs, u64 res, bool w,
				  bool c, bool v)
{
	u64 sign = w ? BIT_ULL(31) : BIT_ULL(63);

	regs->pstate &= ~(PSR_N_BIT | PSR_Z_BIT | PSR_C_BIT | PSR_V_BIT);
	if (res & sign)
		regs->pstate |= PSR_N_BIT;
	if (!res)
		regs->pstate |= PSR_Z_BIT;
	if (c)
		regs->pstate |= PSR_C_BIT;
	if (v)
		regs->pstate |= PSR_V_BIT;
}

/*
 * @a + @b + @carry in the operation's width, the flags set when @flags:
 * what AddWithCarry() is in the Arm ARM.  A subtraction is @a + ~@b + 1.
 */
static u64 uprobe_arm64_add(struct pt_regs *regs, u64 a, u64 b, bool carry,
			    bool w, bool flags)
{
	u64 sign = w ? BIT_ULL(31) : BIT_ULL(63);
	u64 res;

	a = uprobe_arm64_width(a, w);
	b = uprobe_arm64_width(b, w);
	res = uprobe_arm64_width(a + b + carry, w);
	/* the sum wrapped: below @a, or equal to it with a carry in */
	if (flags)
		uprobe_arm64_set_nzcv(regs, res, w, carry ? res <= a : res < a,
				      ~(a ^ b) & (a ^ res) & sign);
	return res;
}

/* Register @reg (31: zero) shifted as the register forms of @insn say. */
static u64 uprobe_arm64_shifted(struct pt_regs *regs, u32 insn, u8 reg)
{
	unsigned int amount = UPROBE_ARM64_AMOUNT(insn);
	bool w = uprobe_arm64_is_w(insn);
	u64 val = uprobe_arm64_width(uprobe_arm64_reg(regs, reg), w);
	unsigned int bits = w ? 32 : 64;

	if (!amount)
		return val;
	switch (UPROBE_ARM64_SHIFT(insn)) {
	case UPROBE_ARM64_LSL:
		return val << amount;
	case UPROBE_ARM64_LSR:
		return val >> amount;
	case UPROBE_ARM64_ASR:
		return w ? (u64)((s32)val >> amount) : (u64)((s64)val >> amount);
	}
	return val >> amount | val << (bits - amount);
}

/*
 * add, adds, sub, subs (immediate): Rn is sp when 31, Rd too unless
 * the flags are set (cmp, cmn write the zero register).
 */
static void uprobe_arm64_add_imm(struct pt_regs *regs, u32 insn)
{
	bool w = uprobe_arm64_is_w(insn), sub = insn & BIT(30);
	bool flags = insn & BIT(29);
	u64 imm = (insn >> 10) & 0xfff;
	u64 res;

	if (insn & BIT(22))
		imm <<= 12;
	res = uprobe_arm64_add(regs,
			       uprobe_arm64_reg_sp(regs, UPROBE_ARM64_RN(insn)),
			       sub ? ~imm : imm, sub, w, flags);
	if (flags)
		uprobe_arm64_set_reg(regs, UPROBE_ARM64_RD(insn), res);
	else
		uprobe_arm64_set_reg_sp(regs, UPROBE_ARM64_RD(insn), res);
}

/* add, adds, sub, subs (shifted register): cmp, cmn, neg, negs. */
static void uprobe_arm64_add_reg(struct pt_regs *regs, u32 insn)
{
	u64 b = uprobe_arm64_shifted(regs, insn, UPROBE_ARM64_RM(insn));
	bool sub = insn & BIT(30);
	u64 res;

	res = uprobe_arm64_add(regs,
			       uprobe_arm64_reg(regs, UPROBE_ARM64_RN(insn)),
			       sub ? ~b : b, sub, uprobe_arm64_is_w(insn),
			       insn & BIT(29));
	uprobe_arm64_set_reg(regs, UPROBE_ARM64_RD(insn), res);
}

/*
 * and, orr, eor, ands and their inverted forms bic, orn, eon, bics
 * (shifted register): mov (register) and tst among them.  The flag
 * setters clear C and V.
 */
static void uprobe_arm64_logic_reg(struct pt_regs *regs, u32 insn)
{
	u64 b = uprobe_arm64_shifted(regs, insn, UPROBE_ARM64_RM(insn));
	u64 a = uprobe_arm64_reg(regs, UPROBE_ARM64_RN(insn));
	bool w = uprobe_arm64_is_w(insn);
	u32 opc = (insn >> 29) & 0x3;
	u64 res;

	if (insn & BIT(21))
		b = ~b;
	switch (opc) {
	case 1:
		res = a | b;
		break;
	case 2:
		res = a ^ b;
		break;
	default:
		res = a & b;
		break;
	}
	res = uprobe_arm64_width(res, w);
	if (opc == 3)
		uprobe_arm64_set_nzcv(regs, res, w, false, false);
	uprobe_arm64_set_reg(regs, UPROBE_ARM64_RD(insn), res);
}

/* movn, movz, movk: a 16-bit immediate at a multiple of 16 bits. */
static void uprobe_arm64_move_wide(struct pt_regs *regs, u32 insn)
{
	unsigned int shift = ((insn >> 21) & 0x3) * 16;
	u64 imm = (u64)((insn >> 5) & 0xffff) << shift;
	u8 rd = UPROBE_ARM64_RD(insn);
	u64 res;

	switch ((insn >> 29) & 0x3) {
	case 0:
		res = ~imm;
		break;
	case 2:
		res = imm;
		break;
	default:
		res = (uprobe_arm64_reg(regs, rd) & ~(0xffffULL << shift)) |
		      imm;
		break;
	}
	uprobe_arm64_set_reg(regs, rd,
			     uprobe_arm64_width(res, uprobe_arm64_is_w(insn)));
}

/**
 * uprobe_arm64_simulate_dp - execute a data processing instruction
 * @au: the analysed instruction, of sim %UPROBE_ARM64_ADD_IMM,
 *	%UPROBE_ARM64_ADD_REG, %UPROBE_ARM64_LOGIC_REG or %UPROBE_ARM64_MOVW
 * @regs: user registers at the hit; pc is left to the caller
 *
 * Writes the destination register and, for the flag-setting forms, NZCV
 * as the instruction would.
 */
void uprobe_arm64_simulate_dp(const struct arch_uprobe *au,
			      struct pt_regs *regs)
{
	u32 insn = le32_to_cpup((const __le32 *)au->insn);

	switch (au->sim) {
	case UPROBE_ARM64_ADD_IMM:
		uprobe_arm64_add_imm(regs, insn);
		break;
	case UPROBE_ARM64_ADD_REG:
		uprobe_arm64_add_reg(regs, insn);
		break;
	case UPROBE_ARM64_LOGIC_REG:
		uprobe_arm64_logic_reg(regs, insn);
		break;
	case UPROBE_ARM64_MOVW:
		uprobe_arm64_move_wide(regs, insn);
		break;
	}
}
