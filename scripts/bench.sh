#!/bin/bash
# make bench: the cost of a uprobe hit on our engine and on the stock one,
# same kernel version, config, guest and QEMU, in one run.
# Both kernels boot the guest in bench mode under "-icount shift=0", where
# guest time counts guest instructions: the figures are deterministic and
# comparable. Prints a table and the ratio stock / ours (> 1: ours faster).
# BENCH_N=calls per measurement (default 20000).
. "$(dirname "$0")/lib.sh"

ours=$("$ROOT/scripts/build.sh")
stock=$(STOCK=1 "$ROOT/scripts/build.sh")
initrd=$("$ROOT/scripts/initramfs.sh")

run() {
	local name=$1 kernel=$2 logf=$OUT/console-bench-$1.log
	ICOUNT=1 TIMEOUT=${TIMEOUT:-900} KERNEL=$kernel INITRD=$initrd LOG=$logf \
		"$ROOT/scripts/qemu.sh" bench "uprobes_ng.bench_n=${BENCH_N:-20000}" >&2 ||
		die "$name kernel: bench run failed, see $logf"
	grep -a '^bench ' "$logf" | tr -d '\r' > "$OUT/bench-$name.txt"
	[ -s "$OUT/bench-$name.txt" ] || die "$name kernel: no bench lines in $logf"
	if grep -q 'error=' "$OUT/bench-$name.txt" ||
	   grep -vq 'hits=\([0-9]*\)/\1$' "$OUT/bench-$name.txt"; then
		cat "$OUT/bench-$name.txt" >&2
		die "$name kernel: a benchmark failed or lost hits"
	fi
}
run stock "$stock"
run ours "$ours"

echo "uprobe hit cost, $KPKG $(kpkg_version), QEMU TCG -icount shift=0 (1 ns = 1 guest instruction)"
printf '%-12s %14s %14s %8s\n' probed-insn "stock ns/hit" "ours ns/hit" "stock/ours"
join <(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^hit_ns=/) print $2, substr($i, 8) }' "$OUT/bench-stock.txt" | sort) \
     <(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^hit_ns=/) print $2, substr($i, 8) }' "$OUT/bench-ours.txt" | sort) |
	awk '{ printf "%-12s %14.1f %14.1f %7.2fx\n", $1, $2, $3, $2 / $3 }'
