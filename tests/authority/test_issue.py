# SPDX-License-Identifier: GPL-2.0-only
"""init, akc and cap: the files they write match docs/formats.md byte for
byte and verify with an independent ECDSA implementation; every bad argument
or key file gets its own error."""
import os
import stat

import pytest

from authority_files import (AKC_MAGIC, EXIT_IO, EXIT_MALFORMED, EXIT_OK,
                             EXIT_REFUSED, EXIT_USAGE, fourcc, key_image, load_public,
                             no_temporary_files, parse_akc, parse_cap, raw_point, run,
                             verify_signature)
from sdsikit.paths import directory, linked_directory

KEY_FILES = ["root.key", "root.pub", "licensor.key", "licensor.pub",
             "attestation-root.key", "attestation-root.pem"]


def cap_args(authority, out, *extra, ppin="0x2f1e3d4c5b6a7988", features=("CC02",)):
    args = ["cap", authority, "--ppin", ppin, "-o", out]
    for f in features:
        args += ["--feature", f]
    return args + list(extra)


# init ---------------------------------------------------------------------

def test_init_writes_two_p384_pairs_with_private_modes(tmp_path):
    d = tmp_path / "auth"
    r = run("init", d)
    assert r.returncode == EXIT_OK, r.stderr
    assert sorted(p.name for p in d.iterdir()) == sorted(KEY_FILES)
    assert stat.S_IMODE(d.stat().st_mode) == 0o700
    for name in KEY_FILES:
        mode = stat.S_IMODE((d / name).stat().st_mode)
        assert mode == (0o600 if name.endswith(".key") else 0o644), name
        assert f"wrote {d / name}" in r.stdout
    for name in ["root.pub", "licensor.pub"]:
        assert load_public(d / name).curve.name == "secp384r1"
    assert raw_point(load_public(d / "root.pub")) != raw_point(load_public(d / "licensor.pub"))


def test_init_writes_a_self_signed_p384_attestation_root(tmp_path):
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    d = tmp_path / "auth"
    assert run("init", d).returncode == EXIT_OK
    cert = x509.load_pem_x509_certificate((d / "attestation-root.pem").read_bytes())
    key = serialization.load_pem_private_key((d / "attestation-root.key").read_bytes(), None)
    assert cert.public_key().public_numbers() == key.public_key().public_numbers()
    assert cert.public_key().curve.name == "secp384r1"
    assert cert.issuer == cert.subject
    cert.public_key().verify(cert.signature, cert.tbs_certificate_bytes,
                             ec.ECDSA(cert.signature_hash_algorithm))
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    # Its own key, not the licensing root's.
    assert raw_point(cert.public_key()) != raw_point(load_public(d / "root.pub"))


def test_init_in_an_existing_empty_directory(tmp_path):
    assert run("init", tmp_path).returncode == EXIT_OK
    assert (tmp_path / "root.key").exists()


@pytest.mark.parametrize("existing", KEY_FILES)
def test_init_refuses_to_overwrite_any_key(tmp_path, existing):
    (tmp_path / existing).write_text("keep me\n")
    r = run("init", tmp_path)
    assert r.returncode == EXIT_REFUSED
    assert f"{tmp_path / existing} already exists" in r.stderr
    assert [p.name for p in tmp_path.iterdir()] == [existing]
    assert (tmp_path / existing).read_text() == "keep me\n"


def test_init_twice_keeps_the_first_keys(authority):
    before = {n: (authority / n).read_bytes() for n in KEY_FILES}
    assert run("init", authority).returncode == EXIT_REFUSED
    assert before == {n: (authority / n).read_bytes() for n in KEY_FILES}


@pytest.mark.parametrize("kind,what", [("file", "a regular file"), ("fifo", "a FIFO")])
def test_init_on_something_else_than_a_directory(tmp_path, kind, what):
    path = tmp_path / "auth"
    if kind == "file":
        path.write_text("keep me\n")
    else:
        os.mkfifo(path)
    r = run("init", path)
    assert r.returncode == EXIT_USAGE
    assert f"{path}: not a directory: it is {what}" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["auth"]


def init_refused(d):
    """sdsi-authority init D refused (exit 5): what it said."""
    r = run("init", d)
    assert r.returncode == EXIT_REFUSED, r.stderr
    return r.stderr


@pytest.mark.parametrize("mode,who", [(0o777, "others"), (0o1777, "others"), (0o757, "others"),
                                      (0o775, "its group"), (0o770, "its group")])
def test_init_refuses_a_directory_others_may_write(tmp_path, mode, who):
    """Others could swap the root key that sockets are to trust: refused as
    sdsi-emu refuses such a --state."""
    d = directory(tmp_path / "auth", mode)
    assert f"authority directory {d}: writable by {who} (mode {mode:04o})" in init_refused(d)
    assert list(d.iterdir()) == []


def test_init_takes_a_directory_only_its_owner_may_write(tmp_path):
    """The other side of the bound: read and search bits for all are fine."""
    d = directory(tmp_path / "auth", 0o755)
    assert run("init", d).returncode == EXIT_OK


def test_init_refuses_a_directory_of_another_user(tmp_path):
    """nobody could replace the keys in a directory it owns."""
    d = directory(tmp_path / "auth", 0o755)
    os.chown(d, 65534, 65534)
    assert f"authority directory {d}: owned by uid 65534, not by root or uid {os.geteuid()}" \
        in init_refused(d)
    assert list(d.iterdir()) == []


def test_init_does_not_follow_a_directory_symlink(tmp_path):
    link, real = linked_directory(tmp_path, "auth")
    assert f"authority directory {link}: a symbolic link, not followed" in init_refused(link)
    assert list(real.iterdir()) == []


def test_init_without_parent_directory(tmp_path):
    r = run("init", tmp_path / "no" / "such")
    assert r.returncode == EXIT_IO
    assert "cannot create the directory" in r.stderr


# akc ----------------------------------------------------------------------

def test_akc_matches_the_documented_layout_and_verifies(authority, tmp_path):
    out = tmp_path / "x.akc"
    r = run("akc", authority, "-o", out, "--key-rev", "7")
    assert r.returncode == EXIT_OK, r.stderr
    akc = parse_akc(out.read_bytes())
    assert (akc["magic"], akc["version"], akc["total"], akc["key_rev"]) == (AKC_MAGIC, 1, 208, 7)
    licensor = raw_point(load_public(authority / "licensor.pub"))
    assert akc["key"] == licensor
    assert verify_signature(load_public(authority / "root.pub"), akc["signed"], akc["sig"])
    assert not verify_signature(load_public(authority / "licensor.pub"), akc["signed"], akc["sig"])
    assert f"license key image: {key_image(licensor)}" in r.stdout
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert no_temporary_files(tmp_path)


@pytest.mark.parametrize("text,value", [(None, 1), ("0", 0), ("0x10", 16), ("4294967295", 2**32 - 1)])
def test_akc_key_revision(authority, tmp_path, text, value):
    out = tmp_path / "x.akc"
    extra = [] if text is None else ["--key-rev", text]
    assert run("akc", authority, "-o", out, *extra).returncode == EXIT_OK
    assert parse_akc(out.read_bytes())["key_rev"] == value


@pytest.mark.parametrize("text", ["abc", "-1", "4294967296", "", "1x", "0x"])
def test_akc_bad_key_revision(authority, tmp_path, text):
    r = run("akc", authority, "-o", tmp_path / "x.akc", "--key-rev", text)
    assert r.returncode == EXIT_USAGE
    assert "--key-rev" in r.stderr
    assert not (tmp_path / "x.akc").exists()


def test_akc_requires_output(authority):
    r = run("akc", authority)
    assert r.returncode == EXIT_USAGE
    assert "-o FILE is required" in r.stderr


@pytest.mark.parametrize("name", ["root.key", "licensor.pub"])
def test_akc_missing_key_names_the_file(authority, tmp_path, name):
    (authority / name).unlink()
    r = run("akc", authority, "-o", tmp_path / "x.akc")
    assert r.returncode == EXIT_USAGE
    assert f"{authority / name}: No such file or directory" in r.stderr


@pytest.mark.parametrize("name,kind", [("root.key", "private"), ("licensor.pub", "public")])
def test_akc_corrupt_key_names_the_file(authority, tmp_path, name, kind):
    text = (authority / name).read_text().splitlines()
    text[1] = text[1][:10] + "!!!!" + text[1][14:]
    (authority / name).write_text("\n".join(text) + "\n")
    r = run("akc", authority, "-o", tmp_path / "x.akc")
    assert r.returncode == EXIT_MALFORMED
    assert f"{authority / name}: not a PEM {kind} key" in r.stderr


def test_akc_refuses_a_key_of_another_curve(authority, tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric import ec
    p256 = ec.generate_private_key(ec.SECP256R1())
    (authority / "root.key").write_bytes(p256.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    r = run("akc", authority, "-o", tmp_path / "x.akc")
    assert r.returncode == EXIT_MALFORMED
    assert f"{authority / 'root.key'}: not an ECDSA P-384 key" in r.stderr


def test_akc_output_write_failure(authority, tmp_path):
    out = tmp_path / "missing-dir" / "x.akc"
    r = run("akc", authority, "-o", out)
    assert r.returncode == EXIT_IO
    assert str(out) in r.stderr


def test_akc_output_directory_refuses_new_files(authority):
    # procfs refuses new files even to root, so this runs as CI's root too.
    out = "/proc/sdsi-authority-test.akc"
    r = run("akc", authority, "-o", out)
    assert r.returncode == EXIT_IO
    assert out in r.stderr
    assert not os.path.exists(out)


def test_akc_replaces_an_existing_output_whole(authority, tmp_path):
    out = tmp_path / "x.akc"
    out.write_bytes(b"old" * 1000)
    assert run("akc", authority, "-o", out).returncode == EXIT_OK
    assert len(out.read_bytes()) == 208
    assert no_temporary_files(tmp_path)


# cap ----------------------------------------------------------------------

def test_cap_matches_the_documented_layout_and_verifies(authority, tmp_path):
    out = tmp_path / "x.cap"
    r = run(*cap_args(authority, out, "--type", "metered", "--id", "0123456789ABCDEF",
                      "--revision", "3", "--previous-ppin", "0xfeed",
                      features=("CC02", "SGX1", "q@t~")))
    assert r.returncode == EXIT_OK, r.stderr
    data = out.read_bytes()
    cap = parse_cap(data)
    assert len(data) == 132 + 3 * 32
    assert (cap["type"], cap["id"], cap["ppin"],
            cap["previous_ppin"], cap["revision"], cap["count"]) == \
        (2, 0x0123456789ABCDEF, 0x2f1e3d4c5b6a7988, 0xfeed, 3, 3)
    assert cap["codes"] == ["CC02", "SGX1", "q@t~"]
    assert data[36:40] == fourcc("CC02") == b"20CC"
    assert cap["reserved"] == [bytes(28)] * 3
    assert len(cap["sig"]) == 96
    assert verify_signature(load_public(authority / "licensor.pub"), cap["signed"], cap["sig"])
    assert not verify_signature(load_public(authority / "root.pub"), cap["signed"], cap["sig"])
    assert "0x0123456789abcdef" in r.stdout


def test_cap_defaults(authority, tmp_path):
    ids = set()
    for name in ["a.cap", "b.cap"]:
        assert run(*cap_args(authority, tmp_path / name, ppin="1")).returncode == EXIT_OK
        cap = parse_cap((tmp_path / name).read_bytes())
        assert (cap["type"], cap["revision"], cap["previous_ppin"], cap["ppin"]) == (1, 1, 0, 1)
        ids.add(cap["id"])
    assert len(ids) == 2, "default licence IDs are random"


def test_cap_largest_fits_one_mailbox_write(authority, tmp_path):
    out = tmp_path / "x.cap"
    codes = [f"F{i:03d}" for i in range(27)]
    assert run(*cap_args(authority, out, features=codes)).returncode == EXIT_OK
    data = out.read_bytes()
    assert len(data) == 996 <= 1016
    assert parse_cap(data)["codes"] == codes


def test_cap_one_bundle_too_many(authority, tmp_path):
    r = run(*cap_args(authority, tmp_path / "x.cap", features=[f"F{i:03d}" for i in range(28)]))
    assert r.returncode == EXIT_USAGE
    assert "28 features" in r.stderr and "1028 bytes" in r.stderr and "27" in r.stderr
    assert not (tmp_path / "x.cap").exists()


@pytest.mark.parametrize("ppin", ["xyz", "0x", "", "12345678901234567", "-1", "0x12 3", "1g"])
def test_cap_ppin_not_hex(authority, tmp_path, ppin):
    r = run(*cap_args(authority, tmp_path / "x.cap", ppin=ppin))
    assert r.returncode == EXIT_USAGE
    assert f"--ppin: '{ppin}' is not a hexadecimal PPIN" in r.stderr


def test_cap_previous_ppin_not_hex(authority, tmp_path):
    r = run(*cap_args(authority, tmp_path / "x.cap", "--previous-ppin", "zz"))
    assert r.returncode == EXIT_USAGE
    assert "--previous-ppin: 'zz' is not a hexadecimal PPIN" in r.stderr


def test_cap_id_not_hex(authority, tmp_path):
    r = run(*cap_args(authority, tmp_path / "x.cap", "--id", "nope"))
    assert r.returncode == EXIT_USAGE
    assert "--id: 'nope' is not a hexadecimal 64-bit licence ID" in r.stderr


@pytest.mark.parametrize("code", ["CC0", "CC022", "CC 2", "", "\u00c7C02", "C\tC2"])
def test_cap_code_not_four_printable_characters(authority, tmp_path, code):
    r = run(*cap_args(authority, tmp_path / "x.cap", features=("CC02", code)))
    assert r.returncode == EXIT_USAGE
    assert (f"--feature: '{code}' is not a feature code (exactly 4 printable ASCII characters"
            in r.stderr)


def test_cap_duplicate_feature(authority, tmp_path):
    r = run(*cap_args(authority, tmp_path / "x.cap", features=("CC02", "CC02")))
    assert r.returncode == EXIT_USAGE
    assert "--feature CC02 given twice" in r.stderr


@pytest.mark.parametrize("args,message", [
    (["--ppin", "1", "-o", "x.cap"], "at least one --feature"),
    (["--feature", "CC02", "-o", "x.cap"], "--ppin HEX is required"),
    (["--ppin", "1", "--feature", "CC02"], "-o FILE is required"),
    (["--ppin", "1", "--feature", "CC02", "-o", "x.cap", "--type", "forever"],
     "--type: 'forever' is not one-time or metered"),
    (["--ppin", "1", "--feature", "CC02", "-o", "x.cap", "--revision", "-2"], "--revision: '-2' is not a 32-bit"),
])
def test_cap_missing_or_bad_arguments(authority, tmp_path, args, message):
    r = run("cap", authority, *args, cwd=tmp_path)
    assert r.returncode == EXIT_USAGE
    assert message in r.stderr
    assert not (tmp_path / "x.cap").exists()


def test_cap_missing_licensor_key(authority, tmp_path):
    (authority / "licensor.key").unlink()
    r = run(*cap_args(authority, tmp_path / "x.cap"))
    assert r.returncode == EXIT_USAGE
    assert f"{authority / 'licensor.key'}: No such file or directory" in r.stderr


def test_cap_corrupt_licensor_key(authority, tmp_path):
    (authority / "licensor.key").write_bytes(b"\x00garbage")
    r = run(*cap_args(authority, tmp_path / "x.cap"))
    assert r.returncode == EXIT_MALFORMED
    assert f"{authority / 'licensor.key'}: not a PEM private key" in r.stderr


def test_cap_public_key_in_place_of_private(authority, tmp_path):
    (authority / "licensor.key").write_bytes((authority / "licensor.pub").read_bytes())
    r = run(*cap_args(authority, tmp_path / "x.cap"))
    assert r.returncode == EXIT_MALFORMED
    assert "licensor.key: not a PEM private key" in r.stderr


def test_cap_output_write_failure(authority, tmp_path):
    out = tmp_path / "nowhere" / "x.cap"
    r = run(*cap_args(authority, out))
    assert r.returncode == EXIT_IO
    assert f"-o {out}: {out.parent}: No such file or directory" in r.stderr
    assert no_temporary_files(tmp_path)
