// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on a program that lives on a FUSE file system (served by
 * fusefs.c). FUSE fills its page cache only through an open file: its
 * read_folio takes the request's file handle from file->private_data,
 * so reading the probed instruction with read_mapping_page(mapping, idx,
 * NULL) oopses when the page is not cached. Every case mounts a fresh
 * file system, so nothing of the file is cached until something reads
 * it, and checks (mincore()) that the cache is cold where it matters:
 *
 *  - a tracefs probe enabled with no process mapping the file, then the
 *    program run from the mount: enabling succeeds, exact hit count;
 *  - the same with the program running, its page cache dropped by the
 *    server (FUSE_NOTIFY_INVAL_INODE) just before: the breakpoint is in
 *    the process at once, exact hit count, gone after disable;
 *  - the uprobe PMU (perf_event_open(), one counter per CPU) and a
 *    BPF_TRACE_UPROBE_MULTI link, registered cold with no mapping:
 *    exact counts, nothing after close;
 *  - the page cache of the file is never written: while the breakpoint
 *    is in the process and after, the file reads back as the original.
 *
 * At the end of each case the server must have seen every handle it gave
 * out released, no READ through a handle it never gave out (that is, a
 * read without a real open file), and the file system must unmount.
 *
 * Each case runs with and without FOPEN_KEEP_CACHE: without it (as with
 * most FUSE servers) every open drops the file's page cache, mapped pages
 * included, so an engine that opens the file to read it runs into that;
 * with it the cache stays, and the program runs from pages the engine's
 * own read may have brought in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fusefs.h"
#include "upng.h"

#define RECV_MS 30000
#define PAGE 4096UL
#define MAX_CPUS 64
#define UPROBE_PMU_TYPE "/sys/bus/event_source/devices/uprobe/type"

/* ---- the target ---- */

/* Start the target at PATH; returns the address of its target_func(). */
static unsigned long start(struct __test_metadata *_metadata,
			   struct upng_child *c, const char *path)
{
	unsigned long main_addr = 0, func = 0;
	char line[256];
	int n;

	ASSERT_EQ(0, upng_spawn(c, path, NULL, NULL));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), RECV_MS))
		TH_LOG("%s", path);
	n = sscanf(line, "ready %lx %lx", &main_addr, &func);
	ASSERT_EQ(2, n) TH_LOG("'%s'", line);
	return func;
}

/* N calls of target_func(): the sum of their results must be right. */
static void call_target(struct __test_metadata *_metadata,
			struct upng_child *c, long n)
{
	char cmd[32], line[256];
	long long sum = -1;
	int got;

	snprintf(cmd, sizeof(cmd), "call %ld", n);
	ASSERT_EQ(0, upng_send(c, cmd));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), RECV_MS))
		TH_LOG("%s", cmd);
	got = sscanf(line, "sum %lld", &sum);
	ASSERT_EQ(1, got) TH_LOG("'%s'", line);
	ASSERT_EQ(7LL * n * (n - 1) / 2 + 3LL * n, sum);
}

static void quit(struct __test_metadata *_metadata, struct upng_child *c)
{
	int status;

	ASSERT_EQ(0, upng_send(c, "quit"));
	status = upng_finish(c, RECV_MS);
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	ASSERT_EQ(0, WEXITSTATUS(status));
}

/*
 * Wait until PID sleeps in read() (of its commands): it then runs no code,
 * so faults in no page, until it is sent the next command.
 */
static int wait_in_read(pid_t pid)
{
	char path[64], buf[64], want[16];
	ssize_t n;
	int i, fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	snprintf(want, sizeof(want), "%d ", __NR_read);
	for (i = 0; i < 1000; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			if (!strncmp(buf, want, strlen(want)))
				return 0;
		}
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/*
 * The first bytes of the instruction at P, where a breakpoint goes
 * (UPNG_BKPT_SIZE: one on x86, the whole instruction on arm64, two on
 * s390), as a number in the machine's byte order, to compare with
 * UPNG_BKPT.
 */
static long first(const unsigned char *p)
{
	return upng_insn_val(p, UPNG_BKPT_SIZE);
}

/* Those bytes at ADDR of PID, or -1. */
static long byte_at(pid_t pid, unsigned long addr)
{
	unsigned char b[UPNG_BKPT_SIZE];

	return upng_mem_read(pid, addr, b, sizeof(b)) ? -1 : first(b);
}

/* ---- the file and its page cache ---- */

/*
 * How many pages of [OFF, OFF + LEN) of the file open as FD are in its
 * page cache, or -errno: mincore() of a shared mapping, which reads
 * nothing (and, being shared, is never probed).
 */
static long cached(int fd, off_t off, size_t len)
{
	unsigned char vec[1024];
	off_t start = off & ~(PAGE - 1);
	size_t pages, i;
	long count = 0;
	void *p;

	len += off - start;
	pages = (len + PAGE - 1) / PAGE;
	if (!pages || pages > sizeof(vec))
		return -EFBIG;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, start);
	if (p == MAP_FAILED)
		return -errno;
	if (mincore(p, len, vec))
		count = -errno;
	for (i = 0; count >= 0 && i < pages; i++)
		count += vec[i] & 1;
	munmap(p, len);
	return count;
}

/*
 * Cached pages of the whole file PATH. Opening it is a FUSE_OPEN, which
 * without FOPEN_KEEP_CACHE drops the cache itself: the count is then 0
 * whatever was there, and the cache is cold all the same.
 */
static long cached_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	long n;

	if (fd < 0)
		return -errno;
	n = fstat(fd, &st) ? -errno : cached(fd, 0, st.st_size);
	close(fd);
	return n;
}

static ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, off + got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += n;
	}
	return got;
}

/* The file open as FD has exactly the bytes of ORIG. */
static void check_content(struct __test_metadata *_metadata, int fd,
			  const char *orig)
{
	static unsigned char a[65536], b[65536];
	ssize_t n, m, i;
	off_t off = 0;
	int ofd;

	ofd = open(orig, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ofd);
	do {
		n = pread_full(ofd, a, sizeof(a), off);
		m = pread_full(fd, b, sizeof(b), off);
		if (n < 0 || n != m || memcmp(a, b, n))
			break;
		off += n;
	} while (n);
	close(ofd);
	ASSERT_LE(0, n);
	ASSERT_EQ(n, m) TH_LOG("size or read error at %#llx", (long long)off);
	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	EXPECT_EQ(n, i) TH_LOG("at %#llx the file has %#x instead of %#x",
			       (long long)off + i, b[i], a[i]);
}

/* ---- the FUSE server's view ---- */

/* Start counting the server's READs of the probed instruction. */
static uint64_t watch(struct fusefs *fs, unsigned long off)
{
	fusefs_watch(fs, 0, off);
	return fusefs_stat(&fs->stats->watch_reads);
}

/*
 * Informational: did registering read the probed page from the server?
 * (An engine that analyses the instruction at registration must; the
 * 6.12 engine reads it only when it first installs the breakpoint.)
 */
static void note_reads(struct __test_metadata *_metadata, struct fusefs *fs,
		       uint64_t before, const char *how)
{
	uint64_t reads = fusefs_stat(&fs->stats->watch_reads);

	TH_LOG("%s read the probed page from the server %llu time(s)", how,
	       (unsigned long long)(reads - before));
}

/*
 * Every probe is gone and every process that ran the file has exited:
 * the kernel must have released every handle it was given (a struct
 * file kept by a probe also keeps the mount busy), the server must have
 * seen no READ, FLUSH or RELEASE through a handle it never gave out (a
 * read without a real open file) and no protocol error, and the file
 * system must unmount.
 */
static void check_released(struct __test_metadata *_metadata,
			   struct fusefs *fs)
{
	const struct fusefs_stats *st = fs->stats;
	int i;

	/* Releases are asynchronous, the last fput() may be delayed. */
	for (i = 0; i < 100; i++) {
		if (fusefs_stat(&st->opens) == fusefs_stat(&st->releases))
			break;
		usleep(50000);
	}
	EXPECT_EQ(fusefs_stat(&st->opens), fusefs_stat(&st->releases))
		TH_LOG("a file of the FUSE mount is still open");
	EXPECT_EQ(0ULL, fusefs_stat(&st->bad_handle))
		TH_LOG("a request came with a handle FUSE_OPEN never gave");
	EXPECT_EQ(0ULL, fusefs_stat(&st->errors));
	if (fusefs_stat(&st->enosys))
		TH_LOG("%llu request(s) answered ENOSYS, the last opcode %llu",
		       (unsigned long long)fusefs_stat(&st->enosys),
		       (unsigned long long)fusefs_stat(&st->last_enosys));
	EXPECT_EQ(0, fusefs_umount(fs));
}

/* ---- perf and BPF ---- */

/* A counting uprobe PMU event on CPU for every process. */
static int open_uprobe_counter(const char *path, unsigned long off, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = upng_uprobe_pmu_type();
	attr.uprobe_path = (unsigned long)path;		/* config1 */
	attr.probe_offset = off;			/* config2 */
	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* ---- the cases ---- */

FIXTURE(fuse) {
	struct fusefs fs;
	char dir[64];
	char bin[PATH_MAX];	/* the target on the FUSE mount */
	char orig[PATH_MAX];	/* the same program, beside the tests */
	struct upng_sym sym;	/* its target_func() */
	unsigned char insn[16];	/* the original bytes there */
	struct upng_child child;
	char ev[64];
	int fds[MAX_CPUS], nfds;	/* perf events */
	int map, prog, link, fd;
};

FIXTURE_VARIANT(fuse) {
	unsigned int flags;	/* of fusefs_mount() */
};

/* Every open drops the page cache (the default of FUSE servers). */
FIXTURE_VARIANT_ADD(fuse, drop_cache) {
	.flags = 0,
};

FIXTURE_VARIANT_ADD(fuse, keep_cache) {
	.flags = FUSEFS_KEEP_CACHE,
};

FIXTURE_SETUP(fuse)
{
	struct fusefs_file target = { .name = "target", .mode = 0755 };
	int err;

	self->map = -1;
	self->prog = -1;
	self->link = -1;
	self->fd = -1;
	self->nfds = 0;
	memset(&self->child, 0, sizeof(self->child));
	upng_die_with_parent();
	if (access("/dev/fuse", F_OK))
		SKIP(return, "no /dev/fuse: kernel without CONFIG_FUSE_FS");
	snprintf(self->orig, sizeof(self->orig), "%s", upng_path("bin/target"));
	ASSERT_EQ(0, upng_elf_sym(self->orig, "target_func", &self->sym));
	ASSERT_EQ(0, upng_file_read(self->orig, self->sym.offset, self->insn,
				    sizeof(self->insn)));
	ASSERT_NE(UPNG_BKPT, first(self->insn));
	upng_evname(self->ev, sizeof(self->ev), "fuse");
	ASSERT_EQ(0, upng_trace_reset());

	snprintf(self->dir, sizeof(self->dir), "/tmp/upng_fuse.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	target.src = self->orig;
	err = fusefs_mount(&self->fs, self->dir, &target, 1, variant->flags);
	if (err)
		rmdir(self->dir);
	ASSERT_EQ(0, err) TH_LOG("FUSE mount at %s: %s", self->dir,
				 strerror(-err));
	snprintf(self->bin, sizeof(self->bin), "%s/target", self->dir);
}

FIXTURE_TEARDOWN(fuse)
{
	int i;

	if (self->child.pid > 0)
		upng_finish(&self->child, 1000);
	upng_probe_del(self->ev);
	for (i = 0; i < self->nfds; i++)
		close(self->fds[i]);
	if (self->link >= 0)
		close(self->link);
	if (self->prog >= 0)
		close(self->prog);
	if (self->map >= 0)
		close(self->map);
	if (self->fd >= 0)
		close(self->fd);
	fusefs_umount(&self->fs);
	rmdir(self->dir);
}

/* The server itself: names, attributes, contents, a program run. */
TEST_F_TIMEOUT(fuse, serves_files, 120)
{
	static const char * const names[] = { ".", "..", "target" };
	char missing[PATH_MAX + 16];
	struct stat st, ost;
	unsigned char tail[64];
	struct statfs sfs;
	struct dirent *de;
	int i, seen = 0;
	DIR *d;

	ASSERT_EQ(0, stat(self->orig, &ost));
	ASSERT_EQ(0, stat(self->bin, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0755U, st.st_mode & 07777);
	EXPECT_EQ(ost.st_size, st.st_size);
	EXPECT_EQ(fusefs_nodeid(0), st.st_ino);
	ASSERT_EQ(0, stat(self->dir, &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, statfs(self->dir, &sfs));
	EXPECT_EQ(FUSE_SUPER_MAGIC, (long)sfs.f_type);

	snprintf(missing, sizeof(missing), "%s/missing", self->dir);
	EXPECT_EQ(-1, open(missing, O_RDONLY));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, open(self->bin, O_RDWR));
	EXPECT_EQ(EROFS, errno);

	d = opendir(self->dir);
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		for (i = 0; i < 3 && strcmp(de->d_name, names[i]); i++)
			;
		EXPECT_GT(3, i) TH_LOG("unexpected entry '%s'", de->d_name);
		if (i < 3)
			seen |= 1 << i;
		if (i == 2)
			EXPECT_EQ(DT_REG, de->d_type);
	}
	closedir(d);
	EXPECT_EQ(7, seen);

	self->fd = open(self->bin, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	check_content(_metadata, self->fd, self->orig);
	/* A read across the end of the file is short. */
	EXPECT_EQ(10, pread(self->fd, tail, sizeof(tail), ost.st_size - 10));
	close(self->fd);
	self->fd = -1;

	start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 10);
	quit(_metadata, &self->child);
	EXPECT_LT(0ULL, fusefs_stat(&self->fs.stats->reads));
	check_released(_metadata, &self->fs);
}

/*
 * Enabled with nothing of the file cached and no process mapping it:
 * the instruction can only be read through a file the kernel opens.
 */
TEST_F_TIMEOUT(fuse, trace_cold_unmapped, 300)
{
	uint64_t reads;
	char *trace;

	ASSERT_EQ(0, cached_file(self->bin)) TH_LOG("the cache is not cold");
	reads = watch(&self->fs, self->sym.offset);
	ASSERT_EQ(0, upng_probe_add(self->ev, self->bin, self->sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	note_reads(_metadata, &self->fs, reads, "enabling");

	start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 100);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	call_target(_metadata, &self->child, 10);
	quit(_metadata, &self->child);
	EXPECT_EQ(100, upng_probe_hits(self->ev));
	trace = upng_trace_read();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(100, upng_trace_count(trace, self->ev));
	free(trace);
	EXPECT_EQ(0, upng_probe_del(self->ev));
	/* The probed page did come from the server during this case. */
	EXPECT_LT(reads, fusefs_stat(&self->fs.stats->watch_reads));
	check_released(_metadata, &self->fs);
}

/*
 * Enabled while the program runs, its page cache just dropped by the
 * server: the file is mapped but its pages are not cached.
 */
TEST_F_TIMEOUT(fuse, trace_cold_running, 300)
{
	unsigned long func;
	uint64_t reads;

	func = start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 10);
	ASSERT_EQ(0, wait_in_read(self->child.pid));
	ASSERT_EQ(0, fusefs_drop_cache(&self->fs, 0));
	ASSERT_EQ(0, cached_file(self->bin))
		TH_LOG("the cache survived FUSE_NOTIFY_INVAL_INODE");
	reads = watch(&self->fs, self->sym.offset);
	ASSERT_EQ(0, upng_probe_add(self->ev, self->bin, self->sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	note_reads(_metadata, &self->fs, reads, "enabling");
	EXPECT_EQ(UPNG_BKPT, byte_at(self->child.pid, func));

	call_target(_metadata, &self->child, 100);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(first(self->insn), byte_at(self->child.pid, func));
	call_target(_metadata, &self->child, 10);
	quit(_metadata, &self->child);
	EXPECT_EQ(100, upng_probe_hits(self->ev));
	EXPECT_EQ(0, upng_probe_del(self->ev));
	check_released(_metadata, &self->fs);
}

/* The uprobe PMU, one counter per CPU, opened cold with no mapping. */
TEST_F_TIMEOUT(fuse, perf_cold_unmapped, 300)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF), cpu;
	long long total = 0, v;
	unsigned long func;
	uint64_t reads;
	int i, fd, err;

	ASSERT_LE(0, upng_uprobe_pmu_type()) TH_LOG("no " UPROBE_PMU_TYPE);
	ASSERT_EQ(0, cached_file(self->bin)) TH_LOG("the cache is not cold");
	reads = watch(&self->fs, self->sym.offset);
	for (cpu = 0; cpu < cpus && cpu < MAX_CPUS; cpu++) {
		fd = open_uprobe_counter(self->bin, self->sym.offset, cpu);
		err = fd < 0 ? errno : 0;
		if (err == ENODEV)	/* offline */
			continue;
		ASSERT_LE(0, fd) TH_LOG("perf_event_open() on cpu %ld: %s",
					cpu, strerror(err));
		self->fds[self->nfds++] = fd;
	}
	ASSERT_LT(0, self->nfds);
	note_reads(_metadata, &self->fs, reads, "perf_event_open()");

	start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 80);
	quit(_metadata, &self->child);
	for (i = 0; i < self->nfds; i++) {
		v = -1;
		ASSERT_EQ((ssize_t)sizeof(v),
			  read(self->fds[i], &v, sizeof(v)));
		total += v;
	}
	EXPECT_EQ(80, total);
	for (i = 0; i < self->nfds; i++)
		close(self->fds[i]);
	self->nfds = 0;

	/* Closed: a new process runs without the breakpoint. */
	func = start(_metadata, &self->child, self->bin);
	EXPECT_EQ(first(self->insn), byte_at(self->child.pid, func));
	call_target(_metadata, &self->child, 5);
	quit(_metadata, &self->child);
	check_released(_metadata, &self->fs);
}

/* A BPF_TRACE_UPROBE_MULTI link, created cold with no mapping. */
TEST_F_TIMEOUT(fuse, bpf_multi_cold_unmapped, 300)
{
	static char log[65536];
	unsigned long func;
	uint64_t reads;

	self->prog = upng_bpf_counter_prog(&self->map, log, sizeof(log));
	ASSERT_LE(0, self->prog) TH_LOG("BPF counter map and program: %s\n%s",
					strerror(-self->prog), log);
	ASSERT_EQ(0, cached_file(self->bin)) TH_LOG("the cache is not cold");
	reads = watch(&self->fs, self->sym.offset);
	self->link = upng_bpf_multi_link(self->prog, self->bin,
					 &self->sym.offset, 1, 0);
	ASSERT_LE(0, self->link) TH_LOG("BPF_LINK_CREATE uprobe_multi: %s",
					strerror(-self->link));
	note_reads(_metadata, &self->fs, reads, "BPF_LINK_CREATE");

	start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 70);
	quit(_metadata, &self->child);
	EXPECT_EQ(70, upng_bpf_counter(self->map));
	close(self->link);
	self->link = -1;

	/* Detached: a new process runs without the breakpoint. */
	func = start(_metadata, &self->child, self->bin);
	EXPECT_EQ(first(self->insn), byte_at(self->child.pid, func));
	call_target(_metadata, &self->child, 5);
	quit(_metadata, &self->child);
	EXPECT_EQ(70, upng_bpf_counter(self->map));
	close(self->prog);
	close(self->map);
	self->prog = -1;
	self->map = -1;
	check_released(_metadata, &self->fs);
}

/*
 * The breakpoint goes into the process, never into the file's page
 * cache: read back through the mount while it is in the process and
 * after it is gone, the file is the original.
 */
TEST_F_TIMEOUT(fuse, page_cache_intact, 300)
{
	unsigned char buf[sizeof(self->insn)];
	unsigned long func;
	long res;

	/*
	 * Opened first: reading through this file later sees the page cache
	 * as it is, where a new open without FOPEN_KEEP_CACHE would drop it
	 * and read the server's bytes instead.
	 */
	self->fd = open(self->bin, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, upng_probe_add(self->ev, self->bin, self->sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	func = start(_metadata, &self->child, self->bin);
	call_target(_metadata, &self->child, 50);
	EXPECT_EQ(UPNG_BKPT, byte_at(self->child.pid, func));

	res = cached(self->fd, self->sym.offset, 1);
	if (variant->flags & FUSEFS_KEEP_CACHE) {
		EXPECT_EQ(1, res);
	} else if (res != 1) {
		TH_LOG("probed page not cached (%ld): an open dropped it",
		       res);
	}
	ASSERT_EQ((ssize_t)sizeof(buf),
		  pread(self->fd, buf, sizeof(buf), self->sym.offset));
	EXPECT_EQ(0, memcmp(buf, self->insn, sizeof(buf)))
		TH_LOG("page cache %#x, file %#x", buf[0], self->insn[0]);
	check_content(_metadata, self->fd, self->orig);
	EXPECT_EQ(50, upng_probe_hits(self->ev));

	EXPECT_EQ(0, upng_probe_del(self->ev));
	EXPECT_EQ(first(self->insn), byte_at(self->child.pid, func));
	call_target(_metadata, &self->child, 10);
	quit(_metadata, &self->child);
	check_content(_metadata, self->fd, self->orig);
	close(self->fd);
	self->fd = -1;

	/* And through a new open (the server's bytes, without KEEP_CACHE). */
	self->fd = open(self->bin, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	check_content(_metadata, self->fd, self->orig);
	close(self->fd);
	self->fd = -1;
	check_released(_metadata, &self->fs);
}

TEST_HARNESS_MAIN
