// SPDX-License-Identifier: GPL-2.0
/*
 * Guarded and tagged programs and probes (arm64): a program faults
 * exactly as it would unprobed.
 *
 * BTI: code mapped with PROT_BTI (a guarded page) may only be entered by
 * an indirect branch at a landing pad compatible with the branch's type
 * (PSTATE.BTYPE): bti c for calls (blr; br x16 or x17), bti j for jumps
 * (br from a guarded page), bti jc for both, paciasp as bti c.  Entering
 * elsewhere raises SIGILL at the target.  A probe's breakpoint is
 * compatible with every type, so a probed target must check what the
 * probed instruction would have, a simulated br must leave the type the
 * br would (a jump, from a guarded page), and a stepped paciasp, run from
 * the unguarded XOL page, must not take the check away.  The code is a
 * file written by the test and mapped with PROT_BTI.
 *
 * MTE: in asynchronous mode a store with a pointer whose tag does not
 * match the memory's is reported by SIGSEGV (SEGV_MTEAERR) at the next
 * entry to the kernel.  A probed store the engine simulates (with the
 * kernel's user access, not tag-checked in that mode) must be reported
 * too.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "a64_sites.h"
#include "upng.h"

#ifndef PROT_BTI
#define PROT_BTI		0x10
#endif
#ifndef PROT_MTE
#define PROT_MTE		0x20
#endif
#ifndef HWCAP2_BTI
#define HWCAP2_BTI		0x20000UL	/* bit 17, as in <asm/hwcap.h> */
#endif
#ifndef HWCAP2_MTE
#define HWCAP2_MTE		0x40000UL	/* bit 18 */
#endif
#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL	55
#define PR_TAGGED_ADDR_ENABLE	0x1UL
#endif
#ifndef PR_MTE_TCF_ASYNC
#define PR_MTE_TCF_ASYNC	0x4UL
#define PR_MTE_TAG_SHIFT	3
#endif
#ifndef SEGV_MTEAERR
#define SEGV_MTEAERR		8
#endif

/*
 * The guarded code, at these offsets:
 * G_TRAMP(x0, x1)  bti c; br x1: jumps (BTYPE 11) to x1
 * G_BTIC           bti c; mov x0, #1; ret
 * G_MOV            mov x0, #2; ret (no landing pad)
 * G_PAC            paciasp; autiasp; mov x0, #3; ret
 * G_BTIJ           bti j; mov x0, #4; ret
 */
enum {
	G_TRAMP = 0, G_BTIC = 0x10, G_MOV = 0x20, G_PAC = 0x30, G_BTIJ = 0x40,
	G_SIZE = 0x50
};

static const unsigned int gcode[G_SIZE / 4] = {
	[G_TRAMP / 4] = 0xd503245f, 0xd61f0020,
	[G_BTIC / 4] = 0xd503245f, 0xd2800020, 0xd65f03c0,
	[G_MOV / 4] = 0xd2800040, 0xd65f03c0,
	[G_PAC / 4] = 0xd503233f, 0xd50323bf, 0xd2800060, 0xd65f03c0,
	[G_BTIJ / 4] = 0xd503249f, 0xd2800080, 0xd65f03c0,
};

/* A function of the guarded code: x1 (TO) is G_TRAMP's target. */
typedef long (*gfn_t)(long x, unsigned char *to);

static sigjmp_buf fault_jmp;
static int fault_sig, fault_code;
static unsigned long fault_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	fault_sig = sig;
	fault_code = si->si_code;
	fault_addr = (unsigned long)si->si_addr;
	siglongjmp(fault_jmp, 1);
}

static int catch(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

FIXTURE(bti) {
	char path[64], ev[64];
	unsigned char *code;
};

FIXTURE_SETUP(bti)
{
	int fd;

	upng_die_with_parent();
	self->code = MAP_FAILED;
	upng_evname(self->ev, sizeof(self->ev), "bti");
	snprintf(self->path, sizeof(self->path), "/tmp/upng_bti.%d", getpid());
	if (!(getauxval(AT_HWCAP2) & HWCAP2_BTI))
		return;
	fd = open(self->path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 4096));
	ASSERT_EQ((ssize_t)sizeof(gcode), pwrite(fd, gcode, sizeof(gcode), 0));
	self->code = mmap(NULL, 4096, PROT_READ | PROT_EXEC | PROT_BTI,
			  MAP_PRIVATE, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, self->code);
	ASSERT_EQ(0, catch(SIGILL));
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(bti)
{
	upng_probe_del(self->ev);
	if (self->code != MAP_FAILED)
		munmap(self->code, 4096);
	unlink(self->path);
}

/*
 * Call (blr) the code at CALL with x1 = the code at TARGET: SIGILL (and
 * its si_addr in *ADDR) or 0, with the value returned in *VAL.
 */
static int gcall(unsigned char *code, int call, int target, long *val,
		 unsigned long *addr)
{
	gfn_t fn = (gfn_t)(code + call);

	fault_sig = 0;
	fault_addr = 0;
	*val = -1;
	if (!sigsetjmp(fault_jmp, 1))
		*val = fn(0, code + target);
	*addr = fault_addr;
	return fault_sig;
}

FIXTURE_VARIANT(bti) {
	int call, target;	/* blr to call, which goes to target */
	int probe;		/* the probed instruction */
};

/* A jump to bti c: the landing pad probed. */
FIXTURE_VARIANT_ADD(bti, jump_to_bti_c) {
	.call = G_TRAMP, .target = G_BTIC, .probe = G_BTIC,
};

/* The same, the br probed (simulated). */
FIXTURE_VARIANT_ADD(bti, probed_br_to_bti_c) {
	.call = G_TRAMP, .target = G_BTIC, .probe = G_TRAMP + 4,
};

/* A call to an instruction that is no landing pad, probed (simulated). */
FIXTURE_VARIANT_ADD(bti, call_to_mov) {
	.call = G_MOV, .target = G_MOV, .probe = G_MOV,
};

/* A jump to paciasp (bti c), probed (stepped). */
FIXTURE_VARIANT_ADD(bti, jump_to_paciasp) {
	.call = G_TRAMP, .target = G_PAC, .probe = G_PAC,
};

/* A jump to bti j, probed: no fault, probed or not. */
FIXTURE_VARIANT_ADD(bti, jump_to_bti_j) {
	.call = G_TRAMP, .target = G_BTIJ, .probe = G_BTIJ,
};

/* The same, the br probed. */
FIXTURE_VARIANT_ADD(bti, probed_br_to_bti_j) {
	.call = G_TRAMP, .target = G_BTIJ, .probe = G_TRAMP + 4,
};

/* A call to bti c, probed: no fault. */
FIXTURE_VARIANT_ADD(bti, call_to_bti_c) {
	.call = G_BTIC, .target = G_BTIC, .probe = G_BTIC,
};

TEST_F_TIMEOUT(bti, as_unprobed, 120)
{
	unsigned long addr0, addr;
	long val0, val;
	int sig0, sig, i;

	if (self->code == MAP_FAILED)
		SKIP(return, "no BTI");
	sig0 = gcall(self->code, variant->call, variant->target, &val0, &addr0);
	TH_LOG("unprobed: signal %d at %#lx, value %ld", sig0, addr0, val0);
	ASSERT_EQ(0, upng_probe_add(self->ev, self->path, variant->probe,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	for (i = 0; i < 2; i++) {
		sig = gcall(self->code, variant->call, variant->target, &val,
			    &addr);
		EXPECT_EQ(sig0, sig) TH_LOG("call %d", i);
		EXPECT_EQ(addr0, addr) TH_LOG("call %d", i);
		EXPECT_EQ(val0, val) TH_LOG("call %d", i);
	}
	EXPECT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(2, upng_probe_hits(self->ev));
}

/* Asynchronous tag check fault of a simulated store. */
TEST(mte_async_store)
{
	char ev[64];
	struct upng_sym s;
	long *mem, *bad;
	int i, round;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_MTE))
		SKIP(return, "no MTE");
	upng_die_with_parent();
	ASSERT_EQ(0, prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE |
			   PR_MTE_TCF_ASYNC | (0xfffeUL << PR_MTE_TAG_SHIFT),
			   0, 0, 0));
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_MTE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	/* The memory's tag is 0; this pointer's 3. */
	bad = (long *)((unsigned long)mem | 3UL << 56);
	ASSERT_EQ(0, catch(SIGSEGV));
	upng_evname(ev, sizeof(ev), "mte");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "wt_str_probe", &s));
	for (round = 0; round < 2; round++) {
		if (round) {
			ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(),
						    s.offset, NULL));
			ASSERT_EQ(0, upng_probe_enable(ev, true));
		}
		for (i = 0; i < 2; i++) {
			fault_sig = 0;
			fault_code = 0;
			if (!sigsetjmp(fault_jmp, 1)) {
				wt_str(bad, 0x5eed);
				/* the next entry to the kernel reports it */
				getppid();
			}
			EXPECT_EQ(SIGSEGV, fault_sig)
				TH_LOG("%s, call %d: no SIGSEGV",
				       round ? "probed" : "unprobed", i);
			EXPECT_EQ(SEGV_MTEAERR, fault_code)
				TH_LOG("%s, call %d", round ? "probed" :
				       "unprobed", i);
		}
	}
	EXPECT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(2, upng_probe_hits(ev));
	upng_probe_del(ev);
	prctl(PR_SET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	munmap(mem, 4096);
}

TEST_HARNESS_MAIN
