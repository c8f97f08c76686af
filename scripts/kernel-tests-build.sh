#!/bin/bash
# Build the part of the BPF selftests' test_progs that runs the tests of
# scripts/kernel-tests.list, with the tree's own Makefile, libbpf and
# bpftool and Debian's clang-19 (make check-kernel-tests).
# Usage: kernel-tests-build.sh VMLINUX
#   VMLINUX  a vmlinux with BTF (config/bpf.config): its vmlinux.h is what
#            the BPF programs are compiled against; CO-RE relocates them
#            at load time, so one build runs on our kernel and on stock.
# The whole test_progs compiles 825 BPF programs; the listed tests need
# about 60. The selftests Makefile takes its tests and programs from the
# prog_tests/*.c and progs/*.c present, and writes prog_tests/tests.h
# into its source directory: it runs in a copy of the tree's tools/
# (with scripts/ and kernel/bpf/, which libbpf and bpftool read), where
# prog_tests/ holds only the listed tests and progs/ only the programs
# they and the Makefile's fixed lists (light skeletons, linked objects,
# btf_data) need. No file of the tests or of the runner is changed.
# The kernel modules the runner copies beside it are not built here
# (-o): bpf_testmod.ko is built per kernel by check-kernel-tests.sh.
# Prints the test directory (test_progs, *.bpf.o, urandom_read,
# liburandom_read.so, uprobe_multi) on stdout. Log:
# $CACHE/ktests/build.log. Incremental: a second run only relinks what
# changed.
. "$(dirname "$0")/lib.sh"

vmlinux=$(realpath "${1:?usage: kernel-tests-build.sh VMLINUX}")
[ -f "$vmlinux" ] || die "no vmlinux at $vmlinux"
kt=$CACHE/ktests
tree=$kt/tree
bpf=$tree/tools/testing/selftests/bpf
blog=$kt/build.log
mkdir -p "$kt"
exec 9>"$kt.lock"
flock 9

"$ROOT/scripts/tree.sh" >&2
# Debian's clang-19 and LLVM tools before any other (clang, llvm-strip,
# llvm-objcopy); gcc stays the userland compiler.
llvm=/usr/lib/llvm-19/bin
[ -x "$llvm/clang" ] || die "no $llvm/clang (scripts/deps.sh installs clang-19)"
export PATH=$llvm:$PATH

# The copy: only changed files are rewritten (rsync compares size and
# time), so make's dependencies stay valid.
mkdir -p "$tree"
for d in tools scripts kernel/bpf; do
	mkdir -p "$tree/$(dirname "$d")"
	rsync -a --delete \
		--exclude='/testing/selftests/bpf/prog_tests/tests.h' \
		--exclude='/testing/selftests/bpf/tools/' \
		--exclude='/testing/selftests/bpf/*.o' --exclude='/testing/selftests/bpf/*.d' \
		--exclude='/testing/selftests/bpf/*.skel.h' --exclude='/testing/selftests/bpf/*.lskel.h' \
		--exclude='/testing/selftests/bpf/*.subskel.h' \
		--exclude='/testing/selftests/bpf/test_progs' \
		--exclude='/testing/selftests/bpf/urandom_read' \
		--exclude='/testing/selftests/bpf/liburandom_read.so' \
		--exclude='/testing/selftests/bpf/uprobe_multi' \
		--exclude='/testing/selftests/bpf/bpftool' \
		--exclude='/testing/selftests/bpf/FEATURE-DUMP.selftests' \
		--exclude='/testing/selftests/bpf/feature/' \
		--exclude='/testing/selftests/bpf/.subset' \
		--exclude='/testing/selftests/bpf/no_alu32/' \
		--exclude='/testing/selftests/bpf/cpuv4/' \
		--exclude='/testing/selftests/usr' \
		"$SRC/$d/" "$tree/$d/"
done

# The subset: the listed tests, and the BPF programs they include as
# skeletons (X.skel.h from progs/X.c) or load by name, plus those the
# Makefile always
# builds for any test (its LSKELS, LSKELS_EXTRA and LINKED_SKELS'
# objects) and btf_data (resolve_btfids reads it when linking).
src_bpf=$SRC/tools/testing/selftests/bpf
tests=$(grep -v '^#' "$ROOT/scripts/kernel-tests.list" | sed 's/^+//' | grep .)
keep_tests=() keep_progs=(btf_data)
for t in $tests; do
	[ -f "$src_bpf/prog_tests/$t.c" ] || die "no prog_tests/$t.c in $SRC"
	keep_tests+=("$t")
	keep_progs+=($(sed -n 's/^#include "\([a-z0-9_]*\)\.\(l\|sub\|\)skel\.h".*/\1/p' \
		"$src_bpf/prog_tests/$t.c"))
	# and the objects it loads by file name ("./X.bpf.o")
	keep_progs+=($(grep -o '"[./]*[a-z0-9_]*\.bpf\.o"' "$src_bpf/prog_tests/$t.c" |
		sed 's|^"[./]*\([a-z0-9_]*\)\.bpf\.o"$|\1|' || true))
done
# Makefile variables, continuation lines joined.
mkvar() { sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$src_bpf/Makefile" |
	sed -n "s/^$1 *:= *//p"; }
for w in $(mkvar LSKELS) $(mkvar LSKELS_EXTRA); do
	keep_progs+=("${w%.c}")
done
for s in $(mkvar LINKED_SKELS); do
	for o in $(mkvar "${s//./\\.}-deps"); do
		keep_progs+=("${o%.bpf.o}")
	done
done
subset=$(printf '%s\n' "${keep_tests[@]}" -- "${keep_progs[@]}" | sort -u | tr '\n' ' ')
declare -A keep
for n in "${keep_tests[@]}"; do keep[prog_tests/$n.c]=1; done
for n in "${keep_progs[@]}"; do keep[progs/$n.c]=1; done
(cd "$bpf" && for f in prog_tests/*.c progs/*.c; do
	[ -n "${keep[$f]:-}" ] || echo "$f"
done | xargs rm -f)
# A different subset leaves another tests.h behind: start it afresh.
if [ "$(cat "$bpf/.subset" 2>/dev/null)" != "$subset" ]; then
	rm -f "$bpf/prog_tests/tests.h" "$bpf"/*.test.o "$bpf"/*.test.d "$bpf/test_progs"
	echo "$subset" > "$bpf/.subset"
fi

# The runner's list of tests, prog_tests/tests.h, by the Makefile's rule
# but for one thing: a test entry point declared "__weak void test_X()"
# is registered too. The Makefile's sed wants the line to start with
# "void", so the tree's test_progs never runs uretprobe_stack (its entry
# is __weak to keep it out of line: the test checks its own frame in the
# stacks the return probes capture). Written before make, and newer than
# the tests, the Makefile keeps it.
th=$bpf/prog_tests/tests.h
{
	echo '/* Generated header, do not edit */'
	sed -n -E 's/^(__weak )?void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\3)/p' \
		"$bpf"/prog_tests/*.c | sort
} > "$th.new"
if cmp -s "$th.new" "$th" && [ -z "$(find "$bpf/prog_tests" -name '*.c' -newer "$th")" ]; then
	rm -f "$th.new"
else
	mv "$th.new" "$th"
fi

# The kernel's UAPI headers, where the selftests look for them:
# OUTPUT/../usr/include (BPF programs) and the tree's usr/include.
# Installed again only when a UAPI directory of the tree changed (a
# "make headers" that has nothing to do still takes a minute here).
hdr=$kt/headers
hsum=$(find "$SRC/include/uapi" "$SRC/arch/$KARCH/include/uapi" -printf '%p %T@ %s\n' | sha256sum)
if [ "$(cat "$hdr.sum" 2>/dev/null)" != "$hsum" ]; then
	make -s -C "$SRC" O="$hdr" headers >"$kt/headers.log" 2>&1 ||
		die "make headers failed (log: $kt/headers.log)"
	echo "$hsum" > "$hdr.sum"
fi
ln -sfn "$hdr/usr" "$tree/tools/testing/selftests/usr"
ln -sfn "$hdr/usr" "$tree/usr"

log "building test_progs ($(printf '%s\n' "${keep_tests[@]}" | wc -l) tests, \
$(ls "$bpf"/progs/*.c | wc -l) BPF programs, clang $(clang -dumpversion), $JOBS jobs; log: $blog)"
start=$(date +%s)
# The runner's extra files that these tests do not use, and the linked
# objects' copies for the no_alu32 and cpuv4 runners (the Makefile has
# every linked object depend on all three): assumed built.
old=()
for f in bpf_testmod.ko bpf_test_no_cfi.ko bpf_test_modorder_x.ko \
	 bpf_test_modorder_y.ko xdp_synproxy sign-file; do
	old+=(-o "$bpf/$f")
done
for s in $(mkvar LINKED_SKELS); do
	for o in $(mkvar "${s//./\\.}-deps"); do
		old+=(-o "$bpf/no_alu32/$o" -o "$bpf/cpuv4/$o")
	done
done
# As a make run from a shell: under "make check-kernel-tests" the
# selftests' lib.mk, seeing MAKELEVEL 1, leaves OUTPUT empty, and the
# Makefile writes its objects to /. OUTPUT given too, and the targets by
# their paths in it (a bare "urandom_read" would be made by make's
# built-in rule, racing the Makefile's own under -j).
if ! env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -C "$bpf" -j"$JOBS" OUTPUT="$bpf" \
	"${old[@]}" VMLINUX_BTF="$vmlinux" \
	"$bpf/test_progs" "$bpf/urandom_read" "$bpf/liburandom_read.so" \
	"$bpf/uprobe_multi" >"$blog" 2>&1; then
	grep -E 'error|Error' "$blog" | head -30 >&2
	tail -20 "$blog" >&2
	die "test_progs build failed (log: $blog)"
fi
log "test_progs built in $(($(date +%s) - start))s: $bpf/test_progs"
echo "$bpf"
