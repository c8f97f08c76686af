// SPDX-License-Identifier: GPL-2.0
/*
 * Probe control through tracefs: uprobe_events, per-event enable files,
 * uprobe_profile hit counts, the trace buffer and error_log; and through
 * perf: the counting events of the uprobe PMU. The uprobe_events suite
 * links this file too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "upng.h"

/* Write S with one write() (none for ""), opened with FLAGS; 0 or -errno. */
static int tracefs_write(const char *rel, const char *s, int flags)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), UPNG_TRACEFS "/%s", rel);
	if (*s)
		return upng_write_file(path, s, flags);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int upng_tracefs_write(const char *rel, const char *s)
{
	return tracefs_write(rel, s, O_APPEND);
}

int upng_tracefs_write_trunc(const char *rel, const char *s)
{
	return tracefs_write(rel, s, O_TRUNC);
}

int upng_tracefs_writef(const char *rel, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tracefs_write(rel, buf, O_APPEND);
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

int upng_hiding_breakpoints(void)
{
	int fd = open("/sys/kernel/debug/uprobes/hide_breakpoints", O_RDONLY);
	char c = 0;
	int ret;

	if (fd < 0)
		return -errno;
	ret = read(fd, &c, 1) == 1 ? c == 'Y' : -EIO;
	close(fd);
	return ret;
}

int upng_shown_read(pid_t pid, unsigned long addr, void *buf, size_t len)
{
	int err = upng_hide_breakpoints(false);

	if (!err)
		err = upng_mem_read(pid, addr, buf, len);
	if (upng_hide_breakpoints(true) && !err)
		err = -EIO;
	return err;
}

int upng_shown_byte(pid_t pid, unsigned long addr)
{
	unsigned char b;
	int err = upng_shown_read(pid, addr, &b, 1);

	return err ? err : b;
}

int upng_shown_bkpt(pid_t pid, unsigned long addr)
{
	unsigned char b[UPNG_BKPT_SIZE];
	int err = upng_shown_read(pid, addr, b, sizeof(b));

	return err ? err : upng_is_bkpt(b);
}

ssize_t upng_tracefs_read_len(const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), UPNG_TRACEFS "/%s", rel);
	return upng_read_file(path, buf, len);
}

int upng_tracefs_read(const char *rel, char *buf, size_t len)
{
	ssize_t n = upng_tracefs_read_len(rel, buf, len);

	return n < 0 ? n : 0;
}

/*
 * The whole tracefs file REL, malloc()ed and NUL terminated, its length
 * into *LENP (if not NULL); NULL with errno set on failure. A read error
 * or a failed realloc() fails it when STRICT, else ends the file there.
 */
static char *read_whole(const char *rel, size_t *lenp, bool strict)
{
	size_t cap = 1 << 20, len = 0;
	char path[PATH_MAX], *buf, *nbuf;
	int fd, err = 0;
	ssize_t n;

	snprintf(path, sizeof(path), UPNG_TRACEFS "/%s", rel);
	buf = malloc(cap);
	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		err = errno;
		free(buf);
		errno = err;
		return NULL;
	}
	for (;;) {
		if (cap - len < 65536) {
			nbuf = realloc(buf, 2 * cap);
			if (!nbuf) {
				err = ENOMEM;
				break;
			}
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0) {
			err = n ? errno : 0;
			break;
		}
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (err && strict) {
		free(buf);
		errno = err;
		return NULL;
	}
	if (lenp)
		*lenp = len;
	return buf;
}

int upng_tracefs_reset(void)
{
	return upng_tracefs_write("events/enable", "0") ?:
	       upng_tracefs_write_trunc("uprobe_events", "") ?:
	       upng_trace_reset() ?:
	       upng_tracefs_write_trunc("error_log", "");
}

bool upng_event_exists(const char *group, const char *ev)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), UPNG_TRACEFS "/events/%s/%s", group, ev);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int upng_errlog_last(char *msg, size_t msize, char *cmd, size_t csize)
{
	static const char prefix[] = "  Command: ";
	char *buf, *lines[3] = { NULL }, *p, *e, *caret;
	int i, ret = -ENOENT;
	size_t n;

	buf = read_whole("error_log", &n, true);
	if (!buf)
		return -errno;
	/* Its last three lines: the error, the command and the caret. */
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (i = 2; i >= 0; i--) {
		p = strrchr(buf, '\n');
		lines[i] = p ? p + 1 : buf;
		if (!p) {
			if (i)
				goto out;
			break;
		}
		*p = '\0';
	}
	e = strstr(lines[0], "error: ");
	if (!e || strncmp(lines[1], prefix, strlen(prefix)))
		goto out;
	snprintf(msg, msize, "%s", e + strlen("error: "));
	snprintf(cmd, csize, "%s", lines[1] + strlen(prefix));
	caret = strchr(lines[2], '^');
	ret = -EINVAL;
	if (caret && caret - lines[2] >= (long)strlen(prefix))
		ret = caret - lines[2] - strlen(prefix);
out:
	free(buf);
	return ret;
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

long upng_probe_hits_at(const char *path, const char *ev)
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
		if (!strcmp(name, ev) && (!path || !strcmp(file, path))) {
			ret = hits;
			break;
		}
	}
	fclose(f);
	return ret;
}

long upng_probe_hits(const char *ev)
{
	return upng_probe_hits_at(NULL, ev);
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
	return read_whole("trace", NULL, false);
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

int upng_trace_get(const char *rel, const char *ev, struct upng_trace *t)
{
	const char *line, *end, *p;
	size_t len, i;
	char *buf;

	t->nr = 0;
	buf = read_whole(rel, &len, true);
	if (!buf)
		return -errno;
	/* A char argument may print a NUL: keep the line in one piece. */
	for (i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = '.';
	for (line = buf; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		p = event_in_line(line, end, ev);
		if (!p)
			continue;
		if (t->nr < UPNG_TRACE_LINES)
			snprintf(t->line[t->nr], sizeof(t->line[0]), "%.*s",
				 (int)(end - p), p);
		t->nr++;
	}
	free(buf);
	return t->nr;
}

bool upng_trace_ns(struct upng_trace *t, const char *rel, const char *ev,
		   unsigned long addr, const int *ns, int nr)
{
	char want[64];
	int i;

	if (nr > UPNG_TRACE_LINES || upng_trace_get(rel, ev, t) != nr)
		return false;
	for (i = 0; i < nr; i++) {
		snprintf(want, sizeof(want), "(0x%lx) n=%d", addr, ns[i]);
		if (strcmp(want, t->line[i]))
			return false;
	}
	return true;
}

int upng_uprobe_pmu_type(void)
{
	char buf[32];
	int err;

	err = upng_read_str("/sys/bus/event_source/devices/uprobe/type", buf,
			    sizeof(buf));
	return err ? err : atoi(buf);
}

int upng_perf_uprobe_open_attr(struct perf_event_attr *attr, const char *path,
			       unsigned long off, pid_t pid)
{
	int type = upng_uprobe_pmu_type();
	long fd;

	if (type < 0)
		return type;
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config1 = (unsigned long)path;	/* uprobe_path */
	attr->config2 = off;			/* probe_offset */
	fd = syscall(__NR_perf_event_open, attr, pid, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int upng_perf_uprobe_open(const char *path, unsigned long off,
			  unsigned long sem_off, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	/* format/: retprobe is config:0, ref_ctr_offset config:32-63 */
	attr.config = (unsigned long long)sem_off << 32;
	return upng_perf_uprobe_open_attr(&attr, path, off, pid);
}

long long upng_perf_count(int fd)
{
	long long v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}
