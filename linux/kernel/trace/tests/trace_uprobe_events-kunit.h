/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for the default names of uprobe events and their task
 * filter clauses (the refusals are tested from user space: they write
 * error_log, which needs the dynamic events' lock; an accepted clause
 * logs nothing).
 */
#include <kunit/test.h>

static void default_name_test(struct kunit *test)
{
	char buf[MAX_EVENT_NAME_LEN];
	char longname[2 * MAX_EVENT_NAME_LEN];
	char max[sizeof("_0x") + 2 * sizeof(long)];

	default_event_name(buf, "/bin/zsh", 0x46420);
	KUNIT_EXPECT_STREQ(test, buf, "p_zsh_0x46420");

	/* the base name stops at its first '.', '-' or '_' */
	default_event_name(buf, "/lib/x86_64-linux-gnu/libc.so.6", 0x1000);
	KUNIT_EXPECT_STREQ(test, buf, "p_libc_0x1000");
	default_event_name(buf, "/usr/bin/ld-linux", 0);
	KUNIT_EXPECT_STREQ(test, buf, "p_ld_0x0");
	default_event_name(buf, "/usr/bin/my_tool", 0x10);
	KUNIT_EXPECT_STREQ(test, buf, "p_my_0x10");

	/* what an event name cannot hold becomes '_' */
	default_event_name(buf, "/opt/c++filt", 0x10);
	KUNIT_EXPECT_STREQ(test, buf, "p_c__filt_0x10");
	KUNIT_EXPECT_TRUE(test, is_good_name(buf));

	/* a long base name is cut, the offset always fits */
	memset(longname, 'a', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	default_event_name(buf, longname, ULONG_MAX);
	KUNIT_EXPECT_LT(test, strlen(buf), (size_t)MAX_EVENT_NAME_LEN);
	snprintf(max, sizeof(max), "_0x%lx", ULONG_MAX);
	KUNIT_EXPECT_STREQ(test, buf + strlen(buf) - strlen(max), max);
	KUNIT_EXPECT_TRUE(test, is_good_name(buf));
}

static void if_clause_test(struct kunit *test)
{
	static const char * const plain[] = { "p", "/bin/x:0x10", "a=%ax" };
	static const char * const clause[] = { "p", "/bin/x:0x10", "a=%ax", "if", "tid==42" };
	static const char * const only[] = { "r", "/bin/x:0x10", "if", "sid==1" };
	static const char * const words[] = {
		"pid==7", "tid==7", "ppid==7", "sid==7",
	};
	struct uprobe_task_filter f = { .nr = -1 };
	int argc, kind;

	argc = ARRAY_SIZE(plain);
	KUNIT_EXPECT_EQ(test, parse_if_clause(&argc, plain, &f), 0);
	KUNIT_EXPECT_EQ(test, argc, 3);
	KUNIT_EXPECT_EQ(test, f.nr, -1);

	argc = ARRAY_SIZE(clause);
	KUNIT_EXPECT_EQ(test, parse_if_clause(&argc, clause, &f), 1);
	KUNIT_EXPECT_EQ(test, argc, 3);
	KUNIT_EXPECT_EQ(test, f.kind, UPROBE_FILTER_TID);
	KUNIT_EXPECT_EQ(test, f.nr, 42);

	argc = ARRAY_SIZE(only);
	KUNIT_EXPECT_EQ(test, parse_if_clause(&argc, only, &f), 1);
	KUNIT_EXPECT_EQ(test, argc, 2);
	KUNIT_EXPECT_EQ(test, f.kind, UPROBE_FILTER_SID);
	KUNIT_EXPECT_EQ(test, f.nr, 1);

	/* the kernel's session (that of init and its children) */
	KUNIT_EXPECT_EQ(test, parse_task_filter("sid==0", 0, &f), 0);
	KUNIT_EXPECT_EQ(test, f.kind, UPROBE_FILTER_SID);
	KUNIT_EXPECT_EQ(test, f.nr, 0);

	/* each kind by its name */
	for (kind = 0; kind < ARRAY_SIZE(words); kind++) {
		KUNIT_EXPECT_EQ(test, parse_task_filter(words[kind], 0, &f), 0);
		KUNIT_EXPECT_EQ(test, f.kind, kind);
		KUNIT_EXPECT_EQ(test, f.nr, 7);
	}
}

static struct kunit_case trace_uprobe_events_cases[] = {
	KUNIT_CASE(default_name_test),
	KUNIT_CASE(if_clause_test),
	{}
};

static struct kunit_suite trace_uprobe_events_suite = {
	.name = "trace_uprobe_events",
	.test_cases = trace_uprobe_events_cases,
};

kunit_test_suite(trace_uprobe_events_suite);
