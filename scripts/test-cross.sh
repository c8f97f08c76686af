#!/bin/bash
# Host-side test of the other architectures, with Debian's cross compilers,
# without building or booting a kernel. One UPROBES-NG-RESULT line
# (host/cross:ARCH) per architecture that selects ARCH_SUPPORTS_UPROBES
# and has a cross compiler in Debian 12 (scripts/deps.sh installs them):
#
#   arm64 (ported): our tree configured as ARCH=arm64 make demo does
#     (kconfig.sh: base.config + arm64.config + the engine's KUnit
#     options); the engine, its arm64 part and the tracer compiled with
#     -Werror. Keeps x86 changes from breaking the arm64 build between
#     arm64 runs.
#   riscv, powerpc (ppc64le), s390, arm (armv7 hard-float), mips (mips64el)
#   and sparc (sparc64), without a part of the engine yet: the
#     architecture's defconfig plus what a uprobes user asks for (UPROBES,
#     UPROBE_EVENTS, PERF_EVENTS, FTRACE, KPROBE_EVENTS, BPF_SYSCALL and
#     BPF_EVENTS, CROSS_MEMORY_ATTACH, COREDUMP; no debug information, to
#     compile faster). Kconfig must leave UPROBES and UPROBE_EVENTS off
#     (their dependency on X86 || ARM64 is what keeps these kernels whole)
#     and grant the rest; then the kernel's own callers of
#     <linux/uprobes.h> are compiled with -Werror against its
#     !CONFIG_UPROBES stubs: fork, signals, the generic entry code (riscv,
#     s390), perf's callchains, the BPF tracer, mmap, the VMA code,
#     memory.c (ptrace's access_process_vm()), process_vm_readv(), the
#     core dump and the architecture's own signal or trap code; with them
#     perf's core and the probe tracers (trace_probe.h), which the series
#     edits too. The list is checked against the tree: a file of kernel/,
#     mm/, fs/ or arch/ARCH/ that calls a function of <linux/uprobes.h>
#     and is not in it fails the test.
# loongarch and csky select ARCH_SUPPORTS_UPROBES too but Debian 12 has no
# cross compiler for them (host/arch-kconfig checks their Kconfig only);
# x86 is built natively. An architecture of a newer tree that selects it
# and is none of these fails as host/cross:ARCH, to be added here.
#
# Build directories $CACHE/build-cross-ARCH (each locked while in use) are
# incremental, with ccache; the configuration is redone only when the
# Kconfig files, the architecture's defconfigs, the compiler or this script
# change. Measured here (2 cores, idle, empty ccache): cold 3.4 minutes for
# the seven (arm64 40 s, riscv 22, powerpc 35, s390 26, arm 20, mips 21,
# sparc 38: the tree's host tools and generated headers for the
# architecture, then 13-14 objects), warm 10 s (1-2 s each). A change to
# include/linux/uprobes.h recompiles every object: about the cold time.
# CROSS_ARCHES="riscv arm" checks only those.
. "$(dirname "$0")/lib.sh"

[ -f "$SRC/arch/Kconfig" ] || "$ROOT/scripts/tree.sh"

# ARCH CROSS_COMPILE DEFCONFIG [ARCH'S OWN CALLERS...] ("-": ported)
targets=(
	"arm64 aarch64-linux-gnu- -"
	"riscv riscv64-linux-gnu- defconfig arch/riscv/kernel/traps.o"
	"powerpc powerpc64le-linux-gnu- ppc64le_defconfig arch/powerpc/kernel/signal.o"
	"s390 s390x-linux-gnu- defconfig arch/s390/kernel/traps.o"
	"arm arm-linux-gnueabihf- multi_v7_defconfig arch/arm/kernel/signal.o"
	"mips mips64el-linux-gnuabi64- 64r2el_defconfig arch/mips/kernel/signal.o"
	"sparc sparc64-linux-gnu- sparc64_defconfig arch/sparc/kernel/signal_64.o"
)
# Select ARCH_SUPPORTS_UPROBES but have no cross compiler in Debian 12.
no_cross="loongarch csky"
# Warnings of the stock kernel that -Werror must not fail on: sparc has
# no clone3() entry point, and kernel/fork.c says so with a #warning.
declare -A kcflags=([sparc]=-Wno-error=cpp)

# The generic kernel's callers of <linux/uprobes.h> (and the files the
# series edits), each with the options that build it, joined by "+" (all
# granted by the configuration below, except GENERIC_ENTRY: riscv and s390
# have it; and RSEQ, which sparc does not have).
callers=(
	kernel/fork.o
	kernel/signal.o
	kernel/entry/common.o:GENERIC_ENTRY
	kernel/events/core.o:PERF_EVENTS
	kernel/events/callchain.o:PERF_EVENTS
	kernel/trace/bpf_trace.o:BPF_EVENTS
	kernel/trace/trace_probe.o:PROBE_EVENTS
	kernel/trace/trace_event_perf.o:PERF_EVENTS+EVENT_TRACING
	mm/mmap.o:MMU
	mm/vma.o:MMU
	mm/memory.o:MMU
	mm/mremap.o:MMU
	mm/madvise.o:ADVISE_SYSCALLS
	kernel/rseq.o:RSEQ
	mm/process_vm_access.o:CROSS_MEMORY_ATTACH
	fs/coredump.o:COREDUMP
)
# What a uprobes user asks for: all but the first two must be granted.
want_off=(UPROBES UPROBE_EVENTS)
want_on=(PERF_EVENTS FTRACE KPROBES KPROBE_EVENTS BPF_SYSCALL BPF_EVENTS
	 CROSS_MEMORY_ATTACH COREDUMP DEBUG_INFO_NONE ADVISE_SYSCALLS)

# The functions and macros <linux/uprobes.h> declares, with or without
# CONFIG_UPROBES, as a grep -E alternation: their callers are what must
# build without uprobes.
iface=$(grep -oE '^(static inline [^(]*[ *]|#define +|[a-z_][a-z0-9_ ]*[ *])?[a-z_][a-z0-9_]*\(' \
	"$SRC/include/linux/uprobes.h" |
	grep -oE '[a-z_][a-z0-9_]*\($' | tr -d '(' | sort -u | paste -sd'|')
kconfigs=$(cd "$SRC" && find . -name 'Kconfig*' -not -path './tools/*' | sort | xargs cat |
	sha256sum | cut -d' ' -f1)
self=$(sha256sum < "$0" | cut -d' ' -f1)

# configure ARCH CROSS DEFCONFIG BUILD: the defconfig plus the options
# above, into BUILD/.config (its time stamp kept when the result is the
# same: the objects are not rebuilt for nothing).
configure() {
	local arch=$1 cross=$2 defconfig=$3 build=$4 stamp=$4/.uprobes-cross-inputs sum opt
	local mk=(make -s -C "$SRC" O="$build" ARCH="$arch" CROSS_COMPILE="$cross")
	sum=$( { echo "$kconfigs $self $defconfig"; "${cross}gcc" --version | head -n 1
		 (cd "$SRC/arch/$arch/configs" && find . -type f | sort | xargs cat); } |
		sha256sum | cut -d' ' -f1)
	if [ -f "$build/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	mkdir -p "$build"
	rm -f "$stamp" "$build/.config.prev"
	[ ! -f "$build/.config" ] || cp -p "$build/.config" "$build/.config.prev"
	"${mk[@]}" "$defconfig" || return 1
	local args=()
	for opt in "${want_off[@]}" "${want_on[@]}"; do args+=(-e "$opt"); done
	args+=(-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 -d DEBUG_INFO_DWARF5)
	"$SRC/scripts/config" --file "$build/.config" "${args[@]}" || return 1
	"${mk[@]}" olddefconfig || return 1
	if [ -f "$build/.config.prev" ] && cmp -s "$build/.config" "$build/.config.prev"; then
		mv "$build/.config.prev" "$build/.config"
	fi
	rm -f "$build/.config.prev"
	echo "$sum" > "$stamp"
}

# check_unported ARCH CROSS DEFCONFIG BUILD [ARCH'S OWN CALLERS...]:
# prints PASS or FAIL, the reasons on stderr (and the log).
check_unported() {
	local arch=$1 cross=$2 defconfig=$3 build=$4 blog=$4.log
	shift 4
	local objs=() o obj gates g ok opt bad=0 files f
	: > "$blog"
	if ! configure "$arch" "$cross" "$defconfig" "$build" >>"$blog" 2>&1; then
		log "$arch: configuring with $defconfig failed ($blog)"
		echo FAIL
		return
	fi
	local cfg=$build/.config
	grep -qx 'CONFIG_ARCH_SUPPORTS_UPROBES=y' "$cfg" ||
		{ log "$arch: ARCH_SUPPORTS_UPROBES is not set: the test means nothing"; bad=1; }
	for opt in "${want_off[@]}"; do
		! grep -q "^CONFIG_$opt=y" "$cfg" ||
			{ log "$arch: Kconfig lets CONFIG_$opt on, but the engine has no $arch part"; bad=1; }
	done
	for opt in "${want_on[@]}"; do
		grep -qx "CONFIG_$opt=y" "$cfg" ||
			{ log "$arch: CONFIG_$opt=y asked for, not granted"; bad=1; }
	done
	for o in "${callers[@]}" "$@"; do
		obj=${o%%:*} gates=
		[ "$obj" = "$o" ] || gates=${o#*:}
		ok=1
		for g in ${gates//+/ }; do grep -qx "CONFIG_$g=y" "$cfg" || ok=0; done
		if [ $ok = 1 ]; then objs+=("$obj"); else echo "not built here: $obj ($gates)" >>"$blog"; fi
	done
	# Every caller of the interface must be in the lists (the
	# architecture's own uprobes files are built only with UPROBES).
	[ -n "$iface" ] || { log "no functions found in include/linux/uprobes.h"; echo FAIL; return; }
	files=$(cd "$SRC" && { grep -rlwE --include='*.c' "$iface" kernel mm fs "arch/$arch" |
		grep -vE '^kernel/events/uprobes|^kernel/trace/trace_uprobe|^arch/[^/]+/(.*/)?uprobes' || true; })
	for f in $files; do
		case " ${callers[*]} $* " in
		*" ${f%.c}.o"[:\ ]*) ;;
		*) log "$arch: $f calls <linux/uprobes.h> and is not compiled by $0"; bad=1 ;;
		esac
	done
	[ $bad = 0 ] || { echo FAIL; return; }
	echo "compiling: ${objs[*]}" >>"$blog"
	if ! make -C "$SRC" O="$build" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" KCFLAGS="-Werror ${kcflags[$arch]:-}" \
		"${objs[@]}" >>"$blog" 2>&1; then
		grep -E 'error|warning' "$blog" | head -n 20 >&2 || tail -n 20 "$blog" >&2
		echo FAIL
		return
	fi
	echo PASS
}

# check_arm64: the engine's arm64 part, configured as the arm64 kernel is.
check_arm64() {
	local arch=arm64 cross=$1 build=$2 blog=$2.log
	if ! ARCH=$arch "$ROOT/scripts/kconfig.sh" "$SRC" "$build" release >"$blog" 2>&1 ||
	   ! make -C "$SRC" O="$build" ARCH=$arch CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" KCFLAGS=-Werror \
		kernel/events/uprobes/ "arch/$arch/kernel/uprobes/" kernel/trace/ \
		>>"$blog" 2>&1; then
		grep -E 'error|warning' "$blog" | head -n 20 >&2 || tail -n 20 "$blog" >&2
		echo FAIL
		return
	fi
	echo PASS
}

selected() { [ -z "${CROSS_ARCHES:-}" ] || [[ " $CROSS_ARCHES " == *" $1 "* ]]; }

# Architectures of the tree that support uprobes and are in no list here.
known=" x86 $no_cross "
for t in "${targets[@]}"; do known+="${t%% *} "; done
for k in "$SRC"/arch/*/Kconfig; do
	arch=$(basename "$(dirname "$k")")
	grep -q '^config ARCH_SUPPORTS_UPROBES' "$k" || continue
	[[ "$known" == *" $arch "* ]] && continue
	selected "$arch" || continue
	log "$arch selects ARCH_SUPPORTS_UPROBES and is not known to $0"
	echo "UPROBES-NG-RESULT: FAIL host/cross:$arch"
done

total=$SECONDS
for t in "${targets[@]}"; do
	read -r arch cross defconfig extra <<< "$t"
	selected "$arch" || continue
	build=$CACHE/build-cross-$arch
	start=$SECONDS
	if ! command -v "${cross}gcc" >/dev/null; then
		log "no ${cross}gcc (scripts/deps.sh installs it)"
		verdict=FAIL
	else
		mkdir -p "$CACHE"
		exec 9>"$build.lock"
		flock 9
		if [ "$defconfig" = - ]; then
			verdict=$(check_arm64 "$cross" "$build")
		else
			# shellcheck disable=SC2086 # the list of objects
			verdict=$(check_unported "$arch" "$cross" "$defconfig" "$build" $extra)
		fi
		exec 9>&-
	fi
	log "host/cross:$arch: $verdict in $((SECONDS - start)) s"
	echo "UPROBES-NG-RESULT: $verdict host/cross:$arch"
done
log "host/cross: $((SECONDS - total)) s"
exit 0
