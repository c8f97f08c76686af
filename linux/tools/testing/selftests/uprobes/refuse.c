// SPDX-License-Identifier: GPL-2.0
/*
 * Instructions that cannot be single-stepped safely (int3, int, iret,
 * in/out, hlt, cli/sti, syscall/sysenter, ud2, lock prefix, es/cs/ss/ds
 * segment overrides, mov to %ss, invalid opcodes) are refused: enabling a
 * probe on one fails with an errno while the file is mapped by a running
 * process, the event stays disabled, no byte of the process changes, and
 * the process keeps running correctly (same results as before, and a
 * probe on a good instruction still works in it).  A probe beyond the end
 * of the file is refused too (when defined or when enabled); one in a data section (mapped, but not
 * executable) changes nothing in the process.  The analysis happens at
 * registration, so a refused instruction is refused even while no process
 * maps the file, with "...:0xOFF: cannot probe: REASON" in the kernel log
 * (the 6.12 engine analyses lazily and logs nothing: it fails that case),
 * for perf and BPF as for uprobe_events.
 * A process whose USDT semaphore cannot be written (its page lies beyond
 * the end of the file: SIGBUS) gets no breakpoint the semaphore would
 * hide from the program.
 *
 * On arm64 (bin/insna64, insn_a64.S) the refused instructions are those
 * the engine can neither simulate nor step out of line: exception
 * generation and return, exclusives, pointer-authenticated branches and
 * the FEAT_PAuth_LR instructions that sign or authenticate with pc,
 * SIMD&FP literal loads and one into the zero register, system
 * instructions and registers beyond EL0's, FEAT_MOPS, unallocated
 * encodings; each must also be logged with its reason.
 *
 * On riscv (bin/insnrv64, insn_riscv.S) they are those riscv's stock
 * analysis rejects: the system instructions (ecall, ebreak, CSR accesses),
 * fence and fence.i, and c.ebreak, the engine's breakpoint; logged as
 * refused by the architecture's analysis. The engine refuses lr and sc
 * on top: a stepped copy's trap clears the reservation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "insn_common.h"

/* Kernel-internal "not supported", what the 6.12 engine returns. */
#define ENOTSUPP_KERNEL 524

/*
 * The table of this architecture, a probe site of it that works (the
 * program's results must not change with it), a refused one.
 */
#if defined(__x86_64__)
#define INSN_BIN	"bin/insn64"
#define INSN_GOOD	"insn_p_nop5"
#define INSN_BAD	"insn_r_int3"
#elif defined(__aarch64__)
#define INSN_BIN	"bin/insna64"
#define INSN_GOOD	"insn_p_nop"
#define INSN_BAD	"insn_r_brk"
#elif defined(__riscv)
#define INSN_BIN	"bin/insnrv64"
#define INSN_GOOD	"insn_p_nop"
#define INSN_BAD	"insn_r_ebreak"
#elif defined(__s390x__)
#define INSN_BIN	"bin/insns390"
#define INSN_GOOD	"insn_p_agr"
#define INSN_BAD	"insn_r_ex"
#endif

#ifndef HWCAP2_HBC
#define HWCAP2_HBC	0x100000000000UL	/* bit 44, as in <asm/hwcap.h> */
#endif

FIXTURE(refuse) {
	struct upng_child child;
	struct insn_results base, after;
	char ev[64];
};

FIXTURE_VARIANT(refuse) {
	const char *bin;
	const char *sym;
	/* What the kernel log must give as the reason (not checked: NULL). */
	const char *reason;
	/* Not refused on a CPU with one of these AT_HWCAP2 bits: skipped. */
	unsigned long unless_hwcap2;
};

#if defined(__x86_64__)
FIXTURE_VARIANT_ADD(refuse, x86_64_int3) {
	.bin = "bin/insn64", .sym = "insn_r_int3",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_int80) {
	.bin = "bin/insn64", .sym = "insn_r_int80",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_int1) {
	.bin = "bin/insn64", .sym = "insn_r_int1",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_iret) {
	.bin = "bin/insn64", .sym = "insn_r_iret",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_in) {
	.bin = "bin/insn64", .sym = "insn_r_in",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_out) {
	.bin = "bin/insn64", .sym = "insn_r_out",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_in_dx) {
	.bin = "bin/insn64", .sym = "insn_r_in_dx",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_hlt) {
	.bin = "bin/insn64", .sym = "insn_r_hlt",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_cli) {
	.bin = "bin/insn64", .sym = "insn_r_cli",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_sti) {
	.bin = "bin/insn64", .sym = "insn_r_sti",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_syscall) {
	.bin = "bin/insn64", .sym = "insn_r_syscall",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_sysenter) {
	.bin = "bin/insn64", .sym = "insn_r_sysenter",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_ud2) {
	.bin = "bin/insn64", .sym = "insn_r_ud2",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_lock_inc) {
	.bin = "bin/insn64", .sym = "insn_r_lock_inc",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_lock_cmpxchg) {
	.bin = "bin/insn64", .sym = "insn_r_lock_cmpxchg",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_seg_ds) {
	.bin = "bin/insn64", .sym = "insn_r_seg_ds",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_seg_es) {
	.bin = "bin/insn64", .sym = "insn_r_seg_es",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_seg_cs) {
	.bin = "bin/insn64", .sym = "insn_r_seg_cs",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_seg_ss) {
	.bin = "bin/insn64", .sym = "insn_r_seg_ss",
};

FIXTURE_VARIANT_ADD(refuse, x86_64_invalid_06) {
	.bin = "bin/insn64", .sym = "insn_r_invalid_06",
};

FIXTURE_VARIANT_ADD(refuse, i386_int3) {
	.bin = "bin/insn32", .sym = "insn_r_int3",
};

FIXTURE_VARIANT_ADD(refuse, i386_int80) {
	.bin = "bin/insn32", .sym = "insn_r_int80",
};

FIXTURE_VARIANT_ADD(refuse, i386_iret) {
	.bin = "bin/insn32", .sym = "insn_r_iret",
};

FIXTURE_VARIANT_ADD(refuse, i386_in) {
	.bin = "bin/insn32", .sym = "insn_r_in",
};

FIXTURE_VARIANT_ADD(refuse, i386_out) {
	.bin = "bin/insn32", .sym = "insn_r_out",
};

FIXTURE_VARIANT_ADD(refuse, i386_hlt) {
	.bin = "bin/insn32", .sym = "insn_r_hlt",
};

FIXTURE_VARIANT_ADD(refuse, i386_cli) {
	.bin = "bin/insn32", .sym = "insn_r_cli",
};

FIXTURE_VARIANT_ADD(refuse, i386_sysenter) {
	.bin = "bin/insn32", .sym = "insn_r_sysenter",
};

FIXTURE_VARIANT_ADD(refuse, i386_ud2) {
	.bin = "bin/insn32", .sym = "insn_r_ud2",
};

FIXTURE_VARIANT_ADD(refuse, i386_lock_inc) {
	.bin = "bin/insn32", .sym = "insn_r_lock_inc",
};

FIXTURE_VARIANT_ADD(refuse, i386_seg_ds) {
	.bin = "bin/insn32", .sym = "insn_r_seg_ds",
};

FIXTURE_VARIANT_ADD(refuse, i386_seg_es) {
	.bin = "bin/insn32", .sym = "insn_r_seg_es",
};

FIXTURE_VARIANT_ADD(refuse, i386_pop_ds) {
	.bin = "bin/insn32", .sym = "insn_r_pop_ds",
};

FIXTURE_VARIANT_ADD(refuse, i386_mov_ss) {
	.bin = "bin/insn32", .sym = "insn_r_mov_ss",
};
#elif defined(__aarch64__)
#define A64_EXC		"exception-generating instruction"
#define A64_UNDEF	"undefined instruction"
#define A64_EXCL	"exclusive load/store"
#define A64_ERET	"exception return"
#define A64_PAC		"branch with pointer authentication"
#define A64_SIMD_LIT	"SIMD&FP literal load"
#define A64_SYSREG	"system register access"
#define A64_PSTATE	"PSTATE write"
#define A64_SYS		"system instruction"
#define A64_MOPS	"memory copy or set (FEAT_MOPS)"
#define A64_PAUTH_LR	"pointer authentication with pc (FEAT_PAuth_LR)"

FIXTURE_VARIANT_ADD(refuse, a64_svc) {
	.bin = "bin/insna64", .sym = "insn_r_svc", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_hvc) {
	.bin = "bin/insna64", .sym = "insn_r_hvc", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_smc) {
	.bin = "bin/insna64", .sym = "insn_r_smc", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_brk) {
	.bin = "bin/insna64", .sym = "insn_r_brk", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_brk_uprobes) {
	.bin = "bin/insna64", .sym = "insn_r_brk_uprobes", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_hlt) {
	.bin = "bin/insna64", .sym = "insn_r_hlt", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_dcps1) {
	.bin = "bin/insna64", .sym = "insn_r_dcps1", .reason = A64_EXC,
};

FIXTURE_VARIANT_ADD(refuse, a64_udf) {
	.bin = "bin/insna64", .sym = "insn_r_udf", .reason = A64_UNDEF,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldxr) {
	.bin = "bin/insna64", .sym = "insn_r_ldxr", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_stxr) {
	.bin = "bin/insna64", .sym = "insn_r_stxr", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldaxr) {
	.bin = "bin/insna64", .sym = "insn_r_ldaxr", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_stlxr) {
	.bin = "bin/insna64", .sym = "insn_r_stlxr", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldxp) {
	.bin = "bin/insna64", .sym = "insn_r_ldxp", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_stxp) {
	.bin = "bin/insna64", .sym = "insn_r_stxp", .reason = A64_EXCL,
};

FIXTURE_VARIANT_ADD(refuse, a64_eret) {
	.bin = "bin/insna64", .sym = "insn_r_eret", .reason = A64_ERET,
};

FIXTURE_VARIANT_ADD(refuse, a64_eretaa) {
	.bin = "bin/insna64", .sym = "insn_r_eretaa", .reason = A64_ERET,
};

FIXTURE_VARIANT_ADD(refuse, a64_drps) {
	.bin = "bin/insna64", .sym = "insn_r_drps", .reason = A64_ERET,
};

FIXTURE_VARIANT_ADD(refuse, a64_braa) {
	.bin = "bin/insna64", .sym = "insn_r_braa", .reason = A64_PAC,
};

FIXTURE_VARIANT_ADD(refuse, a64_blraaz) {
	.bin = "bin/insna64", .sym = "insn_r_blraaz", .reason = A64_PAC,
};

FIXTURE_VARIANT_ADD(refuse, a64_retaa) {
	.bin = "bin/insna64", .sym = "insn_r_retaa", .reason = A64_PAC,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldr_q_lit) {
	.bin = "bin/insna64", .sym = "insn_r_ldr_q_lit", .reason = A64_SIMD_LIT,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldr_d_lit) {
	.bin = "bin/insna64", .sym = "insn_r_ldr_d_lit", .reason = A64_SIMD_LIT,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldr_s_lit) {
	.bin = "bin/insna64", .sym = "insn_r_ldr_s_lit", .reason = A64_SIMD_LIT,
};

FIXTURE_VARIANT_ADD(refuse, a64_ldr_xzr_lit) {
	.bin = "bin/insna64", .sym = "insn_r_ldr_xzr_lit",
	.reason = "literal load into the zero register",
};

FIXTURE_VARIANT_ADD(refuse, a64_ldr_lit_opc3_simd) {
	.bin = "bin/insna64", .sym = "insn_r_ldr_lit_opc3_simd",
	.reason = A64_UNDEF,
};

FIXTURE_VARIANT_ADD(refuse, a64_msr_sctlr) {
	.bin = "bin/insna64", .sym = "insn_r_msr_sctlr", .reason = A64_SYSREG,
};

FIXTURE_VARIANT_ADD(refuse, a64_mrs_sctlr) {
	.bin = "bin/insna64", .sym = "insn_r_mrs_sctlr", .reason = A64_SYSREG,
};

FIXTURE_VARIANT_ADD(refuse, a64_msr_daifset) {
	.bin = "bin/insna64", .sym = "insn_r_msr_daifset", .reason = A64_PSTATE,
};

FIXTURE_VARIANT_ADD(refuse, a64_msr_pan) {
	.bin = "bin/insna64", .sym = "insn_r_msr_pan", .reason = A64_PSTATE,
};

FIXTURE_VARIANT_ADD(refuse, a64_wfet) {
	.bin = "bin/insna64", .sym = "insn_r_wfet", .reason = A64_SYS,
};

FIXTURE_VARIANT_ADD(refuse, a64_tlbi) {
	.bin = "bin/insna64", .sym = "insn_r_tlbi", .reason = A64_SYS,
};

FIXTURE_VARIANT_ADD(refuse, a64_dc_ivac) {
	.bin = "bin/insna64", .sym = "insn_r_dc_ivac", .reason = A64_SYS,
};

FIXTURE_VARIANT_ADD(refuse, a64_sysl) {
	.bin = "bin/insna64", .sym = "insn_r_sysl", .reason = A64_SYS,
};

FIXTURE_VARIANT_ADD(refuse, a64_mrs_debug) {
	.bin = "bin/insna64", .sym = "insn_r_mrs_debug",
	.reason = "debug register access",
};

FIXTURE_VARIANT_ADD(refuse, a64_cpyfp) {
	.bin = "bin/insna64", .sym = "insn_r_cpyfp", .reason = A64_MOPS,
};

FIXTURE_VARIANT_ADD(refuse, a64_setp) {
	.bin = "bin/insna64", .sym = "insn_r_setp", .reason = A64_MOPS,
};

FIXTURE_VARIANT_ADD(refuse, a64_unallocated_op0_1) {
	.bin = "bin/insna64", .sym = "insn_r_unallocated_op0_1",
	.reason = A64_UNDEF,
};

FIXTURE_VARIANT_ADD(refuse, a64_unallocated_branch) {
	.bin = "bin/insna64", .sym = "insn_r_unallocated_branch",
	.reason = A64_UNDEF,
};

/*
 * FEAT_PAuth_LR's instructions that take pc as a modifier: a copy stepped
 * in the XOL slot would sign or authenticate with the slot's address.
 * Refused on every CPU (without the feature they are undefined).
 */
FIXTURE_VARIANT_ADD(refuse, a64_paciasppc) {
	.bin = "bin/insna64", .sym = "insn_r_paciasppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_pacibsppc) {
	.bin = "bin/insna64", .sym = "insn_r_pacibsppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_pacnbiasppc) {
	.bin = "bin/insna64", .sym = "insn_r_pacnbiasppc",
	.reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_pacnbibsppc) {
	.bin = "bin/insna64", .sym = "insn_r_pacnbibsppc",
	.reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_autiasppc) {
	.bin = "bin/insna64", .sym = "insn_r_autiasppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_autibsppc) {
	.bin = "bin/insna64", .sym = "insn_r_autibsppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_retaasppc) {
	.bin = "bin/insna64", .sym = "insn_r_retaasppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_retabsppc) {
	.bin = "bin/insna64", .sym = "insn_r_retabsppc", .reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_retaasppcr) {
	.bin = "bin/insna64", .sym = "insn_r_retaasppcr",
	.reason = A64_PAUTH_LR,
};

FIXTURE_VARIANT_ADD(refuse, a64_retabsppcr) {
	.bin = "bin/insna64", .sym = "insn_r_retabsppcr",
	.reason = A64_PAUTH_LR,
};

/* bc.cond is an instruction of FEAT_HBC only (simulated there). */
FIXTURE_VARIANT_ADD(refuse, a64_bc_eq) {
	.bin = "bin/insna64",
	.sym = "insn_r_bc_eq",
	.reason = A64_UNDEF,
	.unless_hwcap2 = HWCAP2_HBC,
};
#elif defined(__riscv)
#define RV_ARCH		"refused by the architecture's analysis"

FIXTURE_VARIANT_ADD(refuse, rv_ebreak) {
	.bin = "bin/insnrv64", .sym = "insn_r_ebreak", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_c_ebreak) {
	.bin = "bin/insnrv64", .sym = "insn_r_c_ebreak", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_ecall) {
	.bin = "bin/insnrv64", .sym = "insn_r_ecall", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_fence) {
	.bin = "bin/insnrv64", .sym = "insn_r_fence", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_fence_i) {
	.bin = "bin/insnrv64", .sym = "insn_r_fence_i", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_csrr_cycle) {
	.bin = "bin/insnrv64", .sym = "insn_r_csrr_cycle", .reason = RV_ARCH,
};

FIXTURE_VARIANT_ADD(refuse, rv_csrr_fflags) {
	.bin = "bin/insnrv64", .sym = "insn_r_csrr_fflags", .reason = RV_ARCH,
};

#define RV_LRSC		"load-reserved or store-conditional"

FIXTURE_VARIANT_ADD(refuse, rv_lr_w) {
	.bin = "bin/insnrv64", .sym = "insn_r_lr_w", .reason = RV_LRSC,
};

FIXTURE_VARIANT_ADD(refuse, rv_lr_d) {
	.bin = "bin/insnrv64", .sym = "insn_r_lr_d", .reason = RV_LRSC,
};

FIXTURE_VARIANT_ADD(refuse, rv_sc_d) {
	.bin = "bin/insnrv64", .sym = "insn_r_sc_d", .reason = RV_LRSC,
};
#elif defined(__s390x__)
/*
 * What the stock analysis (probe_is_prohibited_opcode()) refuses, which
 * legacy_arch.c reports as one reason: the execute instructions, those
 * that change the addressing mode or the PSW, privileged ones,
 * transactions, and what is no instruction at all (the breakpoints).
 */
#define S390_REFUSED	"refused by the architecture's analysis"

FIXTURE_VARIANT_ADD(refuse, s390_ex) {
	.bin = "bin/insns390", .sym = "insn_r_ex", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_exrl) {
	.bin = "bin/insns390", .sym = "insn_r_exrl", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_bkpt) {
	.bin = "bin/insns390", .sym = "insn_r_bkpt",
};

FIXTURE_VARIANT_ADD(refuse, s390_uprobe_bkpt) {
	.bin = "bin/insns390", .sym = "insn_r_uprobe_bkpt",
};

FIXTURE_VARIANT_ADD(refuse, s390_bsm) {
	.bin = "bin/insns390", .sym = "insn_r_bsm", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_bassm) {
	.bin = "bin/insns390", .sym = "insn_r_bassm", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_diag) {
	.bin = "bin/insns390", .sym = "insn_r_diag", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_stnsm) {
	.bin = "bin/insns390", .sym = "insn_r_stnsm", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_stosm) {
	.bin = "bin/insns390", .sym = "insn_r_stosm", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_pr) {
	.bin = "bin/insns390", .sym = "insn_r_pr", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_bakr) {
	.bin = "bin/insns390", .sym = "insn_r_bakr", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_pc) {
	.bin = "bin/insns390", .sym = "insn_r_pc", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_pt) {
	.bin = "bin/insns390", .sym = "insn_r_pt", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_epsw) {
	.bin = "bin/insns390", .sym = "insn_r_epsw", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_tbegin) {
	.bin = "bin/insns390", .sym = "insn_r_tbegin", .reason = S390_REFUSED,
};

FIXTURE_VARIANT_ADD(refuse, s390_tend) {
	.bin = "bin/insns390", .sym = "insn_r_tend", .reason = S390_REFUSED,
};

/*
 * A system call: from the XOL slot, exec would keep the step's PER
 * controls, a vfork child would resume in the slot, and sigreturn's PSW
 * would be fixed up as the copy's.
 */
FIXTURE_VARIANT_ADD(refuse, s390_svc) {
	.bin = "bin/insns390", .sym = "insn_r_svc", .reason = "system call",
};
#endif

FIXTURE_SETUP(refuse)
{
	upng_die_with_parent();
	memset(&self->child, 0, sizeof(self->child));
	upng_evname(self->ev, sizeof(self->ev), "refuse");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(refuse)
{
	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
}

/* Whether a kernel log record read from FD on contains both A and B. */
static bool kmsg_has(int fd, const char *a, const char *b)
{
	char rec[1024];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return false;
		rec[n] = '\0';
		if (strstr(rec, a) && strstr(rec, b))
			return true;
	}
}

static void run_once(struct __test_metadata *_metadata, struct upng_child *c,
		     struct insn_results *r)
{
	ASSERT_EQ(0, upng_send(c, "run 1"));
	ASSERT_EQ(0, insn_read_results(c, r));
}

TEST_F_TIMEOUT(refuse, refused_and_intact, 120)
{
	const char *path = upng_path(variant->bin);
	struct upng_sym anchor, good, bad;
	unsigned char file[16], mem[16];
	uint64_t hash = upng_file_hash(path);
	unsigned long anchoraddr, delta;
	char line[128], ev[80], why[160];
	int i, n, err, kmsg = -1;

	if (getauxval(AT_HWCAP2) & variant->unless_hwcap2)
		SKIP(return, "%s: the CPU has the feature", variant->sym);
	ASSERT_EQ(0, upng_elf_sym(path, "refused_insns", &anchor));
	ASSERT_EQ(0, upng_elf_sym(path, INSN_GOOD, &good));
	ASSERT_EQ(0, upng_elf_sym(path, variant->sym, &bad));

	ASSERT_EQ(0, upng_spawn(&self->child, path, "serve", NULL));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), INSN_RECV_MS));
	n = sscanf(line, "ready %lx", &anchoraddr);
	ASSERT_EQ(1, n);
	delta = anchoraddr - anchor.value;
	run_once(_metadata, &self->child, &self->base);

	snprintf(ev, sizeof(ev), "%s_bad", self->ev);
	if (variant->reason) {
		kmsg = upng_kmsg_open();
		ASSERT_LE(0, kmsg);
	}
	ASSERT_EQ(0, upng_probe_add(ev, path, bad.offset, NULL));
	err = upng_probe_enable(ev, true);
	EXPECT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP_KERNEL ||
		    err == -EINVAL)
		TH_LOG("%s: enable returned %d", bad.name, err);
	EXPECT_EQ(0, upng_probe_enabled(ev));
	if (variant->reason) {
		snprintf(why, sizeof(why), ":0x%lx: cannot probe: %s (",
			 bad.offset, variant->reason);
		EXPECT_TRUE(kmsg_has(kmsg, "uprobe", why))
			TH_LOG("no \"%s\" line in the kernel log", why);
		close(kmsg);
	}
	ASSERT_EQ(0, upng_file_read(path, bad.offset, file, sizeof(file)));
	ASSERT_EQ(0, upng_mem_read(self->child.pid, bad.value + delta, mem,
				   sizeof(mem)));
	EXPECT_EQ(0, memcmp(file, mem, sizeof(mem))) TH_LOG("bytes changed");
	EXPECT_EQ(0, upng_probe_del(ev));

	/* The process is intact and a good probe still works in it. */
	ASSERT_EQ(0, upng_probe_add(self->ev, path, good.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	run_once(_metadata, &self->child, &self->after);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(1, upng_probe_hits(self->ev));
	ASSERT_EQ(self->base.n, self->after.n);
	for (i = 0; i < self->base.n; i++)
		EXPECT_STREQ(self->base.line[i], self->after.line[i]);
	ASSERT_EQ(0, upng_send(&self->child, "quit"));
	ASSERT_EQ(0, upng_finish(&self->child, INSN_RECV_MS));
	ASSERT_EQ(hash, upng_file_hash(path));
}

FIXTURE(edge) {
	struct upng_child child;
	struct insn_results base, after;
	char ev[64];
	const char *path;
	unsigned long delta;
};

FIXTURE_SETUP(edge)
{
	struct upng_sym anchor;
	unsigned long addr;
	char line[128];
	int n;

	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "edge");
	self->path = upng_path(INSN_BIN);
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(self->path, "refused_insns", &anchor));
	ASSERT_EQ(0, upng_spawn(&self->child, self->path, "serve", NULL));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), INSN_RECV_MS));
	n = sscanf(line, "ready %lx", &addr);
	ASSERT_EQ(1, n);
	self->delta = addr - anchor.value;
	run_once(_metadata, &self->child, &self->base);
}

FIXTURE_TEARDOWN(edge)
{
	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
}

static void check_intact(struct __test_metadata *_metadata,
			 struct upng_child *c, const struct insn_results *base,
			 struct insn_results *after)
{
	int i;

	run_once(_metadata, c, after);
	ASSERT_EQ(base->n, after->n);
	for (i = 0; i < base->n; i++)
		EXPECT_STREQ(base->line[i], after->line[i]);
	ASSERT_EQ(0, upng_send(c, "quit"));
	ASSERT_EQ(0, upng_finish(c, INSN_RECV_MS));
}

TEST_F_TIMEOUT(edge, beyond_end_of_file, 120)
{
	struct stat st;
	int err;

	ASSERT_EQ(0, stat(self->path, &st));
	/* Refused when the event is defined, or else when it is enabled. */
	err = upng_probe_add(self->ev, self->path, st.st_size + 4096, NULL);
	if (!err) {
		err = upng_probe_enable(self->ev, true);
		EXPECT_NE(0, err);
		EXPECT_EQ(0, upng_probe_enabled(self->ev));
	} else {
		EXPECT_EQ(-EINVAL, err);
	}
	check_intact(_metadata, &self->child, &self->base, &self->after);
}

TEST_F_TIMEOUT(edge, data_section, 120)
{
	unsigned char file[8], mem[8];
	struct upng_sym data;
	int err;

	/* v64 (.data): the value the load tests read, never written. */
	ASSERT_EQ(0, upng_elf_sym(self->path, "v64", &data));
	ASSERT_EQ(0, upng_probe_add(self->ev, self->path, data.offset, NULL));
	err = upng_probe_enable(self->ev, true);
	TH_LOG("enable on .data returned %d", err);
	ASSERT_EQ(0, upng_file_read(self->path, data.offset, file,
				    sizeof(file)));
	ASSERT_EQ(0, upng_mem_read(self->child.pid, data.value + self->delta,
				   mem, sizeof(mem)));
	EXPECT_EQ(0, memcmp(file, mem, sizeof(mem)));
	check_intact(_metadata, &self->child, &self->base, &self->after);
	EXPECT_EQ(0, upng_probe_hits(self->ev));
}

FIXTURE(unmapped) {
	char ev[64];
	int kmsg;
};

FIXTURE_SETUP(unmapped)
{
	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "unmapped");
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->kmsg);
	ASSERT_LE(0, lseek(self->kmsg, 0, SEEK_END));
}

FIXTURE_TEARDOWN(unmapped)
{
	close(self->kmsg);
	upng_probe_del(self->ev);
}

TEST_F_TIMEOUT(unmapped, refused_at_registration, 120)
{
	const char *path = upng_path(INSN_BIN);
	struct upng_sym bad;
	char where[64];
	int err;

	ASSERT_EQ(0, upng_elf_sym(path, INSN_BAD, &bad));
	ASSERT_EQ(0, upng_probe_add(self->ev, path, bad.offset, NULL));
	err = upng_probe_enable(self->ev, true);
	EXPECT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP_KERNEL)
		TH_LOG("enable returned %d", err);
	EXPECT_EQ(0, upng_probe_enabled(self->ev));
	snprintf(where, sizeof(where), ":0x%lx: cannot probe: ", bad.offset);
	EXPECT_TRUE(kmsg_has(self->kmsg, "uprobe", where))
		TH_LOG("no \"%s\" line in the kernel log", where);
}

/*
 * What CLIENT got (an fd or -errno) is the refusal's errno, and the
 * kernel log read from KMSG has a line with WHERE.
 */
static void expect_refused(struct __test_metadata *_metadata, int kmsg,
			   const char *client, int ret, const char *where)
{
	if (ret >= 0)
		close(ret);
	EXPECT_TRUE(ret == -EOPNOTSUPP || ret == -ENOTSUPP_KERNEL)
		TH_LOG("%s returned %d", client, ret);
	EXPECT_TRUE(kmsg_has(kmsg, "uprobe", where))
		TH_LOG("%s: no \"%s\" line in the kernel log", client, where);
}

/*
 * perf and BPF, which get only an errno, find the same reason in the
 * kernel log as uprobe_events: each refusal is logged, whichever client
 * asked, also when an earlier one was refused there.
 */
TEST_F_TIMEOUT(unmapped, refused_for_perf_and_bpf, 120)
{
	const char *path = upng_path(INSN_BIN);
	struct upng_sym bad;
	char where[64], log[4096];
	unsigned long off;
	int map, prog;

	ASSERT_EQ(0, upng_elf_sym(path, INSN_BAD, &bad));
	snprintf(where, sizeof(where), ":0x%lx: cannot probe: ", bad.offset);

	expect_refused(_metadata, self->kmsg, "perf_event_open()",
		       upng_perf_uprobe_open(path, bad.offset, 0, getpid()),
		       where);

	prog = upng_bpf_counter_prog(&map, log, sizeof(log));
	ASSERT_LE(0, prog) TH_LOG("%d: %s", prog, log);
	off = bad.offset;
	expect_refused(_metadata, self->kmsg, "BPF_LINK_CREATE",
		       upng_bpf_multi_link(prog, path, &off, 1, 0), where);
	close(prog);
	close(map);
}

/* 3 * n + 1: the probed function of a code file. */
#if defined(__x86_64__)
/* lea 0x1(%rdi,%rdi,2),%eax; ret */
static const unsigned char sem_code[] = { 0x8d, 0x44, 0x7f, 0x01, 0xc3 };
#elif defined(__aarch64__)
/* add w0, w0, w0, lsl #1; add w0, w0, #1; ret */
static const unsigned char sem_code[] = {
	0x00, 0x04, 0x00, 0x0b, 0x00, 0x04, 0x00, 0x11, 0xc0, 0x03, 0x5f, 0xd6,
};
#elif defined(__riscv)
/* slli a1, a0, 1; add a0, a0, a1; addi a0, a0, 1; ret */
static const unsigned char sem_code[] = {
	0x93, 0x15, 0x15, 0x00, 0x33, 0x05, 0xb5, 0x00, 0x13, 0x05, 0x15, 0x00,
	0x67, 0x80, 0x00, 0x00,
};
#elif defined(__s390x__)
/* mghi %r2,3; aghi %r2,1; br %r14 */
static const unsigned char sem_code[] = {
	0xa7, 0x2d, 0x00, 0x03, 0xa7, 0x2b, 0x00, 0x01, 0x07, 0xfe,
};
#endif

/* What a child of the semaphore case maps (see sem_child()). */
struct sem_map {
	const char *path;
	bool sem;
};

/*
 * A child that maps page 0 of the code file PATH executable and, with
 * SEM, page 2 (beyond the file's end) writable and private, before: it
 * sends the address of its code on ACK, then obeys commands on CMD: 'c'
 * calls the code ten times, 'q' exits. Each command is answered with
 * one byte: 'k', or 'e' when a result was wrong.
 */
static void sem_child(void *arg, int cmd, int ack)
{
	const struct sem_map *m = arg;
	bool sem = m->sem;
	long page = sysconf(_SC_PAGESIZE);
	int (*fn)(int) = NULL;
	int fd = open(m->path, O_RDONLY);
	void *code = MAP_FAILED;
	char c, r;
	int i, sum;

	if (fd >= 0 && (!sem || mmap(NULL, page, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE, fd, 2 * page) != MAP_FAILED))
		code = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			    fd, 0);
	if (code != MAP_FAILED)
		fn = code;
	if (write(ack, &fn, sizeof(fn)) != sizeof(fn) || !fn)
		_exit(1);
	while (read(cmd, &r, 1) == 1 && r == 'c') {
		for (i = 0, sum = 0; i < 10; i++)
			sum += fn(i);
		c = sum == 3 * 45 + 10 ? 'k' : 'e';
		if (write(ack, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

struct sem_proc {
	pid_t pid;
	int cmd, ack;
	unsigned long code;
};

static int sem_start(struct sem_proc *p, const char *path, bool sem)
{
	struct sem_map m = { .path = path, .sem = sem };

	p->pid = upng_fork_piped(sem_child, &m, &p->cmd, &p->ack);
	if (p->pid < 0 || read(p->ack, &p->code, sizeof(p->code)) !=
			  sizeof(p->code) || !p->code)
		return -ECHILD;
	return 0;
}

/* Ten calls in P: 0, or -EIO for a wrong result, or -ECHILD. */
static int sem_calls(struct sem_proc *p)
{
	char c = 'c';

	if (write(p->cmd, &c, 1) != 1 || read(p->ack, &c, 1) != 1)
		return -ECHILD;
	return c == 'k' ? 0 : -EIO;
}

/* Stop P; its exit status, or -1. */
static int sem_stop(struct sem_proc *p)
{
	int status;

	if (p->pid <= 0)
		return -1;
	close(p->cmd);
	close(p->ack);
	if (waitpid(p->pid, &status, 0) != p->pid)
		return -1;
	return status;
}

/*
 * A breakpoint goes in only where its semaphore is counted: a process
 * whose semaphore page cannot be written (it lies beyond the file's end:
 * SIGBUS) gets no breakpoint when it maps the probed code, and runs it
 * without a hit; one that maps no semaphore page gets the breakpoint
 * (its count waits for the page) and every hit.
 */
TEST_F_TIMEOUT(unmapped, semaphore_beyond_eof, 120)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sem_proc bad = { 0 }, good = { 0 };
	unsigned char buf[3 * 4096], mem[UPNG_BKPT_SIZE];
	char path[64];
	int fd;

	ASSERT_GE((long)sizeof(buf), 3 * page);
	snprintf(path, sizeof(path), "/tmp/upng_sem.%d", getpid());
	memset(buf, 0, sizeof(buf));
	memcpy(buf, sem_code, sizeof(sem_code));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	ASSERT_LE(0, fd);
	ASSERT_EQ(3 * page, write(fd, buf, 3 * page));
	ASSERT_EQ(0, upng_probe_add_sem(self->ev, path, 0, 2 * page + 0x10,
					NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(0, ftruncate(fd, 2 * page));
	close(fd);

	EXPECT_EQ(0, sem_start(&bad, path, true));
	EXPECT_EQ(0, sem_start(&good, path, false));
	if (bad.code) {
		EXPECT_EQ(0, upng_mem_read(bad.pid, bad.code, mem, sizeof(mem)));
		EXPECT_EQ(0, memcmp(sem_code, mem, sizeof(mem)))
			TH_LOG("a breakpoint its semaphore cannot count");
		EXPECT_EQ(0, sem_calls(&bad));
		EXPECT_EQ(0, upng_probe_hits(self->ev));
	}
	if (good.code) {
		EXPECT_EQ(0, upng_mem_read(good.pid, good.code, mem, sizeof(mem)));
		EXPECT_TRUE(upng_is_bkpt(mem));
		EXPECT_EQ(0, sem_calls(&good));
		EXPECT_EQ(10, upng_probe_hits(self->ev));
	}
	EXPECT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	if (good.code) {
		EXPECT_EQ(0, upng_mem_read(good.pid, good.code, mem, sizeof(mem)));
		EXPECT_EQ(0, memcmp(sem_code, mem, sizeof(mem)));
	}
	/* good, forked later, holds bad's command pipe too: it goes first. */
	EXPECT_EQ(0, sem_stop(&good));
	EXPECT_EQ(0, sem_stop(&bad));
	unlink(path);
}

/* Every insn_r_ site of the tables has a variant above. */
TEST(refused_sites_listed)
{
#if defined(__x86_64__)
	static const char * const bins[] = { "bin/insn64", "bin/insn32" };
	static const int nr[] = { 20, 14 };
#elif defined(__aarch64__)
	static const char * const bins[] = { "bin/insna64" };
	static const int nr[] = { 49 };
#elif defined(__riscv)
	static const char * const bins[] = { "bin/insnrv64" };
	static const int nr[] = { 10 };
#elif defined(__s390x__)
	static const char * const bins[] = { "bin/insns390" };
	static const int nr[] = { 17 };
#endif
	static struct upng_sym sym[64];
	unsigned int b;
	int n;

	for (b = 0; b < ARRAY_SIZE(bins); b++) {
		n = upng_elf_syms(upng_path(bins[b]), "insn_r_", sym, 64);
		ASSERT_EQ(nr[b], n) TH_LOG("%s", bins[b]);
	}
}

TEST_HARNESS_MAIN
