# SPDX-License-Identifier: GPL-2.0-only
"""intel-sdsi-dkms's policy (drivers/kernel/dkms.conf, dkms-policy.sh) as
Debian 12's real dkms applies it: `dkms install` through
drivers/kernel/dkms-build.sh, as the package's postinst runs it, against
the kernel rig's unpacked headers, into a private install tree holding the
kernel's own intel_sdsi; and `dkms autoinstall`, as a kernel installed
later runs it.  Secure Boot comes from a made-up efivars directory: QEMU's
firmware in the rig has no Secure Boot, and this host's is not ours.
scripts/check-kernel-build.sh runs it with SDSI_KERNEL_RIG, the rig's
directory (Debian 12's dkms unpacked in dkms-root, the kernels in
img-RELEASE), which it has fetched: nothing here is skipped."""
import os
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = REPO / 'drivers/kernel/dkms-build.sh'
SECURE_BOOT = 'SecureBoot-8be4df61-93ca-11d2-aa0d-e08c9c8c5dd8'
RIG = pathlib.Path(os.environ.get('SDSI_KERNEL_RIG', REPO / 'build/kernel-rig'))
DKMS = RIG / 'dkms-root/usr/sbin/dkms'


def release(generation):
    """The rig's unpacked Debian kernel of GENERATION (6.1, 6.12)."""
    found = sorted(p.name[len('img-'):] for p in RIG.glob('img-%s.*' % generation)
                   if (p / 'usr/src').is_dir())
    assert found, 'no %s kernel unpacked under %s (scripts/check-kernel-build.sh fetches it)' % (
        generation, RIG)
    return found[-1]


def modules_tree(tmp_path, rel):
    """A stand-in for /lib/modules with REL's own intel_sdsi in it."""
    own = list((RIG / ('img-' + rel) / 'lib/modules' / rel / 'kernel').rglob('intel_sdsi.ko*'))
    assert len(own) == 1, own
    dest = tmp_path / 'modules' / rel / own[0].parent.relative_to(
        RIG / ('img-' + rel) / 'lib/modules' / rel)
    dest.mkdir(parents=True)
    shutil.copy(own[0], dest)
    return tmp_path / 'modules'


def dkms_install(tmp_path, rel, *options):
    """drivers/kernel/dkms-build.sh --install OPTIONS for REL: (exit status,
    output, what DKMS put under updates/dkms)."""
    modules = modules_tree(tmp_path, rel)
    headers = RIG / ('img-' + rel) / 'usr/src' / ('linux-headers-' + rel)
    assert DKMS.is_file(), '%s: no unpacked dkms' % DKMS
    proc = subprocess.run([str(BUILD), '--install', str(modules), *options, str(DKMS),
                           str(headers), rel, str(tmp_path / 'out')],
                          capture_output=True, text=True, timeout=900)
    installed = sorted(p.name for p in (modules / rel).glob('updates/dkms/*'))
    return proc.returncode, proc.stdout + proc.stderr, installed


def secure_boot_on(tmp_path):
    efivars = tmp_path / 'efivars'
    efivars.mkdir()
    (efivars / SECURE_BOOT).write_bytes(b'\x06\x00\x00\x00\x01')
    return str(efivars)


def test_6_1_default_installs_ours(tmp_path):
    status, said, installed = dkms_install(tmp_path, release('6.1'))
    assert status == 0, said
    assert installed == ['intel_sdsi.ko'], said


def test_6_12_default_keeps_the_kernels_own_and_says_why(tmp_path):
    rel = release('6.12')
    status, said, installed = dkms_install(tmp_path, rel, '--expect-skip')
    assert status == 0, said
    assert installed == []
    assert 'dkms: skipped %s: kernel %s keeps its own intel_sdsi' % (rel, rel) in said
    log = (tmp_path / 'out/dkms.log').read_text()
    assert 'BUILD_EXCLUSIVE directive which does not match' in log


def test_6_12_default_expecting_ours_fails(tmp_path):
    """The skip is not mistaken for an install: dkms-build.sh --install
    without --expect-skip fails where DKMS installed nothing."""
    status, said, installed = dkms_install(tmp_path, release('6.12'))
    assert status != 0 and installed == []
    assert 'exit 77' in said


def test_6_12_opted_in_installs_ours(tmp_path):
    status, said, installed = dkms_install(tmp_path, release('6.12'), '--all-kernels')
    assert status == 0, said
    assert installed == ['intel_sdsi.ko'], said


def test_6_1_secure_boot_without_enrolled_key_keeps_the_kernels_own(tmp_path):
    rel = release('6.1')
    status, said, installed = dkms_install(tmp_path, rel, '--efivars',
                                           secure_boot_on(tmp_path), '--expect-skip')
    assert status == 0, said
    assert installed == []
    assert 'Secure Boot is on' in said
    assert str(tmp_path / 'out/mok.pub') in said


def test_6_12_autoinstall_passes_over_it_without_failing(tmp_path):
    """A kernel installed later: /etc/kernel/postinst.d/dkms runs `dkms
    autoinstall`, which must neither build ours for 6.12 by default nor
    count the skip as a failure (Debian 12's dkms fails autoinstall on a
    BUILD_EXCLUSIVE module that is AUTOINSTALL=yes)."""
    rel = release('6.12')
    modules = modules_tree(tmp_path, rel)
    src = tmp_path / 'src/intel_sdsi-0'
    subprocess.run([str(REPO / 'drivers/kernel/dkms-source.sh'), '--link', str(src)],
                   check=True, timeout=60)
    version = subprocess.run(['sed', '-n', 's/^PACKAGE_VERSION="\\(.*\\)"$/\\1/p',
                              str(src / 'dkms.conf')],
                             capture_output=True, text=True, check=True).stdout.strip()
    src = src.rename(tmp_path / ('src/intel_sdsi-' + version))
    (tmp_path / 'tree').mkdir()
    (tmp_path / 'default').write_text('SDSI_DKMS_ALL_KERNELS=no\n')
    env = dict(os.environ, sign_file='/nonexistent/sign-file',
               SDSI_DKMS_DEFAULTS=str(tmp_path / 'default'),
               SDSI_DKMS_EFIVARS=str(tmp_path / 'no-efivars'))
    trees = ['--dkmstree', str(tmp_path / 'tree'), '--sourcetree', str(tmp_path / 'src'),
             '--installtree', str(modules), '--no-depmod']
    headers = RIG / ('img-' + rel) / 'usr/src' / ('linux-headers-' + rel)
    add = subprocess.run([str(DKMS), 'add', '-m', 'intel_sdsi', '-v', version, *trees],
                         env=env, capture_output=True, text=True, timeout=120)
    assert add.returncode == 0, add.stdout + add.stderr
    auto = subprocess.run([str(DKMS), 'autoinstall', '-k', rel, *trees,
                           '--kernelsourcedir', str(headers)],
                          env=env, capture_output=True, text=True, timeout=900)
    said = auto.stdout + auto.stderr
    assert auto.returncode == 0, said
    assert 'kernel %s keeps its own intel_sdsi' % rel in said
    assert list((modules / rel).glob('updates/dkms/*')) == []
    assert not (tmp_path / 'tree/intel_sdsi' / version / rel).exists()


@pytest.fixture(autouse=True)
def _no_host_dkms_state():
    """Nothing of this suite reaches the host's DKMS state."""
    before = os.path.exists('/var/lib/dkms/intel_sdsi')
    yield
    assert os.path.exists('/var/lib/dkms/intel_sdsi') == before
