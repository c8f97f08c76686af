// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection on the engine: failslab, fail_page_alloc and
 * fail_usercopy, confined to the engine's code by the stack trace filter
 * (require-start/require-end: the text of kernel/events/uprobes/, or of
 * arch/x86/kernel/uprobes/ for a second run of the hit path, found in
 * /proc/kallsyms by the engine's name prefixes around a function of the
 * stock interface) and to chosen tasks by the task filter
 * (/proc/thread-self/make-it-fail). Whatever fails must end as an errno
 * or a skipped hit: never a breakpoint left for good, a wrong result, a
 * killed process, a hit handled twice, a probe left in the registry, or a
 * WARNING/BUG in the kernel log (leaks of memory: kmemleak, which the
 * runner checks on the debug kernel).
 *
 *   registration    enabling events under faults (in the writer) while
 *                   two targets run through the probes: 0 or an errno;
 *                   then the enable file, the breakpoints in every
 *                   process and the hits agree with the result, and
 *                   disable / enable / delete work as if nothing failed
 *   unregistration  disabling under faults: no hit is counted after it,
 *                   a breakpoint that could not be removed (kept
 *                   "stranded" for a later attempt) executes the original
 *                   instruction and goes away, no target is killed
 *   hit_path        targets under faults run entry and return probes on
 *                   boosted, emulated and stepped instructions (the whole
 *                   instruction table of insn64.S): right results, exit
 *                   0, never more hits (or traced returns) than
 *                   executions; with the engine's range, then with the
 *                   x86 code's range (fail_usercopy)
 *   insertion       a target exec()ed under faults, and mmap() of the
 *                   probed file under faults: the breakpoints a mapping
 *                   gets are the file's instruction or int3, nothing else
 *
 * Every case counts the faults injected (the debugfs "times" countdown)
 * and fails when there were none. The kernel needs CONFIG_FAILSLAB,
 * FAIL_PAGE_ALLOC, FAULT_INJECTION_USERCOPY, FAULT_INJECTION_DEBUG_FS and
 * FAULT_INJECTION_STACKTRACE_FILTER; without /sys/kernel/debug/failslab
 * the cases are skipped. UPNG_FAULT_ROUNDS=N sets the rounds of every
 * case (the probability goes 10, 20, 30% round after round).
 *
 * On s390 the probes are on sites_s390.S and the instruction table of
 * insn_s390.S (emulated relative-long loads, stores and compares, the
 * rest stepped), the rip-relative load is the emulated lgrl of
 * site_rlload(), the indirect call and push a stepped basr and stmg, and
 * the breakpoint is the two bytes 0x0002. s390's stock code touches user
 * memory with get_user() and put_user() alone: no second run of the hit
 * path with fail_usercopy confined to it.
 *
 * On arm64 the probes are on sites_a64.S and the whole instruction table
 * of insn_a64.S (simulated branches, literal loads, stp/ldr/str and data
 * processing; stepped multiplies, loads, atomics, FP/SIMD ...), the
 * rip-relative load is the simulated literal load of site_litload(), the
 * stepped indirect call and emulated push are the simulated blr and stp
 * (insn_t_call_reg, insn_t_push_reg), and the breakpoint is the four
 * bytes of brk #5.  The second run of the hit path confines the faults
 * to arch/arm64/kernel/uprobes/: there fail_usercopy fails the
 * copy_to_user() of a simulated stp (get_user() and put_user(), which
 * the other simulated loads and stores use, do not consult it), which
 * must then be single-stepped instead, with the same result.
 *
 * On riscv the probes are on sites_riscv.S and the table of
 * insn_riscv.S, the data load is site_load()'s stepped ld, the breakpoint
 * the two bytes of c.ebreak; the arch range is riscv's stock uprobes
 * code, which does no user copies: no arch_fail_usercopy case there.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "insn_common.h"
#include "sites.h"
#include "upng.h"

#define FI_ROOT		"/sys/kernel/debug"
#define PROBES_LIST	FI_ROOT "/uprobes/probes"
#define FI_TIMES	1000000
#define RIPVAL		0x5eedL
#define NKIDS		2
/* Time a case may spend in extra rounds while no fault was injected. */
#define EXTRA_MS	60000
#if defined(__aarch64__)
/* insn_a64.S: over 250 probe sites in over 200 functions. */
#define MAXEV		(INSN_MAX + 8)
#define MAXFN		INSN_MAX
#else
#define MAXEV		112
#define MAXFN		160
#endif
/* For a target to show progress, and for a stranded breakpoint to go. */
#define WAIT_MS		20000
/* For a target to finish its work. */
#define KID_MS		120000

/* Calls of the hit_path targets: instruction table passes, site calls. */
#define HIT_W		3
#define HIT_S		25
/* target_func() calls of an exec()ed target. */
#define EXEC_N		60

/* ---- the engine's code, from /proc/kallsyms ---- */

/*
 * The text of kernel/events/uprobes/ and of the architecture's part: the
 * symbols around a function of the stock interface whose names have the
 * engine's prefixes (upng_kallsyms_range()). The architecture's part
 * overrides the engine's __weak defaults of the same names.
 */
#define ENGINE_ANCHOR	"uprobe_register"
static const char *const engine_prefixes[] = {
	"uprobe", "xol_", "arch_uprobe_", "arch_uretprobe_", "is_swbp_insn",
	"is_trap_insn", NULL,
};

#define ARCH_ANCHOR	"arch_uprobe_skip_sstep"
#if defined(__x86_64__)
#define ARCH_DIR	"arch/x86/kernel/uprobes"
static const char *const arch_prefixes[] = {
	"arch_uprobe_", "arch_uretprobe_", "uprobe_x86_",
	"__x64_sys_uretprobe", "__do_sys_uretprobe", NULL,
};
#elif defined(__aarch64__)
#define ARCH_DIR	"arch/arm64/kernel/uprobes"
static const char *const arch_prefixes[] = {
	"arch_uprobe_", "arch_uretprobe_", "uprobe_arm64_", "uprobe_brk_",
	"uprobe_single_step_", "uprobe_get_swbp_addr", "is_trap_insn", NULL,
};
#elif defined(__riscv)
#define ARCH_DIR	"arch/riscv/kernel/probes"

/*
 * riscv's stock uprobes code (uprobes.o), which the engine serves through
 * legacy_arch.c; kallsyms has its functions rather than the core's
 * __weak ones.
 */
static const char *const arch_prefixes[] = {
	"arch_uprobe_", "arch_uretprobe_", "is_swbp_insn", "is_trap_insn",
	"uprobe_get_swbp_addr", "uprobe_breakpoint_handler",
	"uprobe_single_step_handler", NULL,
};
#elif defined(__s390x__)
#define ARCH_DIR	"arch/s390/kernel"

/*
 * s390's stock uprobes code (uprobes.o), which the engine serves through
 * legacy_arch.c: its functions of the stock interface, its static helpers
 * between them.
 */
static const char *const arch_prefixes[] = {
	"arch_uprobe_", "arch_uretprobe_", NULL,
};
#endif

/* At least this many functions for a range to be trusted. */
#define MIN_FOUND	6

#if defined(__x86_64__)
/*
 * Functions only the frame pointer and ORC unwinders have. Without them
 * the kernel has CONFIG_UNWINDER_GUESS, whose stack traces are every
 * text address found on the stack, stale ones included: the filter then
 * also fails (rarely) allocations of marked tasks outside the engine
 * that happen where engine code ran before on the same stack.
 */
static const char *const exact_unwinder_funcs[] = {
	"update_stack_state", "unwind_dump", "is_last_task_frame",
	"orc_find", "__orc_find", "orc_module_find", "unwind_init", NULL,
};
#endif

static bool unwinder_guesses(void)
{
#if defined(__x86_64__)
	return upng_kallsyms_has(exact_unwinder_funcs) == 0;
#else
	/* arm64's unwinder follows the frame records, always built in. */
	return false;
#endif
}

static struct upng_ksym_range engine_range, arch_range;
static int engine_err, arch_err;
static bool guess_unwinder;

/* Appended to reports of a killed or silent target. */
#define UNWINDER_GUESS_HINT \
	" (CONFIG_UNWINDER_GUESS: the stack filter may have failed a non-engine allocation of this task)"

static const char *unwinder_hint(void)
{
	return guess_unwinder ? UNWINDER_GUESS_HINT : "";
}

/* ---- fault injection control ---- */

#define BIT(n)		(1u << (n))

enum { FI_SLAB, FI_PAGE, FI_COPY, FI_NR };
#define FI_M_SLAB	BIT(FI_SLAB)
#define FI_M_PAGE	BIT(FI_PAGE)
#define FI_M_COPY	BIT(FI_COPY)
#define FI_M_ALL	(FI_M_SLAB | FI_M_PAGE | FI_M_COPY)

static const char *const fi_name[FI_NR] = {
	"failslab", "fail_page_alloc", "fail_usercopy",
};

/* The attributes saved before a case and restored after it. */
static const char *const fi_keys[] = {
	"probability", "interval", "times", "space", "verbose", "task-filter",
	"stacktrace-depth", "require-start", "require-end", "reject-start",
	"reject-end", "ignore-gfp-wait", "ignore-gfp-highmem", "min-order",
	"cache-filter",
};

#define FI_NKEYS	ARRAY_SIZE(fi_keys)

struct fi {
	unsigned int armed;	/* attributes set up for the case */
	unsigned int use;	/* those whose probability the rounds set */
	bool saved;
	char val[FI_NR][FI_NKEYS][48];
	bool have[FI_NR][FI_NKEYS];
	long injected[FI_NR];
};

static int fi_write(int k, const char *key, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FI_ROOT "/%s/%s", fi_name[k], key);
	return upng_write_str(path, val);
}

static int fi_read(int k, const char *key, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), FI_ROOT "/%s/%s", fi_name[k], key);
	return upng_read_str(path, buf, len);
}

static void fi_save(struct fi *fi)
{
	unsigned int k, i;

	for (k = 0; k < FI_NR; k++)
		for (i = 0; i < FI_NKEYS; i++)
			fi->have[k][i] = !fi_read(k, fi_keys[i], fi->val[k][i],
						  sizeof(fi->val[k][i]));
	fi->saved = true;
}

/* Everything as it was, except the probability: left 0. */
static void fi_restore(struct fi *fi)
{
	unsigned int k, i;

	if (!fi->saved)
		return;
	for (k = 0; k < FI_NR; k++)
		fi_write(k, "probability", "0");
	for (k = 0; k < FI_NR; k++)
		for (i = 1; i < FI_NKEYS; i++)
			if (fi->have[k][i])
				fi_write(k, fi_keys[i], fi->val[k][i]);
}

/*
 * Arms the attributes of MASK, probability 0: for tasks marked
 * make-it-fail only, for allocations and copies with a return address in
 * R on the stack, silently, a million times at most.
 */
static int fi_arm(struct fi *fi, unsigned int mask,
		  const struct upng_ksym_range *r, char *why, size_t len)
{
	char start[32], end[32], times[16];
	const char *const common[][2] = {
		{ "probability", "0" }, { "verbose", "0" },
		{ "task-filter", "Y" }, { "interval", "1" }, { "space", "0" },
		{ "times", times }, { "stacktrace-depth", "32" },
		{ "reject-start", "0" }, { "reject-end", "0" },
		{ "require-start", start }, { "require-end", end },
	};
	const char *const slab[][2] = {
		{ "ignore-gfp-wait", "N" }, { "cache-filter", "N" },
	};
	const char *const page[][2] = {
		{ "ignore-gfp-wait", "N" }, { "ignore-gfp-highmem", "N" },
		{ "min-order", "0" },
	};
	unsigned int k, i;
	int err;

	snprintf(start, sizeof(start), "%#lx", r->start);
	snprintf(end, sizeof(end), "%#lx", r->end);
	snprintf(times, sizeof(times), "%d", FI_TIMES);
	for (k = 0; k < FI_NR; k++) {
		if (!(mask & BIT(k)))
			continue;
		for (i = 0; i < ARRAY_SIZE(common); i++) {
			err = fi_write(k, common[i][0], common[i][1]);
			if (err)
				goto fail;
		}
		for (i = 0; k == FI_SLAB && i < ARRAY_SIZE(slab); i++) {
			err = fi_write(k, slab[i][0], slab[i][1]);
			if (err)
				goto fail;
		}
		for (i = 0; k == FI_PAGE && i < ARRAY_SIZE(page); i++) {
			err = fi_write(k, page[i][0], page[i][1]);
			if (err)
				goto fail;
		}
	}
	fi->armed = mask;
	fi->use = mask;
	return 0;
fail:
	snprintf(why, len, "setting up %s: %s", fi_name[k], strerror(-err));
	return err;
}

static void fi_prob(struct fi *fi, int percent)
{
	char buf[16];
	unsigned int k;

	snprintf(buf, sizeof(buf), "%d", percent);
	for (k = 0; k < FI_NR; k++)
		if (fi->use & BIT(k))
			fi_write(k, "probability", buf);
}

/* Faults injected since fi_arm(), per attribute; their sum. */
static long fi_count(struct fi *fi)
{
	char buf[32];
	unsigned int k;
	long sum = 0;

	for (k = 0; k < FI_NR; k++) {
		if (!(fi->armed & BIT(k)) || fi_read(k, "times", buf, sizeof(buf)))
			continue;
		fi->injected[k] = FI_TIMES - atol(buf);
		sum += fi->injected[k];
	}
	return sum;
}

/* make-it-fail of the calling thread, through an fd opened by it. */
static int mif_open(void)
{
	int fd = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Retried: clearing it may meet an injected fault itself. */
static int mif_set(int fd, bool on)
{
	int i;

	for (i = 0; i < 1000; i++)
		if (write(fd, on ? "1" : "0", 1) == 1)
			return 0;
	return -errno;
}

/*
 * In a child, just before exec(): the new program runs under faults.
 * A first byte written to its stdout (a pipe) now, without faults, gets
 * the pipe its page, which the program's own output is then merged into:
 * its result does not depend on a page allocation under faults.
 */
static void mif_before_exec(void)
{
	int fd = mif_open();

	if (write(1, "#", 1) != 1 || fd < 0 || mif_set(fd, true))
		_exit(126);
}

static int prob_of(int round)
{
	return 10 + 10 * (round % 3);
}

static int rounds_of(int dflt)
{
	const char *s = getenv("UPNG_FAULT_ROUNDS");
	int n = s ? atoi(s) : 0;

	return n > 0 ? n : dflt;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* What a failed tracefs write or mmap() may say. */
static bool errno_ok(int rc)
{
	switch (-rc) {
	case 0: case ENOMEM: case EIO: case EFAULT: case EAGAIN: case EINTR:
	case ENOSPC:
		return true;
	}
	return false;
}

static const char *status_str(int status, char *buf, size_t len)
{
	if (status < 0)
		snprintf(buf, len, "%s", strerror(-status));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status %#x", status);
	return buf;
}

/* ---- events, targets, shared state ---- */

/* What bounds the hits of an event: calls of which function(s). */
enum { CLS_NONE, CLS_SPIN, CLS_INSN, CLS_SITE, CLS_TFUNC, CLS_MAIN };

struct fev {
	char name[64];
	bool ret;
	int cls;
	long mult;		/* hits per call of its function, at most */
	unsigned long off;	/* in the file */
	unsigned long vaddr;	/* in a process (static, not PIE) */
	unsigned int orig;	/* its first UPNG_BKPT_SIZE bytes (bkpt_word()) */
	bool on;
};

struct kid {
	long calls;
	long errors;
	char bad[160];
};

struct shared {
	int stop;
	struct kid kid[NKIDS];
};

struct insn_fn {
	char name[48];
	long (*fn)(void);
	long ref;
	bool check;
};

struct fctx {
	struct fi fi;
	const struct upng_ksym_range *range;
	const char *bin;	/* the probed file */
	struct stat st;
	struct fev ev[MAXEV];
	int nev;
	pid_t pid[NKIDS];
	struct shared *sh;
	int mif;		/* make-it-fail of the test's own thread */
	int kmsg;
	/* results of the writes under faults */
	long ok, enomem, other;
	int other_err;
	long stranded;
	char listed_before[256];	/* a probe of the file before the case */
	struct insn_fn fn[MAXFN];
	int nfn;
};

static long ref_call_reg, ref_push_reg;

/*
 * A load of RIPVAL from memory that the engine does in the kernel when
 * it can: x86's rip-relative load (emulated), arm64's literal load
 * (simulated; stepped from a rewritten copy when the read fails), s390's
 * relative-long load (emulated).
 */
#if defined(__aarch64__)
#define DATA_LOAD	"site_litload"

static long data_load(void)
{
	return site_litload();
}

/* site_litdata is a page of the text: written through a private copy. */
static void data_set(struct __test_metadata *_metadata, long v)
{
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_READ | PROT_WRITE));
	site_litdata[0] = v;
	ASSERT_EQ(0, mprotect(site_litdata, 4096, PROT_READ));
}
#elif defined(__riscv)
/* riscv's code loads nothing for a program: site_load(), stepped. */
#define DATA_LOAD	"site_load"

static long rv_data;

static long data_load(void)
{
	return site_load(&rv_data);
}

static void data_set(struct __test_metadata *_metadata, long v)
{
	rv_data = v;
}
#elif defined(__s390x__)
/* lgrl, emulated: get_user() of the word. */
#define DATA_LOAD	"site_rlload"

static long data_load(void)
{
	return site_rlload();
}

static void data_set(struct __test_metadata *_metadata, long v)
{
	site_rldata[0] = v;
}
#else
#define DATA_LOAD	"site_ripload"

static long data_load(void)
{
	return site_ripload();
}

static void data_set(struct __test_metadata *_metadata, long v)
{
	site_ripdata[0] = v;
}
#endif

/* The UPNG_BKPT_SIZE bytes at P as upng_is_bkpt() reads them. */
static unsigned int bkpt_word(const unsigned char *p)
{
	return upng_insn_val(p, UPNG_BKPT_SIZE);
}

static void probes_line(struct fctx *c, unsigned long off, char *out,
			size_t len);

static void ctx_setup(struct __test_metadata *_metadata, struct fctx *c,
		      unsigned int mask, bool arch, const char *bin)
{
	const struct upng_ksym_range *r = arch ? &arch_range : &engine_range;
	const char *what = arch ? ARCH_DIR : "kernel/events/uprobes";
	char path[128], why[256];
	int k, err = arch ? arch_err : engine_err;

	upng_die_with_parent();
	c->mif = -1;
	c->kmsg = -1;
	c->bin = bin;
	for (k = 0; k < FI_NR; k++) {
		if (!(mask & BIT(k)))
			continue;
		snprintf(path, sizeof(path), FI_ROOT "/%s", fi_name[k]);
		ASSERT_EQ(0, access(path, F_OK))
			TH_LOG("no %s: is CONFIG_%s set?", path,
			       k == FI_PAGE ? "FAIL_PAGE_ALLOC" :
			       k == FI_COPY ? "FAULT_INJECTION_USERCOPY" :
			       "FAILSLAB");
	}
	ASSERT_EQ(0, access(FI_ROOT "/failslab/require-start", F_OK))
		TH_LOG("no stack trace filter: is CONFIG_FAULT_INJECTION_STACKTRACE_FILTER set?");
	ASSERT_EQ(0, err)
		TH_LOG("the code of %s in /proc/kallsyms: %s", what,
		       strerror(-err));
	ASSERT_LE(MIN_FOUND, r->found)
		TH_LOG("only %d functions of %s found in /proc/kallsyms",
		       r->found, what);
	c->range = r;
	TH_LOG("faults confined to %s: %#lx-%#lx (%s .. %s, %d functions and %d helpers)",
	       what, r->start, r->end, r->lo, r->hi, r->found, r->others);
	if (guess_unwinder)
		TH_LOG("CONFIG_UNWINDER_GUESS: %s",
		       "stale return addresses count for the stack filter, which is then approximate");

	c->sh = mmap(NULL, sizeof(*c->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c->sh);
	memset(c->sh, 0, sizeof(*c->sh));
	c->mif = mif_open();
	ASSERT_LE(0, c->mif) TH_LOG("/proc/thread-self/make-it-fail: %s",
				    strerror(-c->mif));
	c->kmsg = upng_kmsg_open();
	ASSERT_LE(0, c->kmsg) TH_LOG("/dev/kmsg: %s", strerror(-c->kmsg));
	ASSERT_EQ(0, stat(bin, &c->st)) TH_LOG("%s", bin);
	ASSERT_EQ(0, upng_trace_reset());
	probes_line(c, -1UL, c->listed_before, sizeof(c->listed_before));

	fi_save(&c->fi);
	ASSERT_EQ(0, fi_arm(&c->fi, mask, r, why, sizeof(why)))
		TH_LOG("%s", why);
	data_set(_metadata, RIPVAL);
}

/*
 * Checked by the fixture setups before ctx_setup(), which skip the case
 * with FI_MISSING (SKIP must return from the setup itself).
 */
static bool fi_missing(void)
{
	return access(FI_ROOT "/failslab", F_OK) != 0;
}

/* FI_ROOT "/failslab", spelled out to keep the message on one line. */
#define FI_MISSING \
	"no /sys/kernel/debug/failslab: kernel without fault injection (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS) or debugfs not mounted"

static void kids_kill(struct fctx *c)
{
	int k, status;

	for (k = 0; k < NKIDS; k++) {
		if (c->pid[k] <= 0)
			continue;
		kill(c->pid[k], SIGKILL);
		waitpid(c->pid[k], &status, 0);
		c->pid[k] = 0;
	}
}

static void ctx_teardown(struct __test_metadata *_metadata, struct fctx *c)
{
	char first[512];
	long n, nw;
	int i;

	if (c->mif >= 0) {
		mif_set(c->mif, false);
		close(c->mif);
	}
	fi_count(&c->fi);
	fi_restore(&c->fi);
	kids_kill(c);
	for (i = 0; i < c->nev; i++)
		upng_probe_del(c->ev[i].name);
	if (c->fi.armed)
		TH_LOG("faults injected: failslab %ld, fail_page_alloc %ld, fail_usercopy %ld;"
		       " writes under faults: %ld ok, %ld ENOMEM, %ld other%s%s;"
		       " stranded breakpoints seen %ld",
		       c->fi.injected[FI_SLAB], c->fi.injected[FI_PAGE],
		       c->fi.injected[FI_COPY], c->ok, c->enomem, c->other,
		       c->other ? ", first: " : "",
		       c->other ? strerror(c->other_err) : "", c->stranded);
	if (c->kmsg >= 0) {
		n = upng_kmsg_scan(c->kmsg, "uprobe", &nw, first, sizeof(first));
		if (nw > 0)
			TH_LOG("%ld kernel log lines about uprobes", nw);
		EXPECT_EQ(0, n) TH_LOG("kernel log: %s", first);
		close(c->kmsg);
	}
	if (c->sh && c->sh != MAP_FAILED)
		munmap(c->sh, sizeof(*c->sh));
}

static void note_rc(struct fctx *c, int rc)
{
	if (!rc)
		c->ok++;
	else if (rc == -ENOMEM)
		c->enomem++;
	else if (!c->other++)
		c->other_err = -rc;
}

static const char *short_name(const char *sym)
{
	static const char *const prefix[] = { "insn_p_", "site_", "target_" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(sym, prefix[i], strlen(prefix[i])))
			return sym + strlen(prefix[i]);
	return sym;
}

static struct fev *ev_add(struct __test_metadata *_metadata, struct fctx *c,
			  const char *sym, bool ret, const char *args, int cls,
			  long mult)
{
	struct fev *e = &c->ev[c->nev];
	unsigned char b[UPNG_BKPT_SIZE];
	struct upng_sym s;
	int err;

	ASSERT_GT(MAXEV, c->nev);
	ASSERT_EQ(0, upng_elf_sym(c->bin, sym, &s)) TH_LOG("%s in %s", sym, c->bin);
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "f%d_%s%.40s", getpid(),
		 ret ? "r_" : "", short_name(sym));
	e->ret = ret;
	e->cls = cls;
	e->mult = mult;
	e->off = s.offset;
	e->vaddr = s.value;
	ASSERT_EQ(0, upng_file_read(c->bin, s.offset, b, sizeof(b)));
	e->orig = bkpt_word(b);
	ASSERT_NE(UPNG_BKPT, e->orig)
		TH_LOG("%s starts with the breakpoint in the file", sym);
	err = ret ? upng_retprobe_add(e->name, c->bin, s.offset, args) :
		    upng_probe_add(e->name, c->bin, s.offset, args);
	ASSERT_EQ(0, err) TH_LOG("defining %s: %s", e->name, strerror(-err));
	c->nev++;
	return e;
}

/* Enable or disable every event, without faults: each must succeed. */
static void set_all(struct __test_metadata *_metadata, struct fctx *c,
		    bool on, const char *when)
{
	int i, err;

	for (i = 0; i < c->nev; i++) {
		err = upng_probe_enable(c->ev[i].name, on);
		ASSERT_EQ(0, err) TH_LOG("%s: %s %s: %s", when,
					 on ? "enabling" : "disabling",
					 c->ev[i].name, strerror(-err));
		c->ev[i].on = on;
	}
}

/* The enable files say what the writes returned. */
static void check_enabled(struct __test_metadata *_metadata, struct fctx *c,
			  int round, const char *when)
{
	int i;

	for (i = 0; i < c->nev; i++) {
		ASSERT_EQ(c->ev[i].on, upng_probe_enabled(c->ev[i].name))
			TH_LOG("round %d, %s: %s", round, when, c->ev[i].name);
	}
}

/* uprobe_profile hits of every event (-1: not listed), in one read. */
static void read_hits(struct fctx *c, long *hits)
{
	char file[512], name[256], *buf, *line, *end;
	size_t len = 1 << 20;
	unsigned long n;
	int i;

	for (i = 0; i < c->nev; i++)
		hits[i] = -1;
	buf = malloc(len);
	if (!buf || upng_tracefs_read("uprobe_profile", buf, len)) {
		free(buf);
		return;
	}
	for (line = buf; line && *line; line = end) {
		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		if (sscanf(line, "%511s %255s %lu", file, name, &n) != 3)
			continue;
		for (i = 0; i < c->nev; i++)
			if (!strcmp(name, c->ev[i].name))
				hits[i] = n;
	}
	free(buf);
}

/* Does an enabled event have a breakpoint at event I's address? */
static bool want_bp(struct fctx *c, int i)
{
	int j;

	for (j = 0; j < c->nev; j++)
		if (c->ev[j].on && c->ev[j].vaddr == c->ev[i].vaddr)
			return true;
	return false;
}

/* The line of the engine's debugfs list for the probe at OFF, or "". */
static void probes_line(struct fctx *c, unsigned long off, char *out,
			size_t len)
{
	unsigned long ino;
	unsigned long long o;
	unsigned int maj, min;
	char line[256], how[32];
	FILE *f = fopen(PROBES_LIST, "re");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lu 0x%llx %31s %u:%u", &ino, &o, how, &maj,
			   &min) != 5)
			continue;
		if (ino != c->st.st_ino || maj != major(c->st.st_dev) ||
		    min != minor(c->st.st_dev) || (off != -1UL && o != off))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(out, len, "%s", line);
		break;
	}
	fclose(f);
}

/* Bytes at the events' addresses in PID that differ from the wanted ones. */
static int bytes_wrong(struct __test_metadata *_metadata, struct fctx *c,
		       pid_t pid, bool log, int *stranded)
{
	unsigned char mem[UPNG_BKPT_SIZE];
	unsigned int b, want;
	char line[256];
	int i, n = 0, err;

	for (i = 0; i < c->nev; i++) {
		want = want_bp(c, i) ? UPNG_BKPT : c->ev[i].orig;
		err = upng_mem_read(pid, c->ev[i].vaddr, mem, sizeof(mem));
		b = err ? 0 : bkpt_word(mem);
		if (!err && b == want)
			continue;
		n++;
		if (!err && b == UPNG_BKPT && stranded) {
			probes_line(c, c->ev[i].off, line, sizeof(line));
			*stranded += !!strstr(line, "stranded");
		}
		if (!log)
			continue;
		probes_line(c, c->ev[i].off, line, sizeof(line));
		if (err) {
			TH_LOG("pid %d, %s: %s", pid, c->ev[i].name,
			       strerror(-err));
			continue;
		}
		TH_LOG("pid %d, %s at %#lx: %#x instead of %#x (the engine lists it as: '%s')",
		       pid, c->ev[i].name, c->ev[i].vaddr, b, want, line);
	}
	return n;
}

/*
 * Wait until the targets and this process have a breakpoint exactly at
 * the enabled events: one that could not be removed is kept for a later
 * attempt ("stranded"), which must succeed soon.
 */
static void settle_bytes(struct __test_metadata *_metadata, struct fctx *c,
			 int round, const char *when)
{
	long long deadline = now_ms() + WAIT_MS;
	int k, n, stranded = 0;
	bool first = true;

	for (;;) {
		n = bytes_wrong(_metadata, c, getpid(), false, NULL);
		for (k = 0; k < NKIDS; k++)
			if (c->pid[k] > 0)
				n += bytes_wrong(_metadata, c, c->pid[k], false,
						 first ? &stranded : NULL);
		if (first)
			c->stranded += stranded;
		first = false;
		if (!n)
			return;
		if (now_ms() > deadline)
			break;
		usleep(50000);
	}
	bytes_wrong(_metadata, c, getpid(), true, NULL);
	for (k = 0; k < NKIDS; k++)
		if (c->pid[k] > 0)
			bytes_wrong(_metadata, c, c->pid[k], true, NULL);
	ASSERT_EQ(0, n) TH_LOG("round %d, %s: breakpoints still wrong after %d ms",
			       round, when, WAIT_MS);
}

/* After the last event is deleted, the engine must forget the file. */
static void no_probe_left(struct __test_metadata *_metadata, struct fctx *c)
{
	long long deadline = now_ms() + WAIT_MS;
	char line[256];

	if (access(PROBES_LIST, R_OK))
		return;		/* not our engine */
	if (c->listed_before[0]) {
		TH_LOG("not checking for probes left behind: '%s' was there before",
		       c->listed_before);
		return;
	}
	do {
		probes_line(c, -1UL, line, sizeof(line));
		if (!line[0])
			return;
		usleep(100000);
	} while (now_ms() < deadline);
	ASSERT_EQ(0, line[0])
		TH_LOG("probe of %s still registered after its events were deleted (a leak): '%s'",
		       c->bin, line);
}

static void delete_all(struct __test_metadata *_metadata, struct fctx *c)
{
	int i, err;

	for (i = 0; i < c->nev; i++) {
		err = upng_probe_del(c->ev[i].name);
		ASSERT_EQ(0, err) TH_LOG("deleting %s: %s", c->ev[i].name,
					 strerror(-err));
		c->ev[i].on = false;
	}
	c->nev = 0;
}

/* The last checks of every case: no probe left, faults were injected. */
static void finish(struct __test_metadata *_metadata, struct fctx *c)
{
	long n;

	delete_all(_metadata, c);
	no_probe_left(_metadata, c);
	n = fi_count(&c->fi);
	ASSERT_LT(0, n)
		TH_LOG("no fault injected: the case tested nothing (is %#lx-%#lx engine code?)",
		       c->range->start, c->range->end);
}

static int wait_kid(pid_t pid, int timeout_ms, int *status)
{
	long long deadline = now_ms() + timeout_ms;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0)
			return -errno;
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -ETIMEDOUT;
		}
		usleep(2000);
	}
}

/* Index of the first of N traced values (MAX kept) not R modulo M, or -1. */
static long bad_return(const unsigned long long *vals, long n, long max,
		       long long m, long long r)
{
	long i;

	for (i = 0; i < n && i < max; i++)
		if ((long long)vals[i] % m != r)
			return i;
	return -1;
}

static void kid_check(struct kid *k, const char *what, long got, long want)
{
	if (got == want)
		return;
	if (!k->errors++)
		snprintf(k->bad, sizeof(k->bad), "%s returned %#lx, not %#lx",
			 what, got, want);
}

/* ---- targets that run while events are enabled and disabled ---- */

static void __noreturn spin_main(struct shared *sh, int idx)
{
	struct kid *k = &sh->kid[idx];
	long i;

	for (i = 0; !__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE); i++) {
		kid_check(k, "site_work", site_work(i), SITE_WORK(i));
		kid_check(k, DATA_LOAD, data_load(), RIPVAL);
		kid_check(k, "site_steps", site_steps(i), SITE_STEPS(i));
		kid_check(k, "insn_t_call_reg", insn_t_call_reg(), ref_call_reg);
		kid_check(k, "insn_t_push_reg", insn_t_push_reg(), ref_push_reg);
		__atomic_store_n(&k->calls, i + 1, __ATOMIC_RELEASE);
	}
	_exit(k->errors ? 1 : 0);
}

/*
 * Probes on what the spinning targets run: a boosted imul (with a
 * memory-fetching argument), a return probe, an emulated rip-relative
 * load, a stepped indirect call and an emulated push (arm64: a stepped
 * mul, a return probe, a simulated literal load, blr and stp).
 */
static void spin_setup(struct __test_metadata *_metadata, struct fctx *c)
{
	int k;

	ref_call_reg = insn_t_call_reg();
	ref_push_reg = insn_t_push_reg();
	ev_add(_metadata, c, "site_work_probe", false,
	       "x=" UPNG_ARG1 ":u64 m=+0($stack):x64", CLS_SPIN, 1);
	ev_add(_metadata, c, "site_steps", true, "ret=$retval:s64", CLS_SPIN, 1);
	ev_add(_metadata, c, DATA_LOAD "_probe", false, NULL, CLS_SPIN, 1);
	ev_add(_metadata, c, "site_step2", false, NULL, CLS_SPIN, 1);
	ev_add(_metadata, c, "insn_p_call_reg", false, NULL, CLS_SPIN, 1);
	ev_add(_metadata, c, "insn_p_push_reg", false, NULL, CLS_SPIN, 1);
	for (k = 0; k < NKIDS; k++) {
		c->pid[k] = fork();
		ASSERT_LE(0, c->pid[k]);
		if (!c->pid[k]) {
			upng_die_with_parent();
			spin_main(c->sh, k);
		}
	}
}

static long spin_calls(struct fctx *c, int k)
{
	return __atomic_load_n(&c->sh->kid[k].calls, __ATOMIC_ACQUIRE);
}

/* No target may have died. */
static void spin_alive(struct __test_metadata *_metadata, struct fctx *c,
		       int round, const char *when)
{
	char st[64];
	int k, status;

	for (k = 0; k < NKIDS; k++) {
		if (waitpid(c->pid[k], &status, WNOHANG) != c->pid[k])
			continue;
		c->pid[k] = 0;
		ASSERT_TRUE(false)
			TH_LOG("round %d, %s: target %d %s after %ld calls%s%s", round,
			       when, k, status_str(status, st, sizeof(st)),
			       spin_calls(c, k), c->sh->kid[k].errors ? ": " : "",
			       c->sh->kid[k].bad);
	}
}

/* Let every target run MORE calls. */
static void spin_wait(struct __test_metadata *_metadata, struct fctx *c,
		      long more, int round, const char *when)
{
	long long deadline = now_ms() + WAIT_MS;
	long mark[NKIDS];
	int k, done;

	for (k = 0; k < NKIDS; k++)
		mark[k] = spin_calls(c, k);
	do {
		spin_alive(_metadata, c, round, when);
		for (done = 0, k = 0; k < NKIDS; k++)
			done += spin_calls(c, k) >= mark[k] + more;
		if (done == NKIDS)
			return;
		usleep(1000);
	} while (now_ms() < deadline);
	ASSERT_EQ(NKIDS, done) TH_LOG("round %d, %s: targets stuck", round, when);
}

/*
 * Let every target run MORE calls: the events that are on count hits,
 * those that are off none.
 */
static void spin_hits(struct __test_metadata *_metadata, struct fctx *c,
		      long more, int round, const char *when)
{
	long before[MAXEV], after[MAXEV];
	int i;

	read_hits(c, before);
	spin_wait(_metadata, c, more, round, when);
	read_hits(c, after);
	for (i = 0; i < c->nev; i++) {
		if (c->ev[i].on) {
			ASSERT_LT(before[i], after[i])
				TH_LOG("round %d, %s: %s on, not hit", round,
				       when, c->ev[i].name);
		} else {
			ASSERT_EQ(before[i], after[i])
				TH_LOG("round %d, %s: %s off, hit", round,
				       when, c->ev[i].name);
		}
	}
}

/* Stop the targets: right results, exit 0; never more hits than calls. */
static void spin_finish(struct __test_metadata *_metadata, struct fctx *c)
{
	long hits[MAXEV], calls = 0;
	char st[64];
	int k, i, status, err;

	__atomic_store_n(&c->sh->stop, 1, __ATOMIC_RELEASE);
	for (k = 0; k < NKIDS; k++) {
		err = wait_kid(c->pid[k], KID_MS, &status);
		c->pid[k] = 0;
		ASSERT_EQ(0, err) TH_LOG("target %d: %s", k, strerror(-err));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("target %d %s%s%s", k,
			       status_str(status, st, sizeof(st)),
			       c->sh->kid[k].errors ? ": " : "", c->sh->kid[k].bad);
		calls += c->sh->kid[k].calls;
	}
	read_hits(c, hits);
	for (i = 0; i < c->nev; i++) {
		ASSERT_GE(calls, hits[i])
			TH_LOG("%s: %ld hits for %ld calls", c->ev[i].name,
			       hits[i], calls);
	}
}

/* ---- registration ---- */

FIXTURE(registration) {
	struct fctx c;
};

FIXTURE_VARIANT(registration) {
	unsigned int mask;
};

FIXTURE_VARIANT_ADD(registration, failslab) {
	.mask = FI_M_SLAB,
};

FIXTURE_VARIANT_ADD(registration, fail_page_alloc) {
	.mask = FI_M_PAGE,
};

FIXTURE_SETUP(registration)
{
	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, &self->c, variant->mask, false, upng_self_path());
	spin_setup(_metadata, &self->c);
}

FIXTURE_TEARDOWN(registration)
{
	ctx_teardown(_metadata, &self->c);
}

TEST_F_TIMEOUT(registration, enable_while_running, 400)
{
	struct fctx *c = &self->c;
	int round, rounds = rounds_of(10), i, rc;

	for (round = 0; round < rounds; round++) {
		fi_prob(&c->fi, prob_of(round));
		for (i = 0; i < c->nev; i++) {
			ASSERT_EQ(0, mif_set(c->mif, true));
			rc = upng_probe_enable(c->ev[i].name, true);
			ASSERT_EQ(0, mif_set(c->mif, false));
			note_rc(c, rc);
			ASSERT_TRUE(errno_ok(rc))
				TH_LOG("round %d: enabling %s under faults: %s",
				       round, c->ev[i].name, strerror(-rc));
			c->ev[i].on = !rc;
		}
		fi_prob(&c->fi, 0);
		check_enabled(_metadata, c, round, "after enabling under faults");
		/* A failed enable leaves no breakpoint, a good one all of them. */
		settle_bytes(_metadata, c, round, "after enabling under faults");
		spin_hits(_metadata, c, 20, round, "after enabling under faults");
		set_all(_metadata, c, false, "disabling without faults");
		settle_bytes(_metadata, c, round, "after disabling");

		/* What failed left nothing that stops a clean enable. */
		set_all(_metadata, c, true, "enabling again without faults");
		check_enabled(_metadata, c, round, "enabled again");
		settle_bytes(_metadata, c, round, "enabled again");
		spin_hits(_metadata, c, 20, round, "enabled again");
		set_all(_metadata, c, false, "disabling again");
		settle_bytes(_metadata, c, round, "disabled again");
		spin_alive(_metadata, c, round, "disabled again");
	}
	spin_finish(_metadata, c);
	finish(_metadata, c);
}

/* ---- unregistration ---- */

FIXTURE(unregistration) {
	struct fctx c;
};

FIXTURE_VARIANT(unregistration) {
	unsigned int mask;
};

FIXTURE_VARIANT_ADD(unregistration, failslab) {
	.mask = FI_M_SLAB,
};

FIXTURE_VARIANT_ADD(unregistration, failslab_and_page_alloc) {
	.mask = FI_M_SLAB | FI_M_PAGE,
};

FIXTURE_SETUP(unregistration)
{
	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, &self->c, variant->mask, false, upng_self_path());
	spin_setup(_metadata, &self->c);
}

FIXTURE_TEARDOWN(unregistration)
{
	ctx_teardown(_metadata, &self->c);
}

TEST_F_TIMEOUT(unregistration, disable_while_running, 400)
{
	struct fctx *c = &self->c;
	int round, rounds = rounds_of(6), i, rc[MAXEV];

	for (round = 0; round < rounds; round++) {
		set_all(_metadata, c, true, "enabling without faults");
		settle_bytes(_metadata, c, round, "enabled");
		spin_hits(_metadata, c, 10, round, "enabled");

		fi_prob(&c->fi, prob_of(round));
		for (i = 0; i < c->nev; i++) {
			ASSERT_EQ(0, mif_set(c->mif, true));
			rc[i] = upng_probe_enable(c->ev[i].name, false);
			ASSERT_EQ(0, mif_set(c->mif, false));
			note_rc(c, rc[i]);
			ASSERT_TRUE(errno_ok(rc[i]))
				TH_LOG("round %d: disabling %s under faults: %s",
				       round, c->ev[i].name, strerror(-rc[i]));
		}
		fi_prob(&c->fi, 0);
		for (i = 0; i < c->nev; i++) {
			if (rc[i]) {
				ASSERT_EQ(0, upng_probe_enable(c->ev[i].name, false))
					TH_LOG("round %d: disabling %s again",
					       round, c->ev[i].name);
			}
			c->ev[i].on = false;
		}
		check_enabled(_metadata, c, round, "after disabling under faults");

		/*
		 * Breakpoints that could not be removed may be there for a
		 * while: they run the original instruction, count no hit and
		 * kill nobody.
		 */
		spin_hits(_metadata, c, 20, round, "after disabling under faults");
		settle_bytes(_metadata, c, round, "after disabling under faults");
		spin_wait(_metadata, c, 10, round, "breakpoints gone");
		spin_alive(_metadata, c, round, "breakpoints gone");
	}
	spin_finish(_metadata, c);
	finish(_metadata, c);
}

/* ---- batches: a BPF uprobe_multi link of all the entry probes ---- */

FIXTURE(batch) {
	struct fctx c;
	int map, prog;
};

FIXTURE_VARIANT(batch) {
	unsigned int mask;
};

FIXTURE_VARIANT_ADD(batch, failslab) {
	.mask = FI_M_SLAB,
};

FIXTURE_VARIANT_ADD(batch, failslab_and_page_alloc) {
	.mask = FI_M_SLAB | FI_M_PAGE,
};

FIXTURE_SETUP(batch)
{
	self->map = -1;
	self->prog = -1;
	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, &self->c, variant->mask, false, upng_self_path());
	spin_setup(_metadata, &self->c);
	self->prog = upng_bpf_counter_prog(&self->map, NULL, 0);
	ASSERT_LE(0, self->prog) TH_LOG("BPF counter map and program: %s",
					strerror(-self->prog));
}

FIXTURE_TEARDOWN(batch)
{
	if (self->prog >= 0)
		close(self->prog);
	if (self->map >= 0)
		close(self->map);
	ctx_teardown(_metadata, &self->c);
}

/* One link on the entry events' offsets (under faults): fd or -errno. */
static int batch_link(struct fctx *c, int prog, bool faults)
{
	unsigned long offs[MAXEV];
	int i, n = 0, link;

	for (i = 0; i < c->nev; i++)
		if (!c->ev[i].ret)
			offs[n++] = c->ev[i].off;
	if (faults && mif_set(c->mif, true))
		return -EBADF;
	link = upng_bpf_multi_link(prog, c->bin, offs, n, 0);
	if (faults && mif_set(c->mif, false))
		return -EBADF;
	return link;
}

/* The breakpoints the link's events want. */
static void batch_on(struct fctx *c, bool on)
{
	int i;

	for (i = 0; i < c->nev; i++)
		if (!c->ev[i].ret)
			c->ev[i].on = on;
}

/*
 * A batch registration under faults puts every breakpoint in or none
 * (it is undone as a whole), and its hits count only when it succeeded;
 * closing the link under faults removes them all, some maybe only at
 * the engine's retry, and no hit counts after it.
 */
TEST_F_TIMEOUT(batch, bpf_multi_link, 400)
{
	struct fctx *c = &self->c;
	int round, rounds = rounds_of(8), link;
	long long before;

	for (round = 0; round < rounds; round++) {
		fi_prob(&c->fi, prob_of(round));
		link = batch_link(c, self->prog, true);
		fi_prob(&c->fi, 0);
		note_rc(c, link < 0 ? link : 0);
		ASSERT_TRUE(errno_ok(link < 0 ? link : 0))
			TH_LOG("round %d: BPF_LINK_CREATE under faults: %s",
			       round, strerror(-link));
		batch_on(c, link >= 0);
		settle_bytes(_metadata, c, round, "after linking under faults");
		before = upng_bpf_counter(self->map);
		spin_wait(_metadata, c, 20, round, "after linking under faults");
		if (link >= 0) {
			ASSERT_LT(before, upng_bpf_counter(self->map))
				TH_LOG("round %d: linked, not hit", round);
		} else {
			ASSERT_EQ(before, upng_bpf_counter(self->map))
				TH_LOG("round %d: failed to link, hit", round);
			link = batch_link(c, self->prog, false);
			ASSERT_LE(0, link) TH_LOG("round %d: linking again: %s",
						  round, strerror(-link));
			batch_on(c, true);
			settle_bytes(_metadata, c, round, "linked again");
		}

		fi_prob(&c->fi, prob_of(round));
		ASSERT_EQ(0, mif_set(c->mif, true));
		close(link);
		ASSERT_EQ(0, mif_set(c->mif, false));
		fi_prob(&c->fi, 0);
		batch_on(c, false);
		before = upng_bpf_counter(self->map);
		spin_wait(_metadata, c, 20, round, "after closing under faults");
		ASSERT_EQ(before, upng_bpf_counter(self->map))
			TH_LOG("round %d: hit after the link was closed", round);
		settle_bytes(_metadata, c, round, "after closing under faults");
		spin_alive(_metadata, c, round, "after closing under faults");
	}
	spin_finish(_metadata, c);
	finish(_metadata, c);
}

/* ---- the hit path ---- */

/* The instruction table's functions and their unprobed results. */
static void insn_table(struct __test_metadata *_metadata, struct fctx *c)
{
	static struct upng_sym syms[MAXFN];
	const char *self = upng_self_path();
	struct upng_sym anchor;
	unsigned long delta;
	long v;
	int n, i;

	n = upng_elf_syms(self, "insn_t_", syms, MAXFN);
	ASSERT_LT(30, n);
	ASSERT_GE(MAXFN, n);
	ASSERT_EQ(0, upng_elf_sym(self, "refused_insns", &anchor));
	delta = (unsigned long)refused_insns - anchor.value;
	for (i = 0; i < n; i++) {
		struct insn_fn *f = &c->fn[i];

		snprintf(f->name, sizeof(f->name), "%.47s", syms[i].name);
		f->fn = (long (*)(void))(syms[i].value + delta);
		v = f->fn();
		f->ref = v;
		/* pushf's flags are insn.c's business. */
		f->check = v == f->fn() && strcmp(f->name, "insn_t_pushf");
	}
	c->nfn = n;
}

/* Hits per call of the function of probe site NAME, at most (see insn.c). */
static long insn_mult(const char *name)
{
	const char *x = strrchr(name, '_');

	if (x && x[1] == 'x' && isdigit((unsigned char)x[2]))
		return atol(x + 2);
	if (x && x[1] == 'r' && isdigit((unsigned char)x[2]))
		return atol(x + 2) + 1;
	return 1;
}

static void __noreturn hit_main(struct fctx *c, int idx)
{
	struct kid *k = &c->sh->kid[idx];
	int fd = mif_open(), w, i, s;
	long x, v;

	if (fd < 0 || mif_set(fd, true))
		_exit(3);
	for (w = 0; w < HIT_W; w++) {
		for (i = 0; i < c->nfn; i++) {
			v = c->fn[i].fn();
			if (c->fn[i].check)
				kid_check(k, c->fn[i].name, v, c->fn[i].ref);
		}
		for (s = 0; s < HIT_S; s++) {
			x = w * 1000 + s;
			kid_check(k, "site_work", site_work(x), SITE_WORK(x));
			kid_check(k, DATA_LOAD, data_load(), RIPVAL);
			kid_check(k, "site_steps", site_steps(x), SITE_STEPS(x));
		}
	}
	if (mif_set(fd, false))
		_exit(4);
	k->calls = HIT_W;
	_exit(k->errors ? 1 : 0);
}

static long hit_bound(struct fev *e)
{
	switch (e->cls) {
	case CLS_INSN:
		return e->mult * HIT_W * NKIDS;
	case CLS_SITE:
		return e->mult * HIT_W * HIT_S * NKIDS;
	}
	return 0;
}

FIXTURE(hit_path) {
	struct fctx c;
};

FIXTURE_VARIANT(hit_path) {
	unsigned int mask;
	bool arch;	/* faults in ARCH_DIR, not the core */
};

FIXTURE_VARIANT_ADD(hit_path, failslab) {
	.mask = FI_M_SLAB,
};

FIXTURE_VARIANT_ADD(hit_path, fail_page_alloc) {
	.mask = FI_M_PAGE,
};

FIXTURE_VARIANT_ADD(hit_path, fail_usercopy) {
	.mask = FI_M_COPY,
};

/*
 * Not on riscv: its stock code copies nothing from or to user memory (it
 * simulates on the registers and writes the XOL slot through a kernel
 * mapping), there is no fault to inject there. Not on s390: its stock
 * code reads and writes user memory with get_user() and put_user() only,
 * which fail_usercopy does not consult.
 */
#if defined(__x86_64__) || defined(__aarch64__)
FIXTURE_VARIANT_ADD(hit_path, arch_fail_usercopy) {
	.mask = FI_M_COPY,
	.arch = true,
};
#endif

FIXTURE_SETUP(hit_path)
{
	static struct upng_sym syms[MAXFN];
	struct fctx *c = &self->c;
	int n, i;

	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, c, variant->mask, variant->arch, upng_self_path());
	insn_table(_metadata, c);
	n = upng_elf_syms(c->bin, "insn_p_", syms, MAXFN);
	ASSERT_LT(30, n);
	ASSERT_GE(MAXEV - 8, n);
	for (i = 0; i < n; i++)
		ev_add(_metadata, c, syms[i].name, false, NULL, CLS_INSN,
		       insn_mult(syms[i].name));
	ev_add(_metadata, c, "site_work_probe", false,
	       "x=" UPNG_ARG1 ":u64 m=+0($stack):x64", CLS_SITE, 1);
	ev_add(_metadata, c, "site_work", true, "ret=$retval:s64", CLS_SITE, 1);
	ev_add(_metadata, c, DATA_LOAD "_probe", false, NULL, CLS_SITE, 1);
	ev_add(_metadata, c, "site_steps", true, "ret=$retval:s64", CLS_SITE, 1);
	ev_add(_metadata, c, "site_step2", false, NULL, CLS_SITE, 1);
	ev_add(_metadata, c, "site_step3", false, NULL, CLS_SITE, 1);
}

FIXTURE_TEARDOWN(hit_path)
{
	ctx_teardown(_metadata, &self->c);
}

TEST_F_TIMEOUT(hit_path, entry_return_and_insns, 400)
{
	static unsigned long long vals[2 * HIT_W * HIT_S * NKIDS];
	struct fctx *c = &self->c;
	long before[MAXEV], after[MAXEV], total;
	int round, rounds = rounds_of(5), i, k, status, err;
	long long extra_until = now_ms() + EXTRA_MS;
	char *trace, st[64];
	long n, j;

	set_all(_metadata, c, true, "enabling without faults");
	/*
	 * A hit allocates pages only for a new XOL area, once per target:
	 * while none of those failed yet, a few more rounds.
	 */
	for (round = 0; round < rounds ||
	     (round < 3 * rounds && now_ms() < extra_until && !fi_count(&c->fi));
	     round++) {
		read_hits(c, before);
		ASSERT_EQ(0, upng_trace_reset());
		memset(c->sh, 0, sizeof(*c->sh));
		fi_prob(&c->fi, prob_of(round));
		for (k = 0; k < NKIDS; k++) {
			c->pid[k] = fork();
			ASSERT_LE(0, c->pid[k]);
			if (!c->pid[k]) {
				upng_die_with_parent();
				hit_main(c, k);
			}
		}
		for (k = 0; k < NKIDS; k++) {
			err = wait_kid(c->pid[k], KID_MS, &status);
			c->pid[k] = 0;
			ASSERT_EQ(0, err) TH_LOG("round %d: target %d: %s",
						 round, k, strerror(-err));
			ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
				TH_LOG("round %d: target %d %s%s%s%s", round, k,
				       status_str(status, st, sizeof(st)),
				       c->sh->kid[k].errors ? ": " : "",
				       c->sh->kid[k].bad, unwinder_hint());
		}
		fi_prob(&c->fi, 0);

		/* A failure skips a hit, never handles one twice. */
		read_hits(c, after);
		for (total = 0, i = 0; i < c->nev; i++) {
			ASSERT_GE(hit_bound(&c->ev[i]), after[i] - before[i])
				TH_LOG("round %d: %s: %ld hits for %ld executions at most",
				       round, c->ev[i].name, after[i] - before[i],
				       hit_bound(&c->ev[i]));
			total += after[i] - before[i];
		}
		ASSERT_LT(0, total) TH_LOG("round %d: no probe was hit", round);
		trace = upng_trace_read();
		ASSERT_NE(NULL, trace);
		for (i = 0; i < c->nev; i++) {
			if (!c->ev[i].ret)
				continue;
			n = upng_trace_values(trace, c->ev[i].name, "ret=", vals,
					      ARRAY_SIZE(vals));
			EXPECT_GE(hit_bound(&c->ev[i]), n)
				TH_LOG("round %d: %s: %ld returns traced for %ld calls",
				       round, c->ev[i].name, n,
				       hit_bound(&c->ev[i]));
			/* site_work() returns 3x + 1. */
			if (!strstr(c->ev[i].name, "_work"))
				continue;
			j = bad_return(vals, n, ARRAY_SIZE(vals), 3, 1);
			EXPECT_EQ(-1, j)
				TH_LOG("round %d: %s: traced return value %lld",
				       round, c->ev[i].name, (long long)vals[j]);
		}
		free(trace);
		ASSERT_EQ(0, _metadata->exit_code);
	}
	set_all(_metadata, c, false, "disabling");
	settle_bytes(_metadata, c, rounds, "disabled");
	finish(_metadata, c);
}

/* ---- insertion into a new mapping ---- */

FIXTURE(insertion) {
	struct fctx c;
};

FIXTURE_SETUP(insertion)
{
	struct fctx *c = &self->c;

	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, c, FI_M_ALL, false, upng_path("bin/target"));
	ev_add(_metadata, c, "target_func", false,
	       "x=" UPNG_ARG1 ":s64 m=+0($stack):x64", CLS_TFUNC, 1);
	ev_add(_metadata, c, "target_func", true, "ret=$retval:s64", CLS_TFUNC, 1);
	ev_add(_metadata, c, "main", false, NULL, CLS_MAIN, 1);
	/* Never called: more breakpoints to insert, none to hit. */
	ev_add(_metadata, c, "target_rec", false, NULL, CLS_NONE, 0);
	ev_add(_metadata, c, "target_lj", false, NULL, CLS_NONE, 0);
	set_all(_metadata, c, true, "enabling without faults");
}

FIXTURE_TEARDOWN(insertion)
{
	ctx_teardown(_metadata, &self->c);
}

static long exec_bound(struct fev *e)
{
	switch (e->cls) {
	case CLS_TFUNC:
		return EXEC_N * NKIDS;
	case CLS_MAIN:
		return NKIDS;
	}
	return 0;
}

/* bin/target exec()ed under faults: exec maps the file, then it runs. */
TEST_F_TIMEOUT(insertion, exec_under_faults, 400)
{
	static unsigned long long vals[EXEC_N * NKIDS + 1];
	long long want = 7LL * (EXEC_N * (EXEC_N - 1) / 2) + 3LL * EXEC_N;
	struct upng_child kid[NKIDS];
	struct fctx *c = &self->c;
	long before[MAXEV], after[MAXEV], n, j;
	int round, rounds = rounds_of(6), i, k, status;
	char arg[16], line[NKIDS][128], st[64], *trace;
	int got[NKIDS];

	snprintf(arg, sizeof(arg), "%d", EXEC_N);
	for (round = 0; round < rounds; round++) {
		read_hits(c, before);
		ASSERT_EQ(0, upng_trace_reset());
		fi_prob(&c->fi, prob_of(round));
		for (k = 0; k < NKIDS; k++) {
			ASSERT_EQ(0, upng_spawn_hook(&kid[k], c->bin, "--run", arg,
						     mif_before_exec));
		}
		for (k = 0; k < NKIDS; k++) {
			got[k] = upng_recv(&kid[k], line[k], sizeof(line[k]), KID_MS);
			status = upng_finish(&kid[k], KID_MS);
			ASSERT_TRUE(status >= 0 && WIFEXITED(status) &&
				    !WEXITSTATUS(status))
				TH_LOG("round %d: target %d %s (it said '%s')%s",
				       round, k, status_str(status, st, sizeof(st)),
				       got[k] > 0 ? line[k] : "", unwinder_hint());
			ASSERT_LT(0, got[k]) TH_LOG("round %d: target %d said nothing%s",
						    round, k, unwinder_hint());
			ASSERT_EQ(0, strncmp(line[k], "#sum ", 5))
				TH_LOG("round %d: target %d said '%s'", round, k,
				       line[k]);
			ASSERT_EQ(want, strtoll(line[k] + 5, NULL, 10))
				TH_LOG("round %d: target %d said '%s'", round, k,
				       line[k]);
		}
		fi_prob(&c->fi, 0);

		read_hits(c, after);
		for (i = 0; i < c->nev; i++) {
			ASSERT_GE(exec_bound(&c->ev[i]), after[i] - before[i])
				TH_LOG("round %d: %s: %ld hits for %ld calls at most",
				       round, c->ev[i].name, after[i] - before[i],
				       exec_bound(&c->ev[i]));
		}
		trace = upng_trace_read();
		ASSERT_NE(NULL, trace);
		for (i = 0; i < c->nev; i++) {
			if (!c->ev[i].ret)
				continue;
			n = upng_trace_values(trace, c->ev[i].name, "ret=", vals,
					      ARRAY_SIZE(vals));
			EXPECT_GE(exec_bound(&c->ev[i]), n)
				TH_LOG("round %d: %s: %ld returns traced", round,
				       c->ev[i].name, n);
			/* target_func() returns 7x + 3. */
			j = bad_return(vals, n, ARRAY_SIZE(vals), 7, 3);
			EXPECT_EQ(-1, j)
				TH_LOG("round %d: %s: traced return value %lld",
				       round, c->ev[i].name, (long long)vals[j]);
		}
		free(trace);
		ASSERT_EQ(0, _metadata->exit_code);
	}
	set_all(_metadata, c, false, "disabling");
	finish(_metadata, c);
}

/* mmap() of the probed file under faults: a breakpoint or the file's. */
TEST_F_TIMEOUT(insertion, mmap_under_faults, 400)
{
	struct fctx *c = &self->c;
	long inserted = 0, missed = 0;
	int round, rounds = rounds_of(15), i, fd, err;
	size_t size = c->st.st_size;
	unsigned char *map;
	long long deadline;

	fd = open(c->bin, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	c->fi.use = FI_M_SLAB | FI_M_PAGE;
	for (round = 0; round < rounds; round++) {
		fi_prob(&c->fi, prob_of(round));
		ASSERT_EQ(0, mif_set(c->mif, true));
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		err = map == MAP_FAILED ? -errno : 0;
		ASSERT_EQ(0, mif_set(c->mif, false));
		fi_prob(&c->fi, 0);
		note_rc(c, err);
		ASSERT_TRUE(errno_ok(err)) TH_LOG("round %d: mmap(): %s", round,
						  strerror(-err));
		if (err)
			continue;
		for (i = 0; i < c->nev; i++) {
			unsigned int b = bkpt_word(map + c->ev[i].off);

			ASSERT_TRUE(b == c->ev[i].orig || b == UPNG_BKPT)
				TH_LOG("round %d: %s: %#x in the mapping, the file has %#x",
				       round, c->ev[i].name, b, c->ev[i].orig);
			inserted += b == UPNG_BKPT;
			missed += b != UPNG_BKPT;
		}
		ASSERT_EQ(0, munmap(map, size));
	}
	TH_LOG("under faults: %ld breakpoints inserted, %ld missed", inserted,
	       missed);

	/* Without faults all go in, and out with the events. */
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	for (i = 0; i < c->nev; i++) {
		ASSERT_EQ(UPNG_BKPT, bkpt_word(map + c->ev[i].off))
			TH_LOG("%s", c->ev[i].name);
	}
	set_all(_metadata, c, false, "disabling");
	deadline = now_ms() + WAIT_MS;
	for (i = 0; i < c->nev; i++) {
		while (bkpt_word(map + c->ev[i].off) != c->ev[i].orig &&
		       now_ms() < deadline)
			usleep(50000);
		ASSERT_EQ(c->ev[i].orig, bkpt_word(map + c->ev[i].off))
			TH_LOG("%s still has its breakpoint", c->ev[i].name);
	}
	ASSERT_EQ(0, munmap(map, size));
	close(fd);
	finish(_metadata, c);
}

#if defined(__x86_64__)
/* ---- fork() of a process whose probed nop5 jumps to its stub ---- */

FIXTURE(forking) {
	struct fctx c;
	char ev[64];
};

FIXTURE_SETUP(forking)
{
	if (fi_missing())
		SKIP(return, FI_MISSING);
	ctx_setup(_metadata, &self->c, FI_M_SLAB | FI_M_PAGE, false,
		  upng_self_path());
}

FIXTURE_TEARDOWN(forking)
{
	upng_probe_del(self->ev);
	ctx_teardown(_metadata, &self->c);
}

/* The child: its own make-it-fail off, then the probed code must work. */
static void __noreturn fork_child(void)
{
	int fd = mif_open();

	if (fd < 0 || mif_set(fd, false))
		_exit(3);
	_exit(site_nop5(7) == 22 && site_nop5(8) == 25 ? 0 : 4);
}

/*
 * fork() under faults by a process whose probed nop5 was replaced with a
 * jump to its stub: the fork fails, or the child runs its code with the
 * stubs it jumps to. A child never runs a jump without its stub.
 */
TEST_F_TIMEOUT(forking, child_keeps_its_stubs, 400)
{
	struct fctx *c = &self->c;
	int round, rounds = rounds_of(6), status, forked = 0, failed = 0;
	struct upng_sym sym;
	char st[64];
	long nw;
	pid_t pid;
	int err;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_nop5_probe", &sym));
	upng_evname(self->ev, sizeof(self->ev), "fork");
	ASSERT_EQ(0, upng_probe_add(self->ev, upng_self_path(), sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(22, site_nop5(7));
	ASSERT_EQ(0xe9, (unsigned char)site_nop5_probe[0])
		TH_LOG("the probed nop5 is not a jump to its stub");
	for (round = 0; round < rounds; round++) {
		fi_prob(&c->fi, round ? prob_of(round) : 100);
		ASSERT_EQ(0, mif_set(c->mif, true));
		pid = fork();
		if (!pid)
			fork_child();
		err = pid < 0 ? -errno : 0;
		ASSERT_EQ(0, mif_set(c->mif, false));
		fi_prob(&c->fi, 0);
		note_rc(c, err);
		if (err) {
			ASSERT_TRUE(errno_ok(err)) TH_LOG("round %d: fork(): %s",
							  round, strerror(-err));
			failed++;
			continue;
		}
		forked++;
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("round %d: child %s%s", round,
			       status_str(status, st, sizeof(st)), unwinder_hint());
	}
	TH_LOG("%d forks, %d failed under faults", forked, failed);
	ASSERT_LT(0, fi_count(&c->fi)) TH_LOG("no fault was injected");
	/* No kernel problem; a fork that failed for the stubs said so. */
	ASSERT_EQ(0, upng_kmsg_scan(c->kmsg, "fork failed", &nw, NULL, 0));
	if (failed)
		EXPECT_LT(0, nw) TH_LOG("%d forks failed, none for the stubs",
					failed);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(25, site_nop5(8));
}
#endif

int main(int argc, char **argv)
{
	engine_err = upng_kallsyms_range(ENGINE_ANCHOR, engine_prefixes,
					 &engine_range);
	arch_err = upng_kallsyms_range(ARCH_ANCHOR, arch_prefixes, &arch_range);
	guess_unwinder = unwinder_guesses();
	return test_harness_run(argc, argv);
}
