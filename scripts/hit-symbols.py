#!/usr/bin/env python3
"""Instructions per function of one uprobe hit, stock kernel against ours.

Usage: hit-symbols.py STOCK_VMLINUX STOCK_PCS OURS_VMLINUX OURS_PCS

Each PCS file holds the addresses hit-profile.py recorded, one per line.
Prints one line per function (kernel symbol, or <user> for the XOL slot
and other user code) with its instruction count on each kernel, biggest
difference first, then the totals.
"""
import bisect
import collections
import subprocess
import sys

USER_TOP = 0x800000000000


def symbols(vmlinux):
    syms = []
    nm = subprocess.run(["nm", "-n", vmlinux], capture_output=True,
                        text=True, check=True).stdout
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            syms.append((int(fields[0], 16), fields[2]))
    return syms


def profile(vmlinux, pcs_file):
    syms = symbols(vmlinux)
    addrs = [a for a, _ in syms]
    counts = collections.Counter()
    with open(pcs_file) as f:
        for line in f:
            pc = int(line, 16)
            if pc < USER_TOP:
                counts["<user>"] += 1
                continue
            i = bisect.bisect_right(addrs, pc) - 1
            counts[syms[i][1] if i >= 0 else "?"] += 1
    return counts


def main():
    stock = profile(sys.argv[1], sys.argv[2])
    ours = profile(sys.argv[3], sys.argv[4])
    names = sorted(set(stock) | set(ours),
                   key=lambda n: (-abs(ours[n] - stock[n]), n))
    print("%-40s %7s %7s %7s" % ("function", "stock", "ours", "diff"))
    for n in names:
        print("%-40s %7d %7d %+7d" % (n[:40], stock[n], ours[n],
                                      ours[n] - stock[n]))
    s, o = sum(stock.values()), sum(ours.values())
    print("%-40s %7d %7d %+7d" % ("TOTAL", s, o, o - s))


if __name__ == "__main__":
    main()
