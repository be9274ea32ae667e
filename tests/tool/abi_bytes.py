# SPDX-License-Identifier: GPL-2.0-only
"""Registers and certificates written byte by byte from the layouts of
docs/interface.md (§2.7, §3.1, §3.2), and a sysfs-shaped tree of plain
files holding them, for intel_sdsi to read with SDSI_SYSFS_ROOT."""
import os
import struct

# The layouts from the one Python copy (checked against include/sdsi/ by a
# meson test).
import sdsikit.layout as L
from sdsikit.layout import GUID_V1, GUID_V2


def code(text):
    """A four-character code as stored: 'MTDB' -> bytes 42 44 54 4D."""
    return text.encode("ascii")[::-1]


def registers(layout=2, ppin=0x1122334455667788, features=L.FEATURES_KNOWN,
              akc=(0, 3), cap=(0, 3), updates=(4, 4), akc_provisioned=False,
              auth_err=0, nvram=0, capid1=0, socket_id=0, tool_v2_socket_id=None):
    fail = (akc[0] << L.FAIL_AKC_COUNT_SHIFT | akc[1] << L.FAIL_AKC_THRESH_SHIFT |
            cap[0] << L.FAIL_CAP_COUNT_SHIFT | cap[1] << L.FAIL_CAP_THRESH_SHIFT)
    avail = updates[0] << L.AVAIL_UPDATES_SHIFT | updates[1] << L.AVAIL_THRESH_SHIFT
    body = struct.pack("<QQQQQQQQ", ppin, auth_err, features,
                       L.KEY_PROVISIONED if akc_provisioned else 0,
                       fail, avail, nvram, capid1)
    body += struct.pack("<Q", socket_id)
    if layout == 2:
        body += struct.pack("<Q", socket_id if tool_v2_socket_id is None else tool_v2_socket_id)
    return body


def blob(btype, blob_id, ppin, prev_ppin, rev, features, tail=b""):
    out = struct.pack("<IQQQII", btype, blob_id, ppin, prev_ppin, rev, len(features))
    for f in features:
        out += code(f) + b"\xa5" * (L.BUNDLE_SIZE - 4)
    return out + tail


def state_cert(licenses, key_rev=2, key_image=bytes(range(L.STATE_KEY_IMAGE_SIZE)),
               content_type=None, valid=None, key_size=12):
    """licenses: list of blob bytes (b"" for an empty slot)."""
    n = len(licenses)
    if content_type is None:
        content_type = L.STATE_CONTENT_KEY_BLOBS if n else L.STATE_CONTENT_KEY
    valid = valid if valid is not None else [True] * n
    words = b"".join(struct.pack("<I", (len(b) // 4) | (L.BLOB_VALID if v and b else 0))
                     for b, v in zip(licenses, valid))
    body = words + struct.pack("<I", key_rev) + key_image + b"".join(licenses)
    total = L.STATE_HEADER_SIZE + len(body)
    return struct.pack("<IIIIII", content_type, 1, L.STATE_HEADER_SIZE // 4 + n, total,
                       key_size, n) + body


def meter_cert(pairs, ppin=0x0123456789ABCDEF, unit=1000, mmrc=12345, version=1,
               signature="MTDB", length=None):
    body = b"".join(code(f) + struct.pack("<I", c) for f, c in pairs)
    length = len(body) if length is None else length
    return (code(signature) + struct.pack("<IQII", version, ppin, unit, length) + bytes(8)
            + code("MMRC") + struct.pack("<I", mmrc) + body)


class FakeSysfs:
    """intel_vsec.sdsi.N directories holding plain files with the ABI's bytes."""

    def __init__(self, root):
        self.root = root

    def add(self, devno, guid=GUID_V2, regs=None, state=None, meter=None, current=None):
        d = os.path.join(self.root, f"intel_vsec.sdsi.{devno}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "guid"), "w") as f:
            f.write(f"0x{guid:x}\n")
        layout = 1 if guid == GUID_V1 else 2
        files = {"registers": regs if regs is not None else registers(layout=layout),
                 "state_certificate": state, "meter_certificate": meter,
                 "meter_current": current, "provision_akc": b"", "provision_cap": b""}
        for name, data in files.items():
            if data is not None:
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data)
        return d
