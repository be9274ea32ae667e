# SPDX-License-Identifier: GPL-2.0-only
"""The whole story as an operator runs it, inside `sdsi-emu run` with only
intel_sdsi, sdsi-authority and `sdsi-emu ctl`: PPINs read with intel_sdsi,
a CAP issued for each, provisioning, a power cycle, meters, a wrong-PPIN
CAP refused by pre-flight; then a second run on the same --state finds it
all again."""
import json
import os

from sdsikit.emu import run_commands
from sdsikit.licplatform import Stopwatch, key_image

EXIT_REFUSED = 5


def run_inside(programs, opts, steps):
    """STEPS (command lines) in turn inside one `sdsi-emu run OPTS`; a word
    {ppin:N} is the PPIN intel_sdsi reads there (sdsikit/inside.py)."""
    return run_commands(programs.emu, opts, steps, timeout=240,
                        env=dict(os.environ, SDSI_TOOL=programs.tool))


def expect(result, rc=0):
    assert result['rc'] == rc, (result['argv'], result['rc'], result['out'],
                                result['err'])
    return json.loads(result['out']) if result['out'].startswith('{') \
        else result['out']


def test_story_through_run(programs, authority, state_dir, tmp_path):
    opts = ['--sockets', '2', '--authority', authority.dir,
            '--state', str(state_dir)]
    akc = authority.akc(key_rev=2)
    caps = [str(tmp_path / f'cap{n}.bin') for n in (0, 1)]
    tool, ctl = programs.tool, [programs.emu, 'ctl']
    steps = [[tool, '-d', str(n), '-i', '--json'] for n in (0, 1)]
    steps += [[programs.authority, 'cap', authority.dir, '--ppin',
               f'{{ppin:{n}}}', '--feature', 'CC02', '--type', 'metered',
               '-o', caps[n]] for n in (0, 1)]
    for n in (0, 1):
        steps += [[tool, '-d', str(n), '-a', akc.path],
                  [tool, '-d', str(n), '-c', caps[n]],
                  [tool, '-d', str(n), '-s', '--json']]
    steps += [[*ctl, 'power-cycle', 'all'], [*ctl, 'advance', 'all', '3600']]
    steps += [[tool, '-d', str(n), '-C', '--json'] for n in (0, 1)]
    steps += [[tool, '-d', '0', '-c', caps[1]],
              [tool, '-d', '0', '-i', '--json']]
    clock = Stopwatch()
    r = run_inside(programs, opts, steps)
    slack = clock.seconds()

    info = [expect(r[n]) for n in (0, 1)]
    ppins = [int(i['ppin'], 16) for i in info]
    assert ppins[0] != ppins[1]
    expect(r[2])
    expect(r[3])
    certs = []
    for n in (0, 1):
        base = 4 + 3 * n
        expect(r[base])
        expect(r[base + 1])
        cert = expect(r[base + 2])
        assert cert['content_type'] == 0xE
        assert cert['key_revision'] == 2
        assert cert['key_image'] == '0x' + key_image(akc.data)[::-1].hex()
        (lic,) = cert['licenses']
        assert lic['valid'] and lic['license']['type'] == 2
        assert lic['license']['type_name'] == 'metered'
        assert int(lic['license']['ppin'], 16) == ppins[n]
        assert lic['license']['bundles'] == [{'code': 'CC02'}]
        certs.append(cert)
    expect(r[10])
    expect(r[11])
    for n in (0, 1):
        meter = expect(r[12 + n])
        assert int(meter['ppin'], 16) == ppins[n]
        (counter,) = meter['counters']
        assert counter['feature'] == 'CC02'
        low = 3600 * 1000 // meter['unit_ms']
        high = (3600 + slack) * 1000 // meter['unit_ms']
        assert low <= counter['count'] <= high, (counter, low, high)
    expect(r[14], EXIT_REFUSED)
    after = expect(r[15])
    assert after['cap_failures']['count'] == 0
    assert after['updates']['available'] == after['updates']['threshold']

    # A restart is a cold boot: NVRAM kept, licences in effect from start.
    steps = [[tool, '-d', str(n), arg, '--json'] for n in (0, 1)
             for arg in ('-i', '-s', '-C')]
    r = run_inside(programs, opts, steps)
    for n in (0, 1):
        info, cert, meter = (expect(x) for x in r[3 * n:3 * n + 3])
        assert int(info['ppin'], 16) == ppins[n]
        assert info['akc_provisioned']
        assert cert == certs[n]
        assert [c['feature'] for c in meter['counters']] == ['CC02']
