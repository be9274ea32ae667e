# SPDX-License-Identifier: GPL-2.0-only
"""The command line: --help documents every option, usage errors exit 2
with a message, ctl without an emulator exits 1."""
import pytest

OPTIONS = ('--sockets', '--guid', '--abi', '--state', '--features', '--ppin',
           '--iblock', '--akc-threshold', '--cap-threshold', '--updates',
           '--nvram-endurance', '--rdy-latency-us', '--help')
CTL_COMMANDS = ('status', 'power-cycle', 'fault', 'clear', 'unbind', 'bind',
                'features', 'iblock', '--count', '--param')
FAULTS = ('oob-owner', 'no-rdy', 'status-timeout', 'status-failure',
          'bad-packet-size', 'no-eom', 'too-many-packets', 'rdy-latency',
          'owner-delay', 'attest-signature', 'attest-chain', 'attest-measurement',
          'attest-busy', 'msg-size')


def test_help(sdsi):
    done = sdsi.run('--help')
    assert done.returncode == 0
    for word in OPTIONS + CTL_COMMANDS + FAULTS + ('run', 'mount', 'ctl'):
        assert word in done.stdout, f'--help does not mention {word}'


BAD = {
    'no-subcommand': [],
    'unknown-subcommand': ['frobnicate'],
    'unknown-option': ['run', '--bogus', '--', 'true'],
    'sockets-0': ['run', '--sockets', '0', '--', 'true'],
    'sockets-17': ['run', '--sockets', '17', '--', 'true'],
    'sockets-text': ['run', '--sockets', 'two', '--', 'true'],
    'guid': ['run', '--guid', 'v3', '--', 'true'],
    'abi': ['run', '--abi', 'late', '--', 'true'],
    'features': ['run', '--features', 'turbo', '--', 'true'],
    'features-bits': ['run', '--features', '0x1', '--', 'true'],
    'akc-threshold': ['run', '--akc-threshold', '8', '--', 'true'],
    'cap-threshold': ['run', '--cap-threshold', '0', '--', 'true'],
    'updates': ['run', '--updates', '9', '--', 'true'],
    'ppin-zero': ['run', '--ppin', '0', '--', 'true'],
    'ppin-count': ['run', '--ppin', '1,2', '--', 'true'],
    'rdy-latency': ['run', '--rdy-latency-us', '-1', '--', 'true'],
    'nvram-endurance-0': ['run', '--nvram-endurance', '0', '--', 'true'],
    'nvram-endurance-big': ['run', '--nvram-endurance', '4294967296', '--',
                            'true'],
    'nvram-endurance-text': ['run', '--nvram-endurance', '1k', '--', 'true'],
    'missing-value': ['run', '--sockets'],
    'no-command': ['run'],
    'no-mount-dir': ['mount'],
}


@pytest.mark.parametrize('args', BAD.values(), ids=BAD.keys())
def test_usage_error(sdsi, tmp_path, args):
    marker = tmp_path / 'ran'
    args = ['touch' if a == 'true' else a for a in args]
    if 'touch' in args:
        args.insert(args.index('touch') + 1, str(marker))
    done = sdsi.run(*args)
    assert done.returncode == 2, done
    assert done.stderr.strip(), 'no message'
    assert not marker.exists()


def test_ctl_without_emulator(sdsi, tmp_path):
    sdsi.env['SDSI_EMU_CTL'] = str(tmp_path / 'control.sock')
    done = sdsi.run('ctl', 'status')
    assert done.returncode == 3, done   # no emulator: "no such device"
    assert 'control.sock' in done.stderr
