// SPDX-License-Identifier: GPL-2.0
/*
 * Signals and probes: a storm of signals at a thread (or process) that hits
 * a probe in a loop (for as long as it takes to handle a minimum number),
 * with a handler that hits the probe too, must lose no signal, count every
 * hit exactly once and leave the computation right; no
 * SIGTRAP may leak to the program.  A fault raised by the probed
 * instruction itself is reported at the original address: on arm64 also
 * those of the kernel's other trap handlers (SVE and SME access, the mrs
 * handler, FPAC). On s390, a program interruption that completes or
 * suppresses the stepped copy (fixed-point overflow and divide, an
 * operation exception) leaves the program after the instruction as
 * unprobed, never on it again; nor is an unprobed instruction's
 * operation exception taken for a breakpoint of ours removed since.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"
#include "upng_regs.h"

#define LOOPS 3000
#define MAX_LOOPS 300000
#define MAX_IN_FLIGHT 8
#define YIELD_EVERY 64
/*
 * Signals a storm must have delivered before the worker stops: a floor
 * only (plain TCG gives hundreds; QEMU with -icount delivers few).
 */
#define STORM_THREAD 10
#define STORM_PROCESS 10

/* Shared with signal handlers: accessed with atomics only. */
static long received, traps, handler_sum;

#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)

static void count_handler(int sig)
{
	long n = __atomic_add_fetch(&received, 1, __ATOMIC_SEQ_CST);

	STORE(handler_sum, LOAD(handler_sum) + site_work(n));
}

static void trap_handler(int sig)
{
	STORE(traps, LOAD(traps) + 1);
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

/* Sum of SITE_WORK(k) for k = 1..n: what the handlers added. */
static long handler_expect(long n)
{
	return 3 * (n * (n + 1) / 2) + n;
}

FIXTURE(signals) {
	char ev[64];
	struct upng_sym sym;
};

FIXTURE_SETUP(signals)
{
	upng_die_with_parent();
	STORE(received, 0);
	STORE(traps, 0);
	STORE(handler_sum, 0);
	upng_evname(self->ev, sizeof(self->ev), "signals");
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_work_probe",
				  &self->sym));
	ASSERT_EQ((unsigned long)site_work_probe, self->sym.value);
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(),
				    self->sym.offset, NULL));
	set_handler(SIGTRAP, trap_handler);
}

FIXTURE_TEARDOWN(signals)
{
	upng_probe_del(self->ev);
}

struct storm {
	pid_t worker_tid;
	int worker_ready, worker_done, sender_done;
	long sent, eagain;
	long loops, sum;
};

static void *sender_main(void *arg)
{
	struct storm *st = arg;
	pid_t pid = getpid();

	while (!__atomic_load_n(&st->worker_ready, __ATOMIC_ACQUIRE))
		sched_yield();
	while (!__atomic_load_n(&st->worker_done, __ATOMIC_ACQUIRE)) {
		/*
		 * A few signals in flight at any time: enough to land in
		 * the middle of single-steps, few enough that the worker is
		 * not kept in its handler for ever.
		 */
		if (st->sent - LOAD(received) < MAX_IN_FLIGHT) {
			if (!syscall(SYS_tgkill, pid, st->worker_tid, SIGRTMIN))
				st->sent++;
			else if (errno == EAGAIN)
				st->eagain++;
		}
		sched_yield();
	}
	__atomic_store_n(&st->sender_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *worker_main(void *arg)
{
	struct storm *st = arg;
	long i, spins;

	st->worker_tid = syscall(SYS_gettid);
	__atomic_store_n(&st->worker_ready, 1, __ATOMIC_RELEASE);
	/*
	 * At least LOOPS calls, more until the storm has been felt; now and
	 * then let the sender run should it share this CPU.
	 */
	for (i = 0; i < MAX_LOOPS; i++) {
		if (i >= LOOPS && LOAD(received) >= STORM_THREAD)
			break;
		if (!(i % YIELD_EVERY))
			sched_yield();
		st->sum += site_work(i);
	}
	st->loops = i;
	__atomic_store_n(&st->worker_done, 1, __ATOMIC_RELEASE);
	/* Stay until every queued signal has been handled here. */
	while (!__atomic_load_n(&st->sender_done, __ATOMIC_ACQUIRE))
		sched_yield();
	for (spins = 0; LOAD(received) < st->sent && spins < 1000000; spins++)
		sched_yield();
	return NULL;
}

TEST_F_TIMEOUT(signals, storm_at_thread, 300)
{
	struct storm st = { 0 };
	pthread_t w, s;

	set_handler(SIGRTMIN, count_handler);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(0, pthread_create(&w, NULL, worker_main, &st));
	ASSERT_EQ(0, pthread_create(&s, NULL, sender_main, &st));
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));

	TH_LOG("%ld signals sent, %ld EAGAIN, %ld calls", st.sent, st.eagain,
	       st.loops);
	ASSERT_LE(STORM_THREAD, st.sent);
	ASSERT_EQ(st.sent, LOAD(received));
	ASSERT_EQ(3 * (st.loops * (st.loops - 1) / 2) + st.loops, st.sum);
	ASSERT_EQ(handler_expect(LOAD(received)), LOAD(handler_sum));
	ASSERT_EQ(st.loops + LOAD(received), upng_probe_hits(self->ev));
	ASSERT_EQ(0, LOAD(traps));
}

TEST_F_TIMEOUT(signals, storm_from_process, 300)
{
	int status, stop[2];
	long i, sum = 0;
	pid_t me = getpid(), pid;
	char c;

	set_handler(SIGUSR1, count_handler);
	ASSERT_EQ(0, pipe(stop));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		long n = 0;

		close(stop[1]);
		fcntl(stop[0], F_SETFL, O_NONBLOCK);
		while (read(stop[0], &c, 1) < 0) {
			if (kill(me, SIGUSR1))
				_exit(1);
			n++;
		}
		_exit(n > 0 ? 0 : 2);
	}
	close(stop[0]);
	for (i = 0; i < MAX_LOOPS; i++) {
		if (i >= LOOPS && LOAD(received) >= STORM_PROCESS)
			break;
		if (!(i % YIELD_EVERY))
			sched_yield();
		sum += site_work(i);
	}
	ASSERT_EQ(1, write(stop[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	/* A last pending SIGUSR1 is delivered at the latest here. */
	usleep(1000);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));

	TH_LOG("%ld signals handled, %ld calls", LOAD(received), i);
	ASSERT_LE(STORM_PROCESS, LOAD(received));
	ASSERT_EQ(3 * (i * (i - 1) / 2) + i, sum);
	ASSERT_EQ(handler_expect(LOAD(received)), LOAD(handler_sum));
	ASSERT_EQ(i + LOAD(received), upng_probe_hits(self->ev));
	ASSERT_EQ(0, LOAD(traps));
}

static sigjmp_buf fault_jmp;
static unsigned long fault_ip, fault_addr, fault_sp;

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *ctx = uc;

	STORE(fault_ip, UPNG_UC_PC(ctx));
	STORE(fault_sp, UPNG_UC_SP(ctx));
	STORE(fault_addr, (unsigned long)si->si_addr);
	siglongjmp(fault_jmp, 1);
}

/*
 * Add the probe "@ev_@tag" (its name into @name, which may hold @sym) at
 * @sym of this program, which must be at @want unless that is 0, and
 * enable it.
 */
static void probe_sym(struct __test_metadata *_metadata, const char *ev,
		      const char *tag, const char *sym, unsigned long want,
		      char *name, size_t size)
{
	struct upng_sym s;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), sym, &s));
	if (want)
		ASSERT_EQ(want, s.value);
	snprintf(name, size, "%s_%s", ev, tag);
	ASSERT_EQ(0, upng_probe_add(name, upng_self_path(), s.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(name, true));
}

/* Send @sig (SIGSEGV, SIGILL) to segv_handler(). */
static int catch_fault(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/*
 * A probed load (run from a boosted slot) that faults: the program sees
 * the fault at the probed address, never in the XOL area.
 */
TEST_F_TIMEOUT(signals, fault_in_probed_insn, 120)
{
	char ev[80];
	long v = 0x5eed;

	ASSERT_EQ(0, catch_fault(SIGSEGV));

	probe_sym(_metadata, self->ev, "load", "site_load_probe", 0, ev,
		  sizeof(ev));
	ASSERT_EQ(0x5eed, site_load(&v));
	if (!sigsetjmp(fault_jmp, 1)) {
		site_load((long *)16);
		ASSERT_TRUE(false) TH_LOG("the load did not fault");
	}
	ASSERT_EQ(0x5eed, site_load(&v));
	ASSERT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(3, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	ASSERT_EQ((unsigned long)site_load_probe, LOAD(fault_ip));
	ASSERT_EQ(UPNG_SI_ADDR(16UL), LOAD(fault_addr));
	ASSERT_EQ(0, LOAD(traps));
}

static long *fix_page;

/* Records the fault, then makes the page readable: the load restarts. */
static void segv_fix_handler(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *ctx = uc;

	STORE(fault_ip, UPNG_UC_PC(ctx));
	STORE(fault_addr, (unsigned long)si->si_addr);
	if (mprotect(fix_page, 4096, PROT_READ))
		_exit(3);
}

/*
 * The same load faulting on a page that the signal handler then makes
 * readable: the handler returns to the probed address, the restarted
 * load hits the probe again and completes with the page's value.
 */
TEST_F_TIMEOUT(signals, fault_fixed_by_handler, 120)
{
	struct sigaction sa;
	char ev[80];

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_fix_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGSEGV, &sa, NULL));
	fix_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fix_page);
	fix_page[1] = 0xf1c5;
	ASSERT_EQ(0, mprotect(fix_page, 4096, PROT_NONE));

	probe_sym(_metadata, self->ev, "fix", "site_load_probe", 0, ev,
		  sizeof(ev));
	ASSERT_EQ(0xf1c5, site_load(&fix_page[1]));
	ASSERT_EQ(0, upng_probe_enable(ev, false));
	/* The faulting execution and its restart. */
	EXPECT_EQ(2, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	ASSERT_EQ((unsigned long)site_load_probe, LOAD(fault_ip));
	ASSERT_EQ(UPNG_SI_ADDR((unsigned long)&fix_page[1]), LOAD(fault_addr));
	ASSERT_EQ(0, LOAD(traps));
	munmap(fix_page, 4096);
}

#if defined(__x86_64__)
/*
 * An emulated or boosted rip-relative access (@site, probed at
 * site_@tag_probe, which is at @probe) whose user access fails
 * because site_ripdata has only @prot:
 * the instruction is stepped instead and faults, and the program sees the
 * fault at the probed address. Each site returns @want for x = 0x5eed
 * while the page is readable and writable.
 */
static void rip_access_faults(struct __test_metadata *_metadata,
			      const char *ev, long (*site)(long),
			      const char *tag, const char *probe,
			      int prot, long want)
{
	char name[80];

	ASSERT_EQ(0, catch_fault(SIGSEGV));
	snprintf(name, sizeof(name), "site_%s_probe", tag);
	probe_sym(_metadata, ev, tag, name, 0, name, sizeof(name));
	site_ripdata[0] = 0x5eed;
	ASSERT_EQ(want, site(0x5eed));
	ASSERT_EQ(0, mprotect(site_ripdata, 4096, prot));
	if (!sigsetjmp(fault_jmp, 1)) {
		site(0x5eed);
		ASSERT_TRUE(false) TH_LOG("the access did not fault");
	}
	ASSERT_EQ(0, mprotect(site_ripdata, 4096, PROT_READ | PROT_WRITE));
	ASSERT_EQ(want, site(0x5eed));
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(3, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
	ASSERT_EQ((unsigned long)probe, LOAD(fault_ip));
	ASSERT_EQ((unsigned long)site_ripdata, LOAD(fault_addr));
	ASSERT_EQ(0, LOAD(traps));
}

/* site_badret() to @to, faulting: the fault's ip and the sp it leaves. */
static void badret_fault(unsigned long to, unsigned long *ip,
			 unsigned long *sp)
{
	STORE(fault_ip, 0UL);
	STORE(fault_sp, 0UL);
	if (!sigsetjmp(fault_jmp, 1))
		site_badret(to);
	*ip = LOAD(fault_ip);
	*sp = LOAD(fault_sp);
}

/*
 * A probed ret (emulated) to a non-canonical address faults exactly as
 * the unprobed one: the CPU raises #GP at the ret and pops nothing (the
 * SDM); QEMU's TCG jumps and faults at the target. Whatever the CPU does,
 * the probed program sees the same.
 */
TEST_F_TIMEOUT(signals, ret_to_noncanonical, 120)
{
	static const unsigned long bad = 0x8000000000000000UL;
	unsigned long ip0, sp0, ip1, sp1;
	char ev[80];

	ASSERT_EQ(0, catch_fault(SIGSEGV));
	badret_fault(bad, &ip0, &sp0);
	ASSERT_NE(0UL, sp0) TH_LOG("the unprobed ret did not fault");
	probe_sym(_metadata, self->ev, "badret", "site_badret_probe", 0, ev,
		  sizeof(ev));
	badret_fault(bad, &ip1, &sp1);
	ASSERT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	TH_LOG("unprobed: ip %#lx sp %#lx", ip0, sp0);
	EXPECT_EQ(ip0, ip1);
	EXPECT_EQ(sp0, sp1);
	ASSERT_EQ(0, LOAD(traps));
}

static long ripload(long x)
{
	return site_ripload();
}

TEST_F_TIMEOUT(signals, fault_in_emulated_load, 120)
{
	rip_access_faults(_metadata, self->ev, ripload,
			  "ripload", site_ripload_probe, PROT_NONE, 0x5eed);
}

TEST_F_TIMEOUT(signals, fault_in_emulated_store, 120)
{
	rip_access_faults(_metadata, self->ev, site_ripstore,
			  "ripstore", site_ripstore_probe, PROT_READ, 0x5eed);
}

TEST_F_TIMEOUT(signals, fault_in_emulated_compare, 120)
{
	rip_access_faults(_metadata, self->ev, site_ripcmp,
			  "ripcmp", site_ripcmp_probe, PROT_NONE, 1);
}

/* The same for rip-relative operands of boosted copies, relocated. */
TEST_F_TIMEOUT(signals, fault_in_boosted_rip_store, 120)
{
	rip_access_faults(_metadata, self->ev, site_ripor,
			  "ripor", site_ripor_probe, PROT_READ, 0x5eed);
}

TEST_F_TIMEOUT(signals, fault_in_boosted_sse_load, 120)
{
	rip_access_faults(_metadata, self->ev, site_ripsse,
			  "ripsse", site_ripsse_probe, PROT_NONE, 0x5eed);
}

/*
 * A boosted copy that raises #UD (invept, outside VMX operation): SIGILL
 * with the probed address in si_addr and in the signal frame, never the
 * slot's.
 */
TEST_F_TIMEOUT(signals, invalid_opcode_in_boosted_copy, 120)
{
	unsigned long desc[2] = { 0, 0 };
	char name[80];
	int i;

	ASSERT_EQ(0, catch_fault(SIGILL));
	probe_sym(_metadata, self->ev, "invept", "site_invept_probe", 0, name,
		  sizeof(name));
	for (i = 0; i < 2; i++) {
		STORE(fault_ip, 0);
		STORE(fault_addr, 0);
		if (!sigsetjmp(fault_jmp, 1)) {
			site_invept(desc);
			ASSERT_TRUE(false) TH_LOG("invept did not trap");
		}
		ASSERT_EQ((unsigned long)site_invept_probe, LOAD(fault_ip));
		ASSERT_EQ((unsigned long)site_invept_probe, LOAD(fault_addr));
	}
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(2, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
	ASSERT_EQ(0, LOAD(traps));
}

#elif defined(__aarch64__)
/*
 * A literal load (ldr, ldrsw), which the engine simulates, whose literal
 * the kernel cannot read because site_litdata is PROT_NONE: a copy that
 * loads from a register is stepped instead and faults, and the program
 * sees the fault at the probed address. The literal is VAL, which @site
 * (probed at site_@tag_probe, which is at @probe) returns as @want while
 * the page is readable.
 */
#define LIT_VAL	0x00001234ffff5eedL

static void lit_load_faults(struct __test_metadata *_metadata,
			    const char *ev, long (*site)(void),
			    const char *tag, const char *probe, long want)
{
	char name[80];

	ASSERT_EQ(0, catch_fault(SIGSEGV));
	snprintf(name, sizeof(name), "site_%s_probe", tag);
	probe_sym(_metadata, ev, tag, name, (unsigned long)probe, name,
		  sizeof(name));
	/* A page of the text: written through a private copy. */
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_READ | PROT_WRITE));
	site_litdata[0] = LIT_VAL;
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_READ));
	ASSERT_EQ(want, site());
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_NONE));
	if (!sigsetjmp(fault_jmp, 1)) {
		site();
		ASSERT_TRUE(false) TH_LOG("the load did not fault");
	}
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_READ));
	ASSERT_EQ(want, site());
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(3, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
	ASSERT_EQ((unsigned long)probe, LOAD(fault_ip));
	ASSERT_EQ((unsigned long)site_litdata, LOAD(fault_addr));
	ASSERT_EQ(0, LOAD(traps));
}

TEST_F_TIMEOUT(signals, fault_in_emulated_load, 120)
{
	lit_load_faults(_metadata, self->ev, site_litload, "litload",
			site_litload_probe, LIT_VAL);
}

TEST_F_TIMEOUT(signals, fault_in_emulated_load_w, 120)
{
	lit_load_faults(_metadata, self->ev, site_litload_w, "litload_w",
			site_litload_w_probe, (long)(int)LIT_VAL);
}

static int fault_sig, fault_code;

static void ill_handler(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *ctx = uc;

	STORE(fault_sig, sig);
	STORE(fault_code, si->si_code);
	STORE(fault_ip, UPNG_UC_PC(ctx));
	STORE(fault_addr, (unsigned long)si->si_addr);
	siglongjmp(fault_jmp, 1);
}

/* Runs @site; the signal it died of (0: none), as ill_handler() saw it. */
static int run_site(long (*site)(void))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ill_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, NULL) || sigaction(SIGFPE, &sa, NULL))
		return -1;
	STORE(fault_sig, 0);
	STORE(fault_code, 0);
	STORE(fault_ip, 0);
	STORE(fault_addr, 0);
	if (!sigsetjmp(fault_jmp, 1))
		site();
	return LOAD(fault_sig);
}

static int run_undef(void)
{
	return run_site(site_undef);
}

/*
 * @site, probed at site_@tag_probe (@probe), raises a signal in its
 * stepped copy: the one it raises unprobed, with the same si_code, the
 * probed address in si_addr and in the signal frame, never the slot's.
 * Skipped where it raises none.
 */
static void trap_in_stepped_copy(struct __test_metadata *_metadata,
				 const char *ev, long (*site)(void),
				 const char *tag, const char *probe)
{
	unsigned long want = (unsigned long)probe;
	char name[80];
	int i, sig, code;

	sig = run_site(site);
	if (!sig)
		SKIP(return, "%s raises no signal here", tag);
	ASSERT_EQ(want, LOAD(fault_ip));
	ASSERT_EQ(want, LOAD(fault_addr));
	code = LOAD(fault_code);
	snprintf(name, sizeof(name), "site_%s_probe", tag);
	probe_sym(_metadata, ev, tag, name, want, name, sizeof(name));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(sig, run_site(site)) TH_LOG("call %d", i);
		EXPECT_EQ(code, LOAD(fault_code)) TH_LOG("call %d", i);
		EXPECT_EQ(want, LOAD(fault_ip))
			TH_LOG("call %d: pc %#lx in the signal frame, not the probed %#lx",
			       i, LOAD(fault_ip), want);
		EXPECT_EQ(want, LOAD(fault_addr))
			TH_LOG("call %d: si_addr %#lx, not the probed %#lx",
			       i, LOAD(fault_addr), want);
	}
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(2, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
	ASSERT_EQ(0, LOAD(traps));
}

/*
 * A stepped copy that raises an undefined instruction exception (mrs of
 * PMCCNTR_EL0, which user mode may not read): SIGILL with the probed
 * address in si_addr and in the signal frame, never the slot's, the same
 * si_code as without the probe.
 */
TEST_F_TIMEOUT(signals, undefined_insn_in_stepped_copy, 120)
{
	unsigned long probe = (unsigned long)site_undef_probe;
	char name[80];
	int i, code;

	if (run_undef() != SIGILL)
		SKIP(return, "mrs of PMCCNTR_EL0 does not trap in user mode here");
	ASSERT_EQ(probe, LOAD(fault_ip));
	ASSERT_EQ(probe, LOAD(fault_addr));
	code = LOAD(fault_code);
	probe_sym(_metadata, self->ev, "undef", "site_undef_probe", probe, name,
		  sizeof(name));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(SIGILL, run_undef()) TH_LOG("call %d", i);
		EXPECT_EQ(code, LOAD(fault_code)) TH_LOG("call %d", i);
		EXPECT_EQ(probe, LOAD(fault_ip))
			TH_LOG("call %d: pc %#lx in the signal frame, not the probed %#lx",
			       i, LOAD(fault_ip), probe);
		EXPECT_EQ(probe, LOAD(fault_addr))
			TH_LOG("call %d: si_addr %#lx, not the probed %#lx",
			       i, LOAD(fault_addr), probe);
	}
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(2, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
	ASSERT_EQ(0, LOAD(traps));
}

/*
 * A physical address of QEMU's virt board with nothing behind it, between
 * its secure GPIO and its virtio-mmio transports: a load from it takes a
 * synchronous external abort (SEA), SIGBUS.
 */
#define SEA_PHYS	0x09800000UL

/*
 * In a child, site_ldr() from SEA_PHYS mapped through /dev/mem: the
 * signal it got (0: none, -1: no such mapping), si_addr and the signal
 * frame's pc into *ADDR and *IP.
 */
static int sea_load(unsigned long *addr, unsigned long *ip)
{
	struct {
		int sig;
		unsigned long addr, ip;
	} r = { -1, 0, 0 };
	int pfd[2], status;
	long *p;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		int fd = open("/dev/mem", O_RDONLY | O_SYNC);

		close(pfd[0]);
		p = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ,
					       MAP_SHARED, fd, SEA_PHYS);
		if (p != MAP_FAILED && !catch_fault(SIGBUS)) {
			r.sig = 0;
			if (!sigsetjmp(fault_jmp, 1))
				site_ldr(p);
			else
				r.sig = SIGBUS;
			r.addr = LOAD(fault_addr);
			r.ip = LOAD(fault_ip);
		}
		if (write(pfd[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &r, sizeof(r)) != sizeof(r))
		r.sig = -2;
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	*addr = r.addr;
	*ip = r.ip;
	return r.sig;
}

/*
 * A memory error consumed by a probed load the engine simulates: the
 * program gets the SIGBUS it gets unprobed, at the probed address; the
 * kernel, whose user access took the abort, does not oops.
 */
TEST_F_TIMEOUT(signals, sea_in_simulated_load, 120)
{
	unsigned long addr0, ip0, addr, ip;
	char name[80], first[256];
	long bad, n;
	int sig, kmsg;

	sig = sea_load(&addr0, &ip0);
	if (sig == -1)
		SKIP(return, "no /dev/mem mapping of %#lx", SEA_PHYS);
	if (sig != SIGBUS)
		SKIP(return, "a load from %#lx raises no SIGBUS here", SEA_PHYS);
	ASSERT_EQ((unsigned long)site_ldr_probe, ip0);
	probe_sym(_metadata, self->ev, "sea", "site_ldr_probe", 0, name,
		  sizeof(name));
	kmsg = upng_kmsg_open();
	ASSERT_LE(0, kmsg);
	sig = sea_load(&addr, &ip);
	/* arm64's oops reads "Internal error: ..." */
	bad = upng_kmsg_scan(kmsg, "Internal error", &n, first, sizeof(first));
	close(kmsg);
	EXPECT_EQ(0, bad) TH_LOG("kernel log: %s", first);
	EXPECT_EQ(0, n) TH_LOG("the kernel oopsed");
	EXPECT_EQ(SIGBUS, sig);
	EXPECT_EQ(addr0, addr);
	EXPECT_EQ(ip0, ip)
		TH_LOG("pc %#lx in the signal frame, not the probed %#lx", ip,
		       ip0);
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(1, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
}

/* SVE without SVE (do_sve_acc()). */
TEST_F_TIMEOUT(signals, sve_access_in_stepped_copy, 120)
{
	trap_in_stepped_copy(_metadata, self->ev, site_sve, "sve",
			     site_sve_probe);
}

/* SME without SME (do_sme_acc(), or an undefined instruction). */
TEST_F_TIMEOUT(signals, sme_access_in_stepped_copy, 120)
{
	trap_in_stepped_copy(_metadata, self->ev, site_sme, "sme",
			     site_sme_probe);
}

/* An mrs the kernel does not emulate (the mrs handler, or undefined). */
TEST_F_TIMEOUT(signals, mrs_handler_in_stepped_copy, 120)
{
	trap_in_stepped_copy(_metadata, self->ev, site_idreg, "idreg",
			     site_idreg_probe);
}

/* A failed authentication with FEAT_FPAC (do_el0_fpac()). */
TEST_F_TIMEOUT(signals, fpac_in_stepped_copy, 120)
{
	trap_in_stepped_copy(_metadata, self->ev, site_fpac, "fpac",
			     site_fpac_probe);
}
#elif defined(__s390x__)
/*
 * How a site's instruction that raises a signal ran, in a child: a thread
 * that spins in the kernel (an instruction tried again for ever, in its
 * XOL slot or not) would hang the test, and dies of SIGKILL instead.
 */
struct trap_run {
	int sig, code;		/* the signal and its si_code, 0: none */
	int calls;		/* how many times it was delivered */
	unsigned long ip;	/* the PSW address in the signal frame */
	unsigned long addr;	/* si_addr */
	long ret;		/* what the site returned */
	bool timed_out;
};

#define TRAP_RUN_MS	10000

static struct trap_run *trap_seen;	/* shared with the child */

/*
 * Returns: the program interruption left the PSW after the instruction,
 * and the program goes on there. Delivered again and again (the
 * instruction tried again), it gives up.
 */
static void trap_resume_handler(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *ctx = uc;

	trap_seen->sig = sig;
	trap_seen->code = si->si_code;
	trap_seen->ip = UPNG_UC_PC(ctx);
	trap_seen->addr = (unsigned long)si->si_addr;
	if (++trap_seen->calls > 3)
		siglongjmp(fault_jmp, 1);
}

/* A child runs @site, once a byte comes through @gate (-1: at once). */
static pid_t trap_child(struct __test_metadata *_metadata,
			long (*site)(void), int gate)
{
	struct sigaction sa;
	pid_t pid;
	char c;

	if (!trap_seen) {
		trap_seen = mmap(NULL, sizeof(*trap_seen),
				 PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, trap_seen);
	}
	memset(trap_seen, 0, sizeof(*trap_seen));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = trap_resume_handler;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGILL, &sa, NULL) ||
		    sigaction(SIGFPE, &sa, NULL))
			_exit(2);
		if (gate >= 0 && read(gate, &c, 1) != 1)
			_exit(3);
		if (!sigsetjmp(fault_jmp, 1))
			trap_seen->ret = site();
		_exit(0);
	}
	return pid;
}

/* What the child saw, or that it did not end within TRAP_RUN_MS. */
static void trap_wait(struct __test_metadata *_metadata, pid_t pid,
		      struct trap_run *r)
{
	long long end = upng_now_ms() + TRAP_RUN_MS;
	int status;
	pid_t w;

	do {
		w = waitpid(pid, &status, WNOHANG);
		if (!w)
			usleep(10000);
	} while (!w && upng_now_ms() < end);
	if (!w) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	*r = *trap_seen;
	r->timed_out = !w;
	ASSERT_TRUE(r->timed_out || (WIFEXITED(status) && !WEXITSTATUS(status)))
		TH_LOG("child status %#x", status);
}

static void run_trapping(struct __test_metadata *_metadata,
			 long (*site)(void), struct trap_run *r)
{
	trap_wait(_metadata, trap_child(_metadata, site, -1), r);
}

/*
 * @site, probed at site_@tag_probe (@probe), raises a signal in its
 * stepped copy: the one it raises unprobed, once, with the same si_code,
 * the probed address in si_addr, the PSW address in the signal frame as
 * unprobed (after the instruction, which the program interruption
 * completed or suppressed: never executed again), and the same result.
 * Skipped where it raises none. A probe refused (@may_refuse) is fine.
 */
static void trap_resumed_in_stepped_copy(struct __test_metadata *_metadata,
					 const char *ev, long (*site)(void),
					 const char *tag, const char *probe,
					 bool may_refuse)
{
	unsigned long want = (unsigned long)probe;
	struct trap_run bare, r;
	struct upng_sym sym;
	char name[80];
	int i, err;

	run_trapping(_metadata, site, &bare);
	ASSERT_FALSE(bare.timed_out);
	if (!bare.sig)
		SKIP(return, "%s raises no signal here", tag);
	ASSERT_EQ(1, bare.calls);
	ASSERT_EQ(want, bare.addr);
	snprintf(name, sizeof(name), "site_%s_probe", tag);
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), name, &sym));
	ASSERT_EQ(want, sym.value);
	snprintf(name, sizeof(name), "%s_%s", ev, tag);
	ASSERT_EQ(0, upng_probe_add(name, upng_self_path(), sym.offset, NULL));
	err = upng_probe_enable(name, true);
	if (may_refuse && err == -EOPNOTSUPP) {
		EXPECT_EQ(0, upng_probe_del(name));
		return;
	}
	ASSERT_EQ(0, err);
	for (i = 0; i < 2; i++) {
		run_trapping(_metadata, site, &r);
		EXPECT_FALSE(r.timed_out) TH_LOG("call %d: no end in %d ms", i,
						 TRAP_RUN_MS);
		EXPECT_EQ(bare.sig, r.sig) TH_LOG("call %d", i);
		EXPECT_EQ(bare.code, r.code) TH_LOG("call %d", i);
		EXPECT_EQ(1, r.calls)
			TH_LOG("call %d: delivered %d times", i, r.calls);
		EXPECT_EQ(bare.ip, r.ip)
			TH_LOG("call %d: PSW %#lx in the signal frame, not %#lx",
			       i, r.ip, bare.ip);
		EXPECT_EQ(want, r.addr)
			TH_LOG("call %d: si_addr %#lx, not the probed %#lx",
			       i, r.addr, want);
		EXPECT_EQ(bare.ret, r.ret) TH_LOG("call %d", i);
	}
	ASSERT_EQ(0, upng_probe_enable(name, false));
	EXPECT_EQ(2, upng_probe_hits(name));
	EXPECT_EQ(0, upng_probe_del(name));
}

/* A fixed-point overflow (ar), the program mask on: completed. */
TEST_F_TIMEOUT(signals, overflow_in_stepped_copy, 120)
{
	trap_resumed_in_stepped_copy(_metadata, self->ev, site_fpovf, "fpovf",
				     site_fpovf_probe, false);
}

/* A fixed-point divide exception (dsgr by 0): suppressed. */
TEST_F_TIMEOUT(signals, divide_in_stepped_copy, 120)
{
	trap_resumed_in_stepped_copy(_metadata, self->ev, site_divz, "divz",
				     site_divz_probe, false);
}

/*
 * An operation exception of a 2-byte instruction that is not a
 * breakpoint (pfpo, which TCG does not implement): SIGILL, in its stepped
 * copy, or the probe refused; never tried again for ever.
 */
TEST_F_TIMEOUT(signals, operation_exception_in_stepped_copy, 120)
{
	trap_resumed_in_stepped_copy(_metadata, self->ev, site_pfpo, "pfpo",
				     site_pfpo_probe, true);
}

/*
 * The same instruction not probed, in a process with a probe elsewhere
 * (site_work()): SIGILL, as without the probe. The kernel's trap handler
 * sends back to the instruction a thread that trapped on a breakpoint of
 * ours removed since, which it tells by the instruction there now: it
 * must not take this one for that, and send the thread back for ever.
 */
TEST_F_TIMEOUT(signals, operation_exception_not_probed, 120)
{
	struct trap_run bare, r;

	run_trapping(_metadata, site_pfpo, &bare);
	ASSERT_FALSE(bare.timed_out);
	if (!bare.sig)
		SKIP(return, "pfpo raises no signal here");
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(4, site_work(1));
	run_trapping(_metadata, site_pfpo, &r);
	EXPECT_FALSE(r.timed_out) TH_LOG("no end in %d ms", TRAP_RUN_MS);
	EXPECT_EQ(bare.sig, r.sig);
	EXPECT_EQ(bare.code, r.code);
	EXPECT_EQ(1, r.calls) TH_LOG("delivered %d times", r.calls);
	EXPECT_EQ(bare.ip, r.ip);
	EXPECT_EQ(bare.addr, r.addr);
	EXPECT_EQ(bare.ret, r.ret);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(1, upng_probe_hits(self->ev));
}

/*
 * The same in a process that had one of its breakpoints removed (the
 * probe elsewhere, enabled when it forked, disabled before it runs the
 * instruction): the trap handler may send it back to the instruction
 * once for that removal, then the trap is the instruction's: SIGILL,
 * delivered once.
 */
TEST_F_TIMEOUT(signals, operation_exception_after_removal, 120)
{
	struct trap_run bare, r;
	int gate[2];
	pid_t pid;

	run_trapping(_metadata, site_pfpo, &bare);
	ASSERT_FALSE(bare.timed_out);
	if (!bare.sig)
		SKIP(return, "pfpo raises no signal here");
	ASSERT_EQ(0, pipe(gate));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	pid = trap_child(_metadata, site_pfpo, gate[0]);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(1, write(gate[1], "g", 1));
	trap_wait(_metadata, pid, &r);
	close(gate[0]);
	close(gate[1]);
	EXPECT_FALSE(r.timed_out) TH_LOG("no end in %d ms", TRAP_RUN_MS);
	EXPECT_EQ(bare.sig, r.sig);
	EXPECT_EQ(bare.code, r.code);
	EXPECT_EQ(1, r.calls) TH_LOG("delivered %d times", r.calls);
	EXPECT_EQ(bare.ip, r.ip);
	EXPECT_EQ(bare.ret, r.ret);
}
#endif

TEST_HARNESS_MAIN
