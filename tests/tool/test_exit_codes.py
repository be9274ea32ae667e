# SPDX-License-Identifier: GPL-2.0-only
"""One exit-status table for intel_sdsi, sdsi-authority and sdsi-emu
(docs/exit-codes.md): the page and both --help outputs list the same codes
in the same words, and each class of failure exits with its code in each
program that can meet it."""
import os
import re
import socket
import subprocess
import threading
import time

import pytest

from abi_bytes import registers, state_cert
from emu_steps import emu
from sdsikit.programs import AUTHORITY, EMU, TOOL
from tool_runs import emu_missing

OK, INTERNAL, USAGE, NO_DEVICE, PERMISSION = 0, 1, 2, 3, 4
REFUSED, REJECTED, IO, MALFORMED, STATE_UNKNOWN = 5, 6, 7, 8, 9
NOT_ATTESTED = 10

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "exit-codes.md")


def run(binary, *args, env=None, stdout=subprocess.PIPE, timeout=20):
    environ = dict(os.environ)
    environ.pop("SDSI_SYSFS_ROOT", None)
    environ.pop("SDSI_EMU_CTL", None)
    environ.update(env or {})
    proc = subprocess.run([binary, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, env=environ, timeout=timeout)
    assert "Sanitizer" not in proc.stderr and "runtime error" not in proc.stderr, proc.stderr
    return proc


def need_emulator():
    """CI runs as root with /dev/fuse: there, a missing emulator is a failure."""
    missing = emu_missing()
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but sdsi-emu cannot run: {missing}")
    pytest.skip(missing)


def table_of(text):
    return [(int(code), meaning.strip()) for code, meaning in
            re.findall(r"^\|\s*(\d+)\s*\|\s*(.+?)\s*\|\s*$", text, re.M)]


def help_table(text):
    """The exit status table of a --help, each meaning's wrapped lines
    (indented under it, within 80 columns) joined again."""
    tail = text.split("Exit status", 1)[1]
    return [(int(code), " ".join(meaning.split())) for code, meaning in
            re.findall(r"^  (\d\d |\d  )(\S.*(?:\n {5}\S.*)*)$", tail, re.M)]


def test_one_table_documented_once():
    with open(DOC, encoding="utf-8") as f:
        documented = table_of(f.read())
    assert [code for code, _ in documented] == list(range(11))
    assert help_table(run(TOOL, "--help").stdout) == documented
    assert help_table(run(AUTHORITY, "--help").stdout) == documented
    man = run(TOOL, "--dump-man").stdout
    assert man.count(".SH EXIT STATUS") == 1
    for page in ("sdsi-authority.1", "sdsi-emu.1"):
        with open(os.path.join(os.path.dirname(DOC), "..", "man", page), encoding="utf-8") as f:
            assert "docs/exit\\-codes.md" in f.read(), page
    emu_help = run(EMU, "--help").stdout
    assert "docs/exit-codes.md" in emu_help


# intel_sdsi ---------------------------------------------------------------

@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "state.bin"
    path.write_bytes(state_cert([]))
    return path


def test_intel_sdsi_classes(sysfs, saved, tmp_path, authority):  # noqa: F811
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    malformed = tmp_path / "bad.bin"
    malformed.write_bytes(b"\xff" * 30)
    sysfs.add(0, regs=registers(features=0))            # On Demand disabled
    sysfs.add(1)
    with open(os.path.join(sysfs.root, "intel_vsec.sdsi.1", "registers"), "wb"):
        pass                                             # a read that returns nothing
    # An AKC provisioned, but no state certificate to tell what else is.
    sysfs.add(2, regs=registers(ppin=0x77, akc_provisioned=True))
    env = {"SDSI_SYSFS_ROOT": sysfs.root}
    cases = [
        (OK, ["-s", "--file", saved]),
        (USAGE, ["--frobnicate"]),
        (USAGE, ["-s", "--file", tmp_path / "missing.bin"]),
        (USAGE, ["-s", "--file", fifo]),
        (USAGE, ["-s", "--file", tmp_path]),
        (NO_DEVICE, ["-d", "7", "-i"]),
        (REFUSED, ["-d", "0", "-s"]),
        (IO, ["-d", "1", "-i"]),
        (MALFORMED, ["-s", "--file", malformed]),
        (MALFORMED, ["-i", "--file", "/proc/self/status"]),
        (STATE_UNKNOWN, ["-d", "2", "-c", authority.cap(0x77)]),
    ]
    for status, args in cases:
        r = run(TOOL, *args, env=env)
        assert r.returncode == status, (args, r.stderr)
    with open("/dev/full", "w") as full:
        r = run(TOOL, "-s", "--file", saved, stdout=full)
    assert r.returncode == INTERNAL, r.stderr


def test_intel_sdsi_classes_on_the_emulator(tmp_path):
    need_emulator()
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(200)))
    steps = [{"tool": ["-d", "0", "-a", str(blob)]}]
    for emu_args, status in [(["--iblock"], PERMISSION), ([], REJECTED)]:
        r = emu(steps, *emu_args, timeout=120)
        assert r[0]["rc"] == status, (emu_args, r)


# sdsi-authority -----------------------------------------------------------

def test_authority_classes(tmp_path):
    auth = tmp_path / "auth"
    assert run(AUTHORITY, "init", auth).returncode == OK
    other = tmp_path / "other"
    assert run(AUTHORITY, "init", other).returncode == OK
    akc = tmp_path / "x.akc"
    assert run(AUTHORITY, "akc", auth, "-o", akc).returncode == OK
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x01" * 100)
    cases = [
        (OK, ["inspect", akc, "--dir", auth]),
        (USAGE, ["akc", auth]),
        (USAGE, ["inspect", tmp_path / "missing.akc"]),
        (USAGE, ["inspect", fifo]),
        (USAGE, ["inspect", tmp_path]),
        (REFUSED, ["init", auth]),
        (REJECTED, ["inspect", akc, "--dir", other]),
        (IO, ["akc", auth, "-o", tmp_path / "no" / "dir" / "x.akc"]),
        (MALFORMED, ["inspect", garbage]),
    ]
    for status, args in cases:
        r = run(AUTHORITY, *args)
        assert r.returncode == status, (args, r.stderr)
    with open("/dev/full", "w") as full:
        r = run(AUTHORITY, "inspect", akc, stdout=full)
    assert r.returncode == INTERNAL, r.stderr


# sdsi-emu -----------------------------------------------------------------

def silent_server(path):
    """A unix socket that accepts one client and closes without answering."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def serve():
        conn, _ = server.accept()
        conn.recv(1024)
        conn.close()
        server.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def test_emu_classes_without_fuse(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    fifo = tmp_path / "root.pub"
    os.mkfifo(fifo)
    garbage = tmp_path / "garbage.pub"
    garbage.write_text("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
    cases = [
        (USAGE, ["run", "--sockets", "0", "--", "true"]),
        (USAGE, ["mount", "--root-key", tmp_path / "missing.pub", mnt]),
        (USAGE, ["mount", "--root-key", fifo, mnt]),
        (USAGE, ["mount", "--authority", tmp_path / "none", mnt]),
        (NO_DEVICE, ["ctl", "--ctl", tmp_path / "nobody.sock", "status"]),
        (MALFORMED, ["mount", "--root-key", garbage, mnt]),
    ]
    for status, args in cases:
        r = run(EMU, *args, timeout=10)
        assert r.returncode == status, (args, r.stderr)
    assert os.listdir(mnt) == []

    sock = tmp_path / "silent.sock"
    thread = silent_server(sock)
    r = run(EMU, "ctl", "--ctl", sock, "status")
    thread.join(5)
    assert r.returncode == IO and "no answer" in r.stderr, r.stderr


def test_emu_run_not_root(tmp_path):
    marker = tmp_path / "ran"
    if os.geteuid() == 0:
        os.chmod(tmp_path, 0o777)
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", EMU]
    else:
        argv = [EMU]
    r = subprocess.run([*argv, "run", "--", "touch", str(marker)], capture_output=True,
                       text=True, timeout=30, env=dict(os.environ, TMPDIR="/tmp"))
    assert r.returncode == PERMISSION, r.stderr
    assert "must be started as root" in r.stderr
    assert not marker.exists()


def test_emu_classes_with_a_running_emulator(tmp_path):
    need_emulator()
    state, mnt, mnt2 = tmp_path / "state", tmp_path / "mnt", tmp_path / "mnt2"
    mnt.mkdir()
    mnt2.mkdir()
    proc = subprocess.Popen([EMU, "mount", "--state", str(state), str(mnt)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (mnt / "devices").exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.05)
        ctl = ["ctl", "--state", state]
        cases = [
            (OK, [*ctl, "status"]),
            (USAGE, [*ctl, "fault", "0", "no-such-fault"]),       # EINVAL
            (NO_DEVICE, [*ctl, "power-cycle", "5"]),              # ENODEV
            (REFUSED, ["mount", "--state", state, mnt2]),         # the state is in use
        ]
        for status, args in cases:
            r = run(EMU, *args)
            assert r.returncode == status, (args, r.stderr)
        with open("/dev/full", "w") as full:
            r = run(EMU, *ctl, "status", stdout=full)
        assert r.returncode == INTERNAL, r.stderr
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
