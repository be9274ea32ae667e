# SPDX-License-Identifier: GPL-2.0-only
"""Attestation in sdsi-textfile.service (issue 28, "Fleet and packages"):
the drop-in docs/prometheus.md gives, applied to the unit as systemd
applies a drop-in (its lines after the unit's), passes `systemd-analyze
verify` and rates at most 4.0 in `systemd-analyze security`; the unit's
command line with it, as the unit's user with its capabilities, writes
sdsi_attest.prom beside the other files against emulated sockets: 1 for
the part that attests, 0 with the check for the one that fails, no sample
for the one without bit 12, the unit failed with exit 10.  Without the
drop-in's access, `attest` cannot open /dev/isdsiN: EACCES, no verdict."""
import os
import re
import shutil
import subprocess

import pytest

from prom_parse import series
from sdsikit.programs import EMU
from test_attest import roots  # noqa: F401 (a fixture)
from test_textfile_units import (EXPOSURE_MAX, collector_dir, exposure, run_as_the_unit,
                                 setting, unit)
from tool_runs import assert_clean, emu_missing

needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))
DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "prometheus.md")
MARKER = "<!-- the attestation drop-in: tests/tool/test_textfile_attest.py applies it -->"
DOC_TRUST = "/etc/sdsi/attestation-roots"


def dropin():
    """The drop-in of docs/prometheus.md: the ini block after MARKER."""
    with open(DOC) as f:
        text = f.read()
    assert MARKER in text, f"{DOC}: no {MARKER}"
    block = re.match(r"\n```ini\n(.*?)\n```\n", text.split(MARKER, 1)[1], re.S)
    assert block, f"{DOC}: no ini block after the marker"
    return block.group(1) + "\n"


def with_dropin(trust):
    """The unit as systemd reads it with the drop-in, trusting TRUST."""
    text = dropin()
    assert f"SDSI_TEXTFILE_TRUST={DOC_TRUST}\n" in text
    return unit("sdsi-textfile.service") + "\n" + text.replace(DOC_TRUST, trust)


def test_dropin_verifies_and_rates_at_most_4(tmp_path):
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze not found (Debian's systemd package)")
    service = with_dropin(DOC_TRUST)
    # The one capability more, and the devices allowed, are the drop-in's.
    assert setting(service, "CapabilityBoundingSet") == ["CAP_DAC_READ_SEARCH",
                                                         "CAP_DAC_OVERRIDE"]
    assert setting(service, "DevicePolicy") == ["closed"]
    assert setting(service, "ReadOnlyPaths") == ["/dev"]
    allowed = setting(service, "DeviceAllow")
    assert allowed and all(re.fullmatch(r"/dev/isdsi\d+ rw", d) for d in allowed), allowed
    path = tmp_path / "sdsi-textfile.service"
    path.write_text(service)
    man1 = tmp_path / "man" / "man1"
    man1.mkdir(parents=True)
    shutil.copy(os.path.join(os.environ["SDSI_BUILD_DIR"], "tools", "intel_sdsi.1"), man1)
    proc = subprocess.run([exe, "verify", str(path)],
                          env=dict(os.environ, MANPATH=str(tmp_path / "man")),
                          capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    (tmp_path / "rated").mkdir()
    score, report = exposure("sdsi-textfile.service", service, tmp_path / "rated")
    assert score <= EXPOSURE_MAX, report


def readable_copy(pem, textfile):
    """PEM where the unit's user can read it: beside the collector's
    directory, in the test's base directory (root's, 0755)."""
    copy = os.path.join(os.path.dirname(os.path.dirname(textfile)), "roots.pem")
    shutil.copy(pem, copy)
    os.chmod(copy, 0o644)
    return copy


def attested(fams):
    return {dict(k)["device"]: (v, dict(k)["check"])
            for k, v in series(fams, "sdsi_attested").items()}


@needs_emu
def test_service_with_the_dropin_attests_every_part(roots):  # noqa: F811
    with collector_dir() as (owner, textfile, _):
        service = with_dropin(readable_copy(roots["pem"], textfile))
        commands, out, proc = run_as_the_unit(
            owner, textfile, ["--authority", roots["authority"], "--sockets", "3"],
            before=f"{EMU} ctl features 2 on-demand,metering >/dev/null && "
                   f"{EMU} ctl fault 1 attest-measurement --count 0 >/dev/null; ",
            service=service)
        # Socket 1 fails attestation: the unit fails with 10, every file written.
        assert "status 10" in proc.stdout, (proc.stdout, proc.stderr)
        assert commands.split() == ["info", "state", "meter_current", "attest"]
        assert sorted(os.listdir(out)) == sorted(f"sdsi_{c}.prom" for c in commands.split())
        with open(os.path.join(out, "sdsi_attest.prom")) as f:
            fams = assert_clean(f.read())
    assert attested(fams) == {"intel_vsec.sdsi.0": (1, ""),
                              "intel_vsec.sdsi.1": (0, "measurement-state")}
    assert "sdsi_scrape_error" not in fams
    assert set(series(fams, "sdsi_up").values()) == {1}
    assert {dict(k)["device"]: v for k, v in series(fams, "sdsi_data_available").items()} == {
        "intel_vsec.sdsi.0": 1, "intel_vsec.sdsi.1": 1, "intel_vsec.sdsi.2": 0}


@needs_emu
def test_service_without_the_dropin_cannot_open_the_transport(roots):  # noqa: F811
    with collector_dir() as (owner, textfile, _):
        service = unit("sdsi-textfile.service") + (
            '\n[Service]\nEnvironment="SDSI_TEXTFILE_COMMANDS=attest"\n'
            f"Environment=SDSI_TEXTFILE_TRUST={readable_copy(roots['pem'], textfile)}\n")
        _, out, proc = run_as_the_unit(
            owner, textfile, ["--authority", roots["authority"], "--sockets", "2"],
            service=service)
        assert "status 4" in proc.stdout, (proc.stdout, proc.stderr)
        with open(os.path.join(out, "sdsi_attest.prom")) as f:
            fams = assert_clean(f.read())
    assert "sdsi_attested" not in fams
    assert {dict(k)["device"]: dict(k)["reason"] for k in series(fams, "sdsi_scrape_error")} == {
        "intel_vsec.sdsi.0": "EACCES", "intel_vsec.sdsi.1": "EACCES"}
