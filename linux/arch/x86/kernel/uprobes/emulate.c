// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: emulation of the most common probed instructions.
 *
 * Function entries, exits and branch sites are where probes go: endbr64,
 * push %rbp, pushf, nops left for patching, jumps, calls and returns,
 * and the accesses to globals: rip-relative loads, stores, compares and
 * address computations, and x87 instructions on rip-relative operands
 * (x87.c).  Executing those in the kernel saves the
 * single-step and its second trap.  What emulation cannot
 * complete (a push to a stack that is not there, a load from a page that
 * is not readable) is stepped out of line instead, which faults with the
 * signal the original would have raised; so are a call or a ret of a task
 * with a shadow stack, and memory accesses while the thread has hardware
 * watchpoints armed or alignment checking on.
 */
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/uprobes.h>

#include <asm/debugreg.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>
#include <asm/shstk.h>

#include "internal.h"

/* One store of the stack slot's size, as the instruction does it. */
static int uprobe_x86_push(struct pt_regs *regs, unsigned long val)
{
	unsigned long sp = regs->sp - uprobe_x86_word(regs);

	if (uprobe_x86_put_word(regs, sp, val))
		return -EFAULT;
	regs->sp = sp;
	return 0;
}

/* Does the emulation of @emul read or write user memory? */
static bool uprobe_x86_accesses_memory(u8 emul)
{
	return emul != UPROBE_X86_JMP && emul != UPROBE_X86_JCC &&
	       emul != UPROBE_X86_LEA;
}

/*
 * Would a jump to @ip raise #GP at the jump itself (a non-canonical
 * target in 64-bit mode)? The CPU then transfers nothing and pops
 * nothing: the instruction is stepped to fault where it does.
 */
static bool uprobe_x86_bad_target(struct pt_regs *regs, unsigned long ip)
{
	return user_64bit_mode(regs) &&
	       !__is_canonical_address(ip, boot_cpu_data.x86_virt_bits);
}

/* ret, ret $imm: pops the return address and @imm more bytes. */
static int uprobe_x86_ret(struct pt_regs *regs, unsigned int imm)
{
	unsigned long ip;

	if (uprobe_x86_get_word(regs, regs->sp, &ip))
		return -EFAULT;
	if (uprobe_x86_bad_target(regs, ip))
		return -EINVAL;
	regs->sp += uprobe_x86_word(regs) + imm;
	regs->ip = ip;
	return 0;
}

/*
 * mov disp32(%rip),%reg: one read of the size of the register; a 32-bit
 * destination is zero-extended.
 */
static int uprobe_x86_load(struct pt_regs *regs, u8 emul, u8 off,
			   unsigned long addr)
{
	return uprobe_x86_get(addr, emul == UPROBE_X86_LOAD64 ? 8 : 4,
			      uprobe_x86_reg(regs, off));
}

/*
 * mov %reg,disp32(%rip): one write of the size of the register, as the
 * instruction does it.
 */
static int uprobe_x86_store(struct pt_regs *regs, u8 emul, u8 off,
			    unsigned long addr)
{
	return uprobe_x86_put(addr, emul == UPROBE_X86_STORE64 ? 8 : 4,
			      *uprobe_x86_reg(regs, off));
}

#define UPROBE_X86_ARITH_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | \
				 X86_EFLAGS_AF | X86_EFLAGS_ZF | \
				 X86_EFLAGS_SF | X86_EFLAGS_OF)

/* Run @op ("cmp %2, %1": a - b, or test) on @a and @b; their flags. */
#define UPROBE_X86_ALU(op, a, b, flags)					\
	asm(op "\n\tpushf\n\tpop %0"					\
	    : "=r" (flags) : "r" (a), "r" (b) : "cc")

/* The arithmetic flags cmp or test (@form) of @a and @b leaves. */
static unsigned long uprobe_x86_alu_flags(u8 form, unsigned long a,
					  unsigned long b)
{
	unsigned long flags;

	switch (form & (UPROBE_X86_CMP_SIZE | UPROBE_X86_CMP_TEST)) {
	case 0:
		UPROBE_X86_ALU("cmpb %b2, %b1", a, b, flags);
		break;
	case 2:
		UPROBE_X86_ALU("cmpl %k2, %k1", a, b, flags);
		break;
	case 3:
		UPROBE_X86_ALU("cmpq %q2, %q1", a, b, flags);
		break;
	case UPROBE_X86_CMP_TEST:
		UPROBE_X86_ALU("testb %b2, %b1", a, b, flags);
		break;
	case UPROBE_X86_CMP_TEST | 2:
		UPROBE_X86_ALU("testl %k2, %k1", a, b, flags);
		break;
	default:
		UPROBE_X86_ALU("testq %q2, %q1", a, b, flags);
		break;
	}
	return flags & UPROBE_X86_ARITH_FLAGS;
}

/*
 * cmp/test of the disp32(%rip) operand at @addr with an immediate (the
 * last bytes of the instruction) or a register (ModRM reg, REX.R), run
 * in the kernel on the values for the flags: one user read.
 */
static int uprobe_x86_cmp(struct pt_regs *regs, struct arch_uprobe *au,
			  unsigned long addr)
{
	u8 form = au->cond, rex = au->insn[0], modrm;
	unsigned long mem, other;

	if (uprobe_x86_get(addr, 1 << (form & UPROBE_X86_CMP_SIZE), &mem))
		return -EFAULT;
	if (form & UPROBE_X86_CMP_REG) {
		/* no legacy prefix: REX, if any, comes first */
		if ((rex & 0xf0) != 0x40)
			rex = 0;
		modrm = au->insn[rex ? 2 : 1];
		other = *uprobe_x86_reg(regs, uprobe_x86_gpr_off[(modrm >> 3 & 7) |
								 (rex & 4 ? 8 : 0)]);
	} else if (form & UPROBE_X86_CMP_IMM32) {
		other = (long)get_unaligned((s32 *)&au->insn[au->len - 4]);
	} else {
		other = (long)(s8)au->insn[au->len - 1];
	}
	if (form & UPROBE_X86_CMP_REV)
		swap(mem, other);
	regs->flags = (regs->flags & ~UPROBE_X86_ARITH_FLAGS) |
		      uprobe_x86_alu_flags(form, mem, other);
	return 0;
}

/* Evaluate the condition of jcc with condition code @cc (opcode & 0xf). */
static bool uprobe_x86_cond(unsigned long flags, u8 cc)
{
	bool cf = flags & X86_EFLAGS_CF, zf = flags & X86_EFLAGS_ZF;
	bool sf = flags & X86_EFLAGS_SF, of = flags & X86_EFLAGS_OF;
	bool pf = flags & X86_EFLAGS_PF;
	bool taken;

	/* Even codes test a condition, odd codes its negation. */
	switch (cc >> 1) {
	case 0:
		taken = of;			/* jo */
		break;
	case 1:
		taken = cf;			/* jb */
		break;
	case 2:
		taken = zf;			/* je */
		break;
	case 3:
		taken = cf || zf;		/* jbe */
		break;
	case 4:
		taken = sf;			/* js */
		break;
	case 5:
		taken = pf;			/* jp */
		break;
	case 6:
		taken = sf != of;		/* jl */
		break;
	default:
		taken = zf || sf != of;		/* jle */
		break;
	}
	return taken ^ (cc & 1);
}

/**
 * arch_uprobe_skip_sstep - execute the probed instruction in the kernel
 * @auprobe: the probed instruction
 * @regs: user registers, ip at the probed address
 *
 * Emulates nops (including endbr and multi-byte nops), relative jmp/jcc/
 * call, ret, push of a register, pushf, rip-relative mov loads and
 * stores, cmp, test and lea, and x87 instructions on rip-relative memory.
 * A user who single-steps gets the SIGTRAP the instruction would have
 * raised.
 *
 * Return: true if the instruction was executed and @regs updated, false
 * if it must be single-stepped out of line.
 */
bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	unsigned long next = regs->ip + auprobe->len;
	unsigned long target;

	/* The commonest at function entries (endbr64, nops): first. */
	if (likely(auprobe->emul == UPROBE_X86_NOP)) {
		regs->ip = uprobe_x86_ip(regs, next);
		goto done;
	}
	/*
	 * The kernel's accesses see neither the thread's watchpoints (a
	 * debugger's "watch") nor alignment checking: with either armed,
	 * an instruction that accesses memory runs for real (LEA and the
	 * branches do not access it).
	 */
	if (auprobe->emul == UPROBE_X86_STEP ||
	    (uprobe_x86_accesses_memory(auprobe->emul) &&
	     (hw_breakpoint_active() || (regs->flags & X86_EFLAGS_AC))))
		return false;
	target = uprobe_x86_ip(regs, next + auprobe->disp);
	switch (auprobe->emul) {
	case UPROBE_X86_JMP:
		if (uprobe_x86_bad_target(regs, target))
			return false;
		regs->ip = target;
		break;
	case UPROBE_X86_JCC:
		if (!uprobe_x86_cond(regs->flags, auprobe->cond))
			target = uprobe_x86_ip(regs, next);
		else if (uprobe_x86_bad_target(regs, target))
			return false;
		regs->ip = target;
		break;
	case UPROBE_X86_CALL:
		/*
		 * The return address also belongs on the shadow stack, which
		 * only a real call writes: step it, post_xol fixes both.
		 */
		if (shstk_is_enabled() || uprobe_x86_bad_target(regs, target) ||
		    uprobe_x86_push(regs, uprobe_x86_ip(regs, next)))
			return false;
		regs->ip = target;
		break;
	case UPROBE_X86_PUSH:
		/* push %rsp pushes the value before the push */
		if (uprobe_x86_push(regs, *uprobe_x86_reg(regs, auprobe->reg)))
			return false;
		regs->ip = uprobe_x86_ip(regs, next);
		break;
	case UPROBE_X86_LOAD32:
	case UPROBE_X86_LOAD64:
		/* rip-relative only exists in 64-bit mode */
		if (!user_64bit_mode(regs) ||
		    uprobe_x86_load(regs, auprobe->emul, auprobe->cond, target))
			return false;
		regs->ip = next;
		break;
	case UPROBE_X86_STORE32:
	case UPROBE_X86_STORE64:
		if (!user_64bit_mode(regs) ||
		    uprobe_x86_store(regs, auprobe->emul, auprobe->cond, target))
			return false;
		regs->ip = next;
		break;
	case UPROBE_X86_CMP:
		if (!user_64bit_mode(regs) || uprobe_x86_cmp(regs, auprobe, target))
			return false;
		regs->ip = next;
		break;
	case UPROBE_X86_PUSHF:
		/* the image has RF and VM clear, as the instruction stores it */
		if (uprobe_x86_push(regs, regs->flags &
				    ~(X86_EFLAGS_RF | X86_EFLAGS_VM)))
			return false;
		regs->ip = uprobe_x86_ip(regs, next);
		break;
	case UPROBE_X86_X87:
		if (!user_64bit_mode(regs) ||
		    uprobe_x86_x87(auprobe->cond, target, regs))
			return false;
		regs->ip = next;
		break;
	case UPROBE_X86_LEA:
		if (!user_64bit_mode(regs))
			return false;
		*uprobe_x86_reg(regs, auprobe->cond) = target;
		regs->ip = next;
		break;
	case UPROBE_X86_RET:
		/* Shadow stack: only a real ret pops both, step it. */
		if (shstk_is_enabled() || uprobe_x86_ret(regs, auprobe->disp))
			return false;
		break;
	default:
		return false;
	}
done:
	if (regs->flags & X86_EFLAGS_TF)
		send_sigtrap(regs, 0, TRAP_TRACE);
	return true;
}
