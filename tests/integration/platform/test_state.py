# SPDX-License-Identifier: GPL-2.0-only
"""NVRAM in --state DIR: what survives a restart and a power cycle, and
files that fail their checks are refused, named, and left alone."""
import json
import os

import pytest


def steps(done):
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture
def state(tmp_path):
    path = tmp_path / 'state'
    path.mkdir(mode=0o700)
    return path


def test_ppin_survives_restart(sdsi, state):
    first = steps(sdsi.inside(['--state', str(state), '--sockets', '2'],
                              'regs:0', 'regs:1'))
    assert (state / 'socket0.nvram').is_file()
    assert (state / 'socket1.nvram').is_file()
    second = steps(sdsi.inside(['--state', str(state), '--sockets', '2'],
                               'regs:0', 'regs:1'))
    assert [r['ppin'] for r in first] == [r['ppin'] for r in second]
    assert first[0]['ppin'] != first[1]['ppin']


def test_power_cycle_resets_counts_keeps_nvram(sdsi, state):
    opts = ['--state', str(state)]
    before, refused, counted, _, after = steps(sdsi.inside(
        opts, 'regs:0', 'akc:0', 'regs:0', 'ctl:power-cycle,0', 'regs:0'))
    assert refused == 'EIO'
    assert counted['akc_count'] == 1
    assert after['akc_count'] == 0
    assert after['ppin'] == before['ppin']
    # A restart is a cold boot too: the count is gone, the PPIN is not.
    again, refused = steps(sdsi.inside(opts, 'regs:0', 'akc:0'))
    assert again['akc_count'] == 0 and refused == 'EIO'
    assert again['ppin'] == before['ppin']


def test_ppin_option(sdsi):
    regs = steps(sdsi.inside(['--sockets', '2', '--ppin', '0x1234,abcdef'],
                             'regs:0', 'regs:1'))
    assert [r['ppin'] for r in regs] == [0x1234, 0xabcdef]


def flip(data):
    mid = len(data) // 2
    return data[:mid] + bytes([data[mid] ^ 0x20]) + data[mid + 1:]


MUTATIONS = {
    'flipped-byte': flip,
    'truncated': lambda data: data[:len(data) // 2],
    'header-only': lambda data: data[:16],
    'wrong-magic': lambda data: b'JUNK' + data[4:],
}


@pytest.mark.parametrize('mutation', MUTATIONS)
def test_bad_state_file_refused(sdsi, state, tmp_path, mutation):
    steps(sdsi.inside(['--state', str(state)], 'regs:0'))
    nvram = state / 'socket0.nvram'
    bad = MUTATIONS[mutation](nvram.read_bytes())
    nvram.write_bytes(bad)
    entries = sorted(os.listdir(state))
    marker = tmp_path / 'ran'
    done = sdsi.run('run', '--state', str(state), '--', 'touch', str(marker))
    assert done.returncode == 1, done
    assert str(nvram) in done.stderr, done.stderr
    assert not marker.exists(), 'CMD ran on a refused state'
    assert nvram.read_bytes() == bad, 'the refused file was changed'
    assert sorted(os.listdir(state)) == entries, \
        'leftovers in the state directory'
