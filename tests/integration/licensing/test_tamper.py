# SPDX-License-Identifier: GPL-2.0-only
"""A changed byte anywhere in an AKC or a CAP (header, body, signature),
a byte less or a byte more: the silicon refuses it as an authentication
failure (EIO, failure count +1, CONTENT_AUTH_ERROR) and stores nothing.
The blobs are written to the sysfs files directly, so that no pre-flight
check of intel_sdsi stands between them and the silicon."""
import pytest

from sdsikit.licplatform import AKC_SIZE, auth_error, cap_blob, cap_size, licenses

# Offsets in a 208-byte AKC (docs/formats.md section 2)
AKC_OFFSETS = {
    'magic': 0x00, 'version': 0x04, 'size': 0x08, 'key-rev': 0x0C,
    'key-x': 0x10, 'key-y': 0x45, 'last-signed': 0x6F,
    'signature-r': 0x70, 'signature-s': 0xA0, 'last': 0xCF,
}
# Offsets in a CAP of one bundle, 164 bytes: the licence blob from byte 0,
# then the signature (docs/formats.md section 3)
CAP_OFFSETS = {
    'type': 0x00, 'type-high': 0x03, 'licence-id': 0x07, 'ppin': 0x0C,
    'previous-ppin': 0x14, 'revision': 0x1C, 'bundle-count': 0x20,
    'bundle-code': 0x25, 'bundle-reserved': 0x34, 'signature-r': 0x44,
    'signature-s': 0x80, 'last': 0xA3,
}


def flipped(data, offset, mask=0x01):
    return data[:offset] + bytes([data[offset] ^ mask]) + data[offset + 1:]


def variants(data, offsets):
    """name -> tampered bytes: one bit, then a whole byte, at each offset;
    and the file one byte short and one byte long.  The byte added is not
    zero: the mailbox pads every write with zeros to a whole qword, so a
    zero byte within that padding reaches the silicon as the padding does
    (docs/formats.md section 3)."""
    out = {}
    for name, off in offsets.items():
        out[f'{name}-bit'] = flipped(data, off)
        out[f'{name}-byte'] = flipped(data, off, 0xFF)
    out['truncated'] = data[:-1]
    out['extended'] = data + b'\x01'
    return out


def ends_in_nonzero(issue):
    """A freshly signed blob whose last byte is not zero.  The mailbox pads
    a write with zeros to a whole qword, so a blob one byte short whose lost
    byte was zero reaches the silicon byte for byte as the whole blob does,
    and is rightly accepted.  ECDSA signatures are random: one blob in 256
    ends in zero, and signing again gives another signature."""
    for _ in range(8):
        blob = issue()
        if blob.data[-1] != 0:
            return blob
    raise AssertionError('8 signatures in a row ended in a zero byte')


def refused(platform, n, attr, data, count_field):
    """Writes data, checks the refusal, and power-cycles the socket so that
    the next attempt starts from a zero count."""
    before = platform.regs(n)
    cert = platform.read(n, 'state_certificate')
    assert platform.write(n, attr, data) == 'EIO'
    after = platform.regs(n)
    assert getattr(after, count_field) == getattr(before, count_field) + 1
    assert auth_error(after)
    assert after.updates_available == before.updates_available, \
        'a refused blob used an update'
    assert after.key_prov == before.key_prov
    assert platform.read(n, 'state_certificate') == cert, 'stored something'
    platform.power_cycle(n)


def test_tampered_akc(platform, authority):
    akc = ends_in_nonzero(authority.akc)
    assert len(akc.data) == AKC_SIZE
    for name, data in variants(akc.data, AKC_OFFSETS).items():
        assert data != akc.data
        try:
            refused(platform, 0, 'provision_akc', data, 'akc_count')
        except AssertionError as e:
            raise AssertionError(f'AKC tampered at {name}: {e}') from e
    # The untouched AKC still works: the refusals were about the bytes.
    assert platform.write(0, 'provision_akc', akc.data) == 'ok'
    assert platform.regs(0).akc_count == 0


def test_tampered_cap(platform, authority):
    ppin = platform.ppin(0)
    cap = ends_in_nonzero(lambda: authority.cap(ppin, features=('CC02',)))
    assert len(cap.data) == cap_size(1)
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    for name, data in variants(cap.data, CAP_OFFSETS).items():
        try:
            refused(platform, 0, 'provision_cap', data, 'cap_count')
        except AssertionError as e:
            raise AssertionError(f'CAP tampered at {name}: {e}') from e
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'
    assert licenses(platform.read(0, 'state_certificate')) == \
        [(True, cap_blob(cap.data))]


@pytest.mark.parametrize('attr', ('provision_akc', 'provision_cap'))
def test_blob_of_the_other_kind(platform, authority, attr):
    """An AKC sent as a CAP and a CAP sent as an AKC are not authentic
    blobs of that kind."""
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    platform.power_cycle(0)
    wrong = (authority.cap(platform.ppin(0)) if attr == 'provision_akc'
             else authority.akc())
    field = 'akc_count' if attr == 'provision_akc' else 'cap_count'
    refused(platform, 0, attr, wrong.data, field)
