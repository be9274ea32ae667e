# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi --attest (issue 28) inside `sdsi-emu run --authority DIR`,
whose parts get their attestation identity from DIR/attestation-root.pem:
verify succeeds on every part with a transport, against that root given as
a file and as a directory; each attest-* fault of the model, and a root the
owner did not trust, fail it with the check that names the fault and exit
10; attestation that cannot run keeps the classes of a read (no transport
3, busy 7); --json validates against docs/schema/attestation.json; --all
gives one verdict per socket; get_certificate --der goes to the real
openssl, and get_digests is the SHA-384 of get_certificate's bytes."""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess

import pytest

from emu_steps import ctl, t
from sdsikit import schemas
from sdsikit.emu import run_commands
from sdsikit.programs import AUTHORITY, EMU, TOOL
from test_program_conventions import complete
from tool_runs import emu_missing

needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

NOT_ATTESTED, NO_DEVICE, IO, USAGE = 10, 3, 7, 2
PROVES = "state certificate attested by the part whose key the root certifies"
CHECKS = ["version", "capabilities", "algorithms", "digest", "chain", "trust", "root-hash",
          "slot-digest", "challenge-signature", "challenge-nonce", "challenge-chain-hash",
          "measurement-signature", "measurement-state", "measurement-meter"]
STATE = "/sys/bus/auxiliary/devices/intel_vsec.sdsi.{}/state_certificate"


def new_authority(directory):
    """`sdsi-authority init DIRECTORY`: its keys and attestation-root.pem."""
    subprocess.run([AUTHORITY, "init", str(directory)], check=True, capture_output=True,
                   timeout=60)
    return directory


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    """The authority the emulated parts trust, its root as a file and in a
    directory of its own, and another authority's root nobody trusts."""
    base = tmp_path_factory.mktemp("attest")
    authority = new_authority(base / "authority")
    pem = authority / "attestation-root.pem"
    trusted = base / "trusted"
    trusted.mkdir()
    shutil.copy(pem, trusted / "vendor.pem")
    other = new_authority(base / "other") / "attestation-root.pem"
    return {"authority": str(authority), "pem": str(pem), "dir": str(trusted),
            "other": str(other)}


def verify(*args, trust=None, devno="0"):
    where = ["--all"] if devno is None else ["-d", devno]
    return t(*where, "--attest", "verify", *(["--trust", trust] if trust else []), *args)


def shell(script):
    """A step: bash -c SCRIPT with $1 the intel_sdsi under test; a pipeline
    fails when any of its commands fails."""
    return {"argv": ["/bin/bash", "-c", "set -o pipefail; " + script, "attest", TOOL]}


def run(steps, *emu_args):
    """Run steps (t(), ctl() and shell()) in one `sdsi-emu run EMU_ARGS`."""
    commands = [s["argv"] if "argv" in s else [TOOL, *s["tool"]] if "tool" in s
                else [EMU, "ctl", *s["ctl"]] for s in steps]
    return run_commands(EMU, emu_args, commands, timeout=300)


def doc(result, schema="attestation.json"):
    return schemas.check(schema, result["out"])


def results_of(d):
    return {c["name"]: c["result"] for c in d["checks"]}


# Every part sdsi-emu runs with an attestation transport: the current
# generation with and without metering, a first-generation layout with
# bit 12 set, and a part with an AKC provisioned (a state certificate that
# holds something).
PARTS = {
    "v2": [],
    "v2-without-metering": ["--features", "on-demand,attestation"],
    "v1-with-attestation": ["--guid", "v1", "--features", "on-demand,attestation"],
}


@needs_emu
@pytest.mark.parametrize("part", sorted(PARTS))
def test_verify_succeeds_on_every_part(roots, part):
    r = run([verify(trust=roots["pem"]), verify(trust=roots["dir"]),
             verify("--json", trust=roots["pem"]), shell(f'sha384sum {STATE.format(0)}')],
            "--authority", roots["authority"], *PARTS[part])
    for res in r[:3]:
        assert res["rc"] == 0, res
    text = r[0]["out"]
    assert "Attestation of device intel_vsec.sdsi.0" in text
    assert re.search(r"^Verdict: +attested$", text, re.M), text
    assert PROVES in text
    assert f"Trusted roots: {roots['pem']}" in " ".join(text.split()), text
    for name in CHECKS:
        assert re.search(rf"^    {name} +(ok|not-run)\b", text, re.M), (name, text)
    assert f"Trusted roots: {roots['dir']}" in " ".join(r[1]["out"].split())
    d = doc(r[2])
    assert d["attested"] is True and d["failed_check"] is None
    # The meter certificate is attested too where the part meters.
    assert d["summary"] == PROVES + (", and its meter certificate" if part == "v2" else "")
    assert d["device"] == "intel_vsec.sdsi.0" and d["trust"] == roots["pem"]
    metering = part == "v2"
    want = {name: "ok" for name in CHECKS}
    if not metering:
        want["measurement-meter"] = "not-run"
    assert results_of(d) == want
    assert len(d["certificates"]) >= 2 and d["anchor"] == d["certificates"][0]["subject"]
    measured = {m["index"]: m["value"] for m in d["measurements"]}
    assert measured[1] == r[3]["out"].split()[0]           # the state certificate's SHA-384
    assert (2 in measured) == metering
    assert re.fullmatch(r"[0-9a-f]{96}", d["digest"])


@needs_emu
def test_verify_after_provisioning_measures_the_new_state(roots, tmp_path):
    akc = tmp_path / "key.akc"
    subprocess.run([AUTHORITY, "akc", roots["authority"], "-o", str(akc)], check=True,
                   capture_output=True, timeout=60)
    r = run([verify("--json", trust=roots["pem"]), t("-d", "0", "-a", str(akc), "--json"),
             verify("--json", trust=roots["pem"]), t("-d", "0", "-s", "--json")],
            "--authority", roots["authority"])
    before, written, after = r[0], r[1], r[2]
    assert [x["rc"] for x in r] == [0, 0, 0, 0], r
    assert json.loads(written["out"])["provisioned"] is True
    assert json.loads(r[3]["out"])["key_revision"] is not None
    m_before = {m["index"]: m["value"] for m in doc(before)["measurements"]}
    m_after = {m["index"]: m["value"] for m in doc(after)["measurements"]}
    assert m_before[1] != m_after[1] and m_before[2] == m_after[2]


# Each fault of issue 27 and the check that must name it.
FAULTS = {
    "attest-signature": "challenge-signature",
    "attest-chain": "trust",
    "attest-measurement": "measurement-state",
}


@needs_emu
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_fails_with_its_check(roots, fault):
    check = FAULTS[fault]
    r = run([ctl("fault", "0", fault, "--count", "0"), verify("--json", trust=roots["pem"]),
             verify(trust=roots["pem"]), ctl("clear", "0"), verify(trust=roots["pem"])],
            "--authority", roots["authority"])
    js, text, cleared = r[1], r[2], r[4]
    assert (js["rc"], text["rc"]) == (NOT_ATTESTED, NOT_ATTESTED), r
    d = doc(js)
    assert d["attested"] is False and d["failed_check"] == check, d
    got = results_of(d)
    assert got[check] == "failed"
    first = CHECKS.index(check)
    assert all(got[c] == "ok" for c in CHECKS[:first]), got
    assert all(got[c] == "not-run" for c in CHECKS[first + 1:]), got
    assert re.search(r"^Verdict: +NOT attested$", text["out"], re.M)
    assert re.search(rf"^    First failed check: +{check}$", text["out"], re.M), text["out"]
    assert re.search(rf"^    {check} +failed\b", text["out"], re.M)
    # The failure is said on stderr too, naming the device and the check.
    assert "intel_sdsi: intel_vsec.sdsi.0: not attested:" in text["err"]
    assert check in text["err"]
    assert cleared["rc"] == 0, cleared


@needs_emu
def test_root_the_owner_did_not_trust_fails_the_trust_check(roots):
    r = run([verify("--json", trust=roots["other"]), verify(trust=roots["other"])],
            "--authority", roots["authority"])
    assert [x["rc"] for x in r] == [NOT_ATTESTED, NOT_ATTESTED], r
    d = doc(r[0])
    assert d["failed_check"] == "trust" and d["anchor"] is None
    assert results_of(d)["trust"] == "failed"
    assert "trust" in r[1]["err"]


@needs_emu
def test_no_transport_cannot_run(roots):
    # Bit 12 clear: no /dev/isdsi1.  Exit 3, an error document, never 10.
    r = run([verify("--json", trust=roots["pem"], devno="1"), verify(trust=roots["pem"], devno="1"),
             t("-d", "1", "--attest", "get_digests")],
            "--authority", roots["authority"], "--sockets", "2",
            "--features", "on-demand,metering")
    assert [x["rc"] for x in r] == [NO_DEVICE] * 3, r
    err = doc(r[0], "error.json")
    assert err["device"] == "intel_vsec.sdsi.1" and err["error"]["name"] == "ENODEV"
    assert r[1]["out"] == "" and r[1]["err"].startswith("intel_sdsi: ")


@needs_emu
def test_first_generation_part_without_bit12_cannot_run(roots):
    r = run([verify(trust=roots["pem"])], "--authority", roots["authority"], "--guid", "v1")
    assert r[0]["rc"] == NO_DEVICE, r


@needs_emu
def test_busy_is_retried_and_writes_nothing(roots):
    before = t("-d", "0", "-i", "--json")
    r = run([before, ctl("fault", "0", "attest-busy", "--count", "0"),
             verify("--json", trust=roots["pem"]), verify("--retry", "1", trust=roots["pem"]),
             ctl("clear", "0"), ctl("fault", "0", "attest-busy", "--count", "1"),
             verify("--json", trust=roots["pem"]),
             ctl("fault", "0", "attest-busy", "--count", "1"),
             verify("--json", "--retry", "1", trust=roots["pem"]),
             t("-d", "0", "-i", "--json")],
            "--authority", roots["authority"])
    busy, busy_retried, once, once_retried = r[2], r[3], r[6], r[8]
    assert busy["rc"] == IO and doc(busy, "error.json")["error"]["name"] == "EBUSY"
    assert "--retry N" in busy["err"]
    assert busy_retried["rc"] == IO and "still busy after 2 attempts" in busy_retried["err"]
    assert once["rc"] == IO, once                       # busy once, no --retry
    assert once_retried["rc"] == 0 and doc(once_retried)["attested"] is True
    # Nothing of the flow spends a provisioning attempt or counts a failure.
    assert json.loads(r[0]["out"]) == json.loads(r[9]["out"])


@needs_emu
def test_all_one_verdict_per_socket(roots):
    ppins = ["5ca1ab1e00", "5ca1ab1e01", "5ca1ab1e02"]
    r = run([verify("--json", trust=roots["pem"], devno=None),
             verify(trust=roots["pem"], devno=None),
             ctl("fault", "2", "attest-signature", "--count", "0"),
             verify("--json", trust=roots["pem"], devno=None),
             verify(trust=roots["pem"], devno=None)],
            "--authority", roots["authority"], "--sockets", "3", "--ppin", ",".join(ppins))
    good, good_text, bad, bad_text = r[0], r[1], r[3], r[4]
    assert good["rc"] == 0, good
    results = doc(good, "all.json")["results"]
    assert [d["device"] for d in results] == [f"intel_vsec.sdsi.{n}" for n in range(3)]
    assert all(d["attested"] for d in results)
    # Each verdict in its device's place: the part's own leaf, named by its PPIN.
    for d, ppin in zip(results, ppins):
        assert f"CN=sdsi part {int(ppin, 16):016x}" in d["certificates"][-1]["subject"], d
    assert len({d["digest"] for d in results}) == 3
    assert good_text["out"].count("Attestation of device") == 3
    assert bad["rc"] == NOT_ATTESTED and bad_text["rc"] == NOT_ATTESTED
    verdicts = [(d["attested"], d["failed_check"]) for d in doc(bad, "all.json")["results"]]
    assert verdicts == [(True, None), (True, None), (False, "challenge-signature")]
    assert "intel_vsec.sdsi.2: not attested" in bad_text["err"]
    assert "intel_vsec.sdsi.0: not attested" not in bad_text["err"]


@needs_emu
def test_all_keeps_a_socket_that_cannot_run_apart(roots):
    r = run([ctl("features", "1", "on-demand,metering"),
             verify("--json", trust=roots["pem"], devno=None)],
            "--authority", roots["authority"], "--sockets", "2")
    assert r[1]["rc"] == NO_DEVICE, r
    first, second = doc(r[1], "all.json")["results"]
    assert first["attested"] is True and second["error"]["name"] == "ENODEV"


@needs_emu
def test_certificate_der_goes_to_openssl_and_digest_is_the_chains(roots):
    r = run([shell('"$1" -d 0 --attest get_certificate --der | '
                   'openssl x509 -inform DER -noout -subject'),
             shell('"$1" -d 0 --attest get_certificate | sha384sum'),
             t("-d", "0", "--attest", "get_digests"),
             shell('"$1" -d 0 --attest get_certificate --der | base64 -w0'),
             shell('"$1" -d 0 --attest get_certificate | base64 -w0'),
             verify("--json", trust=roots["pem"])],
            "--authority", roots["authority"])
    leaf, chain_hash, digests, leaf_b64, chain_b64, verdict = r
    assert leaf["rc"] == 0 and leaf["out"].startswith("subject="), leaf
    assert chain_hash["rc"] == 0 and digests["rc"] == 0
    assert digests["out"] == chain_hash["out"].split()[0] + "\n"
    d = doc(verdict)
    assert d["digest"] == digests["out"].strip()
    # The leaf subject openssl printed is the chain's last certificate's.
    assert d["certificates"][-1]["subject"].split(",")[0] in leaf["out"].replace(" = ", "=")
    # The chain: Length u16 (all of it), reserved, RootHash, DER root first,
    # leaf last; --der gives that last certificate's bytes.
    chain = base64.b64decode(chain_b64["out"])
    der = base64.b64decode(leaf_b64["out"])
    assert int.from_bytes(chain[:2], "little") == len(chain)
    assert hashlib.sha384(chain).hexdigest() == d["digest"]
    assert der[0] == 0x30 and len(der) < len(chain) - 52 and chain.endswith(der)


@needs_emu
def test_output_writes_the_verdict_and_the_digest(roots, tmp_path):
    """--output FILE: the verdict (one device or --all, text or JSON) and
    get_digests' line land in FILE, nothing on stdout; a part that failed
    attestation is a verdict too, written (exit 10); attestation that could
    not run (no transport on socket 1) leaves FILE as it was (exit 3)."""
    files = {name: tmp_path / name for name in
             ("verdict.json", "verdict.txt", "all.json", "digest", "untrusted.json", "kept")}
    files["untrusted.json"].write_text("an older report\n")
    files["kept"].write_text("an older report\n")
    out = {name: str(path) for name, path in files.items()}
    r = run([ctl("features", "1", "on-demand,metering"),
             verify("--json", "--output", out["verdict.json"], trust=roots["pem"]),
             verify("--output", out["verdict.txt"], trust=roots["pem"]),
             verify("--json", "--output", out["all.json"], trust=roots["pem"], devno=None),
             t("-d", "0", "--attest", "get_digests", "--output", out["digest"]),
             t("-d", "0", "--attest", "get_digests"),
             verify("--json", "--output", out["untrusted.json"], trust=roots["other"]),
             verify("--json", "--output", out["kept"], trust=roots["pem"], devno="1")],
            "--authority", roots["authority"], "--sockets", "2")[1:]
    assert [x["rc"] for x in r] == [0, 0, NO_DEVICE, 0, 0, NOT_ATTESTED, NO_DEVICE], r
    for x in r[:4] + r[5:6]:
        assert x["out"] == "", x
    d = schemas.check("attestation.json", files["verdict.json"].read_text())
    assert d["attested"] is True and d["device"] == "intel_vsec.sdsi.0"
    assert re.search(r"^Verdict: +attested$", files["verdict.txt"].read_text(), re.M)
    # --all's document names socket 1, which has no transport, and is written.
    first, second = schemas.check("all.json", files["all.json"].read_text())["results"]
    assert first["attested"] is True and second["error"]["name"] == "ENODEV"
    assert files["digest"].read_text() == r[4]["out"] == d["digest"] + "\n"
    bad = schemas.check("attestation.json", files["untrusted.json"].read_text())
    assert bad["attested"] is False and bad["failed_check"] == "trust"
    assert files["kept"].read_text() == "an older report\n"
    assert "left as it was" in r[6]["err"]


def test_combinations_are_refused(tool):
    for args, said in [
            (["-d", "0", "--attest", "frob"], "--attest"),
            (["-d", "0", "--attest", "verify", "--der"], "--der applies"),
            (["-d", "0", "-s", "--trust", "x.pem"], "--trust applies"),
            (["-d", "0", "--attest", "get_digests", "--trust", "x.pem"], "--trust applies"),
            (["-d", "0", "--attest", "get_digests", "--json"], "--json applies"),
            (["--all", "--attest", "get_certificate"], "--all applies"),
            (["-d", "0", "--attest", "get_digests", "--format", "prometheus"], "prometheus"),
            (["-d", "0", "--attest", "get_certificate", "--output", "x"], "--output applies"),
            (["-d", "0", "--attest", "get_certificate", "--der", "--output", "x"],
             "--output applies"),
            (["-d", "0", "--attest", "verify", "--retry", "21"], "--retry"),
            (["--attest", "verify"], "No device specified")]:
        r = tool(*args)
        assert r.rc == USAGE and said in r.err, (args, r.err)


def test_help_man_and_completion_name_the_default_trust_directory(tool):
    help_text = tool("--help").out
    default = re.search(r"Default:\s+(/\S+attestation-roots)", help_text).group(1)
    assert default.endswith("/sdsi/attestation-roots")
    assert default.replace("-", "\\-") in tool("--dump-man").out
    assert complete("intel_sdsi", ["intel_sdsi", "--attest", ""]) == {
        "get_digests", "get_certificate", "verify"}
    assert complete("intel_sdsi", ["intel_sdsi", "-attest", "v"]) == {"verify"}
    assert complete("intel_sdsi", ["intel_sdsi", "--format", ""]) == {"text", "json", "prometheus"}
    assert {"--attest", "--trust", "--der"} <= complete("intel_sdsi", ["intel_sdsi", "--"])
    # --trust takes a file or a directory: the shell completes paths.
    completion = tool("--dump-bash-completion").out
    assert re.search(r"--trust\|-trust[|)][^;]*\n\t\tcompopt -o filenames", completion)


@needs_emu
def test_default_trust_directory_is_used_without_trust(roots, tool):
    default = re.search(r"Default:\s+(/\S+attestation-roots)", tool("--help").out).group(1)
    assert not os.path.lexists(default), f"{default} exists on this host: the test needs it absent"
    r = run([verify("--json")], "--authority", roots["authority"])
    err = doc(r[0], "error.json")
    assert r[0]["rc"] == USAGE and default in err["error"]["message"], r


def test_schema_rejects_a_verdict_that_drifts():
    checks = [{"name": n, "result": "ok", "detail": ""} for n in CHECKS]
    good = {"schema_version": "1.0", "device": "intel_vsec.sdsi.0", "file": None,
            "attested": True, "summary": PROVES, "failed_check": None, "trust": "roots",
            "anchor": "CN=root", "digest": "ab" * 48, "certificates": [{"subject": "CN=root"}],
            "measurements": [{"index": 1, "value": "cd" * 48}], "checks": checks}
    assert schemas.errors("attestation.json", good) == []
    failed = dict(good, attested=False, failed_check="trust")
    assert schemas.errors("attestation.json", failed) == []
    for name, bad in [
            ("attested without its failed check", dict(good, attested=False)),
            ("a failed check on an attested part", dict(good, failed_check="trust")),
            ("a check libsdsi does not have", dict(good, failed_check="vibes", attested=False)),
            ("a check missing", dict(good, checks=checks[1:])),
            ("a result not in the list", dict(good, checks=[dict(checks[0], result="maybe"),
                                                            *checks[1:]])),
            ("a digest of the wrong size", dict(good, digest="ab" * 32)),
            ("an upper-case measurement", dict(good, measurements=[{"index": 1,
                                                                   "value": "CD" * 48}])),
            ("measurement index 0", dict(good, measurements=[{"index": 0, "value": ""}])),
            ("an unknown field", dict(good, verdict="ok")),
            ("no schema_version", {k: v for k, v in good.items() if k != "schema_version"})]:
        assert schemas.errors("attestation.json", bad) != [], name
