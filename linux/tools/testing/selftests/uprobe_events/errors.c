// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events error handling: malformed definitions are refused with the
 * right errno and an error_log entry whose caret points at the offending
 * text; file, offset, instruction and name problems; deleting an enabled
 * event; probes defined by an unprivileged user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uev_lib.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, leaks out of 6.12 uprobes */
#endif

#define LONG40	"abcdefghijabcdefghijabcdefghijabcdefghij"
#define LONG70	LONG40 "abcdefghijabcdefghijabcdefghij"

FIXTURE(bad) {
	char path[256];
	struct uev_sym regs;
	char buf[16384];
};

/*
 * A definition written to uprobe_events ({T}: the target, {O}: a valid
 * offset in it; '^' marks where error_log's caret must point and is not
 * written), the errno of the write, and the error_log text, NULL when the
 * definition is refused before the parser logs anything.
 */
FIXTURE_VARIANT(bad) {
	const char *def;
	int err;
	const char *msg;
};

#define BAD(name, d, e, m)			\
	FIXTURE_VARIANT_ADD(bad, name) {	\
		.def = d, .err = e, .msg = m,	\
	}

/* Refused before any logging: not recognised as a uprobe at all. */
BAD(no_path_offset, "p", EINVAL, NULL);
BAD(no_offset, "p {T}", EINVAL, NULL);
BAD(offset_not_number, "p {T}:abc", EINVAL, NULL);
BAD(relative_path, "p uev_target:0x10", EINVAL, NULL);
BAD(unknown_kind, "x {T}:{O}", EINVAL, NULL);
/* The file and the address. */
BAD(file_not_found, "p ^/nonexistent/file:0x10", ENOENT,
    "Failed to find the given file");
BAD(file_is_dir, "p ^/sys:0x10", EINVAL, "Not a regular file");
BAD(bad_offset, "p {T}:^10a", EINVAL, "Invalid uprobe offset");
BAD(bad_refcnt, "p {T}:10(^1a)", EINVAL, "Invalid reference counter offset");
BAD(refcnt_open, "p {T}:10(10^", EINVAL, "Reference counter brace is not closed");
BAD(refcnt_suffix, "p {T}:10(10)^a", EINVAL, "Reference counter has wrong suffix");
BAD(refcnt_return, "p {T}:10(10)^%return", EINVAL,
    "Reference counter has wrong suffix");
BAD(addr_suffix, "p {T}:10^%hoge", EINVAL, "Invalid probed address suffix");
/* Group and event names. */
BAD(no_group, "p:^/ev {T}:{O}", EINVAL, "Group name is not specified");
BAD(no_event, "p:^ {T}:{O}", EINVAL, "Event name is not specified");
BAD(bad_group, "p:^1grp/ev {T}:{O}", EINVAL,
    "Group name must follow the same rules as C identifiers");
BAD(bad_event, "p:grp/^ev-1 {T}:{O}", EINVAL,
    "Event name must follow the same rules as C identifiers");
BAD(bad_event_dot, "p:grp/^e.v {T}:{O}", EINVAL,
    "Event name must follow the same rules as C identifiers");
BAD(group_too_long, "p:^" LONG70 "/ev {T}:{O}", EINVAL, "Group name is too long");
BAD(event_too_long, "p:grp/^" LONG70 " {T}:{O}", EINVAL, "Event name is too long");
/* Fetch arguments. */
BAD(retval_on_probe, "p {T}:{O} ^$retval", EINVAL,
    "$retval is not available on probe");
BAD(bad_var, "p {T}:{O} ^$foo", EINVAL, "Invalid $-variable specified");
BAD(bad_stack, "p {T}:{O} ^$stackx", EINVAL, "Invalid $-variable specified");
BAD(arg_not_entry, "p {T}:{O} ^$arg1", EINVAL,
    "$arg* can be used only on function entry or exit");
BAD(bad_reg, "p {T}:{O} ^%nosuch", EINVAL, "Invalid register name");
BAD(bad_mem, "p {T}:{O} ^@0xzz", EINVAL, "Invalid memory address");
BAD(bad_file_offs, "p {T}:{O} ^@+ab", EINVAL, "Invalid file offset value");
BAD(symbol, "p {T}:{O} ^@symbol", EINVAL, "Symbol is not available with uprobe");
BAD(bad_imm, "p {T}:{O} \\^abc", EINVAL, "Invalid immediate value");
BAD(imm_str_open, "p {T}:{O} \\\"abc^", EINVAL, "String is not closed with '\"'");
BAD(deref_brace, "p {T}:{O} ^+0%ax", EINVAL, "Dereference needs a brace");
BAD(deref_offs, "p {T}:{O} ^+zz(%ax)", EINVAL, "Invalid dereference offset");
BAD(deref_open, "p {T}:{O} +0(%ax^", EINVAL, "Dereference brace is not closed");
BAD(deref_comm, "p {T}:{O} +0(^$comm)", EINVAL, "$comm can not be dereferenced");
BAD(deref_bad_reg, "p {T}:{O} +8(^%foo)", EINVAL, "Invalid register name");
BAD(btf_arg, "p {T}:{O} ^foo", EINVAL, "BTF is not available or not supported");
BAD(bad_fetch_arg, "p {T}:{O} ^*x", EINVAL, "Invalid fetch argument");
BAD(array_open, "p {T}:{O} %ax:u8[3^", EINVAL, "Array is not closed");
BAD(array_suffix, "p {T}:{O} %ax:u8[3]^x", EINVAL, "Array has wrong suffix");
BAD(array_zero, "p {T}:{O} %ax:u8[^0]", EINVAL, "Invalid array size");
BAD(array_too_big, "p {T}:{O} %ax:u8[^65]", EINVAL, "Array number is too big");
BAD(bad_type, "p {T}:{O} %ax:^u9", EINVAL, "Unknown type is specified");
BAD(type_symbol, "p {T}:{O} $stack0:^symbol", EINVAL, "Unknown type is specified");
BAD(type_symstr, "p {T}:{O} $stack0:^symstr", EINVAL, "Unknown type is specified");
BAD(string_of_reg, "p {T}:{O} %ax:^string", EINVAL,
    "String accepts only memory argument");
BAD(comm_not_string, "p {T}:{O} $comm:^u32", EINVAL,
    "$comm and immediate-string only accepts string type");
BAD(bitfield_too_wide, "p {T}:{O} %ax:^b65@0/64", EINVAL, "Invalid bitfield");
BAD(bitfield_overflow, "p {T}:{O} %cx:^b4@6/8", EINVAL, "Invalid bitfield");
BAD(bitfield_zero, "p {T}:{O} %ax:^b0@0/8", EINVAL, "Invalid bitfield");
BAD(bitfield_no_offs, "p {T}:{O} %ax:^b2@/8", EINVAL, "Invalid bitfield");
BAD(no_arg_name, "p {T}:{O} ^=%ax", EINVAL, "Argument name is not specified");
BAD(bad_arg_name, "p {T}:{O} ^1a=%ax", EINVAL,
    "Argument name must follow the same rules as C identifiers");
BAD(arg_name_too_long, "p {T}:{O} ^" LONG40 "=%ax", EINVAL,
    "Argument name is too long");
BAD(used_arg_name, "p {T}:{O} a=%ax ^a=%bx", EINVAL,
    "This argument name is already used");
BAD(reserved_arg_name, "p {T}:{O} ^common_pid=%ax", EINVAL,
    "This argument name is already used");
/* 63 characters: the longest accepted argument, but 17 fetch steps. */
BAD(too_many_ops, "p {T}:{O} +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%ax)))))))))))))))",
    EINVAL, "Dereference is too much nested");
BAD(arg_too_long, "p {T}:{O} a=^+" LONG70 "(%ax)", E2BIG,
    "Argument expression is too long");
BAD(no_arg_body, "p {T}:{O} a=^", EINVAL, "No argument expression");

FIXTURE_SETUP(bad)
{
	if (geteuid())
		SKIP(return, "must be run as root");
	if (access(UEV_TRACEFS "/uprobe_events", W_OK))
		SKIP(return, "no " UEV_TRACEFS "/uprobe_events");
	snprintf(self->path, sizeof(self->path), "%s",
		 uev_path("bin", UEV_TARGET));
	ASSERT_EQ(0, uev_target_sym("uev_regs_probe", &self->regs));
	ASSERT_EQ(0, uev_reset());
}

FIXTURE_TEARDOWN(bad)
{
	uev_reset();
}

/* Expand {T} and {O} and cut out the caret; returns its position or -1. */
static int expand(FIXTURE_DATA(bad) *self, const char *in, char *out,
		  size_t size)
{
	size_t len = 0;
	int caret = -1;

	while (*in && len + 1 < size) {
		if (!strncmp(in, "{T}", 3)) {
			len += snprintf(out + len, size - len, "%s", self->path);
			in += 3;
		} else if (!strncmp(in, "{O}", 3)) {
			len += snprintf(out + len, size - len, "0x%lx",
					self->regs.foff);
			in += 3;
		} else if (*in == '^') {
			caret = len;
			in++;
		} else {
			out[len++] = *in++;
		}
	}
	out[len] = '\0';
	return caret;
}

TEST_F(bad, refused)
{
	char def[1024], msg[256], cmd[1024];
	int caret, pos;

	caret = expand(self, variant->def, def, sizeof(def));
	ASSERT_EQ(-variant->err, uev_write("uprobe_events", def)) {
		TH_LOG("'%s'", def);
	}
	/* Nothing was created. */
	ASSERT_LE(0, uev_read("uprobe_events", self->buf, sizeof(self->buf)));
	ASSERT_STREQ("", self->buf);
	pos = uev_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd));
	if (!variant->msg) {
		ASSERT_EQ(-ENOENT, pos) {
			TH_LOG("unexpected error_log entry: %s", msg);
		}
		return;
	}
	ASSERT_LE(0, pos) {
		TH_LOG("no error_log entry for '%s'", def);
	}
	ASSERT_STREQ(variant->msg, msg);
	ASSERT_STREQ(def, cmd);
	ASSERT_EQ(caret, pos) {
		TH_LOG("'%s': caret at %d, expected %d", def, pos, caret);
	}
	/* The same through dynamic_events. */
	ASSERT_EQ(0, uev_write_trunc("error_log", ""));
	ASSERT_EQ(-variant->err, uev_write("dynamic_events", def));
	pos = uev_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd));
	ASSERT_EQ(caret, pos);
	ASSERT_STREQ(variant->msg, msg);
	ASSERT_LE(0, uev_read("dynamic_events", self->buf, sizeof(self->buf)));
	ASSERT_STREQ("", self->buf);
}

FIXTURE(misc) {
	char path[256];
	struct uev_sym regs, count, int3, iret;
	char buf[16384];
	char msg[256];
	char cmd[1024];
};

FIXTURE_SETUP(misc)
{
	if (geteuid())
		SKIP(return, "must be run as root");
	if (access(UEV_TRACEFS "/uprobe_events", W_OK))
		SKIP(return, "no " UEV_TRACEFS "/uprobe_events");
	snprintf(self->path, sizeof(self->path), "%s",
		 uev_path("bin", UEV_TARGET));
	ASSERT_EQ(0, uev_target_sym("uev_regs_probe", &self->regs));
	ASSERT_EQ(0, uev_target_sym("uev_count_func", &self->count));
	ASSERT_EQ(0, uev_target_sym("uev_bad_int3", &self->int3));
	ASSERT_EQ(0, uev_target_sym("uev_bad_iret", &self->iret));
	ASSERT_EQ(0, uev_reset());
}

FIXTURE_TEARDOWN(misc)
{
	uev_reset();
}

/*
 * A probe that cannot work must be refused when it is defined or, at the
 * latest, when it is enabled while the target has the file mapped; the
 * target must not notice.
 */
static int define_and_enable(FIXTURE_DATA(misc) *self, unsigned long off,
			     struct uev_proc *p)
{
	int err;

	err = uev_writef("uprobe_events", "p:uprobes/np %s:0x%lx", self->path, off);
	if (err)
		return err;
	err = uev_write("events/uprobes/np/enable", "1");
	if (!err)
		return 0;
	if (uev_read("events/uprobes/np/enable", self->buf, sizeof(self->buf)) < 0 ||
	    strcmp(self->buf, "0\n"))
		return -EBADE;
	/* The target still runs its probed code without a hit. */
	if (uev_cmd(p, 'a', 1) || uev_trace_get("np", &(struct uev_trace){ 0 }) != 0)
		return -EBADE;
	return err;
}

TEST_F(misc, offset_past_eof)
{
	struct uev_proc p;
	struct stat st;
	int err;

	ASSERT_EQ(0, stat(self->path, &st));
	ASSERT_EQ(0, uev_spawn(&p, self->path));
	err = define_and_enable(self, st.st_size + 0x1000, &p);
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(-EINVAL, err);
}

TEST_F(misc, unprobeable_int3)
{
	struct uev_proc p;
	int err;

	ASSERT_EQ(0, uev_spawn(&p, self->path));
	err = define_and_enable(self, self->int3.foff, &p);
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP) {
		TH_LOG("int3: %d (%s)", err, strerror(-err));
	}
}

TEST_F(misc, unprobeable_iret)
{
	struct uev_proc p;
	int err;

	ASSERT_EQ(0, uev_spawn(&p, self->path));
	err = define_and_enable(self, self->iret.foff, &p);
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP) {
		TH_LOG("iret: %d (%s)", err, strerror(-err));
	}
}

/* Refused with EEXIST, logged at the caret @caret of the definition. */
static int dup_refused(FIXTURE_DATA(misc) *self, const char *def,
		       const char *msg, int caret)
{
	int pos;

	if (uev_write_trunc("error_log", ""))
		return -EIO;
	if (uev_write("uprobe_events", def) != -EEXIST)
		return -EBADE;
	pos = uev_errlog_last(self->msg, sizeof(self->msg), self->cmd,
			      sizeof(self->cmd));
	if (pos != caret || strcmp(self->msg, msg) || strcmp(self->cmd, def))
		return -EBADMSG;
	return 0;
}

TEST_F(misc, duplicate_name)
{
	char def[1024], expect[2048];
	int caret;

	snprintf(def, sizeof(def), "p:uprobes/dup %s:0x%lx a=%%ax", self->path,
		 self->regs.foff);
	ASSERT_EQ(0, uev_write("uprobe_events", def));
	/* The very same probe again. */
	ASSERT_EQ(0, dup_refused(self, def,
				 "There is already the exact same probe event", 0)) {
		TH_LOG("got '%s' for '%s'", self->msg, self->cmd);
	}
	/* Same name, other arguments: the caret is on the differing one. */
	snprintf(def, sizeof(def), "p:uprobes/dup %s:0x%lx b=%%ax", self->path,
		 self->count.foff);
	caret = strchr(def, ' ') - def + 1;
	caret = strchr(def + caret, ' ') - def + 1;
	ASSERT_EQ(0, dup_refused(self, def,
				 "Argument type or name is different from existing probe",
				 caret)) {
		TH_LOG("got '%s' for '%s'", self->msg, self->cmd);
	}
	/* Same name, a return probe. */
	snprintf(def, sizeof(def), "r:uprobes/dup %s:0x%lx a=%%ax", self->path,
		 self->count.foff);
	ASSERT_EQ(0, dup_refused(self, def, "Probe type is different from existing probe",
				 0)) {
		TH_LOG("got '%s' for '%s'", self->msg, self->cmd);
	}
	/* Nothing but the first definition is left. */
	snprintf(expect, sizeof(expect), "p:uprobes/dup %s:0x%016lx a=%%ax\n",
		 self->path, self->regs.foff);
	ASSERT_LT(0, uev_read("uprobe_events", self->buf, sizeof(self->buf)));
	ASSERT_STREQ(expect, self->buf);
}

/* The name of an event of another kind (a kprobe event) is taken. */
TEST_F(misc, name_of_other_event)
{
	char def[1024];

	if (access(UEV_TRACEFS "/kprobe_events", W_OK))
		SKIP(return, "no kprobe_events");
	ASSERT_EQ(0, uev_write("kprobe_events", "p:uevtest/kp vfs_read"));
	snprintf(def, sizeof(def), "p:uevtest/kp %s:0x%lx", self->path,
		 self->regs.foff);
	ASSERT_EQ(0, dup_refused(self, def,
				 "Given group/event name is already used by another event",
				 0)) {
		TH_LOG("got '%s' for '%s'", self->msg, self->cmd);
	}
	ASSERT_EQ(0, uev_write_trunc("kprobe_events", ""));
	ASSERT_LE(0, uev_read("uprobe_events", self->buf, sizeof(self->buf)));
	ASSERT_STREQ("", self->buf);
}

TEST_F(misc, delete_enabled_is_busy)
{
	struct uev_proc p;

	ASSERT_EQ(0, uev_writef("uprobe_events", "p:uprobes/busy %s:0x%lx",
				self->path, self->count.foff));
	ASSERT_EQ(0, uev_write("events/uprobes/busy/enable", "1"));
	ASSERT_EQ(-EBUSY, uev_write("uprobe_events", "-:busy"));
	ASSERT_EQ(-EBUSY, uev_write("dynamic_events", "-:uprobes/busy"));
	ASSERT_EQ(-EBUSY, uev_write_trunc("uprobe_events", ""));
	ASSERT_EQ(-EBUSY, uev_write_trunc("dynamic_events", ""));
	/* Still there and still working. */
	ASSERT_TRUE(uev_has_event("uprobes", "busy"));
	ASSERT_EQ(0, uev_spawn(&p, self->path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(2, uev_trace_get("busy", &(struct uev_trace){ 0 }));
	ASSERT_EQ(0, uev_write("events/uprobes/busy/enable", "0"));
	ASSERT_EQ(0, uev_write("uprobe_events", "-:busy"));
	ASSERT_FALSE(uev_has_event("uprobes", "busy"));
}

/* Any of several events still enabled makes truncation fail as a whole. */
TEST_F(misc, truncate_with_one_enabled)
{
	ASSERT_EQ(0, uev_writef("uprobe_events", "p:uprobes/e1 %s:0x%lx",
				self->path, self->count.foff));
	ASSERT_EQ(0, uev_writef("uprobe_events", "p:uprobes/e2 %s:0x%lx",
				self->path, self->regs.foff));
	ASSERT_EQ(0, uev_write("events/uprobes/e2/enable", "1"));
	ASSERT_EQ(-EBUSY, uev_write_trunc("uprobe_events", ""));
	ASSERT_TRUE(uev_has_event("uprobes", "e2"));
	ASSERT_EQ(0, uev_write("events/uprobes/e2/enable", "0"));
	ASSERT_EQ(0, uev_write_trunc("uprobe_events", ""));
	ASSERT_FALSE(uev_has_event("uprobes", "e1"));
	ASSERT_FALSE(uev_has_event("uprobes", "e2"));
}

TEST_F(misc, ref_ctr_mismatch)
{
	ASSERT_EQ(0, uev_writef("uprobe_events", "p:uprobes/rc1 %s:0x%lx(0x10)",
				self->path, self->count.foff));
	ASSERT_EQ(-EINVAL, uev_writef("uprobe_events", "p:uprobes/rc2 %s:0x%lx(0x20)",
				      self->path, self->count.foff));
	ASSERT_FALSE(uev_has_event("uprobes", "rc2"));
	/* The same reference counter is fine. */
	ASSERT_EQ(0, uev_writef("uprobe_events", "p:uprobes/rc3 %s:0x%lx(0x10)",
				self->path, self->count.foff));
}

TEST_F(misc, too_many_args)
{
	char def[4096];
	int len, i;

	len = snprintf(def, sizeof(def), "p:uprobes/many %s:0x%lx", self->path,
		       self->count.foff);
	for (i = 0; i < 128; i++)
		len += snprintf(def + len, sizeof(def) - len, " %%di");
	ASSERT_EQ(0, uev_write("uprobe_events", def));
	ASSERT_EQ(0, uev_write("uprobe_events", "-:many"));
	snprintf(def + len, sizeof(def) - len, " %%si");
	ASSERT_EQ(-E2BIG, uev_write("uprobe_events", def));
	ASSERT_FALSE(uev_has_event("uprobes", "many"));
}

/* Only root may define probes. */
TEST_F(misc, nonroot_refused)
{
	static const char * const files[] = { "uprobe_events", "dynamic_events" };
	int status, i;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		for (i = 0; i < 2; i++) {
			int err = uev_writef(files[i], "p:uprobes/nobody %s:0x%lx",
					     self->path, self->count.foff);

			if (err != -EACCES && err != -EPERM)
				_exit(20 + i);
			err = uev_write_trunc(files[i], "");
			if (err != -EACCES && err != -EPERM)
				_exit(30 + i);
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_FALSE(uev_has_event("uprobes", "nobody"));
}

TEST_HARNESS_MAIN
