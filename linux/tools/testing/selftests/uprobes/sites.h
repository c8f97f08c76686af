/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe sites in sites.S (x86-64), sites_a64.S (arm64), sites_riscv.S and
 * sites_s390.S.
 */
#ifndef SITES_H
#define SITES_H

/*
 * What site_nop<n>_regs() sets before its probed nop: flags CF PF AF ZF SF
 * OF (and the reserved bit 1), general register i (rax, rcx, rdx, rbx,
 * rsp, rbp, rsi, rdi, r8..r15: ModRM order) SITE_REGS_GPR * (i + 1), except
 * rsp, and the red zone's quadword i (at -8 * (i + 1)) SITE_REGS_RZ + i.
 */
#ifdef __ASSEMBLER__
#define SITE_UL(x)	x
#else
#define SITE_UL(x)	x##UL
#endif
#define SITE_REGS_FLAGS	SITE_UL(0x8d7)
#define SITE_REGS_GPR	SITE_UL(0x0101010101010101)
#define SITE_REGS_RZ	SITE_UL(0x5a5a5a5a5a5a5a00)

#ifndef __ASSEMBLER__
/* Every architecture (sites.S, sites_a64.S, sites_riscv.S, sites_s390.S). */
long site_work(long x);
long site_load(long *p);
long site_steps(long x);
unsigned long site_xv_loop(unsigned long n, unsigned long acc,
			   const unsigned long *k);

extern char site_work_probe[], site_load_probe[];
extern char site_step0[], site_step1[], site_step2[], site_step3[],
	    site_step4[];
extern char site_xv_mem[], site_xv_step[], site_xv_end[];

struct rseq;
int site_rseq_incr(long *counts, struct rseq *rs);
extern char site_rseq_probe[];
long site_nop5(long x);
extern char site_nop5_probe[];
long site_mov(long x);
long site_nop1(long x);

#if defined(__riscv)
/* riscv only (sites_riscv.S). */
extern char site_xv_sim[];
#endif

#if defined(__aarch64__)
/* arm64 only (sites_a64.S). */
long site_litload(void);
long site_litload_w(void);
long site_undef(void);
long site_sve(void);
long site_sme(void);
long site_idreg(void);
long site_fpac(void);
long site_ldr(long *p);
extern char site_ldr_probe[];
extern char site_litload_probe[], site_litload_w_probe[], site_undef_probe[];
extern char site_sve_probe[], site_sme_probe[], site_idreg_probe[];
extern char site_fpac_probe[];
extern long site_litdata[];
extern char site_xv_sim[];
#elif defined(__s390x__)
/* s390 only (sites_s390.S). */
long site_rlload(void);
extern char site_rlload_probe[];
extern long site_rldata[];
long site_fpovf(void);
long site_divz(void);
long site_pfpo(void);
void site_lastbreak(void);
extern char site_fpovf_probe[], site_divz_probe[], site_pfpo_probe[];
extern char site_lastbreak_probe[], site_lastbreak_to[];
#elif defined(__x86_64__)
/* x86-64 only (sites.S). */
void site_badret(unsigned long to);
extern char site_badret_probe[];
long site_movimm(void);
extern char site_movimm_probe[];
long site_call_on_stack(long x, void *sp, long (*fn)(long));
long site_ripload(void);
long site_ripstore(long x);
long site_ripcmp(long x);
long site_ripor(long x);
long site_ripsse(long x);
long site_far(long x);
long site_invept(void *desc);

extern char site_ripload_probe[];
extern char site_ripstore_probe[], site_ripcmp_probe[];
extern char site_ripor_probe[], site_ripsse_probe[], site_invept_probe[];
extern long site_ripdata[];
extern char site_xv_boost[], site_xv_nop5[], site_xv_nop10[];
extern char site_nop5_regs_probe[];
/* Sites of the multi-byte nops of 6, 7, 8 and 10 bytes. */
long site_nop6(long x);
long site_nop7(long x);
long site_nop8(long x);
long site_nop10(long x);
extern char site_nop6_probe[], site_nop7_probe[], site_nop8_probe[],
	    site_nop10_probe[];
extern char site_nop6_regs_probe[], site_nop7_regs_probe[],
	    site_nop8_regs_probe[], site_nop10_regs_probe[];

/* What site_nop<n>_regs() finds after the nop. */
struct site_regs {
	unsigned long gpr[16];	/* ModRM order, gpr[4] is rsp */
	unsigned long flags;
	unsigned long sp_before;	/* rsp before the nop */
	unsigned long red_zone[16];
};

void site_nop5_regs(struct site_regs *out);
void site_nop6_regs(struct site_regs *out);
void site_nop7_regs(struct site_regs *out);
void site_nop8_regs(struct site_regs *out);
void site_nop10_regs(struct site_regs *out);

unsigned long site_x87_fip(void);
extern char site_x87_fldl[];
unsigned long site_x87_fip_reg(void);
extern char site_x87_fldl_reg[];
void site_x87_fxsave(void *fx);
extern char site_x87_fldl_fx[];
void site_x87_fxsave_reg(void *fx);
extern char site_x87_fldl_fx_reg[];
extern double site_x87_val;
void site_x87_fpe(void);
extern char site_x87_fldl_fpe[];
void site_x87_store_ro(void);
extern char site_x87_fstpl[];
extern const double site_x87_ro;
#endif

#define SITE_WORK(x) ((x) * 3 + 1)
#define SITE_STEPS(x) ((((x) + 5) * 3) ^ 0x55)

#endif /* !__ASSEMBLER__ */

#endif /* SITES_H */
