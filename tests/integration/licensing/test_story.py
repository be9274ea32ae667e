# SPDX-License-Identifier: GPL-2.0-only
"""The operator's story of docs/interface.md §4.2, one socket at a time on a
two-socket platform: read the PPIN, have the authority issue an AKC and a
CAP for it, provision both with intel_sdsi, and find the licensor key's
image and the licence in the state certificate."""
import pytest

import sdsikit.layout as sdsi_layout
from sdsikit.licplatform import LICENSE_ONE_TIME, auth_error, cap_blob, key_image, \
    licenses


def ppin_from_tool(platform, n):
    info = platform.tool_json('-d', str(n), '-i')
    assert info['device'] == f'intel_vsec.sdsi.{n}'
    ppin = int(info['ppin'], 16)
    assert ppin == platform.ppin(n), 'intel_sdsi and the registers disagree'
    return ppin


@pytest.mark.parametrize('n', (0, 1))
def test_full_story(platform, authority, n):
    other = 1 - n
    untouched = platform.read(other, 'state_certificate')
    ppin = ppin_from_tool(platform, n)
    akc = authority.akc(key_rev=5)
    cap = authority.cap(ppin, features=('CC02', 'SG01'))

    before = platform.regs(n)
    assert not before.key_prov & sdsi_layout.KEY_PROVISIONED
    assert platform.state(n).content_type == sdsi_layout.STATE_CONTENT_EMPTY

    done = platform.tool('-d', str(n), '-a', akc.path)
    assert done.returncode == 0, done.stderr
    regs = platform.regs(n)
    assert regs.key_prov & sdsi_layout.KEY_PROVISIONED
    assert regs.akc_count == 0 and not auth_error(regs)
    assert regs.updates_available == before.updates_available - 1
    cert = platform.state(n)
    assert cert.content_type == sdsi_layout.STATE_CONTENT_KEY
    assert cert.num_licenses == 0
    assert cert.key_rev == 5
    assert cert.key_image == key_image(akc.data)
    # intel_sdsi prints the image byte 47 first (docs/intel_sdsi.md).
    shown = platform.tool_json('-d', str(n), '-s')
    assert shown['key_image'] == '0x' + key_image(akc.data)[::-1].hex()

    done = platform.tool('-d', str(n), '-c', cap.path)
    assert done.returncode == 0, done.stderr
    regs = platform.regs(n)
    assert regs.cap_count == 0 and not auth_error(regs)
    assert regs.updates_available == before.updates_available - 2
    raw = platform.read(n, 'state_certificate')
    cert = sdsi_layout.decode_state_certificate(raw)
    assert cert.content_type == sdsi_layout.STATE_CONTENT_KEY_BLOBS
    assert cert.num_licenses == 1
    assert cert.key_image == key_image(akc.data)
    assert licenses(raw) == [(True, cap_blob(cap.data))]
    shown = platform.tool_json('-d', str(n), '-s')
    (lic,) = shown['licenses']
    assert lic['valid'] and lic['license']['type'] == LICENSE_ONE_TIME
    assert lic['license']['type_name'] == 'one-time'
    assert lic['license']['ppin'] == f'0x{ppin:016x}'
    assert lic['license']['bundles'] == [{'code': 'CC02'}, {'code': 'SG01'}]

    assert platform.read(other, 'state_certificate') == untouched
    assert platform.regs(other).updates_available == before.updates_available


def test_sockets_are_independent(platform, authority):
    ppins = [ppin_from_tool(platform, n) for n in (0, 1)]
    assert ppins[0] != ppins[1]
    akc = authority.akc()
    caps = [authority.cap(p) for p in ppins]
    for n in (0, 1):
        assert platform.write(n, 'provision_akc', akc.data) == 'ok'
    assert platform.write(0, 'provision_cap', caps[0].data) == 'ok'

    # Socket 0's CAP on socket 1: the PPIN is not socket 1's.  Only socket
    # 1 counts the failure.
    for attempt in (1, 2, 3):
        assert platform.write(1, 'provision_cap', caps[0].data) == 'EIO'
        assert platform.regs(1).cap_count == attempt
    assert platform.write(1, 'provision_cap', caps[1].data) == 'EIO', \
        'socket 1 reached its threshold: even a good CAP is refused'
    regs0 = platform.regs(0)
    assert regs0.cap_count == 0 and not auth_error(regs0)
    assert platform.state(1).num_licenses == 0

    # A power cycle of socket 1 alone resets socket 1 alone.
    assert platform.write(0, 'provision_cap', caps[1].data) == 'EIO'
    platform.power_cycle(1)
    assert platform.regs(1).cap_count == 0
    assert platform.regs(0).cap_count == 1
    assert platform.write(1, 'provision_cap', caps[1].data) == 'ok'
    assert licenses(platform.read(1, 'state_certificate')) == \
        [(True, cap_blob(caps[1].data))]
    assert licenses(platform.read(0, 'state_certificate')) == \
        [(True, cap_blob(caps[0].data))]
