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
    project's C(intel_sdsi --all -a AKC) and C(intel_sdsi --all -c DIR), which
    provision every socket at once and do the matching.
  - Each CAP is read by the published licence-blob layout, whoever issued it,
    and goes to the socket whose PPIN it carries; a file that does not read
    as one goes where the directory's C(MANIFEST) says (see intel_sdsi(1)).
    Two CAPs for one socket write none there and fail that socket.
  - A CAP whose PPIN matches no socket of the host is left unused and listed in
    I(unused); so is every other file of the directory that is no usable CAP
    (an AKC, a foreign or malformed blob, a subdirectory), with intel_sdsi's
    reason; a socket no CAP is for, or an empty directory, is listed in
    I(unmatched_sockets). Any of them fails the task after everything else was
    provisioned, as intel_sdsi exits 5 for them, unless I(unmatched=warn) -
    then each is a warning, so that one directory can serve a whole fleet.
  - Idempotent. intel_sdsi compares each blob with the socket's state
    certificate and writes nothing when that AKC or licence is already there;
    the task reports C(changed) only when something was written.
  - Check mode is intel_sdsi's C(--dry-run) - every pre-flight check, nothing
    written - and reports what would be written. On a socket whose AKC this
    same task would provision first, the CAPs cannot be checked before that
    AKC is there (intel_sdsi refuses the first with ENOKEY and skips the
    rest); they are reported as C(would provision).
  - In check mode an I(akc) or I(cap_dir) that is not on the host yet (the
    task that copies it ran in check mode too, so nothing was copied) does not
    fail the task; it warns. Without the AKC file, every socket without an AKC
    is reported as C(would provision) and every other one as C(not checked);
    without the directory, no CAP is matched. The real run checks everything.
  - Diff mode shows each socket's AKC key revision and stored licences before
    and after (in check mode, the predicted after).
  - A host without On Demand sockets (none under I(sysfs_root), or the
    intel_sdsi driver not loaded) fails the task; M(sdsi.ondemand.sdsi_facts)
    tells such hosts apart without failing.
  - An I(executable) that is missing or cannot be run, or an intel_sdsi whose
    JSON contract is not 1.x, fails the task before anything is written.
  - A socket that fails (a pre-flight refusal, a rejection by the device, a
    device error) fails the task with intel_sdsi's messages, after every other
    socket was provisioned; the result still says what was written.
version_added: 0.1.0
author:
  - sdsi project
extends_documentation_fragment:
  - sdsi.ondemand.intel_sdsi
  - ansible.builtin.action_common_attributes
attributes:
  check_mode:
    support: full
    details:
      - intel_sdsi C(--dry-run) - every pre-flight check, nothing written.
      - An I(akc) or I(cap_dir) not on the host yet (an earlier task that copies
        it ran in check mode too) is not checked; the task warns and predicts
        from the sockets' state certificates alone.
  diff_mode:
    support: full
    details: Each socket's AKC key revision and licences, before and after.
  platform:
    platforms: posix
options:
  akc:
    description:
      - Path on the managed host of the AKC to provision on every socket.
    type: path
  cap_dir:
    description:
      - Directory on the managed host holding CAP files. Every entry is read,
        in file name order; a CAP's bound PPIN picks the socket.
    type: path
  retry:
    description:
      - Retry each write up to this many times while the mailbox is busy
        (intel_sdsi C(--retry)).
    type: int
    default: 0
  unmatched:
    description:
      - What a CAP left unused, a socket left without a CAP, or an empty
        I(cap_dir) does to the task - C(fail) it (after the writes that could
        be made), or C(warn) - for a directory holding the CAPs of other
        hosts too.
    type: str
    choices: [fail, warn]
    default: fail
notes:
  - The AKC and CAP files must already be on the managed host (for instance put
    there by M(ansible.builtin.copy)); the module reads them where it runs.
  - Needs root on the managed host.
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
    unmatched: warn       # the directory holds the other hosts' CAPs too
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
    ppin:
      description: The socket's PPIN, as intel_sdsi prints it (null when its registers
        could not be read).
      type: str
    akc:
      description: C(provisioned), C(unchanged) (already there), C(would provision)
        (check mode), C(not checked) (check mode, I(akc) not on the host yet, and
        the socket holds an AKC already), or null without I(akc).
      type: str
    caps:
      description: The CAPs bound to this socket's PPIN, each with C(file), C(id),
        C(revision) and C(result) (C(provisioned), C(unchanged), C(would provision),
        or on a failed socket C(refused), C(failed) or C(skipped)).
      type: list
      elements: dict
    error:
      description: Why this socket failed, null when it did not.
      type: str
unused:
  description: Entries of I(cap_dir) provisioned nowhere, each with C(file), C(reason)
    and, for a CAP, the C(ppin) it is bound to (null otherwise).
  returned: always
  type: list
  elements: dict
  sample: [{"file": "/var/lib/sdsi/caps/old.cap", "ppin": "0x0000000000009999",
            "reason": "no socket of this host has PPIN 0x0000000000009999"}]
unmatched_sockets:
  description: The sockets of the host that no CAP of I(cap_dir) is for, each with
    C(device) and C(ppin); empty without I(cap_dir).
  returned: always
  type: list
  elements: dict
  sample: [{"device": "intel_vsec.sdsi.1", "ppin": "0x0000000000f1ee71"}]
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sdsi.ondemand.plugins.module_utils.intel_sdsi import (
    COMMON_ARGS, IntelSdsi, error_message, license_line)

WOULD = 'would provision'
# Check mode, the AKC file not on the host yet: not compared with a socket's AKC.
UNCHECKED = 'not checked'
# intel_sdsi's result for one blob of a fleet run, as this module reports it.
RESULTS = {'written': 'provisioned', 'planned': WOULD, 'unchanged': 'unchanged',
           'refused': 'refused', 'failed': 'failed', 'skipped': 'skipped'}


class Provisioner(object):
    def __init__(self, module):
        self.module = module
        self.tool = IntelSdsi(module)
        self.check = module.check_mode
        self.sockets = []       # in device order, as intel_sdsi reports them
        self.unused = []
        self.unmatched_sockets = []
        self.empty_dir = False
        self.akc_rev = None     # the given AKC's key revision, as intel_sdsi decodes it

    @property
    def changed(self):
        return any(s['akc'] in ('provisioned', WOULD) or
                   any(c['result'] in ('provisioned', WOULD) for c in s['caps'])
                   for s in self.sockets)

    def fail(self, msg, **extra):
        self.module.fail_json(msg=msg, changed=self.changed, sockets=self.sockets,
                              unused=self.unused, unmatched_sockets=self.unmatched_sockets,
                              **extra)

    def fleet(self, flag, source):
        """One intel_sdsi --all -a/-c run (a dry run in check mode): its results."""
        args = ['--all', flag, source]
        if self.module.params['retry']:
            args += ['--retry', str(self.module.params['retry'])]
        if self.check:
            args.append('--dry-run')
        rc, doc, err = self.tool.run(*args)
        if 'results' not in doc:    # nothing was tried: no socket, an unusable source
            self.fail('intel_sdsi --all %s %s: %s' % (flag, source, error_message(doc, err)),
                      rc=rc, error=doc.get('error'))
        if not self.sockets:
            self.sockets = [{'device': r['device'], 'ppin': r['ppin'], 'akc': None, 'caps': [],
                             'error': None} for r in doc['results']]
        return doc

    def absent_in_check(self, option):
        """In check mode, the path of OPTION when nothing is there: an earlier
        task of the play (a copy) would have put it there, but it ran in check
        mode too.  None otherwise: intel_sdsi then judges the path."""
        path = self.module.params[option]
        if self.check and path and not os.path.lexists(path):
            return path
        return None

    def plan_without_akc(self, path):
        """Check mode, the AKC not on the host: every socket without an AKC
        would get it; one with an AKC cannot be compared with it."""
        self.module.warn('%s is not on the host (an earlier task would copy it, in check mode '
                         'nothing was): the sockets that hold an AKC were not compared with it'
                         % path)
        info = self.tool.all_of('-i')
        for device, state in sorted(self.tool.all_of('-s').items()):
            sock = {'device': device, 'ppin': (info.get(device) or {}).get('ppin'),
                    'akc': WOULD, 'caps': [], 'error': None}
            if 'error' in state:
                sock['akc'], sock['error'] = UNCHECKED, error_message(state)
            elif state['key_revision'] is not None:
                sock['akc'] = UNCHECKED
            self.sockets.append(sock)

    def socket(self, device):
        return [s for s in self.sockets if s['device'] == device][0]

    def provision_akc(self, path):
        for r in self.fleet('-a', path)['results']:
            sock = self.socket(r['device'])
            blob = r['blobs'][0] if r['blobs'] else {}
            sock['akc'] = RESULTS.get(blob.get('result'), blob.get('result'))
            if r['error']:
                sock['error'] = r['error']['message']
            decoded = blob.get('decoded') or {}
            if decoded.get('kind') == 'akc':
                self.akc_rev = decoded['akc']['key_revision']

    def provision_caps(self, directory):
        doc = self.fleet('-c', directory)
        self.empty_dir = not doc['files']
        for r in doc['results']:
            sock = self.socket(r['device'])
            if r['result'] == 'no_match':
                self.unmatched_sockets.append({'device': r['device'], 'ppin': r['ppin']})
            if sock['error']:
                continue        # its AKC failed: intel_sdsi's CAP verdicts would only echo it
            awaiting_akc = False
            for blob in r['blobs']:
                result = RESULTS.get(blob['result'], blob['result'])
                error = blob.get('error') or {}
                if (self.check and sock['akc'] == WOULD and
                        (error.get('name') == 'ENOKEY' or (awaiting_akc and result == 'skipped'))):
                    awaiting_akc, result = True, WOULD
                license = (blob.get('decoded') or {}).get('license') or {}
                sock['caps'].append({'file': blob['file'], 'id': license.get('id'),
                                     'revision': license.get('revision'), 'result': result,
                                     'license': license})
            if r['error'] and not awaiting_akc:
                sock['error'] = r['error']['message']
        for f in doc['files']:
            if f['used_by']:
                continue
            if f['error']:
                reason = f['error']['message']
            else:
                reason = 'no socket of this host has PPIN %s' % f['ppin']
            self.unused.append({'file': f['file'], 'ppin': f['ppin'], 'reason': reason})

    def unmatched(self):
        """What the CAP run left unmatched, one message each (intel_sdsi's exit 5)."""
        msgs = ['%s (PPIN %s): no CAP in %s is for it'
                % (s['device'], s['ppin'], self.module.params['cap_dir'])
                for s in self.unmatched_sockets]
        if self.empty_dir:
            msgs.insert(0, '%s: empty: no CAP to provision' % self.module.params['cap_dir'])
        # intel_sdsi's reasons for a file it could not use start with its name.
        msgs += ['%s; not used' % (u['reason'] if u['reason'].startswith(u['file'])
                                   else '%s: %s' % (u['file'], u['reason']))
                 for u in self.unused]
        return msgs


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
        lines += [license_line(sock['device'], lic, valid) for lic, valid in entries]
    return ''.join(lines)


def main():
    module = AnsibleModule(
        argument_spec=dict(COMMON_ARGS, akc=dict(type='path'), cap_dir=dict(type='path'),
                           retry=dict(type='int', default=0),
                           unmatched=dict(type='str', choices=['fail', 'warn'], default='fail')),
        required_one_of=[('akc', 'cap_dir')],
        supports_check_mode=True)
    prov = Provisioner(module)
    # A read first: an intel_sdsi of another JSON contract fails the task
    # here, before it is given anything to write.
    if not prov.tool.devices():
        # As a host whose driver is not loaded: provisioning it cannot succeed.
        module.fail_json(msg='no On Demand socket on this host (intel_sdsi -l found none%s): '
                         'nothing can be provisioned'
                         % (' under %s' % prov.tool.root if prov.tool.root else ''),
                         changed=False, sockets=[], unused=[], unmatched_sockets=[])
    before = prov.tool.all_of('-s') if module._diff else None
    if prov.absent_in_check('akc'):
        prov.plan_without_akc(module.params['akc'])
    elif module.params['akc']:
        prov.provision_akc(module.params['akc'])
    if prov.absent_in_check('cap_dir'):
        module.warn('%s is not on the host (an earlier task would copy it, in check mode '
                    'nothing was): its CAPs were neither matched nor checked'
                    % module.params['cap_dir'])
    elif module.params['cap_dir']:
        prov.provision_caps(module.params['cap_dir'])
    failed = ['%s: %s' % (s['device'], s['error']) for s in prov.sockets if s['error']]
    if module.params['unmatched'] == 'warn':
        for msg in prov.unmatched():
            module.warn(msg)
    else:
        failed += prov.unmatched()
    result = dict(changed=prov.changed, sockets=prov.sockets, unused=prov.unused,
                  unmatched_sockets=prov.unmatched_sockets)
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
    if failed:
        prov.fail('; '.join(failed))
    module.exit_json(**result)


if __name__ == '__main__':
    main()
