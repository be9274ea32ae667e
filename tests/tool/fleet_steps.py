# SPDX-License-Identifier: GPL-2.0-only
"""The fleet runs of test_fleet.py and test_provision_on_purpose.py: four
emulated sockets with known PPINs and real keys (sdsi-emu run
--authority), and readers of what intel_sdsi --all printed there."""
import json
import os

from emu_steps import ctl, emu, t
from sdsikit import schemas

PPINS = (0xF1EE70, 0xF1EE71, 0xF1EE72, 0xF1EE73)
NAMES = [f"intel_vsec.sdsi.{n}" for n in range(4)]
# Latencies that make the sockets finish in another order than their own:
# printing as they finish would put socket 2 first and socket 0 last.
LATENCY_US = (400000, 200000, 0, 100000)


def platform(authority, steps, sockets=4):
    ppins = ",".join(f"{p:x}" for p in PPINS[:sockets])
    return emu(steps, "--authority", authority.dir, "--sockets", str(sockets), "--ppin", ppins)


def doc(result):
    return json.loads(result["out"])


def fleet(result):
    """A fleet provisioning document, checked against docs/schema/fleet.json."""
    return schemas.check("fleet.json", result["out"])


def per_device(result):
    """An --all document (docs/schema/all.json) as (device, object) pairs in
    the order printed."""
    return [(o["device"], o) for o in schemas.check("all.json", result["out"])["results"]]


def hex64(value):
    return f"0x{value:016x}"


def staggered():
    return [ctl("fault", str(n), "rdy-latency", "--param", str(us))
            for n, us in enumerate(LATENCY_US) if us]


def info(devno):
    return t("-d", str(devno), "-i", "--json")


def spent(result):
    d = doc(result)
    return (d["akc_failures"]["count"], d["cap_failures"]["count"], d["updates"]["available"])


def licenses(result):
    return [(lic["license"]["id"], lic["license"]["revision"], lic["valid"])
            for lic in doc(result)["licenses"]]


def results(report):
    return [(s["device"], s["result"], [(os.path.basename(b["file"]), b["result"])
                                        for b in s["blobs"]]) for s in report["results"]]
