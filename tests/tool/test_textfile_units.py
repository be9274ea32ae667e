# SPDX-License-Identifier: GPL-2.0-only
"""The systemd service and timer that feed node_exporter's textfile
collector: `systemd-analyze verify` accepts them (reading the units from a
temporary directory, touching nothing under /etc), and the service's own
command line, run against emulated sockets, writes one promtool-clean file
per command, and only those."""
import os
import re
import shutil
import subprocess

import pytest

from prom_parse import series
from sdsikit.programs import BUILD_DIR, EMU, TOOL
from tool_runs import assert_clean, emu_missing

UNITS = ("sdsi-textfile.service", "sdsi-textfile.timer")


def unit(name):
    path = os.path.join(BUILD_DIR, "tools", "systemd", name)
    if not os.path.exists(path):
        pytest.fail(f"{path} not built")
    with open(path) as f:
        return f.read()


def setting(text, key):
    return [m for m in re.findall(rf"^{key}=(.*)$", text, re.M)]


def test_systemd_analyze_verify(tmp_path):
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze not found (Debian's systemd package)")
    for name in UNITS:
        (tmp_path / name).write_text(unit(name))
    # Documentation=man:intel_sdsi(1) is checked too: the built page, by MANPATH.
    man1 = tmp_path / "man" / "man1"
    man1.mkdir(parents=True)
    shutil.copy(os.path.join(BUILD_DIR, "tools", "intel_sdsi.1"), man1)
    proc = subprocess.run([exe, "verify", *(str(tmp_path / n) for n in UNITS)],
                          env=dict(os.environ, MANPATH=str(tmp_path / "man")),
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr


def test_units_name_the_installed_tool_and_debian_directory():
    service = unit("sdsi-textfile.service")
    assert setting(service, "Environment")[0] == \
        "SDSI_TEXTFILE_DIR=/var/lib/prometheus/node-exporter"
    (cmd,) = setting(service, "ExecStart")
    assert re.search(r" /\S+/bin/intel_sdsi --all ", cmd), cmd
    assert "Unit=" not in unit("sdsi-textfile.timer")   # it starts its namesake


def service_command(tmp_path):
    """The service's default commands and its command line as systemd runs
    it, with the built tool; and the directory it writes to."""
    service = unit("sdsi-textfile.service")
    (cmd,) = setting(service, "ExecStart")
    (commands,) = [e.split("=", 1)[1] for e in setting(service, "Environment")
                   if e.startswith('"SDSI_TEXTFILE_COMMANDS=')]
    commands = commands.rstrip('"')
    # What systemd runs: it replaces ${NAME} (from Environment=, with the test's
    # directory) and turns $$ into $; the installed tool is the built one.
    env = {"SDSI_TEXTFILE_DIR": str(tmp_path / "textfile"), "SDSI_TEXTFILE_COMMANDS": commands}
    argv = re.sub(r"\$\$|\$\{(\w+)\}", lambda m: env.get(m.group(1), "") if m.group(1) else "$",
                  re.match(r"/bin/sh -c '(.*)'$", cmd).group(1))
    argv = re.sub(r"/\S+/bin/intel_sdsi", TOOL, argv)
    out = tmp_path / "textfile"
    out.mkdir()
    return commands, argv, out


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
@pytest.mark.parametrize("guid, has_meter_current", [("v1", False), ("v2", True)])
def test_service_defaults_work_on_every_part(tmp_path, guid, has_meter_current):
    """Healthy sockets of either generation: the unit succeeds and every
    socket is up; a V1 part (no metering) says it lacks meter_current
    instead of failing every minute (issue 19, finding 9)."""
    commands, argv, out = service_command(tmp_path)
    script = (f"export SDSI_TEXTFILE_DIR={out} SDSI_TEXTFILE_COMMANDS='{commands}'; "
              f"({argv}); echo \"status $?\"")
    proc = subprocess.run([EMU, "run", "--sockets", "2", "--guid", guid, "--",
                           "/bin/sh", "-c", script],
                          capture_output=True, text=True, timeout=300)
    assert "status 0" in proc.stdout, (proc.stdout, proc.stderr)
    names = commands.split()
    assert "meter_current" in names
    for c in names:
        fams = assert_clean((out / f"sdsi_{c}.prom").read_text())
        assert "sdsi_scrape_error" not in fams, c
        ups = list(series(fams, "sdsi_up").values())
        assert ups == [1, 1], (c, ups)
        if c == "info":
            assert "sdsi_data_available" not in fams
            continue
        avail = {dict(labels)["device"]: v
                 for labels, v in series(fams, "sdsi_data_available").items()
                 if dict(labels)["data"] == c}
        want = 0 if c == "meter_current" and not has_meter_current else 1
        assert avail == {f"intel_vsec.sdsi.{n}": want for n in range(2)}, (c, avail)
        if c == "meter_current":
            assert ("sdsi_meter_current_reference_seconds_total" in fams) == \
                has_meter_current


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
def test_service_command_writes_one_clean_file_per_command(tmp_path):
    commands, argv, out = service_command(tmp_path)
    script = (f"export SDSI_TEXTFILE_DIR={out} SDSI_TEXTFILE_COMMANDS='{commands}'; "
              f"{EMU} ctl fault 1 status-timeout >/dev/null; ({argv}); echo \"status $?\"")
    proc = subprocess.run([EMU, "run", "--sockets", "2", "--", "/bin/sh", "-c", script],
                          capture_output=True, text=True, timeout=300)
    # Socket 1 fails: the unit fails (exit 7), every file is written anyway.
    assert "status 7" in proc.stdout, (proc.stdout, proc.stderr)
    names = commands.split()
    assert names == ["info", "state", "meter_current"]
    assert sorted(os.listdir(out)) == sorted(f"sdsi_{c}.prom" for c in names)
    helps, seen = {}, set()
    for c in names:
        fams = assert_clean((out / f"sdsi_{c}.prom").read_text())
        # Side by side in one directory: the families they share have the same
        # HELP and TYPE, and no series twice (node_exporter merges them).
        for name, fam in fams.items():
            assert helps.setdefault(name, (fam["help"], fam["type"])) == \
                (fam["help"], fam["type"])
            for labels in fam["samples"]:
                assert (name, labels) not in seen
                seen.add((name, labels))
        assert ("sdsi_scrape_error", frozenset({("command", c), ("device", "intel_vsec.sdsi.1"),
                                                ("reason", "ETIMEDOUT")})) in seen or c == "info"
    assert sum(1 for name, _ in seen if name == "sdsi_up") == 6
