/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What only the uprobe_events tests have: their probe target (uev_target.c
 * and uev_target*_asm.S) and its one-byte command pipe (uev_proc.c). For
 * tracefs, ELF symbols, helper paths and the kernel log they use the
 * helpers of the uprobes engine selftests, ../uprobes/upng.h.
 */
#ifndef UEV_LIB_H
#define UEV_LIB_H

#include <sys/types.h>

#define UEV_TARGET	"uev_target"
#define UEV_TARGET_PIE	"uev_target_pie"
#define UEV_TARGET32	"uev_target32"
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

/* The probed functions of the target (uev_target_asm.S). */
void uev_regs_func(void);
void uev_ret_caller(void);
long uev_count_func(long n);
long uev_rec(long depth);
extern unsigned short uev_semaphore;

#endif
