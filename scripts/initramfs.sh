#!/bin/bash
# Build the guest initramfs: busybox, /init and the mode scripts, the demo
# program, the selftest suites (built with the host gcc against $SRC), the
# kernel's ftrace selftests, and the ld.so/libraries of any dynamic ELF file.
# The archive is rewritten only when its content changes.
# ARCH=arm64: the same, cross-built, with Debian's arm64 busybox and the
# suites' programs of every architecture.
# Prints the archive's path on stdout. Test-program build failures are
# recorded as results in $OUT/host-results instead of aborting.
. "$(dirname "$0")/lib.sh"

guest=$ROOT/scripts/guest
stage=$OUT/initramfs
image=$OUT/initramfs.cpio
results=$OUT/host-results.build
mkdir -p "$OUT"
# Two builds at once (make bench beside make check-clients) would mix
# their stages.
exec 9>"$OUT/initramfs.lock"
flock 9
: > "$results"
# The test suites are built from the tree the series gives (also for a
# stock kernel's run): brought up to date first (only changed files).
"$ROOT/scripts/tree.sh" >&2

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,mnt,etc}
lib=$stage/usr/lib/uprobes-ng
mkdir -p "$lib/demo"

# busybox: every applet as a symlink, /bin/sh as a real file so that
# /proc/PID/maps of a shell names ".../bin/sh" (ftrace's uprobe test needs it).
# On arm64, Debian's busybox-static for arm64, on riscv the same package
# built from its source (scripts/deps.sh), with the applets of the host's:
# the same Debian package (the other one cannot run here to list its own).
bb=/bin/busybox
if [ "$KARCH" != x86 ]; then
	bbdir=$CACHE/busybox-$KARCH
	bb=$bbdir/bin/busybox
	[ -x "$bb" ] || die "no $KARCH busybox at $bb (scripts/deps.sh)"
	host_bb=$(dpkg-query -W -f='${Version}' busybox-static)
	[ "${host_bb%+b*}" = "$(sed 's/+b[0-9]*$//' "$bbdir/.version")" ] ||
		log "warning: busybox-static $host_bb on the host, $(cat "$bbdir/.version") for $KARCH: applets may differ"
fi
cp "$bb" "$stage/bin/busybox"
for a in $(/bin/busybox --list-full); do
	[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
done
rm -f "$stage/bin/sh"
cp "$bb" "$stage/bin/sh"
# The kselftest runner calls /usr/bin/timeout --foreground: coreutils'
# on x86; elsewhere busybox's, which has no --foreground (it starts no
# process group of its own anyway).
rm -f "$stage/usr/bin/timeout"
if [ "$KARCH" = x86 ]; then
	cp /usr/bin/timeout "$stage/usr/bin/timeout"
else
	printf '%s\n' '#!/bin/sh' \
		'# coreutils timeout options for busybox timeout' \
		'[ "$1" = --foreground ] && shift' \
		'exec /bin/busybox timeout "$@"' > "$stage/usr/bin/timeout"
	chmod 755 "$stage/usr/bin/timeout"
fi
echo 'root:x:0:0:root:/root:/bin/sh' > "$stage/etc/passwd"
echo 'root:x:0:' > "$stage/etc/group"

install -m 755 "$guest/init" "$stage/init"
for m in "$guest"/run-*; do
	install -m 755 "$m" "$lib/$(basename "$m")"
done

# The demo target and the file offset of demo_add() for uprobe_events.
$UCC -O2 -g0 -static -o "$lib/demo/demo" "$guest/demo.c"
vaddr=$(${CROSS}nm "$lib/demo/demo" | awk '$3 == "demo_add" { print $1 }')
[ -n "$vaddr" ] || die "demo_add not found in the demo program"
va=$((16#$vaddr)) off=
while read -r type foff fva _ _ mem _; do
	[ "$type" = LOAD ] || continue
	if [ $((fva)) -le $va ] && [ $va -lt $((fva + mem)) ]; then
		off=$(printf '0x%x' $((va - fva + foff)))
	fi
done < <(readelf -lW "$lib/demo/demo")
[ -n "$off" ] || die "cannot map demo_add to a file offset"
echo "$off" > "$lib/demo/demo_add.offset"

# The benchmark (make bench): one program, with the probed instruction
# classes of the architecture it is built for.
mkdir -p "$lib/bench"
$UCC -O2 -g0 -static -o "$lib/bench/uprobe_bench" "$ROOT/bench/uprobe_bench.c"

# The test suites, built by their lib.mk Makefiles and installed with
# the kselftest runner (run_kselftest.sh, kselftest-list.txt), as
# `make -C tools/testing/selftests TARGETS=... install` does; cross-built
# for another architecture (ARCH=, CROSS_COMPILE=: each Makefile leaves
# out the programs of other architectures).
ks=$OUT/kselftest
suites="uprobes uprobe_events"
# The kernel's UAPI headers, as kselftests expect them (`make headers`);
# the selftests Makefile finds them under its O= directory by itself.
make -s -C "$SRC" O="$ks" "${KMAKE[@]}" headers >"$ks.headers.log" 2>&1 ||
	die "make headers failed (log: $ks.headers.log)"
for suite in $suites; do
	if make -s -C "$SRC/tools/testing/selftests/$suite" OUTPUT="$ks/kselftest/$suite" \
		"${KMAKE[@]}" KHDR_INCLUDES="-isystem $ks/usr/include" >"$ks.$suite.log" 2>&1; then
		echo "UPROBES-NG-RESULT: PASS build/$suite:make" >> "$results"
	else
		cat "$ks.$suite.log" >&2
		log "suite $suite: build FAILED (log: $ks.$suite.log)"
		echo "UPROBES-NG-RESULT: FAIL build/$suite:make" >> "$results"
	fi
done
rm -rf "$lib/kselftest"
# The selftests Makefile fails an install only when every target fails:
# each program listed must be there.
if make -s -C "$SRC/tools/testing/selftests" TARGETS="$suites" O="$ks" "${KMAKE[@]}" \
	KSFT_INSTALL_PATH="$lib/kselftest" install >"$ks.install.log" 2>&1 &&
	! sed 's|:|/|' "$lib/kselftest/kselftest-list.txt" | while read -r p; do
		[ -x "$lib/kselftest/$p" ] || echo "$p missing"
	done | grep . >> "$ks.install.log"; then
	echo "UPROBES-NG-RESULT: PASS build/kselftest:install" >> "$results"
else
	cat "$ks.install.log" >&2
	echo "UPROBES-NG-RESULT: FAIL build/kselftest:install" >> "$results"
fi

# The kernel's ftrace selftests (ftracetest and its test.d).
mkdir -p "$lib/ftrace"
cp -a "$SRC/tools/testing/selftests/ftrace/." "$lib/ftrace/"

# Dynamic ELF files get their loader and libraries at the same paths:
# the host's (ldd) on x86, the cross toolchain's (its readelf, from
# /usr/$TRIPLET/lib) under /lib for another architecture.
find "$stage" -type f -perm -u+x -o -type f -name '*.so*' | while read -r f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
	if [ "$KARCH" = x86 ]; then
		ldd "$f" 2>/dev/null | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' || true
		continue
	fi
	elf=$(${CROSS}readelf -lWd "$f")
	sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p' <<< "$elf"
	sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\/lib\/\1/p' <<< "$elf"
done | sort -u | while read -r so; do
	mkdir -p "$stage$(dirname "$so")"
	if [ "$KARCH" = x86 ]; then
		cp -L "$so" "$stage$so"
	else
		from=/usr/${CROSS%-}/lib/$(basename "$so")
		[ -e "$from" ] || die "no $from for the $KARCH guest (libc6-${DEBARCH}-cross)"
		cp -L "$from" "$stage$so"
	fi
done
# Each test program expected to report, for the host's missing-result check.
sed 's|:|/|' "$lib/kselftest/kselftest-list.txt" 2>/dev/null | sort > "$OUT/expected-programs"

new=$( (cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	xargs -0 stat -c '%n %a %s %N' && find . -type f -print0 | LC_ALL=C sort -z |
	xargs -0 sha256sum) | sha256sum | cut -d' ' -f1)
if [ ! -f "$image" ] || [ "$(cat "$image.sum" 2>/dev/null)" != "$new" ]; then
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio -o -0 -H newc --reproducible -R 0:0 --quiet) > "$image.tmp"
	mv "$image.tmp" "$image"
	echo "$new" > "$image.sum"
	log "initramfs $image: $(du -h "$image" | cut -f1)"
else
	log "initramfs $image unchanged"
fi
echo "$image"
