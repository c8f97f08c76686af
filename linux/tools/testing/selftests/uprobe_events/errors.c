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
#include "../uprobes/upng.h"
#include "uev_lib.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, leaks out of 6.12 uprobes */
#endif

#define LONG40	"abcdefghijabcdefghijabcdefghijabcdefghij"
#define LONG70	LONG40 "abcdefghijabcdefghijabcdefghij"

FIXTURE(bad) {
	struct uev_state s;
};

/*
 * A definition written to uprobe_events ({T}: the target, {O}: a valid
 * offset in it, %{WIDE} ...: a register of the target, see uev_lib.h; '^'
 * marks where error_log's caret must point and is not written), the
 * errno of the write (EINVAL when 0), and the error_log text, NULL when
 * the definition is refused before the parser logs anything.
 */
FIXTURE_VARIANT(bad) {
	const char *def;
	int err;
	const char *msg;
};

/* Refused before any logging: not recognised as a uprobe at all. */
FIXTURE_VARIANT_ADD(bad, no_path_offset) {
	.def = "p",
};

FIXTURE_VARIANT_ADD(bad, no_offset) {
	.def = "p {T}",
};

FIXTURE_VARIANT_ADD(bad, offset_not_number) {
	.def = "p {T}:abc",
};

FIXTURE_VARIANT_ADD(bad, relative_path) {
	.def = "p uev_target:0x10",
};

FIXTURE_VARIANT_ADD(bad, unknown_kind) {
	.def = "x {T}:{O}",
};

/* The file and the address. */
FIXTURE_VARIANT_ADD(bad, file_not_found) {
	.def = "p ^/nonexistent/file:0x10",
	.err = ENOENT,
	.msg = "Failed to find the given file",
};

FIXTURE_VARIANT_ADD(bad, file_is_dir) {
	.def = "p ^/sys:0x10",
	.msg = "Not a regular file",
};

FIXTURE_VARIANT_ADD(bad, bad_offset) {
	.def = "p {T}:^10a",
	.msg = "Invalid uprobe offset",
};

FIXTURE_VARIANT_ADD(bad, bad_refcnt) {
	.def = "p {T}:10(^1a)",
	.msg = "Invalid reference counter offset",
};

FIXTURE_VARIANT_ADD(bad, refcnt_open) {
	.def = "p {T}:10(10^",
	.msg = "Reference counter brace is not closed",
};

FIXTURE_VARIANT_ADD(bad, refcnt_suffix) {
	.def = "p {T}:10(10)^a",
	.msg = "Reference counter has wrong suffix",
};

FIXTURE_VARIANT_ADD(bad, refcnt_return) {
	.def = "p {T}:10(10)^%return",
	.msg = "Reference counter has wrong suffix",
};

FIXTURE_VARIANT_ADD(bad, addr_suffix) {
	.def = "p {T}:10^%hoge",
	.msg = "Invalid probed address suffix",
};

/* Group and event names. */
FIXTURE_VARIANT_ADD(bad, no_group) {
	.def = "p:^/ev {T}:{O}",
	.msg = "Group name is not specified",
};

FIXTURE_VARIANT_ADD(bad, no_event) {
	.def = "p:^ {T}:{O}",
	.msg = "Event name is not specified",
};

FIXTURE_VARIANT_ADD(bad, bad_group) {
	.def = "p:^1grp/ev {T}:{O}",
	.msg = "Group name must follow the same rules as C identifiers",
};

FIXTURE_VARIANT_ADD(bad, bad_event) {
	.def = "p:grp/^ev-1 {T}:{O}",
	.msg = "Event name must follow the same rules as C identifiers",
};

FIXTURE_VARIANT_ADD(bad, bad_event_dot) {
	.def = "p:grp/^e.v {T}:{O}",
	.msg = "Event name must follow the same rules as C identifiers",
};

FIXTURE_VARIANT_ADD(bad, group_too_long) {
	.def = "p:^" LONG70 "/ev {T}:{O}",
	.msg = "Group name is too long",
};

FIXTURE_VARIANT_ADD(bad, event_too_long) {
	.def = "p:grp/^" LONG70 " {T}:{O}",
	.msg = "Event name is too long",
};

/* Fetch arguments. */
FIXTURE_VARIANT_ADD(bad, retval_on_probe) {
	.def = "p {T}:{O} ^$retval",
	.msg = "$retval is not available on probe",
};

FIXTURE_VARIANT_ADD(bad, bad_var) {
	.def = "p {T}:{O} ^$foo",
	.msg = "Invalid $-variable specified",
};

FIXTURE_VARIANT_ADD(bad, bad_stack) {
	.def = "p {T}:{O} ^$stackx",
	.msg = "Invalid $-variable specified",
};

FIXTURE_VARIANT_ADD(bad, arg_not_entry) {
	.def = "p {T}:{O} ^$arg1",
	.msg = "$arg* can be used only on function entry or exit",
};

FIXTURE_VARIANT_ADD(bad, bad_reg) {
	.def = "p {T}:{O} ^%nosuch",
	.msg = "Invalid register name",
};

#if defined(__aarch64__)
/* arm64 knows x0..x30, lr, sp, pc and pstate only. */
FIXTURE_VARIANT_ADD(bad, reg_x86_name) {
	.def = "p {T}:{O} a=%x0 b=^%ax",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_x31) {
	.def = "p {T}:{O} ^%x31",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_w0) {
	.def = "p {T}:{O} ^%w0",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_xzr) {
	.def = "p {T}:{O} ^%xzr",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_upper_case) {
	.def = "p {T}:{O} ^%X0",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_ip) {
	.def = "p {T}:{O} ^%ip",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, deref_x31) {
	.def = "p {T}:{O} +8(^%x31):u32",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, retval_reg_x32) {
	.def = "r {T}:{O} rv=$retval ^%x32",
	.msg = "Invalid register name",
};
#elif defined(__riscv)
/* riscv knows its ABI names and epc, status, badaddr, cause, orig_a0. */
FIXTURE_VARIANT_ADD(bad, reg_x86_name) {
	.def = "p {T}:{O} a=%a0 b=^%ax",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_x5) {
	.def = "p {T}:{O} ^%x5",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_zero) {
	.def = "p {T}:{O} ^%zero",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_upper_case) {
	.def = "p {T}:{O} ^%A0",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_pc) {
	.def = "p {T}:{O} ^%pc",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, deref_a8) {
	.def = "p {T}:{O} +8(^%a8):u32",
	.msg = "Invalid register name",
};
#elif defined(__s390x__)
/* s390 knows r0..r15 only: no sp, no instruction address. */
FIXTURE_VARIANT_ADD(bad, reg_x86_name) {
	.def = "p {T}:{O} a=%r2 b=^%ax",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_r16) {
	.def = "p {T}:{O} ^%r16",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_sp) {
	.def = "p {T}:{O} ^%sp",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, reg_ip) {
	.def = "p {T}:{O} ^%ip",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, deref_r16) {
	.def = "p {T}:{O} +8(^%r16):u32",
	.msg = "Invalid register name",
};
#endif

FIXTURE_VARIANT_ADD(bad, bad_mem) {
	.def = "p {T}:{O} ^@0xzz",
	.msg = "Invalid memory address",
};

FIXTURE_VARIANT_ADD(bad, bad_file_offs) {
	.def = "p {T}:{O} ^@+ab",
	.msg = "Invalid file offset value",
};

FIXTURE_VARIANT_ADD(bad, symbol) {
	.def = "p {T}:{O} ^@symbol",
	.msg = "Symbol is not available with uprobe",
};

FIXTURE_VARIANT_ADD(bad, bad_imm) {
	.def = "p {T}:{O} \\^abc",
	.msg = "Invalid immediate value",
};

FIXTURE_VARIANT_ADD(bad, imm_str_open) {
	.def = "p {T}:{O} \\\"abc^",
	.msg = "String is not closed with '\"'",
};

FIXTURE_VARIANT_ADD(bad, deref_brace) {
	.def = "p {T}:{O} ^+0%{WIDE}",
	.msg = "Dereference needs a brace",
};

FIXTURE_VARIANT_ADD(bad, deref_offs) {
	.def = "p {T}:{O} ^+zz(%{WIDE})",
	.msg = "Invalid dereference offset",
};

FIXTURE_VARIANT_ADD(bad, deref_open) {
	.def = "p {T}:{O} +0(%{WIDE}^",
	.msg = "Dereference brace is not closed",
};

FIXTURE_VARIANT_ADD(bad, deref_comm) {
	.def = "p {T}:{O} +0(^$comm)",
	.msg = "$comm can not be dereferenced",
};

FIXTURE_VARIANT_ADD(bad, deref_bad_reg) {
	.def = "p {T}:{O} +8(^%foo)",
	.msg = "Invalid register name",
};

FIXTURE_VARIANT_ADD(bad, btf_arg) {
	.def = "p {T}:{O} ^foo",
	.msg = "BTF is not available or not supported",
};

FIXTURE_VARIANT_ADD(bad, bad_fetch_arg) {
	.def = "p {T}:{O} ^*x",
	.msg = "Invalid fetch argument",
};

FIXTURE_VARIANT_ADD(bad, array_open) {
	.def = "p {T}:{O} %{WIDE}:u8[3^",
	.msg = "Array is not closed",
};

FIXTURE_VARIANT_ADD(bad, array_suffix) {
	.def = "p {T}:{O} %{WIDE}:u8[3]^x",
	.msg = "Array has wrong suffix",
};

FIXTURE_VARIANT_ADD(bad, array_zero) {
	.def = "p {T}:{O} %{WIDE}:u8[^0]",
	.msg = "Invalid array size",
};

FIXTURE_VARIANT_ADD(bad, array_too_big) {
	.def = "p {T}:{O} %{WIDE}:u8[^65]",
	.msg = "Array number is too big",
};

FIXTURE_VARIANT_ADD(bad, bad_type) {
	.def = "p {T}:{O} %{WIDE}:^u9",
	.msg = "Unknown type is specified",
};

FIXTURE_VARIANT_ADD(bad, type_symbol) {
	.def = "p {T}:{O} $stack0:^symbol",
	.msg = "Unknown type is specified",
};

FIXTURE_VARIANT_ADD(bad, type_symstr) {
	.def = "p {T}:{O} $stack0:^symstr",
	.msg = "Unknown type is specified",
};

FIXTURE_VARIANT_ADD(bad, string_of_reg) {
	.def = "p {T}:{O} %{WIDE}:^string",
	.msg = "String accepts only memory argument",
};

FIXTURE_VARIANT_ADD(bad, comm_not_string) {
	.def = "p {T}:{O} $comm:^u32",
	.msg = "$comm and immediate-string only accepts string type",
};

FIXTURE_VARIANT_ADD(bad, bitfield_too_wide) {
	.def = "p {T}:{O} %{WIDE}:^b65@0/64",
	.msg = "Invalid bitfield",
};

FIXTURE_VARIANT_ADD(bad, bitfield_overflow) {
	.def = "p {T}:{O} %{NEG}:^b4@6/8",
	.msg = "Invalid bitfield",
};

FIXTURE_VARIANT_ADD(bad, bitfield_zero) {
	.def = "p {T}:{O} %{WIDE}:^b0@0/8",
	.msg = "Invalid bitfield",
};

FIXTURE_VARIANT_ADD(bad, bitfield_no_offs) {
	.def = "p {T}:{O} %{WIDE}:^b2@/8",
	.msg = "Invalid bitfield",
};

FIXTURE_VARIANT_ADD(bad, no_arg_name) {
	.def = "p {T}:{O} ^=%{WIDE}",
	.msg = "Argument name is not specified",
};

FIXTURE_VARIANT_ADD(bad, bad_arg_name) {
	.def = "p {T}:{O} ^1a=%{WIDE}",
	.msg = "Argument name must follow the same rules as C identifiers",
};

FIXTURE_VARIANT_ADD(bad, arg_name_too_long) {
	.def = "p {T}:{O} ^" LONG40 "=%{WIDE}",
	.msg = "Argument name is too long",
};

FIXTURE_VARIANT_ADD(bad, used_arg_name) {
	.def = "p {T}:{O} a=%{WIDE} ^a=%{DATA}",
	.msg = "This argument name is already used",
};

FIXTURE_VARIANT_ADD(bad, reserved_arg_name) {
	.def = "p {T}:{O} ^common_pid=%{WIDE}",
	.msg = "This argument name is already used",
};

/* 63 characters: the longest accepted argument, but 17 fetch steps. */
FIXTURE_VARIANT_ADD(bad, too_many_ops) {
	.def = "p {T}:{O} +0(^+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%{WIDE})))))))))))))))",
	.msg = "Dereference is too much nested",
};

FIXTURE_VARIANT_ADD(bad, arg_too_long) {
	.def = "p {T}:{O} a=^+" LONG70 "(%{WIDE})",
	.err = E2BIG,
	.msg = "Argument expression is too long",
};

FIXTURE_VARIANT_ADD(bad, no_arg_body) {
	.def = "p {T}:{O} a=^",
	.msg = "No argument expression",
};

FIXTURE_VARIANT_ADD(bad, filter_kind) {
	.def = "p {T}:{O} if ^uid==1",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_single_eq) {
	.def = "p {T}:{O} a=%{WIDE} if ^pid=1",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_id) {
	.def = "p {T}:{O} if pid==^abc",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_zero) {
	.def = "p {T}:{O} if pid==^0",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_plus) {
	.def = "p {T}:{O} if pid==^+5",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_leading_zero) {
	.def = "p {T}:{O} if ppid==^05",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_negative) {
	.def = "r {T}:{O} if tid==^-5",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_trailing) {
	.def = "p {T}:{O} if sid==^1x",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_missing) {
	.def = "p {T}:{O} a=%{WIDE} ^if",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_VARIANT_ADD(bad, filter_not_last) {
	.def = "p {T}:{O} ^if pid==1 a=%{WIDE}",
	.msg = "Task filter must be pid|tid|ppid|sid==ID",
};

FIXTURE_SETUP(bad)
{
	if (!uev_can_run(_metadata))
		return;
	ASSERT_EQ(0, uev_state_init(&self->s));
}

FIXTURE_TEARDOWN(bad)
{
	upng_tracefs_reset();
}

/* Expand {T}, {O} and registers, cut out the caret; returns its position or -1. */
static int expand(const char *path, unsigned long off, const char *in,
		  char *out, size_t size)
{
	size_t len = 0, n;
	const char *reg;
	int caret = -1;

	while (*in && len + 1 < size) {
		n = uev_reg_token(in, &reg);
		if (n) {
			len += snprintf(out + len, size - len, "%s", reg);
			in += n;
		} else if (!strncmp(in, "{T}", 3)) {
			len += snprintf(out + len, size - len, "%s", path);
			in += 3;
		} else if (!strncmp(in, "{O}", 3)) {
			len += snprintf(out + len, size - len, "0x%lx", off);
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
	int err = variant->err ?: EINVAL;
	int caret, pos;

	caret = expand(self->s.path, self->s.regs.offset, variant->def, def,
		       sizeof(def));
	ASSERT_EQ(-err, upng_tracefs_write("uprobe_events", def)) {
		TH_LOG("'%s'", def);
	}
	/* Nothing was created. */
	ASSERT_LE(0, upng_tracefs_read_len("uprobe_events", self->s.buf, sizeof(self->s.buf)));
	ASSERT_STREQ("", self->s.buf);
	pos = upng_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd));
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
	ASSERT_EQ(0, upng_tracefs_write_trunc("error_log", ""));
	ASSERT_EQ(-err, upng_tracefs_write("dynamic_events", def));
	pos = upng_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd));
	ASSERT_EQ(caret, pos);
	ASSERT_STREQ(variant->msg, msg);
	ASSERT_LE(0, upng_tracefs_read_len("dynamic_events", self->s.buf, sizeof(self->s.buf)));
	ASSERT_STREQ("", self->s.buf);
}

FIXTURE(misc) {
	struct uev_state s;
};

FIXTURE_SETUP(misc)
{
	if (!uev_can_run(_metadata))
		return;
	ASSERT_EQ(0, uev_state_init(&self->s));
}

FIXTURE_TEARDOWN(misc)
{
	if (!access(UPNG_TRACEFS "/kprobe_events", W_OK))
		upng_tracefs_write("kprobe_events", "-:uevtest/kp");
	upng_tracefs_reset();
}

/*
 * A probe that cannot work must be refused when it is defined or, at the
 * latest, when it is enabled while the target has the file mapped; the
 * target must not notice. @created tells which: false when refused at
 * definition.
 */
static int define_and_enable(const char *path, unsigned long off,
			     struct uev_proc *p, bool *created)
{
	static struct upng_trace t;
	char state[8];
	int err;

	*created = false;
	err = uev_define("p:uprobes/np", path, off, NULL);
	if (err)
		return err;
	*created = true;
	err = upng_tracefs_write("events/uprobes/np/enable", "1");
	if (!err)
		return 0;
	if (upng_tracefs_read_len("events/uprobes/np/enable", state, sizeof(state)) < 0 ||
	    strcmp(state, "0\n"))
		return -EBADE;
	/* The target still runs its probed code without a hit. */
	if (uev_cmd(p, 'a', 1) || upng_trace_get("trace", "np", &t) != 0)
		return -EBADE;
	return err;
}

TEST_F(misc, offset_past_eof)
{
	char msg[256], cmd[1024];
	struct uev_proc p;
	struct stat st;
	int err, caret;
	bool created;

	ASSERT_EQ(0, stat(self->s.path, &st));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	err = define_and_enable(self->s.path, st.st_size + 0x1000, &p, &created);
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(-EINVAL, err);
	if (created)
		return;
	/* Refused when defined: logged, with the caret on the offset. */
	caret = strlen("p:uprobes/np ") + strlen(self->s.path) + 1;
	ASSERT_EQ(caret, upng_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd)));
}

#if defined(__x86_64__)
/*
 * An instruction that cannot be probed, at symbol @sym of @path:
 * EOPNOTSUPP with the reason in
 * error_log when the definition is refused, or in the kernel log
 * ("FILE:0xOFF: cannot probe: REASON") when enabling is; 6.12 refuses
 * the enabling with its internal ENOTSUPP and says nothing.
 */
static void unprobeable(struct __test_metadata *_metadata, const char *path,
			const char *sym)
{
	char msg[256], cmd[1024], where[64];
	struct upng_sym insn;
	struct uev_proc p;
	unsigned long off;
	bool created;
	int err;

	ASSERT_EQ(0, upng_elf_sym(path, sym, &insn));
	off = insn.offset;
	ASSERT_EQ(0, uev_spawn(&p, path));
	err = define_and_enable(path, off, &p, &created);
	ASSERT_EQ(0, uev_finish(&p));
	if (!created) {
		ASSERT_EQ(-EOPNOTSUPP, err);
		ASSERT_LE(0, upng_errlog_last(msg, sizeof(msg), cmd, sizeof(cmd)));
		TH_LOG("refused: %s", msg);
		return;
	}
	ASSERT_TRUE(err == -EOPNOTSUPP || err == -ENOTSUPP) {
		TH_LOG("0x%lx: %d (%s)", off, err, strerror(-err));
	}
	snprintf(where, sizeof(where), ":0x%lx: cannot probe: ", off);
	if (err == -EOPNOTSUPP)
		ASSERT_LT(0, upng_kmsg_count(where));
}

TEST_F(misc, unprobeable_int3)
{
	unprobeable(_metadata, self->s.path, "uev_bad_int3");
}

TEST_F(misc, unprobeable_iret)
{
	unprobeable(_metadata, self->s.path, "uev_bad_iret");
}
#endif

/* @def is refused with EEXIST, logged with the text @want at the caret @caret. */
static void dup_refused(struct __test_metadata *_metadata, const char *def,
			const char *want, int caret)
{
	char got[256], cmd[1024];
	int pos;

	ASSERT_EQ(0, upng_tracefs_write_trunc("error_log", ""));
	ASSERT_EQ(-EEXIST, upng_tracefs_write("uprobe_events", def)) {
		TH_LOG("'%s'", def);
	}
	pos = upng_errlog_last(got, sizeof(got), cmd, sizeof(cmd));
	ASSERT_TRUE(pos == caret && !strcmp(got, want) && !strcmp(cmd, def)) {
		TH_LOG("got '%s' at %d for '%s'", pos >= 0 ? got : "-", pos, def);
	}
}

TEST_F(misc, duplicate_name)
{
	char def[1024], expect[2048];
	int caret;

	snprintf(def, sizeof(def), "p:uprobes/dup %s:0x%lx a=%s", self->s.path,
		 self->s.regs.offset, UEV_R_WIDE);
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", def));
	/* The very same probe again. */
	dup_refused(_metadata, def, "There is already the exact same probe event", 0);
	/* Same name, other arguments: the caret is on the differing one. */
	snprintf(def, sizeof(def), "p:uprobes/dup %s:0x%lx b=%s", self->s.path,
		 self->s.count.offset, UEV_R_WIDE);
	caret = strchr(def, ' ') - def + 1;
	caret = strchr(def + caret, ' ') - def + 1;
	dup_refused(_metadata, def, "Argument type or name is different from existing probe",
		    caret);
	/* Same name, a return probe. */
	snprintf(def, sizeof(def), "r:uprobes/dup %s:0x%lx a=%s", self->s.path,
		 self->s.count.offset, UEV_R_WIDE);
	dup_refused(_metadata, def, "Probe type is different from existing probe", 0);
	/* Nothing but the first definition is left. */
	snprintf(expect, sizeof(expect), "p:uprobes/dup %s:0x%016lx a=%s\n",
		 self->s.path, self->s.regs.offset, UEV_R_WIDE);
	ASSERT_LT(0, upng_tracefs_read_len("uprobe_events", self->s.buf, sizeof(self->s.buf)));
	ASSERT_STREQ(expect, self->s.buf);
}

/* The name of an event of another kind (a kprobe event) is taken. */
TEST_F(misc, name_of_other_event)
{
	char def[1024];

	if (access(UPNG_TRACEFS "/kprobe_events", W_OK))
		SKIP(return, "no kprobe_events");
	ASSERT_EQ(0, upng_tracefs_write("kprobe_events", "p:uevtest/kp vfs_read"));
	snprintf(def, sizeof(def), "p:uevtest/kp %s:0x%lx", self->s.path,
		 self->s.regs.offset);
	dup_refused(_metadata, def, "Given group/event name is already used by another event", 0);
	ASSERT_EQ(0, upng_tracefs_write_trunc("kprobe_events", ""));
	ASSERT_LE(0, upng_tracefs_read_len("uprobe_events", self->s.buf, sizeof(self->s.buf)));
	ASSERT_STREQ("", self->s.buf);
}

TEST_F(misc, delete_enabled_is_busy)
{
	struct uev_proc p;

	ASSERT_EQ(0, uev_define("p:uprobes/busy", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/busy/enable", "1"));
	ASSERT_EQ(-EBUSY, upng_tracefs_write("uprobe_events", "-:busy"));
	ASSERT_EQ(-EBUSY, upng_tracefs_write("dynamic_events", "-:uprobes/busy"));
	ASSERT_EQ(-EBUSY, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_EQ(-EBUSY, upng_tracefs_write_trunc("dynamic_events", ""));
	/* Still there and still working. */
	ASSERT_TRUE(upng_event_exists("uprobes", "busy"));
	ASSERT_EQ(0, uev_spawn(&p, self->s.path));
	ASSERT_EQ(0, uev_cmd(&p, 'c', 2));
	ASSERT_EQ(0, uev_finish(&p));
	ASSERT_EQ(2, upng_trace_get("trace", "busy", &(struct upng_trace){ 0 }));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/busy/enable", "0"));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:busy"));
	ASSERT_FALSE(upng_event_exists("uprobes", "busy"));
}

/* Any of several events still enabled makes truncation fail as a whole. */
TEST_F(misc, truncate_with_one_enabled)
{
	ASSERT_EQ(0, uev_define("p:uprobes/e1", self->s.path, self->s.count.offset, NULL));
	ASSERT_EQ(0, uev_define("p:uprobes/e2", self->s.path, self->s.regs.offset, NULL));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/e2/enable", "1"));
	ASSERT_EQ(-EBUSY, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_TRUE(upng_event_exists("uprobes", "e2"));
	ASSERT_EQ(0, upng_tracefs_write("events/uprobes/e2/enable", "0"));
	ASSERT_EQ(0, upng_tracefs_write_trunc("uprobe_events", ""));
	ASSERT_FALSE(upng_event_exists("uprobes", "e1"));
	ASSERT_FALSE(upng_event_exists("uprobes", "e2"));
}

TEST_F(misc, ref_ctr_mismatch)
{
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/rc1 %s:0x%lx(0x10)",
					 self->s.path, self->s.count.offset));
	ASSERT_EQ(-EINVAL, upng_tracefs_writef("uprobe_events", "p:uprobes/rc2 %s:0x%lx(0x20)",
					       self->s.path, self->s.count.offset));
	ASSERT_FALSE(upng_event_exists("uprobes", "rc2"));
	/* The same reference counter is fine. */
	ASSERT_EQ(0, upng_tracefs_writef("uprobe_events", "p:uprobes/rc3 %s:0x%lx(0x10)",
					 self->s.path, self->s.count.offset));
}

TEST_F(misc, too_many_args)
{
	char def[4096];
	int len, i;

	len = snprintf(def, sizeof(def), "p:uprobes/many %s:0x%lx", self->s.path,
		       self->s.count.offset);
	for (i = 0; i < 128; i++)
		len += snprintf(def + len, sizeof(def) - len, " %s", UEV_R_ARG1);
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", def));
	ASSERT_EQ(0, upng_tracefs_write("uprobe_events", "-:many"));
	snprintf(def + len, sizeof(def) - len, " %s", UEV_R_STR);
	ASSERT_EQ(-E2BIG, upng_tracefs_write("uprobe_events", def));
	ASSERT_FALSE(upng_event_exists("uprobes", "many"));
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
			int err = upng_tracefs_writef(files[i], "p:uprobes/nobody %s:0x%lx",
						      self->s.path, self->s.count.offset);

			if (err != -EACCES && err != -EPERM)
				_exit(20 + i);
			err = upng_tracefs_write_trunc(files[i], "");
			if (err != -EACCES && err != -EPERM)
				_exit(30 + i);
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_FALSE(upng_event_exists("uprobes", "nobody"));
}

TEST_HARNESS_MAIN
