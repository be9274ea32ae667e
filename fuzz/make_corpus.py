#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of fuzz/corpus/ (docs/fuzzing.md).

Small, deterministic inputs laid out byte by byte from the formats in
docs/formats.md and docs/model.md: a well-formed example of each input and,
for every bound a decoder checks, the input that exactly fits and the one a
unit too large.  Run it from anywhere; it rewrites only the seed-*.bin files,
so crash reproducers added by hand stay.
"""
import importlib.util
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def _layout():
    """The one Python copy of the layouts (tests/sdsikit/layout.py, checked
    against include/sdsi/ by a meson test), loaded from its file."""
    path = os.path.join(os.path.dirname(HERE), 'tests', 'sdsikit', 'layout.py')
    spec = importlib.util.spec_from_file_location('sdsikit_layout', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAYOUT = _layout()
GUID_V1, GUID_V2 = LAYOUT.GUID_V1, LAYOUT.GUID_V2
LATCH_NS = 8 * 3600 * 10**9


def le32(*v):
    return struct.pack('<%dI' % len(v), *v)


def le64(*v):
    return struct.pack('<%dQ' % len(v), *v)


def code(text):
    """A four-character code as stored: "MTDB" -> 42 44 54 4D."""
    return text.encode()[::-1]


def blob(type_=2, id_=1, ppin=0x1234, rev=1, codes=('CC02',), count=None):
    """Licence blob (docs/interface.md §3.1): 36-byte header, 32 per bundle."""
    n = len(codes) if count is None else count
    out = le32(type_) + le64(id_, ppin, 0) + le32(rev, n)
    for c in codes:
        out += code(c) + b'\0' * 28
    return out


# ---- libsdsi: first byte 0 registers, 1 state, 2 meter, 3 pre-flight ----
def regs(size=80, fail=0, avail=(4 << 48) | (4 << 51)):
    r = bytearray(size)
    r[0:8] = le64(0x1234)
    r[0x10:0x18] = le64(0x04001008)
    r[0x20:0x28] = le64(fail | (3 << 3) | (3 << 9))
    r[0x28:0x30] = le64(avail)
    return bytes(r)


def state(licenses=(), content=0xE, key=True, count=None):
    n = len(licenses) if count is None else count
    words = b''.join(le32((len(b) // 4) | 0x80000000) for b in licenses)
    body = (le32(1) + b'\x11' * 48 if key else b'') + b''.join(licenses)
    head = le32(content, 1, 6 + n, 0, 12, n)
    return head + words + body


def meter(pairs=1, length=None, extra=0):
    bl = pairs * 8 if length is None else length
    out = code('MTDB') + le32(1) + le64(0x1234) + le32(1000, bl) + le64(0)
    out += code('MMRC') + le32(7)
    out += b''.join(code('CC%02d' % (i % 100)) + le32(i) for i in range(pairs))
    return out + b'\0' * extra


def libsdsi():
    s = {}
    for guid_bits, name in ((0, 'auto'), (4, 'v1'), (8, 'v2'), (12, 'unknown')):
        for size in (67, 68, 71, 72, 73, 79, 80, 81):
            s['regs-%s-%d' % (name, size)] = bytes([guid_bits]) + regs(80)[:size] \
                + b'\0' * max(0, size - 80)
    one = blob(codes=('CC02', 'DSA1'))
    s['state-empty-24'] = b'\1' + le32(0, 0, 6, 0, 12, 0)
    s['state-header-23'] = s['state-empty-24'][:24]
    s['state-key-76'] = b'\1' + state(content=0xD)
    s['state-key-75'] = s['state-key-76'][:-1]
    s['state-header-size-5'] = b'\1' + le32(0xD, 1, 5, 0, 12, 0) + le32(1) + b'\x11' * 48
    s['state-header-size-19'] = b'\1' + le32(0xD, 1, 19, 0, 12, 0) + le32(1) + b'\x11' * 48
    s['state-header-size-20'] = b'\1' + le32(0xD, 1, 20, 0, 12, 0) + le32(1) + b'\x11' * 48
    s['state-one-licence'] = b'\1' + state([one])
    s['state-licence-one-byte-short'] = s['state-one-licence'][:-1]
    s['state-bundles-exact'] = b'\1' + state([blob(codes=('CC02',), count=1)])
    s['state-bundles-one-too-many'] = b'\1' + state([blob(codes=('CC02',), count=2)])
    s['state-size-words-exact'] = b'\1' + le32(0xE, 1, 8, 0, 12, 2) + le32(0, 0)
    s['state-size-words-one-over'] = b'\1' + le32(0xE, 1, 8, 0, 12, 2) + le32(0)
    s['state-three'] = b'\1' + state([one, blob(id_=2), blob(id_=3, rev=4)])
    s['meter-empty-40'] = b'\2' + meter(0)
    s['meter-header-39'] = b'\2' + meter(0)[:39]
    s['meter-one-48'] = b'\2' + meter(1)
    s['meter-one-47'] = b'\2' + meter(1)[:47]
    s['meter-507-pairs'] = b'\2' + meter(507)
    s['meter-508-pairs'] = b'\2' + meter(508)
    s['meter-length-not-multiple'] = b'\2' + meter(1, length=12, extra=4)
    st = state([one])
    for kind, mode in (('akc', 3), ('cap', 7)):
        for size in (0, 1, 1016, 1017):
            s['preflight-%s-blob-%d' % (kind, size)] = bytes([mode | 8]) + regs(80) \
                + struct.pack('<H', len(st)) + st + b'\x5a' * size
    s['preflight-v1-regs'] = bytes([3]) + regs(72) + struct.pack('<H', 0) + b'\1' * 64
    return s


# ---- licensing: first byte 0 AKC, 1 CAP, 2 bare blob, 3 signed CAP ----
def akc(total=208, rev=1, length=208):
    out = code('SAKC') + le32(1, total, rev) + b'\x04' * 96 + b'\x07' * 96
    return (out + b'\0' * length)[:length]


def cap(n=1, length=None):
    """The licence blob from byte 0, then a 96-byte signature."""
    out = blob(codes=['B%03d' % i for i in range(n)], count=n) + b'\x09' * 96
    return out if length is None else (out + b'\0' * length)[:length]


def license_():
    s = {}
    s['akc-208'] = b'\0' + akc()
    s['akc-207'] = b'\0' + akc(length=207)
    s['akc-209'] = b'\0' + akc(length=209)
    s['akc-total-209'] = b'\0' + akc(total=209)
    s['cap-1'] = b'\1' + cap(1)
    s['cap-27-bundles-996'] = b'\1' + cap(27)
    s['cap-28-bundles'] = b'\1' + cap(28)
    s['cap-0-bundles'] = b'\1' + cap(0)
    s['cap-1016'] = b'\1' + cap(27, length=1016)
    s['cap-1017'] = b'\1' + cap(27, length=1017)
    s['cap-one-byte-short'] = b'\1' + cap(2)[:-1]
    s['blob-27'] = b'\2' + blob(codes=['B%03d' % i for i in range(27)])
    s['blob-28'] = b'\2' + blob(codes=['B%03d' % i for i in range(28)])
    s['blob-trailing-byte'] = b'\2' + blob() + b'\0'
    s['signed-cap'] = b'\3' + bytes([2]) + le64(7, 0x1234) + le32(1) + bytes([3]) \
        + struct.pack('<H', 40) + b'\1'
    return s


# ---- NVRAM file: socket 0, GUID V2 (model/nvram_file.c, docs/model.md) ----
def nvram(version=2, guid=GUID_V2, ppin=0x1234, key=False, licenses=(), meters=(),
          powered=0, latched=0, num_lic=None, num_meters=None, body_len=None,
          crc=None, pad=b''):
    # GUID, socket, PPIN, flags (key, licensor key), key revision, image, wear
    body = le32(guid, 0) + le64(ppin) + le32(3 if key else 0, 1 if key else 0)
    body += b'\x22' * 48 + le32(1, len(licenses) if num_lic is None else num_lic)
    if version >= 2:
        body += b'\x33' * 96 + le64(powered, latched)
        body += le32(len(meters) if num_meters is None else num_meters)
        body += b''.join(le32(c) + le64(t, l) for c, t, l in meters)
    body += b''.join(le32((len(b) // 4) | 0x80000000) + b for b in licenses) + pad
    head = b'SDSINVRM' + le32(version, len(body) if body_len is None else body_len)
    data = head + body
    return data + le32(zlib.crc32(data) if crc is None else crc)


def nvram_file():
    s = {}
    s['empty-v2'] = nvram()
    s['empty-v1'] = nvram(version=1)
    s['key'] = nvram(key=True)
    s['licences'] = nvram(key=True, licenses=[blob(), blob(id_=2, type_=1)])
    s['meters'] = nvram(key=True, licenses=[blob()], powered=LATCH_NS + 5,
                        latched=LATCH_NS, meters=[(0x43433032, 7, 3)])
    s['latch-exact'] = nvram(powered=2 * LATCH_NS - 1, latched=LATCH_NS)
    s['latch-one-over'] = nvram(powered=2 * LATCH_NS, latched=LATCH_NS)
    s['meters-128'] = nvram(meters=[(i, 0, 0) for i in range(128)])
    s['meters-129'] = nvram(meters=[(i, 0, 0) for i in range(129)])
    s['licences-128'] = nvram(key=True, licenses=[blob(id_=i, codes=()) for i in range(128)])
    s['licences-129'] = nvram(key=True, licenses=[blob(id_=i, codes=()) for i in range(129)])
    # The state certificate of at most 4096 bytes: 24 + 4 + 52 + blob.
    big = blob(codes=['B%03d' % i for i in range(124)])
    s['state-4096'] = nvram(key=True, licenses=[big + b'\0' * (4016 - len(big))])
    s['state-4112'] = nvram(key=True, licenses=[big + b'\0' * (4020 - len(big))])
    # Found by fuzz_nvram_file: an entry that is no licence was loaded, and
    # the state certificate built from it did not decode.
    s['licence-not-a-licence'] = nvram(key=True, licenses=[b'\x01' * 4016])
    s['licence-bundles-exact'] = nvram(key=True, licenses=[blob(codes=('CC02',))])
    s['licence-bundles-one-over'] = nvram(key=True, licenses=[blob(codes=('CC02',), count=2)])
    s['licence-header-36'] = nvram(key=True, licenses=[blob(codes=())])
    s['licence-header-32'] = nvram(key=True, licenses=[blob(codes=())[:32]])
    s['body-196'] = nvram()
    s['body-195'] = nvram(body_len=195)
    s['header-15'] = nvram()[:15]
    s['header-16'] = nvram()[:16]
    s['newer-version'] = nvram(version=3)
    s['foreign-socket'] = nvram(guid=GUID_V1)
    s['bad-crc'] = nvram(crc=0)
    s['file-max-7384'] = nvram(pad=b'\0' * (7384 - len(nvram())))
    s['file-max-plus-one'] = s['file-max-7384'] + b'\0'
    return s


def control():
    s = {}
    s['status'] = b'status\n'
    s['all-commands'] = b'\n'.join([
        b'power-cycle all', b'fault 0 no-rdy --count 2 --param 5', b'clear 0 no-rdy',
        b'clear 1', b'unbind 1', b'bind 1', b'features 0 on-demand,metering',
        b'iblock 1 on', b'advance all 3600', b'status'])
    s['advance-max'] = b'advance 0 315360000\nadvance 0 315360001\n'
    s['fault-param-max'] = b'fault all rdy-latency --param 4294967295\n' \
        b'fault all rdy-latency --param 4294967296\n'
    s['words-16'] = b' '.join([b'status'] + [b'x'] * 15) + b'\n'
    s['words-17'] = b' '.join([b'status'] + [b'x'] * 16) + b'\n'
    s['sockets'] = b'bind 2\nunbind 1\nunbind 1\nbind 1\nbind 1\npower-cycle 01\n'
    return s


def model_mmio():
    # config bytes, then operations (fuzz/fuzz_model_mmio.c, run_op()).
    akc_then_cap = bytes([0, 0]) + bytes([7, 0, 0, 0, 0]) + bytes([7, 4, 0, 0, 0]) \
        + bytes([6]) + bytes([8, 0]) + bytes([8, 1])
    s = {}
    s['provision-akc-cap'] = akc_then_cap
    s['rollback-and-forgery'] = bytes([0, 0]) + bytes([7, 1, 0, 0, 0, 7, 2, 0, 0, 0,
                                                       7, 3, 0, 0, 0, 7, 0, 5, 0, 1])
    s['raw-window'] = bytes([1, 0, 3, 0, 2, 0x0f, 0xd8, 0, 0xd8, 0, 0, 0, 0, 2, 0x10, 0, 0, 0, 0])
    s['faults'] = bytes([0, 0] + [b for k in range(9) for b in (9, 0x10 | k, 1, 0, 8, 0)])
    s['meters-hours'] = akc_then_cap + bytes([7, 5, 0, 0, 0, 6, 5, 0xff, 0xff, 8, 1, 8, 3])
    s['thresholds-1'] = bytes([0x12, 0x01]) + bytes([7, 3, 0, 0, 0] * 3) + bytes([6])
    return s


def spdm():
    # fault byte, then requests: length, bytes, flag (fuzz/fuzz_spdm.c).
    def req(*b):
        return bytes([len(b)]) + bytes(b) + b'\0'
    vca = (req(0x10, 0x84, 0, 0) + req(0x10, 0xE1, 0, 0)
           + req(*([0x10, 0xE3, 0, 0, 32, 0, 1, 0, 0x80, 0, 0, 0, 2] + [0] * 19)))
    cert = req(0x10, 0x81, 0, 0) + req(0x10, 0x82, 0, 0, 0, 0, 0xfc, 0x0f)
    challenge = req(*([0x10, 0x83, 0, 0xff] + [7] * 32))
    meas = req(0x10, 0xE0, 0, 0) + req(*([0x10, 0xE0, 1, 0xff] + [9] * 32))
    s = {}
    s['full-flow'] = b'\0' + vca + cert + challenge + meas
    s['faults'] = b'\x0f' + vca + cert + challenge + meas
    s['out-of-order'] = b'\0' + cert + challenge + req(0x11, 0x84, 0, 0) + req(0x10, 0x05)
    s['request-255'] = b'\0' + bytes([255]) + bytes([0x10, 0x84]) + bytes(253) + b'\0'
    return s


def mbox_answer():
    # mode, request length, then the device's reads, 8 bytes each
    # (fuzz/fuzz_mbox_answer.c): the control register as the acquire finds
    # it free, then ours; then per packet RDY with its size, and its qwords.
    def q(*v):
        return b''.join(struct.pack('<Q', x) for x in v)
    owned = q(0, LAYOUT.OWNER_INBAND << LAYOUT.CTRL_OWNER_SHIFT)

    def rdy(size, eom):
        return q(LAYOUT.CTRL_RDY | (LAYOUT.CTRL_EOM if eom else 0)
                 | size << LAYOUT.CTRL_PACKET_SIZE_SHIFT)
    mbox = LAYOUT.MBOX_SIZE
    version = b'\x10\x04\x00\x00\x00\x01\x00\x10'
    s = {}
    # GET_VERSION answered in one packet: 8 bytes of VERSION, its length.
    s['exchange-one-packet'] = b'\0' + struct.pack('<H', 3) + owned + rdy(16, True) \
        + version + q(8)
    # Four full packets, the last one's length qword 4088: the largest answer.
    four = b''.join(rdy(mbox, i == 3) + bytes([i]) * mbox for i in range(4))
    s['exchange-four-packets'] = b'\0' + struct.pack('<H', 3) + owned \
        + four[:-8] + q(LAYOUT.READ_MSG_MAX - 8)
    s['read-state'] = b'\1\0\0' + owned + rdy(8, True) + q(0x0123456789abcdef)
    s['read-meter-current-v1-early'] = b'\x0e\0\0' + owned + rdy(mbox, False) \
        + bytes(mbox) + rdy(0, True)
    s['write-cap'] = b'\3' + struct.pack('<H', LAYOUT.WRITE_PAYLOAD_MAX) + owned \
        + rdy(0, True)
    return s


def attest_answer():
    # mode, then each answer as u16 length and bytes (fuzz/fuzz_attest_answer.c);
    # the chain is fuzz/attest_root.pem and attest_leaf.pem, the root the
    # harness's anchor; the signatures are zeros (the harness has no key).
    import base64
    import hashlib

    def der(name):
        text = open(os.path.join(HERE, name)).read()
        body = text.split('-----BEGIN CERTIFICATE-----')[1].split('-----END')[0]
        return base64.b64decode(''.join(body.split()))

    def answer(*parts):
        body = b''.join(bytes(p) if isinstance(p, list) else p for p in parts)
        return struct.pack('<H', len(body)) + body

    root, leaf = der('attest_root.pem'), der('attest_leaf.pem')
    chain_len = 4 + 48 + len(root) + len(leaf)
    chain = struct.pack('<HH', chain_len, 0) + hashlib.sha384(root).digest() + root + leaf
    digest = hashlib.sha384(chain).digest()
    vca = (answer([0x10, 0x04, 0, 0, 0, 1, 0x00, 0x10])
           + answer([0x10, 0x61, 0, 0, 0, 0, 0, 0], le32(0x16))
           + answer([0x10, 0x63, 0, 0, 36, 0, 1, 0], le32(4, 0x80, 2), bytes(16)))
    digests = answer([0x10, 0x01, 0, 1], digest)

    def portions(size):
        out = b''
        for off in range(0, chain_len, size):
            part = chain[off:off + size]
            out += answer([0x10, 0x02, 0, 0], struct.pack('<HH', len(part),
                                                           chain_len - off - len(part)), part)
        return out
    auth = answer([0x10, 0x03, 0, 1], digest, bytes(range(1, 33)), b'\0\0', bytes(96))
    block = [1, 1, 51, 0, 2, 48, 0] + [7] * 48
    meas = answer([0x10, 0x60, 0, 0, 1, 55, 0, 0], block, bytes(range(32)), b'\0\0', bytes(96))
    s = {}
    s['verify'] = b'\0' + vca + digests + portions(4080) + auth + meas
    s['verify-meters-portions'] = b'\4' + vca + digests + portions(300) + auth + meas
    s['busy'] = b'\0' + answer([0x10, 0x7f, 3, 0])
    s['chain'] = b'\1' + vca + digests + portions(500)
    s['leaf'] = b'\2' + vca + digests + portions(4080)
    s['chain-one-over'] = b'\1' + vca + digests + answer(
        [0x10, 0x02, 0, 0], struct.pack('<HH', 1, 0xffff), b'\0')
    s['parse-measurements'] = b'\3' + meas[2:]
    s['parse-auth'] = b'\3' + auth[2:]
    return s


def main():
    for name, seeds in (('libsdsi', libsdsi()), ('license', license_()),
                        ('nvram_file', nvram_file()), ('control', control()),
                        ('model_mmio', model_mmio()), ('spdm', spdm()),
                        ('mbox_answer', mbox_answer()),
                        ('attest_answer', attest_answer())):
        d = os.path.join(HERE, 'corpus', name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.startswith('seed-'):
                os.unlink(os.path.join(d, f))
        for seed, data in seeds.items():
            with open(os.path.join(d, 'seed-%s.bin' % seed), 'wb') as f:
                f.write(data)


if __name__ == '__main__':
    main()
