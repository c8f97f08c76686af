// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe events through the ftrace interface: definition and canonical
 * read-back (uprobe_events, dynamic_events, format, id), deletion and
 * truncation, enabling and disabling while the target runs (per event, per
 * group, set_event, instances, triggers), filters, uprobe_profile hit
 * counts, entry and return probes, multi-probe events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../uprobes/upng.h"
#include "uev_lib.h"

FIXTURE(ev) {
	struct uev_state s;
};

FIXTURE_SETUP(ev)
{
	if (!uev_can_run(_metadata))
		return;
	ASSERT_EQ(0, uev_state_init(&self->s));
}

FIXTURE_TEARDOWN(ev)
{
	upng_tracefs_reset();
	rmdir(UPNG_TRACEFS "/instances/uevtest");
}

/* The content of a tracefs file must be exactly @expect. */
static bool file_is(struct uev_state *s, const char *file,
		    const char *expect)
{
	if (upng_tracefs_read_len(file, s->buf, sizeof(s->buf)) < 0)
		return false;
	return !strcmp(s->buf, expect);
}

TEST_F(ev, readback_canonical)
{
	char expect[16384];

	/* Decimal offset, extra blanks, named and unnamed arguments. */
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/rb   %s:%lu  a=%s  +8(%s):x32\n",
					 self->s.path, self->s.regs.offset, UEV_R_WIDE,
					 UEV_R_DATA));
	ASSERT_EQ(0, uev_define("p:mygrp/ev2", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, uev_define("r:uprobes/rr", self->s.path, self->s.ret.offset, "rv=$retval"));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/rs %s:0x%lx%%return %s:s8",
					 self->s.path, self->s.ret.offset, UEV_R_RET));
	ASSERT_EQ(0, uev_define("p", self->s.path, self->s.regs.offset, NULL));
	snprintf(expect, sizeof(expect),
		 "p:uprobes/rb %s:0x%016lx a=%s arg2=+8(%s):x32\n"
		 "p:mygrp/ev2 %s:0x%016lx\n"
		 "r:uprobes/rr %s:0x%016lx rv=$retval\n"
		 "r:uprobes/rs %s:0x%016lx arg1=%s:s8\n"
		 "p:uprobes/p_uev_0x%lx %s:0x%016lx\n",
		 self->s.path, self->s.regs.offset, UEV_R_WIDE, UEV_R_DATA,
		 self->s.path, self->s.count.offset, self->s.path, self->s.ret.offset,
		 self->s.path, self->s.ret.offset, UEV_R_RET,
		 self->s.regs.offset, self->s.path, self->s.regs.offset);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", expect)) {
		TH_LOG("uprobe_events:\n%s\nexpected:\n%s", self->s.buf, expect);
	}
	/* dynamic_events lists the same definitions. */
	ASSERT_TRUE(file_is(&self->s, "dynamic_events", expect)) {
		TH_LOG("dynamic_events:\n%s", self->s.buf);
	}
	ASSERT_TRUE(upng_event_exists("uprobes", "rb"));
	ASSERT_TRUE(upng_event_exists("mygrp", "ev2"));
	ASSERT_TRUE(upng_event_exists("uprobes", "rr"));
	ASSERT_TRUE(upng_event_exists("uprobes", "rs"));
	snprintf(expect, sizeof(expect), "p_uev_0x%lx", self->s.regs.offset);
	ASSERT_TRUE(upng_event_exists("uprobes", expect));
}

/* Lines of the format files of the events of format_and_id ("\045" is '%'). */
static const char * const fm_format[] = {
	"name: fm\n",
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n",
	"\tfield:u64 a;\toffset:16;\tsize:8;\tsigned:0;\n",
	"\tfield:s32 b;\toffset:24;\tsize:4;\tsigned:1;\n",
	"\tfield:__data_loc char[] s;\toffset:28;\tsize:4;\tsigned:1;\n",
	"print fmt: \"(%lx) a=0x\045Lx b=%d s=\\\"%s\\\"\", REC->__probe_ip, REC->a, REC->b, __get_str(s)\n",
};

static const char * const fr_format[] = {
	"name: fr\n",
	"\tfield:unsigned long __probe_func;\toffset:8;\tsize:8;\tsigned:0;\n",
	"\tfield:unsigned long __probe_ret_ip;\toffset:16;\tsize:8;\tsigned:0;\n",
	"\tfield:u16 rv;\toffset:24;\tsize:2;\tsigned:0;\n",
	"print fmt: \"(%lx <- %lx) rv=%u\", REC->__probe_func, REC->__probe_ret_ip, REC->rv\n",
};

TEST_F(ev, format_and_id)
{
	char id[32], want[256];
	size_t i;

	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/fm %s:0x%lx a=%s b=+8(%s):s32 s=+0(%s):string",
					 self->s.path, self->s.regs.offset, UEV_R_WIDE,
					 UEV_R_DATA, UEV_R_STR));
	ASSERT_EQ(0, uev_define("r:uprobes/fr", self->s.path, self->s.ret.offset,
				"rv=$retval:u16"));
	ASSERT_LT(0, upng_tracefs_read_len("events/uprobes/fm/id", id, sizeof(id)));
	ASSERT_LT(0, upng_tracefs_read_len("events/uprobes/fm/format",
					   self->s.buf, sizeof(self->s.buf)));
	snprintf(want, sizeof(want), "ID: %d\n", atoi(id));
	ASSERT_NE(NULL, strstr(self->s.buf, want));
	for (i = 0; i < ARRAY_SIZE(fm_format); i++) {
		ASSERT_NE(NULL, strstr(self->s.buf, fm_format[i])) {
			TH_LOG("no '%s' in\n%s", fm_format[i], self->s.buf);
		}
	}
	ASSERT_LT(0, upng_tracefs_read_len("events/uprobes/fr/format",
					   self->s.buf, sizeof(self->s.buf)));
	for (i = 0; i < ARRAY_SIZE(fr_format); i++) {
		ASSERT_NE(NULL, strstr(self->s.buf, fr_format[i])) {
			TH_LOG("no '%s' in\n%s", fr_format[i], self->s.buf);
		}
	}
	/* The usual per-event files are there. */
	ASSERT_EQ(0, access(UPNG_TRACEFS "/events/uprobes/fm/enable", W_OK));
	ASSERT_EQ(0, access(UPNG_TRACEFS "/events/uprobes/fm/filter", W_OK));
	ASSERT_EQ(0, access(UPNG_TRACEFS "/events/uprobes/fm/trigger", W_OK));
}

TEST_F(ev, delete)
{
	char expect[8192];

	ASSERT_EQ(0, uev_define("p:uprobes/d1", self->s.path, self->s.regs.offset, NULL));
	ASSERT_EQ(0, uev_define("p:uprobes/d2", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, uev_define("p:grp2/d3", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:d1"));
	ASSERT_FALSE(upng_event_exists("uprobes", "d1"));
	ASSERT_TRUE(upng_event_exists("uprobes", "d2"));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:grp2/d3"));
	ASSERT_FALSE(upng_event_exists("grp2", "d3"));
	snprintf(expect, sizeof(expect), "p:uprobes/d2 %s:0x%016lx\n",
		 self->s.path, self->s.count.offset);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", expect)) {
		TH_LOG("uprobe_events:\n%s", self->s.buf);
	}
	/* Gone already, or never there. */
	ASSERT_EQ(-ENOENT, upng_tracefs_write("uprobe_events", "-:d1"));
	ASSERT_EQ(-ENOENT, upng_tracefs_write("uprobe_events", "-:nosuch/d2"));
	/* Through dynamic_events, with the group. */
	ASSERT_EQ(0, upng_tracefs_write("dynamic_events", "-:uprobes/d2"));
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", ""));
	ASSERT_FALSE(upng_event_exists("uprobes", "d2"));
}

TEST_F(ev, dynamic_events_create)
{
	char expect[8192];

	ASSERT_EQ(0, upng_tracefs_writef("dynamic_events", "p:uprobes/dy %s:0x%lx n=%s:s32",
					 self->s.path, self->s.count.offset, UEV_R_ARG1));
	snprintf(expect, sizeof(expect), "p:uprobes/dy %s:0x%016lx n=%s:s32\n",
		 self->s.path, self->s.count.offset, UEV_R_ARG1);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", expect)) {
		TH_LOG("uprobe_events:\n%s", self->s.buf);
	}
	ASSERT_TRUE(upng_event_exists("uprobes", "dy"));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:dy"));
	ASSERT_TRUE(file_is(&self->s, "dynamic_events", ""));
}

TEST_F(ev, truncate_clears)
{
	int i;

	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/t%d %s:0x%lx",
						 i, self->s.path, self->s.count.offset));
	}
	ASSERT_TRUE(upng_event_exists("uprobes", "t4"));
	ASSERT_EQ(0, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", ""));
	ASSERT_FALSE(upng_event_exists("uprobes", "t0"));
	ASSERT_FALSE(upng_event_exists("uprobes", "t4"));
	/* Truncate and define in one go: only the new one remains. */
	ASSERT_EQ(0, uev_define("p:uprobes/old", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_EQ(0, uev_define("p:uprobes/new", self->s.path, self->s.count.offset, NULL));
	ASSERT_FALSE(upng_event_exists("uprobes", "old"));
	ASSERT_TRUE(upng_event_exists("uprobes", "new"));
}

/* Hits are recorded exactly while the event is enabled. */
TEST_F(ev, enable_disable_while_running)
{
	static const int ns[] = { 3, 4, 5, 6, 7, 10, 13, 14 };
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 3));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 5));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	/* The group's enable file, then set_event. */
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "0"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, upng_tracefs_write("set_event", "uprobes:cnt"));
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/enable", "1\n"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, upng_tracefs_write("set_event", "!uprobes:cnt"));
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/enable", "0\n"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 3));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, ARRAY_SIZE(ns)));
}

/* A process started while the event is enabled is probed from the start. */
TEST_F(ev, enabled_before_exec)
{
	static const int ns[] = { 0, 1, 0, 1 };
	struct uev_proc p, q;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, uev_spawn(&q, self->s.path));
	ASSERT_EQ(0, uev_cmd(&q, 'c', 2));
	ASSERT_EQ(0, uev_finish(&q));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	/* Two processes, each counting from 0. */
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, 4));
}

TEST_F(ev, filter_on_argument)
{
	static const int ns[] = { 3, 4, 5, 8 };
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/cnt/filter", "n >= 3 && n < 6"));
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/filter", "n >= 3 && n < 6\n"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 8));
	/* "0" clears the filter. */
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/cnt/filter", "0"));
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/filter", "none\n"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	/* n = 8 ran with the filter still set: only 3, 4, 5 and then 8. */
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, 4));
}

/* A filter on a common field: only one of two processes is traced. */
TEST_F(ev, filter_on_pid)
{
	static const int ns[] = { 0, 1, 2 };
	struct uev_proc p, q;
	char filter[64];

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_spawn(&q, self->s.path));
	snprintf(filter, sizeof(filter), "common_pid == %d", q.pid);
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/cnt/filter", filter));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 4));
	ASSERT_EQ(0, uev_cmd(&q, 'c', 3));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 4));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, uev_finish(&q));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, 3));
	/* And the pid on the lines is q's. */
	ASSERT_LT(0, upng_tracefs_read_len("trace", self->s.buf, sizeof(self->s.buf)));
	snprintf(filter, sizeof(filter), "-%d ", p.pid);
	ASSERT_EQ(NULL, strstr(self->s.buf, filter));
	snprintf(filter, sizeof(filter), "-%d ", q.pid);
	ASSERT_NE(NULL, strstr(self->s.buf, filter));
}

/*
 * "if KIND==ID" clauses: each definition traces only the tasks it matches;
 * the clause is shown back and must match for a deletion naming it. p's
 * forked child has p's breakpoints (other definitions want p) and is the
 * only task whose parent is p.
 */
TEST_F(ev, task_filter_clause)
{
	static const int q_ns[] = { 0, 1, 2 }, child_ns[] = { 1000 };
	unsigned long foff = self->s.count.offset;
	const char *path = self->s.path;
	char expect[4096];
	struct uev_proc p, q;

	ASSERT_EQ(0, uev_spawn(&p, path));
	ASSERT_EQ(0, uev_spawn(&q, path));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/tq %s:0x%lx n=%s:s64 if pid==%d",
					 path, foff, UEV_R_ARG1, q.pid));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/tt %s:0x%lx if tid==%d",
					 path, foff, p.pid));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/ts %s:0x%lx if sid==%d",
					 path, foff, getsid(0)));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events",
					 "p:uprobes/tp %s:0x%lx n=%s:s64 if ppid==%d",
					 path, foff, UEV_R_ARG1, p.pid));
	snprintf(expect, sizeof(expect),
		 "p:uprobes/tq %s:0x%016lx n=%s:s64 if pid==%d\n"
		 "p:uprobes/tt %s:0x%016lx if tid==%d\n"
		 "p:uprobes/ts %s:0x%016lx if sid==%d\n"
		 "p:uprobes/tp %s:0x%016lx n=%s:s64 if ppid==%d\n",
		 path, foff, UEV_R_ARG1, q.pid, path, foff, p.pid, path, foff, getsid(0),
		 path, foff, UEV_R_ARG1, p.pid);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", expect)) {
		TH_LOG("uprobe_events:\n%s\nexpected:\n%s", self->s.buf, expect);
	}

	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 4));
	ASSERT_EQ(0, uev_cmd(&q, 'c', 3));
	ASSERT_EQ(0, uev_cmd(&p, 'f', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, uev_finish(&q));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "0"));

	ASSERT_TRUE(uev_trace_ns(&self->s, "tq", q_ns, 3));
	ASSERT_TRUE(uev_trace_ns(&self->s, "tp", child_ns, 1));
	ASSERT_EQ(4, upng_trace_get("trace", "tt", &self->s.t));
	ASSERT_EQ(8, upng_trace_get("trace", "ts", &self->s.t));
	/* The profile counts the hits of the tasks traced. */
	ASSERT_EQ(3, upng_probe_hits_at(path, "tq"));
	ASSERT_EQ(4, upng_probe_hits_at(path, "tt"));
	ASSERT_EQ(8, upng_probe_hits_at(path, "ts"));
	ASSERT_EQ(1, upng_probe_hits_at(path, "tp"));

	ASSERT_EQ(-ENOENT, upng_tracefs_writef("uprobe_events",
					       "-:uprobes/tt %s:0x%016lx if tid==%d",
					       path, foff, p.pid + 1));
	ASSERT_EQ(-ENOENT, upng_tracefs_writef("uprobe_events", "-:uprobes/ts %s:0x%016lx",
					       path, foff + 1));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "-:uprobes/tt %s:0x%016lx if tid==%d",
					 path, foff, p.pid));
	ASSERT_FALSE(upng_event_exists("uprobes", "tt"));
}

/* Filters on a string argument (a __data_loc field) and on a bitfield. */
TEST_F(ev, filter_on_string)
{
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/fs", self->s.path, self->s.regs.offset,
				"s=+0(" UEV_R_STR "):string b=+15(" UEV_R_DATA "):b4@4/8"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/fs/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/fs/filter", "s == \"nope\""));
	ASSERT_EQ(0, uev_cmd(&p, 'a', 1));
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/fs/filter",
					      "s ~ \"hello*\" && b == 11"));
	ASSERT_EQ(0, uev_cmd(&p, 'a', 1));
	ASSERT_EQ(0, upng_tracefs_write_trunc("events/uprobes/fs/filter", "b != 11"));
	ASSERT_EQ(0, uev_cmd(&p, 'a', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/fs/enable", "0"));
	ASSERT_EQ(1, upng_trace_get("trace", "fs", &self->s.t));
	ASSERT_NE(NULL, strstr(self->s.t.line[0], " s=\"hello, uprobe\" b=11"));
	/* A filter naming no field of the event is refused. */
	ASSERT_EQ(-EINVAL, upng_tracefs_write_trunc("events/uprobes/fs/filter", "nosuch == 1"));
}

/* An enable_event trigger turns a soft-disabled event on from another one. */
TEST_F(ev, enable_event_trigger)
{
	static const int ns[] = { 2, 3 };
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/ta", self->s.path, self->s.regs.offset, NULL));
	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ta/trigger", "enable_event:uprobes:cnt"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ta/enable", "1"));
	/* Soft-disabled: armed but not recording. */
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/enable", "0*\n"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_cmd(&p, 'a', 1));
	ASSERT_TRUE(file_is(&self->s, "events/uprobes/cnt/enable", "1*\n"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ta/enable", "0"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ta/trigger", "!enable_event:uprobes:cnt"));
	ASSERT_TRUE(uev_trace_ns(&self->s, "cnt", ns, 2));
	ASSERT_EQ(1, upng_trace_get("trace", "ta", &self->s.t));
	/* The fired trigger left it enabled; once disabled it can go. */
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:cnt"));
}

TEST_F(ev, profile_counts)
{
	struct uev_proc p, q;
	char line[1024];

	ASSERT_EQ(0, uev_define("p:uprobes/pc", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, uev_define("r:uprobes/pr", self->s.path, self->s.ret.offset, NULL));
	ASSERT_EQ(0, uev_define("p:uprobes/pa", self->s.path, self->s.regs.offset, NULL));
	ASSERT_EQ(0, upng_probe_hits_at(self->s.path, "pc"));
	ASSERT_EQ(0, upng_probe_hits_at(self->s.path, "pr"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	/* Not counted while disabled. */
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 7));
	ASSERT_EQ(0, uev_cmd(&p, 'r', 5));
	ASSERT_EQ(0, uev_spawn(&q, self->s.path));
	ASSERT_EQ(0, uev_cmd(&q, 'c', 4));
	ASSERT_EQ(0, uev_cmd(&q, 'r', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, uev_finish(&q));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/enable", "0"));
	ASSERT_EQ(11, upng_probe_hits_at(self->s.path, "pc"));
	ASSERT_EQ(6, upng_probe_hits_at(self->s.path, "pr"));
	ASSERT_EQ(0, upng_probe_hits_at(self->s.path, "pa"));
	/* The layout of 6.12: "  FILE EVENT(left, 44) HITS(right, 15)". */
	snprintf(line, sizeof(line), "  %s %-44s %15lu\n  %s %-44s %15lu\n  %s %-44s %15lu\n",
		 self->s.path, "pc", 11UL, self->s.path, "pr", 6UL,
		 self->s.path, "pa", 0UL);
	ASSERT_TRUE(file_is(&self->s, "uprobe_profile", line)) {
		TH_LOG("uprobe_profile:\n%s", self->s.buf);
	}
	ASSERT_EQ(11, upng_trace_get("trace", "pc", &self->s.t));
	ASSERT_EQ(6, upng_trace_get("trace", "pr", &self->s.t));
	/* Deleted events leave the profile. */
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:pc"));
	ASSERT_EQ(-1, upng_probe_hits_at(self->s.path, "pc"));
}

/* @buf holds @pairs times @first followed by @second, and nothing else. */
static bool alternate(const char *buf, const char *first, const char *second,
		      int pairs)
{
	const char *pos = buf;
	int i;

	for (i = 0; i < 2 * pairs; i++) {
		const char *want = (i % 2) ? second : first;

		pos = strstr(pos, want);
		if (!pos)
			return false;
		pos += strlen(want);
	}
	return !strstr(pos, first) && !strstr(pos, second);
}

/* Entry and return probes on one function fire in pairs, in order. */
TEST_F(ev, entry_and_return)
{
	char entry[UPNG_TRACE_LINE_LEN], ret[UPNG_TRACE_LINE_LEN];

	ASSERT_EQ(0, uev_define("p:uprobes/fn", self->s.path, self->s.ret.offset, NULL));
	ASSERT_EQ(0, uev_define("r:uprobes/fn_ret", self->s.path, self->s.ret.offset,
				"rv=$retval:s32"));
	ASSERT_EQ(0, uev_run("events/uprobes/enable", self->s.path, 'r', 3));
	snprintf(entry, sizeof(entry), "fn: (0x%lx)", self->s.ret.value);
	snprintf(ret, sizeof(ret), "fn_ret: (0x%lx <- 0x%lx) rv=-2",
		 self->s.retsite.value, self->s.ret.value);
	/* Both events in one list, in trace order: "EVENT: payload". */
	ASSERT_EQ(6, upng_trace_get("trace", "fn", &self->s.t) +
		     upng_trace_get("trace", "fn_ret", &self->s.t));
	ASSERT_LT(0, upng_tracefs_read_len("trace", self->s.buf, sizeof(self->s.buf)));
	ASSERT_TRUE(alternate(self->s.buf, entry, ret, 3)) {
		TH_LOG("trace:\n%s", self->s.buf);
	}
}

#if defined(__aarch64__)
/*
 * arm64, an entry and a return probe on one function, called three times:
 * the entry sees the return address in x30 (the return probe diverts it
 * only after the entry handlers ran); the return sees the sp of the
 * entry (a call does not move sp) and pc at the return address. (x30 at
 * the return: fetchargs' return_regs.)
 */
TEST_F(ev, entry_and_return_regs)
{
	unsigned long at, from, sp, lr, pc, sp_in[3];
	struct upng_trace *t = &self->s.t;
	int i, n;

	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/fe %s:0x%lx sp=%%sp lr=%%lr",
					 self->s.path, self->s.ret.offset));
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "r:uprobes/fx %s:0x%lx sp=%%sp pc=%%pc",
					 self->s.path, self->s.ret.offset));
	ASSERT_EQ(0, uev_run("events/uprobes/enable", self->s.path, 'r', 3));
	ASSERT_EQ(3, upng_trace_get("trace", "fe", t));
	for (i = 0; i < 3; i++) {
		n = sscanf(t->line[i], "(0x%lx) sp=0x%lx lr=0x%lx", &at, &sp, &lr);
		ASSERT_EQ(3, n) {
			TH_LOG("fe: %s", t->line[i]);
		}
		ASSERT_EQ(self->s.ret.value, at);
		ASSERT_EQ(self->s.retsite.value, lr);
		sp_in[i] = sp;
	}
	ASSERT_EQ(3, upng_trace_get("trace", "fx", t));
	for (i = 0; i < 3; i++) {
		n = sscanf(t->line[i], "(0x%lx <- 0x%lx) sp=0x%lx pc=0x%lx",
			   &at, &from, &sp, &pc);
		ASSERT_EQ(4, n) {
			TH_LOG("fx: %s", t->line[i]);
		}
		ASSERT_EQ(self->s.retsite.value, at);
		ASSERT_EQ(self->s.ret.value, from);
		ASSERT_EQ(sp_in[i], sp);
		ASSERT_EQ(self->s.retsite.value, pc);
	}
}
#endif

/* Two definitions under one event name make one event with two probes. */
TEST_F(ev, multi_probe_event)
{
	char expect[8192];
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/multi", self->s.path, self->s.count.offset,
				"x=" UEV_R_ARG1));
	ASSERT_EQ(0, uev_define("p:uprobes/multi", self->s.path, self->s.regs.offset,
				"x=" UEV_R_ARG1));
	snprintf(expect, sizeof(expect),
		 "p:uprobes/multi %s:0x%016lx x=%s\n"
		 "p:uprobes/multi %s:0x%016lx x=%s\n",
		 self->s.path, self->s.count.offset, UEV_R_ARG1,
		 self->s.path, self->s.regs.offset, UEV_R_ARG1);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", expect)) {
		TH_LOG("uprobe_events:\n%s", self->s.buf);
	}
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/multi/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_cmd(&p, 'a', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/multi/enable", "0"));
	ASSERT_EQ(3, upng_trace_get("trace", "multi", &self->s.t));
	snprintf(expect, sizeof(expect), "(0x%lx) x=0x0", self->s.count.value);
	ASSERT_STREQ(expect, self->s.t.line[0]);
	snprintf(expect, sizeof(expect), "(0x%lx) x=0x1", self->s.count.value);
	ASSERT_STREQ(expect, self->s.t.line[1]);
	snprintf(expect, sizeof(expect), "(0x%lx) x=0x2a", self->s.regs.value);
	ASSERT_STREQ(expect, self->s.t.line[2]);
	/* Deleting the event removes both probes. */
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:multi"));
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", ""));
}

/* Two events on one address each see every hit; disabling one keeps the other. */
TEST_F(ev, two_events_one_address)
{
	static const int a[] = { 0, 1, 2, 3, 4 }, b[] = { 0, 1, 2 };
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/ea", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_define("p:uprobes/eb", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ea/enable", "1"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/eb/enable", "1"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 3));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/eb/enable", "0"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/ea/enable", "0"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_TRUE(uev_trace_ns(&self->s, "ea", a, 5));
	ASSERT_TRUE(uev_trace_ns(&self->s, "eb", b, 3));
}

TEST_F(ev, trigger_traceoff)
{
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/trigger", "traceoff:1"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_TRUE(file_is(&self->s, "tracing_on", "1\n"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_TRUE(file_is(&self->s, "tracing_on", "0\n"));
	ASSERT_EQ(0, upng_tracefs_write("tracing_on", "1"));
	/* The count is used up: the next hit leaves tracing on. */
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_TRUE(file_is(&self->s, "tracing_on", "1\n"));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_LT(0, upng_tracefs_read_len("events/uprobes/cnt/trigger",
					   self->s.buf, sizeof(self->s.buf)));
	ASSERT_EQ(0, strncmp(self->s.buf, "traceoff:count=0", 16)) {
		TH_LOG("trigger: %s", self->s.buf);
	}
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/trigger", "!traceoff"));
}

/* A histogram keyed on a fetch argument counts the hits per value. */
TEST_F(ev, hist_trigger)
{
	static const unsigned long want[] = { 1, 1, 1, 1, 1 };
	unsigned long key, hits, seen[5] = { 0 };
	struct uev_proc p;
	char *line, *save;
	int total = 0;

	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset,
				"n=" UEV_R_ARG1 ":u64"));
	if (access(UPNG_TRACEFS "/events/uprobes/cnt/hist", R_OK))
		SKIP(return, "no hist triggers (CONFIG_HIST_TRIGGERS)");
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/trigger", "hist:keys=n"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 5));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/enable", "0"));
	ASSERT_LT(0, upng_tracefs_read_len("events/uprobes/cnt/hist",
					   self->s.buf, sizeof(self->s.buf)));
	for (line = strtok_r(self->s.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "{ n: %lu } hitcount: %lu", &key, &hits) != 2)
			continue;
		ASSERT_GT(5UL, key);
		seen[key] = hits;
		total += hits;
	}
	ASSERT_EQ(5, total);
	ASSERT_EQ(0, memcmp(want, seen, sizeof(want)));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/cnt/trigger", "!hist:keys=n"));
}

/* An event enabled in a tracing instance records there only. */
TEST_F(ev, instance)
{
	static const int ns[] = { 1, 2 };
	struct uev_proc p;

	rmdir(UPNG_TRACEFS "/instances/uevtest");
	ASSERT_EQ(0, mkdir(UPNG_TRACEFS "/instances/uevtest", 0755));
	ASSERT_EQ(0, uev_define("p:uprobes/cnt", self->s.path, self->s.count.offset, UEV_ARG_N));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, upng_tracefs_write("instances/uevtest/events/uprobes/cnt/enable", "1"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	/* Enabled in an instance: busy too. */
	ASSERT_EQ(-EBUSY, upng_tracefs_write("uprobe_events", "-:cnt"));
	ASSERT_EQ(0, upng_tracefs_write("instances/uevtest/events/uprobes/cnt/enable", "0"));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 1));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_TRUE(upng_trace_ns(&self->s.t, "instances/uevtest/trace", "cnt",
				  self->s.count.value, ns, 2));
	ASSERT_EQ(0, upng_trace_get("trace", "cnt", &self->s.t));
	ASSERT_EQ(0, rmdir(UPNG_TRACEFS "/instances/uevtest"));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:cnt"));
}

/* Several definitions, a comment and blank lines in one write. */
TEST_F(ev, multiline_write)
{
	char def[2048];

	snprintf(def, sizeof(def),
		 "p:uprobes/m1 %s:0x%lx\n# a comment\n\np:uprobes/m2 %s:0x%lx n=%s # trailing\n"
		 "-:m1\np:uprobes/m3 %s:0x%lx\n",
		 self->s.path, self->s.count.offset, self->s.path, self->s.count.offset,
		 UEV_R_ARG1, self->s.path, self->s.regs.offset);
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", def));
	ASSERT_FALSE(upng_event_exists("uprobes", "m1"));
	ASSERT_TRUE(upng_event_exists("uprobes", "m2"));
	ASSERT_TRUE(upng_event_exists("uprobes", "m3"));
	snprintf(def, sizeof(def), "p:uprobes/m2 %s:0x%016lx n=%s\np:uprobes/m3 %s:0x%016lx\n",
		 self->s.path, self->s.count.offset, UEV_R_ARG1, self->s.path,
		 self->s.regs.offset);
	ASSERT_TRUE(file_is(&self->s, "uprobe_events", def)) {
		TH_LOG("uprobe_events:\n%s", self->s.buf);
	}
	/* A bad line stops the write: what came before it stays. */
	snprintf(def, sizeof(def),
		 "p:uprobes/m4 %s:0x%lx\np:uprobes/m5 %s:0x%lx %%bad\np:uprobes/m6 %s:0x%lx\n",
		 self->s.path, self->s.count.offset, self->s.path, self->s.count.offset,
		 self->s.path, self->s.count.offset);
	ASSERT_EQ(-EINVAL, upng_tracefs_write("uprobe_events", def));
	ASSERT_TRUE(upng_event_exists("uprobes", "m4"));
	ASSERT_FALSE(upng_event_exists("uprobes", "m5"));
	ASSERT_FALSE(upng_event_exists("uprobes", "m6"));
}

TEST_HARNESS_MAIN
