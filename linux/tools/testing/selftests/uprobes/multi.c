// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_TRACE_UPROBE_MULTI links of many probes in one file, which the
 * engine registers as one batch: every address space mapping the file
 * gets all the breakpoints of the link in one walk, and loses them in
 * one when the link is closed. The file is made here: NFUNC functions
 * "mov $i,%eax; ret" (arm64: "mov w0, #i; ret"), FUNC_SIZE bytes apart
 * over several pages, mapped
 * by NPROC processes that call each of them on request and check what
 * it returns.
 *
 *  - a link on all of them: a breakpoint at every function in every process,
 *    each call counted once; a process mapping the file afterwards gets
 *    the breakpoints too; after close, every byte is the original in
 *    every process and calls are not counted;
 *  - one offset given several times in a link: each counts its calls;
 *  - a link for one pid: only its calls count, and the other processes
 *    never get a breakpoint;
 *  - two links sharing probes: closing one leaves the other's;
 *  - a link whose last offset cannot be probed fails as a whole: no
 *    breakpoint in any process, no call counted, no probe of the file
 *    left in the registry (debugfs uprobes/probes).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "upng.h"

#define NFUNC 1024
#define FUNC_SIZE 16
#define FILE_SIZE (NFUNC * FUNC_SIZE + FUNC_SIZE)	/* + a bad one */
#define NPROC 4
#define PROBES "/sys/kernel/debug/uprobes/probes"

typedef int (*func_t)(void);

/* A process that maps the file and calls its functions on request. */
struct mapper {
	pid_t pid;
	int cmd, reply;
	unsigned long base;
};

/*
 * Function i's code at F, FUNC_SIZE bytes: "mov $i,%eax; ret" and nops on
 * x86, "mov w0, #i; ret" and nops on arm64 ("li a0, i" on riscv),
 * "lgfi %r2,i; br %r14" and nops on s390; and whether F starts with it.
 * BAD is an instruction the engine refuses to probe.
 */
#if defined(__aarch64__) || defined(__riscv)
#if defined(__aarch64__)
#define MOV_W0(i)	(0x52800000u | (uint32_t)(i) << 5)
#define RET		0xd65f03c0u
#define NOP		0xd503201fu
#define BAD		0xd4200000u	/* brk #0 */
#else
#define MOV_W0(i)	(0x00000513u | (uint32_t)(i) << 20)	/* li a0, i */
#define RET		0x00008067u
#define NOP		0x00000013u
#define BAD		0x00100073u	/* ebreak */
#endif

static void put_func(unsigned char *f, int i)
{
	uint32_t insn[FUNC_SIZE / 4] = { MOV_W0(i), RET, NOP, NOP };

	memcpy(f, insn, sizeof(insn));
}

static bool is_func(const unsigned char *f, int i)
{
	uint32_t insn;

	memcpy(&insn, f, sizeof(insn));
	return insn == MOV_W0(i);
}

static void put_bad(unsigned char *f)
{
	uint32_t insn = BAD;

	memcpy(f, &insn, sizeof(insn));
}
#elif defined(__s390x__)
/* lgfi %r2, i (the 32-bit immediate big-endian); br %r14; nopr. */
static void put_func(unsigned char *f, int i)
{
	static const unsigned char nopr[] = { 0x07, 0x00 };
	int k;

	for (k = 0; k < FUNC_SIZE; k += 2)
		memcpy(f + k, nopr, 2);
	f[0] = 0xc0;
	f[1] = 0x21;
	f[2] = (uint32_t)i >> 24;
	f[3] = (uint32_t)i >> 16;
	f[4] = (uint32_t)i >> 8;
	f[5] = (uint32_t)i;
	f[6] = 0x07;
	f[7] = 0xfe;
}

static bool is_func(const unsigned char *f, int i)
{
	unsigned char want[FUNC_SIZE];

	put_func(want, i);
	return !memcmp(f, want, 6);
}

/* ex %r0,0: execute, which the architecture's analysis refuses. */
static void put_bad(unsigned char *f)
{
	static const unsigned char ex[] = { 0x44, 0x00, 0x00, 0x00 };

	memcpy(f, ex, sizeof(ex));
}
#else
static void put_func(unsigned char *f, int i)
{
	memset(f, 0x90, FUNC_SIZE);
	f[0] = 0xb8;
	memcpy(f + 1, &i, 4);
	f[5] = 0xc3;
}

static bool is_func(const unsigned char *f, int i)
{
	return f[0] == 0xb8 && !memcmp(f + 1, &i, 4);
}

static void put_bad(unsigned char *f)
{
	f[0] = 0xcc;			/* int3 */
}
#endif

/* Functions 0 to NFUNC - 1, then one starting with BAD. */
static int make_file(const char *path)
{
	static unsigned char code[FILE_SIZE];
	int fd, i;
	ssize_t n;

	for (i = 0; i <= NFUNC; i++)
		put_func(code + i * FUNC_SIZE, i);
	put_bad(code + NFUNC * FUNC_SIZE);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0)
		return -errno;
	n = write(fd, code, sizeof(code));
	close(fd);
	return n == sizeof(code) ? 0 : -EIO;
}

static void mapper_main(void *path, int cmd, int reply)
{
	unsigned long base = 0;
	char c;
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* Not the test's links nor the other mappers' pipes. */
	for (fd = 3; fd < 1024; fd++)
		if (fd != cmd && fd != reply)
			close(fd);
	fd = open(path, O_RDONLY);
	if (fd >= 0)
		base = (unsigned long)mmap(NULL, FILE_SIZE,
					   PROT_READ | PROT_EXEC,
					   MAP_PRIVATE, fd, 0);
	if (base == (unsigned long)MAP_FAILED)
		base = 0;
	if (write(reply, &base, sizeof(base)) != sizeof(base) || !base)
		_exit(1);
	while (read(cmd, &c, 1) == 1 && c == 'c') {
		long bad = 0;

		for (int i = 0; i < NFUNC; i++) {
			func_t f = (func_t)(base + i * FUNC_SIZE);

			if (f() != i)
				bad++;
		}
		if (write(reply, &bad, sizeof(bad)) != sizeof(bad))
			break;
	}
	_exit(0);
}

static int mapper_start(struct mapper *m, const char *path)
{
	m->pid = upng_fork_piped(mapper_main, (void *)path, &m->cmd,
				 &m->reply);
	if (m->pid < 0 ||
	    read(m->reply, &m->base, sizeof(m->base)) != sizeof(m->base) ||
	    !m->base)
		return -ECHILD;
	return 0;
}

static void mapper_stop(struct mapper *m)
{
	if (m->pid <= 0)
		return;
	close(m->cmd);
	close(m->reply);
	waitpid(m->pid, NULL, 0);
	m->pid = 0;
}

/* Calls every function once in M; the number of wrong results, or -1. */
static long mapper_call(struct mapper *m)
{
	long bad;

	if (write(m->cmd, "c", 1) != 1 ||
	    read(m->reply, &bad, sizeof(bad)) != sizeof(bad))
		return -1;
	return bad;
}

/* How many of the NFUNC functions start with BYTE in M, or -1. */
/* How many functions of M start with the breakpoint, or their own code. */
static int count_funcs(struct mapper *m, bool bkpt)
{
	static unsigned char mem[NFUNC * FUNC_SIZE];
	int i, n = 0;

	if (upng_mem_read(m->pid, m->base, mem, sizeof(mem)))
		return -1;
	for (i = 0; i < NFUNC; i++) {
		const unsigned char *f = mem + i * FUNC_SIZE;

		n += bkpt ? upng_is_bkpt(f) : is_func(f, i);
	}
	return n;
}

/*
 * Probes of inode INO listed in debugfs, or -1. The list is our engine's:
 * on another (STOCK=1) the registry is not checked, and the case says so.
 */
static int registered(ino_t ino)
{
	char line[256];
	int n = 0;
	FILE *f;

	f = fopen(PROBES, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strtoull(line, NULL, 10) == ino;
	fclose(f);
	return n;
}

/* The engine lists N probes of the file (when it has the list). */
#define EXPECT_REGISTERED(n) do {					\
	if (self->listed)						\
		EXPECT_EQ((n), registered(self->ino));			\
} while (0)

FIXTURE(multi) {
	char path[64];
	ino_t ino;
	struct mapper m[NPROC + 1];
	unsigned long offs[2 * NFUNC + 1];
	int map, prog, link[2];
	bool listed;		/* our engine's debugfs list of probes */
};

FIXTURE_SETUP(multi)
{
	static char log[65536];
	struct statfs fs;
	struct stat st;
	int i;

	self->map = -1;
	self->prog = -1;
	self->link[0] = -1;
	self->link[1] = -1;
	memset(self->m, 0, sizeof(self->m));
	snprintf(self->path, sizeof(self->path), "/tmp/upng_multi.%d",
		 getpid());
	ASSERT_EQ(0, make_file(self->path));
	ASSERT_EQ(0, stat(self->path, &st));
	self->ino = st.st_ino;
	ASSERT_EQ(0, statfs("/sys/kernel/debug", &fs));
	ASSERT_EQ(DEBUGFS_MAGIC, (long)fs.f_type) TH_LOG("debugfs is not mounted");
	self->listed = !access(PROBES, R_OK);
	if (!self->listed)
		TH_LOG("no %s (not our engine): the registry is not checked",
		       PROBES);
	for (i = 0; i < 2 * NFUNC; i++)
		self->offs[i] = i % NFUNC * FUNC_SIZE;
	self->prog = upng_bpf_counter_prog(&self->map, log, sizeof(log));
	ASSERT_LE(0, self->prog) TH_LOG("BPF counter map and program: %s\n%s",
					strerror(-self->prog), log);
	for (i = 0; i < NPROC; i++) {
		ASSERT_EQ(0, mapper_start(&self->m[i], self->path))
			TH_LOG("process %d", i);
	}
}

FIXTURE_TEARDOWN(multi)
{
	int i;

	for (i = 0; i < 2; i++)
		if (self->link[i] >= 0)
			close(self->link[i]);
	for (i = 0; i <= NPROC; i++)
		mapper_stop(&self->m[i]);
	if (self->prog >= 0)
		close(self->prog);
	if (self->map >= 0)
		close(self->map);
	unlink(self->path);
}

/* Every process calls every function; no wrong result. */
static void call_all(struct __test_metadata *_metadata, struct mapper *m,
		     int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, mapper_call(&m[i]))
			TH_LOG("process %d", i);
	}
}

TEST_F_TIMEOUT(multi, all_functions, 300)
{
	int i;

	self->link[0] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs, NFUNC, 0);
	ASSERT_LE(0, self->link[0]) TH_LOG("BPF_LINK_CREATE: %s",
					   strerror(-self->link[0]));
	EXPECT_REGISTERED(NFUNC);
	for (i = 0; i < NPROC; i++) {
		EXPECT_EQ(NFUNC, count_funcs(&self->m[i], true))
			TH_LOG("process %d", i);
	}
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(NPROC * NFUNC, upng_bpf_counter(self->map));

	/* Mapped after the link: the mmap hook puts them in. */
	ASSERT_EQ(0, mapper_start(&self->m[NPROC], self->path));
	EXPECT_EQ(NFUNC, count_funcs(&self->m[NPROC], true));
	call_all(_metadata, self->m + NPROC, 1);
	EXPECT_EQ((NPROC + 1) * NFUNC, upng_bpf_counter(self->map));

	close(self->link[0]);
	self->link[0] = -1;
	for (i = 0; i <= NPROC; i++) {
		EXPECT_EQ(NFUNC, count_funcs(&self->m[i], false))
			TH_LOG("process %d", i);
	}
	EXPECT_REGISTERED(0);
	call_all(_metadata, self->m, NPROC + 1);
	EXPECT_EQ((NPROC + 1) * NFUNC, upng_bpf_counter(self->map));
}

/* Each offset twice: two consumers on each probe, two counts per call. */
TEST_F_TIMEOUT(multi, offsets_twice, 300)
{
	int i;

	self->link[0] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs, 2 * NFUNC, 0);
	ASSERT_LE(0, self->link[0]) TH_LOG("BPF_LINK_CREATE: %s",
					   strerror(-self->link[0]));
	EXPECT_REGISTERED(NFUNC);
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(2 * NPROC * NFUNC, upng_bpf_counter(self->map));
	close(self->link[0]);
	self->link[0] = -1;
	for (i = 0; i < NPROC; i++)
		EXPECT_EQ(NFUNC, count_funcs(&self->m[i], false));
	EXPECT_REGISTERED(0);
}

/* A link for one process: the others never see a breakpoint. */
TEST_F_TIMEOUT(multi, one_pid, 300)
{
	int i;

	self->link[0] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs, NFUNC, self->m[1].pid);
	ASSERT_LE(0, self->link[0]) TH_LOG("BPF_LINK_CREATE: %s",
					   strerror(-self->link[0]));
	for (i = 0; i < NPROC; i++) {
		EXPECT_EQ(i == 1 ? NFUNC : 0, count_funcs(&self->m[i], true))
			TH_LOG("process %d", i);
	}
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(NFUNC, upng_bpf_counter(self->map));
	close(self->link[0]);
	self->link[0] = -1;
	EXPECT_EQ(NFUNC, count_funcs(&self->m[1], false));
}

/* Links on all functions and on the second half: close the first. */
TEST_F_TIMEOUT(multi, shared_probes, 300)
{
	int i;

	self->link[0] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs, NFUNC, 0);
	ASSERT_LE(0, self->link[0]);
	self->link[1] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs + NFUNC / 2, NFUNC / 2,
					    0);
	ASSERT_LE(0, self->link[1]);
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(NPROC * (NFUNC + NFUNC / 2), upng_bpf_counter(self->map));

	close(self->link[0]);
	self->link[0] = -1;
	EXPECT_REGISTERED(NFUNC / 2);
	for (i = 0; i < NPROC; i++) {
		EXPECT_EQ(NFUNC / 2, count_funcs(&self->m[i], true));
		EXPECT_EQ(NFUNC / 2, count_funcs(&self->m[i], false));
	}
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(NPROC * 2 * NFUNC, upng_bpf_counter(self->map));
	close(self->link[1]);
	self->link[1] = -1;
	for (i = 0; i < NPROC; i++)
		EXPECT_EQ(NFUNC, count_funcs(&self->m[i], false));
	EXPECT_REGISTERED(0);
}

/*
 * The last offset is BAD, which cannot be probed: the link fails,
 * and what its first NFUNC probes did is undone.
 */
TEST_F_TIMEOUT(multi, bad_last_offset, 300)
{
	int i;

	self->offs[NFUNC] = NFUNC * FUNC_SIZE;
	self->link[0] = upng_bpf_multi_link(self->prog, self->path,
					    self->offs, NFUNC + 1, 0);
	EXPECT_EQ(-EOPNOTSUPP, self->link[0]);
	for (i = 0; i < NPROC; i++) {
		EXPECT_EQ(NFUNC, count_funcs(&self->m[i], false))
			TH_LOG("process %d", i);
	}
	EXPECT_REGISTERED(0);
	call_all(_metadata, self->m, NPROC);
	EXPECT_EQ(0, upng_bpf_counter(self->map));
}

TEST_HARNESS_MAIN
