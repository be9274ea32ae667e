# SPDX-License-Identifier: GPL-2.0-only
"""The systemd service and timer that feed node_exporter's textfile
collector: `systemd-analyze verify` accepts them (reading the units from a
temporary directory, touching nothing under /etc), `systemd-analyze
security` rates the service at most 4.0, and the service's own command
line, run as the unit runs it (its user, its one capability) against
emulated sockets, writes one promtool-clean file per command, and only
those, and nothing through a link the directory's owner planted (issue 25,
item 6)."""
import contextlib
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from prom_parse import series
from sdsikit.hostile_user import hostile_user
from sdsikit.programs import BUILD_DIR, EMU, TOOL
from tool_runs import assert_clean, emu_missing

UNITS = ("sdsi-textfile.service", "sdsi-textfile.timer")
# Debian's prometheus-node-exporter: the collector's directory and its owner.
DEBIAN_DIR = "/var/lib/prometheus/node-exporter"
DEBIAN_OWNER = "prometheus"
# The most `systemd-analyze security` may rate the service (issue 25).
EXPOSURE_MAX = 4.0


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


def exposure(unit_name, text, tmp_path):
    """`systemd-analyze security --offline=yes` on the unit file: the
    overall exposure it prints (0.0 safest, 10.0 least safe)."""
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze not found (Debian's systemd package)")
    path = tmp_path / unit_name
    path.write_text(text)
    proc = subprocess.run([exe, "security", "--offline=yes", str(path)],
                          capture_output=True, text=True, timeout=120)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", proc.stdout)
    assert found, (proc.returncode, proc.stdout, proc.stderr)
    return float(found.group(1)), proc.stdout


def test_service_exposure_at_most_4(tmp_path):
    score, report = exposure("sdsi-textfile.service", unit("sdsi-textfile.service"), tmp_path)
    # docs/packages.md gives the figure: 0.8 with systemd 252.
    assert score <= EXPOSURE_MAX, report


def test_service_runs_as_the_directory_owner_with_one_capability():
    """Not root: the user who owns Debian's collector directory (so a link
    it plants there leads only where it may write anyway), with only
    CAP_DAC_READ_SEARCH to read the 0400 sysfs attributes, and the file
    system read-only but for that directory."""
    service = unit("sdsi-textfile.service")
    assert setting(service, "User") == [DEBIAN_OWNER]
    assert setting(service, "Group") == [DEBIAN_OWNER]
    assert setting(service, "CapabilityBoundingSet") == ["CAP_DAC_READ_SEARCH"]
    assert setting(service, "AmbientCapabilities") == ["CAP_DAC_READ_SEARCH"]
    assert setting(service, "NoNewPrivileges") == ["yes"]
    assert setting(service, "ProtectSystem") == ["strict"]
    assert setting(service, "ReadWritePaths") == ["-" + DEBIAN_DIR]
    for key in ("PrivateDevices", "ProtectKernelTunables", "ProtectKernelModules",
                "RestrictNamespaces", "PrivateNetwork"):
        assert setting(service, key) == ["yes"], key
    assert setting(service, "SystemCallFilter")[0] == "@system-service"


def as_the_unit(service, owner):
    """The command prefix that runs a command as the unit would: its User=
    (the test's OWNER stands for the directory's owner, prometheus), its
    capabilities and no new privileges; root with every capability when the
    unit names no user."""
    prefix = []
    if setting(service, "User"):
        prefix = ["setpriv", f"--reuid={owner.uid}", f"--regid={owner.gid}", "--clear-groups"]
        caps = ",".join("+" + c.lower().removeprefix("cap_")
                        for line in setting(service, "AmbientCapabilities")
                        for c in line.split())
        if caps:
            prefix += [f"--inh-caps=-all,{caps}", f"--ambient-caps=-all,{caps}"]
    bounding = [c for line in setting(service, "CapabilityBoundingSet") for c in line.split()]
    if bounding:
        if not prefix:
            prefix = ["setpriv"]
        prefix.append("--bounding-set=-all," + ",".join(
            "+" + c.lower().removeprefix("cap_") for c in bounding))
    if setting(service, "NoNewPrivileges") == ["yes"] and prefix:
        prefix.append("--no-new-privs")
    return prefix


@contextlib.contextmanager
def collector_dir():
    """Debian's layout in a fresh directory under /tmp (root's, 0755):
    prometheus/node-exporter, both owned by a user the test makes, who
    stands for the prometheus user; and a directory of root's beside it.
    Yields (owner, textfile dir, root's dir); all removed afterwards."""
    with hostile_user() as owner:
        base = tempfile.mkdtemp(prefix="sdsi-textfile.")
        try:
            os.chmod(base, 0o755)
            textfile = os.path.join(base, "prometheus", "node-exporter")
            os.makedirs(textfile)
            owner.give(os.path.join(base, "prometheus"))
            roots = os.path.join(base, "root-only")
            os.mkdir(roots, 0o755)
            yield owner, textfile, roots
        finally:
            shutil.rmtree(base)


def test_units_name_the_installed_tool_and_debian_directory():
    service = unit("sdsi-textfile.service")
    assert setting(service, "Environment")[0] == "SDSI_TEXTFILE_DIR=" + DEBIAN_DIR
    (cmd,) = setting(service, "ExecStart")
    assert re.search(r" /\S+/bin/intel_sdsi --all ", cmd), cmd
    assert "Unit=" not in unit("sdsi-textfile.timer")   # it starts its namesake


def environment(service, name):
    """The value the unit gives NAME: its last Environment= assignment, as
    systemd takes it (a drop-in's comes after the unit's); "" when none."""
    values = [e.strip('"').split("=", 1)[1] for e in setting(service, "Environment")
              if e.strip('"').startswith(name + "=")]
    return values[-1] if values else ""


def service_command(out, service):
    """The unit SERVICE's commands and its command line as systemd runs
    it, with the built tool, writing to the directory OUT; and OUT."""
    (cmd,) = setting(service, "ExecStart")
    commands = environment(service, "SDSI_TEXTFILE_COMMANDS")
    # What systemd runs: it replaces ${NAME} (from Environment=, with the test's
    # directory) and turns $$ into $; the installed tool is the built one.
    env = {"SDSI_TEXTFILE_DIR": str(out), "SDSI_TEXTFILE_COMMANDS": commands}
    argv = re.sub(r"\$\$|\$\{(\w+)\}", lambda m: env.get(m.group(1), "") if m.group(1) else "$",
                  re.match(r"/bin/sh -c '(.*)'$", cmd).group(1))
    argv = re.sub(r"/\S+/bin/intel_sdsi", TOOL, argv)
    return commands, argv, out


def run_as_the_unit(owner, out, emu_args, before="", service=None):
    """The service's command line run as the unit runs it (as_the_unit)
    inside `sdsi-emu run EMU_ARGS`, after the shell commands BEFORE (run as
    root); stdout says "status N".  SERVICE: the unit's text, with its
    drop-ins after it (default: the unit as built)."""
    service = service or unit("sdsi-textfile.service")
    commands, argv, out = service_command(out, service)
    umask = (setting(service, "UMask") or ["0022"])[0]
    trust = environment(service, "SDSI_TEXTFILE_TRUST")
    script = (f"umask {umask}; export SDSI_TEXTFILE_DIR={out} "
              f"SDSI_TEXTFILE_COMMANDS='{commands}' SDSI_TEXTFILE_TRUST='{trust}'; "
              f"({argv}); echo \"status $?\"")
    proc = subprocess.run([EMU, "run", *emu_args, "--", "/bin/sh", "-c",
                           before + 'exec "$@"', "sh", *as_the_unit(service, owner),
                           "/bin/sh", "-c", script],
                          capture_output=True, text=True, timeout=300)
    return commands, out, proc


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
@pytest.mark.parametrize("guid, has_meter_current", [("v1", False), ("v2", True)])
def test_service_defaults_work_on_every_part(tmp_path, guid, has_meter_current):
    """Healthy sockets of either generation: the unit succeeds and every
    socket is up; a V1 part (no metering) says it lacks meter_current
    instead of failing every minute (issue 19, finding 9)."""
    with collector_dir() as (owner, textfile, _):
        commands, out, proc = run_as_the_unit(owner, textfile, ["--sockets", "2", "--guid", guid])
        assert "status 0" in proc.stdout, (proc.stdout, proc.stderr)
        files = {c: open(os.path.join(out, f"sdsi_{c}.prom")).read() for c in commands.split()}
    names = commands.split()
    assert "meter_current" in names
    for c in names:
        fams = assert_clean(files[c])
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
    with collector_dir() as (owner, textfile, _):
        commands, out, proc = run_as_the_unit(
            owner, textfile, ["--sockets", "2"],
            before=f"{EMU} ctl fault 1 status-timeout >/dev/null; ")
        # Socket 1 fails: the unit fails (exit 7), every file is written anyway.
        assert "status 7" in proc.stdout, (proc.stdout, proc.stderr)
        names = commands.split()
        assert names == ["info", "state", "meter_current"]
        assert sorted(os.listdir(out)) == sorted(f"sdsi_{c}.prom" for c in names)
        for c in names:
            st = os.stat(os.path.join(out, f"sdsi_{c}.prom"))
            assert (st.st_uid, st.st_gid) == (owner.uid, owner.gid), c
        files = {c: open(os.path.join(out, f"sdsi_{c}.prom")).read() for c in names}
    helps, seen = {}, set()
    for c in names:
        fams = assert_clean(files[c])
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


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
def test_links_planted_by_the_directory_owner_lead_nowhere(tmp_path):
    """Issue 25, item 6: the prometheus user owns the collector directory
    and its parent, so it can put a link where the service writes: a file
    name made a link to a file of root's, and the directory itself swapped
    for a link to a directory of root's.  The service, run as the unit runs
    it, writes through neither: the writer refuses the link (exit 5), the
    swapped directory is not root's to write in as that user, root's
    directory gains nothing and root's file keeps its bytes."""
    with collector_dir() as (owner, textfile, roots):
        precious = os.path.join(roots, "precious")
        with open(precious, "w") as f:
            f.write("root's own\n")
        name = os.path.join(textfile, "sdsi_info.prom")
        owner.run(["ln", "-s", precious, name], check=True)
        _, out, proc = run_as_the_unit(owner, textfile, ["--sockets", "1"])
        assert "status 5" in proc.stdout, (proc.stdout, proc.stderr)
        assert f"--output {name}: a symbolic link, not followed" in proc.stderr, proc.stderr
        assert open(precious).read() == "root's own\n"
        assert os.readlink(name) == precious
        os.unlink(name)
        # The directory itself: swapped, by its owner, for a link to root's.
        swapped = os.path.join(os.path.dirname(textfile), "node-exporter.real")
        owner.run(["mv", textfile, swapped], check=True)
        owner.run(["ln", "-s", roots, textfile], check=True)
        _, out, proc = run_as_the_unit(owner, textfile, ["--sockets", "1"])
        assert "status 0" not in proc.stdout, (proc.stdout, proc.stderr)
        assert sorted(os.listdir(roots)) == ["precious"], proc.stderr
        assert open(precious).read() == "root's own\n"


@pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
def test_the_writer_as_root_refuses_the_owners_directory():
    """The writer on its own, run as root (as the unit did before): a
    directory that another user owns, on the way to FILE, is refused
    before anything is read or written, with or without a link there."""
    with collector_dir() as (owner, textfile, roots):
        swapped = os.path.join(os.path.dirname(textfile), "node-exporter.real")
        for step in ("as made", "swapped"):
            if step == "swapped":
                owner.run(["mv", textfile, swapped], check=True)
                owner.run(["ln", "-s", roots, textfile], check=True)
            out = os.path.join(textfile, "sdsi_info.prom")
            proc = subprocess.run([EMU, "run", "--sockets", "1", "--", TOOL, "--all", "--info",
                                   "--format", "prometheus", "--output", out],
                                  capture_output=True, text=True, timeout=300)
            assert proc.returncode == 5, (step, proc.returncode, proc.stderr)
            assert "prometheus is owned by uid" in proc.stderr, (step, proc.stderr)
            assert os.listdir(roots) == [], step
            assert not os.path.exists(os.path.join(swapped if step == "swapped" else textfile,
                                                   "sdsi_info.prom")), step
