# SPDX-License-Identifier: GPL-2.0-only
"""What the sdsi-authority tests share: the built command and its exit
statuses, and an independent reader of the formats of docs/formats.md
written from the document with python3-cryptography, not from our C code."""
import hashlib
import os
import struct
import subprocess

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

# The constants of the formats come from the one Python copy of the layouts,
# which a meson test checks against include/sdsi/.
import sdsikit.layout as sdsi_layout

BUILD_DIR = os.environ.get("SDSI_BUILD_DIR", "")
AUTHORITY = os.path.join(BUILD_DIR, "tools/sdsi-authority/sdsi-authority")
MAN_PAGE = os.path.join(os.path.dirname(__file__), "..", "..", "man", "sdsi-authority.1")


# The magics as stored: the little-endian four-character codes.
AKC_MAGIC = sdsi_layout.fourcc_bytes(sdsi_layout.AKC_MAGIC)

# The exit status table of every sdsi program (docs/exit-codes.md).
EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_NO_DEVICE, EXIT_PERMISSION = 0, 1, 2, 3, 4
EXIT_REFUSED, EXIT_REJECTED, EXIT_IO, EXIT_MALFORMED = 5, 6, 7, 8


def run(*args, cwd=None):
    r = subprocess.run([AUTHORITY, *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=60)
    # In a sanitizer build a report may not change the exit status we expect.
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    return r


def load_public(path):
    return serialization.load_pem_public_key(path.read_bytes())


def raw_point(public_key):
    n = public_key.public_numbers()
    return n.x.to_bytes(48, "big") + n.y.to_bytes(48, "big")


def verify_signature(public_key, signed, sig):
    """True when sig (r||s, 96 bytes) is ECDSA P-384/SHA-384 of signed."""
    r = int.from_bytes(sig[:48], "big")
    s = int.from_bytes(sig[48:], "big")
    try:
        public_key.verify(encode_dss_signature(r, s), signed, ec.ECDSA(hashes.SHA384()))
        return True
    except InvalidSignature:
        return False


def parse_akc(data):
    assert len(data) == 208
    magic, version, total, key_rev = struct.unpack_from("<4sIII", data, 0)
    return {"magic": magic, "version": version, "total": total, "key_rev": key_rev,
            "key": data[0x10:0x70], "signed": data[:0x70], "sig": data[0x70:]}


def fourcc(text):
    """Bytes of a four-character code as stored (SDSI_FOURCC little-endian)."""
    return text.encode("ascii")[::-1]


def parse_cap(data):
    """A CAP: the published licence blob from byte 0 (docs/formats.md
    section 3), then the signature."""
    btype, bid, ppin, prev, rev, count = struct.unpack_from("<IQQQII", data, 0)
    bundles = [data[36 + 32 * k:36 + 32 * (k + 1)] for k in range(count)]
    end = 36 + 32 * count
    return {"type": btype, "id": bid,
            "ppin": ppin, "previous_ppin": prev, "revision": rev, "count": count,
            "codes": [b[:4][::-1].decode("ascii") for b in bundles],
            "reserved": [b[4:] for b in bundles],
            "blob": data[:end], "signed": data[:end], "sig": data[end:]}


def key_image(raw):
    """The License Key Image as both tools print it (docs/schema/common.json):
    0x, then the SHA-384 of the licensor key byte 47 first."""
    return "0x" + hashlib.sha384(raw).digest()[::-1].hex()


def no_temporary_files(directory):
    return not [p for p in directory.rglob("*") if ".tmp-" in p.name or p.name.startswith(".")]
