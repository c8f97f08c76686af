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

/* Register values at uev_regs_probe (see uev_target_asm.S). */
#define UEV_RAX		0xfedcba9876543210ULL
#define UEV_RCX		0xffffffffffffff85ULL	/* -123 */
#define UEV_RDX		0x8000000000000001ULL
#define UEV_RDI		42ULL
#define UEV_R8		0x0102030405060708ULL
#define UEV_R9		0x10ULL			/* never mapped */
#define UEV_R10		0x1010ULL
#define UEV_R11		0xb0b0ULL
#define UEV_R12		0xffffffffffffffffULL
#define UEV_R13		0x7fffffffULL
#define UEV_R14		0xe0e0e0e0ULL
#define UEV_R15		0xfULL
#define UEV_STACK0	0x6666ULL
#define UEV_STACK1	0x5555ULL
#define UEV_STRING	"hello, uprobe"
#define UEV_DATA_STR	"fetch-me"
#define UEV_TEXT_CONST	0x0badc0ffee0ddf00ULL
#define UEV_RETVAL	0xfffffffffffffffeULL	/* -2 */

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
extern unsigned short uev_semaphore;

#endif
