/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the arm64 uprobes simulation.
 *
 * Included at the end of simulate.c.  Instructions are analysed from
 * their encodings (the GNU assembler's), then simulated on made-up user
 * registers; literal loads read from, and stp writes to, pages mapped in
 * an address space KUnit gives the test.
 */
#ifndef _ARM64_UPROBES_SIMULATE_KUNIT_H
#define _ARM64_UPROBES_SIMULATE_KUNIT_H

#include <kunit/test.h>
#include <linux/mman.h>

/* A probed address in the middle of a page, and the page of its adrp. */
#define SIM_PC		0x412348UL
#define SIM_PAGE	0x412000UL

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

	page = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	none = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_NONE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
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

/* add, sub (immediate): sp or a register, 64 or 32 bits; flags kept. */
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
}

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

	page = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	none = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
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
	KUNIT_CASE(uprobe_arm64_sim_add),
	KUNIT_CASE(uprobe_arm64_sim_stp),
	{}
};

static struct kunit_suite uprobe_arm64_sim_suite = {
	.name = "uprobes_arm64_simulate",
	.test_cases = uprobe_arm64_sim_test_cases,
};

kunit_test_suite(uprobe_arm64_sim_suite);

#endif /* _ARM64_UPROBES_SIMULATE_KUNIT_H */
