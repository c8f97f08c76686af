// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs attached to a uprobe may change the probed task's
 * registers. What a program stores is what the task goes on with, on
 * every way a hit is completed: on x86-64 an emulated instruction (the
 * nop at site_nop1), boosted copies (site_xv_boost, and site_xv_mem whose
 * copy reads memory through the register written), a single step
 * (site_xv_step) and a stub (site_xv_nop5, a jump to a stub from its
 * second hit on); on arm64 steps out of line (site_xv_step, the load at
 * site_xv_mem) and simulated instructions (the nop at site_nop1, the
 * branch at site_xv_sim). A program that moves the instruction pointer
 * takes the task there: the probed instruction is not executed. A
 * return probe's program changes what the caller gets back. Through an
 * uprobe_multi link and through a uprobe perf event.
 *
 * A function whose entry a program skipped is not entered: no return
 * probe fires for it.
 *
 * What stays out of reach: the registers a program cannot set from user
 * mode (x86: orig_ax, cs, flags, ss, and half of ip; arm64: pstate and the
 * kernel's fields after it) are refused by the verifier, and so is any
 * store without CAP_SYS_ADMIN; a program that writes is refused for
 * kprobes (kprobe_multi at load, a kprobe perf event at attach) and in
 * tail calls, which could take it to a kprobe.
 *
 * The 6.12 kernel lets no program write its context: every case but the
 * refusals fails there.
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"

/* enum bpf_attach_type and the link's flags, newer than some hosts' */
#define TRACE_KPROBE_MULTI	42
#define TRACE_UPROBE_MULTI	48
#define TRACE_KPROBE_SESSION	56
#define UPROBE_MULTI_RETURN	1

/* Calls of a probed function per case: the first hit, then the later. */
#define NCALLS 4

/* Offsets in the context, struct pt_regs, as user_regs_struct lays it out. */
#define REG(f)	offsetof(struct user_regs_struct, f)
#if defined(__x86_64__)
#define REG_IP		REG(rip)
#define REG_ARG0	REG(rdi)
#define REG_RET		REG(rax)
#define REG_ACC		REG(rax)	/* site_xv_loop's accumulator */
#define REG_KPTR	REG(rdx)	/* and its pointer to k */
/* From site_xv_end back to the instruction that returns the accumulator. */
#define XV_RETURN	1		/* ret */
#elif defined(__aarch64__)
#define REG_IP		REG(pc)
#define REG_ARG0	REG(regs[0])
#define REG_RET		REG(regs[0])
#define REG_ACC		REG(regs[3])
#define REG_KPTR	REG(regs[2])
#define XV_RETURN	8		/* mov x0, x3; ret */
#endif

/*
 * site_xv_loop(1, a, &k) is 3 * a + 1 + k on both architectures; each
 * site's variant says what the accumulator holds there (at) and what the
 * function returns when a program sets the accumulator to v there (set).
 */
static unsigned long at_end(unsigned long a, unsigned long k)
{
	return 3 * a + 1 + k;
}

static unsigned long set_last(unsigned long v, unsigned long k)
{
	return v;
}

static unsigned long at_start(unsigned long a, unsigned long k)
{
	return a;
}

static unsigned long set_first(unsigned long v, unsigned long k)
{
	return 3 * v + 1 + k;
}

#if defined(__x86_64__)
static unsigned long at_plus1(unsigned long a, unsigned long k)
{
	return 3 * a + 1;
}

static unsigned long set_add(unsigned long v, unsigned long k)
{
	return v + k;
}
#elif defined(__aarch64__)
static unsigned long at_times3(unsigned long a, unsigned long k)
{
	return 3 * a;
}

static unsigned long set_add1(unsigned long v, unsigned long k)
{
	return v + k + 1;
}
#endif

/*
 * Where a program that moves ip sends a hit at a function's entry (only
 * its address is taken: the compiler keeps its code).
 */
static long other_function(long x)
{
	return x + 1000;
}

/* The program's fd, its verifier log on failure. */
static int store_prog(struct __test_metadata *_metadata, unsigned int type,
		      const struct upng_bpf_store *st, int n)
{
	char log[4096];
	int prog = upng_bpf_store_prog(type, st, n, -1, log, sizeof(log));

	EXPECT_LE(0, prog) TH_LOG("program load: %d: %s", prog, log);
	return prog;
}

/* A link of PROG at SYM of this program, for this process; fd or -errno. */
static int link_at(struct __test_metadata *_metadata, int prog,
		   const char *sym, unsigned int flags)
{
	struct upng_sym s;
	int link;

	if (prog < 0)
		return prog;
	EXPECT_EQ(0, upng_elf_sym(upng_self_path(), sym, &s));
	link = upng_bpf_multi_link_flags(prog, upng_self_path(), &s.offset, 1,
					 getpid(), flags);
	EXPECT_LE(0, link) TH_LOG("link at %s: %d", sym, link);
	return link;
}

FIXTURE(site) {
	unsigned long k;
	int reader, reader_link;
};

FIXTURE_VARIANT(site) {
	const char *sym;
	unsigned long (*at)(unsigned long a, unsigned long k);
	unsigned long (*set)(unsigned long v, unsigned long k);
	bool stub;	/* hit through a stub after its first hit */
};

#if defined(__x86_64__)
FIXTURE_VARIANT_ADD(site, boosted) {
	.sym = "site_xv_boost", .at = at_start, .set = set_first,
};

FIXTURE_VARIANT_ADD(site, boosted_load) {
	.sym = "site_xv_mem", .at = at_plus1, .set = set_add,
};

FIXTURE_VARIANT_ADD(site, stepped) {
	.sym = "site_xv_step", .at = at_end, .set = set_last,
};

FIXTURE_VARIANT_ADD(site, stub) {
	.sym = "site_xv_nop5", .at = at_end, .set = set_last, .stub = true,
};
#elif defined(__aarch64__)
FIXTURE_VARIANT_ADD(site, stepped) {
	.sym = "site_xv_step", .at = at_start, .set = set_first,
};

FIXTURE_VARIANT_ADD(site, stepped_load) {
	.sym = "site_xv_mem", .at = at_times3, .set = set_add1,
};

FIXTURE_VARIANT_ADD(site, simulated_branch) {
	.sym = "site_xv_sim", .at = at_end, .set = set_last,
};
#endif

/*
 * A program that only reads, at the site, hit once before the cases'
 * own: the site's later hits take their boosted slot or stub (a hit
 * whose ip a program moved executes nothing, so it would never make one).
 */
FIXTURE_SETUP(site)
{
	self->k = 7;
	self->reader = store_prog(_metadata, TRACE_UPROBE_MULTI, NULL, 0);
	self->reader_link = link_at(_metadata, self->reader, variant->sym, 0);
	ASSERT_LE(0, self->reader_link);
	ASSERT_EQ(at_end(2, self->k), site_xv_loop(1, 2, &self->k));
#if defined(__x86_64__)
	if (variant->stub) {
		/* The nop became a jump to its stub. */
		ASSERT_EQ(0xe9, *(unsigned char *)site_xv_nop5);
	}
#endif
}

FIXTURE_TEARDOWN(site)
{
	close(self->reader_link);
	close(self->reader);
}

/* The accumulator the program sets is the one the loop goes on with. */
TEST_F_TIMEOUT(site, write_register, 60)
{
	struct upng_bpf_store st = { REG_ACC, 8, 1000003 };
	int prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &st, 1);
	int link = link_at(_metadata, prog, variant->sym, 0);
	unsigned long i, want = variant->set(st.val, self->k);

	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++) {
		EXPECT_EQ(want, site_xv_loop(1, i, &self->k))
			TH_LOG("call %lu", i);
	}
	close(link);
	/* Gone with its link. */
	EXPECT_EQ(at_end(5, self->k), site_xv_loop(1, 5, &self->k));
	close(prog);
}

/*
 * A program that moves ip takes the hit to the function's return: the
 * probed instruction and those after it are not executed.
 */
TEST_F_TIMEOUT(site, move_ip, 60)
{
	struct upng_bpf_store st = {
		REG_IP, 8, (unsigned long)site_xv_end - XV_RETURN,
	};
	int prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &st, 1);
	int link = link_at(_metadata, prog, variant->sym, 0);
	unsigned long i;

	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++) {
		/* Three rounds asked for, the first one cut short. */
		EXPECT_EQ(variant->at(i, self->k),
			  site_xv_loop(3, i, &self->k))
			TH_LOG("call %lu", i);
	}
	close(link);
	close(prog);
}

/*
 * The load at site_xv_mem (x86: a boosted copy; arm64: a step) reads
 * memory through the register a program wrote, from its first hit on.
 */
TEST(load_through_written_register)
{
	unsigned long i, k = 7, k2 = 700;
	struct upng_bpf_store st = { REG_KPTR, 8, (unsigned long)&k2 };
	int prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &st, 1);
	int link = link_at(_metadata, prog, "site_xv_mem", 0);

	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++) {
		EXPECT_EQ(at_end(i, k2), site_xv_loop(1, i, &k))
			TH_LOG("call %lu", i);
	}
	close(link);
	close(prog);
}

/*
 * At a function's entry (a nop: emulated on x86, simulated on arm64): the
 * argument written is the one the function computes with, and a moved ip
 * calls another function in its place, from its first byte (arguments
 * above 32 bits: entered one byte late, x86's lea would drop them).
 */
#define BIG 0x500000000L

TEST(entry_argument_and_redirect)
{
	struct upng_bpf_store arg = { REG_ARG0, 8, 41 };
	struct upng_bpf_store ip = {
		REG_IP, 8, (unsigned long)other_function,
	};
	int prog, link;
	long i;

	prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &arg, 1);
	link = link_at(_metadata, prog, "site_nop1", 0);
	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++)
		EXPECT_EQ(3 * 41 + 1, site_nop1(BIG + i));
	close(link);
	close(prog);

	prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &ip, 1);
	link = link_at(_metadata, prog, "site_nop1", 0);
	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++)
		EXPECT_EQ(BIG + i + 1000, site_nop1(BIG + i));
	close(link);
	close(prog);
	EXPECT_EQ(3 * 5 + 1, site_nop1(5));
}

/*
 * A function whose entry a program skipped is not entered: no return
 * probe fires for it (nor is a return address on the stack replaced), and
 * a program that runs after the one that moved ip is told the probe's
 * address all the same.
 */
TEST(moved_ip_is_no_entry)
{
	struct upng_bpf_store ip = {
		REG_IP, 8, (unsigned long)other_function,
	};
	int ret_map, ret_prog, ret_link, ip_map, ip_prog, ip_link;
	int prog, link;
	struct upng_sym s;
	char log[4096];
	long i;

	ret_prog = upng_bpf_counter_prog(&ret_map, log, sizeof(log));
	ASSERT_LE(0, ret_prog) TH_LOG("%d: %s", ret_prog, log);
	ret_link = link_at(_metadata, ret_prog, "site_nop1",
			   UPROBE_MULTI_RETURN);
	ip_prog = upng_bpf_func_ip_prog(&ip_map, log, sizeof(log));
	ASSERT_LE(0, ip_prog) TH_LOG("%d: %s", ip_prog, log);
	/* Attached before the writer: run after it. */
	ip_link = link_at(_metadata, ip_prog, "site_nop1", 0);
	prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &ip, 1);
	link = link_at(_metadata, prog, "site_nop1", 0);
	ASSERT_LE(0, ret_link);
	ASSERT_LE(0, ip_link);
	ASSERT_LE(0, link);
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_nop1", &s));

	for (i = 0; i < NCALLS; i++)
		EXPECT_EQ(BIG + i + 1000, site_nop1(BIG + i));
	EXPECT_EQ(0, upng_bpf_counter(ret_map));
	EXPECT_EQ((long long)(unsigned long)site_nop1, upng_bpf_counter(ip_map));

	/* Without the writer, the function returns through its probe. */
	close(link);
	close(prog);
	EXPECT_EQ(3 * 5 + 1, site_nop1(5));
	EXPECT_EQ(1, upng_bpf_counter(ret_map));
	close(ip_link);
	close(ip_prog);
	close(ip_map);
	close(ret_link);
	close(ret_prog);
	close(ret_map);
}

/*
 * A return probe's program sets what the caller gets back. (At
 * site_nop1: arm64 diverts a return at an unmarked entry only when it
 * finds where the function starts, and site_work follows a page of
 * padding.)
 */
TEST(return_value)
{
	struct upng_bpf_store st = { REG_RET, 8, 123456789 };
	int prog = store_prog(_metadata, TRACE_UPROBE_MULTI, &st, 1);
	int link = link_at(_metadata, prog, "site_nop1", UPROBE_MULTI_RETURN);
	long i;

	ASSERT_LE(0, link);
	for (i = 0; i < NCALLS; i++)
		EXPECT_EQ(123456789, site_nop1(i));
	close(link);
	close(prog);
	EXPECT_EQ(3 * 5 + 1, site_nop1(5));
}

/* The same through a uprobe perf event and PERF_EVENT_IOC_SET_BPF. */
TEST(perf_event)
{
	struct upng_bpf_store st = { REG_ARG0, 8, 41 };
	int prog = store_prog(_metadata, 0, &st, 1);
	struct perf_event_attr attr;
	struct upng_sym s;
	int fd;

	ASSERT_LE(0, prog);
	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_nop1", &s));
	memset(&attr, 0, sizeof(attr));
	attr.disabled = 1;
	fd = upng_perf_uprobe_open_attr(&attr, upng_self_path(), s.offset,
					0);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %d", fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(3 * 41 + 1, site_nop1(2));
	EXPECT_EQ(3 * 41 + 1, site_nop1(3));
	close(fd);
	close(prog);
	EXPECT_EQ(3 * 5 + 1, site_nop1(5));
}

/* What a user-mode program cannot set, nor can a uprobe program. */
TEST(privileged_registers_refused)
{
	static const struct upng_bpf_store refused[] = {
#if defined(__x86_64__)
		{ REG(orig_rax), 8, 0 },
		{ REG(cs), 8, 0x10 },
		{ REG(eflags), 8, 0x3246 },
		{ REG(ss), 8, 0x18 },
		{ REG(rip), 4, 0 },
#elif defined(__aarch64__)
		{ REG(pstate), 8, 0x5 },
		{ sizeof(struct user_regs_struct), 8, 0 },	/* orig_x0 */
		{ sizeof(struct user_regs_struct) + 8, 4, 0 },	/* syscallno */
#endif
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		int prog = upng_bpf_store_prog(TRACE_UPROBE_MULTI, &refused[i],
					       1, -1, NULL, 0);

		EXPECT_EQ(-EACCES, prog) {
			TH_LOG("store of %d bytes at %d", refused[i].size,
			       refused[i].off);
		}
		if (prog >= 0)
			close(prog);
	}
}

/*
 * Changing another process's registers is writing its memory, as
 * bpf_probe_write_user() does: CAP_SYS_ADMIN, not only CAP_BPF and
 * CAP_PERFMON, which still load a program that reads them.
 */
TEST(needs_cap_sys_admin)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	struct upng_bpf_store st = { REG_ARG0, 8, 0 };
	int prog;

	data[CAP_TO_INDEX(CAP_BPF)].effective |= CAP_TO_MASK(CAP_BPF);
	data[CAP_TO_INDEX(CAP_PERFMON)].effective |= CAP_TO_MASK(CAP_PERFMON);
	data[0].permitted = data[0].effective;
	data[1].permitted = data[1].effective;
	ASSERT_EQ(0, syscall(__NR_capset, &hdr, data))
		TH_LOG("capset: %s", strerror(errno));
	EXPECT_EQ(-EACCES, upng_bpf_store_prog(TRACE_UPROBE_MULTI, &st, 1, -1,
					       NULL, 0));
	prog = upng_bpf_store_prog(TRACE_UPROBE_MULTI, NULL, 0, -1, NULL, 0);
	EXPECT_LE(0, prog);
	if (prog >= 0)
		close(prog);
}

/* A kprobe perf event on vfs_read; fd or -errno. */
static int kprobe_event(void)
{
	struct perf_event_attr attr;
	char buf[32];
	int type;
	long fd;

	type = upng_read_str("/sys/bus/event_source/devices/kprobe/type", buf,
			     sizeof(buf));
	if (type)
		return type;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = atoi(buf);
	attr.config1 = (unsigned long)"vfs_read";	/* kprobe_func */
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* A kprobe's registers are the kernel's: no program that writes. */
TEST(refused_for_kprobes)
{
	struct upng_bpf_store st = { REG_ARG0, 8, 0 };
	int prog, reader, fd;

	EXPECT_EQ(-EACCES, upng_bpf_store_prog(TRACE_KPROBE_MULTI, &st, 1, -1,
					       NULL, 0));
	EXPECT_EQ(-EACCES, upng_bpf_store_prog(TRACE_KPROBE_SESSION, &st, 1,
					       -1, NULL, 0));

	fd = kprobe_event();
	ASSERT_LE(0, fd) TH_LOG("kprobe perf event: %d", fd);
	prog = store_prog(_metadata, 0, &st, 1);
	ASSERT_LE(0, prog);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	EXPECT_EQ(EINVAL, errno);
	/* One that only reads still attaches there. */
	reader = store_prog(_metadata, 0, NULL, 0);
	ASSERT_LE(0, reader);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, reader))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	close(fd);
	close(reader);
	close(prog);
}

/* A tail call could take a program that writes to a kprobe: none. */
TEST(no_tail_calls)
{
	struct upng_bpf_store st = { REG_ARG0, 8, 0 };
	int array = upng_bpf_prog_array();
	int prog, reader, caller;

	ASSERT_LE(0, array);
	prog = store_prog(_metadata, 0, &st, 1);
	reader = store_prog(_metadata, 0, NULL, 0);
	ASSERT_LE(0, prog);
	ASSERT_LE(0, reader);
	EXPECT_EQ(-EINVAL, upng_bpf_prog_array_set(array, prog));
	EXPECT_EQ(0, upng_bpf_prog_array_set(array, reader));
	/* Nor does it call one. */
	EXPECT_GT(0, upng_bpf_store_prog(0, &st, 1, array, NULL, 0));
	caller = upng_bpf_store_prog(0, NULL, 0, array, NULL, 0);
	EXPECT_LE(0, caller);
	close(caller);
	close(reader);
	close(prog);
	close(array);
}

TEST_HARNESS_MAIN
