// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes and tail calls: a return-probed function entered by a jmp
 * from another return-probed one (whose return address slot therefore
 * already holds the trampoline) shares its caller's frame.  Both
 * functions' returns are reported, innermost first, with the value the
 * last one returns, the program sees that value, and return probes of
 * the callers further out are not disturbed.  The same for a function
 * that tail-calls itself and for a chain of tail calls, for chains left
 * with siglongjmp() (their returns are never reported, and the next
 * return is reported right whether it is found at a function entry or at
 * the trampoline), and a program that finds the trampoline's address on
 * its stack and pushes it as a return address itself may get a signal,
 * but the kernel must not warn.
 *
 * The probed functions are in tailcall.S, run by bin/tailcall64 and
 * bin/tailcall32 (tailcall_target.c); each case gives the target a list
 * of steps, works out the events each step must trace and the value it
 * must print, and compares them with the trace and the target's output.
 *
 * A perf callchain taken inside such a chain (callchain_through_tail_call)
 * names each frame's real return address where the stack holds the
 * trampoline: one trampoline address stands for the whole chain.
 *
 * On arm64 they are in tailcall_a64.S, run by bin/tailcalla64: the return
 * address is in x30 at a function's entry, a return probe diverts x30,
 * and a function tail-called with b is entered with the caller's x30,
 * the trampoline, and its sp.  The same cases run there; there is no
 * 32-bit variant (arm64 refuses AArch32 code).  On s390 they are in
 * tailcall_s390.S, run by bin/tailcalls390, the same way with r14 and
 * r15 (the 31-bit compat mode is not built), and on riscv64 in
 * tailcall_riscv.S, run by bin/tailcallrv64, with ra and sp.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "kselftest_harness.h"
#include "tailcall.h"
#include "upng.h"

#define RECV_MS 10000
#if defined(__aarch64__)
#define TC_BIN "tailcalla64"
#else
#define TC_BIN "tailcall64"
#endif
#define MAX_EV 512
#define MAX_LINES 64

enum tc_fn {
	F_A, F_B, F_O, F_R, F_C, F_D, F_E, F_LC, F_LD, F_K, F_P, F_FL, NFN
};

#define BIT(f) (1u << (f))

static const struct {
	const char *sym, *label;
} fns[NFN] = {
	[F_A] = { "tc_a", "A" },
	[F_B] = { "tc_b", "B" },
	[F_O] = { "tc_outer", "O" },
	[F_R] = { "tc_r", "R" },
	[F_C] = { "tc_c", "C" },
	[F_D] = { "tc_d", "D" },
	[F_E] = { "tc_e", "E" },
	[F_LC] = { "tc_lc", "LC" },
	[F_LD] = { "tc_ld", "LD" },
	[F_K] = { "tc_catch", "K" },
	[F_P] = { "tc_peek", "P" },
	[F_FL] = { "tc_fl", "FL" },
};

/* A traced event, or (any != 0) any number of events of those functions. */
struct ev {
	int fn;
	bool ret;
	unsigned long long val;
	unsigned int any;
};

struct seq {
	struct ev ev[MAX_EV];
	int n;
};

static void seq_add(struct seq *s, int fn, bool ret, unsigned long long val,
		    unsigned int any)
{
	if (s->n < MAX_EV)
		s->ev[s->n] = (struct ev){ fn, ret, val, any };
	s->n++;
}

/* "A>5 B>105 B<322 A<322 {B}*" into BUF. */
static const char *seq_str(const struct seq *s, char *buf, size_t len)
{
	size_t at = 0;
	int i, f;

	buf[0] = '\0';
	for (i = 0; i < s->n && i < MAX_EV && at + 64 < len; i++) {
		const struct ev *e = &s->ev[i];

		if (e->any) {
			at += snprintf(buf + at, len - at, " {");
			for (f = 0; f < NFN; f++)
				if (e->any & BIT(f))
					at += snprintf(buf + at, len - at,
						       " %s", fns[f].label);
			at += snprintf(buf + at, len - at, " }*");
			continue;
		}
		at += snprintf(buf + at, len - at, " %s%c%llu",
			       fns[e->fn].label, e->ret ? '<' : '>', e->val);
	}
	if (i < s->n)
		snprintf(buf + at, len - at, " ...(%d events)", s->n);
	return buf;
}

/*
 * Whether GOT[J..] is WANT[I..]; a wildcard takes as few events as it can.
 * *AT: the furthest index in GOT matched.
 */
static bool seq_match_at(const struct seq *want, int i, const struct seq *got,
			 int j, int *at)
{
	const struct ev *w;

	for (; i < want->n; i++, j++) {
		if (j > *at)
			*at = j;
		w = &want->ev[i];
		if (w->any) {
			if (seq_match_at(want, i + 1, got, j, at))
				return true;
			return j < got->n && (w->any & BIT(got->ev[j].fn)) &&
			       seq_match_at(want, i, got, j + 1, at);
		}
		if (j >= got->n || got->ev[j].fn != w->fn ||
		    got->ev[j].ret != w->ret || got->ev[j].val != w->val)
			return false;
	}
	if (j > *at)
		*at = j;
	return j == got->n;
}

static bool seq_match(const struct seq *want, const struct seq *got, int *at)
{
	*at = 0;
	if (want->n > MAX_EV || got->n > MAX_EV)
		return false;
	return seq_match_at(want, 0, got, 0, at);
}

/*
 * The model: what each function of tailcall.S returns and which events
 * it traces.  A tail call is traced like a nested call: the entries in
 * order, then the returns innermost first, all with the same value.
 */
struct model {
	struct seq *want;
	unsigned int probed;
	unsigned long long mask;	/* width of the target's long */
};

static void m_ev(struct model *m, int fn, bool ret, unsigned long long v)
{
	if (m->probed & BIT(fn))
		seq_add(m->want, fn, ret, v & m->mask, 0);
}

typedef unsigned long long (*m_fn)(struct model *m, unsigned long long x,
				   unsigned long long y);

static unsigned long long m_b(struct model *m, unsigned long long x,
			      unsigned long long y)
{
	unsigned long long v = (3 * x + 7) & m->mask;

	m_ev(m, F_B, false, x);
	m_ev(m, F_B, true, v);
	return v;
}

static unsigned long long m_a(struct model *m, unsigned long long x,
			      unsigned long long y)
{
	unsigned long long v;

	m_ev(m, F_A, false, x);
	v = m_b(m, (x + 100) & m->mask, 0);
	m_ev(m, F_A, true, v);
	return v;
}

static unsigned long long m_outer(struct model *m, unsigned long long x,
				  unsigned long long y, m_fn fn)
{
	unsigned long long v;

	m_ev(m, F_O, false, x);
	v = (fn(m, x, y) + 1000) & m->mask;
	m_ev(m, F_O, true, v);
	return v;
}

static unsigned long long m_r(struct model *m, unsigned long long n,
			      unsigned long long acc)
{
	unsigned long long v;

	m_ev(m, F_R, false, n);
	v = n ? m_r(m, n - 1, (3 * acc + n) & m->mask) : acc;
	m_ev(m, F_R, true, v);
	return v;
}

static unsigned long long m_e(struct model *m, unsigned long long x)
{
	unsigned long long v = (5 * x + 11) & m->mask;

	m_ev(m, F_E, false, x);
	m_ev(m, F_E, true, v);
	return v;
}

static unsigned long long m_d(struct model *m, unsigned long long x)
{
	unsigned long long v;

	m_ev(m, F_D, false, x);
	v = m_e(m, (x + 5) & m->mask);
	m_ev(m, F_D, true, v);
	return v;
}

static unsigned long long m_c(struct model *m, unsigned long long x,
			      unsigned long long y)
{
	unsigned long long v;

	m_ev(m, F_C, false, x);
	v = m_d(m, (2 * x) & m->mask);
	m_ev(m, F_C, true, v);
	return v;
}

/* tc_lc -> tc_ld -> tc_escape: entries only; the value escaping. */
static unsigned long long m_lc(struct model *m, unsigned long long x)
{
	m_ev(m, F_LC, false, x);
	m_ev(m, F_LD, false, (2 * x) & m->mask);
	return (2 * x + 5) & m->mask;
}

static unsigned long long m_catch(struct model *m, unsigned long long x,
				  unsigned long long mode)
{
	unsigned long long v;

	m_ev(m, F_K, false, x);
	v = m_lc(m, x);
	if (mode)
		v = m_a(m, v, 0);
	v = (v + 2000) & m->mask;
	m_ev(m, F_K, true, v);
	return v;
}

/* ljn: N times tc_lc(I) left by longjmp, then tc_a(N). */
static unsigned long long m_ljn(struct model *m, unsigned long long n)
{
	unsigned long long i;

	for (i = 0; i < n; i++)
		m_lc(m, i);
	return m_a(m, n, 0);
}

/* tc_fl(x): tc_b(x) + 1, called without a frame. */
static unsigned long long m_fl(struct model *m, unsigned long long x,
			       unsigned long long y)
{
	unsigned long long v;

	m_ev(m, F_FL, false, x);
	v = (m_b(m, x, 0) + 1) & m->mask;
	m_ev(m, F_FL, true, v);
	return v;
}

static unsigned long long m_chain(struct model *m, unsigned long long x,
				  unsigned long long y)
{
	return m_c(m, x, y);
}

static unsigned long long m_rec(struct model *m, unsigned long long n,
				unsigned long long acc)
{
	return m_r(m, n, acc);
}

struct tc_state {
	struct upng_child child;
	char ev[NFN][2][64];	/* entry and return event per function */
	unsigned int probed;	/* functions with events */
	int kmsg;
	char *trace;
	struct seq want, got;
	char buf[2][16384];
};

struct tc_variant {
	const char *bin;
	const char *arg;	/* the first argument at a function entry */
	const char *retval;
	unsigned long long mask;
};

FIXTURE(tailcall) {
	struct tc_state st;
};

FIXTURE_VARIANT(tailcall) {
	struct tc_variant v;
};

#if defined(__x86_64__)
FIXTURE_VARIANT_ADD(tailcall, x86_64) {
	.v = {
		.bin = "bin/tailcall64",
		.arg = "a=%di:u64",
		.retval = "ret=$retval:u64",
		.mask = ~0ULL,
	},
};

FIXTURE_VARIANT_ADD(tailcall, i386) {
	.v = {
		.bin = "bin/tailcall32",
		.arg = "a=+4($stack):u32",
		.retval = "ret=$retval:u32",
		.mask = 0xffffffffULL,
	},
};
#elif defined(__aarch64__)
FIXTURE_VARIANT_ADD(tailcall, aarch64) {
	.v = {
		.bin = "bin/tailcalla64",
		.arg = "a=%x0:u64",
		.retval = "ret=$retval:u64",
		.mask = ~0ULL,
	},
};
#elif defined(__riscv)
FIXTURE_VARIANT_ADD(tailcall, riscv64) {
	.v = {
		.bin = "bin/tailcallrv64",
		.arg = "a=%a0:u64",
		.retval = "ret=$retval:u64",
		.mask = ~0ULL,
	},
};
#elif defined(__s390x__)
FIXTURE_VARIANT_ADD(tailcall, s390x) {
	.v = {
		.bin = "bin/tailcalls390",
		.arg = "a=%r2:u64",
		.retval = "ret=$retval:u64",
		.mask = ~0ULL,
	},
};
#endif

FIXTURE_SETUP(tailcall)
{
	struct tc_state *st = &self->st;
	int f;

	upng_die_with_parent();
	memset(&st->child, 0, sizeof(st->child));
	st->probed = 0;
	st->trace = NULL;
	for (f = 0; f < NFN; f++) {
		upng_evname(st->ev[f][0], sizeof(st->ev[f][0]), "tcin");
		upng_evname(st->ev[f][1], sizeof(st->ev[f][1]), "tcret");
	}
	st->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, st->kmsg);
	ASSERT_LE(0, lseek(st->kmsg, 0, SEEK_END));
}

FIXTURE_TEARDOWN(tailcall)
{
	struct tc_state *st = &self->st;
	int f;

	if (st->child.pid > 0)
		upng_finish(&st->child, 1000);
	for (f = 0; f < NFN; f++) {
		if (!(st->probed & BIT(f)))
			continue;
		upng_probe_del(st->ev[f][0]);
		upng_probe_del(st->ev[f][1]);
	}
	free(st->trace);
	if (st->kmsg >= 0)
		close(st->kmsg);
}

/* The first kernel log record since setup with a warning or a bug. */
static bool kmsg_warned(int fd, char *rec, size_t len)
{
	static const char * const bad[] = {
		"WARNING:", "cut here", "BUG:", "Oops", "Call Trace",
	};
	unsigned int i;
	ssize_t n;

	for (;;) {
		n = read(fd, rec, len - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return false;
		rec[n] = '\0';
		for (i = 0; i < ARRAY_SIZE(bad); i++)
			if (strstr(rec, bad[i]))
				return true;
	}
}

/* Entry and return probes on each function of PROBED, enabled. */
static void add_probes(struct __test_metadata *_metadata,
		       struct tc_state *st,
		       const struct tc_variant *var,
		       unsigned int probed)
{
	const char *bin = upng_path(var->bin);
	struct upng_sym s;
	int f;

	for (f = 0; f < NFN; f++) {
		if (!(probed & BIT(f)))
			continue;
		if (!(st->probed & BIT(f))) {
			ASSERT_EQ(0, upng_elf_sym(bin, fns[f].sym, &s))
				TH_LOG("%s in %s", fns[f].sym, bin);
			st->probed |= BIT(f);
			ASSERT_EQ(0, upng_probe_add(st->ev[f][0], bin,
						    s.offset, var->arg));
			ASSERT_EQ(0, upng_retprobe_add(st->ev[f][1], bin,
						       s.offset,
						       var->retval));
		}
		ASSERT_EQ(0, upng_probe_enable(st->ev[f][0], true));
		ASSERT_EQ(0, upng_probe_enable(st->ev[f][1], true));
	}
}

/* The events of PROBED traced by PID, in trace order, into GOT. */
static void parse_trace(struct tc_state *st, unsigned int probed,
			pid_t pid, struct seq *got)
{
	char line[4096], who[32], name[80];
	const char *p, *end, *hit, *val;
	int f, r;

	got->n = 0;
	snprintf(who, sizeof(who), "-%d ", pid);
	for (p = st->trace; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (*p == '#' || (size_t)(end - p) >= sizeof(line))
			continue;
		memcpy(line, p, end - p);
		line[end - p] = '\0';
		if (!strstr(line, who))
			continue;
		for (f = 0; f < NFN; f++) {
			if (!(probed & BIT(f)))
				continue;
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), " %s: ",
					 st->ev[f][r]);
				hit = strstr(line, name);
				if (!hit)
					continue;
				val = strstr(hit, r ? " ret=" : " a=");
				seq_add(got, f, r,
					val ? strtoull(strchr(val, '=') + 1,
						       NULL, 0) : ~0ULL, 0);
				goto next;
			}
		}
next:
		;
	}
}

/*
 * Probe the functions of PROBED, run the target with STEPS, and check its
 * output, its exit and the trace against the model; no kernel warning.
 */
static void run_case(struct __test_metadata *_metadata,
		     struct tc_state *st,
		     const struct tc_variant *var,
		     unsigned int probed, const char *steps)
{
	struct model m = { &st->want, probed, var->mask };
	char lines[MAX_LINES][128], *list, *step, *colon, *save;
	char sname[16], kind[16];
	unsigned long long x, v, want;
	int nlines = 0, i = 0, n, status, at, inxol, sig;
	pid_t pid;

	add_probes(_metadata, st, var, probed);
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_spawn(&st->child, upng_path(var->bin), steps,
				NULL));
	pid = st->child.pid;
	while (nlines < MAX_LINES &&
	       upng_recv(&st->child, lines[nlines], sizeof(lines[0]),
			 RECV_MS) >= 0)
		nlines++;
	status = upng_finish(&st->child, RECV_MS);
	for (i = 0; i < NFN; i++) {
		if (!(probed & BIT(i)))
			continue;
		EXPECT_EQ(0, upng_probe_enable(st->ev[i][0], false));
		EXPECT_EQ(0, upng_probe_enable(st->ev[i][1], false));
	}
	free(st->trace);
	st->trace = upng_trace_read();
	ASSERT_NE(NULL, st->trace);

	/* The process survived every step and exited normally. */
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("target exit status 0x%x (signal %d)", status,
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	EXPECT_FALSE(kmsg_warned(st->kmsg, st->buf[0],
				 sizeof(st->buf[0])))
		TH_LOG("kernel log: %s", st->buf[0]);

	/* Each step printed what the model says; build the events. */
	st->want.n = 0;
	list = strdup(steps);
	ASSERT_NE(NULL, list);
	i = 0;
	for (step = strtok_r(list, ",", &save); step;
	     step = strtok_r(NULL, ",", &save), i++) {
		colon = strchr(step, ':');
		ASSERT_NE(NULL, colon);
		*colon = '\0';
		x = strtoull(colon + 1, NULL, 0);
		ASSERT_LT(i, nlines) TH_LOG("no output for step %d (%s)", i,
					    step);
		v = ~0ULL;
		kind[0] = '\0';
		n = sscanf(lines[i], "%15s %15s %llu", sname, kind, &v);
		ASSERT_LE(2, n) TH_LOG("step %s: '%s'", step, lines[i]);
		ASSERT_STREQ(step, sname);

		if (!strcmp(step, "pn") || !strcmp(step, "pl")) {
			/*
			 * A return to the trampoline the program pushed
			 * itself: the signal or the value is the engine's
			 * choice, the events are those of the functions
			 * entered.
			 */
			sig = !strcmp(kind, "sig") ? (int)v : 0;
			EXPECT_TRUE(!strcmp(kind, "v") || sig == SIGILL ||
				    sig == SIGSEGV)
				TH_LOG("step %s: '%s'", step, lines[i]);
			seq_add(&st->want, -1, false, 0,
				BIT(F_B) | (step[1] == 'l' ? BIT(F_O) : 0));
			continue;
		}
		if (!strcmp(step, "peek")) {
			inxol = -1;
			n = sscanf(lines[i], "peek tramp %llu inxol %d", &v,
				   &inxol);
			ASSERT_EQ(2, n) TH_LOG("'%s'", lines[i]);
			/* The return address read was the trampoline. */
			EXPECT_EQ(1, inxol) TH_LOG("0x%llx", v);
			m_ev(&m, F_P, false, x);
			m_ev(&m, F_P, true, v);
			continue;
		}
		if (!strcmp(step, "a")) {
			want = m_a(&m, x, 0);
		} else if (!strcmp(step, "b")) {
			want = m_b(&m, x, 0);
		} else if (!strcmp(step, "oa")) {
			want = m_outer(&m, x, 0, m_a);
		} else if (!strcmp(step, "r")) {
			want = m_r(&m, x, 1);
		} else if (!strcmp(step, "or")) {
			want = m_outer(&m, x, 1, m_rec);
		} else if (!strcmp(step, "oc")) {
			want = m_outer(&m, x, 0, m_chain);
		} else if (!strcmp(step, "ljo") || !strcmp(step, "ljd")) {
			m_ev(&m, F_O, false, x);
			want = m_lc(&m, x);
			EXPECT_STREQ("lj", kind) TH_LOG("'%s'", lines[i]);
			EXPECT_EQ(want, v) TH_LOG("'%s'", lines[i]);
			continue;
		} else if (!strcmp(step, "ljn")) {
			want = m_ljn(&m, x);
		} else if (!strcmp(step, "fl")) {
			want = m_fl(&m, x, 0);
		} else if (!strcmp(step, "ofl")) {
			want = m_outer(&m, x, 0, m_fl);
		} else if (!strcmp(step, "k0") || !strcmp(step, "k1")) {
			want = m_catch(&m, x, step[1] == '1');
		} else if (!strcmp(step, "ok1")) {
			want = m_outer(&m, x, 1, m_catch);
		} else {
			ASSERT_TRUE(false) TH_LOG("unknown step %s", step);
		}
		/* The value the program saw. */
		EXPECT_STREQ("v", kind) TH_LOG("'%s'", lines[i]);
		EXPECT_EQ(want, v & var->mask) TH_LOG("'%s'", lines[i]);
	}
	free(list);
	EXPECT_EQ(i + 1, nlines);
	if (i < nlines)
		EXPECT_STREQ("done", lines[i]);

	/* The trace holds exactly the events of the model, in order. */
	parse_trace(st, probed, pid, &st->got);
	EXPECT_TRUE(seq_match(&st->want, &st->got, &at))
		TH_LOG("events differ at %d:\nwant%s\ngot %s", at,
		       seq_str(&st->want, st->buf[0], sizeof(st->buf[0])),
		       seq_str(&st->got, st->buf[1], sizeof(st->buf[1])));
	if (_metadata->exit_code == KSFT_FAIL) {
		TH_LOG("target %s %s:", var->bin, steps);
		for (i = 0; i < nlines; i++)
			TH_LOG("  %s", lines[i]);
	}
}

/*
 * The program reads the trampoline's address as its return address in a
 * return-probed function, then pushes it and jmps to a return-probed
 * function when no return probe is pending (the old engine warned).
 * First, so that a WARN_ON_ONCE() has not been used up by another case.
 */
TEST_F_TIMEOUT(tailcall, push_trampoline_none_pending, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_P) | BIT(F_A) | BIT(F_B), "peek:0,pn:5,b:6,pn:7,a:8");
}

/* The same after a longjmp() left pending return probes behind, deeper. */
TEST_F_TIMEOUT(tailcall, push_trampoline_dead_pending, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_P) | BIT(F_O) | BIT(F_LC) | BIT(F_LD) | BIT(F_A) |
		 BIT(F_B), "peek:0,ljd:3,pn:5,a:8,ljd:4,pn:6,b:9");
}

/* The same inside a return-probed function whose return is pending. */
TEST_F_TIMEOUT(tailcall, push_trampoline_live_pending, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_P) | BIT(F_O) | BIT(F_A) | BIT(F_B),
		 "peek:0,pl:5,a:8,oa:9,pl:6,b:10");
}

/* A jmp B: both returns, B's first, with B's value. */
TEST_F_TIMEOUT(tailcall, jmp, 120)
{
	run_case(_metadata, &self->st, &variant->v, BIT(F_A) | BIT(F_B),
		 "b:9,a:1,a:2,b:3,a:50");
}

/* Only the tail-called function is return-probed, then only the caller. */
TEST_F_TIMEOUT(tailcall, jmp_one_probed, 120)
{
	run_case(_metadata, &self->st, &variant->v, BIT(F_B), "a:1,b:2,a:3");
	run_case(_metadata, &self->st, &variant->v, BIT(F_A), "a:4,b:5,a:6");
}

/* O calls A, A jmp B: O's pending return is neither lost nor taken. */
TEST_F_TIMEOUT(tailcall, jmp_under_probed_caller, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_O) | BIT(F_A) | BIT(F_B), "oa:1,oa:2,a:3,oa:4");
}

/* R jmps to itself N times: N + 1 entries, then N + 1 returns. */
TEST_F_TIMEOUT(tailcall, self_tail_recursion, 120)
{
	run_case(_metadata, &self->st, &variant->v, BIT(F_R) | BIT(F_O),
		 "r:0,r:1,r:7,or:5,r:2,or:0");
}

/* O calls C, C jmp D, D jmp E. */
TEST_F_TIMEOUT(tailcall, chain, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_O) | BIT(F_C) | BIT(F_D) | BIT(F_E),
		 "oc:1,oc:4,oc:7");
}

/*
 * O calls LC, LC jmp LD, LD calls a function that siglongjmp()s out of
 * them all; later calls, with or without tail calls, are reported right.
 */
TEST_F_TIMEOUT(tailcall, longjmp_out_of_chain, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_O) | BIT(F_LC) | BIT(F_LD) | BIT(F_A) | BIT(F_B) |
		 BIT(F_C) | BIT(F_D) | BIT(F_E),
		 "ljo:3,a:4,oc:5,ljo:6,ljo:7,oc:8,a:9,ljd:10,oa:11,b:13");
}

/*
 * K calls LC, LC jmp LD, LD calls a function that siglongjmp()s back into
 * K, which returns (k0) or first calls A, A jmp B (k1): the chain's
 * returns are never reported, K's is, and K returns to its caller, also
 * when K was called by the return-probed O (ok1).
 */
TEST_F_TIMEOUT(tailcall, longjmp_then_return, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_K) | BIT(F_LC) | BIT(F_LD) | BIT(F_A) | BIT(F_B) |
		 BIT(F_O),
		 "k0:3,a:4,k1:5,k0:6,k1:7,ok1:8,oa:9,ok1:10,a:11");
}

/*
 * A frame left by longjmp, again and again from one call site at one sp:
 * each entry there ends the frames entered from that site before, their
 * pending returns do not pile up (to the engine's depth limit, past
 * which return probes are ignored), and later returns are reported.
 * (On arm64, riscv and s390, where a call does not move sp and an entry at the
 * sp of a pending return is also that of a frameless caller's callee.)
 */
#ifdef TC_LINK_REGISTER
TEST_F_TIMEOUT(tailcall, longjmp_loop_one_site, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_LC) | BIT(F_LD) | BIT(F_A) | BIT(F_B),
		 "ljn:80,a:3,ljn:2");
}

/*
 * FL keeps its return address (the trampoline) in a register across its
 * call of B, which is entered with FL's own sp: FL's pending return is
 * that of a caller, not of a frame left behind, and both returns are
 * reported, B's first, and FL returns to its caller.  Also under the
 * return-probed O, and with longjmps before.
 */
TEST_F_TIMEOUT(tailcall, frameless_caller, 120)
{
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_FL) | BIT(F_B) | BIT(F_O),
		 "fl:1,fl:2,ofl:3,b:4,fl:5");
	run_case(_metadata, &self->st, &variant->v,
		 BIT(F_FL) | BIT(F_B) | BIT(F_O) | BIT(F_LC) | BIT(F_LD) |
		 BIT(F_A),
		 "ljo:1,fl:6,ljn:3,fl:7,ofl:8");
}
#endif

#if defined(__x86_64__) || defined(__aarch64__)
#define CC_PAGES 8
#define CC_MAX 64

/*
 * A perf event of the uprobe PMU on PATH at OFF in process PID: a return
 * probe (RET), or an entry probe sampling the user callchain of each hit
 * (SAMPLE). The fd or -errno.
 */
static int cc_open(const char *path, unsigned long off, bool ret, bool sample,
		   pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	if (ret)
		attr.config = UPNG_PERF_RETPROBE;
	if (sample) {
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
		attr.exclude_callchain_kernel = 1;
		attr.sample_max_stack = CC_MAX - 2;
		attr.wakeup_events = 1;
	}
	return upng_perf_uprobe_open_attr(&attr, path, off, pid);
}

/* Child of callchain_through_tail_call: waits for a line, then the target. */
static void cc_child(void *arg, int cmd, int reply)
{
	const char *bin = upng_path("bin/" TC_BIN);
	char c;

	upng_die_with_parent();
	if (read(cmd, &c, 1) != 1)
		_exit(2);
	if (dup2(reply, 1) < 0)
		_exit(2);
	execl(bin, bin, (const char *)arg, (char *)NULL);
	_exit(2);
}

/*
 * The user part of each sample of the ring buffer RB into CHAINS (at
 * most MAX, each CC_MAX addresses and a count in LENS); the number of
 * samples, or -1 for a record that does not parse.
 */
static int cc_samples(struct perf_event_mmap_page *rb, size_t page,
		      unsigned long long chains[][CC_MAX], int *lens, int max)
{
	const unsigned char *data = (const unsigned char *)rb + page;
	unsigned long long head, at, rec[2 + 2 * CC_MAX];
	size_t size = CC_PAGES * page, i, len;
	struct perf_event_header hdr;
	int n = 0, k, j;

	head = __atomic_load_n(&rb->data_head, __ATOMIC_ACQUIRE);
	for (at = rb->data_tail; at < head; at += hdr.size) {
		for (i = 0; i < sizeof(hdr); i++)
			((unsigned char *)&hdr)[i] = data[(at + i) % size];
		if (hdr.size < sizeof(hdr))
			return -1;
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		len = hdr.size - sizeof(hdr);
		if (len > sizeof(rec) || len < 2 * sizeof(rec[0]))
			return -1;
		for (i = 0; i < len; i++)
			((unsigned char *)rec)[i] =
				data[(at + sizeof(hdr) + i) % size];
		/* rec: ip, nr, then nr addresses from PERF_CONTEXT_USER */
		if (rec[1] > (len / sizeof(rec[0])) - 2)
			return -1;
		if (n >= max) {
			n++;	/* counted, not kept */
			continue;
		}
		for (k = 0, j = -1; k < (int)rec[1]; k++) {
			if (rec[2 + k] == PERF_CONTEXT_USER) {
				j = 0;
				continue;
			}
			if (j >= 0 && j < CC_MAX)
				chains[n][j++] = rec[2 + k];
		}
		lens[n++] = j < 0 ? 0 : j;
	}
	return n;
}

/*
 * F0 calls F1 (return-probed), which calls F2 (return-probed), which jmps
 * to F3 (return-probed: chained to F2's return, in the same stack slot),
 * which calls F4; a perf event at F4's entry samples the user callchain,
 * walked through the frame pointers: F3's frame holds the trampoline for
 * the chain of F2 and F3, F1's frame the trampoline for F1. The callchain
 * must show F1's call site for the first (both functions return there)
 * and F0's for the second, not the next pending return each (the old
 * engine's callchains and stock's: F1's call site twice). On x86-64, F4
 * starts with push %rbp, and perf adds the return address on the stack
 * (F3's call site) before the frames.
 */
TEST(callchain_through_tail_call)
{
	static const char *const rets[] = { "tc_f1", "tc_f2", "tc_f3" };
	static unsigned long long chains[4][CC_MAX];
	const char *bin = upng_path("bin/" TC_BIN);
	struct upng_sym f4, r0, r1, r3, s;
	unsigned long long want[CC_MAX] = { 0 };
	int fds[4], lens[4], nwant = 0, cmd, reply, status, i, j, n;
	struct perf_event_mmap_page *rb;
	size_t page = sysconf(_SC_PAGESIZE);
	char out[256];
	ssize_t got;
	pid_t pid;

	upng_die_with_parent();
	ASSERT_EQ(0, upng_elf_sym(bin, "tc_f4", &f4));
	ASSERT_EQ(0, upng_elf_sym(bin, "tc_f0_ret", &r0));
	ASSERT_EQ(0, upng_elf_sym(bin, "tc_f1_ret", &r1));
	ASSERT_EQ(0, upng_elf_sym(bin, "tc_f3_ret", &r3));
	want[nwant++] = f4.value;
#if defined(__x86_64__)
	want[nwant++] = r3.value;
#endif
	want[nwant++] = r1.value;
	want[nwant++] = r0.value;

	pid = upng_fork_piped(cc_child, "cc:5,cc:6", &cmd, &reply);
	ASSERT_LT(0, pid);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, upng_elf_sym(bin, rets[i], &s));
		fds[i] = cc_open(bin, s.offset, true, false, pid);
		ASSERT_LE(0, fds[i]) TH_LOG("%s: %s", rets[i], strerror(-fds[i]));
	}
	fds[3] = cc_open(bin, f4.offset, false, true, pid);
	ASSERT_LE(0, fds[3]) TH_LOG("tc_f4: %s", strerror(-fds[3]));
	rb = mmap(NULL, (CC_PAGES + 1) * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fds[3], 0);
	ASSERT_NE(MAP_FAILED, rb);

	ASSERT_EQ(1, write(cmd, "g", 1));
	n = 0;
	while (n < (int)sizeof(out) - 1 &&
	       poll(&(struct pollfd){ .fd = reply, .events = POLLIN }, 1,
		    RECV_MS) > 0 &&
	       (got = read(reply, out + n, sizeof(out) - 1 - n)) > 0)
		n += got;
	out[n] = '\0';
	if (!strstr(out, "done"))
		kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("target status 0x%x", status);
	/* The returns went where they belong: tc_f0(x) is x + 4. */
	EXPECT_STREQ("cc v 9\ncc v 10\ndone\n", out);
	/* The return probes fired: the trampoline was on the stack. */
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(2, upng_perf_count(fds[i]))
			TH_LOG("return probe of %s", rets[i]);
	}

	n = cc_samples(rb, page, chains, lens, 4);
	ASSERT_EQ(2, n) TH_LOG("samples of tc_f4");
	for (i = 0; i < n; i++) {
		ASSERT_LE(nwant, lens[i]) TH_LOG("sample %d: %d addresses",
						 i, lens[i]);
		for (j = 0; j < nwant; j++) {
			/* braces: EXPECT_EQ() ... TH_LOG() is two statements */
			EXPECT_EQ(want[j], chains[i][j])
				TH_LOG("sample %d, address %d: 0x%llx, want 0x%llx",
				       i, j, chains[i][j], want[j]);
		}
	}
	munmap(rb, (CC_PAGES + 1) * page);
	for (i = 0; i < 4; i++)
		close(fds[i]);
	close(cmd);
	close(reply);
}
#endif

TEST_HARNESS_MAIN
