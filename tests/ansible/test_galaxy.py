# SPDX-License-Identifier: GPL-2.0-only
"""The collection as the community publishes one: ansible-galaxy builds its
artifact from galaxy.yml, at the project's version, holding the collection's
files and nothing else; ansible-test's sanity tests that need nothing from
PyPI pass; each module documents its check and diff mode support.  Every
file of these runs is under the test's temporary directory (a copy of the
collection, a home of its own): the tree is never written."""
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

import pytest

from fleet_facts import COLLECTIONS, REPO

SOURCE = os.path.join(COLLECTIONS, 'ansible_collections', 'sdsi', 'ondemand')
# ansible-test's sanity tests that run offline (the others install their
# requirements from PyPI into a virtual environment first).
OFFLINE_SANITY = ['action-plugin-docs', 'compile', 'empty-init', 'future-import-boilerplate',
                  'line-endings', 'metaclass-boilerplate', 'no-assert', 'no-get-exception',
                  'no-smart-quotes', 'replace-urlopen', 'shebang', 'symlinks', 'use-compat-six']


def project_version():
    with open(os.path.join(REPO, 'meson.build')) as f:
        return re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)


def galaxy_env(tmp_path):
    home = tmp_path / 'home'
    (home / 'tmp').mkdir(parents=True, exist_ok=True)
    return dict(os.environ, HOME=str(home), ANSIBLE_HOME=str(home),
                ANSIBLE_LOCAL_TEMP=str(home / 'tmp'), ANSIBLE_CONFIG=str(tmp_path / 'none.cfg'),
                ANSIBLE_NOCOLOR='1', LC_ALL='C.UTF-8')


def need(program):
    if shutil.which(program) is None:
        pytest.skip('needs %s (ansible-core)' % program)


def test_galaxy_builds_the_artifact_at_the_project_version(tmp_path):
    need('ansible-galaxy')
    proc = subprocess.run(['ansible-galaxy', 'collection', 'build', '--output-path',
                           str(tmp_path), SOURCE], capture_output=True, text=True,
                          env=galaxy_env(tmp_path), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    version = project_version()
    artifact = tmp_path / ('sdsi-ondemand-%s.tar.gz' % version)
    assert artifact.exists(), os.listdir(tmp_path)
    with tarfile.open(artifact) as tar:
        names = sorted(tar.getnames())
        manifest = json.load(tar.extractfile('MANIFEST.json'))
    info = manifest['collection_info']
    assert (info['namespace'], info['name'], info['version']) == ('sdsi', 'ondemand', version)
    assert info['license'] == ['GPL-2.0-only'] and info['readme'] == 'README.md'
    assert info['authors'] and info['description'] and info['tags']
    files = [n for n in names if '.' in os.path.basename(n)]
    assert files == ['FILES.json', 'MANIFEST.json', 'README.md', 'changelogs/changelog.yaml',
                     'meta/runtime.yml', 'plugins/doc_fragments/intel_sdsi.py',
                     'plugins/module_utils/intel_sdsi.py', 'plugins/modules/sdsi_facts.py',
                     'plugins/modules/sdsi_provision.py'], names


def test_the_changelog_has_this_version(tmp_path):
    with open(os.path.join(SOURCE, 'changelogs', 'changelog.yaml')) as f:
        text = f.read()
    assert re.search(r"^  %s:$" % re.escape(project_version()), text, re.M), text
    with open(os.path.join(SOURCE, 'meta', 'runtime.yml')) as f:
        assert re.search(r'^requires_ansible: ">=2\.14(\.0)?"$', f.read(), re.M)


def test_ansible_test_sanity_offline(tmp_path):
    """On a copy outside any git work tree: inside one (the build directory
    is in ours, and ignored), ansible-test takes its targets from git and
    would find none."""
    need('ansible-test')
    python = '%d.%d' % sys.version_info[:2]
    argv = ['ansible-test', 'sanity', '--python', python, '--python-interpreter', sys.executable]
    for test in OFFLINE_SANITY:
        argv += ['--test', test]
    with tempfile.TemporaryDirectory(prefix='sdsi-ansible-test-') as top:
        copy = os.path.join(top, 'ansible_collections', 'sdsi', 'ondemand')
        shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
        proc = subprocess.run(argv, cwd=copy, capture_output=True, text=True,
                              env=galaxy_env(tmp_path), timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for test in OFFLINE_SANITY:
        assert 'Running sanity test "%s"' % test in proc.stdout + proc.stderr


@pytest.mark.parametrize('module,check,diff', [
    ('sdsi_facts', 'full', 'none'),
    ('sdsi_provision', 'full', 'full'),
])
def test_attributes_say_check_and_diff_mode(tmp_path, module, check, diff):
    need('ansible-doc')
    env = dict(galaxy_env(tmp_path), ANSIBLE_COLLECTIONS_PATH=COLLECTIONS)
    name = 'sdsi.ondemand.' + module
    proc = subprocess.run(['ansible-doc', '--json', name], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    attributes = json.loads(proc.stdout)[name]['doc']['attributes']
    assert attributes['check_mode']['support'] == check
    assert attributes['diff_mode']['support'] == diff
    assert attributes['check_mode']['description']      # from action_common_attributes
