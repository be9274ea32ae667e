# SPDX-License-Identifier: GPL-2.0-only
"""--output never destroys a file (issue 24, item 3; issue 25, finding 5):
a file holding an AKC, a CAP, a certificate or any binary intel_sdsi did
not write is refused (exit 5) unless --force, a key always, in every form
OpenSSL reads; an existing file keeps its mode; a symbolic link is
neither followed nor replaced; and a command that fails leaves the file
exactly as it was, in every format."""
import os
import stat

import pytest

from abi_bytes import state_cert
from sdsikit.keys import protected_key_encodings

OLD = "previous output\n"
JUDGE_MAX = 16 * 1024 * 1024      # larger than any output of ours


def issued(authority, kind):
    return authority.akc() if kind == "akc" else authority.cap(0x42)


@pytest.mark.parametrize("kind", ["akc", "cap"])
@pytest.mark.parametrize("fmt", [[], ["--json"], ["--format", "prometheus"]])
def test_an_akc_or_cap_is_left_byte_for_byte(tool, sysfs, authority, kind, fmt):
    sysfs.add(0, state=state_cert([]))
    path = issued(authority, kind)
    before = open(path, "rb").read()
    r = tool("-d", "0", "-i", *fmt, "--output", path, root=sysfs.root)
    assert r.rc == 5, r.err
    assert f"--output {path}: holds binary data" in r.err and "--force" in r.err
    assert open(path, "rb").read() == before
    assert r.out == "" or "error" in r.out


def test_force_replaces_a_binary_file_never_a_key(tool, sysfs, authority, tmp_path):
    sysfs.add(0, state=state_cert([]))
    path = issued(authority, "akc")
    r = tool("-d", "0", "-s", "--output", path, "--force", root=sysfs.root)
    assert r.rc == 0, r.err
    assert open(path).read().startswith("\nState certificate")
    key = tmp_path / "key.p12"
    key.write_bytes(protected_key_encodings()["pkcs12-encrypted"])
    before = key.read_bytes()
    r = tool("-d", "0", "-s", "--output", str(key), "--force", root=sysfs.root)
    assert r.rc == 5, r.err
    assert key.read_bytes() == before


@pytest.mark.parametrize("form", ["der-encrypted", "pem-encrypted", "pkcs12-encrypted", "pkcs12",
                                  "der-ed25519", "der-certificate"])
def test_encrypted_keys_and_bundles_are_never_replaced(tool, sysfs, tmp_path, form):
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "protected"
    target.write_bytes(protected_key_encodings()[form])
    before = target.read_bytes()
    for force in ([], ["--force"]):
        r = tool("-d", "0", "-i", "--output", str(target), *force, root=sysfs.root)
        assert r.rc == 5, r.err
        assert f"--output {target}: holds a key (PEM or DER); refusing to replace it" in r.err
        assert target.read_bytes() == before


def test_an_existing_file_keeps_its_mode(tool, sysfs, tmp_path):
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "private.txt"
    target.write_text(OLD)
    target.chmod(0o600)
    r = tool("-d", "0", "-s", "--output", str(target), root=sysfs.root)
    assert r.rc == 0, r.err
    assert target.read_text().startswith("\nState certificate")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("to", ["file", "nothing"])
def test_a_symlink_is_neither_followed_nor_replaced(tool, sysfs, tmp_path, to):
    sysfs.add(0, state=state_cert([]))
    real = tmp_path / "real.txt"
    if to == "file":
        real.write_text(OLD)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    r = tool("-d", "0", "-s", "--output", str(link), root=sysfs.root)
    assert r.rc == 5, r.err
    assert f"--output {link}: a symbolic link, not followed" in r.err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert (real.read_text() == OLD) if to == "file" else not real.exists()


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--format", "prometheus"]])
def test_a_failed_read_leaves_the_previous_output(tool, sysfs, tmp_path, fmt):
    """-d 9 -i --output e2.txt: no device 9 (exit 3), e2.txt as it was, in
    every format; the JSON error document still reaches stdout."""
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "e2.txt"
    target.write_text(OLD)
    target.chmod(0o640)
    r = tool("-d", "9", "-i", *fmt, "--output", str(target), root=sysfs.root)
    assert r.rc == 3, r.err
    assert target.read_text() == OLD
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert f"--output {target}: left as it was: the command failed" in r.err
    if fmt == ["--json"]:
        assert r.json()["error"]["name"] == "ENODEV"
    assert sorted(os.listdir(tmp_path)) == ["devices", "e2.txt"]


def test_text_judged_up_to_16_mib(tool, sysfs, tmp_path):
    """The bound on both sides: a text file of 16 MiB may be ours and is
    replaced; one byte more is larger than any output of ours."""
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "big.txt"
    for size, replaced in ((JUDGE_MAX, True), (JUDGE_MAX + 1, False)):
        target.write_bytes(b"x" * (size - 1) + b"\n")
        r = tool("-d", "0", "-s", "--output", str(target), root=sysfs.root)
        assert (r.rc == 0) == replaced, (size, r.err)
        assert (target.stat().st_size != size) == replaced
        if not replaced:
            assert "larger than any output of intel_sdsi" in r.err


@pytest.mark.parametrize("data", [b"a\x00b\n", b"\xff\xfe\n", b"\x1b[2J\n"])
def test_any_binary_is_refused(tool, sysfs, tmp_path, data):
    """A NUL, bytes that are not UTF-8, a terminal escape: not our text."""
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "blob"
    target.write_bytes(data)
    r = tool("-d", "0", "-s", "--output", str(target), root=sysfs.root)
    assert r.rc == 5, r.err
    assert target.read_bytes() == data


def test_our_own_text_is_replaced(tool, sysfs, tmp_path):
    """UTF-8 text with tabs and CRLF, as intel_sdsi or an editor writes it."""
    sysfs.add(0, state=state_cert([]))
    target = tmp_path / "report.txt"
    target.write_bytes("état\tok\r\n".encode())
    r = tool("-d", "0", "-s", "--output", str(target), root=sysfs.root)
    assert r.rc == 0, r.err
