# SPDX-License-Identifier: GPL-2.0-only
"""The licence key over its life: a new AKC replaces the licensor key (and
with it which CAPs authenticate) while stored licences stay; a lower key
revision is a rollback.  And intel_sdsi's verdicts on what is already
there: unchanged (exit 0, nothing written) unless --force, --dry-run
writes nothing."""
import shutil

from sdsikit.licplatform import Authority, auth_error, cap_blob, key_image, licenses

EXIT_REFUSED = 5
EXIT_REJECTED = 6


def test_new_akc_replaces_the_key(platform, authority, other_authority,
                                  programs, tmp_path):
    # Same root, another licensor: what an OEM's key rotation looks like.
    rotated = tmp_path / 'rotated'
    rotated.mkdir(mode=0o700)
    for name in ('root.key', 'root.pub'):
        shutil.copy2(f'{authority.dir}/{name}', rotated / name)
    for name in ('licensor.key', 'licensor.pub'):
        shutil.copy2(f'{other_authority.dir}/{name}', rotated / name)
    rotated = Authority.existing(programs, rotated)

    ppin = platform.ppin(0)
    old_cap = authority.cap(ppin)
    assert platform.write(0, 'provision_akc', authority.akc(2).data) == 'ok'
    assert platform.write(0, 'provision_cap', old_cap.data) == 'ok'
    new_akc = rotated.akc(3)
    assert platform.write(0, 'provision_akc', new_akc.data) == 'ok'
    raw = platform.read(0, 'state_certificate')
    cert = platform.state(0)
    assert (cert.key_rev, cert.key_image) == (3, key_image(new_akc.data))
    assert licenses(raw) == [(True, cap_blob(old_cap.data))]

    assert platform.write(0, 'provision_cap',
                          authority.cap(ppin).data) == 'EIO'
    assert platform.regs(0).cap_count == 1
    assert platform.write(0, 'provision_cap',
                          rotated.cap(ppin).data) == 'ok'


def test_akc_rollback(platform, authority):
    assert platform.write(0, 'provision_akc', authority.akc(5).data) == 'ok'
    old = authority.akc(4)
    regs, cert = platform.regs(0), platform.read(0, 'state_certificate')
    done = platform.tool('-d', '0', '-a', old.path)
    assert done.returncode == EXIT_REFUSED, (done.stdout, done.stderr)
    assert platform.regs(0) == regs
    assert platform.write(0, 'provision_akc', old.data) == 'EIO'
    after = platform.regs(0)
    assert after.akc_count == regs.akc_count + 1 and auth_error(after)
    assert platform.read(0, 'state_certificate') == cert
    assert platform.state(0).key_rev == 5
    # The same revision again is harmless.
    assert platform.write(0, 'provision_akc', authority.akc(5).data) == 'ok'


def test_already_provisioned_unchanged_unless_forced(platform, authority):
    akc = authority.akc()
    cap = authority.cap(platform.ppin(0))
    for flag, blob in (('-a', akc), ('-c', cap)):
        done = platform.tool('-d', '0', flag, blob.path)
        assert done.returncode == 0, done.stderr
    regs, cert = platform.regs(0), platform.read(0, 'state_certificate')

    for flag, blob in (('-a', akc), ('-c', cap)):
        report = platform.tool_json('-d', '0', flag, blob.path)
        assert report['unchanged'] and not report['provisioned']
    assert platform.regs(0) == regs, 'an unchanged blob used an update'
    assert platform.read(0, 'state_certificate') == cert

    # Forced, the same CAP reaches the silicon: a replay, refused.
    done = platform.tool('-d', '0', '-c', cap.path, '--force')
    assert done.returncode == EXIT_REJECTED, (done.stdout, done.stderr)
    after = platform.regs(0)
    assert after.cap_count == regs.cap_count + 1
    assert after.updates_available == regs.updates_available
    # Forced, the same AKC is accepted again and uses an update.
    done = platform.tool('-d', '0', '-a', akc.path, '--force')
    assert done.returncode == 0, done.stderr
    assert platform.regs(0).updates_available == regs.updates_available - 1
    assert platform.state(0).key_image == key_image(akc.data)


def test_dry_run_writes_nothing(platform, authority):
    akc = authority.akc()
    done = platform.tool('-d', '0', '-a', akc.path)
    assert done.returncode == 0, done.stderr
    cap = authority.cap(platform.ppin(0), license_id=0xfeed0123)
    regs, cert = platform.regs(0), platform.read(0, 'state_certificate')
    done = platform.tool('-d', '0', '-c', cap.path, '--dry-run')
    assert done.returncode == 0, done.stderr
    assert 'feed0123' in done.stdout.lower(), done.stdout
    assert platform.regs(0) == regs
    assert platform.read(0, 'state_certificate') == cert
