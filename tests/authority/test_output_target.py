# SPDX-License-Identifier: GPL-2.0-only
"""-o FILE of akc and cap (issue 19, findings 6 and 7): the blob replaces a
regular file or creates a missing one, and nothing else.  A FIFO, a device,
a directory or a symlink to one keeps what it is (exit 7); the authority's
own key files and any file holding a key keep their key (exit 5): a PEM
block of any kind (a public key too: another CA's root.pub), or a DER
private or public key;
a file name of NAME_MAX (255) bytes works, one byte more is ENAMETOOLONG."""
import os
import stat

import pytest

from authority_files import EXIT_IO, EXIT_OK, EXIT_REFUSED, no_temporary_files, run
from sdsikit.keys import key_encodings

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
    """A symlink or a hard link to the root key is the root key."""
    link = tmp_path / "link.bin"
    os.symlink(authority / "root.key", link)
    hard = tmp_path / "hard.bin"
    os.link(authority / "root.key", hard)
    before = (authority / "root.key").read_bytes()
    for out in (link, hard):
        r = issue(kind, authority, out)
        assert r.returncode == EXIT_REFUSED, r.stderr
        assert "is the authority's key file root.key" in r.stderr
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


def test_a_der_key_is_judged_in_a_file_of_up_to_16_kib(authority, tmp_path):
    """The bound on both sides: a DER key padded to 16384 bytes is a key,
    one byte more and the file is too large to be one (it is replaced)."""
    der = key_encodings()["der-private"]
    target = tmp_path / "padded.key"
    for size, refused in ((16384, True), (16385, False)):
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


@pytest.mark.parametrize("what", ["fifo", "chardev", "directory", "symlink to a fifo",
                                  "symlink to a chardev"])
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
    is_what = {"fifo": "a FIFO", "chardev": "a character device", "directory": "a directory",
               "symlink to a fifo": "a FIFO", "symlink to a chardev": "a character device"}
    assert f"-o {target}: not a regular file: it is {is_what[what]}" in r.stderr
    assert os.lstat(target).st_mode == mode
    assert no_temporary_files(tmp_path)


def test_a_missing_name_and_a_dangling_symlink_are_created(kind, authority, tmp_path):
    out = tmp_path / "new.bin"
    assert issue(kind, authority, out).returncode == EXIT_OK
    dangling = tmp_path / "dangling"
    os.symlink(tmp_path / "nowhere", dangling)
    assert issue(kind, authority, dangling).returncode == EXIT_OK
    assert dangling.is_file() and not dangling.is_symlink()


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
    assert "File name too long" in r.stderr
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
