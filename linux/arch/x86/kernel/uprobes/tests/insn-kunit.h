/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the x86 uprobes instruction analysis.
 *
 * Included at the end of analyze.c.  Each case is a byte sequence as it
 * would be read from a file, the mode it is decoded in, and what
 * arch_uprobe_analyze() must make of it: the error and reason for a
 * refusal, otherwise the length, the emulation, the fix-ups and, where
 * they matter, the branch displacement, jcc condition, register and the
 * rewritten copy of a rip-relative instruction.
 */
#ifndef _X86_UPROBES_INSN_KUNIT_H
#define _X86_UPROBES_INSN_KUNIT_H

#include <kunit/test.h>

/**
 * struct uprobe_x86_insn_case - one analysis test case
 * @name: description (shown as the parameter name)
 * @bytes: the probed bytes, zero padded
 * @is_64bit: decode as a 64-bit (true) or 32-bit program
 * @err: expected return value
 * @reason: expected reason of a refusal
 * @len: expected length
 * @emul: expected &enum uprobe_x86_emul
 * @fixups: expected UPROBE_X86_FIX_* flags
 * @disp: expected branch or emulated rip-relative displacement
 * @cond: expected jcc condition code, or destination of an emulated
 *	rip-relative load or lea
 * @reg: expected pt_regs offset (push, rip-relative scratch)
 * @ixol: expected copy for the out-of-line step, when @ixol_len > 0
 * @ixol_len: number of bytes of @ixol to compare
 */
struct uprobe_x86_insn_case {
	const char *name;
	u8 bytes[MAX_UINSN_BYTES];
	bool is_64bit;
	int err;
	const char *reason;
	u8 len;
	u8 emul;
	u8 fixups;
	s32 disp;
	u8 cond;
	u8 reg;
	u8 ixol[MAX_UINSN_BYTES];
	u8 ixol_len;
};

#define X64	.is_64bit = true
#define X32	.is_64bit = false
#define STEP(n, f)	.len = (n), .emul = UPROBE_X86_STEP, .fixups = (f)
#define EMUL(n, e)	.len = (n), .emul = UPROBE_X86_##e, \
			.fixups = UPROBE_X86_FIX_IP
/* ret: emulated, ip absolute when stepped (no fix-up) */
#define RET(n, d)	.len = (n), .emul = UPROBE_X86_RET, .fixups = 0, \
			.disp = (d)
#define REFUSED(why)	.err = -EOPNOTSUPP, .reason = (why)
#define REG(r)		.reg = offsetof(struct pt_regs, r)
/* rip-relative load or lea: emulated, the copy rewritten for a fallback */
#define RIPEMUL(n, e, r, d)	.len = (n), .emul = UPROBE_X86_##e, \
			.fixups = UPROBE_X86_FIX_IP | UPROBE_X86_FIX_RIPREL, \
			.cond = offsetof(struct pt_regs, r), .disp = (d)

/* pushf: emulated, the image fixed up when stepped */
#define PUSHF		.len = 1, .emul = UPROBE_X86_PUSHF, \
			.fixups = UPROBE_X86_FIX_IP | UPROBE_X86_FIX_PUSHF
/* rip-relative cmp/test: emulated, the form in ->cond */
#define RIPCMP(n, f, d)	.len = (n), .emul = UPROBE_X86_CMP, \
			.fixups = UPROBE_X86_FIX_IP | UPROBE_X86_FIX_RIPREL, \
			.cond = (f), .disp = (d)

#define FIX_IP		UPROBE_X86_FIX_IP
#define FIX_CALL	UPROBE_X86_FIX_CALL
#define FIX_TARGET	UPROBE_X86_FIX_TARGET
#define FIX_RIPREL	UPROBE_X86_FIX_RIPREL
#define FIX_FIP		UPROBE_X86_FIX_FIP

/* x87 on disp32(%rip): run by the kernel, a stepped copy fixes FIP */
#define X87EMUL(f, d)	.len = 6, .emul = UPROBE_X86_X87, \
			.fixups = FIX_IP | FIX_RIPREL | FIX_FIP, \
			.cond = (f), .disp = (d), REG(si)

static const struct uprobe_x86_insn_case uprobe_x86_insn_cases[] = {
	/* nops: emulated */
	{ "nop", { 0x90 }, X64, EMUL(1, NOP) },
	{ "xchg %ax,%ax", { 0x66, 0x90 }, X64, EMUL(2, NOP) },
	{ "pause", { 0xf3, 0x90 }, X64, EMUL(2, NOP) },
	{ "nopl (%rax)", { 0x0f, 0x1f, 0x00 }, X64, EMUL(3, NOP) },
	{ "nop5", { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, X64, EMUL(5, NOP) },
	{ "nopw %cs:0(%rax,%rax)",
	  { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	  X64, EMUL(10, NOP) },
	{ "nop5 32-bit", { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, X32, EMUL(5, NOP) },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, X64, EMUL(4, NOP) },
	{ "endbr32", { 0xf3, 0x0f, 0x1e, 0xfb }, X32, EMUL(4, NOP) },
	{ "xchg %r8d,%eax is no nop", { 0x41, 0x90 }, X64, STEP(2, FIX_IP) },
	{ "xchg %ecx,%eax", { 0x91 }, X32, STEP(1, FIX_IP) },

	/* push of a register: emulated */
	{ "push %rbp", { 0x55 }, X64, EMUL(1, PUSH), REG(bp) },
	{ "push %rsp", { 0x54 }, X64, EMUL(1, PUSH), REG(sp) },
	{ "push %rax", { 0x50 }, X64, EMUL(1, PUSH), REG(ax) },
	{ "push %rdi (REX.W)", { 0x48, 0x57 }, X64, EMUL(2, PUSH), REG(di) },
	{ "push %ebx", { 0x53 }, X32, EMUL(1, PUSH), REG(bx) },
	{ "pushw %ax is stepped", { 0x66, 0x50 }, X64, STEP(2, FIX_IP) },
	{ "pop %rbp is stepped", { 0x5d }, X64, STEP(1, FIX_IP) },

	/* relative branches: emulated */
	{ "jmp rel8", { 0xeb, 0x10 }, X64, EMUL(2, JMP), .disp = 0x10 },
	{ "jmp rel8 back", { 0xeb, 0xf0 }, X64, EMUL(2, JMP), .disp = -16 },
	{ "jmp rel32", { 0xe9, 0x00, 0x01, 0x00, 0x00 }, X64,
	  EMUL(5, JMP), .disp = 0x100 },
	{ "jmp rel32 32-bit", { 0xe9, 0xfb, 0xff, 0xff, 0xff }, X32,
	  EMUL(5, JMP), .disp = -5 },
	{ "bnd jmp rel32", { 0xf2, 0xe9, 0x10, 0x00, 0x00, 0x00 }, X64,
	  EMUL(6, JMP), .disp = 0x10 },
	{ "je rel8", { 0x74, 0x05 }, X64, EMUL(2, JCC), .disp = 5, .cond = 4 },
	{ "jo rel8", { 0x70, 0x7f }, X64, EMUL(2, JCC), .disp = 127 },
	{ "jg rel32", { 0x0f, 0x8f, 0x78, 0x56, 0x34, 0x12 }, X64,
	  EMUL(6, JCC), .disp = 0x12345678, .cond = 0xf },
	{ "jb rel32 32-bit", { 0x0f, 0x82, 0x00, 0xff, 0xff, 0xff }, X32,
	  EMUL(6, JCC), .disp = -256, .cond = 2 },
	{ "ds je (hint)", { 0x3e, 0x74, 0x05 }, X64,
	  EMUL(3, JCC), .disp = 5, .cond = 4 },
	{ "call rel32", { 0xe8, 0x10, 0x00, 0x00, 0x00 }, X64,
	  .len = 5, .emul = UPROBE_X86_CALL, .fixups = FIX_CALL | FIX_TARGET,
	  .disp = 0x10,
	  .ixol = { 0xe8, 0x00, 0x00, 0x00, 0x00, 0xcc }, .ixol_len = 6 },
	{ "call rel32 32-bit", { 0xe8, 0xf0, 0xff, 0xff, 0xff }, X32,
	  .len = 5, .emul = UPROBE_X86_CALL, .fixups = FIX_CALL | FIX_TARGET,
	  .disp = -16 },
	{ "callw rel16", { 0x66, 0xe8, 0x10, 0x00 }, X32,
	  REFUSED("operand-size prefix on branch") },
	{ "jmpw rel16 64-bit", { 0x66, 0xe9, 0x10, 0x00 }, X64,
	  REFUSED("operand-size prefix on branch") },
	{ "loop rel8 is stepped", { 0xe2, 0xfe }, X64, STEP(2, FIX_IP) },
	{ "jrcxz rel8 is stepped", { 0xe3, 0x10 }, X64, STEP(2, FIX_IP) },

	/* indirect branches and returns: ip is absolute */
	{ "ret", { 0xc3 }, X64, RET(1, 0) },
	{ "ret $8", { 0xc2, 0x08, 0x00 }, X64, RET(3, 8) },
	{ "ret $0xfff8", { 0xc2, 0xf8, 0xff }, X64, RET(3, 0xfff8) },
	{ "bnd ret", { 0xf2, 0xc3 }, X64, RET(2, 0) },
	{ "ret 32-bit", { 0xc3 }, X32, RET(1, 0) },
	{ "retw", { 0x66, 0xc3 }, X64,
	  REFUSED("operand-size prefix on branch") },
	{ "jmp *%rax", { 0xff, 0xe0 }, X64, STEP(2, 0) },
	{ "notrack jmp *%rax", { 0x3e, 0xff, 0xe0 }, X64, STEP(3, 0) },
	{ "jmp *(%rax,%rcx,8)", { 0xff, 0x24, 0xc8 }, X64, STEP(3, 0) },
	{ "call *%rax", { 0xff, 0xd0 }, X64, STEP(2, FIX_CALL) },
	{ "call *8(%ebx)", { 0xff, 0x53, 0x08 }, X32, STEP(3, FIX_CALL) },

	/* rip-relative operands: rewritten to a scratch register */
	{ "mov 0x12345678(%rip),%rax",
	  { 0x48, 0x8b, 0x05, 0x78, 0x56, 0x34, 0x12 }, X64,
	  RIPEMUL(7, LOAD64, ax, 0x12345678), REG(si),
	  .ixol = { 0x48, 0x8b, 0x86, 0x78, 0x56, 0x34, 0x12, 0xcc },
	  .ixol_len = 8 },
	{ "mov x(%rip),%rsi uses %rdi",
	  { 0x48, 0x8b, 0x35, 0x00, 0x10, 0x00, 0x00 }, X64,
	  RIPEMUL(7, LOAD64, si, 0x1000), REG(di),
	  .ixol = { 0x48, 0x8b, 0xb7, 0x00, 0x10, 0x00, 0x00 },
	  .ixol_len = 7 },
	{ "REX.B cleared", { 0x49, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  RIPEMUL(7, LOAD64, ax, 0x1000), REG(si),
	  .ixol = { 0x48, 0x8b, 0x86, 0x00, 0x10, 0x00, 0x00 },
	  .ixol_len = 7 },
	{ "fldl x(%rip)", { 0xdd, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  X87EMUL(050, 0x1000),
	  .ixol = { 0xdd, 0x86, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 6 },
	{ "fstpl x(%rip)", { 0xdd, 0x1d, 0xf0, 0xff, 0xff, 0xff }, X64,
	  X87EMUL(053, -16),
	  .ixol = { 0xdd, 0x9e, 0xf0, 0xff, 0xff, 0xff }, .ixol_len = 6 },
	{ "fnstcw x(%rip)", { 0xd9, 0x3d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  X87EMUL(017, 0x1000),
	  .ixol = { 0xd9, 0xbe, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 6 },
	{ "fildll x(%rip)", { 0xdf, 0x2d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  X87EMUL(075, 0x1000) },
	{ "fisttpl x(%rip) (SSE3): stepped",
	  { 0xdb, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_IP | FIX_RIPREL | FIX_FIP), REG(si) },
	{ "fldl (%rax): stepped", { 0xdd, 0x00 }, X64,
	  STEP(2, FIX_IP | FIX_FIP) },
	{ "fldl 0x1000 (32-bit, absolute): stepped",
	  { 0xdd, 0x05, 0x00, 0x10, 0x00, 0x00 }, X32,
	  STEP(6, FIX_IP | FIX_FIP) },
	{ "fld %st(1): stepped", { 0xd9, 0xc1 }, X64,
	  STEP(2, FIX_IP | FIX_FIP) },
	{ "mov x(%rip),%ecx", { 0x8b, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  RIPEMUL(6, LOAD32, cx, 0x1000), REG(si),
	  .ixol = { 0x8b, 0x8e, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 6 },
	{ "mov x(%rip),%cx (66) is stepped",
	  { 0x66, 0x8b, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(7, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x66, 0x8b, 0x8e }, .ixol_len = 3 },
	{ "mov %fs:x(%rip),%rax is stepped",
	  { 0x64, 0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(8, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x64, 0x48, 0x8b, 0x86 }, .ixol_len = 4 },
	{ "mov %rax,x(%rip)", { 0x48, 0x89, 0x05, 0x00, 0x10, 0x00, 0x00 },
	  X64, RIPEMUL(7, STORE64, ax, 0x1000), REG(si),
	  .ixol = { 0x48, 0x89, 0x86 }, .ixol_len = 3 },
	{ "mov %cx,x(%rip) (66) is stepped",
	  { 0x66, 0x89, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(7, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x66, 0x89, 0x8e }, .ixol_len = 3 },
	{ "mov %al,x(%rip) (byte) is stepped",
	  { 0x88, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x88, 0x86 }, .ixol_len = 2 },
	{ "cmpb $0,x(%rip)", { 0x80, 0x3d, 0x00, 0x10, 0x00, 0x00, 0x00 },
	  X64, RIPCMP(7, 0, 0x1000), REG(si) },
	{ "cmpl $-1,x(%rip)", { 0x83, 0x3d, 0x00, 0x10, 0x00, 0x00, 0xff },
	  X64, RIPCMP(7, 2, 0x1000), REG(si) },
	{ "cmpq $imm32,x(%rip)",
	  { 0x48, 0x81, 0x3d, 0x00, 0x10, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04 },
	  X64, RIPCMP(11, 3 | UPROBE_X86_CMP_IMM32, 0x1000), REG(si) },
	{ "cmp %rcx,x(%rip)", { 0x48, 0x39, 0x0d, 0x00, 0x10, 0x00, 0x00 },
	  X64, RIPCMP(7, 3 | UPROBE_X86_CMP_REG, 0x1000), REG(si) },
	{ "cmp x(%rip),%r9d", { 0x44, 0x3b, 0x0d, 0x00, 0x10, 0x00, 0x00 },
	  X64, RIPCMP(7, 2 | UPROBE_X86_CMP_REG | UPROBE_X86_CMP_REV,
		      0x1000), REG(si) },
	{ "testb $1,x(%rip)", { 0xf6, 0x05, 0x00, 0x10, 0x00, 0x00, 0x01 },
	  X64, RIPCMP(7, UPROBE_X86_CMP_TEST, 0x1000), REG(si) },
	{ "testl $imm32,x(%rip)",
	  { 0xf7, 0x05, 0x00, 0x10, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04 },
	  X64, RIPCMP(10, 2 | UPROBE_X86_CMP_TEST | UPROBE_X86_CMP_IMM32,
		      0x1000), REG(si) },
	{ "test %rdx,x(%rip)", { 0x48, 0x85, 0x15, 0x00, 0x10, 0x00, 0x00 },
	  X64, RIPCMP(7, 3 | UPROBE_X86_CMP_TEST | UPROBE_X86_CMP_REG,
		      0x1000), REG(si) },
	{ "orb $1,x(%rip) (80 /1) is stepped",
	  { 0x80, 0x0d, 0x00, 0x10, 0x00, 0x00, 0x01 }, X64,
	  STEP(7, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x80, 0x8e }, .ixol_len = 2 },
	{ "cmp %cl,x(%rip) (byte register) is stepped",
	  { 0x38, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x38, 0x8e }, .ixol_len = 2 },
	{ "cmpw $1,x(%rip) (66) is stepped",
	  { 0x66, 0x83, 0x3d, 0x00, 0x10, 0x00, 0x00, 0x01 }, X64,
	  STEP(8, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x66, 0x83, 0xbe }, .ixol_len = 3 },
	{ "lea x(%rip),%edi (32-bit) is stepped",
	  { 0x8d, 0x3d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x8d, 0xbe }, .ixol_len = 2 },
	{ "movl $1,x(%rip) keeps imm",
	  { 0xc7, 0x05, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 },
	  X64, STEP(10, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0xc7, 0x86, 0x10, 0x00, 0x00, 0x00,
		    0x01, 0x00, 0x00, 0x00, 0xcc },
	  .ixol_len = 11 },
	{ "lea x(%rip),%rdi", { 0x48, 0x8d, 0x3d, 0xf0, 0xff, 0xff, 0xff },
	  X64, RIPEMUL(7, LEA, di, -16), REG(si),
	  .ixol = { 0x48, 0x8d, 0xbe, 0xf0, 0xff, 0xff, 0xff },
	  .ixol_len = 7 },
	{ "cmpxchg8b x(%rip) avoids %rbx", /* not locked: lock is refused */
	  { 0x0f, 0xc7, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(7, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x0f, 0xc7, 0x8e }, .ixol_len = 3 },
	{ "call *x(%rip)", { 0xff, 0x15, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_CALL | FIX_RIPREL), REG(si),
	  .ixol = { 0xff, 0x96, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 6 },
	{ "jmp *x(%rip)", { 0xff, 0x25, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(6, FIX_RIPREL), REG(si),
	  .ixol = { 0xff, 0xa6, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 6 },
	{ "vmovdqa x(%rip),%xmm0 (VEX2)",
	  { 0xc5, 0xf9, 0x6f, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(8, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0xc5, 0xf9, 0x6f, 0x86, 0x00, 0x10, 0x00, 0x00 },
	  .ixol_len = 8 },
	{ "mulx x(%rip),%ebx,%ecx (VEX3.B set)",
	  { 0xc4, 0xc2, 0x63, 0xf6, 0x0d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(9, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0xc4, 0xe2, 0x63, 0xf6, 0x8e, 0x00, 0x10, 0x00, 0x00 },
	  .ixol_len = 9 },
	{ "vvvv=%esi, reg=%edi: %rbx",
	  { 0xc4, 0xe2, 0x4b, 0xf6, 0x3d, 0x00, 0x10, 0x00, 0x00 }, X64,
	  STEP(9, FIX_IP | FIX_RIPREL), REG(bx),
	  .ixol = { 0xc4, 0xe2, 0x4b, 0xf6, 0xbb }, .ixol_len = 5 },
	{ "vmovups x(%rip),%zmm0 (EVEX)",
	  { 0x62, 0x91, 0x7c, 0x48, 0x10, 0x05, 0x00, 0x10, 0x00, 0x00 },
	  X64, STEP(10, FIX_IP | FIX_RIPREL), REG(si),
	  .ixol = { 0x62, 0xf1, 0x7c, 0x48, 0x10, 0x86 }, .ixol_len = 6 },
	{ "absolute disp32 in 32-bit mode is no rip",
	  { 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 }, X32,
	  STEP(6, FIX_IP), .ixol = { 0x8b, 0x05 }, .ixol_len = 2 },
	{ "mov (%rax,%rbx),%rcx untouched", { 0x48, 0x8b, 0x0c, 0x18 }, X64,
	  STEP(4, FIX_IP), .ixol = { 0x48, 0x8b, 0x0c, 0x18, 0xcc },
	  .ixol_len = 5 },

#ifdef CONFIG_X86_64
	/* r8-r15 (REX.B, REX.R): in a 64-bit kernel's pt_regs only */
	{ "push %r15", { 0x41, 0x57 }, X64, EMUL(2, PUSH), REG(r15) },
	{ "push %r8", { 0x41, 0x50 }, X64, EMUL(2, PUSH), REG(r8) },
	{ "mov x(%rip),%r14 (REX.R) uses %rdi",
	  { 0x4c, 0x8b, 0x35, 0x00, 0x10, 0x00, 0x00 }, X64,
	  RIPEMUL(7, LOAD64, r14, 0x1000), REG(di),
	  .ixol = { 0x4c, 0x8b, 0xb7, 0x00, 0x10, 0x00, 0x00 },
	  .ixol_len = 7 },
	{ "mov x(%rip),%r8d (REX.R, no REX.W)",
	  { 0x44, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00 }, X64,
	  RIPEMUL(7, LOAD32, r8, 0x1000), REG(si),
	  .ixol = { 0x44, 0x8b, 0x86, 0x00, 0x10, 0x00, 0x00 }, .ixol_len = 7 },
	{ "mov %r9d,x(%rip)", { 0x44, 0x89, 0x0d, 0x00, 0x10, 0x00, 0x00 },
	  X64, RIPEMUL(7, STORE32, r9, 0x1000), REG(si),
	  .ixol = { 0x44, 0x89, 0x8e }, .ixol_len = 3 },
#endif

	/* flags and string instructions */
	{ "pushf", { 0x9c }, X64, PUSHF },
	{ "pushfw is stepped", { 0x66, 0x9c }, X64,
	  STEP(2, FIX_IP | UPROBE_X86_FIX_PUSHF) },
	{ "popf", { 0x9d }, X64, STEP(1, FIX_IP | UPROBE_X86_FIX_POPF) },
	{ "pushfl", { 0x9c }, X32, PUSHF },
	{ "rep movsb", { 0xf3, 0xa4 }, X64, STEP(2, FIX_IP | UPROBE_X86_FIX_REP) },
	{ "rep stosq", { 0xf3, 0x48, 0xab }, X64,
	  STEP(3, FIX_IP | UPROBE_X86_FIX_REP) },
	{ "repne scasb", { 0xf2, 0xae }, X32,
	  STEP(2, FIX_IP | UPROBE_X86_FIX_REP) },
	{ "movsb", { 0xa4 }, X64, STEP(1, FIX_IP) },

	/* ordinary instructions */
	{ "mov %rsp,%rbp", { 0x48, 0x89, 0xe5 }, X64, STEP(3, FIX_IP) },
	{ "sub $0x10,%rsp", { 0x48, 0x83, 0xec, 0x10 }, X64, STEP(4, FIX_IP) },
	{ "mov %fs:0x28,%rax (TLS)",
	  { 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00 }, X64,
	  STEP(9, FIX_IP) },
	{ "mov %gs:0x14,%eax (32-bit TLS)",
	  { 0x65, 0xa1, 0x14, 0x00, 0x00, 0x00 }, X32, STEP(6, FIX_IP) },
	{ "es movsb (32-bit override)", { 0x26, 0xa4 }, X32,
	  REFUSED("segment override") },
	{ "movabs $imm64,%rax",
	  { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, X64, STEP(10, FIX_IP) },
	{ "leave", { 0xc9 }, X64, STEP(1, FIX_IP) },
	{ "enter $16,$0", { 0xc8, 0x10, 0x00, 0x00 }, X64, STEP(4, FIX_IP) },
	{ "cpuid", { 0x0f, 0xa2 }, X64, STEP(2, FIX_IP) },
	{ "rdtsc", { 0x0f, 0x31 }, X64, STEP(2, FIX_IP) },
	{ "rdtscp", { 0x0f, 0x01, 0xf9 }, X64, STEP(3, FIX_IP) },
	{ "xgetbv", { 0x0f, 0x01, 0xd0 }, X64, STEP(3, FIX_IP) },
	{ "rdrand %eax", { 0x0f, 0xc7, 0xf0 }, X64, STEP(3, FIX_IP) },
	{ "pshufb %xmm1,%xmm0", { 0x66, 0x0f, 0x38, 0x00, 0xc1 }, X64,
	  STEP(5, FIX_IP) },
	{ "fldl 8(%esp)", { 0xdd, 0x44, 0x24, 0x08 }, X32,
	  STEP(4, FIX_IP | FIX_FIP) },
	{ "push %es (32-bit)", { 0x06 }, X32, STEP(1, FIX_IP) },
	{ "pop %rax via 8f /0", { 0x8f, 0xc0 }, X64, STEP(2, FIX_IP) },
	{ "inc %eax (32-bit 40)", { 0x40 }, X32, STEP(1, FIX_IP) },
	{ "mov %ds,%eax", { 0x8c, 0xd8 }, X64, STEP(2, FIX_IP) },
	{ "xchg %eax,(%rdi), implicitly locked", { 0x87, 0x07 }, X64,
	  STEP(2, FIX_IP) },

	/* refused */
	{ "int3", { 0xcc }, X64, REFUSED("int3 is already there") },
	{ "int3 32-bit", { 0xcc }, X32, REFUSED("int3 is already there") },
	{ "int $0x80", { 0xcd, 0x80 }, X32, REFUSED("int n") },
	{ "int $0x80 64-bit", { 0xcd, 0x80 }, X64, REFUSED("int n") },
	{ "int1", { 0xf1 }, X64, REFUSED("int1") },
	{ "into", { 0xce }, X32, REFUSED("into") },
	{ "iret", { 0xcf }, X64, REFUSED("iret") },
	{ "iretq", { 0x48, 0xcf }, X64, REFUSED("iret") },
	{ "syscall", { 0x0f, 0x05 }, X64, REFUSED("system call") },
	{ "sysenter", { 0x0f, 0x34 }, X32, REFUSED("system call") },
	{ "lock cmpxchg", { 0xf0, 0x48, 0x0f, 0xb1, 0x0e }, X64,
	  REFUSED("lock prefix") },
	{ "lock incl (%eax)", { 0xf0, 0xff, 0x00 }, X32,
	  REFUSED("lock prefix") },
	{ "lock add x(%rip)", { 0xf0, 0x83, 0x05, 0, 0x10, 0, 0, 1 }, X64,
	  REFUSED("lock prefix") },
	{ "ud2", { 0x0f, 0x0b }, X64, REFUSED("undefined instruction") },
	{ "ud1", { 0x0f, 0xb9, 0xc0 }, X64, REFUSED("undefined instruction") },
	{ "ff /7", { 0xff, 0xf8 }, X64, REFUSED("undefined instruction") },
	{ "fe /2", { 0xfe, 0xd0 }, X64, REFUSED("undefined instruction") },
	{ "c6 /1", { 0xc6, 0xc8, 0x00 }, X64, REFUSED("undefined instruction") },
	{ "hlt", { 0xf4 }, X64, REFUSED("privileged instruction") },
	{ "cli", { 0xfa }, X64, REFUSED("privileged instruction") },
	{ "sti", { 0xfb }, X32, REFUSED("privileged instruction") },
	{ "wrmsr", { 0x0f, 0x30 }, X64, REFUSED("privileged instruction") },
	{ "mov %cr0,%rax", { 0x0f, 0x20, 0xc0 }, X64,
	  REFUSED("privileged instruction") },
	{ "sldt %eax", { 0x0f, 0x00, 0xc0 }, X64,
	  REFUSED("privileged instruction") },
	{ "sgdt (%rax)", { 0x0f, 0x01, 0x00 }, X64,
	  REFUSED("privileged instruction") },
	{ "swapgs", { 0x0f, 0x01, 0xf8 }, X64,
	  REFUSED("privileged instruction") },
	{ "vmread", { 0x0f, 0x78, 0xc0 }, X64,
	  REFUSED("privileged instruction") },
	{ "in (%dx),%al", { 0xec }, X64, REFUSED("port I/O") },
	{ "out %al,$0x80", { 0xe6, 0x80 }, X32, REFUSED("port I/O") },
	{ "rep insb", { 0xf3, 0x6c }, X64, REFUSED("port I/O") },
	{ "mov %eax,%ss", { 0x8e, 0xd0 }, X64,
	  REFUSED("segment register load") },
	{ "pop %ss", { 0x17 }, X32, REFUSED("segment register load") },
	{ "mov %es:(%rax),%eax", { 0x26, 0x8b, 0x00 }, X64,
	  REFUSED("segment override") },
	{ "mov %ds:(%eax),%eax", { 0x3e, 0x8b, 0x00 }, X32,
	  REFUSED("segment override") },
	{ "add %ss:(%ebp),%eax", { 0x36, 0x03, 0x45, 0x00 }, X32,
	  REFUSED("segment override") },
	{ "mov %cs:0x10(%rip),%eax",
	  { 0x2e, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00 }, X64,
	  REFUSED("segment override") },

	{ "pop %fs", { 0x0f, 0xa1 }, X64, REFUSED("segment register load") },
	{ "lds (%eax),%eax", { 0xc5, 0x00 }, X32,
	  REFUSED("segment register load") },
	{ "lcall *(%rsp)", { 0xff, 0x1c, 0x24 }, X64,
	  REFUSED("far call/jmp/ret") },
	{ "ljmp *(%rax)", { 0xff, 0x28 }, X64, REFUSED("far call/jmp/ret") },
	{ "lret", { 0xcb }, X64, REFUSED("far call/jmp/ret") },
	{ "lcall $8,$0 32-bit", { 0x9a, 0, 0, 0, 0, 0x08, 0x00 }, X32,
	  REFUSED("far call/jmp/ret") },
	{ "xbegin", { 0xc7, 0xf8, 0x00, 0x00, 0x00, 0x00 }, X64,
	  REFUSED("transactional memory") },
	{ "xend", { 0x0f, 0x01, 0xd5 }, X64, REFUSED("transactional memory") },
	{ "push %es in 64-bit", { 0x06 }, X64,
	  REFUSED("invalid in 64-bit mode") },
	{ "pusha in 64-bit", { 0x60 }, X64, REFUSED("invalid in 64-bit mode") },
	{ "aam in 64-bit", { 0xd4, 0x0a }, X64,
	  REFUSED("invalid in 64-bit mode") },
	{ "salc", { 0xd6 }, X32, REFUSED("undefined instruction") },
	{ "prefixes only", { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
			     0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66 },
	  X64, .err = -EINVAL, .reason = "cannot decode" },
};

static void uprobe_x86_insn_case_desc(const struct uprobe_x86_insn_case *c,
				      char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (%s)", c->name,
		 c->is_64bit ? "64" : "32");
}

KUNIT_ARRAY_PARAM(uprobe_x86_insn, uprobe_x86_insn_cases,
		  uprobe_x86_insn_case_desc);

static void uprobe_x86_insn_test(struct kunit *test)
{
	const struct uprobe_x86_insn_case *c = test->param_value;
	struct arch_uprobe au = { };
	const char *reason = "untouched";
	int err;

	if (c->is_64bit && !IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "64-bit code on a 32-bit kernel");

	memcpy(au.insn, c->bytes, sizeof(au.insn));
	err = arch_uprobe_analyze(&au, c->is_64bit, &reason);
	KUNIT_ASSERT_EQ(test, err, c->err);
	/* ->insn is what the breakpoint replaced: never modified */
	KUNIT_EXPECT_MEMEQ(test, au.insn, c->bytes, sizeof(au.insn));
	if (err) {
		KUNIT_EXPECT_STREQ(test, reason, c->reason);
		return;
	}
	KUNIT_EXPECT_NULL(test, reason);
	KUNIT_EXPECT_EQ(test, au.len, c->len);
	/* where FIP cannot be put back, x87 is stepped (x87.c) */
	if (c->emul == UPROBE_X86_X87 && !uprobe_x86_x87_runs(c->cond)) {
		KUNIT_EXPECT_EQ(test, au.emul, UPROBE_X86_STEP);
		KUNIT_EXPECT_EQ(test, au.fixups, c->fixups);
		return;
	}
	KUNIT_EXPECT_EQ(test, au.emul, c->emul);
	KUNIT_EXPECT_EQ(test, au.fixups, c->fixups);
	KUNIT_EXPECT_EQ(test, au.disp, c->disp);
	KUNIT_EXPECT_EQ(test, au.cond, c->cond);
	if (c->emul == UPROBE_X86_PUSH || (c->fixups & FIX_RIPREL))
		KUNIT_EXPECT_EQ(test, au.reg, c->reg);
	if (c->ixol_len)
		KUNIT_EXPECT_MEMEQ(test, au.ixol, c->ixol, c->ixol_len);
	else if (c->emul != UPROBE_X86_CALL && !(c->fixups & FIX_RIPREL))
		KUNIT_EXPECT_MEMEQ(test, au.ixol, c->bytes, c->len);
}

/*
 * Bytes past the instruction in the copy are int3: never run garbage.
 * push %rbp (push %ebp on a 32-bit kernel, which decodes no 64-bit code).
 */
static void uprobe_x86_insn_ixol_tail(struct kunit *test)
{
	struct arch_uprobe au = { .insn = { 0x55, 0x48, 0x89, 0xe5 } };
	bool is_64bit = IS_ENABLED(CONFIG_X86_64);
	const char *reason;
	int i;

	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&au, is_64bit, &reason), 0);
	KUNIT_EXPECT_EQ(test, au.ixol[0], 0x55);
	for (i = 1; i < MAX_UINSN_BYTES; i++)
		KUNIT_EXPECT_EQ(test, au.ixol[i], UPROBE_SWBP_INSN);
}

/* Analysing twice (re-registration) gives the same result. */
static void uprobe_x86_insn_idempotent(struct kunit *test)
{
	static const u8 bytes[] = { 0x48, 0x8b, 0x05, 0x78, 0x56, 0x34, 0x12 };
	struct arch_uprobe a = { }, b;
	const char *reason;

	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "64-bit code on a 32-bit kernel");
	memcpy(a.insn, bytes, sizeof(bytes));
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&a, true, &reason), 0);
	b = a;
	KUNIT_ASSERT_EQ(test, arch_uprobe_analyze(&b, true, &reason), 0);
	KUNIT_EXPECT_MEMEQ(test, &a, &b, sizeof(a));
}

/*
 * Every 1-byte opcode either decodes to a verdict or is a prefix, in the
 * kernel's mode.
 */
static void uprobe_x86_insn_all_op1(struct kunit *test)
{
	bool is_64bit = IS_ENABLED(CONFIG_X86_64);
	struct arch_uprobe au;
	const char *reason;
	int op, err;

	for (op = 0; op < 0x100; op++) {
		memset(&au, 0, sizeof(au));
		au.insn[0] = op;
		err = arch_uprobe_analyze(&au, is_64bit, &reason);
		if (err)
			KUNIT_EXPECT_NOT_NULL_MSG(test, reason, "op %#x", op);
		else
			KUNIT_EXPECT_GT_MSG(test, au.len, 0, "op %#x", op);
		KUNIT_EXPECT_LE_MSG(test, au.len, MAX_INSN_SIZE, "op %#x", op);
	}
}

#undef X64
#undef X32
#undef STEP
#undef EMUL
#undef RET
#undef REFUSED
#undef REG
#undef FIX_IP
#undef FIX_CALL
#undef FIX_TARGET
#undef FIX_RIPREL

static struct kunit_case uprobe_x86_insn_test_cases[] = {
	KUNIT_CASE_PARAM(uprobe_x86_insn_test, uprobe_x86_insn_gen_params),
	KUNIT_CASE(uprobe_x86_insn_ixol_tail),
	KUNIT_CASE(uprobe_x86_insn_idempotent),
	KUNIT_CASE(uprobe_x86_insn_all_op1),
	{}
};

static struct kunit_suite uprobe_x86_insn_suite = {
	.name = "uprobes_x86_insn",
	.test_cases = uprobe_x86_insn_test_cases,
};

kunit_test_suite(uprobe_x86_insn_suite);

#endif /* _X86_UPROBES_INSN_KUNIT_H */
