# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi --all -c DIR with the CAPs operators hold (issue 24): each read
by the published licence-blob layout whatever its signature, matched to the
socket whose PPIN it carries (or, when it does not read, to the one
DIR/MANIFEST names), "already provisioned" once the state certificate holds
its licence ID and revision; and a run that leaves a socket without its CAP,
a CAP without its socket, two CAPs for one socket or an empty directory ends
with exit 5, naming each.  On plain files (the ABI's bytes), where what is
written can be read back byte for byte."""
import os
import struct

import pytest

from abi_bytes import registers, state_cert

PPINS = (0x0A0A0A0A0A0A0A01, 0x0A0A0A0A0A0A0A02)
NAMES = ["intel_vsec.sdsi.0", "intel_vsec.sdsi.1"]
EXIT_REFUSED, EXIT_MALFORMED = 5, 8


def intel_cap(ppin, license_id, revision=3, signature=104):
    """A CAP in the published layout (docs/formats.md section 3): type,
    ID, PPIN, previous PPIN, revision, one bundle "CC02"; then a signature
    whose length is not ours (a DER ECDSA signature is about 104 bytes)."""
    blob = (struct.pack("<IQQQII", 1, license_id, ppin, 0, revision, 1)
            + b"20CC" + bytes(28))
    return blob + bytes((i * 37 + 11) & 0xFF for i in range(signature))


def licence_of(cap):
    """What the state certificate keeps of a CAP: the blob, no signature."""
    return cap[:36 + 32]


def written(dev):
    with open(os.path.join(dev, "provision_cap"), "rb") as f:
        return f.read()


def sockets(sysfs, licences=((), ())):
    """Two sockets with an AKC and the given licences stored."""
    return [sysfs.add(n, regs=registers(ppin=PPINS[n], akc_provisioned=True),
                      state=state_cert(list(licences[n])))
            for n in range(2)]


def cap_dir(tmp_path, files, name="caps"):
    d = tmp_path / name
    d.mkdir()
    for file_name, data in files.items():
        (d / file_name).write_bytes(data)
    return str(d)


def results(doc):
    return [(s["device"], s["result"], [(os.path.basename(b["file"]), b["result"])
                                        for b in s["blobs"]]) for s in doc["results"]]


def test_published_layout_cap_goes_to_its_socket_alone_then_unchanged(tool, sysfs, tmp_path):
    caps = {"s0.cap": intel_cap(PPINS[0], 0x1000, signature=96),
            "s1.cap": intel_cap(PPINS[1], 0x2000, signature=104)}
    devs = sockets(sysfs)
    d = cap_dir(tmp_path, caps)
    r = tool("--all", "-c", d, "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert results(r.json()) == [(NAMES[0], "provisioned", [("s0.cap", "written")]),
                                 (NAMES[1], "provisioned", [("s1.cap", "written")])]
    assert [written(dev) for dev in devs] == [caps["s0.cap"], caps["s1.cap"]]
    files = {os.path.basename(f["file"]): f for f in r.json()["files"]}
    assert files["s1.cap"]["ppin"] == f"0x{PPINS[1]:016x}"

    # The silicon stored them: the second run writes nothing.
    devs = sockets(sysfs, ([licence_of(caps["s0.cap"])], [licence_of(caps["s1.cap"])]))
    r = tool("--all", "-c", d, root=sysfs.root)
    assert r.rc == 0, r.err
    assert "intel_vsec.sdsi.1 (PPIN 0x0a0a0a0a0a0a0a02): unchanged, already provisioned" in r.out
    assert "s1.cap: CAP licence 0x0000000000002000 revision 3 (CC02): unchanged" in r.out
    assert [written(dev) for dev in devs] == [b"", b""]

    # --force writes them again, and says first what that costs.
    r = tool("--all", "-c", d, "--force", root=sysfs.root)
    assert r.rc == 0, r.err
    assert r.err.startswith("intel_sdsi: warning: --force writes every CAP, even one its socket"
                            " already holds: the silicon refuses such a replay and counts it")
    assert ("intel_vsec.sdsi.1: warning: --force writes " + os.path.join(d, "s1.cap")
            + " although the socket already holds licence 0x0000000000002000 at revision 3")\
        in r.err
    assert [written(dev) for dev in devs] == [caps["s0.cap"], caps["s1.cap"]]

    # A lower revision stored is not that licence: it is written.
    older = licence_of(intel_cap(PPINS[1], 0x2000, revision=2))
    devs = sockets(sysfs, ([licence_of(caps["s0.cap"])], [older]))
    r = tool("--all", "-c", d, "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert [written(dev) for dev in devs] == [b"", caps["s1.cap"]]


@pytest.mark.parametrize("case", ["empty", "socket without CAP", "CAP without socket",
                                  "file that is no CAP", "two CAPs for one socket"])
def test_what_a_run_leaves_unmatched_is_named_and_fails(tool, sysfs, tmp_path, case):
    s0, s1 = intel_cap(PPINS[0], 0x10), intel_cap(PPINS[1], 0x11)
    files = {
        "empty": {},
        "socket without CAP": {"s0.cap": s0},
        "CAP without socket": {"s0.cap": s0, "s1.cap": s1,
                               "stray.cap": intel_cap(0xDEAD, 0x12)},
        "file that is no CAP": {"s0.cap": s0, "s1.cap": s1,
                                "notes.bin": b"\x07" + bytes(range(200))},
        "two CAPs for one socket": {"s0.cap": s0, "s0-too.cap": intel_cap(PPINS[0], 0x13),
                                    "s1.cap": s1},
    }[case]
    message, want = {
        "empty": ("caps: empty: no CAP to provision", [b"", b""]),
        "socket without CAP": ("intel_vsec.sdsi.1 (PPIN 0x0a0a0a0a0a0a0a02): no CAP in ", [s0, b""]),
        "CAP without socket": ("stray.cap: CAP for PPIN 0x000000000000dead, which no socket here"
                               " has; not used", [s0, s1]),
        "file that is no CAP": ("notes.bin: foreign: does not read as a licence blob (at offset 0:"
                                " licence type 0x02010007", [s0, s1]),
        "two CAPs for one socket": ("intel_vsec.sdsi.0 (PPIN 0x0a0a0a0a0a0a0a01): 2 CAPs are for it"
                                    " (s0-too.cap, s0.cap): one CAP per socket, so none is"
                                    " written to it", [b"", s1]),
    }[case]
    d = cap_dir(tmp_path, files)
    for extra in (["--dry-run"], ["--json"], ["--quiet"], []):
        devs = sockets(sysfs)
        r = tool("--all", "-c", d, *extra, root=sysfs.root)
        assert r.rc == EXIT_REFUSED, (extra, r.err)
        assert message in r.err, (extra, r.err)
        assert [written(dev) for dev in devs] == (want if "--dry-run" not in extra
                                                  else [b"", b""])
    # A complete directory is no failure.
    if case != "empty":
        whole = cap_dir(tmp_path, {"s0.cap": s0, "s1.cap": s1}, name="whole")
        sockets(sysfs)
        assert tool("--all", "-c", whole, root=sysfs.root).rc == 0


def test_manifest_names_the_socket_of_a_file_that_does_not_read(tool, sysfs, tmp_path):
    vendor = b"\x30\x82" + bytes((i * 7 + 3) & 0xFF for i in range(300))
    s0 = intel_cap(PPINS[0], 0x20)
    d = cap_dir(tmp_path, {"s0.cap": s0, "vendor.bin": vendor,
                           "MANIFEST": b"# PPIN  file\n\n0x0a0a0a0a0a0a0a02  vendor.bin\n"})
    devs = sockets(sysfs)
    r = tool("--all", "-c", d, "--json", root=sysfs.root)
    assert r.rc == 0, r.err
    assert results(r.json()) == [(NAMES[0], "provisioned", [("s0.cap", "written")]),
                                 (NAMES[1], "provisioned", [("vendor.bin", "written")])]
    assert [written(dev) for dev in devs] == [s0, vendor]


@pytest.mark.parametrize("manifest,rc,message", [
    (b"0a0a0a0a0a0a0a02\n", EXIT_MALFORMED, "MANIFEST:1: a PPIN with no file name after it"),
    (b"# ok\nxyz vendor.bin\n", EXIT_MALFORMED, "MANIFEST:2: the PPIN is not 1 to 16 hexadecimal"),
    (b"1 vendor.bin\n2 vendor.bin\n", EXIT_MALFORMED,
     "MANIFEST:2: vendor.bin is named twice (first on line 1)"),
    (b"0a0a0a0a0a0a0a02 vendor.bin\n5 gone.cap\n", EXIT_MALFORMED, "MANIFEST:2: no file gone.cap in"),
    (b"0a0a0a0a0a0a0a02 vendor.bin\n0x77 s0.cap\n", EXIT_REFUSED,
     "s0.cap: {d}/MANIFEST line 2 binds it to PPIN 0x0000000000000077, its licence blob to PPIN"
     " 0x0a0a0a0a0a0a0a01"),
])
def test_a_manifest_that_cannot_be_followed(tool, sysfs, tmp_path, manifest, rc, message):
    """A manifest that does not read stops the run before any socket; one
    that contradicts a CAP's own PPIN leaves that CAP unused, named."""
    d = cap_dir(tmp_path, {"s0.cap": intel_cap(PPINS[0], 0x20), "MANIFEST": manifest,
                           "vendor.bin": b"\x30\x82" + bytes(range(200))})
    devs = sockets(sysfs)
    r = tool("--all", "-c", d, root=sysfs.root)
    assert r.rc == rc, r.err
    assert message.format(d=d) in r.err
    assert written(devs[0]) == b""
    if rc == EXIT_MALFORMED:    # stopped before any socket: the document names the source
        doc = tool("--all", "-c", d, "--json", root=sysfs.root).json()
        assert (doc["file"], doc["device"]) == (d, None)
        assert doc["error"]["name"] in ("EBADMSG", "ENOENT")
