# SPDX-License-Identifier: GPL-2.0-only
"""The JSON contract (docs/schema/): every --json document of intel_sdsi
(inside `sdsi-emu run` with real keys, and on saved files) and of
sdsi-authority inspect validates against its schema, errors included; the
schemas reject a document that drifts; and both tools encode the same blob's
fields identically (type and type_name, PPIN, bundles, the key image)."""
import copy
import errno
import json
import os
import shutil
import subprocess

import pytest

from abi_bytes import FakeSysfs, meter_cert, registers, state_cert
from authority import image_as_printed, key_image
from emu_steps import ctl, emu, t
from sdsikit import schemas
from sdsikit.programs import AUTHORITY, TOOL
from tool_runs import emu_missing, run_tool

needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

PPINS = (0xABCDEF0123, 0x5566778899)
VERSION = "1.0"


def inspect(*args):
    proc = subprocess.run([AUTHORITY, "inspect", *args, "--json"], capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout


def test_every_schema_is_a_valid_2020_12_schema_of_version_1_0():
    assert schemas.NAMES == ["all.json", "attestation.json", "common.json", "error.json", "fleet.json",
                             "info.json", "inspect.json", "list.json", "meter.json",
                             "provision.json", "state.json"]
    common = schemas.STORE[schemas.BASE + "common.json"]
    assert common["$defs"]["schema_version"]["const"] == VERSION


@pytest.fixture(scope="module")
def blobs(authority):  # noqa: F811
    akc = authority.akc(key_rev=3)
    cap = authority.cap(PPINS[0], features=("CC02", "SGX1"), license_id=0x51, metered=True,
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
    # A device it could not reach is still the one asked for (issue 24): named.
    assert json.loads(platform["no_device"]["out"])["device"] == "intel_vsec.sdsi.9"
    # A refusal names its blob too, and carries what the checks saw.
    assert json.loads(platform["refused"]["out"])["file"].endswith(".cap")
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
    data[0] ^= 0xFF         # the licence type: no longer 1 or 2
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


# ---- Issue 19: every errno by its name, every name valid UTF-8 -------------------------

needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                                reason="needs root and unshare(1) for a private mount namespace")


def run_raw(*args, root=None, cwd=None):
    """intel_sdsi with stdout and stderr as bytes: a document that is not
    UTF-8 must fail the test, not the decoding of the helper."""
    env = dict(os.environ)
    env.pop("SDSI_SYSFS_ROOT", None)
    if root is not None:
        env["SDSI_SYSFS_ROOT"] = root
    return subprocess.run([TOOL, *args], capture_output=True, env=env, cwd=cwd, timeout=60)


def strict_doc(schema, raw):
    """The document parsed from strictly decoded UTF-8, validated."""
    return schemas.check(schema, raw.decode("utf-8", errors="strict"))


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_special_file_given_to_file_is_enxio_by_name(tmp_path, kind):
    path = "/dev/zero" if kind == "/dev/zero" else str(tmp_path / "state.fifo")
    if kind == "fifo":
        os.mkfifo(path)
    r = run_tool("-s", "--file", path, "--json")
    assert r.rc == 2, r.err
    err = schemas.check("error.json", r.out)["error"]
    assert (err["errno"], err["name"]) == (errno.ENXIO, "ENXIO")
    assert path in err["message"]


def one_socket(tmp_path):
    root = tmp_path / "devices"
    root.mkdir()
    FakeSysfs(str(root)).add(0, regs=registers(ppin=0x42))
    return str(root)


def test_symlink_loop_in_the_cap_dir_is_eloop_by_name(tmp_path):
    caps = tmp_path / "caps"
    caps.mkdir()
    os.symlink("b.cap", caps / "a.cap")
    os.symlink("a.cap", caps / "b.cap")
    r = run_tool("--all", "-c", str(caps), "--json", root=one_socket(tmp_path))
    assert r.rc == 5, r.err             # files not used: named, the run fails
    files = schemas.check("fleet.json", r.out)["files"]
    assert [(f["usable"], f["error"]["name"], f["error"]["errno"]) for f in files] == [
        (False, "ELOOP", errno.ELOOP)] * 2


@needs_root
@pytest.mark.parametrize("fs,name", [("ro", "EROFS"), ("full", "ENOSPC")])
def test_unwritable_output_filesystem_is_named(tmp_path, fs, name):
    """--output on a read-only tmpfs, and on a full one, in a private mount
    namespace (gone with the process): the error document names the errno."""
    saved = tmp_path / "state.bin"
    saved.write_bytes(state_cert([]))
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    mount = ("mount -t tmpfs -o ro,size=64k none \"$1\"" if fs == "ro" else
             "mount -t tmpfs -o size=4k none \"$1\" && "
             "{ dd if=/dev/zero of=\"$1/fill\" bs=1k count=64 2>/dev/null; true; }")
    proc = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                           mount + ' && "$2" -s --file "$3" --json --output "$1/out.json"',
                           "sh", str(mnt), TOOL, str(saved)],
                          capture_output=True, timeout=60)
    assert proc.returncode == 7, proc.stderr
    err = strict_doc("error.json", proc.stdout)["error"]
    assert err["name"] == name and err["errno"] == getattr(errno, name)
    assert f"--output {mnt}/out.json" in err["message"]
    assert os.listdir(mnt) == []        # the mount never reached the host


def test_error_name_without_glibc_name_matches_the_schema():
    """The schema's pattern admits the documented form of a number glibc
    does not name ("E" and its decimal value), which the unit test of
    sdsi_errno_name() produces; "E?" is what it must never be."""
    doc = {"schema_version": VERSION, "device": None, "file": None,
           "error": {"errno": 4242, "name": "E4242", "message": "m"}}
    assert schemas.errors("error.json", doc) == []
    doc["error"]["name"] = "E?"
    assert schemas.errors("error.json", doc) != []


def test_cap_file_name_that_is_not_utf8_is_escaped_losslessly(tmp_path):
    caps = tmp_path / "caps"
    caps.mkdir()
    raw = b"bad\xff\xc3(name\xed\xa0\x80.cap"     # a stray byte, a broken pair, a surrogate
    with open(os.path.join(os.fsencode(caps), raw), "wb") as f:
        f.write(b"junk!!")
    proc = run_raw("--all", "-c", str(caps), "--json", root=one_socket(tmp_path))
    assert proc.returncode == 5, proc.stderr   # not used: the run fails
    doc = strict_doc("fleet.json", proc.stdout)
    (entry,) = doc["files"]
    # Each byte outside valid UTF-8 is U+DC00+byte: Python's surrogateescape.
    assert entry["file"] == str(caps) + "/bad\udcff\udcc3(name\udced\udca0\udc80.cap"
    assert os.fsencode(entry["file"]) == os.fsencode(caps) + b"/" + raw
    assert entry["error"]["message"].startswith(entry["file"] + ": ")
    assert b"\\udcff" in proc.stdout and b"\xff" not in proc.stdout


def test_valid_utf8_names_are_left_as_they_are(tmp_path):
    caps = tmp_path / "caps"
    caps.mkdir()
    (caps / "zürich-東京.cap").write_bytes(b"junk!!")
    proc = run_raw("--all", "-c", str(caps), "--json", root=one_socket(tmp_path))
    doc = strict_doc("fleet.json", proc.stdout)
    assert doc["files"][0]["file"] == f"{caps}/zürich-東京.cap"
    assert "zürich-東京".encode() in proc.stdout


def test_inspect_json_of_a_name_that_is_not_utf8(tmp_path):
    raw = os.fsencode(tmp_path) + b"/x\xfe.cap"
    with open(raw, "wb") as f:
        f.write(b"junk!!")
    proc = subprocess.run([AUTHORITY, "inspect", raw, "--json"], capture_output=True,
                          timeout=60)
    doc = strict_doc("inspect.json", proc.stdout)
    assert os.fsencode(doc["file"]) == raw


def test_control_characters_in_names_are_escaped_in_text(tmp_path):
    """A newline or an escape sequence in a file name must not forge a line
    or colour the terminal: \\xNN in text output, on stdout and stderr."""
    caps = tmp_path / "caps"
    caps.mkdir()
    (caps / "evil\nintel_vsec.sdsi.0: provisioned\x1b[2J.cap").write_bytes(b"junk!!")
    root = one_socket(tmp_path)
    proc = run_raw("--all", "-c", str(caps), root=root)
    assert proc.returncode == 5, proc.stderr   # not used: the run fails
    for stream in (proc.stdout, proc.stderr):
        assert b"\x1b" not in stream
        assert b"evil\\x0aintel_vsec.sdsi.0: provisioned\\x1b[2J.cap" in stream
    assert not any(line.startswith(b"intel_vsec.sdsi.0: provisioned")
                   for line in proc.stdout.splitlines())
    # JSON keeps the name whole: its own escapes (\n, \u001b) are lossless.
    doc = strict_doc("fleet.json", run_raw("--all", "-c", str(caps), "--json", root=root).stdout)
    assert doc["files"][0]["file"] == f"{caps}/evil\nintel_vsec.sdsi.0: provisioned\x1b[2J.cap"
    saved = tmp_path / "st\x1bate\n.bin"
    saved.write_bytes(state_cert([]))
    text = run_raw("-s", "--file", str(saved))
    assert text.returncode == 0 and b"st\\x1bate\\x0a.bin" in text.stdout
    assert b"\x1b" not in text.stdout
    auth = subprocess.run([AUTHORITY, "inspect", str(caps / "no\x1bsuch")],
                          capture_output=True, timeout=60)
    assert auth.returncode == 2 and b"no\\x1bsuch" in auth.stderr and b"\x1b" not in auth.stderr


@pytest.mark.parametrize("raw,valid", [
    (b"\xc2\x80", True), (b"\xc1\xbf", False),                   # shortest 2-byte / overlong
    (b"\xe0\xa0\x80", True), (b"\xe0\x9f\xbf", False),           # shortest 3-byte / overlong
    (b"\xed\x9f\xbf", True), (b"\xed\xa0\x80", False),           # U+D7FF / a surrogate
    (b"\xf4\x8f\xbf\xbf", True), (b"\xf4\x90\x80\x80", False),   # U+10FFFF / beyond
    (b"\xe2\x82\xac", True), (b"\xe2\x82", False),               # whole / cut short
])
def test_utf8_validity_on_both_sides_of_each_bound(tmp_path, raw, valid):
    caps = tmp_path / "caps"
    caps.mkdir()
    with open(os.fsencode(caps) + b"/n" + raw, "wb") as f:
        f.write(b"junk!!")
    proc = run_raw("--all", "-c", str(caps), "--json", root=one_socket(tmp_path))
    name = strict_doc("fleet.json", proc.stdout)["files"][0]["file"]
    assert os.fsencode(name) == os.fsencode(caps) + b"/n" + raw
    assert (raw in proc.stdout) == valid and ("\\udc" in proc.stdout.decode()) != valid
