# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-emu, sdsi-shmem and sdsi-authority each have one option table
(cli/cli_option.h): --help shows every option of it as the table spells
it, the man page names every one, and the bash completion the program
writes from the table offers every one."""
import os
import re
import subprocess

import pytest

from sdsikit.programs import authority_path, shmem_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


PROGRAMS = {
    'sdsi-emu': lambda: os.environ['SDSI_EMU'],
    'sdsi-shmem': shmem_path,
    'sdsi-authority': authority_path,
}
# Options each table must hold, lest an empty table pass every test.
EXPECTED = {
    'sdsi-emu': {'--sockets', '--features', '--akc-threshold', '--time-scale',
                 '--abi', '--ctl', '--timeout', '--help', '--version'},
    'sdsi-shmem': {'--window', '--sockets', '--features', '--state-dir',
                   '--doorbell', '--help', '--version'},
    'sdsi-authority': {'--output', '--ppin', '--feature', '--dir', '--json',
                       '--help', '--version'},
}


def run(path, *args):
    done = subprocess.run([path, *args], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done
    return done.stdout


def table(path):
    """[(command or None, '--name', 'ARG' or None)] from --dump-options."""
    rows = []
    for line in run(path, '--dump-options').splitlines():
        words = line.split(' ', 2)
        rows.append((None if words[0] == '-' else words[0], words[1],
                     words[2] if len(words) > 2 else None))
    return rows


def help_of(path, command):
    if command is None:
        return run(path, '--help')
    if os.path.basename(path) == 'sdsi-emu':
        return run(path, '--help')          # one help for every command
    return run(path, command, '--help')


@pytest.mark.parametrize('name', PROGRAMS)
def test_help_shows_the_table(name):
    path = PROGRAMS[name]()
    rows = table(path)
    assert EXPECTED[name] <= {opt for _, opt, _ in rows}
    for command, opt, arg in rows:
        shown = f'{opt} {arg}' if arg else opt
        assert re.search(rf'(^|[ ,]){re.escape(shown)}( |$)',
                         help_of(path, command), re.M), (command, shown)


@pytest.mark.parametrize('name', PROGRAMS)
def test_man_page_lists_every_option(name):
    with open(os.path.join(ROOT, 'man', f'{name}.1')) as f:
        page = f.read().replace('\\-', '-')
    for _, opt, _ in table(PROGRAMS[name]()):
        assert re.search(rf'{re.escape(opt)}(?![\w-])', page), \
            f'man/{name}.1 does not document {opt}'


def complete(script, function, words):
    """COMPREPLY for the words typed so far (the last one being completed)."""
    line = ' '.join(f"'{w}'" for w in words)
    out = subprocess.run(
        ['bash', '-c', script + f'\nCOMP_WORDS=({line}); '
         f'COMP_CWORD={len(words) - 1}; {function}; '
         'printf "%s\\n" "${COMPREPLY[@]}"'],
        capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


@pytest.mark.parametrize('name', PROGRAMS)
def test_completion_offers_every_option(name):
    path = PROGRAMS[name]()
    script = run(path, '--dump-bash-completion')
    function = '_' + name.replace('-', '_')
    assert f'complete -F {function} {name}' in script
    hidden = ('--dump-options', '--dump-bash-completion')
    for command, opt, _ in table(path):
        typed = [name] + ([command] if command else []) + ['--']
        offered = complete(script, function, typed)
        assert opt in offered, (command, opt, sorted(offered))
        assert not offered & set(hidden)


def test_completion_offers_values_and_commands():
    emu = os.environ['SDSI_EMU']
    script = run(emu, '--dump-bash-completion')
    assert complete(script, '_sdsi_emu', ['sdsi-emu', '']) >= \
        {'run', 'mount', 'ctl'}
    assert complete(script, '_sdsi_emu', ['sdsi-emu', 'run', '--guid', '']) \
        >= {'v1', 'v2'}
    assert complete(script, '_sdsi_emu', ['sdsi-emu', 'ctl', 'p']) == \
        {'power-cycle'}
