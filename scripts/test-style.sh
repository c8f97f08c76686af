#!/bin/bash
# Host-side style test: scripts/checkpatch.pl --strict of the kernel tree on
# every C/assembly file of the series and on every edit.patch, and every
# ".. kernel-doc::" directive of our documentation resolved by
# scripts/kernel-doc. Prints UPROBES-NG-RESULT lines (host/checkpatch:PATH,
# host/kernel-doc:RST:FILE:IDENTIFIER); a file's checkpatch verdict is
# cached by content, so only changed files are checked again.
. "$(dirname "$0")/lib.sh"

[ -x "$SRC/scripts/checkpatch.pl" ] || "$ROOT/scripts/tree.sh"
cache=$CACHE/checkpatch
mkdir -p "$cache"
check() { # name file [extra checkpatch args]
	local name=$1 file=$2 sum
	shift 2
	sum=$( (echo "$*"; cat "$file" "$SRC/scripts/checkpatch.pl") | sha256sum | cut -d' ' -f1)
	if [ ! -f "$cache/$sum" ]; then
		if (cd "$cache" && perl "$SRC/scripts/checkpatch.pl" --strict --no-tree --quiet \
			--no-summary --show-types "$@" "$file") > "$cache/$sum.out" 2>&1; then
			echo PASS > "$cache/$sum"
		else
			echo FAIL > "$cache/$sum"
			cp "$cache/$sum.out" "$cache/$sum.fail"
		fi
		rm -f "$cache/$sum.out"
	fi
	[ -f "$cache/$sum.fail" ] && sed "s|^|  $name: |" "$cache/$sum.fail" | head -n 20 >&2
	echo "UPROBES-NG-RESULT: $(cat "$cache/$sum") host/checkpatch:$name"
}

for c in "$ROOT"/series/[0-9]*/; do
	if [ -f "$c/files" ]; then
		for f in $(grep -v '^#' "$c/files"); do
			case $f in
			# Assembler macros (\name, %function) read as C
			# to checkpatch, as in the kernel's own asm headers.
			*_asm.h) check "$f" "$ROOT/linux/$f" -f --ignore SPACING ;;
			*.c|*.h|*.S) check "$f" "$ROOT/linux/$f" -f ;;
			esac
		done
	fi
	[ -f "$c/edit.patch" ] && check "$(basename "$c")/edit.patch" "$c/edit.patch" \
		--ignore COMMIT_MESSAGE,MISSING_SIGN_OFF
done
# The documentation's kernel-doc directives: each identifier must produce
# its documentation from the named file (what Sphinx's kernel-doc
# extension would include), without a warning.
for rst in $(cd "$ROOT/linux" && grep -rl '^\.\. kernel-doc::' Documentation); do
	awk '/^\.\. kernel-doc::/ { file = $3; next }
	     file != "" && /:identifiers:/ { for (i = 2; i <= NF; i++) print file, $i; file = "" }' \
		"$ROOT/linux/$rst" | while read -r file id; do
		out=$(perl "$SRC/scripts/kernel-doc" -rst -Wall -function "$id" "$ROOT/linux/$file" 2>&1 |
		      grep -v 'Sphinx version not found')
		if grep -q "^\.\. c:function::.* $id \?(" <<< "$out" && ! grep -qi warning <<< "$out"; then
			echo "UPROBES-NG-RESULT: PASS host/kernel-doc:$rst:$file:$id"
		else
			echo "UPROBES-NG-RESULT: FAIL host/kernel-doc:$rst:$file:$id"
			echo "$out" | head -n 5 >&2
		fi
	done
done
exit 0
