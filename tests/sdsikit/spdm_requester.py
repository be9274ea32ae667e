# SPDX-License-Identifier: GPL-2.0-only
"""A DSP0274 1.0 requester, written in the tests from the specification
with Python's cryptography and sharing no code with the responder (model/)
or any driver: VCA, DIGESTS, the chain in portions, CHALLENGE and
MEASUREMENTS, each keeping its own M1 and L1 transcript; the checks of a
chain against the root an owner trusts and of raw r||s signatures; the
owner's whole flow; and how each attest-* fault must show.

A transport is any object with exchange(request) -> response (an SPDM
message each way), call(op, data) -> (ret, data) for the fault and
certificate ops of tests/attest/sdsi-spdm-pipe, and state_certificate().
The platform tests run it over sdsi-spdm-pipe and /dev/isdsiN inside
sdsi-emu; the kernel rig over the driver's ioctl."""
import hashlib
import os
import struct

import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding

V10 = 0x10
ERROR = 0x7F
SHA384_LEN, SIG_LEN, NONCE_LEN = 48, 96, 32


def sha384(data):
    return hashlib.sha384(data).digest()


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
