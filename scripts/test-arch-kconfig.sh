#!/bin/bash
# Host-side test of the architectures that support uprobes: on every
# architecture that selects ARCH_SUPPORTS_UPROBES, a defconfig with
# UPROBE_EVENTS and UPROBES asked for (with PERF_EVENTS, which
# UPROBE_EVENTS depends on and mips's defconfig leaves off) must resolve to
# both, as on the stock kernel; x86 and arm64, which have a part of the
# engine of their own (HAVE_UPROBES_ARCH_PART), without
# UPROBES_LEGACY_ARCH, the others (their stock uprobes code, called
# through legacy_arch.c) with it.
# Kconfig only: no cross compiler needed.
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
		   "$SRC/scripts/config" --file "$out/.config" -e FTRACE -e PERF_EVENTS \
			-e UPROBE_EVENTS -e UPROBES &&
		   make -s -C "$SRC" O="$out" ARCH="$arch" olddefconfig >> "$cache/$sum.log" 2>&1; then
			grep '^CONFIG_ARCH_SUPPORTS_UPROBES\|UPROBE' "$out/.config" >> "$cache/$sum.log"
			legacy=1
			[ "$arch" = x86 ] || [ "$arch" = arm64 ] && legacy=0
			if grep -q '^CONFIG_ARCH_SUPPORTS_UPROBES=y' "$out/.config" &&
			   [ "$(grep -c '^CONFIG_UPROBES=y\|^CONFIG_UPROBE_EVENTS=y' "$out/.config")" = 2 ] &&
			   [ "$(grep -c '^CONFIG_UPROBES_LEGACY_ARCH=y' "$out/.config")" = $legacy ]; then
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
