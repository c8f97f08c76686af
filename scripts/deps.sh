#!/bin/bash
# Install (only when missing) the Debian packages the build, the guest image
# and the tests need (among them the cross compilers of make check's
# host/cross:ARCH tests: arm64, riscv64, ppc64le, s390x, armhf, mips64el,
# sparc64), then print the kernel source package version in use.
# ARCH=arm64: also the arm64 C library, qemu-system-aarch64 and an arm64
# busybox for the guest; ARCH=riscv the same for riscv64 (a busybox
# cross-built from Debian's source package), ARCH=s390 for s390x (its
# QEMU from bookworm-backports, unpacked into the cache).
# KTESTS=1: also clang-19 and LLVM. Works as root or
# through sudo.
. "$(dirname "$0")/lib.sh"

pkgs=(
	"$KPKG"			# the pristine kernel tree (/usr/src/*.tar.xz)
	build-essential bc bison flex cpio kmod rsync xz-utils
	libelf-dev libssl-dev dwarves python3 perl
	ccache git patch
	# 32-bit test programs (-m32 -static; <asm/*.h> from the kernel's
	# UAPI headers: gcc-multilib, which links /usr/include/asm, conflicts
	# with Debian's cross compilers)
	gcc-12-multilib
	busybox-static		# the guest userland
	qemu-system-x86
	gdb			# make hit-profile (QEMU's gdb stub), make bench (struct sizes)
	python3-sphinx		# the htmldocs host test (Sphinx on Documentation/trace)
	gcc-aarch64-linux-gnu	# the arm64 kernel; make check cross-compiles its uprobes
	# make check cross-compiles for the architectures without a part of
	# the engine yet (scripts/test-cross.sh: uprobes must stay off there
	# and the kernel's callers of <linux/uprobes.h> must build)
	gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu
	gcc-arm-linux-gnueabihf gcc-mips64el-linux-gnuabi64 gcc-sparc64-linux-gnu
)
# KTESTS=1 (make check-kernel-tests): the BPF selftests' programs are
# built with clang-19 (ld.lld links urandom_read's library); the kernel's
# BTF comes from dwarves' pahole, above.
if [ "${KTESTS:-0}" = 1 ]; then
	pkgs+=(clang-19 lld-19 llvm-19)
fi
if [ "$KARCH" != x86 ]; then
	pkgs+=(
		"libc6-dev-$DEBARCH-cross"	# static programs for the guest (the demo; riscv's busybox)
	)
	# $QEMU_SYSTEM (riscv's OpenSBI: qemu-system-data); s390's below
	[ -z "$QEMU_PKG" ] || pkgs+=("$QEMU_PKG")
fi
sudo=
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
missing=()
for p in "${pkgs[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing: ${missing[*]}"
	[ -z "$sudo" ] || command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]}"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
[ -f "$KTARBALL" ] || die "$KTARBALL missing after installing $KPKG"

# The guest's busybox on arm64 and s390: Debian's busybox-static
# for it (arm64, s390x), unpacked under the cache as busybox-$KARCH
# (installing it would replace the host's /bin/busybox). apt fetches it
# once dpkg knows the architecture; fetched again when the archive has
# another version.
if [ "$KARCH" = arm64 ] || [ "$KARCH" = s390 ]; then
	bb=$CACHE/busybox-$KARCH
	machine=$(case $KARCH in arm64) echo AArch64 ;; s390) echo 'IBM S/390' ;; esac)
	if ! dpkg --print-foreign-architectures | grep -qx "$DEBARCH"; then
		[ -z "$sudo" ] || command -v sudo >/dev/null ||
			die "not root and no sudo: run dpkg --add-architecture $DEBARCH && apt-get update"
		log "adding the $DEBARCH architecture to dpkg (for busybox-static:$DEBARCH)"
		$sudo dpkg --add-architecture "$DEBARCH"
	fi
	if ! apt-cache show "busybox-static:$DEBARCH" >/dev/null 2>&1; then
		log "apt-get update ($DEBARCH package lists)"
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	fi
	want=$(apt-cache show --no-all-versions "busybox-static:$DEBARCH" | sed -n 's/^Version: //p')
	[ -n "$want" ] || die "no busybox-static:$DEBARCH in the package lists"
	if [ "$(cat "$bb/.version" 2>/dev/null)" != "$want" ] || [ ! -x "$bb/bin/busybox" ]; then
		log "fetching busybox-static:$DEBARCH $want into $bb"
		dl=$(mktemp -d)
		# apt drops its privileges to _apt for downloads: let it write here.
		chmod 777 "$dl"
		(cd "$dl" && apt-get download -q "busybox-static:$DEBARCH=$want") > "$dl/log" 2>&1 ||
			{ cat "$dl/log" >&2; rm -rf "$dl"; die "apt-get download busybox-static:$DEBARCH failed"; }
		rm -rf "$bb.tmp"
		mkdir -p "$CACHE"
		dpkg-deb -x "$dl"/busybox-static_*_"$DEBARCH".deb "$bb.tmp"
		rm -rf "$dl"
		elf=$(readelf -hlW "$bb.tmp/bin/busybox")
		grep -q "Machine:.*$machine" <<< "$elf" || die "$bb.tmp/bin/busybox is not an $DEBARCH program"
		! grep -q INTERP <<< "$elf" || die "$bb.tmp/bin/busybox is not static"
		echo "$want" > "$bb.tmp/.version"
		rm -rf "$bb"
		mv "$bb.tmp" "$bb"
	fi
fi

# The riscv guest's busybox: Debian 12 has no riscv64 architecture, so
# Debian's busybox-static is built here from its source package, the
# version of the host's (same applets, same configuration:
# debian/config/pkg/static), with the riscv64 cross compiler. The .dsc is
# pinned by its SHA-256 and dpkg-source checks the tarballs against it.
# About 2 minutes of CPU, once.
if [ "$KARCH" = riscv ]; then
	bb=$CACHE/busybox-riscv
	bbver=1:1.35.0-4+deb12u1
	bbdsc=busybox_1.35.0-4+deb12u1.dsc
	bbsum=9c01fe128b0eeded371c70e37d474fdb5055f71b5d0a778db44c6b0c62d3a7fa
	bburl=https://deb.debian.org/debian/pool/main/b/busybox
	if [ "$(cat "$bb/.version" 2>/dev/null)" != "$bbver" ] || [ ! -x "$bb/bin/busybox" ]; then
		log "building busybox $bbver for riscv64 into $bb"
		dl=$(mktemp -d)
		(cd "$dl" && curl -fsS --retry 3 -O "$bburl/$bbdsc") ||
			{ rm -rf "$dl"; die "cannot fetch $bburl/$bbdsc"; }
		[ "$(sha256sum < "$dl/$bbdsc" | cut -d' ' -f1)" = "$bbsum" ] ||
			{ rm -rf "$dl"; die "$bbdsc: SHA-256 differs from the pinned one"; }
		for f in $(sed -n '/^Checksums-Sha256:/,/^[^ ]/s/^ [0-9a-f]\{64\} [0-9]* //p' "$dl/$bbdsc"); do
			(cd "$dl" && curl -fsS --retry 3 -O "$bburl/$f") ||
				{ rm -rf "$dl"; die "cannot fetch $bburl/$f"; }
		done
		(cd "$dl" && dpkg-source -q -x "$bbdsc" src && mkdir b &&
		 cat src/debian/config/os/linux src/debian/config/pkg/static > b/.config &&
		 { { yes "" || :; } | make -s -C b -f "$dl/src/Makefile" KBUILD_SRC="$dl/src" \
			CROSS_COMPILE=riscv64-linux-gnu- silentoldconfig; } &&
		 make -s -C b CROSS_COMPILE=riscv64-linux-gnu- -j"$JOBS" all) > "$dl/log" 2>&1 ||
			{ tail -20 "$dl/log" >&2; rm -rf "$dl"; die "building busybox for riscv64 failed"; }
		elf=$(readelf -hlW "$dl/b/busybox")
		grep -q 'Machine:.*RISC-V' <<< "$elf" || die "$dl/b/busybox is not a riscv program"
		! grep -q INTERP <<< "$elf" || die "$dl/b/busybox is not static"
		rm -rf "$bb.tmp"
		mkdir -p "$bb.tmp/bin"
		cp "$dl/b/busybox" "$bb.tmp/bin/busybox"
		rm -rf "$dl"
		echo "$bbver" > "$bb.tmp/.version"
		rm -rf "$bb"
		mv "$bb.tmp" "$bb"
	fi
fi
# s390's QEMU: Debian 12's (7.2) reports the address after a taken
# branch as the PER event's when PER is on (fixed in QEMU 9.1,
# a6a33760a33e), which breaks every single-step of a taken branch, the
# stepped copies of probed branches among them. bookworm-backports has a
# newer one: qemu-system-s390x and its firmware (qemu-system-data) are
# fetched with apt-get download and unpacked into $QEMU_DIR, never
# installed (that would upgrade the host's qemu-system-x86, which the
# benchmarks run on; its libraries are Debian 12's). The backports
# source is added to apt when missing (its packages have priority 100:
# apt installs and upgrades nothing from it unless asked to).
if [ "$KARCH" = s390 ]; then
	qmin=1:9.1
	bpo=bookworm-backports
	if ! apt-cache policy qemu-system-s390x 2>/dev/null | grep -q " $bpo/"; then
		[ -z "$sudo" ] || command -v sudo >/dev/null ||
			die "not root and no sudo: add $bpo to apt's sources and run apt-get update"
		if ! grep -rqs "$bpo" /etc/apt/sources.list /etc/apt/sources.list.d; then
			log "adding $bpo to apt's sources (for qemu-system-s390x)"
			printf '%s\n' "Types: deb" "URIs: http://deb.debian.org/debian" \
				"Suites: $bpo" "Components: main" \
				"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
				$sudo tee /etc/apt/sources.list.d/$bpo.sources >/dev/null
		fi
		log "apt-get update ($bpo package lists)"
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	fi
	want=$(apt-cache madison qemu-system-s390x | awk -v s="$bpo/" '$0 ~ s { print $3; exit }')
	[ -n "$want" ] || die "no qemu-system-s390x in $bpo"
	dpkg --compare-versions "$want" ge "$qmin" ||
		die "qemu-system-s390x $want in $bpo: $qmin or later is needed"
	if [ "$(cat "$QEMU_DIR/.version" 2>/dev/null)" != "$want" ] || [ ! -x "$QEMU_SYSTEM" ]; then
		log "fetching qemu-system-s390x $want ($bpo) into $QEMU_DIR"
		dl=$(mktemp -d)
		chmod 777 "$dl"
		(cd "$dl" && apt-get download -q "qemu-system-s390x=$want" "qemu-system-data=$want") \
			> "$dl/log" 2>&1 ||
			{ cat "$dl/log" >&2; rm -rf "$dl"; die "apt-get download qemu-system-s390x failed"; }
		rm -rf "$QEMU_DIR.tmp"
		mkdir -p "$CACHE"
		for deb in "$dl"/*.deb; do
			dpkg-deb -x "$deb" "$QEMU_DIR.tmp"
		done
		rm -rf "$dl" "$QEMU_DIR.tmp/usr/share/doc" "$QEMU_DIR.tmp/usr/share/man"
		nolib=$(ldd "$QEMU_DIR.tmp/usr/bin/qemu-system-s390x" | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p')
		[ -z "$nolib" ] || die "qemu-system-s390x $want needs libraries the host lacks: $nolib"
		"$QEMU_DIR.tmp/usr/bin/qemu-system-s390x" -version >/dev/null ||
			die "qemu-system-s390x $want does not run"
		echo "$want" > "$QEMU_DIR.tmp/.version"
		rm -rf "$QEMU_DIR"
		mv "$QEMU_DIR.tmp" "$QEMU_DIR"
	fi
fi
log "kernel source: $KPKG $(kpkg_version)"
