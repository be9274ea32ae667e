# SPDX-License-Identifier: GPL-2.0-only
"""`make soak` (docs/soak.md): soak.py BUILD_DIR [--seconds S] [--threads T]
[--sockets N] [--seed X].

Issues an authority and, for each socket, a plan of real AKCs and CAPs with
sdsi-authority (one CAP more than a state certificate holds, so that the
refusal for space comes too), then runs soak_inside.py inside
`sdsi-emu run --authority` with that many sockets.  Its exit status is the
soak's: 0 only if the run held (soak_inside.py says what that means)."""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = '/usr/bin/python3'
# CAPs of eight features (292-byte licences): 13 fit in a state certificate
# (4096 bytes, docs/model.md), so the 14th CAP of a plan is refused for
# space; after that the socket is provisioned with its last AKC again.
BLOBS_PER_SOCKET = 16
FEATURES = [arg for i in range(8) for arg in ('--feature', f'F{i:03d}')]


def ppin(n):
    return 0x50AC0000 + 0x1111 * (n + 1)


def issue(authority, adir, path, args):
    done = subprocess.run([authority, *args[:1], adir, *args[1:], '-o', path],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f'sdsi-authority {" ".join(args)}: {done.stderr.strip()}')
    return path


def make_plans(authority, work, sockets):
    """Blob k of a socket: every tenth an AKC of a rising key revision,
    the others CAPs for licence IDs 1..5 with rising revisions, one-time and
    metered in turn."""
    adir = os.path.join(work, 'authority')
    subprocess.run([authority, 'init', adir], check=True, capture_output=True)
    jobs, plans = {}, [[] for _ in range(sockets)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for k in range(0, BLOBS_PER_SOCKET, 10):
            jobs[('akc', k)] = pool.submit(issue, authority, adir, os.path.join(work, f'akc{k}'),
                                           ['akc', '--key-rev', str(1 + k // 10)])
        for n in range(sockets):
            for k in range(BLOBS_PER_SOCKET):
                if k % 10:
                    jobs[(n, k)] = pool.submit(
                        issue, authority, adir, os.path.join(work, f'cap{n}.{k}'),
                        ['cap', '--ppin', f'{ppin(n):x}', '--id', f'{1 + k % 5:x}',
                         '--revision', str(1 + k // 5), '--type',
                         'metered' if k % 2 else 'one-time', *FEATURES])
        for n in range(sockets):
            for k in range(BLOBS_PER_SOCKET):
                key = ('akc', k) if k % 10 == 0 else (n, k)
                plans[n].append({'kind': 'akc' if k % 10 == 0 else 'cap',
                                 'path': jobs[key].result()})
    return adir, plans


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('--seconds', type=int, default=60)
    ap.add_argument('--threads', type=int, default=8)
    ap.add_argument('--sockets', type=int, default=4)
    ap.add_argument('--seed', type=int, default=None)
    args = ap.parse_args()
    if not 1 <= args.seconds <= 86400 or not 1 <= args.threads <= 256 \
            or not 1 <= args.sockets <= 8:
        ap.error('--seconds 1..86400, --threads 1..256, --sockets 1..8')
    build = os.path.abspath(args.build)
    emu = os.path.join(build, 'emu/sdsi-emu')
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    work = tempfile.mkdtemp(prefix='sdsi-soak.')
    try:
        adir, plans = make_plans(os.path.join(build, 'tools/sdsi-authority/sdsi-authority'),
                                 work, args.sockets)
        cfg = dict(seconds=args.seconds, threads=args.threads, sockets=args.sockets,
                   seed=seed, emu=emu, plans=plans,
                   reader=os.path.join(build, 'soak/sdsi-soak-reader'))
        cfg_path = os.path.join(work, 'config.json')
        with open(cfg_path, 'w') as f:
            json.dump(cfg, f)
        ppins = ','.join(f'{ppin(n):x}' for n in range(args.sockets))
        done = subprocess.run([emu, 'run', '--sockets', str(args.sockets), '--authority', adir,
                               '--ppin', ppins, '--', PYTHON,
                               os.path.join(HERE, 'soak_inside.py'), cfg_path])
        return done.returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
