# SPDX-License-Identifier: GPL-2.0-only
"""Inside `sdsi-emu run`, /proc/cpuinfo agrees with the emulated part
(issue 18, part 5): the processor of the generation the GUID stands for
(V1: Sapphire Rapids, family 6 model 143; V2: Granite Rapids, family 6
model 173), one processor per socket, each in its own package, and none
of the host's identity.  Outside the run, nothing changes."""
import pytest

# What each --guid stands for: (family, model, code name).
GENERATIONS = {'v1': (6, 143, 'Sapphire Rapids'), 'v2': (6, 173, 'Granite Rapids')}


def processors(text):
    """[{key: value}] of each processor block of a cpuinfo text."""
    blocks = []
    for block in text.split('\n\n'):
        if not block.strip():
            continue
        fields = {}
        for line in block.splitlines():
            key, _, value = line.partition(':')
            fields[key.strip()] = value.strip()
        blocks.append(fields)
    return blocks


def cpuinfo_inside(sdsi, *opts):
    done = sdsi.run('run', '--quiet', *opts, '--', 'cat', '/proc/cpuinfo')
    assert done.returncode == 0, done.stderr
    return processors(done.stdout)


# 1 and 16: the bounds of --sockets (the model refuses 17 before any mount).
@pytest.mark.parametrize('guid', ['v1', 'v2'])
@pytest.mark.parametrize('sockets', [1, 3, 16])
def test_cpuinfo_is_the_emulated_part(sdsi, guid, sockets):
    family, model, code = GENERATIONS[guid]
    procs = cpuinfo_inside(sdsi, '--guid', guid, '--sockets', str(sockets))
    assert [p['processor'] for p in procs] == [str(n) for n in range(sockets)]
    assert [p['physical id'] for p in procs] == [str(n) for n in range(sockets)]
    for p in procs:
        assert p['vendor_id'] == 'GenuineIntel'
        assert (int(p['cpu family']), int(p['model'])) == (family, model)
        assert code in p['model name']
        assert (p['siblings'], p['cpu cores']) == ('1', '1')
        # The host's processor would contradict the part: its flags are not shown.
        assert 'flags' not in p and 'microcode' not in p
    assert len({p['apicid'] for p in procs}) == sockets


def test_default_part_is_v2(sdsi):
    (proc,) = cpuinfo_inside(sdsi)
    assert int(proc['model']) == GENERATIONS['v2'][1]


def test_cpuinfo_is_read_only_and_the_host_keeps_its_own(sdsi, tmp_path):
    with open('/proc/cpuinfo') as f:
        host = f.read()
    state = tmp_path / 'state'
    done = sdsi.run('run', '--quiet', '--guid', 'v1', '--state', str(state), '--',
                    'sh', '-c', 'echo x > /proc/cpuinfo')
    assert done.returncode != 0
    assert 'Read-only file system' in done.stderr or 'Permission denied' in done.stderr
    with open('/proc/cpuinfo') as f:
        assert processors(f.read())[0]['model'] == processors(host)[0]['model']
    # The file bound over it was a temporary in the state directory: gone.
    assert not [p.name for p in state.iterdir() if p.name.startswith('.cpuinfo')]
