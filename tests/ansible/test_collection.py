# SPDX-License-Identifier: GPL-2.0-only
"""The sdsi.ondemand collection against eight hosts over ssh, in one playbook
run each time: the docs' example in check mode, facts, a check-mode run,
the first real run, a second real run, facts again.  The runs happen once
(the `runs` fixture, conftest.py) in that order; each test reads what it
needs of them."""
import json
import os

import pytest
from jsonschema import Draft202012Validator, RefResolver

import docs_example
from fleet_facts import (FEATURES, LAYOUT, SOCKETS, TOOL, WRONG_NAME, WRONG_PPIN, sockets_of,
                         task_results)
# The JSON contract's schemas, as tests/tool loads them.
from sdsikit import schemas


def ppin(value):
    return int(value, 16)


def test_every_host_has_its_own_platform(runs, fleet):
    rc, doc = runs['facts0']
    assert rc == 0, json.dumps(doc)[:3000]
    seen = sockets_of(doc)
    assert len(seen) == len(fleet.hosts) == 8
    for h in fleet.hosts:
        socks = seen[h.name]
        assert len(socks) == SOCKETS[h.index]
        assert [ppin(s['ppin']) for s in socks] == LAYOUT[h.index]
        assert [s['device'] for s in socks] == ['intel_vsec.sdsi.%d' % i
                                                for i in range(len(socks))]
        metering = 'metering' in FEATURES[h.index]
        for s in socks:
            assert s['features'] == {'on_demand': True, 'attestation': True, 'metering': metering}
            assert s['akc_provisioned'] is False and s['licenses'] == []
            if metering:
                assert s['counters'] == [] and s['errors'] == {}
            else:   # reported, not failed
                assert s['counters'] is None and list(s['errors']) == ['counters']
                assert 'Metering is not supported' in s['errors']['counters']
    assert set(SOCKETS) == {1, 2, 3, 4} and not all('metering' in f for f in FEATURES)
    assert len({p for ppins in LAYOUT for p in ppins}) == sum(SOCKETS)


def test_docs_example_runs_in_check_mode_on_a_fresh_host(runs, fleet):
    """docs/ansible.md's `--check --diff`: the copy would happen, so the AKC
    and CAP directory are not there yet; the run still succeeds on every
    host, predicts the AKC on every socket, warns about what it could not
    check, reads the facts, and writes nothing anywhere."""
    rc, doc = runs['docs_check']
    assert rc == 0, json.dumps(doc)[:3000]
    tasks = [r['task'] for r in doc['results'] if r['host'] == 'node0']
    assert tasks == ['The AKC and every CAP of the fleet, on each host',
                     'The AKC on every socket, each CAP on the socket of its PPIN',
                     'CAPs bound to no socket of this host', 'Read the inventory',
                     'One line per socket'], tasks
    copies = task_results(doc, 'copy')
    provisions = task_results(doc, 'sdsi_provision')
    facts = sockets_of(doc)
    for h in fleet.hosts:
        assert doc['stats'][h.name]['failures'] == 0
        assert copies[h.name]['result']['changed'] is True
        r = provisions[h.name]['result']
        assert r['changed'] is True
        assert [s['akc'] for s in r['sockets']] == ['would provision'] * SOCKETS[h.index]
        assert [ppin(s['ppin']) for s in r['sockets']] == LAYOUT[h.index]
        assert all(s['caps'] == [] and s['error'] is None for s in r['sockets'])
        assert r['unused'] == []
        warnings = ' '.join(r['warnings'])
        assert '/var/lib/sdsi/licences/licensor.akc is not on the host' in warnings
        assert '/var/lib/sdsi/licences/caps is not on the host' in warnings
        assert 'AKC key revision ?' in r['diff']['after'] and 'AKC none' in r['diff']['before']
        assert [ppin(s['ppin']) for s in facts[h.name]] == LAYOUT[h.index]
    lines = [r for r in doc['results'] if r['task'] == 'One line per socket']
    assert sorted(len(r['result']['results']) for r in lines) == sorted(SOCKETS)
    assert os.path.exists(docs_example.DEST) == runs['docs_dest'] is False
    assert runs['nvram_docs'] == runs['nvram0']


def test_check_mode_reports_changes_and_writes_nothing(runs, fleet):
    rc, doc = runs['check']
    assert rc == 0, json.dumps(doc)[:3000]
    for h in fleet.hosts:
        assert doc['stats'][h.name]['changed'] == 1
        assert doc['stats'][h.name]['failures'] == 0
    for r in task_results(doc, 'sdsi_provision').values():
        for sock in r['result']['sockets']:
            assert sock['akc'] == 'would provision'
            assert {c['result'] for c in sock['caps']} == {'would provision'}
    assert runs['nvram1'] == runs['nvram0']
    assert sockets_of(runs['facts1'][1]) == sockets_of(runs['facts0'][1])


def test_first_run_provisions_every_socket(runs, fleet, licenses):
    rc, doc = runs['first']
    assert rc == 0, json.dumps(doc)[:3000]
    results = task_results(doc, 'sdsi_provision')
    for h in fleet.hosts:
        assert doc['stats'][h.name] == dict(doc['stats'][h.name], ok=1, changed=1, failures=0)
        socks = results[h.name]['result']['sockets']
        assert len(socks) == SOCKETS[h.index]
        for s, sock in enumerate(socks):
            assert sock['akc'] == 'provisioned'
            assert [int(c['id'], 16) for c in sock['caps']] == licenses.expected[(h.name, s)]
            assert {c['result'] for c in sock['caps']} == {'provisioned'}


def test_second_run_changes_nothing(runs, fleet):
    rc, doc = runs['second']
    assert rc == 0, json.dumps(doc)[:3000]
    for h in fleet.hosts:
        assert doc['stats'][h.name] == dict(doc['stats'][h.name], ok=1, changed=0, failures=0)
    for r in task_results(doc, 'sdsi_provision').values():
        assert r['status'] == 'ok' and r['result']['changed'] is False
        for sock in r['result']['sockets']:
            assert sock['akc'] == 'unchanged'
            assert {c['result'] for c in sock['caps']} == {'unchanged'}


@pytest.mark.parametrize('run', ['check', 'first', 'second'])
def test_wrong_ppin_cap_is_left_unused(runs, fleet, run):
    """The playbook asks unmatched: warn (one directory for many hosts): the
    CAP for no socket of the host is listed and warned about, not failed."""
    for h, r in task_results(runs[run][1], 'sdsi_provision').items():
        unused = r['result']['unused']
        assert [os.path.basename(u['file']) for u in unused] == [WRONG_NAME]
        assert ppin(unused[0]['ppin']) == WRONG_PPIN
        assert 'no socket of this host has PPIN' in unused[0]['reason']
        assert r['result']['unmatched_sockets'] == []
        assert any(WRONG_NAME in w and 'not used' in w for w in r['result']['warnings'])


def test_facts_show_what_was_provisioned(runs, fleet, licenses):
    rc, doc = runs['facts2']
    assert rc == 0
    seen = sockets_of(doc)
    for h in fleet.hosts:
        for s, sock in enumerate(seen[h.name]):
            assert sock['akc_provisioned'] is True and sock['key_revision'] == 2
            held = [e['license'] for e in sock['licenses'] if e['valid']]
            assert len(held) == len(sock['licenses'])
            assert [int(lic['id'], 16) for lic in held] == licenses.expected[(h.name, s)]
            assert {ppin(lic['ppin']) for lic in held} == {LAYOUT[h.index][s]}


def contract_errors(ref, value):
    """What the contract's schema at ref (e.g. state.json#/properties/licenses) says of value."""
    resolver = RefResolver(base_uri=schemas.BASE + 'facts.json', referrer={}, store=schemas.STORE)
    return [e.message for e in Draft202012Validator({'$ref': ref}, resolver=resolver)
            .iter_errors(value)]


@pytest.mark.parametrize('run', ['facts0', 'facts2'])
def test_facts_keep_the_json_contract(runs, run):
    """Each socket's facts are intel_sdsi's fields under their contract names."""
    info_fields = set(schemas.STORE[schemas.BASE + 'info.json']['properties'])
    info_fields -= {'schema_version', 'device', 'file'}
    for host, socks in sockets_of(runs[run][1]).items():
        for sock in socks:
            info = dict((k, sock[k]) for k in info_fields)
            info.update(schema_version='1.0', device=sock['device'], file=None)
            assert schemas.errors('info.json', info) == []
            for ref, value in (('state.json#/properties/licenses', sock['licenses']),
                               ('state.json#/properties/key_revision', sock['key_revision']),
                               ('state.json#/properties/key_image', sock['key_image']),
                               ('meter.json#/properties/counters', sock['counters'])):
                if value is None and ref.endswith('/counters'):
                    continue    # not read: the reason is in errors
                assert contract_errors(ref, value) == [], (host, ref, value)
            assert contract_errors('state.json#/properties/licenses', [{'index': 0}]) != []


def license_lines(text):
    return sorted(line for line in text.splitlines() if ': licence ' in line)


def test_diff_shows_licenses_before_and_after(runs, fleet, licenses):
    check = task_results(runs['check'][1], 'sdsi_provision')
    first = task_results(runs['first'][1], 'sdsi_provision')
    second = task_results(runs['second'][1], 'sdsi_provision')
    for h in fleet.hosts:
        diff = first[h.name]['result']['diff']
        assert license_lines(diff['before']) == []
        ids = [i for s in range(SOCKETS[h.index]) for i in licenses.expected[(h.name, s)]]
        after = license_lines(diff['after'])
        assert len(after) == len(ids)
        assert sorted(int(line.split()[2], 16) for line in after) == sorted(ids)
        assert 'AKC key revision 2' in diff['after'] and 'AKC none' in diff['before']
        # Check mode predicted exactly what the real run then did.
        assert check[h.name]['result']['diff']['after'] == diff['after']
        again = second[h.name]['result']['diff']
        assert again['before'] == again['after'] == diff['after']


def test_missing_cap_dir_fails_naming_it(ansible, runs, fleet):
    rc, doc = ansible.playbook('provision.yml', '--limit', 'node0',
                               '-e', 'sdsi_cap_dir=/nonexistent/caps')
    assert rc == 2
    r = task_results(doc, 'sdsi_provision')['node0']
    assert r['status'] == 'failed'
    assert r['result']['msg'] == ('intel_sdsi --all -c /nonexistent/caps: '
                                  '/nonexistent/caps: No such file or directory')
    assert r['result']['changed'] is False      # the AKC was there already


def test_facts_of_a_host_without_on_demand(ansible, runs, tmp_path):
    """No socket under sysfs_root: present is false, the task succeeds.  A
    sysfs_root that is no directory is a mistake, named, not 'no socket'."""
    empty = tmp_path / 'no-devices'
    empty.mkdir()
    proc = ansible.tool('ansible', 'node0', '-i', ansible.inventory, '-m',
                        'sdsi.ondemand.sdsi_facts',
                        '-a', 'executable=%s sysfs_root=%s' % (TOOL, empty))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    facts = doc['results'][0]['result']['ansible_facts']['sdsi']
    assert facts == {'present': False, 'sockets': []}
    proc = ansible.tool('ansible', 'node0', '-i', ansible.inventory, '-m',
                        'sdsi.ondemand.sdsi_facts',
                        '-a', 'executable=%s sysfs_root=/nonexistent' % TOOL)
    assert proc.returncode != 0, proc.stdout
    assert '--sysfs-root /nonexistent: No such file or directory' in proc.stdout


@pytest.mark.parametrize('module,options', [
    ('sdsi_facts', {'executable', 'sysfs_root', 'counters', 'attest', 'attest_trust'}),
    ('sdsi_provision', {'akc', 'cap_dir', 'retry', 'unmatched', 'executable', 'sysfs_root'}),
])
def test_ansible_doc_shows_the_documentation(ansible, module, options):
    name = 'sdsi.ondemand.' + module
    text = ansible.tool('ansible-doc', name)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith('> ' + name.upper())
    doc = json.loads(ansible.tool('ansible-doc', '--json', name).stdout)[name]
    assert set(doc['doc']['options']) == options
    assert doc['examples'] and doc['return']
    listing = ansible.tool('ansible-doc', '-l', 'sdsi.ondemand').stdout
    assert name in listing


@pytest.mark.parametrize('block,name', [('yaml', 'ondemand.yml'),
                                        ('attestation', 'attestation.yml')])
def test_the_docs_example_playbook_parses(ansible, tmp_path, block, name):
    """docs/ansible.md's inventory and playbooks, as written there."""
    blocks = docs_example.blocks()
    (tmp_path / 'inventory.ini').write_text(blocks['ini'])
    (tmp_path / name).write_text(blocks[block])
    proc = ansible.tool('ansible-playbook', '--syntax-check', '-i', str(tmp_path / 'inventory.ini'),
                        str(tmp_path / name))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    listing = ansible.tool('ansible-playbook', '--list-hosts', '-i',
                           str(tmp_path / 'inventory.ini'), str(tmp_path / name))
    assert listing.returncode == 0 and 'hosts (3)' in listing.stdout, listing.stdout
