// SPDX-License-Identifier: GPL-2.0
/*
 * Probe every instruction: instruction boundaries of real binaries, probed
 * many at once, under their own workloads.
 *
 * The boundaries come from the host (insn_boundaries.sh: objdump -d of the
 * very files the guest has, in file offsets, grouped into regions and
 * functions): data/busybox.insns for /bin/busybox, data/libc.insns for
 * the C library of the dynamic programs.  The workloads: for busybox,
 * "/bin/busybox sh work.sh" running 20 commands of its applets (sort, uniq,
 * md5sum/sha*sum, gzip/gunzip, awk, sed, grep, expr, seq, wc, tr, od,
 * hexdump, printf, cut, paste, bc, dc, diff, factor, tar, base64, find,
 * dd, xargs, cmp and ash itself, see allinsn_work.h) on generated inputs;
 * for libc, bin/libcwork (str and mem functions, printf formats,
 * conversions, qsort, bsearch, malloc; each result checked).  Every
 * boundary of busybox is ~400k probes, too many under TCG, so by default
 * a test
 *
 *  1. runs its workload twice unprobed (the reference; both runs must
 *     agree, else the workload is not deterministic and the test is void);
 *  2. discovery: probes the entry of every function, in batches, and runs
 *     the workload once per batch: which functions run, how often;
 *  3. main phase: probes ALL boundaries of a set of executed functions
 *     (the most called ones whose estimated hits, entries x instructions,
 *     fit a hot budget, then the least called ones up to the hit budget)
 *     plus a uniform sample of the boundaries of the functions that do not
 *     run, up to UPROBES_NG_ALLINSN_MAX boundaries, in batches of
 *     contiguous boundaries, once more with one workload run per batch.
 *
 * A batch is defined as "p:allinsn/oOFF PATH:0xOFF" events (a definition
 * the kernel rejects counts as refused), enabled at once through
 * events/allinsn/enable (an event whose enable fails is refused; the
 * engine analyses the instruction at registration and logs why), then the
 * workload runs and each command's output, error output and exit status
 * must equal the reference's: a divergence fails the test and prints the
 * command and where its output differs.  Hits come from uprobe_profile; a
 * watchdog stops a run whose hits exceed UPROBES_NG_ALLINSN_BATCH_HITS
 * (a loop the estimate missed), turns off the functions that took them
 * and runs the batch again.  Then the batch is disabled and deleted.
 *
 * Knobs (environment): UPROBES_NG_ALLINSN_MAX / _LIBC_MAX (main phase
 * boundaries; 0: every boundary, no discovery), _HITS / _LIBC_HITS
 * (estimated hit budget of the main phase), _BATCH (probes per batch),
 * _BATCH_HITS (watchdog), _SECS / _LIBC_SECS (no new batch after that
 * many seconds, counting the last batch's duration for the next one; by
 * default 45% and 25% of UPROBES_NG_TIMEOUT, the seconds the runner
 * gives the program, 150 when unset; the summary says what was skipped),
 * _SEED (sample).
 *
 * Printed per binary: boundaries total, probed, accepted, refused (and
 * why, from the kernel log), executed, hits, and how the accepted ones run
 * (emulated, boosted, stepped) from /sys/kernel/debug/uprobes/probes
 * ("<inode> 0x<offset> <how> <major>:<minor>" lines, read while a batch is
 * enabled); without that file a TODO line names the missing figures.
 * After each batch is deleted the file must drop its probes (a note
 * otherwise).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/elf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "upng.h"
#include "allinsn_work.h"

#define GROUP		"allinsn"
#define EVDIR		UPNG_TRACEFS "/events/" GROUP
#define DEBUGFS_PROBES	"/sys/kernel/debug/uprobes/probes"
#define WORK_TIMEOUT_S	300	/* one workload run, unprobed or probed */
#define BUSYBOX_WORDS	60	/* size of the busybox workload's inputs */
#define NOTE_GNU_BUILD_ID 3	/* NT_GNU_BUILD_ID of <elf.h> */

/*
 * ksft_print_msg() under a name checkpatch counts as a logging function,
 * so that the long report lines stay whole and greppable.
 */
#define allinsn_notice(...) ksft_print_msg(__VA_ARGS__)

enum { ST_NONE, ST_OK, ST_REFUSED, ST_DEFERR };
enum {
	HOW_UNKNOWN, HOW_EMULATED, HOW_BOOSTED, HOW_STEPPED, HOW_PENDING,
	HOW_REFUSED, HOW_JUMP, HOW_OTHER, HOW_N
};

static const char * const how_name[HOW_N] = {
	"unknown", "emulated", "boosted", "stepped", "pending", "refused",
	"jump", "other",
};

/* A function, or what looks like one in a stripped binary. */
struct group {
	uint32_t first, n;	/* its boundaries */
	uint32_t entry;		/* boundary of its entry, UINT32_MAX if none */
	uint32_t entry_hits;
	char name[64];
	bool chosen;
};

/* A probed file and what is known about each of its boundaries. */
struct image {
	char path[PATH_MAX];
	char buildid[96];
	unsigned long size;
	uint32_t nins, ngrp, nregions;
	uint32_t *off;		/* file offset of each boundary, ascending */
	uint32_t *grp;		/* group of each boundary */
	uint8_t *state;		/* ST_* */
	uint8_t *how;		/* HOW_* */
	uint8_t *hot;		/* turned off by the watchdog */
	uint32_t *hits;
	struct group *g;
};

/* What a test case runs and with which budget. */
struct job {
	const char *tag;
	bool libc;		/* workload: bin/libcwork, else busybox */
	long max, hits, batch, batch_hits, secs, seed;
	bool has_deadline;
	char workdir[PATH_MAX];	/* inputs (busybox) */
	char refdir[PATH_MAX], ref2dir[PATH_MAX], rundir[PATH_MAX];
	const char *libcwork;
	int ncmds;
	double t0;
	double last_batch;	/* seconds the previous batch took */
	/* totals */
	long batches, runs, divergences, skipped_batches, skipped_probes;
	long aborted_runs, void_batches, lingering;
	long refusal_reason_n[16];
	char refusal_reason[16][64];
	int nreasons;
	bool debugfs_seen;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	n = strtol(v, &end, 0);
	return *end || n < 0 ? def : n;
}

static bool env_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v;
}

/* ---- files ---- */

/* Whole file into a malloc()ed NUL-terminated buffer; NULL if unreadable. */
static char *read_all(const char *path, size_t *lenp)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				break;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/* An empty directory DIR (created, or emptied of plain files). */
static int fresh_dir(const char *dir)
{
	char path[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	return 0;
}

/* The NT_GNU_BUILD_ID of an ELF64 file in hex, or "-". */
static void elf_buildid(const char *path, char *out, size_t len)
{
	size_t size, i, p;
	char *elf = read_all(path, &size);
	const struct elf64_hdr *eh = (const void *)elf;

	snprintf(out, len, "-");
	if (!elf || size < sizeof(*eh) || memcmp(elf, ELFMAG, SELFMAG) ||
	    elf[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *ph;
		size_t at = eh->e_phoff + i * eh->e_phentsize;

		if (at + sizeof(*ph) > size)
			break;
		ph = (const void *)(elf + at);
		if (ph->p_type != PT_NOTE || ph->p_offset + ph->p_filesz > size)
			continue;
		for (p = ph->p_offset; p + 12 <= ph->p_offset + ph->p_filesz;) {
			const uint32_t *nh = (const void *)(elf + p);
			size_t nsz = (nh[0] + 3) & ~3UL, dsz = (nh[1] + 3) & ~3UL;
			const unsigned char *desc;
			size_t k, o = 0;

			if (p + 12 + nsz + dsz > size)
				break;
			desc = (const void *)(elf + p + 12 + nsz);
			if (nh[2] == NOTE_GNU_BUILD_ID && nh[0] == 4 &&
			    !memcmp(elf + p + 12, "GNU", 4) && nh[1] * 2 < len) {
				for (k = 0; k < nh[1]; k++)
					o += snprintf(out + o, len - o, "%02x",
						      desc[k]);
				goto out;
			}
			p += 12 + nsz + dsz;
		}
	}
out:
	free(elf);
}

/* ---- the boundary data ---- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void image_free(struct image *im)
{
	free(im->off);
	free(im->grp);
	free(im->state);
	free(im->how);
	free(im->hot);
	free(im->hits);
	free(im->g);
	memset(im, 0, sizeof(*im));
}

/*
 * Parse a data file of insn_boundaries.sh.  Returns 0, 1 when it names no
 * file (the build host had none), or -errno with a message in ERR (a
 * missing data file is an error: the initramfs must have it).
 */
static int image_load(struct image *im, const char *data, char *err,
		      size_t errlen)
{
	uint32_t cap_g = 0, ni = 0, i;
	char *line = NULL, kind;
	size_t linecap = 0;
	unsigned long o;
	ssize_t n;
	FILE *f;
	int ret = -EINVAL;

	memset(im, 0, sizeof(*im));
	f = fopen(data, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", data,
			 strerror(errno));
		return -errno;
	}
	while ((n = getline(&line, &linecap, f)) > 0) {
		char name[64], *lens;
		int pos = 0;

		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (sscanf(line, "path %4095s", im->path) == 1 ||
		    sscanf(line, "size %lu", &im->size) == 1 ||
		    sscanf(line, "buildid %95s", im->buildid) == 1 ||
		    sscanf(line, "regions %u", &im->nregions) == 1)
			continue;
		if (sscanf(line, "insns %u", &im->nins) == 1) {
			if (!im->nins || im->nins > 10000000)
				goto bad;
			im->off = calloc(im->nins, sizeof(*im->off));
			im->grp = calloc(im->nins, sizeof(*im->grp));
			im->state = calloc(im->nins, 1);
			im->how = calloc(im->nins, 1);
			im->hot = calloc(im->nins, 1);
			im->hits = calloc(im->nins, sizeof(*im->hits));
			if (!im->off || !im->grp || !im->state || !im->how ||
			    !im->hot || !im->hits) {
				ret = -ENOMEM;
				goto bad;
			}
			continue;
		}
		if (sscanf(line, "r %lx %c %63s %n", &o, &kind, name, &pos) != 3 ||
		    !pos || !im->off)
			goto bad;
		lens = line + pos;
		/* A function starts a group; so does code before any. */
		if (kind == 'F' || !im->ngrp) {
			if (im->ngrp == cap_g) {
				struct group *ng;

				cap_g = cap_g ? cap_g * 2 : 4096;
				ng = realloc(im->g, cap_g * sizeof(*ng));
				if (!ng) {
					ret = -ENOMEM;
					goto bad;
				}
				im->g = ng;
			}
			memset(&im->g[im->ngrp], 0, sizeof(im->g[0]));
			im->g[im->ngrp].first = ni;
			im->g[im->ngrp].entry = kind == 'F' ? ni : UINT32_MAX;
			snprintf(im->g[im->ngrp].name, sizeof(im->g[0].name),
				 "%s", name);
			im->ngrp++;
		}
		for (; *lens; lens++) {
			int len = hexval(*lens);

			if (len < 1 || ni >= im->nins || o > UINT32_MAX)
				goto bad;
			if (ni && o <= im->off[ni - 1])
				goto bad;
			im->off[ni] = o;
			im->grp[ni] = im->ngrp - 1;
			im->g[im->ngrp - 1].n++;
			ni++;
			o += len;
		}
	}
	if (!im->path[0]) {
		snprintf(err, errlen, "%s names no file", data);
		ret = 1;
		goto out;
	}
	if (ni != im->nins || !ni) {
		snprintf(err, errlen, "%s: %u boundaries, header says %u", data,
			 ni, im->nins);
		goto out;
	}
	for (i = 0; i < im->ngrp; i++)
		if (im->g[i].first + im->g[i].n > ni)
			goto bad;
	ret = 0;
	goto out;
bad:
	snprintf(err, errlen, "%s: bad line '%.80s'", data, line ? line : "");
out:
	free(line);
	fclose(f);
	if (ret)
		image_free(im);
	return ret;
}

/* Boundary index of file offset OFF, or -1. */
static long image_find(const struct image *im, unsigned long off)
{
	long lo = 0, hi = (long)im->nins - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (im->off[mid] == off)
			return mid;
		if (im->off[mid] < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* ---- tracefs ---- */

/* Disable and delete the whole group (leftovers of a killed run too). */
static void group_delete(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (access(EVDIR, F_OK))
		return;
	upng_write_file(EVDIR "/enable", "0\n", O_TRUNC);
	if (!upng_write_file(UPNG_TRACEFS "/uprobe_events", "-:" GROUP "/\n",
			     O_APPEND) && access(EVDIR, F_OK))
		return;
	/* One by one, should the group form not be understood. */
	d = opendir(EVDIR);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "-:" GROUP "/%.200s\n", de->d_name);
		upng_write_file(UPNG_TRACEFS "/uprobe_events", path, O_APPEND);
	}
	closedir(d);
}

/*
 * Hits of this group's events from uprobe_profile into HITS (indexed like
 * the boundaries, only where the event names a boundary of IM); returns
 * the total, or -1 if the file cannot be read.
 */
static long profile_read(const struct image *im, uint32_t *hits)
{
	char file[PATH_MAX], name[128], *buf, *line, *end;
	unsigned long h, off;
	long total = 0, idx;

	buf = read_all(UPNG_TRACEFS "/uprobe_profile", NULL);
	if (!buf)
		return -1;
	for (line = buf; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (sscanf(line, "%4095s %127s %lu", file, name, &h) != 3 ||
		    name[0] != 'o' || strcmp(file, im->path))
			continue;
		if (sscanf(name + 1, "%lx", &off) != 1)
			continue;
		idx = image_find(im, off);
		if (idx < 0)
			continue;
		if (hits)
			hits[idx] = h;
		total += h;
	}
	free(buf);
	return total;
}

/* Kernel log records since FD's position saying "cannot probe: WHY". */
static void kmsg_reasons(struct job *j, int fd)
{
	char rec[2048], why[64];
	ssize_t n;
	int i;

	if (fd < 0)
		return;
	for (;;) {
		char *p, *q;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		p = strstr(rec, "cannot probe: ");
		if (!p)
			continue;
		p += strlen("cannot probe: ");
		q = strstr(p, " (");
		if (!q)
			q = strchrnul(p, '\n');
		snprintf(why, sizeof(why), "%.*s", (int)(q - p), p);
		for (i = 0; i < j->nreasons; i++)
			if (!strcmp(j->refusal_reason[i], why))
				break;
		if (i == j->nreasons) {
			/* The last slot collects what does not fit. */
			if (j->nreasons == 15)
				snprintf(why, sizeof(why), "other reasons");
			snprintf(j->refusal_reason[i], sizeof(why), "%s", why);
			if (j->nreasons < 16)
				j->nreasons++;
			else
				i = 15;
		}
		j->refusal_reason_n[i]++;
	}
}

/*
 * The engine's probes on IM's file, from the debugfs list ("<inode>
 * 0x<offset> <how> <major>:<minor>[ stranded]"): with HOW, record how
 * each boundary runs.  Returns how many are listed, -1 without the file.
 */
static long debugfs_probes(struct job *j, struct image *im, bool how)
{
	unsigned long ino, off;
	unsigned int maj, min;
	char *buf, *line, *end, kind[32];
	struct stat st;
	long k, i, n = 0;

	buf = read_all(DEBUGFS_PROBES, NULL);
	if (!buf)
		return -1;
	j->debugfs_seen = true;
	if (stat(im->path, &st)) {
		free(buf);
		return -1;
	}
	for (line = buf; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (sscanf(line, "%lu 0x%lx %31s %u:%u", &ino, &off, kind, &maj,
			   &min) != 5 || ino != st.st_ino ||
		    maj != major(st.st_dev) || min != minor(st.st_dev))
			continue;
		n++;
		i = image_find(im, off);
		if (i < 0 || !how)
			continue;
		for (k = 0; k < HOW_N; k++)
			if (!strcmp(kind, how_name[k]))
				break;
		im->how[i] = k < HOW_N ? k : HOW_OTHER;
	}
	free(buf);
	return n;
}

/* ---- workloads ---- */

static const char *cmd_name(const struct job *j, int i)
{
	return j->libc ? "libcwork" : allinsn_cmds[i].name;
}

static const char *cmd_text(const struct job *j, int i)
{
	return j->libc ? j->libcwork : allinsn_cmds[i].sh;
}

/*
 * Run the workload with its outputs in OUTDIR.  With HITCAP, the hits of
 * IM's events are watched: more than HITCAP above HITBASE, the run is
 * killed and *ABORTED set.  Returns 0, or -errno when it could not run or
 * ran out of time.
 */
static int run_workload(struct job *j, const struct image *im,
			const char *outdir, long hitbase, long hitcap,
			bool *aborted)
{
	char path[PATH_MAX + 32], rc[32];
	double start = now(), last = start;
	int status = 0, fd;
	pid_t pid, r;

	*aborted = false;
	if (fresh_dir(outdir))
		return -EIO;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0);
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		if (j->libc) {
			snprintf(path, sizeof(path), "%s/0.out", outdir);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(fd, 1);
			snprintf(path, sizeof(path), "%s/0.err", outdir);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(fd, 2);
			execl(j->libcwork, j->libcwork, (char *)NULL);
		} else {
			if (chdir(j->workdir))
				_exit(126);
			execl("/bin/busybox", "busybox", "sh", "work.sh", outdir,
			      (char *)NULL);
		}
		_exit(127);
	}
	setpgid(pid, pid);
	j->runs++;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		usleep(100000);
		if (now() - start > WORK_TIMEOUT_S) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		if (hitcap && now() - last >= 1.0) {
			last = now();
			if (profile_read(im, NULL) - hitbase > hitcap) {
				kill(-pid, SIGKILL);
				waitpid(pid, &status, 0);
				*aborted = true;
				break;
			}
		}
	}
	/* Nothing of the run may linger (a pipeline's leftover). */
	kill(-pid, SIGKILL);
	if (j->libc) {
		snprintf(path, sizeof(path), "%s/0.rc", outdir);
		snprintf(rc, sizeof(rc), "%d\n", WIFEXITED(status) ?
			 WEXITSTATUS(status) : 128 + WTERMSIG(status));
		upng_write_file(path, rc, O_CREAT | O_TRUNC);
		if (!*aborted) {
			snprintf(path, sizeof(path), "%s/done", outdir);
			upng_write_file(path, "done\n", O_CREAT | O_TRUNC);
		}
	}
	return 0;
}

/* Line LINE (0-based) of TEXT into OUT, for the divergence report. */
static void nth_line(const char *text, long line, char *out, size_t len)
{
	const char *p = text, *e;

	while (line-- > 0 && (p = strchr(p, '\n')))
		p++;
	if (!p || !*p) {
		snprintf(out, len, "<end of output>");
		return;
	}
	e = strchrnul(p, '\n');
	snprintf(out, len, "'%.*s'", (int)(e - p < 100 ? e - p : 100), p);
}

/* Compare file NAME of two runs; prints and returns 1 on a difference. */
static int compare_file(const char *a, const char *b, const char *name,
			const char *what)
{
	char pa[PATH_MAX + 64], pb[PATH_MAX + 64], la[128], lb[128];
	size_t na = 0, nb = 0, i;
	char *x, *y;
	long line = 0;
	int diff;

	snprintf(pa, sizeof(pa), "%s/%s", a, name);
	snprintf(pb, sizeof(pb), "%s/%s", b, name);
	x = read_all(pa, &na);
	y = read_all(pb, &nb);
	diff = !x || !y || na != nb || memcmp(x, y, na);
	if (diff) {
		for (i = 0; x && y && i < na && i < nb && x[i] == y[i]; i++)
			if (x[i] == '\n')
				line++;
		nth_line(x ? x : "", line, la, sizeof(la));
		nth_line(y ? y : "", line, lb, sizeof(lb));
		allinsn_notice("  %s: %s%zu bytes, probed %s%zu bytes; first difference at line %ld: %s / %s\n",
			       what, x ? "" : "missing, ", na,
			       y ? "" : "missing, ", nb, line + 1, la, lb);
	}
	free(x);
	free(y);
	return diff;
}

/* Whether file NAME is the same in directories A and B (and exists). */
static bool same_file(const char *a, const char *b, const char *name)
{
	char pa[PATH_MAX + 64], pb[PATH_MAX + 64];
	size_t na = 0, nb = 0;
	char *x, *y;
	bool same;

	snprintf(pa, sizeof(pa), "%s/%s", a, name);
	snprintf(pb, sizeof(pb), "%s/%s", b, name);
	x = read_all(pa, &na);
	y = read_all(pb, &nb);
	same = x && y && na == nb && !memcmp(x, y, na);
	free(x);
	free(y);
	return same;
}

/* Number of commands whose output, errors or status differ from REF. */
static int compare_runs(const struct job *j, const char *ref,
			const char *run, const char *label)
{
	static const char * const what[] = { "exit status", "stdout", "stderr" };
	static const char * const ext[] = { "rc", "out", "err" };
	char name[3][32];
	int i, k, bad = 0;

	for (i = 0; i < j->ncmds; i++) {
		for (k = 0; k < 3; k++)
			snprintf(name[k], sizeof(name[k]), "%d.%s", i, ext[k]);
		if (same_file(ref, run, name[0]) && same_file(ref, run, name[1]) &&
		    same_file(ref, run, name[2]))
			continue;
		allinsn_notice("DIVERGENCE %s: command %d '%s': %.300s\n",
			       label, i, cmd_name(j, i), cmd_text(j, i));
		for (k = 0; k < 3; k++)
			compare_file(ref, run, name[k], what[k]);
		bad++;
	}
	if (!same_file(ref, run, "done")) {
		allinsn_notice("DIVERGENCE %s: the workload did not finish\n",
			       label);
		bad++;
	}
	fflush(stdout);
	return bad;
}

/* ---- batches ---- */

struct batch_stat {
	long probes, accepted, refused, deferr, hits, div, hot;
	bool done;
};

/* Define the events of IDX[0..N); marks definition failures ST_DEFERR. */
static void define_batch(struct image *im, const uint32_t *idx, long n,
			 bool *defined)
{
	char buf[4096], line[PATH_MAX + 64], path[PATH_MAX];
	long k, first = 0;
	size_t len = 0;
	int fd, i;

	fd = open(UPNG_TRACEFS "/uprobe_events", O_WRONLY | O_APPEND);
	for (k = 0; k <= n; k++) {
		int l = 0;

		if (k < n)
			l = snprintf(line, sizeof(line), "p:" GROUP "/o%x %s:0x%x\n",
				     im->off[idx[k]], im->path, im->off[idx[k]]);
		if (k == n || len + l >= sizeof(buf)) {
			/* Chunk [first, k): lines up to a failure are in. */
			if (fd >= 0 && len && write(fd, buf, len) == (ssize_t)len) {
				for (i = first; i < k; i++)
					defined[i] = true;
			} else {
				for (i = first; i < k; i++) {
					char one[PATH_MAX + 64];

					snprintf(path, sizeof(path), EVDIR "/o%x",
						 im->off[idx[i]]);
					if (!access(path, F_OK)) {
						defined[i] = true;
						continue;
					}
					snprintf(one, sizeof(one),
						 "p:" GROUP "/o%x %s:0x%x\n",
						 im->off[idx[i]], im->path,
						 im->off[idx[i]]);
					defined[i] = !upng_write_file(UPNG_TRACEFS "/uprobe_events",
								      one, O_APPEND);
				}
			}
			first = k;
			len = 0;
		}
		if (k < n) {
			memcpy(buf + len, line, l);
			len += l;
		}
	}
	if (fd >= 0)
		close(fd);
	for (k = 0; k < n; k++)
		if (!defined[k])
			im->state[idx[k]] = ST_DEFERR;
}

/* Turn off the events of the groups that took the most of HITS. */
static long cool_down(struct image *im, const uint32_t *idx, long n,
		      const bool *on, const uint32_t *hits, long cap)
{
	char path[PATH_MAX];
	long k, dropped = 0, worst = -1;
	uint32_t wg = 0;

	/* Every group above cap/16 goes; at least the hottest one. */
	for (k = 0; k < n; k++)
		if (on[k] && !im->hot[idx[k]] && (long)hits[k] > worst) {
			worst = hits[k];
			wg = im->grp[idx[k]];
		}
	for (k = 0; k < n; k++) {
		uint32_t g = im->grp[idx[k]];
		long gh = 0, m;

		if (!on[k] || im->hot[idx[k]])
			continue;
		for (m = 0; m < n; m++)
			if (im->grp[idx[m]] == g)
				gh += hits[m];
		if (g != wg && gh < cap / 16)
			continue;
		for (m = 0; m < n; m++) {
			if (im->grp[idx[m]] != g || im->hot[idx[m]] || !on[m])
				continue;
			snprintf(path, sizeof(path), EVDIR "/o%x/enable",
				 im->off[idx[m]]);
			upng_write_file(path, "0\n", O_TRUNC);
			im->hot[idx[m]] = 1;
			dropped++;
		}
	}
	return dropped;
}

/*
 * Probe the boundaries IDX[0..N) at once and run the workload under them.
 * Fills ST and the image's per-boundary state, hits and "how".
 */
static void run_batch(struct __test_metadata *_metadata, struct job *j,
		      struct image *im, const uint32_t *idx, long n,
		      const char *label, struct batch_stat *st)
{
	uint32_t *h0 = calloc(n, sizeof(*h0)), *h1 = calloc(n, sizeof(*h1));
	uint32_t *all = calloc(im->nins, sizeof(*all));
	bool *defined = calloc(n, sizeof(*defined));
	bool *on = calloc(n, sizeof(*on));
	double t = now();
	char path[PATH_MAX], buf[8];
	int kfd, err, attempt, div = 0;
	bool aborted = false;
	long k;

	memset(st, 0, sizeof(*st));
	ASSERT_TRUE(h0 && h1 && all && defined && on);
	st->probes = n;
	group_delete();
	define_batch(im, idx, n, defined);

	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	err = access(EVDIR, F_OK) ? -ENOENT :
	      upng_write_file(EVDIR "/enable", "1\n", O_TRUNC);
	for (k = 0; k < n; k++) {
		if (!defined[k]) {
			st->deferr++;
			continue;
		}
		on[k] = true;
		if (err) {
			/* Some were refused: which ones? */
			snprintf(path, sizeof(path), "events/" GROUP "/o%x/enable",
				 im->off[idx[k]]);
			memset(buf, 0, sizeof(buf));
			on[k] = !upng_tracefs_read(path, buf, sizeof(buf)) &&
				buf[0] == '1';
		}
		if (on[k]) {
			st->accepted++;
			EXPECT_NE(ST_REFUSED, im->state[idx[k]])
				TH_LOG("%s:0x%x refused before, accepted now",
				       im->path, im->off[idx[k]]);
			im->state[idx[k]] = ST_OK;
		} else {
			st->refused++;
			EXPECT_NE(ST_OK, im->state[idx[k]])
				TH_LOG("%s:0x%x accepted before, refused now",
				       im->path, im->off[idx[k]]);
			im->state[idx[k]] = ST_REFUSED;
		}
	}
	kmsg_reasons(j, kfd);
	if (kfd >= 0)
		close(kfd);

	/* The workload; a run the watchdog stops is repeated, cooler. */
	for (attempt = 0; attempt < 4; attempt++) {
		long base = profile_read(im, all);

		for (k = 0; k < n; k++)
			h0[k] = all[idx[k]];
		err = run_workload(j, im, j->rundir, base, j->batch_hits,
				   &aborted);
		EXPECT_EQ(0, err) TH_LOG("%s: workload: %s", label, strerror(-err));
		if (err)
			break;
		if (!aborted) {
			div = compare_runs(j, j->refdir, j->rundir, label);
			break;
		}
		j->aborted_runs++;
		profile_read(im, all);
		for (k = 0; k < n; k++)
			h1[k] = all[idx[k]] - h0[k];
		st->hot += cool_down(im, idx, n, on, h1, j->batch_hits);
		allinsn_notice("%s: run stopped above %ld hits; %ld hot probes turned off, again\n",
			       label, j->batch_hits, st->hot);
	}
	if (aborted || err) {
		j->void_batches++;
		allinsn_notice("%s: no complete run, no verdict for this batch\n",
			       label);
	}
	st->div = div;
	j->divergences += div;
	EXPECT_EQ(0, div) TH_LOG("%s: %d command(s) diverged under probes",
				 label, div);

	debugfs_probes(j, im, true);
	profile_read(im, all);
	for (k = 0; k < n; k++) {
		if (!on[k])
			continue;
		im->hits[idx[k]] += all[idx[k]];
		st->hits += all[idx[k]];
	}
	group_delete();
	EXPECT_NE(0, access(EVDIR, F_OK)) TH_LOG("%s: group not deleted", label);
	/* The engine lets go of them (at most a moment later). */
	for (k = 0; k < 20 && debugfs_probes(j, im, false) > 0; k++)
		usleep(100000);
	if (k == 20) {
		j->lingering += debugfs_probes(j, im, false);
		allinsn_notice("%s: NOTE: %ld probes on %s still listed in %s after the events were deleted\n",
			       label, debugfs_probes(j, im, false), im->path,
			       DEBUGFS_PROBES);
	}
	st->done = true;
	j->batches++;
	allinsn_notice("%s: %ld probes [0x%x-0x%x]: %ld accepted, %ld refused%s%s, %ld hits, %d divergences, %.1f s\n",
		       label, n, im->off[idx[0]], im->off[idx[n - 1]],
		       st->accepted, st->refused + st->deferr,
		       st->deferr ? " (some at definition)" : "",
		       st->hot ? " (some turned off as too hot)" : "", st->hits,
		       div, now() - t);
	fflush(stdout);
	free(h0);
	free(h1);
	free(all);
	free(defined);
	free(on);
}

/* Would another batch, as long as the last one, end past the budget? */
static bool out_of_time(const struct job *j)
{
	return j->has_deadline && now() - j->t0 + j->last_batch > j->secs;
}

/* Probe IDX[0..N) in batches; returns the totals in SUM. */
static void run_phase(struct __test_metadata *_metadata, struct job *j,
		      struct image *im, const uint32_t *idx, long n,
		      const char *phase, struct batch_stat *sum)
{
	long nb = (n + j->batch - 1) / j->batch, b;
	char label[96];
	double t;

	memset(sum, 0, sizeof(*sum));
	for (b = 0; b < nb; b++) {
		long first = b * j->batch, cnt = n - first;
		struct batch_stat st;

		if (cnt > j->batch)
			cnt = j->batch;
		if (out_of_time(j)) {
			j->skipped_batches += nb - b;
			j->skipped_probes += n - first;
			allinsn_notice("%s %s: time budget of %ld s used up: %ld of %ld batches (%ld boundaries) skipped\n",
				       j->tag, phase, j->secs, nb - b, nb,
				       n - first);
			break;
		}
		snprintf(label, sizeof(label), "%s %s %ld/%ld", j->tag, phase,
			 b + 1, nb);
		t = now();
		run_batch(_metadata, j, im, idx + first, cnt, label, &st);
		j->last_batch = now() - t;
		sum->probes += st.probes;
		sum->accepted += st.accepted;
		sum->refused += st.refused + st.deferr;
		sum->hits += st.hits;
		sum->div += st.div;
		sum->hot += st.hot;
	}
}

/* ---- selection ---- */

static const struct image *sort_im;

static int by_entry_hits_desc(const void *a, const void *b)
{
	const struct group *x = &sort_im->g[*(const uint32_t *)a];
	const struct group *y = &sort_im->g[*(const uint32_t *)b];

	if (x->entry_hits != y->entry_hits)
		return x->entry_hits < y->entry_hits ? 1 : -1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int by_entry_hits_asc(const void *a, const void *b)
{
	const struct group *x = &sort_im->g[*(const uint32_t *)a];
	const struct group *y = &sort_im->g[*(const uint32_t *)b];

	if (x->entry_hits != y->entry_hits)
		return x->entry_hits < y->entry_hits ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * The main phase's boundaries into OUT (ascending); returns how many.
 * Executed groups (entry hit) are taken whole: first the most called
 * ones whose estimate (entry hits x boundaries) fits 30% of the hit
 * budget, then the least called ones while the budget lasts, within 3/4
 * of MAX boundaries; the rest of MAX is a uniform sample of the
 * boundaries of groups whose entry was probed but never hit.
 */
static long select_main(struct job *j, struct image *im, uint32_t *out,
			long *nexec_groups, long *nexec_bounds, long *est_hits,
			long *nsampled, long *ncold_groups)
{
	long budget = j->max * 3 / 4, used = 0, est = 0, hot_budget = j->hits * 3 / 10;
	long ncand = 0, nchosen = 0, need, seen, n = 0, i, k;
	uint32_t *cand = calloc(im->ngrp, sizeof(*cand));
	uint8_t *pick = calloc(im->nins, 1);

	if (!cand || !pick) {
		free(cand);
		free(pick);
		return -1;
	}
	for (i = 0; i < im->ngrp; i++)
		if (im->g[i].entry_hits)
			cand[ncand++] = i;
	sort_im = im;
	qsort(cand, ncand, sizeof(*cand), by_entry_hits_desc);
	for (k = 0; k < ncand; k++) {
		struct group *g = &im->g[cand[k]];
		long e = (long)g->entry_hits * g->n;

		if (e <= hot_budget - est && used + g->n <= budget) {
			g->chosen = true;
			used += g->n;
			est += e;
			nchosen++;
		}
	}
	qsort(cand, ncand, sizeof(*cand), by_entry_hits_asc);
	for (k = 0; k < ncand; k++) {
		struct group *g = &im->g[cand[k]];
		long e = (long)g->entry_hits * g->n;

		if (g->chosen || e > j->hits - est || used + g->n > budget)
			continue;
		g->chosen = true;
		used += g->n;
		est += e;
		nchosen++;
	}
	for (i = 0; i < im->ngrp; i++) {
		if (!im->g[i].chosen)
			continue;
		for (k = 0; k < im->g[i].n; k++)
			pick[im->g[i].first + k] = 1;
	}
	*nexec_groups = nchosen;
	*nexec_bounds = used;
	*est_hits = est;

	/* Cold: entry probed, accepted and never hit; the entry itself was. */
	seen = 0;
	*ncold_groups = 0;
	for (i = 0; i < im->ngrp; i++) {
		struct group *g = &im->g[i];

		if (g->entry == UINT32_MAX || g->entry_hits ||
		    im->state[g->entry] != ST_OK)
			continue;
		(*ncold_groups)++;
		seen += g->n - 1;
	}
	need = j->max - used;
	if (need > seen)
		need = seen;
	*nsampled = need;
	/* Selection sampling (Knuth's algorithm S): NEED of SEEN, uniformly. */
	for (i = 0; i < im->ngrp && need > 0; i++) {
		struct group *g = &im->g[i];

		if (g->entry == UINT32_MAX || g->entry_hits ||
		    im->state[g->entry] != ST_OK)
			continue;
		for (k = g->first; k < g->first + g->n && need > 0; k++) {
			if (k == g->entry)
				continue;
			if ((long)(rng() % seen) < need) {
				pick[k] = 1;
				need--;
			}
			seen--;
		}
	}
	for (i = 0; i < im->nins; i++)
		if (pick[i])
			out[n++] = i;
	free(cand);
	free(pick);
	return n;
}

/* ---- the test ---- */

FIXTURE(allinsn) {
	struct image im;
	struct job j;
	bool have_image;
};

FIXTURE_VARIANT(allinsn) {
	const char *tag;
	const char *data;
	bool libc;
	const char *max_env, *hits_env, *secs_env;
	long max, hits;
	int secs_pct;	/* share of the runner's time limit, for _SECS */
};

/*
 * 9k boundaries of executed functions, 3k sampled from the others, in 6
 * batches after 2 of function entries; each batch runs the workload once
 * (29 execs of busybox, each inserting every probe of the batch).
 */
FIXTURE_VARIANT_ADD(allinsn, busybox) {
	.tag = "busybox",
	.data = "data/busybox.insns",
	.libc = false,
	.max_env = "UPROBES_NG_ALLINSN_MAX",
	.hits_env = "UPROBES_NG_ALLINSN_HITS",
	.secs_env = "UPROBES_NG_ALLINSN_SECS",
	.max = 12000,
	.hits = 400000,
	.secs_pct = 45,
};

/* A slice of ~3.7k boundaries of the libc functions libcwork runs. */
FIXTURE_VARIANT_ADD(allinsn, libc) {
	.tag = "libc",
	.data = "data/libc.insns",
	.libc = true,
	.max_env = "UPROBES_NG_ALLINSN_LIBC_MAX",
	.hits_env = "UPROBES_NG_ALLINSN_LIBC_HITS",
	.secs_env = "UPROBES_NG_ALLINSN_LIBC_SECS",
	.max = 5000,
	.hits = 200000,
	.secs_pct = 25,
};

FIXTURE_SETUP(allinsn)
{
	char err[256], cwd[PATH_MAX - 64], buildid[96];
	struct job *j = &self->j;
	struct stat st;
	int ret;

	upng_die_with_parent();
	/* Progress lines must not wait in a buffer (the harness _exit()s). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(j, 0, sizeof(*j));
	self->have_image = false;
	j->tag = variant->tag;
	j->libc = variant->libc;
	j->t0 = now();
	j->max = env_long(variant->max_env, variant->max);
	j->hits = env_long(variant->hits_env, variant->hits);
	j->batch = env_long("UPROBES_NG_ALLINSN_BATCH", 2000);
	j->batch_hits = env_long("UPROBES_NG_ALLINSN_BATCH_HITS", 600000);
	j->seed = env_long("UPROBES_NG_ALLINSN_SEED", 1);
	/* Every boundary (MAX 0) takes as long as it takes, unless told. */
	j->has_deadline = j->max || env_set(variant->secs_env);
	j->secs = env_long(variant->secs_env,
			   env_long("UPROBES_NG_TIMEOUT", 150) *
			   variant->secs_pct / 100);
	if (j->batch < 1)
		j->batch = 2000;
	rng_state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)j->seed;

	ret = image_load(&self->im, upng_path(variant->data), err, sizeof(err));
	if (ret == 1)
		SKIP(return, "%s", err);
	ASSERT_EQ(0, ret) TH_LOG("%s", err);
	self->have_image = true;

	/* The data must describe the very file the guest has. */
	ASSERT_EQ(0, stat(self->im.path, &st)) TH_LOG("%s", self->im.path);
	ASSERT_EQ(self->im.size, (unsigned long)st.st_size)
		TH_LOG("%s changed since %s was made", self->im.path,
		       variant->data);
	elf_buildid(self->im.path, buildid, sizeof(buildid));
	ASSERT_STREQ(self->im.buildid, buildid) TH_LOG("%s", self->im.path);

	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	snprintf(j->workdir, sizeof(j->workdir), "%s/%s.in", cwd, j->tag);
	snprintf(j->refdir, sizeof(j->refdir), "%s/%s.ref", cwd, j->tag);
	snprintf(j->ref2dir, sizeof(j->ref2dir), "%s/%s.ref2", cwd, j->tag);
	snprintf(j->rundir, sizeof(j->rundir), "%s/%s.run", cwd, j->tag);
	ASSERT_EQ(0, fresh_dir(j->workdir));
	if (j->libc) {
		j->libcwork = upng_path("bin/libcwork");
		j->ncmds = 1;
	} else {
		ASSERT_EQ(0, allinsn_work_write(j->workdir, BUSYBOX_WORDS));
		j->ncmds = ALLINSN_NCMDS;
	}
	ASSERT_EQ(0, upng_trace_reset());
	group_delete();
	ASSERT_NE(0, access(EVDIR, F_OK)) TH_LOG("stale %s", EVDIR);
}

FIXTURE_TEARDOWN(allinsn)
{
	group_delete();
	if (self->have_image)
		image_free(&self->im);
}

/* The libc the dynamic workload maps must be the data's file. */
static void check_libc(struct __test_metadata *_metadata, struct job *j,
		       struct image *im)
{
	char out[PATH_MAX + 32], path[PATH_MAX];
	struct stat a, b;
	struct upng_child c;
	int n;

	ASSERT_EQ(0, upng_spawn(&c, j->libcwork, "maps", NULL));
	ASSERT_LT(0, upng_recv(&c, out, sizeof(out), 60000));
	ASSERT_EQ(0, upng_finish(&c, 60000));
	n = sscanf(out, "libc %4095s", path);
	ASSERT_EQ(1, n) TH_LOG("'%s'", out);
	ASSERT_EQ(0, stat(path, &a));
	ASSERT_EQ(0, stat(im->path, &b));
	ASSERT_TRUE(a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		TH_LOG("libcwork runs with %s, the data describes %s", path,
		       im->path);
}

static void print_summary(struct job *j, struct image *im)
{
	long probed = 0, ok = 0, refused = 0, deferr = 0, executed = 0, hot = 0;
	long how[HOW_N] = { 0 };
	uint64_t hits = 0;
	uint32_t i;
	int r;

	for (i = 0; i < im->nins; i++) {
		if (im->state[i] == ST_NONE)
			continue;
		probed++;
		ok += im->state[i] == ST_OK;
		refused += im->state[i] == ST_REFUSED;
		deferr += im->state[i] == ST_DEFERR;
		if (im->state[i] == ST_OK)
			how[im->how[i]]++;
		executed += im->hits[i] > 0;
		hot += im->hot[i];
		hits += im->hits[i];
	}
	allinsn_notice("%s: %s: boundaries total %u, probed %ld (%.1f%%), accepted %ld, refused %ld (%ld at definition)\n",
		       j->tag, im->path, im->nins, probed,
		       100.0 * probed / im->nins, ok, refused + deferr, deferr);
	allinsn_notice("%s: executed under probes: %ld boundaries, %llu hits; %ld turned off as too hot; %ld workload runs, %ld divergences\n",
		       j->tag, executed, (unsigned long long)hits, hot, j->runs,
		       j->divergences);
	if (j->debugfs_seen)
		allinsn_notice("%s: accepted: jump %ld, emulated %ld, boosted %ld, stepped %ld (pending %ld, refused %ld, not listed %ld, other %ld)\n",
			       j->tag, how[HOW_JUMP], how[HOW_EMULATED],
			       how[HOW_BOOSTED], how[HOW_STEPPED], how[HOW_PENDING],
			       how[HOW_REFUSED], how[HOW_UNKNOWN],
			       how[HOW_OTHER]);
	else
		allinsn_notice("%s: TODO: emulated/boosted/stepped of the %ld accepted boundaries: not exposed by the engine yet (no %s)\n",
			       j->tag, ok, DEBUGFS_PROBES);
	for (r = 0; r < j->nreasons; r++)
		allinsn_notice("%s: refused because \"%s\": %ld\n",
			       j->tag, j->refusal_reason[r],
			       j->refusal_reason_n[r]);
	if (j->skipped_batches)
		allinsn_notice("%s: NOT COVERED: %ld batches (%ld boundaries) skipped for time (UPROBES_NG_ALLINSN_*SECS)\n",
			       j->tag, j->skipped_batches, j->skipped_probes);
	if (j->void_batches)
		allinsn_notice("%s: NOT COVERED: %ld batches without a complete run\n",
			       j->tag, j->void_batches);
	if (j->lingering)
		allinsn_notice("%s: NOTE: %ld probes outlived their deleted events (see the batch lines)\n",
			       j->tag, j->lingering);
	fflush(stdout);
}

TEST_F_TIMEOUT(allinsn, probe_every_boundary, 480)
{
	struct job *j = &self->j;
	struct image *im = &self->im;
	long n = 0, ngroups_exec = 0, nexec_groups = 0, nexec_bounds = 0;
	long est = 0, nsampled = 0, ncold = 0, seen_hits = 0;
	struct batch_stat disc = { 0 }, mainst = { 0 };
	uint32_t *idx, i;
	bool aborted;
	int err;

	allinsn_notice("%s: %s: %u boundaries, %u regions, %u functions; max %ld%s, hit budget %ld, batches of %ld, watchdog %ld hits, time %ld s%s\n",
		       j->tag, im->path, im->nins, im->nregions, im->ngrp,
		       j->max, j->max ? "" : " (every boundary)", j->hits,
		       j->batch, j->batch_hits, j->secs,
		       j->has_deadline ? "" : " (no limit)");
	if (j->libc)
		check_libc(_metadata, j, im);

	/* Reference: twice, the same, and complete. */
	err = run_workload(j, im, j->refdir, 0, 0, &aborted);
	ASSERT_EQ(0, err) TH_LOG("reference run: %s", strerror(-err));
	err = run_workload(j, im, j->ref2dir, 0, 0, &aborted);
	ASSERT_EQ(0, err) TH_LOG("reference run: %s", strerror(-err));
	ASSERT_EQ(0, compare_runs(j, j->refdir, j->ref2dir, "reference"))
		TH_LOG("the workload is not deterministic");
	{
		char p[PATH_MAX + 16];

		snprintf(p, sizeof(p), "%s/done", j->refdir);
		ASSERT_EQ(0, access(p, F_OK)) TH_LOG("the workload did not finish");
		/* libcwork's own checks pass without probes. */
		snprintf(p, sizeof(p), "%s/0.rc", j->refdir);
		if (j->libc) {
			char *rc = read_all(p, NULL);

			ASSERT_NE(NULL, rc);
			EXPECT_STREQ("0\n", rc) TH_LOG("libcwork fails unprobed");
			free(rc);
		}
	}
	allinsn_notice("%s: reference runs agree (%d commands), %.1f s\n",
		       j->tag, j->ncmds, now() - j->t0);

	idx = calloc(im->nins, sizeof(*idx));
	ASSERT_NE(NULL, idx);

	if (!j->max) {
		/* Every boundary. */
		for (i = 0; i < im->nins; i++)
			idx[i] = i;
		run_phase(_metadata, j, im, idx, im->nins, "all", &mainst);
	} else {
		/* Discovery: the entry of every function. */
		for (i = 0; i < im->ngrp; i++)
			if (im->g[i].entry != UINT32_MAX)
				idx[n++] = im->g[i].entry;
		run_phase(_metadata, j, im, idx, n, "entries", &disc);
		for (i = 0; i < im->ngrp; i++) {
			struct group *g = &im->g[i];

			if (g->entry == UINT32_MAX)
				continue;
			g->entry_hits = im->hits[g->entry];
			ngroups_exec += g->entry_hits > 0;
		}
		allinsn_notice("%s: entries: %ld probed, %ld accepted, %ld refused, %ld hits: %ld functions executed\n",
			       j->tag, disc.probes, disc.accepted, disc.refused,
			       disc.hits, ngroups_exec);
		EXPECT_LT(0, disc.hits) TH_LOG("no function entry was hit");

		n = select_main(j, im, idx, &nexec_groups, &nexec_bounds, &est,
				&nsampled, &ncold);
		ASSERT_LE(0, n);
		allinsn_notice("%s: main: %ld boundaries: all %ld of %ld of the %ld executed functions (estimated %ld hits) + %ld sampled from %ld functions never entered (seed %ld)\n",
			       j->tag, n, nexec_bounds, nexec_groups,
			       ngroups_exec, est, nsampled, ncold, j->seed);
		run_phase(_metadata, j, im, idx, n, "main", &mainst);
		if (mainst.probes && nexec_bounds)
			EXPECT_LT(0, mainst.hits)
				TH_LOG("no probe of an executed function was hit");
	}
	free(idx);

	for (i = 0; i < im->nins; i++)
		seen_hits += im->hits[i];
	print_summary(j, im);
	EXPECT_EQ(0, j->divergences);
	ASSERT_LT(0, seen_hits) TH_LOG("no probe was hit at all");
	/* A sane engine refuses only rare instructions (lock, syscall...). */
	EXPECT_LE((disc.refused + mainst.refused) * 100,
		  (disc.probes + mainst.probes) * 5)
		TH_LOG("more than 5%% of the probes refused");
}

TEST_HARNESS_MAIN
