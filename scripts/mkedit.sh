#!/bin/bash
# Usage: mkedit.sh NN-commit-dir [kernel/path ...]
# (Re)generates series/NN-commit-dir/edit.patch from the build tree: for
# every file the patch already touched plus the paths given, the diff from
# the file as the earlier commits of the series leave it (pristine with
# their edit.patches applied) to the file in $SRC with the later commits'
# edits of it taken back out (their patches reverse-applied, newest
# first; they stay as they are and must still apply). Edit existing
# kernel files in $SRC, then run this for the commit the change belongs
# to. A file a later commit removes has no $SRC copy: write its patch by
# hand, against the previous commits' result.
. "$(dirname "$0")/lib.sh"
c=$ROOT/series/$1
shift
[ -d "$c" ] || die "no such commit directory: $c"
this=$(basename "$c")
paths=$( { [ -f "$c/edit.patch" ] && sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$c/edit.patch"; printf '%s\n' "$@"; } | sed '/^$/d' | sort -u)

# The section of patch $1 that edits path $2.
section() { awk -v p="$2" '/^--- a\//{on = ($0 == "--- a/" p)} on' "$1"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/patch"
for p in $paths; do
	[ -f "$PRISTINE/$p" ] || die "$p is not a pristine kernel file (new files go in linux/ and files)"
	mkdir -p "$tmp/base/$(dirname "$p")"
	cp "$PRISTINE/$p" "$tmp/base/$p"
	mkdir -p "$tmp/final/$(dirname "$p")"
	[ -f "$SRC/$p" ] || die "$p is not in $SRC (removed by a later commit?)"
	cp "$SRC/$p" "$tmp/final/$p"
	later=()
	for o in "$ROOT"/series/[0-9]*/; do
		o=$(basename "$o")
		[ -f "$ROOT/series/$o/edit.patch" ] || continue
		section "$ROOT/series/$o/edit.patch" "$p" > "$tmp/one"
		[ -s "$tmp/one" ] || continue
		if [[ "$o" < "$this" ]]; then
			patch -s -p1 -f -d "$tmp/base" < "$tmp/one" ||
				die "$o/edit.patch does not apply to $p"
		elif [[ "$o" > "$this" ]]; then
			later=("$o" "${later[@]}")
		fi
	done
	for o in "${later[@]}"; do
		section "$ROOT/series/$o/edit.patch" "$p" > "$tmp/one"
		patch -R -s -p1 -f -F 0 --no-backup-if-mismatch -d "$tmp/final" < "$tmp/one" ||
			die "$o/edit.patch's edit of $p does not come out of $SRC's: edit that commit first"
	done
	diff -u --label "a/$p" --label "b/$p" "$tmp/base/$p" "$tmp/final/$p" >> "$tmp/patch" || true
done
if [ -s "$tmp/patch" ]; then cp "$tmp/patch" "$c/edit.patch"; else rm -f "$c/edit.patch"; fi
log "$this/edit.patch: $(echo "$paths" | wc -w) file(s)"
