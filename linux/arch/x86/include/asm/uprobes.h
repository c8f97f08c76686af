/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _ASM_X86_UPROBES_H
#define _ASM_X86_UPROBES_H
/*
 * x86 definitions for user-space probes: the breakpoint, the size of an
 * execute-out-of-line (XOL) slot, and what the instruction analysis leaves
 * behind for the single-step and emulation code.
 */

#include <linux/types.h>

typedef u8 uprobe_opcode_t;

/* One x86 instruction is at most 15 bytes; keep a round 16. */
#define MAX_UINSN_BYTES			16

/*
 * A slot holds one copied instruction.  A cache line per slot keeps
 * threads stepping in neighbouring slots from sharing a line.
 */
#define UPROBE_XOL_SLOT_BYTES		64

#define UPROBE_SWBP_INSN		0xcc	/* int3 */
#define UPROBE_SWBP_INSN_SIZE		1

/**
 * enum uprobe_x86_emul - how a probed instruction is executed
 * @UPROBE_X86_STEP: single-step the copy in ->ixol out of line
 * @UPROBE_X86_NOP: nothing to do but advance ip
 * @UPROBE_X86_JMP: jmp rel8/rel32
 * @UPROBE_X86_JCC: conditional jump rel8/rel32, condition in ->cond
 * @UPROBE_X86_CALL: call rel32
 * @UPROBE_X86_PUSH: push of the register at pt_regs offset ->reg
 * @UPROBE_X86_LOAD32: mov disp32(%rip) into the 32-bit register at
 *	pt_regs offset ->cond (zero-extended)
 * @UPROBE_X86_LOAD64: the same into a 64-bit register
 * @UPROBE_X86_LEA: lea disp32(%rip) into the 64-bit register at pt_regs
 *	offset ->cond
 * @UPROBE_X86_RET: near ret, ret imm16 (the bytes it pops in ->disp)
 * @UPROBE_X86_PUSHF: pushf (32/64-bit operand size)
 * @UPROBE_X86_STORE32: mov of the 32-bit register at pt_regs offset
 *	->cond to disp32(%rip)
 * @UPROBE_X86_STORE64: the same from a 64-bit register
 * @UPROBE_X86_CMP: cmp or test of a disp32(%rip) operand of 1, 4 or 8
 *	bytes with an immediate or a register, the form in ->cond
 *	(UPROBE_X86_CMP_*)
 * @UPROBE_X86_X87: x87 instruction with a disp32(%rip) operand, run by
 *	the kernel on the thread's FPU registers; ->cond is its opcode's
 *	low three bits and its ModRM reg field (op & 7) << 3 | reg
 *
 * Everything but STEP is emulated in the kernel, so that a hit costs
 * one trap.  An instruction whose emulated memory access fails falls back
 * to stepping ->ixol, which then faults with the right signal.
 */
enum uprobe_x86_emul {
	UPROBE_X86_STEP,
	UPROBE_X86_NOP,
	UPROBE_X86_JMP,
	UPROBE_X86_JCC,
	UPROBE_X86_CALL,
	UPROBE_X86_PUSH,
	UPROBE_X86_LOAD32,
	UPROBE_X86_LOAD64,
	UPROBE_X86_LEA,
	UPROBE_X86_RET,
	UPROBE_X86_PUSHF,
	UPROBE_X86_STORE32,
	UPROBE_X86_STORE64,
	UPROBE_X86_CMP,
	UPROBE_X86_X87,
};

/* The form of a UPROBE_X86_CMP (arch_uprobe::cond). */
/* operand size: 1 << (cond & UPROBE_X86_CMP_SIZE) bytes */
#define UPROBE_X86_CMP_SIZE	0x03
/* test (and) rather than cmp (subtract) */
#define UPROBE_X86_CMP_TEST	0x04
/* the other operand is the register of the ModRM reg field */
#define UPROBE_X86_CMP_REG	0x08
/* register minus memory (cmp reg, r/m), not memory minus the other */
#define UPROBE_X86_CMP_REV	0x10
/* a 4-byte immediate (sign-extended to 8 bytes), else 1 byte */
#define UPROBE_X86_CMP_IMM32	0x20

/* Fix-ups after stepping ->ixol out of line (arch_uprobe::fixups). */
/* ip is relative to the slot: move it back next to the original insn */
#define UPROBE_X86_FIX_IP	0x01
/* a call pushed a return address inside the slot: point it after the insn */
#define UPROBE_X86_FIX_CALL	0x02
/* ip after the step is the relative target, computed from ->disp */
#define UPROBE_X86_FIX_TARGET	0x04
/* pushf stored our TF in the flags image on the stack */
#define UPROBE_X86_FIX_PUSHF	0x08
/* popf loaded TF from the user's image: leave TF alone */
#define UPROBE_X86_FIX_POPF	0x10
/* rip-relative operand rewritten to use the register at offset ->reg */
#define UPROBE_X86_FIX_RIPREL	0x20
/* rep string insn: traps after every iteration, keep stepping */
#define UPROBE_X86_FIX_REP	0x40
/* x87 insn: it recorded the slot as the FPU's last instruction pointer */
#define UPROBE_X86_FIX_FIP	0x80

/**
 * struct arch_uprobe - analysed probed instruction
 * @insn: the probed instruction as read from the file (never modified)
 * @ixol: the instruction as executed in an XOL slot (rip-relative
 *	operands rewritten, call displacement cleared)
 * @disp: displacement of a relative jmp/jcc/call, or of the rip-relative
 *	operand of an emulated LOAD32/LOAD64/LEA/STORE32/STORE64/CMP/X87, or
 *	the immediate of a RET
 * @len: length of the instruction
 * @emul: an &enum uprobe_x86_emul
 * @fixups: UPROBE_X86_FIX_* to apply after stepping @ixol
 * @cond: condition code (low nibble of the opcode) of a jcc, pt_regs
 *	offset of the destination of LOAD32/LOAD64/LEA or of the source of
 *	STORE32/STORE64, the form of a CMP, or the instruction of an X87
 * @reg: pt_regs offset of the register pushed (PUSH) or used as the
 *	scratch base register of a rewritten rip-relative operand
 */
struct arch_uprobe {
	u8	insn[MAX_UINSN_BYTES];
	u8	ixol[MAX_UINSN_BYTES];
	s32	disp;
	u8	len;
	u8	emul;
	u8	fixups;
	u8	cond;
	u8	reg;
};

/**
 * struct arch_uprobe_task - per-thread state while stepping out of line
 * @saved_scratch: user value of the rip-relative scratch register
 * @saved_sp: user stack pointer before the step
 * @saved_trap_nr: thread.trap_nr before the step
 * @user_tf: TF was set by the user (ptrace or popf) before the step
 * @fixups: copy of arch_uprobe::fixups of the instruction being stepped
 */
struct arch_uprobe_task {
	unsigned long	saved_scratch;
	unsigned long	saved_sp;
	unsigned int	saved_trap_nr;
	bool		user_tf;
	u8		fixups;
};

struct pt_regs;

bool uprobe_x86_sstep_trap(struct pt_regs *regs, unsigned long dr6);

#endif /* _ASM_X86_UPROBES_H */
