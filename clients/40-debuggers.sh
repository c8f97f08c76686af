# SPDX-License-Identifier: GPL-2.0
# gdb and strace on a program with active probes (on another function
# than the debugger's breakpoint).
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
echo 0 > "$TRACEFS/events/uprobes/enable"
echo > "$TRACEFS/uprobe_events"
