# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures for the intel_sdsi tests: the built binaries, a sysfs-shaped tree
in a temporary directory, and registers and certificates written byte by
byte from the layouts of docs/interface.md (§2.7, §3.1, §3.2)."""
import json
import os
import shutil
import struct
import subprocess

import pytest

# The GUIDs from the one Python copy of the layouts (checked against
# include/sdsi/ by a meson test).
import sdsikit.layout as L
from authority import Authority
from fleet_steps import PPINS
from prom_parse import parse
from sdsikit.layout import GUID_V1, GUID_V2  # noqa: F401
# The programs under test, as the test modules import them from here.
from sdsikit.programs import AUTHORITY, BUILD_DIR, EMU, TOOL  # noqa: F401
from sdsikit.programs import built as _built  # noqa: F401




def _promtool():
    """The promtool the tests run and where it was found: SDSI_PROMTOOL
    (scripts/run-tool-tests.sh sets it to the one scripts/fetch-promtool.sh
    unpacked), else promtool on PATH.  (None, why) when there is none."""
    exe = os.environ.get("SDSI_PROMTOOL")
    if exe:
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return os.path.abspath(exe), "SDSI_PROMTOOL"
        return None, f"SDSI_PROMTOOL={exe} is not an executable file"
    exe = shutil.which("promtool")
    if exe:
        return exe, "PATH"
    return None, ("SDSI_PROMTOOL is not set and no promtool is on PATH: "
                  "scripts/run-tool-tests.sh sets it (scripts/fetch-promtool.sh)")


PROMTOOL, PROMTOOL_FROM = _promtool()


def _promtool_line():
    if PROMTOOL is None:
        return f"promtool: none ({PROMTOOL_FROM})"
    return f"promtool: {PROMTOOL} (from {PROMTOOL_FROM})"


# Which promtool judged the --format prometheus output, in every run's log:
# in the header, and (as -q hides the header) before the closing line.
def promtool(text):
    """promtool check metrics on text: its exit status and what it said."""
    # A missing promtool fails, never skips: the format would go unchecked.
    if PROMTOOL is None:
        pytest.fail(f"no promtool: {PROMTOOL_FROM}")
    proc = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout + proc.stderr


def assert_clean(text):
    """TEXT passes promtool; returns it parsed (prom_parse)."""
    rc, said = promtool(text)
    assert (rc, said) == (0, ""), f"promtool: {said}\n{text}"
    return parse(text)


def pytest_report_header(config):
    return _promtool_line()


def pytest_terminal_summary(terminalreporter):
    if terminalreporter.verbosity < 0:
        terminalreporter.write_line(_promtool_line())


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


@pytest.fixture
def sysfs(tmp_path):
    root = tmp_path / "devices"
    root.mkdir()
    return FakeSysfs(str(root))


class Result:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        return json.loads(self.out)


def run_tool(*args, root=None, env=None):
    if TOOL is None:
        pytest.fail("SDSI_BUILD_DIR does not hold a built tools/intel_sdsi")
    environ = dict(os.environ)
    environ.pop("SDSI_SYSFS_ROOT", None)
    if root is not None:
        environ["SDSI_SYSFS_ROOT"] = root
    environ.update(env or {})
    proc = subprocess.run([TOOL, *args], capture_output=True, text=True, env=environ,
                          timeout=60)
    return Result(proc)


@pytest.fixture
def tool():
    return run_tool


@pytest.fixture(scope="module")
def authority(tmp_path_factory):
    """A directory of sdsi-authority's, one per test module."""
    return Authority(str(tmp_path_factory.mktemp("authority")))


@pytest.fixture
def caps(authority, tmp_path):
    """A CAP directory: one CAP for socket 0, two for socket 1 (file name
    order: b then c), none for socket 2 or 3, one for a PPIN no socket has,
    and a file that is not a CAP."""
    d = tmp_path / "caps"
    d.mkdir()
    shutil.copy(authority.cap(PPINS[0], licence_id=0xA0), d / "a-socket0.cap")
    shutil.copy(authority.cap(PPINS[1], licence_id=0xB1, features=("SGX1",)),
                d / "b-socket1.cap")
    shutil.copy(authority.cap(PPINS[1], licence_id=0xC1, metered=True), d / "c-socket1.cap")
    shutil.copy(authority.cap(0xDEAD, licence_id=0xD0), d / "d-elsewhere.cap")
    (d / "notes.txt").write_text("the CAPs of rack 7\n")
    return str(d)


def emu_missing():
    """What the emulator tests lack here, or None.  They skip then, except
    under CI=true, where tests/conftest.py makes such a skip a failure."""
    missing = [what for what, absent in (
        ("sdsi-emu in SDSI_BUILD_DIR", EMU is None), ("root", os.geteuid() != 0),
        ("/dev/fuse", not os.path.exists("/dev/fuse")),
        ("fusermount3", shutil.which("fusermount3") is None)) if absent]
    return "needs " + ", ".join(missing) if missing else None
