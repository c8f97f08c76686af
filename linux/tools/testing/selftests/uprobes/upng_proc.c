// SPDX-License-Identifier: GPL-2.0
/*
 * Target processes driven over pipes, helper paths, /proc/PID/mem reads,
 * file hashing and the kernel log for the uprobes engine selftests (and
 * the uprobe_events selftests).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "upng.h"

const char *upng_path(const char *name)
{
	static char buf[8][PATH_MAX];
	static int next;
	char *p, self[PATH_MAX];
	char *out = buf[next++ % 8];

	/* The helpers are next to the test programs (kselftest layout). */
	snprintf(self, sizeof(self), "%s", upng_self_path());
	p = strrchr(self, '/');
	if (p)
		*p = '\0';
	snprintf(out, PATH_MAX, "%.3000s/%.200s", self, name);
	return out;
}

void upng_die_with_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

pid_t upng_fork_piped(void (*main)(void *arg, int cmd, int reply), void *arg,
		      int *cmd, int *reply)
{
	int c[2], r[2];
	pid_t pid;

	if (pipe(c))
		return -errno;
	if (pipe(r)) {
		pid = -errno;
		goto close_c;
	}
	pid = fork();
	if (!pid) {
		close(c[1]);
		close(r[0]);
		main(arg, c[0], r[1]);
		_exit(1);
	}
	if (pid < 0) {
		pid = -errno;
		close(r[0]);
		close(r[1]);
		goto close_c;
	}
	close(c[0]);
	close(r[1]);
	*cmd = c[1];
	*reply = r[0];
	return pid;
close_c:
	close(c[0]);
	close(c[1]);
	return pid;
}

pid_t upng_fork_traced(int *status)
{
	pid_t pid = fork();

	*status = -1;
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		raise(SIGSTOP);
		return 0;
	}
	if (pid < 0)
		return -1;
	if (waitpid(pid, status, 0) == pid) {
		if (!WIFSTOPPED(*status))
			return -1;	/* It ended, reaped. */
		if (WSTOPSIG(*status) == SIGSTOP)
			return pid;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

const char *upng_self_path(void)
{
	static char path[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n < 0)
		n = 0;
	path[n] = '\0';
	return path;
}

int upng_spawn(struct upng_child *c, const char *path, const char *arg1,
	       const char *arg2)
{
	return upng_spawn_hook(c, path, arg1, arg2, NULL);
}

int upng_spawn_hook(struct upng_child *c, const char *path, const char *arg1,
		    const char *arg2, void (*before_exec)(void))
{
	int to[2], from[2];
	pid_t pid;

	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		return -errno;
	}
	if (!pid) {
		upng_die_with_parent();
		dup2(to[0], 0);
		dup2(from[1], 1);
		if (before_exec)
			before_exec();
		execl(path, path, arg1, arg2, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->pid = pid;
	c->in = to[1];
	c->out = from[0];
	return 0;
}

int upng_send(struct upng_child *c, const char *cmd)
{
	char line[512];
	int len;

	len = snprintf(line, sizeof(line), "%s\n", cmd);
	if (write(c->in, line, len) != len)
		return -EPIPE;
	return 0;
}

int upng_recv(struct upng_child *c, char *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->out, .events = POLLIN };
	size_t got = 0;
	char ch;

	while (got + 1 < len) {
		int r = poll(&pfd, 1, timeout_ms);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -ETIMEDOUT;
		r = read(c->out, &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EPIPE;
		if (ch == '\n')
			break;
		buf[got++] = ch;
	}
	buf[got] = '\0';
	return got;
}

int upng_finish(struct upng_child *c, int timeout_ms)
{
	int status, waited = 0;
	pid_t r;

	if (c->pid <= 0)
		return -ECHILD;
	close(c->in);
	close(c->out);
	for (;;) {
		r = waitpid(c->pid, &status, WNOHANG);
		if (r == c->pid)
			break;
		if (r < 0)
			return -errno;
		if (waited >= timeout_ms) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &status, 0);
			c->pid = 0;
			return -ETIMEDOUT;
		}
		usleep(10000);
		waited += 10;
	}
	c->pid = 0;
	return status;
}

int upng_ptrace_attach(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return -1;
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status))
		return -1;
	return 0;
}

int upng_mem_read(pid_t pid, unsigned long addr, void *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, addr);
	close(fd);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int upng_file_read(const char *path, unsigned long off, void *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, off);
	close(fd);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

uint64_t upng_file_hash(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned char buf[65536];
	ssize_t n, i;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			h ^= buf[i];
			h *= 0x100000001b3ULL;
		}
	}
	close(fd);
	return h;
}

const char *upng_evname(char *buf, size_t len, const char *tag)
{
	static int counter;

	snprintf(buf, len, "upng_%s_%d_%d", tag, getpid(), counter++);
	return buf;
}

int upng_write_str(const char *path, const char *s)
{
	return upng_write_file(path, s, 0);
}

int upng_write_file(const char *path, const char *s, int flags)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

ssize_t upng_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

int upng_read_str(const char *path, char *buf, size_t len)
{
	ssize_t got = upng_read_file(path, buf, len);

	if (got < 0)
		return got;
	while (got && buf[got - 1] == '\n')
		got--;
	buf[got] = '\0';
	return 0;
}

/* A core kernel text symbol of /proc/kallsyms. */
struct ksym {
	unsigned long addr;
	char name[64];
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Is SYM (or a compiler clone of it, "NAME.isra.0") NAME? */
static bool ksym_is(const char *sym, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(sym, name, len) && (!sym[len] || sym[len] == '.');
}

static bool ksym_prefixed(const char *sym, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (!strncmp(sym, *prefixes, strlen(*prefixes)))
			return true;
	return false;
}

/*
 * The core kernel's text symbols, by address, in *SYMS (to free): their
 * number, -EPERM when kallsyms hides addresses, or -errno.
 */
static ssize_t ksyms_read(struct ksym **syms)
{
	size_t n = 0, cap = 0;
	struct ksym *v = NULL;
	char line[512], sym[256], type;
	unsigned long addr;
	bool nz = false;
	size_t len;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* Core kernel text only: module symbols end in "[mod]". */
		if (sscanf(line, "%lx %c %255s", &addr, &type, sym) != 3 ||
		    strchr(line, '[') || !strchr("tTwW", type))
			continue;
		if (n == cap) {
			struct ksym *m;

			cap = cap ? 2 * cap : 65536;
			m = realloc(v, cap * sizeof(*v));
			if (!m) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = m;
		}
		v[n].addr = addr;
		len = strnlen(sym, sizeof(v[n].name) - 1);
		memcpy(v[n].name, sym, len);
		v[n].name[len] = '\0';
		nz |= addr != 0;
		n++;
	}
	fclose(f);
	if (n && !nz) {
		free(v);
		return -EPERM;
	}
	qsort(v, n, sizeof(*v), ksym_cmp);
	*syms = v;
	return n;
}

/* Non-matching symbols a directory's text may have between two matching. */
#define KSYM_GAP	16

int upng_kallsyms_range(const char *anchor, const char *const *prefixes,
			struct upng_ksym_range *r)
{
	struct ksym *v = NULL;
	ssize_t n, i, at = -1, lo, hi;

	memset(r, 0, sizeof(*r));
	n = ksyms_read(&v);
	if (n < 0)
		return n;
	for (i = 0; i < n && at < 0; i++)
		if (ksym_is(v[i].name, anchor))
			at = i;
	if (at < 0) {
		free(v);
		return -ENOENT;
	}
	for (lo = at, i = at - 1; i >= 0 && lo - i <= KSYM_GAP; i--)
		if (ksym_prefixed(v[i].name, prefixes))
			lo = i;
	for (hi = at, i = at + 1; i < n && i - hi <= KSYM_GAP; i++)
		if (ksym_prefixed(v[i].name, prefixes))
			hi = i;
	for (i = lo; i <= hi; i++) {
		if (ksym_prefixed(v[i].name, prefixes))
			r->found++;
		else
			r->others++;
	}
	r->start = v[lo].addr;
	/* To the next symbol: return addresses in the last one are in. */
	r->end = v[hi].addr + 4096;
	for (i = hi + 1; i < n; i++) {
		if (v[i].addr > v[hi].addr) {
			r->end = v[i].addr;
			break;
		}
	}
	snprintf(r->lo, sizeof(r->lo), "%s", v[lo].name);
	snprintf(r->hi, sizeof(r->hi), "%s", v[hi].name);
	free(v);
	return 0;
}

int upng_kallsyms_has(const char *const *names)
{
	struct ksym *v = NULL;
	ssize_t n, i;
	int j;

	n = ksyms_read(&v);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		for (j = 0; names[j]; j++) {
			if (ksym_is(v[i].name, names[j])) {
				free(v);
				return 1;
			}
		}
	}
	free(v);
	return 0;
}

int upng_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* What scripts/lib.sh (SPLAT_RE) calls a kernel splat in the console log. */
static const char *const kmsg_splat_words[] = {
	"Oops", "BUG:", "kernel BUG", "WARNING:", "general protection fault",
	"Kernel panic", "KASAN", "UBSAN", "possible circular locking",
	"possible recursive locking", "inconsistent lock state",
	"suspicious RCU usage", "suspected memory leak", "unreferenced object",
	"soft lockup", "hard LOCKUP", "detected stalls",
	"blocked for more than", "Call Trace:", "invalid opcode:", NULL,
};

long upng_kmsg_scan(int fd, const char *word, long *nword, char *first,
		    size_t len)
{
	char rec[8192], *msg, *end;
	long splats = 0;
	ssize_t n;
	int i;

	if (nword)
		*nword = 0;
	if (first && len)
		first[0] = '\0';
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten records skipped */
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		rec[n] = '\0';
		/* "prio,seq,time,flags;message\n KEY=value\n..." */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		end = strchr(msg, '\n');
		if (end)
			*end = '\0';
		if (word && nword && strstr(msg, word))
			(*nword)++;
		/*
		 * A data race report (KCSAN=1) may be any part of the
		 * kernel's: the host sorts them (scripts/kcsan-results.py).
		 */
		if (!strncmp(msg, "BUG: KCSAN:", 11))
			continue;
		for (i = 0; kmsg_splat_words[i]; i++)
			if (strstr(msg, kmsg_splat_words[i]))
				break;
		if (!kmsg_splat_words[i])
			continue;
		if (!splats++ && first && len)
			snprintf(first, len, "%s", msg);
	}
	return splats;
}

long upng_kmsg_count(const char *word)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	long n, nword;

	if (fd < 0)
		return -errno;
	n = upng_kmsg_scan(fd, word, &nword, NULL, 0);
	close(fd);
	return n < 0 ? n : nword;
}

int upng_page_file(const char *path, const void *page)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);

	if (fd < 0)
		return -errno;
	if (write(fd, page, 4096) != 4096) {
		close(fd);
		return -EIO;
	}
	return fd;
}

int upng_caller_file(const char *path)
{
#if defined(__aarch64__)
	static const uint32_t code[] = {
		0xa9bf7bfd, 0x910003fd, 0xd63f0000, 0xa8c17bfd, 0xd65f03c0,
	};
#elif defined(__riscv)
	/* addi sp, sp, -16; sd ra, 8(sp); jalr a0; ld ra, 8(sp); addi sp, sp, 16; ret */
	static const uint32_t code[] = {
		0xff010113, 0x00113423, 0x000500e7, 0x00813083, 0x01010113,
		0x00008067,
	};
#elif defined(__s390x__)
	/* stmg %r14,%r15,112(%r15); aghi %r15,-160; lgr %r1,%r2;
	 * basr %r14,%r1; lmg %r14,%r15,272(%r15); br %r14
	 */
	static const unsigned char code[] = {
		0xeb, 0xef, 0xf0, 0x70, 0x00, 0x24, 0xa7, 0xfb, 0xff, 0x60,
		0xb9, 0x04, 0x00, 0x12, 0x0d, 0xe1, 0xeb, 0xef, 0xf1, 0x10,
		0x00, 0x04, 0x07, 0xfe,
	};
#else
	static const unsigned char code[] = {
		0x48, 0x83, 0xec, 0x08, 0xff, 0xd7, 0x48, 0x83, 0xc4, 0x08,
		0xc3,
	};
#endif
	static unsigned char page[4096];

	memcpy(page, code, sizeof(code));
	return upng_page_file(path, page);
}

long long upng_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int upng_mem_write(pid_t pid, unsigned long addr, const void *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pwrite(fd, buf, len, addr);
	close(fd);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int upng_smaps_vma(pid_t pid, unsigned long addr, struct upng_vma *out)
{
	char path[64], line[512], perms[8];
	unsigned long start, end;
	bool in = false;
	long kb;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		/* "start-end perms offset dev inode [path]" opens a mapping */
		if (sscanf(line, "%lx-%lx %7s ", &start, &end, perms) == 3) {
			if (in)
				break;
			in = addr >= start && addr < end;
			if (in) {
				out->start = start;
				out->end = end;
				snprintf(out->perms, sizeof(out->perms), "%s",
					 perms);
			}
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "Size: %ld kB", &kb) == 1)
			out->size_kb = kb;
		else if (sscanf(line, "Rss: %ld kB", &kb) == 1)
			out->rss_kb = kb;
		else if (sscanf(line, "Locked: %ld kB", &kb) == 1)
			out->locked_kb = kb;
		else if (sscanf(line, "Anonymous: %ld kB", &kb) == 1)
			out->anon_kb = kb;
	}
	fclose(f);
	return in ? 0 : -ENOENT;
}

long upng_status_kb(pid_t pid, const char *name)
{
	char path[64], line[256];
	size_t len = strlen(name);
	long kb = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, name, len) && line[len] == ':' &&
		    sscanf(line + len + 1, "%ld", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

int upng_pagemap(pid_t pid, unsigned long addr, uint64_t *entry)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, entry, sizeof(*entry),
		  addr / sysconf(_SC_PAGESIZE) * sizeof(*entry));
	close(fd);
	if (n < 0)
		return -errno;
	return n == sizeof(*entry) ? 0 : -EIO;
}

int upng_wait_unstranded(int timeout_ms)
{
	long long end = upng_now_ms() + timeout_ms;
	char line[512];
	bool stranded;
	FILE *f;

	for (;;) {
		f = fopen("/sys/kernel/debug/uprobes/probes", "r");
		if (!f)
			return -errno;
		stranded = false;
		while (fgets(line, sizeof(line), f))
			stranded |= !!strstr(line, " stranded");
		fclose(f);
		if (!stranded)
			return 0;
		if (upng_now_ms() > end)
			return -ETIMEDOUT;
		usleep(100000);
	}
}

int upng_xol_range(pid_t pid, unsigned long *lo, unsigned long *hi)
{
	char path[64], line[512];
	int err = -ENOENT;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[uprobes]"))
			continue;
		if (sscanf(line, "%lx-%lx", lo, hi) == 2)
			err = 0;
		break;
	}
	fclose(f);
	return err;
}
