/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef __ASM_UPROBES_H
#define __ASM_UPROBES_H
/*
 * arm64 definitions for user-space probes: the breakpoint, the size of an
 * execute-out-of-line (XOL) slot, and what the instruction analysis leaves
 * behind for the simulation and single-step code.
 *
 * Also included without CONFIG_UPROBES, by debug-monitors.c, for the two
 * entry points of its BRK and single-step exception handlers, and by
 * hw_breakpoint.c and fpsimd.c, for uprobe_arm64_copy_trapped().
 */

#include <linux/types.h>
#include <asm/byteorder.h>
#include <asm/debug-monitors.h>
#include <asm/insn-def.h>

/*
 * What the core reads and writes in process memory: A64 instructions are
 * little-endian there, whatever the kernel's endianness.
 */
typedef __le32 uprobe_opcode_t;

#define MAX_UINSN_BYTES			AARCH64_INSN_SIZE

/*
 * A slot holds one copied instruction.  A cache line per slot keeps
 * threads stepping in neighbouring slots from sharing a line.
 */
#define UPROBE_XOL_SLOT_BYTES		64

/* brk #UPROBES_BRK_IMM: the BRK exception handler knows it by its immediate */
#define UPROBE_SWBP_INSN		cpu_to_le32(BRK64_OPCODE_UPROBES)
#define UPROBE_SWBP_INSN_SIZE		AARCH64_INSN_SIZE

/**
 * enum uprobe_arm64_sim - how a probed instruction is executed
 * @UPROBE_ARM64_STEP: single-step the copy in ->ixol out of line
 * @UPROBE_ARM64_NOP: nop, bti, prfm (literal): nothing to do but advance pc
 * @UPROBE_ARM64_B: b, bl (->flags has UPROBE_ARM64_LINK): to pc + ->offset
 * @UPROBE_ARM64_BCOND: b.cond, bc.cond: to pc + ->offset if condition
 *	->cond holds
 * @UPROBE_ARM64_CBZ: cbz, cbnz (UPROBE_ARM64_NZ) of register ->reg (its
 *	low 32 bits with UPROBE_ARM64_W): to pc + ->offset
 * @UPROBE_ARM64_TBZ: tbz, tbnz (UPROBE_ARM64_NZ) of bit ->cond of register
 *	->reg: to pc + ->offset
 * @UPROBE_ARM64_BR: br, blr (UPROBE_ARM64_LINK), ret: to the address in
 *	register ->reg; ->cond is the PSTATE.BTYPE the branch leaves
 * @UPROBE_ARM64_ADR: adr: register ->reg = pc + ->offset
 * @UPROBE_ARM64_ADRP: adrp: register ->reg = (pc & ~0xfff) + ->offset
 * @UPROBE_ARM64_LDR: ldr, ldrsw (literal) from pc + ->offset into register
 *	->reg: 4 bytes with UPROBE_ARM64_W (sign-extended with
 *	UPROBE_ARM64_SIGNED), else 8.  When the kernel cannot read the literal,
 *	->ixol is stepped instead: the same load with register ->reg as its
 *	base, loaded with the literal's address (it faults where the original
 *	would)
 * @UPROBE_ARM64_ADD_IMM: add, adds, sub, subs (immediate); cmp, cmn
 * @UPROBE_ARM64_ADD_REG: add, adds, sub, subs (shifted register); cmp,
 *	cmn, neg
 * @UPROBE_ARM64_LOGIC_REG: and, orr, eor, ands, bic, orn, eon, bics
 *	(shifted register); mov (register), tst
 * @UPROBE_ARM64_MOVW: movz, movn, movk
 * @UPROBE_ARM64_LDST: ldr, ldrb, ldrh, ldrsb, ldrsh, ldrsw, str, strb,
 *	strh (immediate: unsigned offset, unscaled, pre- and post-indexed).
 *	An access the kernel cannot make is stepped instead, and faults as
 *	the original would
 * @UPROBE_ARM64_STP: stp of registers ->reg and ->reg2 (31: the zero
 *	register; w registers with UPROBE_ARM64_W) to register ->cond (31:
 *	sp) + ->offset, or to register ->cond itself and then ->offset added
 *	to it (UPROBE_ARM64_POST); ->offset is added to it too with
 *	UPROBE_ARM64_PRE.  A store the kernel cannot make is stepped
 *	instead, and faults as the original would
 *
 * Everything but STEP is simulated on the user registers, so that a hit
 * costs one trap; the pc readers among them could not be stepped from
 * another address as they are, and a function's first instructions
 * (its frame record's stp, the stack pointer's sub, mov x29, sp, saving
 * and moving registers, comparing arguments) are those probed most.
 * ADD_IMM to LDST have their fields decoded from ->insn at each hit.
 */
enum uprobe_arm64_sim {
	UPROBE_ARM64_STEP,
	UPROBE_ARM64_NOP,
	UPROBE_ARM64_B,
	UPROBE_ARM64_BCOND,
	UPROBE_ARM64_CBZ,
	UPROBE_ARM64_TBZ,
	UPROBE_ARM64_BR,
	UPROBE_ARM64_ADR,
	UPROBE_ARM64_ADRP,
	UPROBE_ARM64_LDR,
	UPROBE_ARM64_ADD_IMM,
	UPROBE_ARM64_ADD_REG,
	UPROBE_ARM64_LOGIC_REG,
	UPROBE_ARM64_MOVW,
	UPROBE_ARM64_LDST,
	UPROBE_ARM64_STP,
};

/* Details of a simulated instruction (arch_uprobe::flags). */
/* the branch writes its return address (pc + 4) to x30 */
#define UPROBE_ARM64_LINK	0x01
/* cbnz, tbnz: branch when the register or bit is not zero */
#define UPROBE_ARM64_NZ		0x02
/* the 32-bit form: W register tested (cbz), 4-byte literal (ldr), stp of w */
#define UPROBE_ARM64_W		0x04
/* ldrsw: the 4-byte literal is sign-extended */
#define UPROBE_ARM64_SIGNED	0x08
/* stp: the base register becomes the address stored to (pre-index) */
#define UPROBE_ARM64_PRE	0x10
/* stp: stored to the base register, which then gets ->offset added */
#define UPROBE_ARM64_POST	0x20

/**
 * struct arch_uprobe - analysed probed instruction
 * @insn: the probed instruction as read from the file (never modified)
 * @ixol: the instruction as single-stepped in an XOL slot: @insn, or the
 *	rewritten load of a literal load (see %UPROBE_ARM64_LDR)
 * @offset: pc-relative offset of a branch, literal or adr/adrp target,
 *	offset of an stp
 * @sim: an &enum uprobe_arm64_sim
 * @reg: register number (31: the zero register) the simulation reads or
 *	writes
 * @reg2: the second register of a simulated stp
 * @cond: condition of b.cond, bit number of tbz/tbnz, BTYPE of br/blr/ret
 * @flags: UPROBE_ARM64_* details of the simulation
 */
struct arch_uprobe {
	u8	insn[MAX_UINSN_BYTES] __aligned(4);
	u8	ixol[MAX_UINSN_BYTES] __aligned(4);
	s64	offset;
	u8	sim;
	u8	reg;
	u8	cond;
	u8	flags;
	u8	reg2;
};

/**
 * struct arch_uprobe_task - per-thread state while stepping out of line
 * @saved_fault_code: thread.fault_code before the step
 * @saved_reg: user value of the base register of a rewritten literal load
 * @user_step: TIF_SINGLESTEP was set before the step (ptrace single-steps
 *	the thread): it stays, and the user gets the step it asked for
 * @diverted: the return address the last return probe diverted, while
 *	the core looks for the frames it replaces
 * @quiet_trap: the copy raised an exception that records no ESR of its
 *	own (see uprobe_arm64_copy_trapped())
 */
struct arch_uprobe_task {
	unsigned long	saved_fault_code;
	unsigned long	saved_reg;
	unsigned long	diverted;
	bool		user_step;
	bool		quiet_trap;
};

struct pt_regs;

int uprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
#ifdef CONFIG_UPROBES
int uprobe_single_step_handler(struct pt_regs *regs, unsigned long esr);
void uprobe_arm64_copy_trapped(struct pt_regs *regs, unsigned long esr);
bool uprobe_arm64_sea_fixup(struct pt_regs *regs, unsigned long esr);
#else
static inline int uprobe_single_step_handler(struct pt_regs *regs,
					     unsigned long esr)
{
	return DBG_HOOK_ERROR;
}

static inline void uprobe_arm64_copy_trapped(struct pt_regs *regs,
					     unsigned long esr)
{
}

static inline bool uprobe_arm64_sea_fixup(struct pt_regs *regs,
					  unsigned long esr)
{
	return false;
}
#endif

#endif /* __ASM_UPROBES_H */
