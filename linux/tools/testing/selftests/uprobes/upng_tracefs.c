// SPDX-License-Identifier: GPL-2.0
/*
 * Probe control through tracefs: uprobe_events, per-event enable files,
 * uprobe_profile hit counts and the trace buffer; and through perf: the
 * counting events of the uprobe PMU.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "upng.h"

static int tracefs_write(const char *rel, const char *s, int flags)
{
	char path[256];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), UPNG_TRACEFS "/%s", rel);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(s))
		err = -EIO;
	close(fd);
	return err;
}

int upng_hide_breakpoints(bool on)
{
	int fd = open("/sys/kernel/debug/uprobes/hide_breakpoints", O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "Y" : "N", 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

int upng_shown_byte(pid_t pid, unsigned long addr)
{
	unsigned char b;
	int err = upng_hide_breakpoints(false);

	if (!err)
		err = upng_mem_read(pid, addr, &b, 1);
	if (upng_hide_breakpoints(true) && !err)
		err = -EIO;
	return err ? err : b;
}

/* Test programs see breakpoints (see upng.h); targets do not link this. */
static void __attribute__((constructor)) upng_show_breakpoints(void)
{
	upng_hide_breakpoints(false);
}

int upng_tracefs_read(const char *rel, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), UPNG_TRACEFS "/%s", rel);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			close(fd);
			return -errno;
		}
		if (!n)
			break;
		got += n;
	}
	buf[got] = '\0';
	close(fd);
	return 0;
}

static int event_add(char kind, const char *ev, const char *path,
		     unsigned long off, unsigned long sem_off, const char *args)
{
	char cmd[1024], sem[32] = "";

	if (sem_off)
		snprintf(sem, sizeof(sem), "(0x%lx)", sem_off);
	snprintf(cmd, sizeof(cmd), "%c:uprobes/%s %s:0x%lx%s%s%s\n", kind, ev,
		 path, off, sem, args ? " " : "", args ? args : "");
	return tracefs_write("uprobe_events", cmd, O_APPEND);
}

int upng_probe_add(const char *ev, const char *path, unsigned long off,
		   const char *args)
{
	return event_add('p', ev, path, off, 0, args);
}

int upng_retprobe_add(const char *ev, const char *path, unsigned long off,
		      const char *args)
{
	return event_add('r', ev, path, off, 0, args);
}

int upng_probe_add_sem(const char *ev, const char *path, unsigned long off,
		       unsigned long sem_off, const char *args)
{
	return event_add('p', ev, path, off, sem_off, args);
}

int upng_retprobe_add_sem(const char *ev, const char *path, unsigned long off,
			  unsigned long sem_off, const char *args)
{
	return event_add('r', ev, path, off, sem_off, args);
}

int upng_probe_enable(const char *ev, bool on)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "events/uprobes/%s/enable", ev);
	return tracefs_write(rel, on ? "1\n" : "0\n", O_TRUNC);
}

int upng_probe_enabled(const char *ev)
{
	char rel[256], buf[16];
	int err;

	snprintf(rel, sizeof(rel), "events/uprobes/%s/enable", ev);
	err = upng_tracefs_read(rel, buf, sizeof(buf));
	if (err)
		return err;
	return buf[0] == '1';
}

int upng_probe_del(const char *ev)
{
	char cmd[256];

	upng_probe_enable(ev, false);
	snprintf(cmd, sizeof(cmd), "-:uprobes/%s\n", ev);
	return tracefs_write("uprobe_events", cmd, O_APPEND);
}

long upng_probe_hits(const char *ev)
{
	char file[512], name[256], line[1024];
	unsigned long hits;
	long ret = -1;
	FILE *f;

	f = fopen(UPNG_TRACEFS "/uprobe_profile", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%511s %255s %lu", file, name, &hits) != 3)
			continue;
		if (!strcmp(name, ev)) {
			ret = hits;
			break;
		}
	}
	fclose(f);
	return ret;
}

int upng_trace_reset(void)
{
	int err;

	err = tracefs_write("tracing_on", "1\n", O_TRUNC);
	if (err)
		return err;
	return tracefs_write("trace", "", O_TRUNC);
}

char *upng_trace_read(void)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(UPNG_TRACEFS "/trace", O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf)
				break;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Start of the event's payload in LINE ("EV: (0x...)"), or NULL. */
static const char *event_in_line(const char *line, const char *end,
				 const char *ev)
{
	size_t evlen = strlen(ev);
	const char *p = line;

	if (*line == '#')
		return NULL;
	while ((p = memmem(p, end - p, ev, evlen))) {
		if (p > line && p[-1] == ' ' && p + evlen + 1 < end &&
		    p[evlen] == ':' && p[evlen + 1] == ' ')
			return p + evlen + 2;
		p += evlen;
	}
	return NULL;
}

long upng_trace_count(const char *trace, const char *ev)
{
	const char *line = trace, *end;
	long count = 0;

	while (*line) {
		end = strchrnul(line, '\n');
		if (event_in_line(line, end, ev))
			count++;
		line = *end ? end + 1 : end;
	}
	return count;
}

long upng_trace_values(const char *trace, const char *ev, const char *arg,
		       unsigned long long *vals, long max)
{
	const char *line = trace, *end, *p;
	size_t arglen = strlen(arg);
	long count = 0;

	while (*line) {
		end = strchrnul(line, '\n');
		p = event_in_line(line, end, ev);
		if (p) {
			p = memmem(p, end - p, arg, arglen);
			if (p && p[-1] == ' ') {
				if (count < max)
					vals[count] = strtoull(p + arglen,
							       NULL, 0);
				count++;
			}
		}
		line = *end ? end + 1 : end;
	}
	return count;
}

int upng_uprobe_pmu_type(void)
{
	char buf[32];
	int err;

	err = upng_read_str("/sys/bus/event_source/devices/uprobe/type", buf,
			    sizeof(buf));
	return err ? err : atoi(buf);
}

int upng_perf_uprobe_open(const char *path, unsigned long off,
			  unsigned long sem_off, pid_t pid)
{
	struct perf_event_attr attr;
	int type = upng_uprobe_pmu_type();
	long fd;

	if (type < 0)
		return type;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	/* format/: retprobe is config:0, ref_ctr_offset config:32-63 */
	attr.config = (unsigned long long)sem_off << 32;
	attr.config1 = (unsigned long)path;	/* uprobe_path */
	attr.config2 = off;			/* probe_offset */
	fd = syscall(__NR_perf_event_open, &attr, pid, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

long long upng_perf_count(int fd)
{
	long long v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}
