# SPDX-License-Identifier: GPL-2.0-only
"""Decoders for the binary files of the intel_sdsi sysfs ABI.

Written from docs/interface.md (§2.3, §2.7, §3.1 and §3.2) and nothing
else, so that the suite judges the emulator and a real kernel alike.  Every
decoder raises ValueError with the reason when the bytes are malformed.
"""
import struct
from dataclasses import dataclass, field

# Every constant below is a copy of one in include/sdsi/ (the C name without
# its SDSI_ prefix, unless tests/layout/layout_constants.c says otherwise);
# tests/layout/check_layout.py, a meson test, compares them value by value
# and fails on any constant here that the C side does not print.

# include/sdsi/hw.h: discovery, GUIDs, the MMIO layouts
DISC_BYTES = 16
DISC_ACCESS_BARID = 2
DISC_ACCESS_LOCAL = 3
DISC_ACCESS_MASK = 0xf
DISC_TBIR_MASK = 0x7
GUID_V1 = 0x006DD191
GUID_V2 = 0xF210D9EF
CTRL_SIZE_V1 = 8
CTRL_SIZE_V2 = 16
REGS_SIZE_V1 = 72
REGS_SIZE_V2 = 80
MBOX_SIZE = 1024
READ_MSG_MAX = 4096
WRITE_PAYLOAD_MAX = 1016
CTRL_IBLOCK = 1 << 32
REGS_SIZE = {GUID_V1: REGS_SIZE_V1, GUID_V2: REGS_SIZE_V2}
REGS_ST_SIZE = {'current': REGS_SIZE_V2, 'early': REGS_SIZE_V1}

# The control register's fields a device answer is made of (fuzz seeds).
CTRL_EOM = 1 << 3
CTRL_OWNER_SHIFT = 4
CTRL_RDY = 1 << 7
CTRL_PACKET_SIZE_SHIFT = 16
OWNER_INBAND = 1

# The register file, offsets from the PPIN (2.7)
REG_PPIN = 0x00
REG_AUTH_ERR = 0x08
REG_FEATURES = 0x10
REG_KEY_PROV = 0x18
REG_FAIL_COUNT = 0x20
REG_AVAILABILITY = 0x28
REG_NVRAM_LIMITS = 0x30
REG_CAPID1 = 0x38
REG_SOCKET_ID = 0x40
REG_SOCKET_ID_V2_TOOL = 0x48
SOCKET_ID_MASK = 0xF
FAIL_AKC_COUNT_SHIFT = 0
FAIL_AKC_THRESH_SHIFT = 3
FAIL_CAP_COUNT_SHIFT = 6
FAIL_CAP_THRESH_SHIFT = 9
FIELD3_MASK = 0x7
AVAIL_UPDATES_SHIFT = 48
AVAIL_THRESH_SHIFT = 51

FEATURE_ON_DEMAND = 1 << 3
FEATURE_ATTESTATION = 1 << 12
FEATURE_METERING = 1 << 26
FEATURE_BITS = {
    'on-demand': FEATURE_ON_DEMAND,
    'attestation': FEATURE_ATTESTATION,
    'metering': FEATURE_METERING,
}
FEATURES_KNOWN = sum(FEATURE_BITS.values())
AUTH_ERR_CONTENT = 1 << 3
AUTH_ERR_METERING = 1 << 5
KEY_PROVISIONED = 1 << 1
# NVRAM_UPDATE_LIMITS: the share of the NVRAM's update limit used (2.7)
NVRAM_50_PCT = 1 << 12
NVRAM_75_PCT = 1 << 13
NVRAM_90_PCT = 1 << 14

# The state certificate (3.1) and the licence blobs in it
STATE_CERT_MAX = 4096
STATE_HEADER_SIZE = 24
STATE_KEY_INFO_SIZE = 52
STATE_KEY_IMAGE_SIZE = 48
STATE_CONTENT_EMPTY = 0x0       # the project's choice: nothing provisioned
STATE_CONTENT_KEY = 0xD
STATE_CONTENT_KEY_BLOBS = 0xE
STATE_OFF_NUM_LICENSES = 0x14
STATE_REGION_ALIGN = 16         # the project's choice: the model pads to 16
BLOB_VALID = 1 << 31
BLOB_SIZE_MASK = 0x7FFFFFFF
BLOB_HEADER_SIZE = 36
BUNDLE_SIZE = 32
BLOB_OFF_TYPE = 0x00
BLOB_OFF_ID = 0x04
BLOB_OFF_PPIN = 0x0C
BLOB_OFF_PREV_PPIN = 0x14
BLOB_OFF_REVISION = 0x1C
BLOB_OFF_NUM_BUNDLES = 0x20
BLOB_TYPE_ONE_TIME = 1
BLOB_TYPE_METERED = 2

# The meter certificate (3.2)
METER_HEADER_SIZE = 40
METER_PAIR_SIZE = 8
METER_MAX_PAIRS = 507
METER_OFF_MMRC_ENCODING = 0x20

# include/sdsi/license_blob.h: the project's AKC and CAP (docs/formats.md);
# a CAP is the licence blob from byte 0, then its signature
LICENSE_FORMAT_VERSION = 1
AKC_MAGIC = 0x53414B43          # 'SAKC' as a four-character code
LICENSE_PUBKEY_SIZE = 96
LICENSE_SIG_SIZE = 96
AKC_KEY_OFFSET = 0x10
AKC_SIG_OFFSET = 0x70
AKC_SIZE = 0xD0
CAP_BLOB_OFFSET = 0
CAP_MAX_BUNDLES = 27
CAP_SIG_MIN = 96

# include/sdsi/nvram_file.h: the model's socket<N>.nvram
NVRAM_MAGIC = b'SDSINVRM'
NVRAM_MAGIC_LEN = 8
NVRAM_VERSION = 2
NVRAM_HEADER_LEN = 16
NVRAM_CRC_LEN = 4
NVRAM_OFF_VERSION = 8
NVRAM_OFF_BODY_LEN = 12
NVRAM_OFF_GUID = 16
NVRAM_OFF_SOCKET = 20
NVRAM_OFF_PPIN = 24
NVRAM_OFF_WEAR = 88
NVRAM_OFF_NUM_LIC = 92

# include/sdsi/window.h: the window sdsi-shmem plays, one slot per socket
# and the control page after them
WINDOW_SLOT_SIZE = 8192
WINDOW_MMIO_OFFSET = 4096
WINDOW_MAX_SOCKETS = 8
CTLPAGE_SIZE = 4096
CTLPAGE_MAGIC = 0x43534453      # "SDSC"
CTLPAGE_VERSION = 1
CTLPAGE_TEXT = 256
CTLPAGE_OFF_MAGIC = 0x00
CTLPAGE_OFF_VERSION = 0x04
CTLPAGE_OFF_REQUEST = 0x08
CTLPAGE_OFF_REPLY = 0x0C
CTLPAGE_OFF_REQUEST_TEXT = 0x40
CTLPAGE_OFF_REPLY_TEXT = 0x140

# The attestation transport's struct sdsi_spdm_command (spdm_ioctl.h): a
# u32 size, then the message area; what the mailbox carries each way.
SPDM_COMMAND_HDR = 4
SPDM_MESSAGE_MAX = 4096
SPDM_REQUEST_MAX = 1008
SPDM_RESPONSE_MAX = 4088


def fourcc_bytes(code):
    """A four-character code as stored: the little-endian u32."""
    return struct.pack('<I', code)


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
        (socket,) = struct.unpack_from('<Q', data, REG_SOCKET_ID)
        socket_tool = None
    else:
        (socket,) = struct.unpack_from('<I', data, REG_SOCKET_ID)
        (socket_tool,) = struct.unpack_from('<Q', data, REG_SOCKET_ID_V2_TOOL)
        socket_tool &= SOCKET_ID_MASK

    def field3(value, shift):
        return (value >> shift) & FIELD3_MASK

    return Registers(
        ppin=ppin, auth_err=auth_err, features=features, key_prov=key_prov,
        akc_count=field3(fail, FAIL_AKC_COUNT_SHIFT),
        akc_threshold=field3(fail, FAIL_AKC_THRESH_SHIFT),
        cap_count=field3(fail, FAIL_CAP_COUNT_SHIFT),
        cap_threshold=field3(fail, FAIL_CAP_THRESH_SHIFT),
        updates_available=field3(avail, AVAIL_UPDATES_SHIFT),
        updates_threshold=field3(avail, AVAIL_THRESH_SHIFT),
        nvram_limits=nvram, capid1=capid1,
        socket_id=socket & SOCKET_ID_MASK, socket_id_tool=socket_tool)


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


def _check_certificate_size(what, data, header_size):
    """Both certificates are read whole, at most STATE_CERT_MAX bytes, and
    hold at least their header."""
    if len(data) > STATE_CERT_MAX:
        raise ValueError(f'{what} of {len(data)} bytes, max 4096')
    if len(data) < header_size:
        raise ValueError(f'{what} of {len(data)} bytes is '
                         f'shorter than its {header_size}-byte header')


def decode_state_certificate(data):
    """Header, blob-size words and, when a key is present, the key info."""
    _check_certificate_size('state certificate', data, STATE_HEADER_SIZE)
    fields = struct.unpack_from('<6I', data, 0)
    cert = StateCertificate(*fields)
    words_end = STATE_HEADER_SIZE + 4 * cert.num_licenses
    if words_end > len(data):
        raise ValueError(f'{cert.num_licenses} licences do not fit in '
                         f'{len(data)} bytes')
    for k in range(cert.num_licenses):
        (v,) = struct.unpack_from('<I', data, STATE_HEADER_SIZE + 4 * k)
        cert.blob_sizes.append(((v & BLOB_SIZE_MASK) * 4,
                                bool(v & BLOB_VALID)))
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
    _check_certificate_size('meter certificate', data, METER_HEADER_SIZE)
    (_, version, ppin, unit, length, _, _, counter) = \
        struct.unpack_from('<IIQIIQII', data, 0)
    if length % METER_PAIR_SIZE:
        raise ValueError(f'bundle length {length} is not a multiple of 8')
    if length // METER_PAIR_SIZE > METER_MAX_PAIRS:
        raise ValueError(f'bundle length {length}: over {METER_MAX_PAIRS} '
                         'pairs')
    if METER_HEADER_SIZE + length > len(data):
        raise ValueError(f'bundle length {length} runs past the '
                         f'{len(data)}-byte certificate')
    pairs = []
    for k in range(length // METER_PAIR_SIZE):
        off = METER_HEADER_SIZE + METER_PAIR_SIZE * k
        (count,) = struct.unpack_from('<I', data, off + 4)
        pairs.append((fourcc(data, off), count))
    return MeterCertificate(
        signature=fourcc(data, 0), version=version, ppin=ppin, unit_ms=unit,
        bundle_length=length,
        mmrc_encoding=fourcc(data, METER_OFF_MMRC_ENCODING),
        mmrc_counter=counter, pairs=pairs)
