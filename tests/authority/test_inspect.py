# SPDX-License-Identifier: GPL-2.0-only
"""inspect: decoding, verification verdicts in the exit status, precise
offsets for malformed files, foreign blobs, and JSON that carries errors."""
import json
import os
import struct

import pytest

from authority_files import (EXIT_MALFORMED, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, key_image,
                             load_public, raw_point, run)


@pytest.fixture
def akc(authority, tmp_path):
    out = tmp_path / "x.akc"
    assert run("akc", authority, "-o", out, "--key-rev", "4").returncode == EXIT_OK
    return out


@pytest.fixture
def cap(authority, tmp_path):
    out = tmp_path / "x.cap"
    r = run("cap", authority, "--ppin", "abcdef0123456789", "--feature", "CC02",
            "--feature", "DSA1", "--type", "metered", "--id", "42", "--revision", "9",
            "--previous-ppin", "77", "-o", out)
    assert r.returncode == EXIT_OK
    return out


def inspect_json(*args):
    r = run("inspect", *args, "--json")
    return r.returncode, json.loads(r.stdout), r.stderr


def test_akc_text(akc, authority):
    r = run("inspect", akc)
    assert r.returncode == EXIT_OK
    assert "kind:              AKC" in r.stdout
    assert "key revision:      4" in r.stdout
    image = key_image(raw_point(load_public(authority / "licensor.pub")))
    assert f"license key image: {image}" in r.stdout
    assert "signature check:   not done" in r.stdout


def test_cap_text(cap):
    r = run("inspect", cap)
    assert r.returncode == EXIT_OK
    for line in ["kind:              CAP", "licence type:      metered (2)",
                 "licence id:        0x0000000000000042", "ppin:              0xabcdef0123456789",
                 "previous ppin:     0x0000000000000077", "revision:          9",
                 "bundles:           2", "bundle 0         CC02", "bundle 1         DSA1"]:
        assert line in r.stdout, line


def test_verify_with_the_right_authority(akc, cap, authority):
    for path, key in [(akc, "root.pub"), (cap, "licensor.pub")]:
        r = run("inspect", path, "--dir", authority)
        assert r.returncode == EXIT_OK
        assert f"signature check:   valid ({authority / key})" in r.stdout


def test_verify_with_another_authority_is_invalid(akc, cap, tmp_path):
    other = tmp_path / "other"
    assert run("init", other).returncode == EXIT_OK
    for path in [akc, cap]:
        r = run("inspect", path, "--dir", other)
        assert r.returncode == EXIT_REJECTED
        assert "signature check:   INVALID" in r.stdout
        assert "does not verify" in r.stdout


def test_json_of_a_verified_cap(cap, authority):
    rc, doc, err = inspect_json(cap, "--dir", authority)
    assert rc == EXIT_OK and err == ""
    assert doc["kind"] == "cap" and doc["well_formed"] and doc["format_version"] == 1
    lic = doc["license"]
    assert lic == {"type": 2, "type_name": "metered", "id": "0x0000000000000042",
                   "ppin": "0xabcdef0123456789", "previous_ppin": "0x0000000000000077",
                   "revision": 9,
                   "bundles": [{"code": "CC02", "reserved": "00" * 28},
                               {"code": "DSA1", "reserved": "00" * 28}]}
    assert doc["signature"] == cap.read_bytes()[-96:].hex()
    assert doc["verification"] == {"key": str(authority / "licensor.pub"), "valid": True}


def test_json_of_an_akc(akc, authority):
    rc, doc, _ = inspect_json(akc)
    assert rc == EXIT_OK
    raw = raw_point(load_public(authority / "licensor.pub"))
    assert doc["akc"] == {"key_revision": 4, "licensor_key": raw.hex(),
                          "key_image": key_image(raw)}
    assert "verification" not in doc


def test_tampered_bytes_are_invalid(cap, authority):
    data = bytearray(cap.read_bytes())
    # The unit tests flip every byte; here one byte of each field is enough.
    for offset in [0, 4, 8, 12, 16, 24, 32, 40, 44, 48, 60, 80, len(data) - 96, len(data) - 1]:
        data[offset] ^= 0x04
        cap.write_bytes(bytes(data))
        rc, doc, _ = inspect_json(cap, "--dir", authority)
        data[offset] ^= 0x04
        # Malformed if it no longer decodes, else a signature that fails.
        assert rc == (EXIT_REJECTED if doc["well_formed"] else EXIT_MALFORMED), f"byte {offset}"


def test_tampered_json_names_the_offset(cap, authority):
    data = bytearray(cap.read_bytes())
    data[len(data) - 1] ^= 1
    cap.write_bytes(bytes(data))
    rc, doc, _ = inspect_json(cap, "--dir", authority)
    assert rc == EXIT_REJECTED
    assert doc["well_formed"] is True
    assert doc["verification"]["valid"] is False
    assert doc["verification"]["error"]["offset"] == len(data) - 96


@pytest.mark.parametrize("length", [0, 3, 11, 40, 100, 207])
def test_truncated_akc(akc, length):
    akc.write_bytes(akc.read_bytes()[:length])
    rc, doc, _ = inspect_json(akc)
    assert rc == EXIT_MALFORMED
    assert doc["well_formed"] is False
    assert doc["error"]["offset"] == length
    assert "truncated" in doc["error"]["message"]


def test_truncated_cap_text(cap):
    """Its two bundles and a signature no longer fit: not a licence blob."""
    cap.write_bytes(cap.read_bytes()[:150])
    r = run("inspect", cap)
    assert r.returncode == EXIT_MALFORMED
    assert ("not decodable at offset 32 (0x20): bundle count 2 does not fit"
            " in 150 bytes: with a signature of at least 96 bytes, 0 bundles do") in r.stderr


def test_bundle_count_past_the_end(cap):
    data = bytearray(cap.read_bytes())
    struct.pack_into("<I", data, 0x20, 20)
    cap.write_bytes(bytes(data))
    rc, doc, _ = inspect_json(cap)
    assert rc == EXIT_MALFORMED
    assert doc["error"]["offset"] == 0x20
    assert "bundle count 20" in doc["error"]["message"]


def test_oversized(cap):
    cap.write_bytes(cap.read_bytes() + bytes(1200))
    rc, doc, _ = inspect_json(cap)
    assert rc == EXIT_MALFORMED
    assert doc["error"]["offset"] == 1016
    assert "oversized" in doc["error"]["message"]


def test_trailing_bytes(akc):
    akc.write_bytes(akc.read_bytes() + b"\0")
    rc, doc, _ = inspect_json(akc)
    assert rc == EXIT_MALFORMED
    assert doc["error"]["offset"] == 208


# Named ids: the random blob differs in each process that collects it, and
# pytest-xdist's workers must collect the same test names.
@pytest.mark.parametrize("content", [
    pytest.param(os.urandom(512), id="random-512"),
    # A bare section 3.1 licence blob, with no room for a signature.
    pytest.param(struct.pack("<IQQQII", 1, 5, 6, 0, 1, 1) + b"20CC" + bytes(28) + bytes(95),
                 id="bare-licence-blob"),
    pytest.param(b"", id="empty"),
])
def test_foreign_blobs(tmp_path, content):
    path = tmp_path / "intel.bin"
    path.write_bytes(content)
    rc, doc, _ = inspect_json(path)
    assert rc == EXIT_MALFORMED
    assert doc["kind"] == "foreign" and doc["well_formed"] is False
    r = run("inspect", path)
    assert "kind:              foreign blob" in r.stdout
    assert "not decodable" in r.stderr


def test_later_format_version_is_foreign(akc):
    data = bytearray(akc.read_bytes())
    data[4] = 2
    akc.write_bytes(bytes(data))
    rc, doc, _ = inspect_json(akc)
    assert rc == EXIT_MALFORMED
    assert doc["kind"] == "foreign"
    assert doc["error"]["offset"] == 4
    assert "format version 2" in doc["error"]["message"]


def test_missing_file(tmp_path):
    r = run("inspect", tmp_path / "none.cap")
    assert r.returncode == EXIT_USAGE
    assert f"{tmp_path / 'none.cap'}: No such file or directory" in r.stderr
    rc, doc, err = inspect_json(tmp_path / "none.cap")
    assert rc == EXIT_USAGE and "No such file or directory" in err
    assert "No such file or directory" in doc["error"]["message"]
    assert doc["error"]["name"] == "ENOENT" and set(doc) == {"schema_version", "file", "error"}


def test_huge_file(tmp_path):
    path = tmp_path / "big.bin"
    path.write_bytes(bytes(70000))
    r = run("inspect", path)
    assert r.returncode == EXIT_MALFORMED
    assert "larger than 64 KiB" in r.stderr


def test_missing_verification_key(cap, tmp_path):
    r = run("inspect", cap, "--dir", tmp_path)
    assert r.returncode == EXIT_USAGE
    assert f"{tmp_path / 'licensor.pub'}: No such file or directory" in r.stderr


def test_corrupt_verification_key(akc, authority):
    (authority / "root.pub").write_text("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
    r = run("inspect", akc, "--dir", authority)
    assert r.returncode == EXIT_MALFORMED
    assert f"{authority / 'root.pub'}: not a PEM public key" in r.stderr
