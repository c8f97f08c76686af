// SPDX-License-Identifier: GPL-2.0
/*
 * The probed file is never modified: its bytes (read through the page
 * cache) and its hash stay the same while a probe is registered and after.
 * In each process the breakpoint is visible through /proc/PID/mem while
 * the probe is active, and after it goes the whole page reads back as the
 * file's page again, in the process, in a forked child and in others.
 * A second event on the same address shares the breakpoint, and every
 * executable mapping of the file gets it, made before or after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "upng.h"

#define PAGE 4096UL
#define RECV_MS 30000

__attribute__((noipa)) long restore_func(long x)
{
	asm volatile("" : "+r" (x) : : "memory");
	return x * 11 + 4;
}

/* Check that the page of ADDR in PID equals the file's page (same offset). */
static void check_page(struct __test_metadata *_metadata, pid_t pid,
		       unsigned long addr, const char *path, unsigned long off)
{
	unsigned char mem[PAGE], file[PAGE];
	unsigned long page = addr & ~(PAGE - 1);
	unsigned long foff = off - (addr - page);
	unsigned long i;

	ASSERT_EQ(0, upng_mem_read(pid, page, mem, PAGE));
	ASSERT_EQ(0, upng_file_read(path, foff, file, PAGE));
	for (i = 0; i < PAGE; i++) {
		ASSERT_EQ(file[i], mem[i])
			TH_LOG("pid %d byte %#lx", pid, page + i);
	}
}

/* The breakpoint is in PID's memory at ADDR, the rest of the insn intact. */
static void check_armed(struct __test_metadata *_metadata, pid_t pid,
			unsigned long addr, const unsigned char *orig)
{
	unsigned char mem[16];

	ASSERT_EQ(0, upng_mem_read(pid, addr, mem, sizeof(mem)));
	ASSERT_TRUE(upng_is_bkpt(mem)) TH_LOG("pid %d orig %#x", pid, orig[0]);
	ASSERT_EQ(0, memcmp(mem + UPNG_BKPT_SIZE, orig + UPNG_BKPT_SIZE,
			    sizeof(mem) - UPNG_BKPT_SIZE));
}

FIXTURE(restore) {
	char ev[64], ev2[64];
	struct upng_sym sym;
	const char *path;
	unsigned char orig[16];
	uint64_t hash;
};

FIXTURE_SETUP(restore)
{
	unsigned char mem[16];

	upng_die_with_parent();
	upng_evname(self->ev, sizeof(self->ev), "restore");
	upng_evname(self->ev2, sizeof(self->ev2), "restore");
	self->path = upng_self_path();
	ASSERT_EQ(0, upng_elf_sym(self->path, "restore_func", &self->sym));
	ASSERT_EQ((unsigned long)restore_func, self->sym.value);
	ASSERT_EQ(0, upng_file_read(self->path, self->sym.offset, self->orig,
				    sizeof(self->orig)));
	ASSERT_EQ(0, upng_mem_read(getpid(), self->sym.value, mem, sizeof(mem)));
	ASSERT_EQ(0, memcmp(mem, self->orig, sizeof(mem)));
	ASSERT_FALSE(upng_is_bkpt(self->orig));
	self->hash = upng_file_hash(self->path);
	ASSERT_NE((uint64_t)0, self->hash);
	ASSERT_EQ(0, upng_trace_reset());
	ASSERT_EQ(0, upng_probe_add(self->ev, self->path, self->sym.offset, NULL));
}

FIXTURE_TEARDOWN(restore)
{
	upng_probe_del(self->ev);
	upng_probe_del(self->ev2);
}

/* The file still has ORIG at OFF and the hash HASH. */
static void check_file(struct __test_metadata *_metadata, const char *path,
		       unsigned long off, const unsigned char *orig,
		       uint64_t hash)
{
	unsigned char file[16];

	ASSERT_EQ(0, upng_file_read(path, off, file, sizeof(file)));
	ASSERT_EQ(0, memcmp(file, orig, sizeof(file)));
	ASSERT_EQ(hash, upng_file_hash(path));
}

TEST_F_TIMEOUT(restore, self_and_file, 120)
{
	unsigned long addr = self->sym.value;
	long i, sum = 0;

	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	check_armed(_metadata, getpid(), addr, self->orig);
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
	for (i = 0; i < 3; i++)
		sum += restore_func(i);
	ASSERT_EQ(11 * 3 + 12, sum);
	ASSERT_EQ(3, upng_probe_hits(self->ev));
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);

	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	check_page(_metadata, getpid(), addr, self->path, self->sym.offset);
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
	ASSERT_EQ(15, restore_func(1));
	ASSERT_EQ(3, upng_probe_hits(self->ev));

	/* Again, so a second registration starts from a clean state. */
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	check_armed(_metadata, getpid(), addr, self->orig);
	ASSERT_EQ(26, restore_func(2));
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	ASSERT_EQ(4, upng_probe_hits(self->ev));
	check_page(_metadata, getpid(), addr, self->path, self->sym.offset);
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
}

TEST_F_TIMEOUT(restore, forked_child, 120)
{
	unsigned long addr = self->sym.value;
	int go[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		/* Called only after the probe went: no hit expected. */
		_exit(restore_func(5) == 59 && restore_func(6) == 70 ? 0 : 1);
	}
	close(go[0]);
	/* The child inherited the breakpoint. */
	check_armed(_metadata, pid, addr, self->orig);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	check_page(_metadata, pid, addr, self->path, self->sym.offset);
	check_page(_metadata, getpid(), addr, self->path, self->sym.offset);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, upng_probe_hits(self->ev));
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
}

TEST_F_TIMEOUT(restore, other_processes, 120)
{
	const char *bin = upng_path("bin/target");
	unsigned long addr[2], mainaddr;
	struct upng_child c[2];
	unsigned char orig[16];
	struct upng_sym fs;
	char line[128];
	uint64_t hash;
	int i, n;

	ASSERT_EQ(0, upng_elf_sym(bin, "target_func", &fs));
	ASSERT_EQ(0, upng_file_read(bin, fs.offset, orig, sizeof(orig)));
	hash = upng_file_hash(bin);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_spawn(&c[i], bin, NULL, NULL));
		ASSERT_LT(0, upng_recv(&c[i], line, sizeof(line), RECV_MS));
		n = sscanf(line, "ready %lx %lx", &mainaddr, &addr[i]);
		ASSERT_EQ(2, n);
	}
	ASSERT_EQ(0, upng_probe_add(self->ev2, bin, fs.offset, NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev2, true));
	for (i = 0; i < 2; i++)
		check_armed(_metadata, c[i].pid, addr[i], orig);
	ASSERT_EQ(hash, upng_file_hash(bin));
	ASSERT_EQ(0, upng_send(&c[0], "call 3"));
	ASSERT_LT(0, upng_recv(&c[0], line, sizeof(line), RECV_MS));
	ASSERT_STREQ("sum 30", line);
	ASSERT_EQ(0, upng_probe_enable(self->ev2, false));
	for (i = 0; i < 2; i++)
		check_page(_metadata, c[i].pid, addr[i], bin, fs.offset);
	ASSERT_EQ(hash, upng_file_hash(bin));
	ASSERT_EQ(0, upng_send(&c[1], "call 3"));
	ASSERT_LT(0, upng_recv(&c[1], line, sizeof(line), RECV_MS));
	ASSERT_STREQ("sum 30", line);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, upng_send(&c[i], "quit"));
		ASSERT_EQ(0, upng_finish(&c[i], RECV_MS));
	}
	ASSERT_EQ(3, upng_probe_hits(self->ev2));
}

TEST_F_TIMEOUT(restore, two_events_one_address, 120)
{
	unsigned long addr = self->sym.value;

	ASSERT_EQ(0, upng_probe_add(self->ev2, self->path, self->sym.offset,
				    NULL));
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(0, upng_probe_enable(self->ev2, true));
	check_armed(_metadata, getpid(), addr, self->orig);
	ASSERT_EQ(15, restore_func(1));
	/* The first leaves: the breakpoint stays for the second. */
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	check_armed(_metadata, getpid(), addr, self->orig);
	ASSERT_EQ(26, restore_func(2));
	ASSERT_EQ(0, upng_probe_enable(self->ev2, false));
	check_page(_metadata, getpid(), addr, self->path, self->sym.offset);
	ASSERT_EQ(37, restore_func(3));
	ASSERT_EQ(1, upng_probe_hits(self->ev));
	ASSERT_EQ(2, upng_probe_hits(self->ev2));
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
}

/* Map the file's page holding OFF executable; the address of OFF in it. */
static unsigned long map_exec(const char *path, unsigned long off)
{
	void *p;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd,
		 off & ~(PAGE - 1));
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	return (unsigned long)p + (off & (PAGE - 1));
}

TEST_F_TIMEOUT(restore, extra_mappings, 120)
{
	unsigned long m1, m2;

	m1 = map_exec(self->path, self->sym.offset);
	ASSERT_NE(0UL, m1);
	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	check_armed(_metadata, getpid(), self->sym.value, self->orig);
	check_armed(_metadata, getpid(), m1, self->orig);
	/* Mapped while the probe is registered. */
	m2 = map_exec(self->path, self->sym.offset);
	ASSERT_NE(0UL, m2);
	check_armed(_metadata, getpid(), m2, self->orig);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	check_page(_metadata, getpid(), self->sym.value, self->path,
		   self->sym.offset);
	check_page(_metadata, getpid(), m1, self->path, self->sym.offset);
	check_page(_metadata, getpid(), m2, self->path, self->sym.offset);
	ASSERT_EQ(0, munmap((void *)(m1 & ~(PAGE - 1)), PAGE));
	ASSERT_EQ(0, munmap((void *)(m2 & ~(PAGE - 1)), PAGE));
	check_file(_metadata, self->path, self->sym.offset, self->orig,
		   self->hash);
}

/*
 * The process drops its copy of the probed page (MADV_DONTNEED): the
 * file's page comes back when the code runs again, and the probe's
 * breakpoint with it: a registered probe does not stop firing.
 */
TEST_F_TIMEOUT(restore, dropped_page, 120)
{
	unsigned long page = self->sym.value & ~(PAGE - 1);

	ASSERT_EQ(0, upng_probe_enable(self->ev, true));
	ASSERT_EQ(15, restore_func(1));
	ASSERT_EQ(0, madvise((void *)page, PAGE, MADV_DONTNEED));
	ASSERT_EQ(26, restore_func(2));
	ASSERT_EQ(37, restore_func(3));
	EXPECT_EQ(3, upng_probe_hits(self->ev));
	check_armed(_metadata, getpid(), self->sym.value, self->orig);
	ASSERT_EQ(0, upng_probe_enable(self->ev, false));
	check_page(_metadata, getpid(), self->sym.value, self->path,
		   self->sym.offset);
}

/*
 * A probed page that the file no longer has (truncated while mapped):
 * the process has no page there, so no breakpoint either; removing the
 * probe is then done, not a failure left to retry for ever.
 */
TEST(page_beyond_eof)
{
#if defined(__aarch64__)
	static const uint32_t code[] = { 0xd65f03c0 };	/* ret */
#elif defined(__riscv)
	static const uint32_t code[] = { 0x00008067 };	/* ret */
#elif defined(__s390x__)
	static const unsigned char code[] = { 0x07, 0xfe };	/* br %r14 */
#else
	static const unsigned char code[] = { 0xc3 };	/* ret */
#endif
	unsigned char page[PAGE];
	char path[64], ev[64];
	void *map;
	int fd;

	upng_die_with_parent();
	snprintf(path, sizeof(path), "/tmp/restore-eof-%d", getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
	ASSERT_LE(0, fd);
	memset(page, 0, sizeof(page));
	ASSERT_EQ((ssize_t)PAGE, write(fd, page, PAGE));
	memcpy(page, code, sizeof(code));
	ASSERT_EQ((ssize_t)PAGE, write(fd, page, PAGE));
	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	upng_evname(ev, sizeof(ev), "eof");
	ASSERT_EQ(0, upng_probe_add(ev, path, PAGE, NULL));
	ASSERT_EQ(0, upng_probe_enable(ev, true));
	ASSERT_EQ(0, ftruncate(fd, PAGE));
	ASSERT_EQ(0, upng_probe_enable(ev, false));
	EXPECT_EQ(0, upng_wait_unstranded(3000))
		TH_LOG("the probe's removal is retried for a page that is gone");
	EXPECT_EQ(0, upng_probe_del(ev));
	munmap(map, 2 * PAGE);
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
