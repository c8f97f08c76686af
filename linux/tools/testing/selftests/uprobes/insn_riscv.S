/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 instruction table for the uprobes engine tests (bin/insnrv64),
 * the riscv counterpart of insn64.S and insn_a64.S with the same
 * conventions.
 *
 * insn_t_NAME: a function returning in a0 a value that is only right when
 * the instruction at the label insn_p_NAME ran exactly as it would
 * unprobed (branch targets and conditions, the link register, pc-relative
 * addresses, the stack, FP state, memory).  Every insn_p_ label runs once
 * per call of its function; one ending _xN runs N times.  insn_r_NAME
 * labels (in refused_insns, never called) mark instructions the engine
 * must refuse to probe: what riscv's analysis rejects (system
 * instructions, fences, c.ebreak) and what the engine refuses on top
 * (load-reserved, store-conditional).
 *
 * riscv's stock uprobes code, which the engine serves through
 * legacy_arch.c, simulates the instructions that read or write pc (jal,
 * jalr, the conditional branches, auipc, and the compressed c.j, c.jr,
 * c.jalr, c.beqz, c.bnez) and single-steps a copy of the others out of
 * line, followed by an ebreak.  Both sizes are here: 4-byte instructions
 * (between .option norvc and .option pop) and 2-byte compressed ones,
 * written as such; the breakpoint is the 2-byte c.ebreak over either.  A
 * result depends on the probed instruction alone (values computed
 * relative to a label, never absolute addresses).
 */
#include "insn_asm.h"

	.macro N4
	.option push
	.option norvc
	.endm

	.macro N4END
	.option pop
	.endm

	.data
	.p2align 4
v64:	.quad	0x1122334455667788
v64b:	.quad	0
v32:	.long	0x80000001
v32b:	.long	0
v16:	.hword	0x8002
v16b:	.hword	0
vb:	.byte	0x85
vbb:	.byte	0
	.p2align 3
vatom:	.quad	5, 0
vd:	.double	2.25
vdb:	.double	0

	.text
/* Returns its own return address. */
retaddr_helper:
	mv	a0, ra
	ret

/* ---- jal, jalr ---- */
FUNC jal_fwd
	N4
PROBE jal_fwd
	jal	x0, 1f
	N4END
	li	a0, 0xbad
	ret
1:	li	a0, 0x1001
	ret
ENDF jal_fwd

FUNC jal_back
	j	2f
1:	li	a0, 0x1002
	ret
2:
	N4
PROBE jal_back
	jal	x0, 1b
	N4END
	li	a0, 0xbad
	ret
ENDF jal_back

/* jal ra: the link is the address after the 4-byte jal. */
FUNC jal_call
	mv	t6, ra
	N4
PROBE jal_call
	jal	ra, retaddr_helper
	N4END
1:	lla	t0, 1b
	sub	a0, a0, t0
	addi	a0, a0, 0x103
	mv	ra, t6
	ret
ENDF jal_call

/* jalr ra, 0(t0): a call through a register. */
FUNC call_reg
	mv	t6, ra
	lla	t0, retaddr_helper
	N4
PROBE call_reg
	jalr	ra, 0(t0)
	N4END
1:	lla	t0, 1b
	sub	a0, a0, t0
	addi	a0, a0, 0x104
	mv	ra, t6
	ret
ENDF call_reg

/* jalr ra, 0(ra): the target is read before the link is written. */
FUNC jalr_ra_ra
	mv	t6, ra
	lla	ra, retaddr_helper
	N4
PROBE jalr_ra_ra
	jalr	ra, 0(ra)
	N4END
1:	lla	t0, 1b
	sub	a0, a0, t0
	addi	a0, a0, 0x105
	mv	ra, t6
	ret
ENDF jalr_ra_ra

/* jalr with an offset, no link. */
FUNC jalr_off
	lla	t0, 1f
	addi	t0, t0, -8
	N4
PROBE jalr_off
	jalr	x0, 8(t0)
	N4END
	li	a0, 0xbad
	ret
1:	li	a0, 0x1006
	ret
ENDF jalr_off

/* ret (jalr x0, 0(ra)), probed in a called helper. */
ret_helper:
	li	a0, 0x1007
	N4
PROBE ret
	ret
	N4END

FUNC ret
	mv	t6, ra
	call	ret_helper
	mv	ra, t6
	ret
ENDF ret

/* ---- conditional branches ---- */
	.macro BR name, op, a, b, val
FUNC \name
	li	t0, \a
	li	t1, \b
	N4
PROBE \name
	\op	t0, t1, 1f
	N4END
	li	a0, \val + 0x100
	ret
1:	li	a0, \val
	ret
ENDF \name
	.endm

	BR	beq_taken, beq, 5, 5, 0x1010
	BR	beq_not, beq, 5, 6, 0x1011
	BR	bne_taken, bne, 5, 6, 0x1012
	BR	bne_not, bne, 5, 5, 0x1013
	BR	blt_taken, blt, -5, 6, 0x1014
	BR	blt_not, blt, 6, -5, 0x1015
	BR	bge_taken, bge, 6, -5, 0x1016
	BR	bge_eq, bge, 6, 6, 0x1017
	BR	bltu_taken, bltu, 5, -6, 0x1018
	BR	bltu_not, bltu, -5, 6, 0x1019
	BR	bgeu_taken, bgeu, -5, 6, 0x101a
	BR	bgeu_not, bgeu, 5, -6, 0x101b

/* A backward branch taken three times of four. */
FUNC bnez_loop_x4
	li	t0, 4
	li	a0, 0
1:	addi	a0, a0, 3
	addi	t0, t0, -1
	N4
PROBE bnez_loop_x4
	bne	t0, zero, 1b
	N4END
	ret
ENDF bnez_loop_x4

/* ---- compressed control transfers ---- */
FUNC c_j
PROBE c_j
	c.j	1f
	li	a0, 0xbad
	ret
1:	li	a0, 0x1020
	ret
ENDF c_j

FUNC c_jr
	lla	t0, 1f
PROBE c_jr
	c.jr	t0
	li	a0, 0xbad
	ret
1:	li	a0, 0x1021
	ret
ENDF c_jr

/* c.jalr: the link is the address after the 2-byte instruction. */
FUNC c_jalr
	mv	t6, ra
	lla	t0, retaddr_helper
PROBE c_jalr
	c.jalr	t0
1:	lla	t0, 1b
	sub	a0, a0, t0
	addi	a0, a0, 0x122
	mv	ra, t6
	ret
ENDF c_jalr

FUNC c_beqz_taken
	li	a1, 0
PROBE c_beqz_taken
	c.beqz	a1, 1f
	li	a0, 0xbad
	ret
1:	li	a0, 0x1023
	ret
ENDF c_beqz_taken

FUNC c_beqz_not
	li	a1, 7
PROBE c_beqz_not
	c.beqz	a1, 1f
	li	a0, 0x1024
	ret
1:	li	a0, 0xbad
	ret
ENDF c_beqz_not

FUNC c_bnez_taken
	li	a1, -1
PROBE c_bnez_taken
	c.bnez	a1, 1f
	li	a0, 0xbad
	ret
1:	li	a0, 0x1025
	ret
ENDF c_bnez_taken

FUNC c_bnez_not
	li	a1, 0
PROBE c_bnez_not
	c.bnez	a1, 1f
	li	a0, 0x1026
	ret
1:	li	a0, 0xbad
	ret
ENDF c_bnez_not

/* ---- auipc ---- */
FUNC auipc
	N4
PROBE auipc
1:	auipc	a0, 0
	N4END
	lla	t0, 1b
	sub	a0, a0, t0
	addi	a0, a0, 0x30
	ret
ENDF auipc

FUNC auipc_imm
	N4
PROBE auipc_imm
1:	auipc	a1, 0x12345
	N4END
	lla	t0, 1b
	sub	a0, a1, t0
	ret
ENDF auipc_imm

/* ---- integer arithmetic, stepped ---- */
	.macro ALU3 name, op, a, b
FUNC \name
	li	t0, \a
	li	t1, \b
	N4
PROBE \name
	\op	a0, t0, t1
	N4END
	ret
ENDF \name
	.endm

	ALU3	add, add, 0x1234, 0x4321
	ALU3	sub, sub, 0x1234, 0x4321
	ALU3	mul, mul, 0x12345678, 0x9abc
	ALU3	mulh, mulh, -0x123456789, 0x7654321987
	ALU3	div, div, -1000, 7
	ALU3	remu, remu, 1000, 7
	ALU3	sra, sra, -0x1000, 3
	ALU3	sltu, sltu, 3, -1
	ALU3	addw, addw, 0x7fffffff, 1
	ALU3	sllw, sllw, 0x12345678, 8

FUNC addi
	li	t0, 0x5000
	N4
PROBE addi
	addi	a0, t0, -0x123
	N4END
	ret
ENDF addi

FUNC lui
	N4
PROBE lui
	lui	a0, 0xfedcb
	N4END
	ret
ENDF lui

FUNC nop
	li	a0, 0x1040
	N4
PROBE nop
	nop
	N4END
	ret
ENDF nop

FUNC c_nop
	li	a0, 0x1041
PROBE c_nop
	c.nop
	ret
ENDF c_nop

/* ---- compressed arithmetic, stepped ---- */
FUNC c_li
PROBE c_li
	c.li	a0, -7
	ret
ENDF c_li

FUNC c_lui
PROBE c_lui
	c.lui	a0, 0x1f
	ret
ENDF c_lui

FUNC c_addi
	li	a0, 0x1050
PROBE c_addi
	c.addi	a0, -3
	ret
ENDF c_addi

FUNC c_mv
	li	t0, 0x1051
PROBE c_mv
	c.mv	a0, t0
	ret
ENDF c_mv

FUNC c_add
	li	a0, 0x1000
	li	t0, 0x52
PROBE c_add
	c.add	a0, t0
	ret
ENDF c_add

FUNC c_slli
	li	a0, 0x1053
PROBE c_slli
	c.slli	a0, 4
	ret
ENDF c_slli

/* c.addi16sp and c.addi4spn: sp moved, sp read by a stepped copy. */
FUNC c_addi16sp
	mv	t0, sp
PROBE c_addi16sp
	c.addi16sp sp, -64
	sub	a0, t0, sp
	addi	sp, sp, 64
	ret
ENDF c_addi16sp

FUNC c_addi4spn
PROBE c_addi4spn
	c.addi4spn a0, sp, 24
	sub	a0, a0, sp
	ret
ENDF c_addi4spn

/* ---- loads and stores ---- */
	.macro LOAD name, op, sym
FUNC \name
	lla	t0, \sym
	N4
PROBE \name
	\op	a0, 0(t0)
	N4END
	ret
ENDF \name
	.endm

	LOAD	ld, ld, v64
	LOAD	lw, lw, v32
	LOAD	lwu, lwu, v32
	LOAD	lh, lh, v16
	LOAD	lhu, lhu, v16
	LOAD	lb, lb, vb
	LOAD	lbu, lbu, vb

/* A load with a negative offset. */
FUNC ld_neg
	lla	t0, v64b
	N4
PROBE ld_neg
	ld	a0, -8(t0)
	N4END
	ret
ENDF ld_neg

/* A store of VAL, read back with LOP and cleared. */
	.macro STORE name, op, lop, sym, val
FUNC \name
	lla	t0, \sym
	li	t1, \val
	N4
PROBE \name
	\op	t1, 0(t0)
	N4END
	\lop	a0, 0(t0)
	\op	zero, 0(t0)
	ret
ENDF \name
	.endm

	STORE	sd, sd, ld, v64b, 0x0123456789abcdef
	STORE	sw, sw, lwu, v32b, 0x76543210
	STORE	sh, sh, lhu, v16b, 0x7654
	STORE	sb, sb, lbu, vbb, 0x76

FUNC c_ld
	lla	a1, v64
PROBE c_ld
	c.ld	a0, 0(a1)
	ret
ENDF c_ld

FUNC c_lw
	lla	a1, v32
PROBE c_lw
	c.lw	a0, 0(a1)
	ret
ENDF c_lw

FUNC c_sd
	lla	a1, v64b
	li	a2, 0x1060
PROBE c_sd
	c.sd	a2, 0(a1)
	ld	a0, 0(a1)
	sd	zero, 0(a1)
	ret
ENDF c_sd

/* The stack: a store below the old sp (faults.c's push_reg), sp loads. */
FUNC push_reg
	li	a1, 0x7002
	addi	sp, sp, -16
	N4
PROBE push_reg
	sd	a1, 8(sp)
	N4END
	ld	a0, 8(sp)
	addi	sp, sp, 16
	ret
ENDF push_reg

FUNC c_sdsp
	li	a1, 0x1061
	addi	sp, sp, -16
PROBE c_sdsp
	c.sdsp	a1, 0(sp)
	ld	a0, 0(sp)
	addi	sp, sp, 16
	ret
ENDF c_sdsp

FUNC c_ldsp
	li	a1, 0x1062
	addi	sp, sp, -16
	sd	a1, 8(sp)
PROBE c_ldsp
	c.ldsp	a0, 8(sp)
	addi	sp, sp, 16
	ret
ENDF c_ldsp

/* ---- atomics (A) ---- */
FUNC amoadd_d
	lla	t0, vatom
	li	t1, 3
	N4
PROBE amoadd_d
	amoadd.d a1, t1, (t0)
	N4END
	ld	a0, 0(t0)
	slli	a0, a0, 8
	add	a0, a0, a1
	li	t1, 5
	sd	t1, 0(t0)
	ret
ENDF amoadd_d

FUNC amoswap_w
	lla	t0, vatom
	li	t1, 9
	N4
PROBE amoswap_w
	amoswap.w a1, t1, (t0)
	N4END
	lw	a0, 0(t0)
	slli	a0, a0, 8
	add	a0, a0, a1
	li	t1, 5
	sd	t1, 0(t0)
	ret
ENDF amoswap_w

/* ---- floating point (F, D) ---- */
FUNC fld
	lla	t0, vd
	N4
PROBE fld
	fld	fa0, 0(t0)
	N4END
	fmv.x.d	a0, fa0
	ret
ENDF fld

FUNC fsd
	lla	t0, vd
	fld	fa1, 0(t0)
	N4
PROBE fsd
	fsd	fa1, 8(t0)
	N4END
	ld	a0, 8(t0)
	sd	zero, 8(t0)
	ret
ENDF fsd

FUNC fadd_d
	lla	t0, vd
	fld	fa1, 0(t0)
	fld	fa2, 0(t0)
	N4
PROBE fadd_d
	fadd.d	fa0, fa1, fa2
	N4END
	fmv.x.d	a0, fa0
	ret
ENDF fadd_d

FUNC fcvt_l_d
	lla	t0, vd
	fld	fa1, 0(t0)
	N4
PROBE fcvt_l_d
	fcvt.l.d a0, fa1, rtz
	N4END
	ret
ENDF fcvt_l_d

FUNC c_fld
	lla	a1, vd
PROBE c_fld
	c.fld	fa0, 0(a1)
	fmv.x.d	a0, fa0
	ret
ENDF c_fld

/* Instructions the engine must refuse to probe; never executed. */
	.text
	.p2align 4
	.globl refused_insns
	.type refused_insns, %function
refused_insns:
	N4
REFUSE ebreak
	ebreak
REFUSE ecall
	ecall
REFUSE fence
	fence	rw, rw
REFUSE fence_i
	fence.i
REFUSE csrr_cycle
	rdcycle	a0
REFUSE csrr_fflags
	frflags	a0
/*
 * Load-reserved and store-conditional: the trap that ends a stepped
 * copy clears the reservation (the kernel's return to user mode does),
 * so a probed lr or sc of a retry loop would make its sc fail for ever.
 */
REFUSE lr_w
	lr.w	a0, (a1)
REFUSE lr_d
	lr.d.aqrl a0, (a1)
REFUSE sc_d
	sc.d	a0, a2, (a1)
	N4END
REFUSE c_ebreak
	c.ebreak
	.p2align 2
	ret
	.size refused_insns, . - refused_insns

	.section .note.GNU-stack, "", %progbits
