#!/bin/bash
# Host-side test of the other architectures, with Debian's cross compilers,
# without booting a kernel. One UPROBES-NG-RESULT line (host/cross:ARCH)
# per architecture that selects ARCH_SUPPORTS_UPROBES and has a cross
# compiler in Debian 12 (scripts/deps.sh installs them), and one
# (host/cross-link:ARCH) per architecture whose whole kernel is linked:
#
#   arm64 (a part of the engine of its own): our tree configured as
#     ARCH=arm64 make demo does (kconfig.sh: base.config + arm64.config +
#     the engine's KUnit options); the engine, its arm64 part and the
#     tracer compiled with -Werror. Keeps x86 changes from breaking the
#     arm64 build between arm64 runs.
#   i386 (x86's part of the engine, built for a 32-bit kernel, where every
#     process is 32-bit; with the host's gcc): as the architectures
#     below, but with HAVE_UPROBES_ARCH_PART and not UPROBES_LEGACY_ARCH,
#     and with the KUnit tests of the engine, of its x86 part and of the
#     tracer; its uprobes files are that part's, but for the 64-bit
#     return trampoline and stubs.
#   riscv, powerpc (ppc64le), s390, arm (armv7 hard-float), mips (mips64el)
#   and sparc (sparc64), which keep their stock uprobes code and get the
#     engine through UPROBES_LEGACY_ARCH (kernel/events/uprobes/
#     legacy_arch.c): the architecture's defconfig plus what a uprobes
#     user asks for (UPROBES, UPROBE_EVENTS, PERF_EVENTS, FTRACE,
#     KPROBE_EVENTS, BPF_SYSCALL and BPF_EVENTS, CROSS_MEMORY_ATTACH,
#     COREDUMP; no debug information, to compile faster) and the engine's
#     KUnit tests (which test some of the architecture's breakpoint
#     encodings). Kconfig must grant all of it, UPROBES_LEGACY_ARCH too,
#     and not HAVE_UPROBES_ARCH_PART; then compiled with -Werror: the engine
#     (kernel/events/uprobes/, legacy_arch.o included), the tracer
#     (kernel/trace/trace_uprobe_*.o), the architecture's own uprobes
#     files (each must come out: its Makefile builds it with UPROBES) and
#     the kernel's callers of <linux/uprobes.h>: fork, signals, the
#     generic entry code (riscv, s390), perf's core and callchains, the
#     BPF and probe tracers, mmap, the VMA code, memory.c (ptrace's
#     access_process_vm()), mremap, madvise, rseq, process_vm_readv(),
#     the core dump and the architecture's own signal or trap code. The
#     list is checked against the tree: a file of kernel/, mm/, fs/ or
#     arch/ARCH/ that calls a function of <linux/uprobes.h> and is not in
#     it fails the test.
#   CROSS_LINK_ARCHES="riscv powerpc s390 arm mips" (none by default: a
#     cold link costs about 13 minutes, which CI's time cannot take; make
#     check-all links them all): the whole kernel linked, vmlinux, from
#     tinyconfig plus the same options (a defconfig kernel takes the
#     better part of an hour on one core) and what the architecture's
#     tinyconfig lacks for them (link_extra), in a build directory of its
#     own; vmlinux must hold the engine, its legacy_arch.c and the
#     architecture's arch_uprobe_analyze_insn(), and no warning may name
#     the engine's, the tracer's or the architecture's uprobes files.
# loongarch and csky select ARCH_SUPPORTS_UPROBES too but Debian 12 has no
# cross compiler for them (host/arch-kconfig checks their Kconfig only);
# x86-64 is built natively. An architecture of a newer tree that selects it
# and is none of these fails as host/cross:ARCH, to be added here.
#
# Build directories $CACHE/build-cross-ARCH and build-cross-link-ARCH
# (each locked while in use) are incremental, with ccache; the
# configuration is redone only when the Kconfig files, the
# architecture's defconfigs, the compiler or this script change.
# Measured here with JOBS=1, the other core busy with another kernel
# build (2026-12-06): after a change to the engine's internal.h (its
# objects recompiled, the rest warm) 10.5 minutes: arm64 182 s (Kconfig
# changed: reconfigured), riscv 109, powerpc 118, s390 114, arm 92, mips
# 108, sparc 84 (each configured before: the tree's host tools and
# generated headers take about 40 s more the first time); the two links
# from empty build directories (about 600 objects each, ccache cold) 13
# minutes each (riscv 792 s, s390 772 s). Warm, after a change to one
# file of the engine: 109 s for all, 8 to 22 s each. A change to
# include/linux/uprobes.h recompiles every object. i386, added since:
# 97 s from an empty build directory.
# CROSS_ARCHES="riscv arm" checks only those.
. "$(dirname "$0")/lib.sh"

[ -f "$SRC/arch/Kconfig" ] || "$ROOT/scripts/tree.sh"

# ARCH CROSS_COMPILE DEFCONFIG [ARCH'S OWN CALLERS...] ("-": own part)
targets=(
	"arm64 aarch64-linux-gnu- -"
	"i386 x86_64-linux-gnu- i386_defconfig arch/x86/kernel/traps.o arch/x86/events/core.o"
	"riscv riscv64-linux-gnu- defconfig arch/riscv/kernel/traps.o"
	"powerpc powerpc64le-linux-gnu- ppc64le_defconfig arch/powerpc/kernel/signal.o"
	"s390 s390x-linux-gnu- defconfig arch/s390/kernel/traps.o"
	"arm arm-linux-gnueabihf- multi_v7_defconfig arch/arm/kernel/signal.o"
	"mips mips64el-linux-gnuabi64- 64r2el_defconfig arch/mips/kernel/signal.o"
	"sparc sparc64-linux-gnu- sparc64_defconfig arch/sparc/kernel/signal_64.o"
)
# Each architecture's stock uprobes code, the objects its Makefiles build
# with UPROBES (i386: x86's part of the engine).
declare -A arch_uprobes=(
	[i386]="arch/x86/kernel/uprobes/analyze.o arch/x86/kernel/uprobes/xol.o
		arch/x86/kernel/uprobes/emulate.o arch/x86/kernel/uprobes/x87.o
		arch/x86/kernel/uprobes/retprobe.o arch/x86/kernel/uprobes/boost.o"
	[riscv]="arch/riscv/kernel/probes/uprobes.o arch/riscv/kernel/probes/decode-insn.o
		 arch/riscv/kernel/probes/simulate-insn.o"
	[powerpc]=arch/powerpc/kernel/uprobes.o
	[s390]=arch/s390/kernel/uprobes.o
	[arm]="arch/arm/probes/decode.o arch/arm/probes/decode-arm.o
	       arch/arm/probes/uprobes/core.o arch/arm/probes/uprobes/actions-arm.o"
	[mips]=arch/mips/kernel/uprobes.o
	[sparc]=arch/sparc/kernel/uprobes.o
)
# Select ARCH_SUPPORTS_UPROBES but have no cross compiler in Debian 12.
no_cross="loongarch csky"
# Linked whole (vmlinux), from tinyconfig.
link_arches=${CROSS_LINK_ARCHES-}
# Warnings of the stock kernel that -Werror must not fail on: sparc has
# no clone3() entry point, and kernel/fork.c says so with a #warning.
declare -A kcflags=([sparc]=-Wno-error=cpp)

# The engine and the tracer.
ours=(kernel/events/uprobes/ kernel/trace/trace_uprobe_events.o
      kernel/trace/trace_uprobe_files.o kernel/trace/trace_uprobe_call.o
      kernel/trace/trace_uprobe_record.o)
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
# What a uprobes user asks for, all to be granted.
want_on=(UPROBES UPROBE_EVENTS PERF_EVENTS FTRACE KPROBES
	 KPROBE_EVENTS BPF_SYSCALL BPF_EVENTS CROSS_MEMORY_ATTACH COREDUMP
	 DEBUG_INFO_NONE ADVISE_SYSCALLS)
# The architectures configured from a defconfig that have a part of the
# engine of their own, with the options of its tests; the others get the
# engine through UPROBES_LEGACY_ARCH.
declare -A own_part=([i386]="KUNIT UPROBES_KUNIT_TEST UPROBES_X86_KUNIT_TEST
			     UPROBE_EVENTS_KUNIT_TEST")
# What the link needs on tinyconfig: the engine, the tracer and the
# callers of the series' new hooks (BPF and kprobes would double the
# time; bpf_trace.o is compiled above).
link_on=(UPROBES UPROBE_EVENTS UPROBES_LEGACY_ARCH PERF_EVENTS FTRACE
	 CROSS_MEMORY_ATTACH COREDUMP BINFMT_ELF DEBUG_INFO_NONE)
# What an architecture's tinyconfig lacks for those: arm's is a Cortex-M
# without an MMU (no uprobes), mips's a 32-bit big-endian one (the
# compiler is mips64el's).
declare -A link_extra=([arm]="MMU ARCH_MULTI_V7 ARCH_VIRT"
		       [mips]="CPU_MIPS64_R2 64BIT CPU_LITTLE_ENDIAN")

# The functions and macros <linux/uprobes.h> declares, with or without
# CONFIG_UPROBES, as a grep -E alternation: their callers are what must
# compile.
iface=$(grep -oE '^(static inline [^(]*[ *]|#define +|[a-z_][a-z0-9_ ]*[ *])?[a-z_][a-z0-9_]*\(' \
	"$SRC/include/linux/uprobes.h" |
	grep -oE '[a-z_][a-z0-9_]*\($' | tr -d '(' | sort -u | paste -sd'|')
kconfigs=$(cd "$SRC" && find . -name 'Kconfig*' -not -path './tools/*' | sort | xargs cat |
	sha256sum | cut -d' ' -f1)
self=$(sha256sum < "$0" | cut -d' ' -f1)

# The directory of ARCH under arch/.
srcarch() { if [ "$1" = i386 ]; then echo x86; else echo "$1"; fi; }

# configure ARCH CROSS BASECONFIG BUILD OPTION...: the base configuration
# (a defconfig, tinyconfig) plus the options, into BUILD/.config (its time
# stamp kept when the result is the same: the objects are not rebuilt for
# nothing).
configure() {
	local arch=$1 cross=$2 defconfig=$3 build=$4 stamp=$4/.uprobes-cross-inputs sum opt
	shift 4
	local mk=(make -s -C "$SRC" O="$build" ARCH="$arch" CROSS_COMPILE="$cross")
	sum=$( { echo "$kconfigs $self $defconfig $*"; "${cross}gcc" --version | head -n 1
		 (cd "$SRC/arch/$(srcarch "$arch")/configs" && find . -type f | sort | xargs cat); } |
		sha256sum | cut -d' ' -f1)
	if [ -f "$build/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	mkdir -p "$build"
	rm -f "$stamp" "$build/.config.prev"
	[ ! -f "$build/.config" ] || cp -p "$build/.config" "$build/.config.prev"
	"${mk[@]}" "$defconfig" || return 1
	local args=()
	for opt in "$@"; do args+=(-e "$opt"); done
	args+=(-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 -d DEBUG_INFO_DWARF5)
	"$SRC/scripts/config" --file "$build/.config" "${args[@]}" || return 1
	"${mk[@]}" olddefconfig || return 1
	if [ -f "$build/.config.prev" ] && cmp -s "$build/.config" "$build/.config.prev"; then
		mv "$build/.config.prev" "$build/.config"
	fi
	rm -f "$build/.config.prev"
	echo "$sum" > "$stamp"
}

# Log lines of a failed build worth showing: errors and warnings.
show_failure() {
	grep -E 'error|warning' "$1" | head -n 20 >&2 || tail -n 20 "$1" >&2
}

# check_defconfig ARCH CROSS DEFCONFIG BUILD [ARCH'S OWN CALLERS...]: the
# engine through the architecture's stock code, or its own part
# (own_part). Prints PASS or FAIL, the reasons on stderr (and the log).
check_defconfig() {
	local arch=$1 cross=$2 defconfig=$3 build=$4 blog=$4.log
	shift 4
	local objs=() o obj gates g ok opt bad=0 files f
	local on=("${want_on[@]}" UPROBES_LEGACY_ARCH KUNIT UPROBES_KUNIT_TEST)
	local off=HAVE_UPROBES_ARCH_PART
	local built=(kernel/events/uprobes/legacy_arch.o) why="has no part of the engine"
	if [ -n "${own_part[$arch]:-}" ]; then
		# shellcheck disable=SC2206 # the list of options
		on=("${want_on[@]}" HAVE_UPROBES_ARCH_PART ${own_part[$arch]})
		off=UPROBES_LEGACY_ARCH built=() why="has a part of the engine of its own"
	fi
	: > "$blog"
	if ! configure "$arch" "$cross" "$defconfig" "$build" "${on[@]}" >>"$blog" 2>&1; then
		log "$arch: configuring with $defconfig failed ($blog)"
		echo FAIL
		return
	fi
	local cfg=$build/.config
	grep -qx 'CONFIG_ARCH_SUPPORTS_UPROBES=y' "$cfg" ||
		{ log "$arch: ARCH_SUPPORTS_UPROBES is not set: the test means nothing"; bad=1; }
	for opt in "${on[@]}"; do
		grep -qx "CONFIG_$opt=y" "$cfg" ||
			{ log "$arch: CONFIG_$opt=y asked for, not granted"; bad=1; }
	done
	! grep -q "^CONFIG_$off=y" "$cfg" ||
		{ log "$arch: CONFIG_$off=y, but $arch $why"; bad=1; }
	for o in "${callers[@]}" "$@"; do
		obj=${o%%:*} gates=
		[ "$obj" = "$o" ] || gates=${o#*:}
		ok=1
		for g in ${gates//+/ }; do grep -qx "CONFIG_$g=y" "$cfg" || ok=0; done
		if [ $ok = 1 ]; then objs+=("$obj"); else echo "not built here: $obj ($gates)" >>"$blog"; fi
	done
	# Every caller of the interface must be in the lists (the
	# architecture's own uprobes files are compiled as arch_uprobes).
	[ -n "$iface" ] || { log "no functions found in include/linux/uprobes.h"; echo FAIL; return; }
	files=$(cd "$SRC" && { grep -rlwE --include='*.c' "$iface" kernel mm fs "arch/$(srcarch "$arch")" |
		grep -vE '^kernel/events/uprobes|^kernel/trace/trace_uprobe|^arch/[^/]+/(.*/)?uprobes' || true; })
	for f in $files; do
		case " ${callers[*]} $* " in
		*" ${f%.c}.o"[:\ ]*) ;;
		*) log "$arch: $f calls <linux/uprobes.h> and is not compiled by $0"; bad=1 ;;
		esac
	done
	[ $bad = 0 ] || { echo FAIL; return; }
	# shellcheck disable=SC2206 # the list of objects
	local own=(${arch_uprobes[$arch]})
	echo "compiling: ${ours[*]} ${own[*]} ${objs[*]}" >>"$blog"
	rm -f "${own[@]/#/$build/}"
	if ! make -C "$SRC" O="$build" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" KCFLAGS="-Werror ${kcflags[$arch]:-}" \
		"${ours[@]}" "${own[@]}" "${objs[@]}" >>"$blog" 2>&1; then
		show_failure "$blog"
		echo FAIL
		return
	fi
	for o in "${built[@]}" "${own[@]}"; do
		[ -f "$build/$o" ] || { log "$arch: $o was not built"; bad=1; }
	done
	[ $bad = 0 ] && echo PASS || echo FAIL
}

# check_link ARCH CROSS BUILD: the whole kernel, vmlinux, from tinyconfig.
check_link() {
	local arch=$1 cross=$2 build=$3 blog=$3.log opt bad=0 sym syms
	local -a want
	read -ra want <<< "${link_on[*]} ${link_extra[$arch]:-}"
	: > "$blog"
	if ! configure "$arch" "$cross" tinyconfig "$build" "${want[@]}" >>"$blog" 2>&1; then
		log "$arch: configuring tinyconfig failed ($blog)"
		echo FAIL
		return
	fi
	for opt in "${want[@]}"; do
		grep -qx "CONFIG_$opt=y" "$build/.config" ||
			{ log "$arch (link): CONFIG_$opt=y asked for, not granted"; bad=1; }
	done
	[ $bad = 0 ] || { echo FAIL; return; }
	if ! make -C "$SRC" O="$build" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" vmlinux >>"$blog" 2>&1; then
		show_failure "$blog"
		echo FAIL
		return
	fi
	if grep -E 'warning' "$blog" | grep -E 'kernel/events/uprobes|trace_uprobe|uprobes' >&2; then
		bad=1
	fi
	syms=$("${cross}nm" "$build/vmlinux") || { echo FAIL; return; }
	for sym in arch_uprobe_analyze arch_uprobe_analyze_insn uprobe_notify_resume \
		   uprobe_register_file arch_uretprobe_hijack_return_addr; do
		grep -q " [Tt] $sym\$" <<< "$syms" ||
			{ log "$arch (link): $sym is not in vmlinux"; bad=1; }
	done
	[ $bad = 0 ] && echo PASS || echo FAIL
}

# check_arm64: the engine's arm64 part, configured as the arm64 kernel is.
check_arm64() {
	local arch=arm64 cross=$1 build=$2 blog=$2.log
	if ! ARCH=$arch "$ROOT/scripts/kconfig.sh" "$SRC" "$build" release >"$blog" 2>&1 ||
	   ! make -C "$SRC" O="$build" ARCH=$arch CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" KCFLAGS=-Werror \
		kernel/events/uprobes/ "arch/$arch/kernel/uprobes/" kernel/trace/ \
		>>"$blog" 2>&1; then
		show_failure "$blog"
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

# run NAME BUILD COMMAND...: one result, COMMAND run with BUILD locked.
run() {
	local name=$1 build=$2 start=$SECONDS verdict
	shift 2
	mkdir -p "$CACHE"
	exec 9>"$build.lock"
	flock 9
	verdict=$("$@")
	exec 9>&-
	log "$name: $verdict in $((SECONDS - start)) s"
	echo "UPROBES-NG-RESULT: $verdict $name"
}

total=$SECONDS
for t in "${targets[@]}"; do
	read -r arch cross defconfig extra <<< "$t"
	selected "$arch" || continue
	if ! command -v "${cross}gcc" >/dev/null; then
		log "no ${cross}gcc (scripts/deps.sh installs it)"
		echo "UPROBES-NG-RESULT: FAIL host/cross:$arch"
		continue
	fi
	if [ "$defconfig" = - ]; then
		run "host/cross:$arch" "$CACHE/build-cross-$arch" \
			check_arm64 "$cross" "$CACHE/build-cross-$arch"
		continue
	fi
	# shellcheck disable=SC2086 # the list of objects
	run "host/cross:$arch" "$CACHE/build-cross-$arch" \
		check_defconfig "$arch" "$cross" "$defconfig" "$CACHE/build-cross-$arch" $extra
	[[ " $link_arches " == *" $arch "* ]] || continue
	run "host/cross-link:$arch" "$CACHE/build-cross-link-$arch" \
		check_link "$arch" "$cross" "$CACHE/build-cross-link-$arch"
done
log "host/cross: $((SECONDS - total)) s"
exit 0
