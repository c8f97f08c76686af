/* SPDX-License-Identifier: GPL-2.0 */
/*
 * s390 (s390x) probe sites for the signal, ptrace, XOL visibility and
 * debugger tests: the functions and labels of sites.S (x86-64) where s390
 * has the same kind of instruction (sites.h). The architecture's stock
 * uprobes code, which the engine serves on s390, emulates the
 * relative-long loads, stores and compares (larl, lgrl, ...) and
 * single-steps a copy of every other instruction out of line: all the
 * probed sites here are stepped. Arguments come in r2..r6, the result
 * goes in r2, the return address is in r14 and the stack pointer in r15.
 */

#include "sites.h"
#include "upng_asm.h"

	.text

/* long site_work(long x): returns x * 3 + 1; probe on the multiply. */
FUNC site_work
	lgr	%r1, %r2
LABEL site_work_probe
	mghi	%r1, 3
	lgr	%r2, %r1
	aghi	%r2, 1
	br	%r14
ENDF site_work

/* long site_load(long *p): returns *p; probe on the load itself. */
FUNC site_load
LABEL site_load_probe
	lg	%r2, 0(%r2)
	br	%r14
ENDF site_load

/*
 * long site_steps(long x): returns ((x + 5) * 3) ^ 0x55, one instruction
 * per label site_step0..site_step4; r2 holds the value as it goes.
 */
FUNC site_steps
	lghi	%r1, 3
LABEL site_step0
	lghi	%r0, 0x55
LABEL site_step1
	aghi	%r2, 5
LABEL site_step2
	msgr	%r2, %r1
LABEL site_step3
	xgr	%r2, %r0
LABEL site_step4
	br	%r14
ENDF site_steps

/*
 * unsigned long site_xv_loop(unsigned long n, unsigned long acc,
 *			      const unsigned long *k): N > 0 times
 * acc = acc * 3 + 1 + *k; returns acc. Probe sites: site_xv_step (a
 * multiply) and site_xv_mem (a load, its stepped copy reads memory). The
 * loop ends at site_xv_end.
 */
FUNC site_xv_loop
	lgr	%r1, %r3
	lghi	%r5, 3
1:
LABEL site_xv_step
	msgr	%r1, %r5
LABEL site_xv_mem
	lg	%r0, 0(%r4)
	agr	%r1, %r0
	aghi	%r1, 1
	brctg	%r2, 1b
	lgr	%r2, %r1
	br	%r14
LABEL site_xv_end
ENDF site_xv_loop

/*
 * long site_nop5(long x): x * 3 + 1, its first instruction a nop
 * (site_nop5_probe; a four-byte one, bc 0,0), as at a patchable function
 * entry.
 */
FUNC site_nop5
LABEL site_nop5_probe
	bc	0, 0
	mghi	%r2, 3
	aghi	%r2, 1
	br	%r14
ENDF site_nop5

/*
 * long site_mov(long x), long site_nop1(long x): x * 3 + 1, their first
 * instruction a register move (lgr, four bytes) and a two-byte nop
 * (bcr 0,%r0), for a debugger's breakpoint on a probed instruction
 * (debugger.c).
 */
FUNC site_mov
	lgr	%r1, %r2
	mghi	%r1, 3
	lgr	%r2, %r1
	aghi	%r2, 1
	br	%r14
ENDF site_mov

FUNC site_nop1
	bcr	0, %r0
	mghi	%r2, 3
	aghi	%r2, 1
	br	%r14
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
	larl	%r1, site_rseq_cs
	stg	%r1, 8(%r3)			/* rs->rseq_cs */
.Lrseq_start:
	llgf	%r1, 4(%r3)			/* rs->cpu_id */
	sllg	%r1, %r1, 6
	lg	%r0, 0(%r1, %r2)
	aghi	%r0, 1
LABEL site_rseq_probe
	stg	%r0, 0(%r1, %r2)		/* commit */
.Lrseq_commit:
	lghi	%r2, 0
	br	%r14
	.long	0xb2ff0fff			/* RSEQ_SIG (glibc's, trap4) */
.Lrseq_abort:
	lghi	%r2, 1
	br	%r14
ENDF site_rseq_incr

/*
 * long site_rlload(void): returns site_rldata[0] through lgrl, a
 * relative-long load the architecture emulates (get_user()).
 */
FUNC site_rlload
LABEL site_rlload_probe
	lgrl	%r2, site_rldata
	br	%r14
ENDF site_rlload

/*
 * Instructions that raise a signal in their stepped copy, in functions
 * whose signal handler returns (signals.c): the program interruption
 * leaves the PSW after the instruction, which a monitor event, a
 * fixed-point overflow completed, a divide exception or an operation
 * exception suppressed; the program goes on after it, as unprobed.
 *
 * long site_fpovf(void): 0x7fffffff + 1 (ar, site_fpovf_probe) with the
 * fixed-point overflow mask on: SIGFPE (FPE_INTOVF) after the add, which
 * completed; returns the sum, 0x80000000 (0x80000001 if the add ran
 * twice). The program mask is put back after.
 */
FUNC site_fpovf
	ipm	%r0
	llilh	%r1, 0x0800			/* program mask: fixed-point overflow */
	spm	%r1
	llilf	%r2, 0x7fffffff
	lhi	%r3, 1
LABEL site_fpovf_probe
	ar	%r2, %r3
	spm	%r0
	br	%r14
ENDF site_fpovf

/*
 * long site_divz(void): 7 divided by 0 (dsgr, site_divz_probe): SIGFPE
 * (FPE_INTDIV), the division suppressed; returns the dividend, 7.
 */
FUNC site_divz
	lghi	%r2, 0
	lghi	%r3, 7
	lghi	%r1, 0
LABEL site_divz_probe
	dsgr	%r2, %r1
	lgr	%r2, %r3
	br	%r14
ENDF site_divz

/*
 * long site_pfpo(void): pfpo (site_pfpo_probe, 0x010a, perform
 * floating-point operation), its function only tested (bit 32 of r0), which QEMU's TCG
 * does not implement: SIGILL (ILL_ILLOPC), the operation exception
 * suppressing it; returns 0x9f0.
 */
FUNC site_pfpo
	llilh	%r0, 0x8000
	lghi	%r2, 0x9f0
LABEL site_pfpo_probe
	.short	0x010a				/* pfpo */
	br	%r14
ENDF site_pfpo

/*
 * void site_lastbreak(void): stops a traced process on gdb's breakpoint
 * (0x0001), then calls (basr, site_lastbreak_probe) an empty function
 * at site_lastbreak_to, for the tracer to single-step the call and read
 * its breaking-event address (xolvis.c).
 */
FUNC site_lastbreak
	lgr	%r0, %r14
	.short	0x0001
	larl	%r1, site_lastbreak_to
LABEL site_lastbreak_probe
	basr	%r14, %r1
	lgr	%r14, %r0
	br	%r14
LABEL site_lastbreak_to
	br	%r14
ENDF site_lastbreak

	.data
	.p2align 3
	.globl site_rldata
	.type site_rldata, @object
site_rldata:
	.quad	0
	.size site_rldata, . - site_rldata

	.section .note.GNU-stack, "", @progbits
