// SPDX-License-Identifier: GPL-2.0
/*
 * Races between the engine's changes to a process's text and whatever
 * else changes that text or the probes at the same time. The target is
 * bin/racetarget (racetarget.c), whose race page (racetarget.h) holds
 * three probed functions, a pad nobody executes and a data word.
 *
 * When a breakpoint goes, the engine writes the original instruction back
 * and, if the private copy of the page is then identical to the file's,
 * drops the copy. Everything written into that copy after the comparison
 * must survive, and a locked mapping must stay resident:
 *   poke_vs_toggle      a debugger's writes (/proc/PID/mem, the path of
 *                       PTRACE_POKETEXT) into the pad while the probe of
 *                       the same page is toggled
 *   two_probes_one_page the breakpoint of a second probe of the page,
 *                       inserted while the first one goes, and exact
 *                       counts of the second while the first is toggled
 *   dontneed_vs_hits    the process drops its copy of the page
 *                       (MADV_DONTNEED) while its threads hit the probe
 *   writable_text       the program's own writes into its text, which it
 *                       made writable
 *   mlocked_text        mlockall()ed text stays resident and locked
 * Removal asked for by a handler (a perf event bound to another process
 * filters this one out) against registration and unregistration:
 *   handler_removal_vs_register  a consumer that wants the process keeps
 *                       its breakpoint there, every call counted
 *   semaphore           the USDT semaphore counts exactly one per address
 *                       space holding the breakpoint, never more or less
 * And the hit path against unregistration plus re-registration:
 *   no_spurious_sigtrap threads hitting a probe that is toggled and
 *                       re-created never get a SIGTRAP
 *   perf_close_vs_hits  perf events closed while their handlers run (not
 *                       waited for) count, and leave the target intact
 * And a thread's uprobes state against what reads it from interrupts:
 *   exits.exit_vs_callchain processes exit inside a function with a return
 *                       probe (its instance pending) while perf samples
 *                       every CPU with user callchains, which read the
 *                       exiting thread's pending returns (a freed one is
 *                       a KASAN report on the debug kernel)
 * Races need luck: each case races for a bounded time (UPROBES_NG_RACE_MS,
 * default RACE_MS) and logs how often it toggled and what it saw. Meanwhile
 * a thread of the test sleeps for short times over and over
 * (UPROBES_NG_RACE_JITTER_US, default JITTER_US; 0: none): each of its
 * wakeups is a timer interrupt, on which QEMU's round-robin TCG switches
 * to the other vCPU, and a wakeup that may make the interrupted task
 * reschedule at its next cond_resched(); both make the interleavings the
 * races need likelier than the tick alone does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "racetarget.h"
#include "upng.h"

#define RECV_MS		60000
/* Bytes compared at a probed function. */
#define CHK_LEN		16
/* Guest time each case races for, in ms (under TCG: ~50x slower). */
#define RACE_MS		4000
/* A race that could not even toggle this often did not run. */
#define MIN_ROUNDS	10
/*
 * How much longer a race may go on to reach MIN_ROUNDS: a debug kernel
 * under TCG on a busy host can be ten times slower than RACE_MS allows
 * for (each case has 300 s).
 */
#define MIN_ROUNDS_GRACE_MS	150000
/* Sleep of the jitter thread, in microseconds. */
#define JITTER_US	250

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);

	return s && *s ? atol(s) : dflt;
}

static long long race_ms(void)
{
	long v = env_long("UPROBES_NG_RACE_MS", RACE_MS);

	return v > 0 ? v : RACE_MS;
}

struct jitter {
	pthread_t thread;
	bool started;
	int stop;
	long us;
};

static void *jitter_main(void *arg)
{
	struct jitter *j = arg;

	while (!__atomic_load_n(&j->stop, __ATOMIC_RELAXED))
		usleep(j->us);
	return NULL;
}

static void jitter_start(struct jitter *j)
{
	*j = (struct jitter){ .us = env_long("UPROBES_NG_RACE_JITTER_US",
					     JITTER_US) };
	if (j->us > 0)
		j->started = !pthread_create(&j->thread, NULL, jitter_main, j);
}

static void jitter_stop(struct jitter *j)
{
	if (!j->started)
		return;
	__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	pthread_join(j->thread, NULL);
	j->started = false;
}

static long long lin_sum(long long mul, long long add, long long n)
{
	return mul * (n * (n - 1) / 2) + add * n;
}

/* ---- checks of a target's memory, usable from any thread ---- */

struct site {
	pid_t pid;
	unsigned long addr;
	const unsigned char *file;	/* CHK_LEN bytes of the file there */
};

/* The site's CHK_LEN bytes into MEM; false, with WHY, when unreadable. */
static bool site_read(const struct site *s, unsigned char *mem, char *why,
		      size_t len)
{
	int err = upng_mem_read(s->pid, s->addr, mem, CHK_LEN);

	if (err)
		snprintf(why, len, "pid %d: reading %#lx: %s", s->pid, s->addr,
			 strerror(-err));
	return !err;
}

/* The breakpoint is at the site and the rest of the instruction intact. */
static bool site_armed(const struct site *s, char *why, size_t len)
{
	unsigned char mem[CHK_LEN];

	if (!site_read(s, mem, why, len))
		return false;
	if (upng_is_bkpt(mem) &&
	    !memcmp(mem + UPNG_BKPT_SIZE, s->file + UPNG_BKPT_SIZE,
		    CHK_LEN - UPNG_BKPT_SIZE))
		return true;
	snprintf(why, len,
		 "pid %d: %#lx holds %02x %02x %02x, not the breakpoint before %02x %02x",
		 s->pid, s->addr, mem[0], mem[1], mem[2], s->file[1], s->file[2]);
	return false;
}

/* The site holds the file's bytes. */
static bool site_orig(const struct site *s, char *why, size_t len)
{
	unsigned char mem[CHK_LEN];

	if (!site_read(s, mem, why, len))
		return false;
	if (!memcmp(mem, s->file, CHK_LEN))
		return true;
	snprintf(why, len, "pid %d: %#lx holds %02x %02x %02x, the file %02x %02x %02x",
		 s->pid, s->addr, mem[0], mem[1], mem[2], s->file[0],
		 s->file[1], s->file[2]);
	return false;
}

/* The 16-bit semaphore at ADDR of PID, or -0x10000 when unreadable. */
static int sem_read(pid_t pid, unsigned long addr)
{
	short v;

	return upng_mem_read(pid, addr, &v, sizeof(v)) ? -0x10000 : v;
}

/* The private copy of the page of ADDR was dropped (file page or none). */
static bool page_dropped(pid_t pid, unsigned long addr)
{
	uint64_t pm;

	if (upng_pagemap(pid, addr, &pm))
		return false;
	return !(pm & UPNG_PM_PRESENT) || (pm & UPNG_PM_FILE);
}

/* ---- a thread toggling one tracefs event, checking as it goes ---- */

struct toggler {
	/* set up by the test */
	const char *ev;
	long long deadline;		/* upng_now_ms() to stop at */
	struct site on[2];		/* breakpoint there while enabled */
	struct site off[2];		/* the file's bytes once disabled */
	pid_t sem_pid;			/* semaphore value while enabled */
	unsigned long sem_addr;
	int sem_on;
	struct toggler *peer;		/* let its tracefs write end first */
	int hold_us;			/* pause while enabled */
	int readd_every;		/* delete and add again every N rounds */
	const char *path;		/* for adding again */
	unsigned long probe_off, sem_off;
	pid_t drop_pid;			/* count dropped copies of this page */
	unsigned long drop_addr;
	/* state and results */
	pthread_t thread;
	bool started;
	int stop;
	unsigned long seq;		/* odd while writing to tracefs */
	long rounds, drops, bad;
	int err;
	const char *errwhat;
	char first[256];		/* the first failed check */
};

static void tog_bad(struct toggler *t, const char *state, const char *why)
{
	if (!t->bad++)
		snprintf(t->first, sizeof(t->first), "round %ld, %s: %s",
			 t->rounds, state, why);
}

static int tog_set(struct toggler *t, bool on)
{
	int err;

	__atomic_add_fetch(&t->seq, 1, __ATOMIC_SEQ_CST);
	err = upng_probe_enable(t->ev, on);
	__atomic_add_fetch(&t->seq, 1, __ATOMIC_SEQ_CST);
	if (err) {
		t->err = err;
		t->errwhat = on ? "enable" : "disable";
	}
	return err;
}

/* Wait (a while at most) for a tracefs write of the peer in flight. */
static void tog_wait_peer(struct toggler *t)
{
	unsigned long s = __atomic_load_n(&t->peer->seq, __ATOMIC_SEQ_CST);
	long long until = upng_now_ms() + 2000;

	if (!(s & 1))
		return;
	while (__atomic_load_n(&t->peer->seq, __ATOMIC_SEQ_CST) == s &&
	       !__atomic_load_n(&t->stop, __ATOMIC_RELAXED) &&
	       upng_now_ms() < until)
		usleep(50);
}

static int tog_readd(struct toggler *t)
{
	int err = upng_probe_del(t->ev);

	if (err) {
		t->err = err;
		t->errwhat = "delete";
		return err;
	}
	err = t->sem_off ? upng_probe_add_sem(t->ev, t->path, t->probe_off,
					      t->sem_off, NULL) :
			   upng_probe_add(t->ev, t->path, t->probe_off, NULL);
	if (err) {
		t->err = err;
		t->errwhat = "add";
	}
	return err;
}

static void *toggler_main(void *arg)
{
	struct toggler *t = arg;
	char why[200];
	int i, v;

	/* A slow (debug) kernel gets more time for the minimum rounds. */
	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED) &&
	       (upng_now_ms() < t->deadline ||
		(t->rounds < MIN_ROUNDS &&
		 upng_now_ms() < t->deadline + MIN_ROUNDS_GRACE_MS))) {
		if (tog_set(t, true))
			break;
		if (t->hold_us)
			usleep(t->hold_us);
		if (t->peer)
			tog_wait_peer(t);
		for (i = 0; i < 2; i++)
			if (t->on[i].pid && !site_armed(&t->on[i], why, sizeof(why)))
				tog_bad(t, "enabled", why);
		if (t->sem_pid) {
			v = sem_read(t->sem_pid, t->sem_addr);
			if (v != t->sem_on) {
				snprintf(why, sizeof(why),
					 "pid %d: semaphore %d, expected %d",
					 t->sem_pid, v, t->sem_on);
				tog_bad(t, "enabled", why);
			}
		}
		if (tog_set(t, false))
			break;
		for (i = 0; i < 2; i++)
			if (t->off[i].pid && !site_orig(&t->off[i], why, sizeof(why)))
				tog_bad(t, "disabled", why);
		if (t->drop_pid && page_dropped(t->drop_pid, t->drop_addr))
			t->drops++;
		t->rounds++;
		if (t->readd_every && !(t->rounds % t->readd_every) &&
		    tog_readd(t))
			break;
	}
	return NULL;
}

static int tog_start(struct toggler *t)
{
	t->started = !pthread_create(&t->thread, NULL, toggler_main, t);
	return t->started ? 0 : -1;
}

static void tog_join(struct toggler *t)
{
	if (!t->started)
		return;
	pthread_join(t->thread, NULL);
	t->started = false;
}

static void tog_stop(struct toggler *t)
{
	__atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
	tog_join(t);
}

static void tog_report(struct __test_metadata *_metadata, struct toggler *t)
{
	TH_LOG("%s: %ld rounds", t->ev, t->rounds);
	if (t->drop_pid)
		TH_LOG("%s: the page was the file's again after %ld disables",
		       t->ev, t->drops);
	ASSERT_EQ(0, t->err) TH_LOG("%s: %s: %s", t->ev, t->errwhat,
				    strerror(-t->err));
	ASSERT_EQ(0, t->bad) TH_LOG("%s: %ld failed checks, the first: %s",
				    t->ev, t->bad, t->first);
	ASSERT_LE(MIN_ROUNDS, t->rounds);
}

/* ---- a debugger writing into the pad of the race page ---- */

struct poker {
	pid_t pid;
	unsigned long pad;
	long long deadline;
	pthread_t thread;
	bool started;
	int stop;
	long writes, lost;
	int err;
	char first[200];
};

static void *poker_main(void *arg)
{
	struct poker *p = arg;
	unsigned char want, got;
	unsigned long at;
	char path[64];
	long i;
	int fd, k;

	snprintf(path, sizeof(path), "/proc/%d/mem", p->pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		p->err = -errno;
		return NULL;
	}
	for (i = 0; !__atomic_load_n(&p->stop, __ATOMIC_RELAXED) &&
	     upng_now_ms() < p->deadline; i++) {
		at = p->pad + i % RACE_PAD_LEN;
		/*
		 * A byte the file does not have, then the file's byte again
		 * (the page is identical to the file's, and may be dropped);
		 * each read back twice.
		 */
		for (k = 0; k < 4; k++) {
			want = k < 2 ? 0x10 + i % 0x60 : RACE_PAD_BYTE;
			if (!(k & 1) && pwrite(fd, &want, 1, at) != 1) {
				p->err = -errno;
				goto out;
			}
			p->writes += !(k & 1);
			if (pread(fd, &got, 1, at) != 1) {
				p->err = -errno;
				goto out;
			}
			if (got != want && !p->lost++)
				snprintf(p->first, sizeof(p->first),
					 "write %ld: %#lx reads %#x after writing %#x",
					 p->writes, at, got, want);
		}
	}
out:
	close(fd);
	return NULL;
}

/* ---- the fixture ---- */

/* Everything a case sets up, for the teardown to undo. */
struct race_state {
	const char *bin;
	struct upng_sym page, pad, word, a, b, c, sem;
	unsigned char file_a[CHK_LEN], file_b[CHK_LEN], file_c[CHK_LEN];
	unsigned char file_page[RACE_PAGE_SIZE];
	struct upng_child t[2];
	char ev[3][64];
	int perf_fd, kmsg;
	struct toggler tog[2];
	struct poker poker;
	struct jitter jitter;
};

FIXTURE(races) {
	struct race_state st;
};

static void sym(struct __test_metadata *_metadata, const char *bin,
		const char *name, struct upng_sym *out)
{
	ASSERT_EQ(0, upng_elf_sym(bin, name, out)) TH_LOG("%s in %s", name, bin);
}

FIXTURE_SETUP(races)
{
	struct race_state *st = &self->st;
	unsigned long pg;
	int i;

	upng_die_with_parent();
	/* A target that died must fail a check, not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	st->perf_fd = -1;
	st->kmsg = -1;
	st->bin = upng_path("bin/racetarget");
	sym(_metadata, st->bin, "race_page", &st->page);
	sym(_metadata, st->bin, "race_pad", &st->pad);
	sym(_metadata, st->bin, "race_word", &st->word);
	sym(_metadata, st->bin, "race_a", &st->a);
	sym(_metadata, st->bin, "race_b", &st->b);
	sym(_metadata, st->bin, "race_c", &st->c);
	sym(_metadata, st->bin, "race_sem", &st->sem);
	/* The layout racetarget.h describes, in one page of its own. */
	pg = st->page.value;
	ASSERT_EQ(0UL, pg % RACE_PAGE_SIZE);
	ASSERT_EQ(0UL, st->page.offset % RACE_PAGE_SIZE);
	ASSERT_EQ(pg, st->pad.value);
	ASSERT_EQ(pg + RACE_PAD_LEN, st->word.value);
	ASSERT_GT(pg + RACE_PAGE_SIZE - CHK_LEN, st->a.value);
	ASSERT_GT(pg + RACE_PAGE_SIZE - CHK_LEN, st->b.value);
	ASSERT_GT(pg + RACE_PAGE_SIZE - CHK_LEN, st->c.value);
	ASSERT_EQ(0, upng_file_read(st->bin, st->page.offset,
				    st->file_page, RACE_PAGE_SIZE));
	memcpy(st->file_a, st->file_page + (st->a.value - pg), CHK_LEN);
	memcpy(st->file_b, st->file_page + (st->b.value - pg), CHK_LEN);
	memcpy(st->file_c, st->file_page + (st->c.value - pg), CHK_LEN);
	ASSERT_FALSE(upng_is_bkpt(st->file_a));
	ASSERT_FALSE(upng_is_bkpt(st->file_b));
	ASSERT_FALSE(upng_is_bkpt(st->file_c));
	for (i = 0; i < RACE_PAD_LEN; i++) {
		ASSERT_EQ(RACE_PAD_BYTE, st->file_page[i])
			TH_LOG("byte %#x", i);
	}
	for (i = 0; i < 3; i++)
		upng_evname(st->ev[i], sizeof(st->ev[i]), "races");
	ASSERT_EQ(0, upng_trace_reset());
}

FIXTURE_TEARDOWN(races)
{
	struct race_state *st = &self->st;
	int i;

	for (i = 0; i < 2; i++)
		tog_stop(&st->tog[i]);
	jitter_stop(&st->jitter);
	if (st->poker.started) {
		__atomic_store_n(&st->poker.stop, 1, __ATOMIC_RELAXED);
		pthread_join(st->poker.thread, NULL);
	}
	if (st->perf_fd >= 0)
		close(st->perf_fd);
	for (i = 0; i < 2; i++) {
		if (st->t[i].pid <= 0)
			continue;
		upng_send(&st->t[i], "quit");
		upng_finish(&st->t[i], 10000);
	}
	for (i = 0; i < 3; i++)
		upng_probe_del(st->ev[i]);
	if (st->kmsg >= 0)
		close(st->kmsg);
}

/* How a wait status reads. */
static const char *status_str(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "wait status %#x", status);
	return buf;
}

/* Fails the test if target I has ended, saying how. */
static void check_alive(struct __test_metadata *_metadata,
			struct race_state *st, int i)
{
	struct upng_child *c = &st->t[i];
	char buf[96];
	int status;

	if (c->pid <= 0 || waitpid(c->pid, &status, WNOHANG) != c->pid)
		return;
	c->pid = 0;
	close(c->in);
	close(c->out);
	ASSERT_TRUE(false) TH_LOG("target %d ended: %s", i,
				  status_str(status, buf, sizeof(buf)));
}

static void spawn(struct __test_metadata *_metadata,
		  struct race_state *st, int i)
{
	unsigned long page = 0;
	char line[128];
	int n;

	ASSERT_EQ(0, upng_spawn(&st->t[i], st->bin, NULL, NULL));
	ASSERT_LT(0, upng_recv(&st->t[i], line, sizeof(line), RECV_MS));
	n = sscanf(line, "ready %lx", &page);
	ASSERT_EQ(1, n) TH_LOG("'%s'", line);
	ASSERT_EQ(st->page.value, page);
}

/* Send CMD to target I, its reply into REPLY. */
static void ask(struct __test_metadata *_metadata, struct race_state *st,
		int i, const char *cmd, char *reply, size_t len)
{
	int n;

	ASSERT_EQ(0, upng_send(&st->t[i], cmd)) {
		check_alive(_metadata, st, i);
		TH_LOG("target %d: '%s'", i, cmd);
	}
	n = upng_recv(&st->t[i], reply, len, RECV_MS);
	if (n <= 0)
		check_alive(_metadata, st, i);
	ASSERT_LT(0, n) TH_LOG("target %d: no reply to '%s'", i, cmd);
	ASSERT_NE(0, strncmp(reply, "error", 5))
		TH_LOG("target %d: '%s': %s", i, cmd, reply);
}

/* "call F N" in target I; checks the sum of the results. */
static void run_calls(struct __test_metadata *_metadata,
		      struct race_state *st, int i, char f, long n)
{
	long long sum = -1, expect;
	char cmd[64], line[128];
	int got;

	expect = f == 'a' ? lin_sum(5, 1, n) : f == 'b' ? lin_sum(3, 2, n) :
		 lin_sum(9, 3, n);
	snprintf(cmd, sizeof(cmd), "%s %c %ld", "call", f, n);
	ask(_metadata, st, i, cmd, line, sizeof(line));
	got = sscanf(line, "sum %lld", &sum);
	ASSERT_EQ(1, got) TH_LOG("'%s'", line);
	ASSERT_EQ(expect, sum) TH_LOG("%s", cmd);
}

struct spin_result {
	long calls, errors;
	int semmin, semmax;
};

/* "stop" the spinning threads of target I; checks their results. */
static void spin_stop(struct __test_metadata *_metadata,
		      struct race_state *st, int i, struct spin_result *r)
{
	char line[160];
	int n;

	ask(_metadata, st, i, "stop", line, sizeof(line));
	n = sscanf(line, "calls %ld errors %ld semmin %d semmax %d",
		   &r->calls, &r->errors, &r->semmin, &r->semmax);
	ASSERT_EQ(4, n) TH_LOG("'%s'", line);
	TH_LOG("target %d: %ld calls while racing", i, r->calls);
	ASSERT_EQ(0, r->errors) TH_LOG("wrong results of %ld of %ld calls",
				       r->errors, r->calls);
	ASSERT_LT(0, r->calls);
}

/* Target I quits; it must exit with 0. */
static void quit(struct __test_metadata *_metadata, struct race_state *st,
		 int i)
{
	char buf[96];
	int status;

	upng_send(&st->t[i], "quit");
	status = upng_finish(&st->t[i], RECV_MS);
	ASSERT_TRUE(status >= 0 && WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("target %d: %s", i,
		       status < 0 ? strerror(-status) :
				    status_str(status, buf, sizeof(buf)));
}

static struct site site(pid_t pid, unsigned long addr, const unsigned char *file)
{
	return (struct site){ .pid = pid, .addr = addr, .file = file };
}

static void check_armed(struct __test_metadata *_metadata, struct site s)
{
	char why[200];

	ASSERT_TRUE(site_armed(&s, why, sizeof(why))) TH_LOG("%s", why);
}

static void check_orig(struct __test_metadata *_metadata, struct site s)
{
	char why[200];

	ASSERT_TRUE(site_orig(&s, why, sizeof(why))) TH_LOG("%s", why);
}

/* The semaphore as target I reads it ("sem") and as /proc/PID/mem does. */
static void check_sem(struct __test_metadata *_metadata,
		      struct race_state *st, int i, int expect,
		      const char *when)
{
	char line[64];
	int v = -1, n;

	ask(_metadata, st, i, "sem", line, sizeof(line));
	n = sscanf(line, "sem %d", &v);
	ASSERT_EQ(1, n) TH_LOG("'%s'", line);
	ASSERT_EQ(expect, v) TH_LOG("target %d, %s: its semaphore", i, when);
	ASSERT_EQ(expect, sem_read(st->t[i].pid, st->sem.value))
		TH_LOG("target %d, %s: semaphore via /proc", i, when);
}

/*
 * A debugger writes into the race page (the never executed pad at its
 * start) while the probe of the same page is toggled: a byte the file
 * does not have, read back, then the file's byte, read back, and so on.
 * No write may be lost to the engine dropping the page's private copy
 * after comparing it to the file's. Then the pad gets a final pattern,
 * which one more toggle must leave alone, and race_a reads as the file.
 */
TEST_F_TIMEOUT(races, poke_vs_toggle, 300)
{
	struct race_state *st = &self->st;
	struct toggler *t = &st->tog[0];
	struct poker *p = &st->poker;
	unsigned char pattern[RACE_PAD_LEN], mem[RACE_PAGE_SIZE];
	struct spin_result r;
	char line[64];
	pid_t pid;
	int i;

	spawn(_metadata, st, 0);
	pid = st->t[0].pid;
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	/* The target runs the probed function now and then. */
	ask(_metadata, st, 0, "spin a 1 1000", line, sizeof(line));

	*t = (struct toggler){
		.ev = st->ev[0],
		.deadline = upng_now_ms() + race_ms(),
		.on[0] = site(pid, st->a.value, st->file_a),
		.off[0] = site(pid, st->a.value, st->file_a),
		.drop_pid = pid, .drop_addr = st->page.value,
	};
	*p = (struct poker){
		.pid = pid, .pad = st->pad.value, .deadline = t->deadline,
	};
	jitter_start(&st->jitter);
	ASSERT_EQ(0, tog_start(t));
	p->started = !pthread_create(&p->thread, NULL, poker_main, p);
	ASSERT_TRUE(p->started);
	tog_join(t);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	pthread_join(p->thread, NULL);
	p->started = false;
	jitter_stop(&st->jitter);

	TH_LOG("%ld writes into the pad", p->writes);
	ASSERT_EQ(0, p->err) TH_LOG("/proc/%d/mem: %s", pid, strerror(-p->err));
	ASSERT_EQ(0, p->lost) TH_LOG("%ld writes lost, the first: %s",
				     p->lost, p->first);
	ASSERT_LT(0, p->writes);
	tog_report(_metadata, t);
	spin_stop(_metadata, st, 0, &r);

	/* All of a last pattern stays, through one more toggle. */
	for (i = 0; i < RACE_PAD_LEN; i++)
		pattern[i] = 0x20 + i;
	ASSERT_EQ(0, upng_mem_write(pid, st->pad.value, pattern,
				    RACE_PAD_LEN));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	check_armed(_metadata, site(pid, st->a.value, st->file_a));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	ASSERT_EQ(0, upng_mem_read(pid, st->page.value, mem, RACE_PAGE_SIZE));
	ASSERT_EQ(0, memcmp(mem, pattern, RACE_PAD_LEN))
		TH_LOG("the poked pad is not all there");
	for (i = RACE_PAD_LEN; i < RACE_PAGE_SIZE; i++) {
		ASSERT_EQ(st->file_page[i], mem[i])
			TH_LOG("byte %#x of the page", i);
	}
	run_calls(_metadata, st, 0, 'a', 10);
	quit(_metadata, st, 0);
}

/*
 * Probes on race_a and race_b, in the same page, each toggled by its own
 * thread: the breakpoint one inserts must survive the other's removal
 * (which compares the page to the file's and may drop the copy), so after
 * each enable, once the other thread's tracefs write has returned, the
 * breakpoint must be there, and after each disable the file's bytes.
 * Then race_b stays enabled while race_a is toggled and the target calls
 * race_b: every call is counted, and race_a reads as the file once
 * disabled.
 */
TEST_F_TIMEOUT(races, two_probes_one_page, 300)
{
	struct race_state *st = &self->st;
	struct toggler *ta = &st->tog[0], *tb = &st->tog[1];
	unsigned char mem[RACE_PAGE_SIZE];
	struct spin_result r;
	const long n = 20000;
	long hits_a, hits_b;
	char line[64];
	long long end;
	pid_t pid;
	int i;

	spawn(_metadata, st, 0);
	pid = st->t[0].pid;
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_add(st->ev[1], st->bin, st->b.offset,
				    NULL));
	ask(_metadata, st, 0, "spin a 1 2000", line, sizeof(line));

	end = upng_now_ms() + race_ms();
	*ta = (struct toggler){
		.ev = st->ev[0], .deadline = end, .peer = tb,
		.on[0] = site(pid, st->a.value, st->file_a),
		.off[0] = site(pid, st->a.value, st->file_a),
		.drop_pid = pid, .drop_addr = st->page.value,
	};
	*tb = (struct toggler){
		.ev = st->ev[1], .deadline = end, .peer = ta,
		.on[0] = site(pid, st->b.value, st->file_b),
		.off[0] = site(pid, st->b.value, st->file_b),
	};
	jitter_start(&st->jitter);
	ASSERT_EQ(0, tog_start(ta));
	ASSERT_EQ(0, tog_start(tb));
	tog_join(ta);
	tog_join(tb);
	jitter_stop(&st->jitter);
	tog_report(_metadata, ta);
	tog_report(_metadata, tb);
	spin_stop(_metadata, st, 0, &r);

	/* race_b counts every call while race_a comes and goes. */
	ASSERT_EQ(0, upng_probe_enable(st->ev[1], true));
	check_armed(_metadata, site(pid, st->b.value, st->file_b));
	hits_b = upng_probe_hits(st->ev[1]);
	*ta = (struct toggler){
		.ev = st->ev[0], .deadline = upng_now_ms() + race_ms(),
		.on[0] = site(pid, st->a.value, st->file_a),
		.off[0] = site(pid, st->a.value, st->file_a),
	};
	ASSERT_EQ(0, tog_start(ta));
	run_calls(_metadata, st, 0, 'b', n);
	tog_stop(ta);
	TH_LOG("%s toggled %ld times during %ld calls of race_b", ta->ev,
	       ta->rounds, n);
	ASSERT_EQ(0, ta->err) TH_LOG("%s: %s", ta->errwhat, strerror(-ta->err));
	ASSERT_EQ(0, ta->bad) TH_LOG("%s", ta->first);
	ASSERT_EQ(hits_b + n, upng_probe_hits(st->ev[1]));
	check_orig(_metadata, site(pid, st->a.value, st->file_a));
	check_armed(_metadata, site(pid, st->b.value, st->file_b));
	hits_a = upng_probe_hits(st->ev[0]);
	run_calls(_metadata, st, 0, 'a', 100);
	ASSERT_EQ(hits_a, upng_probe_hits(st->ev[0]));

	/* Both gone: the whole page is the file's. */
	ASSERT_EQ(0, upng_probe_enable(st->ev[1], false));
	ASSERT_EQ(0, upng_mem_read(pid, st->page.value, mem, RACE_PAGE_SIZE));
	for (i = 0; i < RACE_PAGE_SIZE; i++) {
		ASSERT_EQ(st->file_page[i], mem[i])
			TH_LOG("byte %#x", i);
	}
	quit(_metadata, st, 0);
}

/*
 * The target makes its race page writable and executable and writes
 * race_word, alternately 0 (the file's value: the page is the file's
 * again) and a new counter value, checking each time that it reads back
 * what it wrote last. Each round: the probe of race_a is enabled while
 * the page is read-only (the engine inserts only there), the target starts
 * writing, the probe is disabled while it writes, the target stops and
 * tells how many of its writes it lost: none may be.
 */
TEST_F_TIMEOUT(races, writable_text, 300)
{
	struct race_state *st = &self->st;
	unsigned long w, lost, exp, got, writes = 0;
	long rounds = 0, drops = 0;
	struct site sa;
	int n;
	long long end;
	char line[160];

	spawn(_metadata, st, 0);
	sa = site(st->t[0].pid, st->a.value, st->file_a);
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	end = upng_now_ms() + race_ms();
	jitter_start(&st->jitter);
	while (upng_now_ms() < end ||
	       (rounds < MIN_ROUNDS && upng_now_ms() < end + MIN_ROUNDS_GRACE_MS)) {
		ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
		check_armed(_metadata, sa);
		ask(_metadata, st, 0, "wstart", line, sizeof(line));
		ASSERT_STREQ("writing", line);
		ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
		drops += page_dropped(sa.pid, st->page.value);
		ask(_metadata, st, 0, "wstop", line, sizeof(line));
		n = sscanf(line, "wrote %lu lost %lu expected %lu got %lu",
			   &w, &lost, &exp, &got);
		ASSERT_EQ(4, n) TH_LOG("'%s'", line);
		ASSERT_EQ(0UL, lost)
			TH_LOG("round %ld: %lu of %lu writes lost, the first: wrote %lu, read %lu",
			       rounds, lost, w, exp, got);
		check_orig(_metadata, sa);
		writes += w;
		rounds++;
	}
	jitter_stop(&st->jitter);
	TH_LOG("%ld rounds, %lu writes of race_word", rounds, writes);
	TH_LOG("the page was the file's again after %ld disables", drops);
	ASSERT_LE(MIN_ROUNDS, rounds);
	ASSERT_LT(0UL, writes);
	run_calls(_metadata, st, 0, 'a', 10);
	quit(_metadata, st, 0);
}

/* Every page of the text mapping holding ADDR is mapped and locked. */
static void check_locked(struct __test_metadata *_metadata, pid_t pid,
			 unsigned long addr, const char *when)
{
	struct upng_vma v;
	uint64_t pm = 0;

	ASSERT_EQ(0, upng_pagemap(pid, addr, &pm));
	ASSERT_EQ(0, upng_smaps_vma(pid, addr, &v));
	ASSERT_TRUE((pm & UPNG_PM_PRESENT) != 0)
		TH_LOG("%s: the race page is not mapped (pagemap %#llx)", when,
		       (unsigned long long)pm);
	ASSERT_EQ(v.size_kb, v.rss_kb)
		TH_LOG("%s: %lx-%lx %s: Rss %ld kB of %ld kB", when, v.start,
		       v.end, v.perms, v.rss_kb, v.size_kb);
	ASSERT_EQ(v.rss_kb, v.locked_kb)
		TH_LOG("%s: %lx-%lx %s: Locked %ld kB, Rss %ld kB", when,
		       v.start, v.end, v.perms, v.locked_kb, v.rss_kb);
}

/*
 * mlockall()ed text stays resident and locked through probes coming and
 * going (mlock(2): locked pages stay in RAM until unlocked). On 6.12,
 * VmLck is the size of the locked mappings (mm->locked_vm), which
 * unmapping a page does not change; smaps counts in Rss, and in Locked
 * for a locked mapping, only the pages mapped. A page taken out of the
 * locked text mapping therefore shows as Rss and Locked below Size, and
 * as not present in pagemap. (Stock 6.12 also unmaps it: __replace_page()
 * without a new page.) The target does not run the page meanwhile, and the
 * test reads nothing through /proc/PID/mem before checking, both of which
 * would fault it back in.
 */
TEST_F_TIMEOUT(races, mlocked_text, 300)
{
	struct race_state *st = &self->st;
	long lck_before, lck_after, hits;
	struct upng_vma v;
	char line[64];
	pid_t pid;
	int i;

	spawn(_metadata, st, 0);
	pid = st->t[0].pid;
	ask(_metadata, st, 0, "mlock", line, sizeof(line));
	ASSERT_STREQ("mlock 0", line);
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	lck_before = upng_status_kb(pid, "VmLck");
	ASSERT_EQ(0, upng_smaps_vma(pid, st->page.value, &v));
	TH_LOG("text %lx-%lx %s: Size %ld Rss %ld Locked %ld kB, VmLck %ld kB",
	       v.start, v.end, v.perms, v.size_kb, v.rss_kb, v.locked_kb,
	       lck_before);
	ASSERT_LE(v.size_kb, lck_before);
	check_locked(_metadata, pid, st->page.value, "after mlockall");

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
		ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	}
	check_locked(_metadata, pid, st->page.value, "after 20 toggles");
	lck_after = upng_status_kb(pid, "VmLck");
	ASSERT_LE(lck_before, lck_after);
	check_orig(_metadata, site(pid, st->a.value, st->file_a));

	/* The probe still works, and its going leaves the text locked. */
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	hits = upng_probe_hits(st->ev[0]);
	run_calls(_metadata, st, 0, 'a', 50);
	ASSERT_EQ(hits + 50, upng_probe_hits(st->ev[0]));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	check_locked(_metadata, pid, st->page.value, "after the calls");
	ASSERT_LE(lck_before, upng_status_kb(pid, "VmLck"));
	quit(_metadata, st, 0);
}

/*
 * Two threads call race_a without pause while the target drops its copy
 * of the race page again and again (MADV_DONTNEED): the file's page comes
 * back without the breakpoint, until the engine puts it back. A thread
 * that trapped on the breakpoint just before a drop finds the original
 * instruction where it trapped, and must go on with it (s390's trap
 * handler tells that from an instruction the machine does not have by
 * the count of breakpoints gone), never die of SIGILL or SIGTRAP; every
 * call computes right, and the probe counts every call afterwards.
 */
TEST_F_TIMEOUT(races, dontneed_vs_hits, 300)
{
	struct race_state *st = &self->st;
	struct spin_result r;
	long drops = 0, hits;
	char line[64];
	long long end;

	spawn(_metadata, st, 0);
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	ask(_metadata, st, 0, "spin a 2", line, sizeof(line));
	end = upng_now_ms() + race_ms();
	jitter_start(&st->jitter);
	while (upng_now_ms() < end) {
		ask(_metadata, st, 0, "drop 50", line, sizeof(line));
		ASSERT_STREQ("dropped 50", line);
		drops += 50;
	}
	jitter_stop(&st->jitter);
	check_alive(_metadata, st, 0);
	spin_stop(_metadata, st, 0, &r);
	hits = upng_probe_hits(st->ev[0]);
	TH_LOG("%ld drops, %ld hits", drops, hits);
	EXPECT_LT(0, hits);
	run_calls(_metadata, st, 0, 'a', 100);
	ASSERT_EQ(hits + 100, upng_probe_hits(st->ev[0]));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	check_orig(_metadata, site(st->t[0].pid, st->a.value, st->file_a));
	quit(_metadata, st, 0);
}

/*
 * A perf event bound to target A makes the probe's consumer filter out
 * target B: hits in B ask for the breakpoint's removal from B. Meanwhile
 * a tracefs event on the same probe, which wants every process, is
 * enabled and disabled again and again, while threads of B call the
 * function. While the tracefs event is enabled, B must have the
 * breakpoint (whatever a handler asked), after it is disabled B must not,
 * and A keeps it all along. Finally, with the tracefs event enabled, every
 * call in B and in A is counted, and the perf event counts A's only.
 */
TEST_F_TIMEOUT(races, handler_removal_vs_register, 300)
{
	struct race_state *st = &self->st;
	struct toggler *t = &st->tog[0];
	struct site sa, sb;
	struct spin_result r;
	long long count;
	const long n = 500, m = 300;
	long hits;
	char line[64];

	spawn(_metadata, st, 0);
	spawn(_metadata, st, 1);
	sa = site(st->t[0].pid, st->a.value, st->file_a);
	sb = site(st->t[1].pid, st->a.value, st->file_a);
	st->perf_fd = upng_perf_uprobe_open(st->bin, st->a.offset, 0, sa.pid);
	ASSERT_LE(0, st->perf_fd)
		TH_LOG("perf_event_open: %s", strerror(-st->perf_fd));
	check_armed(_metadata, sa);
	check_orig(_metadata, sb);
	ASSERT_EQ(0, upng_probe_add(st->ev[0], st->bin, st->a.offset,
				    NULL));
	ask(_metadata, st, 1, "spin a 4", line, sizeof(line));

	*t = (struct toggler){
		.ev = st->ev[0], .deadline = upng_now_ms() + race_ms(),
		.hold_us = 500,
		.on = { sa, sb }, .off[0] = sb,
	};
	jitter_start(&st->jitter);
	ASSERT_EQ(0, tog_start(t));
	tog_join(t);
	jitter_stop(&st->jitter);
	check_alive(_metadata, st, 1);
	tog_report(_metadata, t);

	/* Enabled once more, with B still calling. */
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	usleep(100000);
	check_armed(_metadata, sb);
	spin_stop(_metadata, st, 1, &r);
	check_armed(_metadata, sa);
	check_armed(_metadata, sb);
	ASSERT_EQ(0, upng_perf_count(st->perf_fd)) TH_LOG("A made no call");

	hits = upng_probe_hits(st->ev[0]);
	run_calls(_metadata, st, 1, 'a', n);
	ASSERT_EQ(hits + n, upng_probe_hits(st->ev[0])) TH_LOG("calls in B");
	run_calls(_metadata, st, 0, 'a', m);
	ASSERT_EQ(hits + n + m, upng_probe_hits(st->ev[0])) TH_LOG("calls in A");
	count = upng_perf_count(st->perf_fd);
	ASSERT_EQ(m, count);

	/* The tracefs event gone, only A keeps the breakpoint. */
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	check_orig(_metadata, sb);
	check_armed(_metadata, sa);
	run_calls(_metadata, st, 1, 'a', 20);
	ASSERT_EQ(hits + n + m, upng_probe_hits(st->ev[0]));
	ASSERT_EQ(m, upng_perf_count(st->perf_fd));
	close(st->perf_fd);
	st->perf_fd = -1;
	check_orig(_metadata, sa);
	quit(_metadata, st, 0);
	quit(_metadata, st, 1);
}

/*
 * A USDT-style probe: race_c with the semaphore race_sem (RACE_SEM_BASE
 * in the file; bkpt.c counts +1 per address space holding the probe's
 * breakpoint). A perf event with the semaphore bound to target A makes
 * hits in target B ask for removal; two tracefs events on the same
 * location and semaphore are toggled by two threads while threads of B
 * call race_c and sample race_sem. B's semaphore must never leave
 * [BASE, BASE + 1], read BASE + 1 whenever one of the events is enabled,
 * and end at exactly BASE with both disabled, BASE + 1 with one enabled
 * (or both: one probe), in B's own reading and through /proc; A's reads
 * BASE + 1 until the perf event is closed, then BASE.
 */
TEST_F_TIMEOUT(races, semaphore, 300)
{
	struct race_state *st = &self->st;
	const int base = RACE_SEM_BASE;
	struct toggler *t1 = &st->tog[0], *t2 = &st->tog[1];
	struct site sa, sb;
	struct spin_result r;
	char line[64], first[256];
	long long end;
	long splats, nsem;
	int i;

	spawn(_metadata, st, 0);
	spawn(_metadata, st, 1);
	sa = site(st->t[0].pid, st->c.value, st->file_c);
	sb = site(st->t[1].pid, st->c.value, st->file_c);
	st->kmsg = upng_kmsg_open();
	ASSERT_LE(0, st->kmsg);
	check_sem(_metadata, st, 0, base, "before any probe");
	st->perf_fd = upng_perf_uprobe_open(st->bin, st->c.offset,
					    st->sem.offset, sa.pid);
	ASSERT_LE(0, st->perf_fd)
		TH_LOG("perf_event_open: %s", strerror(-st->perf_fd));
	check_armed(_metadata, sa);
	check_orig(_metadata, sb);
	check_sem(_metadata, st, 0, base + 1, "perf event on A");
	check_sem(_metadata, st, 1, base, "perf event on A");
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_probe_add_sem(st->ev[i], st->bin,
						st->c.offset,
						st->sem.offset, NULL))
			TH_LOG("probe %d", i);
	}
	ask(_metadata, st, 1, "spin c 3", line, sizeof(line));

	end = upng_now_ms() + race_ms();
	for (i = 0; i < 2; i++)
		st->tog[i] = (struct toggler){
			.ev = st->ev[i], .deadline = end,
			.on[0] = sb,
			.sem_pid = sb.pid, .sem_addr = st->sem.value,
			.sem_on = base + 1,
		};
	jitter_start(&st->jitter);
	ASSERT_EQ(0, tog_start(t1));
	ASSERT_EQ(0, tog_start(t2));
	tog_join(t1);
	tog_join(t2);
	jitter_stop(&st->jitter);
	check_alive(_metadata, st, 1);
	spin_stop(_metadata, st, 1, &r);
	TH_LOG("B sampled its semaphore between %d and %d", r.semmin, r.semmax);
	tog_report(_metadata, t1);
	tog_report(_metadata, t2);
	ASSERT_LE(base, r.semmin);
	ASSERT_GE(base + 1, r.semmax);

	check_sem(_metadata, st, 1, base, "both events disabled");
	check_orig(_metadata, sb);
	check_sem(_metadata, st, 0, base + 1, "both events disabled");
	check_armed(_metadata, sa);
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	check_sem(_metadata, st, 1, base + 1, "one event enabled");
	check_armed(_metadata, sb);
	ASSERT_EQ(0, upng_probe_enable(st->ev[1], true));
	check_sem(_metadata, st, 1, base + 1, "both events enabled");
	check_sem(_metadata, st, 0, base + 1, "both events enabled");
	run_calls(_metadata, st, 1, 'c', 20);
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	check_sem(_metadata, st, 1, base + 1, "one event left");
	ASSERT_EQ(0, upng_probe_enable(st->ev[1], false));
	check_sem(_metadata, st, 1, base, "no event left");
	ASSERT_EQ(0, upng_perf_count(st->perf_fd)) TH_LOG("A made no call");
	close(st->perf_fd);
	st->perf_fd = -1;
	check_sem(_metadata, st, 0, base, "perf event closed");
	check_orig(_metadata, sa);

	splats = upng_kmsg_scan(st->kmsg, "semaphore", &nsem, first,
				sizeof(first));
	ASSERT_EQ(0, splats) TH_LOG("kernel: %s", first);
	ASSERT_EQ(0, nsem) TH_LOG("the kernel complained about a semaphore");
	quit(_metadata, st, 0);
	quit(_metadata, st, 1);
}

/* A thread of process PID other than its main one, or -1. */
static pid_t other_thread(pid_t pid)
{
	char path[64];
	struct dirent *d;
	pid_t tid = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (tid < 0 && (d = readdir(dir)))
		if (atoi(d->d_name) > 0 && atoi(d->d_name) != pid)
			tid = atoi(d->d_name);
	closedir(dir);
	return tid;
}

/*
 * Perf events of the uprobe PMU are closed without waiting for the
 * handlers in flight: their event, perf's per-CPU lists and our scratch
 * pages are freed later. Four threads of the target call race_a without
 * pause while an event bound to one of them is opened, left to count for
 * up to a millisecond and closed, again and again, so that closes meet
 * handlers
 * (the debug kernel's KASAN would see a use after free). Every event
 * counts, the target computes right and survives, the breakpoint is gone
 * after the last close, and a last event counts exactly its calls.
 */
TEST_F_TIMEOUT(races, perf_close_vs_hits, 300)
{
	struct race_state *st = &self->st;
	long long end, count, total = 0;
	struct spin_result r;
	struct site sa;
	char line[64];
	long rounds = 0, empty = 0;
	pid_t tid;
	int fd;

	spawn(_metadata, st, 0);
	sa = site(st->t[0].pid, st->a.value, st->file_a);
	ask(_metadata, st, 0, "spin a 4", line, sizeof(line));
	tid = other_thread(sa.pid);
	ASSERT_LT(0, tid) TH_LOG("no spinning thread in /proc/%d/task", sa.pid);

	end = upng_now_ms() + race_ms();
	jitter_start(&st->jitter);
	while (upng_now_ms() < end || rounds < MIN_ROUNDS) {
		fd = upng_perf_uprobe_open(st->bin, st->a.offset, 0, tid);
		ASSERT_LE(0, fd) TH_LOG("round %ld: perf_event_open: %s",
					rounds, strerror(-fd));
		st->perf_fd = fd;
		usleep(rounds % 1000);
		count = upng_perf_count(fd);
		st->perf_fd = -1;
		close(fd);
		ASSERT_LE(0, count) TH_LOG("round %ld", rounds);
		total += count;
		empty += !count;
		rounds++;
	}
	jitter_stop(&st->jitter);
	check_alive(_metadata, st, 0);
	spin_stop(_metadata, st, 0, &r);
	TH_LOG("%ld events, %lld hits counted, %ld events without a hit",
	       rounds, total, empty);
	ASSERT_LT(0, total);
	check_orig(_metadata, sa);

	st->perf_fd = upng_perf_uprobe_open(st->bin, st->a.offset, 0, sa.pid);
	ASSERT_LE(0, st->perf_fd);
	check_armed(_metadata, sa);
	run_calls(_metadata, st, 0, 'a', 100);
	ASSERT_EQ(100, upng_perf_count(st->perf_fd));
	close(st->perf_fd);
	st->perf_fd = -1;
	check_orig(_metadata, sa);
	quit(_metadata, st, 0);
}

/*
 * Eight threads call race_c without pause while two threads toggle one
 * tracefs event each on race_c, deleting and adding their event again
 * every 8 rounds: the probe dies and is created again and again while
 * threads are between a hit and its handling. A thread that finds no
 * probe for its breakpoint must not take the new probe's breakpoint for
 * someone else's and get a SIGTRAP: the target must survive, compute
 * right, exit normally, and the probe still counts every call.
 */
TEST_F_TIMEOUT(races, no_spurious_sigtrap, 300)
{
	struct race_state *st = &self->st;
	struct spin_result r;
	struct site sc;
	char line[64];
	long long end;
	long hits;
	int i;

	spawn(_metadata, st, 0);
	sc = site(st->t[0].pid, st->c.value, st->file_c);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_probe_add(st->ev[i], st->bin,
					    st->c.offset, NULL))
			TH_LOG("probe %d", i);
	}
	ask(_metadata, st, 0, "spin c 8", line, sizeof(line));

	end = upng_now_ms() + race_ms();
	for (i = 0; i < 2; i++)
		st->tog[i] = (struct toggler){
			.ev = st->ev[i], .deadline = end, .on[0] = sc,
			.readd_every = 8, .path = st->bin,
			.probe_off = st->c.offset,
		};
	jitter_start(&st->jitter);
	ASSERT_EQ(0, tog_start(&st->tog[0]));
	ASSERT_EQ(0, tog_start(&st->tog[1]));
	tog_join(&st->tog[0]);
	tog_join(&st->tog[1]);
	jitter_stop(&st->jitter);
	/* First how the target is: a SIGTRAP also fails the checks. */
	check_alive(_metadata, st, 0);
	spin_stop(_metadata, st, 0, &r);
	for (i = 0; i < 2; i++)
		tog_report(_metadata, &st->tog[i]);

	check_orig(_metadata, sc);
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], true));
	hits = upng_probe_hits(st->ev[0]);
	run_calls(_metadata, st, 0, 'c', 100);
	ASSERT_EQ(hits + 100, upng_probe_hits(st->ev[0]));
	ASSERT_EQ(0, upng_probe_enable(st->ev[0], false));
	check_orig(_metadata, sc);
	quit(_metadata, st, 0);
}

static void exit_now(void)
{
	_exit(0);
}

/* A sampling event on @cpu, with callchains, every @period_ns. */
static int callchain_sampler(int cpu, long period_ns)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = period_ns;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
}

FIXTURE(exits) {
};

FIXTURE_SETUP(exits)
{
	upng_die_with_parent();
}

FIXTURE_TEARDOWN(exits)
{
}

TEST_F_TIMEOUT(exits, exit_vs_callchain, 300)
{
	int fd, ncpu = sysconf(_SC_NPROCESSORS_ONLN), i, status;
	long children = 0, bad = 0;
	int samplers[16];
	long long end, t;
	char path[64], ev[64];
	void *p;
	pid_t pid;

	snprintf(path, sizeof(path), "/tmp/races-exit-%d", getpid());
	fd = upng_caller_file(path);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	upng_evname(ev, sizeof(ev), "rexit");
	ASSERT_EQ(0, upng_retprobe_add(ev, path, 0, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	if (ncpu > 16)
		ncpu = 16;
	for (i = 0; i < ncpu; i++) {
		samplers[i] = callchain_sampler(i, 20000);
		ASSERT_LE(0, samplers[i]) TH_LOG("perf_event_open: %s",
						 strerror(errno));
	}
	end = upng_now_ms() + race_ms();
	for (t = upng_now_ms(); t < end || children < 100;
	     t = upng_now_ms()) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
				 MAP_PRIVATE, fd, 0);
			if (p == MAP_FAILED)
				_exit(1);
			((upng_caller_fn)p)(exit_now);
			_exit(2);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		bad += !WIFEXITED(status) || WEXITSTATUS(status);
		children++;
	}
	for (i = 0; i < ncpu; i++)
		close(samplers[i]);
	TH_LOG("%ld processes exited with a return pending", children);
	EXPECT_EQ(0, bad);
	/* Their entries hit, none returned. */
	EXPECT_EQ(0, upng_probe_del(ev));
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
