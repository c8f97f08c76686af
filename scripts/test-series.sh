#!/bin/bash
# Host-side test of "make series": the format-patch output must apply with
# "git am" to a pristine tree and yield exactly the tree the build uses
# ($SRC). Prints UPROBES-NG-RESULT lines; exit status 1 on failure.
# The pristine checkout ($CACHE/series-test) is made once and reset to the
# pristine commit (checkout -f + clean -fdx, verified clean) for every run.
# Compared: every path the patches touch, every path tree.sh manages, and
# every path of $SRC whose mtime or presence differs from the pristine tree
# (catches edits made in $SRC but never captured with mkedit.sh).
# FULL=1 adds a complete "diff -r" of the two trees.
. "$(dirname "$0")/lib.sh"

result() { echo "UPROBES-NG-RESULT: $1 host/series:$2"; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! "$ROOT/scripts/series.sh" "$out" >&2; then
	result FAIL format-patch
	exit 1
fi
result PASS format-patch

wt=$CACHE/series-test
rc=0
series_apply "$wt" "$out" || rc=$?
if [ $rc = 1 ]; then
	result FAIL pristine-checkout
	exit 1
elif [ $rc != 0 ]; then
	result FAIL git-am
	exit 1
fi
result PASS git-am
cd "$wt"

# Paths whose presence or mtime differs between $SRC and the pristine tree.
listing() { (cd "$1" && find . \( -type f -o -type l \) -printf '%P\t%T@\n' | LC_ALL=C sort); }
bad=$( { git diff --name-only pristine HEAD
	 cat "$CACHE/src.manifest" "$CACHE/src.removed" 2>/dev/null
	 LC_ALL=C comm -3 <(listing "$SRC") <(listing "$PRISTINE") | sed 's/^\t//' | cut -f1
       } | LC_ALL=C sort -u | while read -r f; do
	[ -n "$f" ] || continue
	if [ -e "$wt/$f" ] || [ -e "$SRC/$f" ]; then
		cmp -s "$wt/$f" "$SRC/$f" || echo "$f"
	fi
done)
if [ -n "$bad" ]; then
	log "the series does not yield the build tree; differing files:"
	echo "$bad" | sed 's/^/  /' >&2
	result FAIL tree-matches-build
	exit 1
fi
result PASS tree-matches-build
if [ "${FULL:-0}" = 1 ]; then
	if diff -rq --no-dereference --exclude=.git "$wt" "$SRC" >&2; then
		result PASS full-diff
	else
		result FAIL full-diff
		exit 1
	fi
fi
