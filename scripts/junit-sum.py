# SPDX-License-Identifier: GPL-2.0-only
"""Sums the JUnit XML files that match a glob pattern and prints
"PASSED FAILED SKIPPED" on one line; errors count as failures.  Used by
run-integration.sh and check-kernel.sh for their summary lines."""
import glob
import sys
import xml.etree.ElementTree as ET

if len(sys.argv) != 2:
    sys.exit('usage: junit-sum.py GLOB')

passed = failed = skipped = 0
for path in sorted(glob.glob(sys.argv[1])):
    root = ET.parse(path).getroot()
    for s in ([root] if root.tag == 'testsuite' else root.iter('testsuite')):
        tests = int(s.get('tests', 0))
        bad = int(s.get('failures', 0)) + int(s.get('errors', 0))
        skip = int(s.get('skipped', 0))
        passed += tests - bad - skip
        failed += bad
        skipped += skip
print(passed, failed, skipped)
