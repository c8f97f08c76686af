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
 * A 64-bit program can see all 64 bits of FIP and FDP (fxsave64, xsave64,
 * its signal frames, a debugger's PTRACE_GETFPREGS) where the CPU saves
 * them: FIP is then put back through fxsave64 and fxrstor64, which keep
 * both whole (FCS, which fxrstor64 does not load, reads 0 afterwards, as
 * on CPUs that deprecate it). Some CPUs (AMD's) save no pointers there
 * while no exception is pending, and fnstenv shows the only FIP there is,
 * 32 bits of it: it is put back through fnstenv and fldenv, with FCS, as
 * for 32-bit programs. fnstenv tells where FIP is on every CPU.
 *
 * Running the instruction in the kernel needs a CPU whose fldenv and
 * fxrstor64 load FIP (every x86 CPU's do; QEMU's TCG's do not, and the
 * FIP of the kernel's copy, kernel address bits, would stay visible):
 * checked once at boot, else x87 instructions are stepped
 * (uprobes.x87_in_kernel=1 forces the kernel's way, to test it there).
 *
 * What the kernel must not take here is stepped instead, which then
 * behaves as the original: a fault on the operand (not present, not
 * writable: the page fault handler does not sleep with the registers
 * locked), and an unmasked exception left pending by earlier x87 code,
 * which the instruction raises (#MF) before it does anything.
 *
 * A 32-bit kernel may run without an FPU (MATH_EMULATION, 486SX), its
 * x87 instructions emulated for user space only: the kernel runs none
 * then (one of its own would panic), and a stepped one's FIP, in the
 * emulator's state, stays the slot's.
 */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/asm.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/segment.h>
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
 * Where an x87 instruction run elsewhere than the probed one left its
 * traces: FIP in [@from, @from + @len) (for a zero @len, any FIP) becomes
 * @to plus its offset from @from; a recorded FOP whose @fop_mask bits are
 * @fop_from becomes @fop_to.
 */
struct uprobe_x87_fix {
	unsigned long	from, len, to;
	u16		fop_mask, fop_from, fop_to;
};

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

/* Do fldenv and fxrstor64 load FIP on this CPU (uprobe_x86_x87_init())? */
static bool x87_fip_loads __ro_after_init;
static bool x87_in_kernel __ro_after_init;
module_param(x87_in_kernel, bool, 0444);
MODULE_PARM_DESC(x87_in_kernel,
		 "Run probed x87 instructions in the kernel even where FIP cannot be put back (testing)");

/* FIP as fnstenv shows it after @env is loaded with fldenv. */
static u32 uprobe_x86_x87_fldenv_fip(struct uprobe_x87_env *env)
{
	asm volatile("fldenv %0\n\tfnstenv %0" : "+m" (*env));
	return env->fip;
}

#ifdef CONFIG_X86_64
/* FIP as fnstenv shows it after @fx is loaded with fxrstor64. */
static u32 uprobe_x86_x87_fxrstor_fip(struct fxregs_state *fx)
{
	struct uprobe_x87_env env;

	asm volatile("fxrstorq %1\n\tfnstenv %0" : "=m" (env) : "m" (*fx));
	return env.fip;
}

/*
 * @f applied to a 64-bit program's state, all 64 bits of FIP kept, when
 * the CPU saved its pointers in @fx (fxsave64 before fnstenv, which
 * masked the exceptions: fxrstor64 restores them). @fip32: FIP as
 * fnstenv showed it. The thread's FPU registers are loaded and locked.
 * False when the CPU did not save them there.
 */
static bool uprobe_x86_x87_fix64(struct fxregs_state *fx, u32 fip32,
				 const struct uprobe_x87_fix *f)
{
	if (!x87_fip_loads || (u32)fx->rip != fip32)
		return false;
	fx->rip = f->len ? fx->rip - f->from + f->to : f->to;
	if ((fx->fop & f->fop_mask) == f->fop_from)
		fx->fop = f->fop_to;
	asm volatile("fxrstorq %0" : : "m" (*fx));
	return true;
}

static void uprobe_x86_x87_fxsave(struct fxregs_state *fx)
{
	asm volatile("fxsaveq %0" : "=m" (*fx));
}
#else
static u32 uprobe_x86_x87_fxrstor_fip(struct fxregs_state *fx)
{
	return 0;
}

static bool uprobe_x86_x87_fix64(struct fxregs_state *fx, u32 fip32,
				 const struct uprobe_x87_fix *f)
{
	return false;
}

static void uprobe_x86_x87_fxsave(struct fxregs_state *fx)
{
}
#endif

/*
 * Checks with fnstenv, on a fresh state, that fldenv and (64-bit)
 * fxrstor64 load the FIP they are given.
 */
static int __init uprobe_x86_x87_init(void)
{
	struct uprobe_x87_env env;
	struct fxregs_state fx;
	bool loads;

	if (!cpu_feature_enabled(X86_FEATURE_FPU))
		return 0;
	kernel_fpu_begin_mask(KFPU_387);
	asm volatile("fldz\n\tfnstenv %0" : "=m" (env));
	env.fip = 0x1234560;
	loads = uprobe_x86_x87_fldenv_fip(&env) == 0x1234560;
	if (IS_ENABLED(CONFIG_X86_64)) {
		asm volatile("fninit\n\tfldz");
		uprobe_x86_x87_fxsave(&fx);
		fx.rip = 0x123456789a0;
		loads = loads && uprobe_x86_x87_fxrstor_fip(&fx) == 0x456789a0;
	}
	kernel_fpu_end();
	x87_fip_loads = loads;
	return 0;
}
arch_initcall(uprobe_x86_x87_init);

/*
 * Applies @f to the thread's x87 state, whose FPU registers are loaded
 * and locked; a kernel FCS becomes @regs' (see the comment at the top).
 */
static void uprobe_x86_x87_put_back(struct pt_regs *regs,
				    const struct uprobe_x87_fix *f)
{
	struct uprobe_x87_env env;
	struct fxregs_state fx;
	bool user64 = user_64bit_mode(regs);

	/* Before fnstenv, which masks every exception. */
	if (user64)
		uprobe_x86_x87_fxsave(&fx);
	asm volatile("fnstenv %0" : "=m" (env));
	if (f->len && env.fip - (u32)f->from >= f->len) {
		/* Not moved (a control instruction): exceptions back. */
		asm volatile("fldenv %0" : : "m" (env));
		return;
	}
	if (user64 && uprobe_x86_x87_fix64(&fx, env.fip, f))
		return;
	env.fip = f->len ? env.fip - (u32)f->from + (u32)f->to : (u32)f->to;
	if ((env.fop & f->fop_mask) == f->fop_from)
		env.fop = f->fop_to;
	if (env.fcs == __KERNEL_CS)
		env.fcs = regs->cs;
	asm volatile("fldenv %0" : : "m" (env));
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
	struct uprobe_x87_fix fix = { };
	int err;

	/* fnsave and frstor: the largest operand, 108 bytes */
	if (!access_ok((void __user *)ea, 108))
		return -EFAULT;
	fpregs_lock_and_load();
	err = uprobe_x86_x87_run(form, ea);
	/*
	 * FOP: the opcode's low bits, then ModRM: the reg field is the
	 * same, mod 00 and r/m 101 make the original's disp32(%rip).
	 */
	fix.to = regs->ip;
	fix.fop_mask = X87_FOP_OP_REG;
	fix.fop_from = (form >> 3) << 8 | (form & 7) << 3;
	fix.fop_to = fix.fop_from | 5;
	if (!err && !(X87_CONTROL & BIT_ULL(form)))
		uprobe_x86_x87_put_back(regs, &fix);
	fpregs_unlock();
	return err;
}

/* The FOP of the x87 instruction @insn: its opcode's low bits, its ModRM. */
static u16 uprobe_x86_x87_fop(const u8 *insn)
{
	int i = 0;

	/* No prefix byte is an x87 opcode (d8-df). */
	while (i < MAX_UINSN_BYTES - 1 && (insn[i] & 0xf8) != 0xd8)
		i++;
	return (insn[i] & 7) << 8 | insn[i + 1];
}

/**
 * uprobe_x86_x87_fix_fip - put the probed instruction back into FIP after a step
 * @auprobe: the probed x87 instruction
 * @regs: the user registers
 * @slot: the XOL slot it was stepped in
 * @vaddr: the probed address
 *
 * A stepped x87 instruction records the slot's address as FIP, and the
 * copy's ModRM (a rip-relative operand through a register) in FOP: they
 * become the original's. Not without an FPU (see the top of the file).
 */
void uprobe_x86_x87_fix_fip(struct arch_uprobe *auprobe, struct pt_regs *regs,
			    unsigned long slot, unsigned long vaddr)
{
	struct uprobe_x87_fix fix = {
		.from = slot, .len = UPROBE_XOL_SLOT_BYTES, .to = vaddr,
		.fop_mask = 0x7ff,
		.fop_from = uprobe_x86_x87_fop(auprobe->ixol),
		.fop_to = uprobe_x86_x87_fop(auprobe->insn),
	};

	if (!cpu_feature_enabled(X86_FEATURE_FPU))
		return;
	/* fpregs_lock_and_load() without its checks of the context. */
	fpregs_lock();
	if (test_thread_flag(TIF_NEED_FPU_LOAD))
		switch_fpu_return();
	uprobe_x86_x87_put_back(regs, &fix);
	fpregs_unlock();
}
