// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events parser fuzz: thousands of random and mutated definitions,
 * written to uprobe_events and dynamic_events while a sentinel probe is
 * enabled. Afterwards the kernel must be healthy: every write was accepted
 * or refused with an ordinary errno, the sentinel still counts every hit,
 * nothing the fuzz created survives the cleanup, the kernel log shows no
 * warning and (on kernels with kmemleak) nothing leaked.
 *
 * UEV_FUZZ_SEED and UEV_FUZZ_ITERS (environment) override the defaults;
 * each fuzz stops after TIME_LIMIT seconds if it has done at least a
 * MIN_SHARE-th of its definitions by then.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../uprobes/upng.h"
#include "uev_lib.h"

#define DEF_ITERS	20000
/* Each fuzz stops early after this many seconds (slow debug kernels)... */
#define TIME_LIMIT	40
/* ...but not before it has done this fraction of its definitions. */
#define MIN_SHARE	10
#define MAX_DEF		600
#define MAX_EVENTS	64

/* Pieces the generator glues together: the syntax of a definition. */
static const char * const tokens[] = {
	"p", "r", "-", ":", "/", " ", "  ", "\t", "%return", "%", "(", ")",
	"[", "]", "@", "@+", "$", "+", "-", "\\", "\"", "=", ".", "\n", "#",
	"0", "1", "8", "0x", "0x10", "0xffffffffffffffff", "-1",
	"99999999999999999999999",
#if defined(__aarch64__)
	"%x0", "%sp", "%pc", "%x30", "%pstate",
#elif defined(__riscv)
	"%a0", "%sp", "%epc", "%ra", "%status",
#elif defined(__s390x__)
	"%r2", "%r15", "%r14", "%r0", "%sp",
#else
	"%ax", "%sp", "%ip", "%r15", "%flags",
#endif
	"%nosuch", "$stack", "$stack0", "$stack999999", "$comm", "$COMM",
	"$retval", "$arg1", "$foo", "+0(", "-8(", "+u0(", ":u8", ":s16",
	":x32", ":u64", ":string", ":ustring", ":symbol", ":symstr", ":char",
	":b3@2/8", ":b0@0/8", ":b65@0/64", "[4]", "[0]", "[65]", "[",
	"uprobes/", "fuzz/", "grp/ev", "ev", "a=", "arg1=", "common_pid=",
	"/sys", "/nonexistent", "/", "//", "/proc/self/exe",
};

/*
 * Canonical definitions the mutator starts from ({T}, {O} and the
 * %{REGISTER} tokens: as in errors.c).
 */
static const char * const seeds[] = {
	"p:fuzz/e1 {T}:{O}",
	"r:fuzz/e2 {T}:{O} rv=$retval:s32",
	"p:fuzz/e3 {T}:{O}%return $retval",
	"p:fuzz/e4 {T}:{O}(0x10) a=%{WIDE} b=+8(%{DATA}):x32 c=+0(%{STR}):string",
	"p:fuzz/e5 {T}:{O} s=$stack0 t=$stack c=$comm d=\\123 e=@0x1000",
	"p:fuzz/e6 {T}:{O} f=@+0x40:u16 g=+0(+8(+16(%{DATA16}))):ustring",
	"p:fuzz/e7 {T}:{O} h=+15(%{DATA}):b4@4/8 i=+32(%{DATA}):u16[4] j=%{ARG1}:char",
#if defined(__aarch64__)
	"p {T}:{O} %x8 %x9:s8 +u4(%x10):x64",
#elif defined(__riscv)
	"p {T}:{O} %s0 %s1:s8 +u4(%a0):x64",
#else
	"p {T}:{O} %r8 %r9:s8 +u4(%r10):x64",
#endif
	"-:fuzz/e1",
	"-:e2",
	"p:fuzz.e8 {T}:{O} k=\\\"str\"",
};

struct fuzz {
	unsigned long long rng;
	char path[256];
	unsigned long off;
};

static unsigned int next_rand(struct fuzz *f)
{
	/* xorshift64*: deterministic for a given seed */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return (f->rng * 0x2545f4914f6cdd1dULL) >> 32;
}

static unsigned int pick(struct fuzz *f, unsigned int n)
{
	return next_rand(f) % n;
}

static void append(char *buf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n >= MAX_DEF)
		n = MAX_DEF - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

static void expand_seed(struct fuzz *f, const char *in, char *out)
{
	const char *reg;
	char num[32];
	size_t len = 0, n;

	out[0] = '\0';
	while (*in) {
		char c[2] = { *in, '\0' };

		n = uev_reg_token(in, &reg);
		if (n) {
			append(out, &len, reg);
			in += n;
		} else if (!strncmp(in, "{T}", 3)) {
			append(out, &len, f->path);
			in += 3;
		} else if (!strncmp(in, "{O}", 3)) {
			snprintf(num, sizeof(num), "0x%lx", f->off);
			append(out, &len, num);
			in += 3;
		} else {
			append(out, &len, c);
			in++;
		}
	}
}

/* Tokens and random bytes glued together. */
static void random_def(struct fuzz *f, char *buf)
{
	unsigned int i, n = 1 + pick(f, 24);
	size_t len = 0;
	char c[2] = { 0 };

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		switch (pick(f, 8)) {
		case 0:
			c[0] = 1 + pick(f, 255);
			append(buf, &len, c);
			break;
		case 1:
			append(buf, &len, f->path);
			break;
		default:
			append(buf, &len, tokens[pick(f, ARRAY_SIZE(tokens))]);
		}
	}
}

/* A seed definition with a few insertions, deletions and replacements. */
static void mutated_def(struct fuzz *f, char *buf)
{
	char tmp[MAX_DEF];
	unsigned int i, n = 1 + pick(f, 3);
	size_t len, at, cut;

	expand_seed(f, seeds[pick(f, ARRAY_SIZE(seeds))], buf);
	for (i = 0; i < n; i++) {
		len = strlen(buf);
		at = len ? pick(f, len + 1) : 0;
		switch (pick(f, 5)) {
		case 0:		/* delete a run */
			cut = at + pick(f, 8);
			if (cut > len)
				cut = len;
			memmove(buf + at, buf + cut, len - cut + 1);
			break;
		case 1:		/* insert a token */
			snprintf(tmp, sizeof(tmp), "%s%s",
				 tokens[pick(f, ARRAY_SIZE(tokens))],
				 buf + at);
			buf[at] = '\0';
			len = at;
			append(buf, &len, tmp);
			break;
		case 2:		/* replace a byte */
			if (at < len)
				buf[at] = 1 + pick(f, 255);
			break;
		case 3:		/* truncate */
			buf[at] = '\0';
			break;
		default:	/* duplicate the tail */
			snprintf(tmp, sizeof(tmp), "%s", buf + at);
			append(buf, &len, tmp);
		}
	}
}

/* Bases, dereference offsets and types random fetch arguments are made of. */
static const char * const fetch_bases[] = {
#if defined(__aarch64__)
	"%x4", "%x5", "%x2", "%x3", "%x1", "%x0", "%x6", "%sp", "%pc", "%x8",
	"%x7", "%lr", "%pstate",
#elif defined(__riscv)
	"%a4", "%a5", "%a2", "%a3", "%a1", "%a0", "%a6", "%sp", "%epc", "%s0",
	"%a7", "%ra", "%status",
#elif defined(__s390x__)
	"%r5", "%r6", "%r4", "%r0", "%r3", "%r2", "%r7", "%r15", "%r14", "%r1",
	"%r8", "%r13", "%r12",
#else
	"%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp", "%ip", "%r8",
	"%r9", "%r12", "%r15",
#endif
	"$stack", "$stack0", "$stack3", "$stack9",
	"@0x0", "@0x10", "@0xffffffff81000000", "@0xffff888000000000",
	"@0xffffffffffffffff", "@0x7ffffffff000", "@+0", "@+0x1000",
	"@+0x7fffffff", "\\0", "\\0x1000", "\\-1",
};

static const char * const fetch_offsets[] = {
	"+0(", "+8(", "-8(", "+0x28(", "+4096(", "-4096(", "+0x7fffffff(",
	"+u0(", "+u16(", "-u1(",
};

static const char * const fetch_types[] = {
	"", ":u8", ":s16", ":x32", ":u64", ":s64", ":char", ":string",
	":ustring", ":b3@2/8", ":b1@63/64", ":u8[4]", ":x16[2]", ":string[1]",
};

/* A fetch argument from the tables, dereferenced up to three times. */
static void random_fetcharg(struct fuzz *f, char *buf, size_t size)
{
	const char *off[3] = { "", "", "" };
	unsigned int i, depth = pick(f, 4);

	for (i = 0; i < depth; i++)
		off[i] = fetch_offsets[pick(f, ARRAY_SIZE(fetch_offsets))];
	snprintf(buf, size, "%s%s%s%s%s%s", off[0], off[1], off[2],
		 fetch_bases[pick(f, ARRAY_SIZE(fetch_bases))],
		 ")))" + 3 - depth,
		 fetch_types[pick(f, ARRAY_SIZE(fetch_types))]);
}

/* Seconds since @start. */
static long elapsed(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - start->tv_sec;
}

static bool ordinary_errno(int err)
{
	switch (-err) {
	case 0: case EINVAL: case ENOENT: case ENOTDIR: case ENAMETOOLONG:
	case E2BIG: case EEXIST: case EBUSY: case ELOOP: case ERANGE:
	case EACCES: case EOPNOTSUPP:
		return true;
	}
	return false;
}

/* Delete every uprobe event except uprobes/sentinel; returns how many. */
static int delete_fuzz_events(void)
{
	static char buf[1 << 20];
	char *line, *save, *name, *end, del[256];
	int n = 0, err;

	if (upng_tracefs_read_len("uprobe_events", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		name = strchr(line, ':');
		end = strchr(line, ' ');
		if (!name || !end || end < name)
			return -1;
		*end = '\0';
		if (!strcmp(name + 1, "uprobes/sentinel"))
			continue;
		snprintf(del, sizeof(del), "-:%s", name + 1);
		/* A multi-probe event goes with its first line. */
		err = upng_tracefs_write("uprobe_events", del);
		if (err && err != -ENOENT)
			return err;
		n++;
	}
	return n;
}

/* Names of the event groups, sorted, as one string. */
static void list_groups(char *out, size_t size)
{
	struct dirent **names;
	size_t len = 0;
	int n, i;

	out[0] = '\0';
	n = scandir(UPNG_TRACEFS "/events", &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_type == DT_DIR && names[i]->d_name[0] != '.')
			len += snprintf(out + len, len < size ? size - len : 0,
					"%s ", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* Count kernel log records that tell of a kernel problem. */
static int kernel_complaints(void)
{
	static const char * const bad[] = {
		"WARNING:", "BUG:", "Oops", "general protection", "kmemleak:",
		"UBSAN:", "KASAN:", "list_add corruption", "lockdep",
	};
	int n = 0;
	size_t i;
	long c;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = upng_kmsg_count(bad[i]);
		if (c > 0)
			n += c;
	}
	return n;
}

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

/*
 * With kmemleak (debug kernels), forget what it has found so far; returns
 * whether it is there.
 */
static bool kmemleak_clear(void)
{
	int fd = open(KMEMLEAK, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, "clear", 5) == 5;
	close(fd);
	return ok;
}

/* Objects kmemleak reports since kmemleak_clear(), 0 without kmemleak. */
static int new_leaks(bool kmemleak)
{
	static char report[1 << 16];
	size_t len = 0;
	char *p = report;
	int fd, n = 0;
	ssize_t r;

	if (!kmemleak)
		return 0;
	/* Only objects older than 5 s are reported. */
	sleep(6);
	fd = open(KMEMLEAK, O_WRONLY);
	if (fd < 0)
		return -errno;
	r = write(fd, "scan", 4);
	close(fd);
	if (r != 4)
		return -EIO;
	fd = open(KMEMLEAK, O_RDONLY);
	if (fd < 0)
		return -errno;
	while (len < sizeof(report) - 1 &&
	       (r = read(fd, report + len, sizeof(report) - 1 - len)) > 0)
		len += r;
	close(fd);
	report[len] = '\0';
	while ((p = strstr(p, "unreferenced object"))) {
		n++;
		p++;
	}
	if (n)
		fprintf(stderr, "# %s", report);
	return n;
}

FIXTURE(fuzz) {
	struct fuzz f;
	struct upng_sym count;
	char groups[8192];
	int complaints;
	bool kmemleak;
};

FIXTURE_SETUP(fuzz)
{
	if (!uev_can_run(_metadata))
		return;
	snprintf(self->f.path, sizeof(self->f.path), "%s",
		 upng_path("bin/" UEV_TARGET));
	ASSERT_EQ(0, upng_elf_sym(self->f.path, "uev_count_func", &self->count));
	self->f.off = self->count.offset;
	self->f.rng = getenv("UEV_FUZZ_SEED") ?
		      strtoull(getenv("UEV_FUZZ_SEED"), NULL, 0) : 0x75657666757a7aULL;
	if (!self->f.rng)
		self->f.rng = 1;
	ASSERT_EQ(0, upng_tracefs_reset());
	list_groups(self->groups, sizeof(self->groups));
	self->complaints = kernel_complaints();
	self->kmemleak = kmemleak_clear();
}

FIXTURE_TEARDOWN(fuzz)
{
	upng_tracefs_write("events/uprobes/sentinel/enable", "0");
	upng_tracefs_reset();
}

TEST_F_TIMEOUT(fuzz, parser, 600)
{
	static const int ns[] = { 0, 1, 2, 3, 4 };
	static struct upng_trace t;
	int iters = DEF_ITERS, i, err, accepted = 0, refused = 0;
	struct timespec start;
	char def[MAX_DEF], want[UPNG_TRACE_LINE_LEN], groups[8192];
	struct uev_proc p;

	if (getenv("UEV_FUZZ_ITERS"))
		iters = atoi(getenv("UEV_FUZZ_ITERS"));
	TH_LOG("seed 0x%llx, %d definitions", self->f.rng, iters);
	ASSERT_EQ(0, uev_define("p:uprobes/sentinel", self->f.path, self->count.offset,
				UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/sentinel/enable", "1"));

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < iters && elapsed(&start) < TIME_LIMIT; i++) {
		if (i % 3)
			mutated_def(&self->f, def);
		else
			random_def(&self->f, def);
		err = upng_tracefs_write(i % 5 ? "uprobe_events" : "dynamic_events", def);
		ASSERT_TRUE(ordinary_errno(err)) {
			TH_LOG("'%s': %d (%s)", def, err, strerror(-err));
		}
		if (err)
			refused++;
		else
			accepted++;
		if (i % 200 == 199) {
			/* Enabled, so never deleted in bulk. */
			ASSERT_EQ(-EBUSY, upng_tracefs_write_trunc("uprobe_events", ""));
			ASSERT_LE(0, delete_fuzz_events());
		}
	}
	TH_LOG("%d accepted, %d refused in %lds", accepted, refused,
	       elapsed(&start));
	ASSERT_LE(iters / MIN_SHARE, i);
	/* The parser refuses most of it, but not all. */
	ASSERT_LT(0, accepted);
	ASSERT_LT(i / 2, refused);
	ASSERT_LE(0, delete_fuzz_events());

	/* The sentinel still counts exactly. */
	ASSERT_EQ(0, upng_tracefs_write_trunc("trace", ""));
	ASSERT_EQ(0, uev_spawn(&p, self->f.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 5));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(5, upng_trace_get("trace", "sentinel", &t));
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "(0x%lx) n=%d", self->count.value, ns[i]);
		ASSERT_STREQ(want, t.line[i]);
	}

	/* Nothing the fuzz created is left. */
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/sentinel/enable", "0"));
	ASSERT_EQ(0, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_EQ(0, upng_tracefs_read_len("uprobe_events", def, sizeof(def)));
	ASSERT_EQ(0, upng_tracefs_read_len("uprobe_profile", def, sizeof(def)));
	list_groups(groups, sizeof(groups));
	ASSERT_STREQ(self->groups, groups);
	ASSERT_EQ(self->complaints, kernel_complaints());
	ASSERT_EQ(0, new_leaks(self->kmemleak));
}

/*
 * Random fetch arguments, mostly on addresses that are not mapped or not
 * user memory, on an enabled probe that the target then hits: every
 * accepted definition gives exactly one well-formed trace line and the
 * target survives.
 */
TEST_F_TIMEOUT(fuzz, fetch_paths, 600)
{
	int iters = 150, i, j, nargs, accepted = 0, err;
	struct timespec start;
	char def[2048], arg[256], want[64], *rec;
	static char trace[1 << 16];
	ssize_t n;
	struct upng_sym probe;
	struct uev_proc p;
	size_t len;

	if (getenv("UEV_FUZZ_ITERS"))
		iters = atoi(getenv("UEV_FUZZ_ITERS")) / 100 + 1;
	TH_LOG("seed 0x%llx, %d definitions", self->f.rng, iters);
	ASSERT_EQ(0, upng_elf_sym(self->f.path, "uev_regs_probe", &probe));
	ASSERT_EQ(0, uev_spawn(&p, self->f.path));
	snprintf(want, sizeof(want), " ff: (0x%lx) a0=", probe.value);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < iters && elapsed(&start) < TIME_LIMIT; i++) {
		len = snprintf(def, sizeof(def), "p:uprobes/ff %s:0x%lx",
			       self->f.path, probe.offset);
		nargs = 1 + pick(&self->f, 6);
		for (j = 0; j < nargs; j++) {
			random_fetcharg(&self->f, arg, sizeof(arg));
			len += snprintf(def + len, sizeof(def) - len, " a%d=%s", j, arg);
		}
		err = upng_tracefs_write("uprobe_events", def);
		if (err) {
			ASSERT_TRUE(err == -EINVAL || err == -E2BIG) {
				TH_LOG("'%s': %s", def, strerror(-err));
			}
			continue;
		}
		accepted++;
		ASSERT_EQ(0, upng_tracefs_write_trunc("trace", ""));
		ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ff/enable", "1"));
		ASSERT_EQ(0, uev_cmd(&p, 'a', 1)) {
			TH_LOG("target died on '%s'", def);
		}
		ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ff/enable", "0"));
		/*
		 * Strings from arbitrary memory may hold newlines, chars may
		 * be NULs: look at the trace as a whole, not line by line.
		 */
		n = upng_tracefs_read_len("trace", trace, sizeof(trace));
		ASSERT_LT(0, n);
		while (n-- > 0)
			if (!trace[n])
				trace[n] = '.';
		rec = strstr(trace, want);
		ASSERT_NE(NULL, rec) {
			TH_LOG("'%s': no record", def);
		}
		ASSERT_EQ(NULL, strstr(rec + 1, want)) {
			TH_LOG("'%s': two records", def);
		}
		snprintf(arg, sizeof(arg), " a%d=", nargs - 1);
		ASSERT_NE(NULL, strstr(rec, arg)) {
			TH_LOG("'%s': %s", def, rec);
		}
		ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:ff"));
	}
	ASSERT_EQ(0, uev_finish(&p));
	TH_LOG("%d of %d accepted in %lds", accepted, i, elapsed(&start));
	ASSERT_LE(iters / MIN_SHARE, i);
	ASSERT_LT(i / 3, accepted);
	ASSERT_EQ(self->complaints, kernel_complaints());
}

TEST_HARNESS_MAIN
