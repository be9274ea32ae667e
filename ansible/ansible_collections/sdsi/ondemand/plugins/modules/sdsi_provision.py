#!/usr/bin/python
# SPDX-License-Identifier: GPL-2.0-only
"""sdsi_provision: an AKC on every socket and each CAP of a directory on the
socket whose PPIN it names, through intel_sdsi on the managed host."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: sdsi_provision
short_description: Provision Intel On Demand (SDSi) AKCs and CAPs, matched by PPIN
description:
  - Provisions an Authentication Key Certificate (AKC) on every On Demand socket
    of the managed host, then each Capability Activation Payload (CAP) found in
    a directory on the socket whose PPIN the CAP is bound to, with the sdsi
    project's C(intel_sdsi -a) and C(-c).
  - A CAP whose PPIN matches no socket of the host is left unused and listed in
    I(unused); so is a file that is not a CAP in the sdsi format. Neither fails
    the task, so one directory can serve a whole fleet.
  - Idempotent. intel_sdsi compares each blob with the socket's state
    certificate and writes nothing when that AKC or licence is already there;
    the task reports C(changed) only when something was written.
  - Check mode is intel_sdsi's C(--dry-run) - every pre-flight check, nothing
    written - and reports what would be written. A CAP for a socket whose AKC
    this same task would provision first is reported as one that would be written.
  - Diff mode shows each socket's AKC key revision and stored licences before
    and after (in check mode, the predicted after).
  - Every pre-flight refusal, rejection or device error fails the task with
    intel_sdsi's message; what was written until then is still returned.
version_added: 0.1.0
author:
  - sdsi project
options:
  akc:
    description:
      - Path on the managed host of the AKC to provision on every socket.
    type: path
  cap_dir:
    description:
      - Directory on the managed host holding CAP files. Each regular file not
        starting with a dot is read; its bound PPIN picks the socket.
    type: path
  retry:
    description:
      - Retry each write up to this many times while the mailbox is busy
        (intel_sdsi C(--retry)).
    type: int
    default: 0
  executable:
    description:
      - The intel_sdsi program on the managed host, a name looked up in PATH or a path.
    type: str
    default: intel_sdsi
  sysfs_root:
    description:
      - Look for the devices under this directory instead of
        C(/sys/bus/auxiliary/devices) (intel_sdsi C(--sysfs-root)).
    type: path
notes:
  - The AKC and CAP files must already be on the managed host (for instance put
    there by M(ansible.builtin.copy)); the module reads them where it runs.
  - Needs root on the managed host.
  - Supports check mode and diff mode.
seealso:
  - module: sdsi.ondemand.sdsi_facts
'''

EXAMPLES = r'''
- name: Put the licensor's AKC and the fleet's CAPs on the host
  ansible.builtin.copy:
    src: licences/
    dest: /var/lib/sdsi/licences/
    mode: "0600"

- name: Provision the AKC, then every CAP bound to one of this host's PPINs
  sdsi.ondemand.sdsi_provision:
    akc: /var/lib/sdsi/licences/licensor.akc
    cap_dir: /var/lib/sdsi/licences/caps
  register: provisioned

- name: CAPs that matched no socket of this host
  ansible.builtin.debug:
    var: provisioned.unused
'''

RETURN = r'''
sockets:
  description: What was done on each socket, in device order.
  returned: always
  type: list
  elements: dict
  contains:
    device:
      description: The sysfs device name.
      type: str
      sample: intel_vsec.sdsi.0
    devno:
      description: N of intel_vsec.sdsi.N.
      type: int
    ppin:
      description: The socket's PPIN, as intel_sdsi prints it.
      type: str
    akc:
      description: C(provisioned), C(unchanged) (already there), C(would provision)
        (check mode), or null without I(akc).
      type: str
    caps:
      description: The CAPs bound to this socket's PPIN, each with C(file), C(id),
        C(revision) and C(result) (C(provisioned), C(unchanged) or C(would provision)).
      type: list
      elements: dict
unused:
  description: Files of I(cap_dir) provisioned nowhere, each with C(file), C(reason)
    and, for a CAP, the C(ppin) it is bound to.
  returned: always
  type: list
  elements: dict
  sample: [{"file": "/var/lib/sdsi/caps/old.cap", "ppin": "0x0000000000009999",
            "reason": "no socket of this host has PPIN 0x0000000000009999"}]
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sdsi.ondemand.plugins.module_utils.intel_sdsi import (
    COMMON_ARGS, IntelSdsi, decoded_as, error_message, error_of, hex_int, is_unchanged,
    licence_line, preflight_of)

WOULD = 'would provision'


class Provisioner(object):
    def __init__(self, module):
        self.module = module
        self.tool = IntelSdsi(module)
        self.check = module.check_mode
        self.changed = False
        self.sockets = []
        self.unused = []
        self.akc_rev = None     # the given AKC's key revision, as intel_sdsi decodes it

    def fail(self, msg, **extra):
        self.module.fail_json(msg=msg, changed=self.changed, sockets=self.sockets,
                              unused=self.unused, **extra)

    def write(self, sock, flag, path):
        """One intel_sdsi -a/-c (a dry run in check mode): (result, document)."""
        args = ['-d', str(sock['devno']), flag, path]
        if self.module.params['retry']:
            args += ['--retry', str(self.module.params['retry'])]
        if self.check:
            args.append('--dry-run')
        rc, doc, err = self.tool.run(*args)
        error = error_of(doc) or {}
        if (rc != 0 and self.check and flag == '-c' and sock['akc'] == WOULD
                and error.get('name') == 'ENOKEY'):
            return WOULD, doc       # the AKC this task provisions first is not there yet
        if rc != 0:
            self.fail('%s: %s' % (sock['device'], error_message(doc, err)), rc=rc, error=error)
        if is_unchanged(doc):
            return 'unchanged', doc
        self.changed = True
        return (WOULD if self.check else 'provisioned'), doc

    def load_sockets(self):
        devs = self.tool.devices()
        if not devs:
            self.fail('this host has no On Demand (SDSi) socket')
        info = self.tool.all_of('-i')
        for dev in devs:
            doc = info.get(dev['device']) or {}
            if 'error' in doc or doc.get('ppin') is None:
                self.fail('%s: its PPIN cannot be read: %s' % (dev['device'], error_message(doc)))
            self.sockets.append({'device': dev['device'], 'devno': dev['devno'],
                                 'ppin': doc['ppin'], 'akc': None, 'caps': []})

    def provision_akc(self, path):
        for sock in self.sockets:
            sock['akc'], doc = self.write(sock, '-a', path)
            self.akc_rev = (decoded_as(doc, 'akc') or {}).get('key_revision')

    def cap_files(self, directory):
        if not os.path.isdir(directory):
            self.fail('cap_dir %s: not a directory' % directory)
        names = sorted(n for n in os.listdir(directory) if not n.startswith('.'))
        return [os.path.join(directory, n) for n in names
                if os.path.isfile(os.path.join(directory, n))]

    def decode(self, path):
        """The CAP's licence as intel_sdsi decodes it (a dry run on the first
        socket, whose verdict does not matter here), or None when it is no CAP."""
        rc, doc, err = self.tool.run('-d', str(self.sockets[0]['devno']), '-c', path,
                                     '--dry-run')
        licence = decoded_as(doc, 'cap')
        if licence is not None:
            return licence
        kind = preflight_of(doc).get('format')
        if kind == 'akc':
            reason = 'an AKC, not a CAP: give it as akc'
        elif kind == 'foreign':
            reason = 'not in the sdsi CAP format: the PPIN it is bound to cannot be read'
        else:
            self.fail('%s: %s' % (path, error_message(doc, err)), rc=rc, error=error_of(doc))
        self.unused.append({'file': path, 'ppin': None, 'reason': reason})
        return None

    def provision_caps(self, directory):
        by_ppin = dict((hex_int(s['ppin']), s) for s in self.sockets)
        for path in self.cap_files(directory):
            licence = self.decode(path)
            if licence is None:
                continue
            sock = by_ppin.get(hex_int(licence['ppin']))
            if sock is None:
                self.unused.append({'file': path, 'ppin': licence['ppin'],
                                    'reason': 'no socket of this host has PPIN %s'
                                    % licence['ppin']})
                continue
            result = self.write(sock, '-c', path)[0]
            sock['caps'].append({'file': path, 'id': licence['id'],
                                 'revision': licence['revision'], 'result': result,
                                 'license': licence})


def state_text(sockets, state, predicted_rev=None):
    """Each socket's AKC key revision and licences, one line each, for the diff;
    with predicted_rev, as they would be after the writes check mode planned."""
    lines = []
    for sock in sockets:
        doc = state.get(sock['device']) or {}
        if 'error' in doc:
            lines.append('%s: state certificate unreadable: %s\n'
                         % (sock['device'], error_message(doc)))
            continue
        rev = doc['key_revision']
        entries = [(e['license'], e['valid']) for e in doc['licenses'] if e['license']]
        if predicted_rev is not None:
            if sock['akc'] == WOULD:
                rev = predicted_rev
            entries += [(cap['license'], True) for cap in sock['caps'] if cap['result'] == WOULD]
        lines.append('%s (PPIN %s): AKC %s\n' % (sock['device'], sock['ppin'],
                                                 'none' if rev is None else
                                                 'key revision %s' % rev))
        lines += [licence_line(sock['device'], lic, valid) for lic, valid in entries]
    return ''.join(lines)


def main():
    module = AnsibleModule(
        argument_spec=dict(COMMON_ARGS, akc=dict(type='path'), cap_dir=dict(type='path'),
                           retry=dict(type='int', default=0)),
        required_one_of=[('akc', 'cap_dir')],
        supports_check_mode=True)
    prov = Provisioner(module)
    prov.load_sockets()
    before = prov.tool.all_of('-s') if module._diff else None
    if module.params['akc']:
        prov.provision_akc(module.params['akc'])
    if module.params['cap_dir']:
        prov.provision_caps(module.params['cap_dir'])
    result = dict(changed=prov.changed, sockets=prov.sockets, unused=prov.unused)
    if module._diff:
        if prov.check:
            after = state_text(prov.sockets, before, predicted_rev=prov.akc_rev or '?')
        else:
            after = state_text(prov.sockets, prov.tool.all_of('-s'))
        result['diff'] = dict(before=state_text(prov.sockets, before), after=after,
                              before_header='state certificates before',
                              after_header='state certificates after')
    for sock in prov.sockets:
        for cap in sock['caps']:
            cap.pop('license')
    module.exit_json(**result)


if __name__ == '__main__':
    main()
