// SPDX-License-Identifier: GPL-2.0
/*
 * A thread remembers the probes it hit last, by address, and uses such an
 * entry while its address space's mappings and breakpoints have not
 * changed.  These cases change them under the remembered address and
 * check that every hit is counted for the probe whose instruction ran:
 * two files with a probe at the same offset take turns at one address
 * (mmap MAP_FIXED), sequentially (exact hit counts) and while another
 * thread runs the code (every traced hit matches the code that ran);
 * a probe is deleted and defined again at the same place; an address
 * recorded for one file's breakpoint, the other file mapped there since.
 *
 * Each file is one page of code, "mov $N,%eax; ret" ("mov w0, #N; ret" on
 * arm64): what a call returns tells which file ran, the probes' hit counts
 * must match exactly.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "upng.h"

#define PAGE		4096
#define CALLS		200	/* calls per mapping in the sequential cases */
#define SWITCHES	300	/* remaps while a thread runs the code */

typedef int (*code_fn)(void);

#define LOAD(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define STORE(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)

FIXTURE(hitcache) {
	char path[2][64];
	char ev[2][64];
	int fd[2];
	void *addr;
};

/* A page of code returning @n, written to a new file at @path. */
static int write_code(const char *path, int n)
{
	unsigned char page[PAGE];

#if defined(__aarch64__)
	uint32_t insn[2] = {
		0x52800000 | (uint32_t)n << 5,	/* mov w0, #n */
		0xd65f03c0,			/* ret */
	};

	memset(page, 0, sizeof(page));		/* udf #0 */
	memcpy(page, insn, sizeof(insn));
#elif defined(__riscv)
	uint32_t insn[2] = {
		0x00000513 | (uint32_t)n << 20,	/* li a0, n (addi a0, zero, n) */
		0x00008067,			/* ret */
	};

	memset(page, 0, sizeof(page));		/* illegal instruction */
	memcpy(page, insn, sizeof(insn));
#elif defined(__s390x__)
	memset(page, 0, sizeof(page));		/* no instruction */
	page[0] = 0xc0;				/* lgfi %r2, n */
	page[1] = 0x21;
	page[2] = (uint32_t)n >> 24;
	page[3] = (uint32_t)n >> 16;
	page[4] = (uint32_t)n >> 8;
	page[5] = (uint32_t)n;
	page[6] = 0x07;				/* br %r14 */
	page[7] = 0xfe;
#else
	memset(page, 0xcc, sizeof(page));
	page[0] = 0xb8;			/* mov $n, %eax */
	memcpy(page + 1, &n, 4);
	page[5] = 0xc3;			/* ret */
#endif
	return upng_page_file(path, page);
}

/* Maps file @i at the fixture's address (replacing what is there). */
static int map_file(struct _test_data_hitcache *self, int i)
{
	void *p = mmap(self->addr, PAGE, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_FIXED, self->fd[i], 0);

	return p == self->addr ? 0 : -errno;
}

FIXTURE_SETUP(hitcache)
{
	int i;

	upng_die_with_parent();
	ASSERT_EQ(0, upng_trace_reset());
	self->addr = MAP_FAILED;
	for (i = 0; i < 2; i++) {
		snprintf(self->path[i], sizeof(self->path[i]),
			 "/tmp/hitcache-%d-%d", getpid(), i);
		self->fd[i] = write_code(self->path[i], i + 1);
		ASSERT_LE(0, self->fd[i]) TH_LOG("%s: %s", self->path[i],
						 strerror(-self->fd[i]));
		upng_evname(self->ev[i], sizeof(self->ev[i]), i ? "hcb" : "hca");
		ASSERT_EQ(0, upng_probe_add(self->ev[i], self->path[i], 0, NULL));
		ASSERT_EQ(0, upng_probe_enable(self->ev[i], true));
	}
	self->addr = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			  self->fd[0], 0);
	ASSERT_NE(MAP_FAILED, self->addr);
}

FIXTURE_TEARDOWN(hitcache)
{
	int i;

	if (self->addr != MAP_FAILED)
		munmap(self->addr, PAGE);
	for (i = 0; i < 2; i++) {
		upng_probe_del(self->ev[i]);
		if (self->fd[i] >= 0)
			close(self->fd[i]);
		unlink(self->path[i]);
	}
}

/* Calls the code at @addr @n times; each call must return @want. */
static int call_n(void *addr, int n, int want)
{
	code_fn fn = (code_fn)addr;
	int i, r;

	for (i = 0; i < n; i++) {
		r = fn();
		if (r != want)
			return r;
	}
	return want;
}

/* The two files take turns at one address: each hit goes to its own probe. */
TEST_F(hitcache, remap_other_file)
{
	long want[2] = { 0, 0 };
	int round, i;

	for (round = 0; round < 6; round++) {
		i = round & 1;
		ASSERT_EQ(0, map_file(self, i));
		ASSERT_EQ(i + 1, call_n(self->addr, CALLS, i + 1))
			TH_LOG("round %d: file %d's code did not run", round, i);
		want[i] += CALLS;
		ASSERT_EQ(want[0], upng_probe_hits(self->ev[0]))
			TH_LOG("round %d", round);
		ASSERT_EQ(want[1], upng_probe_hits(self->ev[1]))
			TH_LOG("round %d", round);
	}
}

/* The same file again, after an munmap and a new mmap at the same place. */
TEST_F(hitcache, unmap_and_map_again)
{
	ASSERT_EQ(1, call_n(self->addr, CALLS, 1));
	ASSERT_EQ(0, munmap(self->addr, PAGE));
	ASSERT_EQ(0, map_file(self, 0));
	ASSERT_EQ(1, call_n(self->addr, CALLS, 1));
	ASSERT_EQ(2 * CALLS, upng_probe_hits(self->ev[0]));
	ASSERT_EQ(0, upng_probe_hits(self->ev[1]));
}

/* A probe deleted and defined again: the new one gets the hits. */
TEST_F(hitcache, probe_defined_again)
{
	char ev[64];

	ASSERT_EQ(1, call_n(self->addr, CALLS, 1));
	ASSERT_EQ(CALLS, upng_probe_hits(self->ev[0]));
	ASSERT_EQ(0, upng_probe_del(self->ev[0]));
	/* No probe there now: the original instruction runs, unseen. */
	ASSERT_EQ(1, call_n(self->addr, CALLS, 1));
	upng_evname(ev, sizeof(ev), "hca2");
	ASSERT_EQ(0, upng_probe_add(ev, self->path[0], 0, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	ASSERT_EQ(1, call_n(self->addr, CALLS, 1));
	ASSERT_EQ(CALLS, upng_probe_hits(ev));
	ASSERT_EQ(0, upng_probe_hits(self->ev[1]));
	ASSERT_EQ(0, upng_probe_del(ev));
}

/*
 * The record of the engine's breakpoints can keep an address its mapping
 * left (it is pruned as it grows). The other file mapped there since, its
 * code changed by the program itself into the engine's breakpoint
 * instruction, then probed at that offset: that breakpoint is the
 * program's. Readers see it, and it stays when the probe goes.
 */
TEST_F(hitcache, stale_address_other_file)
{
	unsigned char buf[UPNG_BKPT_SIZE];

	ASSERT_EQ(0, upng_probe_del(self->ev[1]));
	ASSERT_EQ(1, call_n(self->addr, 1, 1));
	ASSERT_EQ(1, upng_probe_hits(self->ev[0]));
	ASSERT_EQ(0, munmap(self->addr, PAGE));
	ASSERT_EQ(0, map_file(self, 1));
	ASSERT_EQ(0, mprotect(self->addr, PAGE,
			      PROT_READ | PROT_WRITE | PROT_EXEC));
	upng_insn_put(self->addr, UPNG_BKPT_SIZE, UPNG_BKPT);
	ASSERT_EQ(0, mprotect(self->addr, PAGE, PROT_READ | PROT_EXEC));

	ASSERT_EQ(0, upng_probe_add(self->ev[1], self->path[1], 0, NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev[1], true));
	ASSERT_EQ(0, upng_mem_read(getpid(), (unsigned long)self->addr, buf,
				   sizeof(buf)));
	EXPECT_TRUE(upng_is_bkpt(buf))
		TH_LOG("a reader sees the file's instruction, not the program's breakpoint");
	ASSERT_EQ(0, upng_probe_del(self->ev[1]));
	EXPECT_TRUE(upng_is_bkpt(self->addr))
		TH_LOG("the probe's removal took the program's breakpoint out");
}

#define MAX_CALLS	2000000L	/* calls the running thread records */
#define MAX_TRACED	65536L		/* traced hits checked per probe */

typedef int (*code_fn_i)(long i);

struct runner {
	void *addr;
	int stop;
	long calls;
	unsigned char *ret;	/* what call i returned */
};

/* Calls the code with the call's number in %rdi, which the probes trace. */
static void *run_code(void *arg)
{
	struct runner *r = arg;
	code_fn_i fn = (code_fn_i)r->addr;
	long i;

	for (i = 0; i < MAX_CALLS && !LOAD(r->stop); i++)
		r->ret[i] = fn(i);
	r->calls = i;
	return NULL;
}

/*
 * Another thread calls the code while this one switches the files. Every
 * traced hit must be of the probe of the file whose instruction the call
 * then ran: each probe records the call's number, the thread what each
 * call returned. (Calls that ran while a new mapping's breakpoint was
 * still being inserted are not traced, on the stock engine as on ours: a
 * thread racing with the mmap() that replaces its code may run it.)
 */
/* Slow on a debug kernel under TCG: every call is a traced hit. */
TEST_F_TIMEOUT(hitcache, remap_while_running, 300)
{
	static unsigned long long vals[MAX_TRACED];
	struct runner r = { .addr = self->addr };
	long n[2], hits[2], k, j, i;
	char *trace;
	pthread_t t;

	r.ret = calloc(MAX_CALLS, 1);
	ASSERT_NE(NULL, r.ret);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_probe_del(self->ev[i]));
		ASSERT_EQ(0, upng_probe_add(self->ev[i], self->path[i], 0,
					    "i=" UPNG_ARG1 ":u64"));
		ASSERT_EQ(0, upng_probe_enable(self->ev[i], true));
	}
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, pthread_create(&t, NULL, run_code, &r));
	for (i = 0; i < SWITCHES && !LOAD(r.calls); i++) {
		ASSERT_EQ(0, map_file(self, (i + 1) & 1));
		usleep(500);
	}
	STORE(r.stop, 1);
	ASSERT_EQ(0, pthread_join(t, NULL));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_probe_enable(self->ev[i], false));
		hits[i] = upng_probe_hits(self->ev[i]);
	}

	trace = upng_trace_read();
	ASSERT_NE(NULL, trace);
	for (k = 0; k < 2; k++) {
		n[k] = upng_trace_values(trace, self->ev[k], "i=", vals,
					 MAX_TRACED);
		for (j = 0; j < n[k] && j < MAX_TRACED; j++) {
			ASSERT_GT(r.calls, (long)vals[j]) TH_LOG("%s", self->ev[k]);
			ASSERT_EQ(k + 1, r.ret[vals[j]])
				TH_LOG("call %llu: hit of %s, ran file %d's code",
				       vals[j], self->ev[k], r.ret[vals[j]] - 1);
		}
	}
	free(trace);
	for (i = n[0] = n[1] = 0; i < r.calls; i++)
		if (r.ret[i] == 1 || r.ret[i] == 2)
			n[r.ret[i] - 1]++;
	TH_LOG("%ld calls: %ld ran file 0 (%ld hits), %ld file 1 (%ld hits)",
	       r.calls, n[0], hits[0], n[1], hits[1]);
	ASSERT_EQ(r.calls, n[0] + n[1]);
	/* Both files ran with their probes, no hit without its code. */
	for (k = 0; k < 2; k++) {
		ASSERT_LT(0, hits[k]);
		ASSERT_GE(n[k], hits[k]);
	}
	free(r.ret);
}

/* The program's own breakpoint instruction. */
#if defined(__aarch64__)
static const uint32_t own_bkpt = 0xd4200000;	/* brk #0 */
#elif defined(__riscv)
static const uint32_t own_bkpt = 0x00100073;	/* ebreak */
#elif defined(__s390x__)
/*
 * s390: the engine's own encoding, 0x0002, the only one that raises
 * SIGTRAP in a process that is not traced (gdb's 0x0001 gives SIGILL
 * there); where no probe is, the engine sends SIGTRAP, as on x86.
 */
static const uint16_t own_bkpt = 0x0002;
#else
static const unsigned char own_bkpt = 0xcc;	/* int3 */
#endif

static int blocker_fd[2] = { -1, -1 };	/* [0]: go on, [1]: inside */
static sigjmp_buf trap_jmp;
static int traps;

static void noop(void)
{
}

/* Called inside the probed function: says so, then waits to be let go. */
static void block(void)
{
	char c = 'i';

	if (write(blocker_fd[1], &c, 1) != 1 || read(blocker_fd[0], &c, 1) != 1)
		_exit(3);
}

static void on_trap(int sig)
{
	__atomic_add_fetch(&traps, 1, __ATOMIC_SEQ_CST);
	siglongjmp(trap_jmp, 1);
}

/* Calls @fn(noop): 1 if it trapped (the program's own breakpoint), else 0. */
static int call_trapped(upng_caller_fn fn)
{
	int before = LOAD(traps);

	if (!sigsetjmp(trap_jmp, 1))
		fn(noop);
	return LOAD(traps) - before;
}

/*
 * A return probe's instance, pending in one process, keeps the probe
 * after its event is deleted. Another process that wrote its own
 * breakpoint at the probed address gets its SIGTRAP each time, before and
 * after the first process returns, exits and drops the probe: a probe
 * with no breakpoint left is nobody's, and a thread's memory of the
 * probes it hit never outlives them (a use after free under KASAN).
 */
TEST(own_breakpoint_at_dead_probe)
{
	int to_child[2], from_child[2], status, fd;
	char path[64], ev[64], c;
	struct sigaction sa = { .sa_handler = on_trap };
	upng_caller_fn fn;
	pid_t pid;
	void *p;

	upng_die_with_parent();
	snprintf(path, sizeof(path), "/tmp/hitcache-own-%d", getpid());
	fd = upng_caller_file(path);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", path, strerror(-fd));
	upng_evname(ev, sizeof(ev), "hcown");
	ASSERT_EQ(0, upng_retprobe_add(ev, path, 0, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		blocker_fd[0] = to_child[0];
		blocker_fd[1] = from_child[1];
		p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			_exit(2);
		((upng_caller_fn)p)(block);
		_exit(0);
	}
	/* The child is inside: its return instance holds the probe. */
	ASSERT_EQ(1, read(from_child[0], &c, 1));
	/* This process gets the breakpoint, and loses it with the event. */
	p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, upng_probe_del(ev));

	ASSERT_EQ(0, mprotect(p, PAGE, PROT_READ | PROT_WRITE));
	memcpy(p, &own_bkpt, sizeof(own_bkpt));
	__builtin___clear_cache(p, (char *)p + PAGE);
	ASSERT_EQ(0, mprotect(p, PAGE, PROT_READ | PROT_EXEC));
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	fn = (upng_caller_fn)p;

	EXPECT_EQ(1, call_trapped(fn)) TH_LOG("own breakpoint swallowed");
	EXPECT_EQ(1, call_trapped(fn)) TH_LOG("own breakpoint swallowed");

	/* The child returns through the trampoline, exits: the probe goes. */
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status 0x%x", status);
	usleep(200000);		/* past the probe's grace period */

	EXPECT_EQ(1, call_trapped(fn)) TH_LOG("after the probe went");
	EXPECT_EQ(1, call_trapped(fn)) TH_LOG("after the probe went");
	signal(SIGTRAP, SIG_DFL);
	munmap(p, PAGE);
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
