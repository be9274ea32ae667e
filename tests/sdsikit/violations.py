# SPDX-License-Identifier: GPL-2.0-only
"""The mailbox protocol kept: every suite that provisions ends by reading
each socket's protocol_violations (`sdsi-emu ctl status`, one JSON object
per socket and line) and asserting 0, so that a driver which provisions
successfully but breaks a rule of the protocol on the way (docs/
protocol-rules.md: CPL written twice after a write that succeeded, ...)
fails the suite that drove it."""
import json
import subprocess


def parse_status(text):
    """{socket: protocol_violations} from `ctl status`'s JSON lines."""
    counts = {}
    for line in text.splitlines():
        if line.strip():
            sock = json.loads(line)
            counts[sock['socket']] = sock['protocol_violations']
    return counts


def protocol_violations(emu, *where, env=None):
    """{socket: protocol_violations} of the emulator WHERE names
    (`--ctl PATH` or `--state DIR`; none: $SDSI_EMU_CTL, inside `sdsi-emu
    run`), from `EMU ctl WHERE... status`."""
    argv = [emu, 'ctl', *map(str, where), 'status']
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 0, (argv, done.returncode, done.stderr)
    return parse_status(done.stdout)


def report(emu, *where, env=None):
    """What `ctl violations` says of each socket: the rules broken."""
    done = subprocess.run([emu, 'ctl', *map(str, where), 'violations'],
                          capture_output=True, text=True, timeout=60, env=env)
    return done.stdout + done.stderr


def assert_kept(counts, what='', details=''):
    """Every socket of COUNTS ({socket: violations}) at 0."""
    bad = {n: c for n, c in counts.items() if c}
    assert counts, f'{what}: ctl status listed no socket'
    assert not bad, (f'{what}: mailbox protocol violations {bad}\n'
                     f'{details}')


def assert_protocol_kept(emu, *where, env=None):
    """The emulator WHERE names counted no protocol violation on any
    socket (the suite's last check)."""
    counts = protocol_violations(emu, *where, env=env)
    bad = any(counts.values())
    assert_kept(counts, ' '.join(map(str, where)) or '$SDSI_EMU_CTL',
                report(emu, *where, env=env) if bad else '')
