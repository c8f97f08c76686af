// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events test helpers: searching the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "uev_lib.h"

/**
 * uev_kmsg_count() - count kernel log records containing strings
 * @a: a string the record must contain
 * @b: another one, or NULL
 *
 * Return: the number of records of /dev/kmsg containing @a (and @b), or
 * -errno when the log cannot be read.
 */
int uev_kmsg_count(const char *a, const char *b)
{
	char rec[8192];
	ssize_t len;
	int fd, n = 0;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	while ((len = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (len < 0) {
			/* EPIPE: overwritten records were skipped */
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[len] = '\0';
		if (strstr(rec, a) && (!b || strstr(rec, b)))
			n++;
	}
	close(fd);
	return n;
}
