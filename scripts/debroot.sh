#!/bin/bash
# A Debian root for the real-client tests (make check-clients): the release
# this machine runs, debootstrap --variant=minbase, plus the clients the
# scenarios drive (bpftrace, perf, gdb, strace, python3, ...), installed
# with apt inside a chroot. Kept under the cache, outside the clone, and
# rebuilt only when the package list (or this script) changes: about two
# minutes the first time. The guest mounts it over virtio-9p and chroots
# into it. Prints the directory on stdout. Needs root (debootstrap, chroot).
. "$(dirname "$0")/lib.sh"

pkgs=(
	bpftrace		# uprobe, uretprobe, usdt, wildcards
	linux-perf		# perf probe -x, record, script, stat
	gdb strace
	python3
	libbpf1			# a BPF uprobe_multi program through libbpf
	gcc libc6-dev libbpf-dev	# the scenarios' own programs, built inside
	systemtap-sdt-dev	# USDT probes with semaphores (sys/sdt.h)
	procps
)
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
key=$( { echo "$suite $mirror ${pkgs[*]}"; cat "$0"; } | sha256sum | cut -c1-16)
dir=$CACHE/debroot
if [ "$(cat "$dir/.uprobes-ng-key" 2>/dev/null)" = "$key" ]; then
	echo "$dir"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "debroot.sh needs root (debootstrap, chroot)"
	exec sudo -E "$0" "$@"
fi
for p in debootstrap; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null
done

tmp=$dir.tmp
rm -rf "$tmp"
log "debootstrap $suite (minbase) into $tmp"
debootstrap --variant=minbase "$suite" "$tmp" "$mirror" > "$CACHE/debroot.log" 2>&1 ||
	die "debootstrap failed, see $CACHE/debroot.log"
cat > "$tmp/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
EOF
cp /etc/resolv.conf "$tmp/etc/resolv.conf"
mount -t proc proc "$tmp/proc"
trap 'umount "$tmp/proc" 2>/dev/null || true' EXIT
log "apt-get install in the chroot: ${pkgs[*]}"
chroot "$tmp" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
	"apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs[*]}" \
	>> "$CACHE/debroot.log" 2>&1 || die "apt-get in the chroot failed, see $CACHE/debroot.log"
chroot "$tmp" apt-get clean
umount "$tmp/proc"
trap - EXIT
echo "$key" > "$tmp/.uprobes-ng-key"
rm -rf "$dir"
mv "$tmp" "$dir"
log "Debian root ready: $dir ($(du -sh "$dir" | cut -f1))"
echo "$dir"
