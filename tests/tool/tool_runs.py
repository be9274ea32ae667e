# SPDX-License-Identifier: GPL-2.0-only
"""Running the programs under test as the intel_sdsi tests do: intel_sdsi
itself (run_tool), promtool on what it printed, and what the emulator
tests lack on this machine (emu_missing)."""
import json
import os
import shutil
import subprocess

import pytest

from prom_parse import parse
from sdsikit.programs import EMU, TOOL


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


def promtool_line():
    if PROMTOOL is None:
        return f"promtool: none ({PROMTOOL_FROM})"
    return f"promtool: {PROMTOOL} (from {PROMTOOL_FROM})"


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


def emu_missing():
    """What the emulator tests lack here, or None.  They skip then, except
    under CI=true, where tests/conftest.py makes such a skip a failure."""
    missing = [what for what, absent in (
        ("sdsi-emu in SDSI_BUILD_DIR", EMU is None), ("root", os.geteuid() != 0),
        ("/dev/fuse", not os.path.exists("/dev/fuse")),
        ("fusermount3", shutil.which("fusermount3") is None)) if absent]
    return "needs " + ", ".join(missing) if missing else None
