// SPDX-License-Identifier: GPL-2.0
/*
 * A debugger's breakpoint on a probed instruction. The test is the
 * debugger: it attaches to a child that calls a probed function N times
 * per command, and plants its own int3 on the probed instruction with
 * PTRACE_POKETEXT of the word it read (which shows the program's byte).
 *
 *   int3.stops_each_call  every call stops the child with SIGTRAP at the
 *                         int3 (ip after it, si_code SI_KERNEL) after the
 *                         probe counted it; the debugger's step over its
 *                         breakpoint (written back, ip back, single-step)
 *                         ends after the instruction and counts nothing
 *                         more: one hit per call; the debugger's int3 is
 *                         what a reader sees there
 *   int3.deleted_at_stop  a breakpoint taken out at its stop and the child
 *                         continued on it counts that call once
 *   int3.stepped_elsewhere the debugger executes the instruction itself
 *                         and moves ip past it (as gdb's displaced
 *                         stepping ends): the next call is a hit of its
 *                         own, the instruction no second one
 *   int3.probe_goes       a probe removed under the debugger's int3 leaves
 *                         the int3, which stops the child, not counted;
 *                         the debugger's write of what it read restores
 *                         the file's byte
 *   int3.gone_at_stop     the probe and then the debugger's int3 gone
 *                         at the stop, the child continued on the
 *                         instruction: the probe enabled again counts
 *                         the next call
 *   int3.kept_after       once the debugger took its int3 out and left,
 *                         the probe's breakpoint is there and counts
 *   int3.probe_toggled    the probe disabled and enabled over and over
 *                         while the debugger stops and steps: every call
 *                         stops on the debugger's int3 (a probe enabled
 *                         over it leaves it the debugger's), the child's
 *                         results are right, it runs on once the
 *                         debugger left; never more hits than calls
 *   jump.stops_each_call  the same on a five-byte nop the probe made a
 *                         jump to a stub: the debugger's int3 over the
 *                         jump's first byte, a step over it through the
 *                         jump, a probe removed under it
 *
 * On arm64 the debugger's breakpoint is brk #0 over the probe's brk #5
 * (four bytes each, upng_regs.h), its SIGTRAP has si_code TRAP_BRKPT and
 * pc on the brk; the probed instructions are a register move (asr #0:
 * stepped) and a nop (simulated); nothing becomes a jump (no jump cases).
 *
 * On s390 also (rseq_abort_under_debugger_breakpoint): gdb's breakpoint
 * over a probe in an rseq critical section whose hit aborts the section
 * stops the program only when it gets there again.
 *
 * Needs our engine (debugfs uprobes/hide_breakpoints): on the stock one
 * the debugger's int3 is taken as the probe's and the cases are skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/rseq.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"
#include "upng_regs.h"

#define ACK_MS		30000

/*
 * The child: for each byte N read on CMD, calls the function ARG N
 * times, checks the results and answers 'k' (or 'e') on ACK.
 */
static void calls_child(void *arg, int cmd, int ack)
{
	long (*fn)(long x) = arg;
	unsigned char n;
	char c;
	long i;

	while (read(cmd, &n, 1) == 1) {
		c = 'k';
		for (i = 0; i < n; i++)
			if (fn(i) != i * 3 + 1)
				c = 'e';
		if (write(ack, &c, 1) != 1)
			break;
	}
	_exit(0);
}

FIXTURE(int3) {
	pid_t pid;
	int cmd, ack;
	char ev[64];
	unsigned long addr;	/* the probed instruction */
	long word;		/* the word there, as the debugger reads it */
	long file0;		/* the file's byte there (arm64: 4 bytes) */
};

FIXTURE_VARIANT(int3) {
	long (*fn)(long x);
	const char *sym;
	int len;		/* of the probed instruction */
};

#if defined(__aarch64__)
FIXTURE_VARIANT_ADD(int3, mov) {
	.fn = site_mov, .sym = "site_mov", .len = 4,
};

FIXTURE_VARIANT_ADD(int3, nop) {
	.fn = site_nop1, .sym = "site_nop1", .len = 4,
};
#elif defined(__riscv) || defined(__s390x__)
/*
 * riscv: addi t1, a0, 0 (4 bytes) and c.nop (2), both stepped; s390:
 * lgr %r1, %r2 (4 bytes) and bcr 0, %r0 (2).
 */
FIXTURE_VARIANT_ADD(int3, mov) {
	.fn = site_mov, .sym = "site_mov", .len = 4,
};

FIXTURE_VARIANT_ADD(int3, nop) {
	.fn = site_nop1, .sym = "site_nop1", .len = 2,
};
#else
FIXTURE_VARIANT_ADD(int3, mov) {
	.fn = site_mov, .sym = "site_mov", .len = 3,
};

FIXTURE_VARIANT_ADD(int3, nop) {
	.fn = site_nop1, .sym = "site_nop1", .len = 1,
};
#endif

/*
 * The first bytes of WORD (in memory order), where a breakpoint goes, as
 * an instruction of the debugger's breakpoint's size.
 */
static long low(long word)
{
	return upng_word_insn(word, UPNG_DBG_BKPT_SIZE);
}

/*
 * The first bytes at ADDR of PID as they are (breakpoints shown): its
 * first byte on x86 (upng_shown_byte()), its instruction on arm64; or
 * -errno.
 */
static long shown(pid_t pid, unsigned long addr)
{
	unsigned char b[UPNG_BKPT_SIZE];
	int err = upng_shown_read(pid, addr, b, sizeof(b));

	if (err)
		return err;
	return upng_insn_val(b, sizeof(b));
}

static int poke(pid_t pid, unsigned long addr, long word)
{
	return ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word) ?
	       -errno : 0;
}

static long peek(pid_t pid, unsigned long addr)
{
	errno = 0;
	return ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
}

/* A word read at a breakpoint's address, with the debugger's int3. */
static long with_int3(long word)
{
	return upng_with_dbg_bkpt(word);
}

/* Kills and reaps the child PID (if any) and closes its pipes. */
static void end_child(pid_t pid, int cmd, int ack)
{
	int status;

	if (pid <= 0)
		return;
	close(cmd);
	close(ack);
	kill(pid, SIGKILL);
	waitpid(pid, &status, __WALL);
}

static unsigned long get_ip(pid_t pid)
{
	struct user_regs_struct regs;

	if (upng_getregs(pid, &regs))
		return 0;
	return UPNG_REGS_PC(&regs);
}

static int set_ip(pid_t pid, unsigned long ip)
{
	struct user_regs_struct regs;
	int err = upng_getregs(pid, &regs);

	if (err)
		return err;
	UPNG_REGS_PC(&regs) = ip;
	return upng_setregs(pid, &regs);
}

/*
 * Waits for the traced PID to stop with SIGTRAP (1), or to answer on ACK
 * (0, the answer in *C); -1 on another stop, an exit or a timeout.
 */
static int next_event(pid_t pid, int ack, char *c)
{
	struct pollfd p = { .fd = ack, .events = POLLIN };
	long long end = upng_now_ms() + ACK_MS;
	int status;
	pid_t w;

	while (upng_now_ms() < end) {
		w = waitpid(pid, &status, __WALL | WNOHANG);
		if (w == pid)
			return WIFSTOPPED(status) &&
			       WSTOPSIG(status) == SIGTRAP ? 1 : -1;
		if (w < 0)
			return -1;
		if (poll(&p, 1, 10) == 1)
			return read(ack, c, 1) == 1 ? 0 : -1;
	}
	return -1;
}

/*
 * Single-steps the stopped PID from ADDR (its ip set there); the ip after
 * the step's SIGTRAP, or 0.
 */
static unsigned long step_from(pid_t pid, unsigned long addr)
{
	int status;

	if (set_ip(pid, addr))
		return 0;
	status = upng_step(pid);
	if (status == -1 || !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP)
		return 0;
	return get_ip(pid);
}

/*
 * Checks that the child is stopped by the debugger's int3 at ADDR: ip
 * after the int3, SIGTRAP from the kernel, the probe EV counted HITS.
 * (arm64: pc on the brk, SIGTRAP with TRAP_BRKPT.)
 */
static void at_int3(struct __test_metadata *_metadata, pid_t pid,
		    unsigned long addr, const char *ev, long hits)
{
	siginfo_t si;

	EXPECT_EQ(upng_dbg_bkpt_pc(addr), get_ip(pid));
	ASSERT_EQ(0, ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(UPNG_DBG_SI_CODE, si.si_code);
	EXPECT_EQ(hits, upng_probe_hits(ev));
}

FIXTURE_SETUP(int3)
{
	struct upng_sym sym;
	int err;

	upng_die_with_parent();
	self->pid = 0;
	upng_evname(self->ev, sizeof(self->ev), "dbg");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), variant->sym, &sym));
	self->addr = (unsigned long)variant->fn;
	self->file0 = low(*(long *)variant->fn);
	self->pid = upng_fork_piped(calls_child, variant->fn, &self->cmd,
				    &self->ack);
	ASSERT_LT(0, self->pid);
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(UPNG_BKPT, shown(self->pid, self->addr));

	/* The debugger reads the program's byte and plants its int3. */
	ASSERT_EQ(0, upng_ptrace_attach(self->pid));
	self->word = peek(self->pid, self->addr);
	ASSERT_EQ(0, errno);
	ASSERT_EQ(self->file0, low(self->word));
	ASSERT_EQ(0, poke(self->pid, self->addr, with_int3(self->word)));
	/* Its own byte is what it reads there now. */
	EXPECT_EQ(UPNG_DBG_BKPT, low(peek(self->pid, self->addr)));
}

FIXTURE_TEARDOWN(int3)
{
	end_child(self->pid, self->cmd, self->ack);
	upng_probe_del(self->ev);
	upng_hide_breakpoints(false);
}

/* Asks the child for N calls; 0 or -1. */
static int ask(FIXTURE_DATA(int3) * self, unsigned char n)
{
	return write(self->cmd, &n, 1) == 1 ? 0 : -1;
}

TEST_F_TIMEOUT(int3, stops_each_call, 120)
{
	pid_t pid = self->pid;
	char c = 0;
	int i;

	ASSERT_EQ(0, ask(self, 3));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, next_event(pid, self->ack, &c)) TH_LOG("call %d", i);
		at_int3(_metadata, pid, self->addr, self->ev, i + 1);
		/* Its breakpoint out, ip back on it, one step. */
		ASSERT_EQ(0, poke(pid, self->addr, self->word));
		ASSERT_EQ(self->addr + variant->len, step_from(pid, self->addr));
		EXPECT_EQ(i + 1, upng_probe_hits(self->ev));
		/* Its breakpoint back in, and on. */
		ASSERT_EQ(0, poke(pid, self->addr, with_int3(self->word)));
		ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	}
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(3, upng_probe_hits(self->ev));
	/* Stopped to look: the debugger's int3 is what readers see. */
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(0, waitpid(pid, NULL, __WALL) == pid ? 0 : -1);
	EXPECT_EQ(UPNG_DBG_BKPT, low(peek(pid, self->addr)));
	EXPECT_EQ(UPNG_DBG_BKPT, shown(pid, self->addr));
}

/*
 * A process of its own: maps 64 KiB of a file's code privately and
 * writes the debugger's breakpoint all over it through /proc/self/mem,
 * then says so on @done and waits to be killed.
 */
static void __noreturn int3_filler(int done)
{
	const size_t len = 64 << 10;
	unsigned char *fill = malloc(len);
	int fd = open(upng_self_path(), O_RDONLY | O_CLOEXEC);
	void *p;
	size_t i;

	p = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_EXEC,
				       MAP_PRIVATE, fd, 0);
	if (!fill || p == MAP_FAILED)
		_exit(1);
	for (i = 0; i < len; i += UPNG_DBG_BKPT_SIZE)
		upng_insn_put(fill + i, UPNG_DBG_BKPT_SIZE, UPNG_DBG_BKPT);
	if (upng_mem_write(getpid(), (unsigned long)p, fill, len) ||
	    write(done, "f", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

/*
 * Another process fills its own code with int3s (a JIT, or anyone, may):
 * the debugger's breakpoint over our probe in this child still stops it.
 */
TEST_F_TIMEOUT(int3, others_int3s, 120)
{
	pid_t pid = self->pid, filler;
	int done[2], status;
	char c = 0;

	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	ASSERT_EQ(0, pipe(done));
	filler = fork();
	ASSERT_LE(0, filler);
	if (!filler)
		int3_filler(done[1]);
	ASSERT_EQ(1, read(done[0], &c, 1));
	ASSERT_EQ(0, poke(pid, self->addr, with_int3(self->word)));
	ASSERT_EQ(0, ask(self, 1));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	EXPECT_EQ(1, next_event(pid, self->ack, &c))
		TH_LOG("the debugger's breakpoint did not stop the child");
	kill(filler, SIGKILL);
	waitpid(filler, &status, 0);
	at_int3(_metadata, pid, self->addr, self->ev, 1);
}

TEST_F_TIMEOUT(int3, deleted_at_stop, 120)
{
	pid_t pid = self->pid;
	char c = 0;

	ASSERT_EQ(0, ask(self, 3));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->addr, self->ev, 1);
	/* gdb's "delete" and "continue": out for good, ip back, on. */
	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	EXPECT_EQ(self->file0, low(peek(pid, self->addr)));
	ASSERT_EQ(0, set_ip(pid, self->addr));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(3, upng_probe_hits(self->ev));
}

/*
 * The debugger executes the probed instruction (site_mov's for MOV, a
 * nop otherwise) itself; 0 or -errno.
 */
static int execute(pid_t pid, unsigned long addr, int len, bool mov)
{
	struct user_regs_struct regs;
	int err = upng_getregs(pid, &regs);

	if (err)
		return err;
#if defined(__aarch64__)
	if (mov)		/* asr x9, x0, #0 */
		regs.regs[9] = regs.regs[0];
#elif defined(__riscv)
	if (mov)		/* addi t1, a0, 0 */
		regs.t1 = regs.a0;
#elif defined(__s390x__)
	if (mov)		/* lgr %r1, %r2 */
		regs.gprs[1] = regs.gprs[2];
#else
	if (mov)		/* mov %rdi, %rax */
		regs.rax = regs.rdi;
#endif
	UPNG_REGS_PC(&regs) = addr + len;
	return upng_setregs(pid, &regs);
}

TEST_F_TIMEOUT(int3, stepped_elsewhere, 120)
{
	pid_t pid = self->pid;
	char c = 0;

	ASSERT_EQ(0, ask(self, 2));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->addr, self->ev, 1);
	/* Executed by the debugger, its breakpoint left in: the next call. */
	ASSERT_EQ(0, execute(pid, self->addr, variant->len,
			     variant->fn == site_mov));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->addr, self->ev, 2);
	ASSERT_EQ(0, execute(pid, self->addr, variant->len,
			     variant->fn == site_mov));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(2, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(int3, probe_goes, 120)
{
	pid_t pid = self->pid;
	char c = 0;

	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	EXPECT_EQ(UPNG_DBG_BKPT, shown(pid, self->addr));
	EXPECT_EQ(UPNG_DBG_BKPT, low(peek(pid, self->addr)));
	ASSERT_EQ(0, ask(self, 2));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->addr, self->ev, 0);
	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	EXPECT_EQ(self->file0, shown(pid, self->addr));
	ASSERT_EQ(0, set_ip(pid, self->addr));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(0, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(int3, gone_at_stop, 120)
{
	pid_t pid = self->pid;
	char c = 0;

	ASSERT_EQ(0, ask(self, 1));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->addr, self->ev, 1);
	/* At the stop the probe goes, then the debugger's breakpoint. */
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	EXPECT_EQ(self->file0, shown(pid, self->addr));
	ASSERT_EQ(0, set_ip(pid, self->addr));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	/* The probe back: the next call is a hit of its own. */
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(0, ask(self, 1));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(2, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(int3, kept_after, 120)
{
	pid_t pid = self->pid;
	char c = 0;

	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	EXPECT_EQ(UPNG_BKPT, shown(pid, self->addr));
	ASSERT_EQ(0, ask(self, 10));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(10, upng_probe_hits(self->ev));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	EXPECT_EQ(self->file0, shown(pid, self->addr));
}

struct toggler {
	const char *ev;
	int stop;
	long rounds;
};

/* Disables and enables the probe until told to stop. */
static void *toggle_probe(void *arg)
{
	struct toggler *t = arg;

	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED)) {
		if (upng_probe_enable(t->ev, false) ||
		    upng_probe_enable(t->ev, true))
			break;
		t->rounds++;
		usleep(1000);
	}
	return NULL;
}

TEST_F_TIMEOUT(int3, probe_toggled, 300)
{
	struct toggler t = { .ev = self->ev };
	int rounds = 20, stops = 0, i, ev;
	pid_t pid = self->pid;
	pthread_t thread;
	char c = 0;

	ASSERT_EQ(0, pthread_create(&thread, NULL, toggle_probe, &t));
	for (i = 0; i < rounds; i++) {
		int round_stops = 0;

		ASSERT_EQ(0, ask(self, 50));
		ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		while ((ev = next_event(pid, self->ack, &c)) == 1) {
			/* Only ever the debugger's own breakpoint. */
			ASSERT_EQ(upng_dbg_bkpt_pc(self->addr), get_ip(pid));
			stops++;
			round_stops++;
			ASSERT_EQ(0, poke(pid, self->addr, self->word));
			ASSERT_EQ(self->addr + variant->len,
				  step_from(pid, self->addr));
			ASSERT_EQ(0, poke(pid, self->addr, with_int3(self->word)));
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		}
		ASSERT_EQ(0, ev) TH_LOG("round %d", i);
		ASSERT_EQ('k', c);
		/* Stopped between rounds, its breakpoint kept. */
		ASSERT_EQ(0, kill(pid, SIGSTOP));
		ASSERT_EQ(pid, waitpid(pid, NULL, __WALL));
		/* Each call stopped; the debugger reads its breakpoint. */
		EXPECT_EQ(UPNG_DBG_BKPT, low(peek(pid, self->addr)))
			TH_LOG("round %d: %d stops, memory 0x%lx", i,
			       round_stops, shown(pid, self->addr));
		ASSERT_EQ(50, round_stops) TH_LOG("round %d", i);
	}
	__atomic_store_n(&t.stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	TH_LOG("%d stops in %d calls, %ld toggles", stops, 50 * rounds,
	       t.rounds);
	EXPECT_LT(0, t.rounds);
	/* Probe or not, each call stopped on the debugger's int3. */
	EXPECT_EQ(50 * rounds, stops);
	EXPECT_GE(50 * rounds, upng_probe_hits(self->ev));
	/* Out, detached: the child runs on, its results right. */
	ASSERT_EQ(0, poke(pid, self->addr, self->word));
	ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	ASSERT_EQ(0, ask(self, 50));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
}

#if defined(__x86_64__)
FIXTURE(jump) {
	pid_t pid;
	int cmd, ack;
	char ev[64];
	unsigned long site;
	unsigned char nop5[5], jmp[5];
	long word;
};

/* The site's five bytes in the child as they are (breakpoints shown). */
static void nop5_mem(struct __test_metadata *_metadata, pid_t pid,
		     unsigned long site, unsigned char *mem)
{
	ASSERT_EQ(0, upng_shown_read(pid, site, mem, 5));
}

FIXTURE_SETUP(jump)
{
	struct upng_sym sym;
	char c = 0;
	int err;

	upng_die_with_parent();
	self->pid = 0;
	upng_evname(self->ev, sizeof(self->ev), "dbgj");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_nop5_probe", &sym));
	self->site = (unsigned long)site_nop5_probe;
	memcpy(self->nop5, site_nop5_probe, sizeof(self->nop5));
	ASSERT_EQ(0x0f, self->nop5[0]);
	self->pid = upng_fork_piped(calls_child, site_nop5, &self->cmd,
				    &self->ack);
	ASSERT_LT(0, self->pid);
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	/* The first hit makes the nop a jump. */
	c = 1;
	ASSERT_EQ(1, write(self->cmd, &c, 1));
	ASSERT_EQ(0, next_event(self->pid, self->ack, &c));
	ASSERT_EQ('k', c);
	nop5_mem(_metadata, self->pid, self->site, self->jmp);
	ASSERT_EQ(0xe9, self->jmp[0]) TH_LOG("no jump at the site");

	/* A debugger reads the nop and plants its int3 over the jump. */
	ASSERT_EQ(0, upng_ptrace_attach(self->pid));
	self->word = peek(self->pid, self->site);
	ASSERT_EQ(0, errno);
	ASSERT_EQ(0, memcmp(&self->word, self->nop5, 5));
	ASSERT_EQ(0, poke(self->pid, self->site, with_int3(self->word)));
}

FIXTURE_TEARDOWN(jump)
{
	end_child(self->pid, self->cmd, self->ack);
	upng_probe_del(self->ev);
	upng_hide_breakpoints(false);
}

TEST_F_TIMEOUT(jump, stops_each_call, 120)
{
	unsigned char mem[5], n = 2;
	pid_t pid = self->pid;
	char c = 0;
	int i;

	nop5_mem(_metadata, pid, self->site, mem);
	EXPECT_EQ(0xcc, mem[0]);
	EXPECT_EQ(0, memcmp(mem + 1, self->jmp + 1, 4)) TH_LOG("the jump's rest");
	EXPECT_EQ(0xcc, (unsigned char)peek(pid, self->site));

	ASSERT_EQ(1, write(self->cmd, &n, 1));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(1, next_event(pid, self->ack, &c)) TH_LOG("call %d", i);
		at_int3(_metadata, pid, self->site, self->ev, 2 + i);
		/* Written back: the jump again; stepped through it. */
		ASSERT_EQ(0, poke(pid, self->site, self->word));
		nop5_mem(_metadata, pid, self->site, mem);
		EXPECT_EQ(0, memcmp(mem, self->jmp, 5))
			TH_LOG("first byte 0x%02x", mem[0]);
		ASSERT_EQ(self->site + 5, step_from(pid, self->site));
		EXPECT_EQ(2 + i, upng_probe_hits(self->ev));
		ASSERT_EQ(0, poke(pid, self->site, with_int3(self->word)));
		ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	}
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(1 + n, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(jump, probe_goes, 120)
{
	unsigned char mem[5], n = 1;
	pid_t pid = self->pid;
	char c = 0;

	/* Under the debugger's int3: the int3 and the nop's rest stay. */
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	nop5_mem(_metadata, pid, self->site, mem);
	EXPECT_EQ(0xcc, mem[0]);
	EXPECT_EQ(0, memcmp(mem + 1, self->nop5 + 1, 4)) TH_LOG("the rest");
	ASSERT_EQ(1, write(self->cmd, &n, 1));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(1, next_event(pid, self->ack, &c));
	at_int3(_metadata, pid, self->site, self->ev, 1);
	/* The debugger's write of what it read makes it the nop again. */
	ASSERT_EQ(0, poke(pid, self->site, self->word));
	nop5_mem(_metadata, pid, self->site, mem);
	EXPECT_EQ(0, memcmp(mem, self->nop5, 5))
		TH_LOG("first byte 0x%02x", mem[0]);
	ASSERT_EQ(0, set_ip(pid, self->site));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, self->ack, &c));
	EXPECT_EQ('k', c);
	EXPECT_EQ(1, upng_probe_hits(self->ev));
}
#elif defined(__s390x__)
static void nop_handler(int sig)
{
}

/*
 * The child of rseq_abort: for each byte read on CMD, takes a signal
 * (handled outside any critical section, which leaves the kernel's rseq
 * event pending), then adds 1 with site_rseq_incr() until it is not
 * aborted; answers 'a' on ACK when it was, 'n' when not, 'e' without an
 * rseq area.
 */
static void rseq_child(void *arg, int cmd, int ack)
{
	static long counts[64 * 8];
	struct rseq *rs;
	unsigned char n;
	long aborts;
	char c;

	rs = (struct rseq *)((char *)__builtin_thread_pointer() +
			     __rseq_offset);
	signal(SIGUSR1, nop_handler);
	while (read(cmd, &n, 1) == 1) {
		c = 'e';
		if (__rseq_size) {
			aborts = 0;
			raise(SIGUSR1);
			while (site_rseq_incr(counts, rs))
				aborts++;
			c = aborts ? 'a' : 'n';
		}
		if (write(ack, &c, 1) != 1)
			break;
	}
	_exit(0);
}

/*
 * A debugger's breakpoint (0x0001) over a probe in an rseq critical
 * section, entered by a thread whose signal left the kernel's rseq event
 * pending: the probe's hit leaves the instruction for after an abort of
 * the section (uprobe_rseq_aborts()), the trap taken care of as a hit of
 * the probe alone would be, and sends no SIGTRAP then; the debugger's
 * comes when the thread gets to its breakpoint again: the PSW after it,
 * the hit counted once. (s390's trap handler reports gdb's breakpoint
 * itself, after the engine saw it.) Continued, the thread aborts the
 * section (the stop preempted it) and commits through the probe.
 */
TEST(rseq_abort_under_debugger_breakpoint)
{
	unsigned long addr = (unsigned long)site_rseq_probe;
	int cmd, ack, status, err;
	unsigned char n = 1;
	struct upng_sym sym;
	long word, hits;
	siginfo_t si;
	char ev[64];
	char c = 0;
	pid_t pid;

	upng_die_with_parent();
	if (!__rseq_size)
		SKIP(return, "glibc registered no rseq area");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, upng_trace_reset());
	upng_evname(ev, sizeof(ev), "dbgrseq");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_rseq_probe", &sym));
	ASSERT_EQ(addr, sym.value);
	pid = upng_fork_piped(rseq_child, NULL, &cmd, &ack);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	ASSERT_EQ(0, upng_ptrace_attach(pid));
	word = peek(pid, addr);
	ASSERT_EQ(0, errno);
	ASSERT_EQ(0, poke(pid, addr, with_int3(word)));

	ASSERT_EQ(1, write(cmd, &n, 1));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	/* Its SIGUSR1 first, passed on. */
	ASSERT_EQ(pid, waitpid(pid, &status, __WALL));
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGUSR1)
		TH_LOG("status %#x", status);
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, (void *)SIGUSR1));
	ASSERT_EQ(1, next_event(pid, ack, &c));
	EXPECT_EQ(upng_dbg_bkpt_pc(addr), get_ip(pid))
		TH_LOG("SIGTRAP with the PSW at %#lx, the breakpoint at %#lx",
		       get_ip(pid), addr);
	ASSERT_EQ(0, ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
	EXPECT_EQ(UPNG_DBG_SI_CODE, si.si_code);
	/* Once, or twice where a preemption aborted the section first. */
	hits = upng_probe_hits(ev);
	EXPECT_TRUE(hits == 1 || hits == 2) TH_LOG("%ld hits", hits);
	/* gdb's "delete" and "continue": the probe's step commits. */
	ASSERT_EQ(0, poke(pid, addr, word));
	ASSERT_EQ(0, set_ip(pid, addr));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(0, next_event(pid, ack, &c));
	EXPECT_EQ('a', c);
	EXPECT_LT(hits, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_enable(ev, false));
	end_child(pid, cmd, ack);
	upng_probe_del(ev);
	upng_hide_breakpoints(false);
}
#endif

TEST_HARNESS_MAIN
