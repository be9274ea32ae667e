# SPDX-License-Identifier: GPL-2.0-only
"""--output FILE: the output replaces FILE whole (temporary file in the same
directory, fsync, rename), or FILE is left as it was; no temporary file is
left behind, even by a run killed while it waits on the mailbox."""
import os
import stat
import subprocess

import pytest

from abi_bytes import registers, state_cert
from sdsikit.keys import key_encodings
from sdsikit.programs import EMU, TOOL
from tool_runs import emu_missing

OLD = "old complete content\n"


@pytest.fixture
def target(tmp_path):
    d = tmp_path / "textfile"
    d.mkdir()
    f = d / "sdsi_state.prom"
    f.write_text(OLD)
    return f


def listing(path):
    return sorted(os.listdir(path))


def test_replaces_the_file_with_exactly_the_output(tool, sysfs, target):
    sysfs.add(0, state=state_cert([]))
    sysfs.add(1, regs=registers(features=0))
    plain = tool("--all", "-s", "--format", "prometheus", root=sysfs.root)
    old_mask = os.umask(0o022)
    try:
        r = tool("--all", "-s", "--format", "prometheus", "--output", str(target),
                 root=sysfs.root)
    finally:
        os.umask(old_mask)
    # Device 1 has On Demand disabled: refused, exit 5, and the file is written.
    assert r.rc == plain.rc == 5, r.err
    assert r.out == ""
    assert target.read_text() == plain.out
    assert 'sdsi_scrape_error{command="state",device="intel_vsec.sdsi.1",reason="EPERM"} 1' \
        in plain.out
    assert listing(target.parent) == [target.name]
    # Readable by node_exporter's user: 0666 less the umask, not mkstemp's 0600.
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_every_format_and_list(tool, sysfs, target):
    sysfs.add(0, state=state_cert([]))
    for args in (["-d", "0", "-s", "--json"], ["-d", "0", "-s"], ["-l"]):
        plain = tool(*args, root=sysfs.root)
        r = tool(*args, "--output", str(target), root=sysfs.root)
        assert r.rc == 0 and r.out == "" and target.read_text() == plain.out, args
    assert listing(target.parent) == [target.name]


def test_relative_path(tool, sysfs, tmp_path):
    sysfs.add(0, state=state_cert([]))
    proc = subprocess.run([TOOL, "-d", "0", "-s", "--output", "x.txt"], cwd=tmp_path,
                          env=dict(os.environ, SDSI_SYSFS_ROOT=sysfs.root),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "x.txt").read_text().startswith("\nState certificate")


@pytest.mark.parametrize("where,reason", [
    ("missing/f.prom", "{d}/missing: No such file or directory"),
    ("isdir", "not a regular file: it is a directory; refusing to replace it"),
    ("isdir/", "names a directory, not a file"),
    ("old.prom/f.prom", "{d}/old.prom is not a directory"),
])
def test_unwritable_target_is_a_clear_error_before_any_read(tool, sysfs, tmp_path, where,
                                                            reason):
    """Exit 7 (a file that cannot be written), FILE named, nothing created;
    the device is not read (a missing device would be exit 3)."""
    (tmp_path / "isdir").mkdir()
    (tmp_path / "old.prom").write_text(OLD)
    before = listing(tmp_path)
    path = f"{tmp_path}/{where}"
    r = tool("-d", "9", "-s", "--format", "prometheus", "--output", path, root=sysfs.root)
    assert r.rc == 7, r.err
    assert f"--output {path}" in r.err and reason.format(d=tmp_path) in r.err
    assert r.out == ""
    assert listing(tmp_path) == before and listing(tmp_path / "isdir") == []
    assert (tmp_path / "old.prom").read_text() == OLD


def test_usage_error_leaves_the_file(tool, target):
    r = tool("-d", "0", "--format", "prometheus", "-l", "--output", str(target))
    assert r.rc == 2
    assert target.read_text() == OLD and listing(target.parent) == [target.name]


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
def test_killed_mid_run_leaves_the_old_file_and_no_temporary(target):
    """Both mailboxes take 10 s to grant ownership, so each read waits
    through the driver's five acquire attempts 500 ms apart (about 2.5 s).
    The run is killed (SIGKILL, no cleanup) once it holds a state
    certificate open, that is while it reads and after it checked the
    directory.  Waiting for that, not for a fixed time, keeps the kill
    inside the read however loaded the machine is."""
    script = ('"$3" ctl fault 0 owner-delay --param 10000000 >/dev/null && '
              '"$3" ctl fault 1 owner-delay --param 10000000 >/dev/null && '
              '{ "$1" --all -s --format prometheus --output "$2" & pid=$!; '
              'n=0; until ls -l /proc/$pid/fd 2>/dev/null | grep -q state_certificate; do '
              'n=$((n + 1)); [ $n -lt 2000 ] || { echo "never opened"; break; }; sleep 0.01; done; '
              'kill -9 $pid; wait $pid; echo "status $?"; }')
    proc = subprocess.run([EMU, "run", "--sockets", "2", "--",
                           "/bin/sh", "-c", script, "sh", TOOL, str(target), EMU],
                          capture_output=True, text=True, timeout=120)
    assert "never opened" not in proc.stdout, (proc.stdout, proc.stderr)
    assert "status 137" in proc.stdout, (proc.stdout, proc.stderr)
    assert target.read_text() == OLD
    assert listing(target.parent) == [target.name]


# ---- Issue 19, finding 6: only a regular file or a missing name is replaced -------------

NAME_MAX = 255


def char_device(tmp_path):
    """A character device of our own where root may make one, so that a
    regression replaces it, never the host's /dev/null."""
    node = tmp_path / "null"
    if node.exists():
        return str(node)
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return "/dev/null"
    return str(node)


@pytest.mark.parametrize("what,kind", [
    ("fifo", "a FIFO"), ("chardev", "a character device"),
])
def test_special_files_are_refused_and_keep_what_they_are(tool, sysfs, tmp_path, what, kind):
    sysfs.add(0, state=state_cert([]))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    target = {"fifo": str(fifo), "chardev": char_device(tmp_path)}.get(what)
    if target is None:
        target = str(tmp_path / "link")
        os.symlink({"symlink to a fifo": str(fifo), "symlink to a directory": str(tmp_path / "dir"),
                    "symlink to a chardev": char_device(tmp_path)}[what], target)
    mode = os.lstat(target).st_mode
    r = tool("-d", "0", "-s", "--json", "--output", target, root=sysfs.root)
    assert r.rc == 7, r.err
    assert f"--output {target}: not a regular file: it is {kind}; refusing to replace it" in r.err
    err = r.json()["error"]
    assert err["name"] == ("EISDIR" if kind == "a directory" else "ENXIO")
    assert os.lstat(target).st_mode == mode
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]


def test_a_private_key_is_never_replaced(tool, sysfs, tmp_path):
    sysfs.add(0, state=state_cert([]))
    key = tmp_path / "licensor.key"
    pem = (b"-----BEGIN PRIVATE KEY-----\nMIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDA=\n"
           b"-----END PRIVATE KEY-----\n")
    key.write_bytes(pem)
    r = tool("-d", "0", "-s", "--output", str(key), root=sysfs.root)
    assert r.rc == 5, r.err
    assert f"--output {key}: holds a key (PEM or DER); refusing to replace it" in r.err
    assert key.read_bytes() == pem


@pytest.mark.parametrize("form", ["pem-public", "der-private", "der-public"])
def test_a_public_or_der_key_is_never_replaced(tool, sysfs, tmp_path, form):
    """A licensor.pub is a trust anchor; a DER key is a key (exit 5)."""
    sysfs.add(0, state=state_cert([]))
    key = tmp_path / "licensor.pub"
    key.write_bytes(key_encodings()[form])
    before = key.read_bytes()
    r = tool("-d", "0", "-i", "--output", str(key), root=sysfs.root)
    assert r.rc == 5, r.err
    assert f"--output {key}: holds a key (PEM or DER); refusing to replace it" in r.err
    assert key.read_bytes() == before


def test_a_name_of_name_max_bytes_fits_and_one_more_does_not(tool, sysfs, tmp_path):
    """The temporary file is named after FILE; with FILE's name at NAME_MAX
    it must be cut, not overflow (ENAMETOOLONG from mkstemp)."""
    sysfs.add(0, state=state_cert([]))
    out = tmp_path / "out"
    out.mkdir()
    fits = out / ("s" * NAME_MAX)
    r = tool("-d", "0", "-s", "--output", str(fits), root=sysfs.root)
    assert r.rc == 0, r.err
    assert fits.read_text().startswith("\nState certificate")
    fits.write_text(OLD)        # replacing one works as well
    assert tool("-d", "0", "-s", "--output", str(fits), root=sysfs.root).rc == 0
    assert fits.read_text() != OLD and listing(out) == [fits.name]
    r = tool("-d", "0", "-s", "--json", "--output", str(out / ("s" * (NAME_MAX + 1))),
             root=sysfs.root)
    assert r.rc == 7
    assert r.json()["error"]["name"] == "ENAMETOOLONG"
    assert listing(out) == [fits.name]
