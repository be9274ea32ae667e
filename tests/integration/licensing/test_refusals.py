# SPDX-License-Identifier: GPL-2.0-only
"""Authentic-looking blobs the silicon must refuse (wrong PPIN, wrong key,
CAP before AKC, replay), the limits that refuse even a good blob
(failure threshold, updates), and intel_sdsi refusing before an attempt
is spent wherever it can tell (docs/intel_sdsi.md, exit 5)."""
import sdsikit.layout as sdsi_layout
from sdsikit.licplatform import auth_error, cap_blob, licenses

EXIT_REFUSED = 5
EXIT_REJECTED = 6


def snapshot(platform, n):
    return platform.regs(n), platform.read(n, 'state_certificate')


def assert_rejected(platform, n, before, field):
    """One authentication failure: the count +1, CONTENT_AUTH_ERROR, no
    update used, nothing stored."""
    regs, cert = before
    after = platform.regs(n)
    assert getattr(after, field) == getattr(regs, field) + 1
    assert auth_error(after)
    assert after.updates_available == regs.updates_available
    assert platform.read(n, 'state_certificate') == cert


def assert_unchanged(platform, n, before):
    regs, cert = before
    assert platform.regs(n) == regs, 'pre-flight spent something'
    assert platform.read(n, 'state_certificate') == cert


def test_wrong_ppin_silicon(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = authority.cap(platform.ppin(0) ^ 0x1)
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_cap', cap.data) == 'EIO'
    assert_rejected(platform, 0, before, 'cap_count')


def test_wrong_ppin_preflight(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    ppin = platform.ppin(0)
    cap = authority.cap(ppin ^ 0xFFFF0000)
    before = snapshot(platform, 0)
    done = platform.tool('-d', '0', '-c', cap.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert 'ppin' in done.stderr.lower(), done.stderr
    assert_unchanged(platform, 0, before)
    # The other socket's own CAP is just as foreign to this one.
    other = authority.cap(platform.ppin(1))
    done = platform.tool('-d', '0', '-c', other.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert_unchanged(platform, 0, before)


def test_cap_signed_by_another_licensor(platform, authority,
                                        other_authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    cap = other_authority.cap(platform.ppin(0))
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_cap', cap.data) == 'EIO'
    assert_rejected(platform, 0, before, 'cap_count')
    # intel_sdsi holds no key, so only the silicon can tell: exit 6.
    before = snapshot(platform, 0)
    done = platform.tool('-d', '0', '-c', cap.path)
    assert done.returncode == EXIT_REJECTED, (done.stdout, done.stderr)
    assert_rejected(platform, 0, before, 'cap_count')


def test_akc_signed_by_another_root(platform, other_authority):
    akc = other_authority.akc()
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_akc', akc.data) == 'EIO'
    assert_rejected(platform, 0, before, 'akc_count')
    assert not platform.regs(0).key_prov & sdsi_layout.KEY_PROVISIONED


def test_cap_before_akc(platform, authority):
    cap = authority.cap(platform.ppin(0))
    before = snapshot(platform, 0)
    done = platform.tool('-d', '0', '-c', cap.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert_unchanged(platform, 0, before)
    assert platform.write(0, 'provision_cap', cap.data) == 'EIO'
    assert_rejected(platform, 0, before, 'cap_count')


def test_threshold_reached(platform, authority, other_authority):
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    good = authority.cap(platform.ppin(0))
    bad = other_authority.cap(platform.ppin(0))
    threshold = platform.regs(0).cap_threshold
    for _ in range(threshold):
        before = snapshot(platform, 0)
        assert platform.write(0, 'provision_cap', bad.data) == 'EIO'
        assert_rejected(platform, 0, before, 'cap_count')
    # At the threshold even a good CAP is refused, without being evaluated:
    # no count beyond the threshold, nothing stored, no update used.
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_cap', good.data) == 'EIO'
    assert platform.regs(0).cap_count == threshold
    assert_unchanged(platform, 0, before)
    done = platform.tool('-d', '0', '-c', good.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert_unchanged(platform, 0, before)
    # AKCs have a count of their own.
    assert platform.regs(0).akc_count == 0
    platform.power_cycle(0)
    regs = platform.regs(0)
    assert regs.cap_count == 0 and not auth_error(regs)
    assert platform.write(0, 'provision_cap', good.data) == 'ok'


def test_no_updates_left(start, authority):
    platform = start('--sockets', 1, '--updates', 2)
    akc = authority.akc()
    ppin = platform.ppin(0)
    first, second = authority.cap(ppin), authority.cap(ppin)
    assert platform.write(0, 'provision_akc', akc.data) == 'ok'
    assert platform.write(0, 'provision_cap', first.data) == 'ok'
    regs = platform.regs(0)
    assert regs.updates_available == 0 and regs.updates_threshold == 2
    before = snapshot(platform, 0)
    done = platform.tool('-d', '0', '-c', second.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert_unchanged(platform, 0, before)
    # Refused by the silicon without evaluation: no failure counted.
    assert platform.write(0, 'provision_cap', second.data) == 'EIO'
    assert_unchanged(platform, 0, before)
    platform.power_cycle(0)
    assert platform.regs(0).updates_available == 2
    assert platform.write(0, 'provision_cap', second.data) == 'ok'
    assert platform.regs(0).updates_available == 1
    assert [valid for valid, _ in
            licenses(platform.read(0, 'state_certificate'))] == [True, True]


def test_replay_and_new_revision(platform, authority):
    """docs/formats.md section 6: the same licence ID again needs a higher
    revision; the new entry is appended and the old one loses its valid
    bit."""
    assert platform.write(0, 'provision_akc', authority.akc().data) == 'ok'
    ppin = platform.ppin(0)
    rev1 = authority.cap(ppin, license_id=0x1234, revision=1)
    rev2 = authority.cap(ppin, license_id=0x1234, revision=2,
                         features=('CC02', 'SG01'))
    assert platform.write(0, 'provision_cap', rev1.data) == 'ok'
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_cap', rev1.data) == 'EIO'
    assert_rejected(platform, 0, before, 'cap_count')
    assert platform.write(0, 'provision_cap', rev2.data) == 'ok'
    assert licenses(platform.read(0, 'state_certificate')) == [
        (False, cap_blob(rev1.data)), (True, cap_blob(rev2.data))]
    before = snapshot(platform, 0)
    assert platform.write(0, 'provision_cap', rev1.data) == 'EIO', \
        'a rollback to revision 1 was accepted'
    assert_rejected(platform, 0, before, 'cap_count')
