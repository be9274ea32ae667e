# SPDX-License-Identifier: GPL-2.0-only
"""One form for what every program says about itself (issue 19): the four
programs print --version as "NAME VERSION", the project's one version, and
--help within 80 columns, every subcommand's help included."""
import re
import subprocess

import pytest

from sdsikit.programs import AUTHORITY, EMU, TOOL
from sdsikit.programs import built as _built

SHMEM = _built("shmem/sdsi-shmem")
PROGRAMS = {"intel_sdsi": TOOL, "sdsi-authority": AUTHORITY, "sdsi-emu": EMU,
            "sdsi-shmem": SHMEM}
WIDTH = 80


def run(path, *args):
    assert path, "SDSI_BUILD_DIR lacks this program (scripts/run-tool-tests.sh builds it)"
    return subprocess.run([path, *args], capture_output=True, text=True, timeout=60)


def project_version():
    with open(__file__.rsplit("/tests/", 1)[0] + "/meson.build") as f:
        return re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_version_is_name_space_version(name):
    r = run(PROGRAMS[name], "--version")
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == f"{name} {project_version()}\n"


HELPS = [("intel_sdsi", ()), ("sdsi-emu", ()), ("sdsi-shmem", ()), ("sdsi-authority", ())] + [
    ("sdsi-authority", (cmd,)) for cmd in ("init", "akc", "cap", "inspect")]


@pytest.mark.parametrize("name,sub", HELPS, ids=[" ".join((n, *s)) for n, s in HELPS])
def test_help_fits_in_80_columns(name, sub):
    r = run(PROGRAMS[name], *sub, "--help")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) > 5
    long = [line for line in r.stdout.splitlines() if len(line) > WIDTH]
    assert long == []


def complete(program, words):
    """COMPREPLY of program's generated completion for the words typed so far."""
    script = run(PROGRAMS[program], "--dump-bash-completion").stdout
    function = "_" + program.replace("-", "_")
    line = " ".join(f"'{w}'" for w in words)
    out = subprocess.run(["bash", "-c", f"{script}\nCOMP_WORDS=({line}); "
                          f"COMP_CWORD={len(words) - 1}; {function}; "
                          'printf "%s\\n" "${COMPREPLY[@]}"'],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


FAULT_KINDS = {"oob-owner", "no-rdy", "status-timeout", "status-failure", "bad-packet-size",
               "no-eom", "too-many-packets", "rdy-latency", "owner-delay",
               "attest-signature", "attest-chain", "attest-measurement", "attest-busy",
               "msg-size"}


def test_completion_offers_the_fault_kinds():
    for cmd in ("fault", "clear"):
        assert complete("sdsi-emu", ["sdsi-emu", "ctl", cmd, "0", ""]) == FAULT_KINDS
        assert complete("sdsi-emu", ["sdsi-emu", "ctl", "--timeout", "5", cmd, "1", "o"]) == {
            "oob-owner", "owner-delay"}
    # Elsewhere the commands and options, as before.
    assert complete("sdsi-emu", ["sdsi-emu", "ctl", "f"]) == {"fault", "features"}
    assert complete("sdsi-emu", ["sdsi-emu", "ctl", "fault", ""]) >= {"status", "--ctl"}


def test_completion_offers_the_license_types_of_cap():
    assert complete("sdsi-authority", ["sdsi-authority", "cap", "--type", ""]) == {
        "one-time", "metered"}
    assert complete("sdsi-authority", ["sdsi-authority", "cap", "--type", "m"]) == {"metered"}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_help_has_usage_and_exit_status(name):
    """One form: "Usage: NAME ..." first, and an exit status section."""
    r = run(PROGRAMS[name], "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"Usage: {name} "), r.stdout.splitlines()[0]
    assert re.search(r"^Exit status\b", r.stdout, re.M)


def test_shmem_help_and_page_list_the_same_exit_statuses():
    r = run(SHMEM, "--help")
    codes = [int(c) for c in re.findall(r"^  (\d)  ", r.stdout.split("\nExit status", 1)[1], re.M)]
    with open(__file__.rsplit("/tests/", 1)[0] + "/man/sdsi-shmem.1") as f:
        section = f.read().split(".SH EXIT STATUS", 1)[1].split(".SH ", 1)[0]
    assert codes == [int(c) for c in re.findall(r"^\.TP\n\.B (\d)$", section, re.M)]
    assert codes == [0, 1, 2, 5]
