// SPDX-License-Identifier: GPL-2.0
/*
 * BPF for the uprobes selftests, through the raw bpf() system call: a
 * one-counter array map, a program that counts its runs in it, one that
 * keeps bpf_get_func_ip() there, programs that store into their context
 * (the registers), program arrays, uprobe_multi and uprobe session links
 * of those programs, and the BTF ids of kfuncs.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
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

int upng_bpf_array(unsigned int value_size)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(__u32);
	a.value_size = value_size;
	a.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
}

/* An array map of one u64 counter (key 0); the fd or -errno. */
static int counter_map(void)
{
	return upng_bpf_array(sizeof(__u64));
}

int upng_bpf_array_read(int map, void *value)
{
	__u32 key = 0;
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (unsigned long)&key;
	a.value = (unsigned long)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a, sizeof(a));
}

long long upng_bpf_counter(int map)
{
	__u64 v = 0;

	if (upng_bpf_array_read(map, &v))
		return -1;
	return v;
}

#define INSN UPNG_BPF_INSN

/* The BPF size code of a SIZE-byte access. */
static int bpf_size(int size)
{
	switch (size) {
	case 1:
		return BPF_B;
	case 2:
		return BPF_H;
	case 4:
		return BPF_W;
	default:
		return BPF_DW;
	}
}

int upng_bpf_load(unsigned int attach_type, const struct bpf_insn *insns,
		  int n, const char *name, char *log, size_t size)
{
	union bpf_attr a;
	int fd;

	if (log)
		log[0] = '\0';
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = attach_type;
	a.insns = (unsigned long)insns;
	a.insn_cnt = n;
	a.license = (unsigned long)"GPL";
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	fd = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	if (fd >= 0 || !log)
		return fd;
	/* Again with the verifier's log, to say why. */
	a.log_buf = (unsigned long)log;
	a.log_size = size;
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
}

/*
 * An array map of one u64 into *MAPP (its fd, or -errno) and a program
 * for uprobe_multi links that puts r7, as the NV instructions VALUE set
 * it, into the map's u64 at each run: atomically added with ADD, stored
 * otherwise. The program's fd or -errno, LOG as for kprobe_prog().
 */
static int key0_prog(int *mapp, const struct bpf_insn *value, int nv,
		     bool add, const char *name, char *log, size_t size)
{
	int map = counter_map(), k = nv;
	struct bpf_insn insns[16];

	*mapp = map;
	if (log)
		log[0] = '\0';
	if (map < 0)
		return map;
	memcpy(insns, value, nv * sizeof(*value));
	/* u32 key = 0 at fp - 4; r2 = &key */
	insns[k++] = INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0);
	insns[k++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0,
			  0);
	insns[k++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	/* r1 = map (a two-slot 64-bit immediate) */
	insns[k++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
			  BPF_PSEUDO_MAP_FD, 0, map);
	insns[k++] = INSN(0, 0, 0, 0, 0);
	/* r0 = bpf_map_lookup_elem(map, &key); if (!r0) goto out */
	insns[k++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	insns[k++] = INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, 0);
	/* lock *(u64 *)r0 += r7, or *(u64 *)r0 = r7 */
	insns[k++] = add ? INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0,
				BPF_REG_7, 0, BPF_ADD) :
			   INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0,
				BPF_REG_7, 0, 0);
	/* out: return 0 */
	insns[k++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	insns[k++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return upng_bpf_load(TRACE_UPROBE_MULTI, insns, k, name, log, size);
}

int upng_bpf_counter_prog(int *mapp, char *log, size_t size)
{
	/* r7 = 1 */
	static const struct bpf_insn one[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_7, 0, 0, 1),
	};

	return key0_prog(mapp, one, ARRAY_SIZE(one), true, "upng_count", log,
			 size);
}

int upng_bpf_func_ip_prog(int *mapp, char *log, size_t size)
{
	/* r7 = bpf_get_func_ip(ctx) */
	static const struct bpf_insn func_ip[] = {
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_0, 0, 0),
	};

	return key0_prog(mapp, func_ip, ARRAY_SIZE(func_ip), false,
			 "upng_func_ip", log, size);
}

int upng_bpf_store_prog(unsigned int attach_type,
			const struct upng_bpf_store *st, int n, int prog_array,
			char *log, size_t size)
{
	struct bpf_insn insns[3 * UPNG_BPF_STORES + 8];
	int i, k = 0;

	if (n > UPNG_BPF_STORES)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		/* r2 = val (a two-slot 64-bit immediate); *(r1 + off) = r2 */
		insns[k++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, 0, 0,
				  (__u32)st[i].val);
		insns[k++] = INSN(0, 0, 0, 0, (__u32)(st[i].val >> 32));
		insns[k++] = INSN(BPF_STX | BPF_MEM | bpf_size(st[i].size),
				  BPF_REG_1, BPF_REG_2, st[i].off, 0);
	}
	if (prog_array >= 0) {
		/* bpf_tail_call(ctx, prog_array, 0) */
		insns[k++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2,
				  BPF_PSEUDO_MAP_FD, 0, prog_array);
		insns[k++] = INSN(0, 0, 0, 0, 0);
		insns[k++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0,
				  0);
		insns[k++] = INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
				  BPF_FUNC_tail_call);
	}
	insns[k++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	insns[k++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return upng_bpf_load(attach_type, insns, k, "upng_store", log, size);
}

int upng_bpf_prog_array(void)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PROG_ARRAY;
	a.key_size = sizeof(__u32);
	a.value_size = sizeof(__u32);
	a.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &a, sizeof(a));
}

int upng_bpf_prog_array_set(int map, int prog)
{
	__u32 key = 0, v = prog;
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (unsigned long)&key;
	a.value = (unsigned long)&v;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a, sizeof(a));
}

int upng_bpf_link(int prog, unsigned int attach_type, const char *path,
		  const unsigned long *offsets, const __u64 *cookies,
		  unsigned int cnt, pid_t pid, unsigned int flags)
{
	struct uprobe_multi_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_fd = prog;
	a.attach_type = attach_type;
	a.path = (unsigned long)path;
	a.offsets = (unsigned long)offsets;
	a.cookies = (unsigned long)cookies;
	a.cnt = cnt;
	a.pid = pid;
	a.multi_flags = flags;
	return sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
}

int upng_bpf_multi_link_flags(int prog, const char *path,
			      const unsigned long *offsets, unsigned int cnt,
			      pid_t pid, unsigned int flags)
{
	return upng_bpf_link(prog, TRACE_UPROBE_MULTI, path, offsets, NULL,
			     cnt, pid, flags);
}

int upng_bpf_multi_link(int prog, const char *path,
			const unsigned long *offsets, unsigned int cnt,
			pid_t pid)
{
	return upng_bpf_multi_link_flags(prog, path, offsets, cnt, pid, 0);
}

/* How many bytes of kind-specific data follow a BTF type of KIND. */
static long btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/* The id of function NAME in the BTF of SIZE bytes at BUF, or -errno. */
static int btf_func_id(const char *buf, size_t size, const char *name)
{
	const struct btf_header *h = (const void *)buf;
	const char *p, *end, *strs;
	int id;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > size ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > size)
		return -EINVAL;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	strs = buf + h->hdr_len + h->str_off;
	for (id = 1; p + sizeof(struct btf_type) <= end; id++) {
		const struct btf_type *t = (const void *)p;
		unsigned int kind = BTF_INFO_KIND(t->info);
		long extra = btf_extra(kind, BTF_INFO_VLEN(t->info));

		if (extra < 0 || t->name_off >= h->str_len)
			return -EINVAL;
		if (kind == BTF_KIND_FUNC && !strcmp(strs + t->name_off, name))
			return id;
		p += sizeof(*t) + extra;
	}
	return -ENOENT;
}

int upng_bpf_kfunc(const char *name)
{
	size_t size = 0, cap = 0, n;
	char *buf = NULL, *more;
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "r");
	int id;

	if (!f)
		return -errno;
	for (;;) {
		if (size == cap) {
			cap = cap ? 2 * cap : 1 << 22;
			more = realloc(buf, cap);
			if (!more) {
				id = -ENOMEM;
				goto out;
			}
			buf = more;
		}
		n = fread(buf + size, 1, cap - size, f);
		if (!n)
			break;
		size += n;
	}
	id = ferror(f) ? -EIO : btf_func_id(buf, size, name);
out:
	free(buf);
	fclose(f);
	return id;
}
