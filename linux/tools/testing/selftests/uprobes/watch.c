// SPDX-License-Identifier: GPL-2.0
/*
 * Debugger watchpoints and probes (arm64): a debugger's write watchpoint
 * (PTRACE_SETREGSET NT_ARM_HW_WATCH) on a variable stops the program
 * before the store that writes it, with the store's address in pc and
 * the variable's in si_addr, whether the store is probed or not, and
 * whether the engine simulates the probed store (str, stp) or steps it
 * out of line (str with a register offset).  The debugger then removes
 * its watchpoint, and the program goes on to store the value, once.
 *
 * The stores are in watch_a64.S, linked into this program; a child runs
 * them under the test's ptrace.
 */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "a64_sites.h"
#include "upng.h"

#ifndef NT_ARM_HW_WATCH
#define NT_ARM_HW_WATCH	0x403
#endif
#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT	4
#endif

#define WAIT_MS		20000

/* The watched variable: 16 bytes, 16-byte aligned (stp writes them all). */
static union {
	unsigned __int128 pair;
	long l[2];
} watched_u;
#define watched (watched_u.l)

struct hw_state {
	__u32 dbg_info;
	__u32 pad;
	struct {
		__u64 addr;
		__u32 ctrl;
		__u32 pad;
	} reg;
};

/* Write watchpoint 0 of PID on the 8 bytes at ADDR (0: removed). */
static int set_watch(pid_t pid, unsigned long addr)
{
	struct hw_state st;
	struct iovec iov = { &st, sizeof(st) };

	memset(&st, 0, sizeof(st));
	st.reg.addr = addr;
	/* 8 bytes (BAS), stores, EL0, enabled */
	if (addr)
		st.reg.ctrl = 0xff << 5 | 2 << 3 | 2 << 1 | 1;
	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_HW_WATCH, &iov);
}

/* Wait for PID within WAIT_MS; the status, or -ETIMEDOUT (PID killed). */
static int wait_ms(pid_t pid)
{
	long long end = upng_now_ms() + WAIT_MS;
	int status;
	pid_t r;

	do {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -errno;
		usleep(10000);
	} while (upng_now_ms() < end);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -ETIMEDOUT;
}

/*
 * A child calls FN(&watched[0], 0x5eed) under a write watchpoint on
 * watched[0]: the stop it must give, at AT, then the store.
 */
static void watch_store(struct __test_metadata *_metadata,
			long (*fn)(long *p, long v), const char *at)
{
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };
	siginfo_t si;
	int status;
	pid_t pid;

	watched[0] = 0;
	watched[1] = 0;
	pid = upng_fork_traced(&status);
	if (!pid) {
		fn(watched, 0x5eed);
		_exit(watched[0] == 0x5eed ? 0 : 11);
	}
	ASSERT_LT(0, pid) TH_LOG("status %#x", status);
	if (set_watch(pid, (unsigned long)watched)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		SKIP(return, "no hardware watchpoint: %s", strerror(errno));
	}
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	status = wait_ms(pid);
	EXPECT_TRUE(status >= 0 && WIFSTOPPED(status) &&
		    WSTOPSIG(status) == SIGTRAP)
		TH_LOG("no watchpoint stop: status %d (0x%x)", status, status);
	if (status >= 0 && WIFSTOPPED(status)) {
		EXPECT_EQ(0, ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
		EXPECT_EQ(TRAP_HWBKPT, si.si_code);
		EXPECT_EQ((unsigned long)watched, (unsigned long)si.si_addr);
		EXPECT_EQ(0, ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov));
		EXPECT_EQ((unsigned long)at, regs.pc)
			TH_LOG("stopped at %#llx, not at the store %p",
			       regs.pc, at);
		/* Not stored yet. */
		errno = 0;
		EXPECT_EQ(0, ptrace(PTRACE_PEEKDATA, pid, watched, NULL));
		EXPECT_EQ(0, errno);
		EXPECT_EQ(0, set_watch(pid, 0));
		EXPECT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		status = wait_ms(pid);
	}
	EXPECT_TRUE(status >= 0 && WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %d (0x%x)", status, status);
	if (status >= 0 && !WIFEXITED(status) && !WIFSIGNALED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
}

FIXTURE(watch) {
	char ev[64];
};

FIXTURE_VARIANT(watch) {
	const char *sym;
	long (*fn)(long *p, long v);
	const char *at;
	bool probed;
};

FIXTURE_VARIANT_ADD(watch, str_unprobed) {
	.sym = "wt_str_probe", .fn = wt_str, .at = wt_str_probe,
};

FIXTURE_VARIANT_ADD(watch, str_simulated) {
	.sym = "wt_str_probe", .fn = wt_str, .at = wt_str_probe,
	.probed = true,
};

FIXTURE_VARIANT_ADD(watch, stp_simulated) {
	.sym = "wt_stp_probe", .fn = wt_stp, .at = wt_stp_probe,
	.probed = true,
};

FIXTURE_VARIANT_ADD(watch, str_stepped) {
	.sym = "wt_strx_probe", .fn = wt_strx, .at = wt_strx_probe,
	.probed = true,
};

FIXTURE_SETUP(watch)
{
	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "watch");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(watch)
{
	upng_probe_del(self->ev);
}

TEST_F_TIMEOUT(watch, write_watchpoint, 120)
{
	struct upng_sym s;

	if (variant->probed) {
		ASSERT_EQ(0, upng_elf_sym(upng_self_path(), variant->sym, &s));
		ASSERT_EQ((unsigned long)variant->at, s.value);
		ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(),
					    s.offset, NULL));
		ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	}
	watch_store(_metadata, variant->fn, variant->at);
	if (variant->probed) {
		EXPECT_EQ(0, upng_probe_enable(self->ev, false));
		/* The hit before the stop; once more if the store restarted. */
		EXPECT_LE(1, upng_probe_hits(self->ev));
	}
}

TEST_HARNESS_MAIN
