# SPDX-License-Identifier: GPL-2.0-only
"""Command line: upstream option semantics, usage errors in text and JSON,
and the man page and completion generated from the same table as --help."""
import re
import subprocess

import pytest

from abi_bytes import registers, state_cert
from sdsikit.programs import TOOL

USAGE_CASES = [
    ([], "No device specified"),
    (["-i"], "No device specified"),
    (["-d", "0"], "No command specified"),
    (["-d", "../0", "-i"], "invalid DEVNO"),
    (["-d", "0x1", "-i"], "invalid DEVNO"),
    (["-d", "-1", "-i"], "invalid DEVNO"),
    (["--bogus"], "unknown option"),
    (["-d"], "option '-d' needs a value"),
    (["-d", "0", "-i", "extra"], "unexpected argument"),
    (["-d", "0", "-i", "--dry-run"], "--dry-run applies to -a and -c"),
    (["-d", "0", "-s", "--retry", "2"], "--retry applies to -a, -c and --attest only"),
    (["-d", "0", "-a", "x", "--retry", "21"], "--retry: '21' is not a count from 0 to 20"),
    (["--all", "-l"], "--all applies to"),
    (["--all", "-c", "x", "-d", "0"], "--all excludes -d"),
    (["--all", "-d", "0", "-i"], "--all excludes -d"),
    (["--file", "x", "-d", "0", "-s"], "--file excludes"),
    (["--file", "x", "-l"], "--file applies to"),
    (["-d", "0", "-i", "-v", "-q"], "exclude each other"),
]


@pytest.mark.parametrize("args,message", USAGE_CASES)
def test_usage_errors_exit_2_in_text_and_json(tool, args, message):
    r = tool(*args)
    assert r.rc == 2
    assert message in r.err
    assert r.out == ""
    r = tool("--json", *args)
    assert r.rc == 2
    err = r.json()["error"]
    assert set(err) == {"errno", "name", "message"}
    assert err["errno"] == 22 and err["name"] == "EINVAL"
    assert message in err["message"]


def test_long_options_with_one_or_two_dashes(tool, sysfs):
    sysfs.add(0, regs=registers(socket_id=3))
    for args in (["--devno", "0", "--info"], ["-devno", "0", "-info"], ["-d0", "-i"]):
        r = tool(*args, root=sysfs.root)
        assert r.rc == 0, r.err
        assert re.search(r"^Socket ID: +3$", r.out, re.M)


def test_last_command_wins(tool, sysfs):
    sysfs.add(0, state=state_cert([]))
    r = tool("-d", "0", "-i", "-s", root=sysfs.root)
    assert r.rc == 0
    assert "State certificate for device intel_vsec.sdsi.0" in r.out
    assert "Socket information" not in r.out


def test_list_needs_no_device_and_ignores_one(tool, sysfs):
    sysfs.add(1)
    assert tool("-l", root=sysfs.root).out == "intel_vsec.sdsi.1\n"
    assert tool("-d", "7", "-l", root=sysfs.root).out == "intel_vsec.sdsi.1\n"


def test_missing_device_exit_3(tool, sysfs):
    r = tool("-d", "5", "-i", root=sysfs.root)
    assert r.rc == 3
    assert "intel_vsec.sdsi.5" in r.err
    r = tool("-d", "5", "-i", "--json", root=sysfs.root)
    assert r.rc == 3 and r.json()["error"]["name"] == "ENODEV"


def test_sysfs_root_option_beats_environment(tool, sysfs):
    sysfs.add(4)
    r = tool("--sysfs-root", sysfs.root, "-l", root="/nonexistent")
    assert r.out == "intel_vsec.sdsi.4\n"


def _documented_options(help_text):
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text))


def test_help_man_and_completion_share_the_option_table(tool):
    help_text = tool("--help").out
    man = tool("--dump-man").out
    completion = tool("--dump-bash-completion").out
    options = {o for o in _documented_options(help_text.split("Exit status:")[0])
               if o.startswith("--") or len(o) == 2}
    assert {"-l", "--list", "-d", "--devno", "-i", "-s", "-m", "-C", "--meter_current",
            "-a", "--akc", "-c", "--cap", "-h", "--json", "--all", "--file", "--dry-run",
            "-v", "-q"} <= options
    man_plain = man.replace("\\-", "-")
    words = set(re.search(r'compgen -W "([^"]+)" -- "\$cur"\) \)\n}', completion)
                .group(1).split())
    for opt in options:
        assert opt in man_plain, opt
        assert opt in words, opt
    assert "--dump-man" not in help_text and "--dump-man" not in words
    for code in range(9):
        assert re.search(rf"^  {code}  ", help_text, re.M)
        assert f".B {code}\n" in man


def test_completion_is_valid_bash_and_completes_devnos(tool, sysfs):
    sysfs.add(0)
    sysfs.add(12)
    script = tool("--dump-bash-completion").out + (
        "\nCOMP_WORDS=(intel_sdsi -d ''); COMP_CWORD=2; _intel_sdsi;"
        " echo \"${COMPREPLY[*]}\"\n"
        "COMP_WORDS=(intel_sdsi --me); COMP_CWORD=1; _intel_sdsi; echo \"${COMPREPLY[*]}\"\n")
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                         env={"SDSI_SYSFS_ROOT": sysfs.root, "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert sorted(lines[0].split()) == ["0", "12"]
    assert sorted(lines[1].split()) == ["--meter", "--meter_current"]


def test_man_page_renders(tool, tmp_path):
    page = tmp_path / "intel_sdsi.1"
    page.write_text(tool("--dump-man").out)
    out = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True,
                         env={"MANWIDTH": "80", "PATH": "/usr/bin:/bin"})
    if out.returncode != 0 and "not found" in out.stderr:
        pytest.skip("man is not installed")
    assert out.returncode == 0
    assert "EXIT STATUS" in out.stdout
    assert "--dry-run" in out.stdout


def test_binary_is_built():
    assert TOOL is not None
