# SPDX-License-Identifier: GPL-2.0-only
"""Provisioning against a sysfs-shaped tree of plain files: every pre-flight
refusal (exit 5, nothing written), --dry-run, the last-attempt warning."""
import os
import subprocess

import pytest

from abi_bytes import registers
from sdsikit.layout import GUID_V1
from sdsikit.programs import AUTHORITY


def blob_file(tmp_path, size, name="blob.bin"):
    path = tmp_path / name
    path.write_bytes(bytes((i * 7) & 0xFF for i in range(size)))
    return str(path)


def written(dev, name="provision_akc"):
    with open(os.path.join(dev, name), "rb") as f:
        return f.read()


def refused(tool, sysfs, kind, path, extra, rc, name, reason):
    """Provisioning path as kind (akc or cap) with the extra options is refused
    with exit rc, plain and --json alike: the plain run names the reason, the
    JSON error the device, the file, the errno name and the reason.  Returns
    the plain run's stdout and the JSON document, for what each test adds."""
    flag = "-a" if kind == "akc" else "-c"
    r = tool("-d", "0", flag, path, *extra, root=sysfs.root)
    assert r.rc == rc, r.err
    assert reason in r.err
    j = tool("-d", "0", flag, path, "--json", *extra, root=sysfs.root)
    assert j.rc == rc
    doc = j.json()
    assert (doc["device"], doc["file"]) == ("intel_vsec.sdsi.0", path)
    assert doc["error"]["name"] == name and reason in doc["error"]["message"]
    return r.out, doc


def test_provision_writes_the_blob_once(tool, sysfs, tmp_path):
    dev = sysfs.add(0)
    akc = blob_file(tmp_path, 1016)
    r = tool("-d", "0", "-a", akc, root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.out == f"Provisioned provision_akc file {akc} successfully\n"
    assert written(dev) == open(akc, "rb").read()
    report = tool("-d", "0", "-a", akc, "--json", root=sysfs.root).json()
    checks = report.pop("checks")
    assert report == {"schema_version": "1.0", "device": "intel_vsec.sdsi.0", "blob": "akc",
                      "file": akc,
                      "bytes": 1016, "dry_run": False, "provisioned": True,
                      "unchanged": False, "forced": False, "format": "foreign",
                      "decoded": None}
    assert [c["name"] for c in checks] == ["layout", "size", "format", "on_demand", "updates",
                                           "failures"]


def test_dry_run_never_opens_the_provision_file(tool, sysfs, tmp_path):
    dev = sysfs.add(0, regs=registers(akc_provisioned=True))
    os.unlink(os.path.join(dev, "provision_cap"))
    cap = blob_file(tmp_path, 200)
    r = tool("-d", "0", "-c", cap, "--dry-run", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "would write 200 bytes" in r.out
    assert not os.path.exists(os.path.join(dev, "provision_cap"))
    report = tool("-d", "0", "-c", cap, "--dry-run", "--json", root=sysfs.root).json()
    assert report["dry_run"] is True and report["provisioned"] is False
    r = tool("-d", "0", "-c", cap, root=sysfs.root)     # the real write finds no file
    assert r.rc == 3


REFUSALS = [
    ("akc", dict(features=0), 100, "EPERM", "not enabled"),
    ("akc", dict(updates=(0, 4)), 100, "EDQUOT", "Maximum number of updates (4)"),
    ("akc", dict(akc=(3, 3)), 100, "EDQUOT", "Maximum number of AKC provision failures (3)"),
    ("cap", dict(cap=(2, 2), akc_provisioned=True), 100, "EDQUOT",
     "Maximum number of CAP provision failures (2)"),
    ("cap", dict(), 100, "ENOKEY", "no AKC is provisioned"),
    ("akc", dict(layout=1), 100, "EBADMSG", "registers: 72 bytes"),
]


@pytest.mark.parametrize("kind,regs,size,name,reason", REFUSALS,
                         ids=[r[4] for r in REFUSALS])
def test_preflight_refusals_exit_5_and_write_nothing(tool, sysfs, tmp_path, kind, regs,
                                                     size, name, reason):
    dev = sysfs.add(0, regs=registers(**regs))
    path = blob_file(tmp_path, size)
    for extra in ([], ["--dry-run"]):
        out, doc = refused(tool, sysfs, kind, path, extra, 5, name, reason)
        if extra and size <= 4096:  # the dry run shows every check, the failed one too
            assert "refused by the pre-flight checks" in out and " fail " in out
        else:
            assert out == ""
        assert set(doc) == {"schema_version", "device", "file", "error"}
        err = doc["error"]
        if size > 4096:     # refused while reading the file, before any check
            assert "preflight" not in err
            continue
        failed = [c for c in err["preflight"]["checks"] if c["result"] == "fail"]
        assert failed and reason in failed[0]["detail"]
    assert written(dev, f"provision_{kind}") == b""


# Empty, or larger than the mailbox takes: no AKC or CAP at all, malformed
# input (exit 8) as sdsi-authority inspect says of the same file; the
# message names the file and its real size (issue 24).
SIZES = [("akc", 0, "ENODATA", "blob.bin: the AKC file is empty"),
         ("cap", 1017, "EOVERFLOW", "blob.bin: the CAP file is 1017 bytes, the mailbox takes"
                                    " at most 1016"),
         ("cap", 5 * 1024 * 1024, "EOVERFLOW", "blob.bin is 5242880 bytes, larger than 4096,"
                                               " the mailbox takes at most 1016 bytes")]


@pytest.mark.parametrize("kind,size,name,reason", SIZES, ids=["empty", "1017", "5 MiB"])
def test_blob_of_no_possible_size_exits_8_naming_file_size_and_device(tool, sysfs, tmp_path,
                                                                      kind, size, name, reason):
    dev = sysfs.add(0, regs=registers(akc_provisioned=True))
    path = blob_file(tmp_path, size)
    for extra in ([], ["--dry-run"]):
        refused(tool, sysfs, kind, path, extra, 8, name, reason)
    assert written(dev, f"provision_{kind}") == b""
    # sdsi-authority inspect gives the same file the same status.
    if size:
        assert subprocess.run([AUTHORITY, "inspect", path], capture_output=True).returncode == 8


def test_unknown_guid_is_refused(tool, sysfs, tmp_path):
    sysfs.add(0, guid=0x1234, regs=registers(layout=1))
    r = tool("-d", "0", "-a", blob_file(tmp_path, 96), root=sysfs.root)
    assert r.rc == 5 and "unrecognized GUID 0x1234" in r.err


def test_v1_socket_provisions(tool, sysfs, tmp_path):
    dev = sysfs.add(0, guid=GUID_V1)
    assert tool("-d", "0", "-a", blob_file(tmp_path, 96), root=sysfs.root).rc == 0
    assert len(written(dev)) == 96


def test_last_attempt_warning_and_quiet(tool, sysfs, tmp_path):
    sysfs.add(0, regs=registers(akc=(2, 3)))
    akc = blob_file(tmp_path, 96)
    r = tool("-d", "0", "-a", akc, "--dry-run", root=sysfs.root)
    assert r.rc == 0 and "2 of 3 AKC failures used" in r.err
    r = tool("-d", "0", "-a", akc, "--dry-run", "-q", root=sysfs.root)
    assert r.rc == 0 and r.err == ""
    r = tool("-d", "0", "-a", akc, "--dry-run", "-v", root=sysfs.root)
    assert "pre-flight checks passed" in r.err


def test_missing_blob_file_is_a_usage_error(tool, sysfs, tmp_path):
    sysfs.add(0)
    r = tool("-d", "0", "-a", str(tmp_path / "nope.bin"), "--json", root=sysfs.root)
    assert r.rc == 2 and r.json()["error"]["name"] == "ENOENT"
