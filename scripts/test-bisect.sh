#!/bin/bash
# Every commit of the series builds, and every kernel from the switch to
# the new engine on boots and runs the demo (a uprobe event fires, no
# kernel splat). The series ("make series") is applied with "git am" in
# $CACHE/bisect/src and each commit is checked out in turn there: git
# rewrites only the files a commit changes, so $CACHE/bisect/build is
# rebuilt incrementally, and ccache shares objects with the release build
# (same relative layout: build/../src). The first run builds the old
# engine's commits from scratch (about as long as a cold kernel build:
# about 15 minutes here), later ones only what changed. The first commit
# adds the accessors perf and BPF use on the old engine; the engine's and
# the tracer's files are built from the switch to the new engine on (the
# commit whose kernel/events/Makefile builds uprobes/), as they need its
# header; the old engine's removal, arm64, the stock architectures, the
# hooks in mm and the core dump, BPF and the selftests come after it.
# Prints UPROBES-NG-RESULT lines (host/bisect:NN-build, host/bisect:NN-boot);
# exit status 1 if one failed. Kernels identical to the one booted before
# are not booted again (no result line: nothing new to test).
. "$(dirname "$0")/lib.sh"
x86_only "test-bisect.sh" "it builds each commit's x86 bzImage"

result() { echo "UPROBES-NG-RESULT: $1 host/bisect:$2"; }
dir=$CACHE/bisect
wt=$dir/src
build=$dir/build
patches=$(mktemp -d)
trap 'rm -rf "$patches"' EXIT
"$ROOT/scripts/series.sh" "$patches" >&2 || die "make series failed"

# Back to pristine by content only: files the previous run's last commit
# did not change keep their mtimes.
series_apply "$wt" "$patches" || die "the series does not apply to the pristine tree"
cd "$wt"

# Results are named after the series directories, one per commit.
names=()
for c in "$ROOT"/series/[0-9]*/; do
	names+=("$(basename "$c")")
done
shas=$(git rev-list --reverse pristine..HEAD)
[ "$(echo "$shas" | wc -l)" = ${#names[@]} ] ||
	die "$(echo "$shas" | wc -l) commits for ${#names[@]} series directories"
fail=0
booted=
n=0
for sha in $shas; do
	name=${names[$n]}
	n=$((n + 1))
	git checkout -q -f --detach "$sha"
	"$ROOT/scripts/kconfig.sh" "$wt" "$build" release
	blog=$build/build-$(printf '%02d' $n).log
	start=$(date +%s)
	if ! make -C "$wt" O="$build" CC="ccache gcc" -j"$JOBS" bzImage >"$blog" 2>&1; then
		grep -E 'error|Error' "$blog" | head -20 >&2
		result FAIL "$name-build"
		fail=1
		continue
	fi
	if grep -q 'warning:' "$blog"; then
		grep 'warning:' "$blog" | head -10 >&2
		result FAIL "$name-build"
		fail=1
		continue
	fi
	log "$name built in $(($(date +%s) - start)) s"
	result PASS "$name-build"
	# The old engine is still built: nothing of ours runs yet.
	engine_built "$wt" || continue
	kernel=$build/arch/x86/boot/bzImage
	sum=$(sha256sum < "$kernel")
	[ "$sum" = "$booted" ] && continue
	if KERNEL=$kernel "$ROOT/scripts/demo.sh" >"$build/demo-$(printf '%02d' $n).log" 2>&1; then
		result PASS "$name-boot"
	else
		tail -5 "$build/demo-$(printf '%02d' $n).log" >&2
		result FAIL "$name-boot"
		fail=1
	fi
	booted=$sum
done
exit $fail
