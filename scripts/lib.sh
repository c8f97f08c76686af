#!/bin/bash
# Common settings for the uprobes-ng build and test scripts.
# Everything large lives outside the clone, under $UPROBES_CACHE.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${UPROBES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uprobes-ng}
KPKG=linux-source-6.12
KTARBALL=/usr/src/$KPKG.tar.xz
PRISTINE=$CACHE/pristine/$KPKG
SRC=$CACHE/src
FLAVOR=release
[ "${DEBUG:-0}" = 1 ] && FLAVOR=debug
if [ "${KCSAN:-0}" = 1 ]; then
	[ "$FLAVOR" = release ] || { echo "KCSAN=1 excludes DEBUG=1 (KCSAN and KASAN)" >&2; exit 1; }
	FLAVOR=kcsan
fi
BUILD=${UPROBES_BUILD:-$CACHE/build-$FLAVOR}
STOCK_BUILD=$CACHE/build-stock
OUT=${UPROBES_OUT:-$CACHE/out-$FLAVOR}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$CACHE
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Target architecture, from the kernel's own variable (ARCH=arm64 make demo):
# x86 (the default, built natively), arm64, riscv (riscv64) or s390
# (s390x), each cross-compiled and booted with qemu-system-aarch64 or
# qemu-system-riscv64 on QEMU's "virt" board, or qemu-system-s390x on its
# "s390-ccw-virtio" machine. A non-x86 architecture has build and output
# directories of its own: it never touches the x86 ones.
#   KMAKE  the kernel make's arguments for the architecture
#   KCC    the kernel's compiler; UCC the guest programs' (linked static)
#   KIMAGE the boot image target, built as arch/$KARCH/boot/$KIMAGE
#   DEBARCH Debian's name of the architecture (its packages: busybox-static,
#          libc6-dev-DEBARCH-cross); QEMU_PKG the package of QEMU_SYSTEM
#          (none for s390, whose QEMU is unpacked into QEMU_DIR)
case ${ARCH:-x86} in
x86|x86_64)	KARCH=x86 ;;
arm64|aarch64)	KARCH=arm64 ;;
riscv|riscv64)	KARCH=riscv ;;
s390|s390x)	KARCH=s390 ;;
*)		die "ARCH=$ARCH: only x86 (the default), arm64, riscv and s390 are supported" ;;
esac
CROSS=
KMAKE=()
KCC="ccache gcc"
UCC=gcc
KIMAGE=bzImage
QEMU_SYSTEM=qemu-system-x86_64
QEMU_PKG=qemu-system-x86
QEMU_DIR=
DEBARCH=amd64
case $KARCH in
arm64)
	CROSS=aarch64-linux-gnu- KIMAGE=Image DEBARCH=arm64
	QEMU_SYSTEM=qemu-system-aarch64 QEMU_PKG=qemu-system-arm ;;
riscv)
	CROSS=riscv64-linux-gnu- KIMAGE=Image DEBARCH=riscv64
	QEMU_SYSTEM=qemu-system-riscv64 QEMU_PKG=qemu-system-misc ;;
s390)
	# Debian 12's QEMU 7.2 reports the address after a taken branch as a
	# PER event's (fixed in QEMU 9.1): bookworm-backports' QEMU, unpacked
	# into the cache by scripts/deps.sh (QEMU_DIR), not installed, which
	# would upgrade the host's x86 QEMU too. Its own firmware (-L).
	CROSS=s390x-linux-gnu- KIMAGE=bzImage DEBARCH=s390x
	QEMU_DIR=$CACHE/qemu-s390
	QEMU_SYSTEM=$QEMU_DIR/usr/bin/qemu-system-s390x QEMU_PKG= ;;
esac
if [ "$KARCH" != x86 ]; then
	KMAKE=(ARCH=$KARCH CROSS_COMPILE=$CROSS)
	KCC="ccache ${CROSS}gcc"
	UCC=${CROSS}gcc
	BUILD=${UPROBES_BUILD:-$CACHE/build-$KARCH-$FLAVOR}
	STOCK_BUILD=$CACHE/build-$KARCH-stock
	OUT=${UPROBES_OUT:-$CACHE/out-$KARCH-$FLAVOR}
fi
# QEMU: TCG, single-threaded for x86 and arm64: multi-threaded TCG races
# x86's live text patching. Multi-threaded for riscv: its remote TLB and
# instruction cache flushes go through OpenSBI, which spins until the
# other hart has answered, and single-threaded TCG runs the other vCPU
# only at its round-robin kick, every 100 ms: enabling a probe in
# processes that run on both vCPUs took seconds (stress.c's toggler: 5
# operations in 36 s, 79 multi-threaded). -icount (ICOUNT=1) needs
# single-threaded TCG.
QEMU_ACCEL_DEFAULT=tcg,thread=single
[ "$KARCH" != riscv ] || [ "${ICOUNT:-0}" = 1 ] ||
	QEMU_ACCEL_DEFAULT=tcg,thread=multi
QEMU_ACCEL=${QEMU_ACCEL:-$QEMU_ACCEL_DEFAULT}

# x86_only COMMAND WHY: stop a command that has no other architecture yet.
x86_only() {
	[ "$KARCH" = x86 ] || die "$1 is x86 only so far, not for ARCH=$ARCH: $2"
}

# engine_built SRCDIR: does the tree build the new engine? True from the
# series' switch to it on (kernel/events/Makefile builds uprobes/), false
# for the stock tree and the commits before the switch.
engine_built() { grep -q '^obj-$(CONFIG_UPROBES) += uprobes/$' "$1/kernel/events/Makefile"; }

# patch_section PATCH PATH: the section of the unified diff PATCH (an
# edit.patch) that edits PATH; empty when it has none.
patch_section() { awk -v p="$2" '/^--- a\//{on = ($0 == "--- a/" p)} on' "$1"; }

# take_out_later FILE PATH FROM WHAT [after]: reverse-apply to FILE,
# newest first, the sections of PATH in the edit.patch of every series
# commit from FROM on (FROM itself excluded with "after"); WHAT names
# FILE's origin in the error.
take_out_later() {
	local file=$1 p=$2 from=$3 what=$4 after=${5:-} c o
	for c in $(printf '%s\n' "$ROOT"/series/[0-9]*/ | LC_ALL=C sort -r); do
		o=$(basename "$c")
		[[ "$o" < "$from" ]] && break
		[ -n "$after" ] && [ "$o" = "$from" ] && break
		[ -f "$c/edit.patch" ] || continue
		patch_section "$c/edit.patch" "$p" > "$file.section"
		[ -s "$file.section" ] || continue
		patch -R -s -f -F 0 --no-backup-if-mismatch -r - "$file" < "$file.section" >&2 ||
			die "$o/edit.patch's edit of $p does not come out of $what"
	done
	rm -f "$file.section"
}

# file_state PATH COMMIT OUT: write to OUT the file PATH that a commit's
# "files" adds or replaces, as the series directory COMMIT leaves it:
# linux/PATH (the final state) with the sections of PATH in the
# edit.patch of every later commit reverse-applied, newest first, as
# scripts/mkedit.sh takes later edits out of an existing kernel file.
file_state() {
	cp "$ROOT/linux/$1" "$3"
	take_out_later "$3" "$1" "$2" "linux/$1" after
}

# series_apply WT PATCHDIR: make WT a checkout of the pristine tree
# ($CACHE/series.git, cloned once) with the patches of PATCHDIR applied by
# "git am". Reset by content (checkout -f, clean -fdx), so files the
# patches do not change keep their mtimes. Returns 1 when the reset
# leaves the tree unclean, 2 when the patches do not apply.
series_apply() {
	local wt=$1 patches=$2 base=$CACHE/series.git

	if [ "$(git -C "$wt" rev-parse -q --verify pristine 2>/dev/null)" != \
	     "$(git --git-dir="$base" rev-parse pristine)" ]; then
		log "checking out the pristine tree into $wt (once)"
		rm -rf "$wt"
		mkdir -p "$(dirname "$wt")"
		git clone -q --shared --no-checkout "$base" "$wt"
	fi
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach pristine
	git -C "$wt" clean -q -fdx
	[ -z "$(git -C "$wt" status --porcelain)" ] || return 1
	if ! git -C "$wt" -c user.name=test -c user.email=test@invalid \
		am -q "$patches"/*.patch >&2; then
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		return 2
	fi
}

kpkg_version() { dpkg-query -W -f='${Version}' "$KPKG" 2>/dev/null || echo unknown; }

# Kernel console messages of a guest log, without their printk time stamps.
kmsg() { sed -n 's/^\[ *[0-9]*\.[0-9]*\] \{0,1\}//p' "$1" | tr -d '\r'; }
# Kernel messages that mean the run is broken, whatever the tests said.
SPLAT_RE='Oops|BUG:|kernel BUG|WARNING:|general protection fault|Kernel panic|KASAN|UBSAN|'
SPLAT_RE+='possible circular locking|possible recursive locking|inconsistent lock state|'
SPLAT_RE+='suspicious RCU usage|suspected memory leak|unreferenced object|soft lockup|'
SPLAT_RE+='hard LOCKUP|detected stalls|blocked for more than|Call Trace:|invalid opcode:'
