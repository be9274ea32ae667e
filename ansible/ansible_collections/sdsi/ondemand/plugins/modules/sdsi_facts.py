#!/usr/bin/python
# SPDX-License-Identifier: GPL-2.0-only
"""sdsi_facts: the Intel On Demand inventory of one host, from intel_sdsi's JSON."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: sdsi_facts
short_description: Inventory of the Intel On Demand (SDSi) sockets of a host
description:
  - Runs the sdsi project's C(intel_sdsi) on the managed host with C(--json) and
    returns, for every On Demand socket, its device, PPIN, socket ID, enabled
    features, AKC and failure counters, the licences its state certificate
    holds, and the live meter counters; with I(attest=true), each socket's
    attestation verdict too.
  - Reads only; never writes to a device. Check mode runs it the same way,
    attestation included (it sends SPDM requests and reads certificates; it
    spends no provisioning attempt).
  - A host without On Demand sockets is no error; I(sdsi.present) is then false.
  - The module decodes nothing itself; every field is intel_sdsi's, under the
    name its JSON contract 1.x gives it (docs/schema/ in the sdsi tree), the
    fields of C(intel_sdsi -i), the key and licences of C(-s), the counters of C(-C).
    An intel_sdsi of another major version of the contract fails the task.
version_added: 0.1.0
author:
  - sdsi project
extends_documentation_fragment:
  - sdsi.ondemand.intel_sdsi
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.facts
attributes:
  check_mode:
    support: full
    details: The module only reads; it runs the same way in check mode.
  diff_mode:
    support: none
  facts:
    support: full
  platform:
    platforms: posix
options:
  counters:
    description:
      - Also read each socket's live meter counters (intel_sdsi C(-C)). A socket
        without metering gets C(counters=null) and the reason in I(errors).
    type: bool
    default: true
  attest:
    description:
      - Also verify each socket's attestation (intel_sdsi C(--attest verify)),
        the part's certificate chain against the trusted roots, a signed
        challenge with a fresh nonce, and the signed measurements of its state
        (and meter) certificate. The verdict is in I(attestation); a part that
        fails is reported, not failed.
      - A socket where attestation cannot run (no attestation transport, as on
        a part without attestation enabled, busy, no trusted roots) gets
        C(attestation=null) and the reason in I(errors).
    type: bool
    default: false
    version_added: 0.2.0
  attest_trust:
    description:
      - With I(attest=true), the attestation roots the owner trusts, on the
        managed host, a PEM file or a directory of PEM files (intel_sdsi
        C(--trust)). Default, intel_sdsi's own directory
        (C(/etc/sdsi/attestation-roots) in the Debian package).
    type: path
    version_added: 0.2.0
notes:
  - Needs root on the managed host, as intel_sdsi reading the sysfs attributes does.
seealso:
  - module: sdsi.ondemand.sdsi_provision
'''

EXAMPLES = r'''
- name: Read the On Demand inventory
  sdsi.ondemand.sdsi_facts:

- name: Show every socket's PPIN and licence count
  ansible.builtin.debug:
    msg: "{{ item.device }} PPIN {{ item.ppin }}: {{ item.licenses | length }} licence(s)"
  loop: "{{ ansible_facts.sdsi.sockets }}"

- name: Verify every socket's attestation against the owner's roots
  sdsi.ondemand.sdsi_facts:
    counters: false
    attest: true
    attest_trust: /etc/sdsi/attestation-roots

- name: Inventory of an emulated platform mounted with sdsi-emu mount /srv/sdsi
  sdsi.ondemand.sdsi_facts:
    sysfs_root: /srv/sdsi/devices
    counters: false
'''

RETURN = r'''
ansible_facts:
  description: The facts, under the key C(sdsi).
  returned: always
  type: complex
  contains:
    sdsi:
      description: The host's On Demand inventory.
      type: complex
      contains:
        present:
          description: Whether the host has any On Demand socket.
          type: bool
        sockets:
          description: One entry per On Demand device, in device order.
          type: list
          elements: dict
          contains:
            device:
              description: The sysfs device name.
              type: str
              sample: intel_vsec.sdsi.0
            devno:
              description: N of intel_vsec.sdsi.N, what intel_sdsi -d takes.
              type: int
            guid:
              description: The register layout's GUID, as a hex string (null when unreadable).
              type: str
            ppin:
              description: The socket's Protected Processor Inventory Number, as a hex string.
              type: str
              sample: "0x0000000000001111"
            socket_id:
              description: The socket ID the registers report.
              type: int
            features:
              description: Enabled features (on_demand, attestation, metering), each a bool.
              type: dict
            akc_provisioned:
              description: Whether an AKC is provisioned.
              type: bool
            akc_failures:
              description: AKC failure count and threshold.
              type: dict
            cap_failures:
              description: CAP failure count and threshold.
              type: dict
            updates:
              description: Provisioning updates available in this power cycle, and the threshold.
              type: dict
            nvram_limits:
              description: Which NVRAM endurance marks (50, 75, 90 percent) were passed.
              type: dict
            auth_errors:
              description: The content and metering authentication error flags.
              type: dict
            key_revision:
              description: The provisioned AKC's key revision, null without an AKC.
              type: int
            key_image:
              description: The licence key image (SHA-384 of the licensor key), null without an AKC.
              type: str
            licenses:
              description: The state certificate's entries as intel_sdsi -s prints them, each with
                C(index), C(size), C(valid) and C(license) (C(id), C(ppin), C(revision), C(type),
                C(type_name), C(bundles)), null for an entry that holds none.
              type: list
              elements: dict
            counters:
              description: The live meter counters as intel_sdsi -C prints them, null when not read.
              type: list
              elements: dict
            attestation:
              description:
                - The verdict of intel_sdsi --attest verify, only with I(attest=true), null when
                  attestation could not run (the reason in I(errors)); its fields as the JSON
                  contract's attestation.json names them, C(attested) (bool), C(summary),
                  C(failed_check) (null when attested), C(trust), C(anchor), C(digest),
                  C(certificates), C(measurements), C(checks) (each check's C(name),
                  C(result) and C(detail)).
              type: dict
              returned: when attest is true
            errors:
              description: What could not be read of this socket, by part (info, state, counters,
                attestation).
              type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sdsi.ondemand.plugins.module_utils.intel_sdsi import (
    COMMON_ARGS, IntelSdsi, error_message)

# Parts of a document that describe the document, not the socket.
ENVELOPE = ('schema_version', 'device', 'file')
# What the facts take of the state certificate (-s) and the live meter (-C).
STATE_FIELDS = ('key_revision', 'key_image', 'licenses')


def socket_facts(dev, info, state, meter, verdict=None, attest=False):
    """One socket's facts: the -i document's fields, the state certificate's
    key and licences, the live counters and, when asked (attest), the
    attestation verdict, each under intel_sdsi's own name."""
    name = dev['device']
    sock = {'device': name, 'devno': dev['devno'], 'guid': dev['guid'], 'errors': {},
            'key_revision': None, 'key_image': None, 'licenses': [], 'counters': None}
    if attest:
        sock['attestation'] = None
    for part, doc in (('info', info), ('state', state), ('counters', meter),
                      ('attestation', verdict if attest else None)):
        if doc is not None and 'error' in doc:
            sock['errors'][part] = error_message(doc)
    if info is not None and 'error' not in info:
        sock.update((k, v) for k, v in info.items() if k not in ENVELOPE)
    if state is not None and 'error' not in state:
        sock.update((k, state[k]) for k in STATE_FIELDS)
    if meter is not None and 'error' not in meter:
        sock['counters'] = meter['counters']
    if attest and verdict is not None and 'error' not in verdict:
        sock['attestation'] = dict((k, v) for k, v in verdict.items() if k not in ENVELOPE)
    return sock


def main():
    module = AnsibleModule(argument_spec=dict(COMMON_ARGS, counters=dict(type='bool', default=True),
                                              attest=dict(type='bool', default=False),
                                              attest_trust=dict(type='path')),
                           supports_check_mode=True)
    attest = module.params['attest']
    trust = module.params['attest_trust']
    tool = IntelSdsi(module)
    devs = tool.devices()
    sockets = []
    if devs:
        info = tool.all_of('-i')
        state = tool.all_of('-s')
        meter = tool.all_of('-C') if module.params['counters'] else {}
        # A part that fails attestation exits 10, one where it cannot run with
        # its error's status: each socket's document says which (all_of).
        verdicts = tool.all_of('--attest', 'verify', *(['--trust', trust] if trust else [])) \
            if attest else {}
        for dev in devs:
            name = dev['device']
            sockets.append(socket_facts(dev, info.get(name), state.get(name), meter.get(name),
                                        verdicts.get(name), attest))
    module.exit_json(changed=False, ansible_facts={'sdsi': {'present': bool(sockets),
                                                            'sockets': sockets}})


if __name__ == '__main__':
    main()
