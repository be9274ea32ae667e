# SPDX-License-Identifier: GPL-2.0-only
"""What the sdsi.ondemand modules share: running intel_sdsi with --json on the
managed host and reading its documents.

The modules never decode a register, certificate or blob themselves: every
byte layout is intel_sdsi's (include/sdsi/ in the sdsi tree), and these
helpers only read the JSON it prints, contract 1.x (docs/schema/ in the sdsi
tree): every document carries "schema_version" and, when it is about a
device, "device"; --all prints {"results": [...]} in device order.  A
document of another major version is refused rather than misread."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

# The major version of intel_sdsi's JSON contract these modules read.
SCHEMA_MAJOR = '1'

COMMON_ARGS = dict(
    executable=dict(type='str', default='intel_sdsi'),
    sysfs_root=dict(type='path'),
)


class IntelSdsi(object):
    """intel_sdsi on the managed host, as the module's parameters name it."""

    def __init__(self, module):
        self.module = module
        exe = module.params['executable']
        self.path = exe if '/' in exe else module.get_bin_path(exe, required=True)
        self.root = module.params.get('sysfs_root')
        # Named here rather than by the OSError of a failed start.
        if not os.path.exists(self.path):
            module.fail_json(msg='executable %s: No such file or directory' % self.path)
        if os.path.isdir(self.path) or not os.access(self.path, os.X_OK):
            module.fail_json(msg='executable %s: not an executable file' % self.path)

    def run(self, *args):
        """(exit status, JSON document, stderr) of one --json run; the task fails
        when intel_sdsi printed no document of contract 1.x."""
        argv = [self.path]
        if self.root:
            argv += ['--sysfs-root', self.root]
        argv += list(args) + ['--json', '-q']
        rc, out, err = self.module.run_command(argv)
        try:
            doc = json.loads(out) if out.strip() else None
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            self.module.fail_json(msg='%s printed no JSON document (exit %d): %s'
                                  % (' '.join(argv), rc, err.strip() or out[:200]), rc=rc)
        version = str(doc.get('schema_version'))
        if version.split('.')[0] != SCHEMA_MAJOR:
            self.module.fail_json(msg='%s speaks JSON contract %s; this collection reads %s.x'
                                  % (self.path, version, SCHEMA_MAJOR), rc=rc)
        return rc, doc, err

    def devices(self):
        """The On Demand devices (-l): [{"device", "devno", "guid"}], [] when there are none."""
        rc, doc, err = self.run('-l')
        if rc != 0:
            self.module.fail_json(msg='intel_sdsi -l: %s' % error_message(doc, err), rc=rc)
        return list(doc['devices'])

    def all_of(self, *command):
        """{device name: its document, or its error document} of intel_sdsi --all COMMAND.

        --all exits non-zero when any socket failed; the per-socket documents
        still say which, so the exit status alone is not an error here."""
        rc, doc, err = self.run('--all', *command)
        if 'results' not in doc:
            self.module.fail_json(msg='intel_sdsi --all %s: %s'
                                  % (' '.join(command), error_message(doc, err)),
                                  rc=rc, error=error_of(doc))
        return by_device(doc)


def by_device(doc):
    """{device name: its document} of an --all run; a device that failed has its
    error document there."""
    return dict((item['device'], item) for item in doc.get('results') or [])


def error_of(doc):
    return doc.get('error') if isinstance(doc, dict) and isinstance(doc.get('error'), dict) else None


def error_message(doc, err=''):
    error = error_of(doc)
    if error:
        return error.get('message') or error.get('name') or json.dumps(error)
    return (err or '').strip() or 'failed'


def license_line(device, license, valid=True):
    """One licence of a state certificate, as the diff shows it."""
    codes = ','.join(b['code'] for b in license.get('bundles') or [])
    return '%s: licence %s revision %s %s%s%s\n' % (
        device, license['id'], license['revision'],
        license.get('type_name') or 'type %s' % license.get('type'),
        (' [%s]' % codes) if codes else '', '' if valid else ' (invalid)')
