# SPDX-License-Identifier: GPL-2.0-only
"""sdsi_facts with attest: true (issue 28, "Fleet and packages"), through
docs/ansible.md's attestation report as written there, over the eight
hosts, whose emulated parts get their attestation identity from the test
authority: every socket attested, in check mode too, nothing written; one
socket's measurement made wrong (`sdsi-emu ctl fault attest-measurement`),
the report names it and fails that host alone; a root the owner did not
trust fails every socket with `trust`; no roots at the path is no verdict
but the reason in errors.  Without attest, no socket has the key."""
import json
import os
import subprocess

import pytest

import docs_example
from fleet_facts import AUTHORITY, EMU, SOCKETS, nvram, sockets_of, task_results
from sdsikit import schemas

FAULTY = (1, 1)     # host node1, its socket 1
ENVELOPE = ('schema_version', 'device', 'file')


def run(*argv):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def ctl(h, *args):
    """One command to host H's emulator, through its control socket."""
    run(EMU, 'ctl', '--state', h.state, *args)


@pytest.fixture(scope='module')
def attest_runs(ansible, fleet, runs, workdir):
    """The report's runs, after the provisioning runs (runs): attestation
    measures the state certificate they wrote."""
    pem = os.path.join(workdir, 'authority', 'attestation-root.pem')
    other = os.path.join(workdir, 'other-authority')
    run(AUTHORITY, 'init', other)
    out = {'pem': pem, 'nvram0': nvram(fleet)}
    out['pass'] = docs_example.attestation_run(ansible, workdir, pem)
    out['check'] = docs_example.attestation_run(ansible, workdir, pem, '--check')
    h = fleet.hosts[FAULTY[0]]
    ctl(h, 'fault', str(FAULTY[1]), 'attest-measurement', '--count', '0')
    try:
        out['fault'] = docs_example.attestation_run(ansible, workdir, pem)
    finally:
        ctl(h, 'clear', str(FAULTY[1]))
    out['untrusted'] = docs_example.attestation_run(
        ansible, workdir, os.path.join(other, 'attestation-root.pem'), '--limit', 'node0')
    out['no_roots'] = docs_example.attestation_run(ansible, workdir, '/nonexistent/roots',
                                                   '--limit', 'node0')
    out['nvram1'] = nvram(fleet)
    return out


def verdicts(doc):
    """{(host, socket index): (attested, failed_check)}, None without a verdict."""
    out = {}
    for host, socks in sockets_of(doc).items():
        for i, s in enumerate(socks):
            a = s['attestation']
            out[(host, i)] = None if a is None else (a['attested'], a['failed_check'])
    return out


def fleet_line(doc):
    (line,) = [r for r in doc['results'] if r['task'] == 'Attested sockets, fleet-wide']
    return line['result']['msg']


def all_sockets(fleet):
    return {(h.name, i) for h in fleet.hosts for i in range(SOCKETS[h.index])}


def test_every_socket_attests_and_the_verdict_keeps_the_contract(attest_runs, fleet):
    rc, doc = attest_runs['pass']
    assert rc == 0, json.dumps(doc)[:3000]
    assert verdicts(doc) == {k: (True, None) for k in all_sockets(fleet)}
    total = sum(SOCKETS)
    assert fleet_line(doc) == '%d of %d sockets attested' % (total, total)
    for host, socks in sockets_of(doc).items():
        for s in socks:
            assert s['errors'] == {} and s['counters'] is None     # counters: false
            verdict = dict(s['attestation'], schema_version='1.0', device=s['device'], file=None)
            assert schemas.errors('attestation.json', verdict) == [], verdict
            assert s['attestation']['trust'] == attest_runs['pem']
    lines = [r for r in doc['results'] if r['task'] == 'One line per socket']
    assert sorted(len(r['result']['results']) for r in lines) == sorted(SOCKETS)
    assert all('state certificate attested by the part' in x['msg']
               for r in lines for x in r['result']['results'])


def test_check_mode_attests_the_same_and_writes_nothing(attest_runs, fleet):
    rc, doc = attest_runs['check']
    assert rc == 0, json.dumps(doc)[:3000]
    assert verdicts(doc) == {k: (True, None) for k in all_sockets(fleet)}
    assert fleet_line(doc) == fleet_line(attest_runs['pass'][1])
    for r in task_results(doc, 'sdsi_facts').values():
        assert r['status'] == 'ok' and r['result']['changed'] is False
    assert attest_runs['nvram1'] == attest_runs['nvram0']


def test_a_socket_that_fails_is_reported_and_fails_its_host_alone(attest_runs, fleet):
    rc, doc = attest_runs['fault']
    assert rc == 2, json.dumps(doc)[:3000]
    host = 'node%d' % FAULTY[0]
    want = {k: (True, None) for k in all_sockets(fleet)}
    want[(host, FAULTY[1])] = (False, 'measurement-state')
    assert verdicts(doc) == want
    total = sum(SOCKETS)
    assert fleet_line(doc) == '%d of %d sockets attested' % (total - 1, total)
    for h in fleet.hosts:
        assert doc['stats'][h.name]['failures'] == (h.name == host), h.name
    (failed,) = [r for r in doc['results'] if r['status'] == 'failed']
    assert failed['host'] == host and failed['task'] == 'Every socket attested'
    assert 'intel_vsec.sdsi.%d' % FAULTY[1] in json.dumps(failed['result'])


def test_a_root_the_owner_did_not_trust_fails_every_socket(attest_runs):
    rc, doc = attest_runs['untrusted']
    assert rc == 2, json.dumps(doc)[:3000]
    assert verdicts(doc) == {('node0', 0): (False, 'trust')}
    (sock,) = sockets_of(doc)['node0']
    assert sock['attestation']['anchor'] is None and sock['errors'] == {}


def test_no_roots_is_no_verdict_and_the_reason(attest_runs):
    rc, doc = attest_runs['no_roots']
    assert rc == 2, json.dumps(doc)[:3000]
    (sock,) = sockets_of(doc)['node0']
    assert sock['attestation'] is None
    assert '/nonexistent/roots' in sock['errors']['attestation']
    (line,) = [r for r in doc['results'] if r['task'] == 'One line per socket']
    assert '/nonexistent/roots' in line['result']['results'][0]['msg']


def test_without_attest_no_socket_has_a_verdict(runs):
    for socks in sockets_of(runs['facts0'][1]).values():
        assert all('attestation' not in s for s in socks)
