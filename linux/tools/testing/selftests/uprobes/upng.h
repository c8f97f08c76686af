/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the uprobes engine selftests: tracefs probe control,
 * ELF symbol lookup, target process control, memory inspection and BPF.
 * The uprobe_events selftests (../uprobe_events) use them too: they link
 * upng_tracefs.c, upng_elf.c and upng_proc.c, but neither upng_show.c
 * (the uprobes programs start with breakpoints shown) nor upng_bpf.c.
 */
#ifndef UPNG_H
#define UPNG_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define UPNG_TRACEFS "/sys/kernel/tracing"

/*
 * What differs between the architectures the tests run on: the engine's
 * breakpoint instruction, SIZE bytes, as a number of that size read from
 * memory in the machine's byte order (upng_insn_val()), and the
 * fetch-argument names of the first two integer arguments of a function
 * at its entry and of its return value.
 */
#if defined(__aarch64__)
#define UPNG_BKPT		0xd42000a0u	/* brk #5 */
#define UPNG_BKPT_SIZE		4
#define UPNG_ARG1		"%x0"
#define UPNG_ARG2		"%x1"
#define UPNG_RETVAL		"%x0"
#elif defined(__x86_64__)
#define UPNG_BKPT		0xccu		/* int3 */
#define UPNG_BKPT_SIZE		1
#define UPNG_ARG1		"%di"
#define UPNG_ARG2		"%si"
#define UPNG_RETVAL		"%ax"
#elif defined(__riscv)
#define UPNG_BKPT		0x9002u		/* c.ebreak */
#define UPNG_BKPT_SIZE		2
#define UPNG_ARG1		"%a0"
#define UPNG_ARG2		"%a1"
#define UPNG_RETVAL		"%a0"
#elif defined(__i386__)
#define UPNG_BKPT		0xccu
#define UPNG_BKPT_SIZE		1
#elif defined(__s390x__)
#define UPNG_BKPT		0x0002u		/* an invalid opcode */
#define UPNG_BKPT_SIZE		2
#define UPNG_ARG1		"%r2"
#define UPNG_ARG2		"%r3"
#define UPNG_RETVAL		"%r2"
#else
#error "uprobes selftests: no breakpoint definition for this architecture"
#endif

/*
 * The SIZE (1, 2 or 4) bytes at P as an instruction of that size: a
 * number read in the machine's byte order (x86 and arm64 are
 * little-endian, s390 big-endian), as UPNG_BKPT and UPNG_DBG_BKPT
 * (upng_regs.h) are written.
 */
static inline uint32_t upng_insn_val(const void *p, size_t size)
{
	const unsigned char *b = p;
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < size; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = v << 8 | b[i];
#else
		v |= (uint32_t)b[i] << (8 * i);
#endif
	}
	return v;
}

/* Write the SIZE-byte instruction V to P, as upng_insn_val() reads it. */
static inline void upng_insn_put(void *p, size_t size, uint32_t v)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < size; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		b[size - 1 - i] = v >> (8 * i);
#else
		b[i] = v >> (8 * i);
#endif
	}
}

/* Whether the UPNG_BKPT_SIZE bytes at P are the engine's breakpoint. */
static inline bool upng_is_bkpt(const void *p)
{
	return upng_insn_val(p, UPNG_BKPT_SIZE) == UPNG_BKPT;
}

/* ---- tracefs (upng_tracefs.c) ---- */

/* Append "p:uprobes/EV PATH:0xOFF ARGS" to uprobe_events; 0 or -errno. */
int upng_probe_add(const char *ev, const char *path, unsigned long off,
		   const char *args);
/* The same for a return probe ("r:uprobes/EV ..."). */
int upng_retprobe_add(const char *ev, const char *path, unsigned long off,
		      const char *args);
/* Write 1/0 to events/uprobes/EV/enable; 0 or -errno of the write. */
int upng_probe_enable(const char *ev, bool on);
/* Current content of events/uprobes/EV/enable: 1, 0, or -errno. */
int upng_probe_enabled(const char *ev);
/* Disable (ignoring errors) and remove EV; 0 or -errno. */
int upng_probe_del(const char *ev);
/* Hit count of EV in uprobe_profile, or -1 when EV is not listed. */
long upng_probe_hits(const char *ev);
/* The same for EV on the file PATH (as the probe was defined with it). */
long upng_probe_hits_at(const char *path, const char *ev);
/* Empty the trace buffer and make sure tracing is on; 0 or -errno. */
int upng_trace_reset(void);
/* Whole trace file as a NUL-terminated malloc()ed string, or NULL. */
char *upng_trace_read(void);
/* Number of trace lines of event EV in TRACE. */
long upng_trace_count(const char *trace, const char *ev);
/*
 * Collect the values of argument ARG ("name=") of event EV from TRACE
 * into VALS (at most MAX); returns how many were found (may exceed MAX).
 */
long upng_trace_values(const char *trace, const char *ev, const char *arg,
		       unsigned long long *vals, long max);
/*
 * Copy the tracefs file REL (relative to UPNG_TRACEFS) into BUF: at most
 * LEN - 1 bytes, NUL terminated; 0 or -errno.
 */
int upng_tracefs_read(const char *rel, char *buf, size_t len);
/* The same, returning the number of bytes copied or -errno. */
ssize_t upng_tracefs_read_len(const char *rel, char *buf, size_t len);
/*
 * Append S to the tracefs file REL (O_APPEND) with a single write(), as
 * it is (no newline added; no write at all for ""); 0, or -errno of the
 * open() or the write() (-EIO when it took only part of S).
 */
int upng_tracefs_write(const char *rel, const char *s);
/* The same, opening REL with O_TRUNC ("" only truncates). */
int upng_tracefs_write_trunc(const char *rel, const char *s);
/* upng_tracefs_write() of the printf-style FMT, cut at 4095 bytes. */
int upng_tracefs_writef(const char *rel, const char *fmt, ...);
/*
 * Disable every event, delete every uprobe event (fails with -EBUSY if
 * one is still enabled, in an instance say), turn tracing on and empty
 * the trace buffer and error_log; 0, or -errno of the step that failed.
 */
int upng_tracefs_reset(void);
/* Whether the event directory events/GROUP/EV exists. */
bool upng_event_exists(const char *group, const char *ev);
/*
 * The last entry of error_log: its error text (after "error: ") into
 * MSG (MSIZE bytes) and the command as logged into CMD (CSIZE bytes).
 * Returns the position of the caret within the command, -ENOENT when
 * the log is empty (or does not end with an entry), -EINVAL for an
 * entry without a caret under the command, or -errno.
 */
int upng_errlog_last(char *msg, size_t msize, char *cmd, size_t csize);

#define UPNG_TRACE_LINES	32
#define UPNG_TRACE_LINE_LEN	10240

/*
 * The trace lines of an event, reduced to what follows "EV: ": the
 * number of lines and the first UPNG_TRACE_LINES of them.
 */
struct upng_trace {
	int nr;
	char line[UPNG_TRACE_LINES][UPNG_TRACE_LINE_LEN];
};

/*
 * The lines of event EV in the tracefs trace file REL ("trace",
 * "instances/NAME/trace") into T, in order (a NUL that a char argument
 * printed reads as '.'); returns how many there are, also those beyond
 * UPNG_TRACE_LINES, or -errno.
 */
int upng_trace_get(const char *rel, const char *ev, struct upng_trace *t);
/*
 * Whether REL holds exactly NR lines of EV, "(0xADDR) n=N" with the
 * values N of NS in order (a probe at ADDR fetching "n=..."); T gets
 * the lines, as from upng_trace_get().
 */
bool upng_trace_ns(struct upng_trace *t, const char *rel, const char *ev,
		   unsigned long addr, const int *ns, int nr);

/* ---- ELF symbols (upng_elf.c) ---- */

struct upng_sym {
	char name[128];
	unsigned long value;	/* st_value (link-time address) */
	unsigned long offset;	/* file offset of the symbol's first byte */
};

/* Look SYM up in PATH's symbol table; 0 or -errno. */
int upng_elf_sym(const char *path, const char *sym, struct upng_sym *out);
/*
 * All symbols of PATH whose name starts with PREFIX, in symbol table
 * order, into OUT (at most MAX); returns the count or -errno.
 */
int upng_elf_syms(const char *path, const char *prefix,
		  struct upng_sym *out, int max);
/* 1 for an ELFCLASS32 file, 0 for ELFCLASS64, -errno otherwise. */
int upng_elf_is32(const char *path);

/* ---- processes and memory (upng_proc.c) ---- */

struct upng_child {
	pid_t pid;
	int in;		/* write end: the child's stdin */
	int out;	/* read end: the child's stdout */
};

/*
 * Full path of helper NAME ("bin/target"), in the directory holding this
 * test program.
 */
const char *upng_path(const char *name);
/*
 * Die with the parent: a test case process (and the targets it starts)
 * must not outlive the harness when a runner kills it on a timeout.
 */
void upng_die_with_parent(void);
/*
 * Fork a child that runs MAIN(ARG, CMD, REPLY), which must not return:
 * it reads commands on CMD and answers on REPLY. Sets *CMD to the write
 * end of its commands and *REPLY to the read end of its answers; returns
 * its pid or -errno. A child also holds the pipes of those forked before.
 */
pid_t upng_fork_piped(void (*main)(void *arg, int cmd, int reply), void *arg,
		      int *cmd, int *reply);
/*
 * Fork a child that asks to be traced (PTRACE_TRACEME) and stops itself
 * (SIGSTOP). Returns 0 in the child, once its tracer resumes it; in the
 * parent, its pid once it stands at that stop, or -1 when fork() fails or
 * the child ends or stops otherwise (then killed and reaped). *STATUS gets
 * the wait status, or -1.
 */
pid_t upng_fork_traced(int *status);
/* Resolved path of the running executable. */
const char *upng_self_path(void);
/*
 * Start PATH with up to two arguments (NULL ends them), with pipes on
 * its stdin/stdout; 0 or -errno.
 */
int upng_spawn(struct upng_child *c, const char *path, const char *arg1,
	       const char *arg2);
/* The same, calling BEFORE_EXEC (if not NULL) in the child just before exec. */
int upng_spawn_hook(struct upng_child *c, const char *path, const char *arg1,
		    const char *arg2, void (*before_exec)(void));
/* Send the line CMD (without newline) to the child; 0 or -errno. */
int upng_send(struct upng_child *c, const char *cmd);
/* Read one line (without newline) within TIMEOUT_MS; length or -errno. */
int upng_recv(struct upng_child *c, char *buf, size_t len, int timeout_ms);
/* Close the pipes and reap the child; returns the wait status or -errno. */
int upng_finish(struct upng_child *c, int timeout_ms);
/* Read LEN bytes at ADDR of process PID via /proc/PID/mem; 0 or -errno. */
int upng_mem_read(pid_t pid, unsigned long addr, void *buf, size_t len);
/* PTRACE_ATTACH to PID and wait for its stop; 0 or -1. */
int upng_ptrace_attach(pid_t pid);
/* pread() LEN bytes at OFF of PATH; 0 or -errno. */
int upng_file_read(const char *path, unsigned long off, void *buf, size_t len);
/* FNV-1a 64 hash of the whole content of PATH (read through the page cache). */
uint64_t upng_file_hash(const char *path);
/* Unique event name "upng_<TAG>_<pid>_<counter>" into BUF. */
const char *upng_evname(char *buf, size_t len, const char *tag);

/* ---- kernel files: debugfs, /proc/kallsyms, /dev/kmsg (upng_proc.c) ---- */

/* Write the string S to the (sysfs, debugfs, procfs) file PATH; 0 or -errno. */
int upng_write_str(const char *path, const char *s);
/*
 * The same with one write() to PATH opened O_WRONLY | FLAGS (O_APPEND,
 * O_TRUNC, O_CREAT: mode 0644); 0, or -errno of the open() or the write()
 * (-EIO when it took only part of S).
 */
int upng_write_file(const char *path, const char *s, int flags);
/* Content of PATH into BUF, without its trailing newline; 0 or -errno. */
int upng_read_str(const char *path, char *buf, size_t len);
/*
 * Content of PATH into BUF as it is: at most LEN - 1 bytes, NUL
 * terminated; the number of bytes read or -errno.
 */
ssize_t upng_read_file(const char *path, char *buf, size_t len);

/* A range of kernel text, see upng_kallsyms_range(). */
struct upng_ksym_range {
	unsigned long start, end;	/* [start, end) */
	int found;			/* its symbols with a wanted prefix */
	int others;			/* and the others between them */
	char lo[64], hi[64];		/* the lowest and the highest */
};

/*
 * The kernel text of a directory, whose objects the kernel links one
 * after the other, found by its names: from the function ANCHOR (or a
 * compiler clone of it), the symbols of /proc/kallsyms on either side as
 * long as one whose name starts with one of PREFIXES (NULL terminated)
 * comes within 16 symbols (static helpers of the kernel's headers emitted
 * in those objects have other names), to the first text symbol after the
 * last of them. 0, -ENOENT without ANCHOR, -EPERM when kallsyms hides
 * addresses, or -errno.
 */
int upng_kallsyms_range(const char *anchor, const char *const *prefixes,
			struct upng_ksym_range *r);

/* Whether the kernel has one of the functions NAMES: 1, 0, or -errno. */
int upng_kallsyms_has(const char *const *names);

/* /dev/kmsg opened at its end (O_NONBLOCK), to see later records; fd or -errno. */
int upng_kmsg_open(void);
/*
 * Read the records logged since FD was opened (or last scanned). Returns
 * how many report a kernel problem: WARNING, BUG, Oops, lockdep, KASAN,
 * kmemleak, a call trace ... (what the runner greps the console for), or
 * -errno; the first of them goes into FIRST (LEN bytes). With WORD,
 * *NWORD is set to the number of records containing it.
 */
long upng_kmsg_scan(int fd, const char *word, long *nword, char *first,
		    size_t len);
/*
 * Number of records of the whole kernel log, from its oldest, whose
 * message contains WORD, or -errno.
 */
long upng_kmsg_count(const char *word);

/* ---- probes with a USDT semaphore, perf uprobe events (upng_tracefs.c) ---- */

/*
 * Append "p:uprobes/EV PATH:0xOFF(0xSEM_OFF) ARGS" to uprobe_events: a
 * probe counting itself in the 16-bit semaphore at file offset SEM_OFF.
 */
int upng_probe_add_sem(const char *ev, const char *path, unsigned long off,
		       unsigned long sem_off, const char *args);
/* The same for a return probe ("r:uprobes/EV ..."). */
int upng_retprobe_add_sem(const char *ev, const char *path, unsigned long off,
			  unsigned long sem_off, const char *args);
/* Type of the perf "uprobe" PMU (sysfs), or -errno. */
int upng_uprobe_pmu_type(void);
/*
 * Open an enabled counting perf event of the uprobe PMU on PATH:OFF
 * (with the semaphore at file offset SEM_OFF, or none for 0), bound to
 * process PID on any CPU; the fd or -errno.
 */
int upng_perf_uprobe_open(const char *path, unsigned long off,
			  unsigned long sem_off, pid_t pid);
struct perf_event_attr;
/* Retprobe bit of the uprobe PMU's config (its format/retprobe). */
#define UPNG_PERF_RETPROBE	1ULL
/*
 * The same with the caller's ATTR (config bits, sampling, ...): its type,
 * size and probe fields are set here. The fd or -errno.
 */
int upng_perf_uprobe_open_attr(struct perf_event_attr *attr, const char *path,
			       unsigned long off, pid_t pid);
/* The count of a perf event, or -1. */
long long upng_perf_count(int fd);

/* ---- more on processes (upng_proc.c) ---- */

/* CLOCK_MONOTONIC in milliseconds. */
long long upng_now_ms(void);

/*
 * A new file at PATH holding the 4096 bytes at PAGE: its fd (read-write,
 * close-on-exec) or -errno.
 */
int upng_page_file(const char *path, const void *page);
/*
 * A new file at PATH, one page of code whose offset 0 is a function that
 * calls its argument, void f(void (*fn)(void)), so that a caller can be
 * inside it (and a return probe at offset 0 pending) for as long as FN
 * runs: "sub $8,%rsp; call *%rdi; add $8,%rsp; ret" (arm64: "stp x29,
 * x30,[sp,#-16]!; mov x29,sp; blr x0; ldp x29,x30,[sp],#16; ret"). Its
 * fd (read-write, close-on-exec) or -errno.
 */
int upng_caller_file(const char *path);
typedef void (*upng_caller_fn)(void (*fn)(void));
/*
 * Wait until no probe in /sys/kernel/debug/uprobes/probes is "stranded"
 * (kept for a breakpoint or semaphore count whose removal the engine
 * retries); 0, -ETIMEDOUT after TIMEOUT_MS, or -errno.
 */
int upng_wait_unstranded(int timeout_ms);
/*
 * Make readers of process memory (/proc/PID/mem, ptrace, process_vm_readv,
 * core dumps) see our breakpoints (ON false) or the probed instructions
 * (ON true, the kernel's default), through debugfs
 * uprobes/hide_breakpoints; 0, or -errno (-ENOENT: not our engine). Every
 * test program of the uprobes suite starts with them shown (upng_show.c):
 * the tests look at breakpoints through those readers.
 */
int upng_hide_breakpoints(bool on);
/* Whether they are hidden now: 1 or 0, or -errno. */
int upng_hiding_breakpoints(void);
/*
 * Read LEN bytes at ADDR of PID with breakpoints shown (hide_breakpoints
 * off for the read, on again after); 0 or -errno.
 */
int upng_shown_read(pid_t pid, unsigned long addr, void *buf, size_t len);
/* The byte at ADDR of PID, read the same way; the byte, or -errno. */
int upng_shown_byte(pid_t pid, unsigned long addr);
/* Whether the engine's breakpoint is at ADDR of PID, read the same way: 1, 0 or -errno. */
int upng_shown_bkpt(pid_t pid, unsigned long addr);
/*
 * Write LEN bytes at ADDR of process PID through /proc/PID/mem, the way
 * a debugger's PTRACE_POKETEXT does (forced, so also into read-only text,
 * which gets a private copy), without stopping it; 0 or -errno.
 */
int upng_mem_write(pid_t pid, unsigned long addr, const void *buf, size_t len);

/* ---- BPF, through the raw bpf() system call (upng_bpf.c) ---- */

struct bpf_insn;

/* One BPF instruction, for <linux/bpf.h>'s struct bpf_insn. */
#define UPNG_BPF_INSN(c, d, s, o, i) ((struct bpf_insn) {		\
	.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* An array map of one VALUE_SIZE-byte value (key 0): its fd or -errno. */
int upng_bpf_array(unsigned int value_size);
/* Reads MAP's value (key 0) into VALUE: 0 or -errno. */
int upng_bpf_array_read(int map, void *value);
/*
 * Loads the N instructions INSNS as a BPF_PROG_TYPE_KPROBE program named
 * NAME for ATTACH_TYPE (0: a perf event); its fd or -errno. On failure
 * LOG (SIZE bytes, may be NULL) gets the verifier's reasons.
 */
int upng_bpf_load(unsigned int attach_type, const struct bpf_insn *insns,
		  int n, const char *name, char *log, size_t size);
/*
 * A link of PROG of ATTACH_TYPE (uprobe_multi or uprobe session) at the
 * CNT file OFFSETS of PATH with their COOKIES (may be NULL), for process
 * PID only or every process with PID 0, with the link's FLAGS; fd or
 * -errno.
 */
int upng_bpf_link(int prog, unsigned int attach_type, const char *path,
		  const unsigned long *offsets, const __u64 *cookies,
		  unsigned int cnt, pid_t pid, unsigned int flags);
/* The BTF id of kernel function NAME (a kfunc), or -errno. */
int upng_bpf_kfunc(const char *name);

/* The counter of MAP, or -1. */
long long upng_bpf_counter(int map);
/*
 * An array map of one u64 counter (key 0) into *MAP (its fd, or -errno)
 * and a BPF_PROG_TYPE_KPROBE program for uprobe_multi links that adds
 * one to it at each run; the program's fd or -errno. On failure LOG (SIZE
 * bytes, may be NULL) gets the verifier's reasons.
 */
int upng_bpf_counter_prog(int *map, char *log, size_t size);
/*
 * The same, but the program stores bpf_get_func_ip() (the probe's
 * address) into the map's u64 at each run.
 */
int upng_bpf_func_ip_prog(int *map, char *log, size_t size);
/*
 * A BPF_TRACE_UPROBE_MULTI link of PROG at the CNT file OFFSETS of PATH,
 * for process PID only, or for every process with PID 0; fd or -errno.
 */
int upng_bpf_multi_link(int prog, const char *path,
			const unsigned long *offsets, unsigned int cnt,
			pid_t pid);
/* The same with the link's FLAGS (BPF_F_UPROBE_MULTI_RETURN). */
int upng_bpf_multi_link_flags(int prog, const char *path,
			      const unsigned long *offsets, unsigned int cnt,
			      pid_t pid, unsigned int flags);

/* A store into a program's context: VAL at offset OFF, SIZE bytes. */
struct upng_bpf_store {
	int off;
	int size;
	unsigned long long val;
};

#define UPNG_BPF_STORES 4
/*
 * A BPF_PROG_TYPE_KPROBE program for ATTACH_TYPE (0: a perf event) that
 * makes the N (at most UPNG_BPF_STORES) stores ST into its context, the
 * probed task's registers, in order, then, with PROG_ARRAY >= 0 (a
 * program array's fd), tail-calls its program 0. The program's fd or
 * -errno; on failure LOG (SIZE bytes, may be NULL) gets the verifier's
 * reasons.
 */
int upng_bpf_store_prog(unsigned int attach_type,
			const struct upng_bpf_store *st, int n, int prog_array,
			char *log, size_t size);
/* A program array of one entry: its fd or -errno. */
int upng_bpf_prog_array(void);
/* Puts PROG into entry 0 of program array MAP: 0 or -errno. */
int upng_bpf_prog_array_set(int map, int prog);

/* One mapping of /proc/PID/smaps; sizes in kB. */
struct upng_vma {
	unsigned long start, end;
	char perms[8];
	long size_kb, rss_kb, locked_kb, anon_kb;
};

/* The mapping of PID holding ADDR, from smaps; 0, -ENOENT or -errno. */
int upng_smaps_vma(pid_t pid, unsigned long addr, struct upng_vma *out);
/* Value in kB of field NAME ("VmLck") of /proc/PID/status, or -errno. */
long upng_status_kb(pid_t pid, const char *name);

/* /proc/PID/pagemap bits (Documentation/admin-guide/mm/pagemap.rst). */
#define UPNG_PM_PRESENT	0x8000000000000000ULL	/* bit 63 */
#define UPNG_PM_FILE	0x2000000000000000ULL	/* bit 61: page cache page */

/* The pagemap entry of ADDR in PID into *ENTRY; 0 or -errno. */
int upng_pagemap(pid_t pid, unsigned long addr, uint64_t *entry);
/*
 * The [uprobes] mapping (XOL area) of PID (0: this process) into
 * [*LO, *HI); 0, -ENOENT when there is none, or -errno.
 */
int upng_xol_range(pid_t pid, unsigned long *lo, unsigned long *hi);

#endif /* UPNG_H */
