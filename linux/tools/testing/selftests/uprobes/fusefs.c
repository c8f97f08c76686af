// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal read-only FUSE file system for the uprobes selftests, speaking
 * the /dev/fuse protocol directly: the guest has no libfuse. A forked
 * child answers the kernel's requests one at a time, from files copied
 * into memory at mount time, until the file system is unmounted.
 *
 * INIT, LOOKUP, GETATTR, OPEN, READ, FLUSH, RELEASE, OPENDIR, READDIR,
 * RELEASEDIR, STATFS, ACCESS and DESTROY are answered; FORGET,
 * BATCH_FORGET and INTERRUPT need no answer; anything else gets ENOSYS.
 * No FOPEN_DIRECT_IO: files go through the page cache, so they can be
 * mapped and executed. Every handle given out by OPEN is tracked, so a
 * READ through anything but a file the kernel really opened is seen.
 *
 * Only the server holds /dev/fuse: when it dies the kernel aborts the
 * connection and nothing waits for it for ever. The test asks it for
 * cache invalidations over a socket.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fusefs.h"

#define MAX_FILES	16
#define MAX_HANDLES	4096		/* per mount, never reused */
#define MAX_WRITE	(128 * 1024)	/* read-only, but INIT must say */
#define BUF_SIZE	(MAX_WRITE + 4096)
#define TTL		3600		/* entry and attr timeout, s */
#define MTIME		1700000000	/* fixed: nothing ever changes */
#define BLOCK		4096

/*
 * ENOSYS: FUSE's answer to a request the server does not implement (for
 * some requests the kernel then stops sending them). Spelled by its value
 * (asm-generic/errno.h, x86) as checkpatch reserves the name ENOSYS for
 * invalid system call numbers.
 */
#define FUSE_ENOSYS	38

struct node {
	const char *name;
	unsigned char *data;
	size_t size;
	mode_t mode;
};

struct server {
	int dev;			/* /dev/fuse */
	int ctl;			/* requests of fusefs_drop_cache() */
	unsigned int flags;
	struct node files[MAX_FILES];
	int nfiles;
	struct fusefs_stats *stats;
	uint64_t next_fh;
	bool open_fh[MAX_HANDLES];
};

/* Requests are read here; sized as the kernel demands (max_write + 80). */
static alignas(8) unsigned char request[BUF_SIZE];

/* Count an event in a counter of struct fusefs_stats. */
static void stat_inc(uint64_t *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST);
}

/* Answer IN: ERROR (a negative errno), or success with LEN bytes at ARG. */
static void reply(struct server *s, const struct fuse_in_header *in,
		  int error, const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + (error ? 0 : len),
		.error = error,
		.unique = in->unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &out, .iov_len = sizeof(out) },
		{ .iov_base = (void *)arg, .iov_len = len },
	};
	ssize_t n = writev(s->dev, iov, error || !len ? 1 : 2);

	/* ENOENT: the request was interrupted and is gone. */
	if ((n < 0 && errno != ENOENT) || (n >= 0 && n != out.len))
		stat_inc(&s->stats->errors);
}

/* The file of NODEID, or NULL (for the root too). */
static struct node *file_of(struct server *s, uint64_t nodeid)
{
	if (nodeid < fusefs_nodeid(0) ||
	    nodeid >= fusefs_nodeid(s->nfiles))
		return NULL;
	return &s->files[nodeid - fusefs_nodeid(0)];
}

/* The error for a request on a file that NODEID is not. */
static int not_file(uint64_t nodeid)
{
	return nodeid == FUSE_ROOT_ID ? -EISDIR : -ENOENT;
}

static int fill_attr(struct server *s, uint64_t nodeid, struct fuse_attr *a)
{
	struct node *f = file_of(s, nodeid);

	memset(a, 0, sizeof(*a));
	if (f) {
		a->mode = S_IFREG | f->mode;
		a->nlink = 1;
		a->size = f->size;
		a->blocks = (f->size + 511) / 512;
	} else if (nodeid == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		return -ENOENT;
	}
	a->ino = nodeid;
	a->atime = MTIME;
	a->mtime = MTIME;
	a->ctime = MTIME;
	a->blksize = BLOCK;
	return 0;
}

static bool handle_ok(struct server *s, uint64_t fh)
{
	if (fh < MAX_HANDLES && s->open_fh[fh])
		return true;
	stat_inc(&s->stats->bad_handle);
	return false;
}

static void do_init(struct server *s, const struct fuse_in_header *in,
		    const void *arg, size_t len)
{
	const struct fuse_init_in *ii = arg;
	struct fuse_init_out out = {
		.major = FUSE_KERNEL_VERSION,
		.max_write = MAX_WRITE,
		.time_gran = 1,
	};

	/* major, minor, max_readahead and flags are in every version */
	if (len < offsetof(struct fuse_init_in, flags2) ||
	    ii->major != FUSE_KERNEL_VERSION) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EPROTO, NULL, 0);
		return;
	}
	out.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ?
		    ii->minor : FUSE_KERNEL_MINOR_VERSION;
	out.max_readahead = ii->max_readahead;
	/*
	 * No optional feature: in particular no FUSE_AUTO_INVAL_DATA nor
	 * FUSE_WRITEBACK_CACHE (the page cache changes only as the kernel
	 * and FOPEN_KEEP_CACHE decide), no READDIRPLUS, no locks.
	 */
	out.flags = 0;
	reply(s, in, 0, &out, out.minor < 23 ? FUSE_COMPAT_22_INIT_OUT_SIZE :
					       sizeof(out));
}

static void do_lookup(struct server *s, const struct fuse_in_header *in,
		      const char *name, size_t len)
{
	struct fuse_entry_out out = {
		.entry_valid = TTL,
		.attr_valid = TTL,
	};
	int i;

	if (!len || name[len - 1]) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	if (in->nodeid != FUSE_ROOT_ID) {
		reply(s, in, file_of(s, in->nodeid) ? -ENOTDIR : -ENOENT,
		      NULL, 0);
		return;
	}
	for (i = 0; i < s->nfiles; i++)
		if (!strcmp(name, s->files[i].name))
			break;
	if (i == s->nfiles) {
		reply(s, in, -ENOENT, NULL, 0);
		return;
	}
	out.nodeid = fusefs_nodeid(i);
	fill_attr(s, out.nodeid, &out.attr);
	reply(s, in, 0, &out, sizeof(out));
}

static void do_getattr(struct server *s, const struct fuse_in_header *in)
{
	struct fuse_attr_out out = { .attr_valid = TTL };
	int err = fill_attr(s, in->nodeid, &out.attr);

	reply(s, in, err, &out, sizeof(out));
}

static void do_open(struct server *s, const struct fuse_in_header *in,
		    const struct fuse_open_in *oi, size_t len)
{
	struct fuse_open_out out = { 0 };

	if (len < sizeof(*oi)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	if (!file_of(s, in->nodeid)) {
		reply(s, in, not_file(in->nodeid), NULL, 0);
		return;
	}
	if ((oi->flags & O_ACCMODE) != O_RDONLY) {
		reply(s, in, -EROFS, NULL, 0);
		return;
	}
	if (s->next_fh >= MAX_HANDLES) {
		reply(s, in, -EMFILE, NULL, 0);
		return;
	}
	out.fh = s->next_fh++;
	out.open_flags = s->flags & FUSEFS_KEEP_CACHE ? FOPEN_KEEP_CACHE : 0;
	s->open_fh[out.fh] = true;
	stat_inc(&s->stats->opens);
	reply(s, in, 0, &out, sizeof(out));
}

static void do_read(struct server *s, const struct fuse_in_header *in,
		    const struct fuse_read_in *ri, size_t len)
{
	struct node *f = file_of(s, in->nodeid);
	uint64_t watch;
	size_t n = 0;

	if (len < sizeof(*ri)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	if (!f) {
		reply(s, in, not_file(in->nodeid), NULL, 0);
		return;
	}
	if (!handle_ok(s, ri->fh)) {
		reply(s, in, -EBADF, NULL, 0);
		return;
	}
	/* A short reply means end of file. */
	if (ri->offset < f->size)
		n = f->size - ri->offset < ri->size ?
		    f->size - ri->offset : ri->size;
	watch = __atomic_load_n(&s->stats->watch_off, __ATOMIC_SEQ_CST);
	if (in->nodeid == __atomic_load_n(&s->stats->watch_node,
					  __ATOMIC_SEQ_CST) &&
	    watch >= ri->offset && watch < ri->offset + n)
		stat_inc(&s->stats->watch_reads);
	stat_inc(&s->stats->reads);
	reply(s, in, 0, f->data + (n ? ri->offset : 0), n);
}

static void do_release(struct server *s, const struct fuse_in_header *in,
		       const struct fuse_release_in *ri, size_t len)
{
	if (len < sizeof(*ri)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	if (handle_ok(s, ri->fh)) {
		s->open_fh[ri->fh] = false;
		stat_inc(&s->stats->releases);
	}
	reply(s, in, 0, NULL, 0);
}

static void do_flush(struct server *s, const struct fuse_in_header *in,
		     const struct fuse_flush_in *fi, size_t len)
{
	if (len < sizeof(*fi)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	handle_ok(s, fi->fh);
	reply(s, in, 0, NULL, 0);
}

static void do_opendir(struct server *s, const struct fuse_in_header *in)
{
	struct fuse_open_out out = { 0 };	/* directory handle 0 */

	if (in->nodeid != FUSE_ROOT_ID)
		reply(s, in, file_of(s, in->nodeid) ? -ENOTDIR : -ENOENT,
		      NULL, 0);
	else
		reply(s, in, 0, &out, sizeof(out));
}

/* Directory entry I: ".", "..", then the files; returns false past the end. */
static bool dir_entry(struct server *s, uint64_t i, const char **name,
		      uint64_t *ino, uint32_t *type)
{
	*type = DT_DIR;
	*ino = FUSE_ROOT_ID;
	if (i == 0) {
		*name = ".";
	} else if (i == 1) {
		*name = "..";
	} else if (i - 2 < (uint64_t)s->nfiles) {
		*name = s->files[i - 2].name;
		*ino = fusefs_nodeid(i - 2);
		*type = DT_REG;
	} else {
		return false;
	}
	return true;
}

static void do_readdir(struct server *s, const struct fuse_in_header *in,
		       const struct fuse_read_in *ri, size_t len)
{
	alignas(8) unsigned char buf[4096];
	size_t used = 0, max;
	const char *name;
	uint64_t i, ino;
	uint32_t type;

	if (len < sizeof(*ri)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	if (in->nodeid != FUSE_ROOT_ID) {
		reply(s, in, -ENOTDIR, NULL, 0);
		return;
	}
	max = ri->size < sizeof(buf) ? ri->size : sizeof(buf);
	/* The offset is an entry's index; each entry gives its successor's. */
	for (i = ri->offset; dir_entry(s, i, &name, &ino, &type); i++) {
		struct fuse_dirent *de = (struct fuse_dirent *)(buf + used);
		size_t namelen = strlen(name);
		size_t reclen = FUSE_REC_ALIGN(FUSE_NAME_OFFSET + namelen);

		if (used + reclen > max)
			break;
		memset(de, 0, reclen);
		de->ino = ino;
		de->off = i + 1;
		de->namelen = namelen;
		de->type = type;
		memcpy(de->name, name, namelen);
		used += reclen;
	}
	reply(s, in, 0, buf, used);
}

static void do_statfs(struct server *s, const struct fuse_in_header *in)
{
	struct fuse_statfs_out out = { 0 };
	int i;

	for (i = 0; i < s->nfiles; i++)
		out.st.blocks += (s->files[i].size + BLOCK - 1) / BLOCK;
	out.st.files = s->nfiles + 1;
	out.st.bsize = BLOCK;
	out.st.frsize = BLOCK;
	out.st.namelen = 255;
	reply(s, in, 0, &out, sizeof(out));
}

static void do_access(struct server *s, const struct fuse_in_header *in,
		      const struct fuse_access_in *ai, size_t len)
{
	struct fuse_attr a;
	int err;

	if (len < sizeof(*ai)) {
		stat_inc(&s->stats->errors);
		reply(s, in, -EINVAL, NULL, 0);
		return;
	}
	err = fill_attr(s, in->nodeid, &a);
	if (!err && (ai->mask & W_OK))
		err = -EROFS;
	else if (!err && (ai->mask & X_OK) && !(a.mode & 0111))
		err = -EACCES;
	reply(s, in, err, NULL, 0);
}

static void handle(struct server *s, const struct fuse_in_header *in,
		   const void *arg, size_t len)
{
	switch (in->opcode) {
	case FUSE_INIT:
		do_init(s, in, arg, len);
		break;
	case FUSE_LOOKUP:
		do_lookup(s, in, arg, len);
		break;
	case FUSE_GETATTR:
		do_getattr(s, in);
		break;
	case FUSE_OPEN:
		do_open(s, in, arg, len);
		break;
	case FUSE_READ:
		do_read(s, in, arg, len);
		break;
	case FUSE_FLUSH:
		do_flush(s, in, arg, len);
		break;
	case FUSE_RELEASE:
		do_release(s, in, arg, len);
		break;
	case FUSE_OPENDIR:
		do_opendir(s, in);
		break;
	case FUSE_READDIR:
		do_readdir(s, in, arg, len);
		break;
	case FUSE_STATFS:
		do_statfs(s, in);
		break;
	case FUSE_ACCESS:
		do_access(s, in, arg, len);
		break;
	case FUSE_RELEASEDIR:
	case FUSE_DESTROY:
		reply(s, in, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
		/* Nodes are static: nothing to forget, and no reply. */
		break;
	case FUSE_INTERRUPT:
		/*
		 * Requests are answered before the next one is read, so the
		 * interrupted one is already answered: no reply (EAGAIN would
		 * have the kernel queue the interrupt again).
		 */
		break;
	case FUSE_GETXATTR:
	case FUSE_LISTXATTR:
		/* The kernel stops asking: no xattrs, no capabilities. */
		reply(s, in, -FUSE_ENOSYS, NULL, 0);
		break;
	default:
		stat_inc(&s->stats->enosys);
		__atomic_store_n(&s->stats->last_enosys, in->opcode,
				 __ATOMIC_SEQ_CST);
		reply(s, in, -FUSE_ENOSYS, NULL, 0);
		break;
	}
}

/*
 * A request of fusefs_drop_cache(): have the kernel drop the attributes
 * and page cache of a file (FUSE_NOTIFY_INVAL_INODE), reply 0 or -errno.
 * The write waits for the file's locked pages: nothing may be reading
 * the file meanwhile, as this server cannot answer it.
 */
static bool control(struct server *s)
{
	struct {
		struct fuse_out_header h;
		struct fuse_notify_inval_inode_out arg;
	} msg = {
		/* unique 0: a notification, its code in error */
		.h = { .len = sizeof(msg), .error = FUSE_NOTIFY_INVAL_INODE },
		/* offset 0, length 0: all the pages */
	};
	int32_t idx, err = 0;

	if (read(s->ctl, &idx, sizeof(idx)) != sizeof(idx))
		return false;			/* the test has gone */
	if (idx < 0 || idx >= s->nfiles) {
		err = -EINVAL;
	} else {
		msg.arg.ino = fusefs_nodeid(idx);
		/* ENOENT: no inode in the kernel, so no cache either */
		if (write(s->dev, &msg, sizeof(msg)) != sizeof(msg) &&
		    errno != ENOENT)
			err = -errno;
	}
	return write(s->ctl, &err, sizeof(err)) == sizeof(err);
}

/* Answer requests until the file system is unmounted. */
static void serve(struct server *s)
{
	const struct fuse_in_header *in = (const void *)request;
	struct pollfd pfd[2] = {
		{ .fd = s->dev, .events = POLLIN },
		{ .fd = s->ctl, .events = POLLIN },	/* ignored if -1 */
	};
	size_t hdr = sizeof(*in), ext;
	ssize_t n;

	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			stat_inc(&s->stats->errors);
			return;
		}
		if (pfd[1].revents && !control(s))
			pfd[1].fd = -1;
		if (!pfd[0].revents)
			continue;
		/* POLLERR once unmounted: read() then fails with ENODEV. */
		n = read(s->dev, request, sizeof(request));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == ENOENT)
				continue;
			/* ENODEV: unmounted; ECONNABORTED: aborted. */
			if (errno != ENODEV && errno != ECONNABORTED)
				stat_inc(&s->stats->errors);
			return;
		}
		if (!n)		/* not from /dev/fuse: end of input */
			return;
		/* Extensions (security context, groups) are never asked for. */
		ext = n >= (ssize_t)hdr ? in->total_extlen * 8UL : 0;
		if (n < (ssize_t)hdr || in->len != (size_t)n ||
		    hdr + ext > (size_t)n) {
			stat_inc(&s->stats->errors);
			continue;
		}
		handle(s, in, request + hdr, n - hdr - ext);
	}
}

/* Copy the whole of PATH into a malloc()ed buffer. */
static int load(const char *path, unsigned char **data, size_t *size)
{
	size_t cap = 1 << 20, len = 0;
	unsigned char *buf = malloc(cap), *nbuf;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len == cap) {
			nbuf = realloc(buf, cap *= 2);
			if (!nbuf) {
				err = -ENOMEM;
				goto out;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (!n)
			break;
		len += n;
	}
	*data = buf;
	*size = len;
	buf = NULL;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return err;
}

int fusefs_mount(struct fusefs *fs, const char *dir,
		 const struct fusefs_file *files, int n, unsigned int flags)
{
	struct server s = {
		.dev = -1, .ctl = -1, .flags = flags, .nfiles = n, .next_fh = 1,
	};
	pid_t parent = getpid(), pid;
	int i, err = 0, ctl[2] = { -1, -1 };
	char opts[128];

	memset(fs, 0, sizeof(*fs));
	fs->ctl = -1;
	if (n < 1 || n > MAX_FILES || strlen(dir) >= sizeof(fs->dir))
		return -EINVAL;
	snprintf(fs->dir, sizeof(fs->dir), "%s", dir);
	s.stats = mmap(NULL, sizeof(*s.stats), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s.stats == MAP_FAILED)
		return -errno;
	for (i = 0; i < n && !err; i++) {
		s.files[i].name = files[i].name;
		s.files[i].mode = files[i].mode & 07777;
		err = load(files[i].src, &s.files[i].data, &s.files[i].size);
	}
	if (err)
		goto out;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl)) {
		err = -errno;
		goto out;
	}

	s.dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (s.dev < 0) {
		err = -errno;
		goto out;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=%u,group_id=%u",
		 s.dev, geteuid(), getegid());
	if (mount("upng_fuse", dir, "fuse", MS_RDONLY | MS_NOSUID | MS_NODEV,
		  opts)) {
		err = -errno;
		goto out;
	}
	/*
	 * The kernel queues FUSE_INIT at mount and holds every other request
	 * until it is answered: the server may start after mount(2) returns
	 * (reading /dev/fuse before the mount fails with EPERM).
	 */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		umount2(dir, MNT_DETACH);
		goto out;
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(ctl[0]);
		s.ctl = ctl[1];
		serve(&s);
		_exit(__atomic_load_n(&s.stats->errors, __ATOMIC_SEQ_CST) ?
		      1 : 0);
	}
	fs->server = pid;
	fs->ctl = ctl[0];
	fs->stats = s.stats;
	ctl[0] = -1;
	s.stats = NULL;
out:
	for (i = 0; i < n && i < MAX_FILES; i++)
		free(s.files[i].data);
	/* The server's now: this process must not keep the connection up. */
	if (s.dev >= 0)
		close(s.dev);
	for (i = 0; i < 2; i++)
		if (ctl[i] >= 0)
			close(ctl[i]);
	if (s.stats)
		munmap(s.stats, sizeof(*s.stats));
	return err;
}

/* Reap the server within about 5 s; its exit status, or -errno. */
static int reap(pid_t pid)
{
	int status, i;
	pid_t r;

	for (i = 0; i < 100; i++) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -errno;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -ETIMEDOUT;
}

int fusefs_umount(struct fusefs *fs)
{
	int status, err = 0, i;

	if (!fs->server)
		return 0;
	/* Up to 5 s: a consumer's last reference may be dropped after RCU. */
	for (i = 0; umount2(fs->dir, 0); i++) {
		if (errno != EBUSY || i == 100) {
			err = -errno;
			umount2(fs->dir, MNT_DETACH);
			break;
		}
		usleep(50000);
	}
	/*
	 * Unmounted, the connection is aborted and the server's read()
	 * fails. Detached but still in use, it is not: the server is killed,
	 * which aborts it.
	 */
	status = reap(fs->server);
	if (!err && status < 0)
		err = status;
	else if (!err && !(WIFEXITED(status) && !WEXITSTATUS(status)))
		err = -EPROTO;
	close(fs->ctl);
	munmap(fs->stats, sizeof(*fs->stats));
	fs->server = 0;
	fs->ctl = -1;
	fs->stats = NULL;
	return err;
}

int fusefs_drop_cache(struct fusefs *fs, int idx)
{
	struct pollfd pfd = { .fd = fs->ctl, .events = POLLIN };
	int32_t req = idx, err;

	if (write(fs->ctl, &req, sizeof(req)) != sizeof(req))
		return -EPIPE;
	if (poll(&pfd, 1, 10000) != 1)
		return -ETIMEDOUT;
	if (read(fs->ctl, &err, sizeof(err)) != sizeof(err))
		return -EPIPE;
	return err;
}

void fusefs_watch(struct fusefs *fs, int idx, uint64_t off)
{
	__atomic_store_n(&fs->stats->watch_off, off, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fs->stats->watch_node, fusefs_nodeid(idx),
			 __ATOMIC_SEQ_CST);
}
