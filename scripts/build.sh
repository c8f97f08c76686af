#!/bin/bash
# Build the guest kernel (bzImage), incrementally.
#   scripts/build.sh            pristine + series, build-release (on x86
#                               with config/bpf.config: BTF, modules, the
#                               function tracer, for make check-kernel-tests)
#   DEBUG=1 scripts/build.sh    same with config/debug.config, build-debug
#   KCSAN=1 scripts/build.sh    same with config/kcsan.config, build-kcsan
#   STOCK=1 scripts/build.sh    the unmodified pristine tree, build-stock
#                               (build-stock-FLAVOUR for another flavour)
#   ARCH=arm64 scripts/build.sh cross-built arm64 Image, build-arm64-release
#                               (build-arm64-stock with STOCK=1)
# Prints the path of the bzImage (Image) on stdout.
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/deps.sh"
# tree.sh also extracts the pristine tree when needed. A stock kernel
# for another architecture needs only that and never touches $SRC (its
# guest's test programs are built from $SRC all the same, by initramfs.sh,
# which brings it up to date itself).
if [ "${STOCK:-0}" = 1 ] && [ "$KARCH" != x86 ]; then
	PRISTINE_ONLY=1 "$ROOT/scripts/tree.sh"
else
	"$ROOT/scripts/tree.sh"
fi
src=$SRC build=$BUILD
if [ "${STOCK:-0}" = 1 ]; then
	src=$PRISTINE build=$STOCK_BUILD
	[ "$FLAVOR" = release ] || build=$STOCK_BUILD-$FLAVOR
fi
mkdir -p "$build"
# Two makes in one build directory corrupt each other's objects.
exec 9>"$build.lock"
if ! flock -n 9; then
	log "waiting for another build of $build to finish"
	flock 9
fi
"$ROOT/scripts/kconfig.sh" "$src" "$build" "$FLAVOR"
log "building $build ($KPKG $(kpkg_version), $KARCH, $FLAVOR, -j$JOBS)"
start=$(date +%s)
blog=$build/build.log
# With modules (the x86 release flavour) also "modules": its
# Module.symvers is what an external module (bpf_testmod) is linked
# against.
targets=("$KIMAGE")
! grep -qx 'CONFIG_MODULES=y' "$build/.config" || targets+=(modules)
make -C "$src" O="$build" "${KMAKE[@]}" CC="$KCC" -j"$JOBS" "${targets[@]}" >"$blog" 2>&1 &
mpid=$!
ticks=0
while kill -0 $mpid 2>/dev/null; do
	sleep 1
	ticks=$((ticks + 1))
	[ $((ticks % 60)) != 0 ] || log "still building: $(grep -c '^  CC ' "$blog") files compiled so far"
done
if ! wait $mpid; then
	grep -E 'error|Error' "$blog" | head -40 >&2
	tail -20 "$blog" >&2
	die "kernel build failed (full log: $blog)"
fi
grep -E 'warning:' "$blog" | head -20 >&2 || true
log "kernel built in $(($(date +%s) - start))s: $build/arch/$KARCH/boot/$KIMAGE"
echo "$KPKG $(kpkg_version)" > "$build/.uprobes-kpkg"
echo "$build/arch/$KARCH/boot/$KIMAGE"
