# SPDX-License-Identifier: GPL-2.0
# ftrace by hand: uprobe_events, enable, trace, uprobe_profile.
. "$CL/lib.sh"
cd "$TRACEFS" || exit 1
off=$(sym_off cl_work)
echo > uprobe_events
echo 0 > tracing_on
echo > trace
tfs uprobe_events "p:cl_entry $T:$off x=%di:s64"
tfs uprobe_events "r:cl_exit $T:$off rv=\$retval:s64"
tfs events/uprobes/enable 1
echo 1 > tracing_on
"$T" 100 > /dev/null
echo 0 > tracing_on
ne=$(grep -c 'cl_entry:' trace)
nr=$(grep -c 'cl_exit:' trace)
xs=$(sed -n 's/.*cl_entry: ([^)]*) x=\(-\{0,1\}[0-9]*\).*/\1/p' trace | awk '{ s += $1 } END { print s }')
expect ftrace:trace-lines "100 100 4950" "$ne $nr $xs" uprobe_events trace
expect ftrace:profile "100 100" "$(awk '$2 == "cl_entry" || $2 == "cl_exit" { printf "%s%s", sep, $3; sep = " " }' uprobe_profile)"
echo 0 > events/uprobes/enable
echo > uprobe_events
expect ftrace:removed "" "$(cat uprobe_events)"
echo 1 > tracing_on
