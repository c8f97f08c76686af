// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobe sessions: a BPF_TRACE_UPROBE_SESSION program runs at the entry
 * and at the return of each call of a probed function. Its entry run
 * returns 0 to get the return run, 1 to decline it; the two runs share a
 * u64 cookie (bpf_session_cookie()) of their own, per call, per link;
 * bpf_session_is_return() tells them apart.
 *
 * The program of these tests keeps the argument n plus the link's attach
 * cookie in the session cookie and declines the return of odd n. At the
 * return it adds the cookie's n to a sum and checks it against the
 * function's return value: every probed function returns
 * T(n) = n * (n + 1) / 2, so a return that got another call's cookie (of
 * another nesting level, thread or link) is counted as bad.
 *
 * Through the raw bpf() system call (the kfuncs by their BTF ids): the
 * guest's libbpf predates sessions.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__riscv)
#include <asm/ptrace.h>		/* user_regs_struct: glibc's <sys/user.h> is empty */
#endif

#include "kselftest_harness.h"
#include "upng.h"

/* enum bpf_attach_type and the link's flags, newer than some hosts' */
#define TRACE_UPROBE_MULTI	48
#define TRACE_UPROBE_SESSION	57
#define UPROBE_MULTI_RETURN	1

/* Offsets in the context, struct pt_regs, as user_regs_struct lays it out. */
#define REG(f)	offsetof(struct user_regs_struct, f)
#if defined(__x86_64__)
#define REG_ARG0	REG(rdi)
#define REG_RET		REG(rax)
#elif defined(__aarch64__)
#define REG_ARG0	REG(regs[0])
#define REG_RET		REG(regs[0])
#elif defined(__riscv)
#define REG_ARG0	REG(a0)
#define REG_RET		REG(a0)
#elif defined(__s390x__)
/*
 * s390's pt_regs starts as its UAPI user_pt_regs: args[1], the PSW (mask,
 * address), gprs[16]; glibc's user_regs_struct has no args[]. r2.
 */
#define REG_ARG0	(8 + 16 + 2 * 8)
#define REG_RET		REG_ARG0
#endif

/* What the program counts, u64s of its map's value. */
enum { ENTRIES, RETURNS, SUM, BAD, NVALUES };

static long T(long n)
{
	return n * (n + 1) / 2;
}

/*
 * The probed functions: each returns T(n) of its argument n; never
 * inlined, nor their recursion turned into a loop.
 */
__attribute__((noipa)) long sess_fn(long n)
{
	asm volatile("" : "+r"(n));
	return T(n);
}

__attribute__((noipa)) long sess_rec(long n)
{
	long r;

	if (n <= 0)
		return 0;
	r = sess_rec(n - 1);
	asm volatile("" : "+r"(r));
	return r + n;
}

static jmp_buf sess_jb;
static bool sess_jb_set;

/* With sess_jb set, never returns: the innermost call longjmp()s. */
__attribute__((noipa)) long sess_jump(long n)
{
	long r;

	if (n <= 0) {
		if (sess_jb_set)
			longjmp(sess_jb, 1);
		return 0;
	}
	r = sess_jump(n - 1);
	asm volatile("" : "+r"(r));
	return r + n;
}

/* Returns in the parent and in a child it forks, *PID as fork() gave. */
__attribute__((noipa)) long sess_fork(long n, pid_t *pid)
{
	*pid = fork();
	asm volatile("" : "+r"(n));
	return T(n);
}

#define I UPNG_BPF_INSN
#define MOV_X(d, s)	I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_K(d, k)	I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, k)
#define ADD_MAP(r, v)	I(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_7, r, 8 * (v), \
			  BPF_ADD)
#define KFUNC(id)	I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)
#define CALL(f)		I(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* The kfuncs' BTF ids (or -errno), once: a lookup reads all of its BTF. */
static int kf_is_return, kf_cookie;

static int kfunc_id(const char *name, int *id)
{
	if (!*id)
		*id = upng_bpf_kfunc(name);
	return *id;
}

/*
 * The session program counting into MAP (NVALUES u64s), loaded for
 * ATTACH_TYPE; with BAD_RET its entries return 2 or 3 instead of 0 or 1.
 * Its fd or -errno, LOG as for upng_bpf_load().
 */
static int session_prog_ret(unsigned int attach_type, int map, bool bad_ret,
			    char *log, size_t size)
{
	struct bpf_insn insns[] = {
		/* 0: r6 = ctx; r8 = bpf_get_attach_cookie(ctx) */
		MOV_X(BPF_REG_6, BPF_REG_1),
		CALL(BPF_FUNC_get_attach_cookie),
		MOV_X(BPF_REG_8, BPF_REG_0),
		/*
		 * 3: r9 = bpf_session_is_return(), a bool: only the low byte
		 * of r0 is set (x86's al)
		 */
		KFUNC(kfunc_id("bpf_session_is_return", &kf_is_return)),
		MOV_X(BPF_REG_9, BPF_REG_0),
		I(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_9, 0, 0, 0xff),
		/* 6: r7 = the map's value (key 0 at fp - 4), or goto 37 */
		I(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		MOV_X(BPF_REG_2, BPF_REG_10),
		I(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		I(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0,
		  map),
		I(0, 0, 0, 0, 0),
		CALL(BPF_FUNC_map_lookup_elem),
		I(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 37 - 13, 0),
		MOV_X(BPF_REG_7, BPF_REG_0),
		/* 14: r0 = bpf_session_cookie(); at a return goto 25 */
		KFUNC(kfunc_id("bpf_session_cookie", &kf_cookie)),
		I(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_9, 0, 25 - 16, 0),
		/* 16: entry: *cookie = n + attach cookie; count it */
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_6, REG_ARG0, 0),
		MOV_X(BPF_REG_2, BPF_REG_1),
		I(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_2, BPF_REG_8, 0, 0),
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_2, 0, 0),
		MOV_K(BPF_REG_3, 1),
		ADD_MAP(BPF_REG_3, ENTRIES),
		/* 22: return n & 1: decline the return of odd n */
		I(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_1, 0, 0, 1),
		MOV_X(BPF_REG_0, BPF_REG_1),
		EXIT,
		/* 25: return: n = *cookie - attach cookie; sum += n; count */
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_0, 0, 0),
		I(BPF_ALU64 | BPF_SUB | BPF_X, BPF_REG_1, BPF_REG_8, 0, 0),
		ADD_MAP(BPF_REG_1, SUM),
		MOV_K(BPF_REG_3, 1),
		ADD_MAP(BPF_REG_3, RETURNS),
		/* 30: bad unless 2 * the return value == n * (n + 1) */
		MOV_X(BPF_REG_2, BPF_REG_1),
		I(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, 1),
		I(BPF_ALU64 | BPF_MUL | BPF_X, BPF_REG_2, BPF_REG_1, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_4, BPF_REG_6, REG_RET, 0),
		I(BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_4, 0, 0, 1),
		I(BPF_JMP | BPF_JEQ | BPF_X, BPF_REG_4, BPF_REG_2, 1, 0),
		ADD_MAP(BPF_REG_3, BAD),
		/* 37: return 0 */
		MOV_K(BPF_REG_0, 0),
		EXIT,
	};

	if (kf_is_return < 0)
		return kf_is_return;
	if (kf_cookie < 0)
		return kf_cookie;
	if (bad_ret)
		insns[22] = I(BPF_ALU64 | BPF_OR | BPF_K, BPF_REG_1, 0, 0, 2);
	return upng_bpf_load(attach_type, insns, ARRAY_SIZE(insns),
			     "upng_session", log, size);
}

/* A session program and its map, for the cases. */
struct session {
	int map, prog, link;
};

static void session_open(struct __test_metadata *_metadata,
			 struct session *s)
{
	char log[4096];

	s->link = -1;
	s->map = upng_bpf_array(NVALUES * sizeof(__u64));
	ASSERT_LE(0, s->map);
	s->prog = session_prog_ret(TRACE_UPROBE_SESSION, s->map, false, log,
				   sizeof(log));
	ASSERT_LE(0, s->prog) TH_LOG("session program: %d: %s", s->prog, log);
}

/* Links S's program at SYM of this program, with COOKIE, for PID. */
static void session_link(struct __test_metadata *_metadata,
			 struct session *s, const char *sym, __u64 cookie,
			 pid_t pid)
{
	struct upng_sym sy;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), sym, &sy));
	s->link = upng_bpf_link(s->prog, TRACE_UPROBE_SESSION,
				upng_self_path(), &sy.offset, &cookie, 1, pid,
				0);
	ASSERT_LE(0, s->link) TH_LOG("session link at %s: %d", sym, s->link);
}

static void session_close(struct session *s)
{
	if (s->link >= 0)
		close(s->link);
	close(s->prog);
	close(s->map);
}

/* S's counts: entries, returns, sum and bad returns. */
static void session_expect(struct __test_metadata *_metadata,
			   struct session *s, __u64 entries, __u64 returns,
			   __u64 sum)
{
	__u64 v[NVALUES];

	ASSERT_EQ(0, upng_bpf_array_read(s->map, v));
	EXPECT_EQ(entries, v[ENTRIES]);
	EXPECT_EQ(returns, v[RETURNS]);
	EXPECT_EQ(sum, v[SUM]);
	EXPECT_EQ(0ULL, v[BAD]) TH_LOG("returns with another call's cookie");
}

/* Each call's entry, and the return of the calls it did not decline. */
TEST(entry_and_return)
{
	struct session s;
	long n;

	session_open(_metadata, &s);
	session_link(_metadata, &s, "sess_fn", 0, getpid());
	for (n = 0; n < 10; n++)
		EXPECT_EQ(T(n), sess_fn(n));
	/* Returns of 0, 2, 4, 6 and 8. */
	session_expect(_metadata, &s, 10, 5, 20);
	session_close(&s);
}

/*
 * Recursion 64 levels deep, 32 returns pending at once: each level's
 * return gets its own level's cookie; odd levels declined theirs,
 * between even ones.
 */
TEST(recursion)
{
	struct session s;

	session_open(_metadata, &s);
	session_link(_metadata, &s, "sess_rec", 0, getpid());
	EXPECT_EQ(T(63), sess_rec(63));
	/* Levels 0, 2, ..., 62 return: 32 of them, their sum 992. */
	session_expect(_metadata, &s, 64, 32, 992);
	EXPECT_EQ(T(4), sess_rec(4));
	session_expect(_metadata, &s, 69, 35, 998);
	session_close(&s);
}

/*
 * Deeper than MAX_URETPROBE_DEPTH (64) pending returns: levels 130 down
 * to 4 (the even ones) are watched, 2 and 0 are entered without, and
 * every watched one still gets its own cookie.
 */
TEST(deeper_than_the_limit)
{
	struct session s;

	session_open(_metadata, &s);
	session_link(_metadata, &s, "sess_rec", 0, getpid());
	EXPECT_EQ(T(130), sess_rec(130));
	/* 4 + 6 + ... + 130 = 2 * (2 + 3 + ... + 65) */
	session_expect(_metadata, &s, 131, 64, 2 * (T(65) - 1));
	session_close(&s);
}

/*
 * Calls left with longjmp() never return: their sessions end without a
 * return run, and the next calls' sessions get their own cookies.
 */
TEST(left_with_longjmp)
{
	struct session fn, jump;

	session_open(_metadata, &fn);
	session_link(_metadata, &fn, "sess_fn", 0, getpid());
	session_open(_metadata, &jump);
	session_link(_metadata, &jump, "sess_jump", 0, getpid());
	sess_jb_set = true;
	if (!setjmp(sess_jb)) {
		sess_jump(5);
		ASSERT_TRUE(false) TH_LOG("sess_jump() returned");
	}
	/* Levels 5 to 0 entered, the even ones waiting: none returned. */
	session_expect(_metadata, &jump, 6, 0, 0);
	EXPECT_EQ(T(4), sess_fn(4));
	session_expect(_metadata, &fn, 1, 1, 4);
	session_expect(_metadata, &jump, 6, 0, 0);
	session_close(&jump);
	session_close(&fn);
}

/*
 * Six links on one function (more consumers than a pending return has
 * room for at first), each with its own attach cookie: each link's
 * returns get its own session cookie, over thousands of calls.
 */
#define NLINKS	6
#define NCALLS	3000

TEST(many_links)
{
	struct session s[NLINKS];
	__u64 sum = 0, returns = 0;
	int i;

	for (i = 0; i < NLINKS; i++) {
		session_open(_metadata, &s[i]);
		session_link(_metadata, &s[i], "sess_fn", 1000 * (i + 1),
			     getpid());
	}
	for (i = 0; i < NCALLS; i++) {
		EXPECT_EQ(T(i % 64), sess_fn(i % 64));
		if (!(i & 1)) {
			sum += i % 64;
			returns++;
		}
	}
	for (i = 0; i < NLINKS; i++) {
		session_expect(_metadata, &s[i], NCALLS, returns, sum);
		session_close(&s[i]);
	}
}

#define NTHREADS	4
#define NROUNDS		200

static void *recurse(void *arg)
{
	long i, bad = 0;

	for (i = 0; i < NROUNDS; i++)
		bad += sess_rec(20) != T(20);
	return (void *)bad;
}

/* Threads of one process, each with its own sessions at once. */
TEST(threads)
{
	pthread_t t[NTHREADS];
	struct session s;
	void *bad;
	int i;

	session_open(_metadata, &s);
	session_link(_metadata, &s, "sess_rec", 0, getpid());
	for (i = 0; i < NTHREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, recurse, NULL));
	for (i = 0; i < NTHREADS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], &bad));
		EXPECT_EQ(NULL, bad);
	}
	/* Per round 21 entries, levels 0, 2, ..., 20 return (sum 110). */
	session_expect(_metadata, &s, NTHREADS * NROUNDS * 21,
		       NTHREADS * NROUNDS * 11, NTHREADS * NROUNDS * 110);
	session_close(&s);
}

/*
 * A call that forks returns twice: the child's copy of the pending return
 * keeps the session and its cookie.
 */
TEST(call_that_forks)
{
	struct session s;
	pid_t pid;
	long r;
	int st;

	session_open(_metadata, &s);
	/* Every process: the child is another one. */
	session_link(_metadata, &s, "sess_fork", 0, 0);
	r = sess_fork(6, &pid);
	if (!pid)
		_exit(r == T(6) ? 0 : 1);
	ASSERT_LT(0, pid);
	EXPECT_EQ(T(6), r);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, st);
	session_expect(_metadata, &s, 1, 2, 12);
	session_close(&s);
}

/*
 * A session declining its return declines only its own: a return program
 * of another link on the same function still runs.
 */
TEST(decline_is_per_link)
{
	struct upng_sym sy;
	struct session s;
	int map, prog, link, i;

	session_open(_metadata, &s);
	session_link(_metadata, &s, "sess_fn", 0, getpid());
	prog = upng_bpf_counter_prog(&map, NULL, 0);
	ASSERT_LE(0, prog);
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "sess_fn", &sy));
	link = upng_bpf_multi_link_flags(prog, upng_self_path(), &sy.offset,
					 1, getpid(), UPROBE_MULTI_RETURN);
	ASSERT_LE(0, link);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(T(7), sess_fn(7));
	session_expect(_metadata, &s, 3, 0, 0);
	EXPECT_EQ(3, upng_bpf_counter(map));
	close(link);
	close(prog);
	close(map);
	session_close(&s);
}

/*
 * Refused: an entry returning other than 0 or 1; the session kfuncs in a
 * uprobe_multi program; a session program in a uprobe_multi link and the
 * other way round; a session link for returns only; a session program on
 * a perf event, whose run context has no session (its kfuncs would read
 * what is not there).
 */
TEST(refused)
{
	struct perf_event_attr attr;
	struct upng_sym sy;
	struct session s;
	char log[4096];
	int prog, link, map, fd;

	session_open(_metadata, &s);
	prog = session_prog_ret(TRACE_UPROBE_SESSION, s.map, true, NULL, 0);
	EXPECT_GT(0, prog);
	if (prog >= 0)
		close(prog);
	prog = session_prog_ret(TRACE_UPROBE_MULTI, s.map, false, log,
				sizeof(log));
	EXPECT_GT(0, prog);
	if (prog >= 0)
		close(prog);

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "sess_fn", &sy));
	link = upng_bpf_link(s.prog, TRACE_UPROBE_MULTI, upng_self_path(),
			     &sy.offset, NULL, 1, getpid(), 0);
	EXPECT_EQ(-EINVAL, link);
	link = upng_bpf_link(s.prog, TRACE_UPROBE_SESSION, upng_self_path(),
			     &sy.offset, NULL, 1, getpid(), UPROBE_MULTI_RETURN);
	EXPECT_EQ(-EINVAL, link);
	memset(&attr, 0, sizeof(attr));
	attr.disabled = 1;
	fd = upng_perf_uprobe_open_attr(&attr, upng_self_path(), sy.offset, 0);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %d", fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, s.prog));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	prog = upng_bpf_counter_prog(&map, NULL, 0);
	ASSERT_LE(0, prog);
	link = upng_bpf_link(prog, TRACE_UPROBE_SESSION, upng_self_path(),
			     &sy.offset, NULL, 1, getpid(), 0);
	EXPECT_EQ(-EINVAL, link);
	close(prog);
	close(map);
	session_close(&s);
}

TEST_HARNESS_MAIN
