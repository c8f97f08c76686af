#!/bin/bash
# Host-side test of the other architectures' parts of the engine: with
# Debian's cross compiler, configure our tree for each architecture that
# has one (config/base.config + config/ARCH.config + the engine's KUnit
# options, as ARCH=... make demo does) and compile the engine, its
# architecture part and the tracer with warnings as failures, without
# building or booting a kernel. Keeps x86 changes from breaking the arm64
# build between arm64 runs. Prints UPROBES-NG-RESULT lines
# (host/cross:ARCH); the build directory $CACHE/build-cross-ARCH is
# incremental.
. "$(dirname "$0")/lib.sh"

[ -f "$SRC/arch/Kconfig" ] || "$ROOT/scripts/tree.sh"
for arch in arm64; do
	cross=aarch64-linux-gnu-
	build=$CACHE/build-cross-$arch
	blog=$build.log
	if ! command -v "${cross}gcc" >/dev/null; then
		log "no ${cross}gcc (scripts/deps.sh installs it)"
		echo "UPROBES-NG-RESULT: FAIL host/cross:$arch"
		continue
	fi
	verdict=PASS
	if ! ARCH=$arch "$ROOT/scripts/kconfig.sh" "$SRC" "$build" release >"$blog" 2>&1 ||
	   ! make -C "$SRC" O="$build" ARCH=$arch CROSS_COMPILE=$cross \
		CC="ccache ${cross}gcc" -j"$JOBS" KCFLAGS=-Werror \
		kernel/events/uprobes/ "arch/$arch/kernel/uprobes/" kernel/trace/ \
		>>"$blog" 2>&1; then
		verdict=FAIL
		grep -E 'error|warning' "$blog" | head -n 20 >&2 || tail -n 20 "$blog" >&2
	fi
	echo "UPROBES-NG-RESULT: $verdict host/cross:$arch"
done
exit 0
