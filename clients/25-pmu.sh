# SPDX-License-Identifier: GPL-2.0
# The uprobe PMU opened directly with perf_event_open(): entry, return and
# a USDT location counted in its semaphore (ref_ctr_offset).
. "$CL/lib.sh"
cd "$W" || exit 1
if ! gcc -O2 -o pmu "$CL/pmu.c" > pmu-gcc.log 2>&1; then
	result FAIL pmu:build "$(tail -n 3 pmu-gcc.log)"
	exit 0
fi
note=$(readelf -n "$T" | sed -n 's/.*Location: \(0x[0-9a-f]*\), Base: 0x[0-9a-f]*, Semaphore: \(0x[0-9a-f]*\).*/\1 \2/p')
loc=$(vaddr_off "${note% *}")
sem=$(vaddr_off "${note#* }")
./pmu "$T" 100 "$(sym_off cl_work)" "$sem" "$loc" > pmu.out 2>&1
expect pmu:entry-return-refctr "work=14950 ticks=100 entry=100 return=100 usdt=100" \
	"$(tr '\n' ' ' < pmu.out | sed 's/ $//')" pmu.out
# Without the event, the semaphore is back to 0.
expect pmu:semaphore-after "work=14950 ticks=0" "$("$T" 100 | target_line)"
