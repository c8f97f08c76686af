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
 *				engine's own breakpoint there too),
 *				little-endian, as it writes it
 *   UPNG_DBG_BKPT_PC		where its trap leaves pc, from the
 *				breakpoint's address: after it on x86 (1), on
 *				it on arm64 and riscv (0)
 *   UPNG_DBG_SI_CODE		the si_code of its SIGTRAP: SI_KERNEL on
 *				x86, TRAP_BRKPT on arm64 and riscv
 */
#ifndef UPNG_REGS_H
#define UPNG_REGS_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <ucontext.h>

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
#else
#error "uprobes selftests: no register access for this architecture"
#endif

/* WORD (as PTRACE_PEEKTEXT reads it) with the debugger's breakpoint in front. */
static inline long upng_with_dbg_bkpt(long word)
{
	unsigned long mask = (1UL << (8 * UPNG_DBG_BKPT_SIZE)) - 1;

	return (long)(((unsigned long)word & ~mask) | UPNG_DBG_BKPT);
}

/* Whether WORD starts with the debugger's breakpoint. */
static inline bool upng_is_dbg_bkpt(long word)
{
	unsigned long mask = (1UL << (8 * UPNG_DBG_BKPT_SIZE)) - 1;

	return ((unsigned long)word & mask) == UPNG_DBG_BKPT;
}

/* The pc a tracee stopped by a debugger's breakpoint at ADDR has. */
static inline unsigned long upng_dbg_bkpt_pc(unsigned long addr)
{
	return addr + UPNG_DBG_BKPT_PC;
}

#endif /* UPNG_REGS_H */
