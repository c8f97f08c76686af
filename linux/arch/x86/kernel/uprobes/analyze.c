// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: instruction analysis.
 *
 * A probed instruction is replaced by int3.  When the breakpoint is hit the
 * instruction is emulated in the kernel, run from a boosted slot of the
 * execute-out-of-line (XOL) area, or single-stepped in a slot borrowed
 * from it (a nop of five bytes or more later becomes a jump to a stub).
 * This file decides, once per probe and from the bytes in the file, whether
 * that is possible and how: which instructions are refused (and why), which
 * are emulated, and which fix-ups stepping a copy at another address needs.
 *
 * The policy, in short:
 *  - Refuse what cannot run from another address with the same effect:
 *    system call entries (int n, syscall, sysenter), far transfers and
 *    segment register loads, iret, interrupt-shadow makers (mov/pop ss).
 *  - Refuse what always traps and is used as a deliberate trap (int3, int1,
 *    into, ud0/1/2, undefined opcodes, privileged instructions, port I/O):
 *    there is nothing sensible to step, and some of them are emulated by the
 *    kernel on #GP (UMIP), which would skip the single-step trap.
 *  - Refuse lock-prefixed instructions and TSX transaction boundaries.
 *  - Refuse es/cs/ss/ds segment overrides, as the uprobes design always
 *    did; accept fs/gs (thread-local storage), and the same bytes where
 *    they are no override: jcc branch hints, the CET "notrack" prefix of
 *    indirect branches, padding of multi-byte nops.
 *  - Everything that depends on the instruction's address gets a fix-up:
 *    relative branches and ip itself (FIX_IP), return addresses pushed by
 *    calls (FIX_CALL), rip-relative operands (rewritten to a scratch base
 *    register, FIX_RIPREL).  Our own TF must not leak into a pushf image.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uprobes.h>

#include <asm/insn.h>
#include <asm/ptrace.h>

#include "internal.h"

/* pt_regs offsets of the general purpose registers, in encoding order. */
const u8 uprobe_x86_gpr_off[UPROBE_X86_NR_GPRS] = {
	offsetof(struct pt_regs, ax),
	offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, bp),
	offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, di),
#ifdef CONFIG_X86_64
	offsetof(struct pt_regs, r8),
	offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10),
	offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12),
	offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14),
	offsetof(struct pt_regs, r15),
#endif
};

/* Register numbers as encoded in ModRM/REX. */
#define UPROBE_X86_BX	3
#define UPROBE_X86_SI	6
#define UPROBE_X86_DI	7

static bool uprobe_x86_has_prefix(struct insn *insn, insn_byte_t byte)
{
	insn_byte_t p;
	int i;

	for_each_insn_prefix(insn, i, p) {
		if (p == byte)
			return true;
	}
	return false;
}

static u8 uprobe_x86_modrm_reg(struct insn *insn)
{
	return X86_MODRM_REG(insn->modrm.value);
}

/*
 * Opcodes that were dropped from the 64-bit opcode map.  The decoder uses
 * one table for both modes and happily decodes them, the CPU raises #UD.
 */
static bool uprobe_x86_invalid64(u8 op)
{
	switch (op) {
	case 0x06: case 0x07: case 0x0e:	/* push/pop es, push cs */
	case 0x16: case 0x17:			/* push/pop ss */
	case 0x1e: case 0x1f:			/* push/pop ds */
	case 0x27: case 0x2f: case 0x37: case 0x3f: /* daa das aaa aas */
	case 0x60: case 0x61:			/* pusha popa */
	case 0x82:				/* alias of group 1 */
	case 0x9a: case 0xea:			/* far call/jmp ptr16:32 */
	case 0xce:				/* into */
	case 0xd4: case 0xd5:			/* aam aad */
		return true;
	}
	return false;
}

/* Why a one-byte-opcode instruction cannot be probed, or NULL. */
static const char *uprobe_x86_refuse_op1(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	u8 reg = uprobe_x86_modrm_reg(insn);

	if (insn->x86_64 && uprobe_x86_invalid64(op))
		return "invalid in 64-bit mode";

	switch (op) {
	case 0xcc:
		/* Someone else's breakpoint, or our int3 read back. */
		return "int3 is already there";
	case 0xcd:
		/* int $0x80 is a system call: it would return into the slot. */
		return "int n";
	case 0xce:
		return "into";
	case 0xf1:
		return "int1";
	case 0xcf:
		/* Loads cs, ss and flags from the stack. */
		return "iret";
	case 0x07: case 0x17: case 0x1f:	/* pop es/ss/ds */
	case 0x8e:				/* mov sreg, r/m */
	case 0xc4: case 0xc5:			/* les, lds (not VEX here) */
		/*
		 * mov ss and pop ss suppress the single-step trap of the next
		 * instruction, which would be whatever follows in the slot.
		 * The others only appear in segmented code.
		 */
		return "segment register load";
	case 0x9a: case 0xea:			/* call/jmp ptr16:32 */
	case 0xca: case 0xcb:			/* lret */
		return "far call/jmp/ret";
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:	/* ins, outs */
	case 0xe4: case 0xe5: case 0xe6: case 0xe7:	/* in, out imm8 */
	case 0xec: case 0xed: case 0xee: case 0xef:	/* in, out dx */
		return "port I/O";
	case 0xf4:				/* hlt */
	case 0xfa: case 0xfb:			/* cli, sti */
		return "privileged instruction";
	case 0xd6:				/* salc, undocumented */
		return "undefined instruction";
	case 0x8f:
		/* Only pop r/m is defined; the rest is AMD XOP space. */
		return reg ? "undefined instruction" : NULL;
	case 0xc6: case 0xc7:
		if (insn->modrm.value == 0xf8)	/* xabort, xbegin */
			return "transactional memory";
		return reg ? "undefined instruction" : NULL;
	case 0xfe:
		return reg > 1 ? "undefined instruction" : NULL;
	case 0xff:
		if (reg == 3 || reg == 5)
			return "far call/jmp/ret";
		return reg == 7 ? "undefined instruction" : NULL;
	}
	return NULL;
}

/* Group 7 (0f 01) is mostly system instructions; these few are not. */
static bool uprobe_x86_grp7_user(u8 modrm)
{
	switch (modrm) {
	case 0xd0:	/* xgetbv */
	case 0xd6:	/* xtest */
	case 0xe8:	/* serialize */
	case 0xee:	/* rdpkru */
	case 0xef:	/* wrpkru */
	case 0xf9:	/* rdtscp */
		return true;
	}
	return false;
}

/* Why a 0f-escaped instruction cannot be probed, or NULL. */
static const char *uprobe_x86_refuse_op2(struct insn *insn)
{
	u8 op = insn->opcode.bytes[1];
	u8 modrm = insn->modrm.value;
	u8 reg = uprobe_x86_modrm_reg(insn);

	switch (op) {
	case 0x05: case 0x07:			/* syscall, sysret */
	case 0x34: case 0x35:			/* sysenter, sysexit */
		return "system call";
	case 0x00:				/* sldt, str, lldt, ... */
		/* sldt/str are emulated on #GP with UMIP: no step trap. */
		return "privileged instruction";
	case 0x01:
		if (X86_MODRM_MOD(modrm) == 3 && uprobe_x86_grp7_user(modrm))
			return NULL;
		if (modrm == 0xd5)		/* xend */
			return "transactional memory";
		return "privileged instruction";
	case 0x06: case 0x08: case 0x09:	/* clts, invd, wbinvd */
	case 0x20: case 0x21: case 0x22: case 0x23: /* mov cr/dr */
	case 0x30: case 0x32:			/* wrmsr, rdmsr */
	case 0x37:				/* getsec */
	case 0xaa:				/* rsm */
		return "privileged instruction";
	case 0x78: case 0x79:
		/* vmread/vmwrite; with 66/f2 these are SSE4a extrq/insertq */
		if (uprobe_x86_has_prefix(insn, 0x66) ||
		    uprobe_x86_has_prefix(insn, 0xf2))
			return NULL;
		return "privileged instruction";
	case 0xc7:
		/* cmpxchg8b/16b, xsavec, rdrand, rdseed, rdpid are fine */
		if (reg == 1 || reg == 4)
			return X86_MODRM_MOD(modrm) == 3 ?
				"undefined instruction" : NULL;
		if (reg >= 6)
			return X86_MODRM_MOD(modrm) == 3 ?
				NULL : "privileged instruction";
		return "privileged instruction";	/* xrstors, xsaves */
	case 0xa1: case 0xa9:			/* pop fs, pop gs */
	case 0xb2: case 0xb4: case 0xb5:	/* lss, lfs, lgs */
		return "segment register load";
	case 0x0b: case 0xb9: case 0xff:	/* ud2, ud1, ud0 */
		return "undefined instruction";
	case 0x04: case 0x0a: case 0x0c: case 0x0f:
	case 0x24: case 0x25: case 0x26: case 0x27:
	case 0x36: case 0x39: case 0x3b: case 0x3c: case 0x3d: case 0x3e:
	case 0x3f: case 0x7a: case 0x7b: case 0xa6: case 0xa7:
		/* Unused, 386 test registers, or 3DNow! (0f 0f) */
		return "undefined instruction";
	}
	return NULL;
}

/*
 * es, cs, ss and ds overrides are refused, as the uprobes design always
 * did: they only matter to segmented code, which is not what user-space
 * probes are for. fs and gs carry thread-local storage (every stack
 * protector prologue) and are accepted. The same bytes also serve as
 * branch hints on jcc (2e, 3e), as the CET "notrack" marker of indirect
 * calls and jumps (3e), and as padding on multi-byte nops: there they
 * override nothing and are accepted.
 */
static bool uprobe_x86_bad_segment_override(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	insn_byte_t p;
	int i;

	for_each_insn_prefix(insn, i, p) {
		if (p != 0x26 && p != 0x2e && p != 0x36 && p != 0x3e)
			continue;
		if (insn->opcode.nbytes == 1 &&
		    ((op >= 0x70 && op <= 0x7f) ||		/* jcc rel8 hint */
		     (op == 0xff && p == 0x3e &&		/* notrack */
		      (uprobe_x86_modrm_reg(insn) == 2 ||
		       uprobe_x86_modrm_reg(insn) == 4))))
			continue;
		if (insn->opcode.nbytes == 2 && op == 0x0f &&
		    ((insn->opcode.bytes[1] >= 0x80 &&
		      insn->opcode.bytes[1] <= 0x8f) ||	/* jcc rel32 hint */
		     insn->opcode.bytes[1] == 0x1f))		/* nop padding */
			continue;
		return true;
	}
	return false;
}

/* Why @insn cannot be probed, or NULL if it can. */
static const char *uprobe_x86_refusal(struct insn *insn)
{
	if (insn_is_rex2(insn))
		return "REX2 prefix";
	/*
	 * A lock prefix marks an atomic read-modify-write, usually the
	 * cmpxchg of a retry loop: a trap round trip between the plain load
	 * and the cmpxchg makes it lose every race under contention.  The
	 * engine we replace refuses them too, and tools rely on that.
	 */
	if (uprobe_x86_has_prefix(insn, 0xf0))
		return "lock prefix";
	if (uprobe_x86_bad_segment_override(insn))
		return "segment override";
	/* VEX/EVEX: SIMD and BMI instructions, all ordinary user code. */
	if (insn_is_avx(insn))
		return NULL;
	switch (insn->opcode.nbytes) {
	case 1:
		return uprobe_x86_refuse_op1(insn);
	case 2:
		return uprobe_x86_refuse_op2(insn);
	}
	return NULL;	/* 0f 38 / 0f 3a: SSSE3, SSE4, AES, SHA, ... */
}

/* Set @au up to emulate a relative jmp, jcc or call. */
static void uprobe_x86_plan_branch(struct arch_uprobe *au, struct insn *insn,
				   u8 emul, u8 cond)
{
	au->emul = emul;
	au->cond = cond;
	au->disp = insn->immediate.value;
	if (emul == UPROBE_X86_CALL) {
		/*
		 * Should the emulated push of the return address fail, the
		 * call is stepped instead, to fault with the right signal.
		 * Step a call to the next instruction, which cannot hit a
		 * non-canonical target, and compute the real one afterwards.
		 */
		memset(au->ixol + insn_offset_immediate(insn), 0,
		       insn->immediate.nbytes);
		au->fixups = UPROBE_X86_FIX_CALL | UPROBE_X86_FIX_TARGET;
	}
}

/* The UPROBE_X86_CMP form of cmp/test opcode @op with a rip-relative r/m. */
static int uprobe_x86_cmp_form(struct insn *insn, u8 op, bool rex_w)
{
	u8 wide = rex_w ? 3 : 2, ext = uprobe_x86_modrm_reg(insn);

	switch (op) {
	case 0x80:			/* cmp $imm8, r/m8 */
		return ext == 7 ? 0 : -1;
	case 0x83:			/* cmp $imm8, r/m32/64 */
		return ext == 7 ? wide : -1;
	case 0x81:			/* cmp $imm32, r/m32/64 */
		return ext == 7 ? wide | UPROBE_X86_CMP_IMM32 : -1;
	case 0xf6:			/* test $imm8, r/m8 */
		return ext == 0 ? UPROBE_X86_CMP_TEST : -1;
	case 0xf7:			/* test $imm32, r/m32/64 */
		return ext == 0 ? wide | UPROBE_X86_CMP_TEST |
				  UPROBE_X86_CMP_IMM32 : -1;
	case 0x39:			/* cmp reg, r/m: r/m - reg */
		return wide | UPROBE_X86_CMP_REG;
	case 0x3b:			/* cmp r/m, reg: reg - r/m */
		return wide | UPROBE_X86_CMP_REG | UPROBE_X86_CMP_REV;
	case 0x85:			/* test reg, r/m */
		return wide | UPROBE_X86_CMP_REG | UPROBE_X86_CMP_TEST;
	}
	return -1;
}

/*
 * mov disp32(%rip) to or from a register, lea disp32(%rip),%reg64 and
 * cmp/test of a disp32(%rip) operand are emulated: one user read or write,
 * lea none; x87 instructions on a disp32(%rip) operand are run by the
 * kernel (x87.c). Only without legacy prefixes: an operand-size or segment
 * prefix changes what they do. The copy stays ready (rip-relative
 * rewrite) for the step a failed access falls back to.
 */
static void uprobe_x86_plan_riprel(struct arch_uprobe *au, struct insn *insn)
{
	bool rex_w = X86_REX_W(insn->rex_prefix.value);
	u8 op = insn->opcode.bytes[0];
	u8 reg = uprobe_x86_modrm_reg(insn);
	int form;

	if (insn->opcode.nbytes != 1 || insn->prefixes.nbytes ||
	    !insn_rip_relative(insn))
		return;
	if (X86_REX_R(insn->rex_prefix.value))
		reg |= 8;

	switch (op) {
	case 0xd8 ... 0xdf:
		form = (op & 7) << 3 | (reg & 7);
		if (!uprobe_x86_x87_runs(form))
			return;
		au->emul = UPROBE_X86_X87;
		au->cond = form;
		au->disp = insn->displacement.value;
		return;
	case 0x8b:
		au->emul = rex_w ? UPROBE_X86_LOAD64 : UPROBE_X86_LOAD32;
		break;
	case 0x89:
		au->emul = rex_w ? UPROBE_X86_STORE64 : UPROBE_X86_STORE32;
		break;
	case 0x8d:
		if (!rex_w)
			return;
		au->emul = UPROBE_X86_LEA;
		break;
	default:
		form = uprobe_x86_cmp_form(insn, op, rex_w);
		if (form < 0)
			return;
		au->emul = UPROBE_X86_CMP;
		au->cond = form;
		au->disp = insn->displacement.value;
		return;
	}
	au->cond = uprobe_x86_gpr_off[reg];
	au->disp = insn->displacement.value;
}

/*
 * Decide how @insn runs: emulated, or stepped with which fix-ups.
 * Returns a reason to refuse, for the few forms emulation cannot express.
 */
static const char *uprobe_x86_plan(struct arch_uprobe *au, struct insn *insn)
{
	u8 op1 = insn->opcode.bytes[0];
	u8 op2 = insn->opcode.bytes[1];
	bool rex_b = X86_REX_B(insn->rex_prefix.value);
	bool branch = false;

	au->emul = UPROBE_X86_STEP;
	au->fixups = UPROBE_X86_FIX_IP;

	if (insn_is_avx(insn))
		return NULL;

	if (insn->opcode.nbytes == 1) {
		switch (op1) {
		case 0x90:
			/* nop, pause, xchg %ax,%ax; 41 90 is xchg %r8d,%eax */
			if (!rex_b)
				au->emul = UPROBE_X86_NOP;
			break;
		case 0x50 ... 0x57:
			if (uprobe_x86_has_prefix(insn, 0x66))
				break;		/* pushw: just step it */
			au->emul = UPROBE_X86_PUSH;
			au->reg = uprobe_x86_gpr_off[(op1 & 7) | (rex_b << 3)];
			break;
		case 0x70 ... 0x7f:
			uprobe_x86_plan_branch(au, insn, UPROBE_X86_JCC,
					       op1 & 0xf);
			branch = true;
			break;
		case 0xe9: case 0xeb:
			uprobe_x86_plan_branch(au, insn, UPROBE_X86_JMP, 0);
			branch = true;
			break;
		case 0xe8:
			uprobe_x86_plan_branch(au, insn, UPROBE_X86_CALL, 0);
			branch = true;
			break;
		case 0xe0 ... 0xe3:		/* loop*, jcxz: rel8 */
			branch = true;
			break;
		case 0x9c:
			au->fixups |= UPROBE_X86_FIX_PUSHF;
			if (!uprobe_x86_has_prefix(insn, 0x66))
				au->emul = UPROBE_X86_PUSHF;	/* not pushfw */
			break;
		case 0x9d:
			au->fixups |= UPROBE_X86_FIX_POPF;
			break;
		case 0xd8 ... 0xdf:
			au->fixups |= UPROBE_X86_FIX_FIP;
			break;
		case 0xc2: case 0xc3:		/* ret: ip is absolute */
			au->emul = UPROBE_X86_RET;
			au->fixups = 0;
			if (op1 == 0xc2)
				au->disp = (u16)insn->immediate.value;
			branch = true;
			break;
		case 0xa4 ... 0xa7:		/* movs, cmps */
		case 0xaa ... 0xaf:		/* stos, lods, scas */
			if (uprobe_x86_has_prefix(insn, 0xf3) ||
			    uprobe_x86_has_prefix(insn, 0xf2))
				au->fixups |= UPROBE_X86_FIX_REP;
			break;
		case 0xff:
			if (uprobe_x86_modrm_reg(insn) == 2) {	/* call *r/m */
				au->fixups = UPROBE_X86_FIX_CALL;
				branch = true;
			} else if (uprobe_x86_modrm_reg(insn) == 4) { /* jmp */
				au->fixups = 0;
				branch = true;
			}
			break;
		}
	} else if (insn->opcode.nbytes == 2 && op1 == 0x0f) {
		switch (op2) {
		case 0x80 ... 0x8f:
			uprobe_x86_plan_branch(au, insn, UPROBE_X86_JCC,
					       op2 & 0xf);
			branch = true;
			break;
		case 0x1f:			/* nop r/m */
			if (!uprobe_x86_modrm_reg(insn))
				au->emul = UPROBE_X86_NOP;
			break;
		case 0x1e:			/* endbr64, endbr32 */
			if (uprobe_x86_has_prefix(insn, 0xf3) &&
			    (insn->modrm.value == 0xfa ||
			     insn->modrm.value == 0xfb))
				au->emul = UPROBE_X86_NOP;
			break;
		}
	}
	/*
	 * 66 on a near branch, call or ret truncates ip to 16 bits and moves
	 * 16-bit return addresses (Intel ignores it in 64-bit mode, AMD does
	 * not).  Nobody emits it: refuse rather than fix up either behaviour.
	 */
	if (branch && uprobe_x86_has_prefix(insn, 0x66))
		return "operand-size prefix on branch";
	if (au->emul == UPROBE_X86_STEP)
		uprobe_x86_plan_riprel(au, insn);
	return NULL;
}

/* VEX/EVEX.vvvv (stored inverted), or 0xff without a VEX prefix. */
static u8 uprobe_x86_vvvv(struct insn *insn)
{
	switch (insn->vex_prefix.nbytes) {
	case 2:
		return X86_VEX_V(insn->vex_prefix.bytes[1]) ^ 0xf;
	case 3: case 4:
		return X86_VEX_V(insn->vex_prefix.bytes[2]) ^ 0xf;
	}
	return 0xff;
}

/*
 * Rewrite a rip-relative memory operand of the copy in ->ixol.
 *
 * The slot is far from the original instruction, usually out of the
 * +-2GB a disp32 reaches, so the copy cannot address the same memory
 * relative to its own ip.  Instead the operand becomes disp32(%scratch):
 * ModRM "00 reg 101" turns into "10 reg scr", same length, same disp32,
 * and before the step the scratch register is loaded with the address
 * the original ip would have had after the instruction (see xol.c).
 *
 * The scratch register is the first of si, di, bx the instruction does
 * not name in ModRM.reg or VEX.vvvv (low three bits compared, which is
 * conservative).  Instructions with a ModRM byte use ax, cx and dx
 * implicitly (mul, div, shifts, cmpxchg, pcmpestri, xsave masks, mulx),
 * bx only in cmpxchg8b/16b (whose ModRM.reg is 1, so si is picked) and
 * si/di never with a memory operand; sp and bp would change the length
 * or the default segment.  Extension bits that would select r11..r15
 * instead are cleared: REX.B, VEX.B and EVEX.B/X (both inverted).
 */
static void uprobe_x86_riprel(struct arch_uprobe *au, struct insn *insn)
{
	static const u8 candidates[] = {
		UPROBE_X86_SI, UPROBE_X86_DI, UPROBE_X86_BX,
	};
	u8 reg = uprobe_x86_modrm_reg(insn);
	u8 vvvv = uprobe_x86_vvvv(insn);
	u8 scratch = UPROBE_X86_BX;
	int i;

	if (!insn_rip_relative(insn))
		return;

	if (vvvv != 0xff)
		vvvv &= 7;

	for (i = 0; i < ARRAY_SIZE(candidates); i++) {
		if (candidates[i] != reg && candidates[i] != vvvv) {
			scratch = candidates[i];
			break;
		}
	}

	if (insn->rex_prefix.nbytes)
		au->ixol[insn_offset_rex_prefix(insn)] &= ~0x01;
	if (insn->vex_prefix.nbytes == 3)
		au->ixol[insn_offset_vex_prefix(insn) + 1] |= 0x20;
	else if (insn->vex_prefix.nbytes == 4)
		au->ixol[insn_offset_vex_prefix(insn) + 1] |= 0x60;

	au->ixol[insn_offset_modrm(insn)] = 0x80 | (reg << 3) | scratch;
	au->reg = uprobe_x86_gpr_off[scratch];
	au->fixups |= UPROBE_X86_FIX_RIPREL;
}

/**
 * arch_uprobe_analyze - check and prepare a probed instruction
 * @auprobe: probe whose ->insn holds the bytes read from the file
 * @is_64bit: the file is a 64-bit ELF (decode in 64-bit mode)
 * @reason: set to a short static explanation when the probe is refused
 *
 * Decodes ->insn, refuses what cannot be executed out of line, and fills
 * in ->ixol (the copy that is single-stepped) and the emulation and
 * fix-up description used when the breakpoint is hit.
 *
 * Return: 0, -EINVAL if the bytes do not decode, or -EOPNOTSUPP if the
 * instruction cannot be probed.
 */
int arch_uprobe_analyze(struct arch_uprobe *auprobe, bool is_64bit,
			const char **reason)
{
	struct insn insn;
	const char *why;

	*reason = NULL;
	if (is_64bit && !IS_ENABLED(CONFIG_X86_64)) {
		*reason = "64-bit code on a 32-bit kernel";
		return -EOPNOTSUPP;
	}
	if (insn_decode(&insn, auprobe->insn, sizeof(auprobe->insn),
			is_64bit ? INSN_MODE_64 : INSN_MODE_32) < 0) {
		*reason = "cannot decode";
		return -EINVAL;
	}

	why = uprobe_x86_refusal(&insn);
	if (!why) {
		memcpy(auprobe->ixol, auprobe->insn, insn.length);
		/* Should TF ever be lost, run into a trap, not into garbage. */
		memset(auprobe->ixol + insn.length, UPROBE_SWBP_INSN,
		       sizeof(auprobe->ixol) - insn.length);
		auprobe->len = insn.length;
		auprobe->disp = 0;
		auprobe->cond = 0;
		auprobe->reg = 0;
		why = uprobe_x86_plan(auprobe, &insn);
	}
	if (why) {
		*reason = why;
		return -EOPNOTSUPP;
	}
	uprobe_x86_riprel(auprobe, &insn);
	return 0;
}

#ifdef CONFIG_UPROBES_X86_KUNIT_TEST
#include "tests/insn-kunit.h"
#endif
