#!/bin/bash
# Build the guest kernel (bzImage), incrementally.
#   scripts/build.sh            pristine + series, build-release
#   DEBUG=1 scripts/build.sh    same with config/debug.config, build-debug
#   STOCK=1 scripts/build.sh    the unmodified pristine tree, build-stock
# Prints the path of the bzImage on stdout.
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/deps.sh"
# tree.sh also extracts the pristine tree when needed.
"$ROOT/scripts/tree.sh"
src=$SRC build=$BUILD
if [ "${STOCK:-0}" = 1 ]; then
	src=$PRISTINE build=$STOCK_BUILD
	[ "$FLAVOR" = debug ] && build=$STOCK_BUILD-debug
fi
"$ROOT/scripts/kconfig.sh" "$src" "$build" "$FLAVOR"
log "building $build ($KPKG $(kpkg_version), $FLAVOR, -j$JOBS)"
start=$(date +%s)
blog=$build/build.log
if ! make -s -C "$src" O="$build" CC="ccache gcc" -j"$JOBS" bzImage >"$blog" 2>&1; then
	grep -E 'error|Error' "$blog" | head -40 >&2
	tail -20 "$blog" >&2
	die "kernel build failed (full log: $blog)"
fi
grep -E 'warning:' "$blog" | head -20 >&2 || true
log "kernel built in $(($(date +%s) - start))s: $build/arch/x86/boot/bzImage"
echo "$KPKG $(kpkg_version)" > "$build/.uprobes-kpkg"
echo "$build/arch/x86/boot/bzImage"
