#!/bin/bash
# Usage: kconfig.sh SRCDIR BUILDDIR FLAVOR
# Writes BUILDDIR/.config = tinyconfig + config/base.config [+ debug.config],
# touching it only when the result changes (keeps incremental builds cheap).
. "$(dirname "$0")/lib.sh"
src=$1 build=$2 flavor=$3
mkdir -p "$build"
frags=("$ROOT/config/base.config")
[ "$flavor" = debug ] && frags+=("$ROOT/config/debug.config")
# Options of our engine exist only in a tree that has it: not in the
# stock one, nor in a commit of the series before the switch to it.
[ -f "$src/kernel/events/uprobes.c" ] || frags+=("$ROOT/config/engine.config")
stamp=$build/.uprobes-config-inputs
want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ -f "$build/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
log "configuring $build ($flavor)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$src" O="$tmp" tinyconfig >/dev/null
cat "${frags[@]}" > "$tmp/frag.config"
KCONFIG_CONFIG=$tmp/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" \
	"$tmp/.config" "$tmp/frag.config" >/dev/null
make -s -C "$src" O="$tmp" olddefconfig >/dev/null
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
