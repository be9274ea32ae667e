# SPDX-License-Identifier: GPL-2.0-only
"""The JSON contract (docs/schema/): every --json document of intel_sdsi
(inside `sdsi-emu run` with real keys, and on saved files) and of
sdsi-authority inspect validates against its schema, errors included; the
schemas reject a document that drifts; and both tools encode the same blob's
fields identically (type and type_name, PPIN, bundles, the key image)."""
import copy
import json
import subprocess

import pytest

import schemas
from authority import authority, image_as_printed, key_image  # noqa: F401
from conftest import AUTHORITY, emu_missing, meter_cert, registers, run_tool, state_cert
from test_emu import ctl, emu, t

needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

PPINS = (0xABCDEF0123, 0x5566778899)
VERSION = "1.0"


def inspect(*args):
    proc = subprocess.run([AUTHORITY, "inspect", *args, "--json"], capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout


def test_every_schema_is_a_valid_2020_12_schema_of_version_1_0():
    assert schemas.NAMES == ["all.json", "common.json", "error.json", "fleet.json",
                             "info.json", "inspect.json", "list.json", "meter.json",
                             "provision.json", "state.json"]
    common = schemas.STORE[schemas.BASE + "common.json"]
    assert common["$defs"]["schema_version"]["const"] == VERSION


@pytest.fixture(scope="module")
def blobs(authority):  # noqa: F811
    akc = authority.akc(key_rev=3)
    cap = authority.cap(PPINS[0], features=("CC02", "SGX1"), licence_id=0x51, metered=True,
                        previous_ppin=0x77)
    return akc, cap


@pytest.fixture(scope="module")
def platform(authority, blobs, tmp_path_factory):  # noqa: F811
    """Every intel_sdsi command with --json, in one emulated platform whose
    silicon trusts the authority: results by name."""
    akc, cap = blobs
    garbage = tmp_path_factory.mktemp("json") / "garbage.bin"
    garbage.write_bytes(b"\xff" * 100)
    # Binary, as a real Intel file would be: it passes the pre-flight checks.
    foreign = garbage.with_name("foreign.bin")
    foreign.write_bytes(bytes(range(256)))
    steps = {
        "list": ["-l"],
        "info": ["-d", "0", "-i"],
        "akc_dry_run": ["-d", "0", "-a", akc, "--dry-run"],
        "akc": ["-d", "0", "-a", akc],
        "cap_dry_run": ["-d", "0", "-c", cap, "--dry-run"],
        "cap": ["-d", "0", "-c", cap],
        "cap_unchanged": ["-d", "0", "-c", cap],
        "state": ["-d", "0", "-s"],
        "meter": ["-d", "0", "-m"],
        "current": ["-d", "0", "-C"],
        "all_info": ["--all", "-i"],
        "all_state": ["--all", "-s"],
        "all_meter": ["--all", "-m"],
        "all_current": ["--all", "-C"],
        # Errors: a refusal with its pre-flight (socket 1 has no AKC), a
        # foreign blob the silicon rejects, no such device, a usage error,
        # a missing blob file, a saved file that does not decode.
        "refused": ["-d", "1", "-c", cap],
        "rejected": ["-d", "1", "-a", str(foreign)],
        "no_device": ["-d", "9", "-i"],
        "usage": ["--nope"],
        "no_command": ["-d", "0"],
        "missing_blob": ["-d", "0", "-a", str(garbage) + ".missing"],
        "bad_file": ["-s", "--file", str(garbage)],
    }
    names = list(steps)
    run = [t(*steps[n], "--json") for n in names]
    # Last: --all with socket 1 unbound, which fails on that socket alone.
    run += [ctl("unbind", "1"), t("--all", "-i", "--json")]
    names += ["unbind", "all_unbound"]
    ppins = ",".join(f"{p:x}" for p in PPINS)
    results = emu(run, "--authority", authority.dir, "--sockets", "2", "--ppin", ppins)
    return dict(zip(names, results))


SUCCESS = {
    "list": "list.json", "info": "info.json", "akc_dry_run": "provision.json",
    "akc": "provision.json", "cap_dry_run": "provision.json", "cap": "provision.json",
    "cap_unchanged": "provision.json", "state": "state.json", "meter": "meter.json",
    "current": "meter.json", "all_info": "all.json", "all_state": "all.json",
    "all_meter": "all.json", "all_current": "all.json",
}
FAILURE = {"refused": 5, "rejected": 6, "no_device": 3, "usage": 2, "no_command": 2,
           "missing_blob": 2, "bad_file": 8}


@needs_emu
@pytest.mark.parametrize("name", sorted(SUCCESS))
def test_intel_sdsi_output_validates(platform, name):
    res = platform[name]
    assert res["rc"] == 0, res
    doc = schemas.check(SUCCESS[name], res["out"])
    assert doc["schema_version"] == VERSION


@needs_emu
@pytest.mark.parametrize("name", sorted(FAILURE))
def test_intel_sdsi_errors_validate_and_keep_their_exit_status(platform, name):
    res = platform[name]
    assert res["rc"] == FAILURE[name], res
    doc = schemas.check("error.json", res["out"])
    assert doc["error"]["message"] in res["err"]


@needs_emu
def test_per_device_documents_name_their_device(platform):
    assert schemas.check("list.json", platform["list"]["out"])["devices"] == [
        {"device": f"intel_vsec.sdsi.{n}", "devno": n, "guid": "0xf210d9ef"} for n in (0, 1)]
    for name in ("info", "state", "meter", "current", "akc", "cap", "rejected", "refused"):
        want = "intel_vsec.sdsi.1" if name in ("refused", "rejected") else "intel_vsec.sdsi.0"
        assert json.loads(platform[name]["out"])["device"] == want, name
    # A refusal names no device it could not reach, and carries what the checks saw.
    assert json.loads(platform["no_device"]["out"])["device"] is None
    refused = json.loads(platform["refused"]["out"])["error"]
    assert refused["name"] == "ENOKEY"
    assert [c["name"] for c in refused["preflight"]["checks"] if c["result"] == "fail"] == [
        "akc_present", "ppin"]     # no AKC on socket 1, and the CAP is for socket 0


@needs_emu
def test_all_is_a_list_in_device_order_errors_included(platform):
    for name in ("all_info", "all_state", "all_meter", "all_current"):
        results = json.loads(platform[name]["out"])["results"]
        assert [r["device"] for r in results] == ["intel_vsec.sdsi.0", "intel_vsec.sdsi.1"]
        for r in results:      # each element is the document -d N prints
            schemas.check("error.json" if "error" in r else
                          {"all_info": "info.json", "all_state": "state.json"}.get(
                              name, "meter.json"), json.dumps(r))
    assert platform["all_unbound"]["rc"] == 3
    results = schemas.check("all.json", platform["all_unbound"]["out"])["results"]
    assert [("error" in r, r["device"]) for r in results] == [
        (False, "intel_vsec.sdsi.0"), (True, "intel_vsec.sdsi.1")]


def test_saved_files_validate_with_device_null_and_the_file_named(tmp_path):
    for flag, data, schema in (("-i", registers(), "info.json"),
                               ("-s", state_cert([]), "state.json"),
                               ("-m", meter_cert([("CC02", 5)]), "meter.json")):
        saved = tmp_path / f"saved{flag}.bin"
        saved.write_bytes(data)
        r = run_tool(flag, "--file", str(saved), "--json")
        assert r.rc == 0, r.err
        doc = schemas.check(schema, r.out)
        assert doc["device"] is None and doc["file"] == str(saved)
    r = run_tool("-i", "--file", str(tmp_path / "none.bin"), "--json")
    assert r.rc == 2 and schemas.check("error.json", r.out)["error"]["name"] == "ENOENT"


def test_inspect_output_validates(authority, blobs, tmp_path):  # noqa: F811
    akc, cap = blobs
    other = tmp_path / "other"
    subprocess.run([AUTHORITY, "init", str(other)], check=True, capture_output=True)
    tampered = tmp_path / "tampered.cap"
    data = bytearray(open(cap, "rb").read())
    data[12] ^= 0xFF        # the licence type: no longer 1 or 2
    tampered.write_bytes(bytes(data))
    for args, rc, schema in (([akc], 0, "inspect.json"),
                             ([akc, "--dir", authority.dir], 0, "inspect.json"),
                             ([cap, "--dir", authority.dir], 0, "inspect.json"),
                             ([cap, "--dir", str(other)], 6, "inspect.json"),
                             ([str(tampered)], 8, "inspect.json"),
                             ([str(tmp_path / "none.cap")], 2, "error.json"),
                             ([cap, "--dir", str(tmp_path / "nokeys")], 2, "error.json"),
                             ([cap, cap], 2, "error.json"),
                             ([cap, "--bogus"], 2, "error.json")):
        code, out = inspect(*args)
        assert code == rc, (args, out)
        assert schemas.check(schema, out)["schema_version"] == VERSION


@needs_emu
def test_both_tools_encode_the_same_blob_identically(authority, blobs, platform):  # noqa: F811
    akc, cap = blobs
    _, out = inspect(cap)
    by_authority = json.loads(out)["license"]
    by_tool = json.loads(platform["cap_dry_run"]["out"])["decoded"]["license"]
    in_state = json.loads(platform["state"]["out"])["licenses"][0]["license"]
    # sdsi-authority alone knows the bundles' reserved bytes.
    stripped = dict(by_authority, bundles=[{"code": b["code"]} for b in by_authority["bundles"]])
    assert stripped == by_tool == in_state
    assert by_tool["type"] == 2 and by_tool["type_name"] == "metered"
    assert by_tool["ppin"] == f"0x{PPINS[0]:016x}"
    assert by_tool["previous_ppin"] == "0x0000000000000077"
    assert by_tool["bundles"] == [{"code": "CC02"}, {"code": "SGX1"}]

    # The key image, byte 47 first, in both tools and in the silicon's record.
    image = image_as_printed(key_image(akc))
    _, out = inspect(akc)
    assert json.loads(out)["akc"]["key_image"] == image
    assert json.loads(platform["akc_dry_run"]["out"])["decoded"]["akc"] == {
        "key_revision": 3, "key_image": image}
    state = json.loads(platform["state"]["out"])
    assert (state["key_revision"], state["key_image"]) == (3, image)
    text = subprocess.run([AUTHORITY, "inspect", akc], capture_output=True, text=True).stdout
    assert f"license key image: {image}\n" in text


@needs_emu
def test_the_schemas_reject_drift(platform):
    """Without these the validation above could not fail."""
    state = json.loads(platform["state"]["out"])
    assert not schemas.errors("state.json", state)
    for mutate, where in ((lambda d: d.pop("schema_version"), "schema_version"),
                          (lambda d: d.pop("device"), "device"),
                          (lambda d: d.update(extra=1), "extra"),
                          (lambda d: d.update(schema_version="2.0"), "2.0"),
                          (lambda d: d["licenses"][0]["license"].update(ppin="0x0"), "0x0"),
                          (lambda d: d["licenses"][0]["license"].update(type="metered"),
                           "metered"),
                          (lambda d: d["licenses"][0]["license"].update(
                              features=["CC02"]), "features"),
                          (lambda d: d.update(key_image=d["key_image"][2:]), "key_image")):
        doc = copy.deepcopy(state)
        mutate(doc)
        assert schemas.errors("state.json", doc), where
    info = json.loads(platform["all_info"]["out"])
    del info["results"][1]["device"]
    assert schemas.errors("all.json", info)
    err = json.loads(platform["no_device"]["out"])
    del err["schema_version"]
    assert schemas.errors("error.json", err)
    assert schemas.errors("list.json", {"schema_version": VERSION, "devices": [
        {"name": "intel_vsec.sdsi.0", "devno": 0, "guid": "0xf210d9ef"}]})


def test_one_version_in_the_header_the_schemas_and_both_man_pages():
    root = schemas.SCHEMA_DIR.parents[1]
    header = (root / "include" / "sdsi" / "json_contract.h").read_text()
    assert f'#define SDSI_JSON_SCHEMA_VERSION "{VERSION}"' in header
    generated = run_tool("--dump-man")
    assert generated.rc == 0
    authority_page = (root / "man" / "sdsi-authority.1").read_text()
    for page in (generated.out, authority_page):
        assert "/usr/share/sdsi/schema/" in page and "docs/schema/" in page
        assert f"(now\n\\fB{VERSION}\\fR" in page or f"(now\n.BR {VERSION} ;" in page
