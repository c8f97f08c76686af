// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: emulation of the most common probed instructions.
 *
 * Function entries, exits and branch sites are where probes go: endbr64,
 * push %rbp, nops left for patching, jumps, calls and returns, and the
 * loads of globals and their addresses (mov and lea rip-relative).  Executing those in the
 * kernel saves the single-step and its second trap.  What emulation cannot
 * complete (a push to a stack that is not there, a load from a page that
 * is not readable) is stepped out of line instead, which faults with the
 * signal the original would have raised; so is a call of a task with a
 * shadow stack.
 */
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/processor-flags.h>
#include <asm/shstk.h>

#include "internal.h"

/* One store of the stack slot's size, as the instruction does it. */
static int uprobe_x86_push(struct pt_regs *regs, unsigned long val)
{
	unsigned int size = uprobe_x86_word(regs);
	unsigned long sp = regs->sp - size;
	int err;

	if (size == 8)
		err = put_user((u64)val, (u64 __user *)sp);
	else
		err = put_user((u32)val, (u32 __user *)sp);
	if (err)
		return -EFAULT;
	regs->sp = sp;
	return 0;
}

/* One read of @size (4 or 8) bytes at @addr, zero-extended, as one access. */
static int uprobe_x86_get(unsigned long addr, unsigned int size,
			  unsigned long *val)
{
	if (size == 8) {
		u64 v;

		if (get_user(v, (u64 __user *)addr))
			return -EFAULT;
		*val = v;
	} else {
		u32 v;

		if (get_user(v, (u32 __user *)addr))
			return -EFAULT;
		*val = v;
	}
	return 0;
}

/* ret, ret $imm: pops the return address and @imm more bytes. */
static int uprobe_x86_ret(struct pt_regs *regs, unsigned int imm)
{
	unsigned int size = uprobe_x86_word(regs);
	unsigned long ip;

	if (uprobe_x86_get(regs->sp, size, &ip))
		return -EFAULT;
	regs->sp += size + imm;
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
 * call, ret, push of a register, and rip-relative mov loads and lea.  A user
 * who single-steps gets the SIGTRAP the instruction would have raised.
 *
 * Return: true if the instruction was executed and @regs updated, false
 * if it must be single-stepped out of line.
 */
bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	unsigned long next = regs->ip + auprobe->len;
	unsigned long target = uprobe_x86_ip(regs, next + auprobe->disp);

	switch (auprobe->emul) {
	case UPROBE_X86_NOP:
		regs->ip = uprobe_x86_ip(regs, next);
		break;
	case UPROBE_X86_JMP:
		regs->ip = target;
		break;
	case UPROBE_X86_JCC:
		if (uprobe_x86_cond(regs->flags, auprobe->cond))
			regs->ip = target;
		else
			regs->ip = uprobe_x86_ip(regs, next);
		break;
	case UPROBE_X86_CALL:
		/*
		 * The return address also belongs on the shadow stack, which
		 * only a real call writes: step it, post_xol fixes both.
		 */
		if (shstk_is_enabled() ||
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
	if (regs->flags & X86_EFLAGS_TF)
		send_sigtrap(regs, 0, TRAP_TRACE);
	return true;
}
