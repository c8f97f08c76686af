# SPDX-License-Identifier: GPL-2.0
# Helpers of the client scenarios, sourced by run inside the Debian root.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CL=${CL:-/opt/uprobes-ng/clients}
W=${W:-/tmp/cl}
T=$W/target
TRACEFS=/sys/kernel/tracing

# result PASS|FAIL|SKIP name [why]
result() {
	echo "UPROBES-NG-RESULT: $1 clients/$2"
	[ -z "${3:-}" ] || echo "clients/$2: $3"
}

# expect NAME WANT GOT [FILE...]: PASS when equal, else FAIL with both,
# and the start of each FILE.
expect() {
	local f
	if [ "$2" = "$3" ]; then
		result PASS "$1"
		return
	fi
	result FAIL "$1" "expected [$2], got [$3]"
	shift 3
	for f in "$@"; do
		echo "clients/$f:"
		head -n 20 "$f" | sed 's/^/| /'
	done
}

# tfs FILE LINE: write LINE to the tracefs FILE, reporting a refusal.
tfs() {
	echo "$2" >> "$TRACEFS/$1" ||
		echo "clients/tracefs: writing [$2] to $1 failed: $(tail -n 2 "$TRACEFS/error_log")"
}

# The file offset of address $1 of the target (its LOAD segments).
vaddr_off() {
	local addr=$(($1)) type off va pa fs rest
	while read -r type off va pa fs rest; do
		[ "$type" = LOAD ] || continue
		if [ "$addr" -ge $((va)) ] && [ "$addr" -lt $((va + fs)) ]; then
			printf '0x%x\n' $((addr - va + off))
			return
		fi
	done < <(readelf -lW "$T")
}

# The target's file offset of symbol $1 (for uprobe_events).
sym_off() {
	vaddr_off "0x$(nm "$T" | awk -v s="$1" '$3 == s { print $1 }')"
}

# Output of the target's run, its "work=... ticks=..." line.
target_line() {
	grep -a '^work=' | tail -n 1
}
