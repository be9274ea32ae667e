# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi end to end: steps run in turn inside one `sdsi-emu run`
(sdsikit's inside runner), each an intel_sdsi or a `sdsi-emu ctl` command
line."""
from sdsikit.emu import run_commands
from sdsikit.programs import EMU, TOOL


def t(*args):
    """A step of emu(): intel_sdsi ARGS."""
    return {"tool": list(args)}


def ctl(*args):
    """A step of emu(): sdsi-emu ctl ARGS."""
    return {"ctl": list(args)}


def emu(steps, *emu_args, timeout=300):
    """Run steps (t() and ctl()) in one emulated platform, `sdsi-emu run
    EMU_ARGS`; returns a list of results ({"argv", "rc", "out", "err"})."""
    commands = [[TOOL, *s["tool"]] if "tool" in s else [EMU, "ctl", *s["ctl"]]
                for s in steps]
    return run_commands(EMU, emu_args, commands, timeout=timeout)
