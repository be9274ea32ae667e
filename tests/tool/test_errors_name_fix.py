# SPDX-License-Identifier: GPL-2.0-only
"""Errors that name their fix: where intel_sdsi looked when it found no
device and what to check; a --sysfs-root that is no directory (exit 2);
the three directories --sysfs-root accepts; --all naming an unbound
driver as -d N does; EPERM under the in-band lock named as the lock; and
sdsi-emu --authority given a file instead of the directory it wants."""
import subprocess

import pytest

from emu_steps import emu
from sdsikit.programs import EMU
from tool_runs import emu_missing

NONE = "No On Demand devices found."


def test_no_device_names_the_directory_and_the_layout(tool, tmp_path):
    empty = str(tmp_path)
    for r in (tool("-l", "--sysfs-root", empty), tool("-l", root=empty),
              tool("--all", "-i", "--sysfs-root", empty)):
        assert r.rc == 0 and r.out == "", r.err
        assert f"{NONE} Searched {empty}: no intel_vsec.sdsi.N in it" in r.err, r.err
        assert "sdsi-emu mount" in r.err


def test_quiet_silences_the_note(tool, tmp_path):
    r = tool("-l", "-q", "--sysfs-root", str(tmp_path))
    assert (r.rc, r.out, r.err) == (0, "", "")
    r = tool("-l", "-q")
    assert (r.rc, r.err) == (0, "")


def _driver_in_proc_modules():
    try:
        with open("/proc/modules") as f:
            return any(line.split(" ", 1)[0] == "intel_sdsi" for line in f)
    except FileNotFoundError:
        return None


def test_default_root_says_what_to_check(tool):
    """The host's own /sys: the note follows /proc/modules (a host with On
    Demand hardware lists its devices and says nothing)."""
    r = tool("-l")
    assert r.rc == 0
    if r.out:
        assert r.err == ""
        return
    head = f"{NONE} Searched /sys/bus/auxiliary/devices: "
    loaded = _driver_in_proc_modules()
    if loaded is None:
        assert head + "is the intel_sdsi driver built in or loaded, and Intel On Demand " \
            "(SDSi) enabled in the BIOS setup?" in r.err, r.err
    elif loaded:
        assert head + "intel_sdsi is loaded but has no device: is Intel On Demand (SDSi) " \
            "enabled in the BIOS setup" in r.err, r.err
    else:
        assert head + "the intel_sdsi driver is not loaded (not in /proc/modules): " \
            "modprobe intel_sdsi" in r.err, r.err


@pytest.mark.parametrize("how", ["option", "env"])
def test_missing_sysfs_root_is_a_usage_error(tool, tmp_path, how):
    missing, plain = tmp_path / "missing", tmp_path / "file"
    plain.write_text("x")
    for path, reason in ((missing, "No such file or directory"), (plain, "Not a directory")):
        for args in (("-l",), ("--all", "-s"), ("-d", "0", "-i")):
            if how == "option":
                r = tool(*args, "--sysfs-root", str(path))
                source = "--sysfs-root"
            else:
                r = tool(*args, root=str(path))
                source = "SDSI_SYSFS_ROOT"
            assert r.rc == 2, (args, r.err)
            assert f"{source} {path}: {reason}: give the directory" in r.err, r.err


@pytest.mark.parametrize("below", ["", "devices", "bus/auxiliary/devices"])
def test_sysfs_root_takes_three_directories(tool, tmp_path, sysfs, below):
    """DIR the devices directory itself, DIR/devices (the bus directory, as
    sdsi-emu mount DIR serves it), DIR/bus/auxiliary/devices (a sysfs)."""
    top = tmp_path / "top"
    devices = top / below if below else top
    devices.mkdir(parents=True)
    sysfs.root = str(devices)
    sysfs.add(0)
    sysfs.add(3)
    for r in (tool("-l", "--sysfs-root", str(top)), tool("-l", root=str(top))):
        assert r.rc == 0 and r.out.split() == ["intel_vsec.sdsi.0", "intel_vsec.sdsi.3"], r.err
    r = tool("-d", "3", "-i", "--sysfs-root", str(top))
    assert r.rc == 0 and "Socket information for device intel_vsec.sdsi.3" in r.out, r.err


needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))


@needs_emu
def test_all_names_an_unbound_driver():
    r = emu([{"ctl": ["unbind", "1"]}, {"tool": ["--all", "-i"]},
             {"tool": ["-d", "1", "-i"]}], "--sockets", "2")
    assert r[0]["rc"] == 0, r[0]
    for one in r[1:]:
        assert one["rc"] == 3, one
        assert "intel_vsec.sdsi.1: no driver is bound to it (unbound?)" in one["err"], one
    assert "Socket information for device intel_vsec.sdsi.0" in r[1]["out"]


@needs_emu
def test_in_band_lock_named_as_the_cause(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 2)
    r = emu([{"tool": ["-d", "0", "-a", str(blob)]}, {"ctl": ["iblock", "0", "off"]},
             {"tool": ["-d", "0", "-a", str(blob)]}], "--iblock")
    assert r[0]["rc"] == 4, r[0]
    assert ("AKC refused (EPERM): the BIOS has set the in-band lock (IBLOCK), since the "
            "registers show On Demand enabled") in r[0]["err"], r[0]["err"]
    # Unlocked, the write reaches the silicon (which trusts no key: EIO).
    assert r[2]["rc"] == 6 and "IBLOCK" not in r[2]["err"], r[2]


@needs_emu
def test_authority_wants_the_directory(tmp_path):
    key = tmp_path / "root.pub"
    key.write_text("not used\n")
    for given, reason in ((key, "not a directory"), (tmp_path / "none", "No such file"),
                          (tmp_path, "no root.pub in it")):
        if given == tmp_path:
            key.unlink()
        done = subprocess.run([EMU, "mount", "--authority", str(given), str(tmp_path)],
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 2, done
        assert f"--authority {given}: {reason}" in done.stderr, done.stderr
        assert "sdsi-authority init" in done.stderr and "--root-key FILE" in done.stderr
