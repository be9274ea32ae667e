# SPDX-License-Identifier: GPL-2.0-only
"""What the Ansible tests know of the fleet they build (where the programs
and the collection are, the hosts' sockets, PPINs and features) and read
back from it (the NVRAM's digests, the task results of a run)."""
import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
COLLECTIONS = os.path.join(REPO, 'ansible')
BUILD_DIR = os.environ.get('SDSI_BUILD_DIR', '')
TOOL = os.path.join(BUILD_DIR, 'tools', 'intel_sdsi')
EMU = os.path.join(BUILD_DIR, 'emu', 'sdsi-emu')
AUTHORITY = os.path.join(BUILD_DIR, 'tools', 'sdsi-authority', 'sdsi-authority')

# Sockets per host, 1 to 4, and each socket's PPIN: distinct across the fleet.
SOCKETS = [1, 2, 3, 4, 4, 3, 2, 1]
LAYOUT = [[0x5D5100000000 + (h << 8) + s + 1 for s in range(n)] for h, n in enumerate(SOCKETS)]
# The last host's part has no metering: its sockets have no counters to read.
FEATURES = ['on-demand,attestation,metering'] * 7 + ['on-demand,attestation']
# Bound to a PPIN no socket of the fleet has.
WRONG_PPIN = 0xBAD000000001
WRONG_NAME = 'zz-other-host.cap'


def nvram(fleet):
    """The bytes of every host's NVRAM files: what a write would change."""
    out = {}
    for h in fleet.hosts:
        for name in sorted(os.listdir(h.state)):
            path = os.path.join(h.state, name)
            if os.path.isfile(path):
                with open(path, 'rb') as f:
                    out[path] = hashlib.sha256(f.read()).hexdigest()
    return out


def task_results(doc, action):
    """{host: module result} of the one task of ACTION in a run."""
    out = {}
    for r in doc['results']:
        if r['action'].endswith(action):
            assert r['host'] not in out
            out[r['host']] = r
    return out


def sockets_of(doc):
    return {h: r['result']['ansible_facts']['sdsi']['sockets']
            for h, r in task_results(doc, 'sdsi_facts').items()}
