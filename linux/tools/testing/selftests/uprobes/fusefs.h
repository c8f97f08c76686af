/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal read-only FUSE file system for the uprobes selftests, served
 * straight over /dev/fuse (no libfuse): a root directory holding a few
 * regular files whose contents are copied into memory at mount time.
 */
#ifndef FUSEFS_H
#define FUSEFS_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

struct fusefs_file {
	const char *name;	/* name in the root directory */
	const char *src;	/* file whose content it has, read at mount */
	mode_t mode;		/* permission bits */
};

/*
 * Answer FUSE_OPEN with FOPEN_KEEP_CACHE. Without it (the default, as
 * for most FUSE servers) every open of a file drops its page cache,
 * pages mapped by running processes included.
 */
#define FUSEFS_KEEP_CACHE	0x1

/* What the server has seen; written by the server only. */
struct fusefs_stats {
	uint64_t opens;		/* FUSE_OPEN answered with a handle */
	uint64_t releases;	/* FUSE_RELEASE of an open handle */
	uint64_t reads;		/* FUSE_READ answered */
	uint64_t bad_handle;	/* READ, FLUSH, RELEASE of no open handle */
	uint64_t errors;	/* malformed requests, failed replies */
	uint64_t enosys;	/* requests answered ENOSYS (xattrs aside) */
	uint64_t last_enosys;	/* opcode of the last of them */
	uint64_t watch_node;	/* set by fusefs_watch(): READs of this */
	uint64_t watch_off;	/* node covering this offset are */
	uint64_t watch_reads;	/* counted here */
};

struct fusefs {
	char dir[PATH_MAX];
	pid_t server;			/* 0 when not mounted */
	int ctl;			/* socket to the server */
	struct fusefs_stats *stats;	/* shared with the server */
};

/* Read a counter of a server: fusefs_stat(&fs->stats->reads). */
static inline uint64_t fusefs_stat(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_SEQ_CST);
}

/* Node id and inode number of the file IDX; the root's is FUSE_ROOT_ID. */
static inline uint64_t fusefs_nodeid(int idx)
{
	return idx + 2;
}

/*
 * Mount at DIR (an existing directory) a file system holding the N
 * FILES, served by a forked child that dies with the caller; FLAGS:
 * FUSEFS_KEEP_CACHE. Returns 0 or -errno; FS describes the mount.
 */
int fusefs_mount(struct fusefs *fs, const char *dir,
		 const struct fusefs_file *files, int n, unsigned int flags);
/*
 * Unmount (retrying a few seconds while busy, then detaching it lazily)
 * and reap the server. Returns 0, -EBUSY if it had to be detached,
 * -EPROTO if the server saw errors, or another -errno.
 */
int fusefs_umount(struct fusefs *fs);
/*
 * Have the server make the kernel drop the page cache of file IDX,
 * mapped pages included, while nothing is reading the file; 0 or -errno.
 */
int fusefs_drop_cache(struct fusefs *fs, int idx);
/* Count in watch_reads the READs of file IDX that cover offset OFF. */
void fusefs_watch(struct fusefs *fs, int idx, uint64_t off);

#endif /* FUSEFS_H */
