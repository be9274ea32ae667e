# SPDX-License-Identifier: GPL-2.0-only
"""Every file intel_sdsi reads (--file, -a, -c): what is not a regular file
is refused at once, naming the file and its kind (a FIFO must not block);
a registers file is exactly 72 or 80 bytes, or the size of its --guid; a
state certificate's header size is possible.  Each bound on both sides."""
import json
import os
import struct
import subprocess

import pytest

from abi_bytes import registers, state_cert
from sdsikit.layout import GUID_V1, GUID_V2
from sdsikit.programs import TOOL

EXIT_USAGE, EXIT_MALFORMED = 2, 8

# A hang on a FIFO is the failure under test: fail in seconds, not minutes.
FIFO_TIMEOUT = 10


def run_quick(*args, root=None):
    env = dict(os.environ)
    env.pop("SDSI_SYSFS_ROOT", None)
    if root:
        env["SDSI_SYSFS_ROOT"] = root
    return subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=FIFO_TIMEOUT)


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "saved.fifo"
    os.mkfifo(path)
    return path


READS = [["-i"], ["-s"], ["-m"], ["-C"], ["-i", "--guid", "v2"]]


@pytest.mark.parametrize("command", READS, ids=" ".join)
def test_file_fifo_refused_without_blocking(fifo, command):
    r = run_quick("--file", fifo, *command)
    assert r.returncode == EXIT_USAGE, r.stderr
    assert f"{fifo}: not a regular file: it is a FIFO" in r.stderr


@pytest.mark.parametrize("command", READS, ids=" ".join)
def test_file_directory_refused(tmp_path, command):
    r = run_quick("--file", tmp_path, *command)
    assert r.returncode == EXIT_USAGE, r.stderr
    assert f"{tmp_path}: not a regular file: it is a directory" in r.stderr


def test_file_device_refused():
    r = run_quick("--file", "/dev/zero", "-s")
    assert r.returncode == EXIT_USAGE, r.stderr
    assert "/dev/zero: not a regular file: it is a character device" in r.stderr


def test_file_missing_or_unreadable_is_usage(tmp_path):
    r = run_quick("--file", tmp_path / "none.bin", "-s")
    assert r.returncode == EXIT_USAGE
    assert f"{tmp_path / 'none.bin'}: No such file or directory" in r.stderr
    if os.geteuid() != 0:
        locked = tmp_path / "locked.bin"
        locked.write_bytes(registers())
        locked.chmod(0)
        r = run_quick("--file", locked, "-i")
        assert r.returncode == EXIT_USAGE
        assert "Permission denied" in r.stderr


@pytest.mark.parametrize("option", ["-a", "-c"])
@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_blob_file_not_regular_refused(sysfs, tmp_path, fifo, option, kind):
    sysfs.add(0, regs=registers(akc_provisioned=True))
    path = {"fifo": fifo, "directory": tmp_path, "device": "/dev/zero"}[kind]
    what = {"fifo": "a FIFO", "directory": "a directory", "device": "a character device"}[kind]
    r = run_quick("-d", "0", option, path, root=sysfs.root)
    assert r.returncode == EXIT_USAGE, r.stderr
    assert f"{path}: not a regular file: it is {what}" in r.stderr
    for name in ("provision_akc", "provision_cap"):
        assert os.path.getsize(os.path.join(sysfs.root, "intel_vsec.sdsi.0", name)) == 0


def test_text_file_is_not_registers():
    r = run_quick("--file", "/proc/self/status", "-i")
    assert r.returncode == EXIT_MALFORMED, r.stdout
    assert "/proc/self/status: registers:" in r.stderr
    assert "a registers file is 72 bytes (V1) or 80 bytes (V2)" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("size,layout", [(72, 1), (80, 2)])
def test_registers_file_sizes_without_guid(tmp_path, size, layout):
    saved = tmp_path / "regs.bin"
    full = registers(layout=2) + bytes(16)
    for length in (size - 1, size, size + 1):
        saved.write_bytes(full[:length])
        r = run_quick("--file", saved, "-i", "--json")
        if length == size:
            assert r.returncode == 0, r.stderr
            want = GUID_V2 if layout == 2 else GUID_V1
            assert int(json.loads(r.stdout)["guid"], 16) == want
        else:
            assert r.returncode == EXIT_MALFORMED, (length, r.stdout)
            assert f"registers: {length} bytes; a registers file is 72 bytes" in r.stderr


@pytest.mark.parametrize("guid,size", [("v1", 72), ("0x006dd191", 72), ("v2", 80),
                                       ("0xF210D9EF", 80)])
def test_registers_file_size_follows_guid(tmp_path, guid, size):
    saved = tmp_path / "regs.bin"
    full = registers(layout=2) + bytes(16)
    for length in (size - 1, size, size + 1):
        saved.write_bytes(full[:length])
        r = run_quick("--file", saved, "-i", "--guid", guid)
        if length == size:
            assert r.returncode == 0, r.stderr
        else:
            assert r.returncode == EXIT_MALFORMED, (length, r.stdout)
            assert f"{saved}: {length} bytes; the registers of GUID" in r.stderr
            assert f"are {size} bytes" in r.stderr
    # The other layout's size is not this GUID's.
    saved.write_bytes(full[:152 - size])
    assert run_quick("--file", saved, "-i", "--guid", guid).returncode == EXIT_MALFORMED


def test_guid_decides_the_layout(tmp_path):
    saved = tmp_path / "regs.bin"
    saved.write_bytes(registers(layout=1, capid1=0x1122334455667788))
    r = run_quick("--file", saved, "-i", "--guid", "v1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["guid"] == "0x006dd191"


@pytest.mark.parametrize("args,message", [
    (["--guid", "v3"], "--guid: 'v3' is not v1, v2, 0x006dd191 or 0xf210d9ef"),
    (["--guid", "0x1234"], "--guid: '0x1234' is not"),
    (["--guid", "0x"], "--guid: '0x' is not"),
    (["--guid", "0x-6dd191"], "--guid: '0x-6dd191' is not"),
    (["--guid", "6dd191"], "--guid: '6dd191' is not"),
    (["--guid", "0xf210d9efz"], "--guid: '0xf210d9efz' is not"),
])
def test_guid_values(tmp_path, args, message):
    saved = tmp_path / "regs.bin"
    saved.write_bytes(registers())
    r = run_quick("--file", saved, "-i", *args)
    assert r.returncode == EXIT_USAGE
    assert message in r.stderr


@pytest.mark.parametrize("args", [["-d", "0", "-i"], ["--all", "-i"], ["--file", "x", "-s"]])
def test_guid_only_with_file_and_info(args):
    r = run_quick(*args, "--guid", "v2")
    assert r.returncode == EXIT_USAGE
    assert "--guid applies to --file with -i only" in r.stderr


def with_header_size(cert, dwords):
    return cert[:8] + struct.pack("<I", dwords) + cert[12:]


def test_state_header_size_bounds(tmp_path):
    saved = tmp_path / "state.bin"
    cert = state_cert([b"", b""])          # two size words: header of 8 dwords
    assert len(cert) % 4 == 0
    cases = [(8, 0), (7, EXIT_MALFORMED), (len(cert) // 4, 0),
             (len(cert) // 4 + 1, EXIT_MALFORMED), (0, EXIT_MALFORMED),
             (0xFFFFFFFF, EXIT_MALFORMED)]
    for dwords, status in cases:
        saved.write_bytes(with_header_size(cert, dwords))
        r = run_quick("--file", saved, "-s", "--json")
        assert r.returncode == status, (dwords, r.stdout, r.stderr)
        if status:
            assert f"{saved}: state certificate: header size {dwords} dwords" in r.stderr
            assert json.loads(r.stdout)["error"]["name"] == "EBADMSG"
    saved.write_bytes(with_header_size(cert, 0xFFFFFFFF))
    r = run_quick("--file", saved, "-s")
    assert "header size 4294967295 dwords (17179869180 bytes) runs past the end" in r.stderr
    assert "Header Size" not in r.stdout


# An attribute that is not a regular file is refused unread: a failed read (7).
@pytest.mark.parametrize("attr,status", [("guid", 7), ("registers", 7), ("state_certificate", 7)])
def test_sysfs_tree_fifo_does_not_block(sysfs, attr, status):
    """A tree given by --sysfs-root is input too: a FIFO there must not hang."""
    sysfs.add(0, state=state_cert([]))
    path = os.path.join(sysfs.root, "intel_vsec.sdsi.0", attr)
    os.unlink(path)
    os.mkfifo(path)
    r = run_quick("-d", "0", "-s", root=sysfs.root)
    assert r.returncode == status, r.stderr
    assert f"{path}: not a regular file: it is a FIFO" in r.stderr


def test_sysfs_tree_fifo_provision_file_does_not_block(sysfs, tmp_path):
    sysfs.add(0, regs=registers(akc_provisioned=True))
    path = os.path.join(sysfs.root, "intel_vsec.sdsi.0", "provision_cap")
    os.unlink(path)
    os.mkfifo(path)
    cap = tmp_path / "foreign.cap"
    cap.write_bytes(bytes(range(100)))
    r = run_quick("-d", "0", "-c", cap, root=sysfs.root)
    assert r.returncode == 7, r.stderr
    assert "provision_cap" in r.stderr
