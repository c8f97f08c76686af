// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: boosted execution out of line.
 *
 * A stepped probe costs two traps: the breakpoint and the single-step.
 * For instructions that compute in registers and memory the second one is
 * not needed: the copy in the XOL slot is followed by a jump back after the
 * original instruction, and the thread simply runs through it.
 *
 * Instructions that compute in registers and memory qualify: arithmetic,
 * moves, tests, lea, pops, ... with register or memory operands, and the
 * MMX/SSE/AVX instructions. A rip-relative operand is relocated for the
 * slot, which the XOL area's place (just below the first probed address)
 * lets reach what the original reaches; where it does not, the probe is
 * stepped in that address space. No signal is delivered with the thread
 * in the slot: the core moves it out first (uprobe_deny_signal()), which
 * relies on the copy keeping the original's length. A signal that arrives
 * before the copy ran makes the core single-step the copy with the signal
 * held, exactly as for a stepped probe; a fault of the copy itself is
 * delivered at once, at the probed address, the instruction not executed
 * again. Anything that depends on its own address or needs a fix-up
 * afterwards keeps the single-step, and so does every hit of a thread
 * with hardware breakpoints armed: a data breakpoint would report the
 * slot's address in its signal.
 */
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/uprobes.h>

#include <asm/debugreg.h>
#include <asm/insn.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>

#include "internal.h"

/* One-byte opcodes with a ModRM operand, register or memory. */
static bool uprobe_x86_boost_modrm_op(u8 op, u8 reg)
{
	switch (op) {
	case 0x00 ... 0x03: case 0x08 ... 0x0b:	/* add, or */
	case 0x10 ... 0x13: case 0x18 ... 0x1b:	/* adc, sbb */
	case 0x20 ... 0x23: case 0x28 ... 0x2b:	/* and, sub */
	case 0x30 ... 0x33: case 0x38 ... 0x3b:	/* xor, cmp */
	case 0x63:				/* movsxd */
	case 0x69: case 0x6b:			/* imul imm */
	case 0x80: case 0x81: case 0x83:	/* group 1 imm */
	case 0x84 ... 0x8b:			/* test, xchg, mov */
	case 0xc0: case 0xc1:			/* shifts by imm */
	case 0xd0 ... 0xd3:			/* shifts by 1, cl */
		return true;
	case 0xc6: case 0xc7:			/* mov imm */
		return reg == 0;
	case 0xf6: case 0xf7:			/* test imm, not, neg */
		return reg == 0 || reg == 2 || reg == 3;
	case 0xfe: case 0xff:			/* inc, dec */
		return reg <= 1;
	}
	return false;
}

/* Two-byte (0f xx) opcodes with a ModRM operand, register or memory. */
static bool uprobe_x86_boost_modrm_op2(u8 op)
{
	switch (op) {
	case 0x40 ... 0x4f:			/* cmovcc */
	case 0x90 ... 0x9f:			/* setcc */
	case 0xa3: case 0xab: case 0xb3: case 0xbb:	/* bt, bts, btr, btc */
	case 0xa4: case 0xa5: case 0xac: case 0xad:	/* shld, shrd */
	case 0xaf:				/* imul */
	case 0xb6: case 0xb7: case 0xbe: case 0xbf:	/* movzx, movsx */
	case 0xbc: case 0xbd:			/* bsf, bsr */
		return true;
	}
	return false;
}

/* Opcodes without ModRM that touch registers, flags and the stack top. */
static bool uprobe_x86_boost_plain_op(u8 op, bool is_64bit)
{
	switch (op) {
	case 0x04: case 0x05: case 0x0c: case 0x0d:	/* al/ax imm ALU */
	case 0x14: case 0x15: case 0x1c: case 0x1d:
	case 0x24: case 0x25: case 0x2c: case 0x2d:
	case 0x34: case 0x35: case 0x3c: case 0x3d:
	case 0x91 ... 0x97:			/* xchg with ax */
	case 0x98: case 0x99:			/* cbw, cwd & co */
	case 0xa8: case 0xa9:			/* test al/ax imm */
	case 0xb0 ... 0xbf:			/* mov imm */
	case 0xf5: case 0xf8: case 0xf9:	/* cmc, clc, stc */
	case 0xfc: case 0xfd:			/* cld, std */
		return true;
	case 0x58 ... 0x5f:			/* pop reg */
	case 0x68: case 0x6a:			/* push imm */
	case 0xc9:				/* leave */
		return true;
	case 0x40 ... 0x4f:			/* inc, dec (REX in 64-bit) */
		return !is_64bit;
	}
	return false;
}

/*
 * MMX, SSE and AVX instructions of the 0f map that compute on registers
 * and memory: data in, data out, nothing that depends on its own address
 * (the x87 ones record theirs, and stay stepped). A SIMD exception they
 * raise in the slot is reported at the probed address.
 */
static bool uprobe_x86_boost_simd_op(u8 op)
{
	switch (op) {
	case 0x10 ... 0x17:		/* movups .. movhps */
	case 0x28 ... 0x2f:		/* movaps .. comiss */
	case 0x50 ... 0x76:		/* movmskps .. pcmpeqd */
	case 0x7c ... 0x7f:		/* haddpd, hsubpd, movd, movq */
	case 0xc2:			/* cmpps */
	case 0xc4 ... 0xc6:		/* pinsrw, pextrw, shufps */
	case 0xd0 ... 0xfe:		/* addsubpd .. paddd */
		return true;
	}
	return false;
}

/* The SIMD maps: 0f (with the ops above), 0f 38 and 0f 3a (all). */
static bool uprobe_x86_boost_simd(struct insn *insn)
{
	u8 op1 = insn->opcode.bytes[0], op2 = insn->opcode.bytes[1];

	if (!insn->modrm.nbytes)
		return false;
	if (insn->vex_prefix.nbytes) {
		/* VEX, not EVEX: maps 1 (0f), 2 (0f 38), 3 (0f 3a) */
		if (insn->vex_prefix.nbytes > 3)
			return false;
		switch (insn_vex_m_bits(insn)) {
		case 1:
			return uprobe_x86_boost_simd_op(op1);
		case 2: case 3:
			return true;
		}
		return false;
	}
	if (op1 != 0x0f)
		return false;
	if (insn->opcode.nbytes == 3)
		return op2 == 0x38 || op2 == 0x3a;
	return insn->opcode.nbytes == 2 && uprobe_x86_boost_simd_op(op2);
}

/*
 * Prefixes a boosted copy may keep: operand size, fs/gs segment, and the
 * mandatory prefixes of the SSE moves (@simd).
 */
static bool uprobe_x86_boost_prefix(insn_byte_t p, bool simd)
{
	return p == 0x66 || p == 0x64 || p == 0x65 ||
	       (simd && (p == 0xf2 || p == 0xf3));
}

static bool uprobe_x86_boostable(struct insn *insn, bool is_64bit)
{
	insn_byte_t p;
	int i;
	u8 op = insn->opcode.bytes[0];
	u8 mod = X86_MODRM_MOD(insn->modrm.value);
	u8 reg = X86_MODRM_REG(insn->modrm.value);
	bool simd = uprobe_x86_boost_simd(insn);

	if (insn->vex_prefix.nbytes) {
		/* no legacy prefix but fs/gs before a VEX one */
		for_each_insn_prefix(insn, i, p)
			if (p != 0x64 && p != 0x65)
				return false;
		return simd;
	}
	for_each_insn_prefix(insn, i, p)
		if (!uprobe_x86_boost_prefix(p, simd))
			return false;
	if (simd)
		return true;
	if (op == 0x8d)			/* lea computes, never accesses */
		return insn->modrm.nbytes && mod != 3;
	if (insn->opcode.nbytes == 1 && !insn->modrm.nbytes)
		return uprobe_x86_boost_plain_op(op, is_64bit);
	if (insn->opcode.nbytes == 1)
		return uprobe_x86_boost_modrm_op(op, reg);
	if (insn->opcode.nbytes == 2 && op == 0x0f) {
		op = insn->opcode.bytes[1];
		if (op >= 0xc8 && op <= 0xcf)	/* bswap */
			return true;
		return insn->modrm.nbytes && uprobe_x86_boost_modrm_op2(op);
	}
	return false;
}

/*
 * May the analysed instruction run from a boosted slot? @insn receives its
 * decoding. A rip-relative operand is relocated, no other fix-up can be.
 */
static bool uprobe_x86_can_boost(struct arch_uprobe *auprobe, bool is_64bit,
				 struct insn *insn)
{
	/* Address-dependent or fixed-up instructions cannot run alone. */
	if (auprobe->emul != UPROBE_X86_STEP ||
	    (auprobe->fixups & ~UPROBE_X86_FIX_RIPREL) != UPROBE_X86_FIX_IP)
		return false;
	return !insn_decode(insn, auprobe->insn, MAX_UINSN_BYTES,
			    is_64bit ? INSN_MODE_64 : INSN_MODE_32) &&
	       insn->length == auprobe->len &&
	       uprobe_x86_boostable(insn, is_64bit);
}

/**
 * arch_uprobe_boost_insn() - code for a boosted XOL slot
 * @auprobe: the probed instruction
 * @regs: the user registers of a thread hitting the probe
 * @vaddr: where the probed instruction is
 * @slot: where the slot is
 * @buf: receives the slot's code, UPROBE_XOL_SLOT_BYTES at most
 *
 * Return: the size of the code, 0 when the instruction must be
 * single-stepped, -ERANGE when the slot is too far from what its
 * rip-relative operand addresses.
 */
int arch_uprobe_boost_insn(struct arch_uprobe *auprobe, struct pt_regs *regs,
			   unsigned long vaddr, unsigned long slot, u8 *buf)
{
	bool is_64bit = user_64bit_mode(regs);
	unsigned long next = vaddr + auprobe->len;
	int len = auprobe->len;
	struct insn insn;

	if (!uprobe_x86_can_boost(auprobe, is_64bit, &insn))
		return 0;

	memcpy(buf, auprobe->insn, len);
	if (insn_rip_relative(&insn)) {
		/* the same target, from the slot */
		long disp = next + insn.displacement.value - (slot + len);

		if (disp != (s32)disp)
			return -ERANGE;
		put_unaligned_le32((u32)disp,
				   buf + insn_offset_displacement(&insn));
	}
	if (is_64bit) {
		/* jmp *0(%rip) followed by the absolute target */
		static const u8 jmp_abs[] = { 0xff, 0x25, 0, 0, 0, 0 };

		memcpy(buf + len, jmp_abs, sizeof(jmp_abs));
		memcpy(buf + len + sizeof(jmp_abs), &next, sizeof(u64));
		return len + sizeof(jmp_abs) + sizeof(u64);
	}
	/* jmp rel32 wraps around the 4 GiB a 32-bit program sees */
	buf[len] = 0xe9;
	put_unaligned_le32((u32)(next - (slot + len + 5)), buf + len + 1);
	return len + 5;
}

/**
 * arch_uprobe_boost_ok() - may this hit run a boosted slot?
 * @regs: the user registers
 *
 * Return: false while the thread single-steps (ptrace or its own TF): it
 * must stop after the probed instruction, not after the jump back; false
 * too with hardware breakpoints armed, whose traps report the address.
 */
bool arch_uprobe_boost_ok(struct pt_regs *regs)
{
	return !(regs->flags & X86_EFLAGS_TF) && !hw_breakpoint_active();
}

/**
 * arch_uprobe_kind() - how hits of a probed instruction are executed
 * @auprobe: the analysed instruction
 * @is_64bit: it was analysed as 64-bit code
 *
 * Return: "jump" (a 64-bit nop of five bytes or more: a jump to a stub
 * after its first hit, see stub.c), "emulated", "boosted" or "stepped".
 */
const char *arch_uprobe_kind(struct arch_uprobe *auprobe, bool is_64bit)
{
	struct insn insn;

	if (IS_ENABLED(CONFIG_X86_64) && is_64bit &&
	    uprobe_x86_stub_nop(auprobe))
		return "jump";
	if (auprobe->emul != UPROBE_X86_STEP)
		return "emulated";
	return uprobe_x86_can_boost(auprobe, is_64bit, &insn) ?
	       "boosted" : "stepped";
}

/**
 * arch_uprobe_insn_len() - length of a probed instruction
 * @aup: the analysed instruction
 *
 * Return: its length in bytes, as decoded.
 */
int arch_uprobe_insn_len(struct arch_uprobe *aup)
{
	return aup->len;
}

/**
 * arch_uprobe_hit_is_64bit() - does the thread run 64-bit code?
 * @regs: the user registers at a breakpoint hit
 *
 * The code segment decides, not the ELF class of the file: a 64-bit
 * process may run 32-bit code (Wine) and the other way round.
 *
 * Return: true in 64-bit mode.
 */
bool arch_uprobe_hit_is_64bit(struct pt_regs *regs)
{
	return user_64bit_mode(regs);
}

#ifdef CONFIG_UPROBES_X86_KUNIT_TEST
#include "tests/boost-kunit.h"
#endif
