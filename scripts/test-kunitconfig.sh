#!/bin/bash
# Host-side test of the KUnit configurations: every .kunitconfig of the
# series must give kunit.py (tools/testing/kunit/kunit.py config, x86_64,
# or arm64 for arch/arm64's) a kernel configuration that has all of its options. Prints
# UPROBES-NG-RESULT lines (host/kunitconfig:DIR); a verdict is cached by the
# content of the .kunitconfig and of the kernel's Kconfig files.
. "$(dirname "$0")/lib.sh"

[ -x "$SRC/tools/testing/kunit/kunit.py" ] || "$ROOT/scripts/tree.sh"
cache=$CACHE/kunitconfig
mkdir -p "$cache"
kconfigs=$(cd "$SRC" && find . -name 'Kconfig*' -not -path './tools/*' | sort | xargs cat | sha256sum | cut -d' ' -f1)
for c in "$ROOT"/series/[0-9]*/files; do
	grep -h '\.kunitconfig$' "$c" || true
done | sort -u | while read -r f; do
	dir=$(dirname "$f")
	# An architecture's own suite is configured for that architecture.
	karch=x86_64
	case "$dir" in
	arch/arm64/*) karch=arm64 ;;
	esac
	sum=$( (echo "$kconfigs $karch"; cat "$ROOT/linux/$f") | sha256sum | cut -d' ' -f1)
	if [ ! -f "$cache/$sum" ]; then
		build=$(mktemp -d)
		if (cd "$SRC" && python3 tools/testing/kunit/kunit.py config --arch="$karch" \
			--build_dir="$build" --kunitconfig="$dir") > "$cache/$sum.log" 2>&1; then
			echo PASS > "$cache/$sum"
		else
			echo FAIL > "$cache/$sum"
		fi
		rm -rf "$build"
	fi
	[ "$(cat "$cache/$sum")" = PASS ] || tail -n 5 "$cache/$sum.log" >&2
	echo "UPROBES-NG-RESULT: $(cat "$cache/$sum") host/kunitconfig:$dir"
done
exit 0
