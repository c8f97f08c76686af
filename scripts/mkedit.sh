#!/bin/bash
# Usage: mkedit.sh [-b BEFORE] NN-commit-dir [kernel/path ...]
# (Re)generates series/NN-commit-dir/edit.patch: for every file the patch
# already touched plus the paths given, the diff from the file as the
# earlier commits of the series leave it to the file as this commit
# leaves it, which is the final file with the later commits' edits of it
# taken back out (their sections reverse-applied, newest first; they
# stay as they are and must still apply).
#
# An existing kernel file: edit it in $SRC, then run this for the commit
# the change belongs to. Earlier state: pristine with the earlier
# commits' edit.patches applied; final: $SRC's copy. A file a later
# commit removes has no $SRC copy: write its patch by hand, against the
# previous commits' result.
#
# A file an earlier commit's "files" adds (or replaces): linux/<path> is
# its final state, and the commit that lists it gets linux/<path> with
# every later commit's section of it taken out (scripts/lib.sh's
# file_state). Edit linux/<path> and run this, before scripts/tree.sh
# (make kernel) rewrites $SRC, for the commit the change belongs to:
# earlier state: $SRC's copy (the tree last built) with this commit's and
# the later commits' sections taken out; final: linux/<path>. A change
# that belongs to the commit that adds the file needs no edit.patch (as
# long as the later sections still come out). -b BEFORE (one path only)
# gives the earlier state instead: the file as it is to be just before
# this commit, e.g. the adding commit's version with a feature's code
# taken out, which this commit's section then adds (the earlier commits'
# versions change with it).
. "$(dirname "$0")/lib.sh"
before=
if [ "${1:-}" = -b ]; then
	before=$(realpath "$2")
	shift 2
	[ -f "$before" ] || die "-b $before: no such file"
fi
c=$ROOT/series/$1
shift
[ -d "$c" ] || die "no such commit directory: $c"
this=$(basename "$c")
paths=$( { [ -f "$c/edit.patch" ] && sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$c/edit.patch"; printf '%s\n' "$@"; } | sed '/^$/d' | sort -u)
[ -z "$before" ] || [ $# = 1 ] || die "-b takes exactly one path"

# The commit at or before $this whose "files" list $1, if any.
added_by() {
	local o found=
	for o in "$ROOT"/series/[0-9]*/; do
		o=$(basename "$o")
		[[ "$o" > "$this" ]] && break
		[ -f "$ROOT/series/$o/files" ] && grep -v '^#' "$ROOT/series/$o/files" | grep -qxF "$1" && found=$o
	done
	echo "$found"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/patch"
for p in $paths; do
	mkdir -p "$tmp/base/$(dirname "$p")" "$tmp/final/$(dirname "$p")"
	intro=$(added_by "$p")
	if [ -n "$intro" ]; then
		[ "$intro" != "$this" ] ||
			die "$this adds $p: edit linux/$p (the later commits' sections come out of it)"
		# This commit's state: linux/ less the later sections.
		file_state "$p" "$this" "$tmp/final/$p"
		# The earlier commits' state: -b's file, or $SRC's less
		# this commit's section and the later ones.
		if [ -n "$before" ] && [ "$p" = "$1" ]; then
			cp "$before" "$tmp/base/$p"
		else
			[ -f "$SRC/$p" ] || die "$p is not in $SRC: run scripts/tree.sh first"
			cp "$SRC/$p" "$tmp/base/$p"
			take_out_later "$tmp/base/$p" "$p" "$this" "$SRC's"
		fi
		diff -u --label "a/$p" --label "b/$p" "$tmp/base/$p" "$tmp/final/$p" >> "$tmp/patch" || true
		continue
	fi
	[ -z "$before" ] || [ "$p" != "$1" ] || die "-b is for files the series adds, not $p"
	[ -f "$PRISTINE/$p" ] || die "$p is not a pristine kernel file (new files go in linux/ and files)"
	cp "$PRISTINE/$p" "$tmp/base/$p"
	[ -f "$SRC/$p" ] || die "$p is not in $SRC (removed by a later commit?)"
	cp "$SRC/$p" "$tmp/final/$p"
	later=()
	for o in "$ROOT"/series/[0-9]*/; do
		o=$(basename "$o")
		[ -f "$ROOT/series/$o/edit.patch" ] || continue
		patch_section "$ROOT/series/$o/edit.patch" "$p" > "$tmp/one"
		[ -s "$tmp/one" ] || continue
		if [[ "$o" < "$this" ]]; then
			patch -s -p1 -f -d "$tmp/base" < "$tmp/one" ||
				die "$o/edit.patch does not apply to $p"
		elif [[ "$o" > "$this" ]]; then
			later=("$o" "${later[@]}")
		fi
	done
	for o in "${later[@]}"; do
		patch_section "$ROOT/series/$o/edit.patch" "$p" > "$tmp/one"
		patch -R -s -p1 -f -F 0 --no-backup-if-mismatch -d "$tmp/final" < "$tmp/one" ||
			die "$o/edit.patch's edit of $p does not come out of $SRC's: edit that commit first"
	done
	diff -u --label "a/$p" --label "b/$p" "$tmp/base/$p" "$tmp/final/$p" >> "$tmp/patch" || true
done
if [ -s "$tmp/patch" ]; then cp "$tmp/patch" "$c/edit.patch"; else rm -f "$c/edit.patch"; fi
log "$this/edit.patch: $(echo "$paths" | wc -w) file(s)"
