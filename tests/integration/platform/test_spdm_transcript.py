# SPDX-License-Identifier: GPL-2.0-only
"""The model's SPDM 1.0 responder against the tests' own requester
(sdsikit/spdm_requester.py, written from DSP0274 1.0 with Python's
cryptography, sharing no code with it): the whole flow (VCA, DIGESTS, the
chain in portions, CHALLENGE, signed MEASUREMENTS), every signature verified
over the transcript the requester kept, the chain verified to the
attestation-root.pem that `sdsi-authority init` wrote, and measurement 1
compared with the SHA-384 of the state certificate read in the same run.
Each attest-* fault breaks what it names.

The transport: sdsi-spdm-pipe (tests/attest/), one model socket behind the
driver core's ATTESTATION exchange (sdsi_mbox_exchange, what our drivers
run), so every request crosses the mailbox as a driver's would; the same
flow over /dev/isdsiN is test_isdsi.py's."""
import os
import struct
import subprocess

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from sdsikit.programs import authority_init, beside
from sdsikit.spdm_requester import (ERROR, V10, Requester, check_busy_fault, signed_by,
                                    check_chain_fault, check_measurement_fault,
                                    check_signature_fault, full_flow, sha384, verify)


class Pipe:
    """One socket behind sdsi-spdm-pipe."""

    def __init__(self, emu, state, authority, socket=0, features=None):
        args = [beside(emu, 'tests', 'attest', 'sdsi-spdm-pipe'), str(state),
                str(authority) if authority else '-', str(socket)]
        if features is not None:
            args.append(hex(features))
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def call(self, op, data=b''):
        self.proc.stdin.write(op + struct.pack('<I', len(data)) + data)
        self.proc.stdin.flush()
        head = self.proc.stdout.read(8)
        assert len(head) == 8, self.proc.stderr.read().decode()
        ret, n = struct.unpack('<iI', head)
        return ret, self.proc.stdout.read(n)

    def exchange(self, req):
        ret, rsp = self.call(b'X', req)
        assert ret == 0, os.strerror(-ret)
        assert rsp[0] == V10
        return rsp

    def state_certificate(self):
        ret, data = self.call(b'S')
        assert ret == 0
        return data

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=20) == 0
        err = self.proc.stderr.read().decode()
        assert 'protocol violations' not in err, err


@pytest.fixture
def authority(tmp_path):
    return authority_init(tmp_path / 'authority')


@pytest.fixture
def pipe(emu, tmp_path, authority):
    p = Pipe(emu, tmp_path, authority)
    yield p
    p.close()


def test_flow_verifies_against_the_attestation_root(pipe, authority):
    root_pem = (authority / 'attestation-root.pem').read_bytes()
    req, key, meas = full_flow(pipe, root_pem)
    # Measurement 1 is the state certificate as a read returns it now; 2 the
    # meter certificate (the part meters).
    assert meas[1] == (2, sha384(pipe.state_certificate()))
    ret, meter = pipe.call(b'M')
    assert ret == 0 and meas[2] == (2, sha384(meter))
    # Unsigned ones, then a signed one over all of them.
    rsp, _, _, _ = req.measurements(0, signed=False)
    assert rsp[2] == 2
    req.measurements(1, signed=False)
    _, meas, l1, sig = req.measurements(1, signed=True)
    verify(key, l1, sig)
    assert list(meas) == [1]
    # DIGESTS then CHALLENGE; CHALLENGE alone, without a summary hash.
    req.digests()
    _, m1, sig = req.challenge(1)
    verify(key, m1, sig)
    _, m1, sig = req.challenge(0)
    verify(key, m1, sig)


def test_identity_survives_restart_and_power_cycle(emu, tmp_path, authority):
    root_pem = (authority / 'attestation-root.pem').read_bytes()
    first = Pipe(emu, tmp_path, authority)
    _, key, _ = full_flow(first, root_pem)
    assert first.call(b'P')[0] == 0
    _, again, _ = full_flow(first, root_pem)
    first.close()
    # Restarted without the root: the part keeps what it was given.
    restarted = Pipe(emu, tmp_path, None)
    _, later, _ = full_flow(restarted, root_pem)
    restarted.close()
    other = Pipe(emu, tmp_path, authority, socket=1)
    _, second, _ = full_flow(other, root_pem)
    other.close()
    pub = key.public_numbers()
    assert again.public_numbers() == pub and later.public_numbers() == pub
    assert second.public_numbers() != pub      # two parts never share a key


def test_reset_asks_for_vca_again(pipe):
    req = Requester(pipe)
    req.vca()
    assert pipe.call(b'P')[0] == 0
    rsp = pipe.exchange(bytes([V10, 0x81, 0, 0]))
    assert rsp[1:3] == bytes([ERROR, 0x04])      # UnexpectedRequest


def test_without_bit12_the_command_is_refused(emu, tmp_path, authority):
    p = Pipe(emu, tmp_path, authority, features=1 << 3)
    ret, _ = p.call(b'X', bytes([V10, 0x84, 0, 0]))
    assert ret == -5        # EIO: the firmware's answer to an unknown command
    p.close()


def arm(pipe, kind, count):
    assert pipe.call(b'F', f'{kind} {count}'.encode())[0] == 0


def test_attest_signature_fault(pipe, authority):
    check_signature_fault(pipe, (authority / 'attestation-root.pem').read_bytes(), arm)


def test_attest_chain_fault(pipe, authority):
    check_chain_fault(pipe, (authority / 'attestation-root.pem').read_bytes(), arm)


def test_attest_measurement_fault(pipe, authority):
    check_measurement_fault(pipe, (authority / 'attestation-root.pem').read_bytes(), arm)


def test_attest_busy_fault(pipe, authority):
    check_busy_fault(pipe, (authority / 'attestation-root.pem').read_bytes(), arm)


def test_emulator_parts_get_identities_from_the_authority(sdsi, tmp_path, authority):
    """sdsi-emu --authority DIR: each part is issued its own device
    certificate by DIR's attestation root at its first start, kept beside
    its NVRAM; later starts keep it."""
    state = tmp_path / 'state'
    state.mkdir(mode=0o700)
    args = ('run', '--sockets', '2', '--state', str(state), '--authority', str(authority),
            '--', 'true')
    assert sdsi.run(*args).returncode == 0
    identities = [(state / f'socket{n}.identity').read_bytes() for n in (0, 1)]
    trusted = x509.load_pem_x509_certificate((authority / 'attestation-root.pem').read_bytes())
    leaves = []
    for text in identities:
        assert b'PRIVATE KEY' in text
        pems = text.split(b'-----END PRIVATE KEY-----\n')[1].split(b'-----END CERTIFICATE-----\n')
        leaf, root = (x509.load_pem_x509_certificate(p + b'-----END CERTIFICATE-----\n')
                      for p in pems[:2])
        assert root.public_bytes(Encoding.DER) == trusted.public_bytes(Encoding.DER)
        signed_by(leaf, trusted)
        leaves.append(leaf.public_key().public_numbers())
    assert leaves[0] != leaves[1]
    assert sdsi.run(*args).returncode == 0
    assert [(state / f'socket{n}.identity').read_bytes() for n in (0, 1)] == identities


def test_attestation_root_needs_its_key(sdsi, tmp_path, authority):
    (authority / 'attestation-root.key').unlink()
    done = sdsi.run('run', '--authority', str(authority), '--', 'true')
    assert done.returncode == 2
    assert 'attestation-root.pem without' in done.stderr
