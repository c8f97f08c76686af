/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the uprobe_events tests: tracefs access, symbol lookup
 * in the probe target, driving the target and reading the trace back.
 */
#ifndef UEV_LIB_H
#define UEV_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define UEV_TRACEFS	"/sys/kernel/tracing"
#define UEV_TARGET	"uev_target"
#define UEV_TARGET_PIE	"uev_target_pie"
#define UEV_TARGET32	"uev_target32"
#define UEV_MAX_LINES	32
#define UEV_LINE_LEN	10240
/* Seconds a target may take to answer a command. */
#define UEV_ACK_TIMEOUT	20

/* A symbol of the target: its address and the file offset it maps. */
struct uev_sym {
	unsigned long vaddr;
	unsigned long foff;
};

/* A running target: its pid and both ends of its command pipe. */
struct uev_proc {
	pid_t pid;
	int to;
	int from;
};

/*
 * The trace lines of an event, reduced to what follows "EVENT: ": the
 * number of lines and the first UEV_MAX_LINES of them.
 */
struct uev_trace {
	int nr;
	char line[UEV_MAX_LINES][UEV_LINE_LEN];
};

/* uev_tracefs.c */
int uev_write(const char *file, const char *text);
int uev_writef(const char *file, const char *fmt, ...);
int uev_write_trunc(const char *file, const char *text);
ssize_t uev_read(const char *file, char *buf, size_t size);
int uev_reset(void);
int uev_trace_get(const char *event, struct uev_trace *t);
int uev_trace_file_get(const char *file, const char *event, struct uev_trace *t);
int uev_errlog_last(char *msg, size_t msize, char *cmd, size_t csize);
bool uev_has_event(const char *group, const char *event);
bool uev_trace_ns(struct uev_trace *t, const char *file, const char *event,
		  unsigned long vaddr, const int *ns, int nr);
long uev_profile_hits(const char *path, const char *event);

/* uev_elf.c */
int uev_sym(const char *path, const char *name, struct uev_sym *sym);
int uev_target_sym(const char *name, struct uev_sym *sym);

/* uev_proc.c */
const char *uev_path(const char *dir, const char *name);
int uev_spawn(struct uev_proc *p, const char *path);
int uev_cmd(struct uev_proc *p, char c, int times);
int uev_query(struct uev_proc *p, char c, unsigned long *value);
int uev_finish(struct uev_proc *p);

/* uev_kmsg.c */
int uev_kmsg_count(const char *a, const char *b);

/* The probed functions of the target (uev_target_asm.S). */
void uev_regs_func(void);
void uev_ret_caller(void);
long uev_count_func(long n);
long uev_rec(long depth);
extern unsigned short uev_semaphore;

#endif
