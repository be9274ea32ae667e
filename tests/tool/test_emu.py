# SPDX-License-Identifier: GPL-2.0-only
"""End to end: intel_sdsi inside `sdsi-emu run`, against emulated sockets
served through the sysfs ABI by the hardware model.  Without --authority the
emulated silicon trusts no root key and refuses every AKC and CAP (EIO,
failure counter + 1), which is what these tests assert for provisioning;
test_emu_licensing.py provisions with real keys."""
import json

import pytest

from emu_steps import ctl, emu, t
from sdsikit import schemas
from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))


@pytest.fixture
def blob(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 2)
    return str(path)


def test_every_command_one_socket():
    r = emu([t("-l"), t("-l", "--json"), t("-d", "0", "-i"), t("-d", "0", "-i", "--json"),
             t("-d", "0", "-s", "--json"), t("-d", "0", "-m", "--json"),
             t("-d", "0", "-C", "--json"), t("-d", "0", "-s"), t("-d", "0", "-m"),
             t("-d", "0", "-C")], "--sockets", "1", "--ppin", "abcdef0123")
    assert [x["rc"] for x in r] == [0] * len(r), r
    assert r[0]["out"] == "intel_vsec.sdsi.0\n"
    assert json.loads(r[1]["out"]) == {"schema_version": "1.0", "devices": [
        {"device": "intel_vsec.sdsi.0", "devno": 0, "guid": "0xf210d9ef"}]}
    assert "Socket information for device intel_vsec.sdsi.0" in r[2]["out"]
    info = json.loads(r[3]["out"])
    assert info["ppin"] == "0x000000abcdef0123" and info["socket_id"] == 0
    assert info["features"] == {"on_demand": True, "attestation": True, "metering": True}
    state = json.loads(r[4]["out"])
    assert state["licenses"] == [] and state["key_revision"] is None
    meter = json.loads(r[5]["out"])
    assert meter["signature"] == "MTDB" and meter["ppin"] == "0x000000abcdef0123"
    assert json.loads(r[6]["out"])["mmrc"]["encoding"] == "MMRC"


def test_several_sockets_and_all():
    r = emu([t("-l", "--json"), t("--all", "-i", "--json"), t("--all", "-s", "--json"),
             t("--all", "-C", "--json"), t("-d", "2", "-i", "--json"), t("--all", "-i")],
            "--sockets", "3")
    assert [x["rc"] for x in r] == [0] * len(r), r
    assert [d["devno"] for d in json.loads(r[0]["out"])["devices"]] == [0, 1, 2]
    infos = json.loads(r[1]["out"])["results"]
    assert [(v["device"], v["socket_id"]) for v in infos] == [
        (f"intel_vsec.sdsi.{n}", n) for n in range(3)]
    assert len(json.loads(r[2]["out"])["results"]) == 3
    assert len(json.loads(r[3]["out"])["results"]) == 3
    assert json.loads(r[4]["out"])["socket_id"] == 2
    assert r[5]["out"].count("Socket information for device") == 3


def test_silicon_rejects_akc_and_counts_the_failure(blob):
    r = emu([t("-d", "1", "-a", blob, "--dry-run", "--json"), t("-d", "1", "-i", "--json"),
             t("-d", "1", "-a", blob, "--json"), t("-d", "1", "-i", "--json"),
             t("-d", "0", "-i", "--json")], "--sockets", "2")
    assert r[0]["rc"] == 0 and json.loads(r[0]["out"])["dry_run"] is True
    assert json.loads(r[1]["out"])["akc_failures"]["count"] == 0
    assert r[2]["rc"] == 6
    assert json.loads(r[2]["out"])["error"]["name"] == "EIO"
    assert "rejected" in json.loads(r[2]["out"])["error"]["message"]
    after = json.loads(r[3]["out"])
    assert after["akc_failures"]["count"] == 1
    assert after["auth_errors"]["content"] is True
    assert json.loads(r[4]["out"])["akc_failures"]["count"] == 0   # the other socket


def test_threshold_stops_the_tool_before_the_silicon(blob):
    r = emu([t("-d", "0", "-a", blob), t("-d", "0", "-a", blob), t("-d", "0", "-i", "--json"),
             t("-d", "0", "-c", blob)], "--akc-threshold", "1")
    assert r[0]["rc"] == 6 and "0 of 1 AKC failures used" in r[0]["err"]
    assert r[1]["rc"] == 5 and "Maximum number of AKC provision failures (1)" in r[1]["err"]
    assert json.loads(r[2]["out"])["akc_failures"] == {"count": 1, "threshold": 1}
    assert r[3]["rc"] == 5 and "no AKC is provisioned" in r[3]["err"]


def test_in_band_lock_is_permission(blob):
    r = emu([t("-d", "0", "-a", blob, "--json"), t("-d", "0", "-i", "--json")], "--iblock")
    assert r[0]["rc"] == 4
    err = json.loads(r[0]["out"])["error"]
    assert err["name"] == "EPERM" and "in-band lock" in err["message"]
    assert json.loads(r[1]["out"])["akc_failures"]["count"] == 0


def test_mailbox_owned_by_bmc(blob):
    r = emu([ctl("fault", "0", "oob-owner"), t("-d", "0", "-s", "--json"),
             t("-d", "0", "-a", blob), ctl("clear", "0"),
             ctl("fault", "0", "oob-owner", "--count", "1"),
             t("-d", "0", "-a", blob, "--retry", "2")])
    assert r[1]["rc"] == 7 and json.loads(r[1]["out"])["error"]["name"] == "EBUSY"
    assert r[2]["rc"] == 7 and "owned by another agent" in r[2]["err"]
    # One busy answer, then the retry reaches the silicon, which rejects the blob.
    assert r[5]["rc"] == 6, r[5]


@pytest.mark.parametrize("fault,name", [("status-timeout", "ETIMEDOUT"),
                                        ("status-failure", "EIO"),
                                        ("bad-packet-size", "EPROTO")])
def test_mailbox_faults_are_io_errors(fault, name):
    r = emu([ctl("fault", "0", fault), t("-d", "0", "-s", "--json")])
    assert r[1]["rc"] == 7, r[1]
    assert json.loads(r[1]["out"])["error"]["name"] == name


def test_disabled_features_and_unbound_driver():
    r = emu([ctl("features", "0", "none"), t("-d", "0", "-i", "--json"),
             t("-d", "0", "-s", "--json"), ctl("features", "0", "on-demand"),
             t("-d", "0", "-m", "--json"), ctl("unbind", "0"), t("-d", "0", "-i", "--json"),
             t("-l", "--json")])
    assert json.loads(r[1]["out"])["features"]["on_demand"] is False
    assert r[2]["rc"] == 5 and "not enabled" in json.loads(r[2]["out"])["error"]["message"]
    assert r[4]["rc"] == 5 and "Metering" in json.loads(r[4]["out"])["error"]["message"]
    assert r[6]["rc"] == 3, r[6]
    # The device stays, its files go: named as an unbound driver, not a typo.
    unbound = json.loads(r[6]["out"])["error"]
    assert unbound["name"] == "ENODEV" and "no driver is bound" in unbound["message"]
    json.loads(r[7]["out"])


def test_v1_layout_and_early_driver():
    r = emu([t("-d", "0", "-i", "--json"), t("-d", "0", "-s", "--json")],
            "--guid", "v1", "--abi", "early", "--sockets", "1")
    assert r[0]["rc"] == 0, r[0]
    info = json.loads(r[0]["out"])
    assert info["guid"] == "0x006dd191" and info["features"]["metering"] is False
    assert r[1]["rc"] == 0, r[1]


def test_json_sweep_everything_parses(blob, tmp_path):
    """Every command, success or failure, prints exactly one JSON document;
    a failure of a single device is an error document (docs/schema/error.json)."""
    saved = tmp_path / "garbage.bin"
    saved.write_bytes(b"\xff" * 100)
    commands = [["-l"], ["-d", "0", "-i"], ["-d", "0", "-s"], ["-d", "0", "-m"],
                ["-d", "0", "-C"], ["--all", "-i"], ["--all", "-s"], ["--all", "-m"],
                ["--all", "-C"], ["-d", "0", "-a", blob], ["-d", "0", "-c", blob],
                ["-d", "0", "-a", blob, "--dry-run"], ["-d", "9", "-i"], ["-d", "x", "-s"],
                ["-s", "--file", str(saved)], ["-m", "--file", str(saved)],
                ["-i", "--file", str(saved)], ["-d", "0"], ["--nope"], []]
    steps = [t("--json", *c) for c in commands]
    r = emu(steps, "--sockets", "2")
    for cmd, res in zip(commands, r):
        doc = json.loads(res["out"])
        assert isinstance(doc, dict), cmd
        if res["rc"] != 0 and cmd[:1] != ["--all"]:
            assert not schemas.errors("error.json", doc), (cmd, doc)
