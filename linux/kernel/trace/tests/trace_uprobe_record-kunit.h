/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for the fetch side of the uprobe event hit path: arguments
 * parsed by trace_probe.c are run against made-up registers. The test
 * thread has no user address space, so every user read faults: that must
 * give the fault values, never an oops.
 */
#include <kunit/test.h>

/*
 * Four general purpose registers and the stack pointer, by their names in
 * fetch arguments (s390 names r0..r15 only; r15 is its stack pointer).
 */
#ifdef CONFIG_ARM64
#define FT_A	"x0"
#define FT_B	"x1"
#define FT_C	"x2"
#define FT_D	"x3"
#define FT_SP	"sp"
#elif defined(CONFIG_RISCV)
#define FT_A	"a0"
#define FT_B	"a1"
#define FT_C	"a2"
#define FT_D	"a3"
#define FT_SP	"sp"
#elif defined(CONFIG_S390)
#define FT_A	"r2"
#define FT_B	"r3"
#define FT_C	"r4"
#define FT_D	"r5"
#define FT_SP	"r15"
#else
#define FT_A	"di"
#define FT_B	"si"
#define FT_C	"dx"
#define FT_D	"ax"
#define FT_SP	"sp"
#endif
/* What FT_A is set to: every byte of the register. */
#if BITS_PER_LONG == 64
#define FT_A_VAL	0x1122334455667788UL
#else
#define FT_A_VAL	0x55667788UL
#endif

static const char * const fetch_test_args[] = {
	"a=%" FT_A, "b=%" FT_B ":s32", "f=@+0x10", "i=\\123", "c=$comm",
	"s=\\\"imm\":string", "u=+0(%" FT_C "):u32",
	"us=+0(%" FT_C "):string", "sp=$stack", "st=$stack1",
	"bf=%" FT_D ":b4@4/32",
};

/* Sets the register named @name (as in a fetch argument) in @regs. */
static void fetch_test_set(struct kunit *test, struct pt_regs *regs,
			   const char *name, unsigned long val)
{
	int off = regs_query_register_offset(name);

	KUNIT_ASSERT_GE_MSG(test, off, 0, "%s", name);
#ifdef CONFIG_S390
	/* s390's "offset" is the register's number (regs_get_register()) */
	regs->gprs[off] = val;
#else
	*(unsigned long *)((u8 *)regs + off) = val;
#endif
}

/* Value of the raw argument @i of @tp in the record at @data. */
static u64 fetch_test_val(struct trace_probe *tp, void *data, int i)
{
	void *p = data + tp->args[i].offset;

	switch (tp->args[i].type->size) {
	case 1:
		return *(u8 *)p;
	case 2:
		return *(u16 *)p;
	case 4:
		return *(u32 *)p;
	default:
		return *(u64 *)p;
	}
}

static void fetch_test_args_run(struct kunit *test)
{
	int nr = ARRAY_SIZE(fetch_test_args), i, dyn, len, cpu, ret;
	struct pt_regs regs = {};
	struct uprobe_fetch_ctx ctx = { .regs = &regs, .load_base = 0x400000 };
	struct uprobe_scratch *s;
	struct trace_uprobe *tu;
	struct trace_probe *tp;
	void *data, *base;
	u32 *loc;

	tu = kunit_kzalloc(test, struct_size(tu, tp.args, nr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tu);
	tp = &tu->tp;
	KUNIT_ASSERT_EQ(test, trace_probe_init(tp, "ev", "kunit", false, nr), 0);
	for (i = 0; i < nr; i++) {
		struct traceprobe_parse_context pctx = { .flags = TPARG_FL_USER };

		ret = traceprobe_parse_probe_arg(tp, i, fetch_test_args[i], &pctx);
		traceprobe_finish_parse(&pctx);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s", fetch_test_args[i]);
	}

	fetch_test_set(test, &regs, FT_A, FT_A_VAL);
	fetch_test_set(test, &regs, FT_B, (unsigned long)-5);
	/* no user memory there (nor anywhere) */
	fetch_test_set(test, &regs, FT_C, 0x10);
	fetch_test_set(test, &regs, FT_SP, 0x2000);
	fetch_test_set(test, &regs, FT_D, 0xab);

	dyn = dynamic_args_size(tp, &ctx);
	/* "imm" and the comm; the faulting user string needs nothing */
	KUNIT_EXPECT_EQ(test, dyn, 4 + (int)strlen(current->comm) + 1);

	mutex_lock(&event_mutex);
	ret = trace_uprobe_scratch_get();
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
	/* garbage a fetch that faults must not leave in the record */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(scratch, cpu)->buf, 0x5a, SCRATCH_SIZE);

	s = fetch_args(tu, scratch, &ctx, &len);
	data = s->buf;
	base = data - trace_uprobe_head_size(tu);
	KUNIT_EXPECT_EQ(test, len, (int)tp->size + dyn);

	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 0), (u64)FT_A_VAL);
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 1), 0xfffffffbULL);
	/* @+OFFSET reads user memory too */
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 3), 123ULL);

	loc = data + tp->args[4].offset;
	KUNIT_EXPECT_EQ(test, get_loc_len(*loc), strlen(current->comm) + 1);
	KUNIT_EXPECT_STREQ(test, (char *)get_loc_data(loc, base), current->comm);

	loc = data + tp->args[5].offset;
	KUNIT_EXPECT_EQ(test, get_loc_len(*loc), 4U);
	KUNIT_EXPECT_STREQ(test, (char *)get_loc_data(loc, base), "imm");

	/* faulting reads: 0 and an empty string ("(fault)") */
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 6), 0ULL);
	loc = data + tp->args[7].offset;
	KUNIT_EXPECT_EQ(test, get_loc_len(*loc), 0U);

	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 8), 0x2000ULL);
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 9), 0ULL);
	KUNIT_EXPECT_EQ(test, fetch_test_val(tp, data, 10), 0xaULL);
	mutex_unlock(&s->lock);

	mutex_lock(&event_mutex);
	trace_uprobe_scratch_put();
	mutex_unlock(&event_mutex);
	trace_probe_cleanup(tp);
}

/* @+OFFSET is relative to where the probed file is mapped. */
static void fetch_test_file_offset(struct kunit *test)
{
	struct fetch_insn code[] = {
		{ .op = FETCH_OP_FOFFS, .immediate = 0x10 },
		{ .op = FETCH_OP_ST_RAW, .size = sizeof(unsigned long) },
		{ .op = FETCH_OP_END },
	};
	struct pt_regs regs = {};
	struct uprobe_fetch_ctx ctx = { .regs = &regs, .load_base = 0x400000 };
	unsigned long val = 0;

	KUNIT_EXPECT_EQ(test, process_fetch_insn(code, &ctx, NULL, &val, NULL), 0);
	KUNIT_EXPECT_EQ(test, val, 0x400010UL);
}

/* A kernel string longer than its room is cut and still terminated. */
static void fetch_test_kernel_string(struct kunit *test)
{
	char buf[16] = {};
	u32 loc = make_data_loc(4, 8);
	int len;

	KUNIT_EXPECT_EQ(test, fetch_kernel_string("hello", NULL, NULL), 6);
	len = fetch_kernel_string("hello", &loc, buf);
	KUNIT_EXPECT_EQ(test, len, 4);
	KUNIT_EXPECT_EQ(test, get_loc_len(loc), 4U);
	KUNIT_EXPECT_EQ(test, get_loc_offs(loc), 8U);
	KUNIT_EXPECT_STREQ(test, buf + 8, "hel");

	loc = make_data_loc(0, 8);
	KUNIT_EXPECT_EQ(test, fetch_kernel_string("x", &loc, buf), -ENOMEM);
}

/* Parse @argv into a probe and ask whether it can skip the scratch page. */
static bool fetch_test_in_regs(struct kunit *test, const char * const *argv,
			       int nr)
{
	struct trace_probe *tp;
	bool in_regs;
	int i;

	tp = kunit_kzalloc(test, struct_size(tp, args, nr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	KUNIT_ASSERT_EQ(test, trace_probe_init(tp, "ev", "kunit", false, nr), 0);
	for (i = 0; i < nr; i++) {
		struct traceprobe_parse_context pctx = { .flags = TPARG_FL_USER };
		int ret = traceprobe_parse_probe_arg(tp, i, argv[i], &pctx);

		traceprobe_finish_parse(&pctx);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s", argv[i]);
	}
	in_regs = trace_uprobe_args_in_regs(tp);
	trace_probe_cleanup(tp);
	return in_regs;
}

/* Only arguments that cannot fault are fetched into the ring buffer. */
static void fetch_test_args_in_regs(struct kunit *test)
{
	static const char * const in_regs[] = {
		"%" FT_A, "%" FT_B ":s32", "\\123", "$stack",
		"%" FT_D ":b4@4/32", "%" FT_SP ":x16",
	};
	static const char * const in_memory[] = {
		"+0(%" FT_C "):u32", "$stack1", "@+0x10", "$comm",
		"\\\"imm\":string", "+0(%" FT_SP "):string",
		"+0(%" FT_SP "):ustring",
		"+8(+0(%" FT_A ")):s8",
	};
	const char *mixed[2];
	int i;

	KUNIT_EXPECT_TRUE(test, fetch_test_in_regs(test, NULL, 0));
	KUNIT_EXPECT_TRUE(test, fetch_test_in_regs(test, in_regs,
						   ARRAY_SIZE(in_regs)));
	for (i = 0; i < ARRAY_SIZE(in_regs); i++)
		KUNIT_EXPECT_TRUE_MSG(test,
				      fetch_test_in_regs(test, &in_regs[i], 1),
				      "%s", in_regs[i]);
	for (i = 0; i < ARRAY_SIZE(in_memory); i++) {
		KUNIT_EXPECT_FALSE_MSG(test,
				       fetch_test_in_regs(test, &in_memory[i], 1),
				       "%s", in_memory[i]);
		/* one such argument is enough */
		mixed[0] = in_regs[0];
		mixed[1] = in_memory[i];
		KUNIT_EXPECT_FALSE_MSG(test, fetch_test_in_regs(test, mixed, 2),
				       "%s %s", mixed[0], in_memory[i]);
	}
}

static struct kunit_case trace_uprobe_fetch_cases[] = {
	KUNIT_CASE(fetch_test_args_run),
	KUNIT_CASE(fetch_test_file_offset),
	KUNIT_CASE(fetch_test_kernel_string),
	KUNIT_CASE(fetch_test_args_in_regs),
	{}
};

static struct kunit_suite trace_uprobe_fetch_suite = {
	.name = "trace_uprobe_fetch",
	.test_cases = trace_uprobe_fetch_cases,
};

kunit_test_suite(trace_uprobe_fetch_suite);

#undef FT_A
#undef FT_B
#undef FT_C
#undef FT_D
#undef FT_SP
