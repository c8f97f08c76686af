// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes and pointer authentication (arm64): a function that signs
 * its return address (paciasp) authenticates it before it returns
 * (autiasp).  A return probe placed after the signing finds x30 signed:
 * diverting it to the trampoline would make the authentication fail
 * (SIGSEGV at the ret, or SIGILL with FEAT_FPAC), so it must be left
 * alone, whatever its value (a signed pointer whose authentication code
 * happens to be 0 looks like a plain one: 1 in 8 with 52-bit addresses,
 * 1 in 128 with 48-bit).  Many calls with different stack pointers (the
 * modifier) must all run right.  A return probe at the signing
 * instruction itself, and one in a function that signs nothing, see
 * every return.
 *
 * The functions are in pauth_a64.S, linked into this program; the calls
 * run in a child, which the test watches.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "a64_sites.h"
#include "upng.h"

#ifndef HWCAP_PACA
#define HWCAP_PACA	0x40000000UL	/* bit 30, as in <asm/hwcap.h> */
#endif

#define CALLS		2000
#define DEPTHS		61

/*
 * CALLS calls of FN(i) with varying sp, in a child: its exit status
 * (0: all right, 1: a wrong result), or the signal that killed it.
 */
static int run_calls(long (*fn)(long))
{
	int status;
	pid_t pid;
	long i;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		for (i = 0; i < CALLS; i++)
			if (pa_call(i, i % DEPTHS, fn) != 3 * i + 7)
				_exit(1);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

FIXTURE(pauth) {
	char in[64], ret[64];
};

FIXTURE_SETUP(pauth)
{
	upng_die_with_parent();
	upng_evname(self->in, sizeof(self->in), "pain");
	upng_evname(self->ret, sizeof(self->ret), "paret");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(pauth)
{
	upng_probe_del(self->in);
	upng_probe_del(self->ret);
}

/*
 * Entry and return probes at SYM of this program, CALLS calls of FN:
 * the child exits 0 (right results, no signal), every entry is counted,
 * and every return reported has the right value.  Returns the number of
 * returns reported.
 */
static long probe_calls(struct __test_metadata *_metadata,
			const char *in, const char *ret, const char *sym,
			long (*fn)(long))
{
	static unsigned long long vals[CALLS];
	unsigned long long seen[CALLS] = { 0 };
	struct upng_sym s;
	char *trace;
	int status;
	long n, i;

	if (!(getauxval(AT_HWCAP) & HWCAP_PACA))
		return -1;
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), sym, &s)) {
		return -1;
	}
	ASSERT_EQ(0, upng_probe_add(in, upng_self_path(), s.offset,
				    NULL)) {
		return -1;
	}
	ASSERT_EQ(0, upng_retprobe_add(ret, upng_self_path(), s.offset,
				       "v=" UPNG_RETVAL ":s64")) {
		return -1;
	}
	ASSERT_EQ(0, upng_probe_enable(in, true)) {
		return -1;
	}
	ASSERT_EQ(0, upng_probe_enable(ret, true)) {
		return -1;
	}
	status = run_calls(fn);
	EXPECT_EQ(0, upng_probe_enable(ret, false));
	EXPECT_EQ(0, upng_probe_enable(in, false));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("%s: status 0x%x: %s", sym, status,
		       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) :
		       "a wrong result");
	EXPECT_EQ(CALLS, upng_probe_hits(in));
	trace = upng_trace_read();
	EXPECT_NE(NULL, trace) {
		return -1;
	}
	n = upng_trace_values(trace, ret, "v=", vals, CALLS);
	free(trace);
	EXPECT_LE(n, CALLS);
	/* Each value 3i + 7, i < CALLS, at most once. */
	for (i = 0; i < n && i < CALLS; i++) {
		unsigned long long v = vals[i];

		EXPECT_TRUE(v >= 7 && (v - 7) % 3 == 0 &&
			    (v - 7) / 3 < CALLS && !seen[(v - 7) / 3]++)
			TH_LOG("return value %llu", v);
		if (_metadata->exit_code == KSFT_FAIL)
			break;
	}
	return n;
}

/*
 * A return probe right after paciasp, pacibsp: x30 is signed there, and
 * the returns are never diverted.
 */
TEST_F_TIMEOUT(pauth, after_signing_a, 300)
{
	if (probe_calls(_metadata, self->in, self->ret, "pa_sign_a_saved",
			pa_sign_a) < 0 && _metadata->exit_code != KSFT_FAIL)
		SKIP(return, "no pointer authentication");
}

TEST_F_TIMEOUT(pauth, after_signing_b, 300)
{
	if (probe_calls(_metadata, self->in, self->ret, "pa_sign_b_saved",
			pa_sign_b) < 0 && _metadata->exit_code != KSFT_FAIL)
		SKIP(return, "no pointer authentication");
}

/*
 * At the signing instruction, x30 is not signed yet: the function signs
 * the trampoline's address, authenticates it, and every return is seen.
 */
TEST_F_TIMEOUT(pauth, at_signing, 300)
{
	long n = probe_calls(_metadata, self->in, self->ret, "pa_sign_a",
			     pa_sign_a);

	if (n < 0 && _metadata->exit_code != KSFT_FAIL)
		SKIP(return, "no pointer authentication");
	EXPECT_EQ(CALLS, n);
}

/*
 * In a function that signs nothing, every return is seen too, also with
 * the probe past its first instruction.
 */
TEST_F_TIMEOUT(pauth, unsigned_function, 300)
{
	long n = probe_calls(_metadata, self->in, self->ret, "pa_plain_saved",
			     pa_plain);

	if (n < 0 && _metadata->exit_code != KSFT_FAIL)
		SKIP(return, "no pointer authentication");
	EXPECT_EQ(CALLS, n);
}

TEST_HARNESS_MAIN
