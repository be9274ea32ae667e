# SPDX-License-Identifier: GPL-2.0-only
"""Every way sdsi_provision and sdsi_facts fail, end to end: ansible-playbook
over ssh to a test host, the real intel_sdsi under the host's emulated
platform, the fault made real (a file that is not there or not an AKC, an
intel_sdsi that cannot run or speaks another contract, a socket locked by
the BIOS, a busy mailbox, an unbound driver, On Demand disabled, an AKC the
device rejects).  Each failure is a failed task with a message naming the
cause; those caught before a write leave the NVRAM byte for byte as it was.

These run after test_collection.py's runs (the `runs` fixture), on hosts
that already hold their AKC and CAPs; each test puts back any fault it
made, then shows the host provisions again."""
import contextlib
import json
import os
import shutil
import stat
import subprocess

import pytest

from fleet_facts import AUTHORITY, EMU, TOOL, nvram, task_results

NODE = 7        # one socket, no metering: its own PPIN and CAPs
PAIR = 1        # two sockets
DEV = '/sys/bus/auxiliary/devices/intel_vsec.sdsi.%d'


def host(fleet, index):
    return fleet.hosts[index]


def ctl(h, *args):
    """One command to host H's emulator, through its control socket."""
    proc = subprocess.run([EMU, 'ctl', '--state', h.state, *args], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def power_cycle(h):
    """A cold power cycle of every socket of H: the updates a power cycle
    allows (4) back, which the tests before this one may have used."""
    ctl(h, 'power-cycle', 'all')


@contextlib.contextmanager
def disturbed(h, on, off):
    """H's emulator told ON (a ctl command line) for the duration of the
    with block, and OFF after it, whatever happened in it."""
    ctl(h, *on)
    try:
        yield
    finally:
        ctl(h, *off)


def cycled_with_caps(fleet, index, tmp_path, licenses, lid):
    """The fleet's host INDEX power-cycled, and new CAPs for it (new_caps):
    (host, the CAP directory)."""
    h = host(fleet, index)
    power_cycle(h)
    return h, new_caps(tmp_path, licenses, h, lid)


def new_caps(tmp_path, licenses, h, lid, name='caps'):
    """A directory holding one CAP for each socket of H, not provisioned yet."""
    path = tmp_path / name
    path.mkdir()
    for s, ppin in enumerate(h.ppins):
        proc = subprocess.run([AUTHORITY, 'cap', licenses.dir, '--ppin', '%x' % ppin,
                               '--id', '%x' % (lid + s), '--feature', 'CC%02d' % (lid % 100),
                               '-o', str(path / ('new-s%d.cap' % s))],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
    return str(path)


def provision(ansible, h, **extra):
    """(exit status, the sdsi_provision result, its status) of provision.yml on H
    alone, with the playbook's variables overridden by EXTRA."""
    rc, doc = ansible.playbook('provision.yml', '--limit', h.name, '-e', json.dumps(extra))
    r = task_results(doc, 'sdsi_provision')[h.name]
    return rc, r['result'], r['status']


def held(ansible, h):
    """The licence IDs H's sockets hold, from sdsi_facts: [[int]] per socket."""
    rc, doc = ansible.playbook('facts.yml', '--limit', h.name)
    assert rc == 0
    socks = task_results(doc, 'sdsi_facts')[h.name]['result']['ansible_facts']['sdsi']['sockets']
    return [[int(e['license']['id'], 16) for e in s['licenses'] if e['license']] for s in socks]


@pytest.fixture
def empty_dir(tmp_path):
    path = tmp_path / 'empty'
    path.mkdir()
    return str(path)


def contract_2(tmp_path):
    """intel_sdsi as it is, but saying its documents are of contract 2.0."""
    path = tmp_path / 'intel_sdsi-contract2'
    path.write_text('#!/bin/sh\n"%s" "$@" | sed \'s/"schema_version": "1\\./'
                    '"schema_version": "2./\'\n' % TOOL)
    path.chmod(0o755)
    return str(path)


def not_executable(tmp_path):
    path = tmp_path / 'intel_sdsi-0644'
    shutil.copy(TOOL, path)
    path.chmod(0o644)
    return str(path)


def new_akc(tmp_path, licenses):
    """An AKC of the fleet's authority with a new key revision: a write the
    first intel_sdsi run would make."""
    path = tmp_path / 'rev3.akc'
    proc = subprocess.run([AUTHORITY, 'akc', licenses.dir, '-o', str(path), '--key-rev', '3'],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return str(path)


def truncated_akc(tmp_path, licenses):
    path = tmp_path / 'truncated.akc'
    with open(licenses.akc, 'rb') as f:
        path.write_bytes(f.read(100))
    return str(path)


# (case, the playbook's variables given the test's paths, the exact message or
# the part of it that names the cause).  Each fails before any write.
BEFORE_WRITING = [
    ('akc missing', lambda t, lic, e, h: {'sdsi_akc': '/nonexistent/licensor.akc'},
     'intel_sdsi --all -a /nonexistent/licensor.akc: '
     '/nonexistent/licensor.akc: No such file or directory'),
    ('akc a directory', lambda t, lic, e, h: {'sdsi_akc': e},
     'intel_sdsi --all -a {e}: {e}: not a regular file: it is a directory'),
    ('akc truncated', lambda t, lic, e, h: {'sdsi_akc': truncated_akc(t, lic)},
     'malformed AKC at offset 100: truncated: this AKC is'),
    ('executable missing', lambda t, lic, e, h: {'sdsi_intel_sdsi': '/nonexistent/intel_sdsi'},
     'executable /nonexistent/intel_sdsi: No such file or directory'),
    ('executable not executable', lambda t, lic, e, h: {'sdsi_intel_sdsi': not_executable(t)},
     'executable {t}/intel_sdsi-0644: not an executable file'),
    ('executable not on PATH', lambda t, lic, e, h: {'sdsi_intel_sdsi': 'intel_sdsi-no-such'},
     'Failed to find required executable "intel_sdsi-no-such"'),
    ('executable prints no JSON', lambda t, lic, e, h: {'sdsi_intel_sdsi': '/bin/false'},
     '/bin/false -l --json -q printed no JSON document (exit 1)'),
    ('contract 2', lambda t, lic, e, h: {'sdsi_intel_sdsi': contract_2(t),
                                         'sdsi_akc': new_akc(t, lic),
                                         'sdsi_cap_dir': new_caps(t, lic, h, 0x3000)},
     '{t}/intel_sdsi-contract2 speaks JSON contract 2.0; this collection reads 1.x'),
    ('no devices', lambda t, lic, e, h: {'sdsi_sysfs_root': e},
     'no On Demand socket on this host (intel_sdsi -l found none under {e}): '
     'nothing can be provisioned'),
]


@pytest.mark.parametrize('case,variables,message', BEFORE_WRITING,
                         ids=[c[0] for c in BEFORE_WRITING])
def test_fails_naming_the_cause_before_any_write(ansible, runs, fleet, licenses, tmp_path,
                                                 empty_dir, case, variables, message):
    h = host(fleet, NODE)
    power_cycle(h)      # a write would be allowed: only the cause stops it
    before = nvram(fleet)
    rc, result, status = provision(ansible, h, **variables(tmp_path, licenses, empty_dir, h))
    assert rc == 2 and status == 'failed', result
    expected = message.format(t=tmp_path, e=empty_dir)
    assert expected in result['msg'], (result['msg'], expected)
    assert not result.get('changed')
    assert nvram(fleet) == before


def test_a_socket_locked_by_the_bios_fails_then_provisions_unlocked(ansible, runs, fleet,
                                                                    licenses, tmp_path):
    h, caps = cycled_with_caps(fleet, NODE, tmp_path, licenses, 0x3100)
    with disturbed(h, ('iblock', '0', 'on'), ('iblock', '0', 'off')):
        rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 2 and status == 'failed'
    assert result['msg'] == ('intel_vsec.sdsi.0: %s/provision_cap: provisioning is locked by '
                             'the BIOS (in-band lock) or On Demand is not enabled' % (DEV % 0))
    sock = result['sockets'][0]
    assert sock['akc'] == 'unchanged' and [c['result'] for c in sock['caps']] == ['failed']
    assert sock['error'] == result['msg'].split(': ', 1)[1]
    assert 0x3100 not in held(ansible, h)[0]
    rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 0 and result['changed'] is True, result
    assert 0x3100 in held(ansible, h)[0]


def test_a_busy_mailbox_fails_and_writes_nothing(ansible, runs, fleet, licenses, tmp_path):
    h, caps = cycled_with_caps(fleet, NODE, tmp_path, licenses, 0x3200)
    with disturbed(h, ('fault', '0', 'oob-owner'), ('clear', '0')):
        rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 2 and status == 'failed'
    assert result['msg'].startswith('intel_vsec.sdsi.0: ')
    assert 'mailbox' in result['msg'], result['msg']
    assert result['changed'] is False
    assert [c['result'] for c in result['sockets'][0]['caps']] != ['provisioned']
    assert 0x3200 not in held(ansible, h)[0]
    rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 0 and 0x3200 in held(ansible, h)[0]


def test_an_unbound_socket_fails_naming_it(ansible, runs, fleet, licenses, tmp_path):
    h, caps = cycled_with_caps(fleet, NODE, tmp_path, licenses, 0x3300)
    with disturbed(h, ('unbind', '0'), ('bind', '0')):
        rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 2 and status == 'failed'
    assert result['msg'].startswith('intel_vsec.sdsi.0: %s: no driver is bound to it' % (DEV % 0))
    assert result['changed'] is False


def test_on_demand_disabled_is_refused_before_writing(ansible, runs, fleet, licenses, tmp_path):
    h, caps = cycled_with_caps(fleet, NODE, tmp_path, licenses, 0x3400)
    with disturbed(h, ('features', '0', 'attestation'), ('features', '0', h.features)):
        before = nvram(fleet)
        rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
        after = nvram(fleet)
    assert rc == 2 and status == 'failed'
    assert result['msg'].startswith('intel_vsec.sdsi.0: ')
    assert 'On Demand' in result['msg'] and 'not enabled' in result['msg'], result['msg']
    assert result['changed'] is False
    assert after == before


def test_an_akc_the_device_rejects_fails_the_socket(ansible, runs, fleet, workdir, tmp_path,
                                                    empty_dir):
    """An AKC signed by another authority: every check passes, the device
    refuses its signature, a failure is counted, nothing else is tried."""
    h = host(fleet, NODE)
    power_cycle(h)
    other = tmp_path / 'other-authority'
    akc = tmp_path / 'other.akc'
    for args in (('init', str(other)), ('akc', str(other), '-o', str(akc), '--key-rev', '2')):
        proc = subprocess.run([AUTHORITY, *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
    rc, result, status = provision(ansible, h, sdsi_akc=str(akc))
    assert rc == 2 and status == 'failed'
    assert result['msg'] == ('intel_vsec.sdsi.0: %s/provision_akc: the device rejected the blob '
                             '(authentication failed or firmware error)' % (DEV % 0))
    sock = result['sockets'][0]
    assert sock['akc'] == 'failed' and sock['caps'] == []


def test_one_socket_fails_the_others_are_provisioned(ansible, runs, fleet, licenses, tmp_path):
    """sdsi_provision goes on past a failed socket: the task fails, says so,
    and is changed by what it wrote on the other."""
    h, caps = cycled_with_caps(fleet, PAIR, tmp_path, licenses, 0x3500)
    with disturbed(h, ('iblock', '1', 'on'), ('iblock', '1', 'off')):
        rc, result, status = provision(ansible, h, sdsi_cap_dir=caps)
    assert rc == 2 and status == 'failed'
    assert result['msg'].startswith('intel_vsec.sdsi.1: %s/provision_cap: provisioning is locked'
                                    % (DEV % 1))
    assert result['changed'] is True
    assert [[c['result'] for c in s['caps']] for s in result['sockets']] == [['provisioned'],
                                                                            ['failed']]
    now = held(ansible, h)
    assert 0x3500 in now[0] and 0x3501 not in now[1]


@pytest.mark.parametrize('executable,message', [
    ('/nonexistent/intel_sdsi', 'executable /nonexistent/intel_sdsi: No such file or directory'),
    ('contract 2', 'speaks JSON contract 2.0; this collection reads 1.x'),
])
def test_facts_fail_naming_the_cause(ansible, runs, fleet, tmp_path, executable, message):
    if executable == 'contract 2':
        executable = contract_2(tmp_path)
    proc = ansible.tool('ansible', host(fleet, NODE).name, '-i', ansible.inventory, '-m',
                        'sdsi.ondemand.sdsi_facts', '-a', 'executable=%s' % executable)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    r = json.loads(proc.stdout)['results'][0]
    assert r['status'] == 'failed' and message in r['result']['msg'], r


def test_unusable_entries_of_cap_dir_are_unused_and_fail_unless_warned(ansible, runs, fleet,
                                                                      licenses, tmp_path):
    """A FIFO (never opened, so never blocking), a subdirectory and a
    truncated CAP in the CAP directory: each unused with its reason, the
    socket left without a CAP listed; with unmatched: warn (the playbook's)
    each is a warning, by default the task fails naming each, as intel_sdsi
    exits 5 (issue 24); an empty directory too."""
    h = host(fleet, NODE)
    power_cycle(h)
    caps = tmp_path / 'mixed'
    caps.mkdir()
    os.mkfifo(caps / 'a-fifo.cap')
    (caps / 'b-subdir.cap').mkdir()
    src = os.path.join(h.caps, sorted(os.listdir(h.caps))[0])
    with open(src, 'rb') as f:
        (caps / 'c-truncated.cap').write_bytes(f.read(64))
    assert stat.S_ISFIFO(os.lstat(caps / 'a-fifo.cap').st_mode)
    rc, result, status = provision(ansible, h, sdsi_cap_dir=str(caps))
    assert rc == 0 and status == 'ok', result
    reasons = {os.path.basename(u['file']): u['reason'] for u in result['unused']}
    assert sorted(reasons) == ['a-fifo.cap', 'b-subdir.cap', 'c-truncated.cap']
    assert 'it is a FIFO' in reasons['a-fifo.cap']
    assert 'it is a directory' in reasons['b-subdir.cap']
    assert 'truncated' in reasons['c-truncated.cap']
    assert [s['device'] for s in result['unmatched_sockets']] == ['intel_vsec.sdsi.0']
    assert any('c-truncated.cap' in w and 'not used' in w for w in result['warnings'])
    rc, result, status = provision(ansible, h, sdsi_cap_dir=str(caps), sdsi_unmatched='fail')
    assert rc != 0 and status == 'failed', result
    for name in ('a-fifo.cap', 'b-subdir.cap', 'c-truncated.cap'):
        assert name + ': ' in result['msg'] and 'not used' in result['msg']
    assert 'intel_vsec.sdsi.0 (PPIN ' in result['msg'] and 'no CAP in ' in result['msg']
    empty = tmp_path / 'empty'
    empty.mkdir()
    rc, result, status = provision(ansible, h, sdsi_cap_dir=str(empty), sdsi_unmatched='fail')
    assert rc != 0 and status == 'failed', result
    assert '%s: empty: no CAP to provision' % empty in result['msg']
