#!/bin/bash
# Host-side test of the architectures that support uprobes: the engine has
# an architecture part for x86 and arm64 only, so on every other
# architecture that selects ARCH_SUPPORTS_UPROBES, a defconfig with
# UPROBE_EVENTS and UPROBES asked for must resolve to neither (the kernel
# builds, without uprobes), and on x86 and arm64 to both. Kconfig only: no cross compiler needed.
# Prints UPROBES-NG-RESULT lines (host/arch-kconfig:ARCH); verdicts are
# cached by the content of the kernel's Kconfig files and of this script
# (about 3 minutes cold).
. "$(dirname "$0")/lib.sh"

[ -f "$SRC/arch/Kconfig" ] || "$ROOT/scripts/tree.sh"
cache=$CACHE/arch-kconfig
self=$(sha256sum < "$0" | cut -d' ' -f1)
mkdir -p "$cache"
kconfigs=$(cd "$SRC" && find . -name 'Kconfig*' -not -path './tools/*' | sort | xargs cat | sha256sum | cut -d' ' -f1)
# sparc64: ARCH=sparc defconfigs a 32-bit kernel, where sparc has no uprobes.
for arch in x86 arm64 riscv powerpc s390 arm mips loongarch csky sparc64; do
	sum=$(echo "$kconfigs $arch $self" | sha256sum | cut -d' ' -f1)
	if [ ! -f "$cache/$sum" ]; then
		out=$(mktemp -d)
		verdict=FAIL
		if make -s -C "$SRC" O="$out" ARCH="$arch" defconfig > "$cache/$sum.log" 2>&1 &&
		   "$SRC/scripts/config" --file "$out/.config" -e FTRACE -e UPROBE_EVENTS -e UPROBES &&
		   make -s -C "$SRC" O="$out" ARCH="$arch" olddefconfig >> "$cache/$sum.log" 2>&1; then
			grep '^CONFIG_ARCH_SUPPORTS_UPROBES\|UPROBE' "$out/.config" >> "$cache/$sum.log"
			want=0
			[ "$arch" = x86 ] || [ "$arch" = arm64 ] && want=2
			if grep -q '^CONFIG_ARCH_SUPPORTS_UPROBES=y' "$out/.config" &&
			   [ "$(grep -c '^CONFIG_UPROBES=y\|^CONFIG_UPROBE_EVENTS=y' "$out/.config")" = $want ]; then
				verdict=PASS
			fi
		fi
		echo $verdict > "$cache/$sum"
		rm -rf "$out"
	fi
	[ "$(cat "$cache/$sum")" = PASS ] || tail -n 5 "$cache/$sum.log" >&2
	echo "UPROBES-NG-RESULT: $(cat "$cache/$sum") host/arch-kconfig:$arch"
done
exit 0
