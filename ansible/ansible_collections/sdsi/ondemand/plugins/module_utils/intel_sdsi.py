# SPDX-License-Identifier: GPL-2.0-only
"""What the sdsi.ondemand modules share: running intel_sdsi with --json on the
managed host and reading its documents.

The modules never decode a register, certificate or blob themselves: every
byte layout is intel_sdsi's (include/sdsi/ in the sdsi tree), and these
helpers only read the JSON it prints.  They accept both shapes --all has had:
the versioned contract (docs/schema/: {"schema_version", "results": [...]} in
device order, each document naming its "device") and the earlier object keyed
by device name, so a managed host with an older intel_sdsi still works."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

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

    def run(self, *args):
        """(exit status, parsed JSON or None, stderr) of one --json run."""
        argv = [self.path]
        if self.root:
            argv += ['--sysfs-root', self.root]
        argv += list(args) + ['--json', '-q']
        rc, out, err = self.module.run_command(argv)
        try:
            doc = json.loads(out) if out.strip() else None
        except ValueError:
            self.module.fail_json(msg='%s printed no JSON (exit %d): %s'
                                  % (' '.join(argv), rc, err.strip() or out[:200]),
                                  rc=rc)
        return rc, doc, err

    def must(self, *args):
        """A run that has to succeed: its document, or the task fails with its error."""
        rc, doc, err = self.run(*args)
        if rc != 0:
            self.module.fail_json(msg='intel_sdsi %s: %s' % (' '.join(args),
                                                            error_message(doc, err)),
                                  rc=rc, error=error_of(doc))
        return doc

    def devices(self):
        """The On Demand devices (-l): [{"name", "devno", "guid"}], [] when there are none."""
        rc, doc, err = self.run('-l')
        if rc == 3:     # no such device: a host without On Demand sockets
            return []
        if rc != 0:
            self.module.fail_json(msg='intel_sdsi -l: %s' % error_message(doc, err), rc=rc)
        devs = []
        for dev in doc.get('devices') or []:
            dev = dict(dev)
            dev['name'] = dev.get('name') or dev.get('device')
            devs.append(dev)
        return devs

    def all_of(self, command):
        """{device name: its document or {"error": ...}} of intel_sdsi --all COMMAND.

        --all exits non-zero when any socket failed; the per-socket documents
        still say which, so the exit status alone is not an error here."""
        rc, doc, err = self.run('--all', command)
        if doc is None:
            self.module.fail_json(msg='intel_sdsi --all %s: %s' % (command, err.strip()), rc=rc)
        return by_device(doc)


def by_device(doc):
    """{device name: document} from either shape of --all."""
    if isinstance(doc, dict) and isinstance(doc.get('results'), list):
        items = doc['results']
    elif isinstance(doc, list):
        items = doc
    elif isinstance(doc, dict) and 'error' not in doc:
        items = [dict(v, device=v.get('device', k)) if isinstance(v, dict) else v
                 for k, v in doc.items() if k != 'schema_version']
    else:
        items = [doc]
    out = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        name = item.get('device')
        if name is None and isinstance(item.get('error'), dict):
            name = item['error'].get('device')
        out[name] = item
    return out


def error_of(doc):
    return doc.get('error') if isinstance(doc, dict) and isinstance(doc.get('error'), dict) else None


def error_message(doc, err=''):
    error = error_of(doc)
    if error:
        return error.get('message') or error.get('name') or json.dumps(error)
    return (err or '').strip() or 'failed'


def hex_int(value):
    """A PPIN or ID as intel_sdsi prints it ("0x1111" or "0x0000000000001111")."""
    if value is None:
        return None
    return int(value, 16) if isinstance(value, str) else int(value)


def preflight_of(doc):
    """The pre-flight part of a provisioning document, also when it was refused."""
    error = error_of(doc)
    if error and isinstance(error.get('preflight'), dict):
        return error['preflight']
    return doc if isinstance(doc, dict) else {}


def is_unchanged(doc):
    """Whether a provisioning run found the blob already there (nothing written)."""
    pre = preflight_of(doc)
    if pre.get('unchanged'):
        return True
    return any(c.get('name') == 'already_provisioned' and c.get('result') == 'unchanged'
               for c in pre.get('checks') or [])


def type_name(lic):
    """A licence's type by name, whether intel_sdsi printed a number, a name or both."""
    t = lic.get('type_name', lic.get('type'))
    if isinstance(t, dict):
        t = t.get('name', t.get('value'))
    if isinstance(t, int):
        return {1: 'one-time', 2: 'metered'}.get(t, 'type %d' % t)
    return str(t)


def licence_line(device, lic):
    """One stored licence of a state certificate, as the diff shows it."""
    feats = ','.join(lic.get('features') or [])
    return '%s: licence %s revision %s %s%s%s\n' % (
        device, lic.get('id'), lic.get('revision'), type_name(lic),
        (' [%s]' % feats) if feats else '', '' if lic.get('valid', True) else ' (invalid)')
