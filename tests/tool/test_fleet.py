# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi --all on several emulated sockets at once (issue 13): reads and
provisioning run concurrently, one thread per socket, and are printed in
device order; --all -a AKC and --all -c DIR match CAPs to sockets by PPIN,
with real keys (sdsi-emu run --authority).  Time is never asserted here:
bench/bench_fleet.sh measures it."""
import json
import os
import shutil

import pytest

from authority import read
from emu_steps import ctl, t
from fleet_steps import (NAMES, PPINS, fleet, hex64, info, licenses, per_device, platform,
                         results, spent, staggered)
from sdsikit import schemas
from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

def test_reads_printed_in_device_order_whatever_order_they_finish(authority):
    r = platform(authority, staggered() + [
        t("--all", "-s", "--json"), t("--all", "-i", "--json"), t("--all", "-s"),
        t("--all", "-C", "--json")])
    assert [x["rc"] for x in r] == [0] * len(r), r
    for res in r[-4], r[-3], r[-1]:
        assert [name for name, _ in per_device(res)] == NAMES
    assert [o["ppin"] for _, o in per_device(r[-3])] == [hex64(p) for p in PPINS]
    headers = [line for line in r[-2]["out"].splitlines() if "for device" in line]
    assert headers == [f"State certificate for device {n}" for n in NAMES]


def test_a_failing_socket_is_reported_in_its_place_and_sets_the_status(authority):
    r = platform(authority, staggered() + [ctl("fault", "1", "status-failure"),
                                           t("--all", "-s", "--json"), t("--all", "-s")])
    for res in r[-2:]:
        assert res["rc"] == 7, res                 # the first failure: an I/O error
    devices = per_device(r[-2])
    assert [name for name, _ in devices] == NAMES
    assert devices[1][1]["error"]["name"] == "EIO"
    assert all("error" not in o for n, o in devices if n != NAMES[1])
    assert "intel_vsec.sdsi.1/state_certificate" in r[-1]["err"]
    assert r[-1]["out"].count("State certificate for device") == 3


def test_provision_a_fleet_then_again_unchanged(authority, caps):
    akc = authority.akc()
    r = platform(authority, staggered() + [
        t("--all", "-a", akc, "--json"), t("--all", "-c", caps, "--json")]
        + [info(n) for n in range(4)]
        + [t("--all", "-a", akc, "--json"), t("--all", "-c", caps, "--json"),
           t("--all", "-c", caps)]
        + [info(n) for n in range(4)] + [t("-d", "1", "-s", "--json")])
    r = r[len(staggered()):]
    assert [x["rc"] for x in r] == [0] * len(r), r
    akc_run = fleet(r[0])
    assert [(s["device"], s["result"]) for s in akc_run["results"]] == \
        [(n, "provisioned") for n in NAMES]
    report = fleet(r[1])
    assert report["blob"] == "cap" and report["dry_run"] is False
    assert results(report) == [
        (NAMES[0], "provisioned", [("a-socket0.cap", "written")]),
        (NAMES[1], "provisioned", [("b-socket1.cap", "written")]),
        (NAMES[2], "provisioned", [("c-socket2.cap", "written")]),
        (NAMES[3], "provisioned", [("d-socket3.cap", "written")])]
    assert [s["ppin"] for s in report["results"]] == [hex64(p) for p in PPINS]
    files = {os.path.basename(f["file"]): f for f in report["files"]}
    assert files["b-socket1.cap"]["used_by"] == [NAMES[1]]
    assert files["b-socket1.cap"]["ppin"] == hex64(PPINS[1])
    assert report["summary"] == {"sockets": 4, "provisioned": 4, "planned": 0,
                                 "unchanged": 0, "no_match": 0, "failed": 0}
    after_first = [spent(x) for x in r[2:6]]
    assert after_first == [(0, 0, 2)] * 4

    # Second run: everything unchanged, nothing written, nothing spent.
    assert [s["result"] for s in fleet(r[6])["results"]] == ["unchanged"] * 4
    again = fleet(r[7])
    assert results(again)[1] == (NAMES[1], "unchanged", [("b-socket1.cap", "unchanged")])
    assert [s["result"] for s in again["results"]] == ["unchanged"] * 4
    text = r[8]["out"]
    assert "intel_vsec.sdsi.1 (PPIN 0x0000000000f1ee71): unchanged, already provisioned" in text
    assert "Not used" not in text
    assert "4 sockets: 0 provisioned, 4 unchanged, 0 without a matching CAP, 0 failed" in text
    assert [spent(x) for x in r[9:13]] == after_first
    assert licenses(r[13]) == [(hex64(0xB1), 1, True)]


def test_dry_run_shows_the_plan_and_writes_nothing(authority, caps):
    akc = authority.akc()
    r = platform(authority, [t("--all", "-a", akc)] + [info(n) for n in range(4)]
                 + [t("--all", "-s", "--json"), t("--all", "-c", caps, "--dry-run", "--json"),
                    t("--all", "-c", caps, "--dry-run")]
                 + [info(n) for n in range(4)] + [t("--all", "-s", "--json")])
    assert [x["rc"] for x in r] == [0] * len(r), r
    plan = fleet(r[6])
    assert plan["dry_run"] is True
    assert results(plan) == [
        (NAMES[0], "planned", [("a-socket0.cap", "planned")]),
        (NAMES[1], "planned", [("b-socket1.cap", "planned")]),
        (NAMES[2], "planned", [("c-socket2.cap", "planned")]),
        (NAMES[3], "planned", [("d-socket3.cap", "planned")])]
    # Each check is shown; the plan counts the updates left.
    updates = [[c["detail"] for c in b["checks"] if c["name"] == "updates"][0]
               for b in plan["results"][1]["blobs"]]
    assert updates == ["3 of 4 update(s) available"]
    assert "Dry run: nothing is written" in r[7]["out"]
    assert "c-socket2.cap: CAP licence 0x00000000000000c2 revision 1 (CC02): would be written" in r[7]["out"]
    assert [spent(x) for x in r[1:5]] == [spent(x) for x in r[8:12]] == [(0, 0, 3)] * 4
    assert r[5]["out"] == r[12]["out"]             # the state certificates, byte for byte


def test_one_failing_socket_does_not_stop_the_others(authority, caps, tmp_path):
    """Socket 1 is locked by the BIOS (in-band lock): its CAP fails with
    EPERM; sockets 0 and 2 are provisioned; the exit status is the
    failure's (4).  Without an AKC, socket 3's CAP is refused by its own
    pre-flight checks."""
    akc = authority.akc()
    r = platform(authority, [t("-d", "0", "-a", akc), t("-d", "1", "-a", akc),
                             t("-d", "2", "-a", akc), ctl("iblock", "1", "on"),
                             t("--all", "-c", caps, "--json"), t("--all", "-c", caps),
                             info(0), info(1), info(3)])
    assert [x["rc"] for x in r[:4]] == [0] * 4, r
    for res in r[4:6]:
        assert res["rc"] == 4, res
    report = fleet(r[4])
    assert results(report)[:3] == [
        (NAMES[0], "provisioned", [("a-socket0.cap", "written")]),
        (NAMES[1], "failed", [("b-socket1.cap", "failed")]),
        (NAMES[2], "provisioned", [("c-socket2.cap", "written")])]
    assert report["results"][1]["error"]["name"] == "EPERM"
    assert report["results"][1]["blobs"][0]["error"]["name"] == "EPERM"
    assert results(report)[3] == (NAMES[3], "failed", [("d-socket3.cap", "refused")])
    assert report["results"][3]["error"]["message"].startswith("intel_vsec.sdsi.3: ")
    assert "akc_present" in [c["name"] for c in report["results"][3]["blobs"][0]["checks"]
                             if c["result"] == "fail"]
    assert report["summary"]["failed"] == 2 and report["summary"]["provisioned"] == 2
    assert "intel_vsec.sdsi.1/provision_cap" in r[5]["err"]
    assert "b-socket1.cap: CAP licence 0x00000000000000b1 revision 1 (SGX1): failed" in r[5]["out"]
    assert spent(r[7]) == (0, 0, 3) and spent(r[8]) == (0, 0, 4)   # nothing spent there


def test_two_caps_for_one_cpu_write_none_there(authority, tmp_path):
    """Two revisions of a licence and a copy of a CAP for one CPU: which one
    is meant is unclear, and each refused write spends an attempt, so none
    is written there; the socket fails naming them (exit 5), the other
    socket gets its CAP."""
    d = tmp_path / "same"
    d.mkdir()
    newer = authority.cap(PPINS[0], license_id=0x77, revision=2)
    shutil.copy(newer, d / "1-rev2.cap")
    shutil.copy(newer, d / "2-rev2-copy.cap")
    shutil.copy(authority.cap(PPINS[0], license_id=0x77, revision=1), d / "3-rev1.cap")
    shutil.copy(authority.cap(PPINS[1], license_id=0x78), d / "4-socket1.cap")
    akc = authority.akc()
    r = platform(authority, [t("--all", "-a", akc), t("--all", "-c", str(d), "--json"),
                             info(0), t("-d", "0", "-s", "--json"), info(1)], sockets=2)
    assert [x["rc"] for x in r] == [0, 5, 0, 0, 0], r
    report = fleet(r[1])
    assert results(report) == [
        (NAMES[0], "failed", [("1-rev2.cap", "skipped"), ("2-rev2-copy.cap", "skipped"),
                              ("3-rev1.cap", "skipped")]),
        (NAMES[1], "provisioned", [("4-socket1.cap", "written")])]
    error = report["results"][0]["error"]
    assert error["name"] == "EEXIST"
    assert ("3 CAPs are for it (1-rev2.cap, 2-rev2-copy.cap, 3-rev1.cap): one CAP per socket"
            in error["message"])
    assert spent(r[2]) == (0, 0, 3) and spent(r[4]) == (0, 0, 2)
    assert licenses(r[3]) == []


def test_one_cap_file_goes_to_its_socket_only(authority):
    akc = authority.akc()
    cap = authority.cap(PPINS[2], license_id=0x2C)
    r = platform(authority, [t("--all", "-a", akc), t("--all", "-c", cap, "--json")], sockets=3)
    assert [x["rc"] for x in r] == [0, 0], r
    assert results(fleet(r[1])) == [(NAMES[0], "no_match", []), (NAMES[1], "no_match", []),
                                  (NAMES[2], "provisioned", [(os.path.basename(cap), "written")])]


def test_what_cannot_be_used(authority, tmp_path):
    """A missing source or one unusable file given by name stops before any
    socket is touched, with that file's exit status; in a directory, each
    entry that is not a usable CAP is reported with its name and reason, and
    the run, having provisioned what it could, exits 5 (issue 24: nothing
    silently unused); an empty directory exits 5 too."""
    akc = authority.akc()
    cap = authority.cap(PPINS[0], license_id=0x5A)
    truncated = tmp_path / "truncated.cap"
    truncated.write_bytes(read(cap)[:100])
    d = tmp_path / "mixed"
    d.mkdir()
    shutil.copy(akc, d / "key.akc")
    shutil.copy(truncated, d / "truncated.cap")
    (d / "sub").mkdir()
    shutil.copy(cap, d / "z.cap")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = platform(authority, [
        t("--all", "-c", str(tmp_path / "missing")), t("--all", "-c", str(truncated), "--json"),
        t("--all", "-a", cap), t("--all", "-c", akc),
        t("--all", "-a", akc), t("--all", "-c", str(d), "--json"),
        t("--all", "-c", str(empty), "--json"), info(0)], sockets=2)
    assert [x["rc"] for x in r] == [2, 8, 5, 5, 0, 5, 5, 0], r
    assert "missing: No such file or directory" in r[0]["err"]
    err = schemas.check("error.json", r[1]["out"])["error"]
    assert err["name"] == "EBADMSG" and "truncated.cap" in err["message"]
    assert "a CAP, not an AKC: use --all -c" in r[2]["err"]
    assert "an AKC, not a CAP: use --all -a" in r[3]["err"]
    report = fleet(r[5])
    files = {os.path.basename(f["file"]): f for f in report["files"]}
    assert sorted(files) == ["key.akc", "sub", "truncated.cap", "z.cap"]
    assert "use --all -a" in files["key.akc"]["error"]["message"]
    assert "malformed CAP" in files["truncated.cap"]["error"]["message"]
    assert "not a regular file: it is a directory" in files["sub"]["error"]["message"]
    assert [f for f in files if not files[f]["usable"]] == ["key.akc", "sub", "truncated.cap"]
    for name in ("key.akc", "sub", "truncated.cap"):
        assert f"{name}" in r[5]["err"]
    assert "intel_vsec.sdsi.1 (PPIN 0x0000000000f1ee71): no CAP in " in r[5]["err"]
    assert "empty: no CAP to provision" in r[6]["err"]
    assert results(report) == [(NAMES[0], "provisioned", [("z.cap", "written")]),
                               (NAMES[1], "no_match", [])]
    assert fleet(r[6])["files"] == [] and \
        [s["result"] for s in fleet(r[6])["results"]] == ["no_match", "no_match"]
    assert spent(r[7]) == (0, 0, 2)


def test_the_schema_rejects_a_fleet_document_that_drifts(authority, caps):
    """fleet.json is strict: each of these edits of a real document fails it."""
    akc = authority.akc()
    r = platform(authority, [t("--all", "-a", akc), ctl("iblock", "1", "on"),
                             t("--all", "-c", caps, "--json")])
    good = fleet(r[2])
    assert good["results"][1]["result"] == "failed"

    def drift(edit):
        d = json.loads(r[2]["out"])
        edit(d)
        return schemas.errors("fleet.json", d)

    assert not drift(lambda d: None)
    assert drift(lambda d: d.pop("schema_version"))
    assert drift(lambda d: d["results"][0].pop("device"))
    assert drift(lambda d: d["results"][0].update(ppin="0xf1ee70"))       # not 16 digits
    assert drift(lambda d: d["results"][1].update(error=None))           # failed, no error
    assert drift(lambda d: d["results"][0].update(error=d["results"][1]["error"]))
    assert drift(lambda d: d["results"][0]["blobs"][0].update(result="done"))
    assert drift(lambda d: d["files"][0].update(used_by=["intel_vsec.sdsi.0"], usable=False))
    assert drift(lambda d: d["summary"].update(extra=1))
    assert drift(lambda d: d.update(blob="CAP"))


def test_a_socket_whose_registers_cannot_be_read(authority):
    """An unbound driver leaves the device directory without its files: that
    socket fails with no PPIN, in its place; the other is provisioned."""
    akc = authority.akc()
    r = platform(authority, [ctl("unbind", "1"), t("--all", "-a", akc, "--json"),
                             t("--all", "-a", akc)], sockets=3)
    assert r[0]["rc"] == 0, r[0]
    for res in r[1:]:
        assert res["rc"] == 3, res                 # no such device or attribute
    report = fleet(r[1])
    assert [(s["device"], s["ppin"], s["result"]) for s in report["results"]] == [
        (NAMES[0], hex64(PPINS[0]), "provisioned"), (NAMES[1], None, "failed"),
        (NAMES[2], hex64(PPINS[2]), "provisioned")]
    assert report["results"][1]["blobs"] == []
    # Named as -d 1 names it: the driver is unbound, not a guid file missing.
    assert ("intel_vsec.sdsi.1: no driver is bound to it"
            in report["results"][1]["error"]["message"])
    assert "intel_vsec.sdsi.1: failed: " in r[2]["out"]
