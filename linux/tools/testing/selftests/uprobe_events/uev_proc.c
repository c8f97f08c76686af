// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events test helpers: driving a probe target (uev_target.c)
 * through its command pipe, one byte a command; the names of its
 * registers; the steps the test programs share.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "../uprobes/upng.h"
#include "uev_lib.h"

/**
 * uev_spawn() - start a probe target with its stdin and stdout on pipes
 * @p: filled with the pid and the pipe ends
 * @path: the program
 *
 * The target is killed if the test process dies (upng_spawn()).
 *
 * Return: 0, or -errno.
 */
int uev_spawn(struct uev_proc *p, const char *path)
{
	struct upng_child c;
	int err;

	err = upng_spawn(&c, path, NULL, NULL);
	if (err)
		return err;
	p->pid = c.pid;
	p->to = c.in;
	p->from = c.out;
	return 0;
}

/*
 * Read what the target sends, waiting at most UEV_ACK_TIMEOUT seconds for
 * each part: a target stuck in a probe hit is reported, not waited for.
 */
static ssize_t read_reply(struct uev_proc *p, char *buf, size_t size)
{
	struct pollfd pfd = { .fd = p->from, .events = POLLIN };
	size_t len = 0;
	ssize_t n;
	int ready;

	while (len < size) {
		ready = poll(&pfd, 1, UEV_ACK_TIMEOUT * 1000);
		if (ready < 0)
			return -errno;
		if (!ready) {
			fprintf(stderr, "# target %d: no reply in %d s\n",
				p->pid, UEV_ACK_TIMEOUT);
			return -ETIMEDOUT;
		}
		n = read(p->from, buf + len, size - len);
		if (n <= 0)
			return -EPIPE;
		len += n;
	}
	return len;
}

/**
 * uev_cmd() - run a command of the target several times, one at a time
 * @p: the target
 * @c: command byte (see uev_target.c)
 * @times: how many times
 *
 * Return: 0 once the target has acknowledged every command, or -errno
 * (-EPIPE when it died, -ETIMEDOUT when it stopped answering).
 */
int uev_cmd(struct uev_proc *p, char c, int times)
{
	ssize_t n;
	char ack;

	signal(SIGPIPE, SIG_IGN);
	while (times-- > 0) {
		if (write(p->to, &c, 1) != 1)
			return -EPIPE;
		n = read_reply(p, &ack, 1);
		if (n < 0)
			return n;
		if (ack != c)
			return -EPROTO;
	}
	return 0;
}

/**
 * uev_query() - run a command of the target that replies with a number
 * @p: the target
 * @c: command byte (see uev_target.c)
 * @value: receives the reply
 *
 * Return: 0, or -errno (-EPIPE when the target died, -ETIMEDOUT when it
 * stopped answering).
 */
int uev_query(struct uev_proc *p, char c, unsigned long *value)
{
	char buf[18];
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);
	if (write(p->to, &c, 1) != 1)
		return -EPIPE;
	n = read_reply(p, buf, 17);
	if (n < 0)
		return n;
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
 * A target that has not exited after UEV_ACK_TIMEOUT seconds is killed.
 *
 * Return: its wait status, -1 when it could not be reaped.
 */
int uev_finish(struct uev_proc *p)
{
	int status = -1, i;

	if (write(p->to, "q", 1) != 1)
		kill(p->pid, SIGKILL);
	close(p->to);
	close(p->from);
	for (i = 0; i < UEV_ACK_TIMEOUT * 100; i++) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid)
			return status;
		usleep(10000);
	}
	fprintf(stderr, "# target %d: still running, killed\n", p->pid);
	kill(p->pid, SIGKILL);
	for (i = 0; i < 500; i++) {
		if (waitpid(p->pid, &status, WNOHANG) == p->pid)
			return status;
		usleep(10000);
	}
	return -1;
}

/**
 * uev_run() - run a command in a new target while events are enabled
 * @enable: the tracefs enable file ("events/uprobes/EV/enable", or the
 *	    group's "events/uprobes/enable")
 * @path: the target
 * @c: command byte (see uev_target.c)
 * @times: how many times
 *
 * Writes 1 to @enable, starts @path, runs @c @times times, tells the
 * target to exit and writes 0 to @enable; it stops at the first step that
 * fails.
 *
 * Return: 0, or -errno of the step that failed (-ECHILD when the target
 * did not exit with status 0).
 */
int uev_run(const char *enable, const char *path, char c, int times)
{
	struct uev_proc p;
	int err;

	err = upng_tracefs_write(enable, "1");
	if (err)
		return err;
	err = uev_spawn(&p, path);
	if (err)
		return err;
	err = uev_cmd(&p, c, times);
	if (uev_finish(&p) != 0 && !err)
		err = -ECHILD;
	if (err)
		return err;
	return upng_tracefs_write(enable, "0");
}

/**
 * uev_state_init() - find the target and its symbols, reset tracefs
 * @s: gets the path of bin/uev_target and the symbols of struct uev_state
 *
 * Then empties uprobe_events, the trace and error_log, as
 * upng_tracefs_reset() does.
 *
 * Return: 0, or -errno of the step that failed.
 */
int uev_state_init(struct uev_state *s)
{
	snprintf(s->path, sizeof(s->path), "%s", upng_path("bin/" UEV_TARGET));
	return upng_elf_sym(s->path, "uev_regs_probe", &s->regs) ?:
	       upng_elf_sym(s->path, "uev_count_func", &s->count) ?:
	       upng_elf_sym(s->path, "uev_ret_func", &s->ret) ?:
	       upng_elf_sym(s->path, "uev_ret_site", &s->retsite) ?:
	       upng_tracefs_reset();
}

/**
 * uev_define() - define a probe on uprobe_events
 * @ev: its kind and name: "p:GROUP/EVENT", "r:GROUP/EVENT", or "p" for a
 *	name the kernel makes up
 * @path: the probed file
 * @off: the probed offset in it
 * @args: its fetch arguments (UEV_ARG_N ...), NULL for none
 *
 * Writes "EV PATH:0xOFF ARGS" (no newline) with one write().
 *
 * Return: 0, or -errno of the write.
 */
int uev_define(const char *ev, const char *path, unsigned long off,
	       const char *args)
{
	return upng_tracefs_writef("uprobe_events", "%s %s:0x%lx%s%s", ev, path,
				   off, args ? " " : "", args ?: "");
}

/**
 * uev_trace_ns() - whether the trace holds the hits of uev_count_func
 * @s: the target; @s->t gets the trace lines of @ev
 * @ev: the event, a probe on uev_count_func fetching UEV_ARG_N
 * @ns: the values of n its lines must show, in order
 * @nr: how many: the trace holds exactly that many lines of @ev
 *
 * When it does not, the lines it holds go to stderr.
 *
 * Return: true when the trace holds exactly those lines.
 */
bool uev_trace_ns(struct uev_state *s, const char *ev, const int *ns, int nr)
{
	int i;

	if (upng_trace_ns(&s->t, "trace", ev, s->count.value, ns, nr))
		return true;
	for (i = 0; i < s->t.nr && i < UPNG_TRACE_LINES; i++)
		fprintf(stderr, "# trace: %s\n", s->t.line[i]);
	return false;
}

/**
 * uev_reg_token() - the register a "%{NAME}" token stands for
 * @in: text that may start with the token
 * @reg: set to the register's fetch-argument name, UEV_R_NAME of
 *	 uev_lib.h ("%di" on x86-64, "%x0" on arm64 for "%{ARG1}")
 *
 * The tests write their definitions with these tokens where a register
 * of the target is meant, so that one definition serves every
 * architecture.
 *
 * Return: the length of the token, 0 when @in does not start with one.
 */
size_t uev_reg_token(const char *in, const char **reg)
{
	static const struct {
		const char *token, *reg;
	} regs[] = {
		{ "%{ARG1}", UEV_R_ARG1 },
		{ "%{STR}", UEV_R_STR },
		{ "%{NEG}", UEV_R_NEG },
		{ "%{WIDE}", UEV_R_WIDE },
		{ "%{DATA}", UEV_R_DATA },
		{ "%{DATA16}", UEV_R_DATA16 },
		{ "%{UNMAPPED}", UEV_R_UNMAPPED },
		{ "%{RET}", UEV_R_RET },
#ifdef UEV_R_PC
		{ "%{PC}", UEV_R_PC },
#endif
		{ "%{SP}", UEV_R_SP },
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		n = strlen(regs[i].token);
		if (!strncmp(in, regs[i].token, n)) {
			*reg = regs[i].reg;
			return n;
		}
	}
	return 0;
}
