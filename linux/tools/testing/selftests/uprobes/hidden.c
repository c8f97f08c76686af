// SPDX-License-Identifier: GPL-2.0
/*
 * Breakpoints that readers of a process's memory do not see. A probe on
 * target_func() is active in a running target (its breakpoint is checked
 * with debugfs uprobes/hide_breakpoints off, and its hits are counted);
 * with it on (the default):
 *
 *   proc_mem          /proc/PID/mem shows the file's bytes there
 *   ptrace_peek       so does PTRACE_PEEKTEXT
 *   process_vm_readv  so does process_vm_readv(), the whole page equal to
 *                     the file's
 *   core_dump         so does the target's core dump
 *   poke_keeps        a debugger's PTRACE_POKETEXT of words it read (its
 *                     own breakpoint next to ours, planted then removed)
 *                     leaves ours in place, and the probe keeps counting
 *   shown_when_off    with hide_breakpoints off every reader sees int3
 *
 * A process the filter of a probe leaves out, with its breakpoint still
 * there: leftout.forked (a child of the process the filter names),
 * leftout.left_session (it left the session the filter names). Probed
 * code mapped many times and moved with mremap() (moved.hidden). Code
 * written over a probed instruction wins (patch_over_*); a program's own
 * int3 where a probe filtered out of it is stays seen (own_int3_not_hidden).
 *
 * (On arm64 our breakpoint is brk #5, the debugger's brk #0, four bytes
 * each: upng.h, upng_regs.h.) A debugger's own int3 on the probed
 * instruction: debugger.c.
 *
 * Needs our engine (debugfs uprobes/hide_breakpoints): the stock one
 * shows the breakpoints, and the cases are skipped there.
 */
#include <linux/elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sites.h"
#include "upng.h"
#include "upng_regs.h"

#define RECV_MS		30000
#define PAGE		4096UL
#define CORE_PATTERN	"/proc/sys/kernel/core_pattern"

FIXTURE(hidden) {
	struct upng_child child;
	char ev[64];
	const char *bin;
	struct upng_sym sym;
	unsigned long func;		/* target_func() in the target */
	unsigned char file[8];		/* the file's bytes there */
};

static void core_unlimited(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	setrlimit(RLIMIT_CORE, &r);
}

/* Sends "call N" and checks the target's answer. */
static void calls(struct __test_metadata *_metadata, struct upng_child *c,
		  long n)
{
	char line[128], cmd[32];
	long long sum = -1;
	int got;

	snprintf(cmd, sizeof(cmd), "call %ld", n);
	ASSERT_EQ(0, upng_send(c, cmd));
	ASSERT_LT(0, upng_recv(c, line, sizeof(line), RECV_MS));
	got = sscanf(line, "sum %lld", &sum);
	ASSERT_EQ(1, got) TH_LOG("'%s'", line);
	EXPECT_EQ(7LL * n * (n - 1) / 2 + 3LL * n, sum);
}

FIXTURE_SETUP(hidden)
{
	unsigned long main_addr;
	char line[128];
	int err, n;

	upng_die_with_parent();
	memset(&self->child, 0, sizeof(self->child));
	upng_evname(self->ev, sizeof(self->ev), "hidden");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, upng_trace_reset());
	self->bin = upng_path("bin/target");
	ASSERT_EQ(0, upng_elf_sym(self->bin, "target_func", &self->sym));
	ASSERT_EQ(0, upng_file_read(self->bin, self->sym.offset, self->file,
				    sizeof(self->file)));
	ASSERT_FALSE(upng_is_bkpt(self->file));
	ASSERT_EQ(0, upng_spawn_hook(&self->child, self->bin, NULL, NULL,
				     core_unlimited));
	ASSERT_LT(0, upng_recv(&self->child, line, sizeof(line), RECV_MS));
	n = sscanf(line, "ready %lx %lx", &main_addr, &self->func);
	ASSERT_EQ(2, n) TH_LOG("'%s'", line);
	ASSERT_EQ(0, upng_probe_add(self->ev, self->bin, self->sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(1, upng_shown_bkpt(self->child.pid, self->func));
}

FIXTURE_TEARDOWN(hidden)
{
	if (self->child.pid > 0) {
		upng_send(&self->child, "quit");
		upng_finish(&self->child, RECV_MS);
	}
	upng_probe_del(self->ev);
	upng_hide_breakpoints(false);
}

/*
 * Whether PID has the file's instruction FILE at ADDR (its first
 * UPNG_BKPT_SIZE bytes), read with breakpoints shown: 1, 0 or -errno.
 */
static int shown_is_file(pid_t pid, unsigned long addr,
			 const unsigned char *file)
{
	unsigned char b[UPNG_BKPT_SIZE];
	int err = upng_shown_read(pid, addr, b, sizeof(b));

	return err ? err : !memcmp(b, file, sizeof(b));
}

/* The probe EV still counts: ten calls in C, ten more hits. */
static void still_hits(struct __test_metadata *_metadata,
		       struct upng_child *c, const char *ev)
{
	long before = upng_probe_hits(ev);

	calls(_metadata, c, 10);
	EXPECT_EQ(before + 10, upng_probe_hits(ev));
}

TEST_F_TIMEOUT(hidden, proc_mem, 120)
{
	unsigned char mem[8];

	ASSERT_EQ(0, upng_mem_read(self->child.pid, self->func, mem,
				   sizeof(mem)));
	EXPECT_EQ(0, memcmp(self->file, mem, sizeof(mem)))
		TH_LOG("first byte 0x%02x, the file's 0x%02x", mem[0],
		       self->file[0]);
	/* A read that starts on the breakpoint's byte alone. */
	ASSERT_EQ(0, upng_mem_read(self->child.pid, self->func, mem, 1));
	EXPECT_EQ(self->file[0], mem[0]);
	still_hits(_metadata, &self->child, self->ev);
}

TEST_F_TIMEOUT(hidden, ptrace_peek, 120)
{
	pid_t pid = self->child.pid;
	long word;

	ASSERT_EQ(0, upng_ptrace_attach(pid));
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)self->func, NULL);
	EXPECT_EQ(0, errno);
	EXPECT_EQ(0, memcmp(self->file, &word, sizeof(word)))
		TH_LOG("first byte 0x%02x", (unsigned char)word);
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	still_hits(_metadata, &self->child, self->ev);
}

TEST_F_TIMEOUT(hidden, process_vm_readv, 120)
{
	static unsigned char mem[PAGE], file[PAGE];
	unsigned long page = self->func & ~(PAGE - 1);
	struct iovec local = { mem, sizeof(mem) };
	struct iovec remote = { (void *)page, sizeof(mem) };
	unsigned long i;

	ASSERT_EQ((ssize_t)sizeof(mem),
		  process_vm_readv(self->child.pid, &local, 1, &remote, 1, 0));
	ASSERT_EQ(0, upng_file_read(self->bin,
				    self->sym.offset - (self->func - page),
				    file, sizeof(file)));
	for (i = 0; i < PAGE; i++)
		if (mem[i] != file[i])
			break;
	EXPECT_EQ(PAGE, i) TH_LOG("0x%lx: 0x%02x, the file's 0x%02x",
				  page + i, mem[i], file[i]);
	still_hits(_metadata, &self->child, self->ev);
}

/* LEN bytes at ADDR as the core file PATH has them; 0 or -errno. */
static int core_bytes(const char *path, unsigned long addr, void *buf,
		      size_t len)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	int i, found = -ENOENT;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_type != ET_CORE) {
		close(fd);
		return -EINVAL;
	}
	for (i = 0; i < eh.e_phnum && found == -ENOENT; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph))
			break;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr + len > ph.p_vaddr + ph.p_filesz)
			continue;
		found = pread(fd, buf, len, ph.p_offset + addr - ph.p_vaddr) ==
			(ssize_t)len ? 0 : -EIO;
	}
	close(fd);
	return found;
}

TEST_F_TIMEOUT(hidden, core_dump, 120)
{
	char saved[256] = "", path[64], pattern[64];
	unsigned char mem[8];
	int status, fd, err;
	ssize_t n;

	fd = open(CORE_PATTERN, O_RDWR);
	ASSERT_LE(0, fd);
	n = read(fd, saved, sizeof(saved) - 1);
	ASSERT_LT(0, n);
	saved[n] = '\0';
	snprintf(pattern, sizeof(pattern), "/tmp/upng_core.%d.%%p", getpid());
	ASSERT_EQ((ssize_t)strlen(pattern), pwrite(fd, pattern,
						   strlen(pattern), 0));
	close(fd);
	snprintf(path, sizeof(path), "/tmp/upng_core.%d.%d", getpid(),
		 self->child.pid);

	calls(_metadata, &self->child, 10);
	kill(self->child.pid, SIGABRT);
	status = upng_finish(&self->child, RECV_MS);
	self->child.pid = 0;
	fd = open(CORE_PATTERN, O_WRONLY);
	if (fd >= 0) {
		EXPECT_LT(0, write(fd, saved, strlen(saved)));
		close(fd);
	}
	ASSERT_TRUE(WIFSIGNALED(status) && WCOREDUMP(status))
		TH_LOG("status %#x", status);
	err = core_bytes(path, self->func, mem, sizeof(mem));
	unlink(path);
	ASSERT_EQ(0, err) TH_LOG("no bytes of 0x%lx in %s", self->func, path);
	EXPECT_EQ(0, memcmp(self->file, mem, sizeof(mem)))
		TH_LOG("first byte 0x%02x in the core", mem[0]);
	EXPECT_EQ(10, upng_probe_hits(self->ev));
}

TEST_F_TIMEOUT(hidden, poke_keeps, 120)
{
	pid_t pid = self->child.pid;
	unsigned long at = self->func - UPNG_DBG_BKPT_SIZE;
	long word, planted;

	ASSERT_EQ(0, upng_ptrace_attach(pid));
	/*
	 * The word before: our breakpoint is its second byte (on arm64 its
	 * second instruction).
	 */
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)at, NULL);
	ASSERT_EQ(0, errno);
	EXPECT_EQ(0, memcmp((unsigned char *)&word + UPNG_DBG_BKPT_SIZE,
			    self->file, UPNG_BKPT_SIZE));
	/* A breakpoint of the debugger's own in its first byte... */
	planted = upng_with_dbg_bkpt(word);
	EXPECT_EQ(0, ptrace(PTRACE_POKETEXT, pid, (void *)at,
			    (void *)planted));
	/* ... and the word as read, to remove it. */
	EXPECT_EQ(0, ptrace(PTRACE_POKETEXT, pid, (void *)at, (void *)word));
	/* Unchanged words at the breakpoint itself. */
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)self->func, NULL);
	EXPECT_EQ(0, ptrace(PTRACE_POKETEXT, pid, (void *)self->func,
			    (void *)word));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	EXPECT_EQ(1, upng_shown_bkpt(pid, self->func));
	still_hits(_metadata, &self->child, self->ev);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	EXPECT_EQ(1, shown_is_file(pid, self->func, self->file));
}

TEST_F_TIMEOUT(hidden, shown_when_off, 120)
{
	pid_t pid = self->child.pid;
	unsigned char mem[8];
	long word;

	ASSERT_EQ(0, upng_hide_breakpoints(false));
	ASSERT_EQ(0, upng_mem_read(pid, self->func, mem, sizeof(mem)));
	EXPECT_TRUE(upng_is_bkpt(mem));
	EXPECT_EQ(0, memcmp(self->file + UPNG_BKPT_SIZE, mem + UPNG_BKPT_SIZE,
			    sizeof(mem) - UPNG_BKPT_SIZE));
	ASSERT_EQ(0, upng_ptrace_attach(pid));
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)self->func, NULL);
	EXPECT_EQ(0, errno);
	EXPECT_TRUE(upng_is_bkpt(&word));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	still_hits(_metadata, &self->child, self->ev);
}

/* Probes the test's own @sym, with "if @filter" when @filter is not "". */
static void self_probe_if(struct __test_metadata *_metadata, const char *ev,
			  const char *sym, const char *filter)
{
	struct upng_sym s;
	char clause[48] = "";

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), sym, &s));
	if (*filter)
		snprintf(clause, sizeof(clause), "if %s", filter);
	ASSERT_EQ(0, upng_probe_add(ev, upng_self_path(), s.offset, clause));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
}

enum { LEFT_FORKED, LEFT_SETSID };

/*
 * A process the probe's filter leaves out with the probe's breakpoint
 * still in it: a child forked from a process the filter names (forked),
 * or one that leaves the session the filter names (left_session). The
 * breakpoint stays until its first hit there; until then readers see the
 * probed instruction, and a debugger that puts its own breakpoint on it
 * and takes it out with what it read leaves ours, which goes with the
 * probe. The child then runs the code as unprobed.
 */
FIXTURE(leftout) {
	char ev[64];
	pid_t pid;
	int to_child[2], from_child[2];
};

FIXTURE_VARIANT(leftout) {
	int how;
};

FIXTURE_VARIANT_ADD(leftout, forked) {
	.how = LEFT_FORKED,
};

FIXTURE_VARIANT_ADD(leftout, left_session) {
	.how = LEFT_SETSID,
};

FIXTURE_SETUP(leftout)
{
	int err;

	self->pid = 0;
	self->to_child[1] = -1;
	self->from_child[0] = -1;
	upng_evname(self->ev, sizeof(self->ev), "leftout");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, pipe(self->to_child));
	ASSERT_EQ(0, pipe(self->from_child));
}

FIXTURE_TEARDOWN(leftout)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	upng_probe_del(self->ev);
	upng_hide_breakpoints(false);
	close(self->to_child[1]);
	close(self->from_child[0]);
}

TEST_F_TIMEOUT(leftout, hidden, 120)
{
	unsigned long func = (unsigned long)site_work_probe;
	unsigned char file[8], mem[8];
	long want = site_work(5), word;
	char filter[32], c;
	struct upng_sym sym;
	int status;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_work_probe", &sym));
	ASSERT_EQ(0, upng_file_read(upng_self_path(), sym.offset, file,
				    sizeof(file)));
	if (variant->how == LEFT_FORKED) {
		snprintf(filter, sizeof(filter), "pid==%d", getpid());
		self_probe_if(_metadata, self->ev, "site_work_probe", filter);
	}
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		close(self->to_child[1]);
		close(self->from_child[0]);
		if (read(self->to_child[0], &c, 1) != 1)
			_exit(1);
		if (c == 's' && (setsid() < 0 ||
				 write(self->from_child[1], "s", 1) != 1 ||
				 read(self->to_child[0], &c, 1) != 1))
			_exit(2);
		_exit(site_work(5) == want ? 0 : 3);
	}
	close(self->to_child[0]);
	close(self->from_child[1]);
	if (variant->how == LEFT_SETSID) {
		snprintf(filter, sizeof(filter), "sid==%d", getsid(0));
		self_probe_if(_metadata, self->ev, "site_work_probe", filter);
		ASSERT_EQ(1, upng_shown_bkpt(self->pid, func));
		ASSERT_EQ(1, write(self->to_child[1], "s", 1));
		ASSERT_EQ(1, read(self->from_child[0], &c, 1));
	}
	/* The breakpoint is there, and only the probed code is seen. */
	EXPECT_EQ(1, upng_shown_bkpt(self->pid, func));
	ASSERT_EQ(0, upng_mem_read(self->pid, func, mem, sizeof(mem)));
	EXPECT_EQ(0, memcmp(file, mem, sizeof(mem)))
		TH_LOG("first byte 0x%02x, the file's 0x%02x", mem[0], file[0]);
	ASSERT_EQ(0, upng_ptrace_attach(self->pid));
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, self->pid, (void *)func, NULL);
	EXPECT_EQ(0, errno);
	EXPECT_EQ(0, memcmp(file, &word, sizeof(word)));
	EXPECT_EQ(0, ptrace(PTRACE_POKETEXT, self->pid, (void *)func,
			    (void *)upng_with_dbg_bkpt(word)));
	EXPECT_EQ(0, ptrace(PTRACE_POKETEXT, self->pid, (void *)func,
			    (void *)word));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, self->pid, NULL, NULL));
	EXPECT_EQ(1, upng_shown_bkpt(self->pid, func));
	/* Gone with the probe: the child runs the file's code. */
	EXPECT_EQ(0, upng_probe_del(self->ev));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	ASSERT_EQ(0, upng_hide_breakpoints(false));
	ASSERT_EQ(0, upng_mem_read(self->pid, func, mem, sizeof(mem)));
	EXPECT_EQ(0, memcmp(file, mem, sizeof(mem)))
		TH_LOG("first byte 0x%02x left, the file's 0x%02x", mem[0],
		       file[0]);
	ASSERT_EQ(1, write(self->to_child[1], "c", 1));
	ASSERT_EQ(self->pid, waitpid(self->pid, &status, 0));
	self->pid = 0;
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %#x", status);
}

/* Mappings of the probed page: more than the record keeps unpruned. */
#define MOVED_MAPS	72

/*
 * Probed code mapped again, MOVED_MAPS times, each copy with its
 * breakpoint, then moved with mremap(): the breakpoint moves with the
 * pages, readers see the probed instruction in every copy, a range left
 * mapped (MREMAP_DONTUNMAP) gets its breakpoint back, and every
 * breakpoint goes with the probe.
 */
FIXTURE(moved) {
	char ev[64];
	char *maps[MOVED_MAPS];
	char *to;
	size_t page;
};

FIXTURE_SETUP(moved)
{
	int err;

	memset(self->maps, 0, sizeof(self->maps));
	self->to = MAP_FAILED;
	self->page = sysconf(_SC_PAGESIZE);
	upng_evname(self->ev, sizeof(self->ev), "moved");
	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, err);
}

FIXTURE_TEARDOWN(moved)
{
	int i;

	upng_probe_del(self->ev);
	for (i = 0; i < MOVED_MAPS; i++)
		if (self->maps[i] && self->maps[i] != MAP_FAILED)
			munmap(self->maps[i], self->page);
	if (self->to != MAP_FAILED)
		munmap(self->to, 4 * self->page);
	upng_hide_breakpoints(false);
}

/* Whether PID shows the file's FILE at ADDR (1), or not (0), or -errno. */
static int reads_file(pid_t pid, unsigned long addr,
		      const unsigned char *file, size_t len)
{
	unsigned char mem[8];
	int err = upng_mem_read(pid, addr, mem, len);

	return err ? err : !memcmp(file, mem, len);
}

TEST_F_TIMEOUT(moved, hidden, 120)
{
	unsigned long off, at[MOVED_MAPS];
	unsigned char file[8];
	struct upng_sym sym;
	pid_t me = getpid();
	int fd, i;
	char *q;

	ASSERT_EQ(0, upng_elf_sym(upng_self_path(), "site_work_probe", &sym));
	ASSERT_EQ(0, upng_file_read(upng_self_path(), sym.offset, file,
				    sizeof(file)));
	self_probe_if(_metadata, self->ev, "site_work_probe", "");
	/* The page mapped again and again, each copy with its breakpoint. */
	off = sym.offset & ~(self->page - 1);
	fd = open(upng_self_path(), O_RDONLY);
	ASSERT_LE(0, fd);
	for (i = 0; i < MOVED_MAPS; i++) {
		self->maps[i] = mmap(NULL, self->page, PROT_READ | PROT_EXEC,
				     MAP_PRIVATE, fd, off);
		ASSERT_NE(MAP_FAILED, self->maps[i]);
		at[i] = (unsigned long)self->maps[i] + (sym.offset - off);
		ASSERT_EQ(1, upng_shown_bkpt(me, at[i]));
	}
	close(fd);
	for (i = 0; i < MOVED_MAPS; i++) {
		EXPECT_EQ(1, reads_file(me, at[i], file, sizeof(file)))
			TH_LOG("copy %d shows a breakpoint", i);
	}
	/* The first copy moved elsewhere. */
	self->to = mmap(NULL, 4 * self->page, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->to);
	q = mremap(self->maps[0], self->page, self->page,
		   MREMAP_MAYMOVE | MREMAP_FIXED, self->to + 2 * self->page);
	ASSERT_EQ(self->to + 2 * self->page, q);
	self->maps[0] = NULL;
	at[0] = (unsigned long)q + (sym.offset - off);
	EXPECT_EQ(1, upng_shown_bkpt(me, at[0]));
	EXPECT_EQ(1, reads_file(me, at[0], file, sizeof(file)));
	/*
	 * The second moved with MREMAP_DONTUNMAP: the range left behind
	 * gets the file's page, and the probe's breakpoint in it again.
	 */
	q = mremap(self->maps[1], self->page, self->page,
		   MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, self->to);
	ASSERT_EQ(self->to, q) TH_LOG("mremap: %s", strerror(errno));
	EXPECT_EQ(1, upng_shown_bkpt(me, (unsigned long)q + (sym.offset - off)));
	EXPECT_EQ(1, upng_shown_bkpt(me, at[1]))
		TH_LOG("no breakpoint where the code was left mapped");
	EXPECT_EQ(1, reads_file(me, at[1], file, sizeof(file)));
	/* Every breakpoint goes with the probe. */
	EXPECT_EQ(0, upng_probe_del(self->ev));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	ASSERT_EQ(0, upng_hide_breakpoints(false));
	for (i = 0; i < MOVED_MAPS; i++) {
		EXPECT_EQ(1, reads_file(me, at[i], file, sizeof(file)))
			TH_LOG("copy %d keeps a breakpoint", i);
	}
	EXPECT_EQ(1, reads_file(me, (unsigned long)q + (sym.offset - off),
				file, sizeof(file)));
}

#if defined(__x86_64__)
/* The same, with "if pid==@pid" when @pid is not 0. */
static void self_probe(struct __test_metadata *_metadata, const char *ev,
		       const char *sym, pid_t pid)
{
	char filter[32] = "";

	if (pid)
		snprintf(filter, sizeof(filter), "pid==%d", pid);
	self_probe_if(_metadata, ev, sym, filter);
}

/*
 * Code written over a probed instruction, in a child of the test: a hot
 * patcher writes @patch (@len bytes) through /proc/self/mem at @site
 * (probed by @ev, first hit before, so that a nop5 is a jump to its stub
 * then). Its code must be exactly what runs and what the process sees:
 * @fn() returns @want. Exit status: 0, or what went wrong.
 */
enum { PATCH_OK, PATCH_SETUP, PATCH_WRITE, PATCH_BYTES, PATCH_RESULT };

static int patch_child(char *site, const unsigned char *patch, int len,
		       long (*fn)(void), long want)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid) {
		fn();
		if (upng_mem_write(getpid(), (unsigned long)site, patch, len))
			_exit(PATCH_WRITE);
		if (memcmp(site, patch, len))
			_exit(PATCH_BYTES);
		_exit(fn() == want && fn() == want ? PATCH_OK : PATCH_RESULT);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return status;
}

static long nop5_7(void)
{
	return site_nop5(7);
}

/*
 * A hot patcher's "jmp rel32" over a probed nop5 that became a jump to
 * its stub: the patcher's jump runs, not a mix of its bytes and ours.
 */
TEST(patch_over_stub_jump)
{
	static const unsigned char jmp0[] = { 0xe9, 0, 0, 0, 0 };
	char ev[64];
	int err;

	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	upng_evname(ev, sizeof(ev), "patchj");
	self_probe(_metadata, ev, "site_nop5_probe", 0);
	EXPECT_EQ(PATCH_OK, patch_child(site_nop5_probe, jmp0, sizeof(jmp0),
					nop5_7, 22));
	EXPECT_EQ(0, upng_probe_del(ev));
	upng_hide_breakpoints(false);
}

/*
 * New code over an int3-probed instruction, its first byte the same as
 * the original's ("mov $0x5678, %eax" over "mov $0x1234, %eax"): the new
 * instruction runs, not the probe's copy of the old one.
 */
TEST(patch_over_int3)
{
	static const unsigned char mov[] = { 0xb8, 0x78, 0x56, 0, 0 };
	char ev[64];
	int err;

	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	upng_evname(ev, sizeof(ev), "patchi");
	self_probe(_metadata, ev, "site_movimm_probe", 0);
	EXPECT_EQ(PATCH_OK, patch_child(site_movimm_probe, mov, sizeof(mov),
					site_movimm, 0x5678));
	EXPECT_EQ(0, upng_probe_del(ev));
	upng_hide_breakpoints(false);
}

/*
 * A process that a probe's filter leaves out writes its own int3 where
 * the probe is: readers see the program's int3, which is not ours, and
 * removing the probe leaves it.
 */
TEST(own_int3_not_hidden)
{
	int to_child[2], from_child[2], status, err;
	unsigned char b = 0;
	char ev[64], c;
	pid_t pid;

	err = upng_hide_breakpoints(true);
	if (err == -ENOENT)
		SKIP(return, "no debugfs uprobes/hide_breakpoints: not our engine");
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned long page = (unsigned long)site_movimm_probe & ~(PAGE - 1);

		if (read(to_child[0], &c, 1) != 1 ||
		    mprotect((void *)page, PAGE, PROT_READ | PROT_WRITE |
			     PROT_EXEC))
			_exit(1);
		site_movimm_probe[0] = (char)0xcc;
		if (write(from_child[1], "w", 1) != 1)
			_exit(2);
		read(to_child[0], &c, 1);
		_exit(0);
	}
	/* Only this process is probed, the child has the file's code. */
	upng_evname(ev, sizeof(ev), "ownint3");
	self_probe(_metadata, ev, "site_movimm_probe", getpid());
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(1, read(from_child[0], &c, 1));
	EXPECT_EQ(0, upng_mem_read(pid, (unsigned long)site_movimm_probe, &b, 1));
	EXPECT_EQ(0xcc, b) TH_LOG("the program's own int3 is hidden");
	/* Removing the probe leaves the program's int3 alone. */
	EXPECT_EQ(0, upng_probe_del(ev));
	EXPECT_EQ(0, upng_wait_unstranded(20000));
	EXPECT_EQ(0xcc, upng_shown_byte(pid, (unsigned long)site_movimm_probe))
		TH_LOG("the program's own int3 was taken out");
	ASSERT_EQ(1, write(to_child[1], "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	upng_hide_breakpoints(false);
}
#endif

TEST_HARNESS_MAIN
