// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events fetch arguments: every form and type, checked value by
 * value against the trace output of a target whose registers, stack and
 * memory are known (uev_target_asm.S, for x86-64, arm64 and s390x).
 * Cases that name registers by %{TOKEN} are the same on every
 * architecture; those that list an architecture's registers, and the
 * 32-bit (ia32) process's, are that architecture's.
 *
 * Expected lines may contain tokens replaced by addresses of the target:
 * {PROBE} {DATA} {DATA16} {STRING} {TCFOFF} {RETFUNC} {RETSITE} (hex) and
 * {DDATA} (decimal); arguments, registers named by their contents
 * (%{DATA}: the one holding the address of uev_data, see uev_lib.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../uprobes/upng.h"
#include "uev_lib.h"

/*
 * A load narrower than the value it starts at reads its low part on a
 * little-endian machine, its high part on a big-endian one (s390): the
 * first 4 bytes and the first byte of uev_data's 0x1122334455667788, the
 * first 4 of the text constant 0x0badc0ffee0ddf00, of the stack's 0x5555.
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FIRST_U32_DATA	"287454020"	/* 0x11223344 */
#define FIRST_X8_DATA	"0x11"
#define FIRST_X32_TCONST "0xbadc0ff"
#define FIRST_U32_5555	"0"
#else
#define FIRST_U32_DATA	"1432778632"	/* 0x55667788 */
#define FIRST_X8_DATA	"0x88"
#define FIRST_X32_TCONST "0xee0ddf00"
#define FIRST_U32_5555	"21845"
#endif

/* The target program and the addresses of its symbols. */
struct addrs {
	char path[256];
	struct upng_sym probe, data, string, tconst, retfunc, retsite;
};

static int get_addrs(const char *target, struct addrs *a)
{
	snprintf(a->path, sizeof(a->path), "%s/%s", upng_path("bin"), target);
	return upng_elf_sym(a->path, "uev_regs_probe", &a->probe) ?:
	       upng_elf_sym(a->path, "uev_data", &a->data) ?:
	       upng_elf_sym(a->path, "uev_string", &a->string) ?:
	       upng_elf_sym(a->path, "uev_text_const", &a->tconst) ?:
	       upng_elf_sym(a->path, "uev_ret_func", &a->retfunc) ?:
	       upng_elf_sym(a->path, "uev_ret_site", &a->retsite);
}

/* Expand the {TOKENS} and %{REGISTER} tokens of @in into @out. */
static void expand(const struct addrs *a, const char *in, char *out,
		   size_t size)
{
	static const char * const names[] = {
		"PROBE", "DATA", "DATA16", "STRING", "TCFOFF", "RETFUNC",
		"RETSITE", "DDATA",
	};
	/* @+OFFSET is relative to where the probed file offset is mapped. */
	unsigned long tcfoff = a->tconst.value -
			       (a->probe.value - a->probe.offset);
	unsigned long vals[] = {
		a->probe.value, a->data.value, a->data.value + 16,
		a->string.value, tcfoff, a->retfunc.value, a->retsite.value,
		a->data.value,
	};
	const char *reg;
	size_t len = 0, i, n;

	while (*in && len + 1 < size) {
		n = uev_reg_token(in, &reg);
		if (n) {
			len += snprintf(out + len, size - len, "%s", reg);
			in += n;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			n = strlen(names[i]);
			if (in[0] == '{' && !strncmp(in + 1, names[i], n) &&
			    in[n + 1] == '}')
				break;
		}
		if (i < ARRAY_SIZE(names)) {
			len += snprintf(out + len, size - len,
					!strcmp(names[i], "DDATA") ? "%lu" : "%lx",
					vals[i]);
			in += strlen(names[i]) + 2;
		} else {
			out[len++] = *in++;
		}
	}
	out[len < size ? len : size - 1] = '\0';
}

FIXTURE(fetch) {
	struct addrs a;
};

FIXTURE_VARIANT(fetch) {
	/* the target program, uev_target when NULL */
	const char *target;
	/*
	 * "p" on uev_regs_probe when NULL; "e" (an entry probe), "r" or
	 * "p%return" on uev_ret_func
	 */
	const char *kind;
	const char *args;
	const char *expect;
	/* another acceptable line, or NULL */
	const char *alt;
};

FIXTURE_SETUP(fetch)
{
	if (!uev_can_run(_metadata))
		return;
	ASSERT_EQ(0, get_addrs(variant->target ?: UEV_TARGET, &self->a));
	ASSERT_EQ(0, upng_tracefs_reset());
}

FIXTURE_TEARDOWN(fetch)
{
	upng_tracefs_reset();
}

#if defined(__x86_64__)
/* Registers, by name; the default type is x64. */
FIXTURE_VARIANT_ADD(fetch, regs_legacy) {
	.args = "a=%ax b=%bx c=%cx d=%dx si=%si di=%di bp=%bp",
	.expect =
		"(0x{PROBE}) a=0xfedcba9876543210 b=0x{DATA} c=0xffffffffffffff85 d=0x8000000000000001 si=0x{STRING} di=0x2a bp=0x{DATA16}",
};

FIXTURE_VARIANT_ADD(fetch, regs_r8_r15) {
	.args = "r8=%r8 r9=%r9 r10=%r10 r11=%r11 r12=%r12 r13=%r13 r14=%r14 r15=%r15",
	.expect =
		"(0x{PROBE}) r8=0x102030405060708 r9=0x10 r10=0x1010 r11=0xb0b0 r12=0xffffffffffffffff r13=0x7fffffff r14=0xe0e0e0e0 r15=0xf",
};

FIXTURE_VARIANT_ADD(fetch, reg_ip) {
	.args = "ip=%ip",
	.expect = "(0x{PROBE}) ip=0x{PROBE}",
};
#elif defined(__aarch64__)
/*
 * Registers, by name (ptrace.c's regoffset_table): x0..x30, lr (x30), sp,
 * pc, pstate; the default type is x64. x9..x30 hold N * 0x0101010101010101.
 */
FIXTURE_VARIANT_ADD(fetch, regs_x0_x7) {
	.args = "x0=%x0 x1=%x1 x2=%x2 x3=%x3 x4=%x4 x5=%x5 x6=%x6 x7=%x7",
	.expect =
		"(0x{PROBE}) x0=0x2a x1=0x{STRING} x2=0xffffffffffffff85 x3=0x8000000000000001 x4=0xfedcba9876543210 x5=0x{DATA} x6=0x{DATA16} x7=0x10",
};

FIXTURE_VARIANT_ADD(fetch, regs_x8_x15) {
	.args = "x8=%x8 x9=%x9 x10=%x10 x11=%x11 x12=%x12 x13=%x13 x14=%x14 x15=%x15",
	.expect =
		"(0x{PROBE}) x8=0x102030405060708 x9=0x909090909090909 x10=0xa0a0a0a0a0a0a0a x11=0xb0b0b0b0b0b0b0b x12=0xc0c0c0c0c0c0c0c x13=0xd0d0d0d0d0d0d0d x14=0xe0e0e0e0e0e0e0e x15=0xf0f0f0f0f0f0f0f",
};

FIXTURE_VARIANT_ADD(fetch, regs_x16_x23) {
	.args = "x16=%x16 x17=%x17 x18=%x18 x19=%x19 x20=%x20 x21=%x21 x22=%x22 x23=%x23",
	.expect =
		"(0x{PROBE}) x16=0x1010101010101010 x17=0x1111111111111111 x18=0x1212121212121212 x19=0x1313131313131313 x20=0x1414141414141414 x21=0x1515151515151515 x22=0x1616161616161616 x23=0x1717171717171717",
};

FIXTURE_VARIANT_ADD(fetch, regs_x24_x30) {
	.args = "x24=%x24 x25=%x25 x26=%x26 x27=%x27 x28=%x28 x29=%x29 x30=%x30",
	.expect =
		"(0x{PROBE}) x24=0x1818181818181818 x25=0x1919191919191919 x26=0x1a1a1a1a1a1a1a1a x27=0x1b1b1b1b1b1b1b1b x28=0x1c1c1c1c1c1c1c1c x29=0x1d1d1d1d1d1d1d1d x30=0x1e1e1e1e1e1e1e1e",
};

/* lr is another name of x30. */
FIXTURE_VARIANT_ADD(fetch, reg_lr) {
	.args = "lr=%lr x30=%x30:u8 w=%lr:x32",
	.expect = "(0x{PROBE}) lr=0x1e1e1e1e1e1e1e1e x30=30 w=0x1e1e1e1e",
};

FIXTURE_VARIANT_ADD(fetch, reg_pc) {
	.args = "pc=%pc",
	.expect = "(0x{PROBE}) pc=0x{PROBE}",
};

/* "cmp x2, #0" with x2 = -123 left N=1 Z=0 C=1 V=0 in pstate[31:28]; EL0t. */
FIXTURE_VARIANT_ADD(fetch, reg_pstate) {
	.args = "nzcv=%pstate:b4@28/32 n=%pstate:b1@31/32 z=%pstate:b1@30/32 el=%pstate:b4@0/32",
	.expect = "(0x{PROBE}) nzcv=10 n=1 z=0 el=0",
};

/* At a function's entry x30 (lr) holds its return address. */
FIXTURE_VARIANT_ADD(fetch, entry_lr) {
	.kind = "e",
	.args = "lr=%lr pc=%pc x30=%x30",
	.expect = "(0x{RETFUNC}) lr=0x{RETSITE} pc=0x{RETFUNC} x30=0x{RETSITE}",
};

/*
 * At its return, pc is the return address, x0 the return value, and lr
 * the address the function returned with (the return address, not the
 * trampoline's it was diverted to).
 */
FIXTURE_VARIANT_ADD(fetch, return_regs) {
	.kind = "r",
	.args = "x0=%x0:s32 pc=%pc lr=%lr",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) x0=-2 pc=0x{RETSITE} lr=0x{RETSITE}",
};
#elif defined(__riscv)
/*
 * Registers, by name (ptrace.c's regoffset_table): epc, ra, sp, gp, tp,
 * t0..t6, s0..s11, a0..a7 (the ABI names), status, badaddr, cause,
 * orig_a0; the default type is x64. The temporaries and saved registers
 * hold N * 0x0101010101010101 for xN.
 */
FIXTURE_VARIANT_ADD(fetch, regs_a0_a7) {
	.args = "a0=%a0 a1=%a1 a2=%a2 a3=%a3 a4=%a4 a5=%a5 a6=%a6 a7=%a7",
	.expect =
		"(0x{PROBE}) a0=0x2a a1=0x{STRING} a2=0xffffffffffffff85 a3=0x8000000000000001 a4=0xfedcba9876543210 a5=0x{DATA} a6=0x{DATA16} a7=0x10",
};

FIXTURE_VARIANT_ADD(fetch, regs_t0_t6) {
	.args = "t0=%t0 t1=%t1 t2=%t2 t3=%t3 t4=%t4 t5=%t5 t6=%t6",
	.expect =
		"(0x{PROBE}) t0=0x505050505050505 t1=0x606060606060606 t2=0x707070707070707 t3=0x1c1c1c1c1c1c1c1c t4=0x1d1d1d1d1d1d1d1d t5=0x1e1e1e1e1e1e1e1e t6=0x1f1f1f1f1f1f1f1f",
};

FIXTURE_VARIANT_ADD(fetch, regs_s0_s5) {
	.args = "s0=%s0 s1=%s1 s2=%s2 s3=%s3 s4=%s4 s5=%s5",
	.expect =
		"(0x{PROBE}) s0=0x808080808080808 s1=0x909090909090909 s2=0x1212121212121212 s3=0x1313131313131313 s4=0x1414141414141414 s5=0x1515151515151515",
};

FIXTURE_VARIANT_ADD(fetch, regs_s6_s11) {
	.args = "s6=%s6 s7=%s7 s8=%s8 s9=%s9 s10=%s10 s11=%s11",
	.expect =
		"(0x{PROBE}) s6=0x1616161616161616 s7=0x1717171717171717 s8=0x1818181818181818 s9=0x1919191919191919 s10=0x1a1a1a1a1a1a1a1a s11=0x1b1b1b1b1b1b1b1b",
};

FIXTURE_VARIANT_ADD(fetch, reg_epc) {
	.args = "pc=%epc",
	.expect = "(0x{PROBE}) pc=0x{PROBE}",
};

/* At a function's entry ra holds its return address. */
FIXTURE_VARIANT_ADD(fetch, entry_ra) {
	.kind = "e",
	.args = "ra=%ra pc=%epc",
	.expect = "(0x{RETFUNC}) ra=0x{RETSITE} pc=0x{RETFUNC}",
};

/*
 * At its return, epc is the return address, a0 the return value, and ra
 * the address the function returned with (the return address, not the
 * trampoline's it was diverted to).
 */
FIXTURE_VARIANT_ADD(fetch, return_regs) {
	.kind = "r",
	.args = "a0=%a0:s32 pc=%epc ra=%ra",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) a0=-2 pc=0x{RETSITE} ra=0x{RETSITE}",
};
#elif defined(__s390x__)
/*
 * Registers, by name (ptrace.c's gpr_names): r0..r15 only; the default
 * type is x64. r9..r13 hold N * 0x0101010101010101.
 */
FIXTURE_VARIANT_ADD(fetch, regs_r0_r7) {
	.args = "r0=%r0 r1=%r1 r2=%r2 r3=%r3 r4=%r4 r5=%r5 r6=%r6 r7=%r7",
	.expect =
		"(0x{PROBE}) r0=0x8000000000000001 r1=0x102030405060708 r2=0x2a r3=0x{STRING} r4=0xffffffffffffff85 r5=0xfedcba9876543210 r6=0x{DATA} r7=0x{DATA16}",
};

FIXTURE_VARIANT_ADD(fetch, regs_r8_r13) {
	.args = "r8=%r8 r9=%r9 r10=%r10 r11=%r11 r12=%r12 r13=%r13",
	.expect =
		"(0x{PROBE}) r8=0x10 r9=0x909090909090909 r10=0xa0a0a0a0a0a0a0a r11=0xb0b0b0b0b0b0b0b r12=0xc0c0c0c0c0c0c0c r13=0xd0d0d0d0d0d0d0d",
};

/* At a function's entry r14 holds its return address. */
FIXTURE_VARIANT_ADD(fetch, entry_r14) {
	.kind = "e",
	.args = "r14=%r14",
	.expect = "(0x{RETFUNC}) r14=0x{RETSITE}",
};

/*
 * At its return, r2 holds the return value, and r14 the address the
 * function returned with (the return address, not the trampoline's it was
 * diverted to).
 */
FIXTURE_VARIANT_ADD(fetch, return_regs) {
	.kind = "r",
	.args = "r2=%r2:s32 r14=%r14",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) r2=-2 r14=0x{RETSITE}",
};

/* Dereferences of the stack pointer: what the probed function pushed. */
FIXTURE_VARIANT_ADD(fetch, sp_deref) {
	.args = "a=+0(%r15) b=+8(%r15):u32 c=+12(%r15):x32 s=$stack1",
	.expect = "(0x{PROBE}) a=0x6666 b=0 c=0x5555 s=0x5555",
};
#endif

#if defined(__aarch64__) || defined(__riscv)
/* Dereferences of the stack pointer: what the probed function pushed. */
FIXTURE_VARIANT_ADD(fetch, sp_deref) {
	.args = "a=+0(%sp) b=+8(%sp):u32 c=+4(%sp):x32 s=$stack1",
	.expect = "(0x{PROBE}) a=0x6666 b=21845 c=0x0 s=0x5555",
};
#endif

/* Every integer type, on a negative value (-123 in %cx, %x2). */
FIXTURE_VARIANT_ADD(fetch, types_negative) {
	.args =
		"u8=%{NEG}:u8 u16=%{NEG}:u16 u32=%{NEG}:u32 u64=%{NEG}:u64 s8=%{NEG}:s8 s16=%{NEG}:s16 s32=%{NEG}:s32 s64=%{NEG}:s64 x8=%{NEG}:x8 x16=%{NEG}:x16 x32=%{NEG}:x32 x64=%{NEG}:x64",
	.expect =
		"(0x{PROBE}) u8=133 u16=65413 u32=4294967173 u64=18446744073709551493 s8=-123 s16=-123 s32=-123 s64=-123 x8=0x85 x16=0xff85 x32=0xffffff85 x64=0xffffffffffffff85",
};

/* Truncation of a wide value (%ax, %x4 = 0xfedcba9876543210). */
FIXTURE_VARIANT_ADD(fetch, types_truncate) {
	.args =
		"u8=%{WIDE}:u8 u16=%{WIDE}:u16 s32=%{WIDE}:s32 u64=%{WIDE}:u64 s64=%{WIDE}:s64 x16=%{WIDE}:x16",
	.expect =
		"(0x{PROBE}) u8=16 u16=12816 s32=1985229328 u64=18364758544493064720 s64=-81985529216486896 x16=0x3210",
};

FIXTURE_VARIANT_ADD(fetch, type_char) {
	.args = "c=%{ARG1}:char",
	.expect = "(0x{PROBE}) c='*'",
};

FIXTURE_VARIANT_ADD(fetch, stackn) {
	.args = "s0=$stack0 s1=$stack1 s0w=$stack0:u16",
	.expect = "(0x{PROBE}) s0=0x6666 s1=0x5555 s0w=26214",
};

FIXTURE_VARIANT_ADD(fetch, stack_deref) {
	.args = "t0=+0($stack) t1=+8($stack):u32",
	.expect = "(0x{PROBE}) t0=0x6666 t1=" FIRST_U32_5555,
};

FIXTURE_VARIANT_ADD(fetch, stack_is_sp) {
	.args = "st=$stack sp=%{SP}",
	.expect = "(0x{PROBE}) st=0x{SAME} sp=0x{SAME}",
};

FIXTURE_VARIANT_ADD(fetch, comm) {
	.args = "comm=$comm",
	.expect = "(0x{PROBE}) comm=\"" UEV_TARGET "\"",
};

FIXTURE_VARIANT_ADD(fetch, comm_upper) {
	.args = "c=$COMM:string",
	.expect = "(0x{PROBE}) c=\"" UEV_TARGET "\"",
};

FIXTURE_VARIANT_ADD(fetch, mem_addr) {
	.args = "q=@0x{DATA} d=@0x{DATA}:u32 w=@0x{DATA}:x8",
	.expect = "(0x{PROBE}) q=0x1122334455667788 d=" FIRST_U32_DATA " w=" FIRST_X8_DATA,
};

FIXTURE_VARIANT_ADD(fetch, mem_addr_decimal) {
	.args = "q=@{DDATA}:x64",
	.expect = "(0x{PROBE}) q=0x1122334455667788",
};

FIXTURE_VARIANT_ADD(fetch, file_offset) {
	.args = "k=@+0x{TCFOFF} k32=@+0x{TCFOFF}:x32",
	.expect = "(0x{PROBE}) k=0xbadc0ffee0ddf00 k32=" FIRST_X32_TCONST,
};

FIXTURE_VARIANT_ADD(fetch, deref) {
	.args =
		"q=+0(%{DATA}) d=+8(%{DATA}):x32 w=+12(%{DATA}):u16 b=+14(%{DATA}):s8 p=+0x28(%{DATA})",
	.expect = "(0x{PROBE}) q=0x1122334455667788 d=0xdeadbeef w=51966 b=-5 p=0x{STRING}",
};

FIXTURE_VARIANT_ADD(fetch, deref_negative) {
	.args = "q=-16(%{DATA16}) d=-8(%{DATA16}):x32 b=-2(%{DATA16}):s8",
	.expect = "(0x{PROBE}) q=0x1122334455667788 d=0xdeadbeef b=-5",
};

FIXTURE_VARIANT_ADD(fetch, deref_nested) {
	.args =
		"self=+48(+48(%{DATA})) d=+8(+48(+48(+48(%{DATA})))):x32 s=+0(+40(+48(%{DATA}))):string",
	.expect = "(0x{PROBE}) self=0x{DATA} d=0xdeadbeef s=\"hello, uprobe\"",
};

FIXTURE_VARIANT_ADD(fetch, string) {
	.args = "s=+0(%{STR}):string t=+16(%{DATA}):string u=+0(%{DATA16}):string",
	.expect = "(0x{PROBE}) s=\"hello, uprobe\" t=\"fetch-me\" u=\"fetch-me\"",
};

FIXTURE_VARIANT_ADD(fetch, ustring) {
	.args = "s=+0(%{STR}):ustring t=+u16(%{DATA}):string u=+u0(%{STR}):ustring",
	.expect = "(0x{PROBE}) s=\"hello, uprobe\" t=\"fetch-me\" u=\"hello, uprobe\"",
};

FIXTURE_VARIANT_ADD(fetch, string_at_addr) {
	.args = "s=@0x{STRING}:string",
	.expect = "(0x{PROBE}) s=\"hello, uprobe\"",
};

FIXTURE_VARIANT_ADD(fetch, immediate) {
	.args = "a=\\1234 b=\\-1:s32 c=\\0x10:u8 d=\\+7:s16",
	.expect = "(0x{PROBE}) a=0x4d2 b=-1 c=16 d=7",
};

/*
 * Immediate strings are documented for kprobes only; the 6.12 uprobe
 * tracer accepts them but reads the kernel copy with the user accessor and
 * prints (fault). Either is fine as long as the neighbours are right.
 */
FIXTURE_VARIANT_ADD(fetch, immediate_string) {
	.args = "e=\\\"imm-str\" di=%{ARG1}",
	.expect = "(0x{PROBE}) e=\"imm-str\" di=0x2a",
	.alt = "(0x{PROBE}) e=(fault) di=0x2a",
};

FIXTURE_VARIANT_ADD(fetch, unnamed) {
	.args = "%{ARG1} %{WIDE}:u8 +0(%{STR}):string",
	.expect = "(0x{PROBE}) arg1=0x2a arg2=16 arg3=\"hello, uprobe\"",
};

/* 0xb5 = 1011 0101 at +15 */
FIXTURE_VARIANT_ADD(fetch, bitfield) {
	.args =
		"hi=+15(%{DATA}):b4@4/8 lo=+15(%{DATA}):b3@0/8 top=+15(%{DATA}):b1@7/8 mid=+15(%{DATA}):b2@1/8 w=%{NEG}:b8@8/16 q=%{WIDE}:b16@48/64",
	.expect = "(0x{PROBE}) hi=11 lo=5 top=1 mid=2 w=255 q=65244",
};

FIXTURE_VARIANT_ADD(fetch, array) {
	.args =
		"u=+32(%{DATA}):u16[4] x=+32(%{DATA}):x16[3] c=+16(%{DATA}):char[5] one=+0(%{DATA}):x64[1]",
	.expect =
		"(0x{PROBE}) u={1,2,65534,4} x={0x1,0x2,0xfffe} c={'f','e','t','c','h'} one={0x1122334455667788}",
};

FIXTURE_VARIANT_ADD(fetch, array_of_strings) {
	.args = "s=+40(%{DATA}):string[1]",
	.expect = "(0x{PROBE}) s={\"hello, uprobe\"}",
};

/* %r9, %x7 = 0x10, which is never mapped. */
FIXTURE_VARIANT_ADD(fetch, fault_string) {
	.args = "s=+0(%{UNMAPPED}):string u=+0(%{UNMAPPED}):ustring v=@0x10:string di=%{ARG1}",
	.expect = "(0x{PROBE}) s=(fault) u=(fault) v=(fault) di=0x2a",
};

FIXTURE_VARIANT_ADD(fetch, fault_nested) {
	.args = "s=+0(+0(%{UNMAPPED})):string di=%{ARG1}",
	.expect = "(0x{PROBE}) s=(fault) di=0x2a",
};

FIXTURE_VARIANT_ADD(fetch, retval) {
	.kind = "r",
	.args = "rv=$retval s=$retval:s64 b=$retval:s8 x=$retval:x32",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) rv=0xfffffffffffffffe s=-2 b=-2 x=0xfffffffe",
};

#ifdef UEV_R_PC
FIXTURE_VARIANT_ADD(fetch, retval_suffix) {
	.kind = "p%return",
	.args = "rv=$retval:s32 ax=%{RET}:s16 ip=%{PC}",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) rv=-2 ax=-2 ip=0x{RETSITE}",
};
#else
/* No register names the instruction address (s390): the header shows it. */
FIXTURE_VARIANT_ADD(fetch, retval_suffix) {
	.kind = "p%return",
	.args = "rv=$retval:s32 ax=%{RET}:s16",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) rv=-2 ax=-2",
};
#endif

#if defined(__x86_64__)
/*
 * The same through a 32-bit process: registers are the 64-bit pt_regs
 * slots (upper halves zero), $stackN and dereferences load 64-bit words.
 */
FIXTURE_VARIANT_ADD(fetch, ia32_regs) {
	.target = UEV_TARGET32,
	.args = "a=%ax b=%bx:x32 c=%cx:s32 d=%dx:x32 si=%si:x32 di=%di:u32 bp=%bp:x32",
	.expect =
		"(0x{PROBE}) a=0x76543210 b=0x{DATA} c=-123 d=0x80000001 si=0x{STRING} di=42 bp=0x{DATA16}",
};

FIXTURE_VARIANT_ADD(fetch, ia32_ip_types) {
	.target = UEV_TARGET32,
	.args = "ip=%ip u8=%cx:u8 s16=%cx:s16 x32=%cx:x32 c=%di:char",
	.expect = "(0x{PROBE}) ip=0x{PROBE} u8=133 s16=-123 x32=0xffffff85 c='*'",
};

FIXTURE_VARIANT_ADD(fetch, ia32_stack) {
	.target = UEV_TARGET32,
	.args = "s0=$stack0:x32 t1=+4($stack):x32 w=$stack0",
	.expect = "(0x{PROBE}) s0=0x6666 t1=0x5555 w=0x555500006666",
};

FIXTURE_VARIANT_ADD(fetch, ia32_memory) {
	.target = UEV_TARGET32,
	.args = "q=@0x{DATA}:x64 d=+8(%bx):x32 s=+0(%si):string n=+0(+40(%bx)):ustring",
	.expect =
		"(0x{PROBE}) q=0x1122334455667788 d=0xdeadbeef s=\"hello, uprobe\" n=\"hello, uprobe\"",
};

FIXTURE_VARIANT_ADD(fetch, ia32_deref_nested) {
	.target = UEV_TARGET32,
	.args = "d=+8(+48(+48(%bx))):x32 b=-2(%bp):s8 a=+32(%bx):u16[4] f=+15(%bx):b4@4/8",
	.expect = "(0x{PROBE}) d=0xdeadbeef b=-5 a={1,2,65534,4} f=11",
};

FIXTURE_VARIANT_ADD(fetch, ia32_file_offset_comm) {
	.target = UEV_TARGET32,
	.args = "k=@+0x{TCFOFF} c=$comm f=+0(%bx):x8 u=@0x10:ustring",
	.expect = "(0x{PROBE}) k=0xbadc0ffee0ddf00 c=\"uev_target32\" f=0x88 u=(fault)",
};

FIXTURE_VARIANT_ADD(fetch, ia32_retval) {
	.target = UEV_TARGET32,
	.kind = "r",
	.args = "rv=$retval:s32 x=$retval:x32",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) rv=-2 x=0xfffffffe",
};

FIXTURE_VARIANT_ADD(fetch, ia32_retval_suffix) {
	.target = UEV_TARGET32,
	.kind = "p%return",
	.args = "rv=$retval:s16 ip=%ip:x32",
	.expect = "(0x{RETSITE} <- 0x{RETFUNC}) rv=-2 ip=0x{RETSITE}",
};
#endif

/*
 * Define the probe (@kind "p" on uev_regs_probe, "e", "r" or "p%return"
 * on uev_ret_func), let the target run it once and return its trace line.
 */
static int run_probe(struct __test_metadata *_metadata, const struct addrs *a,
		     const char *kind, const char *fetchargs, char *line,
		     size_t size)
{
	static struct upng_trace t;
	char def[1024], args[768];
	const struct upng_sym *at;
	bool func = strcmp(kind, "p");
	bool ret = func && strcmp(kind, "e");
	const char *suffix = "";
	int err;

	if (!strcmp(kind, "p%return"))
		suffix = "%return";
	at = func ? &a->retfunc : &a->probe;
	expand(a, fetchargs, args, sizeof(args));
	snprintf(def, sizeof(def), "%c:uprobes/fa %s:0x%lx%s %s",
		 ret && !suffix[0] ? 'r' : 'p',
		 a->path, at->offset, suffix, args);
	err = upng_tracefs_write("uprobe_events", def);
	if (err) {
		char msg[256], cmd[1024];
		int pos = upng_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd));

		TH_LOG("'%s' refused: %s; error_log: %s at %d", def,
		       strerror(-err), pos >= 0 ? msg : "-", pos);
		return err;
	}
	err = uev_run("events/uprobes/fa/enable", a->path, func ? 'r' : 'a', 1);
	if (err)
		return err;
	if (upng_trace_get("trace", "fa", &t) != 1) {
		TH_LOG("%d trace lines for fa, expected 1", t.nr);
		return -ENOENT;
	}
	snprintf(line, size, "%s", t.line[0]);
	return 0;
}

/*
 * Compare a trace line with an expected one; "{SAME}" in @expect matches a
 * hex number that must be the same at each of its occurrences.
 */
static bool match(const char *expect, const char *line)
{
	unsigned long same = 0, v;
	bool have = false;
	char *end;

	while (*expect) {
		if (!strncmp(expect, "{SAME}", 6)) {
			v = strtoul(line, &end, 16);
			if (end == line || (have && v != same))
				return false;
			same = v;
			have = true;
			line = end;
			expect += 6;
			continue;
		}
		if (*expect++ != *line++)
			return false;
	}
	return !*line;
}

TEST_F(fetch, value)
{
	char line[UPNG_TRACE_LINE_LEN], expect[UPNG_TRACE_LINE_LEN];

	ASSERT_EQ(0, run_probe(_metadata, &self->a, variant->kind ?: "p",
			       variant->args, line, sizeof(line)));
	if (variant->alt) {
		expand(&self->a, variant->alt, expect, sizeof(expect));
		if (match(expect, line))
			return;
	}
	expand(&self->a, variant->expect, expect, sizeof(expect));
	ASSERT_TRUE(match(expect, line)) {
		TH_LOG("expected: %s", expect);
		TH_LOG("got:      %s", line);
	}
}

TEST_HARNESS_MAIN
