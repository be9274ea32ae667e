# SPDX-License-Identifier: GPL-2.0-only
"""Pre-flight checks that read the sdsi AKC/CAP format, against a
sysfs-shaped tree of plain files whose provision_* files can be inspected:
blobs come from sdsi-authority, state certificates are built from them byte
by byte.  Every refusal exits 5 and writes nothing."""
import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from abi_bytes import registers, state_cert
from authority import image_as_printed, key_image, key_revision, license_blob, read
from sdsikit import schemas

PPIN = 0x1122334455667788
WITH_AKC = dict(akc_provisioned=True)


def written(dev, kind):
    return read(os.path.join(dev, f"provision_{kind}"))


def provisioned_state(authority_akc, licenses=(), valid=None):
    """A state certificate holding the AKC's key and the given CAPs' licences."""
    return state_cert([license_blob(c) for c in licenses], key_rev=key_revision(authority_akc),
                      key_image=key_image(authority_akc), valid=valid)


def check(doc, name):
    return next(c for c in doc["checks"] if c["name"] == name)


def refused(tool, sysfs, flag, path, name, reason, kind):
    """Refused with exit 5, in text, JSON and dry run alike; nothing written."""
    dev = os.path.join(sysfs.root, "intel_vsec.sdsi.0")
    for extra in ([], ["--dry-run"], ["--force"]):
        r = tool("-d", "0", flag, path, *extra, root=sysfs.root)
        assert r.rc == 5, (extra, r.err)
        assert reason in r.err
    r = tool("-d", "0", flag, path, "--json", root=sysfs.root)
    assert r.rc == 5
    err = r.json()["error"]
    assert err["name"] == name and reason in err["message"]
    assert written(dev, kind) == b""
    return err


def test_akc_given_to_c_is_refused(tool, sysfs, authority):
    sysfs.add(0, regs=registers(**WITH_AKC))
    err = refused(tool, sysfs, "-c", authority.akc(), "EINVAL",
                  "the file is an AKC, but -c provisions a CAP: use -a", "cap")
    assert err["preflight"]["format"] == "akc"
    assert check(err["preflight"], "format")["result"] == "fail"


def test_cap_given_to_a_is_refused(tool, sysfs, authority):
    sysfs.add(0)
    refused(tool, sysfs, "-a", authority.cap(PPIN), "EINVAL",
            "the file is a CAP, but -a provisions an AKC: use -c", "akc")


@pytest.mark.parametrize("cut,offset,reason", [
    (1, 32, "bundle count 2 does not fit in 195 bytes: with a signature of"
            " at least 96 bytes, 1 bundle does"),
    (100, 96, "truncated: 96 bytes, a licence blob's header (36 bytes) and a signature"
              " (at least 96) need 132"),
    (190, 6, "truncated: 6 bytes")])
def test_truncated_cap_refused_with_offset(tool, sysfs, authority, tmp_path, cut, offset,
                                           reason):
    sysfs.add(0, regs=registers(**WITH_AKC))
    whole = read(authority.cap(PPIN, features=("CC02", "SGX1")))
    short = tmp_path / "short.cap"
    short.write_bytes(whole[:-cut])
    refused(tool, sysfs, "-c", str(short), "EBADMSG",
            f"malformed CAP at offset {offset}: {reason}", "cap")


def test_malformed_fields_are_named(tool, sysfs, authority, tmp_path):
    sysfs.add(0, regs=registers(**WITH_AKC))
    data = bytearray(read(authority.cap(PPIN)))
    data[0x20] = 7                                 # 7 bundles in a CAP of one
    bad = tmp_path / "count.cap"
    bad.write_bytes(bytes(data))
    err = refused(tool, sysfs, "-c", str(bad), "EBADMSG", "malformed CAP at offset 32", "cap")
    assert "bundle count 7" in err["message"]
    data = bytearray(read(authority.akc()))
    data[8] = 0xC0                                 # total size field
    bad = tmp_path / "size.akc"
    bad.write_bytes(bytes(data))
    refused(tool, sysfs, "-a", str(bad), "EBADMSG", "malformed AKC at offset 8", "akc")


def test_cap_for_another_ppin_is_refused(tool, sysfs, authority):
    sysfs.add(0, regs=registers(ppin=0xAAAA, **WITH_AKC))
    err = refused(tool, sysfs, "-c", authority.cap(PPIN), "EXDEV",
                  "bound to PPIN 0x1122334455667788, this socket's PPIN is 0x000000000000aaaa", "cap")
    assert check(err["preflight"], "ppin")["result"] == "fail"


def test_cap_before_akc_is_refused(tool, sysfs, authority):
    sysfs.add(0)
    err = refused(tool, sysfs, "-c", authority.cap(PPIN), "ENOKEY", "no AKC is provisioned",
                  "cap")
    # Every check still ran: the CAP itself is fine and is this socket's.
    assert check(err["preflight"], "format")["result"] == "pass"
    assert check(err["preflight"], "ppin")["result"] == "pass"
    assert check(err["preflight"], "already_provisioned")["result"] == "skip"


def test_provisioned_akc_is_unchanged_unless_forced(tool, sysfs, authority):
    akc = authority.akc(key_rev=4)
    dev = sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(akc))
    r = tool("-d", "0", "-a", akc, root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.out == (f"AKC file {akc} is already provisioned on intel_vsec.sdsi.0: "
                     "nothing written (--force sends it anyway)\n")
    report = tool("-d", "0", "-a", akc, "--json", root=sysfs.root).json()
    assert report["unchanged"] is True and report["provisioned"] is False
    assert report["forced"] is False
    assert check(report, "already_provisioned")["result"] == "unchanged"
    assert written(dev, "akc") == b""
    r = tool("-d", "0", "-a", akc, "--force", "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.json()["provisioned"] is True and r.json()["forced"] is True
    assert written(dev, "akc") == read(akc)


def test_newer_or_other_akc_is_written(tool, sysfs, authority):
    old = authority.akc(key_rev=4)
    dev = sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(old))
    newer = authority.akc(key_rev=5)
    r = tool("-d", "0", "-a", newer, "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.json()["unchanged"] is False and r.json()["provisioned"] is True
    assert "replaces the provisioned (same) key, key revision 4" in \
        check(r.json(), "already_provisioned")["detail"]
    assert written(dev, "akc") == read(newer)


def test_akc_rollback_is_refused(tool, sysfs, authority):
    sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(authority.akc(key_rev=4)))
    refused(tool, sysfs, "-a", authority.akc(key_rev=3), "ESTALE",
            "key revision 3 is lower than the provisioned 4", "akc")


def test_valid_license_is_unchanged_unless_forced(tool, sysfs, authority):
    akc = authority.akc()
    cap = authority.cap(PPIN, license_id=0x77, revision=2)
    dev = sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(akc, [cap]))
    older = authority.cap(PPIN, license_id=0x77, revision=1)
    for path in (cap, older):
        r = tool("-d", "0", "-c", path, root=sysfs.root)
        assert r.rc == 0, r.err
        assert "is already provisioned on intel_vsec.sdsi.0: nothing written" in r.out
    report = tool("-d", "0", "-c", older, "--json", root=sysfs.root).json()
    assert report["unchanged"] is True and report["provisioned"] is False
    assert ("licence 0x0000000000000077 revision 2 is already provisioned and valid (entry 0); "
            "this CAP is revision 1") == check(report, "already_provisioned")["detail"]
    assert written(dev, "cap") == b""
    r = tool("-d", "0", "-c", cap, "--force", root=sysfs.root)
    assert r.rc == 0 and r.out == f"Provisioned provision_cap file {cap} successfully\n"
    assert written(dev, "cap") == read(cap)
    # Said before the write (issue 24): a replay is a failure the silicon counts.
    assert (f"intel_vsec.sdsi.0: warning: --force writes {cap} although the socket already"
            " holds licence 0x0000000000000077 at revision 2 or higher: the silicon refuses"
            " such a replay and counts it as a CAP failure (0 of 3 so far)") in r.err
    r = tool("-d", "0", "-c", cap, "--force", "--dry-run", root=sysfs.root)
    assert r.rc == 0 and "replay" not in r.err


def test_new_revision_or_new_license_is_written(tool, sysfs, authority):
    akc = authority.akc()
    stored = authority.cap(PPIN, license_id=0x77, revision=2)
    dev = sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(akc, [stored]))
    for path in (authority.cap(PPIN, license_id=0x77, revision=3),
                 authority.cap(PPIN, license_id=0x78, revision=1)):
        r = tool("-d", "0", "-c", path, "--json", root=sysfs.root)
        assert r.rc == 0, r.err
        assert r.json()["provisioned"] is True and r.json()["unchanged"] is False
        assert written(dev, "cap") == read(path)


def test_superseded_license_is_a_replay(tool, sysfs, authority):
    akc = authority.akc()
    stored = authority.cap(PPIN, license_id=0x77, revision=2)
    sysfs.add(0, regs=registers(**WITH_AKC),
              state=provisioned_state(akc, [stored], valid=[False]))
    refused(tool, sysfs, "-c", stored, "ESTALE",
            "revision 2 is stored (entry 0, no longer valid)", "cap")


def test_dry_run_shows_the_decoded_cap_and_every_check(tool, sysfs, authority):
    dev = sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(authority.akc()))
    os.unlink(os.path.join(dev, "provision_cap"))   # a write would fail: none happens
    cap = authority.cap(PPIN, features=("CC02", "SGX1"), license_id=0xDEADBEEF12, revision=3,
                        metered=True, previous_ppin=0x99)
    r = tool("-d", "0", "-c", cap, "--dry-run", root=sysfs.root)
    assert r.rc == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].startswith("Dry run: CAP passed every pre-flight check; would write 196")
    assert lines[1:10] == [
        "Blob: CAP (licence blob layout), 196 bytes",
        "    License blob type:          Metered upgrade",
        "    License blob ID:            0x000000deadbeef12",
        "    PPIN:                       0x1122334455667788",
        "    Previous PPIN:              0x0000000000000099",
        "    Blob revision ID:           3",
        "    Number of Features:         2",
        "             Feature 0:         CC02",
        "             Feature 1:         SGX1"]
    assert lines[10] == "Pre-flight checks:"
    names = [line.split()[0] for line in lines[11:]]
    assert names == ["layout", "size", "format", "on_demand", "updates", "failures",
                     "akc_present", "ppin", "already_provisioned"]
    assert all(line.split()[1] == "pass" for line in lines[11:]), lines
    doc = tool("-d", "0", "-c", cap, "--dry-run", "--json", root=sysfs.root).json()
    assert doc["dry_run"] is True and doc["provisioned"] is False and doc["format"] == "cap"
    assert doc["decoded"] == {"kind": "cap", "license": {
        "type": 2, "type_name": "metered", "id": "0x000000deadbeef12",
        "ppin": "0x1122334455667788", "previous_ppin": "0x0000000000000099", "revision": 3,
        "bundles": [{"code": "CC02"}, {"code": "SGX1"}]}}
    assert [c["name"] for c in doc["checks"]] == names
    assert not os.path.exists(os.path.join(dev, "provision_cap"))


def test_dry_run_shows_the_decoded_akc(tool, sysfs, authority):
    sysfs.add(0)
    akc = authority.akc(key_rev=0x1F)
    r = tool("-d", "0", "-a", akc, "--dry-run", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "Blob: AKC (sdsi format), 208 bytes\n" in r.out
    assert "    License Key Revision ID:    0x1f\n" in r.out
    assert f"    License Key Image Content:  {image_as_printed(key_image(akc))}\n" in r.out
    doc = tool("-d", "0", "-a", akc, "--dry-run", "--json", root=sysfs.root).json()
    assert doc["decoded"] == {"kind": "akc", "akc": {
        "key_revision": 0x1F, "key_image": image_as_printed(key_image(akc))}}
    assert check(doc, "already_provisioned")["detail"] == "no AKC provisioned yet"


def test_dry_run_of_an_unchanged_blob(tool, sysfs, authority):
    akc = authority.akc()
    sysfs.add(0, regs=registers(**WITH_AKC), state=provisioned_state(akc))
    r = tool("-d", "0", "-a", akc, "--dry-run", root=sysfs.root)
    assert r.rc == 0
    assert r.out.startswith(f"Dry run: AKC file {akc} is already provisioned on "
                            "intel_vsec.sdsi.0: nothing would be written")
    r = tool("-d", "0", "-a", akc, "--dry-run", "--force", root=sysfs.root)
    assert r.rc == 0
    assert "(already provisioned, sent because of --force); would write 208 bytes" in r.out


def test_foreign_blob_passes_with_the_generic_checks(tool, sysfs, tmp_path):
    dev = sysfs.add(0, regs=registers(ppin=0xAAAA, **WITH_AKC))
    foreign = tmp_path / "intel.cap"
    foreign.write_bytes(b"INTL" + bytes(range(200)))     # no licence type: not read
    r = tool("-d", "0", "-c", str(foreign), root=sysfs.root)
    assert r.rc == 0, r.err
    assert "intel.cap does not read as a licence blob (a foreign blob)" in r.err
    assert written(dev, "cap") == foreign.read_bytes()
    doc = tool("-d", "0", "-c", str(foreign), "--dry-run", "--json", root=sysfs.root).json()
    assert doc["format"] == "foreign" and doc["decoded"] is None
    assert check(doc, "format")["result"] == "skip"
    assert "ppin" not in [c["name"] for c in doc["checks"]]
    r = tool("-d", "0", "-c", str(foreign), "--dry-run", root=sysfs.root)
    assert "Blob: foreign (not the sdsi AKC/CAP format), 204 bytes: not decoded" in r.out


def test_our_magic_with_another_version_is_foreign(tool, sysfs, authority, tmp_path):
    dev = sysfs.add(0)
    data = bytearray(read(authority.akc()))
    data[4] = 2
    v2 = tmp_path / "v2.akc"
    v2.write_bytes(bytes(data))
    r = tool("-d", "0", "-a", str(v2), "--json", root=sysfs.root)
    assert r.rc == 0 and r.json()["format"] == "foreign"
    assert written(dev, "akc") == bytes(data)


def test_unreadable_state_certificate_writes_nothing(tool, sysfs, authority):
    """Issue 19, finding 1: without the state certificate the tool cannot tell
    whether the CAP is already there; it writes nothing and says so (exit 9),
    unless --force."""
    dev = sysfs.add(0, regs=registers(**WITH_AKC))        # no state_certificate file
    cap = authority.cap(PPIN)
    for extra in ([], ["--dry-run"]):
        r = tool("-d", "0", "-c", cap, *extra, root=sysfs.root)
        assert r.rc == 9, r.err
        assert "state_certificate" in r.err and "already provisioned is unknown" in r.err
        assert "nothing is written" in r.err
    r = tool("-d", "0", "-c", cap, "--json", root=sysfs.root)
    assert r.rc == 9
    err = schemas.check("error.json", r.out)["error"]
    assert err["name"] == "ENOENT"              # why the certificate could not be read
    assert check(err["preflight"], "already_provisioned")["result"] == "fail"
    assert written(dev, "cap") == b""
    r = tool("-d", "0", "-c", cap, "--force", "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "the comparison with what is provisioned is skipped (--force)" in r.err
    assert check(r.json(), "already_provisioned")["result"] == "skip"
    assert written(dev, "cap") == read(cap)


def test_unchanged_wins_over_refusals_of_writing(tool, sysfs, authority):
    """Issue 19, finding 2: an identical re-run after the power cycle's updates
    (or failures) are used up is unchanged, exit 0, in a dry run too."""
    akc = authority.akc()
    cap = authority.cap(PPIN)
    for regs in (dict(updates=(0, 4)), dict(cap=(3, 3)), dict(akc=(3, 3))):
        sysfs.add(0, regs=registers(**WITH_AKC, **regs), state=provisioned_state(akc, [cap]))
        for blob, flag in ((akc, "-a"), (cap, "-c")):
            for extra in ([], ["--dry-run"]):
                r = tool("-d", "0", flag, blob, "--json", *extra, root=sysfs.root)
                assert r.rc == 0, (regs, flag, r.err)
                doc = schemas.check("provision.json", r.out)
                assert doc["unchanged"] is True and doc["provisioned"] is False
                assert "fail" not in [c["result"] for c in doc["checks"]]
            # --force asks for a write, which the refusal is about.
            other_kind = (flag == "-a" and "cap" in regs) or (flag == "-c" and "akc" in regs)
            r = tool("-d", "0", flag, blob, "--force", root=sysfs.root)
            assert r.rc == (0 if other_kind else 5), (regs, flag, r.err)


# The same kind of key in binary (issue 24): 167 bytes of SEC1 DER private
# key, a 185-byte PKCS#8 one and a 120-byte SubjectPublicKeyInfo, each
# binary and within the sizes a foreign blob may have.
_KEY = ec.generate_private_key(ec.SECP384R1())
DER_PRIVATE = _KEY.private_bytes(serialization.Encoding.DER,
                                 serialization.PrivateFormat.TraditionalOpenSSL,
                                 serialization.NoEncryption())
DER_PKCS8 = _KEY.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                               serialization.NoEncryption())
DER_PUBLIC = _KEY.public_key().public_bytes(serialization.Encoding.DER,
                                            serialization.PublicFormat.SubjectPublicKeyInfo)

PEM_KEY = ("-----BEGIN EC PRIVATE KEY-----\n"
           + "MIGkAgEBBDD" + "A" * 53 + "\n" + "B" * 64 + "\n"
           + "-----END EC PRIVATE KEY-----\n")


@pytest.mark.parametrize("content,reason", [
    (b"hello\n", "6 bytes, fewer than the 96"),
    (PEM_KEY.encode(), 'a PEM file ("-----BEGIN EC PRIVATE KEY")'),
    (b"licence for rack 7, socket 0: see the ticket\n" * 4, "text, not a signed blob"),
    (bytes(512), "and this is 512 bytes that are all 0x00"),
    (b"\xff" * 1016, "and this is 1016 bytes that are all 0xff"),
    (bytes(range(95)), "95 bytes, fewer than the 96"),
    (DER_PRIVATE, "a DER private key, not a blob"),
    (DER_PKCS8, "a DER private key, not a blob"),
    (DER_PUBLIC, "a DER public key, not a blob"),
], ids=["6-byte text", "PEM key", "text", "zeros", "erased", "95 bytes", "DER key",
        "DER PKCS8 key", "DER public key"])
@pytest.mark.parametrize("flag", ["-a", "-c"])
def test_implausible_foreign_blob_is_not_sent(tool, sysfs, tmp_path, content, reason, flag):
    """Issue 19, finding 3: junk is refused before any write, named with the
    reason; --force sends it and says what that risks."""
    kind = "akc" if flag == "-a" else "cap"
    dev = sysfs.add(0, regs=registers(**WITH_AKC))
    junk = tmp_path / "junk.bin"
    junk.write_bytes(content)
    for extra in ([], ["--dry-run"]):
        r = tool("-d", "0", flag, str(junk), *extra, root=sysfs.root)
        assert r.rc == 5, r.err
        assert reason in r.err and \
            f"{junk}: not an AKC or CAP the silicon could accept" in r.err
    r = tool("-d", "0", flag, str(junk), "--json", root=sysfs.root)
    assert r.rc == 5
    err = schemas.check("error.json", r.out)["error"]
    assert err["name"] == "EBADMSG" and reason in err["message"]
    assert check(err["preflight"], "format")["result"] == "fail"
    if "PEM" in reason:
        assert "MIGk" not in r.out + r.err      # nothing of the key itself
    assert written(dev, kind) == b""
    r = tool("-d", "0", flag, str(junk), "--force", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "sent because of --force" in r.err and "count a" in r.err
    assert written(dev, kind) == content


@pytest.mark.parametrize("size", [96, 1016])
def test_foreign_blob_size_bounds_accepted(tool, sysfs, tmp_path, size):
    """The smallest and the largest plausible foreign blob are sent; one byte
    fewer or more is refused (above, and EOVERFLOW in test_provision.py)."""
    dev = sysfs.add(0, regs=registers(**WITH_AKC))
    blob = tmp_path / "intel.cap"
    blob.write_bytes(bytes((i * 13 + 0x80) & 0xFF for i in range(size)))
    r = tool("-d", "0", "-c", str(blob), root=sysfs.root)
    assert r.rc == 0, r.err
    assert written(dev, "cap") == blob.read_bytes()


def test_force_applies_to_provisioning_and_output_only(tool, sysfs):
    sysfs.add(0)
    r = tool("-d", "0", "-i", "--force", "--json", root=sysfs.root)
    assert r.rc == 2
    assert "--force applies to -a, -c and --output only" in r.json()["error"]["message"]
