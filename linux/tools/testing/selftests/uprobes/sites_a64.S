/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 probe sites for the signal, ptrace, XOL visibility and debugger
 * tests: the functions and labels of sites.S (x86-64) where arm64 has the
 * same kind of instruction, and the arm64 kinds (sites.h).  The engine
 * simulates the instructions that read pc (branches, adr/adrp, literal
 * loads), nop, and what functions start with (stp, ldr/str with an
 * immediate offset, add/sub, logic and moves of registers and constants,
 * cmp); it single-steps a copy of the others out of line.  The stepped
 * sites here are instructions it does not simulate: mul, loads with a
 * register offset, bitfield moves.
 */

#include "sites.h"
#include "upng_asm.h"

	.text

/* long site_work(long x): returns x * 3 + 1; probe on a stepped mul. */
FUNC site_work
	mov	x1, x0
	mov	x2, #3
LABEL site_work_probe
	mul	x0, x1, x2
	add	x0, x0, #1
	ret
ENDF site_work

/* long site_load(long *p): returns *p; probe on the (stepped) load. */
FUNC site_load
LABEL site_load_probe
	ldr	x0, [x0, xzr]
	ret
ENDF site_load

/* long site_ldr(long *p): returns *p; probe on the (simulated) load. */
FUNC site_ldr
LABEL site_ldr_probe
	ldr	x0, [x0]
	ret
ENDF site_ldr

/*
 * long site_litload(void): returns site_litdata[0] through a 64-bit
 * literal load; long site_litload_w(void): site_litdata[0]'s low word,
 * sign-extended, through ldrsw (literal).  Both are simulated; when the
 * kernel cannot read the literal, a copy rewritten to load from a
 * register is stepped, and faults as the original.
 */
FUNC site_litload
LABEL site_litload_probe
	ldr	x0, site_litdata
	ret
ENDF site_litload

FUNC site_litload_w
LABEL site_litload_w_probe
	ldrsw	x0, site_litdata
	ret
ENDF site_litload_w

/*
 * long site_undef(void): reads PMCCNTR_EL0, which user mode may not
 * (PMUSERENR_EL0 is 0): an undefined instruction exception, SIGILL. The
 * probe on it is stepped from a slot, where it traps first.
 */
FUNC site_undef
	mov	x0, #0
LABEL site_undef_probe
	mrs	x0, pmccntr_el0
	ret
ENDF site_undef

/*
 * Instructions a stepped copy of which traps to a kernel handler other
 * than the undefined instruction one, each raising SIGILL where this
 * kernel does not give the feature (probed at site_*_probe):
 * site_sve: cntd x0, SVE (do_sve_acc(): no CONFIG_ARM64_SVE);
 * site_sme: rdsvl x0, #1, SME (do_sme_acc(), or undefined);
 * site_idreg: mrs of ID_PFR0_EL1, an AArch32 ID register the kernel does
 * not emulate (the mrs handler, with FEAT_IDST; or undefined);
 * site_fpac: autiza of a pointer that is not signed (do_el0_fpac(), with
 * FEAT_FPAC; nothing without, and the site returns).
 */
FUNC site_sve
	mov	x0, #0
LABEL site_sve_probe
	.inst	0x04e0e3e0		/* cntd x0 */
	ret
ENDF site_sve

FUNC site_sme
	mov	x0, #0
LABEL site_sme_probe
	.inst	0x04bf5820		/* rdsvl x0, #1 */
	ret
ENDF site_sme

FUNC site_idreg
	mov	x0, #0
LABEL site_idreg_probe
	mrs	x0, s3_0_c0_c1_0	/* id_pfr0_el1 */
	ret
ENDF site_idreg

FUNC site_fpac
	movz	x0, #0x1234
LABEL site_fpac_probe
	.inst	0xdac133e0		/* autiza x0 */
	ret
ENDF site_fpac

/*
 * long site_steps(long x): returns ((x + 5) * 3) ^ 0x55, one instruction
 * per label site_step0..site_step4 (site_step2's mul is stepped, the
 * others simulated); x0 holds the value as it goes.
 */
FUNC site_steps
	mov	x10, #3
LABEL site_step0
	mov	x9, #0x55
LABEL site_step1
	add	x0, x0, #5
LABEL site_step2
	mul	x0, x0, x10
LABEL site_step3
	eor	x0, x0, x9
LABEL site_step4
	ret
ENDF site_steps

/*
 * unsigned long site_xv_loop(unsigned long n, unsigned long acc,
 *			      const unsigned long *k): N > 0 times
 * acc = acc * 3 + 1 + *k; returns acc.  Three probe sites, one per way of
 * running a probed instruction: site_xv_step (a mul, stepped out of
 * line), site_xv_mem (a load, stepped, its copy reads memory) and
 * site_xv_sim (the loop's cbnz, simulated).  The loop ends at
 * site_xv_end.
 */
FUNC site_xv_loop
	mov	x3, x1
	mov	x5, #3
1:
LABEL site_xv_step
	mul	x3, x3, x5
LABEL site_xv_mem
	ldr	x4, [x2, xzr]
	add	x3, x3, x4
	add	x3, x3, #1
	sub	x0, x0, #1
LABEL site_xv_sim
	cbnz	x0, 1b
	mov	x0, x3
	ret
LABEL site_xv_end
ENDF site_xv_loop

/*
 * long site_nop5(long x): x * 3 + 1, its first instruction a nop
 * (site_nop5_probe), as at a patchable function entry.
 */
FUNC site_nop5
LABEL site_nop5_probe
	nop
	add	x0, x0, x0, lsl #1
	add	x0, x0, #1
	ret
ENDF site_nop5

/*
 * long site_mov(long x), long site_nop1(long x): x * 3 + 1, their first
 * instruction a register move (asr x9, x0, #0, a bitfield move:
 * stepped) and a nop (simulated), for a debugger's breakpoint on a probed
 * instruction (debugger.c).
 */
FUNC site_mov
	asr	x9, x0, #0
	add	x0, x9, x9, lsl #1
	add	x0, x0, #1
	ret
ENDF site_mov

FUNC site_nop1
	nop
	add	x0, x0, x0, lsl #1
	add	x0, x0, #1
	ret
ENDF site_nop1

/*
 * int site_rseq_incr(long *counts, struct rseq *rs): adds 1 to
 * counts[8 * cpu] (a cache line per CPU) in an rseq critical section,
 * whose commit store is site_rseq_probe. 0, or 1 when the section was
 * aborted (the count unchanged: try again).
 */
	.pushsection __rseq_cs, "aw"
	.balign 32
site_rseq_cs:
	.long	0, 0				/* version, flags */
	.quad	.Lrseq_start			/* start_ip */
	.quad	.Lrseq_commit - .Lrseq_start	/* post_commit_offset */
	.quad	.Lrseq_abort			/* abort_ip */
	.popsection

FUNC site_rseq_incr
	adrp	x2, site_rseq_cs
	add	x2, x2, :lo12:site_rseq_cs
	str	x2, [x1, #8]			/* rs->rseq_cs */
.Lrseq_start:
	ldr	w2, [x1, #4]			/* rs->cpu_id */
	lsl	x2, x2, #6
	ldr	x3, [x0, x2]
	add	x3, x3, #1
LABEL site_rseq_probe
	str	x3, [x0, x2]			/* commit */
.Lrseq_commit:
	mov	w0, #0
	ret
	.inst	0xd428bc00			/* RSEQ_SIG */
.Lrseq_abort:
	mov	w0, #1
	ret
ENDF site_rseq_incr

/*
 * The literals of site_litload(): a page of its own, that a test can take
 * the read permission away from, in the text section (a literal load
 * reaches 1 MiB around it).
 */
	.p2align 12
	.globl site_litdata
	.type site_litdata, @object
site_litdata:
	.zero 4096
	.size site_litdata, . - site_litdata

	.section .note.GNU-stack, "", @progbits
