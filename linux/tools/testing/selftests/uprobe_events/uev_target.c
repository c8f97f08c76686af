// SPDX-License-Identifier: GPL-2.0
/*
 * Probe target for the uprobe_events tests.
 *
 * Reads one command byte at a time from stdin, runs it and echoes the byte
 * to stdout once done, so that the test knows the probed code has run:
 *   a  call uev_regs_func (known registers, stack and memory)
 *   r  call uev_ret_caller (return probe on uev_ret_func)
 *   c  call uev_count_func(n), n = 0, 1, 2, ... for successive calls
 *   n  call uev_rec(3), which recurses down to uev_rec(0)
 *   f  fork a child that calls uev_count_func(1000) and exits; wait for it
 *   l  call uev_count_func(n) in a loop until the next byte arrives,
 *      which is consumed
 *   i  reply with the run-time address of uev_count_func
 *   s  reply with the value of uev_semaphore
 *   q  exit 0 (so does end of file)
 * A reply is 16 hex digits written before the acknowledging byte.
 */
#include <poll.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uev_lib.h"

static int reply(unsigned long value)
{
	char buf[17];

	snprintf(buf, sizeof(buf), "%016lx", value);
	return write(STDOUT_FILENO, buf, 16) == 16 ? 0 : -1;
}

static int fork_and_call(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		uev_count_func(1000);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) ? -1 : 0;
}

static long busy_loop(long n)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char stop;
	int i;

	do {
		for (i = 0; i < 64; i++)
			uev_count_func(n++);
	} while (!poll(&pfd, 1, 0));
	if (read(STDIN_FILENO, &stop, 1) != 1)
		return -1;
	return n;
}

int main(void)
{
	long n = 0;
	char c;

	while (read(STDIN_FILENO, &c, 1) == 1) {
		switch (c) {
		case 'a':
			uev_regs_func();
			break;
		case 'r':
			uev_ret_caller();
			break;
		case 'c':
			uev_count_func(n++);
			break;
		case 'l':
			n = busy_loop(n);
			if (n < 0)
				return 3;
			break;
		case 'n':
			uev_rec(3);
			break;
		case 'f':
			if (fork_and_call())
				return 4;
			break;
		case 'i':
			if (reply((unsigned long)uev_count_func))
				return 3;
			break;
		case 's':
			if (reply(uev_semaphore))
				return 3;
			break;
		case 'q':
			return 0;
		default:
			return 2;
		}
		if (write(STDOUT_FILENO, &c, 1) != 1)
			return 3;
	}
	return 0;
}
