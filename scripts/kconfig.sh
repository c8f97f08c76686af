#!/bin/bash
# Usage: kconfig.sh SRCDIR BUILDDIR FLAVOR
# Writes BUILDDIR/.config = tinyconfig + config/base.config [+ FLAVOR.config:
# debug.config or kcsan.config; for the x86 release flavour bpf.config]
# [+ engine.config] [+ config/ARCH.config [+ engine-ARCH.config], for
# ARCH=arm64], touching it only when the result changes (keeps incremental
# builds cheap).
. "$(dirname "$0")/lib.sh"
src=$1 build=$2 flavor=$3
mkdir -p "$build"
frags=("$ROOT/config/base.config")
[ "$flavor" = release ] || frags+=("$ROOT/config/$flavor.config")
# The x86 release kernel is also the one the kernel's own uprobe tests
# run on (make check-kernel-tests): BTF, modules, the function tracer.
[ "$flavor" != release ] || [ "$KARCH" != x86 ] || frags+=("$ROOT/config/bpf.config")
# Options of our engine exist only in a tree that has it: not in the
# stock one, nor in a commit of the series before the switch to it.
! engine_built "$src" || frags+=("$ROOT/config/engine.config")
# Another architecture's fragment comes after those: it turns off what
# they ask for on x86 only. Then, in our tree, the engine's options for
# that architecture.
if [ "$KARCH" != x86 ]; then
	frags+=("$ROOT/config/$KARCH.config")
	! engine_built "$src" || [ ! -f "$ROOT/config/engine-$KARCH.config" ] ||
		frags+=("$ROOT/config/engine-$KARCH.config")
fi
stamp=$build/.uprobes-config-inputs
want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ -f "$build/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
log "configuring $build ($flavor)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$src" O="$tmp" "${KMAKE[@]}" tinyconfig >/dev/null
# One line per option, the last one asked for (a later fragment overrides
# an earlier one): Kconfig would warn about each option set twice.
cat "${frags[@]}" | tac | awk -F= '!/^CONFIG_/ || !seen[$1]++' | tac > "$tmp/frag.config"
KCONFIG_CONFIG=$tmp/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" \
	"$tmp/.config" "$tmp/frag.config" >/dev/null
make -s -C "$src" O="$tmp" "${KMAKE[@]}" olddefconfig >/dev/null
# Our engine has an architecture part for x86 and arm64 only, and the
# series makes UPROBES depend on it: in a tree without the part (a commit
# before it), say that, rather than list every uprobes option olddefconfig
# dropped.
if [ "$KARCH" != x86 ] && grep -qx 'CONFIG_UPROBES=y' "$tmp/frag.config" &&
   ! grep -qx 'CONFIG_UPROBES=y' "$tmp/.config"; then
	die "UPROBES is not available for $KARCH in this tree yet (no $KARCH part of the engine in $src; STOCK=1 builds the unmodified kernel)"
fi
# Every requested option must have survived olddefconfig (a later
# fragment overrides an earlier one).
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		if grep -q "^$opt=" "$tmp/.config"; then log "config: $opt not disabled"; missing=1; fi ;;
	CONFIG_*=*) grep -qxF "$line" "$tmp/.config" || { log "config: $line not set"; missing=1; } ;;
	esac
done < <(tac "$tmp/frag.config" | awk -F= '/^CONFIG_/ && !seen[$1]++')	# last one wins
[ $missing = 0 ] || die "configuration fragment not satisfied"
if ! cmp -s "$tmp/.config" "$build/.config"; then
	cp "$tmp/.config" "$build/.config"
fi
echo "$want" > "$stamp"
