# SPDX-License-Identifier: GPL-2.0-only
"""Runs inside `sdsi-emu run`: executes the steps given as JSON in argv[1]
({"tool": [args]} for intel_sdsi, {"ctl": [args]} for sdsi-emu ctl) and
prints one JSON list of {rc, out, err} on stdout."""
import json
import subprocess
import sys


def main():
    tool, emu, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    results = []
    for step in steps:
        if "tool" in step:
            argv = [tool, *step["tool"]]
        else:
            argv = [emu, "ctl", *step["ctl"]]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        results.append({"rc": proc.returncode, "out": proc.stdout, "err": proc.stderr})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
