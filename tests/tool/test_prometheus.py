# SPDX-License-Identifier: GPL-2.0-only
"""--format prometheus: every output passes `promtool check metrics` (the
parser and the linter of Prometheus itself, from Debian's prometheus package;
the header of the run names the promtool used) with no complaint, and holds
the numbers the JSON output of the same command holds.  Against emulated
sockets: one with an AKC, a metered licence and meters that ran, one fresh,
one failing (a mailbox fault, then an unbound driver), so the error metrics
show; and against crafted files for what the emulator cannot produce (label
values needing escapes, a repeated code)."""
import json
import os
import re

import pytest

from abi_bytes import blob as lic_blob
from abi_bytes import meter_cert, registers, state_cert
from emu_steps import ctl, emu, t
from prom_parse import parse, series, value
from sdsikit.layout import GUID_V1
import sdsikit.layout as L
from tool_runs import assert_clean, emu_missing

PPINS = (0xABCDEF0123, 0x5566778899)
COMMANDS = {"-i": "info", "-s": "state", "-m": "meter", "-C": "meter_current"}
needs_emu = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))


def seconds(count, unit_ms):
    return count * unit_ms / 1000


def check_info(fams, name, d):
    base = {"device": name, "socket": str(d["socket_id"]), "ppin": d["ppin"]}
    assert value(fams, "sdsi_socket_info", guid=d["guid"], **base) == 1
    for feature in ("on_demand", "attestation", "metering"):
        assert value(fams, f"sdsi_{feature}_enabled", **base) == d["features"][feature]
    assert value(fams, "sdsi_akc_provisioned", **base) == d["akc_provisioned"]
    for kind in ("akc", "cap"):
        f = d[f"{kind}_failures"]
        assert value(fams, "sdsi_provisioning_failures", kind=kind, **base) == f["count"]
        assert value(fams, "sdsi_provisioning_failure_threshold", kind=kind,
                     **base) == f["threshold"]
    assert value(fams, "sdsi_provisioning_updates_available", **base) == \
        d["updates"]["available"]
    assert value(fams, "sdsi_provisioning_updates_threshold", **base) == \
        d["updates"]["threshold"]
    for pct in ("50", "75", "90"):
        assert value(fams, "sdsi_nvram_limit_reached", percent=pct, **base) == \
            d["nvram_limits"][pct]
    for kind in ("content", "metering"):
        assert value(fams, "sdsi_auth_error", kind=kind, **base) == d["auth_errors"][kind]


def check_state(fams, base, d):
    assert value(fams, "sdsi_state_key_provisioned", **base) == \
        (d["key_revision"] is not None)
    if d["key_revision"] is not None:
        assert value(fams, "sdsi_state_key_revision", **base) == d["key_revision"]
    assert value(fams, "sdsi_state_licenses", **base) == len(d["licenses"])
    for slot in d["licenses"]:
        lic = slot["license"] or {"id": "", "type_name": "", "bundles": []}
        kind = lic["type_name"] if lic["type_name"] is not None else str(lic["type"])
        ident = dict(base, index=str(slot["index"]), id=lic["id"])
        assert value(fams, "sdsi_license_valid", type=kind, **ident) == slot["valid"]
        if slot["license"]:
            assert value(fams, "sdsi_license_revision", **ident) == lic["revision"]
        for bundle in lic["bundles"]:
            assert value(fams, "sdsi_license_feature_info", feature=bundle["code"],
                         **ident) == 1


def check_meter(fams, stem, base, d):
    unit = d["unit_ms"]
    assert value(fams, f"sdsi_meter_{stem}_reference_seconds_total", **base) == \
        seconds(d["mmrc"]["counter"], unit)
    got = {k: v for k, v in series(fams, f"sdsi_meter_{stem}_feature_seconds_total").items()
           if ("device", base["device"]) in k}
    want = {tuple(sorted(dict(base, feature=c["feature"]).items())): seconds(c["count"], unit)
            for c in d["counters"]}
    assert got == want


def by_device(json_text):
    """The --all document (JSON contract 1.0: a list in device order) by device."""
    return {d["device"]: d for d in json.loads(json_text)["results"]}


def check_against_json(flag, prom_text, json_text, regs):
    """Every device of the JSON document, success or error, in the exposition."""
    fams = assert_clean(prom_text)
    doc = by_device(json_text)
    command = COMMANDS[flag]
    assert {k: v for k, v in series(fams, "sdsi_up").items()} == {
        tuple(sorted({"command": command, "device": name}.items())): 0 if "error" in d else 1
        for name, d in doc.items()}
    errors = {name: d["error"]["name"] for name, d in doc.items() if "error" in d}
    assert {dict(k)["device"]: dict(k)["reason"]
            for k in series(fams, "sdsi_scrape_error")} == errors
    for k in series(fams, "sdsi_scrape_error"):
        assert dict(k)["command"] == command
    for name, d in doc.items():
        if "error" in d:
            assert not [f for f in fams if f not in ("sdsi_up", "sdsi_scrape_error")
                        and any(("device", name) in k for k in series(fams, f))]
            continue
        base = {"device": name, "socket": str(regs[name]["socket_id"]),
                "ppin": regs[name]["ppin"]}
        if flag == "-i":
            check_info(fams, name, d)
        elif flag == "-s":
            check_state(fams, base, d)
        else:
            check_meter(fams, "current" if flag == "-C" else "certificate", base, d)
    return fams


@needs_emu
def test_all_commands_match_json_and_pass_promtool(authority):  # noqa: F811
    akc = authority.akc(key_rev=2)
    cap = authority.cap(PPINS[0], features=("CC02", "SGX1"), license_id=0x51, metered=True)
    reads = [t("--all", flag, *fmt) for flag in COMMANDS
             for fmt in (("--format", "prometheus"), ("--json",))]
    steps = [t("-d", "0", "-a", akc), t("-d", "0", "-c", cap), ctl("power-cycle", "0"),
             ctl("advance", "0", "5000"), ctl("advance", "1", "7"),
             ctl("fault", "2", "status-timeout"), t("--all", "-i", "--json"), *reads,
             ctl("clear", "2"), ctl("unbind", "2"),
             t("--all", "-C", "--format", "prometheus"), t("--all", "-C", "--json"),
             t("-d", "0", "-C", "--format", "prometheus"), t("-d", "0", "-C", "--json")]
    # Model time all but stopped (1 s in 10^6 of real time): the live meters
    # move only by ctl advance, so a prometheus read and the JSON read after
    # it see the same counts, however slow the build.
    r = emu(steps, "--authority", authority.dir, "--sockets", "3", "--ppin",
            ",".join(f"{p:x}" for p in PPINS), "--time-scale", "0.000001")
    assert [x["rc"] for x in r[:2]] == [0, 0], r[:2]
    regs = {name: d for name, d in by_device(r[6]["out"]).items() if "error" not in d}
    # The registers are no mailbox transaction: the fault leaves -i alone.
    assert set(regs) == {f"intel_vsec.sdsi.{n}" for n in range(3)}
    for i, flag in enumerate(COMMANDS):
        prom, js = r[7 + 2 * i], r[8 + 2 * i]
        fams = check_against_json(flag, prom["out"], js["out"], regs)
        if flag == "-i":
            assert prom["rc"] == js["rc"] == 0, prom
            assert "sdsi_scrape_error" not in fams
            continue
        # A socket failed: the status says so, the exposition is still whole.
        assert prom["rc"] == js["rc"] == 7, (flag, prom)
        assert "timed out" in prom["err"]
        assert value(fams, "sdsi_scrape_error", command=COMMANDS[flag],
                     device="intel_vsec.sdsi.2", reason="ETIMEDOUT") == 1
    # The licence of socket 0 is metered: its meters counted the 5000 s.
    live = parse(r[13]["out"])
    base = {"device": "intel_vsec.sdsi.0", "socket": "0", "ppin": f"0x{PPINS[0]:016x}"}
    assert value(live, "sdsi_meter_current_reference_seconds_total", **base) == 5000
    assert value(live, "sdsi_meter_current_feature_seconds_total", feature="CC02", **base) > 0
    assert parse(r[9]["out"])["sdsi_license_valid"]["type"] == "gauge"
    # An unbound driver is a device without files: exit 3, ENODEV naming the
    # unbound driver, as -d N says it.
    unbound = r[17]
    assert unbound["rc"] == 3, unbound
    fams = check_against_json("-C", unbound["out"], r[18]["out"], regs)
    assert value(fams, "sdsi_scrape_error", command="meter_current",
                 device="intel_vsec.sdsi.2", reason="ENODEV") == 1
    # One device: the same families, no error.
    assert r[19]["rc"] == 0, r[19]
    one = assert_clean(r[19]["out"])
    assert series(one, "sdsi_up") == {(("command", "meter_current"),
                                       ("device", "intel_vsec.sdsi.0")): 1}
    check_meter(one, "current", base, json.loads(r[20]["out"]))


def test_label_values_escaped(tool, sysfs):
    """Four-character codes are any printable ASCII: '"' and '\\' reach the
    feature label and are escaped.  A newline cannot: libsdsi prints bytes
    outside printable ASCII as '.', so no label value can hold one (the
    other labels are device names, hex numbers, errno names and fixed words)."""
    pairs = [('a"b\\', 10), ("\\\\\\\\", 20), ("x\ny\x01", 30), ("CC02", 40)]
    sysfs.add(0, current=meter_cert(pairs, unit=250))
    r = tool("--all", "-C", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 0, r.err
    fams = assert_clean(r.out)
    assert 'feature="a\\"b\\\\"' in r.out
    assert 'feature="\\\\\\\\\\\\\\\\"' in r.out
    assert 'feature="x.y."' in r.out
    feats = {dict(k)["feature"]: v for k, v in
             series(fams, "sdsi_meter_current_feature_seconds_total").items()}
    assert feats == {'a"b\\': 2.5, "\\\\\\\\": 5.0, "x.y.": 7.5, "CC02": 10.0}


def test_reason_is_the_errno_name_outside_libsdsis_own_errnos(tool, sysfs):
    """Issue 19: a state certificate that is a symlink loop fails with
    ELOOP, which libsdsi's old table called "E?"."""
    d = sysfs.add(0, state=state_cert([]))
    os.remove(os.path.join(d, "state_certificate"))
    os.symlink("state_certificate", os.path.join(d, "state_certificate"))
    r = tool("-d", "0", "-s", "--format", "prometheus", root=sysfs.root)
    fams = assert_clean(r.out)
    assert series(fams, "sdsi_scrape_error") == {
        (("command", "state"), ("device", "intel_vsec.sdsi.0"), ("reason", "ELOOP")): 1.0}


def test_repeated_code_is_one_series_and_a_warning(tool, sysfs):
    sysfs.add(0, current=meter_cert([("CC02", 1), ("CC02", 2)]))
    r = tool("-d", "0", "-C", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 0
    assert "a second value for the same labels" in r.err
    fams = assert_clean(r.out)
    assert list(series(fams, "sdsi_meter_current_feature_seconds_total").values()) == [1.0]


def test_registers_label_every_value_and_exact_seconds(tool, sysfs):
    """Socket ID and PPIN come from the registers; 7 x 333 ms is 2.331 s exactly."""
    sysfs.add(4, regs=registers(socket_id=9, ppin=0x77), state=state_cert(
        [lic_blob(2, 0x99, 0x77, 0, 3, ["CC02"]), b""], valid=[False, False]),
        meter=meter_cert([("SGX1", 7)], unit=333, mmrc=4294967295))
    base = {"device": "intel_vsec.sdsi.4", "socket": "9", "ppin": "0x0000000000000077"}
    r = tool("-d", "4", "-m", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "sdsi_meter_certificate_feature_seconds_total{" in r.out and "} 2.331\n" in r.out
    fams = assert_clean(r.out)
    assert value(fams, "sdsi_meter_certificate_feature_seconds_total", feature="SGX1",
                 **base) == 2.331
    assert value(fams, "sdsi_meter_certificate_reference_seconds_total", **base) == \
        4294967295 * 333 / 1000
    r = tool("-d", "4", "-s", "--format", "prometheus", root=sysfs.root)
    fams = assert_clean(r.out)
    assert value(fams, "sdsi_license_valid", index="0", id="0x0000000000000099", type="metered",
                 **base) == 0
    assert value(fams, "sdsi_license_valid", index="1", id="", type="", **base) == 0
    assert value(fams, "sdsi_state_licenses", **base) == 2
    assert len(series(fams, "sdsi_license_revision")) == 1


def test_refusals_and_missing_devices_are_error_metrics(tool, sysfs):
    sysfs.add(0, regs=registers(features=0), state=state_cert([]))
    r = tool("--all", "-s", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 5 and "not enabled" in r.err
    fams = assert_clean(r.out)
    assert value(fams, "sdsi_scrape_error", command="state", device="intel_vsec.sdsi.0",
                 reason="EPERM") == 1
    r = tool("-d", "7", "-i", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 3
    fams = assert_clean(r.out)
    assert value(fams, "sdsi_up", command="info", device="") == 0
    empty = os.path.join(os.path.dirname(sysfs.root), "empty")
    os.mkdir(empty)
    r = tool("--all", "-i", "--format", "prometheus", root=empty)
    assert r.rc == 0 and r.out == ""          # no device: an empty exposition is valid
    # A root named that is no directory is a usage error, not "no device".
    r = tool("--all", "-i", "--format", "prometheus", root=sysfs.root + "/none")
    assert r.rc == 2 and "SDSI_SYSFS_ROOT" in r.err
    assert value(assert_clean(r.out), "sdsi_scrape_error", command="info", device="",
                 reason="ENOENT") == 1


def test_data_a_part_lacks_is_no_failure(tool, sysfs):
    """-C on a socket without metering (V1's default), and on one whose
    meter_current attribute is absent, is sdsi_up 1 with
    sdsi_data_available 0; the socket that has it says 1 beside its values.
    Text and JSON still refuse: there a person asked for missing data."""
    on_demand = L.FEATURE_ON_DEMAND
    sysfs.add(0, guid=GUID_V1, regs=registers(layout=1, features=on_demand, socket_id=0))
    sysfs.add(1, regs=registers(socket_id=1))           # metering, no attribute
    sysfs.add(2, regs=registers(socket_id=2), current=meter_cert([("CC02", 4)]))
    r = tool("--all", "-C", "--format", "prometheus", root=sysfs.root)
    assert r.rc == 0, r.err
    assert "the part lacks this data: Metering is not supported" in r.err
    fams = assert_clean(r.out)
    assert "sdsi_scrape_error" not in fams
    assert set(series(fams, "sdsi_up").values()) == {1}
    avail = {dict(k)["device"]: v for k, v in series(fams, "sdsi_data_available").items()
             if dict(k)["data"] == "meter_current"}
    assert avail == {"intel_vsec.sdsi.0": 0, "intel_vsec.sdsi.1": 0, "intel_vsec.sdsi.2": 1}
    assert [dict(k)["device"] for k in
            series(fams, "sdsi_meter_current_reference_seconds_total")] == ["intel_vsec.sdsi.2"]
    # One device, --quiet: the same, and silent.
    r = tool("-d", "0", "-C", "--format", "prometheus", "--quiet", root=sysfs.root)
    assert (r.rc, r.err) == (0, "")
    assert value(assert_clean(r.out), "sdsi_data_available", device="intel_vsec.sdsi.0",
                 socket="0", ppin="0x1122334455667788", data="meter_current") == 0
    assert tool("-d", "0", "-C", root=sysfs.root).rc == 5
    assert tool("-d", "1", "-C", "--json", root=sysfs.root).rc == 3


@pytest.mark.parametrize("args,message", [
    (["-l", "--format", "prometheus"], "--format prometheus applies to"),
    (["-d", "0", "-a", "x", "--format", "prometheus"], "--format prometheus applies to"),
    (["--file", "x", "-s", "--format", "prometheus"], "--format prometheus applies to"),
    (["-d", "0", "-i", "--format", "xml"], "--format: 'xml' is not text, json or prometheus"),
    (["-d", "0", "-a", "x", "--output", "f"], "--output applies to"),
])
def test_usage_errors(tool, args, message):
    r = tool(*args)
    assert r.rc == 2 and message in r.err and r.out == ""


def test_json_is_an_alias_of_format_json(tool, sysfs):
    sysfs.add(0, state=state_cert([]))
    a = tool("-d", "0", "-s", "--json", root=sysfs.root)
    b = tool("-d", "0", "-s", "--format", "json", root=sysfs.root)
    c = tool("-d", "0", "-s", "--format=json", root=sysfs.root)
    assert a.rc == b.rc == c.rc == 0 and a.out == b.out == c.out
    assert tool("--format", "json", "-d", "0").json()["error"]["name"] == "EINVAL"


def test_man_page_and_docs_list_every_family(tool):
    man = tool("--dump-man").out
    section = man.split(".SH PROMETHEUS METRICS")[1].split(".SH")[0]
    names = re.findall(r"^\\fB(sdsi_[a-z_]+)\\fR \((gauge|counter), ", section, re.M)
    assert len(names) == 25
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                            "prometheus.md")).read()
    for name, kind in names:
        assert re.search(rf"^\| `{name}` \| {kind} \|", doc, re.M), name
    completion = tool("--dump-bash-completion").out
    assert re.search(r'--format\|-format\)\n\t\tCOMPREPLY=\( \$\(compgen -W "text json '
                     r'prometheus"', completion)
