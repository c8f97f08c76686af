#!/bin/bash
# Boot a kernel with the guest initramfs in QEMU.
# Usage: qemu.sh [-f] MODE [extra kernel command line...]
#   MODE     check | demo | bench | shell | probe (see scripts/guest/init)
#   -f       also copy the serial console to stdout while it runs
#            (only the lines matching the regex $FOLLOW_GREP, if set)
# Environment:
#   KERNEL=bzImage  INITRD=initramfs.cpio   (default: this flavour's)
#   ARCH=arm64      boot an arm64 Image with qemu-system-aarch64 -M virt
#                   (always TCG: the host is x86); ARCH=riscv a riscv64
#                   Image with qemu-system-riscv64 -M virt
#   ARCH=s390       boot an s390x bzImage with qemu-system-s390x -M
#                   s390-ccw-virtio (TCG too)
#   LOG=file        serial console log (default $OUT/console-MODE.log)
#   TIMEOUT=s       whole-run limit (default 1800)
#   PROG_TIMEOUT=s  limit per test program, checked on the host from the
#                   UPROBES-NG-START/END lines (default 180)
#   BOOT_TIMEOUT=s  limit until the guest's init reports it booted
#                   (default PROG_TIMEOUT)
#   ICOUNT=1        -icount shift=0,sleep=off: guest time counts guest
#                   instructions, and jumps to the next timer when all vCPUs idle
#   KVM=auto|0|1    auto (default): KVM only once a short boot with it has
#                   been seen to work on this machine, else TCG
#   SHARE=dir       export dir over virtio-9p, mounted at /mnt/host
#   DISK=file       a raw disk image, the guest's /dev/vda (virtio)
#   QEMU_ARGS=...   more QEMU arguments, split at blanks (e.g. a gdb stub)
#   MEM=1G SMP=2 QEMU_CPU=...
# Exit status: QEMU's, or 124 when a time limit killed the guest.
. "$(dirname "$0")/lib.sh"

follow=0
if [ "${1:-}" = -f ]; then follow=1; shift; fi
mode=${1:?usage: qemu.sh [-f] MODE [cmdline...]}
shift
kernel=${KERNEL:-$BUILD/arch/$KARCH/boot/$KIMAGE}
initrd=${INITRD:-$OUT/initramfs.cpio}
logf=${LOG:-$OUT/console-$mode.log}
timeout=${TIMEOUT:-1800}
prog_timeout=${PROG_TIMEOUT:-180}
boot_timeout=${BOOT_TIMEOUT:-$prog_timeout}
[ -f "$kernel" ] || die "no kernel at $kernel (scripts/build.sh)"
[ -f "$initrd" ] || die "no initramfs at $initrd (scripts/initramfs.sh)"
mkdir -p "$(dirname "$logf")"

if [ "$KARCH" = x86 ]; then
	# no_timer_check: on a loaded host the IO-APIC timer check can fail under TCG.
	append="console=ttyS0 panic=-1 no_timer_check uprobes_ng.mode=$mode uprobes_ng.timeout=$((prog_timeout * 5 / 6))"
	# TCG's fldenv does not load FIP: our kernel then steps probed x87
	# instructions; run them in the kernel anyway, to test and measure the way
	# they take on hardware (the stock kernel ignores the parameter).
	append+=" uprobes.x87_in_kernel=1"
	qargs=()
elif [ "$KARCH" = arm64 ]; then
	# QEMU's generic Arm board: its PL011 UART is the console; the device
	# tree QEMU generates describes the rest.
	append="console=ttyAMA0 panic=-1 uprobes_ng.mode=$mode uprobes_ng.timeout=$((prog_timeout * 5 / 6))"
	# mte=on: the board gives the CPU tag memory (MTE needs it).
	qargs=(-M virt,mte=on)
elif [ "$KARCH" = riscv ]; then
	# QEMU's generic riscv board: its NS16550A UART is the console, the
	# device tree describes the rest; OpenSBI, the firmware QEMU ships
	# (qemu-system-data), starts the kernel in S-mode.
	append="console=ttyS0 panic=-1 uprobes_ng.mode=$mode uprobes_ng.timeout=$((prog_timeout * 5 / 6))"
	qargs=(-M virt -bios default)
else
	# QEMU's s390x machine: the first serial port is the SCLP VT220
	# terminal (ttysclp0); its devices are virtio-ccw ones. QEMU 10.0's
	# TCG checks a PER instruction-fetching event at the end of the
	# instruction, which a branch to an instruction of the same page it
	# chains to (goto_tb) jumps over: the event is lost, a single-step
	# runs on. "-d nochain" (no chaining, which logs nothing itself)
	# keeps relative jumps and not-taken branches right; a taken
	# conditional branch still loses it (uprobes' steps have the
	# successful-branching event too, see arch/s390/kernel/ptrace.c).
	append="console=ttysclp0 panic=-1 uprobes_ng.mode=$mode uprobes_ng.timeout=$((prog_timeout * 5 / 6))"
	qargs=(-M s390-ccw-virtio -L "$QEMU_DIR/usr/share/qemu" -d nochain)
fi
# The virtio transport of the machine: PCI, or the channel subsystem on s390.
virtio=pci
[ "$KARCH" != s390 ] || virtio=ccw
qargs+=(-m "${MEM:-1G}" -smp "${SMP:-2}" -no-reboot -nographic -nodefaults
	-kernel "$kernel" -initrd "$initrd")
if [ -n "${SHARE:-}" ]; then
	qargs+=(-fsdev "local,id=share,path=$SHARE,security_model=none"
		-device "virtio-9p-$virtio,fsdev=share,mount_tag=host")
	append+=" uprobes_ng.share=host"
fi

if [ -n "${DISK:-}" ]; then
	qargs+=(-drive "file=$DISK,if=virtio,format=raw")
fi

# KVM hangs right after the BIOS on some hosts: use it only after a short
# boot with it has succeeded (remembered per host kernel and QEMU version).
kvm_works() {
	[ -w /dev/kvm ] || return 1
	local key stamp=$CACHE/kvm-probe plog
	key="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
	if [ "$(sed -n 1p "$stamp" 2>/dev/null)" != "$key" ]; then
		plog=$(mktemp)
		log "probing KVM with a short boot (result is remembered in $stamp)"
		(timeout -k 5 45 qemu-system-x86_64 -accel kvm -cpu host "${qargs[@]}" \
			-serial "file:$plog" -append "console=ttyS0 panic=-1 uprobes_ng.mode=probe" \
			</dev/null) >/dev/null 2>&1 || true
		if grep -q 'UPROBES-NG-PROBE: ok' "$plog"; then r=yes; else r=no; fi
		printf '%s\n%s\n' "$key" "$r" > "$stamp"
		rm -f "$plog"
		log "KVM usable: $r"
	fi
	[ "$(sed -n 2p "$stamp")" = yes ]
}

kvm=${KVM:-auto}
[ "${ICOUNT:-0}" = 1 ] && kvm=0
[ "$mode" = probe ] && kvm=0
# KVM runs only the host's own architecture.
[ "$KARCH" = x86 ] || kvm=0
if [ "$kvm" = 1 ] || { [ "$kvm" = auto ] && kvm_works; }; then
	qargs+=(-accel kvm -cpu "${QEMU_CPU:-host}")
	accel=kvm
else
	# Multi-threaded TCG races the kernel's live text patching.
	# arm64: "max" (every feature QEMU emulates), with QEMU's own cheap
	# pointer authentication algorithm rather than QARMA, slow under TCG.
	# riscv: rv64, QEMU's RV64GC with the extensions it enables by default.
	# s390: "max", every facility TCG emulates.
	case $KARCH in
	x86)	cpu=qemu64 ;;
	arm64)	cpu=max,pauth-impdef=on ;;
	riscv)	cpu=rv64 ;;
	*)	cpu=max ;;
	esac
	qargs+=(-accel "$QEMU_ACCEL" -cpu "${QEMU_CPU:-$cpu}")
	accel=$QEMU_ACCEL
	[ "${ICOUNT:-0}" = 1 ] && qargs+=(-icount shift=0,sleep=off) && accel+=",icount"
fi
append+=" $*"
# shellcheck disable=SC2206 # split on purpose
[ -z "${QEMU_ARGS:-}" ] || qargs+=($QEMU_ARGS)

if [ "$mode" = shell ]; then
	log "interactive shell ($accel); leave with: poweroff -f"
	exec "$QEMU_SYSTEM" "${qargs[@]}" -serial mon:stdio -append "$append"
fi

log "booting $(basename "$kernel") mode=$mode ($accel), console: $logf"
: > "$logf"
"$QEMU_SYSTEM" "${qargs[@]}" -serial "file:$logf" -append "$append" </dev/null &
qpid=$!
tpid=
if [ $follow = 1 ]; then
	tail -n +1 --pid=$qpid -f "$logf" | grep -a --line-buffered -E "${FOLLOW_GREP:-.}" &
	tpid=$!
fi
start=$(date +%s)
last_mark= mark_time=$start rc=
while kill -0 $qpid 2>/dev/null; do
	sleep 1
	now=$(date +%s)
	mark=$(grep -a -E '^UPROBES-NG-(START|END): ' "$logf" | tail -n 1 || true)
	if [ "$mark" != "$last_mark" ]; then
		last_mark=$mark mark_time=$now
	fi
	why=
	if [ $((now - start)) -ge "$timeout" ]; then
		why="run exceeded ${timeout}s"
	elif [ $((now - start)) -ge "$boot_timeout" ] &&
	     ! grep -aq '^UPROBES-NG-BOOTED: ' "$logf"; then
		why="no boot within ${boot_timeout}s"
	elif [[ "$last_mark" == UPROBES-NG-START:* ]] && [ $((now - mark_time)) -ge "$prog_timeout" ]; then
		why="${last_mark#UPROBES-NG-START: } ran more than ${prog_timeout}s"
	fi
	if [ -n "$why" ]; then
		kill $qpid 2>/dev/null || true
		wait $qpid 2>/dev/null || true
		printf '\nUPROBES-NG-HOST: TIMEOUT: %s, guest killed\n' "$why" >> "$logf"
		rc=124
		break
	fi
done
if [ -z "$rc" ]; then
	rc=0
	wait $qpid || rc=$?
fi
[ -z "$tpid" ] || wait "$tpid" || true
log "guest exited (status $rc) after $(($(date +%s) - start))s"
exit "$rc"
