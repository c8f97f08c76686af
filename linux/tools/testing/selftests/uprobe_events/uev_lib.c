// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the uprobe_events tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/elf.h>

#include "uev_lib.h"

/**
 * uev_path() - path of a program of the suite
 * @dir: "bin" or "tests"
 * @name: file name
 *
 * The suite lives in $UPROBES_NG_DIR; without it, next to the directory of
 * the running test program.
 *
 * Return: a static buffer, overwritten by the next call.
 */
const char *uev_path(const char *dir, const char *name)
{
	static char path[PATH_MAX];
	char self[PATH_MAX];
	const char *top = getenv("UPROBES_NG_DIR");
	ssize_t n;

	if (top && *top) {
		snprintf(path, sizeof(path), "%s/%s/%s", top, dir, name);
		return path;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		n = 0;
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/../%s/%s", dirname(self), dir, name);
	return path;
}

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

static int elf64_lookup(const unsigned char *img, size_t size,
			const char *name, struct uev_sym *sym)
{
	const struct elf64_hdr *eh = (const void *)img;
	const struct elf64_shdr *sh;
	const struct elf64_phdr *ph;
	int i, j;

	if (size < sizeof(*eh) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > size)
		return -ENOEXEC;
	sh = (const void *)(img + eh->e_shoff);
	ph = (const void *)(img + eh->e_phoff);
	sym->vaddr = 0;
	for (i = 0; i < eh->e_shnum && !sym->vaddr; i++) {
		const struct elf64_sym *st = (const void *)(img + sh[i].sh_offset);
		const char *str;
		size_t nsyms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		nsyms = sh[i].sh_size / sizeof(*st);
		for (j = 0; j < (int)nsyms; j++) {
			if (!strcmp(str + st[j].st_name, name)) {
				sym->vaddr = st[j].st_value;
				break;
			}
		}
	}
	if (!sym->vaddr)
		return -ENOENT;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && sym->vaddr >= ph[i].p_vaddr &&
		    sym->vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
			sym->foff = sym->vaddr - ph[i].p_vaddr + ph[i].p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

static int elf32_lookup(const unsigned char *img, size_t size,
			const char *name, struct uev_sym *sym)
{
	const struct elf32_hdr *eh = (const void *)img;
	const struct elf32_shdr *sh;
	const struct elf32_phdr *ph;
	int i, j;

	if (size < sizeof(*eh) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > size)
		return -ENOEXEC;
	sh = (const void *)(img + eh->e_shoff);
	ph = (const void *)(img + eh->e_phoff);
	sym->vaddr = 0;
	for (i = 0; i < eh->e_shnum && !sym->vaddr; i++) {
		const struct elf32_sym *st = (const void *)(img + sh[i].sh_offset);
		const char *str;
		size_t nsyms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		nsyms = sh[i].sh_size / sizeof(*st);
		for (j = 0; j < (int)nsyms; j++) {
			if (!strcmp(str + st[j].st_name, name)) {
				sym->vaddr = st[j].st_value;
				break;
			}
		}
	}
	if (!sym->vaddr)
		return -ENOENT;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && sym->vaddr >= ph[i].p_vaddr &&
		    sym->vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
			sym->foff = sym->vaddr - ph[i].p_vaddr + ph[i].p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

/* Find @name in the symbol table of the ELF image @img (32 or 64-bit). */
static int elf_lookup(const unsigned char *img, size_t size, const char *name,
		      struct uev_sym *sym)
{
	if (size < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG))
		return -ENOEXEC;
	if (img[EI_CLASS] == ELFCLASS64)
		return elf64_lookup(img, size, name, sym);
	if (img[EI_CLASS] == ELFCLASS32)
		return elf32_lookup(img, size, name, sym);
	return -ENOEXEC;
}

/**
 * uev_sym() - find a symbol in the symbol table of an ELF file
 * @path: the ELF file
 * @name: symbol name
 * @sym: filled with the symbol's address and the file offset it maps
 *
 * Return: 0, or -errno.
 */
int uev_sym(const char *path, const char *name, struct uev_sym *sym)
{
	unsigned char *img;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	img = malloc(st.st_size);
	if (!img) {
		close(fd);
		return -ENOMEM;
	}
	if (pread(fd, img, st.st_size, 0) != st.st_size)
		err = -EIO;
	else
		err = elf_lookup(img, st.st_size, name, sym);
	free(img);
	close(fd);
	return err;
}

/**
 * uev_target_sym() - find a symbol of the probe target
 * @name: symbol name
 * @sym: filled with the symbol's address and file offset
 *
 * Return: 0, or -errno.
 */
int uev_target_sym(const char *name, struct uev_sym *sym)
{
	return uev_sym(uev_path("bin", UEV_TARGET), name, sym);
}

/**
 * uev_spawn() - start a probe target with its stdin and stdout on pipes
 * @p: filled with the pid and the pipe ends
 * @path: the program
 *
 * Return: 0, or -errno.
 */
int uev_spawn(struct uev_proc *p, const char *path)
{
	int in[2], out[2];

	if (pipe(in))
		return -errno;
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	p->pid = fork();
	if (p->pid < 0)
		return -errno;
	if (!p->pid) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	p->to = in[1];
	p->from = out[0];
	return 0;
}

/**
 * uev_cmd() - run a command of the target several times, one at a time
 * @p: the target
 * @c: command byte (see uev_target.c)
 * @times: how many times
 *
 * Return: 0 once the target has acknowledged every command, or -errno
 * (-EPIPE when it died).
 */
int uev_cmd(struct uev_proc *p, char c, int times)
{
	char ack;

	signal(SIGPIPE, SIG_IGN);
	while (times-- > 0) {
		if (write(p->to, &c, 1) != 1)
			return -EPIPE;
		if (read(p->from, &ack, 1) != 1 || ack != c)
			return -EPIPE;
	}
	return 0;
}

/**
 * uev_query() - run a command of the target that replies with a number
 * @p: the target
 * @c: command byte (see uev_target.c)
 * @value: receives the reply
 *
 * Return: 0, or -errno (-EPIPE when the target died).
 */
int uev_query(struct uev_proc *p, char c, unsigned long *value)
{
	char buf[18];
	size_t len = 0;
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);
	if (write(p->to, &c, 1) != 1)
		return -EPIPE;
	while (len < 17) {
		n = read(p->from, buf + len, 17 - len);
		if (n <= 0)
			return -EPIPE;
		len += n;
	}
	buf[17] = '\0';
	if (buf[16] != c)
		return -EPROTO;
	buf[16] = '\0';
	*value = strtoul(buf, NULL, 16);
	return 0;
}

/**
 * uev_finish() - tell the target to exit and reap it
 * @p: the target
 *
 * Return: its wait status.
 */
int uev_finish(struct uev_proc *p)
{
	int status = -1;

	if (write(p->to, "q", 1) != 1)
		kill(p->pid, SIGKILL);
	close(p->to);
	close(p->from);
	waitpid(p->pid, &status, 0);
	return status;
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
 * Return: number of lines, or -errno.
 */
int uev_trace_file_get(const char *file, const char *event, struct uev_trace *t)
{
	size_t size = 1 << 20;
	char key[128], *buf, *line, *save, *hit;
	ssize_t n;

	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = uev_read(file, buf, size);
	if (n < 0) {
		free(buf);
		return n;
	}
	snprintf(key, sizeof(key), " %s: ", event);
	t->nr = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		hit = strstr(line, key);
		if (!hit || t->nr == UEV_MAX_LINES)
			continue;
		snprintf(t->line[t->nr++], UEV_LINE_LEN, "%s",
			 hit + strlen(key));
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
 * uev_kmsg_has() - is there a kernel log record containing both strings
 * @a: first string
 * @b: second string
 *
 * Return: true when one record of /dev/kmsg contains @a and @b.
 */
bool uev_kmsg_has(const char *a, const char *b)
{
	char rec[8192];
	bool found = false;
	ssize_t len;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return false;
	while (!found && (len = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (len < 0) {
			/* EPIPE: overwritten records were skipped */
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[len] = '\0';
		found = strstr(rec, a) && strstr(rec, b);
	}
	close(fd);
	return found;
}
