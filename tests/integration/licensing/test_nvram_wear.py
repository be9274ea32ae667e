# SPDX-License-Identifier: GPL-2.0-only
"""NVRAM wear through the emulator: with --nvram-endurance 4, each accepted
AKC or CAP is one provisioning write, and NVRAM_UPDATE_LIMITS (docs/interface.md
§2.7) reports 50, 75 and 90 % of the four used, in the raw registers
and in `intel_sdsi -i --json`.  The model's choices (docs/model.md): a
refused blob writes nothing, the region revision of the state certificate
counts the writes, writes beyond the endurance still succeed, and the count
is NVRAM (it survives power cycles and restarts) while the endurance is a
setting of each start."""
import sdsikit.layout as sdsi_layout
from sdsikit.licplatform import cap_blob, licenses

ENDURANCE = 4
NONE = 0
P50 = sdsi_layout.NVRAM_50_PCT
P75 = P50 | sdsi_layout.NVRAM_75_PCT
P90 = P75 | sdsi_layout.NVRAM_90_PCT
# Writes made -> bits: 2/4 is 50 %, 3/4 is 75 %, 4/4 passes 90 %.
LIMITS = {0: NONE, 1: NONE, 2: P50, 3: P75, 4: P90, 5: P90, 6: P90}


def shown_limits(bits):
    """What intel_sdsi -i --json prints for those register bits."""
    return {'50': bool(bits & sdsi_layout.NVRAM_50_PCT),
            '75': bool(bits & sdsi_layout.NVRAM_75_PCT),
            '90': bool(bits & sdsi_layout.NVRAM_90_PCT)}


def assert_wear(platform, n, writes, bits=None):
    """Socket n has made `writes` provisioning writes and reports `bits`
    (by default those of the endurance of 4) and no other bit."""
    bits = LIMITS[writes] if bits is None else bits
    regs = platform.regs(n)
    assert regs.nvram_limits == bits, \
        f'{writes} writes: NVRAM_UPDATE_LIMITS {regs.nvram_limits:#x}, ' \
        f'expected {bits:#x}'
    info = platform.tool_json('-d', str(n), '-i')
    assert info['nvram_limits'] == shown_limits(bits), (writes, info)
    assert platform.state(n).region_rev == writes


def start_worn(start, *opts):
    return start('--sockets', 2, '--nvram-endurance', ENDURANCE, *opts)


def test_limits_follow_each_write(start, authority):
    platform = start_worn(start, '--updates', 7)
    ppin = platform.ppin(0)
    assert_wear(platform, 0, 0)

    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    assert_wear(platform, 0, 1)
    caps = [authority.cap(ppin, license_id=0x1000 + k) for k in range(5)]
    for writes, cap in enumerate(caps, start=2):
        assert platform.write(0, 'provision_cap', cap.data) == 'ok', \
            f'write {writes} of an endurance of {ENDURANCE} refused'
        assert_wear(platform, 0, writes)
    # Past the endurance nothing is refused or lost: all five are stored.
    assert licenses(platform.read(0, 'state_certificate')) == \
        [(True, cap_blob(cap.data)) for cap in caps]
    assert platform.regs(0).updates_available == 1
    assert_wear(platform, 1, 0)


def test_only_accepted_blobs_wear(start, authority, other_authority):
    platform = start_worn(start, '--updates', 2)
    foreign = other_authority.akc()
    assert platform.write(0, 'provision_akc', foreign.data) == 'EIO'
    assert_wear(platform, 0, 0)

    # The same AKC again stores nothing new, and is a write all the same.
    akc = authority.akc()
    assert platform.write(0, 'provision_akc', akc.data) == 'ok'
    assert_wear(platform, 0, 1)
    assert platform.write(0, 'provision_akc', akc.data) == 'ok'
    assert_wear(platform, 0, 2)

    # No update left in this power cycle: refused, not written.
    cap = authority.cap(platform.ppin(0), license_id=0x2000)
    assert platform.write(0, 'provision_cap', cap.data) == 'EIO'
    assert platform.regs(0).updates_available == 0
    assert_wear(platform, 0, 2)
    platform.power_cycle(0)
    assert platform.write(0, 'provision_cap', cap.data) == 'ok'
    assert_wear(platform, 0, 3)
    # The same licence ID and revision again: refused, not written.
    assert platform.write(0, 'provision_cap', cap.data) == 'EIO'
    assert platform.regs(0).cap_count == 1
    assert_wear(platform, 0, 3)


def test_wear_survives_power_cycle_and_restart(start, authority):
    first = start_worn(start, '--updates', 2)
    ppin = first.ppin(0)
    assert first.write(0, 'provision_akc', authority.akc().data) == 'ok'
    assert first.write(0, 'provision_cap',
                       authority.cap(ppin, license_id=0x3001).data) == 'ok'
    assert_wear(first, 0, 2)
    first.power_cycle('all')
    assert_wear(first, 0, 2)
    assert first.write(0, 'provision_cap',
                       authority.cap(ppin, license_id=0x3002).data) == 'ok'
    assert_wear(first, 0, 3)
    assert first.stop() == 0

    second = start_worn(start, '--updates', 2)
    assert_wear(second, 0, 3)
    assert_wear(second, 1, 0)
    assert second.write(0, 'provision_cap',
                        authority.cap(ppin, license_id=0x3003).data) == 'ok'
    assert_wear(second, 0, 4)
    assert second.stop() == 0

    # The endurance is not stored: started with the default (1000), the
    # same four writes are under 50 %.
    third = start('--sockets', 2)
    assert_wear(third, 0, 4, bits=NONE)
    assert third.stop() == 0
    # And with 8 they are exactly half of it.
    fourth = start('--sockets', 2, '--nvram-endurance', 8)
    assert_wear(fourth, 0, 4, bits=P50)
