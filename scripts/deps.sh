#!/bin/bash
# Install (only when missing) the Debian packages the build, the guest image
# and the tests need, then print the kernel source package version in use.
# Works as root or through sudo.
. "$(dirname "$0")/lib.sh"

pkgs=(
	"$KPKG"			# the pristine kernel tree (/usr/src/*.tar.xz)
	build-essential bc bison flex cpio kmod rsync xz-utils
	libelf-dev libssl-dev dwarves python3 perl
	ccache git patch
	gcc-multilib		# 32-bit test programs (-m32 -static)
	busybox-static		# the guest userland
	qemu-system-x86
	gdb			# make hit-profile (QEMU's gdb stub), make bench (struct sizes)
	python3-sphinx		# the htmldocs host test (Sphinx on Documentation/trace)
)
missing=()
for p in "${pkgs[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing: ${missing[*]}"
	sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]}"
		sudo=sudo
	fi
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
[ -f "$KTARBALL" ] || die "$KTARBALL missing after installing $KPKG"
log "kernel source: $KPKG $(kpkg_version)"
