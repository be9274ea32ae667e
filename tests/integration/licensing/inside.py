# SPDX-License-Identifier: GPL-2.0-only
"""Runs inside `sdsi-emu run` for test_run.py.  argv[1] is a JSON list of
steps, each a command line to run; a word "{ppin:N}" is replaced by the
PPIN of intel_vsec.sdsi.N as `intel_sdsi -d N -i --json` reports it at
that moment (hex, no 0x), so the authority can issue a CAP for a socket
whose PPIN the test cannot know in advance.  Prints one JSON list of
{"argv", "rc", "out", "err"}; the test decides what should have failed."""
import json
import re
import subprocess
import sys

PPIN_WORD = re.compile(r'\{ppin:(\d+)\}')


def ppin(tool, n):
    done = subprocess.run([tool, '-d', n, '-i', '--json'],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f'inside.py: intel_sdsi -d {n} -i: exit '
                         f'{done.returncode}: {done.stderr}')
    return f'{int(json.loads(done.stdout)["ppin"], 16):x}'


def main():
    tool, steps = sys.argv[1], json.loads(sys.argv[2])
    results = []
    for argv in steps:
        argv = [PPIN_WORD.sub(lambda m: ppin(tool, m.group(1)), w)
                for w in argv]
        done = subprocess.run(argv, capture_output=True, text=True,
                              timeout=120)
        results.append({'argv': argv, 'rc': done.returncode,
                        'out': done.stdout, 'err': done.stderr})
    json.dump(results, sys.stdout)


if __name__ == '__main__':
    main()
