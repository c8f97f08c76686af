#!/bin/bash
# The engine's and the tracer's files as each commit before the switch
# leaves them compile. Until the switch to the new engine the kernel
# builds the old one, whose <linux/uprobes.h> the new files are not
# written for: so each commit's versions of kernel/events/uprobes/,
# arch/x86/kernel/uprobes/ and the tracer's kernel/trace/trace_uprobe_*
# (the files the series has added by then, scripts/lib.sh's file_state)
# are compiled, without linking, in the final tree ($CACHE/series-test,
# as test-series.sh leaves it) against the switch's headers, with the
# kernel's warnings; a call of a function no earlier commit has, or a
# helper no caller uses yet, fails. Usage: test-engine-steps.sh [NN...]
# (default: every commit before the switch that adds or changes one of
# those files). Prints UPROBES-NG-RESULT lines (host/engine-steps:NAME);
# exit status 1 if one failed. The tree is put back as it was.
. "$(dirname "$0")/lib.sh"
x86_only "test-engine-steps.sh" "it compiles the x86 objects"

result() { echo "UPROBES-NG-RESULT: $1 host/engine-steps:$2"; }
wt=$CACHE/series-test
build=$CACHE/build-steps
[ -d "$wt/.git" ] || die "no $wt: run scripts/test-series.sh first"
engine_built "$wt" || die "$wt does not build the new engine"
dirs="kernel/events/uprobes arch/x86/kernel/uprobes"
# The tracer's files share kernel/trace/ with the kernel's own.
tracer=$(cd "$ROOT/linux" && find kernel/trace -type f | sort)
paths=$(cd "$ROOT/linux" && find $dirs -type f | sort; echo "$tracer")
restore() {
	git -C "$wt" checkout -q -f HEAD -- $dirs $tracer
	git -C "$wt" clean -q -fd -- $dirs
}
trap restore EXIT

# The commit that adds $1, if any.
added_by() {
	local o
	for o in "$ROOT"/series/[0-9]*/; do
		[ -f "$o/files" ] && grep -qxF "$1" "$o/files" && { basename "$o"; return; }
	done
}

commits=()
if [ $# -gt 0 ]; then
	for nn in "$@"; do commits+=("$(basename "$ROOT"/series/"$nn"-*)"); done
else
	for o in "$ROOT"/series/[0-9]*/; do
		# The switch and what follows are built by test-bisect.sh.
		! grep -q '^+obj-$(CONFIG_UPROBES) += uprobes/$' "$o/edit.patch" 2>/dev/null || break
		if grep -qE '^((kernel/events|arch/x86/kernel)/uprobes/|kernel/trace/trace_uprobe_)' "$o/files" 2>/dev/null ||
		   grep -qE '^\+\+\+ b/((kernel/events|arch/x86/kernel)/uprobes/|kernel/trace/trace_uprobe_)' "$o/edit.patch" 2>/dev/null; then
			commits+=("$(basename "$o")")
		fi
	done
fi
"$ROOT/scripts/kconfig.sh" "$wt" "$build" release
make -s -C "$wt" O="$build" CC="ccache gcc" -j"$JOBS" prepare >/dev/null

fail=0
for c in "${commits[@]}"; do
	objs=()
	for p in $paths; do
		a=$(added_by "$p")
		if [ -n "$a" ] && [[ ! "$a" > "$c" ]]; then
			file_state "$p" "$c" "$wt/$p"
			case $p in
			*/tests/*|*/legacy_arch.c|*/debugfs.c) ;;
			*.c|*.S) objs+=("${p%.*}.o") ;;
			esac
		elif [ "$(basename "$p")" = Makefile ]; then
			git -C "$wt" checkout -q HEAD -- "$p"
		else
			rm -f "$wt/$p"
		fi
	done
	rc=0
	out=$(make -s -k -C "$wt" O="$build" CC="ccache gcc" -j"$JOBS" "${objs[@]}" 2>&1) || rc=$?
	if [ $rc = 0 ] && ! grep -q 'warning:' <<< "$out"; then
		result PASS "$c"
	else
		grep -E 'error|warning:' <<< "$out" | sort -u | head -10 >&2
		result FAIL "$c"
		fail=1
	fi
done
exit $fail
