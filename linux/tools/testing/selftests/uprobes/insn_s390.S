/* SPDX-License-Identifier: GPL-2.0 */
/*
 * s390x instruction table for the uprobes engine tests (bin/insns390), the
 * s390 counterpart of insn64.S with the same conventions.
 *
 * insn_t_NAME: a function returning in r2 a value that is only right when
 * the instruction at the label insn_p_NAME ran exactly as it would unprobed
 * (branch targets and conditions, the return address register, the
 * condition code, relative-long addresses, loads and stores, the stack,
 * memory). Every insn_p_ label runs once per call of its function; one
 * ending _xN runs N times. insn_r_NAME labels (in refused_insns, never
 * called) mark instructions the engine must refuse to probe.
 *
 * s390 keeps its stock uprobes code (arch/s390/kernel/uprobes.c), which
 * the engine serves: it emulates the relative-long loads, stores and
 * compares (larl, lgrl, strl, cgrl, ...; the *rl sites) and single-steps
 * a copy of everything else in the XOL area with PER instruction-fetch
 * events, then fixes up the instruction address (relative branches
 * executed from the copy), the return address register (bras, brasl,
 * basr) and a branch not taken. A result depends on the probed
 * instruction alone: values are computed relative to a label, never
 * absolute addresses. r6..r13 are saved where used, as the ABI wants.
 */
#include "insn_asm.h"

/* A frame of our own, so that r14 may be used: save r14, r15. */
	.macro ENTER
	stmg	%r14, %r15, 112(%r15)
	aghi	%r15, -160
	.endm

	.macro LEAVE
	lmg	%r14, %r15, 272(%r15)
	br	%r14
	.endm

/* reg = a 64-bit constant */
	.macro MOV64 reg, hi, lo
	llihf	\reg, \hi
	oilf	\reg, \lo
	.endm

	.data
	.p2align 3
v64:	.quad	0x1122334455667788
v32:	.long	0x80000001
	.long	0
v16:	.short	0x8002
	.short	0, 0, 0
vst:	.quad	0
vmv:	.ascii	"0123456789abcdef"
vmvo:	.fill	16, 1, 0

	.text
/* Returns its own return address (r14) in r2. */
retaddr_helper:
	lgr	%r2, %r14
	br	%r14

/* ---- relative-long, emulated ---- */
FUNC larl
	larl	%r1, v64
PROBE larl
	larl	%r2, v64
	sgr	%r2, %r1
	aghi	%r2, 0x101
	br	%r14
ENDF larl

FUNC larl_text
	larl	%r1, retaddr_helper
PROBE larl_text
	larl	%r2, retaddr_helper
	sgr	%r2, %r1
	aghi	%r2, 0x102
	br	%r14
ENDF larl_text

FUNC lgrl
PROBE lgrl
	lgrl	%r2, v64
	br	%r14
ENDF lgrl

/* 32-bit loads leave the high half of the register as it was */
FUNC lrl
	llihf	%r2, 0x12345678
PROBE lrl
	lrl	%r2, v32
	br	%r14
ENDF lrl

FUNC lgfrl
PROBE lgfrl
	lgfrl	%r2, v32
	br	%r14
ENDF lgfrl

FUNC llgfrl
	lghi	%r2, -1
PROBE llgfrl
	llgfrl	%r2, v32
	br	%r14
ENDF llgfrl

FUNC lhrl
	llihf	%r2, 0x12345678
PROBE lhrl
	lhrl	%r2, v16
	br	%r14
ENDF lhrl

FUNC lghrl
PROBE lghrl
	lghrl	%r2, v16
	br	%r14
ENDF lghrl

FUNC llhrl
	llihf	%r2, 0x12345678
PROBE llhrl
	llhrl	%r2, v16
	br	%r14
ENDF llhrl

FUNC llghrl
	lghi	%r2, -1
PROBE llghrl
	llghrl	%r2, v16
	br	%r14
ENDF llghrl

FUNC stgrl
	MOV64	%r3, 0xaabbccdd, 0x11223344
PROBE stgrl
	stgrl	%r3, vst
	lgrl	%r2, vst
	br	%r14
ENDF stgrl

FUNC strl
	lghi	%r0, 0
	stgrl	%r0, vst
	MOV64	%r3, 0xaabbccdd, 0x11223344
PROBE strl
	strl	%r3, vst
	lgrl	%r2, vst
	br	%r14
ENDF strl

FUNC sthrl
	lghi	%r0, 0
	stgrl	%r0, vst
	MOV64	%r3, 0xaabbccdd, 0x11223344
PROBE sthrl
	sthrl	%r3, vst
	lgrl	%r2, vst
	br	%r14
ENDF sthrl

/*
 * compares: the condition code, 0 equal, 1 low, 2 high, times 0x10 (ipm
 * and srl leave r2's high word as it was: cleared first, which keeps the
 * condition code)
 */
	.macro CC_TO_R2
	lghi	%r2, 0
	ipm	%r2
	srl	%r2, 28
	sllg	%r2, %r2, 4
	.endm

FUNC cgrl_low
	lgrl	%r3, v64
	aghi	%r3, -1
PROBE cgrl_low
	cgrl	%r3, v64
	CC_TO_R2
	br	%r14
ENDF cgrl_low

FUNC cgrl_eq
	lgrl	%r3, v64
PROBE cgrl_eq
	cgrl	%r3, v64
	CC_TO_R2
	aghi	%r2, 1
	br	%r14
ENDF cgrl_eq

FUNC crl_high
	lghi	%r3, 5
PROBE crl_high
	crl	%r3, v32
	CC_TO_R2
	aghi	%r2, 2
	br	%r14
ENDF crl_high

FUNC clgrl_high
	lghi	%r3, -1
PROBE clgrl_high
	clgrl	%r3, v64
	CC_TO_R2
	aghi	%r2, 3
	br	%r14
ENDF clgrl_high

FUNC chrl_low
	lghi	%r3, -0x8000
PROBE chrl_low
	chrl	%r3, v16
	CC_TO_R2
	aghi	%r2, 4
	br	%r14
ENDF chrl_low

FUNC clhrl_low
	lghi	%r3, 2
PROBE clhrl_low
	clhrl	%r3, v16
	CC_TO_R2
	aghi	%r2, 5
	br	%r14
ENDF clhrl_low

FUNC cgfrl_high
	lghi	%r3, 1
PROBE cgfrl_high
	cgfrl	%r3, v32
	CC_TO_R2
	aghi	%r2, 6
	br	%r14
ENDF cgfrl_high

FUNC clgfrl_eq
	llgfrl	%r3, v32
PROBE clgfrl_eq
	clgfrl	%r3, v32
	CC_TO_R2
	aghi	%r2, 7
	br	%r14
ENDF clgfrl_eq

/* ---- branches, stepped out of line and fixed up ---- */
FUNC j_fwd
PROBE j_fwd
	j	1f
	lghi	%r2, 0xbad
	br	%r14
1:	lghi	%r2, 0x1001
	br	%r14
ENDF j_fwd

FUNC jg_back
	j	2f
1:	lghi	%r2, 0x1002
	br	%r14
2:
PROBE jg_back
	jg	1b
	lghi	%r2, 0xbad
	br	%r14
ENDF jg_back

FUNC brc_taken
	lghi	%r3, 0
	ltgr	%r3, %r3
PROBE brc_taken
	jz	1f
	lghi	%r2, 0xbad
	br	%r14
1:	lghi	%r2, 0x1003
	br	%r14
ENDF brc_taken

FUNC brc_not_taken
	lghi	%r3, 1
	ltgr	%r3, %r3
PROBE brc_not_taken
	jz	1f
	lghi	%r2, 0x1004
	br	%r14
1:	lghi	%r2, 0xbad
	br	%r14
ENDF brc_not_taken

FUNC brcl_not_taken
	lghi	%r3, 1
	ltgr	%r3, %r3
PROBE brcl_not_taken
	jgz	1f
	lghi	%r2, 0x1005
	br	%r14
1:	lghi	%r2, 0xbad
	br	%r14
ENDF brcl_not_taken

/* brctg: three times round, probed each time */
FUNC brctg_x3
	lghi	%r3, 3
	lghi	%r2, 0x1000
1:	aghi	%r2, 1
PROBE brctg_x3
	brctg	%r3, 1b
	br	%r14
ENDF brctg_x3

/* bras, brasl, basr: the return address is the original's successor */
FUNC bras
	ENTER
PROBE bras
	bras	%r14, retaddr_helper_near
1:	larl	%r1, 1b
	sgr	%r2, %r1
	aghi	%r2, 0x2001
	LEAVE
retaddr_helper_near:
	lgr	%r2, %r14
	br	%r14
ENDF bras

FUNC brasl
	ENTER
PROBE brasl
	brasl	%r14, retaddr_helper
1:	larl	%r1, 1b
	sgr	%r2, %r1
	aghi	%r2, 0x2002
	LEAVE
ENDF brasl

FUNC call_reg
	ENTER
	larl	%r1, retaddr_helper
PROBE call_reg
	basr	%r14, %r1
1:	larl	%r1, 1b
	sgr	%r2, %r1
	aghi	%r2, 0x2003
	LEAVE
ENDF call_reg

/* br %r14: the return itself */
FUNC ret
	lghi	%r2, 0x2004
PROBE ret
	br	%r14
ENDF ret

/* bcr 0 (nopr) and bc 0 (nop): no branch */
FUNC nopr
	lghi	%r2, 0x2005
PROBE nopr
	nopr	%r7
	br	%r14
ENDF nopr

FUNC nop4
	lghi	%r2, 0x2006
PROBE nop4
	bc	0, 0
	br	%r14
ENDF nop4

/* ---- data processing, loads and stores, stepped ---- */
FUNC agr
	lghi	%r2, 0x3000
	lghi	%r3, 1
PROBE agr
	agr	%r2, %r3
	br	%r14
ENDF agr

FUNC mghi
	lghi	%r2, 0x1001
PROBE mghi
	mghi	%r2, 3
	br	%r14
ENDF mghi

/* the condition code out of a stepped instruction */
FUNC ltgr_cc
	lghi	%r3, -7
PROBE ltgr_cc
	ltgr	%r3, %r3
	CC_TO_R2
	aghi	%r2, 0x3002
	br	%r14
ENDF ltgr_cc

FUNC lg
	larl	%r1, v64
PROBE lg
	lg	%r2, 0(%r1)
	br	%r14
ENDF lg

FUNC stg_index
	larl	%r1, vst
	lghi	%r3, 0
	MOV64	%r4, 0x01020304, 0x05060708
PROBE stg_index
	stg	%r4, 0(%r3, %r1)
	lgrl	%r2, vst
	br	%r14
ENDF stg_index

FUNC mvc
	larl	%r1, vmv
	larl	%r3, vmvo
	xc	0(16, %r3), 0(%r3)
PROBE mvc
	mvc	0(16, %r3), 0(%r1)
	lg	%r2, 8(%r3)
	br	%r14
ENDF mvc

/*
 * stmg/lmg on the stack, as a function's entry and exit do them, into and
 * from a frame of the function's own (the caller's r6..r15 kept in its
 * save area, at r1).
 */
FUNC push_reg
	stmg	%r6, %r15, 48(%r15)
	lgr	%r1, %r15
	aghi	%r15, -160
	lghi	%r6, 0x7002
PROBE push_reg
	stmg	%r6, %r15, 48(%r15)
	lg	%r2, 48(%r15)
	lmg	%r6, %r15, 48(%r1)
	br	%r14
ENDF push_reg

FUNC lmg
	stmg	%r6, %r15, 48(%r15)
	lgr	%r1, %r15
	aghi	%r15, -160
	lghi	%r0, 0x4003
	stg	%r0, 48(%r15)
	lghi	%r0, 0x4002
	stg	%r0, 56(%r15)
PROBE lmg
	lmg	%r6, %r7, 48(%r15)
	lgr	%r2, %r7
	agr	%r2, %r6
	lmg	%r6, %r15, 48(%r1)
	br	%r14
ENDF lmg

/* la, relative to the instruction's base register only */
FUNC la
	larl	%r1, v64
PROBE la
	la	%r2, 0x10(%r1)
	sgr	%r2, %r1
	aghi	%r2, 0x5000
	br	%r14
ENDF la

/*
 * mc (monitor call) of class 0, which the kernel enables (its BUG and
 * WARN): a monitor event, an interruption after the instruction completed,
 * which the kernel ignores in user mode. The step of its copy ends there.
 */
FUNC mc
	lghi	%r2, 0x6001
	lghi	%r3, 0x10
PROBE mc
	mc	0, 0
	agr	%r2, %r3
	br	%r14
ENDF mc

/* ---- refused, never run ---- */
	.globl refused_insns
	.type refused_insns, @function
refused_insns:
REFUSE ex
	ex	%r0, 0
REFUSE exrl
	exrl	%r0, refused_insns
REFUSE bkpt
	.short	0x0001			/* gdb's breakpoint: no known opcode */
REFUSE uprobe_bkpt
	.short	0x0002			/* the engine's own */
REFUSE bsm
	bsm	%r0, %r1
REFUSE bassm
	bassm	%r14, %r1
REFUSE diag
	.long	0x83000000		/* diag, privileged */
REFUSE stnsm
	.long	0xac000000		/* stnsm, privileged */
REFUSE stosm
	.long	0xad000000		/* stosm, privileged */
REFUSE pr
	.short	0x0101			/* program return */
REFUSE bakr
	.long	0xb2400000		/* branch and stack */
REFUSE pc
	.long	0xb2180000		/* program call */
REFUSE pt
	.long	0xb2280000		/* program transfer */
REFUSE epsw
	.long	0xb98d0010		/* extract PSW */
REFUSE tbegin
	.long	0xe5600000, 0x00000000	/* tbegin (6 bytes) */
	.short	0
REFUSE tend
	.long	0xb2f80000		/* transaction end */
REFUSE svc
	svc	0			/* a system call: exec, fork, sigreturn */
	br	%r14
	.size refused_insns, . - refused_insns

	.section .note.GNU-stack, "", @progbits
