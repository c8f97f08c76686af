#!/bin/bash
# Usage: mkedit.sh NN-commit-dir [kernel/path ...]
# (Re)generates series/NN-commit-dir/edit.patch from the build tree: the
# diff, against pristine, of every file the patch already touched plus the
# paths given. Edit existing kernel files in $SRC, then run this.
# An existing kernel file is edited by one commit of the series only.
. "$(dirname "$0")/lib.sh"
c=$ROOT/series/$1
shift
[ -d "$c" ] || die "no such commit directory: $c"
paths=$( { [ -f "$c/edit.patch" ] && sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$c/edit.patch"; printf '%s\n' "$@"; } | sed '/^$/d' | sort -u)
tmp=$(mktemp)
for p in $paths; do
	[ -f "$PRISTINE/$p" ] || die "$p is not a pristine kernel file (new files go in linux/ and files)"
	diff -u --label "a/$p" --label "b/$p" "$PRISTINE/$p" "$SRC/$p" >> "$tmp" || true
done
if [ -s "$tmp" ]; then mv "$tmp" "$c/edit.patch"; else rm -f "$tmp" "$c/edit.patch"; fi
log "$(basename "$c")/edit.patch: $(echo "$paths" | wc -w) file(s)"
