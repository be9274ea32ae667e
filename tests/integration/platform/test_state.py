# SPDX-License-Identifier: GPL-2.0-only
"""NVRAM in --state DIR: what survives a restart and a power cycle, and
files that fail their checks are refused, named, and left alone."""
import json
import os
import struct
import zlib

import pytest
from sdsikit.layout import (NVRAM_HEADER_LEN, NVRAM_MAGIC_LEN, NVRAM_OFF_BODY_LEN,
                         NVRAM_OFF_SOCKET, NVRAM_OFF_VERSION)


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


def resealed(data, offset, value):
    """data with the u32 at offset replaced and the CRC-32 recomputed, so
    that only the field is wrong (format: docs/model.md, NVRAM file)."""
    (body_len,) = struct.unpack_from('<I', data, NVRAM_OFF_BODY_LEN)
    end = NVRAM_HEADER_LEN + body_len
    body = bytearray(data[:end])
    struct.pack_into('<I', body, offset, value)
    return bytes(body) + struct.pack('<I', zlib.crc32(body))


# mutation -> (bytes -> bytes, the reason the message must give)
MUTATIONS = {
    'flipped-byte': (flip, 'corrupt'),
    'trailing-bytes': (lambda data: data + b'\0', 'corrupt'),
    'truncated': (lambda data: data[:len(data) // 2], 'truncated'),
    'header-only': (lambda data: data[:NVRAM_HEADER_LEN], 'truncated'),
    'wrong-magic': (lambda data: b'JUNKJUNK' + data[NVRAM_MAGIC_LEN:],
                    'foreign'),
    'other-socket-index': (lambda data: resealed(data, NVRAM_OFF_SOCKET, 1),
                           'foreign'),
    # One past whatever version the emulator wrote, so the case stays newer
    # when the format moves on.
    'newer-version': (lambda data: resealed(
        data, NVRAM_OFF_VERSION,
        struct.unpack_from('<I', data, NVRAM_OFF_VERSION)[0] + 1),
        'newer version'),
}


# The exit status of each refusal (docs/exit-codes.md): a file that does not
# decode is malformed input (8); one of another platform, a usage error (2).
EXIT_USAGE, EXIT_PERMISSION, EXIT_MALFORMED = 2, 4, 8
MUTATION_STATUS = {
    'flipped-byte': EXIT_MALFORMED, 'trailing-bytes': EXIT_MALFORMED,
    'truncated': EXIT_MALFORMED, 'header-only': EXIT_MALFORMED,
    'wrong-magic': EXIT_USAGE, 'other-socket-index': EXIT_USAGE,
    'newer-version': EXIT_MALFORMED,
}


def refused(sdsi, state, tmp_path, *opts, status):
    marker = tmp_path / 'ran'
    entries = sorted(os.listdir(state))
    done = sdsi.run('run', '--state', str(state), *opts, '--', 'touch',
                    str(marker))
    assert done.returncode == status, done
    assert not marker.exists(), 'CMD ran on a refused state'
    assert sorted(os.listdir(state)) == entries, \
        'leftovers in the state directory'
    return done.stderr


@pytest.mark.parametrize('mutation', MUTATIONS)
def test_bad_state_file_refused(sdsi, state, tmp_path, mutation):
    steps(sdsi.inside(['--state', str(state)], 'regs:0'))
    nvram = state / 'socket0.nvram'
    mutate, reason = MUTATIONS[mutation]
    bad = mutate(nvram.read_bytes())
    nvram.write_bytes(bad)
    stderr = refused(sdsi, state, tmp_path, status=MUTATION_STATUS[mutation])
    assert str(nvram) in stderr, stderr
    assert reason in stderr, stderr
    assert nvram.read_bytes() == bad, 'the refused file was changed'


def test_state_of_other_guid_refused(sdsi, state, tmp_path):
    steps(sdsi.inside(['--state', str(state), '--guid', 'v2'], 'regs:0'))
    nvram = state / 'socket0.nvram'
    good = nvram.read_bytes()
    stderr = refused(sdsi, state, tmp_path, '--guid', 'v1', status=EXIT_USAGE)
    assert str(nvram) in stderr and 'foreign' in stderr, stderr
    assert nvram.read_bytes() == good


def test_state_of_other_ppin_refused(sdsi, state, tmp_path):
    steps(sdsi.inside(['--state', str(state), '--ppin', '0x1111'], 'regs:0'))
    nvram = state / 'socket0.nvram'
    good = nvram.read_bytes()
    stderr = refused(sdsi, state, tmp_path, '--ppin', '0x2222',
                     status=EXIT_USAGE)
    assert str(nvram) in stderr and 'foreign' in stderr, stderr
    assert nvram.read_bytes() == good


def test_state_directory_checked(sdsi, tmp_path):
    """Created 0700 when missing; refused when others could write to it."""
    fresh = tmp_path / 'new'
    steps(sdsi.inside(['--state', str(fresh)], 'regs:0'))
    assert os.stat(fresh).st_mode & 0o777 == 0o700
    assert sorted(os.listdir(fresh)) == ['socket0.nvram'], \
        'the emulator left files behind'
    open_dir = tmp_path / 'open'
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)
    stderr = refused(sdsi, open_dir, tmp_path, status=EXIT_PERMISSION)
    assert str(open_dir) in stderr, stderr


def _fifo(path):
    os.mkfifo(path, 0o600)


def _directory(path):
    os.mkdir(path, 0o700)


def _symlink(path):
    target = path.parent / 'elsewhere.nvram'
    target.write_bytes(b'')
    os.symlink(target, path)


# what socket0.nvram is made -> (words the refusal must give)
NOT_REGULAR = {
    # A FIFO used to block the emulator in open(), deaf to SIGTERM.
    'fifo': (_fifo, 'a FIFO, not a regular file'),
    'directory': (_directory, 'a directory, not a regular file'),
    'symlink': (_symlink, 'a symbolic link, not a regular file'),
}


@pytest.mark.parametrize('kind', NOT_REGULAR)
def test_nvram_not_a_regular_file_refused(sdsi, state, tmp_path, kind):
    make, reason = NOT_REGULAR[kind]
    nvram = state / 'socket0.nvram'
    make(nvram)
    # An input file that is not a regular file: a usage error (2).
    stderr = refused(sdsi, state, tmp_path, status=EXIT_USAGE)
    assert f'NVRAM file {nvram} refused: {reason}' in stderr, stderr
