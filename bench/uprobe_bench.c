// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_bench: what uprobes cost, for make bench (scripts/bench.sh).
 *
 * Run it in the guest under "-icount shift=0": guest time then counts guest
 * instructions, so the figures are deterministic and comparable across
 * kernels. Each figure prints one line
 *
 *   bench <name> key=value ...
 *
 * and a figure that fails prints "error=<step>:<errno name>" instead of
 * its values; the others still run.
 *
 * 1. Hit cost per probed instruction class: each target t_<class>() has
 *    the named instruction at the label p_<class> (the classes are x86's
 *    or arm64's, as built). A uprobe event on it (tracefs uprobe_events)
 *    stays disabled for N calls through a function pointer, then is
 *    enabled for N more; the difference per call is the cost of a hit.
 *    uprobe_profile must count exactly N hits; a class the kernel will not
 *    probe says "refused=" (stock arm64 on a literal load).
 *    Measured with tracing_on = 0: the tracer's handler runs but writes no
 *    ring-buffer record; then again traced (1b., bench_traced()). "kind" is how our engine runs the probe, from
 *    /sys/kernel/debug/uprobes/probes ("-" on the stock kernel). A getpid()
 *    syscall is measured too, for scale.
 * 2. uretprobe: an entry and a return probe on one function, per call,
 *    and the slab allocations a call makes for the calling task once the
 *    probes are warm ("allocs", from perf counters of the kmem:kmalloc
 *    and kmem:kmem_cache_alloc tracepoints, counted in a run of their own).
 * 3. Lookup cost against the size of the registry: the hit cost of a probe
 *    on a nop while 1, 100, ... other probes are registered through perf
 *    on a file nobody maps, and what registering and removing them costs.
 * 4. Attach at scale: registering and removing 2,000 probes on a file that
 *    20 processes map, one perf event each or one BPF uprobe_multi link.
 * 5. Memory per registered probe (perf event included).
 * 6. BPF: an empty program on a uprobe_multi link at the return figure's
 *    function, at its entry, at entry and return (two links), and as one
 *    session link (BPF_TRACE_UPROBE_SESSION: entry and return, its slab
 *    allocations per call too); a program that moves ip past the nop of
 *    t_nop beside an empty one there. What the kernel does not support
 *    (sessions and register writes before 6.13 and 6.18) says
 *    "unsupported=".
 * 7. Many threads on one probe: 1, 2, 4 threads on as many CPUs hitting
 *    it at once, the cost per hit of all CPUs together.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define DEBUGFS "/sys/kernel/debug"
#define TRACEFS_MAGIC 0x74726163
#define DEBUGFS_MAGIC 0x64626720
#define UPROBE_PMU_TYPE "/sys/bus/event_source/devices/uprobe/type"
#define NOP_FILE "/tmp/bench-nops"
#define FUNC_FILE "/tmp/bench-funcs"
#define FUNC_SIZE 16
#define MAX_THREADS	4	/* the threads figure's most threads */
#define MAX_SIZES 8
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Newer than some build hosts' <linux/bpf.h> (6.6): enum bpf_attach_type. */
#define TRACE_UPROBE_MULTI 48
#define TRACE_UPROBE_SESSION 57
#define UPROBE_MULTI_RETURN 1

/* union bpf_attr as BPF_LINK_CREATE reads it for an uprobe_multi link */
struct uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__aligned_u64 path;
	__aligned_u64 offsets;
	__aligned_u64 ref_ctr_offsets;
	__aligned_u64 cookies;
	__u32 cnt;
	__u32 multi_flags;
	__u32 pid;
};

/*
 * The targets. TARGET(class, before, probed, after) defines t_<class>(),
 * which runs @before, then the probed instruction @probed at p_<class>,
 * then @after, which returns. Each architecture has its own set of
 * classes (CLASSES()), and says:
 *   RETPROBE_FN, RETPROBE_AT  the function of the return probe figure
 *                   and its first instruction, a prologue's
 *   UNSUPPORTED(t)  why this CPU cannot run target @t's class, or NULL
 *   nop_insn        a nop: NOP_FILE is made of them, a probe's offset is a
 *                   multiple of its size (an instruction's on arm64)
 *   swbp            the breakpoint instruction, as a probed process's
 *                   memory shows it (hide_breakpoints=N)
 *   func            FUNC_FILE's function (FUNC_SIZE bytes): a prologue,
 *                   an epilogue, a return, breakpoint padding
 */
#define TARGET(c, before, probed, after)				\
	".globl t_" #c ", p_" #c "\n"					\
	".p2align 4\n"							\
	"t_" #c ":\n" before						\
	"p_" #c ":\n" probed "\n"					\
	after "\n"

#if defined(__x86_64__)
/* The traced figures' register arguments: the seed's example. */
#define REG_ARGS "ip=%ip ax=%ax"
asm(".text\n"
	TARGET(nop, "", "nop", "ret")
	TARGET(endbr64, "", "endbr64", "ret")
	TARGET(push, "", "push %rbp", "mov %rsp, %rbp\n pop %rbp\n ret")
	TARGET(pop, "push %rdi\n", "pop %rax", "ret")
	TARGET(leave, "push %rbp\n mov %rsp, %rbp\n", "leave", "ret")
	TARGET(sub_rsp, "", "sub $8, %rsp", "add $8, %rsp\n ret")
	TARGET(add_rsp, "sub $8, %rsp\n", "add $8, %rsp", "ret")
	TARGET(mov_reg, "", "mov %rdi, %rax", "ret")
	TARGET(mov_imm, "", "mov $1, %eax", "ret")
	TARGET(mov_to_stack, "", "mov %rdi, -8(%rsp)", "ret")
	/* the caller's stack word above the return address */
	TARGET(mov_from_stack, "", "mov 8(%rsp), %rax", "ret")
	/* loads and stores through a pointer argument, here to bench_data */
	TARGET(mov_mem, "lea bench_data(%rip), %rdi\n", "mov (%rdi), %eax",
	       "ret")
	TARGET(store_mem, "lea bench_store(%rip), %rdi\n", "mov %esi, (%rdi)",
	       "ret")
	/* the stack protector's load of the canary (TLS, fs-relative) */
	TARGET(fs_load, "", "mov %fs:0x28, %rax", "ret")
	TARGET(riprel, "", "mov bench_data(%rip), %rax", "ret")
	TARGET(riprel_store, "", "mov %rdi, bench_store(%rip)", "ret")
	TARGET(lea, "", "lea 8(%rdi), %rax", "ret")
	TARGET(lea_rip, "", "lea bench_data(%rip), %rax", "ret")
	TARGET(xor, "", "xor %eax, %eax", "ret")
	TARGET(test, "", "test %rdi, %rdi", "ret")
	TARGET(cmp, "", "cmp $1, %rdi", "ret")
	TARGET(cmp_mem, "lea bench_data(%rip), %rdi\n", "cmpb $0, (%rdi)",
	       "ret")
	TARGET(cmp_rip, "", "cmpb $0, bench_data(%rip)", "ret")
	TARGET(add_rip, "", "addl $1, bench_store(%rip)", "ret")
	TARGET(cvt_rip, "", "cvtsi2sdl bench_data(%rip), %xmm0", "ret")
	TARGET(fld_rip, "", "flds bench_data(%rip)", "fstp %st(0)\n ret")
	/* x87 through a register: stepped, the stand-in of stepped forms */
	TARGET(fld_reg, "lea bench_data(%rip), %rdi\n", "flds (%rdi)",
	       "fstp %st(0)\n ret")
	TARGET(jcc_taken, "xor %eax, %eax\n", "jz 1f", "mov $1, %eax\n 1: ret")
	TARGET(jcc_not_taken, "xor %eax, %eax\n", "jnz 1f",
	       "mov $1, %eax\n 1: ret")
	/* jumps over an ud2, encoded by hand to fix the displacement size */
	TARGET(jmp_rel8, "", ".byte 0xeb, 1f - 2f\n 2:", "ud2\n 1: ret")
	TARGET(jmp_rel32, "", ".byte 0xe9\n .long 1f - 2f\n 2:", "ud2\n 1: ret")
	TARGET(call, "", "call 1f", "ret\n 1: ret")
	TARGET(ret, "", "ret", "")
	TARGET(pushf, "", "pushf", "popf\n ret")
	/* copies 16 bytes of bench_buf */
	TARGET(rep_movsb,
	       "lea bench_buf(%rip), %rdi\n lea bench_buf+64(%rip), %rsi\n"
	       " mov $16, %ecx\n", "rep movsb", "ret")
	TARGET(sse_riprel, "", "movdqu bench_data(%rip), %xmm0", "ret")
	TARGET(avx_riprel, "", "vmovdqu bench_data(%rip), %ymm0",
	       "vzeroupper\n ret")
	TARGET(nop5, "", ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00", "ret")
	".data\n .balign 32\n"
	"bench_data: .quad 42, 43, 44, 45\n"
	"bench_store: .quad 0\n"
	"bench_buf: .zero 128\n"
	".text\n");

#define CLASSES(X)							\
	X(nop) X(endbr64) X(push) X(pop) X(leave) X(sub_rsp)		\
	X(add_rsp) X(mov_reg) X(mov_imm) X(mov_to_stack)		\
	X(mov_from_stack) X(mov_mem) X(store_mem) X(fs_load) X(riprel)	\
	X(riprel_store) X(lea) X(lea_rip) X(xor) X(test) X(cmp)		\
	X(cmp_mem) X(cmp_rip) X(add_rip) X(cvt_rip) X(fld_rip) X(fld_reg) \
	X(jcc_taken) X(jcc_not_taken) X(jmp_rel8) X(jmp_rel32) X(call)	\
	X(ret) X(pushf) X(rep_movsb) X(sse_riprel) X(avx_riprel) X(nop5)

#define RETPROBE_FN t_push
#define RETPROBE_AT p_push
#define UNSUPPORTED(t)							\
	((t)->fn == t_avx_riprel && !__builtin_cpu_supports("avx") ?	\
	 "no-avx" : NULL)

static const unsigned char nop_insn[] = { 0x90 };
static const unsigned char swbp[] = { 0xcc };	/* int3 */
/* push %rbp; pop %rbp; ret; int3 padding */
static const unsigned char func[FUNC_SIZE] = {
	0x55, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

#elif defined(__aarch64__)
#define REG_ARGS "pc=%pc x0=%x0"

/*
 * arm64: the instructions our engine simulates (branches, pc-relative
 * forms, nop and bti, and what functions start with: the frame record's
 * and other stp, stack adjustment, single loads and stores, register
 * moves and constants, add, sub and cmp), and the ones it steps out of
 * line (return address signing, system registers, bitfield moves, FP).
 */
asm(".text\n"
	TARGET(nop, "", "nop", "ret")
	/* the landing pad of an indirectly called function: bti c */
	TARGET(bti_c, "", "hint #34", "ret")
	/* paciasp, checked by autiasp (nops where pointer auth is off) */
	TARGET(paciasp, "", "hint #25", "hint #29\n ret")
	/* the frame record of a prologue */
	TARGET(stp_fp, "", "stp x29, x30, [sp, #-16]!",
	       "ldp x29, x30, [sp], #16\n ret")
	TARGET(mov_fp, "stp x29, x30, [sp, #-16]!\n", "mov x29, sp",
	       "ldp x29, x30, [sp], #16\n ret")
	TARGET(sub_sp, "", "sub sp, sp, #32", "add sp, sp, #32\n ret")
	TARGET(add_sp, "sub sp, sp, #32\n", "add sp, sp, #32", "ret")
	/* callee-saved registers to the stack, a local to and from it */
	TARGET(stp_stack, "sub sp, sp, #32\n", "stp x19, x20, [sp, #16]",
	       "add sp, sp, #32\n ret")
	TARGET(str_stack, "sub sp, sp, #16\n", "str x0, [sp, #8]",
	       "add sp, sp, #16\n ret")
	TARGET(ldr_stack, "sub sp, sp, #16\n str x0, [sp, #8]\n",
	       "ldr x0, [sp, #8]", "add sp, sp, #16\n ret")
	/* loads and stores through a pointer, here to bench_data */
	TARGET(ldr_mem,
	       "adrp x1, bench_data\n add x1, x1, :lo12:bench_data\n",
	       "ldr x0, [x1]", "ret")
	TARGET(str_mem,
	       "adrp x1, bench_store\n add x1, x1, :lo12:bench_store\n",
	       "str x0, [x1]", "ret")
	/* the thread pointer, for TLS */
	TARGET(mrs_tls, "", "mrs x0, tpidr_el0", "ret")
	TARGET(add, "", "add x0, x0, #1", "ret")
	TARGET(mov_reg, "", "mov x1, x0", "ret")
	TARGET(mov_imm, "", "mov x0, #1", "ret")
	TARGET(cmp, "", "cmp x0, #1", "ret")
	/* stepped: what has no class of its own costs the same */
	TARGET(lsl, "", "lsl x0, x0, #1", "ret")
	TARGET(fmov, "", "fmov d0, x0", "ret")
	/* simulated: branches, over an udf where they skip one */
	TARGET(b, "", "b 1f", "udf #0\n 1: ret")
	TARGET(bl, "mov x9, x30\n", "bl 1f", "mov x30, x9\n ret\n 1: ret")
	TARGET(bcond_taken, "cmp x0, x0\n", "b.eq 1f", "mov x0, #1\n 1: ret")
	TARGET(bcond_not_taken, "cmp x0, x0\n", "b.ne 1f",
	       "mov x0, #1\n 1: ret")
	TARGET(cbz, "mov x1, xzr\n", "cbz x1, 1f", "mov x0, #1\n 1: ret")
	/* on bit 63 of the call's index, clear: taken */
	TARGET(tbz, "", "tbz x0, #63, 1f", "mov x0, #1\n 1: ret")
	TARGET(ret, "", "ret", "")
	TARGET(br, "adr x1, 1f\n", "br x1", "udf #0\n 1: ret")
	TARGET(blr, "mov x9, x30\n adr x1, 1f\n", "blr x1",
	       "mov x30, x9\n ret\n 1: ret")
	/* simulated: pc-relative addresses and loads */
	TARGET(adr, "", "adr x0, 1f", "ret\n .p2align 3\n 1: .quad 42")
	TARGET(adrp, "", "adrp x0, bench_data", "ret")
	TARGET(ldr_lit, "", "ldr x0, 1f", "ret\n .p2align 3\n 1: .quad 42")
	".data\n .balign 32\n"
	"bench_data: .quad 42, 43, 44, 45\n"
	"bench_store: .quad 0\n"
	".text\n");

#define CLASSES(X)							\
	X(nop) X(bti_c) X(paciasp) X(stp_fp) X(mov_fp) X(sub_sp)	\
	X(add_sp) X(stp_stack) X(str_stack) X(ldr_stack) X(ldr_mem)	\
	X(str_mem) X(mrs_tls) X(add) X(mov_reg) X(mov_imm) X(cmp)	\
	X(lsl) X(fmov) X(b) X(bl) X(bcond_taken) X(bcond_not_taken)	\
	X(cbz) X(tbz) X(ret) X(br) X(blr) X(adr) X(adrp) X(ldr_lit)

#define RETPROBE_FN t_stp_fp
#define RETPROBE_AT p_stp_fp
#define UNSUPPORTED(t) NULL

static const unsigned char nop_insn[] = { 0x1f, 0x20, 0x03, 0xd5 };
static const unsigned char swbp[] = { 0xa0, 0x00, 0x20, 0xd4 };	/* brk #5 */
/* stp x29, x30, [sp, #-16]!; ldp x29, x30, [sp], #16; ret; brk #0 */
static const unsigned char func[FUNC_SIZE] = {
	0xfd, 0x7b, 0xbf, 0xa9, 0xfd, 0x7b, 0xc1, 0xa8,
	0xc0, 0x03, 0x5f, 0xd6, 0x00, 0x00, 0x20, 0xd4,
};

#elif defined(__riscv)
#define REG_ARGS "pc=%epc a0=%a0"

/*
 * riscv: the instructions its stock code, which the engine serves through
 * legacy_arch.c, simulates (jal, jalr, the branches, auipc and their
 * compressed forms) and what it steps out of line (everything else: a
 * prologue's stack adjustment and stores, loads, moves, arithmetic, FP),
 * 4-byte (.option norvc) and compressed.
 */
#define RV_N4(insn) ".option push\n .option norvc\n " insn "\n .option pop"
asm(".text\n"
	TARGET(nop, "", RV_N4("nop"), "ret")
	TARGET(c_nop, "", "c.nop", "ret")
	/* a prologue: the stack, the return address to it */
	TARGET(addi_sp, "", RV_N4("addi sp, sp, -16"), "addi sp, sp, 16\n ret")
	TARGET(c_addi16sp, "", "c.addi16sp sp, -32", "addi sp, sp, 32\n ret")
	TARGET(sd_ra, "addi sp, sp, -16\n", RV_N4("sd ra, 8(sp)"),
	       "addi sp, sp, 16\n ret")
	TARGET(c_sdsp, "addi sp, sp, -16\n", "c.sdsp ra, 8(sp)",
	       "addi sp, sp, 16\n ret")
	TARGET(ld_mem, "lla a1, bench_data\n", RV_N4("ld a0, 0(a1)"), "ret")
	TARGET(sd_mem, "lla a1, bench_store\n", RV_N4("sd a0, 0(a1)"), "ret")
	TARGET(add, "", RV_N4("add a0, a0, a0"), "ret")
	TARGET(c_mv, "", "c.mv a1, a0", "ret")
	TARGET(c_li, "", "c.li a0, 1", "ret")
	TARGET(fmv, "", RV_N4("fmv.d.x fa0, a0"), "ret")
	/* simulated: jumps and branches, over an illegal 0 where they skip */
	TARGET(jal, "", RV_N4("jal x0, 1f"), ".word 0\n 1: ret")
	TARGET(c_j, "", "c.j 1f", ".word 0\n 1: ret")
	TARGET(call, "mv t1, ra\n", RV_N4("jal ra, 1f"),
	       "mv ra, t1\n ret\n 1: ret")
	TARGET(beq_taken, "", RV_N4("beq a0, a0, 1f"), "li a0, 1\n 1: ret")
	TARGET(bne_not_taken, "", RV_N4("bne a0, a0, 1f"),
	       "li a0, 1\n 1: ret")
	TARGET(c_beqz, "li a1, 0\n", "c.beqz a1, 1f", "li a0, 1\n 1: ret")
	TARGET(ret, "", RV_N4("ret"), "")
	TARGET(c_jr, "lla a1, 1f\n", "c.jr a1", ".word 0\n 1: ret")
	TARGET(auipc, "", RV_N4("auipc a0, 0"), "ret")
	".data\n .balign 32\n"
	"bench_data: .quad 42, 43, 44, 45\n"
	"bench_store: .quad 0\n"
	".text\n");

#define CLASSES(X)							\
	X(nop) X(c_nop) X(addi_sp) X(c_addi16sp) X(sd_ra) X(c_sdsp)	\
	X(ld_mem) X(sd_mem) X(add) X(c_mv) X(c_li) X(fmv) X(jal) X(c_j)	\
	X(call) X(beq_taken) X(bne_not_taken) X(c_beqz) X(ret) X(c_jr)	\
	X(auipc)

#define RETPROBE_FN t_addi_sp
#define RETPROBE_AT p_addi_sp
#define UNSUPPORTED(t) NULL

static const unsigned char nop_insn[] = { 0x13, 0x00, 0x00, 0x00 };
static const unsigned char swbp[] = { 0x02, 0x90 };	/* c.ebreak */
/* addi sp, sp, -16; addi sp, sp, 16; ret; ebreak */
static const unsigned char func[FUNC_SIZE] = {
	0x13, 0x01, 0x01, 0xff, 0x13, 0x01, 0x01, 0x01,
	0x67, 0x80, 0x00, 0x00, 0x73, 0x00, 0x10, 0x00,
};

#elif defined(__s390x__)
/* No register name for the instruction address: r2 and the stack pointer. */
#define REG_ARGS "r2=%r2 r15=%r15"

/*
 * s390: its stock uprobes code, which the engine serves, emulates the
 * relative-long loads, stores and compares (larl, lgrl, ...) and steps
 * everything else out of line: a prologue's stmg, register moves and
 * arithmetic, loads and stores, branches, the return.
 */
asm(".text\n"
	TARGET(nop, "", "nopr %r7", "br %r14")
	/* the register save of a prologue, and a frame */
	TARGET(stmg, "", "stmg %r14, %r15, 112(%r15)",
	       "lmg %r14, %r15, 112(%r15)\n br %r14")
	TARGET(aghi_sp, "", "aghi %r15, -160", "aghi %r15, 160\n br %r14")
	TARGET(lgr, "", "lgr %r1, %r2", "br %r14")
	TARGET(aghi, "", "aghi %r2, 1", "br %r14")
	TARGET(lghi, "", "lghi %r2, 1", "br %r14")
	TARGET(lg_mem, "larl %r1, bench_data\n", "lg %r2, 0(%r1)", "br %r14")
	TARGET(stg_mem, "larl %r1, bench_store\n", "stg %r2, 0(%r1)",
	       "br %r14")
	/* emulated: relative-long address and load */
	TARGET(larl, "", "larl %r2, bench_data", "br %r14")
	TARGET(lgrl, "", "lgrl %r2, bench_data", "br %r14")
	/* stepped branches, fixed up after the step */
	TARGET(j, "", "j 1f", ".short 0\n 1: br %r14")
	TARGET(brasl, "lgr %r0, %r14\n", "brasl %r14, 1f",
	       "lgr %r14, %r0\n br %r14\n 1: br %r14")
	TARGET(ret, "", "br %r14", "")
	".data\n .balign 32\n"
	"bench_data: .quad 42, 43, 44, 45\n"
	"bench_store: .quad 0\n"
	".text\n");

#define CLASSES(X)							\
	X(nop) X(stmg) X(aghi_sp) X(lgr) X(aghi) X(lghi) X(lg_mem)	\
	X(stg_mem) X(larl) X(lgrl) X(j) X(brasl) X(ret)

#define RETPROBE_FN t_stmg
#define RETPROBE_AT p_stmg
#define UNSUPPORTED(t) NULL

static const unsigned char nop_insn[] = { 0x07, 0x07 };	/* nopr %r7 */
static const unsigned char swbp[] = { 0x00, 0x02 };
/* stmg %r14,%r15,112(%r15); lmg %r14,%r15,112(%r15); br %r14; 0x0001 */
static const unsigned char func[FUNC_SIZE] = {
	0xeb, 0xef, 0xf0, 0x70, 0x00, 0x24, 0xeb, 0xef,
	0xf0, 0x70, 0x00, 0x04, 0x07, 0xfe, 0x00, 0x01,
};

#else
#error "uprobe_bench: no probed instruction classes for this architecture"
#endif

#define DECLARE(c) long t_##c(long); extern const char p_##c[];
CLASSES(DECLARE)

static const struct target {
	const char *name;
	long (*fn)(long);
	const void *probe;
} targets[] = {
#define ENTRY(c) { #c, t_##c, p_##c },
	CLASSES(ENTRY)
};

/* Settings, from the command line. */
static long calls = 20000;			/* calls per hit figure */
static long registry[MAX_SIZES] = { 1, 100, 10000, 100000 };
static int nregistry = 4;
static long attach_probes = 2000;
static int attach_procs = 20;
static long memory_probes = 10000;

static char errbuf[128];

/* "step:ENAME" for an error line; @err is a negative errno. */
static const char *why(const char *step, int err)
{
	const char *name = strerrorname_np(-err);

	snprintf(errbuf, sizeof(errbuf), "%s:%s", step, name ? name : "?");
	return errbuf;
}

/*
 * Lets the work left by earlier figures (RCU callbacks freeing closed
 * events) finish before the next one: it would run on our CPU.
 */
static void settle(void)
{
	sleep(1);
}

static int write_file(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

/* Mounts @type at @path unless it is there already. */
static void ensure_mounted(const char *path, const char *type, long magic)
{
	struct statfs st;

	if (statfs(path, &st) || st.f_type != magic)
		mount(type, path, type, 0, NULL);
}

/* File offset of @addr in this executable, from /proc/self/maps. */
static unsigned long file_offset(const void *addr, char *path, size_t len)
{
	unsigned long start, end, off, a = (unsigned long)addr;
	char line[512], perm[8], p[256];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		p[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &start, &end,
			   perm, &off, p) < 4)
			continue;
		if (a >= start && a < end && p[0] == '/') {
			snprintf(path, len, "%s", p);
			fclose(f);
			return a - start + off;
		}
	}
	if (f)
		fclose(f);
	return (unsigned long)-1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ns per call of @fn, over @n calls */
static double run(long (*fn)(long), long n)
{
	volatile long sink = 0;
	double t0 = now_ns();

	for (long i = 0; i < n; i++)
		sink += fn(i);
	return (now_ns() - t0) / n;
}

/* Hits of bench/@event counted in uprobe_profile, or -1. */
static long profile_hits(const char *event)
{
	char line[512], ev[128];
	long hits = -1, h;
	FILE *f = fopen(TRACEFS "/uprobe_profile", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %127s %ld", ev, &h) == 2 && !strcmp(ev, event))
			hits = h;
	if (f)
		fclose(f);
	return hits;
}

/*
 * How our engine runs the probe at @path:@off (emulated, boosted, ...)
 * from its debugfs listing; "-" where there is none (stock kernel).
 */
static void probe_kind(const char *path, unsigned long off, char *kind,
		       size_t len)
{
	unsigned long ino, o;
	unsigned int maj, mnr;
	char line[256], how[32];
	struct stat st;
	FILE *f;

	snprintf(kind, len, "-");
	f = fopen(DEBUGFS "/uprobes/probes", "r");
	if (!f || stat(path, &st)) {
		if (f)
			fclose(f);
		return;
	}
	snprintf(kind, len, "unlisted");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lu 0x%lx %31s %u:%u", &ino, &o, how, &maj,
			   &mnr) == 5 && ino == st.st_ino && o == off &&
		    maj == major(st.st_dev) && mnr == minor(st.st_dev))
			snprintf(kind, len, "%s", how);
	fclose(f);
}

struct event {
	char type;		/* 'p' entry, 'r' return probe */
	const char *name;	/* bench/<name> in tracefs */
	const char *args;	/* fetch arguments, or NULL */
};

struct hit {
	int refused;		/* the kernel would not enable the probe */
	double base;		/* ns per call, events disabled */
	double probed;		/* ns per call, events enabled */
	long hits[2];		/* per event, from uprobe_profile */
	char kind[32];		/* how our engine runs the probe */
	double allocs;		/* with count_allocs: allocations per call */
	long records;		/* in CPU 0's ring buffer after the hits */
	long overrun;		/* lost to its wrapping */
};

/* measure() counts allocations per call too, in a run of its own. */
static bool count_allocs;
static double allocs_per_call(long (*fn)(long), long n);

static int enable(const struct event *ev, int nev, const char *on)
{
	char path[256];
	int err;

	for (int i = 0; i < nev; i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/bench/%s/enable",
			 ev[i].name);
		err = write_file(path, on, 0);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Records in this CPU's ring buffer (the program runs on CPU 0), and
 * those lost to its wrapping, or -1.
 */
static void buffer_stats(long *entries, long *overrun)
{
	char line[128];
	FILE *f = fopen(TRACEFS "/per_cpu/cpu0/stats", "r");

	*entries = *overrun = -1;
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "entries: %ld", entries);
		sscanf(line, "overrun: %ld", overrun);
	}
	if (f)
		fclose(f);
}

/* Defines event @ev at offset @off of file @path; 0 or -errno. */
static int add_event(const struct event *ev, const char *path,
		     unsigned long off)
{
	char def[512];

	snprintf(def, sizeof(def), "%c:bench/%s %s:0x%lx %s", ev->type,
		 ev->name, path, off, ev->args ?: "");
	return write_file(TRACEFS "/uprobe_events", def, O_APPEND);
}

/*
 * The hit cost of the @nev events @ev (at most 2), all at @probe in @fn:
 * @fn called @n times with them disabled, then @n times enabled. Returns
 * NULL or what failed.
 */
static const char *measure(long (*fn)(long), const void *probe, long n,
			   const struct event *ev, int nev, struct hit *h)
{
	const char *fail = NULL;
	char path[256], def[512];
	unsigned long off;
	int added, err;

	h->refused = 0;
	off = file_offset(probe, path, sizeof(path));
	if (off == (unsigned long)-1)
		return why("maps", -ENOENT);
	for (added = 0; added < nev; added++) {
		err = add_event(&ev[added], path, off);
		if (err) {
			fail = why("uprobe_events", err);
			goto out;
		}
	}
	/*
	 * Once on and off, so that a failure to enable shows here. The
	 * instruction is analysed then: an engine that cannot probe it
	 * (stock arm64 on a literal load) says EINVAL or EOPNOTSUPP.
	 */
	err = enable(ev, nev, "1");
	if (!err)
		err = enable(ev, nev, "0");
	if (err) {
		h->refused = err == -EINVAL || err == -EOPNOTSUPP;
		fail = why("enable", err);
		goto out;
	}
	run(fn, n / 10);
	h->base = run(fn, n);
	err = enable(ev, nev, "1");
	if (err) {
		fail = why("enable", err);
		goto out;
	}
	h->probed = run(fn, n);
	/* Read now: deleting the event empties the ring buffer. */
	buffer_stats(&h->records, &h->overrun);
	/* Warm: after n hits. Apart: perf's counting costs too. */
	h->allocs = count_allocs ? allocs_per_call(fn, n / 10) : -1;
	probe_kind(path, off, h->kind, sizeof(h->kind));
	enable(ev, nev, "0");
	for (int i = 0; i < nev; i++)
		h->hits[i] = profile_hits(ev[i].name);
out:
	while (added--) {
		snprintf(def, sizeof(def), "-:bench/%s", ev[added].name);
		write_file(TRACEFS "/uprobe_events", def, O_APPEND);
	}
	return fail;
}

/* Disables and deletes @ev, left behind by a program that was killed. */
static void remove_event(const struct event *ev)
{
	char def[256];

	enable(ev, 1, "0");
	snprintf(def, sizeof(def), "-:bench/%s", ev->name);
	write_file(TRACEFS "/uprobe_events", def, O_APPEND);
}

/* getpid() as a target, called like the others */
static long t_getpid(long x)
{
	return syscall(SYS_getpid) + x;
}

/*
 * Figure @name: the hit cost of event @ev on target @t, in a child of its
 * own: an engine that kills the probed program (stock 6.12 on pushf: its
 * TF leaks into the flags image, popf then traps) costs that figure only.
 * @traced: with tracing_on = 1, the records counted in the ring buffer.
 * Returns 1 when it failed.
 */
static int class_figure(const char *name, const struct target *t,
			struct event *ev, bool traced)
{
	const char *fail;
	struct hit h;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("bench %s error=%s\n", name, why("fork", -errno));
		return 1;
	}
	if (!pid) {
		if (traced)
			write_file(TRACEFS "/trace", "", O_TRUNC);
		fail = measure(t->fn, t->probe, calls, ev, 1, &h);
		if (fail && h.refused) {
			printf("bench %s hit_ns=n/a refused=%s\n", name, fail);
		} else if (fail) {
			printf("bench %s error=%s\n", name, fail);
		} else {
			printf("bench %s base_ns=%.1f probed_ns=%.1f hit_ns=%.1f hits=%ld/%ld kind=%s",
			       name, h.base, h.probed, h.probed - h.base,
			       h.hits[0], calls, h.kind);
			if (traced)
				printf(" records=%ld/%ld overrun=%ld",
				       h.records, calls, h.overrun);
			printf("\n");
		}
		fflush(stdout);
		_exit(fail && !h.refused);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	if (WIFSIGNALED(status)) {
		printf("bench %s killed=%s\n", name,
		       sigabbrev_np(WTERMSIG(status)) ?: "signal");
		remove_event(ev);
		return 0;
	}
	return WEXITSTATUS(status) != 0;
}

/* 1. Hit cost per probed instruction class, and a getpid() for scale. */
static int bench_classes(void)
{
	double base, getpid_ns;
	int failed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(targets); i++) {
		const struct target *t = &targets[i];
		struct event ev = { 'p', t->name, NULL };
		const char *fail = UNSUPPORTED(t);

		if (fail) {
			printf("bench %s hit_ns=n/a why=%s\n", t->name, fail);
			continue;
		}
		failed |= class_figure(t->name, t, &ev, false);
	}
	base = run(t_nop, calls);
	getpid_ns = run(t_getpid, calls);
	printf("bench getpid base_ns=%.1f call_ns=%.1f syscall_ns=%.1f\n",
	       base, getpid_ns, getpid_ns - base);
	return failed;
}

/* What the traced figures' string argument reads. */
static const char bench_str[] = "uprobe_bench";

/*
 * 1b. The same hits traced: tracing_on = 1, a ring buffer large enough
 * for every hit's record (checked), with three sets of fetch arguments:
 * none, the seed's example (the instruction pointer and the first
 * argument register) and a string of the program's (bench_str, at its
 * file offset). Lines "bench tr_<set>_<class>".
 */
static int bench_traced(void)
{
	char path[256], str_arg[64], size_kb[32] = "1408";
	struct {
		const char *set;
		const char *args;
	} sets[] = {
		{ "none", NULL },
		{ "regs", REG_ARGS },
		{ "str", str_arg },
	};
	unsigned long off;
	int failed = 0, fd, err;
	ssize_t n;

	off = file_offset(bench_str, path, sizeof(path));
	snprintf(str_arg, sizeof(str_arg), "s=@+0x%lx:string", off);
	fd = open(TRACEFS "/buffer_size_kb", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, size_kb, sizeof(size_kb) - 1);
	if (n > 0)
		size_kb[n] = 0;
	if (fd >= 0)
		close(fd);
	/* About 64 bytes a record: room for all, and some. */
	snprintf(path, sizeof(path), "%ld", calls * 128 / 1024 + 1024);
	err = write_file(TRACEFS "/buffer_size_kb", path, 0);
	if (err) {
		printf("bench tr_none_nop error=%s\n", why("buffer_size_kb", err));
		return 1;
	}
	write_file(TRACEFS "/tracing_on", "1", 0);
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++) {
		const struct target *t = &targets[i];

		if (UNSUPPORTED(t))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(sets); k++) {
			struct event ev = { 'p', t->name, sets[k].args };
			char name[64];

			snprintf(name, sizeof(name), "tr_%s_%s", sets[k].set,
				 t->name);
			failed |= class_figure(name, t, &ev, true);
		}
	}
	write_file(TRACEFS "/tracing_on", "0", 0);
	write_file(TRACEFS "/trace", "", O_TRUNC);
	write_file(TRACEFS "/buffer_size_kb", size_kb, 0);
	return failed;
}

/*
 * A perf counter of tracepoint kmem:@name for the calling task, disabled;
 * the fd or -errno.
 */
static int kmem_counter(const char *name)
{
	struct perf_event_attr attr;
	char path[256], id[32] = "";
	long fd;
	int f;

	snprintf(path, sizeof(path), TRACEFS "/events/kmem/%s/id", name);
	f = open(path, O_RDONLY);
	if (f < 0)
		return -errno;
	if (read(f, id, sizeof(id) - 1) <= 0)
		id[0] = '\0';
	close(f);
	if (!id[0])
		return -EIO;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(id, NULL, 10);
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : (int)fd;
}

/*
 * Slab allocations (kmalloc, kmem_cache_alloc) the kernel makes for the
 * calling task per call of @fn, over @n calls; -1 when not counted.
 */
static double allocs_per_call(long (*fn)(long), long n)
{
	static const char *const tp[] = { "kmalloc", "kmem_cache_alloc" };
	long long total = 0, v;
	int fd[ARRAY_SIZE(tp)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tp); i++) {
		fd[i] = kmem_counter(tp[i]);
		if (fd[i] < 0) {
			while (i--)
				close(fd[i]);
			return -1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(tp); i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	run(fn, n);
	for (i = 0; i < ARRAY_SIZE(tp); i++) {
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd[i], &v, sizeof(v)) != sizeof(v))
			total = -n;
		else if (total >= 0)
			total += v;
		close(fd[i]);
	}
	return total < 0 ? -1 : (double)total / n;
}

/*
 * The threads of a threads figure, each on a CPU of its own, started
 * together (or told to give up), each timing its own calls.
 */
struct thread_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;		/* 0 wait, 1 go, -1 give up */
};

struct thread_arg {
	int cpu;
	struct thread_gate *gate;
	double start, end;
};

static void *thread_calls(void *p)
{
	struct thread_arg *a = p;
	cpu_set_t cpus;
	int state;

	CPU_ZERO(&cpus);
	CPU_SET(a->cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	pthread_mutex_lock(&a->gate->lock);
	while (!(state = a->gate->state))
		pthread_cond_wait(&a->gate->cond, &a->gate->lock);
	pthread_mutex_unlock(&a->gate->lock);
	if (state < 0)
		return NULL;
	a->start = now_ns();
	run(t_nop, calls);
	a->end = now_ns();
	return NULL;
}

static void gate_open(struct thread_gate *gate, int state)
{
	pthread_mutex_lock(&gate->lock);
	gate->state = state;
	pthread_cond_broadcast(&gate->cond);
	pthread_mutex_unlock(&gate->lock);
}

/*
 * ns per call of t_nop in each of @n threads on CPUs 0..@n-1 calling it
 * at once, from the first thread's start to the last one's end: under
 * -icount the guest's clock counts the instructions of every vCPU, so
 * this is instructions per call, all CPUs together. -1 when a thread
 * could not be made.
 */
static double threads_run(int n)
{
	struct thread_gate gate = {
		PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0
	};
	struct thread_arg args[MAX_THREADS];
	pthread_t threads[MAX_THREADS];
	double first, last;
	int made;

	for (made = 0; made < n; made++) {
		args[made] = (struct thread_arg){ made, &gate, 0, 0 };
		if (pthread_create(&threads[made], NULL, thread_calls,
				   &args[made]))
			break;
	}
	gate_open(&gate, made < n ? -1 : 1);
	for (int i = 0; i < made; i++)
		pthread_join(threads[i], NULL);
	if (made < n)
		return -1;
	first = args[0].start;
	last = args[0].end;
	for (int i = 1; i < n; i++) {
		if (args[i].start < first)
			first = args[i].start;
		if (args[i].end > last)
			last = args[i].end;
	}
	return (last - first) / ((double)n * calls);
}

/*
 * 7. Many threads on one probe: 1, 2 and 4 threads (as many as there
 * are CPUs), each on a CPU of its own, hit the probe on t_nop's nop at
 * once; the cost per hit, all CPUs' instructions together. Under
 * -icount the vCPUs take turns (single-threaded TCG, which models no
 * cache): what shows is what costs instructions, a lock a thread spins
 * on or a retry loop, not a cache line written by all.
 */
static int bench_threads(void)
{
	static const struct event ev = { 'p', "threads", NULL };
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long off;
	int failed = 0, err;
	char path[256];

	off = file_offset(p_nop, path, sizeof(path));
	err = off == (unsigned long)-1 ? -ENOENT : add_event(&ev, path, off);
	if (err) {
		printf("bench threads_1 error=%s\n", why("uprobe_events", err));
		return 1;
	}
	for (int n = 1; n <= MAX_THREADS; n *= 2) {
		double base, probed;
		long hits0, hits;

		if (n > ncpus) {
			printf("bench threads_%d hit_ns=n/a why=%ld_cpus\n", n,
			       ncpus);
			continue;
		}
		base = threads_run(n);
		hits0 = profile_hits(ev.name);
		err = enable(&ev, 1, "1");
		probed = err ? -1 : threads_run(n);
		enable(&ev, 1, "0");
		hits = profile_hits(ev.name) - hits0;
		if (err || base < 0 || probed < 0) {
			printf("bench threads_%d error=%s\n", n,
			       why(err ? "enable" : "threads",
				   err ? err : -EAGAIN));
			failed = 1;
			continue;
		}
		printf("bench threads_%d base_ns=%.1f probed_ns=%.1f hit_ns=%.1f hits=%ld/%ld\n",
		       n, base, probed, probed - base, hits, n * calls);
	}
	remove_event(&ev);
	return failed;
}

/* 2. An entry and a return probe on a function's first instruction. */
static int bench_uretprobe(void)
{
	static const struct event ev[] = {
		{ 'p', "uret_entry", NULL }, { 'r', "uret_return", NULL },
	};
	const char *fail;
	struct hit h;

	count_allocs = true;
	fail = measure(RETPROBE_FN, RETPROBE_AT, calls, ev, 2, &h);
	count_allocs = false;
	if (fail) {
		printf("bench uretprobe error=%s\n", fail);
		return 1;
	}
	printf("bench uretprobe base_ns=%.1f probed_ns=%.1f hit_ns=%.1f hits=%ld/%ld ret_hits=%ld/%ld kind=%s",
	       h.base, h.probed, h.probed - h.base, h.hits[0], calls,
	       h.hits[1], calls, h.kind);
	if (h.allocs < 0)
		printf(" allocs=-\n");
	else
		printf(" allocs=%.3f\n", h.allocs);
	return 0;
}

/* Writes @size bytes to @path: the @len bytes of @pattern over and over. */
static int make_file(const char *path, long size, const void *pattern,
		     long len)
{
	char *buf = malloc(size);
	int fd, err = 0;

	if (!buf)
		return -ENOMEM;
	for (long i = 0; i < size; i += len)
		memcpy(buf + i, pattern, size - i < len ? size - i : len);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, buf, size) != size)
		err = -errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

static int uprobe_pmu_type(void)
{
	char buf[32] = "";
	int fd = open(UPROBE_PMU_TYPE, O_RDONLY);

	if (fd < 0)
		return -errno;
	if (read(fd, buf, sizeof(buf) - 1) <= 0) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return atoi(buf);
}

/*
 * A perf uprobe at @path:@off, disabled: registering it is all we want.
 * @pid -1 makes it system-wide on CPU 0 (breakpoints in every process
 * mapping the file); a per-task event on a sleeping process costs perf
 * less with many events (no rescheduling of the CPU context).
 */
static int perf_uprobe(int type, const char *path, unsigned long off,
		       pid_t pid)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.disabled = 1;
	attr.config1 = (unsigned long)path;	/* uprobe_path */
	attr.config2 = off;			/* probe_offset */
	fd = syscall(__NR_perf_event_open, &attr, pid, pid < 0 ? 0 : -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A child that only sleeps, target of per-task perf events. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Opens perf uprobes on NOP_FILE's nops *@count.. @want - 1 on process
 * @pid, into @fds; *@count is how many are open. Returns 0 or a negative
 * errno (then *@count says how far it got).
 */
static int open_nops(int type, pid_t pid, int *fds, long *count, long want)
{
	while (*count < want) {
		int fd = perf_uprobe(type, NOP_FILE, *count * sizeof(nop_insn),
				     pid);

		if (fd < 0)
			return fd;
		fds[(*count)++] = fd;
	}
	return 0;
}

static void close_all(int *fds, long n)
{
	for (long i = 0; i < n; i++)
		close(fds[i]);
}

/* 3. Hit cost of a probe on a nop against the number of other probes. */
static int bench_lookup(int type)
{
	static const struct event ev = { 'p', "lookup", NULL };
	long count = 0, want = registry[nregistry - 1];
	double t0, step, open_ns = 0, close_ns;
	int *fds, err = 0, failed = 0;
	pid_t pid;

	fds = calloc(want, sizeof(*fds));
	if (!fds) {
		printf("bench registry error=%s\n", why("calloc", -ENOMEM));
		return 1;
	}
	pid = sleeper();
	settle();
	for (int i = 0; i < nregistry && !err; i++) {
		long from = count;
		const char *fail;
		struct hit h;

		t0 = now_ns();
		err = open_nops(type, pid, fds, &count, registry[i]);
		step = now_ns() - t0;
		open_ns += step;
		printf("bench lookup_%ld others=%ld", registry[i], count);
		if (err)
			printf(" stopped=%s", why("perf_event_open", err));
		fail = measure(t_nop, p_nop, calls, &ev, 1, &h);
		if (fail) {
			printf(" error=%s\n", fail);
			failed = 1;
			continue;
		}
		printf(" base_ns=%.1f probed_ns=%.1f hit_ns=%.1f hits=%ld/%ld open_ns=%.0f\n",
		       h.base, h.probed, h.probed - h.base, h.hits[0], calls,
		       count > from ? step / (count - from) : 0);
	}
	t0 = now_ns();
	close_all(fds, count);
	close_ns = now_ns() - t0;
	printf("bench registry probes=%ld open_ns=%.0f close_ns=%.0f\n", count,
	       count ? open_ns / count : 0, count ? close_ns / count : 0);
	reap(pid);
	free(fds);
	return failed;
}

/* Bytes of slab objects in use (/proc/slabinfo), else Slab: of meminfo. */
static long slab_bytes(const char **source)
{
	long active, size, sum = 0, kb = -1;
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	if (f) {
		*source = "slabinfo";
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%*s %ld %*d %ld", &active, &size) == 2)
				sum += active * size;
		fclose(f);
		return sum;
	}
	*source = "meminfo";
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

static long mem_available(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

/* 5. Memory per registered probe, perf event included. */
static int bench_memory(int type)
{
	long count = 0, slab0, avail0, slab1, avail1;
	const char *source;
	int *fds, err;
	pid_t pid;

	fds = calloc(memory_probes, sizeof(*fds));
	if (!fds) {
		printf("bench memory error=%s\n", why("calloc", -ENOMEM));
		return 1;
	}
	pid = sleeper();
	settle();
	slab0 = slab_bytes(&source);
	avail0 = mem_available();
	err = open_nops(type, pid, fds, &count, memory_probes);
	slab1 = slab_bytes(&source);
	avail1 = mem_available();
	close_all(fds, count);
	reap(pid);
	free(fds);
	printf("bench memory probes=%ld", count);
	if (err)
		printf(" stopped=%s", why("perf_event_open", err));
	if (!count) {
		printf(" error=no-probe\n");
		return 1;
	}
	printf(" slab_bytes=%ld avail_bytes=%ld source=%s\n",
	       (slab1 - slab0) / count, (avail0 - avail1) / count, source);
	return 0;
}

static int sys_bpf(int cmd, void *attr, unsigned int size)
{
	return syscall(__NR_bpf, cmd, attr, size);
}

/* The @n instructions @insns as a BPF_PROG_TYPE_KPROBE program: fd or -errno. */
static int bpf_load(unsigned int attach_type, const struct bpf_insn *insns,
		    int n)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = attach_type;
	a.insns = (unsigned long)insns;
	a.insn_cnt = n;
	a.license = (unsigned long)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

/* A program that returns 0, for links of @attach_type: fd or -errno. */
static int bpf_empty_prog(unsigned int attach_type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_load(attach_type, insns, ARRAY_SIZE(insns));
}

static int bpf_prog(void)
{
	return bpf_empty_prog(TRACE_UPROBE_MULTI);
}

/* A link of @prog, of @attach_type with @flags, at @n @offsets of @path. */
static int bpf_link(int prog, unsigned int attach_type, unsigned int flags,
		    const char *path, const unsigned long *offsets, long n)
{
	struct uprobe_multi_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = prog;
	a.attach_type = attach_type;
	a.path = (unsigned long)path;
	a.offsets = (unsigned long)offsets;
	a.cnt = n;
	a.multi_flags = flags;
	fd = sys_bpf(BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

static int uprobe_multi_link(int prog, const char *path,
			     const unsigned long *offsets, long n)
{
	return bpf_link(prog, TRACE_UPROBE_MULTI, 0, path, offsets, n);
}

struct mapper {
	pid_t pid;
	unsigned long addr;	/* FUNC_FILE in its address space */
};

/*
 * @n children that map FUNC_FILE and wait until @hold is closed (its
 * write end stays with the caller). Returns how many started.
 */
static int start_mappers(struct mapper *m, int n, int hold[2])
{
	int ready[2], i;

	hold[1] = -1;
	if (pipe(ready))
		return 0;
	if (pipe(hold)) {
		close(ready[0]);
		close(ready[1]);
		hold[1] = -1;
		return 0;
	}
	for (i = 0; i < n; i++) {
		unsigned long addr = 0;

		m[i].pid = fork();
		if (m[i].pid == 0) {
			int fd = open(FUNC_FILE, O_RDONLY);
			char c;

			close(hold[1]);
			if (fd >= 0)
				addr = (unsigned long)mmap(NULL, attach_probes * FUNC_SIZE,
							   PROT_READ | PROT_EXEC,
							   MAP_PRIVATE, fd, 0);
			if (write(ready[1], &addr, sizeof(addr)) != sizeof(addr))
				_exit(1);
			while (read(hold[0], &c, 1) > 0)
				;
			_exit(0);
		}
		if (m[i].pid < 0 ||
		    read(ready[0], &addr, sizeof(addr)) != sizeof(addr) ||
		    addr == 0 || addr == (unsigned long)MAP_FAILED)
			break;
		m[i].addr = addr;
	}
	close(ready[0]);
	close(ready[1]);
	close(hold[0]);
	return i;
}

/*
 * Whether the first and the last function of FUNC_FILE start with
 * @insn, swbp (probed) or func (not), in every mapper.
 */
static int check_mappers(const struct mapper *m, int n,
			 const unsigned char *insn)
{
	unsigned long last = (attach_probes - 1) * FUNC_SIZE;
	unsigned char a[sizeof(swbp)], b[sizeof(swbp)];
	char path[64];
	int fd, ok;

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/mem", m[i].pid);
		fd = open(path, O_RDONLY);
		ok = fd >= 0 &&
		     pread(fd, a, sizeof(a), m[i].addr) == sizeof(a) &&
		     pread(fd, b, sizeof(b), m[i].addr + last) == sizeof(b) &&
		     !memcmp(a, insn, sizeof(a)) && !memcmp(b, insn, sizeof(b));
		if (fd >= 0)
			close(fd);
		if (!ok)
			return 0;
	}
	return 1;
}

static void print_op(const char *name, double ns)
{
	printf("bench %s probes=%ld procs=%d total_ns=%.0f per_probe_ns=%.0f\n",
	       name, attach_probes, attach_procs, ns, ns / attach_probes);
}

/* perf: one event per probe, registered and closed one by one */
static int attach_perf(int type, const struct mapper *m)
{
	int *fds, fd = 0, opened;
	long count = 0;
	double t0, t1;

	fds = calloc(attach_probes, sizeof(*fds));
	if (!fds) {
		printf("bench attach_perf_open error=%s\n",
		       why("calloc", -ENOMEM));
		return 1;
	}
	t0 = now_ns();
	while (count < attach_probes && fd >= 0) {
		fd = perf_uprobe(type, FUNC_FILE, count * FUNC_SIZE, -1);
		if (fd >= 0)
			fds[count++] = fd;
	}
	t1 = now_ns();
	opened = fd >= 0 && check_mappers(m, attach_procs, swbp);
	if (fd < 0)
		printf("bench attach_perf_open error=%s\n",
		       why("perf_event_open", fd));
	else if (!opened)
		printf("bench attach_perf_open error=not-installed\n");
	else
		print_op("attach_perf_open", t1 - t0);
	t0 = now_ns();
	close_all(fds, count);
	t1 = now_ns();
	free(fds);
	if (!opened)
		return 1;
	if (!check_mappers(m, attach_procs, func)) {
		printf("bench attach_perf_close error=not-removed\n");
		return 1;
	}
	print_op("attach_perf_close", t1 - t0);
	return 0;
}

/* BPF: one uprobe_multi link over all the probes */
static int attach_bpf(const struct mapper *m)
{
	unsigned long *offsets;
	int prog, link, failed = 0;
	double t0, t1;

	prog = bpf_prog();
	if (prog == -EINVAL || prog == -ENOSYS || prog == -EPERM) {
		printf("bench attach_bpf_link total_ns=n/a why=%s\n",
		       why("BPF_PROG_LOAD", prog));
		return 0;
	}
	if (prog < 0) {
		printf("bench attach_bpf_link error=%s\n",
		       why("BPF_PROG_LOAD", prog));
		return 1;
	}
	offsets = calloc(attach_probes, sizeof(*offsets));
	if (!offsets) {
		printf("bench attach_bpf_link error=%s\n",
		       why("calloc", -ENOMEM));
		close(prog);
		return 1;
	}
	for (long i = 0; i < attach_probes; i++)
		offsets[i] = i * FUNC_SIZE;
	t0 = now_ns();
	link = uprobe_multi_link(prog, FUNC_FILE, offsets, attach_probes);
	t1 = now_ns();
	if (link == -EINVAL || link == -ENOSYS || link == -EPERM ||
	    link == -EOPNOTSUPP) {
		printf("bench attach_bpf_link total_ns=n/a why=%s\n",
		       why("BPF_LINK_CREATE", link));
	} else if (link < 0) {
		printf("bench attach_bpf_link error=%s\n",
		       why("BPF_LINK_CREATE", link));
		failed = 1;
	} else if (!check_mappers(m, attach_procs, swbp)) {
		printf("bench attach_bpf_link error=not-installed\n");
		close(link);
		failed = 1;
	} else {
		print_op("attach_bpf_link", t1 - t0);
		t0 = now_ns();
		close(link);
		t1 = now_ns();
		if (check_mappers(m, attach_procs, func)) {
			print_op("attach_bpf_close", t1 - t0);
		} else {
			printf("bench attach_bpf_close error=not-removed\n");
			failed = 1;
		}
	}
	free(offsets);
	close(prog);
	return failed;
}

/* 4. Registering and removing many probes on a file many processes map. */
static int bench_attach(int type)
{
	struct mapper *m;
	int hold[2], started, failed = 0, err;

	m = calloc(attach_procs, sizeof(*m));
	err = m ? make_file(FUNC_FILE, attach_probes * FUNC_SIZE, func,
			    FUNC_SIZE) : -ENOMEM;
	if (err) {
		printf("bench attach_perf_open error=%s\n", why("file", err));
		free(m);
		return 1;
	}
	started = start_mappers(m, attach_procs, hold);
	if (started < attach_procs) {
		printf("bench attach_perf_open error=mappers-%d/%d\n", started,
		       attach_procs);
		failed = 1;
	} else {
		failed |= attach_perf(type, m);
		failed |= attach_bpf(m);
	}
	close(hold[1]);
	for (int i = 0; i < started; i++)
		waitpid(m[i].pid, NULL, 0);
	free(m);
	unlink(FUNC_FILE);
	return failed;
}

static void parse_sizes(char *s)
{
	char *end;

	for (nregistry = 0; nregistry < MAX_SIZES && *s; nregistry++) {
		registry[nregistry] = strtol(s, &end, 10);
		if (end == s)
			break;
		s = *end ? end + 1 : end;
	}
}

/* Room for @n descriptors besides the few we always have. */
static void raise_nofile(long n)
{
	struct rlimit r = { n + 256, n + 256 };

	setrlimit(RLIMIT_NOFILE, &r);
}

/* Where a program's context (struct pt_regs) keeps the instruction pointer. */
#if defined(__x86_64__)
#define REGS_IP offsetof(struct user_regs_struct, rip)
#elif defined(__aarch64__)
#define REGS_IP offsetof(struct user_regs_struct, pc)
#elif defined(__riscv)
#define REGS_IP 0	/* epc, first of struct pt_regs and user_regs_struct */
#elif defined(__s390x__)
#define REGS_IP 16	/* psw.addr, after args[0] and psw.mask (user_pt_regs) */
#endif

/* A program that sets ip to @ip, for uprobe_multi links: fd or -errno. */
static int bpf_move_ip_prog(unsigned long ip)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_2,
		  .imm = (__u32)ip },
		{ .imm = (__u32)((__u64)ip >> 32) },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_2, .off = REGS_IP },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_load(TRACE_UPROBE_MULTI, insns, ARRAY_SIZE(insns));
}

/* A link of program @prog: its attach type, flags, and the result. */
struct bpf_use {
	int prog;
	unsigned int type, flags;
	int link;
};

/*
 * Prints figure @name: the cost per call of @fn with the @n programs of
 * @use linked at @probe, from @calls calls without and with them, and
 * with @allocs the slab allocations per call. Closes the programs.
 * Returns 1 when it failed; a program or link the kernel refuses is
 * "unsupported".
 */
static int bpf_figure(const char *name, long (*fn)(long), const void *probe,
		      struct bpf_use *use, int n, bool allocs)
{
	const char *fail = NULL, *unsup = NULL;
	double base, probed = 0, a = -1;
	char path[256];
	unsigned long off;
	int i;

	off = file_offset(probe, path, sizeof(path));
	for (i = 0; i < n; i++)
		use[i].link = -1;
	if (off == (unsigned long)-1)
		fail = why("maps", -ENOENT);
	for (i = 0; i < n && !fail && !unsup; i++) {
		if (use[i].prog < 0) {
			unsup = why("BPF_PROG_LOAD", use[i].prog);
			break;
		}
		use[i].link = bpf_link(use[i].prog, use[i].type, use[i].flags,
				       path, &off, 1);
		if (use[i].link < 0)
			unsup = why("BPF_LINK_CREATE", use[i].link);
	}
	if (!fail && !unsup) {
		/* The links' probes are warm after these. */
		run(fn, calls / 10);
		probed = run(fn, calls);
		if (allocs)
			a = allocs_per_call(fn, calls / 10);
	}
	for (i = 0; i < n; i++) {
		if (use[i].link >= 0)
			close(use[i].link);
		if (use[i].prog >= 0)
			close(use[i].prog);
	}
	if (fail) {
		printf("bench %s error=%s\n", name, fail);
		return 1;
	}
	if (unsup) {
		printf("bench %s unsupported=%s\n", name, unsup);
		return 0;
	}
	run(fn, calls / 10);
	base = run(fn, calls);
	printf("bench %s base_ns=%.1f probed_ns=%.1f hit_ns=%.1f", name, base,
	       probed, probed - base);
	if (allocs && a < 0)
		printf(" allocs=-");
	else if (allocs)
		printf(" allocs=%.3f", a);
	printf("\n");
	return 0;
}

/* 6. BPF programs: entry, entry and return, a session, a moved ip. */
static int bench_bpf(void)
{
	struct bpf_use entry[] = {
		{ .prog = bpf_empty_prog(TRACE_UPROBE_MULTI),
		  .type = TRACE_UPROBE_MULTI },
	};
	struct bpf_use pair[] = {
		{ .prog = bpf_empty_prog(TRACE_UPROBE_MULTI),
		  .type = TRACE_UPROBE_MULTI },
		{ .prog = bpf_empty_prog(TRACE_UPROBE_MULTI),
		  .type = TRACE_UPROBE_MULTI, .flags = UPROBE_MULTI_RETURN },
	};
	struct bpf_use session[] = {
		{ .prog = bpf_empty_prog(TRACE_UPROBE_SESSION),
		  .type = TRACE_UPROBE_SESSION },
	};
	struct bpf_use nop[] = {
		{ .prog = bpf_empty_prog(TRACE_UPROBE_MULTI),
		  .type = TRACE_UPROBE_MULTI },
	};
	struct bpf_use move[] = {
		{ .prog = bpf_move_ip_prog((unsigned long)p_nop +
					   sizeof(nop_insn)),
		  .type = TRACE_UPROBE_MULTI },
	};
	int failed = 0;

	failed |= bpf_figure("bpf_entry", RETPROBE_FN, RETPROBE_AT, entry, 1,
			     false);
	failed |= bpf_figure("bpf_entry_return", RETPROBE_FN, RETPROBE_AT,
			     pair, 2, true);
	failed |= bpf_figure("bpf_session", RETPROBE_FN, RETPROBE_AT, session,
			     1, true);
	failed |= bpf_figure("bpf_nop", t_nop, p_nop, nop, 1, false);
	failed |= bpf_figure("bpf_move_ip", t_nop, p_nop, move, 1, false);
	return failed;
}

/*
 * -o: the figures to run, comma-separated (classes, traced, uretprobe,
 * threads, bpf, memory, lookup, attach); all without it.
 */
static const char *only;

static int wanted(const char *figure)
{
	size_t n = strlen(figure);
	const char *p = only;

	if (!p)
		return 1;
	while ((p = strstr(p, figure))) {
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long nop_size = 100000;
	int failed = 0, type, opt, err;
	cpu_set_t cpu0;

	while ((opt = getopt(argc, argv, "n:r:a:p:m:o:")) != -1) {
		switch (opt) {
		case 'o':
			only = optarg;
			break;
		case 'n':
			calls = atol(optarg);
			break;
		case 'r':
			parse_sizes(optarg);
			break;
		case 'a':
			attach_probes = atol(optarg);
			break;
		case 'p':
			attach_procs = atoi(optarg);
			break;
		case 'm':
			memory_probes = atol(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-n calls] [-r size,size,...] [-a probes] [-p procs] [-m probes] [-o figure,...]\n",
				argv[0]);
			return 2;
		}
	}
	if (calls < 10 || nregistry < 1 || attach_probes < 1 ||
	    attach_procs < 1 || memory_probes < 1) {
		fprintf(stderr, "%s: bad settings\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* One CPU: perf installs its events there without an IPI. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	ensure_mounted(TRACEFS, "tracefs", TRACEFS_MAGIC);
	ensure_mounted(DEBUGFS, "debugfs", DEBUGFS_MAGIC);
	/* check_mappers() looks for breakpoints through /proc/PID/mem. */
	if (!access(DEBUGFS "/uprobes/hide_breakpoints", F_OK))
		write_file(DEBUGFS "/uprobes/hide_breakpoints", "N", 0);
	write_file(TRACEFS "/tracing_on", "0", 0);

	if (wanted("classes"))
		failed |= bench_classes();
	if (wanted("traced"))
		failed |= bench_traced();
	if (wanted("uretprobe"))
		failed |= bench_uretprobe();
	if (wanted("threads"))
		failed |= bench_threads();
	if (wanted("bpf"))
		failed |= bench_bpf();

	/* The figures below register perf uprobes, on files of their own. */
	type = uprobe_pmu_type();
	if (registry[nregistry - 1] > nop_size)
		nop_size = registry[nregistry - 1];
	if (memory_probes > nop_size)
		nop_size = memory_probes;
	raise_nofile(nop_size > attach_probes ? nop_size : attach_probes);
	err = type < 0 ? type : make_file(NOP_FILE, nop_size * sizeof(nop_insn),
					  nop_insn, sizeof(nop_insn));
	if (err) {
		printf("bench registry error=%s\n", why("setup", err));
		failed = 1;
	} else {
		if (wanted("memory"))
			failed |= bench_memory(type);
		if (wanted("lookup"))
			failed |= bench_lookup(type);
		unlink(NOP_FILE);
		if (wanted("attach"))
			failed |= bench_attach(type);
	}
	write_file(TRACEFS "/tracing_on", "1", 0);
	write_file(TRACEFS "/trace", "", O_TRUNC);
	return failed;
}
