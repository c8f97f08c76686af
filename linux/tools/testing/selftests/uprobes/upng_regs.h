/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registers as a signal handler and a tracer see them, and a debugger's
 * own breakpoint, per architecture: for the tests that look at where a
 * thread is (signals.c, xolvis.c, ptrace.c, hidden.c, debugger.c).
 *
 *   UPNG_UC_PC(uc), UPNG_UC_SP(uc)	the interrupted pc and sp of a
 *				signal frame
 *   UPNG_REGS_PC(r), UPNG_REGS_SP(r)	pc and sp of a tracee's
 *				struct user_regs_struct, as ptrace gives it
 *   upng_getregs(), upng_setregs()	PTRACE_GETREGS/SETREGS on x86-64,
 *				PTRACE_GETREGSET/SETREGSET (NT_PRSTATUS)
 *				elsewhere
 *   UPNG_DBG_BKPT, UPNG_DBG_BKPT_SIZE	a debugger's breakpoint (int3;
 *				brk #0; gdb's c.ebreak on riscv, the
 *				engine's own breakpoint there too; s390's
 *				0x0001), as it writes it: a number in the
 *				machine's byte order (upng_insn_val())
 *   UPNG_DBG_BKPT_PC		where its trap leaves pc, from the
 *				breakpoint's address: after it on x86 (1) and
 *				s390 (2), on it on arm64 and riscv (0)
 *   UPNG_DBG_SI_CODE		the si_code of its SIGTRAP: SI_KERNEL on
 *				x86, TRAP_BRKPT on arm64, riscv and s390
 *   upng_step()		a debugger's single-step of a stopped
 *				tracee: PTRACE_SINGLESTEP, or on riscv (which
 *				has none) breakpoints on the instructions
 *				that may run next
 *   UPNG_SI_ADDR(a)		the si_addr of a page fault at address A:
 *				A, on s390 its page (the translation
 *				exception gives no more)
 *   UPNG_STEP_SI_USER		defined where a single step over a system
 *				call is reported the generic way, SI_USER
 *				from no process (arm64, riscv, s390)
 */
#ifndef UPNG_REGS_H
#define UPNG_REGS_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <ucontext.h>

#include "upng.h"

#ifndef NT_PRSTATUS
#define NT_PRSTATUS	1
#endif

#if defined(__x86_64__)
#define UPNG_UC_PC(uc)		((unsigned long)(uc)->uc_mcontext.gregs[REG_RIP])
#define UPNG_UC_SP(uc)		((unsigned long)(uc)->uc_mcontext.gregs[REG_RSP])
#define UPNG_REGS_PC(r)		((r)->rip)
#define UPNG_REGS_SP(r)		((r)->rsp)
#define UPNG_DBG_BKPT		0xccu		/* int3 */
#define UPNG_DBG_BKPT_SIZE	1
#define UPNG_DBG_BKPT_PC	1
#define UPNG_DBG_SI_CODE	SI_KERNEL

static inline int upng_getregs(pid_t pid, struct user_regs_struct *r)
{
	return ptrace(PTRACE_GETREGS, pid, NULL, r) ? -errno : 0;
}

static inline int upng_setregs(pid_t pid, struct user_regs_struct *r)
{
	return ptrace(PTRACE_SETREGS, pid, NULL, r) ? -errno : 0;
}
#elif defined(__aarch64__) || defined(__riscv)
#if defined(__aarch64__)
#define UPNG_UC_PC(uc)		((unsigned long)(uc)->uc_mcontext.pc)
#define UPNG_UC_SP(uc)		((unsigned long)(uc)->uc_mcontext.sp)
#define UPNG_DBG_BKPT		0xd4200000u	/* brk #0 */
#define UPNG_DBG_BKPT_SIZE	4
#else
/* glibc's <sys/user.h> is empty on riscv: the kernel's UAPI has it. */
#include <asm/ptrace.h>
#define UPNG_UC_PC(uc)		((unsigned long)(uc)->uc_mcontext.__gregs[REG_PC])
#define UPNG_UC_SP(uc)		((unsigned long)(uc)->uc_mcontext.__gregs[REG_SP])
#define UPNG_DBG_BKPT		0x9002u		/* c.ebreak */
#define UPNG_DBG_BKPT_SIZE	2
#endif
#define UPNG_REGS_PC(r)		((r)->pc)
#define UPNG_REGS_SP(r)		((r)->sp)
#define UPNG_DBG_BKPT_PC	0
#define UPNG_DBG_SI_CODE	TRAP_BRKPT
#define UPNG_STEP_SI_USER
#elif defined(__s390x__)
#define UPNG_UC_PC(uc)		((unsigned long)(uc)->uc_mcontext.psw.addr)
#define UPNG_UC_SP(uc)		((unsigned long)(uc)->uc_mcontext.gregs[15])
#define UPNG_REGS_PC(r)		((r)->psw.addr)
#define UPNG_REGS_SP(r)		((r)->gprs[15])
#define UPNG_DBG_BKPT		0x0001u		/* gdb's breakpoint */
#define UPNG_DBG_BKPT_SIZE	2
#define UPNG_DBG_BKPT_PC	2
#define UPNG_DBG_SI_CODE	TRAP_BRKPT
#define UPNG_STEP_SI_USER
#define UPNG_SI_ADDR(a)		((a) & ~4095UL)
/* glibc's <sys/user.h> calls it struct _user_regs_struct on s390. */
#define user_regs_struct	_user_regs_struct
#else
#error "uprobes selftests: no register access for this architecture"
#endif

#ifndef __x86_64__
static inline int upng_getregs(pid_t pid, struct user_regs_struct *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov) ?
	       -errno : 0;
}

static inline int upng_setregs(pid_t pid, struct user_regs_struct *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, &iov) ?
	       -errno : 0;
}
#endif

#ifndef UPNG_SI_ADDR
#define UPNG_SI_ADDR(a)		(a)
#endif

/*
 * WORD (as PTRACE_PEEKTEXT reads it: the bytes at an address, in memory
 * order) with the debugger's breakpoint in front, in its first bytes.
 */
static inline long upng_with_dbg_bkpt(long word)
{
	upng_insn_put(&word, UPNG_DBG_BKPT_SIZE, UPNG_DBG_BKPT);
	return word;
}

/* The instruction of SIZE bytes WORD starts with, in memory order. */
static inline uint32_t upng_word_insn(long word, size_t size)
{
	return upng_insn_val(&word, size);
}

/* Whether WORD starts with the debugger's breakpoint. */
static inline bool upng_is_dbg_bkpt(long word)
{
	return upng_word_insn(word, UPNG_DBG_BKPT_SIZE) == UPNG_DBG_BKPT;
}

/* The pc a tracee stopped by a debugger's breakpoint at ADDR has. */
static inline unsigned long upng_dbg_bkpt_pc(unsigned long addr)
{
	return addr + UPNG_DBG_BKPT_PC;
}

#if defined(__riscv)
/*
 * riscv has no hardware single-step (PTRACE_SINGLESTEP fails with EIO):
 * a debugger steps by putting its breakpoint on every instruction that
 * may run next and continuing, as gdb does there. upng_step() does that
 * for a stopped single-threaded tracee: the instruction at pc (as
 * PTRACE_PEEKTEXT shows it, the engine's breakpoints hidden) is decoded
 * for its successors (pc + its length; a jump's or branch's target,
 * read from the registers), each gets a c.ebreak, and the breakpoints go
 * again at the stop. Its result is waitpid()'s status, or -1.
 */
#include "upng.h"	/* upng_hide_breakpoints() */

static inline long upng_sext(unsigned long v, int bits)
{
	return (long)(v << (64 - bits)) >> (64 - bits);
}

static inline unsigned long upng_xreg(struct user_regs_struct *r, int n)
{
	return n ? ((unsigned long *)r)[n] : 0;	/* pc is slot 0, x1.. after */
}

static inline int upng_rv_next(pid_t pid, struct user_regs_struct *r,
			       unsigned long next[2])
{
	unsigned long pc = r->pc;
	unsigned int i;
	long word;
	int n = 1;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)pc, NULL);
	if (errno)
		return -errno;
	i = (unsigned int)word;
	if ((i & 3) != 3) {
		unsigned int c = i & 0xffff, rs1 = (c >> 7) & 31;
		long off;

		next[0] = pc + 2;
		switch (c & 0xe003) {
		case 0xa001:	/* c.j */
			off = ((c >> 1) & 0x800) | ((c << 2) & 0x400) |
			      ((c >> 1) & 0x300) | ((c << 1) & 0x80) |
			      ((c >> 1) & 0x40) | ((c << 3) & 0x20) |
			      ((c >> 7) & 0x10) | ((c >> 2) & 0xe);
			next[0] = pc + upng_sext(off, 12);
			break;
		case 0xc001:	/* c.beqz */
		case 0xe001:	/* c.bnez */
			off = ((c >> 4) & 0x100) | ((c << 1) & 0xc0) |
			      ((c << 3) & 0x20) | ((c >> 7) & 0x18) |
			      ((c >> 2) & 0x6);
			next[n++] = pc + upng_sext(off, 9);
			break;
		case 0x8002:	/* c.jr, c.jalr (rs2 == 0, rs1 != 0) */
			if (!((c >> 2) & 31) && rs1)
				next[0] = upng_xreg(r, rs1);
			break;
		}
		return n;
	}
	next[0] = pc + 4;
	switch (i & 0x7f) {
	case 0x6f:	/* jal */
		next[0] = pc + upng_sext(((i >> 11) & 0x100000) | (i & 0xff000) |
					 ((i >> 9) & 0x800) | ((i >> 20) & 0x7fe), 21);
		break;
	case 0x67:	/* jalr */
		next[0] = (upng_xreg(r, (i >> 15) & 31) +
			   upng_sext(i >> 20, 12)) & ~1UL;
		break;
	case 0x63:	/* branches */
		next[n++] = pc + upng_sext(((i >> 19) & 0x1000) | ((i << 4) & 0x800) |
					   ((i >> 20) & 0x7e0) | ((i >> 7) & 0x1e), 13);
		break;
	}
	return n;
}

static inline int upng_rv_step(pid_t pid)
{
	struct user_regs_struct r;
	unsigned long next[2] = { 0, 0 };
	long saved[2] = { 0, 0 };
	int n, k, status = -1;

	if (upng_getregs(pid, &r))
		return -1;
	n = upng_rv_next(pid, &r, next);
	if (n < 0)
		return -1;
	if (n == 2 && next[1] == next[0])
		n = 1;
	for (k = 0; k < n; k++) {
		errno = 0;
		saved[k] = ptrace(PTRACE_PEEKTEXT, pid, (void *)next[k], NULL);
		if (errno || ptrace(PTRACE_POKETEXT, pid, (void *)next[k],
				    (void *)upng_with_dbg_bkpt(saved[k])))
			break;
	}
	if (k == n && (ptrace(PTRACE_CONT, pid, NULL, NULL) ||
		       waitpid(pid, &status, __WALL) != pid))
		status = -1;
	while (k--)
		ptrace(PTRACE_POKETEXT, pid, (void *)next[k], (void *)saved[k]);
	return status;
}

/*
 * The debugger sees the program's instructions, not the engine's
 * breakpoints (hidden, the engine's default, which the test programs
 * turn off): it must, to put its own in and take them out again.
 */
static inline int upng_step(pid_t pid)
{
	int shown = upng_hiding_breakpoints() == 0, status;

	if (shown && upng_hide_breakpoints(true))
		return -1;
	status = upng_rv_step(pid);
	if (shown && upng_hide_breakpoints(false))
		return -1;
	return status;
}
#else
/* A hardware single-step; waitpid()'s status, or -1. */
static inline int upng_step(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
	    waitpid(pid, &status, __WALL) != pid)
		return -1;
	return status;
}
#endif

#endif /* UPNG_REGS_H */
