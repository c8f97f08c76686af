#!/bin/bash
# make hit-profile KIND=push: where the instructions of one uprobe hit go,
# stock engine and tracer against ours. Boots each kernel in bench mode
# with scripts/qemu.sh (one vCPU, icount, QEMU's gdb stub), lets the
# benchmark's probe on KIND (a class of bench/uprobe_bench.c: push, nop5,
# mov_reg, ...) fire a few times, then single-steps one whole hit from the
# int3 trap back to the program, XOL slot and single-step trap included,
# and counts the instructions per kernel function (symbols of each
# vmlinux). KIND=uretprobe: the entry hit and the return through the
# trampoline of the benchmark's return probe figure. TRACED=none, regs or
# str: a hit of the traced figure with those arguments (bench.sh's
# (1b)), its ring buffer record included. KIND=nop5 on our
# kernel: from the system call entry of the stub the probed nop jumps to
# (its six user instructions before it are not counted), stock: from the
# int3 trap as for the other kinds (its entry code not counted).
# Figures are guest instructions, like make bench's.
. "$(dirname "$0")/lib.sh"
x86_only "make hit-profile" "it traces the x86 benchmark's probes"

kind=${KIND:-push}
label=$kind
# The benchmark's figures hit each class's probe 200 times untraced, then
# 200 times traced with each argument set (none, regs, str); the
# uretprobe figure's entry and return probe on push's function comes
# after all of them. TRACED=none|regs|str: a hit of the traced figure.
skip=5 ret=0
if [ "$kind" = uretprobe ]; then
	kind=push skip=805 ret=1
fi
case ${TRACED:-} in
"") ;;
none) skip=$((skip + 200)) label+=" traced" ;;
regs) skip=$((skip + 400)) label+=" traced, regs" ;;
str) skip=$((skip + 600)) label+=" traced, string" ;;
*) die "TRACED=$TRACED: none, regs or str" ;;
esac
ours=$("$ROOT/scripts/build.sh")
stock=$(STOCK=1 "$ROOT/scripts/build.sh")
initrd=$("$ROOT/scripts/initramfs.sh")
bench=$OUT/initramfs/usr/lib/uprobes-ng/bench/uprobe_bench
[ -x "$bench" ] || die "no benchmark program at $bench"
addr=$(nm "$bench" | awk -v s="p_$kind" '$3 == s { print $1 }')
[ -n "$addr" ] || die "unknown KIND=$kind (no p_$kind in $bench)"
# The program is static and not PIE: its executable segment, where a hit
# ends (the XOL area may lie below or above it).
read -r lo size < <(readelf -lW "$bench" | awk '$1 == "LOAD" && / R E / { print $3, $6 }')
[ -n "$lo" ] || die "no executable segment in $bench"
text=$(printf '%s:0x%x' "$lo" $((lo + size)))

trace() { # name bzImage
	local name=$1 kernel=$2 port=$((20000 + RANDOM % 10000)) qpid stub=0
	[ "$name" = ours ] && [ "$kind" = nop5 ] && stub=1
	local pcs=$OUT/hit-$kind-$name.pcs
	# One vCPU, stopped at the start until gdb attaches; gdb kills QEMU
	# when it is done, else qemu.sh's boot or run limit does.
	SMP=1 ICOUNT=1 TIMEOUT=900 KERNEL=$kernel INITRD=$initrd \
		LOG=$OUT/console-hit-$name.log \
		QEMU_ARGS="-gdb tcp:127.0.0.1:$port -S" \
		"$ROOT/scripts/qemu.sh" bench uprobes_ng.bench_n=200 >&2 &
	qpid=$!
	sleep 1
	rm -f "$pcs"
	HIT_PORT=$port HIT_IP=$((0x$addr + 1)) HIT_OUT=$pcs HIT_TEXT=$text \
		HIT_SKIP=$skip HIT_RET=$ret HIT_STUB=$stub \
		timeout 900 gdb -q -batch -nx -ex "set architecture i386:x86-64" \
		-ex "file $(dirname "$kernel")/../../../vmlinux" \
		-x "$ROOT/scripts/hit-profile.py" > "$OUT/gdb-hit-$name.log" 2>&1 || true
	wait "$qpid" 2> /dev/null || true
	[ -s "$pcs" ] || die "$name kernel: no trace, see $OUT/gdb-hit-$name.log"
	echo "$pcs"
}

stock_pcs=$(trace stock "$stock")
ours_pcs=$(trace ours "$ours")
echo "one uprobe hit on '$label' (bench/uprobe_bench.c), guest instructions per function"
python3 "$ROOT/scripts/hit-symbols.py" \
	"$(dirname "$stock")/../../../vmlinux" "$stock_pcs" \
	"$(dirname "$ours")/../../../vmlinux" "$ours_pcs"
