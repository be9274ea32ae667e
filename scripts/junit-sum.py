# SPDX-License-Identifier: GPL-2.0-only
"""Sums the JUnit XML files that match a glob pattern and prints
"PASSED FAILED SKIPPED" on one line; errors count as failures.  Used by
run-integration.sh and check-kernel.sh for their summary lines.

With --failures it prints instead one line per failed test: its id, a
tab, and the first line of its failure message."""
import glob
import sys
import xml.etree.ElementTree as ET


def suites(pattern):
    for path in sorted(glob.glob(pattern)):
        root = ET.parse(path).getroot()
        yield from ([root] if root.tag == 'testsuite'
                    else root.iter('testsuite'))


def failed_cases(pattern):
    """(test id, first line of the failure message) of each failed test."""
    for s in suites(pattern):
        for case in s.iter('testcase'):
            bad = case.find('failure')
            if bad is None:
                bad = case.find('error')
            if bad is not None:
                message = (bad.get('message') or bad.text or '').strip()
                yield (f'{case.get("classname")}::{case.get("name")}',
                       message.splitlines()[0] if message else '')


def failures(pattern):
    for case, message in failed_cases(pattern):
        print(f'{case}\t{message}')


def totals(pattern):
    passed = failed = skipped = 0
    for s in suites(pattern):
        tests = int(s.get('tests', 0))
        bad = int(s.get('failures', 0)) + int(s.get('errors', 0))
        skip = int(s.get('skipped', 0))
        passed += tests - bad - skip
        failed += bad
        skipped += skip
    print(passed, failed, skipped)


args = sys.argv[1:]
if args[:1] == ['--failures'] and len(args) == 2:
    failures(args[1])
elif len(args) == 1:
    totals(args[0])
else:
    sys.exit('usage: junit-sum.py [--failures] GLOB')
