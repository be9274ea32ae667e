# SPDX-License-Identifier: GPL-2.0-only
"""What a cold power cycle resets (failure counts, CONTENT_AUTH_ERROR,
updates), what it starts (licences provisioned before it), and what an
emulator restart on the same --state keeps (everything in NVRAM)."""
import sdsikit.layout as sdsi_layout
from sdsikit.licplatform import auth_error, cap_blob, licenses


def metered_codes(platform, n):
    return sorted(code for code, _ in platform.meter(n, current=True).pairs)


def test_power_cycle_resets_counters(platform, authority, other_authority):
    assert platform.write(0, 'provision_akc',
                          other_authority.akc().data) == 'EIO'
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    assert platform.write(0, 'provision_cap',
                          other_authority.cap(platform.ppin(0)).data) == 'EIO'
    regs = platform.regs(0)
    assert (regs.akc_count, regs.cap_count) == (1, 1) and auth_error(regs)
    assert regs.updates_available == regs.updates_threshold - 1
    cert = platform.read(0, 'state_certificate')

    platform.power_cycle(0)
    after = platform.regs(0)
    assert (after.akc_count, after.cap_count) == (0, 0)
    assert not auth_error(after)
    assert after.updates_available == after.updates_threshold
    assert after.key_prov & sdsi_layout.KEY_PROVISIONED, 'NVRAM lost'
    assert after.ppin == regs.ppin
    assert platform.read(0, 'state_certificate') == cert


def test_license_active_after_power_cycle(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = authority.cap(platform.ppin(0), features=('CC02', 'SG01'),
                        kind='metered')
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'
    # Stored at once, in effect only from the next power cycle on.
    assert licenses(platform.read(0, 'state_certificate')) == \
        [(True, cap_blob(cap.data))]
    assert metered_codes(platform, 0) == []
    platform.power_cycle(1)
    assert metered_codes(platform, 0) == [], 'the other socket cycled'
    platform.power_cycle(0)
    assert metered_codes(platform, 0) == ['CC02', 'SG01']
    assert metered_codes(platform, 1) == []


def test_one_time_license_is_not_metered(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    ppin = platform.ppin(0)
    assert platform.write(0, 'provision_cap',
                          authority.cap(ppin, features=('AB01',)).data) == 'ok'
    assert platform.write(0, 'provision_cap', authority.cap(
        ppin, features=('MT01',), kind='metered').data) == 'ok'
    platform.power_cycle(0)
    assert metered_codes(platform, 0) == ['MT01']


def test_restart_keeps_nvram(start, authority):
    first = start('--sockets', 2)
    akc = authority.akc(key_rev=3)
    ppins = [first.ppin(n) for n in (0, 1)]
    caps = [authority.cap(p, kind='metered', features=(f'MT0{n}',))
            for n, p in enumerate(ppins)]
    for n in (0, 1):
        assert first.write(n, 'provision_akc', akc.data) == 'ok'
        assert first.write(n, 'provision_cap', caps[n].data) == 'ok'
    assert first.write(0, 'provision_cap', caps[1].data) == 'EIO'
    certs = [first.read(n, 'state_certificate') for n in (0, 1)]
    assert first.stop() == 0

    second = start('--sockets', 2)
    for n in (0, 1):
        assert second.read(n, 'state_certificate') == certs[n]
        regs = second.regs(n)
        assert regs.ppin == ppins[n]
        assert regs.key_prov & sdsi_layout.KEY_PROVISIONED
        # A restart is a power cycle: counts gone, licences in effect.
        assert regs.cap_count == 0 and not auth_error(regs)
        assert regs.updates_available == regs.updates_threshold
        assert metered_codes(second, n) == [f'MT0{n}']
    # The restored key still authenticates: a new CAP is accepted.
    more = authority.cap(ppins[0], features=('CC02',))
    assert second.write(0, 'provision_cap', more.data) == 'ok'
    assert second.state(0).num_licenses == 2
