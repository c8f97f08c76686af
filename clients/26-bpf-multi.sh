# SPDX-License-Identifier: GPL-2.0
# A BPF program on a BPF_TRACE_UPROBE_MULTI link (raw bpf() calls): two
# offsets, cookies, bpf_get_func_ip(), a pid filter.
. "$CL/lib.sh"
cd "$W" || exit 1
if ! gcc -O2 -o multi "$CL/multi.c" > multi-gcc.log 2>&1; then
	result FAIL bpf-multi:build "$(tail -n 3 multi-gcc.log)"
	exit 0
fi
# A PIE without address randomisation is loaded at 0x555555554000.
base=0x555555554000
a0=$((0x$(nm "$T" | awk '$3 == "cl_work" { print $1 }')))
a1=$((0x$(nm "$T" | awk '$3 == "cl_w2" { print $1 }')))
./multi "$T" 100 "$(sym_off cl_work)" "$(sym_off cl_w2)" > multi.out 2>&1
expect bpf-multi:cookies-func-ip-pid \
	"$(printf 'c0=100 c1=200 ip0=0x%x ip1=0x%x' $((base + a0)) $((base + a1)))" \
	"$(grep '^c0=' multi.out)" multi.out
