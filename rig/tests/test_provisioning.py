# SPDX-License-Identifier: GPL-2.0-only
"""Provisioning through the real kernel driver: the operator's story with
keys from sdsi-authority, written by intel_sdsi to the kernel's
provision_akc and provision_cap, authenticated by the model behind
sdsi-shmem, and read back from the kernel's state_certificate, raw and as
intel_sdsi decodes it.  Also what the silicon refuses, and that a licence
survives the power cycle that activates it."""
import errno
import os

import pytest

from guest import KEY_REV, ROOT, SOCKETS, Kmsg
from sdsikit.licplatform import Authority, Programs, cap_blob, key_image, licenses

import sdsikit.layout as sdsi_layout

pytestmark = pytest.mark.mailbox


def raw(n, attr):
    fd = os.open(os.path.join(ROOT, f'intel_vsec.sdsi.{n}', attr), os.O_RDONLY)
    try:
        return os.read(fd, sdsi_layout.STATE_CERT_MAX)
    finally:
        os.close(fd)


def ppin(tool, n):
    info = tool.json('-d', n, '-i')
    regs = sdsi_layout.decode_registers(raw(n, 'registers'),
                                        int(raw(n, 'guid'), 16))
    assert int(info['ppin'], 16) == regs.ppin, \
        'intel_sdsi and the registers disagree'
    return regs.ppin


def test_story_on_every_socket(fresh, tool, authority):
    for n in range(SOCKETS):
        before = tool.json('-d', n, '-i')
        assert not before['akc_provisioned']
        akc = authority.akc(key_rev=KEY_REV)
        cap = authority.cap(ppin(tool, n), features=('CC02', 'SG01'))

        done = tool.json('-d', n, '-a', akc.path)
        assert done['provisioned'] and done['format'] == 'akc'
        info = tool.json('-d', n, '-i')
        assert info['akc_provisioned']
        assert info['updates']['available'] == \
            before['updates']['available'] - 1

        done = tool.json('-d', n, '-c', cap.path)
        assert done['provisioned'] and done['format'] == 'cap'
        state = raw(n, 'state_certificate')
        cert = sdsi_layout.decode_state_certificate(state)
        assert cert.content_type == sdsi_layout.STATE_CONTENT_KEY_BLOBS
        assert cert.key_rev == KEY_REV and cert.key_image == key_image(akc.data)
        assert licenses(state) == [(True, cap_blob(cap.data))]
        shown = tool.json('-d', n, '-s')
        (lic,) = shown['licenses']
        assert lic['valid'] and lic['license']['bundles'] == [{'code': 'CC02'},
                                                               {'code': 'SG01'}]
        assert shown['key_image'] == '0x' + key_image(akc.data)[::-1].hex()

        # The same AKC again: intel_sdsi sees it is there, writes nothing.
        again = tool.json('-d', n, '-a', akc.path)
        assert again['unchanged'] and not again['provisioned']

        fresh.power_cycle(n)
        assert raw(n, 'state_certificate') == state, \
            'the licence did not survive the power cycle'
        info = tool.json('-d', n, '-i')
        assert info['updates']['available'] == before['updates']['available']


def test_silicon_refusals_reach_the_tool(fresh, tool, authority, tmp_path):
    assert SOCKETS >= 2
    ppins = [ppin(tool, n) for n in range(2)]
    akc = authority.akc(key_rev=KEY_REV)
    tool.json('-d', 0, '-a', akc.path)
    tool.json('-d', 1, '-a', akc.path)
    other = authority.cap(ppins[1])

    # intel_sdsi's pre-flight catches the wrong PPIN: exit 5, nothing sent.
    refused = tool.json('-d', 0, '-c', other.path, expect=5)
    assert refused['error']['preflight']
    assert tool.json('-d', 0, '-i')['cap_failures']['count'] == 0

    # Written past intel_sdsi, it reaches the silicon, which checks the
    # PPIN itself: EIO from the kernel's write, one failure counted.
    fd = os.open(os.path.join(ROOT, 'intel_vsec.sdsi.0', 'provision_cap'),
                 os.O_WRONLY)
    try:
        os.write(fd, other.data)
        raise AssertionError('the silicon took a CAP for another PPIN')
    except OSError as e:
        assert e.errno == errno.EIO, e
    finally:
        os.close(fd)
    assert tool.json('-d', 0, '-i')['cap_failures']['count'] == 1

    # A CAP for this PPIN signed by a licensor the socket does not hold:
    # no pre-flight check can see that (intel_sdsi has no keys), the
    # silicon refuses it, and intel_sdsi reports the rejection (exit 6).
    stranger = Authority(Programs(), tmp_path / 'stranger')
    forged = stranger.cap(ppins[0])
    refused = tool.json('-d', 0, '-c', forged.path, expect=6)
    assert refused['error']['name'] == 'EIO'
    info = tool.json('-d', 0, '-i')
    assert info['cap_failures']['count'] == 2
    assert info['auth_errors']['content']

    # An AKC signed by a root the silicon does not trust.
    foreign = stranger.akc(key_rev=KEY_REV)
    refused = tool.json('-d', 1, '-a', foreign.path, '--force', expect=6)
    assert refused['error']['name'] == 'EIO'
    assert tool.json('-d', 1, '-i')['akc_failures']['count'] == 1
    assert sdsi_layout.decode_state_certificate(
        raw(1, 'state_certificate')).key_image == key_image(akc.data)


KERN_WARNING = 4


def test_read_count_differs_is_a_warning(fresh, tool, authority):
    """A state certificate of two packets whose MSG_SIZE is 8 bytes more
    than they hold (the model's msg-size fault): the driver warns in
    upstream's words and at its level (dev_warn), and the read succeeds
    with the packets' bytes.  The last socket, after the story: licences
    of 27 bundles (the most a CAP holds) until the certificate is longer
    than one packet."""
    n = SOCKETS - 1
    device = f'intel_vsec.sdsi.{n}'
    tool.json('-d', n, '-a', authority.akc(key_rev=KEY_REV).path)
    codes = tuple(f'R{i:03d}' for i in range(27))
    while len(raw(n, 'state_certificate')) <= sdsi_layout.MBOX_SIZE:
        cap = authority.cap(ppin(tool, n), features=codes)
        fd = os.open(os.path.join(ROOT, device, 'provision_cap'), os.O_WRONLY)
        try:
            assert os.write(fd, cap.data) == len(cap.data)
        finally:
            os.close(fd)
    state = raw(n, 'state_certificate')
    assert len(state) <= 2 * sdsi_layout.MBOX_SIZE

    log = Kmsg()
    try:
        fresh.fault(n, 'msg-size', count=1, param=8)
        assert raw(n, 'state_certificate') == state
        ours = [(level, text.split(' ', 1)[1]) for level, text in log.records()
                if device in text]
    finally:
        log.close()
    assert ours == [(KERN_WARNING, f'{device}: Read count {len(state)} '
                     f'differs from expected count {len(state) + 8}')], ours
