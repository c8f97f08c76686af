// SPDX-License-Identifier: GPL-2.0
/*
 * Probed nops of five bytes or more jump to a stub: after its first hit, a
 * probe on a nopl (USDT sites, patchable function entries) or on one of
 * the longer nops compilers pad with is a "jmp" into [uprobes] instead of
 * an int3, over the nop's first five bytes, and its hits enter the kernel
 * with a system call.
 * The program must not be able to tell, apart from reading its own code:
 * every register, the flags and the red zone as without the probe, exact
 * hit counts, the nop back when the probe goes, a forked child whose code
 * jumps to the stub running on, no system call seen by a tracer or
 * refused by seccomp or syscall user dispatch, a single-step going from the nop to the next
 * instruction, and threads hammering the site while it goes in and out.
 * Signals and stops inside the stub are the xolvis test's "stub" and
 * "stub_nop10" variants. The long_nop cases check nops of 6, 7, 8 and 10
 * bytes: the jump, the hits, the registers and red zone, what readers of
 * the process's memory see, debugfs's "jump", a single-step over the nop,
 * a tight stack and moved code; the stub always returns after the whole
 * nop.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"

#ifndef __NR_uretprobe
#define __NR_uretprobe 335
#endif

#define NCALLS		1000
#define NTHREADS	2
#define NTOGGLES	20
#define MAX_STEPS	20000
#define MAX_NOP		10	/* the longest nop of the sites */
#define SITE_TAIL	6	/* after a site's nop: lea (5 bytes), ret */

static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

/* Where the jump at @site goes, or 0 when @site holds no jump. */
static unsigned long st_jump_target(const unsigned char *site)
{
	int rel;

	if (site[0] != 0xe9)
		return 0;
	memcpy(&rel, site + 1, sizeof(rel));
	return (unsigned long)site + 5 + rel;
}

/*
 * Adds and enables a probe on the instruction at @sym, after checking the
 * file has the @nop_len bytes of @nop there; its file offset.
 */
static unsigned long st_probe_nop(struct __test_metadata *_metadata,
				  char *ev, size_t len, const char *sym_name,
				  const char *addr, const unsigned char *nop,
				  size_t nop_len)
{
	unsigned char insn[MAX_NOP];
	struct upng_sym sym;

	ASSERT_LE(nop_len, sizeof(insn));
	upng_evname(ev, len, "stub");
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), sym_name, &sym));
	ASSERT_EQ((unsigned long)addr, sym.value);
	ASSERT_EQ(0, upng_file_read(upng_self_path(), sym.offset, insn,
				    nop_len));
	ASSERT_EQ(0, memcmp(insn, nop, nop_len));
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), sym.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	return sym.offset;
}

/* Adds and enables a probe on the five-byte nop at @sym. */
static void st_probe(struct __test_metadata *_metadata, char *ev, size_t len,
		     const char *sym_name, const char *addr)
{
	st_probe_nop(_metadata, ev, len, sym_name, addr, nop5, sizeof(nop5));
}

/* Calls @fn (a site computing SITE_WORK) @n times; how many were wrong. */
static long st_calls_fn(long (*fn)(long x), long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += fn(i) != SITE_WORK(i);
	return bad;
}

/* Calls site_nop5() @n times; how many results were wrong. */
static long st_calls(long n)
{
	return st_calls_fn(site_nop5, n);
}

/* A probe on site_nop5_probe, hit once: the nop is a jump to its stub. */
static void st_probe_jumped(struct __test_metadata *_metadata, char *ev,
			    size_t len)
{
	st_probe(_metadata, ev, len, "site_nop5_probe", site_nop5_probe);
	ASSERT_EQ(0, st_calls(1));
	ASSERT_NE(0UL, st_jump_target((unsigned char *)site_nop5_probe));
}

/*
 * The first hit upgrades the int3 to a jump into [uprobes]; every call is
 * one hit; once the probe goes, the nop is back, in the program's view and
 * in /proc/PID/mem's.
 */
TEST(jump_to_stub_and_back)
{
	unsigned long lo, hi, target;
	unsigned char cur[5];
	char ev[64];

	st_probe(_metadata, ev, sizeof(ev), "site_nop5_probe", site_nop5_probe);
	ASSERT_EQ(0, st_calls(1));
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	target = st_jump_target((unsigned char *)site_nop5_probe);
	ASSERT_TRUE(target >= lo && target < hi)
		TH_LOG("site %02x %02x %02x %02x %02x, [uprobes] %lx-%lx",
		       site_nop5_probe[0] & 0xff, site_nop5_probe[1] & 0xff,
		       site_nop5_probe[2] & 0xff, site_nop5_probe[3] & 0xff,
		       site_nop5_probe[4] & 0xff, lo, hi);
	ASSERT_EQ(0, st_calls(NCALLS));
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(ev));

	ASSERT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(0, memcmp(site_nop5_probe, nop5, sizeof(nop5)));
	ASSERT_EQ(0, upng_mem_read(getpid(), (unsigned long)site_nop5_probe,
				   cur, sizeof(cur)));
	EXPECT_EQ(0, memcmp(cur, nop5, sizeof(nop5)));
	ASSERT_EQ(0, st_calls(NCALLS));
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(ev));

	/* Again: the same stub serves the probe's return. */
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	ASSERT_EQ(0, st_calls(2));
	EXPECT_EQ(target, st_jump_target((unsigned char *)site_nop5_probe));
	EXPECT_EQ(NCALLS + 3, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, memcmp(site_nop5_probe, nop5, sizeof(nop5)));
}

/*
 * Registers, flags, stack pointer and red zone after the nop of @len bytes
 * (@nop) at @sym (@site) that @fn runs, through int3 and stub.
 */
static void st_regs(struct __test_metadata *_metadata, const char *sym,
		    char *site, const unsigned char *nop, size_t len,
		    void (*fn)(struct site_regs *out))
{
	struct site_regs r;
	char ev[64];
	int call, i;

	st_probe_nop(_metadata, ev, sizeof(ev), sym, site, nop, len);
	for (call = 0; call < 3; call++) {
		memset(&r, 0, sizeof(r));
		fn(&r);
		for (i = 0; i < 16; i++) {
			if (i == 4)
				continue;
			EXPECT_EQ(SITE_REGS_GPR * (i + 1UL), r.gpr[i])
				TH_LOG("call %d: register %d", call, i);
		}
		EXPECT_EQ(r.sp_before, r.gpr[4]);
		/* CF PF AF ZF SF TF DF OF */
		EXPECT_EQ(SITE_REGS_FLAGS & 0xdd5, r.flags & 0xdd5)
			TH_LOG("call %d: flags %#lx", call, r.flags);
		for (i = 0; i < 16; i++) {
			EXPECT_EQ(SITE_REGS_RZ + (unsigned long)i, r.red_zone[i])
				TH_LOG("call %d: red zone quadword %d", call, i);
		}
		/* The calls after the first went through the stub. */
		if (!call)
			ASSERT_NE(0UL, st_jump_target((unsigned char *)site));
	}
	EXPECT_EQ(3, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}

/* Registers, flags, stack pointer and red zone, through int3 and stub. */
TEST(registers_flags_red_zone)
{
	st_regs(_metadata, "site_nop5_regs_probe", site_nop5_regs_probe, nop5,
		sizeof(nop5), site_nop5_regs);
}

/* A forked child's code jumps to its own copy of the stub. */
TEST(fork_keeps_stub)
{
	unsigned long lo, hi, clo, chi;
	int status, fds[2];
	char ev[64];
	pid_t pid;

	st_probe_jumped(_metadata, ev, sizeof(ev));
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char c = 0;

		/* The parent reads our maps, then we run. */
		if (read(fds[0], &c, 1) != 1)
			_exit(3);
		_exit(st_calls(NCALLS) ? 1 : 0);
	}
	EXPECT_EQ(0, upng_xol_range(pid, &clo, &chi));
	EXPECT_EQ(lo, clo);
	ASSERT_EQ(1, write(fds[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x", status);
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(ev));
	close(fds[0]);
	close(fds[1]);
	EXPECT_EQ(0, upng_probe_del(ev));
}

/*
 * A tracer stopping at every system call sees none of the stub's, and
 * one single-stepping the program goes from the nop straight to the next
 * instruction, never into [uprobes]; every execution is a hit.
 */
TEST(ptrace_sees_no_stub)
{
	unsigned long lo, hi, site = (unsigned long)site_nop5_probe;
	struct user_regs_struct regs;
	long stops = 0, steps = 0, at_site = 0, over = 0, in_xol = 0;
	unsigned long prev = 0;
	long uret_stops = 0;
	int status, phase;
	char ev[64];
	pid_t pid;

	st_probe_jumped(_metadata, ev, sizeof(ev));
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	pid = upng_fork_traced(&status);
	if (!pid) {
		/* Phase 1, under PTRACE_SYSCALL. */
		if (st_calls(NCALLS))
			_exit(1);
		raise(SIGSTOP);
		/* Phase 2, single-stepped. */
		_exit(st_calls(3) ? 1 : 0);
	}
	ASSERT_LT(0, pid) TH_LOG("status %#x", status);
	for (phase = 1; phase <= 2;) {
		long req = phase == 1 ? PTRACE_SYSCALL : PTRACE_SINGLESTEP;

		ASSERT_EQ(0, ptrace(req, pid, NULL, NULL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WIFEXITED(status))
			break;
		ASSERT_TRUE(WIFSTOPPED(status)) TH_LOG("status %#x", status);
		ASSERT_EQ(0, ptrace(PTRACE_GETREGS, pid, NULL, &regs));
		if (regs.rip >= lo && regs.rip < hi)
			in_xol++;
		if (WSTOPSIG(status) == SIGSTOP) {
			phase++;
			continue;
		}
		if (phase == 1) {
			stops++;
			uret_stops += regs.orig_rax == __NR_uretprobe;
			continue;
		}
		ASSERT_LT(++steps, MAX_STEPS);
		at_site += regs.rip == site;
		over += prev == site && regs.rip == site + 5;
		prev = regs.rip;
	}
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x", status);
	TH_LOG("%ld syscall stops, %ld steps, %ld at the nop, %ld over it",
	       stops, steps, at_site, over);
	EXPECT_EQ(0, uret_stops);
	EXPECT_EQ(0, in_xol);
	EXPECT_EQ(3, at_site);
	EXPECT_EQ(3, over);
	EXPECT_EQ(NCALLS + 4, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}

/* Kill the process on the system call the stub makes. */
static int st_seccomp_deny_uretprobe(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_uretprobe, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ?
	       -errno : 0;
}

/* Can this kernel filter system calls (CONFIG_SECCOMP_FILTER)? */
static bool st_have_seccomp(void)
{
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

/* A seccomp filter of the program never sees the stub's system call. */
TEST(seccomp_filter_does_not_see_stub)
{
	int status;
	char ev[64];
	pid_t pid;

	if (!st_have_seccomp())
		SKIP(return, "kernel without CONFIG_SECCOMP");
	st_probe_jumped(_metadata, ev, sizeof(ev));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (st_seccomp_deny_uretprobe())
			_exit(2);
		_exit(st_calls(NCALLS) ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x", status);
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}

static int st_sigsys;

static void st_sigsys_handler(int sig)
{
	__atomic_add_fetch(&st_sigsys, 1, __ATOMIC_SEQ_CST);
}

/*
 * Syscall user dispatch sends SIGSYS for every system call made outside
 * the program's allowed range: the stub's must not be one of them.
 */
TEST(syscall_user_dispatch_does_not_see_stub)
{
	/* Its address escapes: the stores around the calls stay. */
	static char selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	int status;
	char ev[64];
	pid_t pid;

	st_probe_jumped(_metadata, ev, sizeof(ev));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		long bad;

		signal(SIGSYS, st_sigsys_handler);
		if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
			  0, 0, &selector))
			_exit(2);
		selector = SYSCALL_DISPATCH_FILTER_BLOCK;
		bad = st_calls(NCALLS);
		selector = SYSCALL_DISPATCH_FILTER_ALLOW;
		_exit(bad ? 1 : __atomic_load_n(&st_sigsys, __ATOMIC_SEQ_CST) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x (exit 3: SIGSYS for the stub)", status);
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
}

struct st_worker {
	pthread_t th;
	long calls, bad;
	int *stop;
};

static void *st_worker_main(void *arg)
{
	struct st_worker *w = arg;

	while (!__atomic_load_n(w->stop, __ATOMIC_SEQ_CST)) {
		w->bad += st_calls(64);
		w->calls += 64;
	}
	return NULL;
}

/* Threads run the site while the probe goes in and out NTOGGLES times. */
TEST(toggle_under_threads)
{
	struct st_worker w[NTHREADS] = { 0 };
	int stop = 0, i;
	long long t0;
	char ev[64];

	st_probe(_metadata, ev, sizeof(ev), "site_nop5_probe", site_nop5_probe);
	for (i = 0; i < NTHREADS; i++) {
		w[i].stop = &stop;
		ASSERT_EQ(0, pthread_create(&w[i].th, NULL, st_worker_main,
					    &w[i]));
	}
	t0 = upng_now_ms();
	for (i = 0; i < NTOGGLES; i++) {
		ASSERT_EQ(0, upng_probe_enable(ev, false));
		usleep(1000);
		ASSERT_EQ(0, upng_probe_enable(ev, true));
		usleep(1000);
	}
	TH_LOG("%d toggles in %lld ms", NTOGGLES, upng_now_ms() - t0);
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(w[i].th, NULL);
		EXPECT_EQ(0, w[i].bad);
		EXPECT_LT(0, w[i].calls);
	}
	EXPECT_LT(0, upng_probe_hits(ev));
	EXPECT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, memcmp(site_nop5_probe, nop5, sizeof(nop5)));
}

/*
 * A stack with nothing mapped below the red zone (a fiber's, a
 * coroutine's, a tight sigaltstack): the probed nop runs as it does
 * unprobed, though the stub has no room for what it saves.
 */
TEST(tight_stack)
{
	char ev[64], *stack;

	st_probe_jumped(_metadata, ev, sizeof(ev));
	stack = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	ASSERT_NE(MAP_FAILED, stack);
	ASSERT_EQ(0, mprotect(stack + 4096, 4096, PROT_READ | PROT_WRITE));
	/* At the nop, 136 bytes of stack below the stack pointer. */
	EXPECT_EQ(SITE_WORK(7),
		  site_call_on_stack(7, stack + 4096 + 144, site_nop5));
	EXPECT_EQ(SITE_WORK(8),
		  site_call_on_stack(8, stack + 4096 + 144, site_nop5));
	EXPECT_EQ(3, upng_probe_hits(ev));
	ASSERT_EQ(0, upng_probe_del(ev));
	munmap(stack, 2 * 4096);
}

/*
 * A file of one page at @path (its name made from @tag) whose code is the
 * nop of @len bytes @nop, then "lea 0x1(%rdi,%rdi,2),%rax; ret", into
 * @code; its fd or -errno.
 */
static int st_code_file(const char *tag, const unsigned char *nop,
			size_t len, unsigned char *code, char *path,
			size_t path_len)
{
	static const unsigned char tail[SITE_TAIL] = {
		0x48, 0x8d, 0x44, 0x7f, 0x01, 0xc3,
	};
	unsigned char page[4096] = { 0 };

	if (len > MAX_NOP)
		return -E2BIG;
	memcpy(code, nop, len);
	memcpy(code + len, tail, sizeof(tail));
	snprintf(path, path_len, "/tmp/stubs-%s-%d", tag, getpid());
	memcpy(page, code, len + sizeof(tail));
	return upng_page_file(path, page);
}

/*
 * Code with a jump to its stub moved elsewhere by mremap(): the jump
 * moves, the stub does not; the moved code still runs right, probed.
 */
static void st_moved(struct __test_metadata *_metadata,
		     const unsigned char *nop, size_t len)
{
	unsigned char code[MAX_NOP + SITE_TAIL];
	char path[64], ev[64];
	long (*fn)(long x);
	void *p, *to;
	int fd;

	fd = st_code_file("moved", nop, len, code, path, sizeof(path));
	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(-fd));
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	upng_evname(ev, sizeof(ev), "moved");
	ASSERT_EQ(0, upng_probe_add(ev, path, 0, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	fn = (long (*)(long x))p;
	ASSERT_EQ(SITE_WORK(1), fn(1));
	ASSERT_NE(0UL, st_jump_target(p));
	to = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, to);
	p = mremap(p, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	ASSERT_EQ(to, p);
	fn = (long (*)(long x))p;
	EXPECT_EQ(SITE_WORK(2), fn(2));
	EXPECT_EQ(SITE_WORK(3), fn(3));
	EXPECT_EQ(3, upng_probe_hits(ev));
	ASSERT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, memcmp(p, code, len + SITE_TAIL));
	munmap(p, 4096);
	close(fd);
	unlink(path);
}

TEST(moved_code)
{
	st_moved(_metadata, nop5, sizeof(nop5));
}

/* Maps @path's page at @at (fixed, unless NULL), probes it, runs it. */
static void *st_map_probe_run(struct __test_metadata *_metadata,
			      const char *path, void *at, char *ev,
			      size_t ev_len, long x)
{
	int flags = MAP_PRIVATE | (at ? MAP_FIXED : 0);
	long (*fn)(long x);
	void *p;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return MAP_FAILED;
	p = mmap(at, 4096, PROT_READ | PROT_EXEC, flags, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return p;
	upng_evname(ev, ev_len, "again");
	EXPECT_EQ(0, upng_probe_add(ev, path, 0, NULL));
	EXPECT_EQ(0, upng_probe_enable(ev, true));
	fn = (long (*)(long x))p;
	EXPECT_EQ(SITE_WORK(x), fn(x));
	EXPECT_EQ(SITE_WORK(x + 1), fn(x + 1));
	EXPECT_EQ(2, upng_probe_hits(ev));
	return p;
}

/*
 * A five-byte nop of one file probed at an address (it got a stub there),
 * its probe and mapping gone, then a ten-byte nop of another file probed
 * at the same address: the second runs whole and gets its own bytes back
 * when its probe goes, while the first's stub stays in the XOL area.
 */
TEST(another_file_at_the_same_address)
{
	static const unsigned char nop10[10] = {
		0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	unsigned char code_a[MAX_NOP + SITE_TAIL], code_b[MAX_NOP + SITE_TAIL];
	char path_a[64], path_b[64], ev[64];
	long (*fn)(long x);
	int fd_a, fd_b;
	void *p, *q;

	fd_a = st_code_file("a", nop5, sizeof(nop5), code_a, path_a,
			    sizeof(path_a));
	ASSERT_LE(0, fd_a);
	fd_b = st_code_file("b", nop10, sizeof(nop10), code_b, path_b,
			    sizeof(path_b));
	ASSERT_LE(0, fd_b);
	close(fd_a);
	close(fd_b);

	p = st_map_probe_run(_metadata, path_a, NULL, ev, sizeof(ev), 1);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(0UL, st_jump_target(p));
	ASSERT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, memcmp(p, code_a, sizeof(nop5) + SITE_TAIL));
	ASSERT_EQ(0, munmap(p, 4096));

	q = st_map_probe_run(_metadata, path_b, p, ev, sizeof(ev), 3);
	ASSERT_EQ(p, q);
	ASSERT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, memcmp(q, code_b, sizeof(nop10) + SITE_TAIL));
	fn = (long (*)(long x))q;
	EXPECT_EQ(SITE_WORK(5), fn(5));
	munmap(q, 4096);
	unlink(path_a);
	unlink(path_b);
}

/* How debugfs uprobes/probes says our probe at file offset @off runs. */
static int st_probe_how(unsigned long off, char *how, size_t len)
{
	unsigned long ino, o;
	unsigned int maj, min;
	char line[256], kind[32];
	struct stat st;
	int err = -ENOENT;
	FILE *f;

	if (stat(upng_self_path(), &st))
		return -errno;
	f = fopen("/sys/kernel/debug/uprobes/probes", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lu 0x%lx %31s %u:%u", &ino, &o, kind, &maj,
			   &min) != 5 || ino != st.st_ino || o != off ||
		    maj != major(st.st_dev) || min != minor(st.st_dev))
			continue;
		snprintf(how, len, "%s", kind);
		err = 0;
	}
	fclose(f);
	return err;
}

/*
 * The nops of 6, 7, 8 and 10 bytes compilers pad with: each site is a
 * function whose first instruction is the nop (site_nop<n>), and a
 * function that runs it with every register, the flags and the red zone
 * set (site_nop<n>_regs).
 */
FIXTURE(long_nop) {
	char ev[64];
};

FIXTURE_VARIANT(long_nop) {
	const char *sym, *regs_sym;
	char *site, *regs_site;
	long (*fn)(long x);
	void (*regs_fn)(struct site_regs *out);
	unsigned char nop[MAX_NOP];
	size_t len;
};

FIXTURE_VARIANT_ADD(long_nop, nop6) {
	.sym = "site_nop6_probe", .site = site_nop6_probe, .fn = site_nop6,
	.regs_sym = "site_nop6_regs_probe",
	.regs_site = site_nop6_regs_probe, .regs_fn = site_nop6_regs,
	.nop = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 }, .len = 6,
};

FIXTURE_VARIANT_ADD(long_nop, nop7) {
	.sym = "site_nop7_probe", .site = site_nop7_probe, .fn = site_nop7,
	.regs_sym = "site_nop7_regs_probe",
	.regs_site = site_nop7_regs_probe, .regs_fn = site_nop7_regs,
	.nop = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 }, .len = 7,
};

FIXTURE_VARIANT_ADD(long_nop, nop8) {
	.sym = "site_nop8_probe", .site = site_nop8_probe, .fn = site_nop8,
	.regs_sym = "site_nop8_regs_probe",
	.regs_site = site_nop8_regs_probe, .regs_fn = site_nop8_regs,
	.nop = { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 }, .len = 8,
};

FIXTURE_VARIANT_ADD(long_nop, nop10) {
	.sym = "site_nop10_probe", .site = site_nop10_probe,
	.fn = site_nop10, .regs_sym = "site_nop10_regs_probe",
	.regs_site = site_nop10_regs_probe, .regs_fn = site_nop10_regs,
	.nop = { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	.len = 10,
};

FIXTURE_SETUP(long_nop)
{
	self->ev[0] = 0;
}

FIXTURE_TEARDOWN(long_nop)
{
	upng_hide_breakpoints(false);
	if (self->ev[0])
		upng_probe_del(self->ev);
}

/*
 * After the first hit the nop's first byte is a jump into [uprobes], the
 * rest of the nop and the code after it as they were; every call is one
 * hit with the right result. Readers of the process's memory see the
 * jump with breakpoints shown, the whole nop (read from its start or its
 * middle) with them hidden. debugfs says "jump". The nop comes back with
 * the probe, the same stub with the probe again.
 */
TEST_F(long_nop, jump_hits_readers)
{
	const size_t n = variant->len + SITE_TAIL;
	unsigned char orig[MAX_NOP + SITE_TAIL], cur[MAX_NOP + SITE_TAIL];
	unsigned char whole[MAX_NOP + SITE_TAIL], mid[MAX_NOP + SITE_TAIL];
	unsigned long lo, hi, target, off, site = (unsigned long)variant->site;
	struct iovec local = { whole, n }, remote = { variant->site, n };
	int whole_err, mid_err;
	ssize_t vm_read;
	char how[32];

	memcpy(orig, variant->site, n);
	off = st_probe_nop(_metadata, self->ev, sizeof(self->ev), variant->sym,
			   variant->site, variant->nop, variant->len);
	ASSERT_EQ(SITE_WORK(1), variant->fn(1));
	ASSERT_EQ(0xe9, (unsigned char)variant->site[0]);
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	target = st_jump_target((unsigned char *)variant->site);
	ASSERT_TRUE(target >= lo && target < hi)
		TH_LOG("jump to %lx, [uprobes] %lx-%lx", target, lo, hi);
	EXPECT_EQ(0, memcmp(variant->site + 5, orig + 5, n - 5));
	EXPECT_EQ(0, st_calls_fn(variant->fn, NCALLS));
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(self->ev));
	EXPECT_EQ(target, st_jump_target((unsigned char *)variant->site));
	ASSERT_EQ(0, st_probe_how(off, how, sizeof(how)));
	EXPECT_STREQ("jump", how);

	/* Shown: readers see what the program sees. */
	ASSERT_EQ(0, upng_mem_read(getpid(), site, cur, n));
	EXPECT_EQ(0, memcmp(cur, variant->site, n));
	/* Hidden: the nop, whoever reads and from wherever. */
	ASSERT_EQ(0, upng_hide_breakpoints(true));
	whole_err = upng_mem_read(getpid(), site, whole, n);
	mid_err = upng_mem_read(getpid(), site + 3, mid, n - 3);
	EXPECT_EQ(0, whole_err);
	EXPECT_EQ(0, mid_err);
	EXPECT_EQ(0, memcmp(whole, orig, n)) TH_LOG("/proc/PID/mem");
	EXPECT_EQ(0, memcmp(mid, orig + 3, n - 3)) TH_LOG("from byte 3");
	vm_read = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	ASSERT_EQ(0, upng_hide_breakpoints(false));
	EXPECT_EQ((ssize_t)n, vm_read);
	EXPECT_EQ(0, memcmp(whole, orig, n)) TH_LOG("process_vm_readv");
	EXPECT_EQ(0xe9, (unsigned char)variant->site[0]);

	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, memcmp(variant->site, orig, n));
	EXPECT_EQ(0, st_calls_fn(variant->fn, NCALLS));
	EXPECT_EQ(NCALLS + 1, upng_probe_hits(self->ev));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	EXPECT_EQ(0, st_calls_fn(variant->fn, 2));
	EXPECT_EQ(target, st_jump_target((unsigned char *)variant->site));
	EXPECT_EQ(NCALLS + 3, upng_probe_hits(self->ev));
	EXPECT_EQ(0, upng_probe_del(self->ev));
	self->ev[0] = 0;
	EXPECT_EQ(0, memcmp(variant->site, orig, n));
}

/* Registers, flags, stack pointer and the red zone after the nop. */
TEST_F(long_nop, registers_flags_red_zone)
{
	st_regs(_metadata, variant->regs_sym, variant->regs_site, variant->nop,
		variant->len, variant->regs_fn);
}

/*
 * A debugger single-stepping the program goes from the nop to the
 * instruction after the whole nop, never into [uprobes]; every execution
 * is a hit.
 */
TEST_F(long_nop, single_step)
{
	unsigned long lo, hi, prev = 0, site = (unsigned long)variant->site;
	long steps = 0, at_site = 0, over = 0, in_xol = 0;
	struct user_regs_struct regs;
	int status;
	pid_t pid;

	st_probe_nop(_metadata, self->ev, sizeof(self->ev), variant->sym,
		     variant->site, variant->nop, variant->len);
	ASSERT_EQ(0, st_calls_fn(variant->fn, 1));
	ASSERT_NE(0UL, st_jump_target((unsigned char *)variant->site));
	ASSERT_EQ(0, upng_xol_range(0, &lo, &hi));
	pid = upng_fork_traced(&status);
	if (!pid)
		_exit(st_calls_fn(variant->fn, 3) ? 1 : 0);
	ASSERT_LT(0, pid) TH_LOG("status %#x", status);
	for (;;) {
		ASSERT_EQ(0, ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WIFEXITED(status))
			break;
		ASSERT_TRUE(WIFSTOPPED(status)) TH_LOG("status %#x", status);
		ASSERT_EQ(0, ptrace(PTRACE_GETREGS, pid, NULL, &regs));
		ASSERT_LT(++steps, MAX_STEPS);
		in_xol += regs.rip >= lo && regs.rip < hi;
		at_site += regs.rip == site;
		over += prev == site && regs.rip == site + variant->len;
		prev = regs.rip;
	}
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x", status);
	TH_LOG("%ld steps, %ld at the nop, %ld over it", steps, at_site, over);
	EXPECT_EQ(0, in_xol);
	EXPECT_EQ(3, at_site);
	EXPECT_EQ(3, over);
	EXPECT_EQ(4, upng_probe_hits(self->ev));
}

/*
 * With no room for the stub's pushes below the red zone, the thread
 * takes the hit from the kernel and goes on after the whole nop.
 */
TEST_F(long_nop, tight_stack)
{
	char *stack;

	st_probe_nop(_metadata, self->ev, sizeof(self->ev), variant->sym,
		     variant->site, variant->nop, variant->len);
	ASSERT_EQ(0, st_calls_fn(variant->fn, 1));
	ASSERT_NE(0UL, st_jump_target((unsigned char *)variant->site));
	stack = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	ASSERT_NE(MAP_FAILED, stack);
	ASSERT_EQ(0, mprotect(stack + 4096, 4096, PROT_READ | PROT_WRITE));
	/* At the nop, 136 bytes of stack below the stack pointer. */
	EXPECT_EQ(SITE_WORK(7),
		  site_call_on_stack(7, stack + 4096 + 144, variant->fn));
	EXPECT_EQ(SITE_WORK(8),
		  site_call_on_stack(8, stack + 4096 + 144, variant->fn));
	EXPECT_EQ(3, upng_probe_hits(self->ev));
	munmap(stack, 2 * 4096);
}

/* Code with the jump of a long nop moved by mremap(). */
TEST_F(long_nop, moved_code)
{
	st_moved(_metadata, variant->nop, variant->len);
}

TEST_HARNESS_MAIN
