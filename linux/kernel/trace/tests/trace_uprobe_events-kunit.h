/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests for the default names of uprobe events.
 */
#include <kunit/test.h>

static void default_name_test(struct kunit *test)
{
	char buf[MAX_EVENT_NAME_LEN];
	char longname[2 * MAX_EVENT_NAME_LEN];

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
	KUNIT_EXPECT_STREQ(test, buf + strlen(buf) - 19, "_0xffffffffffffffff");
	KUNIT_EXPECT_TRUE(test, is_good_name(buf));
}

static struct kunit_case trace_uprobe_events_cases[] = {
	KUNIT_CASE(default_name_test),
	{}
};

static struct kunit_suite trace_uprobe_events_suite = {
	.name = "trace_uprobe_events",
	.test_cases = trace_uprobe_events_cases,
};

kunit_test_suite(trace_uprobe_events_suite);
