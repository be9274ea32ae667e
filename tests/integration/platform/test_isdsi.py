# SPDX-License-Identifier: GPL-2.0-only
"""The emulation's attestation transport, /dev/isdsiN inside `sdsi-emu
run`: one write() of a struct sdsi_spdm_command, one read() of the answer
on the same open file.  The tests' own DSP0274 1.0 requester (sdsikit/spdm_requester.py,
written from the specification with Python's cryptography) completes the
owner's flow through /dev/isdsi0, every signature verified against the
attestation-root.pem `sdsi-authority init` wrote; the bounds, the misuses
and the four attest-* faults are seen through the same file.  The program
inside the namespace is sdsikit.isdsi_proxy, which the requester drives
over a pipe."""
import errno
import os
import stat
import struct
import subprocess
import sys

import pytest

from sdsikit.emu import with_kit
from sdsikit.layout import SPDM_REQUEST_MAX as REQUEST_MAX
from sdsikit.layout import SPDM_COMMAND_HDR, SPDM_MESSAGE_MAX, SPDM_RESPONSE_MAX
from sdsikit.programs import authority_init, beside, sanitizer_preload
from sdsikit.spdm_requester import (ERROR, V10, check_busy_fault, check_chain_fault,
                                    check_measurement_fault, check_signature_fault,
                                    full_flow, sha384, verify)
from test_spdm_transcript import Pipe



class DevPipe(Pipe):
    """Socket N's /dev/isdsiN inside `sdsi-emu run OPTS`, with the ops of
    sdsi-spdm-pipe (X, S, M, P, F, C) and the raw ones of the proxy."""

    def __init__(self, emu, state, authority, n=0, opts=(), libsdsi=False):
        args = [emu, 'run', '--state', str(state)]
        if authority:
            args += ['--authority', str(authority)]
        args += [*opts, '--']
        if libsdsi:
            # Python loads the library: a sanitizer build's needs its
            # runtime preloaded, in the proxy's environment alone.
            library = beside(emu, 'lib', 'libsdsi.so.1')
            preload = sanitizer_preload(library)
            args += ['/usr/bin/env', *(f'{k}={v}' for k, v in preload.items())]
        args += [sys.executable, '-m', 'sdsikit.isdsi_proxy']
        if libsdsi:
            args += ['--libsdsi', library]
        args.append(str(n))
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=with_kit(dict(os.environ, SDSI_EMU=emu)))

    def write(self, data):
        return self.call(b'W', data)[0]

    def read(self, size=SPDM_COMMAND_HDR + SPDM_MESSAGE_MAX):
        return self.call(b'R', struct.pack('<I', size))

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0, self.proc.stderr.read()


def command(message, size=None):
    """A struct sdsi_spdm_command cut after its message."""
    return struct.pack('<I', len(message) if size is None else size) + message


@pytest.fixture
def authority(tmp_path):
    return authority_init(tmp_path / 'authority')


@pytest.fixture
def root_pem(authority):
    return (authority / 'attestation-root.pem').read_bytes()


@pytest.fixture
def dev(emu, tmp_path, authority):
    state = tmp_path / 'state'
    p = DevPipe(emu, state, authority)
    yield p
    p.close()


def test_flow_through_dev_isdsi0(dev, root_pem):
    req, key, meas = full_flow(dev, root_pem)
    assert meas[1] == (2, sha384(dev.state_certificate()))
    ret, meter = dev.call(b'M')
    assert ret == 0 and meas[2] == (2, sha384(meter))
    # CHALLENGE alone after a negotiation, then the same file again.
    _, m1, sig = req.challenge(0)
    verify(key, m1, sig)


def test_file_is_root_only_and_stays_in_the_namespace(dev):
    mode = dev.call(b'T')[0]
    assert stat.S_ISREG(mode) and stat.S_IMODE(mode) == 0o600
    assert dev.call(b'L')[1] == b'isdsi0'
    # Nothing in the host's /dev, nothing more in the sysfs tree.
    assert not os.path.lexists('/dev/isdsi0')
    assert dev.call(b'E', b'/sys/bus/auxiliary/isdsi0')[0] == 0
    assert dev.call(b'E', b'/dev/null')[0] == 1


def test_first_generation_part_has_no_transport(emu, tmp_path, authority):
    p = DevPipe(emu, tmp_path / 'state', authority, opts=['--guid', 'v1'])
    assert p.call(b'L') == (0, b'')
    assert p.call(b'O')[0] == -errno.ENOENT
    p.close()


def test_early_driver_has_no_transport(emu, tmp_path, authority):
    # Linux 5.18 to 6.1's driver: bit 12 set, no transport (Intel posted
    # one for the current driver only).
    opts = ['--abi', 'early', '--guid', 'v1',
            '--features', 'on-demand,attestation']
    p = DevPipe(emu, tmp_path / 'state', authority, opts=opts)
    assert p.call(b'L') == (0, b'')
    p.close()


def test_without_bit12_no_transport(emu, tmp_path, authority):
    opts = ['--sockets', '2', '--features', 'on-demand,metering']
    p = DevPipe(emu, tmp_path / 'state', authority, n=1, opts=opts)
    assert p.call(b'L') == (0, b'')
    p.close()


def test_each_part_with_bit12_has_its_own(emu, tmp_path, authority, root_pem):
    p = DevPipe(emu, tmp_path / 'state', authority, n=1,
                opts=['--sockets', '2'])
    assert p.call(b'L') == (0, b'isdsi0\nisdsi1')
    full_flow(p, root_pem)
    p.close()


def test_request_bounds(dev):
    # 1008 bytes fit the mailbox: the transport takes them and the part
    # answers (an ERROR: GET_VERSION has no body).
    get_version = bytes([V10, 0x84, 0, 0])
    big = get_version + bytes(REQUEST_MAX - 4)
    assert dev.write(command(big)) == 4 + REQUEST_MAX
    n, answer = dev.read()
    assert n == len(answer) and answer[5:6] == bytes([ERROR])
    # One byte more is refused before the mailbox is touched.
    assert dev.write(command(big + b'\0')) == -errno.EOVERFLOW
    assert dev.read()[0] == -errno.ENODATA
    # The whole structure, size 1008 and 1009.
    whole = SPDM_COMMAND_HDR + SPDM_MESSAGE_MAX
    assert dev.write(command(big + bytes(SPDM_MESSAGE_MAX - REQUEST_MAX),
                             size=REQUEST_MAX)) == whole
    assert dev.read()[0] > 0
    assert dev.write(command(big + bytes(SPDM_MESSAGE_MAX - REQUEST_MAX),
                             size=REQUEST_MAX + 1)) == -errno.EOVERFLOW
    # More than the structure is no struct sdsi_spdm_command.
    assert dev.write(command(bytes(SPDM_MESSAGE_MAX + 1), size=4)) == -errno.EINVAL


def test_misuse_gets_clear_errnos(dev):
    get_version = bytes([V10, 0x84, 0, 0])
    # A read with no write before it.
    assert dev.read()[0] == -errno.ENODATA
    # A size field larger than the bytes written after it.
    assert dev.write(command(get_version, size=5)) == -errno.EINVAL
    assert dev.write(command(b'', size=0)) == -errno.EINVAL
    assert dev.write(b'\x04\0\0') == -errno.EINVAL
    # A second write while an answer waits; the answer survives it.
    assert dev.write(command(get_version)) == 8
    assert dev.write(command(get_version)) == -errno.EALREADY
    # A read too small for the answer keeps it for a larger one.
    assert dev.read(7)[0] == -errno.EMSGSIZE
    n, answer = dev.read()
    assert n == len(answer) == 4 + struct.unpack_from('<I', answer)[0]
    assert answer[4:6] == bytes([V10, 0x04])
    # Read once: the answer is gone.
    assert dev.read()[0] == -errno.ENODATA
    # The answer belongs to the open file that asked.
    assert dev.write(command(get_version)) == 8
    assert dev.call(b'O')[0] == 0
    assert dev.read()[0] == -errno.ENODATA
    # Offsets mean nothing on a transport: it has none.
    assert dev.call(b'Z')[0] == -errno.ESPIPE
    assert dev.exchange(get_version)[1] == 0x04


def arm(dev, kind, count):
    assert dev.call(b'F', f'{kind} --count {count}'.encode())[0] == 0


def test_attest_signature_fault(dev, root_pem):
    check_signature_fault(dev, root_pem, arm)


def test_attest_chain_fault(dev, root_pem):
    check_chain_fault(dev, root_pem, arm)


def test_attest_measurement_fault(dev, root_pem):
    check_measurement_fault(dev, root_pem, arm)


def test_attest_busy_fault(dev, root_pem):
    check_busy_fault(dev, root_pem, arm)


def test_held_mailbox_is_ebusy(dev):
    # The mailbox owned out of band: the exchange fails as a sysfs read does.
    arm(dev, 'oob-owner', 1)
    assert dev.write(command(bytes([V10, 0x84, 0, 0]))) == -errno.EBUSY
    assert dev.read()[0] == -errno.ENODATA
    assert dev.exchange(bytes([V10, 0x84, 0, 0]))[1] == 0x04


def test_unbind_ends_the_open_file(dev):
    get_version = bytes([V10, 0x84, 0, 0])
    assert dev.exchange(get_version)[1] == 0x04
    assert dev.call(b'K', b'unbind 0')[0] == 0
    assert dev.write(command(get_version)) == -errno.ENODEV
    assert dev.call(b'K', b'bind 0')[0] == 0
    # The file opened before stays dead, as after misc_deregister; a new
    # open reaches the transport again.
    assert dev.write(command(get_version)) == -errno.ENODEV
    assert dev.call(b'O')[0] == 0
    assert dev.exchange(get_version)[1] == 0x04


@pytest.fixture
def lib(emu, tmp_path, authority):
    p = DevPipe(emu, tmp_path / 'state', authority, libsdsi=True)
    yield p
    p.close()


def transact(lib, req, cap=SPDM_RESPONSE_MAX):
    return lib.call(b'Y', struct.pack('<I', cap) + req)


def test_libsdsi_flow(lib, root_pem):
    """sdsi_spdm_transact(): the same flow, every byte through libsdsi."""
    req, key, meas = full_flow(lib, root_pem)
    assert meas[1] == (2, sha384(lib.state_certificate()))
    # DIGESTS, then the chain asked for in one go: served in portions.
    digest = req.digests()
    assert sha384(req.certificate_chain(step=0xFFFF)) == digest


def test_libsdsi_bounds_and_errors(lib, emu, tmp_path, authority):
    get_version = bytes([V10, 0x84, 0, 0])
    ret, rsp = transact(lib, get_version + bytes(REQUEST_MAX - 4))
    assert ret == 0 and rsp[1] == ERROR
    ret, msg = transact(lib, get_version + bytes(REQUEST_MAX - 3))
    assert ret == -errno.EOVERFLOW and b'at most 1008' in msg
    ret, msg = transact(lib, b'')
    assert ret == -errno.EINVAL
    # The answer's room: exactly its size, and one byte less.
    ret, rsp = transact(lib, get_version)
    assert ret == 0 and len(rsp) == 8
    assert transact(lib, get_version, cap=8) == (0, rsp)
    ret, msg = transact(lib, get_version, cap=7)
    assert ret == -errno.EMSGSIZE and b'/dev/isdsi0' in msg
    # The mailbox held: the driver's EBUSY, named.
    arm(lib, 'oob-owner', 1)
    ret, msg = transact(lib, get_version)
    assert ret == -errno.EBUSY and msg.startswith(b'/dev/isdsi0: ')


def test_libsdsi_without_transport(emu, tmp_path, authority):
    p = DevPipe(emu, tmp_path / 'state', authority, libsdsi=True,
                opts=['--guid', 'v1'])
    ret, msg = transact(p, bytes([V10, 0x84, 0, 0]))
    assert ret == -errno.ENODEV and b'bit 12' in msg
    p.close()


@pytest.mark.parametrize('kind,err', [
    ('no-rdy', errno.ETIMEDOUT),            # as a sysfs read: ETIMEDOUT
    ('status-timeout', errno.ETIMEDOUT),
    ('status-failure', errno.EIO),
])
def test_mailbox_errors_as_the_sysfs_files(dev, kind, err):
    get_version = bytes([V10, 0x84, 0, 0])
    arm(dev, kind, 1)
    assert dev.write(command(get_version)) == -err
    assert dev.read()[0] == -errno.ENODATA      # nothing left behind
    assert dev.exchange(get_version)[1] == 0x04


def test_losing_bit12_ends_the_transport(dev):
    # `ctl features` reprobes as a reboot after a BIOS change would: the
    # file stays for the run, and its transactions fail with ENODEV.
    get_version = bytes([V10, 0x84, 0, 0])
    assert dev.exchange(get_version)[1] == 0x04
    assert dev.call(b'K', b'features 0 on-demand,metering')[0] == 0
    assert dev.write(command(get_version)) == -errno.ENODEV
    assert dev.call(b'O')[0] == -errno.ENODEV
    assert dev.call(b'K', b'features 0 on-demand,attestation,metering')[0] == 0
    assert dev.call(b'O')[0] == 0
    assert dev.exchange(get_version)[1] == 0x04
