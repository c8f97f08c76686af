/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the arm64 uprobes simulation.
 *
 * Included at the end of simulate.c.  Instructions are analysed from
 * their encodings (the GNU assembler's), then simulated on made-up user
 * registers; loads read from, and stores write to, pages mapped in an
 * address space KUnit gives the test.
 */
#ifndef _ARM64_UPROBES_SIMULATE_KUNIT_H
#define _ARM64_UPROBES_SIMULATE_KUNIT_H

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>

/* A probed address in the middle of a page, and the page of its adrp. */
#define SIM_PC		0x412348UL
#define SIM_PAGE	0x412000UL

KUNIT_DEFINE_ACTION_WRAPPER(uprobe_arm64_sim_mmdrop, mmdrop,
			    struct mm_struct *);

/*
 * A page of user memory with @prot, or 0. The first kunit_vm_mmap() of a
 * test gives its kthread an address space, and KUnit never drops the
 * reference kthread_use_mm() takes on it (kmemleak reports the mm): the
 * test drops it when it ends.
 */
static unsigned long uprobe_arm64_sim_page(struct kunit *test,
					   unsigned long prot)
{
	bool had_mm = current->mm;
	unsigned long addr;

	addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, prot,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (addr && !had_mm && current->mm &&
	    kunit_add_action_or_reset(test, uprobe_arm64_sim_mmdrop,
				      current->mm))
		return 0;
	return addr;
}

/* Analyses @insn (A64) into @au; the test fails if it is refused. */
static void uprobe_arm64_sim_prepare(struct kunit *test,
				     struct arch_uprobe *au, u32 insn)
{
	__le32 word = cpu_to_le32(insn);
	const char *reason;

	memset(au, 0, sizeof(*au));
	memcpy(au->insn, &word, sizeof(word));
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(au, true, &reason), 0);
}

/* Registers at a hit of SIM_PC: x<n> = 0x1000 + n, flags clear. */
static void uprobe_arm64_sim_regs(struct pt_regs *regs)
{
	int i;

	memset(regs, 0, sizeof(*regs));
	for (i = 0; i < 31; i++)
		regs->regs[i] = 0x1000 + i;
	regs->sp = 0x7ffff000;
	regs->pc = SIM_PC;
	regs->pstate = PSR_MODE_EL0t;
}

/* Simulates @insn at SIM_PC on @regs; returns what skip_sstep said. */
static bool uprobe_arm64_sim_run(struct kunit *test, u32 insn,
				 struct pt_regs *regs)
{
	struct arch_uprobe au;

	uprobe_arm64_sim_prepare(test, &au, insn);
	return arch_uprobe_skip_sstep(&au, regs);
}

/*
 * For each condition, the NZCV values (bit N << 3 | Z << 2 | C << 1 | V
 * of the mask) for which it holds, as the Arm ARM defines them.
 */
static const u16 uprobe_arm64_sim_cond_masks[16] = {
	0xf0f0,	/* eq */
	0x0f0f,	/* ne */
	0xcccc,	/* cs */
	0x3333,	/* cc */
	0xff00,	/* mi */
	0x00ff,	/* pl */
	0xaaaa,	/* vs */
	0x5555,	/* vc */
	0x0c0c,	/* hi */
	0xf3f3,	/* ls */
	0xaa55,	/* ge */
	0x55aa,	/* lt */
	0x0a05,	/* gt */
	0xf5fa,	/* le */
	0xffff,	/* al */
	0xffff,	/* nv */
};

/* b.cond .+0x40, every condition, every NZCV: taken or not. */
static void uprobe_arm64_sim_bcond(struct kunit *test)
{
	struct pt_regs regs;
	unsigned int cond, nzcv;

	for (cond = 0; cond < 16; cond++) {
		for (nzcv = 0; nzcv < 16; nzcv++) {
			bool taken = uprobe_arm64_sim_cond_masks[cond] &
				     BIT(nzcv);

			uprobe_arm64_sim_regs(&regs);
			regs.pstate |= (u64)nzcv << 28;
			KUNIT_ASSERT_TRUE(test,
					  uprobe_arm64_sim_run(test,
							       0x54000200 | cond,
							       &regs));
			KUNIT_EXPECT_EQ_MSG(test, regs.pc,
					    taken ? SIM_PC + 0x40 : SIM_PC + 4,
					    "cond %u nzcv %#x", cond, nzcv);
			/* nothing else changes */
			KUNIT_EXPECT_EQ(test, regs.regs[30], 0x1000 + 30);
			KUNIT_EXPECT_EQ(test, regs.pstate,
					PSR_MODE_EL0t | (u64)nzcv << 28);
		}
	}
}

/* b, bl: relative; bl links. */
static void uprobe_arm64_sim_b_bl(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	/* b .-4 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x17ffffff, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC - 4);
	KUNIT_EXPECT_EQ(test, regs.regs[30], 0x1000 + 30);

	uprobe_arm64_sim_regs(&regs);
	/* bl .+0x1000 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x94000400, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 0x1000);
	KUNIT_EXPECT_EQ(test, regs.regs[30], SIM_PC + 4);
}

/* cbz, cbnz: 64-bit, 32-bit (upper half ignored), the zero register. */
static void uprobe_arm64_sim_cbz(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.regs[3] = 0;
	/* cbz x3, .+16: taken */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb4000083, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 16);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[3] = BIT_ULL(63);
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb4000083, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[5] = 0xffffffff00000000ULL;
	/* cbnz w5, .-8: w5 is 0, not taken */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x35ffffc5, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[5] = 1;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x35ffffc5, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC - 8);

	uprobe_arm64_sim_regs(&regs);
	/* cbz wzr, .+16: always taken */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x3400009f, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 16);
}

/* tbz, tbnz: the bit numbered in the instruction. */
static void uprobe_arm64_sim_tbz(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.regs[2] = BIT(3);
	/* tbnz w2, #3, .-0x8000: taken */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x371c0002, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC - 0x8000);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[2] = ~BIT(3);
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x371c0002, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[1] = BIT_ULL(63);
	/* tbz x1, #63, .+0x20 (imm14 = 8): not taken with bit 63 set */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb6f80101, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[1] = 0;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb6f80101, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 0x20);
}

/* The BTYPE a branch leaves, as the CPU records it if it has BTI. */
static u64 uprobe_arm64_sim_btype(u64 btype)
{
	return system_supports_bti() ? btype : PSR_BTYPE_NONE;
}

/* br, blr, ret: to the register; blr x30 reads x30 before linking. */
static void uprobe_arm64_sim_br(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.pstate |= PSR_BTYPE_C;
	/* ret */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd65f03c0, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, 0x1000 + 30);
	KUNIT_EXPECT_EQ(test, regs.pstate & PSR_BTYPE_MASK, PSR_BTYPE_NONE);

	uprobe_arm64_sim_regs(&regs);
	/* br x16 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd61f0200, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, 0x1000 + 16);
	KUNIT_EXPECT_EQ(test, regs.regs[30], 0x1000 + 30);
	KUNIT_EXPECT_EQ(test, regs.pstate & PSR_BTYPE_MASK,
			uprobe_arm64_sim_btype(PSR_BTYPE_JC));

	uprobe_arm64_sim_regs(&regs);
	/* blr x30 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd63f03c0, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, 0x1000 + 30);
	KUNIT_EXPECT_EQ(test, regs.regs[30], SIM_PC + 4);
	KUNIT_EXPECT_EQ(test, regs.pstate & PSR_BTYPE_MASK,
			uprobe_arm64_sim_btype(PSR_BTYPE_C));
}

/* A probed landing pad reached by blr: BTYPE is consumed. */
static void uprobe_arm64_sim_nop_btype(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.pstate |= PSR_BTYPE_C;
	/* bti c */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd503245f, &regs));
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t);
}

/* adr, adrp: from pc, from pc's page; the zero register stays zero. */
static void uprobe_arm64_sim_adr(struct kunit *test)
{
	struct pt_regs regs, before;

	uprobe_arm64_sim_regs(&regs);
	/* adr x1, .-1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x70ffffe1, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], SIM_PC - 1);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);

	uprobe_arm64_sim_regs(&regs);
	/* adrp x2, .+0x1000 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb0000002, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], SIM_PAGE + 0x1000);

	uprobe_arm64_sim_regs(&regs);
	regs.pc = 0x100000000000UL + 0xffc;
	/* adrp x3, .-4G */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x90800003, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[3], 0x100000000000UL - SZ_4G);

	uprobe_arm64_sim_regs(&regs);
	/* adrp x4, .+0xfffff000 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf07fffe4, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[4], SIM_PAGE + 0xfffff000UL);

	uprobe_arm64_sim_regs(&regs);
	before = regs;
	/* adr xzr, .+8: only pc moves */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x1000005f, &regs));
	before.pc += 4;
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
}

/* Stepped instructions are not simulated: the registers stay. */
static void uprobe_arm64_sim_step(struct kunit *test)
{
	struct pt_regs regs, before;

	uprobe_arm64_sim_regs(&regs);
	before = regs;
	/* udiv x0, x1, x2 */
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0x9ac20820, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
}

/*
 * ldr, ldrsw (literal): the address is pc-relative, the literal is read
 * from user memory; the 32-bit forms zero- or sign-extend.  An unreadable
 * literal leaves the registers alone, for the fallback step.
 */
static void uprobe_arm64_sim_ldr(struct kunit *test)
{
	struct pt_regs regs, before;
	unsigned long page, none;

	page = uprobe_arm64_sim_page(test, PROT_READ | PROT_WRITE);
	none = uprobe_arm64_sim_page(test, PROT_NONE);
	if (!page || !none)
		kunit_skip(test, "no user memory");
	KUNIT_ASSERT_EQ(test, put_user(0x0123456789abcdefULL,
				       (u64 __user *)(page + 0x100)), 0);
	KUNIT_ASSERT_EQ(test, put_user(0x80000001U,
				       (u32 __user *)(page + 0x108)), 0);
	KUNIT_ASSERT_EQ(test, put_user(0x89abcdefU,
				       (u32 __user *)(page + 0x10c)), 0);

	uprobe_arm64_sim_regs(&regs);
	regs.pc = page + 0x110;
	/* ldr x2, .-16 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x58ffff82, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, regs.pc, page + 0x114);

	uprobe_arm64_sim_regs(&regs);
	regs.pc = page + 0x100;
	/* ldr w1, .+8: zero-extended */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x18000041, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], 0x80000001ULL);

	uprobe_arm64_sim_regs(&regs);
	regs.pc = page + 0xc;
	/* ldrsw x3, .+0x100: sign-extended */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x98000803, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[3], 0xffffffff89abcdefULL);

	uprobe_arm64_sim_regs(&regs);
	regs.pc = none + 0x110;
	/* ldr x2, .-16, from a page that cannot be read */
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0x58ffff82, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
}

/* NZCV as the PSTATE bits, from the nibble the Arm ARM writes. */
#define SIM_NZCV(nzcv)	((u64)(nzcv) << 28)

/**
 * struct uprobe_arm64_sim_flags_case - a flag setter and what it sets
 * @insn: the instruction, reading x0/w0 and x1/w1
 * @x0: value of x0 before
 * @x1: value of x1 before
 * @nzcv: NZCV after, as a nibble (N is 8)
 */
struct uprobe_arm64_sim_flags_case {
	u32 insn;
	u64 x0;
	u64 x1;
	u8 nzcv;
};

/* The corners of AddWithCarry(): equal, borrow, carry, both overflows. */
static const struct uprobe_arm64_sim_flags_case uprobe_arm64_sim_flags_cases[] = {
	{ 0xeb01001f /* cmp x0, x1 */, 5, 5, 0x6 },
	{ 0xeb01001f, 5, 6, 0x8 },
	{ 0xeb01001f, 0, 0, 0x6 },
	{ 0xeb01001f, BIT_ULL(63), 1, 0x3 },
	{ 0xeb01001f, 1, BIT_ULL(63), 0x9 },
	{ 0xeb01001f, ~0ULL, 1, 0xa },
	{ 0xab01001f /* cmn x0, x1 */, ~0ULL, 1, 0x6 },
	{ 0xab01001f, BIT_ULL(63) - 1, 1, 0x9 },
	{ 0xab01001f, BIT_ULL(63), BIT_ULL(63), 0x7 },
	{ 0xab01001f, 1, 2, 0x0 },
	{ 0x6b01001f /* cmp w0, w1: the upper halves ignored */,
	  0xffffffff00000005ULL, 5, 0x6 },
	{ 0x6b01001f, BIT(31), 1, 0x3 },
	{ 0x6b01001f, 0, 1, 0x8 },
	{ 0xf100001f /* cmp x0, #0: no borrow, C set */, 0, 0, 0x6 },
	{ 0xf100001f, ~0ULL, 0, 0xa },
	{ 0xea01001f /* tst x0, x1: C and V cleared */, BIT_ULL(63),
	  BIT_ULL(63), 0x8 },
	{ 0x6a01001f /* tst w0, w1 */, BIT_ULL(32), BIT_ULL(32), 0x4 },
};

/* cmp, cmn, tst: the flags, all others in PSTATE kept, no register. */
static void uprobe_arm64_sim_flags(struct kunit *test)
{
	const struct uprobe_arm64_sim_flags_case *c;
	struct pt_regs regs, before;

	for (c = uprobe_arm64_sim_flags_cases;
	     c < uprobe_arm64_sim_flags_cases +
		 ARRAY_SIZE(uprobe_arm64_sim_flags_cases); c++) {
		uprobe_arm64_sim_regs(&regs);
		/* the flags before: their opposites */
		regs.pstate |= SIM_NZCV(~c->nzcv & 0xf) | PSR_BTYPE_C;
		regs.regs[0] = c->x0;
		regs.regs[1] = c->x1;
		before = regs;
		KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, c->insn,
							     &regs));
		KUNIT_EXPECT_EQ_MSG(test, regs.pstate,
				    PSR_MODE_EL0t | SIM_NZCV(c->nzcv),
				    "%#x %#llx %#llx", c->insn, c->x0, c->x1);
		before.pc += 4;
		before.pstate = regs.pstate;
		KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
	}
}

/*
 * add, sub (immediate and shifted register): the results, in 32 bits
 * zero-extended; sp as the immediate forms' operands, the zero register
 * as the register forms'; the flags only for the setters.
 */
static void uprobe_arm64_sim_add(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.pstate |= PSR_Z_BIT | PSR_C_BIT;
	/* mov x29, sp */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x910003fd, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[29], 0x7ffff000ULL);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | PSR_Z_BIT | PSR_C_BIT);
	/* sub sp, sp, #0x2, lsl #12 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd1400bff, &regs));
	KUNIT_EXPECT_EQ(test, regs.sp, 0x7fffd000ULL);
	/* add x0, x1, #1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x91000420, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x1002ULL);
	/* add w0, w1, #4095: 32 bits, zero-extended */
	regs.regs[1] = 0xfffffffffffff001ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x113ffc20, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x0ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | PSR_Z_BIT | PSR_C_BIT);
	/* adds w0, w1, #1: the same sum, with its flags */
	regs.regs[1] = 0xffffffff;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x31000420, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x0ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | SIM_NZCV(0x6));
	/* subs x2, x3, #1, lsl #12 */
	regs.regs[3] = 0x1000;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf1400462, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x0ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | SIM_NZCV(0x6));

	uprobe_arm64_sim_regs(&regs);
	regs.regs[2] = 0x8000000000000010ULL;
	/* add x0, x1, x2, lsl #4 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x8b021020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x1001ULL + 0x100);
	/* sub x0, x1, x2, asr #4 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xcb821020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x1001ULL - 0xf800000000000001ULL);
	/* add w0, w1, w2, lsr #1 */
	regs.regs[1] = 0x100000001ULL;
	regs.regs[2] = 0xffffffff00000004ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x0b420420, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x3ULL);
	/* neg w0, w1, asr #4: the zero register as the first operand */
	regs.regs[1] = 0x80000000;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x4b8113e0, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x08000000ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t);
}

/* and, orr, eor and their inversions, every shift; mov, mvn. */
static void uprobe_arm64_sim_logic(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	regs.pstate |= SIM_NZCV(0xf);
	/* mov x1, x0 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xaa0003e1, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], 0x1000ULL);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | SIM_NZCV(0xf));
	/* mov w19, w0: zero-extended */
	regs.regs[0] = ~0ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x2a0003f3, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[19], 0xffffffffULL);
	/* mvn x0, x1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xaa2103e0, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], ~0x1000ULL);
	/* orr x0, x1, x2, ror #8 */
	regs.regs[1] = 0x1;
	regs.regs[2] = 0xab;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xaac22020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xab00000000000001ULL);
	/* orr w0, w1, w2, ror #8: the rotation in 32 bits */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x2ac22020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xab000001ULL);
	/* eor x0, x1, x2, lsr #63 */
	regs.regs[2] = BIT_ULL(63);
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xca42fc20, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x0ULL);
	/* bic x0, x1, x2, ror #63: x2 rotated left by one, inverted */
	regs.regs[1] = 0xff;
	regs.regs[2] = 0x1;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x8ae2fc20, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xfdULL);
	/* eon w0, w1, w2 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x4a220020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xffffff01ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | SIM_NZCV(0xf));
	/* ands w0, w1, w2: N from bit 31, C and V cleared */
	regs.regs[1] = 0x80000001;
	regs.regs[2] = 0xffffffff80000000ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x6a020020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x80000000ULL);
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t | SIM_NZCV(0x8));
	/* bics xzr, x1, x2 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xea22003f, &regs));
	KUNIT_EXPECT_EQ(test, regs.pstate, PSR_MODE_EL0t);
}

/* movz, movn, movk: 64 and 32 bits, every position. */
static void uprobe_arm64_sim_movw(struct kunit *test)
{
	struct pt_regs regs;

	uprobe_arm64_sim_regs(&regs);
	/* mov x0, #1 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xd2800020, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x1ULL);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	/* mov w0, #0x12340000 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x52a24680, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x12340000ULL);
	/* mov x0, #-0x10000 (movn) */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x929fffe0, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xffffffffffff0000ULL);
	/* mov w0, #-1 (movn): zero-extended */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x12800000, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xffffffffULL);
	/* movk x0, #0xbeef, lsl #32 */
	regs.regs[0] = 0x1111222233334444ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf2d7dde0, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0x1111beef33334444ULL);
	/* movk w0, #0xbeef, lsl #16: the upper half cleared */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x72b7dde0, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[0], 0xbeef4444ULL);
	/* movk x1, #0x1234, lsl #48 */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf2e24681, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], 0x1234000000001001ULL);
}

/*
 * ldr, str (immediate): every size, the sign extensions, the offsets and
 * indexings, the zero register; an access that faults, or sp misaligned
 * as its base, leaves the registers (and memory) for the step.
 */
static void uprobe_arm64_sim_ldst(struct kunit *test)
{
	struct pt_regs regs, before;
	unsigned long page, none;
	u64 x;

	page = uprobe_arm64_sim_page(test, PROT_READ | PROT_WRITE);
	none = uprobe_arm64_sim_page(test, PROT_READ);
	if (!page || !none)
		kunit_skip(test, "no user memory");
	KUNIT_ASSERT_EQ(test, put_user(0x8182838485868788ULL,
				       (u64 __user *)(page + 0x100)), 0);
	KUNIT_ASSERT_EQ(test, put_user(0x0123456789abcdefULL,
				       (u64 __user *)(page + 0x108)), 0);

	uprobe_arm64_sim_regs(&regs);
	regs.regs[1] = page + 0x100;
	/* ldr x2, [x1, #8] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf9400422, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	/* ldr w2, [x1, #8] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb9400822, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x89abcdefULL);
	/* ldrh w2, [x1, #2] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x79400422, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x8586ULL);
	/* ldrsb x2, [x1], ldrsb w2, [x1] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x39800022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xffffffffffffff88ULL);
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x39c00022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xffffff88ULL);
	/* ldrsh x2, [x1], ldrsh w2, [x1] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x79800022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xffffffffffff8788ULL);
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x79c00022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xffff8788ULL);
	/* ldrsw x2, [x1] */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xb9800022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xffffffff85868788ULL);
	/* ldur x2, [x1, #-1]: unaligned */
	regs.regs[1] = page + 0x102;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf85ff022, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0xef81828384858687ULL);
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x102);
	/* ldr x2, [x1, #-8]!: pre-indexed */
	regs.regs[1] = page + 0x110;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf85f8c22, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x108);
	/* ldr x2, [x1], #255: post-indexed */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf84ff422, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x0123456789abcdefULL);
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x108 + 255);
	/* ldrb w2, [x1, #4095] */
	regs.regs[1] = page + 0x100 - 4095;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x397ffc22, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[2], 0x88ULL);

	/* str x2, [x1, #8]; strh w2, [x1, #-2]!; strb w2, [x1], #-256 */
	regs.regs[1] = page + 0x200;
	regs.regs[2] = 0x1122334455667788ULL;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf9000422, &regs));
	KUNIT_ASSERT_EQ(test, get_user(x, (u64 __user *)(page + 0x208)), 0);
	KUNIT_EXPECT_EQ(test, x, 0x1122334455667788ULL);
	regs.regs[1] = page + 0x20a;
	regs.regs[2] = 0xaabb;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x781fec22, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x208);
	regs.regs[2] = 0xcc;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x38100422, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x108);
	KUNIT_ASSERT_EQ(test, get_user(x, (u64 __user *)(page + 0x208)), 0);
	KUNIT_EXPECT_EQ(test, x, 0x11223344556600ccULL | 0xaa00);
	/* str xzr, [sp, #-16]! */
	KUNIT_ASSERT_EQ(test, put_user(~0ULL, (u64 __user *)(page + 0x300)), 0);
	regs.sp = page + 0x310;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf81f0fff, &regs));
	KUNIT_EXPECT_EQ(test, regs.sp, page + 0x300);
	KUNIT_ASSERT_EQ(test, get_user(x, (u64 __user *)(page + 0x300)), 0);
	KUNIT_EXPECT_EQ(test, x, 0ULL);
	/* ldr xzr, [x1]: loaded, discarded */
	regs.regs[1] = page;
	before = regs;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xf940003f, &regs));
	before.pc += 4;
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));

	/* a store to read-only memory, a load from nothing: the step */
	uprobe_arm64_sim_regs(&regs);
	regs.regs[1] = none + 0x200;
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0x781fec22, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
	regs.regs[1] = 0;
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0xf85f8c22, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
	/* ldr x0, [sp, #8], sp misaligned */
	regs.sp = page + 0x308;
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0xf94007e0, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
}

#undef SIM_NZCV

/*
 * stp: pre-index, signed offset and post-index, x and w registers and the
 * zero register, the base written back; a pair that cannot be stored, or
 * sp misaligned as its base, leaves the registers for the step.
 */
static void uprobe_arm64_sim_stp(struct kunit *test)
{
	struct pt_regs regs, before;
	unsigned long page, none;
	u64 x[2];
	u32 w[2];

	page = uprobe_arm64_sim_page(test, PROT_READ | PROT_WRITE);
	none = uprobe_arm64_sim_page(test, PROT_READ);
	if (!page || !none)
		kunit_skip(test, "no user memory");

	uprobe_arm64_sim_regs(&regs);
	regs.sp = page + 0x800;
	/* stp x29, x30, [sp, #-16]! */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xa9bf7bfd, &regs));
	KUNIT_EXPECT_EQ(test, regs.sp, page + 0x7f0);
	KUNIT_EXPECT_EQ(test, regs.pc, SIM_PC + 4);
	KUNIT_ASSERT_EQ(test, copy_from_user(x, (void __user *)(page + 0x7f0),
					     sizeof(x)), 0);
	KUNIT_EXPECT_EQ(test, x[0], 0x1000ULL + 29);
	KUNIT_EXPECT_EQ(test, x[1], 0x1000ULL + 30);
	/* stp x19, x20, [sp, #16]: no write-back */
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0xa90153f3, &regs));
	KUNIT_EXPECT_EQ(test, regs.sp, page + 0x7f0);
	KUNIT_ASSERT_EQ(test, copy_from_user(x, (void __user *)(page + 0x800),
					     sizeof(x)), 0);
	KUNIT_EXPECT_EQ(test, x[0], 0x1000ULL + 19);
	KUNIT_EXPECT_EQ(test, x[1], 0x1000ULL + 20);
	/* stp w0, wzr, [x1], #8 */
	regs.regs[1] = page + 0x100;
	KUNIT_ASSERT_TRUE(test, uprobe_arm64_sim_run(test, 0x28817c20, &regs));
	KUNIT_EXPECT_EQ(test, regs.regs[1], page + 0x108);
	KUNIT_ASSERT_EQ(test, copy_from_user(w, (void __user *)(page + 0x100),
					     sizeof(w)), 0);
	KUNIT_EXPECT_EQ(test, w[0], 0x1000U);
	KUNIT_EXPECT_EQ(test, w[1], 0U);

	/* read-only memory, then a misaligned sp: left to the step */
	uprobe_arm64_sim_regs(&regs);
	regs.sp = none + 0x800;
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0xa9bf7bfd, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
	regs.sp = page + 0x808;
	before = regs;
	KUNIT_EXPECT_FALSE(test, uprobe_arm64_sim_run(test, 0xa9bf7bfd, &regs));
	KUNIT_EXPECT_MEMEQ(test, &regs, &before, sizeof(regs));
}

#undef SIM_PC
#undef SIM_PAGE

static struct kunit_case uprobe_arm64_sim_test_cases[] = {
	KUNIT_CASE(uprobe_arm64_sim_bcond),
	KUNIT_CASE(uprobe_arm64_sim_b_bl),
	KUNIT_CASE(uprobe_arm64_sim_cbz),
	KUNIT_CASE(uprobe_arm64_sim_tbz),
	KUNIT_CASE(uprobe_arm64_sim_br),
	KUNIT_CASE(uprobe_arm64_sim_nop_btype),
	KUNIT_CASE(uprobe_arm64_sim_adr),
	KUNIT_CASE(uprobe_arm64_sim_step),
	KUNIT_CASE(uprobe_arm64_sim_ldr),
	KUNIT_CASE(uprobe_arm64_sim_flags),
	KUNIT_CASE(uprobe_arm64_sim_add),
	KUNIT_CASE(uprobe_arm64_sim_logic),
	KUNIT_CASE(uprobe_arm64_sim_movw),
	KUNIT_CASE(uprobe_arm64_sim_ldst),
	KUNIT_CASE(uprobe_arm64_sim_stp),
	{}
};

static struct kunit_suite uprobe_arm64_sim_suite = {
	.name = "uprobes_arm64_simulate",
	.test_cases = uprobe_arm64_sim_test_cases,
};

kunit_test_suite(uprobe_arm64_sim_suite);

#endif /* _ARM64_UPROBES_SIMULATE_KUNIT_H */
