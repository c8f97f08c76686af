// SPDX-License-Identifier: GPL-2.0
/*
 * Probe target for the uprobe_events tests.
 *
 * Reads one command byte at a time from stdin, runs it and echoes the byte
 * to stdout once done, so that the test knows the probed code has run:
 *   a  call uev_regs_func (known registers, stack and memory)
 *   r  call uev_ret_caller (return probe on uev_ret_func)
 *   c  call uev_count_func(n), n = 0, 1, 2, ... for successive calls
 *   q  exit 0 (so does end of file)
 */
#include <unistd.h>

#include "uev_lib.h"

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
