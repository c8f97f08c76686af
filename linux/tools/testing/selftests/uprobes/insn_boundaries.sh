#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: insn_boundaries.sh ELF GUEST-PATH > OUT
#
# Every instruction boundary of the executable sections of ELF, as
# objdump -d decodes them, in file offsets (converted from addresses with
# the LOAD program headers), for allinsn.c.  GUEST-PATH is where the guest
# has the very same file.  The output is text:
#
#   # comment
#   path GUEST-PATH
#   size BYTES
#   buildid HEX          (of the NT_GNU_BUILD_ID note, "-" when none)
#   insns N              (boundaries)
#   regions N
#   r OFF KIND NAME LENS (one line per region)
#
# A region is a run of contiguous instructions: OFF is the file offset of
# its first one (hex, no 0x), LENS the length of each instruction, one hex
# digit each (1-f), so the boundaries are OFF, OFF+LENS[0], ...  Regions
# start at each section start, each function start the file tells
# (symbols, .eh_frame FDEs), each direct call target, each loop head
# (target of a backward jump) and after each run of padding.  KIND is
# "F" for code where a function (or, outside what the FDEs cover, maybe
# one) starts, "f" for code continuing the function of the region before
# (a loop head, or code after padding inside an FDE's range), "p" for
# padding (nops and int3s, as compilers put between functions and before
# loop heads).  NAME is a symbol at OFF or "-".  Bytes objdump skips (zero
# runs) end a region.
set -eu

elf=$1
guest=$2
OBJDUMP=${OBJDUMP:-objdump}
READELF=${READELF:-readelf}
NM=${NM:-nm}

[ -r "$elf" ] || { echo "$0: cannot read $elf" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

size=$(wc -c < "$elf" | tr -d ' ')
buildid=$($READELF -n "$elf" | awk '/Build ID:/ { print $3; exit }')
[ -n "$buildid" ] || buildid=-

# LOAD segments: "vaddr offset filesz" (decimal).
$READELF -lW "$elf" | awk '$1 == "LOAD" { print $3, $2, $5 }' |
while read -r va off sz; do
	echo "$((va)) $((off)) $((sz))"
done > "$tmp/segs"
[ -s "$tmp/segs" ] || { echo "$0: no LOAD segment in $elf" >&2; exit 1; }

# Known function starts: symbols "ADDR NAME" (names without version),
# and the FDEs of .eh_frame "START END" (sorted, 16 hex digits each).
{
	$NM --defined-only "$elf" 2>/dev/null || true
	$NM -D --defined-only "$elf" 2>/dev/null || true
} | awk 'NF == 3 && $2 ~ /^[TtWwiI]$/ { sub(/@.*/, "", $3); print $1, $3 }' \
	> "$tmp/syms"
$READELF --debug-dump=frames "$elf" 2>/dev/null |
	sed -n 's/.* FDE .* pc=\([0-9a-f]*\)\.\.\([0-9a-f]*\).*/\1 \2/p' |
	sort > "$tmp/fdes"

$OBJDUMP -d -w "$elf" > "$tmp/dis"

# Hex conversion in plain awk (mawk has no strtonum); addresses fit a
# double exactly.
awk -v warn="$tmp/warn" '
function hex(s,    i, n, c) {
	n = 0
	s = tolower(s)
	sub(/^[ \t]*(0x)?/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			break
		n = n * 16 + c - 1
	}
	return n
}
function tohex(n,    s, d) {
	if (n == 0)
		return "0"
	s = ""
	while (n > 0) {
		d = n % 16
		s = substr("0123456789abcdef", d + 1, 1) s
		n = (n - d) / 16
	}
	return s
}
function fileoff(va,    i) {
	for (i = 0; i < nseg; i++)
		if (va >= segva[i] && va < segva[i] + segsz[i])
			return va - segva[i] + segoff[i]
	return -1
}
function is_pad(m) {
	sub(/^[ \t]+/, "", m)
	while (m ~ /^(data16|cs|ds|es|ss) /)
		sub(/^[a-z0-9]+ +/, "", m)
	return m ~ /^(nop|nopw|nopl)( |$)/ || m ~ /^xchg +%ax,%ax$/ ||
	       m ~ /^int3( |$)/
}
function flush() {
	if (nlens) {
		printf "r %s %s %s %s\n", tohex(rstart), rkind, rname, lens
		nregions++
	}
	nlens = 0
	lens = ""
}
function start(off, kind, va) {
	flush()
	rstart = off
	rkind = kind
	rname = (va in name) ? name[va] : "-"
}
# (an empty file has no FNR == 1: tell the files by name)
FNR == 1 {
	if (FILENAME == ARGV[1])
		file = 1
	else if (FILENAME == ARGV[2])
		file = 2
	else if (FILENAME == ARGV[3])
		file = 3
	else
		file = file < 4 ? 4 : 5
}
file == 1 {
	segva[nseg] = $1; segoff[nseg] = $2; segsz[nseg] = $3; nseg++
	next
}
file == 2 {
	va = hex($1)
	known[va] = 1
	if (!(va in name) || (name[va] ~ /^_/ && $2 !~ /^_/))
		name[va] = substr($2, 1, 48)
	next
}
file == 3 {
	fdelo[nfde] = hex($1)
	fdehi[nfde] = hex($2)
	known[fdelo[nfde]] = 1
	nfde++
	next
}
# First pass over the disassembly: direct call targets (function starts)
# and the targets of backward jumps (loop heads).
file == 4 {
	if ($0 !~ /^ *[0-9a-f]+:\t/ || split($0, f, "\t") < 3)
		next
	t = f[3]
	sub(/^(bnd |notrack |[a-z]s )*/, "", t)
	if (t !~ /^(call|j[a-z]+|loop[a-z]*) +(0x)?[0-9a-f]+( |$)/)
		next
	c = t ~ /^call/
	sub(/^[a-z]+ +/, "", t)
	sub(/ .*/, "", t)
	t = hex(t)
	if (c)
		known[t] = 1
	else if (t <= hex(f[1]))
		loophead[t] = 1
	next
}
{
	if ($0 ~ /^Disassembly of section/ || $0 ~ /^[0-9a-f]+ <.*>:$/ ||
	    $0 ~ /^\t\.\.\.$/) {
		# section or symbol start, or a skipped block
		flush()
		expect = -1
		if ($0 ~ /^Disassembly of section/)
			nsec++
		next
	}
	if ($0 !~ /^ *[0-9a-f]+:\t/)
		next
	n = split($0, f, "\t")
	va = hex(f[1])
	nb = split(f[2], bytes, " ")
	if (n < 3 || nb < 1 || nb > 15) {
		print "bad instruction line: " $0 > "/dev/stderr"
		exit 1
	}
	if (!(nsec in seclo))
		seclo[nsec] = va
	sechi[nsec] = va + nb
	off = fileoff(va)
	if (off < 0) {
		print f[1] " is in no LOAD segment" > "/dev/stderr"
		exit 1
	}
	if (va in known)
		known[va] = 2
	while (fp < nfde && fdehi[fp] <= va)
		fp++
	pad = is_pad(f[3])
	if (!nlens || va != expect || pad != (rkind == "p") ||
	    (!pad && ((va in known) || (va in loophead)))) {
		# A new region: a function start (known, or after padding
		# where no FDE says we are inside a function), or the
		# continuation of one (a loop head, code after padding
		# inside an FDE), or padding.
		if (pad)
			kind = "p"
		else if (va in known)
			kind = "F"
		else if ((va in loophead) || (fp < nfde && fdelo[fp] <= va))
			kind = "f"
		else
			kind = "F"
		start(off, kind, va)
	}
	lens = lens substr("0123456789abcdef", nb + 1, 1)
	nlens++
	expect = va + nb
	next
}
END {
	flush()
	# Known starts inside the disassembly must be boundaries, else the
	# linear sweep lost its way (FDEs of signal trampolines start one
	# byte early, so allow a few).
	for (k in known) {
		va = k + 0	# a subscript is a string: compare numbers
		for (s in seclo)
			if (va >= seclo[s] && va < sechi[s])
				break
		if (!(s in seclo) || va < seclo[s] || va >= sechi[s])
			continue
		nknown++
		if (known[k] == 1 && ++bad <= 5)
			list = list " " tohex(va)
	}
	printf "%d %d%s\n", bad, nknown, list > warn
}
' "$tmp/segs" "$tmp/syms" "$tmp/fdes" "$tmp/dis" "$tmp/dis" > "$tmp/regions"

ninsns=$(awk '{ n += length($5) } END { print n + 0 }' "$tmp/regions")
nregions=$(wc -l < "$tmp/regions" | tr -d ' ')
[ "$ninsns" -gt 0 ] || { echo "$0: no instruction found in $elf" >&2; exit 1; }
read -r bad nknown badlist < "$tmp/warn"
if [ "$bad" -gt $((nknown / 100 + 2)) ]; then
	echo "$0: $bad of $nknown function starts are no instruction boundary" \
		"($badlist): objdump lost its way in $elf" >&2
	exit 1
fi

echo "# uprobes-ng: instruction boundaries of $elf (guest path $guest)"
echo "# by insn_boundaries.sh from $($OBJDUMP --version | head -n 1)"
echo "# $bad of $nknown known function starts are inside an instruction:$badlist"
echo "path $guest"
echo "size $size"
echo "buildid $buildid"
echo "insns $ninsns"
echo "regions $nregions"
cat "$tmp/regions"
