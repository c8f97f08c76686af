# SPDX-License-Identifier: GPL-2.0
# bpftrace: uprobe, uretprobe, arguments, str(), a wildcard, USDT with its
# semaphore, -p PID. Every figure is exact: the target's calls are known.
. "$CL/lib.sh"

# bt NAME PROGRAM [TARGET-ARGS]: bpftrace's map output for one target run.
bt() {
	local name=$1 prog=$2
	shift 2
	bpftrace -e "$prog" -c "$T $*" > "$W/$name.out" 2> "$W/$name.err"
	echo "bpftrace rc=$?" >> "$W/$name.err"
}

# the value of map line "@NAME: V" of a run's output
val() { sed -n "s/^@$2: \(.*\)$/\1/p" "$W/$1.out" | tail -n 1; }

bt count "uprobe:$T:cl_work { @n = count(); }" 100
expect bpftrace:uprobe-count 100 "$(val count n)"
expect bpftrace:target-output "work=14950 ticks=0" "$(target_line < "$W/count.out")"

bt ret "uretprobe:$T:cl_work { @s = sum(retval); }" 100
expect bpftrace:uretprobe-retval-sum 14950 "$(val ret s)"

bt args "uprobe:$T:cl_work { @s = sum(arg0); @m = max(arg0); }" 100
expect bpftrace:uprobe-arg0 "4950 99" "$(val args s) $(val args m)"

bt str "uprobe:$T:cl_str { @[str(arg0)] = count(); }" 10
expect bpftrace:str "hello" "$(sed -n 's/^@\[\(.*\)\]: 1$/\1/p' "$W/str.out")" \
	"$W/str.out" "$W/str.err"

bt wild "uprobe:$T:cl_w* { @[probe] = count(); }" 10
got=$(sed -n 's/^@\[uprobe:.*:\(cl_w[0-9]\)\]: \([0-9]*\)$/\1=\2/p' "$W/wild.out" | sort | tr '\n' ' ')
expect bpftrace:wildcard "cl_w1=10 cl_w2=20 cl_w3=30 " "$got"

# USDT: the semaphore is 1 while traced (the target fires the probe only
# then), 0 after.
bt usdt "usdt:$T:cl:tick { @n = count(); @s = sum(arg0); }" 100
expect bpftrace:usdt "100 4950" "$(val usdt n) $(val usdt s)"
expect bpftrace:usdt-semaphore-traced "work=14950 ticks=100" "$(target_line < "$W/usdt.out")"
expect bpftrace:usdt-semaphore-after "work=14950 ticks=0" "$("$T" 100 | target_line)"

# -p PID: bpftrace 0.17 (bookworm) resolves the binary through PID but
# attaches its uprobes for every process, on the stock kernel as on ours:
# both targets' calls count.
coproc TGT { "$T" 50 wait; }
read -r ready <&"${TGT[0]}"
coproc OTHER { "$T" 70 wait; }
read -r ready2 <&"${OTHER[0]}"
bpftrace -p "$TGT_PID" -e "BEGIN { printf(\"attached\\n\"); }
	uprobe:$T:cl_work { @n = count(); } uprobe:$T:cl_str { exit(); }" \
	> "$W/pid.out" 2> "$W/pid.err" &
bpid=$!
# BEGIN runs once every probe is attached.
for i in $(seq 1 1200); do
	grep -q attached "$W/pid.out" && break
	sleep 0.1
done
echo go >&"${OTHER[1]}"
echo go >&"${TGT[1]}"
wait "$bpid"
expect bpftrace:pid-option "$ready $ready2 120" "ready ready $(val pid n)" \
	"$W/pid.out" "$W/pid.err"
wait
