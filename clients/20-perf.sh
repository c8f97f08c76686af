# SPDX-License-Identifier: GPL-2.0
# perf: probe -x entry and %return with arguments, record/script, stat,
# record -g with a pending return probe.
. "$CL/lib.sh"
export PERF_PAGER=cat
cd "$W" || exit 1

perf probe -q -d 'probe_target:*' > /dev/null 2>&1
if perf probe -x "$T" -a 'cl_work i=%di:s64' > perf-add.log 2>&1 &&
   perf probe -x "$T" -a 'cl_work%return ret=$retval:s64' >> perf-add.log 2>&1; then
	result PASS perf:probe-add
else
	result FAIL perf:probe-add "$(tail -n 3 perf-add.log)"
fi

perf stat -x, -e probe_target:cl_work -e probe_target:cl_work__return \
	-- "$T" 100 > stat.out 2> stat.err
got=$(cut -d, -f1,3 stat.err | grep probe_target | tr '\n' ' ')
expect perf:stat "100,probe_target:cl_work 100,probe_target:cl_work__return " "$got"

perf record -q -o rec.data -e probe_target:cl_work -e probe_target:cl_work__return \
	-- "$T" 100 > rec.out 2> rec.err
perf script -i rec.data -F event,trace > script.out 2> script.err
n_entry=$(grep -c 'probe_target:cl_work:' script.out)
n_ret=$(grep -c 'probe_target:cl_work__return:' script.out)
expect perf:record-script-count "100 100" "$n_entry $n_ret"
isum=$(sed -n 's/.*probe_target:cl_work:.* i=\(-\{0,1\}[0-9]*\).*/\1/p' script.out |
       awk '{ s += $1 } END { print s }')
rsum=$(sed -n 's/.*cl_work__return:.* ret=\(-\{0,1\}[0-9]*\).*/\1/p' script.out |
       awk '{ s += $1 } END { print s }')
expect perf:record-script-args "4950 14950" "$isum $rsum"

# Callchains of the return probe's samples: main's address, never the
# return trampoline's ([uprobes]).
perf record -q -g -o g.data -e probe_target:cl_work__return -- "$T" 20 > /dev/null 2> g.err
perf script -i g.data -F ip,sym,dso > g.out 2> g.err2
nmain=$(grep -c ' main ' g.out)
nxol=$(grep -c 'uprobes' g.out)
expect perf:record-g-callchain "20 0" "$nmain $nxol"

perf probe -q -d 'probe_target:*' > /dev/null 2>&1
expect perf:probe-del "" "$(perf probe -l 2>/dev/null | grep probe_target)"
