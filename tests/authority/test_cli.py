# SPDX-License-Identifier: GPL-2.0-only
"""Command line of sdsi-authority: help for every command, usage errors,
exit statuses, and a man page that documents every option --help lists."""
import re

import pytest

from authority_files import EXIT_OK, EXIT_USAGE, MAN_PAGE, run

COMMANDS = ["init", "akc", "cap", "inspect"]


def options_in_help(text):
    return sorted(set(re.findall(r"--([a-z][a-z-]+)", text)) - {"help"})


def test_main_help_lists_every_command():
    r = run("--help")
    assert r.returncode == EXIT_OK
    for cmd in COMMANDS:
        assert re.search(rf"^  {cmd}\b", r.stdout, re.M), cmd


def test_no_arguments_is_a_usage_error():
    r = run()
    assert r.returncode == EXIT_USAGE
    assert "Usage:" in r.stdout


def test_unknown_command():
    r = run("frobnicate")
    assert r.returncode == EXIT_USAGE
    assert "unknown command 'frobnicate'" in r.stderr


def test_version():
    r = run("--version")
    assert r.returncode == EXIT_OK
    assert re.fullmatch(r"sdsi-authority \d+\.\d+\.\d+\n", r.stdout)


@pytest.mark.parametrize("cmd", COMMANDS)
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_command_has_its_own_help(cmd, flag):
    r = run(cmd, flag)
    assert r.returncode == EXIT_OK
    assert r.stdout.startswith(f"Usage: sdsi-authority {cmd} ")
    assert "--help" in r.stdout
    assert r.stderr == ""


@pytest.mark.parametrize("cmd,expected", [
    ("init", []),
    ("akc", ["key-rev", "output"]),
    ("cap", ["feature", "id", "output", "ppin", "previous-ppin", "revision", "type"]),
    ("inspect", ["dir", "json"]),
])
def test_help_lists_the_options(cmd, expected):
    assert options_in_help(run(cmd, "--help").stdout) == expected


@pytest.mark.parametrize("cmd", COMMANDS)
def test_man_page_documents_every_option(cmd):
    page = open(MAN_PAGE, encoding="utf-8").read().replace("\\-", "-")
    assert f'\n.BI {cmd} "' in page, f"man page lacks the {cmd} command"
    for opt in options_in_help(run(cmd, "--help").stdout):
        assert f"--{opt}" in page, f"man page lacks --{opt} of {cmd}"


@pytest.mark.parametrize("cmd", COMMANDS)
def test_unknown_option_is_a_usage_error(cmd, tmp_path):
    r = run(cmd, "--bogus", tmp_path)
    assert r.returncode == EXIT_USAGE
    assert f"Try 'sdsi-authority {cmd} --help'" in r.stderr


@pytest.mark.parametrize("args", [
    ["init"], ["init", "a", "b"], ["akc", "-o", "x"], ["cap", "--ppin", "1", "--feature", "CC02",
                                                       "-o", "x"],
    ["inspect"], ["inspect", "a", "b"],
])
def test_wrong_number_of_operands(args):
    r = run(*args)
    assert r.returncode == EXIT_USAGE
    assert "expected" in r.stderr


def test_missing_option_argument():
    r = run("akc", "dir", "-o")
    assert r.returncode == EXIT_USAGE
    assert "option '-o' needs a value" in r.stderr
