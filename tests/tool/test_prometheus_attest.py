# SPDX-License-Identifier: GPL-2.0-only
"""--attest verify --format prometheus (issue 28, "Fleet and packages"):
sdsi_attested 1 with check="" on a part that attests, 0 with the first
failed check on one that does not (a fault of the model, a root the owner
did not trust), no sample on a part without attestation (bit 12 clear:
sdsi_data_available{data="attest"} 0, sdsi_up 1, no failure), and an
error metric, not a verdict, where attestation cannot run (busy, no
trusted roots).  Every exposition passes promtool and agrees with the
--json verdicts of the same run, in `sdsi-emu run --authority DIR` with
test_attest.py's roots."""
import json

import pytest

from emu_steps import ctl, t
from prom_parse import series
from test_attest import roots, run, shell, verify  # noqa: F401 (roots: a fixture)
from tool_runs import assert_clean, emu_missing

needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

NOT_ATTESTED, IO, USAGE = 10, 7, 2
PROM = ("--format", "prometheus")


def by_device(fams, name):
    """{device: (value, labels)} of one family."""
    return {dict(k)["device"]: (v, dict(k)) for k, v in series(fams, name).items()}


def socket_labels(info_json):
    """{device: (socket, ppin)} from `--all -i --json`."""
    return {d["device"]: (str(d["socket_id"]), d["ppin"])
            for d in json.loads(info_json)["results"]}


def check_against_json(prom_text, json_text, sockets, lacking=()):
    """Each verdict of the JSON document is the sample of its device, on the
    socket's labels; each error is sdsi_up 0 and a scrape error, no sample,
    but on a part LACKING attestation (no sample, sdsi_up 1)."""
    fams = assert_clean(prom_text)
    docs = {d["device"]: d for d in json.loads(json_text)["results"]}
    attested = by_device(fams, "sdsi_attested")
    ups = {dev: v for dev, (v, _) in by_device(fams, "sdsi_up").items()}
    for dev, d in docs.items():
        if "error" in d:
            assert dev not in attested and ups[dev] == (dev in lacking), (dev, d)
            continue
        socket, ppin = sockets[dev]
        assert attested[dev] == (int(d["attested"]), {
            "device": dev, "socket": socket, "ppin": ppin,
            "check": d["failed_check"] or ""}), (dev, attested[dev], d)
        assert ups[dev] == 1
    return fams


@needs_emu
def test_attested_failed_and_without_bit12_in_one_fleet(roots, tmp_path):  # noqa: F811
    """Socket 0 attests, socket 1's measurement is wrong, socket 2 has no
    attestation: 1, 0 with check="measurement-state", and no sample."""
    out = tmp_path / "attest.prom"
    pem = roots["pem"]
    r = run([t("--all", "-i", "--json"),
             ctl("features", "2", "on-demand,metering"),
             ctl("fault", "1", "attest-measurement", "--count", "0"),
             verify(*PROM, trust=pem, devno=None), verify("--json", trust=pem, devno=None),
             verify(*PROM, "--quiet", trust=pem, devno="2"),
             verify(*PROM, "--output", str(out), trust=pem, devno="1"),
             shell(f"cat {out}")],
            "--authority", roots["authority"], "--sockets", "3")
    sockets = socket_labels(r[0]["out"])
    prom, js, lacking, written, cat = r[3], r[4], r[5], r[6], r[7]
    # The status is the first failure's: socket 1's verdict.
    assert prom["rc"] == js["rc"] == NOT_ATTESTED, prom
    fams = check_against_json(prom["out"], js["out"], sockets, lacking={"intel_vsec.sdsi.2"})
    attested = by_device(fams, "sdsi_attested")
    assert {dev: (v, labels["check"]) for dev, (v, labels) in attested.items()} == {
        "intel_vsec.sdsi.0": (1, ""), "intel_vsec.sdsi.1": (0, "measurement-state")}
    # Socket 2: no verdict, no failure; the JSON, where a person asked, says ENODEV.
    assert "sdsi_scrape_error" not in fams
    assert set(series(fams, "sdsi_up").values()) == {1}
    avail = {dev: v for dev, (v, labels) in by_device(fams, "sdsi_data_available").items()
             if labels["data"] == "attest"}
    assert avail == {"intel_vsec.sdsi.0": 1, "intel_vsec.sdsi.1": 1, "intel_vsec.sdsi.2": 0}
    assert "intel_vsec.sdsi.2: the part lacks this data" in prom["err"]
    assert "intel_vsec.sdsi.1: not attested" in prom["err"]
    assert json.loads(js["out"])["results"][2]["error"]["name"] == "ENODEV"
    # One device without bit 12: exit 0, silent with --quiet.
    assert (lacking["rc"], lacking["err"]) == (0, ""), lacking
    one = assert_clean(lacking["out"])
    assert "sdsi_attested" not in one
    assert series(one, "sdsi_data_available") == {tuple(sorted({
        "device": "intel_vsec.sdsi.2", "socket": sockets["intel_vsec.sdsi.2"][0],
        "ppin": sockets["intel_vsec.sdsi.2"][1], "data": "attest"}.items())): 0}
    # -d 1 --output: the failed verdict is a whole document, written (exit 10).
    assert written["rc"] == NOT_ATTESTED and written["out"] == "", written
    assert cat["rc"] == 0
    fams = assert_clean(cat["out"])
    assert {dev: (v, labels["check"]) for dev, (v, labels) in
            by_device(fams, "sdsi_attested").items()} == {
        "intel_vsec.sdsi.1": (0, "measurement-state")}


@needs_emu
def test_root_the_owner_did_not_trust_is_0_with_check_trust(roots):  # noqa: F811
    r = run([t("--all", "-i", "--json"),
             verify(*PROM, trust=roots["other"], devno=None),
             verify("--json", trust=roots["other"], devno=None)],
            "--authority", roots["authority"], "--sockets", "2")
    assert r[1]["rc"] == r[2]["rc"] == NOT_ATTESTED, r[1]
    fams = check_against_json(r[1]["out"], r[2]["out"], socket_labels(r[0]["out"]))
    assert {dev: (v, labels["check"]) for dev, (v, labels) in
            by_device(fams, "sdsi_attested").items()} == {
        "intel_vsec.sdsi.0": (0, "trust"), "intel_vsec.sdsi.1": (0, "trust")}


@needs_emu
def test_attestation_that_cannot_run_is_a_scrape_error(roots, tmp_path):  # noqa: F811
    """Busy (socket 0), and no trusted roots at the path: no verdict, so no
    sdsi_attested sample, but sdsi_up 0 and the reason; the other socket
    still gets its verdict."""
    missing = str(tmp_path / "no-roots")
    r = run([t("--all", "-i", "--json"),
             ctl("fault", "0", "attest-busy", "--count", "0"),
             verify(*PROM, trust=roots["pem"], devno=None),
             verify("--json", trust=roots["pem"], devno=None),
             ctl("clear", "0"),
             verify(*PROM, trust=missing, devno=None)],
            "--authority", roots["authority"], "--sockets", "2")
    busy, no_roots = r[2], r[5]
    assert busy["rc"] == r[3]["rc"] == IO, busy
    fams = check_against_json(busy["out"], r[3]["out"], socket_labels(r[0]["out"]))
    assert [(dev, v) for dev, (v, _) in by_device(fams, "sdsi_attested").items()] == [
        ("intel_vsec.sdsi.1", 1)]
    assert {dev: labels["reason"] for dev, (_, labels) in
            by_device(fams, "sdsi_scrape_error").items()} == {"intel_vsec.sdsi.0": "EBUSY"}
    assert no_roots["rc"] == USAGE, no_roots
    fams = assert_clean(no_roots["out"])
    assert "sdsi_attested" not in fams
    assert set(series(fams, "sdsi_up").values()) == {0}
    assert missing in no_roots["err"]
    assert {labels["reason"] for _, (_, labels) in
            by_device(fams, "sdsi_scrape_error").items()} == {"ENOENT"}


@pytest.mark.parametrize("args,message", [
    (["-d", "0", "--attest", "get_digests", "--format", "prometheus"],
     "--format prometheus applies to"),
    (["-d", "0", "--attest", "get_certificate", "--format", "prometheus"],
     "--format prometheus applies to"),
    (["-d", "0", "--attest", "get_certificate", "--output", "f"], "--output applies to"),
])
def test_only_verify_has_metrics(tool, args, message):
    r = tool(*args)
    assert r.rc == USAGE and message in r.err and r.out == "", r.err


def test_the_option_help_names_attest_verify(tool):
    help_text = " ".join(tool("--help").out.split())
    assert "with -i, -s, -m, -C or --attest verify and -d or --all" in help_text
