#!/bin/bash
# make check-kernel-tests: the kernel's own uprobe tests, on our kernel
# and on the stock one, side by side. Both kernels are make check's x86
# release flavour (config/bpf.config on top of base.config: BTF, modules,
# the function tracer; build-release and build-stock-release, out-release),
# and boot the same guest: the test_progs
# tests of scripts/kernel-tests.list (tools/testing/selftests/bpf, built
# by scripts/kernel-tests-build.sh with clang-19 and the tree's libbpf
# and bpftool) and the ftracetest cases that mention uprobes, each
# subtest a result (scripts/guest/run-ktests). bpf_testmod.ko is built
# for each kernel from the tree's source (uprobe_syscall registers a
# return probe from it with the in-kernel uprobe_register()).
# One line per subtest: the verdict, stock's result, ours, the name:
#   PASS  ours passed (whatever stock did)
#   FAIL  ours failed, skipped or never reported what stock passed;
#         ours failed what stock failed too (listed, to be explained);
#         a guest that did not boot or finish, a kernel splat, on
#         either kernel
#   SKIP  skipped on ours where stock did not pass either
# Last line "N passed, M failed"; non-zero exit status when M > 0.
# Output in $OUT (out-release): console-ktests-{ours,stock}.log,
# results-ktests-{ours,stock}.txt, ktests-table.txt (the table).
# Environment: KERNELS="stock ours" (the default; "ours" alone, as .ci/run
# does, leaves the stock column empty and builds no stock kernel), PROG_TIMEOUT (per test, default 600 s), TIMEOUT
# (per guest, default 3600 s), JOBS, KVM; those of qemu.sh.
. "$(dirname "$0")/lib.sh"
x86_only "make check-kernel-tests" "the test programs are built for the host"
[ "$FLAVOR" = release ] || die "make check-kernel-tests: the release kernel only (the others have no BTF)"

kernels=${KERNELS:-stock ours}
KTESTS=1 "$ROOT/scripts/deps.sh" >&2
fail_early() { echo "FAIL $1"; echo "0 passed, 1 failed"; exit 1; }
kernel_ours=$("$ROOT/scripts/build.sh") || fail_early build/kernel-ours
stock_build=$STOCK_BUILD
if [[ " $kernels " == *" stock "* ]]; then
	kernel_stock=$(STOCK=1 "$ROOT/scripts/build.sh") || fail_early build/kernel-stock
fi
tdir=$("$ROOT/scripts/kernel-tests-build.sh" "$BUILD/vmlinux") || fail_early build/test_progs
initrd=$("$ROOT/scripts/initramfs.sh") || fail_early build/initramfs
kt=$CACHE/ktests

# bpf_testmod.ko for each kernel, built against its build directory
# (under its lock: not while that kernel is being rebuilt).
testmod() { # NAME SRCDIR BUILDDIR
	local m=$kt/testmod-$1
	mkdir -p "$m"
	rsync -a "$SRC/tools/testing/selftests/bpf/bpf_testmod/" "$m/"
	# Its split BTF is relative to vmlinux's, which an external module
	# build does not depend on: linked again every time, as the selftests'
	# Makefile does.
	rm -f "$m/bpf_testmod.ko"
	(
		flock 9
		make -C "$2" O="$3" CC="$KCC" -j"$JOBS" M="$m" modules
	) 9>"$3.lock" >"$m.log" 2>&1 || { tail -20 "$m.log" >&2; return 1; }
	echo "$m/bpf_testmod.ko"
}
for k in $kernels; do
	case $k in
	ours) mod_ours=$(testmod ours "$SRC" "$BUILD") || fail_early build/bpf_testmod-ours ;;
	stock) mod_stock=$(testmod stock "$PRISTINE" "$stock_build") || fail_early build/bpf_testmod-stock ;;
	*) die "KERNELS=$kernels: stock and/or ours" ;;
	esac
done

# The guest: make check's initramfs with, in an archive after it (the
# kernel unpacks concatenated archives in turn), the libraries of the
# test programs; the tests' directory, with each kernel's module, is an
# ext4 image on a virtio disk (build_id pages a program's page out: on
# a disk's file system that can happen, not in the initramfs's tmpfs).
st=$OUT/ktests-libs.stage
rm -rf "$st"
mkdir -p "$st"
# glibc loads libgcc_s.so.1 itself when a thread exits (uprobe_multi_test
# does): ldd does not list it.
(cd "$tdir" && for f in test_progs urandom_read uprobe_multi liburandom_read.so; do
	ldd "$f" | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'
done; realpath "$(gcc -print-file-name=libgcc_s.so.1)") | sort -u | while read -r so; do
	mkdir -p "$st$(dirname "$so")"
	cp -L "$so" "$st$so"
done
(cd "$st" && find . -print0 | LC_ALL=C sort -z |
	cpio -o -0 -H newc --reproducible -R 0:0 --quiet) > "$OUT/ktests-libs.cpio"
cat "$initrd" "$OUT/ktests-libs.cpio" > "$OUT/initramfs-ktests.cpio"
for k in $kernels; do
	ds=$OUT/ktests-$k.stage
	rm -rf "$ds"
	mkdir -p "$ds"
	m=mod_$k
	cp "$tdir"/test_progs "$tdir"/*.bpf.o "$tdir"/urandom_read "$tdir"/liburandom_read.so \
		"$tdir"/uprobe_multi "$ROOT/scripts/kernel-tests.list" "${!m}" "$ds/"
	rm -f "$OUT/ktests-$k.img"
	mke2fs -q -t ext4 -L ktests -d "$ds" "$OUT/ktests-$k.img" 256M >&2 ||
		fail_early "build/ktests-$k.img"
done

# What each guest must report: every listed test, every ftrace case.
expected=$OUT/ktests-expected
{
	grep -v '^[#+]' "$ROOT/scripts/kernel-tests.list" | grep . | sed 's|^|bpf/|'
	(cd "$SRC/tools/testing/selftests/ftrace/test.d" &&
		grep -rl uprobe --include='*.tc' . | sed 's|^\./|ftrace/ftracetest:|')
} | sort > "$expected"

run_guest() { # ours|stock KERNEL
	local k=$1 logf=$OUT/console-ktests-$1.log res=$OUT/results-ktests-$1 qrc=0
	log "guest on the $k kernel"
	FOLLOW_GREP='^UPROBES-NG-(RESULT|BOOTED|HOST)|^\[ *[0-9.]+\] .*(Oops|BUG|WARNING)' \
		MEM=${MEM:-2G} PROG_TIMEOUT=${PROG_TIMEOUT:-600} TIMEOUT=${TIMEOUT:-3600} \
		KERNEL=$2 INITRD=$OUT/initramfs-ktests.cpio DISK=$OUT/ktests-$k.img LOG=$logf \
		"$ROOT/scripts/qemu.sh" -f ktests >&2 || qrc=$?
	{
		grep -a '^UPROBES-NG-RESULT: ' "$logf" | tr -d '\r' | sed 's/^UPROBES-NG-RESULT: //' || true
		while read -r p; do
			grep -aq "^UPROBES-NG-END: $p rc=" "$logf" || echo "FAIL $p:no-result"
		done < "$expected"
		grep -aq '^UPROBES-NG-BOOTED: ' "$logf" || echo "FAIL guest:booted"
		grep -aq '^UPROBES-NG-DONE' "$logf" || echo "FAIL guest:completed"
		grep -a '^UPROBES-NG-HOST: ' "$logf" | tr -d '\r' | sed 's/^UPROBES-NG-HOST: /FAIL guest:/' || true
		[ $qrc = 0 ] || [ $qrc = 124 ] || echo "FAIL guest:qemu-exit-status-$qrc"
		kmsg "$logf" | grep -a -E "$SPLAT_RE" | head -n 10 | sed 's/^/FAIL kernel:splat: /' || true
	} > "$res.txt"
}
for k in $kernels; do
	kv=kernel_$k
	run_guest "$k" "${!kv}"
done
[[ " $kernels " == *" stock "* ]] || : > "$OUT/results-ktests-stock.txt"

python3 "$ROOT/scripts/kernel-tests-table.py" "$OUT/results-ktests-stock.txt" \
	"$OUT/results-ktests-ours.txt" > "$OUT/ktests-table.txt" || true
cat "$OUT/ktests-table.txt"
echo "kernels: $kernels ($(basename "$BUILD"), $(basename "$stock_build")), $KPKG $(kpkg_version); table: $OUT/ktests-table.txt"
tail -n 1 "$OUT/ktests-table.txt" | grep -q ' passed, 0 failed$'
