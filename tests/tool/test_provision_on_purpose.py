# SPDX-License-Identifier: GPL-2.0-only
"""Provisioning spends an attempt only on purpose (issue 19), on emulated
sockets with real keys: a busy mailbox during the read that decides whether
to write, an identical re-run once the power cycle's updates are used up,
a dry run that plans exactly what the real run does, and CAPs matched on
the whole 64-bit PPIN."""
import os
import shutil

import pytest

from authority import read
from emu_steps import ctl, emu, t
from fleet_steps import NAMES, fleet, hex64, info, platform, results, spent
from sdsikit import schemas
from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

STATE_UNKNOWN = 9


def busy_once(devno):
    """The BMC holds the socket's mailbox for one transaction."""
    return ctl("fault", str(devno), "oob-owner", "--count", "1")


def test_busy_state_read_is_retried_and_never_spends_an_attempt(authority):
    """Finding 1, -d N -c: the state certificate read answers EBUSY once.
    With --retry it is read again and the CAP is unchanged; without, the
    state is unknown: exit 9, nothing sent, no failure counted."""
    akc = authority.akc()
    cap = authority.cap(0xF1EE71, license_id=0x19)
    r = platform(authority, [t("--all", "-a", akc), t("-d", "1", "-c", cap), info(1),
                             busy_once(1), t("-d", "1", "-c", cap, "--retry", "5", "--json"),
                             busy_once(1), t("-d", "1", "-c", cap, "--json"),
                             busy_once(1), t("-d", "1", "-c", cap),
                             info(1)], sockets=2)
    assert [x["rc"] for x in r[:4]] == [0] * 4, r
    before = spent(r[2])
    assert before == (0, 0, 2)
    retried = schemas.check("provision.json", r[4]["out"])
    assert r[4]["rc"] == 0 and retried["unchanged"] is True, r[4]
    assert retried["provisioned"] is False
    assert r[6]["rc"] == STATE_UNKNOWN, r[6]
    err = schemas.check("error.json", r[6]["out"])["error"]
    assert err["name"] == "EBUSY"
    assert "already provisioned is unknown, so nothing is written" in err["message"]
    assert "(no --retry)" in err["message"]
    assert r[8]["rc"] == STATE_UNKNOWN and "--retry N" in r[8]["err"]
    assert spent(r[9]) == before                   # no update, no CAP failure spent


def test_busy_state_read_in_a_fleet_run(authority, tmp_path):
    """Finding 1, --all -c (what sdsi_provision runs): the busy socket is
    retried with --retry, else fails with exit 9 alone; nothing is spent."""
    d = tmp_path / "caps"
    d.mkdir()
    for n in range(2):
        shutil.copy(authority.cap(0xF1EE70 + n, license_id=0x190 + n), d / f"s{n}.cap")
    akc = authority.akc()
    r = platform(authority, [t("--all", "-a", akc), t("--all", "-c", str(d)), info(1),
                             busy_once(1), t("--all", "-c", str(d), "--retry", "3", "--json"),
                             busy_once(1), t("--all", "-c", str(d), "--json"),
                             info(0), info(1)], sockets=2)
    assert [x["rc"] for x in r[:4]] == [0] * 4, r
    assert r[4]["rc"] == 0, r[4]
    assert [s["result"] for s in fleet(r[4])["results"]] == ["unchanged", "unchanged"]
    assert r[6]["rc"] == STATE_UNKNOWN, r[6]
    report = fleet(r[6])
    assert results(report) == [(NAMES[0], "unchanged", [("s0.cap", "unchanged")]),
                               (NAMES[1], "failed", [("s1.cap", "refused")])]
    assert report["results"][1]["error"]["name"] == "EBUSY"
    assert spent(r[8]) == spent(r[2]) == (0, 0, 2)


def test_identical_rerun_when_the_updates_are_used_up(authority, tmp_path):
    """Finding 2: two updates per power cycle, both used by the AKC and the
    CAP; running both again changes nothing and succeeds, dry run too."""
    one = tmp_path / "one"
    one.mkdir()
    for n in range(2):
        shutil.copy(authority.cap(0xA0 + n, license_id=0x20 + n), one / f"c{n}.cap")
    akc = authority.akc()
    again = [t("--all", "-a", akc, "--json"), t("--all", "-c", str(one), "--json"),
             t("--all", "-a", akc, "--dry-run", "--json"),
             t("--all", "-c", str(one), "--dry-run", "--json"),
             t("-d", "0", "-a", akc), t("-d", "1", "-c", str(one / "c1.cap"))]
    r = emu([t("--all", "-a", akc), t("--all", "-c", str(one)), info(0)] + again
            + [info(0)], "--authority", authority.dir, "--sockets", "2",
            "--ppin", "a0,a1", "--updates", "2")
    assert [x["rc"] for x in r] == [0] * len(r), r
    assert spent(r[2]) == (0, 0, 0)
    for res in r[3:7]:
        assert [s["result"] for s in fleet(res)["results"]] == ["unchanged", "unchanged"]
    assert "already provisioned" in r[7]["out"] and "already provisioned" in r[8]["out"]
    assert spent(r[9]) == (0, 0, 0)
    # A new licence does need the update it lacks: that is still refused.
    first, later = tmp_path / "first", tmp_path / "later"
    first.mkdir()
    later.mkdir()
    shutil.copy(one / "c0.cap", first / "c0.cap")
    shutil.copy(authority.cap(0xA0, license_id=0x99), later / "d-new.cap")
    r = emu([t("--all", "-a", akc), t("--all", "-c", str(first)),
             t("--all", "-c", str(later), "--json")],
            "--authority", authority.dir, "--sockets", "1", "--ppin", "a0", "--updates", "2")
    assert r[1]["rc"] == 0, r[1]
    assert r[2]["rc"] == 5, r[2]
    assert results(fleet(r[2])) == [(NAMES[0], "failed", [("d-new.cap", "refused")])]


def test_dry_run_plans_exactly_what_the_real_run_does(authority, tmp_path):
    """Finding 2, as issue 24 left it: a copy of a CAP and a lower revision
    next to a higher one are three CAPs for one socket, which the plan and
    the real run refuse alike (exit 5), writing and spending nothing."""
    d = tmp_path / "copies"
    d.mkdir()
    newer = authority.cap(0xF1EE70, license_id=0x77, revision=2)
    shutil.copy(newer, d / "1-rev2.cap")
    shutil.copy(newer, d / "2-rev2-copy.cap")
    shutil.copy(authority.cap(0xF1EE70, license_id=0x77, revision=1), d / "3-rev1.cap")
    akc = authority.akc()
    r = emu([t("-d", "0", "-a", akc), t("--all", "-c", str(d), "--dry-run", "--json"),
             t("--all", "-c", str(d), "--json"), info(0)],
            "--authority", authority.dir, "--sockets", "1", "--ppin", "f1ee70",
            "--updates", "2")
    assert [x["rc"] for x in r] == [0, 5, 5, 0], r
    plan, real = fleet(r[1]), fleet(r[2])
    for report in plan, real:
        assert results(report) == [(NAMES[0], "failed", [
            ("1-rev2.cap", "skipped"), ("2-rev2-copy.cap", "skipped"),
            ("3-rev1.cap", "skipped")])]
        assert report["results"][0]["error"]["name"] == "EEXIST"
    assert spent(r[3]) == (0, 0, 1)


# PPINs that differ from a socket's only in the high 32 bits, or only in
# the lowest bit: a match on fewer bits than all 64 gives a CAP to the wrong
# CPU, which the silicon rejects (a failure counted) and the right one never
# gets.
HIGH = (0x0000000100000005, 0x0000000200000005, 0x8000000000000005)
LOW = (0x1234567800000010, 0x1234567800000011)


@pytest.mark.parametrize("ppins", [HIGH, LOW], ids=["high bits", "lowest bit"])
def test_caps_are_matched_on_all_64_bits_of_the_ppin(authority, tmp_path, ppins):
    d = tmp_path / "caps"
    d.mkdir()
    for n, ppin in enumerate(ppins):
        shutil.copy(authority.cap(ppin, license_id=0x600 + n), d / f"cap{n}.cap")
    # A CAP for a PPIN no socket has, equal to socket 0's in its low 32 bits.
    stranger = (ppins[0] & 0xFFFFFFFF) | 0x4000000000000000
    shutil.copy(authority.cap(stranger, license_id=0x6FF), d / "zz-stranger.cap")
    akc = authority.akc()
    r = emu([t("--all", "-a", akc), t("--all", "-c", str(d), "--dry-run", "--json"),
             t("--all", "-c", str(d), "--json")]
            + [t("-d", str(n), "-s", "--json") for n in range(len(ppins))],
            "--authority", authority.dir, "--sockets", str(len(ppins)),
            "--ppin", ",".join(f"{p:x}" for p in ppins))
    # The stranger is a CAP without its socket: named, and the run exits 5.
    assert [x["rc"] for x in r] == [0, 5, 5] + [0] * len(ppins), r
    for res, verdict, blob in ((r[1], "planned", "planned"), (r[2], "provisioned", "written")):
        report = fleet(res)
        assert [s["ppin"] for s in report["results"]] == [hex64(p) for p in ppins]
        assert results(report) == [(NAMES[n], verdict, [(f"cap{n}.cap", blob)])
                                   for n in range(len(ppins))]
        files = {os.path.basename(f["file"]): f for f in report["files"]}
        assert files["zz-stranger.cap"]["used_by"] == []
        for n in range(len(ppins)):
            assert files[f"cap{n}.cap"]["used_by"] == [NAMES[n]]
    for n, res in enumerate(r[3:]):
        state = schemas.check("state.json", res["out"])
        assert [(lic["license"]["id"], lic["license"]["ppin"]) for lic in state["licenses"]] \
            == [(hex64(0x600 + n), hex64(ppins[n]))]


def test_whole_plan_on_fresh_sockets(authority, caps):
    """--all -a AKC -c DIR --dry-run judges the CAPs as if the AKC were in
    place: on fresh sockets the plan is what --all -a then --all -c do."""
    akc = authority.akc()
    plan = [t("--all", "-a", akc, "-c", caps, "--dry-run", "--json"),
            t("--all", "-c", caps, "-a", akc, "--dry-run")]
    r = platform(authority, plan + [info(0), t("--all", "-c", caps, "--dry-run", "--json"),
                                    t("--all", "-a", akc), t("--all", "-c", caps, "--json")]
                 + plan)
    assert [x["rc"] for x in r] == [0, 0, 0, 5, 0, 0, 0, 0], r
    report = fleet(r[0])
    assert report["dry_run"] is True and report["blob"] == "cap"
    assert results(report) == [
        (NAMES[0], "planned", [("a-socket0.cap", "planned")]),
        (NAMES[1], "planned", [("b-socket1.cap", "planned")]),
        (NAMES[2], "planned", [("c-socket2.cap", "planned")]),
        (NAMES[3], "planned", [("d-socket3.cap", "planned")])]
    # Each CAP's checks saw the AKC in place and the plan's earlier writes.
    checks = {c["name"]: c for c in report["results"][1]["blobs"][0]["checks"]}
    assert checks["akc_present"]["result"] == "pass"
    assert checks["updates"]["detail"] == "3 of 4 update(s) available"
    assert "Dry run: nothing is written" in r[1]["out"]
    assert spent(r[2]) == (0, 0, 4)                # nothing written by the plans
    # Without the AKC in the plan, the CAPs are refused: no AKC yet.
    assert "no AKC is provisioned" in r[3]["out"] + r[3]["err"]
    # The real run does what the plan said.
    real = fleet(r[5])
    assert [[b for _, b in blobs] for _, _, blobs in results(real)] == [["written"]] * 4
    # Once done, the same plan finds everything in place.
    again = fleet(r[6])
    assert [res for _, res, _ in results(again)] == ["unchanged"] * 4


def test_plan_refuses_an_akc_the_sockets_would_refuse(authority, caps):
    """An AKC that would be refused (a rollback) fails its socket in the
    plan, its CAPs not judged; -a with -c is a plan only."""
    newer, older = authority.akc(key_rev=3), authority.akc(key_rev=2)
    r = platform(authority, [t("-d", "1", "-a", newer),
                             t("--all", "-a", older, "-c", caps, "--dry-run", "--json"),
                             t("--all", "-a", older, "-c", caps),
                             t("-d", "0", "-a", older, "-c", caps, "--dry-run")], sockets=2)
    assert r[0]["rc"] == 0, r[0]
    assert r[1]["rc"] == 5, r[1]
    report = fleet(r[1])
    assert results(report) == [
        (NAMES[0], "planned", [("a-socket0.cap", "planned")]),
        (NAMES[1], "failed", [("b-socket1.cap", "skipped")])]
    assert report["results"][1]["error"]["name"] == "ESTALE"
    for res in r[2:]:
        assert res["rc"] == 2 and "-a with -c is a plan" in res["err"], res


def test_the_authority_key_given_to_all_a_is_not_sent(authority, tmp_path):
    """Finding 3 as sdsi_provision runs it: the licensor's PEM private key
    given to --all -a is refused on every socket before any write, named
    with its reason; no failure counted."""
    key = os.path.join(authority.dir, "licensor.key")
    assert read(key).startswith(b"-----BEGIN ")
    r = platform(authority, [t("--all", "-a", key, "--json"), t("--all", "-a", key),
                             info(0), info(1)], sockets=2)
    for res in r[:2]:
        assert res["rc"] == 5, res
    report = fleet(r[0])
    assert [s["result"] for s in report["results"]] == ["failed", "failed"]
    for s in report["results"]:
        assert s["blobs"][0]["result"] == "refused"
        assert s["error"]["name"] == "EBADMSG"
        assert f"{key}: not an AKC or CAP the silicon could accept" in s["error"]["message"]
        assert "a PEM file" in s["error"]["message"]
    assert "PRIVATE KEY" in r[1]["out"] + r[1]["err"]
    assert spent(r[2]) == spent(r[3]) == (0, 0, 4)
