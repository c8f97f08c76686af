#!/usr/bin/env python3
"""KUnit results as UPROBES-NG-RESULT lines.

Usage: kunit-results.py KUNIT_JSON

KUNIT_JSON is what the kernel's own parser wrote
(tools/testing/kunit/kunit.py parse --json=FILE BOOT_LOG). Prints one line
per test case, "UPROBES-NG-RESULT: PASS|FAIL|SKIP kunit/SUITE:CASE", a
parameterised case giving one line per parameter (SUITE:CASE:PARAM). A
case the parser saw crash, or could not parse, is a failure; so is a file
without any suite.
"""
import json
import sys

VERDICT = {"PASS": "PASS", "SKIP": "SKIP"}


def cases(group, prefix):
    """(name, status) of every test case under a KTAP group."""
    for case in group.get("test_cases", []):
        # The parser names a case it saw crash "" (status ERROR).
        yield prefix + (case["name"] or "crashed"), case["status"]
    for sub in group.get("sub_groups", []):
        yield from cases(sub, prefix + sub["name"] + ":")


def main():
    try:
        with open(sys.argv[1]) as f:
            root = json.load(f)
    except (OSError, ValueError) as e:
        print("UPROBES-NG-RESULT: FAIL kunit:parse: %s" % e)
        return
    suites = root.get("sub_groups", [])
    if not suites:
        print("UPROBES-NG-RESULT: FAIL kunit:no-suites")
    for suite in suites:
        found = False
        for name, status in cases(suite, ""):
            found = True
            print("UPROBES-NG-RESULT: %s kunit/%s:%s" %
                  (VERDICT.get(status, "FAIL"), suite["name"], name))
        if not found:
            print("UPROBES-NG-RESULT: FAIL kunit/%s:no-cases" % suite["name"])


main()
