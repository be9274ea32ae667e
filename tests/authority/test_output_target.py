# SPDX-License-Identifier: GPL-2.0-only
"""-o FILE of akc and cap (issue 19, findings 6 and 7): the blob replaces a
regular file or creates a missing one, and nothing else.  A FIFO, a device
or a directory keeps what it is (exit 7), a symlink is neither followed nor
replaced (exit 5); the authority's
own key files and any file holding a key keep their key (exit 5): a PEM
block of any kind (a public key too: another CA's root.pub), or a DER
private or public key;
a file name of NAME_MAX (255) bytes works, one byte more is ENAMETOOLONG."""
import os
import stat

import pytest

from authority_files import EXIT_IO, EXIT_OK, EXIT_REFUSED, no_temporary_files, run
from sdsikit.keys import key_encodings, protected_key_encodings

NAME_MAX = 255


def issue(kind, authority, out):
    if kind == "akc":
        return run("akc", authority, "-o", out)
    return run("cap", authority, "--ppin", "0x42", "--feature", "CC02", "-o", out)


@pytest.fixture(params=["akc", "cap"])
def kind(request):
    return request.param


@pytest.mark.parametrize("name", ["root.key", "licensor.key", "root.pub", "licensor.pub",
                                  "attestation-root.key", "attestation-root.pem"])
def test_never_over_the_authoritys_own_keys(kind, authority, name):
    key = authority / name
    before = key.read_bytes()
    r = issue(kind, authority, key)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {key}: is the authority's key file {name}; refusing to replace it" in r.stderr
    assert key.read_bytes() == before
    assert r.stdout == ""
    assert no_temporary_files(authority)


def test_never_over_a_key_through_another_name(kind, authority, tmp_path):
    """A hard link to the root key is the root key; a symbolic link is
    neither followed nor replaced, wherever it leads."""
    link = tmp_path / "link.bin"
    os.symlink(authority / "root.key", link)
    hard = tmp_path / "hard.bin"
    os.link(authority / "root.key", hard)
    before = (authority / "root.key").read_bytes()
    r = issue(kind, authority, hard)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert "is the authority's key file root.key" in r.stderr
    r = issue(kind, authority, link)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {link}: a symbolic link, not followed" in r.stderr
    assert (authority / "root.key").read_bytes() == before and link.is_symlink()


def test_never_over_another_private_key(kind, authority, tmp_path):
    other = tmp_path / "other"
    assert run("init", other).returncode == EXIT_OK
    copy = tmp_path / "backup.pem"
    copy.write_bytes((other / "licensor.key").read_bytes())
    r = issue(kind, authority, copy)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {copy}: holds a key (PEM or DER); refusing to replace it" in r.stderr
    assert copy.read_bytes() == (other / "licensor.key").read_bytes()
    # A file that only mentions keys is an ordinary file.
    copy.write_bytes(b"see PRIVATE KEY----- docs\n")
    assert issue(kind, authority, copy).returncode == EXIT_OK


@pytest.mark.parametrize("pem", ["root.pub", "licensor.pub", "block"])
def test_never_over_a_public_key_or_any_pem_block(kind, authority, tmp_path, pem):
    """Another CA's root.pub is a trust anchor: by content, whatever its name."""
    other = tmp_path / "ca2"
    assert run("init", other).returncode == EXIT_OK
    target = other / pem if pem != "block" else tmp_path / "cert.crt"
    if pem == "block":
        target.write_bytes(b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    before = target.read_bytes()
    r = issue(kind, authority, target)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {target}: holds a key (PEM or DER); refusing to replace it" in r.stderr
    assert target.read_bytes() == before
    assert no_temporary_files(target.parent)


@pytest.mark.parametrize("form", ["private", "traditional", "public"])
def test_never_over_a_der_key(kind, authority, tmp_path, form):
    target = tmp_path / "der.key"
    target.write_bytes(key_encodings()[f"der-{form}"])
    before = target.read_bytes()
    r = issue(kind, authority, target)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {target}: holds a key (PEM or DER); refusing to replace it" in r.stderr
    assert target.read_bytes() == before


@pytest.mark.parametrize("form", ["der-encrypted", "pem-encrypted", "pkcs12-encrypted", "pkcs12",
                                  "der-ed25519", "der-certificate"])
def test_never_over_an_encrypted_key_or_a_bundle(kind, authority, tmp_path, form):
    """Issue 25, finding 5: encrypted PKCS#8 (DER and PEM) and PKCS#12 were
    overwritten; the guard knows them by structure, no passphrase asked."""
    target = tmp_path / "protected.key"
    target.write_bytes(protected_key_encodings()[form])
    before = target.read_bytes()
    r = issue(kind, authority, target)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {target}: holds a key (PEM or DER); refusing to replace it" in r.stderr
    assert target.read_bytes() == before
    assert no_temporary_files(tmp_path)


def test_a_der_key_is_judged_in_a_file_of_up_to_1_mib(authority, tmp_path):
    """The bound on both sides: a DER key padded to 1 MiB is a key, one
    byte more and the file is too large to be one (it is replaced)."""
    der = key_encodings()["der-private"]
    target = tmp_path / "padded.key"
    for size, refused in ((1 << 20, True), ((1 << 20) + 1, False)):
        target.write_bytes(der + b"\0" * (size - len(der)))
        r = issue("akc", authority, target)
        assert (r.returncode == EXIT_REFUSED) == refused, (size, r.stderr)
        assert (target.stat().st_size == size) == refused


def char_device(tmp_path):
    """A character device of our own (null's numbers) where root may make
    one, so that a regression replaces it, never the host's /dev/null;
    /dev/null itself for a user, who cannot replace it anyway."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return "/dev/null"
    return str(node)


@pytest.mark.parametrize("what", ["fifo", "chardev", "directory"])
def test_special_files_keep_what_they_are(kind, authority, tmp_path, what):
    target = tmp_path / "target"
    if what in ("fifo", "symlink to a fifo"):
        os.mkfifo(tmp_path / "fifo")
    if what == "fifo":
        target = tmp_path / "fifo"
    elif what == "chardev":
        target = char_device(tmp_path)
    elif what == "directory":
        target.mkdir()
    elif what == "symlink to a fifo":
        os.symlink(tmp_path / "fifo", target)
    else:
        os.symlink(char_device(tmp_path), target)
    mode = os.lstat(target).st_mode
    r = issue(kind, authority, target)
    assert r.returncode == EXIT_IO, r.stderr
    is_what = {"fifo": "a FIFO", "chardev": "a character device", "directory": "a directory"}
    assert f"-o {target}: not a regular file: it is {is_what[what]}" in r.stderr
    assert os.lstat(target).st_mode == mode
    assert no_temporary_files(tmp_path)


@pytest.mark.parametrize("to", ["fifo", "chardev", "regular file", "nowhere"])
def test_a_symlink_is_neither_followed_nor_replaced(kind, authority, tmp_path, to):
    """Whatever it leads to (nothing included): refused, the link and its
    target as they were (exit 5)."""
    target = {"fifo": tmp_path / "fifo", "chardev": char_device(tmp_path),
              "regular file": tmp_path / "file", "nowhere": tmp_path / "nowhere"}[to]
    if to == "fifo":
        os.mkfifo(target)
    elif to == "regular file":
        target.write_bytes(b"old")
    link = tmp_path / "link"
    os.symlink(target, link)
    r = issue(kind, authority, link)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"-o {link}: a symbolic link, not followed" in r.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert to != "regular file" or target.read_bytes() == b"old"
    assert to != "nowhere" or not os.path.lexists(target)
    assert no_temporary_files(tmp_path)


def test_a_missing_name_is_created(kind, authority, tmp_path):
    out = tmp_path / "new.bin"
    assert issue(kind, authority, out).returncode == EXIT_OK
    assert out.is_file()


def test_a_name_of_name_max_bytes_fits_and_one_more_does_not(kind, authority, tmp_path):
    """The temporary file of the crash-safe write is named after the output:
    it must not need more than NAME_MAX bytes itself."""
    fits = tmp_path / ("n" * NAME_MAX)
    r = issue(kind, authority, fits)
    assert r.returncode == EXIT_OK, r.stderr
    assert fits.stat().st_size > 0
    assert sorted(os.listdir(tmp_path)) == sorted([fits.name, "authority"])
    long = tmp_path / ("n" * (NAME_MAX + 1))
    r = issue(kind, authority, long)
    assert r.returncode == EXIT_IO
    assert "a file name of 256 bytes, longer than 255" in r.stderr
    assert sorted(os.listdir(tmp_path)) == sorted([fits.name, "authority"])


def test_control_characters_of_names_are_escaped_in_text(kind, authority, tmp_path):
    """A newline or an escape sequence in -o's name reaches the terminal as
    \\xNN, on stdout ("wrote ...") and in inspect's text."""
    out = tmp_path / "evil\x1b[2J\nwrote fake.bin"
    r = issue(kind, authority, out)
    assert r.returncode == EXIT_OK, r.stderr
    assert "evil\\x1b[2J\\x0awrote fake.bin" in r.stdout and "\x1b" not in r.stdout
    assert len(r.stdout.splitlines()) == (2 if kind == "akc" else 1)
    shown = run("inspect", out)
    assert "evil\\x1b[2J\\x0awrote fake.bin" in shown.stdout and "\x1b" not in shown.stdout
