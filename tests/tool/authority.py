# SPDX-License-Identifier: GPL-2.0-only
"""AKCs and CAPs issued by the real sdsi-authority, and the bytes the state
certificate keeps of them (docs/formats.md sections 2, 3 and 5)."""
import hashlib
import os
import struct
import subprocess

import pytest

from sdsikit.programs import AUTHORITY

AKC_KEY = slice(0x10, 0x70)     # the licensor public key X||Y
SIGNATURE = 96


class Authority:
    def __init__(self, workdir):
        if AUTHORITY is None:
            pytest.fail("SDSI_BUILD_DIR does not hold a built sdsi-authority")
        self.workdir = workdir
        self.dir = os.path.join(workdir, "authority")
        self._run("init", self.dir)
        self.count = 0

    def _run(self, *args):
        proc = subprocess.run([AUTHORITY, *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr

    def _out(self, suffix):
        self.count += 1
        return os.path.join(self.workdir, f"blob{self.count}.{suffix}")

    def akc(self, key_rev=1):
        path = self._out("akc")
        self._run("akc", self.dir, "-o", path, "--key-rev", str(key_rev))
        return path

    def cap(self, ppin, features=("CC02",), license_id=0xABC, revision=1, metered=False,
            previous_ppin=None):
        path = self._out("cap")
        args = ["cap", self.dir, "--ppin", f"{ppin:x}", "--id", f"{license_id:x}",
                "--revision", str(revision), "--type", "metered" if metered else "one-time",
                "-o", path]
        for f in features:
            args += ["--feature", f]
        if previous_ppin is not None:
            args += ["--previous-ppin", f"{previous_ppin:x}"]
        self._run(*args)
        return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def key_image(akc_path):
    """The License Key Image the silicon records: SHA-384 of the licensor key."""
    return hashlib.sha384(read(akc_path)[AKC_KEY]).digest()


def key_revision(akc_path):
    return struct.unpack_from("<I", read(akc_path), 0x0C)[0]


def license_blob(cap_path):
    """What the state certificate stores of a CAP: the blob, no signature."""
    return read(cap_path)[:-SIGNATURE]


def image_as_printed(image):
    """The key image as intel_sdsi prints it (-s): byte 47 first."""
    return "0x" + image[::-1].hex()
