# SPDX-License-Identifier: GPL-2.0-only
"""docs/ansible.md's examples as an operator runs them, as written there,
against the test fleet made the inventory's group `ondemand`: the
provisioning playbook with the licences directory it copies (the AKC and
every host's CAPs), in check mode only (the real run would copy the files
to /var/lib/sdsi on this machine, which is not ours); and the attestation
report, which writes nothing."""
import os
import re
import shutil

DOC = os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'ansible.md')
# Where the example's playbook copies the licences on each host.
DEST = '/var/lib/sdsi'


def blocks():
    """{'ini': inventory, 'yaml': the provisioning playbook, 'attestation':
    the attestation report} of docs/ansible.md, in that order there."""
    with open(DOC) as f:
        found = re.findall(r'```(ini|yaml)\n(.*?)```', f.read(), re.S)
    ini = [text for kind, text in found if kind == 'ini']
    yaml = [text for kind, text in found if kind == 'yaml']
    assert (len(ini), len(yaml)) == (1, 2), found
    return {'ini': ini[0], 'yaml': yaml[0], 'attestation': yaml[1]}


def groups(top):
    """The inventory file that makes the fleet the examples' group."""
    path = os.path.join(top, 'ondemand.ini')
    if not os.path.exists(path):
        with open(path, 'w') as f:
            f.write('[ondemand:children]\nfleet\n')
    return path


def check_run(ansible, fleet, licenses, workdir):
    """(exit status, JSON document) of `ansible-playbook ondemand.yml --check
    --diff` over the fleet: the docs' first command on hosts that have never
    had the files copied."""
    top = os.path.join(workdir, 'docs-example')
    caps = os.path.join(top, 'licences', 'caps')
    os.makedirs(caps)
    shutil.copy(licenses.akc, os.path.join(top, 'licences', 'licensor.akc'))
    for h in fleet.hosts:
        for name in os.listdir(h.caps):
            shutil.copy(os.path.join(h.caps, name), caps)
    playbook = os.path.join(top, 'ondemand.yml')
    with open(playbook, 'w') as f:
        f.write(blocks()['yaml'])
    return ansible.playbook(playbook, '-i', groups(top), '--check', '--diff')


def attestation_run(ansible, workdir, roots, *args):
    """(exit status, JSON document) of `ansible-playbook attestation.yml -e
    sdsi_attestation_roots=ROOTS ARGS` over the fleet."""
    top = os.path.join(workdir, 'docs-example')
    os.makedirs(top, exist_ok=True)
    playbook = os.path.join(top, 'attestation.yml')
    with open(playbook, 'w') as f:
        f.write(blocks()['attestation'])
    return ansible.playbook(playbook, '-i', groups(top), '-e', 'sdsi_attestation_roots=' + roots,
                            *args)
