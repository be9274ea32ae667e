# SPDX-License-Identifier: GPL-2.0-only
"""The model's SPDM 1.0 responder against a requester written here from
DSP0274 1.0 with Python's cryptography, sharing no code with it: the whole
flow (VCA, DIGESTS, the chain in portions, CHALLENGE, signed MEASUREMENTS),
every signature verified over the transcript this requester kept, the chain
verified to the attestation-root.pem that `sdsi-authority init` wrote, and
measurement 1 compared with the SHA-384 of the state certificate read in
the same run.  Each attest-* fault breaks what it names.

The transport: sdsi-spdm-pipe (tests/attest/), one model socket behind the
driver core's ATTESTATION exchange (sdsi_mbox_exchange, what our drivers
run), so every request crosses the mailbox as a driver's would, without
the /dev/isdsiN transport that is still to come."""
import hashlib
import os
import struct
import subprocess

import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding

from sdsikit.programs import authority_init, beside

V10 = 0x10
ERROR = 0x7F
SHA384_LEN, SIG_LEN, NONCE_LEN = 48, 96, 32


def sha384(data):
    return hashlib.sha384(data).digest()


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


class Requester:
    """A DSP0274 1.0 requester that keeps its own M1 and L1."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.a = b''
        self.b = b''
        self.l1 = b''

    def send(self, req):
        rsp = self.pipe.exchange(req)
        if req[1] != 0xE0:
            self.l1 = b''   # L1: consecutive measurement exchanges only
        return rsp

    def vca(self):
        get_version = bytes([V10, 0x84, 0, 0])
        version = self.send(get_version)
        assert version[1] == 0x04 and version[5] == 1
        assert struct.unpack_from('<H', version, 6)[0] == 0x1000
        get_caps = bytes([V10, 0xE1, 0, 0])
        caps = self.send(get_caps)
        assert caps[1] == 0x61 and len(caps) == 12
        flags = struct.unpack_from('<I', caps, 8)[0]
        assert flags & 0x02 and flags & 0x04 and (flags >> 3) & 3 == 2
        assert not flags & 0x01        # no CACHE
        nego = struct.pack('<BBBBHBBII12sBBH', V10, 0xE3, 0, 0, 32, 0x01, 0,
                           0x80, 0x02, b'\0' * 12, 0, 0, 0)
        algs = self.send(nego)
        assert algs[1] == 0x63 and len(algs) == 36
        spec, meas_hash, asym, base_hash = struct.unpack_from('<BxIII', algs, 6)
        assert (spec, meas_hash, asym, base_hash) == (1, 0x04, 0x80, 0x02)
        self.a = get_version + version + get_caps + caps + nego + algs
        self.b = b''

    def digests(self):
        req = bytes([V10, 0x81, 0, 0])
        rsp = self.send(req)
        assert rsp[1] == 0x01 and rsp[3] == 0x01 and len(rsp) == 4 + SHA384_LEN
        self.b += req + rsp
        return rsp[4:]

    def certificate_chain(self, step=4092):
        chain = b''
        while True:
            req = struct.pack('<BBBBHH', V10, 0x82, 0, 0, len(chain), step)
            rsp = self.send(req)
            assert rsp[1] == 0x02, rsp
            portion, remainder = struct.unpack_from('<HH', rsp, 4)
            assert len(rsp) == 8 + portion and portion
            chain += rsp[8:]
            self.b += req + rsp
            if not remainder:
                return chain

    def challenge(self, summary=0):
        nonce = os.urandom(NONCE_LEN)
        req = bytes([V10, 0x83, 0, summary]) + nonce
        rsp = self.send(req)
        assert rsp[1] == 0x03, rsp[:4]
        body = 4 + SHA384_LEN + NONCE_LEN + (SHA384_LEN if summary else 0) + 2
        assert len(rsp) == body + SIG_LEN
        m1 = self.a + self.b + req + rsp[:body]
        self.b = b''
        return rsp, m1, rsp[body:]

    def measurements(self, what, signed):
        nonce = os.urandom(NONCE_LEN) if signed else b''
        req = bytes([V10, 0xE0, 1 if signed else 0, what]) + nonce
        rsp = self.send(req)
        assert rsp[1] == 0x60, rsp[:4]
        record_len = int.from_bytes(rsp[5:8], 'little')
        end = 8 + record_len + NONCE_LEN + 2
        assert len(rsp) == end + (SIG_LEN if signed else 0)
        self.l1 += req + rsp[:end]
        l1, self.l1 = self.l1, (b'' if signed else self.l1)
        return rsp, blocks(rsp[8:8 + record_len]), l1, rsp[end:]


def blocks(record):
    """DMTF measurement blocks: {index: (type, value)}."""
    out, at = {}, 0
    while at < len(record):
        index, spec, size = struct.unpack_from('<BBH', record, at)
        assert spec == 1
        vtype, vsize = struct.unpack_from('<BH', record, at + 4)
        assert vsize == size - 3
        out[index] = (vtype, record[at + 7:at + 7 + vsize])
        at += 4 + size
    return out


def der_certificates(data):
    """Split concatenated DER certificates (each a SEQUENCE)."""
    certs = []
    while data:
        assert data[0] == 0x30
        if data[1] < 0x80:
            size, head = data[1], 2
        else:
            n = data[1] & 0x7F
            size, head = int.from_bytes(data[2:2 + n], 'big'), 2 + n
        certs.append(x509.load_der_x509_certificate(data[:head + size]))
        data = data[head + size:]
    return certs


def verify(key, message, raw):
    """ECDSA P-384 over SHA-384 of message, raw r || s."""
    r, s = int.from_bytes(raw[:48], 'big'), int.from_bytes(raw[48:], 'big')
    key.verify(encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA384()))


def signed_by(cert, issuer):
    issuer.public_key().verify(cert.signature, cert.tbs_certificate_bytes,
                               ec.ECDSA(cert.signature_hash_algorithm))


def check_chain(chain, digest, root_pem):
    """Slot 0's chain: its digest, its root hash, its root the trusted one,
    its leaf issued by that root.  Returns the leaf's public key."""
    assert sha384(chain) == digest
    assert struct.unpack_from('<H', chain, 0)[0] == len(chain)
    root, leaf = der_certificates(chain[4 + SHA384_LEN:])
    assert chain[4:4 + SHA384_LEN] == sha384(root.public_bytes(Encoding.DER))
    trusted = x509.load_pem_x509_certificate(root_pem)
    if root.public_bytes(Encoding.DER) != trusted.public_bytes(Encoding.DER):
        raise InvalidSignature('chain from another root')
    signed_by(leaf, trusted)
    assert isinstance(leaf.public_key(), ec.EllipticCurvePublicKey)
    assert leaf.public_key().curve.name == 'secp384r1'
    return leaf.public_key()


@pytest.fixture
def authority(tmp_path):
    return authority_init(tmp_path / 'authority')


@pytest.fixture
def pipe(emu, tmp_path, authority):
    p = Pipe(emu, tmp_path, authority)
    yield p
    p.close()


def full_flow(pipe, root_pem, summary=0xFF):
    """The owner's flow; returns the requester, leaf key and measurement 1."""
    req = Requester(pipe)
    req.vca()
    digest = req.digests()
    chain = req.certificate_chain()
    key = check_chain(chain, digest, root_pem)
    rsp, m1, sig = req.challenge(summary)
    assert rsp[4:4 + SHA384_LEN] == digest
    verify(key, m1, sig)
    _, meas, l1, sig = req.measurements(0xFF, signed=True)
    verify(key, l1, sig)
    return req, key, meas


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


# Each attest-* fault, checked the same way whatever the transport:
# test_isdsi.py runs these over /dev/isdsiN, whose fault command differs,
# so ARM(transport, kind, count) comes with it.

def check_signature_fault(t, root_pem, arm):
    arm(t, 'attest-signature', 1)
    with pytest.raises(InvalidSignature):
        full_flow(t, root_pem)
    full_flow(t, root_pem)


def check_chain_fault(t, root_pem, arm):
    arm(t, 'attest-chain', 0)
    with pytest.raises(InvalidSignature, match='another root'):
        full_flow(t, root_pem)
    assert t.call(b'C')[0] == 0
    full_flow(t, root_pem)


def check_measurement_fault(t, root_pem, arm):
    req = Requester(t)
    req.vca()
    digest = req.digests()
    key = check_chain(req.certificate_chain(), digest, root_pem)
    arm(t, 'attest-measurement', 1)
    _, meas, l1, sig = req.measurements(1, signed=True)
    # Signed as ever, but of a different certificate.
    verify(key, l1, sig)
    assert meas[1][1] != sha384(t.state_certificate())
    _, meas, _, _ = req.measurements(1, signed=True)
    assert meas[1][1] == sha384(t.state_certificate())


def check_busy_fault(t, root_pem, arm):
    arm(t, 'attest-busy', 1)
    rsp = t.exchange(bytes([V10, 0x84, 0, 0]))
    assert rsp[1:3] == bytes([ERROR, 0x03])      # Busy, once
    full_flow(t, root_pem)


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
