// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86-64 uprobes: multi-byte nops replaced with a jump to a stub.
 *
 * A probed nop of five bytes or more (USDT sites, -fpatchable-function-entry,
 * the compiler's padding: nopl, and nopw with its 66 and 2e prefixes, up
 * to 11 bytes and beyond) becomes "jmp stub" after its first hit, and each
 * hit then costs a system call instead of a trap (see the core's stub.c).
 * The jump replaces the nop's first five bytes; the rest of the nop stays,
 * never executed: no thread can be inside an instruction. The stub, in the
 * XOL area within reach of a rel32 jump, returns after the whole nop:
 *
 *	 0: lea	-128(%rsp), %rsp	step over the red zone, untouched
 *	 5: push	%rax
 *	 6: push	%rcx			the three registers syscall
 *	 7: push	%r11			clobbers
 *	 9: mov	$__NR_uretprobe, %eax
 *	14: syscall
 *	16: pop	%r11			only if the system call was refused:
 *	18: pop	%rcx			the nop is executed without its probe
 *	19: pop	%rax
 *	20: lea	128(%rsp), %rsp
 *	28: jmp	vaddr + len		len: the nop's, 5 or more
 *
 * The system call is the return trampoline's; sys_uretprobe() tells the
 * two apart by the address it is made from. For a stub, it takes the
 * three registers back, puts the stack pointer and ip as they were at the
 * nop, lets the core run the handlers and returns after the nop (or where
 * a handler moved ip) with every register restored by iret: flags,
 * registers and the red zone are the program's own throughout.
 *
 * arch_uprobe_stub_unwind() is given the nop's address and the stub's,
 * not the nop: the stub's final jmp tells it where the nop ends. After a
 * hit, the core moves ip past the nop by the length it keeps (its
 * stub.c).
 */
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/uprobes.h>

#include <asm/compat.h>
#include <asm/insn.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "internal.h"

#define STUB_JMP_LEN	UPROBE_X86_STUB_JMP_LEN	/* e9 rel32 */
#define STUB_RED_ZONE	128
#define STUB_SAVED	(3 * 8)		/* rax, rcx, r11 */

/* Offsets of the instructions of the stub, see above. */
enum {
	STUB_LEA	= 0,
	STUB_PUSH_AX	= 5,
	STUB_PUSH_CX	= 6,
	STUB_PUSH_R11	= 7,
	STUB_MOV	= 9,
	STUB_SYSCALL	= 14,
	STUB_RET	= 16,		/* where the system call returns */
	STUB_POP_CX	= 18,
	STUB_POP_AX	= 19,
	STUB_LEA_BACK	= 20,
	STUB_JMP	= 28,
	STUB_LEN	= 33,
};

static const u8 stub_head[STUB_JMP] = {
	0x48, 0x8d, 0x64, 0x24, 0x80,			/* lea -0x80(%rsp),%rsp */
	0x50,						/* push %rax */
	0x51,						/* push %rcx */
	0x41, 0x53,					/* push %r11 */
	0xb8, __NR_uretprobe & 0xff, __NR_uretprobe >> 8, 0, 0,	/* mov */
	0x0f, 0x05,					/* syscall */
	0x41, 0x5b,					/* pop %r11 */
	0x59,						/* pop %rcx */
	0x58,						/* pop %rax */
	0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00,	/* lea 0x80(%rsp),%rsp */
};

/* Writes "jmp @to" at @buf, to be placed at @from; false if out of reach. */
static bool uprobe_x86_jmp(u8 *buf, unsigned long from, unsigned long to)
{
	long rel = (long)(to - (from + STUB_JMP_LEN));

	if (rel != (s32)rel)
		return false;
	buf[0] = 0xe9;
	put_unaligned_le32((u32)rel, buf + 1);
	return true;
}

/**
 * arch_uprobe_stub_ok - may this probe's breakpoint become a jump?
 * @auprobe: the probed instruction
 * @regs: the user registers at a hit
 *
 * Return: true for a nop of five bytes or more hit in 64-bit mode.
 */
bool arch_uprobe_stub_ok(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	return uprobe_x86_stub_nop(auprobe) && user_64bit_mode(regs);
}

/**
 * arch_uprobe_stub_code - the stub of a probed nop
 * @auprobe: the probed instruction, a nop arch_uprobe_stub_ok() accepted
 * @vaddr: its address
 * @slot: the stub's address
 * @buf: receives the code
 *
 * The stub's final jmp goes after the whole nop, @auprobe->len bytes.
 *
 * Return: its size, or -ERANGE when the stub cannot jump back after the
 * nop, or the nop's jump cannot reach the stub.
 */
int arch_uprobe_stub_code(struct arch_uprobe *auprobe, unsigned long vaddr,
			  unsigned long slot, u8 *buf)
{
	u8 jump[STUB_JMP_LEN];

	BUILD_BUG_ON(STUB_LEN > UPROBE_XOL_SLOT_BYTES);
	if (!uprobe_x86_jmp(jump, vaddr, slot) ||
	    !uprobe_x86_jmp(buf + STUB_JMP, slot + STUB_JMP,
			    vaddr + auprobe->len))
		return -ERANGE;
	memcpy(buf, stub_head, sizeof(stub_head));
	return STUB_LEN;
}

/**
 * arch_uprobe_stub_jump - the jump that replaces a probed nop's first bytes
 * @vaddr: the probed address
 * @slot: the stub's address, in reach (arch_uprobe_stub_code())
 * @buf: receives the jump
 *
 * Return: its size, five bytes whatever the nop's.
 */
int arch_uprobe_stub_jump(unsigned long vaddr, unsigned long slot, u8 *buf)
{
	return uprobe_x86_jmp(buf, vaddr, slot) ? STUB_JMP_LEN : 0;
}

/*
 * The end of the nop at @vaddr that the stub at @slot stands for, where
 * its final jmp goes, in @end. The stub is the kernel's, in a mapping the
 * program cannot write; its jmp is read back from there all the same and
 * must land after a nop of five to MAX_INSN_SIZE bytes.
 */
static int uprobe_x86_stub_end(unsigned long slot, unsigned long vaddr,
			       unsigned long *end)
{
	u8 jmp[STUB_JMP_LEN];
	unsigned long len;

	if (copy_from_user(jmp, (void __user *)(slot + STUB_JMP), sizeof(jmp)) ||
	    jmp[0] != 0xe9)
		return -EFAULT;
	*end = slot + STUB_LEN + (s32)get_unaligned_le32(jmp + 1);
	len = *end - vaddr;
	return len >= STUB_JMP_LEN && len <= MAX_INSN_SIZE ? 0 : -EFAULT;
}

/**
 * arch_uprobe_stub_unwind - take a thread out of a stub
 * @regs: the user registers, ip inside the stub
 * @vaddr: the probed nop's address
 * @slot: the stub's address
 *
 * Before the system call, the stub's work is undone (only rax was
 * changed, and it is saved); after a refused one, the stub's own
 * restoring is completed, and the thread goes where the stub's final jmp
 * would take it: after the whole nop.
 *
 * Return: 0 with @regs as at the nop, 1 with @regs as after it, or
 * -EFAULT (@regs unchanged) when the saved registers or the stub's jmp
 * cannot be read back.
 */
int arch_uprobe_stub_unwind(struct pt_regs *regs, unsigned long vaddr,
			    unsigned long slot)
{
	unsigned long off = regs->ip - slot, sp = regs->sp, end;
	int pushed;

	switch (off) {
	case STUB_LEA:
		regs->ip = vaddr;
		return 0;
	case STUB_PUSH_AX:
	case STUB_PUSH_CX:
	case STUB_PUSH_R11:
	case STUB_MOV:
		pushed = off == STUB_PUSH_AX ? 0 : off == STUB_PUSH_CX ? 1 :
			 off == STUB_PUSH_R11 ? 2 : 3;
		regs->sp = sp + pushed * 8 + STUB_RED_ZONE;
		regs->ip = vaddr;
		return 0;
	case STUB_SYSCALL:
		if (uprobe_x86_pop_saved(regs, sp + 16, 1))
			return -EFAULT;
		regs->sp = sp + STUB_SAVED + STUB_RED_ZONE;
		regs->ip = vaddr;
		return 0;
	case STUB_RET:
	case STUB_POP_CX:
	case STUB_POP_AX:
		/* The jmp first: no register taken back without it. */
		if (uprobe_x86_stub_end(slot, vaddr, &end))
			return -EFAULT;
		pushed = 3 - (off == STUB_POP_CX) - 2 * (off == STUB_POP_AX);
		if (uprobe_x86_pop_saved(regs, sp, pushed))
			return -EFAULT;
		sp += pushed * 8;
		regs->sp = sp + STUB_RED_ZONE;
		regs->ip = end;
		return 1;
	case STUB_LEA_BACK:
		sp += STUB_RED_ZONE;
		fallthrough;
	case STUB_JMP:
		if (uprobe_x86_stub_end(slot, vaddr, &end))
			return -EFAULT;
		regs->sp = sp;
		regs->ip = end;
		return 1;
	}
	return -EINVAL;
}

/**
 * arch_uprobe_syscall_is_ours - is this system call a uprobes stub's?
 * @regs: the user registers at a system call entry
 *
 * Return: true for the uretprobe system call of a 64-bit task, made from
 * the return trampoline or a stub.
 */
bool arch_uprobe_syscall_is_ours(struct pt_regs *regs)
{
	unsigned long vaddr;

	return !in_ia32_syscall() &&
	       syscall_get_nr(current, regs) == __NR_uretprobe &&
	       uprobe_stub_lookup(regs->ip, &vaddr);
}

/**
 * uprobe_x86_stub_syscall - the system call of a stub
 * @regs: the user registers at the system call, ip after it
 * @slot: the stub (uprobe_stub_lookup())
 * @vaddr: the probed nop it stands for
 *
 * Return: true when it was the stub's system call, its probe handled and
 * @regs as after the nop (the core knows its length); false when not made
 * from the stub's.
 */
bool uprobe_x86_stub_syscall(struct pt_regs *regs, unsigned long slot,
			     unsigned long vaddr)
{
	if (regs->ip != slot + STUB_RET ||
	    uprobe_x86_pop_saved(regs, regs->sp, 3))
		return false;
	regs->sp += STUB_SAVED + STUB_RED_ZONE;
	regs->ip = vaddr;
	/* regs are the user's state at the nop: no syscall restart. */
	regs->orig_ax = -1;
	uprobe_stub_hit(regs);
	return true;
}
