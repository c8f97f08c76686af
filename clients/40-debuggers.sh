# SPDX-License-Identifier: GPL-2.0
# gdb and strace on a program with active probes: gdb's breakpoint beside
# a probe, and on a probed instruction.
. "$CL/lib.sh"
cd "$TRACEFS" || exit 1
off=$(sym_off cl_work)
echo > uprobe_events
tfs uprobe_events "p:cl_dbg $T:$off"
tfs uprobe_events "r:cl_dbgr $T:$off"
tfs events/uprobes/enable 1
cd "$W" || exit 1

gdb -q -batch -ex 'break cl_str' -ex 'run 100' -ex 'print (char *)$rdi' \
	-ex 'continue' "$T" > gdb.out 2>&1
hello=$(grep -c '^\$1 = 0x[0-9a-f]* "hello"' gdb.out)
expect gdb:break-and-run "1 work=14950 ticks=0" "$hello $(target_line < gdb.out)" gdb.out

# gdb reads the program's code where cl_work is probed, not our int3
# (the stock kernel shows 0xcc there).
want=$(od -An -tx1 -j $((off)) -N1 "$T" | tr -d ' ')
gdb -q -batch -ex 'break main' -ex 'run 100' -ex 'x/1xb cl_work' \
	-ex 'kill' "$T" > gdbx.out 2>&1
got=$(sed -n 's/^0x[0-9a-f]* <cl_work>:[[:space:]]*0x\([0-9a-f][0-9a-f]\)$/\1/p' gdbx.out)
expect gdb:reads-probed-code "$want" "$got" gdbx.out

strace -f -o strace.out "$T" 100 > strace.prog
expect strace:program-output "work=14950 ticks=0" "$(target_line < strace.prog)"
# Stock shows the return trampoline's uretprobe() system calls (100).
expect strace:no-uprobes-syscalls "0" "$(grep -c -E 'uretprobe|syscall_0x14f|\[uprobes\]' strace.out)"
expect strace:exit "1" "$(grep -c '+++ exited with 0 +++' strace.out)"
expect ftrace:hits-under-debuggers "200 200" \
	"$(awk '$2 == "cl_dbg" || $2 == "cl_dbgr" { printf "%s%s", sep, $3; sep = " " }' "$TRACEFS/uprobe_profile")"
# gdb's own breakpoint on a probed instruction (cl_w1's first, probed
# with cl_dbgw1): gdb stops on each of the 3 calls, shows the program's
# instruction there, steps over it; the probe counts each call once
# (stock: gdb never stops, the probe counts 3).
tfs uprobe_events "p:cl_dbgw1 $T:$(sym_off cl_w1)"
tfs events/uprobes/cl_dbgw1/enable 1
gdb -q -batch -ex 'break *cl_w1' -ex 'run 3' -ex 'x/i $pc' -ex 'stepi' \
	-ex 'x/i $pc' -ex 'continue' -ex 'continue' -ex 'continue' "$T" \
	> gdbb.out 2>&1
stops=$(grep -c '^Breakpoint 1, ' gdbb.out)
insn=$(objdump -d --no-show-raw-insn "$T" |
	awk '/<cl_w1>:$/ { getline; sub(/^[^:]*:[[:space:]]*/, ""); print $1; exit }')
shown=$(sed -n 's/^=> 0x[0-9a-f]* <cl_w1>:[[:space:]]*\([a-z0-9]*\).*/\1/p' gdbb.out)
stepped=$(grep -c '^=> 0x[0-9a-f]* <cl_w1+[1-9][0-9]*>:' gdbb.out)
hits=$(awk '$2 == "cl_dbgw1" { print $3 }' "$TRACEFS/uprobe_profile")
expect gdb:stops-on-probed-instruction "3 $insn 1 3 work=12 ticks=0" \
	"$stops $shown $stepped $hits $(target_line < gdbb.out)" gdbb.out
echo 0 > "$TRACEFS/events/uprobes/enable"
echo > "$TRACEFS/uprobe_events"
