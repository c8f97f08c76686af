#!/bin/bash
# make check-clients: real tracing clients (bpftrace, perf, gdb, strace,
# ftrace by hand) on our kernel, or with STOCK=1 on the stock one, in the
# guest, chrooted into a Debian root (scripts/debroot.sh) shared over
# virtio-9p. The scenarios are clients/*.sh; every result is exact. A
# kernel splat or a scenario that never finished is a failure. Last line:
# "N passed, M failed"; non-zero exit status when M > 0. Output:
# $OUT/console-clients.log and $OUT/results-clients.txt (-stock with
# STOCK=1). .ci/run runs it after make check. About three minutes warm.
# The scenarios, each with an exact expected result, against a target
# program built in the root: bpftrace uprobe, uretprobe, arguments, str(),
# a wildcard, USDT with its semaphore (1 while traced, 0 after) and -p;
# perf probe -x entry and %return with arguments, perf stat, perf
# record/script, perf record -g with a pending return probe (no [uprobes]
# address in the chains); the uprobe PMU opened with perf_event_open()
# (entry, return, ref_ctr_offset); a BPF program on a
# BPF_TRACE_UPROBE_MULTI link written with the raw bpf() call (two
# offsets, cookies, bpf_get_func_ip(), a pid filter); ftrace by hand; gdb
# and strace on a probed program. Where stock and ours differ: strace
# shows stock's return trampoline's uretprobe() system calls (100 in the
# scenario), ours none (the engine's own system calls are hidden from
# ptrace, seccomp, syscall user dispatch, audit and the syscall
# tracepoints); gdb's x/1xb on a probed function shows stock's int3, ours
# the program's byte; gdb's "break *cl_w1" on a probed instruction stops 3
# times in 3 calls on ours, never on stock (the probe counts 3 on both).
# Both agree that bpftrace 0.17's -p PID does not restrict uprobes to that
# process (the scenario expects both processes' calls, as stock gives).
. "$(dirname "$0")/lib.sh"
x86_only "make check-clients" "the Debian root is the host's architecture"

kernel=$("$ROOT/scripts/build.sh")
[ "${STOCK:-0}" = 1 ] && kernel=$(STOCK=1 "$ROOT/scripts/build.sh")
initrd=$("$ROOT/scripts/initramfs.sh")
root=$("$ROOT/scripts/debroot.sh")
mkdir -p "$root/opt/uprobes-ng"
rm -rf "$root/opt/uprobes-ng/clients"
cp -r "$ROOT/clients" "$root/opt/uprobes-ng/clients"

name=clients
[ "${STOCK:-0}" = 1 ] && name=clients-stock
logf=$OUT/console-$name.log
res=$OUT/results-$name
qrc=0
FOLLOW_GREP='^UPROBES-NG-(RESULT|BOOTED)|^clients/|^\[ *[0-9.]+\] .*(Oops|BUG|WARNING)' \
	SHARE=$root MEM=2G PROG_TIMEOUT=${PROG_TIMEOUT:-360} TIMEOUT=${TIMEOUT:-2400} \
	KERNEL=$kernel INITRD=$initrd LOG=$logf "$ROOT/scripts/qemu.sh" -f clients || qrc=$?

grep -a '^UPROBES-NG-RESULT: ' "$logf" | tr -d '\r' > "$res" || true
for s in "$ROOT"/clients/[0-9]*.sh; do
	s=clients/$(basename "$s" .sh)
	grep -aq "^UPROBES-NG-END: $s rc=" "$logf" || echo "UPROBES-NG-RESULT: FAIL $s:no-result" >> "$res"
done
grep -aq '^UPROBES-NG-DONE' "$logf" || echo "UPROBES-NG-RESULT: FAIL clients:completed" >> "$res"
[ $qrc = 0 ] || echo "UPROBES-NG-RESULT: FAIL clients:qemu-exit-status-$qrc" >> "$res"
kmsg "$logf" | grep -a -E "$SPLAT_RE" | head -n 10 | sed 's/^/UPROBES-NG-RESULT: FAIL kernel:splat: /' >> "$res" || true
sed 's/^UPROBES-NG-RESULT: //' "$res" > "$res.txt"
pass=$(grep -c '^PASS ' "$res.txt" || true)
fail=$(grep -c '^FAIL ' "$res.txt" || true)
echo
grep -a '^clients/' "$logf" | tr -d '\r' || true
grep '^FAIL ' "$res.txt" || true
echo "kernel: $kernel; results: $res.txt"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
