/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What only the uprobe_events tests have: their probe target (uev_target.c
 * and uev_target_asm.S, uev_target32_asm.S for ia32), its one-byte
 * command pipe and the steps the test programs share (uev_proc.c). For
 * tracefs, ELF symbols, helper paths and the kernel log they use the
 * helpers of the uprobes engine selftests, ../uprobes/upng.h.
 */
#ifndef UEV_LIB_H
#define UEV_LIB_H

#include <stdbool.h>
#include <sys/types.h>
#include <unistd.h>

#include "../uprobes/upng.h"

#define UEV_TARGET	"uev_target"
#define UEV_TARGET_PIE	"uev_target_pie"
#define UEV_TARGET32	"uev_target32"
/*
 * The target's registers by their fetch-argument names: what they hold at
 * uev_regs_probe, and which ones carry the argument of uev_count_func and
 * uev_rec at their entry and the return value of uev_ret_func at its
 * return. In the definitions of the tests "%{ARG1}" ... "%{PC}" stand for
 * them (uev_reg_token()).
 */
#if defined(__aarch64__)
#define UEV_R_ARG1	"%x0"	/* 42; n, depth */
#define UEV_R_STR	"%x1"	/* uev_string */
#define UEV_R_NEG	"%x2"	/* -123 */
#define UEV_R_WIDE	"%x4"	/* 0xfedcba9876543210 */
#define UEV_R_DATA	"%x5"	/* uev_data */
#define UEV_R_DATA16	"%x6"	/* uev_data + 16 */
#define UEV_R_UNMAPPED	"%x7"	/* 0x10, an address never mapped */
#define UEV_R_RET	"%x0"	/* -2 */
#define UEV_R_PC	"%pc"	/* the instruction pointer */
#define UEV_R_SP	"%sp"
#elif defined(__riscv)
#define UEV_R_ARG1	"%a0"	/* 42; n, depth */
#define UEV_R_STR	"%a1"	/* uev_string */
#define UEV_R_NEG	"%a2"	/* -123 */
#define UEV_R_WIDE	"%a4"	/* 0xfedcba9876543210 */
#define UEV_R_DATA	"%a5"	/* uev_data */
#define UEV_R_DATA16	"%a6"	/* uev_data + 16 */
#define UEV_R_UNMAPPED	"%a7"	/* 0x10, an address never mapped */
#define UEV_R_RET	"%a0"	/* -2 */
#define UEV_R_PC	"%epc"	/* the instruction pointer */
#define UEV_R_SP	"%sp"
#elif defined(__s390x__)
/*
 * s390 names its general registers only, r0..r15 (r15 the stack pointer,
 * r14 the return address): no name for the instruction address, so no
 * UEV_R_PC; r9..r13 hold N * 0x0101010101010101 for register rN.
 */
#define UEV_R_ARG1	"%r2"	/* 42; n, depth */
#define UEV_R_STR	"%r3"	/* uev_string */
#define UEV_R_NEG	"%r4"	/* -123 */
#define UEV_R_WIDE	"%r5"	/* 0xfedcba9876543210 */
#define UEV_R_DATA	"%r6"	/* uev_data */
#define UEV_R_DATA16	"%r7"	/* uev_data + 16 */
#define UEV_R_UNMAPPED	"%r8"	/* 0x10, an address never mapped */
#define UEV_R_RET	"%r2"	/* -2 */
#define UEV_R_SP	"%r15"
#else
#define UEV_R_ARG1	"%di"
#define UEV_R_STR	"%si"
#define UEV_R_NEG	"%cx"
#define UEV_R_WIDE	"%ax"
#define UEV_R_DATA	"%bx"
#define UEV_R_DATA16	"%bp"
#define UEV_R_UNMAPPED	"%r9"
#define UEV_R_RET	"%ax"
#define UEV_R_PC	"%ip"
#define UEV_R_SP	"%sp"
#endif

/* Seconds a target may take to answer a command. */
#define UEV_ACK_TIMEOUT	20

/* A running target: its pid and both ends of its command pipe. */
struct uev_proc {
	pid_t pid;
	int to;
	int from;
};

/* uev_proc.c: start a target, run its commands, stop it (see there). */
int uev_spawn(struct uev_proc *p, const char *path);
int uev_cmd(struct uev_proc *p, char c, int times);
int uev_query(struct uev_proc *p, char c, unsigned long *value);
int uev_finish(struct uev_proc *p);
int uev_run(const char *enable, const char *path, char c, int times);
/* The register a "%{NAME}" token at IN stands for (UEV_R_NAME), see there. */
size_t uev_reg_token(const char *in, const char **reg);

/* The argument of uev_count_func (how often it ran before) fetched as n. */
#define UEV_ARG_N	"n=" UEV_R_ARG1 ":s64"

/*
 * bin/uev_target as most tests probe it: its path and the symbols of
 * uev_regs_probe, uev_count_func, uev_ret_func and uev_ret_site; and
 * buffers for what they read back.
 */
struct uev_state {
	char path[256];
	struct upng_sym regs, count, ret, retsite;
	struct upng_trace t;
	char buf[65536];
};

/* uev_proc.c: the steps the tests share (see there). */
int uev_state_init(struct uev_state *s);
int uev_define(const char *ev, const char *path, unsigned long off,
	       const char *args);
bool uev_trace_ns(struct uev_state *s, const char *ev, const int *ns, int nr);

/* The probed functions of the target (uev_target_asm.S). */
void uev_regs_func(void);
void uev_ret_caller(void);
long uev_count_func(long n);
long uev_rec(long depth);
extern unsigned short uev_semaphore;

#ifdef __KSELFTEST_HARNESS_H
/*
 * For a FIXTURE_SETUP(): skip the test unless it runs as root on a kernel
 * with uprobe_events; whether it can go on.
 */
static inline bool uev_can_run(struct __test_metadata *_metadata)
{
	if (geteuid())
		SKIP(return false, "must be run as root");
	if (access(UPNG_TRACEFS "/uprobe_events", W_OK))
		SKIP(return false, "no " UPNG_TRACEFS "/uprobe_events");
	return true;
}
#endif

#endif
