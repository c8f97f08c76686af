// SPDX-License-Identifier: GPL-2.0
/*
 * BPF for the uprobes selftests, through the raw bpf() system call: a
 * one-counter array map, a program that counts its runs in it, and
 * BPF_TRACE_UPROBE_MULTI links of that program.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest.h"
#include "upng.h"

/* Newer than some hosts' <linux/bpf.h> (6.6): enum bpf_attach_type. */
#define TRACE_UPROBE_MULTI 48

/* union bpf_attr as BPF_LINK_CREATE reads it for an uprobe_multi link */
struct uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__aligned_u64 path;
	__aligned_u64 offsets;
	__aligned_u64 ref_ctr_offsets;
	__aligned_u64 cookies;
	__u32 cnt;
	__u32 multi_flags;
	__u32 pid;
};

static long sys_bpf(int cmd, void *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : ret;
}

/* An array map of one u64 counter (key 0); the fd or -errno. */
static int counter_map(void)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(__u32);
	a.value_size = sizeof(__u64);
	a.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
}

long long upng_bpf_counter(int map)
{
	__u32 key = 0;
	__u64 v = 0;
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (unsigned long)&key;
	a.value = (unsigned long)&v;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, sizeof(a)))
		return -1;
	return v;
}

#define INSN(c, d, s, o, i) ((struct bpf_insn) {			\
	.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

int upng_bpf_counter_prog(int *mapp, char *log, size_t size)
{
	int map = counter_map();
	struct bpf_insn insns[] = {
		/* u32 key = 0 at fp - 4; r2 = &key */
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		/* r1 = map (a two-slot 64-bit immediate) */
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD,
		     0, map),
		INSN(0, 0, 0, 0, 0),
		/* r0 = bpf_map_lookup_elem(map, &key); if (!r0) goto out */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		/* lock *(u64 *)r0 += 1 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
		     BPF_ADD),
		/* out: return 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	union bpf_attr a;
	int fd;

	*mapp = map;
	if (log)
		log[0] = '\0';
	if (map < 0)
		return map;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = TRACE_UPROBE_MULTI;
	a.insns = (unsigned long)insns;
	a.insn_cnt = ARRAY_SIZE(insns);
	a.license = (unsigned long)"GPL";
	snprintf(a.prog_name, sizeof(a.prog_name), "upng_count");
	fd = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	if (fd >= 0 || !log)
		return fd;
	/* Again with the verifier's log, to say why. */
	a.log_buf = (unsigned long)log;
	a.log_size = size;
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
}

int upng_bpf_multi_link(int prog, const char *path,
			const unsigned long *offsets, unsigned int cnt,
			pid_t pid)
{
	struct uprobe_multi_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_fd = prog;
	a.attach_type = TRACE_UPROBE_MULTI;
	a.path = (unsigned long)path;
	a.offsets = (unsigned long)offsets;
	a.cnt = cnt;
	a.pid = pid;
	return sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
}
