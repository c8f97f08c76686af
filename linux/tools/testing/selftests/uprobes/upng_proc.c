// SPDX-License-Identifier: GPL-2.0
/*
 * Target processes driven over pipes, helper paths, /proc/PID/mem reads
 * and file hashing for the uprobes engine selftests.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "upng.h"

const char *upng_path(const char *name)
{
	static char buf[8][PATH_MAX];
	static int next;
	const char *dir = getenv("UPROBES_NG_DIR");
	char *p, self[PATH_MAX];
	char *out = buf[next++ % 8];

	if (dir && *dir) {
		snprintf(out, PATH_MAX, "%s/%s", dir, name);
		if (!access(out, F_OK))
			return out;
		fprintf(stderr, "# UPROBES_NG_DIR=%s has no %s, using OUTPUT\n",
			dir, name);
	}
	/* The tests live in OUTPUT/tests, the helpers beside them. */
	snprintf(self, sizeof(self), "%s", upng_self_path());
	p = strrchr(self, '/');
	if (p)
		*p = '\0';
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
