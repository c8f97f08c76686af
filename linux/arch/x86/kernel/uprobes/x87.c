// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 uprobes: the x87 state a probed x87 instruction leaves. One with a
 * rip-relative memory operand is run by the kernel on the thread's own FPU
 * registers; one stepped out of line gets its FIP put back afterwards.
 *
 * Stepped out of line, an x87 instruction costs a second trap and records
 * the slot as the FPU's last instruction pointer (FIP), which the program
 * can read (fnstenv, fnsave, fxsave, xsave) and which must be put back.
 * The kernel can as well run the same instruction itself, with the user's
 * FPU registers loaded and on the user's operand, at the address the
 * original would use: the results, the status word, the exceptions it
 * raises (pending for the program's next x87 instruction, as they would
 * be) and the operand's address (FDP) are the original's; only FIP and
 * the opcode (FOP, whose ModRM differs) are then made the original's.
 *
 * A 64-bit program sees all 64 bits of FIP and FDP (fxsave64, xsave64,
 * its signal frames, a debugger's PTRACE_GETFPREGS): they are put back
 * through fxsave64 and fxrstor64, which keep them whole. The 32-bit
 * fnstenv and fldenv would zero their upper halves; they serve 32-bit
 * programs, whose FIP comes with a code segment (FCS).
 *
 * That needs a CPU whose fxrstor64 loads FIP (every x86 CPU does; QEMU's
 * TCG does not, and the FIP of the kernel's copy, kernel address bits,
 * would stay visible): checked once at boot, else x87 instructions are
 * stepped (uprobes.x87_in_kernel=1 forces the kernel's way, to test it
 * there).
 *
 * What the kernel must not take here is stepped instead, which then
 * behaves as the original: a fault on the operand (not present, not
 * writable: the page fault handler does not sleep with the registers
 * locked), and an unmasked exception left pending by earlier x87 code,
 * which the instruction raises (#MF) before it does anything.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/asm.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/smap.h>

#include "internal.h"

/* The x87 environment as fnstenv stores it (32-bit protected mode form). */
struct uprobe_x87_env {
	u32	fcw, fsw, ftw, fip;
	u16	fcs, fop;
	u32	fdp, fds;
};

/* The bits of FOP the kernel's copy shares: the opcode's and ModRM reg. */
#define X87_FOP_OP_REG	0x738

/*
 * Forms (op & 7) << 3 | reg run here: all memory forms but the invalid
 * ones (d9 /1, db /4, db /6, dd /5) and fisttp (db /1, dd /1, df /1: SSE3,
 * which the kernel must not assume).
 */
#define X87_NOT_RUN	(BIT_ULL(011) | BIT_ULL(031) | BIT_ULL(034) | \
			 BIT_ULL(036) | BIT_ULL(051) | BIT_ULL(055) | \
			 BIT_ULL(071))

/*
 * Control instructions, which keep FIP, FOP and FDP (or load them): fldenv,
 * fldcw, fnstenv, fnstcw (d9 /4-/7), frstor, fnsave, fnstsw (dd /4, /6, /7).
 */
#define X87_CONTROL	(BIT_ULL(014) | BIT_ULL(015) | BIT_ULL(016) | \
			 BIT_ULL(017) | BIT_ULL(054) | BIT_ULL(056) | \
			 BIT_ULL(057))

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "uprobes."

/* Does fldenv load FIP on this CPU (see uprobe_x86_x87_init())? */
static bool x87_fip_loads __ro_after_init;
static bool x87_in_kernel __ro_after_init;
module_param(x87_in_kernel, bool, 0444);
MODULE_PARM_DESC(x87_in_kernel,
		 "Run probed x87 instructions in the kernel even where fldenv does not load FIP (testing)");

static int __init uprobe_x86_x87_init(void)
{
	const u64 fip = 0x123456789a0;
	struct fxregs_state fx;

	kernel_fpu_begin_mask(KFPU_387);
	asm volatile("fldz\n\tfxsaveq %0" : "=m" (fx));
	fx.rip = fip;
	asm volatile("fxrstorq %0\n\tfxsaveq %0" : "+m" (fx));
	kernel_fpu_end();
	x87_fip_loads = fx.rip == fip;
	return 0;
}
arch_initcall(uprobe_x86_x87_init);

/*
 * Sets a 64-bit program's FIP, whole, and when @fop (the opcode's low
 * bits and ModRM reg) is the recorded FOP's, the ModRM of the original's
 * disp32(%rip) operand in it; FDP and the rest stay as they are. The
 * thread's FPU registers are loaded and locked.
 */
static void uprobe_x86_x87_set_fip64(u64 fip, u16 fop)
{
	struct fxregs_state fx;

	asm volatile("fxsaveq %0" : "=m" (fx));
	fx.rip = fip;
	if ((fx.fop & X87_FOP_OP_REG) == fop)
		fx.fop = fop | 5;
	asm volatile("fxrstorq %0" : : "m" (fx));
}

/**
 * uprobe_x86_x87_runs - can the kernel run this x87 memory form?
 * @form: the opcode's low three bits and the ModRM reg field
 *
 * Return: true if uprobe_x86_x87() knows the instruction, and the CPU lets
 * it put FIP back (or uprobes.x87_in_kernel says to run it anyway).
 */
bool uprobe_x86_x87_runs(u8 form)
{
	return (x87_fip_loads || x87_in_kernel) && form < 64 &&
	       !(X87_NOT_RUN & BIT_ULL(form));
}

/*
 * One x87 instruction on the memory at @ea, a user address: a fault, or
 * the #MF of a pending exception, makes err (in ax) -EFAULT through the
 * exception table.
 */
#define X87_RUN(mnem)							\
({									\
	int __err = 0;							\
									\
	asm volatile(ASM_STAC "\n"					\
		     "1: " mnem " (%[ea])\n"				\
		     "2: " ASM_CLAC "\n"				\
		     _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_EFAULT_REG)		\
		     : "+a" (__err)					\
		     : [ea] "r" (ea)					\
		     : "memory");					\
	__err;								\
})

/* Forms (op & 7) << 3 | reg, in octal: the opcode's low digit, then reg. */
static int uprobe_x86_x87_run(u8 form, unsigned long ea)
{
	switch (form) {
	case 000: return X87_RUN("fadds");     /* d8 /0 */
	case 001: return X87_RUN("fmuls");     /* d8 /1 */
	case 002: return X87_RUN("fcoms");     /* d8 /2 */
	case 003: return X87_RUN("fcomps");    /* d8 /3 */
	case 004: return X87_RUN("fsubs");     /* d8 /4 */
	case 005: return X87_RUN("fsubrs");    /* d8 /5 */
	case 006: return X87_RUN("fdivs");     /* d8 /6 */
	case 007: return X87_RUN("fdivrs");    /* d8 /7 */
	case 010: return X87_RUN("flds");      /* d9 /0 */
	case 012: return X87_RUN("fsts");      /* d9 /2 */
	case 013: return X87_RUN("fstps");     /* d9 /3 */
	case 014: return X87_RUN("fldenv");    /* d9 /4 */
	case 015: return X87_RUN("fldcw");     /* d9 /5 */
	case 016: return X87_RUN("fnstenv");   /* d9 /6 */
	case 017: return X87_RUN("fnstcw");    /* d9 /7 */
	case 020: return X87_RUN("fiaddl");    /* da /0 */
	case 021: return X87_RUN("fimull");    /* da /1 */
	case 022: return X87_RUN("ficoml");    /* da /2 */
	case 023: return X87_RUN("ficompl");   /* da /3 */
	case 024: return X87_RUN("fisubl");    /* da /4 */
	case 025: return X87_RUN("fisubrl");   /* da /5 */
	case 026: return X87_RUN("fidivl");    /* da /6 */
	case 027: return X87_RUN("fidivrl");   /* da /7 */
	case 030: return X87_RUN("fildl");     /* db /0 */
	case 032: return X87_RUN("fistl");     /* db /2 */
	case 033: return X87_RUN("fistpl");    /* db /3 */
	case 035: return X87_RUN("fldt");      /* db /5 */
	case 037: return X87_RUN("fstpt");     /* db /7 */
	case 040: return X87_RUN("faddl");     /* dc /0 */
	case 041: return X87_RUN("fmull");     /* dc /1 */
	case 042: return X87_RUN("fcoml");     /* dc /2 */
	case 043: return X87_RUN("fcompl");    /* dc /3 */
	case 044: return X87_RUN("fsubl");     /* dc /4 */
	case 045: return X87_RUN("fsubrl");    /* dc /5 */
	case 046: return X87_RUN("fdivl");     /* dc /6 */
	case 047: return X87_RUN("fdivrl");    /* dc /7 */
	case 050: return X87_RUN("fldl");      /* dd /0 */
	case 052: return X87_RUN("fstl");      /* dd /2 */
	case 053: return X87_RUN("fstpl");     /* dd /3 */
	case 054: return X87_RUN("frstor");    /* dd /4 */
	case 056: return X87_RUN("fnsave");    /* dd /6 */
	case 057: return X87_RUN("fnstsw");    /* dd /7 */
	case 060: return X87_RUN("fiadds");    /* de /0 */
	case 061: return X87_RUN("fimuls");    /* de /1 */
	case 062: return X87_RUN("ficoms");    /* de /2 */
	case 063: return X87_RUN("ficomps");   /* de /3 */
	case 064: return X87_RUN("fisubs");    /* de /4 */
	case 065: return X87_RUN("fisubrs");   /* de /5 */
	case 066: return X87_RUN("fidivs");    /* de /6 */
	case 067: return X87_RUN("fidivrs");   /* de /7 */
	case 070: return X87_RUN("filds");     /* df /0 */
	case 072: return X87_RUN("fists");     /* df /2 */
	case 073: return X87_RUN("fistps");    /* df /3 */
	case 074: return X87_RUN("fbld");      /* df /4 */
	case 075: return X87_RUN("fildll");    /* df /5 */
	case 076: return X87_RUN("fbstp");     /* df /6 */
	case 077: return X87_RUN("fistpll");   /* df /7 */
	}
	return -EINVAL;
}

/**
 * uprobe_x86_x87 - run a probed x87 instruction with a rip-relative operand
 * @form: the opcode's low three bits and the ModRM reg field
 * @ea: the operand's user address
 * @regs: the user registers, ip on the probed instruction
 *
 * Return: 0 when the instruction ran, else an error and nothing changed:
 * the caller steps it.
 */
int uprobe_x86_x87(u8 form, unsigned long ea, struct pt_regs *regs)
{
	int err;

	/* fnsave and frstor: the largest operand, 108 bytes */
	if (!access_ok((void __user *)ea, 108))
		return -EFAULT;
	fpregs_lock_and_load();
	err = uprobe_x86_x87_run(form, ea);
	/* A rip-relative operand: a 64-bit program's instruction. */
	if (!err && !(X87_CONTROL & BIT_ULL(form)))
		uprobe_x86_x87_set_fip64(regs->ip, (form >> 3) << 8 | (form & 7) << 3);
	fpregs_unlock();
	return err;
}

/**
 * uprobe_x86_x87_fix_fip - put the probed address back into FIP after a step
 * @regs: the user registers
 * @slot: the XOL slot the x87 instruction was stepped in
 * @vaddr: the probed address
 *
 * A stepped x87 instruction records the slot's address as FIP: it becomes
 * @vaddr, all 64 bits of it for a 64-bit program, the 32 bits fnstenv and
 * fnsave show (with FCS) for a 32-bit one.
 */
void uprobe_x86_x87_fix_fip(struct pt_regs *regs, unsigned long slot,
			    unsigned long vaddr)
{
	struct uprobe_x87_env env;
	struct fxregs_state fx;

	/* fpregs_lock_and_load() without its checks of the context. */
	fpregs_lock();
	if (test_thread_flag(TIF_NEED_FPU_LOAD))
		switch_fpu_return();
	if (user_64bit_mode(regs)) {
		asm volatile("fxsaveq %0" : "=m" (fx));
		if (fx.rip - slot < UPROBE_XOL_SLOT_BYTES) {
			fx.rip += vaddr - slot;
			asm volatile("fxrstorq %0" : : "m" (fx));
		}
	} else {
		asm volatile("fnstenv %0" : "=m" (env));
		if (env.fip - (u32)slot < UPROBE_XOL_SLOT_BYTES)
			env.fip += (u32)vaddr - (u32)slot;
		/* fnstenv masked every exception: fldenv restores them. */
		asm volatile("fldenv %0" : : "m" (env));
	}
	fpregs_unlock();
}
