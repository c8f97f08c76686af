#!/usr/bin/env python3
"""The side-by-side table of make check-kernel-tests.

Usage: kernel-tests-table.py STOCK_RESULTS OURS_RESULTS

Each file has one "PASS|FAIL|SKIP NAME" line per result of one kernel.
Prints one line per name, in the order the guests reported them:
"VERDICT  STOCK  OURS  NAME" (a result a kernel never gave is "-"), then
"N passed, M failed". The verdict is ours, judged against stock:
PASS when ours passed; FAIL when ours failed, or did not pass what stock
passed; SKIP when ours skipped what stock did not pass either. Lines of
the guests and host checks (guest:*, kernel:splat: ...) of either kernel
fail the run; they are named after their kernel.
"""
import sys


def read(path):
    res = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 1)
            if len(parts) == 2 and parts[0] in ("PASS", "FAIL", "SKIP"):
                # The first result of a name counts (no name repeats).
                res.setdefault(parts[1], parts[0])
    return res


def verdict(stock, ours):
    if ours == "PASS":
        return "PASS"
    if ours == "SKIP" and stock != "PASS":
        return "SKIP"
    return "FAIL"


def main():
    stock = read(sys.argv[1])
    ours = read(sys.argv[2])
    rows = []
    names = list(ours) + [n for n in stock if n not in ours]
    for name in names:
        if name.startswith(("guest:", "kernel:")):
            continue
        s, o = stock.get(name, "-"), ours.get(name, "-")
        rows.append((verdict(s, o), s, o, name))
    for kernel, res in (("stock", stock), ("ours", ours)):
        for name, v in res.items():
            if name.startswith(("guest:", "kernel:")):
                rows.append((v, v if kernel == "stock" else "-",
                             v if kernel == "ours" else "-", f"{kernel}/{name}"))
    print(f"{'verdict':8} {'stock':6} {'ours':6} test/subtest")
    for v, s, o, name in rows:
        print(f"{v:8} {s:6} {o:6} {name}")
    npass = sum(1 for r in rows if r[0] == "PASS")
    nfail = sum(1 for r in rows if r[0] == "FAIL")
    nskip = sum(1 for r in rows if r[0] == "SKIP")
    if stock:
        diff = sum(1 for r in rows
                   if r[1] != r[2] and not r[3].startswith(("stock/", "ours/")))
        print(f"{nskip} skipped; {diff} differ between stock and ours")
    else:
        print(f"{nskip} skipped; stock not run")
    print(f"{npass} passed, {nfail} failed")


if __name__ == "__main__":
    main()
