// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace coexistence: a tracer single-steps through a function with a
 * probed instruction (riscv, which has no hardware single-step: with its
 * breakpoints on the instruction that runs next, as gdb does there), and
 * plants its own breakpoint (int3, brk #0 on arm64, c.ebreak on riscv,
 * 0x0001 on s390) next to or on the probed instruction.  The tracer
 * must see the same stops (addresses, register values) as without the
 * probe, the probe must count its hits, and the traced program must
 * compute the right result.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"
#include "upng_regs.h"

#define ARG 7

/*
 * The register site_steps() computes in (rax; x0 on arm64, where
 * site_step2 multiplies by 3 with a stepped mul, the others are
 * simulated; r2 on s390, where all are stepped).
 */
#if defined(__aarch64__)
#define ACC(r)		((r)->regs[0])
#define ACC_ARG		"ax=%x0:x64"
#elif defined(__riscv)
#define ACC(r)		((r)->a0)
#define ACC_ARG		"ax=%a0:x64"
#elif defined(__s390x__)
#define ACC(r)		((r)->gprs[2])
#define ACC_ARG		"ax=%r2:x64"
#else
#define ACC(r)		((r)->rax)
#define ACC_ARG		"ax=%ax:x64"
#endif

static char *const step_sites[] = {
	site_step0, site_step1, site_step2, site_step3, site_step4,
};

/* The tracee of most cases: 0 when site_steps() computed the right value. */
static int run_steps(void)
{
	return site_steps(ARG) == SITE_STEPS(ARG) ? 0 : 1;
}

/*
 * Child: stop for the tracer, then exit with what BODY returns; it dies
 * with the tracer.
 */
static pid_t start_tracee(struct __test_metadata *_metadata, int (*body)(void))
{
	int status;
	pid_t pid;

	pid = upng_fork_traced(&status);
	if (!pid)
		_exit(body());
	EXPECT_LT(0, pid) TH_LOG("status %#x", status);
	EXPECT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, NULL,
			    (void *)PTRACE_O_EXITKILL));
	return pid;
}

/*
 * Plant the debugger's breakpoint at ADDR (read-modify-write of its
 * bytes, the first of the word in memory order), return the old bytes as
 * an instruction (upng_word_insn()), or -errno.
 */
static long set_bp(pid_t pid, unsigned long addr)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		return -errno;
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr,
		   (void *)upng_with_dbg_bkpt(word)))
		return -errno;
	return upng_word_insn(word, UPNG_DBG_BKPT_SIZE);
}

static int clear_bp(pid_t pid, unsigned long addr, long old)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		return -errno;
	upng_insn_put(&word, UPNG_DBG_BKPT_SIZE, old);
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word))
		return -errno;
	return 0;
}

/* Resume with REQ and wait for the next stop; the stop signal or -1. */
static int resume(pid_t pid, int req, struct user_regs_struct *regs)
{
	int status;

	if (req == PTRACE_SINGLESTEP) {
		/* riscv: breakpoints on what runs next (upng_regs.h). */
		status = upng_step(pid);
		if (status == -1 || !WIFSTOPPED(status))
			return -1;
	} else if (ptrace(req, pid, NULL, NULL) ||
		   waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		return -1;
	}
	if (upng_getregs(pid, regs))
		return -1;
	return WSTOPSIG(status);
}

/* Let the tracee run to its exit; its exit code, or -1. */
static int run_to_exit(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_CONT, pid, NULL, NULL))
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Run the tracee up to site_step0 with a temporary breakpoint there. */
static void run_to_entry(struct __test_metadata *_metadata, pid_t pid)
{
	unsigned long entry = (unsigned long)site_step0;
	struct user_regs_struct regs;
	long old;

	old = set_bp(pid, entry);
	ASSERT_LE(0, old);
	ASSERT_EQ(SIGTRAP, resume(pid, PTRACE_CONT, &regs));
	ASSERT_EQ(upng_dbg_bkpt_pc(entry), UPNG_REGS_PC(&regs));
	ASSERT_EQ(0, clear_bp(pid, entry, old));
	UPNG_REGS_PC(&regs) = entry;
	ASSERT_EQ(0, upng_setregs(pid, &regs));
}

FIXTURE(ptrace) {
	char ev[64];
	pid_t pid;
};

FIXTURE_VARIANT(ptrace) {
	int probe;	/* index into step_sites of the probed instruction */
	int bp;		/* index of the tracer's own breakpoint */
};

FIXTURE_VARIANT_ADD(ptrace, probe_add_bp_after) { .probe = 1, .bp = 2 };
FIXTURE_VARIANT_ADD(ptrace, probe_imul_bp_before) { .probe = 2, .bp = 1 };
FIXTURE_VARIANT_ADD(ptrace, probe_xor_bp_after) { .probe = 3, .bp = 4 };
FIXTURE_VARIANT_ADD(ptrace, probe_ret_bp_before) { .probe = 4, .bp = 3 };

FIXTURE_SETUP(ptrace)
{
	unsigned long addr = (unsigned long)step_sites[variant->probe];
	struct upng_sym sym;
	char name[32];

	upng_die_with_parent();
	self->pid = 0;
	snprintf(name, sizeof(name), "site_step%d", variant->probe);
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), name, &sym));
	ASSERT_EQ(addr, sym.value);
	upng_evname(self->ev, sizeof(self->ev), "ptrace");
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    ACC_ARG));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
}

FIXTURE_TEARDOWN(ptrace)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	upng_probe_del(self->ev);
}

/* The accumulator after site_step[i] ran (pc at site_step[i + 1]). */
static unsigned long rax_after(int i)
{
	switch (i) {
	case 0:
		return ARG;
	case 1:
		return ARG + 5;
	case 2:
		return (ARG + 5) * 3;
	default:
		return SITE_STEPS(ARG);
	}
}

TEST_F_TIMEOUT(ptrace, singlestep_through_probe, 120)
{
	struct user_regs_struct regs;
	unsigned long ret_addr, expect;
	int i;

	self->pid = start_tracee(_metadata, run_steps);
	run_to_entry(_metadata, self->pid);
	ASSERT_EQ(0, upng_getregs(self->pid, &regs));
#if defined(__aarch64__)
	ret_addr = regs.regs[30];
#elif defined(__riscv)
	ret_addr = regs.ra;
#elif defined(__s390x__)
	ret_addr = regs.gprs[14];
#else
	errno = 0;
	ret_addr = ptrace(PTRACE_PEEKDATA, self->pid, (void *)regs.rsp, NULL);
	ASSERT_EQ(0, errno);
#endif

	/* One stop after each instruction, probed or not. */
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(SIGTRAP, resume(self->pid, PTRACE_SINGLESTEP, &regs))
			TH_LOG("step %d", i);
		expect = i < 4 ? (unsigned long)step_sites[i + 1] : ret_addr;
		ASSERT_EQ(expect, UPNG_REGS_PC(&regs)) TH_LOG("step %d", i);
		ASSERT_EQ(rax_after(i), ACC(&regs)) TH_LOG("step %d", i);
	}
	ASSERT_EQ(0, run_to_exit(self->pid));
	self->pid = 0;
	ASSERT_EQ(1, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(ptrace, breakpoint_beside_probe, 120)
{
	unsigned long bp = (unsigned long)step_sites[variant->bp];
	struct user_regs_struct regs;
	long old;

	self->pid = start_tracee(_metadata, run_steps);
	old = set_bp(self->pid, bp);
	ASSERT_LE(0, old);
	ASSERT_FALSE(upng_is_dbg_bkpt(old));
	ASSERT_EQ(SIGTRAP, resume(self->pid, PTRACE_CONT, &regs));
	ASSERT_EQ(upng_dbg_bkpt_pc(bp), UPNG_REGS_PC(&regs));
	ASSERT_EQ(variant->bp ? rax_after(variant->bp - 1) : ARG, ACC(&regs));
	ASSERT_EQ(0, clear_bp(self->pid, bp, old));
	UPNG_REGS_PC(&regs) = bp;
	ASSERT_EQ(0, upng_setregs(self->pid, &regs));
	ASSERT_EQ(0, run_to_exit(self->pid));
	self->pid = 0;
	ASSERT_EQ(1, upng_probe_hits(self->ev));
}

/*
 * The tracer plants its int3 on the probed instruction while the probe is
 * active (reading back the probe's own int3 as the "original" byte, as a
 * debugger would).  Neither may break the other: the program computes the
 * right result, the probe hits once, and if the tracer gets a stop it is
 * a SIGTRAP right after the probed address with the state from before the
 * instruction.  (The 6.12 engine consumes the tracer's trap: no stop.)
 * On arm64 the same with brk #0 over the probe's brk, the stop on it.
 */
TEST_F_TIMEOUT(ptrace, breakpoint_on_probe, 120)
{
	unsigned long addr = (unsigned long)step_sites[variant->probe];
	struct user_regs_struct regs;
	int status;
	long old;

	self->pid = start_tracee(_metadata, run_steps);
	old = set_bp(self->pid, addr);
	ASSERT_LE(0, old);
	ASSERT_EQ(0, ptrace(PTRACE_CONT, self->pid, NULL, NULL));
	ASSERT_EQ(self->pid, waitpid(self->pid, &status, 0));
	if (WIFSTOPPED(status)) {
		ASSERT_EQ(SIGTRAP, WSTOPSIG(status));
		ASSERT_EQ(0, upng_getregs(self->pid, &regs));
		ASSERT_EQ(upng_dbg_bkpt_pc(addr), UPNG_REGS_PC(&regs));
		ASSERT_EQ(rax_after(variant->probe - 1), ACC(&regs));
		ASSERT_EQ(0, clear_bp(self->pid, addr, old));
		UPNG_REGS_PC(&regs) = addr;
		ASSERT_EQ(0, upng_setregs(self->pid, &regs));
		ASSERT_EQ(0, run_to_exit(self->pid));
		TH_LOG("the tracer got its stop");
	} else {
		ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
		ASSERT_EQ(0, WEXITSTATUS(status));
		TH_LOG("the tracer's trap was taken by the probe");
	}
	self->pid = 0;
	ASSERT_EQ(1, upng_probe_hits(self->ev));
}

#if defined(__x86_64__)
/* The tracee's debug register @n (DR0..DR7) set to @val; 0 or -errno. */
static int set_dr(pid_t pid, int n, unsigned long val)
{
	size_t off = offsetof(struct user, u_debugreg) + n * sizeof(long);

	return ptrace(PTRACE_POKEUSER, pid, (void *)off, (void *)val) ?
	       -errno : 0;
}

/* The watchpoint case's tracee: 0 when the probed store stored its value. */
static int run_ripstore(void)
{
	return site_ripstore(0x5eed) == 0x5eed ? 0 : 1;
}

/*
 * Whether this runs in a QEMU guest without KVM (TCG): its CPU is
 * QEMU's and no kvm-clock is there.
 */
static bool tcg_guest(void)
{
	char buf[4096];
	bool qemu;

	if (upng_read_file("/proc/cpuinfo", buf, sizeof(buf)) < 0)
		return false;
	qemu = strstr(buf, "QEMU");
	if (upng_read_file("/sys/devices/system/clocksource/clocksource0/available_clocksource",
			   buf, sizeof(buf)) < 0)
		return qemu;
	return qemu && !strstr(buf, "kvm-clock");
}

/*
 * A debugger's watchpoint ("watch" in gdb: DR0 on site_ripdata[0], for
 * writes of 8 bytes) and a probe on the store that writes it, which the
 * engine would emulate: the store still triggers the watchpoint, the
 * tracee stops right after it, as without the probe (the engine steps
 * such a store while a hardware breakpoint is set). The old engine's
 * emulation skipped the watchpoint (failed on aad35c2). Under QEMU's TCG
 * the step loops the kernel's #DB handler, on stock as on ours: the case
 * runs on hardware and under KVM.
 */
TEST(watchpoint_on_emulated_store)
{
	struct user_regs_struct regs;
	struct upng_sym sym;
	int status;
	char ev[64];
	pid_t pid;

	if (tcg_guest())
		SKIP(return, "QEMU TCG: a watchpoint hit in a step loops #DB (stock too)");
	upng_die_with_parent();
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_ripstore_probe",
				  &sym));
	upng_evname(ev, sizeof(ev), "watch");
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	pid = start_tracee(_metadata, run_ripstore);
	/* It checked the fork and the stop: go no further without them. */
	ASSERT_EQ(KSFT_PASS, _metadata->exit_code);
	ASSERT_EQ(0, set_dr(pid, 0, (unsigned long)site_ripdata));
	/* L0, R/W0 = 01 (writes), LEN0 = 10 (8 bytes) */
	ASSERT_EQ(0, set_dr(pid, 7, 0x1 | 0x1UL << 16 | 0x2UL << 18));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP)
		TH_LOG("status %#x: the watchpoint did not fire", status);
	if (WIFSTOPPED(status)) {
		ASSERT_EQ(0, upng_getregs(pid, &regs));
		EXPECT_EQ((unsigned long)site_ripstore_probe + 7,
			  UPNG_REGS_PC(&regs));
		ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	}
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("status %#x", status);
	EXPECT_EQ(1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}
#endif

TEST_HARNESS_MAIN
