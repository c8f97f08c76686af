// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events test helpers: reading and writing tracefs files, and
 * parsing the trace and the error log.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uev_lib.h"

static int write_flags(const char *file, const char *text, int flags)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", UEV_TRACEFS, file);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -errno;
	if (len) {
		n = write(fd, text, len);
		if (n < 0)
			err = -errno;
		else if ((size_t)n != len)
			err = -EIO;
	}
	close(fd);
	return err;
}

/**
 * uev_write() - append text to a tracefs file with a single write()
 * @file: path relative to the tracefs mount
 * @text: bytes to write
 *
 * Return: 0, or -errno of the open() or write().
 */
int uev_write(const char *file, const char *text)
{
	return write_flags(file, text, O_APPEND);
}

/**
 * uev_writef() - append formatted text to a tracefs file with one write()
 * @file: path relative to the tracefs mount
 * @fmt: printf format
 *
 * Return: 0, or -errno of the open() or write().
 */
int uev_writef(const char *file, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return uev_write(file, buf);
}

/**
 * uev_write_trunc() - open a tracefs file with O_TRUNC and write text
 * @file: path relative to the tracefs mount
 * @text: bytes to write, may be empty (truncate only)
 *
 * Return: 0, or -errno of the open() or write().
 */
int uev_write_trunc(const char *file, const char *text)
{
	return write_flags(file, text, O_TRUNC);
}

/**
 * uev_read() - read a whole tracefs file
 * @file: path relative to the tracefs mount
 * @buf: buffer, always NUL terminated on success
 * @size: size of @buf
 *
 * Return: number of bytes read, or -errno.
 */
ssize_t uev_read(const char *file, char *buf, size_t size)
{
	char path[PATH_MAX];
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", UEV_TRACEFS, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

/**
 * uev_reset() - disable all events, delete all uprobe events, clear the
 * trace buffer and the error log
 *
 * Return: 0, or -errno of the first step that failed.
 */
int uev_reset(void)
{
	int err;

	err = uev_write("events/enable", "0");
	if (err)
		return err;
	err = uev_write_trunc("uprobe_events", "");
	if (err)
		return err;
	err = uev_write("tracing_on", "1");
	if (err)
		return err;
	err = uev_write_trunc("trace", "");
	if (err)
		return err;
	return uev_write_trunc("error_log", "");
}

/**
 * uev_trace_get() - collect the trace lines of one event
 * @event: event name (without group)
 * @t: filled with the text following "EVENT: " of each line, in order
 *
 * Return: number of lines, or -errno.
 */
int uev_trace_get(const char *event, struct uev_trace *t)
{
	return uev_trace_file_get("trace", event, t);
}

/**
 * uev_trace_file_get() - collect the lines of one event from a trace file
 * @file: the trace file, relative to the tracefs mount
 * @event: event name (without group)
 * @t: filled with the text following "EVENT: " of each line, in order
 *
 * Return: number of lines (all of them, even those beyond UEV_MAX_LINES),
 * or -errno.
 */
int uev_trace_file_get(const char *file, const char *event, struct uev_trace *t)
{
	size_t size = 1 << 20;
	char key[128], *buf, *line, *save, *hit;
	ssize_t n, i;

	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = uev_read(file, buf, size);
	if (n < 0) {
		free(buf);
		return n;
	}
	/* A char argument may print a NUL: keep the line in one piece. */
	for (i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = '.';
	snprintf(key, sizeof(key), " %s: ", event);
	t->nr = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		hit = strstr(line, key);
		if (!hit)
			continue;
		if (t->nr < UEV_MAX_LINES)
			snprintf(t->line[t->nr], UEV_LINE_LEN, "%s",
				 hit + strlen(key));
		t->nr++;
	}
	free(buf);
	return t->nr;
}

/**
 * uev_errlog_last() - parse the last entry of error_log
 * @msg: receives the error text (after "error: ")
 * @msize: size of @msg
 * @cmd: receives the command as logged
 * @csize: size of @cmd
 *
 * Return: the caret position within the command, or -errno
 * (-ENOENT when the log is empty).
 */
int uev_errlog_last(char *msg, size_t msize, char *cmd, size_t csize)
{
	static const char prefix[] = "  Command: ";
	char buf[16384], *lines[3] = { NULL }, *p, *e, *caret;
	ssize_t n;
	int i;

	n = uev_read("error_log", buf, sizeof(buf));
	if (n < 0)
		return n;
	/* Find the last three lines. */
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (i = 2; i >= 0; i--) {
		p = strrchr(buf, '\n');
		lines[i] = p ? p + 1 : buf;
		if (!p) {
			if (i)
				return -ENOENT;
			break;
		}
		*p = '\0';
	}
	e = strstr(lines[0], "error: ");
	if (!e || strncmp(lines[1], prefix, strlen(prefix)))
		return -ENOENT;
	snprintf(msg, msize, "%s", e + strlen("error: "));
	snprintf(cmd, csize, "%s", lines[1] + strlen(prefix));
	caret = strchr(lines[2], '^');
	if (!caret || caret - lines[2] < (long)strlen(prefix))
		return -EINVAL;
	return caret - lines[2] - strlen(prefix);
}

/**
 * uev_has_event() - does events/GROUP/EVENT exist
 * @group: group name
 * @event: event name
 *
 * Return: true when the event directory exists.
 */
bool uev_has_event(const char *group, const char *event)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s/%s", UEV_TRACEFS, group,
		 event);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/**
 * uev_trace_ns() - check the "n=" values an event recorded
 * @t: receives the event's lines
 * @file: the trace file, relative to the tracefs mount
 * @event: event name (without group)
 * @vaddr: the probed address every line must show
 * @ns: the values of the argument n, in order
 * @nr: how many
 *
 * Return: true when @file holds exactly @nr lines "(0xVADDR) n=N" of
 * @event with the values of @ns.
 */
bool uev_trace_ns(struct uev_trace *t, const char *file, const char *event,
		  unsigned long vaddr, const int *ns, int nr)
{
	char want[64];
	int i;

	if (nr > UEV_MAX_LINES || uev_trace_file_get(file, event, t) != nr)
		return false;
	for (i = 0; i < nr; i++) {
		snprintf(want, sizeof(want), "(0x%lx) n=%d", vaddr, ns[i]);
		if (strcmp(want, t->line[i]))
			return false;
	}
	return true;
}

/**
 * uev_profile_hits() - the hit count uprobe_profile shows for an event
 * @path: the probed file, as the event was defined with it
 * @event: event name (without group)
 *
 * Return: the count, or -1 when the event is not listed.
 */
long uev_profile_hits(const char *path, const char *event)
{
	char file[4096], name[128], *buf, *line, *save;
	unsigned long hits;
	long ret = -1;

	buf = malloc(1 << 20);
	if (!buf)
		return -1;
	if (uev_read("uprobe_profile", buf, 1 << 20) < 0)
		goto out;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %4095s %127s %lu", file, name, &hits) != 3)
			continue;
		if (!strcmp(name, event) && !strcmp(file, path)) {
			ret = hits;
			break;
		}
	}
out:
	free(buf);
	return ret;
}
