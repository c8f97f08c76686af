// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_bench: cost of a uprobe hit, per kind of probed instruction.
 *
 * For each target function, calls it N times with no probe, then with a
 * uprobe event on its first instruction enabled, and prints the extra
 * time per hit. Run it in the guest under "-icount shift=0" so that guest
 * time counts guest instructions and figures are comparable across
 * kernels. Also checks that every hit was counted (uprobe_profile).
 *
 * Output, one line per target:
 *   bench <target> base_ns=<per call> probed_ns=<per call> hit_ns=<extra>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"

/* Targets: each starts with the instruction kind named. */
asm(".text\n"
    ".globl t_push\n t_push:\n"
    "	push %rbp\n mov %rsp, %rbp\n pop %rbp\n ret\n"
    ".globl t_nop5\n t_nop5:\n"
    "	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n ret\n"
    ".globl t_mov\n t_mov:\n"
    "	mov %rdi, %rax\n ret\n"
    ".globl t_riprel\n t_riprel:\n"
    "	mov bench_data(%rip), %rax\n ret\n"
    ".globl t_sse\n t_sse:\n"
    "	movdqu bench_data(%rip), %xmm0\n ret\n"
    ".data\n .balign 16\n .globl bench_data\n bench_data:\n .quad 42, 43\n"
    ".text\n");

long t_push(long x);
long t_nop5(long x);
long t_mov(long x);
long t_riprel(long x);
long t_sse(long x);

static const struct target {
	const char *name;
	long (*fn)(long);
} targets[] = {
	{ "push", t_push },
	{ "nop5", t_nop5 },
	{ "mov", t_mov },
	{ "riprel", t_riprel },
	{ "sse_riprel", t_sse },
};

static int write_file(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* File offset of @addr in this executable, from /proc/self/maps. */
static unsigned long file_offset(void *addr, char *path, size_t len)
{
	unsigned long start, end, off, a = (unsigned long)addr;
	char line[512], perm[8], p[256];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		p[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &start, &end,
			   perm, &off, p) < 4)
			continue;
		if (a >= start && a < end && p[0] == '/') {
			snprintf(path, len, "%s", p);
			fclose(f);
			return a - start + off;
		}
	}
	if (f)
		fclose(f);
	return (unsigned long)-1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double run(long (*fn)(long), long n)
{
	volatile long sink = 0;
	double t0 = now_ns();

	for (long i = 0; i < n; i++)
		sink += fn(i);
	return (now_ns() - t0) / n;
}

static long profile_hits(const char *event)
{
	char line[512], ev[128];
	long hits = -1, h;
	FILE *f = fopen(TRACEFS "/uprobe_profile", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %127s %ld", ev, &h) == 2 && !strcmp(ev, event))
			hits = h;
	if (f)
		fclose(f);
	return hits;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int failed = 0;

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct target *t = &targets[i];
		char path[256], def[512], enable[256];
		double base, probed;
		unsigned long off;
		long hits;

		off = file_offset((void *)t->fn, path, sizeof(path));
		snprintf(def, sizeof(def), "p:bench/%s %s:0x%lx", t->name, path, off);
		snprintf(enable, sizeof(enable), TRACEFS "/events/bench/%s/enable",
			 t->name);
		if (write_file(TRACEFS "/uprobe_events", def, O_APPEND) ||
		    write_file(enable, "1", 0)) {
			printf("bench %s error=%s\n", t->name, strerror(errno));
			failed = 1;
			continue;
		}
		write_file(enable, "0", 0);
		run(t->fn, n / 10);
		base = run(t->fn, n);
		write_file(enable, "1", 0);
		probed = run(t->fn, n);
		write_file(enable, "0", 0);
		hits = profile_hits(t->name);
		printf("bench %s base_ns=%.1f probed_ns=%.1f hit_ns=%.1f hits=%ld/%ld\n",
		       t->name, base, probed, probed - base, hits, n);
		if (hits != n)
			failed = 1;
		snprintf(def, sizeof(def), "-:bench/%s", t->name);
		write_file(TRACEFS "/uprobe_events", def, O_APPEND);
	}
	write_file(TRACEFS "/trace", "", O_TRUNC);
	return failed;
}
