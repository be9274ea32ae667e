# SPDX-License-Identifier: GPL-2.0-only
"""Decoding: text with the upstream labels, JSON with the documented keys,
offline (--file) and from a sysfs-shaped tree, malformed input exit 8."""
import re

import pytest

from abi_bytes import blob, meter_cert, registers, state_cert
from sdsikit.layout import GUID_V1, GUID_V2

INFO_KEYS = {"schema_version", "device", "file", "guid", "ppin", "socket_id", "features",
             "akc_provisioned", "akc_failures", "cap_failures", "updates", "nvram_limits",
             "auth_errors"}
STATE_KEYS = {"schema_version", "device", "file", "content_type", "region_rev_id", "header_size",
              "total_size", "key_size", "key_revision", "key_image", "licenses"}
LICENSE_KEYS = {"index", "size", "valid", "license"}
METER_KEYS = {"schema_version", "device", "file", "current", "signature", "version", "unit_ms",
              "ppin", "mmrc", "counters"}

TWO_LICENSES = state_cert([
    blob(1, 0x1122334455667788, 0xAABBCCDDEEFF0011, 0, 3, ["CC02", "SGX1"]),
    blob(2, 0x200, 0xFEED, 0xBEEF, 9, [f"F00{i}" for i in range(10)], tail=b"\x11" * 96),
], valid=[True, False])

INFO_TEXT = """
Socket information for device intel_vsec.sdsi.0

PPIN:                           0x1122334455667788
NVRAM Content Authorization Error Status
    SDSi Auth Err Sts:          Error
    Metering Auth Err Sts:      Okay
Enabled Features
    On Demand:                  Enabled
    Attestation:                Disabled
    Metering:                   Enabled
License Key (AKC) Provisioned:  Yes
Authorization Failure Count
    AKC Failure Count:          1
    AKC Failure Threshold:      3
    CAP Failure Count:          2
    CAP Failure Threshold:      5
Provisioning Availability
    Updates Available:          3
    Updates Threshold:          4
NVRAM Update Limit
    50% Limit Reached:          Yes
    75% Limit Reached:          No
    90% Limit Reached:          No
Socket ID:                      6
"""


@pytest.fixture
def info_regs():
    return registers(layout=2, features=(1 << 3) | (1 << 26), akc=(1, 3), cap=(2, 5),
                     updates=(3, 4), akc_provisioned=True, auth_err=1 << 3, nvram=1 << 12,
                     socket_id=6, tool_v2_socket_id=9)


def test_info_text_matches_upstream_labels(tool, sysfs, info_regs):
    sysfs.add(0, regs=info_regs)
    r = tool("-d", "0", "-i", root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.out == INFO_TEXT
    assert r.out.count("On Demand:") == 1 and "Udate" not in r.out


def test_info_json(tool, sysfs, info_regs):
    sysfs.add(0, regs=info_regs)
    info = tool("-d", "0", "-i", "--json", root=sysfs.root).json()
    assert set(info) == INFO_KEYS
    assert info["device"] == "intel_vsec.sdsi.0"
    assert info["guid"] == "0xf210d9ef"
    assert info["ppin"] == "0x1122334455667788"
    assert info["socket_id"] == 6        # 0x40, the corrected V2 layout; not 0x48
    assert info["features"] == {"on_demand": True, "attestation": False, "metering": True}
    assert info["akc_provisioned"] is True
    assert info["akc_failures"] == {"count": 1, "threshold": 3}
    assert info["cap_failures"] == {"count": 2, "threshold": 5}
    assert info["updates"] == {"available": 3, "threshold": 4}
    assert info["nvram_limits"] == {"50": True, "75": False, "90": False}
    assert info["auth_errors"] == {"content": True, "metering": False}


def test_info_v1_and_offline(tool, sysfs, tmp_path):
    regs = registers(layout=1, socket_id=0xF2)
    sysfs.add(3, guid=GUID_V1, regs=regs)
    info = tool("-d", "3", "-i", "--json", root=sysfs.root).json()
    assert info["guid"] == "0x006dd191" and info["socket_id"] == 2
    saved = tmp_path / "regs.bin"
    saved.write_bytes(regs)
    r = tool("-i", "--file", str(saved))
    assert r.rc == 0 and f"Socket information from file {saved}" in r.out
    info = tool("-i", "--file", str(saved), "--json").json()
    assert info["device"] is None and info["guid"] == "0x006dd191"
    assert info["file"] == str(saved)
    saved.write_bytes(registers(layout=2))
    assert tool("-i", "--file", str(saved), "--json").json()["guid"] == "0xf210d9ef"


def test_state_text(tool, tmp_path):
    saved = tmp_path / "state.bin"
    saved.write_bytes(TWO_LICENSES)
    r = tool("-s", "--file", str(saved))
    assert r.rc == 0, r.err
    image = "0x" + bytes(range(48))[::-1].hex()
    for line in ["Content Type:          License key + Blob encoding",
                 "Header Size:           32", f"Total Size:            {len(TWO_LICENSES)}",
                 "OEM Key Size:          48", "Number of Licenses:    2",
                 "    License Key Revision ID:    0x2",
                 f"    License Key Image Content:  {image}",
                 "     Blob 0:", "        License blob size:          100",
                 "        License is valid:           Yes",
                 "        License blob type:          One time upgrade",
                 "        License blob ID:            0x1122334455667788",
                 "        PPIN:                       0xaabbccddeeff0011",
                 "        Previous PPIN:              0x0000000000000000",
                 "        Blob revision ID:           3",
                 "        Number of Features:         2",
                 "                 Feature 0:         CC02",
                 "                 Feature 1:         SGX1",
                 "        License is valid:           No",
                 "        License blob type:          Metered upgrade",
                 "                 Feature 9:         F009"]:
        assert line + "\n" in r.out, line


def test_state_json(tool, tmp_path):
    saved = tmp_path / "state.bin"
    saved.write_bytes(TWO_LICENSES)
    cert = tool("-s", "--file", str(saved), "--json").json()
    assert set(cert) == STATE_KEYS
    assert cert["content_type"] == 0xE and cert["key_size"] == 48 and cert["header_size"] == 32
    assert cert["device"] is None and cert["file"] == str(saved)
    assert cert["key_revision"] == 2
    assert cert["key_image"] == "0x" + bytes(range(48))[::-1].hex()
    first, second = cert["licenses"]
    assert set(first) == LICENSE_KEYS
    assert first == {"index": 0, "size": 100, "valid": True, "license": {
        "type": 1, "type_name": "one-time", "id": "0x1122334455667788",
        "ppin": "0xaabbccddeeff0011", "previous_ppin": "0x0000000000000000", "revision": 3,
        "bundles": [{"code": "CC02"}, {"code": "SGX1"}]}}
    assert second["valid"] is False and second["license"]["type"] == 2
    assert second["license"]["type_name"] == "metered"
    assert second["size"] == 36 + 320 + 96
    assert second["license"]["bundles"] == [{"code": f"F00{i}"} for i in range(10)]


def test_state_empty_slot_and_key_only(tool, tmp_path):
    saved = tmp_path / "state.bin"
    saved.write_bytes(state_cert([b""]))
    lic = tool("-s", "--file", str(saved), "--json").json()["licenses"][0]
    assert lic == {"index": 0, "size": 0, "valid": False, "license": None}
    saved.write_bytes(state_cert([]))
    cert = tool("-s", "--file", str(saved), "--json").json()
    assert cert["licenses"] == [] and cert["key_revision"] == 2


def test_meter_text_and_json(tool, sysfs):
    meter = meter_cert([("CC02", 7), ("SGX1", 0xFFFFFFFF)])
    sysfs.add(0, meter=meter, current=meter_cert([("CC02", 8)], mmrc=1))
    r = tool("-d", "0", "-m", root=sysfs.root)
    assert r.rc == 0, r.err
    for line in ["Signature:                    MTDB", "Version:                      1",
                 "Count Unit:                   1000ms",
                 "PPIN:                         0x0123456789abcdef",
                 "Feature Bundle Length:        16", "MMRC encoding:                MMRC",
                 "MMRC counter:                 12345", "Number of Feature Counters:   2",
                 "    CC02:          7", "    SGX1:          4294967295"]:
        assert line + "\n" in r.out, line
    cert = tool("-d", "0", "-m", "--json", root=sysfs.root).json()
    assert set(cert) == METER_KEYS and cert["current"] is False
    assert cert["device"] == "intel_vsec.sdsi.0" and cert["ppin"] == "0x0123456789abcdef"
    assert cert["mmrc"] == {"encoding": "MMRC", "counter": 12345}
    assert cert["counters"] == [{"feature": "CC02", "count": 7},
                                {"feature": "SGX1", "count": 4294967295}]
    current = tool("-d", "0", "-C", "--json", root=sysfs.root).json()
    assert current["counters"] == [{"feature": "CC02", "count": 8}] and current["current"] is True


MALFORMED = [
    ("-s", state_cert([blob(1, 1, 1, 0, 1, ["CC02"])])[:-1], "runs past the end"),
    ("-s", state_cert([blob(1, 1, 1, 0, 1, ["CC02"])])[:20], "header needs 24"),
    ("-s", b"\x0e" + bytes(19) + b"\xff\xff\xff\xff", "4294967295 licenses"),
    ("-s", state_cert([bytes(36)], valid=[True])[:24] + b"\x00\x00\x00\x80" + bytes(60),
     "valid bit but a size of 0"),
    ("-m", meter_cert([("CC02", 1)], length=12), "not a multiple of 8"),
    ("-m", meter_cert([("CC02", 1)], length=508 * 8), "at most 507"),
    ("-m", meter_cert([("CC02", 1)], length=16), "runs past the end"),
    ("-m", meter_cert([], signature="XXXX"), "is not 'MTDB'"),
    ("-i", registers(layout=1)[:67], "need at least 68"),
]


@pytest.mark.parametrize("cmd,data,reason", MALFORMED, ids=[m[2] for m in MALFORMED])
def test_malformed_exit_8(tool, tmp_path, cmd, data, reason):
    saved = tmp_path / "bad.bin"
    saved.write_bytes(data)
    r = tool(cmd, "--file", str(saved))
    assert r.rc == 8 and reason in r.err and r.out == ""
    r = tool(cmd, "--file", str(saved), "--json")
    assert r.rc == 8
    err = r.json()["error"]
    assert err["name"] == "EBADMSG" and reason in err["message"]


def test_oversized_file_is_malformed(tool, tmp_path):
    saved = tmp_path / "big.bin"
    saved.write_bytes(bytes(4097))
    assert tool("-s", "--file", str(saved)).rc == 8
    assert tool("-s", "--file", str(tmp_path / "absent.bin")).rc == 2


def test_certificates_need_on_demand_and_metering(tool, sysfs):
    sysfs.add(0, regs=registers(features=0), state=state_cert([]))
    sysfs.add(1, regs=registers(features=1 << 3), meter=meter_cert([]))
    r = tool("-d", "0", "-s", root=sysfs.root)
    assert r.rc == 5 and "not enabled" in r.err
    r = tool("-d", "1", "-m", "--json", root=sysfs.root)
    assert r.rc == 5 and "Metering" in r.json()["error"]["message"]


def test_absent_attribute_exit_3(tool, sysfs):
    sysfs.add(0)
    r = tool("-d", "0", "-s", "--json", root=sysfs.root)
    assert r.rc == 3 and r.json()["error"]["name"] == "ENOENT"


def test_all_collects_every_device(tool, sysfs):
    sysfs.add(0, regs=registers(socket_id=0), state=state_cert([]))
    sysfs.add(1, regs=registers(socket_id=1), state=TWO_LICENSES)
    sysfs.add(2, regs=registers(socket_id=2))
    r = tool("--all", "-s", "--json", root=sysfs.root)
    assert r.rc == 3          # the first failure: sdsi.2 has no state_certificate
    result = r.json()["results"]     # a list in device order, each element as -d N prints it
    assert [d["device"] for d in result] == [f"intel_vsec.sdsi.{n}" for n in range(3)]
    assert len(result[1]["licenses"]) == 2
    assert set(result[2]) == {"schema_version", "device", "file", "error"}
    r = tool("--all", "-i", root=sysfs.root)
    assert r.rc == 0 and r.out.count("Socket information for device") == 3


def test_all_and_list_with_no_device(tool, tmp_path):
    empty = str(tmp_path)
    assert tool("-l", "--json", root=empty).json() == {"schema_version": "1.0", "devices": []}
    r = tool("-l", root=empty)
    assert r.rc == 0 and r.out == "" and "No On Demand devices found." in r.err
    assert tool("--all", "-i", "--json", root=empty).json() == {"schema_version": "1.0",
                                                                 "results": []}
    # A root named that does not exist is a usage error (test_errors_name_fix.py).
    missing = tool("-l", "--json", root=str(tmp_path / "missing"))
    assert missing.rc == 2 and "error" in missing.json()


def test_list_json(tool, sysfs):
    sysfs.add(1, guid=GUID_V1)
    sysfs.add(0, guid=GUID_V2)
    assert tool("-l", "--json", root=sysfs.root).json() == {"schema_version": "1.0", "devices": [
        {"device": "intel_vsec.sdsi.0", "devno": 0, "guid": "0xf210d9ef"},
        {"device": "intel_vsec.sdsi.1", "devno": 1, "guid": "0x006dd191"}]}


def test_ppins_and_license_ids_have_one_form_in_text_and_json(tool, tmp_path):
    """Issue 19: 0x and 16 hex digits in text as in JSON, so a value one
    output prints is found as it is in the other (grep, Ansible, a CMDB)."""
    saved = tmp_path / "state.bin"
    saved.write_bytes(state_cert([blob(1, 0x51, 0x42, 0x7, 1, ["CC02"])]))
    text = tool("-s", "--file", str(saved)).out
    lic = tool("-s", "--file", str(saved), "--json").json()["licenses"][0]["license"]
    for label, key in (("License blob ID", "id"), ("PPIN", "ppin"),
                       ("Previous PPIN", "previous_ppin")):
        assert re.search(rf"^ +{label}: +{lic[key]}$", text, re.M), (label, lic[key], text)
    assert lic["id"] == "0x0000000000000051" and lic["ppin"] == "0x0000000000000042"
    regs = tmp_path / "regs.bin"
    regs.write_bytes(registers(ppin=0x42))
    info = tool("-i", "--file", str(regs), "--json").json()
    assert info["ppin"] == "0x0000000000000042"
    assert re.search(r"^PPIN: +0x0000000000000042$", tool("-i", "--file", str(regs)).out, re.M)


def test_saved_file_is_told_by_its_content(tool, tmp_path, authority):
    """Issue 24: an 80-byte empty state certificate is the size of a V2
    registers file, but not one; a CAP or AKC given to -s is named as such,
    with the command that reads it; each file still reads with its own."""
    state = tmp_path / "state.bin"
    state.write_bytes(state_cert([]).ljust(80, b"\0"))     # padded to 16, as read
    assert len(state.read_bytes()) == 80
    meter = tmp_path / "meter.bin"
    meter.write_bytes(meter_cert([("CC02", 5)]))
    cap, akc = authority.cap(0x1234), authority.akc()
    refusals = [
        (["-i", "--file", str(state)], f"{state}: a state certificate (content type 0xd, 80"
         f" bytes), not a registers file: read it with intel_sdsi --file {state} -s"),
        (["-i", "--file", str(meter)], f"{meter}: a meter certificate (MTDB, "),
        (["-s", "--file", str(meter)], f"not a state certificate: read it with intel_sdsi"
         f" --file {meter} -m"),
        (["-s", "--file", cap], f"{cap}: a CAP (164 bytes), not a state certificate: read it"
         f" with sdsi-authority inspect {cap}, or check it against a socket with intel_sdsi"
         f" -d N -c {cap} --dry-run"),
        (["-m", "--file", akc], f"{akc}: an AKC (208 bytes), not a meter certificate: read it"
         f" with sdsi-authority inspect {akc}"),
        (["-i", "--file", cap], "a CAP (164 bytes), not a registers file"),
    ]
    for args, message in refusals:
        r = tool(*args)
        assert r.rc == 8 and r.out == "", (args, r.err)
        assert message in r.err, (args, r.err)
        doc = tool(*args, "--json").json()
        assert doc["file"] == args[-1] and doc["device"] is None
        assert doc["error"]["name"] == "EBADMSG"
    assert tool("-s", "--file", str(state)).rc == 0
    assert tool("-m", "--file", str(meter)).rc == 0
