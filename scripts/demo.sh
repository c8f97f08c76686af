#!/bin/bash
# The demo command: build the kernel and the guest, boot it in demo mode
# (scripts/guest/run-demo: "p demo:OFFSET %ip %ax" in uprobe_events, run the
# program, show the trace) and exit 0 only when real trace lines of the
# probe appeared, every KUnit case of our kernel passed at boot and the
# kernel did not complain.
# DEBUG=1 / STOCK=1 / ARCH=arm64 as for scripts/build.sh; KERNEL=bzImage
# boots that kernel instead of building one (the guest is built all the
# same). On arm64 the probe fetches "%pc %x0 %x1 %sp" (riscv: "%epc %a0
# %a1 %sp"; s390, which has no register name for the instruction address:
# "%r2 %r3 %r15"): demo_add()'s arguments must show in the trace as the
# program passed them, and a return probe on it must show its results (and
# the program must not see the trampoline's address in its link register);
# our kernel's KUnit cases at
# boot were 146 there when counted, the arm64 part's own four suites among
# them.
# Measured on arm64 (TCG, 2 host cores shared with an x86 build, nice -n
# 19): a cold stock build 16 minutes (978 s; 43 s from a warm ccache), ours
# about 10 minutes cold, an incremental rebuild and demo 35 s, the boot to
# the demo's end 3-4 s.
. "$(dirname "$0")/lib.sh"

kernel=${KERNEL:-$("$ROOT/scripts/build.sh")}
initrd=$("$ROOT/scripts/initramfs.sh")
logf=$OUT/console-demo.log
qrc=0
# Show the guest's own output (no kernel time stamp) and kernel complaints.
FOLLOW_GREP=$'^[^[\e]'"|^\\[ *[0-9.]+\\] .*($SPLAT_RE)" TIMEOUT=${TIMEOUT:-300} \
	KERNEL=$kernel INITRD=$initrd LOG=$logf "$ROOT/scripts/qemu.sh" -f demo || qrc=$?

# Our kernel runs its KUnit suites at boot (the architecture's own too):
# read by the kernel's parser, every case must pass.
kunit=
if [ "${STOCK:-0}" != 1 ]; then
	rm -f "$OUT/kunit-demo.json"
	python3 "$SRC/tools/testing/kunit/kunit.py" parse --json="$OUT/kunit-demo.json" \
		"$logf" >/dev/null 2>&1 || true
	kunit=$(python3 "$ROOT/scripts/kunit-results.py" "$OUT/kunit-demo.json" || true)
fi

why=
if ! grep -aq '^UPROBES-NG-DEMO: PASS' "$logf"; then
	why=$(grep -a '^UPROBES-NG-DEMO: FAIL' "$logf" || echo "the demo did not complete")
elif [ "$KARCH" = x86 ] &&
     ! grep -aqE 'p_demo_0x[0-9a-f]+: \(0x[0-9a-f]+\) arg1=0x[0-9a-f]+ arg2=0x[0-9a-f]+' "$logf"; then
	why="no trace line with %ip and %ax values"
elif [ "$KARCH" != x86 ] && [ "$KARCH" != s390 ] &&
     [ "$(sed -n 's/.*p_demo_0x[0-9a-f]*: (0x[0-9a-f]*) arg1=0x[0-9a-f]* arg2=\(0x[0-9a-f]*\) arg3=\(0x[0-9a-f]*\) arg4=0x[0-9a-f]*.*/\1,\2/p' \
	"$logf" | tr '\n' ' ')" != "0x0,0x1 0x1,0x2 0x3,0x3 0x6,0x4 0xa,0x5 " ]; then
	why="no trace lines with the pc, sp and demo_add()'s arguments (x0, x1; a0, a1: 0,1 1,2 3,3 6,4 10,5)"
elif [ "$KARCH" = s390 ] &&
     [ "$(sed -n 's/.*p_demo_0x[0-9a-f]*: (0x[0-9a-f]*) arg1=\(0x[0-9a-f]*\) arg2=\(0x[0-9a-f]*\) arg3=0x[0-9a-f]*.*/\1,\2/p' \
	"$logf" | tr '\n' ' ')" != "0x0,0x1 0x1,0x2 0x3,0x3 0x6,0x4 0xa,0x5 " ]; then
	why="no trace lines with %r15 and demo_add()'s arguments in %r2, %r3 (0,1 1,2 3,3 6,4 10,5)"
elif [ "$KARCH" != x86 ] &&
     [ "$(sed -n 's/.*demo_ret: (0x[0-9a-f]* <- 0x[0-9a-f]*) ret=\(0x[0-9a-f]*\).*/\1/p' "$logf" | tr '\n' ' ')" != \
       "0x1 0x3 0x6 0xa 0xf " ]; then
	why="no return probe lines with demo_add()'s results (1 3 6 10 15)"
elif grep -q ' FAIL ' <<< "$kunit"; then
	why="KUnit: $(grep ' FAIL ' <<< "$kunit" | head -n 3 | sed 's/.* FAIL //' | tr '\n' ' ')failed"
elif kmsg "$logf" | grep -aqE "$SPLAT_RE"; then
	why="kernel splat: $(kmsg "$logf" | grep -aE "$SPLAT_RE" | head -n 1)"
elif [ $qrc != 0 ]; then
	why="guest exit status $qrc"
fi
echo
if [ -n "$why" ]; then
	echo "---- console log tail ($logf) ----"
	tail -n 40 "$logf"
	echo "----"
	echo "DEMO FAILED: $why"
	exit 1
fi
[ -z "$kunit" ] || kunit=", KUnit $(grep -c ' PASS ' <<< "$kunit") cases passed"
echo "demo OK: the probe fired, $(grep -acE 'p_demo_0x[0-9a-f]+: \(' "$logf") trace lines$kunit ($(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")"))"
