// SPDX-License-Identifier: GPL-2.0
/*
 * "multi TARGET N OFF0 OFF1": a BPF program attached with one
 * BPF_TRACE_UPROBE_MULTI link to two offsets of TARGET, cookies 0 and 1,
 * filtered to one child running "TARGET N" (no address randomisation);
 * the program counts hits per bpf_get_attach_cookie() and records
 * bpf_get_func_ip(). A second run of TARGET, another process, must not
 * count. Written with the raw bpf() system call: Debian's headers predate
 * uprobe_multi. Prints "c0=.. c1=.. ip0=0x.. ip1=0x..".
 */
#include <linux/bpf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACE_UPROBE_MULTI	48	/* enum bpf_attach_type, 6.6 and later */

/* union bpf_attr's link_create with its uprobe_multi member (6.6). */
struct link_create_uprobe_multi {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;
	uint32_t cnt, um_flags, pid;
	uint8_t pad[152 - 60];
};

struct value {
	uint64_t count, ip;
};

static long sys_bpf(int cmd, void *attr, unsigned int size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

int main(int argc, char **argv)
{
	static char log[65536];
	struct link_create_uprobe_multi lc;
	uint64_t offs[2], cookies[2] = { 0, 1 };
	struct value v[2];
	union bpf_attr a;
	int map, prog, link, go[2], status, i;
	char c, cmd[512];
	pid_t pid;

	if (argc < 5)
		return 2;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = sizeof(struct value);
	a.max_entries = 4;
	map = sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
	if (map < 0) {
		perror("BPF_MAP_CREATE");
		return 1;
	}

	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),	/* r6 = ctx */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_attach_cookie),
		INSN(BPF_STX | BPF_MEM | BPF_W, 10, 0, -4, 0),	/* key = cookie */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 6, 0),	/* no value: out */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 7, 1, 0, BPF_ADD),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 7, 0, 8, 0),	/* value.ip */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),	/* out: */
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = TRACE_UPROBE_MULTI;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	prog = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	if (prog < 0) {
		perror("BPF_PROG_LOAD");
		fputs(log, stderr);
		return 1;
	}

	if (pipe(go))
		return 1;
	pid = fork();
	if (!pid) {
		personality(ADDR_NO_RANDOMIZE);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		execl(argv[1], argv[1], argv[2], (char *)NULL);
		_exit(127);
	}
	offs[0] = strtoull(argv[3], NULL, 0);
	offs[1] = strtoull(argv[4], NULL, 0);
	memset(&lc, 0, sizeof(lc));
	lc.prog_fd = prog;
	lc.attach_type = TRACE_UPROBE_MULTI;
	lc.path = (uintptr_t)argv[1];
	lc.offsets = (uintptr_t)offs;
	lc.cookies = (uintptr_t)cookies;
	lc.cnt = 2;
	lc.pid = pid;
	link = sys_bpf(BPF_LINK_CREATE, &lc, sizeof(lc));
	if (link < 0) {
		perror("BPF_LINK_CREATE");
		kill(pid, SIGKILL);
		return 1;
	}
	if (write(go[1], "g", 1) != 1)
		return 1;
	waitpid(pid, &status, 0);
	/* Another process: filtered out. */
	snprintf(cmd, sizeof(cmd), "%s %s > /dev/null", argv[1], argv[2]);
	if (system(cmd))
		return 1;
	for (i = 0; i < 2; i++) {
		uint32_t key = i;

		memset(&a, 0, sizeof(a));
		a.map_fd = map;
		a.key = (uintptr_t)&key;
		a.value = (uintptr_t)&v[i];
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, sizeof(a)))
			return 1;
	}
	printf("c0=%llu c1=%llu ip0=0x%llx ip1=0x%llx\n",
	       (unsigned long long)v[0].count, (unsigned long long)v[1].count,
	       (unsigned long long)v[0].ip, (unsigned long long)v[1].ip);
	close(link);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
