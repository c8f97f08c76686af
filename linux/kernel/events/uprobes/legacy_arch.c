// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uprobes engine: the architectures' stock interface.
 *
 * x86 and arm64 have a part of the engine of their own
 * (HAVE_UPROBES_ARCH_PART). The other architectures that support uprobes
 * (riscv, powerpc, s390, arm, mips, loongarch, csky, sparc64) keep the
 * code they have for the stock engine, arch/<arch>/.../uprobes.c, which
 * the engine calls with this file (UPROBES_LEGACY_ARCH). Most of that
 * interface is the engine's too, or is served by its defaults:
 *
 * - the breakpoint: UPROBE_SWBP_INSN of UPROBE_SWBP_INSN_SIZE bytes (2 on
 *   riscv with compressed instructions, on s390 and csky; the engine
 *   writes and compares that many, also where uprobe_opcode_t is wider),
 *   is_swbp_insn(), is_trap_insn() and uprobe_get_swbp_addr();
 * - the XOL slots of UPROBE_XOL_SLOT_BYTES, each filled by
 *   arch_uprobe_copy_ixol() with struct arch_uprobe's whole ixol (arm's
 *   holds the instruction and the breakpoint that ends its step); slot 0
 *   is the return probes' trampoline, a breakpoint;
 * - a hit: arch_uprobe_ignore() (arm: a condition that fails), the
 *   consumers' handlers, then arch_uprobe_skip_sstep() (the
 *   architecture's emulation) or the step of ixol out of line:
 *   arch_uprobe_pre_xol(), the breakpoint and single-step traps handed
 *   over through uprobe_pre_sstep_notifier() and
 *   uprobe_post_sstep_notifier() (directly or from
 *   arch_uprobe_exception_notify(), which the engine registers as a die
 *   notifier), then arch_uprobe_post_xol(), or arch_uprobe_abort_xol()
 *   when arch_uprobe_xol_was_trapped() or a fatal signal ends the step
 *   early. They find current->utask's state, vaddr, xol_vaddr and autask
 *   as before, and are given the thread's copy of the probe's struct
 *   arch_uprobe, where s390 and mips keep state of the step;
 * - return probes: arch_uretprobe_hijack_return_addr() and
 *   arch_uretprobe_is_alive(); the trampoline's hit sets the instruction
 *   pointer to the return address (and on riscv and s390 the return
 *   address register too, arch_uretprobe_set_return()).
 *
 * What differs is here: the analysis, once per probe, at registration or
 * at the first mapping of the file (arch_uprobe_analyze() calls the stock
 * arch_uprobe_analyze_insn()), the instruction set of a hit, and what
 * readers and writers of process memory need that the stock engine did
 * not: the length of a probed instruction (arch_uprobe_insn_len()) and
 * the debuggers' breakpoint instructions (uprobe_legacy_dbg_bp_len()). What the engine does beyond
 * the stock interface these architectures go without: boosted XOL slots
 * and jumps to stubs (every hit is emulated by the architecture or
 * single-stepped).
 */
#include <linux/compat.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/unaligned.h>

#ifdef CONFIG_S390
#include <asm/dis.h>
#endif
#if defined(CONFIG_PPC) || defined(CONFIG_MIPS)
#include <asm/inst.h>
#endif

#include "internal.h"

/**
 * struct uprobe_dbg_bkpt - a debugger's breakpoint instruction
 * @len: its length in bytes
 * @insn: its bytes, as in memory
 */
struct uprobe_dbg_bkpt {
	u8	len;
	u8	insn[4];
};

/*
 * The breakpoint instructions gdb and lldb write into a program's code
 * that is_trap_insn() does not take for traps: on these architectures it
 * is the weak is_swbp_insn(), our breakpoint's encoding only, where theirs
 * is another. Their stock engine never looked at a debugger's writes;
 * this one must tell a debugger's breakpoint written over ours from new
 * code that replaces the instruction (hide.c, debugger.c). riscv's ebreak
 * and c.ebreak, powerpc's and mips's trap and break instructions are
 * is_trap_insn()'s already.
 */
static const struct uprobe_dbg_bkpt uprobe_dbg_bkpts[] = {
#if defined(CONFIG_S390)
	/* gdb's and lldb's: 0x0001, which the kernel reports as SIGTRAP */
	{ 2, { 0x00, 0x01 } },
#elif defined(CONFIG_ARM)
	/* gdb's and lldb's in ARM state, ptrace's BREAKINST_ARM: 0xe7f001f0 */
#ifdef CONFIG_CPU_ENDIAN_BE32
	{ 4, { 0xe7, 0xf0, 0x01, 0xf0 } },
#else
	{ 4, { 0xf0, 0x01, 0xf0, 0xe7 } },
#endif
#elif defined(CONFIG_SPARC64)
	/* gdb's: ta 1 */
	{ 4, { 0x91, 0xd0, 0x20, 0x01 } },
#elif defined(CONFIG_LOONGARCH)
	/* gdb's and lldb's: break 5 */
	{ 4, { 0x05, 0x00, 0x2a, 0x00 } },
#elif defined(CONFIG_CSKY)
	/*
	 * gdb's: bkpt (0x0000), twice at a 32-bit instruction. Zeros written
	 * over a probed instruction are taken for it.
	 */
	{ 4, { 0x00, 0x00, 0x00, 0x00 } },
	{ 2, { 0x00, 0x00 } },
#endif
};

/**
 * uprobe_legacy_dbg_bp_len() - is this a debugger's breakpoint instruction?
 * @insn: the bytes of an instruction, from its first
 * @len: how many of them may be read
 *
 * Return: the length of the debugger's breakpoint (uprobe_dbg_bkpts) that
 * @insn begins with, the longest, or 0.
 */
int uprobe_legacy_dbg_bp_len(const void *insn, unsigned int len)
{
	const struct uprobe_dbg_bkpt *d = uprobe_dbg_bkpts;

	for (; d < uprobe_dbg_bkpts + ARRAY_SIZE(uprobe_dbg_bkpts); d++)
		if (d->len <= len && !memcmp(insn, d->insn, d->len))
			return d->len;
	return 0;
}

/*
 * Bytes that are no instruction at all, which a stock analysis refuses
 * with -EINVAL as it refuses an instruction: on s390, what its opcode
 * table does not know and no breakpoint (ours, a debugger's) is.
 */
static bool uprobe_legacy_undecodable(struct arch_uprobe *aup)
{
#ifdef CONFIG_S390
	u8 *insn = (u8 *)aup->insn;

	return !is_known_insn(insn) && !is_trap_insn(aup->insn) &&
	       !uprobe_legacy_dbg_bp_len(insn, sizeof(aup->insn));
#else
	return false;
#endif
}

/*
 * Is the instruction a system call that the stock analysis lets through?
 * s390's svc (0x0a), mips's syscall (the SPECIAL opcode's function 0x0c;
 * the instruction stepped, ixol[0], is a branch's delay slot's), sparc64's
 * trap instructions (Tcc: op 2, op3 0x3a; "ta 0x6d" and "ta 0x10" are
 * Linux's system calls) and loongarch's syscall (0x002b0000, its 15-bit
 * code aside). riscv's ecall, powerpc's sc and scv and arm's svc their
 * analyses refuse; csky's trap is not looked at here.
 */
static bool uprobe_legacy_syscall(struct arch_uprobe *aup)
{
#if defined(CONFIG_S390)
	return (aup->insn[0] >> 8) == 0x0a;
#elif defined(CONFIG_MIPS)
	union mips_instruction inst = { .word = aup->ixol[0] };

	return inst.r_format.opcode == spec_op &&
	       inst.r_format.func == syscall_op;
#elif defined(CONFIG_SPARC64)
	return (get_unaligned_be32(aup->insn) & 0xc1f80000) == 0x81d00000;
#elif defined(CONFIG_LOONGARCH)
	return (aup->insn[0] >> 15) == 0x56;
#else
	return false;
#endif
}

/**
 * uprobe_legacy_refuse() - refuse what the stock analysis lets through
 * @aup: the instruction, accepted by arch_uprobe_analyze_insn()
 *
 * A breakpoint instruction, ours or a debugger's (uprobe_dbg_bkpts; s390's
 * analysis takes 0x0002 for an instruction it knows): a hit of a probe
 * there could not be told from the program's own trap, and its copy would
 * trap in the XOL slot.
 *
 * A system call (uprobe_legacy_syscall()), which is stepped out of line
 * there as the x86 and arm64 parts refuse to: the stepped copy's execve
 * leaves the new program with the step's state (s390's PER controls), a
 * vfork or clone child sharing the address space resumes in the parent's
 * XOL slot, and the step's fix-ups move the instruction pointer that
 * rt_sigreturn loaded.
 *
 * riscv's lr and sc (the A extension's AMO opcode, funct5 2 and 3): the
 * copy of either is stepped out of line, and the trap that ends the step
 * returns to user mode through the kernel's exit path, which clears the
 * reservation; the sc of the program's retry loop then fails each time
 * round, the loop hits the probe again, for ever.
 *
 * Return: the reason to refuse the instruction, or NULL.
 */
static const char *uprobe_legacy_refuse(struct arch_uprobe *aup)
{
	uprobe_opcode_t op;

	BUILD_BUG_ON(sizeof(aup->insn) < sizeof(op));
	memcpy(&op, aup->insn, sizeof(op));
	if (is_swbp_insn(&op) ||
	    uprobe_legacy_dbg_bp_len(aup->insn, sizeof(aup->insn)))
		return "a breakpoint instruction";
	if (uprobe_legacy_syscall(aup))
		return "system call";
#ifdef CONFIG_RISCV
	u32 insn = get_unaligned_le32(aup->insn);

	if ((insn & 0x7f) == 0x2f &&
	    ((insn >> 27) == 0x02 || (insn >> 27) == 0x03))
		return "load-reserved or store-conditional";
#endif
	return NULL;
}

/**
 * arch_uprobe_analyze() - analyse a probed instruction, the stock way
 * @aup: the instruction of a &struct uprobe, read from the file into
 *	@aup->insn
 * @is_64bit: the file is a 64-bit program (unused: the analysis is the
 *	same; arch_uprobe_hit_is_64bit() keeps a hit to its own kind of file)
 * @reason: set to why the instruction is refused
 *
 * The stock engine called arch_uprobe_analyze_insn() when it first put
 * the breakpoint into an address space, with that address space and the
 * instruction's address there; here it is called once per probe, at
 * registration or at the first mapping of the file, without an address
 * space. The architectures that get here
 * do not read the address space (NULL), and check the address's
 * alignment only (to the instruction size, or to 64 bytes for powerpc's
 * prefixed instructions): its offset in a page, which is the file
 * offset's in the page, since a file is mapped from a page boundary to a
 * page boundary. The file offset is given.
 *
 * Return: 0, -EOPNOTSUPP for an instruction the architecture refuses,
 * -EINVAL for bytes that are none (s390), or the architecture's error.
 */
int arch_uprobe_analyze(struct arch_uprobe *aup, bool is_64bit,
			const char **reason)
{
	struct uprobe *uprobe = container_of(aup, struct uprobe, arch);
	int err;

	err = arch_uprobe_analyze_insn(aup, NULL,
				       (unsigned long)uprobe->offset);
	if (err) {
		*reason = "refused by the architecture's analysis";
		/* Bytes that are none, as an offset inside an instruction is */
		if (err == -EINVAL && uprobe_legacy_undecodable(aup)) {
			*reason = "undecodable instruction";
			return -EINVAL;
		}
		/*
		 * riscv's, s390's, csky's and others' analyses refuse an
		 * instruction with -EINVAL, which the engine's callers take
		 * for a bad offset or argument (those were checked before),
		 * powerpc's with the kernel's own -ENOTSUPP, which user space
		 * must not see: a refused instruction is -EOPNOTSUPP, as on
		 * x86 and arm64.
		 */
		return err == -EINVAL || err == -ENOTSUPP ? -EOPNOTSUPP : err;
	}
	*reason = uprobe_legacy_refuse(aup);
	return *reason ? -EOPNOTSUPP : 0;
}

/**
 * uprobe_legacy_step_abandonable() - can a step be abandoned half-way?
 *
 * A thread preempted in the rseq critical section of a probed
 * instruction it is stepping out of line must have the section aborted
 * as if it were at the instruction (uprobe_rseq_ip()): its step is
 * abandoned with arch_uprobe_abort_xol(), which must then give back the
 * registers pre_xol changed. riscv's, powerpc's, loongarch's, csky's,
 * sparc's and s390's do (the instruction pointer, the trap marker, the
 * single-step flag, s390's PER controls); arm's leaves the scratch
 * register its pre_xol substituted, mips's the return address and epc of
 * a branch: there the thread stays in its slot, outside the section,
 * until the step is done, as on the stock kernel.
 *
 * Return: whether the architecture's abort_xol undoes its pre_xol whole.
 */
bool uprobe_legacy_step_abandonable(void)
{
	return !IS_ENABLED(CONFIG_ARM) && !IS_ENABLED(CONFIG_MIPS);
}

/**
 * uprobe_legacy_sigtrap() - report a breakpoint that is not a probe's
 * @regs: the user registers, at the breakpoint
 *
 * The architecture's trap handler gave the breakpoint to the engine
 * (uprobe_pre_sstep_notifier()), which found no probe to run there, or a
 * debugger's breakpoint over one: the thread gets the SIGTRAP that
 * handler sends for a debugger's breakpoint, TRAP_BRKPT at the address
 * on riscv, powerpc and loongarch, which debuggers there tell their
 * breakpoints by; elsewhere a SIGTRAP of the kernel's, as from the stock
 * engine (arm's debuggers' breakpoint never reaches the engine, csky
 * sends no TRAP_BRKPT).
 */
void uprobe_legacy_sigtrap(struct pt_regs *regs)
{
	if (IS_ENABLED(CONFIG_RISCV) || IS_ENABLED(CONFIG_PPC) ||
	    IS_ENABLED(CONFIG_LOONGARCH))
		force_sig_fault(SIGTRAP, TRAP_BRKPT,
				(void __user *)instruction_pointer(regs));
	else
		force_sig(SIGTRAP);
}

#ifdef CONFIG_S390
/**
 * uprobe_s390_bkpt_gone() - was an invalid instruction's trap our breakpoint's?
 * @vaddr: where current trapped, on an instruction the architecture does
 *	not execute, and which is no breakpoint now
 *
 * s390's breakpoint traps as any invalid instruction does, and its trap
 * handler reads what is at @vaddr after the trap: the probed instruction
 * when the engine took its breakpoint out meanwhile, which the thread must
 * then go back to and execute. But an instruction there that the machine
 * does not execute (QEMU's TCG has no pfpo, for one) raises the same trap
 * by itself, and must not be tried again for ever. A thread is sent back
 * to an address once for each time breakpoints went from its address
 * space (uprobe_bps_removed()), and only in a mapping that may hold ours:
 * tried again with none gone since, the instruction is the one that traps
 * (a single retry of an instruction the trap suppressed). The mmap lock
 * is taken for writing: a debugger's write over a breakpoint counts its
 * removal under the lock taken for reading, after the write the thread
 * may have read already.
 *
 * Return: true to send current back to @vaddr, false to let the trap be
 * the instruction's.
 */
bool uprobe_s390_bkpt_gone(unsigned long vaddr)
{
	struct uprobe_task *utask = uprobe_utask();
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct arch_uprobe_task *at;
	unsigned long removed = 0;

	if (!utask || !mm || mmap_write_lock_killable(mm))
		return false;
	vma = vma_lookup(mm, vaddr);
	if (vma && uprobe_vma_probeable(vma))
		removed = uprobe_bps_removed(mm);
	mmap_write_unlock(mm);
	at = &utask->autask;
	if (!removed || (at->gone_vaddr == vaddr && at->gone_removed == removed))
		return false;
	at->gone_vaddr = vaddr;
	at->gone_removed = removed;
	return true;
}
#endif

/**
 * arch_uprobe_insn_len() - length of a probed instruction
 * @aup: the instruction, analysed by arch_uprobe_analyze_insn()
 *
 * Readers and writers of process memory see the probed instruction whole
 * (hide.c): a write that changes any of its bytes replaces it, also past
 * our breakpoint, where the stock analysis tells how long it is: riscv's
 * and csky's 4-byte instructions under a 2-byte breakpoint, s390's of 4
 * and 6 bytes, powerpc's prefixed ones of 8, and a mips branch with the
 * instruction in its delay slot, which the analysis copied to ixol[0] to
 * be stepped in place of insn[0] (a compact branch is refused).
 *
 * Return: its length in bytes.
 */
int arch_uprobe_insn_len(struct arch_uprobe *aup)
{
#if defined(CONFIG_RISCV) || defined(CONFIG_CSKY)
	return aup->insn_size;
#elif defined(CONFIG_S390)
	return insn_length(aup->insn[0] >> 8);
#elif defined(CONFIG_PPC)
	return ppc_inst_len(ppc_inst_read(aup->insn));
#elif defined(CONFIG_MIPS)
	return aup->ixol[0] != aup->insn[0] ? 8 : 4;
#else
	return UPROBE_SWBP_INSN_SIZE;
#endif
}

/**
 * arch_uprobe_hit_is_64bit() - does the thread run 64-bit code?
 * @regs: the user registers at a breakpoint hit
 *
 * A compat task runs 32-bit code, the code of 32-bit (ELFCLASS32) files,
 * mips's n32 too; a probe in a file of the other class is not executed
 * by the task (see uprobe_hit_run(): the breakpoint is removed from that
 * process).
 *
 * Return: true for a task that is not a compat task of a 64-bit kernel.
 */
bool arch_uprobe_hit_is_64bit(struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_64BIT) && !is_compat_task();
}

#if defined(CONFIG_RISCV) || defined(CONFIG_S390)
/*
 * The return address register of the architectures whose
 * arch_uretprobe_hijack_return_addr() diverts a return address there: ra,
 * s390's r14.
 */
#ifdef CONFIG_RISCV
#define UPROBE_LEGACY_LR(regs)	((regs)->ra)
#else
#define UPROBE_LEGACY_LR(regs)	((regs)->gprs[14])
#endif

/**
 * arch_uretprobe_set_return() - send a thread at the trampoline to its caller
 * @regs: the user registers, at the return trampoline
 * @orig_ret_vaddr: the return address the probe diverted
 *
 * riscv's and s390's arch_uretprobe_hijack_return_addr() put the
 * trampoline's address in the return address register (ra, r14), and a
 * return through it (ret, br %r14) leaves it there, where the program,
 * unprobed, would have its return address: the return handlers, and the
 * program after them, see that one, never an address of the XOL area.
 */
void arch_uretprobe_set_return(struct pt_regs *regs,
			       unsigned long orig_ret_vaddr)
{
	if (UPROBE_LEGACY_LR(regs) == uprobe_get_trampoline_vaddr())
		UPROBE_LEGACY_LR(regs) = orig_ret_vaddr;
	instruction_pointer_set(regs, orig_ret_vaddr);
}
#endif

/**
 * arch_uprobe_kind() - how hits of a probed instruction are executed
 * @auprobe: the analysed instruction
 * @is_64bit: it was analysed as 64-bit code
 *
 * The stock interface decides at each hit: arch_uprobe_skip_sstep()
 * emulates the instruction, or it is single-stepped.
 *
 * Return: "legacy".
 */
const char *arch_uprobe_kind(struct arch_uprobe *auprobe, bool is_64bit)
{
	return "legacy";
}
