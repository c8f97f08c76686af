/* SPDX-License-Identifier: GPL-2.0 */
/*
 * riscv64 probe sites for the signal, ptrace, XOL visibility and debugger
 * tests: the functions and labels of sites.S (x86-64) where riscv has the
 * same kind of instruction (sites.h).  riscv's stock uprobes code, which
 * the engine serves through legacy_arch.c, simulates the instructions
 * that read or write pc (jal, jalr, branches, auipc and their compressed
 * forms) and single-steps a copy of the others out of line, followed by
 * an ebreak.  Each site's size is fixed here (.option norvc for a 4-byte
 * instruction, the compressed form written out for a 2-byte one): the
 * breakpoint is the 2-byte c.ebreak over either.
 */

#include "sites.h"
#include "upng_asm.h"

	.text

/* long site_work(long x): returns x * 3 + 1; probe on a stepped mul. */
FUNC site_work
	mv	a1, a0
	li	a2, 3
LABEL site_work_probe
	.option push
	.option norvc
	mul	a0, a1, a2
	.option pop
	addi	a0, a0, 1
	ret
ENDF site_work

/* long site_load(long *p): returns *p; probe on the (stepped) load. */
FUNC site_load
LABEL site_load_probe
	.option push
	.option norvc
	ld	a0, 0(a0)
	.option pop
	ret
ENDF site_load

/*
 * long site_steps(long x): returns ((x + 5) * 3) ^ 0x55, one instruction
 * per label site_step0..site_step4 (site_step2's mul and the others are
 * stepped, site_step4's ret is simulated); a0 holds the value as it goes.
 */
FUNC site_steps
	li	t2, 3
LABEL site_step0
	li	t1, 0x55
LABEL site_step1
	addi	a0, a0, 5
LABEL site_step2
	mul	a0, a0, t2
LABEL site_step3
	xor	a0, a0, t1
LABEL site_step4
	ret
ENDF site_steps

/*
 * unsigned long site_xv_loop(unsigned long n, unsigned long acc,
 *			      const unsigned long *k): N > 0 times
 * acc = acc * 3 + 1 + *k; returns acc.  Three probe sites, one per way of
 * running a probed instruction: site_xv_step (a mul, stepped out of
 * line), site_xv_mem (a load, stepped, its copy reads memory) and
 * site_xv_sim (the loop's c.bnez, 2 bytes, simulated).  The loop ends at
 * site_xv_end.
 */
FUNC site_xv_loop
	mv	a3, a1
	li	a5, 3
1:
LABEL site_xv_step
	mul	a3, a3, a5
LABEL site_xv_mem
	.option push
	.option norvc
	ld	a4, 0(a2)
	.option pop
	add	a3, a3, a4
	addi	a3, a3, 1
	addi	a0, a0, -1
LABEL site_xv_sim
	c.bnez	a0, 1b
	mv	a0, a3
	ret
LABEL site_xv_end
ENDF site_xv_loop

/*
 * long site_nop5(long x): x * 3 + 1, its first instruction a nop
 * (site_nop5_probe), as at a patchable function entry.
 */
FUNC site_nop5
LABEL site_nop5_probe
	.option push
	.option norvc
	nop
	.option pop
	slli	a1, a0, 1
	add	a0, a0, a1
	addi	a0, a0, 1
	ret
ENDF site_nop5

/*
 * long site_mov(long x), long site_nop1(long x): x * 3 + 1, their first
 * instruction a register move (addi t1, a0, 0, 4 bytes: stepped) and a
 * c.nop (2 bytes: stepped), for a debugger's breakpoint on a probed
 * instruction (debugger.c).
 */
FUNC site_mov
	.option push
	.option norvc
	addi	t1, a0, 0
	.option pop
	slli	a0, t1, 1
	add	a0, a0, t1
	addi	a0, a0, 1
	ret
ENDF site_mov

FUNC site_nop1
	c.nop
	slli	a1, a0, 1
	add	a0, a0, a1
	addi	a0, a0, 1
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
	lla	a2, site_rseq_cs
	sd	a2, 8(a1)			/* rs->rseq_cs */
.Lrseq_start:
	lwu	a2, 4(a1)			/* rs->cpu_id */
	slli	a2, a2, 6
	add	a2, a0, a2
	ld	a3, 0(a2)
	addi	a3, a3, 1
LABEL site_rseq_probe
	.option push
	.option norvc
	sd	a3, 0(a2)			/* commit */
	.option pop
.Lrseq_commit:
	li	a0, 0
	ret
	.option push
	.option norvc
	.word	0xf1401073			/* RSEQ_SIG: csrr mhartid, x0 */
	.option pop
.Lrseq_abort:
	li	a0, 1
	ret
ENDF site_rseq_incr

	.section .note.GNU-stack, "", @progbits
