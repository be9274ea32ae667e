# SPDX-License-Identifier: GPL-2.0-only
"""End to end with real cryptography: intel_sdsi inside `sdsi-emu run
--authority DIR`, whose sockets trust the root key of an authority made by
sdsi-authority.  The pre-flight checks must agree with the silicon: what they
refuse or find unchanged spends no counter and no update, and what they let
through is accepted, or rejected by the silicon for reasons only the keys can
tell (a tampered signature, a forced replay)."""
import json

import pytest

from authority import image_as_printed, key_image, read
from emu_steps import emu, t
from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

PPINS = (0xABCDEF0123, 0x5566778899)


def platform(authority, steps, sockets=2):
    ppins = ",".join(f"{p:x}" for p in PPINS[:sockets])
    return emu(steps, "--authority", authority.dir, "--sockets", str(sockets), "--ppin", ppins)


def doc(result):
    return json.loads(result["out"])


def info(devno=0):
    return t("-d", str(devno), "-i", "--json")


def spent(result):
    """What provisioning has cost the socket so far, from -i --json."""
    d = doc(result)
    return (d["akc_failures"]["count"], d["cap_failures"]["count"], d["updates"]["available"],
            d["auth_errors"]["content"])


def test_akc_then_cap_provisioned_for_real(authority):
    akc = authority.akc(key_rev=2)
    cap = authority.cap(PPINS[0], features=("CC02", "SGX1"), license_id=0x51, metered=True)
    r = platform(authority, [t("-d", "0", "-a", akc, "--json"), info(),
                             t("-d", "0", "-c", cap, "--json"), t("-d", "0", "-s", "--json"),
                             info(), info(1)])
    assert [x["rc"] for x in r] == [0] * len(r), r
    report = doc(r[0])
    assert report["provisioned"] is True and report["unchanged"] is False
    assert doc(r[1])["akc_provisioned"] is True
    assert doc(r[2])["provisioned"] is True
    assert doc(r[2])["decoded"]["license"]["ppin"] == f"0x{PPINS[0]:016x}"
    state = doc(r[3])
    # The key image the tool computes is the one the silicon recorded.
    assert state["key_image"] == report["decoded"]["akc"]["key_image"] == \
        image_as_printed(key_image(akc))
    assert state["key_revision"] == 2
    assert [(lic["license"]["id"], lic["valid"], lic["license"]["type_name"],
             lic["license"]["bundles"]) for lic in state["licenses"]] == [
        ("0x0000000000000051", True, "metered", [{"code": "CC02"}, {"code": "SGX1"}])]
    assert spent(r[4]) == (0, 0, 2, False)          # two updates used, no failure
    assert spent(r[5]) == (0, 0, 4, False)          # the other socket untouched


def test_already_provisioned_is_unchanged_and_spends_nothing(authority):
    akc = authority.akc(key_rev=2)
    cap = authority.cap(PPINS[0], license_id=0x52, revision=2)
    older = authority.cap(PPINS[0], license_id=0x52, revision=1)
    r = platform(authority, [t("-d", "0", "-a", akc), t("-d", "0", "-c", cap), info(),
                             t("-d", "0", "-a", akc, "--json"), t("-d", "0", "-c", cap, "--json"),
                             t("-d", "0", "-c", older), t("-d", "0", "-c", cap, "--dry-run"),
                             info(), t("-d", "0", "-s", "--json")])
    assert [x["rc"] for x in r] == [0] * len(r), r
    before = spent(r[2])
    for res in (r[3], r[4]):
        assert doc(res)["unchanged"] is True and doc(res)["provisioned"] is False
    assert "already provisioned on intel_vsec.sdsi.0: nothing written" in r[5]["out"]
    assert "nothing would be written" in r[6]["out"]
    assert "already_provisioned  unchanged" in r[6]["out"]
    assert spent(r[7]) == before == (0, 0, 2, False)
    assert len(doc(r[8])["licenses"]) == 1


def test_wrong_ppin_refused_with_no_counter_spent(authority):
    akc = authority.akc()
    other_socket = authority.cap(PPINS[1], license_id=0x53)
    r = platform(authority, [t("-d", "0", "-a", akc), info(),
                             t("-d", "0", "-c", other_socket, "--json"),
                             t("-d", "0", "-c", other_socket, "--force"), info(),
                             t("-d", "1", "-a", akc), t("-d", "1", "-c", other_socket),
                             info(1)])
    assert r[0]["rc"] == 0, r[0]
    for res in (r[2], r[3]):
        assert res["rc"] == 5, res
    err = doc(r[2])["error"]
    assert err["name"] == "EXDEV" and "this socket's PPIN is 0x000000abcdef0123" in err["message"]
    assert spent(r[4]) == spent(r[1]) == (0, 0, 3, False)
    # The same CAP is the right one for the socket it was issued for.
    assert r[5]["rc"] == 0 and r[6]["rc"] == 0, r[6]
    assert spent(r[7]) == (0, 0, 2, False)


def test_wrong_kind_and_malformed_refused_with_no_counter_spent(authority, tmp_path):
    akc = authority.akc()
    cap = authority.cap(PPINS[0])
    truncated = tmp_path / "truncated.cap"
    truncated.write_bytes(read(cap)[:100])
    r = platform(authority, [t("-d", "0", "-c", akc), t("-d", "0", "-a", cap),
                             t("-d", "0", "-a", akc), t("-d", "0", "-c", str(truncated)),
                             info()], sockets=1)
    assert [x["rc"] for x in r] == [5, 5, 0, 5, 0], r
    assert "use -a" in r[0]["err"] and "use -c" in r[1]["err"]
    assert "malformed CAP at offset" in r[3]["err"]
    assert spent(r[4]) == (0, 0, 3, False)


def test_what_only_the_keys_can_tell_reaches_the_silicon(authority, tmp_path):
    akc = authority.akc()
    cap = authority.cap(PPINS[0], license_id=0x54)
    tampered = tmp_path / "tampered.cap"
    data = bytearray(read(cap))
    data[-1] ^= 0x01                                # the last byte of the signature
    tampered.write_bytes(bytes(data))
    r = platform(authority, [t("-d", "0", "-a", akc), t("-d", "0", "-c", str(tampered),
                                                        "--dry-run"),
                             t("-d", "0", "-c", str(tampered), "--json"), info(),
                             t("-d", "0", "-c", cap), t("-d", "0", "-c", cap, "--force"),
                             info()], sockets=1)
    assert r[1]["rc"] == 0, r[1]                    # well formed: pre-flight passes
    assert r[2]["rc"] == 6 and doc(r[2])["error"]["name"] == "EIO"
    assert spent(r[3]) == (0, 1, 3, True)
    assert r[4]["rc"] == 0, r[4]
    # --force sends a licence already stored: the silicon refuses the replay.
    assert r[5]["rc"] == 6, r[5]
    assert spent(r[6])[1] == 2
