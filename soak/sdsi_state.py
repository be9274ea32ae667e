# SPDX-License-Identifier: GPL-2.0-only
"""What the soak and crash campaigns read back from a socket, decoded from
the layouts of docs/model.md (registers, state and meter certificates), and
the state certificate a provisioning must lead to, computed from the one
before it and the blob (docs/formats.md sections 5 and 6).  Written from the
documents, not from the C code, so that the model is checked against them."""
import hashlib
import struct

# Registers (docs/model.md, include/sdsi/hw.h)
REG_AUTH_ERR, REG_KEY_PROV, REG_FAIL, REG_AVAIL, REG_NVRAM = 0x08, 0x18, 0x20, 0x28, 0x30
KEY_PROVISIONED = 1 << 1
NVRAM_BITS = ((50, 1 << 12), (75, 1 << 13), (90, 1 << 14))

# State certificate
CONTENT_EMPTY, CONTENT_KEY, CONTENT_KEY_BLOBS = 0x0, 0xD, 0xE
HEADER = 0x18
KEY_INFO = 4 + 48
VALID = 0x80000000
REGION_ALIGN = 16
STATE_MAX = 4096

# AKC and CAP files (docs/formats.md sections 2 and 3)
AKC_KEY_REV, AKC_KEY = 0x0C, slice(0x10, 0x70)
SIGNATURE = 96           # a CAP is the licence blob from byte 0, then this
BLOB_ID = 4             # u64 licence ID after the u32 blob type


def u64(data, off):
    return struct.unpack_from('<Q', data, off)[0]


def u32(data, off):
    return struct.unpack_from('<I', data, off)[0]


class Registers:
    def __init__(self, data):
        if len(data) not in (72, 80):
            raise ValueError(f'registers: {len(data)} bytes, not 72 or 80')
        self.key_provisioned = bool(u64(data, REG_KEY_PROV) & KEY_PROVISIONED)
        fail = u64(data, REG_FAIL)
        self.akc_failures, self.cap_failures = fail & 7, (fail >> 6) & 7
        avail = u64(data, REG_AVAIL)
        self.updates, self.updates_threshold = (avail >> 48) & 7, (avail >> 51) & 7
        self.auth_err = u64(data, REG_AUTH_ERR)
        self.nvram_limits = u64(data, REG_NVRAM)


def nvram_limit_bits(writes, endurance):
    """NVRAM_UPDATE_LIMITS for this many provisioning writes."""
    return sum(bit for pct, bit in NVRAM_BITS if writes * 100 >= pct * endurance)


class StateCert:
    """The state certificate, split into its parts."""

    def __init__(self, data):
        self.raw = bytes(data)
        if len(data) < HEADER + KEY_INFO:
            raise ValueError(f'state certificate: {len(data)} bytes, too short')
        (self.content_type, self.revision, header_dwords, self.total,
         key_dwords, n) = struct.unpack_from('<6I', data, 0)
        if self.total != len(data) or header_dwords != 6 + n or key_dwords != 12:
            raise ValueError(f'state certificate: inconsistent header {self.describe()}')
        self.words = list(struct.unpack_from(f'<{n}I', data, HEADER))
        body = HEADER + 4 * n
        self.key_rev = u32(data, body)
        self.key_image = bytes(data[body + 4:body + KEY_INFO])
        self.blobs, off = [], body + KEY_INFO
        for w in self.words:
            size = (w & ~VALID) * 4
            self.blobs.append(bytes(data[off:off + size]))
            off += size
        if off > len(data) or any(data[off:]):
            raise ValueError('state certificate: licences overrun the size, or non-zero padding')

    def describe(self):
        return (f'type 0x{self.content_type:x} revision {self.revision} '
                f'total {self.total}')


def encode_state(content_type, revision, words, key_rev, key_image, blobs):
    body = struct.pack(f'<{len(words)}I', *words) + struct.pack('<I', key_rev) + key_image
    body += b''.join(blobs)
    size = HEADER + len(body)
    total = (size + REGION_ALIGN - 1) // REGION_ALIGN * REGION_ALIGN
    header = struct.pack('<6I', content_type, revision, 6 + len(words), total, 12, len(words))
    return header + body + bytes(total - size)


def empty_state():
    return encode_state(CONTENT_EMPTY, 0, [], 0, bytes(48), [])


def license_of(cap):
    """What the certificate stores of a CAP: the blob, no signature,
    zero-padded to whole dwords."""
    blob = cap[:-SIGNATURE]
    return blob + bytes(-len(blob) % 4)


def after_akc(cert, akc):
    """The certificate once this AKC is accepted: the key replaced, one
    more provisioning write, licences kept."""
    c = StateCert(cert)
    image = hashlib.sha384(akc[AKC_KEY]).digest()
    kind = CONTENT_KEY_BLOBS if c.words else CONTENT_KEY
    return encode_state(kind, c.revision + 1, c.words, u32(akc, AKC_KEY_REV), image, c.blobs)


def after_cap(cert, cap):
    """The certificate once this CAP is accepted: the licence appended as
    valid, older entries with its ID lose their valid bit; or None when it
    would not fit in 4096 bytes (the silicon refuses it, EIO)."""
    c = StateCert(cert)
    lic = license_of(cap)
    lic_id = u64(lic, BLOB_ID)
    words = [w & ~VALID if u64(b, BLOB_ID) == lic_id else w for w, b in zip(c.words, c.blobs)]
    words.append(len(lic) // 4 | VALID)
    out = encode_state(CONTENT_KEY_BLOBS, c.revision + 1, words, c.key_rev, c.key_image,
                       c.blobs + [lic])
    return out if len(out) <= STATE_MAX else None


def mmrc(meter):
    """The MMRC counter of a meter certificate ('MTDB' ... 'MMRC' count)."""
    if meter[0:4] != b'BDTM' or meter[0x20:0x24] != b'CRMM':
        raise ValueError('meter certificate: no MTDB or MMRC signature')
    if len(meter) != 0x28 + u32(meter, 0x14):
        raise ValueError(f'meter certificate: {len(meter)} bytes, length field says '
                         f'{0x28 + u32(meter, 0x14)}')
    return u32(meter, 0x24)
