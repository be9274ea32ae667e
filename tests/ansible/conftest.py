# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the Ansible tests: eight hosts reached over ssh (fleet.py),
each with its own emulated platform, AKCs and CAPs issued for their PPINs by
the real sdsi-authority, and ansible-playbook from Debian's ansible-core run
with every file of its own (configuration, home, temporary files) in the
test's temporary directory."""
import json
import os
import shutil
import subprocess

import pytest

import docs_example
from fleet import Fleet
from fleet_facts import (AUTHORITY, COLLECTIONS, EMU, FEATURES, HERE, LAYOUT, TOOL, WRONG_NAME,
                         WRONG_PPIN, nvram)
from sdsikit.violations import assert_protocol_kept

def missing():
    needs = [what for what, absent in (
        ('root', os.geteuid() != 0), ('/dev/fuse', not os.path.exists('/dev/fuse')),
        ('a built SDSI_BUILD_DIR', not os.access(TOOL, os.X_OK)),
        ('ansible-playbook (ansible-core)', shutil.which('ansible-playbook') is None),
        ('dropbear (dropbear-bin)', not os.access('/usr/sbin/dropbear', os.X_OK)),
        ('ssh (openssh-client)', shutil.which('ssh') is None),
        ('ssh-keygen', shutil.which('ssh-keygen') is None),
        ('ip (iproute2)', shutil.which('ip') is None)) if absent]
    return 'needs ' + ', '.join(missing) if needs else None


def authority(*args):
    proc = subprocess.run([AUTHORITY, *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


class Licenses:
    """The AKC and, per host, the CAPs issued for it: {(host, socket): [licence ID]}."""

    def __init__(self, workdir, fleet):
        self.dir = os.path.join(workdir, 'authority')
        self.akc = os.path.join(workdir, 'licensor.akc')
        authority('akc', self.dir, '-o', self.akc, '--key-rev', '2')
        self.expected = {}
        for host in fleet.hosts:
            for s, ppin in enumerate(host.ppins):
                # One CAP per socket, as Intel issues them (issue 24).
                ids = [0x1000 + (host.index << 4) + s]
                for n, lid in enumerate(ids):
                    self.cap(host, '%s-s%d-%d.cap' % (host.name, s, n), ppin, lid)
                self.expected[(host.name, s)] = ids
            self.cap(host, WRONG_NAME, WRONG_PPIN, 0xBAD)

    def cap(self, host, name, ppin, lid):
        authority('cap', self.dir, '--ppin', '%x' % ppin, '--id', '%x' % lid,
                  '--feature', 'CC%02d' % (lid % 100), '-o', os.path.join(host.caps, name))


class Ansible:
    def __init__(self, workdir, fleet, licenses):
        self.dir = os.path.join(workdir, 'ansible')
        os.makedirs(os.path.join(self.dir, 'home', 'tmp'))
        self.cfg = os.path.join(self.dir, 'ansible.cfg')
        with open(self.cfg, 'w') as f:
            f.write('# no settings: everything is in the environment\n')
        self.inventory = os.path.join(self.dir, 'inventory.ini')
        common = ' '.join(a for a in fleet.ssh_args if a not in ('-i', fleet.key))
        with open(self.inventory, 'w') as f:
            f.write('[fleet]\n')
            for h in fleet.hosts:
                f.write('%s ansible_host=%s sdsi_cap_dir=%s\n' % (h.name, h.addr, h.caps))
            f.write('\n[fleet:vars]\nansible_user=root\nansible_connection=ssh\n'
                    'ansible_python_interpreter=/usr/bin/python3\n'
                    'ansible_ssh_private_key_file=%s\nansible_ssh_common_args="%s"\n'
                    'sdsi_akc=%s\nsdsi_intel_sdsi=%s\n'
                    % (fleet.key, common, licenses.akc, TOOL))
        home = os.path.join(self.dir, 'home')
        self.env = dict(os.environ, ANSIBLE_CONFIG=self.cfg, ANSIBLE_HOME=home,
                        ANSIBLE_LOCAL_TEMP=os.path.join(home, 'tmp'),
                        ANSIBLE_REMOTE_TEMP=os.path.join(self.dir, 'remote-tmp'),
                        ANSIBLE_SSH_CONTROL_PATH_DIR=os.path.join(home, 'cp'),
                        ANSIBLE_COLLECTIONS_PATH=COLLECTIONS,
                        ANSIBLE_CALLBACK_PLUGINS=os.path.join(HERE, 'callback_plugins'),
                        ANSIBLE_STDOUT_CALLBACK='sdsi_json', ANSIBLE_LOAD_CALLBACK_PLUGINS='1',
                        ANSIBLE_PIPELINING='True', ANSIBLE_FORKS='8',
                        ANSIBLE_SSH_ARGS='-o ControlMaster=no',
                        ANSIBLE_HOST_KEY_CHECKING='True', ANSIBLE_RETRY_FILES_ENABLED='False',
                        ANSIBLE_NOCOLOR='1', ANSIBLE_GATHERING='explicit',
                        PYTHONDONTWRITEBYTECODE='1')

    def playbook(self, name, *args):
        """(exit status, the run's JSON document) of one ansible-playbook run
        of NAME, a playbook of this directory or a path."""
        proc = subprocess.run(['ansible-playbook', '-i', self.inventory,
                               os.path.join(HERE, name), *args],
                              capture_output=True, text=True, env=self.env, timeout=600)
        try:
            doc = json.loads(proc.stdout)
        except ValueError:
            pytest.fail('ansible-playbook %s printed no JSON (exit %d): %s %s'
                        % (name, proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]))
        return proc.returncode, doc

    def tool(self, *args):
        return subprocess.run([shutil.which(args[0]), *args[1:]], capture_output=True,
                              text=True, env=self.env, timeout=120)


@pytest.fixture(scope='session')
def workdir(tmp_path_factory):
    reason = missing()
    if reason:
        pytest.skip(reason)
    path = str(tmp_path_factory.mktemp('ansible-fleet'))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope='session')
def fleet(workdir):
    authority('init', os.path.join(workdir, 'authority'))
    f = Fleet(os.path.join(workdir, 'hosts'), EMU, os.path.join(workdir, 'authority'), LAYOUT,
              FEATURES, TOOL)
    try:
        f.start()
        yield f
        # The playbooks provisioned every host: the mailbox protocol kept.
        for h in f.hosts:
            assert_protocol_kept(EMU, '--state', h.state)
    finally:
        f.stop()


@pytest.fixture(scope='session')
def licenses(workdir, fleet):
    return Licenses(workdir, fleet)


@pytest.fixture(scope='session')
def ansible(workdir, fleet, licenses):
    return Ansible(workdir, fleet, licenses)


@pytest.fixture(scope='session')
def runs(ansible, fleet, licenses, workdir):
    out = {}
    # First of all, on hosts that never saw a licence file: docs/ansible.md's
    # example in check mode, as its first command runs it.
    out['docs_dest'] = os.path.exists(docs_example.DEST)
    out['nvram_docs'] = nvram(fleet)
    out['docs_check'] = docs_example.check_run(ansible, fleet, licenses, workdir)
    out['facts0'] = ansible.playbook('facts.yml')
    out['nvram0'] = nvram(fleet)
    out['check'] = ansible.playbook('provision.yml', '--check', '--diff')
    out['nvram1'] = nvram(fleet)
    out['facts1'] = ansible.playbook('facts.yml')
    out['first'] = ansible.playbook('provision.yml', '--diff')
    out['second'] = ansible.playbook('provision.yml', '--diff')
    out['facts2'] = ansible.playbook('facts.yml')
    return out
