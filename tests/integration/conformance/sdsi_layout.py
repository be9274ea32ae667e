# SPDX-License-Identifier: GPL-2.0-only
"""Decoders for the binary files of the intel_sdsi sysfs ABI.

Written from docs/interface.md (§2.3, §2.7, §3.1 and §3.2) and nothing
else, so that the suite judges the emulator and a real kernel alike.  Every
decoder raises ValueError with the reason when the bytes are malformed.
"""
import struct
from dataclasses import dataclass, field

GUID_V1 = 0x006DD191
GUID_V2 = 0xF210D9EF
REGS_SIZE = {GUID_V1: 72, GUID_V2: 80}
REGS_ST_SIZE = {'current': 80, 'early': 72}

FEATURE_BITS = {
    'on-demand': 1 << 3,
    'attestation': 1 << 12,
    'metering': 1 << 26,
}
FEATURES_KNOWN = sum(FEATURE_BITS.values())
AUTH_ERR_CONTENT = 1 << 3
AUTH_ERR_METERING = 1 << 5
KEY_PROVISIONED = 1 << 1
# NVRAM_UPDATE_LIMITS: the share of the NVRAM's update limit used (2.7)
NVRAM_50_PCT = 1 << 12
NVRAM_75_PCT = 1 << 13
NVRAM_90_PCT = 1 << 14

STATE_CERT_MAX = 4096
STATE_HEADER_SIZE = 24
STATE_KEY_INFO_SIZE = 52
STATE_CONTENT_EMPTY = 0x0       # the project's choice: nothing provisioned
STATE_CONTENT_KEY = 0xD
STATE_CONTENT_KEY_BLOBS = 0xE
BLOB_VALID = 1 << 31

METER_HEADER_SIZE = 40
METER_MAX_PAIRS = 507


def fourcc(data, offset):
    """The four-character code stored at offset: the little-endian u32
    printed most-significant byte first ('MTDB' is stored as 42 44 54 4D)."""
    (value,) = struct.unpack_from('<I', data, offset)
    return struct.pack('>I', value).decode('ascii', errors='replace')


def parse_features(text, guid):
    """The ENABLED_FEATURES value a --features argument selects: a comma
    list of names, 'none', a hex number, or '' for the GUID's default."""
    text = text.strip()
    if not text:
        if guid == GUID_V1:
            return FEATURE_BITS['on-demand']
        return FEATURES_KNOWN
    if text == 'none':
        return 0
    if text.lower().startswith('0x'):
        return int(text, 16) & FEATURES_KNOWN
    value = 0
    for name in text.split(','):
        if name not in FEATURE_BITS:
            raise ValueError(f'unknown feature name {name!r}')
        value |= FEATURE_BITS[name]
    return value


@dataclass
class Registers:
    ppin: int
    auth_err: int
    features: int
    key_prov: int
    akc_count: int
    akc_threshold: int
    cap_count: int
    cap_threshold: int
    updates_available: int
    updates_threshold: int
    nvram_limits: int
    capid1: int
    socket_id: int
    socket_id_tool: object    # V2: where the upstream tool reads it (0x48)


def decode_registers(data, guid):
    """The registers file: a raw copy of the block that starts at the PPIN."""
    if guid not in REGS_SIZE:
        raise ValueError(f'unknown GUID {guid:#x}')
    if len(data) != REGS_SIZE[guid]:
        raise ValueError(f'registers: {len(data)} bytes, expected '
                         f'{REGS_SIZE[guid]} for GUID {guid:#x}')
    (ppin, auth_err, features, key_prov, fail, avail, nvram,
     capid1) = struct.unpack_from('<8Q', data, 0)
    if guid == GUID_V1:
        (socket,) = struct.unpack_from('<Q', data, 0x40)
        socket_tool = None
    else:
        (socket,) = struct.unpack_from('<I', data, 0x40)
        (socket_tool,) = struct.unpack_from('<Q', data, 0x48)
        socket_tool &= 0xf
    return Registers(
        ppin=ppin, auth_err=auth_err, features=features, key_prov=key_prov,
        akc_count=fail & 7, akc_threshold=(fail >> 3) & 7,
        cap_count=(fail >> 6) & 7, cap_threshold=(fail >> 9) & 7,
        updates_available=(avail >> 48) & 7,
        updates_threshold=(avail >> 51) & 7,
        nvram_limits=nvram, capid1=capid1, socket_id=socket & 0xf,
        socket_id_tool=socket_tool)


@dataclass
class StateCertificate:
    content_type: int
    region_rev: int
    header_size_dwords: int
    total_size: int
    key_size_dwords: int
    num_licenses: int
    blob_sizes: list = field(default_factory=list)   # (bytes, valid)
    key_rev: object = None
    key_image: object = None


def decode_state_certificate(data):
    """Header, blob-size words and, when a key is present, the key info."""
    if len(data) > STATE_CERT_MAX:
        raise ValueError(f'state certificate of {len(data)} bytes, max 4096')
    if len(data) < STATE_HEADER_SIZE:
        raise ValueError(f'state certificate of {len(data)} bytes is '
                         f'shorter than its {STATE_HEADER_SIZE}-byte header')
    fields = struct.unpack_from('<6I', data, 0)
    cert = StateCertificate(*fields)
    words_end = STATE_HEADER_SIZE + 4 * cert.num_licenses
    if words_end > len(data):
        raise ValueError(f'{cert.num_licenses} licences do not fit in '
                         f'{len(data)} bytes')
    for k in range(cert.num_licenses):
        (v,) = struct.unpack_from('<I', data, STATE_HEADER_SIZE + 4 * k)
        cert.blob_sizes.append(((v & 0x7fffffff) * 4, bool(v & BLOB_VALID)))
    if cert.content_type in (STATE_CONTENT_KEY, STATE_CONTENT_KEY_BLOBS):
        if words_end + STATE_KEY_INFO_SIZE > len(data):
            raise ValueError('key info runs past the end of the certificate')
        (cert.key_rev,) = struct.unpack_from('<I', data, words_end)
        cert.key_image = data[words_end + 4:words_end + STATE_KEY_INFO_SIZE]
        blobs_end = words_end + STATE_KEY_INFO_SIZE + \
            sum(size for size, _ in cert.blob_sizes)
        if blobs_end > len(data):
            raise ValueError('licence blobs run past the end of the '
                             'certificate')
    elif cert.content_type != STATE_CONTENT_EMPTY:
        raise ValueError(f'unknown content type {cert.content_type:#x}')
    return cert


@dataclass
class MeterCertificate:
    signature: str
    version: int
    ppin: int
    unit_ms: int
    bundle_length: int
    mmrc_encoding: str
    mmrc_counter: int
    pairs: list       # (code, counter)


def decode_meter_certificate(data):
    """Fixed 40-byte header, then bundle_length/8 (code, counter) pairs."""
    if len(data) > STATE_CERT_MAX:
        raise ValueError(f'meter certificate of {len(data)} bytes, max 4096')
    if len(data) < METER_HEADER_SIZE:
        raise ValueError(f'meter certificate of {len(data)} bytes is '
                         f'shorter than its {METER_HEADER_SIZE}-byte header')
    (_, version, ppin, unit, length, _, _, counter) = \
        struct.unpack_from('<IIQIIQII', data, 0)
    if length % 8:
        raise ValueError(f'bundle length {length} is not a multiple of 8')
    if length // 8 > METER_MAX_PAIRS:
        raise ValueError(f'bundle length {length}: over {METER_MAX_PAIRS} '
                         'pairs')
    if METER_HEADER_SIZE + length > len(data):
        raise ValueError(f'bundle length {length} runs past the '
                         f'{len(data)}-byte certificate')
    pairs = []
    for k in range(length // 8):
        off = METER_HEADER_SIZE + 8 * k
        (count,) = struct.unpack_from('<I', data, off + 4)
        pairs.append((fourcc(data, off), count))
    return MeterCertificate(
        signature=fourcc(data, 0), version=version, ppin=ppin, unit_ms=unit,
        bundle_length=length, mmrc_encoding=fourcc(data, 0x20),
        mmrc_counter=counter, pairs=pairs)
