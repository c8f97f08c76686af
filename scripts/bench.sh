#!/bin/bash
# make bench: what uprobes cost on our engine and on the stock one, same
# kernel version, config, guest and QEMU, in one run.
# Both kernels boot the guest in bench mode (bench/uprobe_bench.c) under
# "-icount shift=0,sleep=off", where guest time counts guest instructions:
# the figures are deterministic and comparable. Prints tables with the ratio
# ours / stock (< 1: ours cheaper): (1) hit cost per probed instruction
# class, (2) return probes, (3) hit cost against the number of registered
# probes, (4) registering and removing probes at scale, (5) memory, (6) the
# hit cost weighted by the first instructions of real functions
# (scripts/bench-basket.py), (7) BPF programs: entry, entry and return,
# sessions, a program that moves ip, (8) threads hitting one probe at once.
# Fails only when a benchmark fails (an error, a hit not counted, a class
# our engine refuses), never on timing; more hits than calls (a probed
# instruction that traps again), a probed program killed by the engine
# and a class the stock engine refuses are shown in the table.
# ARCH=arm64: the same with the benchmark's arm64 classes, on the arm64
# kernels (qemu-system-aarch64 -M virt, TCG under the same -icount).
# Settings: BENCH_SMP=vCPUs (default 2, riscv 1; 4 for the threads
# figure's four threads); BENCH_N=calls per hit figure (default 20000); the guest
# program's defaults otherwise (scripts/guest/run-bench):
# BENCH_REGISTRY=1,100,10000,100000 BENCH_ATTACH=2000 BENCH_PROCS=20
# BENCH_MEMORY=10000; BENCH_ONLY=figure,... (classes traced uretprobe threads
# bpf memory lookup attach) runs only those.
. "$(dirname "$0")/lib.sh"

ours=$("$ROOT/scripts/build.sh")
stock=$(STOCK=1 "$ROOT/scripts/build.sh")
initrd=$("$ROOT/scripts/initramfs.sh")

cmdline=("uprobes_ng.bench_n=${BENCH_N:-20000}")
for v in registry attach procs memory only; do
	var=BENCH_${v^^}
	[ -z "${!var:-}" ] || cmdline+=("uprobes_ng.bench_$v=${!var}")
done

# riscv: one vCPU. Its instruction cache flushes (each step's slot)
# reach the other harts through OpenSBI, which spins until they answer,
# and under -icount the vCPUs take turns: a two-vCPU figure would
# measure the emulator's turns.
smp=2
[ "$KARCH" != riscv ] || smp=1

run() {
	local name=$1 kernel=$2 logf=$OUT/console-bench-$1.log
	SMP=${BENCH_SMP:-$smp} ICOUNT=1 TIMEOUT=${TIMEOUT:-3600} KERNEL=$kernel \
		INITRD=$initrd LOG=$logf \
		"$ROOT/scripts/qemu.sh" bench "${cmdline[@]}" >&2 ||
		die "$name kernel: bench run failed, see $logf"
	grep -a '^bench ' "$logf" | tr -d '\r' > "$OUT/bench-$name.txt"
	[ -s "$OUT/bench-$name.txt" ] || die "$name kernel: no bench lines in $logf"
	# error=..., a class our engine refuses, or a hits=A/B (ret_hits=...,
	# records=...) with A < B
	if ! awk -v ours="$([ "$name" = ours ] && echo 1 || echo 0)" \
		'/ error=/ || (ours && / refused=/) { bad = 1 }
		{ for (i = 3; i <= NF; i++) if ($i ~ /(hits|records)=/) {
			split(substr($i, index($i, "=") + 1), h, "/")
			if (h[1] + 0 < h[2] + 0) bad = 1 } }
		END { exit bad }' "$OUT/bench-$name.txt"; then
		cat "$OUT/bench-$name.txt" >&2
		die "$name kernel: a benchmark failed or lost hits"
	fi
}

# val KERNEL NAME KEY: KEY= of the "bench NAME" line of KERNEL's results, or -
val() {
	[ -f "$OUT/bench-$1.txt" ] || { echo -; return; }
	awk -v n="$2" -v k="$3=" '$2 == n { for (i = 3; i <= NF; i++)
		if (index($i, k) == 1) v = substr($i, length(k) + 1) }
		END { print v == "" ? "-" : v }' "$OUT/bench-$1.txt"
}

# ratio A B: A / B, or - when either is no number
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = "^[0-9.]+$"
		print (a ~ n && b ~ n && b > 0) ? sprintf("%.2f", a / b) : "-" }'
}

# row LABEL STOCK OURS [EXTRA]: a table row with the ratio ours / stock
row() {
	printf '%-22s %14s %14s %10s  %s\n' "$1" "$2" "$3" "$(ratio "$3" "$2")" "${4:-}"
}

# header LABEL STOCK OURS RATIO [EXTRA]
header() {
	printf '%-22s %14s %14s %10s  %s\n' "$@"
}

# extra_hits NAME: a note for each kernel that counted more hits than
# calls, killed the probed program or refused to probe it
extra_hits() {
	local k h
	for k in stock ours; do
		h=$(val $k "$1" killed)
		[ "$h" = - ] || printf ' (%s: probed program killed by SIG%s)' $k "$h"
		h=$(val $k "$1" refused)
		[ "$h" = - ] || printf ' (%s: refused, %s)' $k "${h#enable:}"
		h=$(val $k "$1" hits)
		[ "$h" = - ] || [ "${h%/*}" = "${h#*/}" ] ||
			printf ' (%s: %s hits per call)' $k "$(awk -v h="$h" \
				'BEGIN { split(h, a, "/"); printf "%.1f", a[1] / a[2] }')"
	done
}

# unsupported NAME: which kernel does not support figure NAME, and why
unsupported() {
	local k h
	for k in stock ours; do
		h=$(val $k "$1" unsupported)
		[ "$h" = - ] || printf '(%s: unsupported, %s) ' $k "$h"
	done
}

# names PATTERN: the names of the bench lines matching PATTERN, ours first
names() {
	cat "$OUT/bench-ours.txt" "$OUT/bench-stock.txt" 2> /dev/null |
		awk -v p="$1" '$2 ~ p && !seen[$2]++ { print $2 }'
}

# struct_sizes BUILD: sizeof of the engine's structures in the kernel built
# in BUILD, "-" for those it does not have. The object whose source
# defines struct xol_area, or includes xol.h (which does), is
# compiled again, to a temporary file, with the same command plus -g, and
# the sizes read from its DWARF with readelf (any architecture's object:
# the host's gdb reads only its own).
struct_sizes() {
	local build=$1 cmd= f obj s sizes
	for f in "$build"/kernel/events/.uprobes.o.cmd \
		 "$build"/kernel/events/uprobes/.*.o.cmd; do
		[ -f "$f" ] || continue
		cmd=$(sed -n 's/^savedcmd_[^ ]* := \(.*[^ ]\) *$/\1/p' "$f")
		# Defined in the source, or in xol.h, which it includes.
		grep -qs -e '^struct xol_area {' -e '^#include "xol.h"' \
			"${cmd##* }" && break
		cmd=
	done
	if [ -z "$cmd" ]; then
		echo "uprobe=- uprobe_task=- return_instance=- xol_area=-"
		return
	fi
	obj=$(mktemp --suffix=.o)
	cmd=$(sed -e 's/ -Wp,-MMD,[^ ]*//' \
		-e "s| -c -o [^ ]* | -g -fno-eliminate-unused-debug-types -c -o $obj |" <<< "$cmd")
	(cd "$build" && eval "$cmd") >&2 || log "could not compile for sizes: $f"
	sizes=$(readelf --debug-dump=info "$obj" 2> /dev/null | awk '
		function flush() {
			if (tag && name != "" && size != "" && !(name in got))
				got[name] = size
		}
		/^ *<[0-9a-f]+><[0-9a-f]+>: Abbrev Number:/ {
			flush()
			tag = /\(DW_TAG_structure_type\)/
			name = size = ""
			next
		}
		tag && /^ *<[0-9a-f]+> *DW_AT_name / { name = $NF }
		tag && /^ *<[0-9a-f]+> *DW_AT_byte_size / { size = $NF }
		END { flush(); for (n in got) print n "=" got[n] }')
	for s in uprobe uprobe_task return_instance xol_area; do
		printf '%s=%s ' "$s" "$(sed -n "s/^$s=//p" <<< "$sizes" | grep . || echo -)"
	done
	echo
	rm -f "$obj"
}

run stock "$stock"
run ours "$ours"

echo "uprobes cost, $KARCH, $KPKG $(kpkg_version), QEMU TCG -icount shift=0,sleep=off"
echo "(1 ns = 1 guest instruction; ours/stock < 1: ours cheaper)"
echo
echo "(1) hit cost per probed instruction, tracing_on=0 (handler runs, no record)"
header class "stock ns/hit" "ours ns/hit" ours/stock "our kind"
for n in $(names .); do
	case $n in
	getpid | uretprobe | registry | memory | lookup_* | attach_* | bpf_* | tr_* | threads_*) continue ;;
	esac
	row "$n" "$(val stock "$n" hit_ns)" "$(val ours "$n" hit_ns)" \
		"$(val ours "$n" kind)$(extra_hits "$n")"
done
row "getpid syscall" "$(val stock getpid syscall_ns)" "$(val ours getpid syscall_ns)" "(for scale)"
echo
echo "(1b) the same hits traced: tracing_on=1, a ring buffer record per hit (counted),"
echo "     arguments: none; regs, the instruction pointer and the first argument register"
echo "     (the seed's %ip %ax); str, a string of the program's;"
echo "     record: the traced hit less the untraced one, stock and ours"
header "class, arguments" "stock ns/hit" "ours ns/hit" ours/stock "record: stock, ours"
for n in $(names '^tr_none_'); do
	c=${n#tr_none_}
	for set in none regs str; do
		m=tr_${set}_$c
		rec=$(awk -v s1="$(val stock "$m" hit_ns)" -v s0="$(val stock "$c" hit_ns)" \
			-v o1="$(val ours "$m" hit_ns)" -v o0="$(val ours "$c" hit_ns)" \
			'BEGIN { n = "^[0-9.]+$"
				printf "%s, %s", (s1 ~ n && s0 ~ n) ? sprintf("%.0f", s1 - s0) : "-",
					(o1 ~ n && o0 ~ n) ? sprintf("%.0f", o1 - o0) : "-" }')
		row "$c $set" "$(val stock "$m" hit_ns)" "$(val ours "$m" hit_ns)" \
			"$rec$(extra_hits "$m")"
	done
done
echo
echo "(2) return probes: entry and return probe on one function, per call"
header "" "stock ns/call" "ours ns/call" ours/stock
row uretprobe "$(val stock uretprobe hit_ns)" "$(val ours uretprobe hit_ns)"
header "" "stock allocs" "ours allocs" ours/stock
row "slab allocs per call" "$(val stock uretprobe allocs)" "$(val ours uretprobe allocs)" \
	"(warm; kmalloc + kmem_cache_alloc of the task)"
echo
echo "(3) hit cost of a probe on a nop against the number of other probes"
echo "    (perf uprobes on a file nobody maps; opening and closing include perf's"
echo "    part, and closing one waits for a grace period on both kernels)"
header "other probes" "stock ns/hit" "ours ns/hit" ours/stock
for n in $(names '^lookup_'); do
	extra=
	for k in stock ours; do
		o=$(val $k "$n" stopped)
		[ "$o" = - ] || extra+=" $k stopped at $(val $k "$n" others) ($o)"
	done
	row "${n#lookup_}" "$(val stock "$n" hit_ns)" "$(val ours "$n" hit_ns)" "$extra"
done
row "open ns/probe" "$(val stock registry open_ns)" "$(val ours registry open_ns)" \
	"over $(val ours registry probes) probes"
row "close ns/probe" "$(val stock registry close_ns)" "$(val ours registry close_ns)"
echo
echo "(4) attach at scale: $(val ours attach_perf_open probes) probes on a file mapped by" \
	"$(val ours attach_perf_open procs) processes, wall time"
header operation "stock ns" "ours ns" ours/stock "stock, ours ns/probe"
for n in attach_perf_open attach_perf_close attach_bpf_link attach_bpf_close; do
	row "${n#attach_}" "$(val stock $n total_ns)" "$(val ours $n total_ns)" \
		"$(val stock $n per_probe_ns), $(val ours $n per_probe_ns)"
done
echo
echo "(5) memory per registered probe, $(val ours memory probes) perf uprobes" \
	"(the perf event, the same on both kernels, included; from $(val ours memory source))"
header "" "stock bytes" "ours bytes" ours/stock
row slab "$(val stock memory slab_bytes)" "$(val ours memory slab_bytes)"
row "MemAvailable drop" "$(val stock memory avail_bytes)" "$(val ours memory avail_bytes)"
echo "    sizeof, bytes:"
sizes_stock=$(struct_sizes "$(dirname "$stock")/../../..")
sizes_ours=$(struct_sizes "$(dirname "$ours")/../../..")
for s in uprobe uprobe_task return_instance xol_area; do
	row "struct $s" "$(tr ' ' '\n' <<< "$sizes_stock" | sed -n "s/^$s=//p")" \
		"$(tr ' ' '\n' <<< "$sizes_ours" | sed -n "s/^$s=//p")"
done
echo
echo "(6) hit cost over function entries (probe on a function's first instruction)"
if [ "$KARCH" = x86 ]; then
	python3 "$ROOT/scripts/bench-basket.py" "$OUT/bench-stock.txt" "$OUT/bench-ours.txt" \
		/bin/busybox /lib/x86_64-linux-gnu/libc.so.6 /bin/bash
elif [ "$KARCH" != arm64 ]; then
	# bench-basket.py classifies x86 and arm64 instructions only.
	echo "    $KARCH: no basket (scripts/bench-basket.py knows x86 and arm64 only)"
else
	# The guest's busybox, the cross toolchain's libc and libstdc++
	# (Debian's arm64 bash is not on the host).
	python3 "$ROOT/scripts/bench-basket.py" --arch=arm64 \
		"$OUT/bench-stock.txt" "$OUT/bench-ours.txt" \
		"$CACHE/busybox-arm64/bin/busybox" "/usr/${CROSS%-}/lib/libc.so.6" \
		"/usr/${CROSS%-}/lib/libstdc++.so.6"
fi
echo
echo "(7) BPF: empty programs at the return figure's function, per call"
header "" "stock ns/call" "ours ns/call" ours/stock
row "entry (1 link)" "$(val stock bpf_entry hit_ns)" "$(val ours bpf_entry hit_ns)"
row "entry+return (2 links)" "$(val stock bpf_entry_return hit_ns)" \
	"$(val ours bpf_entry_return hit_ns)"
row "session (1 link)" "$(val stock bpf_session hit_ns)" "$(val ours bpf_session hit_ns)" \
	"$(unsupported bpf_session)"
row "session vs entry+return" "$(val stock bpf_entry_return hit_ns)" \
	"$(val ours bpf_session hit_ns)" "(ours: one session link; stock: two links)"
header "" "stock allocs" "ours allocs" ours/stock
row "entry+return, allocs" "$(val stock bpf_entry_return allocs)" \
	"$(val ours bpf_entry_return allocs)" "(warm, per call)"
row "session, allocs" "$(val stock bpf_session allocs)" "$(val ours bpf_session allocs)"
echo "    a program that moves ip past t_nop's nop (the nop is not executed),"
echo "    beside an empty program there"
header "" "stock ns/hit" "ours ns/hit" ours/stock
row "empty program" "$(val stock bpf_nop hit_ns)" "$(val ours bpf_nop hit_ns)"
row "ip moved" "$(val stock bpf_move_ip hit_ns)" "$(val ours bpf_move_ip hit_ns)" \
	"$(unsupported bpf_move_ip)"
row "ours: moved vs empty" "$(val ours bpf_nop hit_ns)" "$(val ours bpf_move_ip hit_ns)" \
	"(both ours: empty, then moved)"
echo
echo "(8) many threads on one probe (t_nop's nop), each on a CPU of its own, hitting it at"
echo "    once: instructions per hit of all CPUs together (the vCPUs take turns: a lock"
echo "    a hit spins on shows, a cache line all write does not)"
header threads "stock ns/hit" "ours ns/hit" ours/stock
for n in $(names '^threads_'); do
	row "${n#threads_}" "$(val stock "$n" hit_ns)" "$(val ours "$n" hit_ns)" \
		"$(val ours "$n" why | grep -v '^-$' || true)$(extra_hits "$n")"
done
echo
echo "all figures: $OUT/bench-stock.txt, $OUT/bench-ours.txt"
