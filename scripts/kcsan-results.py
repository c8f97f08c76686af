#!/usr/bin/env python3
"""KCSAN reports of a guest log as UPROBES-NG-RESULT lines.

Usage: kcsan-results.py CONSOLE_LOG OUR_FUNCTIONS OTHERS_OUT

OUR_FUNCTIONS lists the functions of the engine's and the tracer's object
files, one a line (nm of the build). A report whose racing access is in
one of them (its title, or the top frame of either access's stack, our
code inlined into it included) is a data race of ours: one FAIL line
each, "kernel/kcsan:race:A/B". The other reports (races of other parts of
the kernel, also those our code only called into) go to OTHERS_OUT,
whole, and do not fail the run. Without the detector's boot selftest
having passed, the run proves nothing: FAIL kernel/kcsan:selftest. Without
any report of ours: PASS kernel/kcsan:no-race-in-uprobes.
"""
import re
import sys

STAMP = re.compile(r"^\[ *\d+\.\d+\] ?")
FRAME = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\+0x[0-9a-f]+/0x[0-9a-f]+")
TITLE = re.compile(r"^BUG: KCSAN: (\S+) in (.*)$")
ACCESS = re.compile(r"^(race at unknown origin, with )?(read|write).* (by|of) ")


def reports(lines):
    """Each report: its lines, from its BUG line to its closing rule."""
    cur = None
    for line in lines:
        if cur is None:
            if TITLE.search(line):
                cur = [line]
            continue
        if line.startswith("=" * 20):
            yield cur
            cur = None
        else:
            cur.append(line)
    if cur:
        yield cur


def main():
    log, ours_file, others_out = sys.argv[1:4]
    with open(ours_file) as f:
        ours = {l.strip() for l in f if l.strip()}
    with open(log, errors="replace") as f:
        lines = [STAMP.sub("", l.rstrip("\r\n")) for l in f]
    selftest = any(re.search(r"kcsan: selftest: (\d+)/\1 tests passed", l)
                   for l in lines)
    print("UPROBES-NG-RESULT: %s kernel/kcsan:selftest"
          % ("PASS" if selftest else "FAIL"))
    mine = []
    with open(others_out, "w") as others:
        for rep in reports(lines):
            title = TITLE.search(rep[0]).group(2)
            names = [n.strip() for n in title.split(" / ")]
            for i, line in enumerate(rep[:-1]):
                m = ACCESS.match(line) and FRAME.match(rep[i + 1])
                if m:
                    names.append(m.group(1))
            if any(n.split(".")[0] in ours for n in names):
                mine.append(title.replace(" ", ""))
            else:
                others.write("\n".join(rep) + "\n\n")
    for title in dict.fromkeys(mine):
        print("UPROBES-NG-RESULT: FAIL kernel/kcsan:race:%s" % title)
    if selftest and not mine:
        print("UPROBES-NG-RESULT: PASS kernel/kcsan:no-race-in-uprobes")


if __name__ == "__main__":
    main()
