/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AArch64 instruction table for the uprobes engine tests (bin/insna64), the
 * arm64 counterpart of insn64.S with the same conventions.
 *
 * insn_t_NAME: a function returning in x0 a value that is only right when
 * the instruction at the label insn_p_NAME ran exactly as it would unprobed
 * (branch targets and conditions, the link register, pc-relative addresses
 * and literals, the stack, the flags, FP/SIMD state, memory).  Every insn_p_
 * label runs once per call of its function; one ending _xN runs N times.
 * insn_r_NAME labels (in refused_insns, never called) mark instructions the
 * engine must refuse to probe.
 *
 * The engine's arm64 part (arch/arm64/kernel/uprobes/analyze.c) simulates
 * the instructions that read pc (b, bl, b.cond, cbz/cbnz, tbz/tbnz, br, blr,
 * ret, adr, adrp, ldr/ldrsw literal), nop, bti and prfm, and what functions
 * start with (stp, ldr/str immediate, add/sub immediate and shifted
 * register, logic of shifted registers, movz/movn/movk) on the registers,
 * and single-steps a copy of everything else it accepts in the XOL area
 * (the *_step sites: rev, madd, register offsets): both kinds are here,
 * and a result depends on the probed instruction alone (values computed
 * relative to a label or to an unprobed twin of the instruction, never
 * absolute addresses).  The registers, the
 * flags, the FP/SIMD registers and FPSR, and the stack below sp must come
 * out of a hit as the program left them.
 *
 * Only architecture features of QEMU's "max" CPU that every arm64 kernel
 * gives user space are used (LSE atomics, CRC32, RCpc, FlagM, SB); no SVE,
 * SME or MTE (the test kernel has none of them).  The pointer
 * authentication hints execute as nops where pointer authentication is not
 * enabled.
 */
#include "insn_asm.h"

	.arch	armv8.5-a

/* reg = a 64-bit constant */
	.macro MOV64 reg, val
	movz	\reg, #((\val) & 0xffff)
	movk	\reg, #(((\val) >> 16) & 0xffff), lsl #16
	movk	\reg, #(((\val) >> 32) & 0xffff), lsl #32
	movk	\reg, #(((\val) >> 48) & 0xffff), lsl #48
	.endm

/* reg = the address of sym (not probed) */
	.macro ADDR reg, sym
	adrp	\reg, \sym
	add	\reg, \reg, :lo12:\sym
	.endm

	.data
	.p2align 11
zbuf:	.fill	2048, 1, 0		/* dc zva (a block is at most 2 KiB) */
	.p2align 4
vq:	.quad	0x0706050403020100, 0x0f0e0d0c0b0a0908
	.quad	0x1716151413121110, 0x1f1e1d1c1b1a1918
	.quad	0x2726252423222120, 0x2f2e2d2c2b2a2928
	.quad	0x3736353433323130, 0x3f3e3d3c3b3a3938
vqo:	.fill	64, 1, 0
vatom:	.quad	0, 0			/* atomics, 16-byte aligned */
v64:	.quad	0x1122334455667788
v64b:	.quad	0
v32:	.long	0x80000001
v32b:	.long	0x7ffffffe
v16:	.hword	0x8002
vb:	.byte	0x85
	.p2align 3
fresh_n:	.quad	0		/* calls of fresh_page */
fresh_sp_n:	.quad	0		/* calls of fresh_stack */

/* Pages no instruction touched before a probed one faults them in. */
	.bss
	.p2align 12
fresh:	.skip	16 * 4096

	.text
/* Returns its own return address. */
retaddr_helper:
	mov	x0, x30
	ret

/* Probe names: a trailing _xN is a hit count per call (insn.c). */

/* ---- b, bl ---- */
FUNC b_fwd
PROBE b_fwd
	b	1f
	mov	x0, #0xbad
	ret
1:	mov	x0, #0x1001
	ret
ENDF b_fwd

FUNC b_back
	b	2f
1:	mov	x0, #0x1002
	ret
2:
PROBE b_back
	b	1b
	mov	x0, #0xbad
	ret
ENDF b_back

/* Over 256 KiB, forwards and back. */
FUNC b_far
PROBE b_far_fwd
	b	1f
	mov	x0, #0xbad
	ret
2:	add	x0, x0, #0x1000
	ret
	.skip	0x20000, 0
/* A literal in a page nothing else reads (ldr_lit_far) */
far_lit:
	.quad	0x0fedcba987654321
	.skip	0x20000 - 8, 0
1:	mov	x0, #0x3
PROBE b_far_back
	b	2b
	mov	x0, #0xbad
	ret
ENDF b_far

FUNC bl
	mov	x9, x30
PROBE bl
	bl	retaddr_helper
1:	adr	x1, 1b
	sub	x0, x0, x1
	add	x0, x0, #0x1, lsl #12
	add	x0, x0, #0x4
	mov	x30, x9
	ret
ENDF bl

FUNC bl_next
	mov	x9, x30
PROBE bl_next
	bl	1f
1:	adr	x1, 1b
	sub	x0, x30, x1
	add	x0, x0, #0x1, lsl #12
	add	x0, x0, #0x5
	mov	x30, x9
	ret
ENDF bl_next

/* ---- b.cond: cmp A, B then b.COND; NAME_t taken, NAME_n not ---- */
	.macro BCOND name, a, b, cond
FUNC bcond_\name
	MOV64	x1, \a
	MOV64	x2, \b
	cmp	x1, x2
PROBE bcond_\name
	b.\cond	1f
	mov	x0, #0x2000
	ret
1:	mov	x0, #0x2001
	ret
ENDF bcond_\name
	.endm

	BCOND	eq_t, 5, 5, eq
	BCOND	eq_n, 5, 3, eq
	BCOND	ne_t, 5, 3, ne
	BCOND	ne_n, 5, 5, ne
	BCOND	cs_t, 5, 3, cs
	BCOND	cs_n, 3, 5, cs
	BCOND	cc_t, 3, 5, cc
	BCOND	mi_t, 3, 5, mi
	BCOND	pl_t, 5, 3, pl
	BCOND	pl_n, 3, 5, pl
	BCOND	vs_t, 0x8000000000000000, 1, vs
	BCOND	vs_n, 5, 3, vs
	BCOND	vc_n, 0x8000000000000000, 1, vc
	BCOND	hi_t, 5, 3, hi
	BCOND	hi_n, 5, 5, hi
	BCOND	ls_t, 5, 5, ls
	BCOND	ge_t, 0xffffffffffffffff, 0xfffffffffffffffb, ge
	BCOND	ge_n, 0xfffffffffffffffb, 0xffffffffffffffff, ge
	BCOND	lt_t, 0xfffffffffffffffb, 0xffffffffffffffff, lt
	BCOND	lt_v_t, 0x8000000000000000, 1, lt
	BCOND	gt_t, 5, 3, gt
	BCOND	gt_n, 5, 5, gt
	BCOND	le_t, 5, 5, le
	BCOND	le_n, 0xffffffffffffffff, 0xfffffffffffffffb, le
	BCOND	al, 0, 0, al
	BCOND	nv, 0, 0, nv

FUNC bcond_loop
	mov	x1, #3
	mov	x0, #0
1:	add	x0, x0, #0x10
	subs	x1, x1, #1
PROBE bcond_loop_x3
	b.ne	1b
	add	x0, x0, #0x2, lsl #12
	add	x0, x0, #0x100
	ret
ENDF bcond_loop

/* ---- cbz, cbnz, tbz, tbnz: NAME_t taken, NAME_n not ---- */
	.macro CB name, insn, reg, val
FUNC \name
	MOV64	x1, \val
PROBE \name
	\insn	\reg, 1f
	mov	x0, #0x2200
	ret
1:	mov	x0, #0x2201
	ret
ENDF \name
	.endm

	CB	cbz_x_t, cbz, x1, 0
	CB	cbz_x_n, cbz, x1, 0x10000000000
	CB	cbz_w_t, cbz, w1, 0x100000000
	CB	cbz_w_n, cbz, w1, 0x80000000
	CB	cbnz_x_t, cbnz, x1, 0x100000000
	CB	cbnz_x_n, cbnz, x1, 0
	CB	cbnz_w_t, cbnz, w1, 1
	CB	cbnz_w_n, cbnz, w1, 0x100000000
	CB	cbz_zr_t, cbz, xzr, 0x1

	.macro TB name, insn, reg, bit, val
FUNC \name
	MOV64	x1, \val
PROBE \name
	\insn	\reg, #\bit, 1f
	mov	x0, #0x2300
	ret
1:	mov	x0, #0x2301
	ret
ENDF \name
	.endm

	TB	tbz_t, tbz, x1, 3, 0xfffffffffffffff7
	TB	tbz_n, tbz, x1, 3, 0x8
	TB	tbnz_t, tbnz, x1, 3, 0x8
	TB	tbnz_n, tbnz, x1, 3, 0xfffffffffffffff7
	TB	tbz_b40_n, tbz, x1, 40, 0x10000000000
	TB	tbnz_b40_t, tbnz, x1, 40, 0x10000000000
	TB	tbnz_b40_n, tbnz, x1, 40, 0xfffffeffffffffff
	TB	tbnz_b63_t, tbnz, x1, 63, 0x8000000000000000
	TB	tbz_b63_t, tbz, x1, 63, 0x7fffffffffffffff
	TB	tbnz_w31_t, tbnz, w1, 31, 0x80000000
	TB	tbz_zr_t, tbz, xzr, 40, 0

FUNC cbnz_loop
	mov	x1, #3
	mov	x0, #0
1:	add	x0, x0, #0x10
	sub	x1, x1, #1
PROBE cbnz_loop_x3
	cbnz	x1, 1b
	add	x0, x0, #0x2, lsl #12
	add	x0, x0, #0x400
	ret
ENDF cbnz_loop

/* x30, a return address: never zero, bit 1 clear */
FUNC cbnz_lr
	mov	x0, #0x2500
PROBE cbnz_lr
	cbnz	x30, 1f
	ret
1:
PROBE tbnz_lr
	tbnz	x30, #1, 2f
	add	x0, x0, #1
2:	ret
ENDF cbnz_lr

/* ---- br, blr, ret ---- */
FUNC br_reg
	adr	x1, 1f
PROBE br_reg
	br	x1
	mov	x0, #0xbad
	ret
1:	mov	x0, #0x4001
	ret
ENDF br_reg

FUNC br_ip0
	adr	x16, 1f
PROBE br_ip0
	br	x16
	mov	x0, #0xbad
	ret
1:	mov	x0, #0x4002
	ret
ENDF br_ip0

FUNC br_lr
	mov	x9, x30
	adr	x30, 1f
PROBE br_lr
	br	x30
	mov	x30, x9
	mov	x0, #0xbad
	ret
1:	mov	x30, x9
	mov	x0, #0x4003
	ret
ENDF br_lr

/* blr: the return address relative to the instruction after it */
FUNC call_reg
	mov	x9, x30
	adr	x1, retaddr_helper
PROBE call_reg
	blr	x1
1:	adr	x1, 1b
	sub	x0, x0, x1
	add	x0, x0, #0x4, lsl #12
	add	x0, x0, #0x4
	mov	x30, x9
	ret
ENDF call_reg

/* blr x30: the target is read before the link is written */
FUNC blr_lr
	mov	x9, x30
	adr	x30, retaddr_helper
PROBE blr_lr
	blr	x30
1:	adr	x1, 1b
	sub	x0, x0, x1
	add	x0, x0, #0x4, lsl #12
	add	x0, x0, #0x5
	mov	x30, x9
	ret
ENDF blr_lr

FUNC ret
	mov	x9, x30
	bl	2f
	add	x0, x0, #3
	mov	x30, x9
	ret
2:	mov	x0, #0x4000
PROBE ret
	ret
	mov	x0, #0xbad
	ret
ENDF ret

FUNC ret_reg
	adr	x1, 1f
PROBE ret_reg
	ret	x1
	mov	x0, #0xbad
	ret
1:	mov	x0, #0x4006
	ret
ENDF ret_reg

/* ---- adr, adrp: compared with an unprobed twin ---- */
FUNC adr_fwd
PROBE adr_fwd
	adr	x0, lit_x
	adr	x1, lit_x
	sub	x0, x0, x1
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x1
	ret
ENDF adr_fwd

FUNC adr_back
PROBE adr_back
	adr	x0, retaddr_helper
	adr	x1, retaddr_helper
	sub	x0, x0, x1
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x2
	ret
ENDF adr_back

/* adr and adrp into the zero register write nothing (not sp, #31) */
FUNC adr_zr
	mov	x2, sp
	mov	x0, #0x5003
PROBE adr_zr
	.inst	0x1000001f		/* adr xzr, . */
PROBE adrp_zr
	.inst	0x9000001f		/* adrp xzr, . */
	mov	x1, sp
	sub	x1, x1, x2
	add	x0, x0, x1
	ret
ENDF adr_zr

FUNC adrp_data
PROBE adrp_data
	adrp	x0, v64
	ldr	x1, =v64
	and	x1, x1, #~0xfff
	sub	x0, x0, x1
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x4
	ret
	.ltorg
ENDF adrp_data

FUNC adrp_text
PROBE adrp_text
	adrp	x0, retaddr_helper
	ldr	x1, =retaddr_helper
	and	x1, x1, #~0xfff
	sub	x0, x0, x1
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x5
	ret
	.ltorg
ENDF adrp_text

/* The last instruction of a page, for the page after it. */
FUNC adrp_pageend
	b	1f
	.p2align 12
	.skip	4092, 0
1:
PROBE adrp_pageend
	adrp	x0, 2f
2:	adr	x1, 2b
	sub	x0, x0, x1
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x6
	ret
ENDF adrp_pageend

/* ---- ldr, ldrsw, prfm (literal) ---- */
FUNC ldr_x_lit
	mov	x0, #0
PROBE ldr_x_lit
	ldr	x0, lit_x
	ret
	.p2align 3
lit_x:	.quad	0x1122334455667788
ENDF ldr_x_lit

FUNC ldr_w_lit
	mov	x0, #-1
PROBE ldr_w_lit
	ldr	w0, lit_w
	ret
lit_w:	.long	0x80000001
ENDF ldr_w_lit

FUNC ldrsw_lit
	mov	x0, #0
PROBE ldrsw_lit
	ldrsw	x0, lit_w
	ret
ENDF ldrsw_lit

FUNC ldrsw_lit_pos
	mov	x0, #-1
PROBE ldrsw_lit_pos
	ldrsw	x0, 1f
	ret
1:	.long	0x7ffffff0
ENDF ldrsw_lit_pos

FUNC ldr_x_lit_back
	b	1f
	.p2align 3
2:	.quad	0x8877665544332211
1:
PROBE ldr_x_lit_back
	ldr	x0, 2b
	ret
ENDF ldr_x_lit_back

/* A 64-bit literal at 4 mod 8 */
FUNC ldr_x_lit_unaligned
PROBE ldr_x_lit_unaligned
	ldr	x0, 1f
	ret
	.p2align 3
	.long	0
1:	.long	0x89abcdef, 0x01234567
ENDF ldr_x_lit_unaligned

/* Its literal's page is not mapped yet: the engine's read faults it in. */
FUNC ldr_lit_far
PROBE ldr_lit_far
	ldr	x0, far_lit
	ret
ENDF ldr_lit_far

FUNC ldr_lr_lit
	mov	x9, x30
PROBE ldr_lr_lit
	ldr	x30, lit_x
	add	x0, x30, #1
	mov	x30, x9
	ret
ENDF ldr_lr_lit

FUNC ldr_x17_lit
PROBE ldr_x17_lit
	ldr	x17, lit_x
	add	x0, x17, #2
	ret
ENDF ldr_x17_lit

FUNC prfm_lit
	mov	x0, #0x5101
PROBE prfm_lit
	prfm	pldl1keep, lit_x
	ret
ENDF prfm_lit

/* ---- hints: nop, bti simulated, the others stepped ---- */
FUNC nop
	mov	x0, #0x5201
PROBE nop
	nop
	ret
ENDF nop

FUNC bti
	mov	x0, #0x5202
PROBE bti_c
	bti	c
PROBE bti_j
	bti	j
PROBE bti_jc
	bti	jc
	ret
ENDF bti

FUNC hints
	mov	x0, #0x5203
PROBE yield
	yield
PROBE csdb
	csdb
PROBE hint_unallocated
	hint	#0x7f
	ret
ENDF hints

/* paciasp then autiasp: x30 back as it was (nops without PAuth) */
FUNC pac_lr
	mov	x9, x30
PROBE paciasp
	paciasp
PROBE autiasp
	autiasp
PROBE xpaclri
	xpaclri
	sub	x0, x30, x9
	add	x0, x0, #0x5, lsl #12
	add	x0, x0, #0x204
	ret
ENDF pac_lr

/* ---- data processing: add/sub, logic, moves simulated; others stepped ---- */
FUNC add_imm
	mov	x1, #0x1000
PROBE add_imm
	add	x0, x1, #0x123
	ret
ENDF add_imm

FUNC adds_flags
	MOV64	x1, 0x7fffffffffffffff
PROBE adds_flags
	adds	x2, x1, #1
	mrs	x0, nzcv
	eor	x0, x0, x2
	ret
ENDF adds_flags

FUNC subs_w_flags
	mov	w1, #0
PROBE subs_w_flags
	subs	w2, w1, #1
	mrs	x0, nzcv
	add	x0, x0, x2
	ret
ENDF subs_w_flags

FUNC cmp_reg
	mov	x1, #5
	mov	x2, #7
PROBE cmp_reg
	cmp	x1, x2
	mrs	x0, nzcv
	ret
ENDF cmp_reg

/* Flags set before the probed instruction, read by it. */
FUNC csel
	mov	x1, #1
	mov	x2, #2
	cmp	x1, x2
PROBE csel
	csel	x0, x1, x2, lt
	add	x0, x0, #0x6, lsl #12
	ret
ENDF csel

FUNC cset
	mov	x1, #1
	cmp	x1, #1
PROBE cset
	cset	x0, eq
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x10
	ret
ENDF cset

FUNC csneg
	mov	x1, #5
	mov	x2, #9
	cmp	x1, x2
PROBE csneg
	csneg	x0, x1, x2, ge
	ret
ENDF csneg

FUNC ccmp
	mov	x1, #5
	cmp	x1, #5
PROBE ccmp
	ccmp	x1, #7, #0, eq
	mrs	x0, nzcv
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x20
	ret
ENDF ccmp

FUNC madd
	MOV64	x1, 0x12345
	mov	x2, #0x6789
	mov	x3, #0x42
PROBE madd
	madd	x0, x1, x2, x3
	ret
ENDF madd

FUNC sdiv
	mov	x1, #-15
	mov	x2, #4
PROBE sdiv
	sdiv	x0, x1, x2
	ret
ENDF sdiv

FUNC udiv
	mov	x1, #-15
	mov	x2, #4
PROBE udiv
	udiv	x0, x1, x2
	ret
ENDF udiv

FUNC asr_reg
	mov	x1, #-0x1000
	mov	x2, #67
PROBE asr_reg
	asr	x0, x1, x2
	ret
ENDF asr_reg

FUNC rev
	MOV64	x1, 0x0102030405060708
PROBE rev
	rev	x0, x1
	ret
ENDF rev

FUNC rbit_clz
	mov	x1, #0x100
PROBE rbit
	rbit	x2, x1
PROBE clz
	clz	x0, x2
	add	x0, x0, x2
	ret
ENDF rbit_clz

FUNC bfi
	MOV64	x0, 0xffffffffffffffff
	mov	x1, #0x1234
PROBE bfi
	bfi	x0, x1, #8, #16
	ret
ENDF bfi

FUNC ubfx
	MOV64	x1, 0x123456789abcdef0
PROBE ubfx
	ubfx	x0, x1, #12, #20
	ret
ENDF ubfx

FUNC extr
	MOV64	x1, 0x1111222233334444
	MOV64	x2, 0x5555666677778888
PROBE extr
	extr	x0, x1, x2, #12
	ret
ENDF extr

FUNC movk
	mov	x0, #0x6030
PROBE movk
	movk	x0, #0xbeef, lsl #32
	ret
ENDF movk

FUNC movn
PROBE movn
	mov	x0, #-0x6041
	ret
ENDF movn

FUNC crc32cx
	mov	w0, #-1
	MOV64	x1, 0x0123456789abcdef
PROBE crc32cx
	crc32cx	w0, w0, x1
	ret
ENDF crc32cx

/*
 * ---- simulated data processing: x0 = the result ^ NZCV after it ----
 * x1 = A, x2 = B before; the corners of the flag setters (equal, borrow,
 * carry, signed overflow both ways, 32-bit operands with upper halves
 * set), every shift of the register forms, 32-bit rotations, the zero
 * register as an operand, the moves of a w register.  NZCV is cleared
 * before, so that flags written by an instruction that must not write
 * them show.
 */
	.macro DP name, a, b, insn:vararg
FUNC dp_\name
	MOV64	x1, \a
	MOV64	x2, \b
	mov	x0, #0x5a5a
	msr	nzcv, xzr
PROBE dp_\name
	\insn
	mrs	x3, nzcv
	eor	x0, x0, x3
	ret
ENDF dp_\name
	.endm

	DP	subs_eq, 5, 5, subs x0, x1, x2
	DP	subs_borrow, 5, 6, subs x0, x1, x2
	DP	subs_ovf_neg, 0x8000000000000000, 1, subs x0, x1, x2
	DP	subs_ovf_pos, 1, 0x8000000000000000, subs x0, x1, x2
	DP	cmp_zr, 0, 0, cmp x1, x2
	DP	adds_carry, 0xffffffffffffffff, 1, adds x0, x1, x2
	DP	adds_ovf, 0x7fffffffffffffff, 1, adds x0, x1, x2
	DP	adds_both, 0x8000000000000000, 0x8000000000000000, adds x0, x1, x2
	DP	subs_w_upper, 0xffffffff00000005, 5, subs w0, w1, w2
	DP	subs_w_ovf, 0x80000000, 1, subs w0, w1, w2
	DP	subs_imm0, 0, 0, subs x0, x1, #0
	DP	cmn_w_imm, 0xfffff001, 0, cmn w1, #0xfff
	DP	adds_imm_lsl12, 0xfffffffffffff000, 0, adds x0, x1, #1, lsl #12
	DP	adds_lsr, 0x8000000000000001, 0xfffffffffffffff8, adds x0, x1, x2, lsr #3
	DP	subs_w_asr, 0x12345678, 0x80000000, subs w0, w1, w2, asr #7
	DP	negs_min, 0, 0x8000000000000000, negs x0, x2
	DP	add_w_asr31, 0x100000001, 0x80000000, add w0, w1, w2, asr #31
	DP	sub_lsl63, 0x10, 1, sub x0, x1, x2, lsl #63
	DP	neg_w, 0xffffffff, 0x100000002, neg w0, w2
	DP	ands_ror, 0xf00000000000000f, 0xff, ands x0, x1, x2, ror #4
	DP	tst_w, 0x100000000, 0x100000000, tst w1, w2
	DP	bics_w_lsl31, 0xffffffff, 1, bics w0, w1, w2, lsl #31
	DP	orr_w_ror13, 0x10, 0x12345678, orr w0, w1, w2, ror #13
	DP	eon_lsr60, 0x0123456789abcdef, 0xf000000000000000, eon x0, x1, x2, lsr #60
	DP	bic_asr9, 0xffffffffffffffff, 0x8000000000000000, bic x0, x1, x2, asr #9
	DP	orn_w_lsl5, 0x1, 0x7ffffff, orn w0, w1, w2, lsl #5
	DP	mov_w, 0xdeadbeefcafef00d, 0, mov w0, w1
	DP	mvn_x, 0x0123456789abcdef, 0, mvn x0, x1
	DP	movz_w_lsl16, 0, 0, movz w0, #0xabcd, lsl #16
	DP	movz_x_lsl48, 0, 0, movz x0, #0xfedc, lsl #48
	DP	movn_w_lsl16, 0, 0, movn w0, #0x1234, lsl #16
	DP	movk_w, 0, 0, movk w0, #0x1234

/* ---- sp as an operand ---- */
FUNC sub_sp
	mov	x2, sp
PROBE sub_sp
	sub	sp, sp, #0x40
	mov	x1, sp
	mov	sp, x2
	sub	x0, x2, x1
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x100
	ret
ENDF sub_sp

FUNC add_sp
	mov	x2, sp
	sub	sp, sp, #0x50
PROBE add_sp
	add	sp, sp, #0x50
	mov	x1, sp
	mov	sp, x2
	sub	x0, x1, x2
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x200
	ret
ENDF add_sp

FUNC mov_from_sp
	mov	x2, sp
PROBE mov_from_sp
	mov	x0, sp
	sub	x0, x0, x2
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x300
	ret
ENDF mov_from_sp

FUNC mov_to_sp
	mov	x2, sp
	sub	x1, x2, #0x80
PROBE mov_to_sp
	mov	sp, x1
	mov	x3, sp
	mov	sp, x2
	sub	x0, x2, x3
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x400
	ret
ENDF mov_to_sp

FUNC add_sp_ext
	mov	x2, sp
	MOV64	x1, 0xffffffff00000003
PROBE add_sp_ext
	add	x0, sp, w1, uxtw #4
	sub	x0, x0, x2
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x500
	ret
ENDF add_sp_ext

/* ---- instructions reading x30 ---- */
FUNC mov_from_lr
	mov	x9, x30
PROBE mov_from_lr
	mov	x0, x30
	sub	x0, x0, x9
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x600
	ret
ENDF mov_from_lr

FUNC add_lr
PROBE add_lr
	add	x0, x30, #4
	sub	x0, x0, x30
	add	x0, x0, #0x6, lsl #12
	add	x0, x0, #0x700
	ret
ENDF add_lr

/* ---- the flags around a hit: NZCV all set or all clear must stay ---- */
	.macro FLAGS name, nzcv
FUNC flags_\name
	mov	x1, #\nzcv
	msr	nzcv, x1
PROBE flags_\name\()_step
	rev	x3, x3
PROBE flags_\name\()_add
	add	x3, x3, #1
PROBE flags_\name\()_sim
	b	1f
	mov	x0, #0xbad
	ret
1:
PROBE flags_\name\()_nop
	nop
	mrs	x0, nzcv
	cset	x1, vs
	orr	x0, x0, x1
	ret
ENDF flags_\name
	.endm

	FLAGS	set, 0xf0000000
	FLAGS	clear, 0

/* mrs nzcv: the program's flags, nothing the step left (x86: pushf) */
FUNC mrs_nzcv
	mov	x1, #0xa0000000
	msr	nzcv, x1
PROBE mrs_nzcv
	mrs	x0, nzcv
	ret
ENDF mrs_nzcv

FUNC msr_nzcv
	mov	x1, #0x60000000
PROBE msr_nzcv
	msr	nzcv, x1
	mrs	x0, nzcv
	cset	x1, eq
	add	x0, x0, x1
	ret
ENDF msr_nzcv

FUNC cfinv
	mov	x1, #0x90000000
	msr	nzcv, x1
PROBE cfinv
	cfinv
	mrs	x0, nzcv
	ret
ENDF cfinv

/* ---- loads and stores: immediate offsets simulated, the rest stepped ---- */
FUNC ldr_imm
	ADDR	x1, vq
PROBE ldr_imm
	ldr	x0, [x1, #8]
	ret
ENDF ldr_imm

FUNC ldr_pre
	ADDR	x1, vq
	mov	x3, x1
PROBE ldr_pre
	ldr	x0, [x1, #16]!
	sub	x1, x1, x3
	add	x0, x0, x1
	ret
ENDF ldr_pre

FUNC ldr_post
	ADDR	x1, vq
	mov	x3, x1
PROBE ldr_post
	ldr	x0, [x1], #24
	sub	x1, x1, x3
	add	x0, x0, x1
	ret
ENDF ldr_post

FUNC ldr_reg
	ADDR	x1, vq
	mov	x2, #3
PROBE ldr_reg
	ldr	x0, [x1, x2, lsl #3]
	ret
ENDF ldr_reg

FUNC ldr_reg_sxtw
	ADDR	x1, vq
	add	x1, x1, #16
	mov	x2, #-1
PROBE ldr_reg_sxtw
	ldr	x0, [x1, w2, sxtw #3]
	ret
ENDF ldr_reg_sxtw

FUNC ldrsb
	ADDR	x1, vb
PROBE ldrsb
	ldrsb	x0, [x1]
	ret
ENDF ldrsb

FUNC ldrb
	ADDR	x1, vb
	mov	x0, #-1
PROBE ldrb
	ldrb	w0, [x1]
	ret
ENDF ldrb

FUNC ldrsh
	ADDR	x1, v16
PROBE ldrsh
	ldrsh	w0, [x1]
	ret
ENDF ldrsh

FUNC ldrsw
	ADDR	x1, v32
PROBE ldrsw
	ldrsw	x0, [x1]
	ret
ENDF ldrsw

FUNC ldur_unaligned
	ADDR	x1, vq
PROBE ldur_unaligned
	ldur	x0, [x1, #3]
	ret
ENDF ldur_unaligned

FUNC ldtr
	ADDR	x1, vq
PROBE ldtr
	ldtr	x0, [x1, #40]
	ret
ENDF ldtr

FUNC str_imm
	ADDR	x1, vqo
	str	xzr, [x1, #8]
	MOV64	x2, 0xdeadbeefcafef00d
PROBE str_imm
	str	x2, [x1, #8]
	ldr	x0, [x1, #8]
	ret
ENDF str_imm

FUNC strb_post
	ADDR	x1, vqo
	str	xzr, [x1, #16]
	add	x1, x1, #17
	mov	x3, x1
	mov	w2, #0x1ab
PROBE strb_post
	strb	w2, [x1], #-1
	ldr	x0, [x1]
	sub	x3, x3, x1
	add	x0, x0, x3, lsl #60
	ret
ENDF strb_post

FUNC sturh
	ADDR	x1, vqo
	str	xzr, [x1, #24]
	add	x1, x1, #32
	mov	w2, #0x4321
PROBE sturh
	sturh	w2, [x1, #-5]
	ldr	x0, [x1, #-8]
	ret
ENDF sturh

FUNC str_pre_sp
	mov	x2, sp
	mov	x1, #0x1357
PROBE str_pre_sp
	str	x1, [sp, #-16]!
	mov	x3, sp
	ldr	x0, [sp], #16
	sub	x3, x2, x3
	add	x0, x0, x3, lsl #32
	ret
ENDF str_pre_sp

FUNC ldr_post_sp
	mov	x2, sp
	mov	x1, #0x2468
	str	x1, [sp, #-16]!
PROBE ldr_post_sp
	ldr	x0, [sp], #16
	mov	x3, sp
	sub	x3, x3, x2
	add	x0, x0, x3
	ret
ENDF ldr_post_sp

FUNC ldr_sp_off
	mov	x1, #0x3579
	stp	xzr, x1, [sp, #-32]!
PROBE ldr_sp_off
	ldr	x0, [sp, #8]
	add	sp, sp, #32
	ret
ENDF ldr_sp_off

/* The prologue: x29 and x30 as they are. */
FUNC stp_fp_lr
	mov	x2, sp
PROBE stp_fp_lr
	stp	x29, x30, [sp, #-16]!
	ldp	x3, x4, [sp]
	mov	x5, sp
	add	sp, sp, #16
	sub	x3, x3, x29
	sub	x4, x4, x30
	sub	x5, x2, x5
	add	x0, x3, x4
	add	x0, x0, x5
	add	x0, x0, #0x7, lsl #12
	ret
ENDF stp_fp_lr

/* The epilogue. */
FUNC ldp_fp_lr
	mov	x10, x29
	mov	x11, x30
	mov	x2, sp
	stp	x29, x30, [sp, #-16]!
	mov	x29, #0x55
	mov	x30, #0x66
PROBE ldp_fp_lr
	ldp	x29, x30, [sp], #16
	mov	x3, sp
	sub	x1, x29, x10
	sub	x4, x30, x11
	sub	x3, x3, x2
	add	x0, x1, x4
	add	x0, x0, x3
	add	x0, x0, #0x7, lsl #12
	add	x0, x0, #0x1
	ret
ENDF ldp_fp_lr

/* stp-based "push" (faults.c's insn_t_push_reg on x86 pushes a register). */
FUNC push_reg
	mov	x1, #0x7002
PROBE push_reg
	stp	x1, xzr, [sp, #-16]!
	ldp	x0, x1, [sp], #16
	add	x0, x0, x1
	ret
ENDF push_reg

FUNC ldpsw
	ADDR	x1, v32
PROBE ldpsw
	ldpsw	x2, x3, [x1]
	eor	x0, x2, x3, lsl #1
	ret
ENDF ldpsw

FUNC ldp_w_post
	ADDR	x1, vq
	mov	x4, x1
PROBE ldp_w_post
	ldp	w2, w3, [x1], #8
	sub	x1, x1, x4
	add	x0, x2, x3, lsl #32
	add	x0, x0, x1
	ret
ENDF ldp_w_post

FUNC ldnp_stnp
	ADDR	x1, vq
	ADDR	x4, vqo
PROBE ldnp
	ldnp	x2, x3, [x1, #16]
PROBE stnp
	stnp	x3, x2, [x4, #32]
	ldr	x0, [x4, #40]
	ldr	x5, [x4, #32]
	eor	x0, x0, x5, ror #8
	ret
ENDF ldnp_stnp

FUNC ldar_stlr
	ADDR	x1, vqo
	mov	x2, #0x7003
PROBE stlr
	stlr	x2, [x1]
PROBE ldar
	ldar	x3, [x1]
PROBE ldapr
	ldapr	x0, [x1]
	add	x0, x0, x3
	ret
ENDF ldar_stlr

FUNC prfm_reg
	ADDR	x1, vq
	mov	x0, #0x7004
PROBE prfm_reg
	prfm	pldl1keep, [x1, #8]
	ret
ENDF prfm_reg

/* ---- atomics (LSE), stepped; casp is in the exclusive space ---- */
FUNC cas
	ADDR	x1, vatom
	mov	x2, #0x11
	str	x2, [x1]
	mov	x3, #0x7005
PROBE cas
	cas	x2, x3, [x1]
	ldr	x0, [x1]
	add	x0, x0, x2, lsl #16
	ret
ENDF cas

FUNC cas_fail
	ADDR	x1, vatom
	mov	x2, #0x22
	str	x2, [x1]
	mov	x2, #0x33
	mov	x3, #0x7006
PROBE cas_fail
	casal	x2, x3, [x1]
	ldr	x0, [x1]
	add	x0, x0, x2, lsl #16
	ret
ENDF cas_fail

FUNC ldadd
	ADDR	x1, vatom
	mov	x2, #0x100
	str	x2, [x1]
	mov	x3, #0x7007
PROBE ldadd
	ldadd	x3, x4, [x1]
	ldr	x0, [x1]
	add	x0, x0, x4, lsl #32
	ret
ENDF ldadd

FUNC swp
	ADDR	x1, vatom
	mov	x2, #0x200
	str	x2, [x1]
	mov	x3, #0x7008
PROBE swp
	swpal	x3, x4, [x1]
	ldr	x0, [x1]
	add	x0, x0, x4, lsl #32
	ret
ENDF swp

FUNC casp
	ADDR	x1, vatom
	mov	x2, #0x300
	mov	x3, #0x301
	stp	x2, x3, [x1]
	mov	x4, #0x7009
	mov	x5, #0x700a
PROBE casp
	casp	x2, x3, x4, x5, [x1]
	ldp	x6, x7, [x1]
	add	x0, x6, x7, lsl #16
	add	x0, x0, x2, lsl #32
	add	x0, x0, x3, lsl #48
	ret
ENDF casp

/* ---- cache maintenance, barriers ---- */
FUNC dc_zva
	ADDR	x1, zbuf
	mov	x2, #-1
	mov	x3, #0
1:	str	x2, [x1, x3]
	add	x3, x3, #8
	cmp	x3, #2048
	b.ne	1b
	add	x4, x1, #72
PROBE dc_zva
	dc	zva, x4
	mov	x0, #0
	mov	x3, #0
2:	ldr	x5, [x1, x3]
	cmp	x5, #0
	cinc	x0, x0, eq
	add	x3, x3, #8
	cmp	x3, #2048
	b.ne	2b
	mrs	x5, dczid_el0
	add	x0, x0, x5, lsl #16
	ret
ENDF dc_zva

FUNC cache_maint
	ADDR	x1, vq
	adr	x2, retaddr_helper
	mov	x0, #0x8001
PROBE dc_cvau
	dc	cvau, x1
PROBE dc_civac
	dc	civac, x1
PROBE dc_cvac
	dc	cvac, x1
PROBE ic_ivau
	ic	ivau, x2
	ret
ENDF cache_maint

FUNC barriers
	mov	x0, #0x8002
PROBE dmb
	dmb	ish
PROBE dsb
	dsb	sy
PROBE isb
	isb
PROBE sb
	sb
PROBE clrex
	clrex
	ret
ENDF barriers

/* ---- system registers of EL0, and ID registers (emulated) ---- */
FUNC mrs_tpidr
	mrs	x1, tpidr_el0
PROBE mrs_tpidr
	mrs	x0, tpidr_el0
	sub	x0, x0, x1
	add	x0, x0, #0x8, lsl #12
	add	x0, x0, #0x100
	ret
ENDF mrs_tpidr

FUNC msr_tpidr
	mrs	x9, tpidr_el0
	MOV64	x1, 0x123456789a
PROBE msr_tpidr
	msr	tpidr_el0, x1
	mrs	x0, tpidr_el0
	msr	tpidr_el0, x9
	ret
ENDF msr_tpidr

	.macro SYSREG name, reg, tag
FUNC mrs_\name
	mrs	x1, \reg
PROBE mrs_\name
	mrs	x0, \reg
	eor	x0, x0, x1
	add	x0, x0, #\tag
	ret
ENDF mrs_\name
	.endm

	SYSREG	tpidrro, tpidrro_el0, 0x811
	SYSREG	ctr, ctr_el0, 0x812
	SYSREG	dczid, dczid_el0, 0x813
	SYSREG	cntfrq, cntfrq_el0, 0x814
	SYSREG	midr, midr_el1, 0x815
	SYSREG	mpidr, mpidr_el1, 0x816
	SYSREG	isar0, id_aa64isar0_el1, 0x817
	SYSREG	pfr0, id_aa64pfr0_el1, 0x818

FUNC mrs_cntvct
	isb
	mrs	x1, cntvct_el0
	isb
PROBE mrs_cntvct
	mrs	x0, cntvct_el0
	isb
	mrs	x2, cntvct_el0
	cmp	x0, x1
	cset	x3, hs
	cmp	x2, x0
	cset	x4, hs
	add	x0, x3, x4
	add	x0, x0, #0x8, lsl #12
	add	x0, x0, #0x110
	ret
ENDF mrs_cntvct

/* FPCR's rounding mode, as written, for the instructions after it */
FUNC msr_fpcr
	mrs	x9, fpcr
	mov	x1, #0x800000			/* RMode: towards minus infinity */
PROBE msr_fpcr
	msr	fpcr, x1
	fmov	d1, #-2.5
	frinti	d0, d1
	mrs	x2, fpcr
	msr	fpcr, x9
	fcvtzs	x0, d0
	add	x0, x0, x2
	ret
ENDF msr_fpcr

FUNC mrs_fpcr
	mrs	x9, fpcr
	mov	x1, #0xc00000			/* RMode: towards zero */
	msr	fpcr, x1
PROBE mrs_fpcr
	mrs	x0, fpcr
	msr	fpcr, x9
	ret
ENDF mrs_fpcr

FUNC mrs_fpsr
	mov	x1, #0x9f
	msr	fpsr, x1
PROBE mrs_fpsr
	mrs	x0, fpsr
	msr	fpsr, xzr
	ret
ENDF mrs_fpsr

/* ---- FP and SIMD, stepped ---- */
FUNC fmov_dx
	MOV64	x1, 0x400921fb54442d18
PROBE fmov_dx
	fmov	d0, x1
	fmov	x0, d0
	ret
ENDF fmov_dx

FUNC fadd
	fmov	d1, #1.5
	fmov	d2, #2.25
PROBE fadd
	fadd	d0, d1, d2
	fmov	x0, d0
	ret
ENDF fadd

FUNC fmadd
	fmov	d1, #1.5
	fmov	d2, #-3.0
	fmov	d3, #0.25
PROBE fmadd
	fmadd	d0, d1, d2, d3
	fmov	x0, d0
	ret
ENDF fmadd

/* fdiv by zero: its cumulative flag in FPSR */
FUNC fdiv_fpsr
	msr	fpsr, xzr
	fmov	d1, #1.0
	movi	d2, #0
PROBE fdiv_fpsr
	fdiv	d0, d1, d2
	mrs	x0, fpsr
	fmov	x1, d0
	eor	x0, x0, x1
	msr	fpsr, xzr
	ret
ENDF fdiv_fpsr

FUNC fcmp_lt
	fmov	d1, #1.0
	fmov	d2, #2.0
PROBE fcmp_lt
	fcmp	d1, d2
	mrs	x0, nzcv
	cset	x1, mi
	add	x0, x0, x1
	ret
ENDF fcmp_lt

FUNC fcmp_nan
	MOV64	x1, 0x7ff8000000000000
	fmov	d1, x1
	fmov	d2, #2.0
PROBE fcmp_nan
	fcmp	d1, d2
	mrs	x0, nzcv
	cset	x1, vs
	add	x0, x0, x1
	ret
ENDF fcmp_nan

FUNC fcvtzs
	fmov	d1, #-2.5
PROBE fcvtzs
	fcvtzs	x0, d1
	ret
ENDF fcvtzs

FUNC scvtf
	mov	x1, #-7
PROBE scvtf
	scvtf	s0, x1
	fmov	w0, s0
	ret
ENDF scvtf

FUNC ldr_q
	ADDR	x1, vq
PROBE ldr_q
	ldr	q0, [x1, #16]
	mov	x0, v0.d[1]
	ret
ENDF ldr_q

FUNC str_q_pre_sp
	ADDR	x1, vq
	ldr	q1, [x1]
	mov	x2, sp
PROBE str_q_pre_sp
	str	q1, [sp, #-32]!
	ldp	x3, x4, [sp], #32
	mov	x5, sp
	sub	x5, x5, x2
	eor	x0, x3, x4, ror #4
	add	x0, x0, x5
	ret
ENDF str_q_pre_sp

FUNC ldp_stp_q
	ADDR	x1, vq
	ADDR	x2, vqo
PROBE ldp_q
	ldp	q0, q1, [x1, #32]
PROBE stp_q
	stp	q1, q0, [x2]
	ldr	x0, [x2, #8]
	ldr	x3, [x2, #16]
	eor	x0, x0, x3, ror #16
	ret
ENDF ldp_stp_q

FUNC ld1_post
	ADDR	x1, vq
	mov	x3, x1
PROBE ld1_post
	ld1	{v0.16b, v1.16b}, [x1], #32
	mov	x0, v1.d[1]
	sub	x1, x1, x3
	add	x0, x0, x1
	ret
ENDF ld1_post

FUNC ld4
	ADDR	x1, vq
PROBE ld4
	ld4	{v0.4s, v1.4s, v2.4s, v3.4s}, [x1]
	mov	x0, v3.d[1]
	ret
ENDF ld4

FUNC ld1r
	ADDR	x1, vq
PROBE ld1r
	ld1r	{v0.4s}, [x1]
	mov	x0, v0.d[1]
	ret
ENDF ld1r

FUNC st1
	ADDR	x1, vq
	ld1	{v0.2d}, [x1]
	ADDR	x2, vqo
PROBE st1
	st1	{v0.s}[3], [x2]
	ldr	w0, [x2]
	ret
ENDF st1

FUNC add_v
	ADDR	x1, vq
	ld1	{v1.4s, v2.4s}, [x1]
PROBE add_v
	add	v0.4s, v1.4s, v2.4s
	mov	x0, v0.d[0]
	mov	x1, v0.d[1]
	eor	x0, x0, x1, ror #8
	ret
ENDF add_v

FUNC tbl
	ADDR	x1, vq
	ld1	{v1.16b, v2.16b}, [x1]
	movi	v3.16b, #0x1f
	and	v2.16b, v2.16b, v3.16b
PROBE tbl
	tbl	v0.16b, {v1.16b}, v2.16b
	mov	x0, v0.d[0]
	mov	x1, v0.d[1]
	eor	x0, x0, x1, ror #8
	ret
ENDF tbl

FUNC ins_umov
	MOV64	x1, 0x0a0b0c0d0e0f1011
	movi	v0.2d, #0
PROBE ins
	mov	v0.d[1], x1
PROBE umov
	umov	w0, v0.h[5]
	mov	x2, v0.d[1]
	add	x0, x0, x2
	ret
ENDF ins_umov

FUNC fmla_v
	fmov	v1.2d, #1.5
	fmov	v2.2d, #2.0
	fmov	v0.2d, #0.5
PROBE fmla_v
	fmla	v0.2d, v1.2d, v2.2d
	mov	x0, v0.d[1]
	ret
ENDF fmla_v

FUNC addv
	ADDR	x1, vq
	ld1	{v1.16b}, [x1]
PROBE addv
	addv	b0, v1.16b
	umov	w0, v0.b[0]
	ret
ENDF addv

/* ---- what a hit leaves alone ---- */

/* Every general register but x18 (the platform's), x0 and the link. */
FUNC regs
	stp	x19, x20, [sp, #-96]!
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	.irp	n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, \
		15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29
	MOV64	x\n, (0x0101010101010101 * \n) ^ 0x8040201008040201
	.endr
	mov	x0, #0x9000
	mov	x30, sp
PROBE regs_step
	rev	x0, x0
PROBE regs_sim
	b	1f
	mov	x0, #0xbad
1:
PROBE regs_nop
	nop
	.irp	n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, \
		15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29
	eor	x0, x0, x\n, ror #\n
	.endr
	mov	x1, sp
	sub	x1, x1, x30
	add	x0, x0, x1
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	x19, x20, [sp], #96
	ret
ENDF regs

/* Every FP/SIMD register (d8-d15 saved) and FPSR. */
FUNC vregs
	stp	d8, d9, [sp, #-64]!
	stp	d10, d11, [sp, #16]
	stp	d12, d13, [sp, #32]
	stp	d14, d15, [sp, #48]
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\n\().16b, #(\n * 7 + 1)
	mov	v\n\().b[3], wzr
	.endr
	mov	x1, #0x11
	msr	fpsr, x1
	mov	x0, #0x9100
PROBE vregs_step
	rev	x2, x2
PROBE vregs_sim
	b	1f
	mov	x0, #0xbad
1:
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	mov	x1, v\n\().d[0]
	eor	x0, x0, x1, ror #\n
	mov	x1, v\n\().d[1]
	eor	x0, x0, x1, ror #(\n + 32)
	.endr
	mrs	x1, fpsr
	msr	fpsr, xzr
	add	x0, x0, x1
	ldp	d10, d11, [sp, #16]
	ldp	d12, d13, [sp, #32]
	ldp	d14, d15, [sp, #48]
	ldp	d8, d9, [sp], #64
	ret
ENDF vregs

/* Nothing of a hit is written below sp (there is no red zone to spare). */
FUNC below_sp
	mov	x1, sp
	sub	x1, x1, #256
	MOV64	x2, 0x0123456789abcdef
	mov	x3, #0
1:	eor	x4, x2, x3
	str	x4, [x1, x3]
	add	x3, x3, #8
	cmp	x3, #256
	b.ne	1b
PROBE below_sp_step
	rev	x5, x5
PROBE below_sp_sim
	b	2f
	mov	x0, #0xbad
	ret
2:
PROBE below_sp_load
	ldur	x0, [sp, #-8]
	mov	x3, #0
3:	ldr	x4, [x1, x3]
	eor	x4, x4, x3
	eor	x0, x0, x4, ror #7
	add	x0, x0, x4
	add	x3, x3, #8
	cmp	x3, #256
	b.ne	3b
	ret
ENDF below_sp

/*
 * Stores and loads whose pages they fault in: a page of .bss each call (8
 * calls of a process, after that pages touched before) for a stepped
 * store (register offset) and a simulated load, and new pages of the
 * stack, 512 KiB and more below sp, for a simulated store (the kernel's
 * access grows the stack as the program's would) and a stepped one.
 */
FUNC fresh_page
	ADDR	x1, fresh_n
	ldr	x2, [x1]
	add	x3, x2, #1
	str	x3, [x1]
	and	x2, x2, #7
	ADDR	x4, fresh
	add	x4, x4, x2, lsl #13
	MOV64	x5, 0x5a5a00000000a5a5
	mov	x7, #8
PROBE fresh_store
	str	x5, [x4, x7]
PROBE fresh_load
	ldr	x6, [x4, #4112]
	ldr	x0, [x4, #8]
	add	x0, x0, x6
	ret
ENDF fresh_page

FUNC fresh_stack
	ADDR	x1, fresh_sp_n
	ldr	x2, [x1]
	add	x3, x2, #1
	str	x3, [x1]
	and	x2, x2, #7
	mov	x9, sp
	mov	x3, #0x80000
	add	x3, x3, x2, lsl #16
	sub	x4, x9, x3
	mov	sp, x4
	MOV64	x5, 0x00c0ffee00c0ffee
	mov	x11, #-4096
PROBE fresh_stack
	str	x5, [sp, #-16]!
PROBE fresh_stack_step
	str	x5, [sp, x11]
	ldr	x0, [sp], #16
	sub	x13, sp, #0x1000
	ldur	x12, [x13, #-16]
	mov	x1, sp
	mov	sp, x9
	sub	x1, x1, x4
	add	x0, x0, x1
	add	x0, x0, x12, lsl #1
	ret
ENDF fresh_stack

/* Adjacent probes, the target of a probed branch probed too. */
FUNC chain
	mov	x0, #0x9200
	mov	x1, #0
PROBE chain_add
	add	x0, x0, #1
PROBE chain_cbz
	cbz	x1, 1f
	mov	x0, #0xbad
	ret
1:
PROBE chain_target
	add	x0, x0, #0x10
PROBE chain_lsl
	lsl	x0, x0, #4
	ret
ENDF chain

/* A stepped instruction in a loop. */
FUNC step_loop
	mov	x1, #3
	mov	x0, #0
	mov	x2, #0x100
	mov	x3, #1
1:
PROBE step_loop_x3
	madd	x0, x2, x3, x0
	subs	x1, x1, #1
	b.ne	1b
	ret
ENDF step_loop

/* ---- instructions that must be refused; never executed ---- */
	.arch	armv8.8-a+mops
	.text
	.p2align 4
	.globl refused_insns
	.type refused_insns, %function
refused_insns:
REFUSE svc
	svc	#0
REFUSE hvc
	hvc	#0
REFUSE smc
	smc	#0
REFUSE brk
	brk	#0
REFUSE brk_uprobes
	brk	#5
REFUSE hlt
	hlt	#0
REFUSE dcps1
	dcps1
REFUSE udf
	udf	#0
REFUSE ldxr
	ldxr	x0, [x1]
REFUSE stxr
	stxr	w2, x0, [x1]
REFUSE ldaxr
	ldaxr	x0, [x1]
REFUSE stlxr
	stlxr	w2, x0, [x1]
REFUSE ldxp
	ldxp	x0, x3, [x1]
REFUSE stxp
	stxp	w2, x0, x3, [x1]
REFUSE eret
	eret
REFUSE eretaa
	eretaa
REFUSE drps
	drps
REFUSE braa
	braa	x0, x1
REFUSE blraaz
	blraaz	x2
REFUSE retaa
	retaa
REFUSE ldr_q_lit
	ldr	q0, refused_insns
REFUSE ldr_d_lit
	ldr	d0, refused_insns
REFUSE ldr_s_lit
	ldr	s0, refused_insns
REFUSE ldr_xzr_lit
	ldr	xzr, refused_insns
REFUSE ldr_lit_opc3_simd
	.inst	0xdc000000
REFUSE msr_sctlr
	msr	sctlr_el1, x0
REFUSE mrs_sctlr
	mrs	x0, sctlr_el1
REFUSE msr_daifset
	msr	daifset, #2
REFUSE msr_pan
	msr	pan, #1
REFUSE wfet
	wfet	x0
REFUSE tlbi
	tlbi	vmalle1
REFUSE dc_ivac
	dc	ivac, x0
REFUSE sysl
	sysl	x0, #3, c7, c5, #0
REFUSE mrs_debug
	mrs	x0, mdccsr_el0
REFUSE cpyfp
	cpyfp	[x0]!, [x1]!, x2!
REFUSE setp
	setp	[x0]!, x1!, x2
REFUSE unallocated_op0_1
	.inst	0x02000000
REFUSE unallocated_branch
	.inst	0xd6000000
/*
 * FEAT_PAuth_LR: signing or authenticating the return address with pc
 * (the instruction's own, or a label's relative to it) as a modifier,
 * what no copy at another address can do; encoded by hand, the
 * assembler may not know them.
 */
REFUSE paciasppc
	.inst	0xdac1a3fe
REFUSE pacibsppc
	.inst	0xdac1a7fe
REFUSE pacnbiasppc
	.inst	0xdac183fe
REFUSE pacnbibsppc
	.inst	0xdac187fe
REFUSE autiasppc
	.inst	0xf380003f		/* autiasppc . - 4 */
REFUSE autibsppc
	.inst	0xf3a0003f		/* autibsppc . - 4 */
REFUSE retaasppc
	.inst	0x5500003f		/* retaasppc . - 4 */
REFUSE retabsppc
	.inst	0x5520003f		/* retabsppc . - 4 */
REFUSE retaasppcr
	.inst	0xd65f0bf0		/* retaasppcr x16 */
REFUSE retabsppcr
	.inst	0xd65f0ff0		/* retabsppcr x16 */
/* Without FEAT_HBC only (refuse.c skips it on a CPU with it). */
REFUSE bc_eq
	bc.eq	refused_insns
	ret
	.size refused_insns, . - refused_insns

	.section .note.GNU-stack, "", %progbits
