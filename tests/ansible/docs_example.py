# SPDX-License-Identifier: GPL-2.0-only
"""docs/ansible.md's example as an operator runs it: its playbook, as
written there, with the licences directory it copies (the AKC and every
host's CAPs), against the test fleet made the inventory's group
`ondemand`.  Only the check-mode run is made: the real one would copy the
files to /var/lib/sdsi on this machine, which is not ours."""
import os
import re
import shutil

DOC = os.path.join(os.path.dirname(__file__), '..', '..', 'docs', 'ansible.md')
# Where the example's playbook copies the licences on each host.
DEST = '/var/lib/sdsi'


def blocks():
    """{'ini': inventory, 'yaml': playbook} of docs/ansible.md."""
    with open(DOC) as f:
        return dict(re.findall(r'```(ini|yaml)\n(.*?)```', f.read(), re.S))


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
    groups = os.path.join(top, 'ondemand.ini')
    with open(groups, 'w') as f:
        f.write('[ondemand:children]\nfleet\n')
    return ansible.playbook(playbook, '-i', groups, '--check', '--diff')
