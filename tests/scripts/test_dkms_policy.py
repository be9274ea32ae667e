# SPDX-License-Identifier: GPL-2.0-only
"""drivers/kernel/dkms-policy.sh alone, sourced by bash as dkms.conf
sources it: which kernels get our intel_sdsi (the BUILD_EXCLUSIVE_KERNEL
it computes, matched as dkms matches it, with bash's =~), for kernel
releases the rig has no headers of, each bound on both sides; the user's
opt-in read from a defaults file; Secure Boot read from a made-up efivars
directory (no machine here boots with Secure Boot: QEMU's firmware in the
rig has none), with mokutil played by a script on PATH.
tests/dkms/test_dkms_policy.py runs the same policy through Debian's dkms."""
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
POLICY = REPO / 'drivers/kernel/dkms-policy.sh'
SECURE_BOOT = 'SecureBoot-8be4df61-93ca-11d2-aa0d-e08c9c8c5dd8'


def decide(tmp_path, rel, all_kernels=None, secure_boot=None, mokutil=None,
           cert=True):
    """(installs?, stderr) for kernel REL: the defaults file says
    SDSI_DKMS_ALL_KERNELS=ALL_KERNELS (no file if None); the efivars
    directory holds SecureBoot with last byte SECURE_BOOT (none if None);
    MOKUTIL is the text a mokutil on PATH prints (none on PATH if None);
    CERT: DKMS's certificate exists."""
    defaults = tmp_path / 'default'
    if all_kernels is not None:
        defaults.write_text('# the user\'s choice\nSDSI_DKMS_ALL_KERNELS=%s\n' % all_kernels)
    efivars = tmp_path / 'efivars'
    efivars.mkdir(exist_ok=True)
    if secure_boot is not None:
        # efivarfs: 4 bytes of attributes, then the variable's one byte.
        (efivars / SECURE_BOOT).write_bytes(b'\x06\x00\x00\x00' + bytes([secure_boot]))
    bindir = tmp_path / 'bin'
    bindir.mkdir(exist_ok=True)
    for tool in ('bash', 'sed', 'tail', 'od', 'tr', 'grep'):
        link = bindir / tool
        if not link.exists():
            link.symlink_to(subprocess.check_output(['which', tool], text=True).strip())
    if mokutil is not None:
        fake = bindir / 'mokutil'
        fake.write_text('#!/bin/sh\n[ "$1" = --test-key ] && [ -f "$2" ] || exit 2\n'
                        'echo "$2 %s"\n' % mokutil)
        fake.chmod(0o755)
    mok = tmp_path / 'mok.pub'
    if cert:
        mok.write_bytes(b'0\x82')
    script = ('. %s && ex=$(sdsi_dkms_exclusive_kernel "$1") && '
              '[[ $1 =~ ${ex:-.} ]]' % POLICY)
    env = {'PATH': str(bindir), 'SDSI_DKMS_DEFAULTS': str(defaults),
           'SDSI_DKMS_EFIVARS': str(efivars), 'mok_certificate': str(mok)}
    proc = subprocess.run([str(bindir / 'bash'), '-c', script, 'policy', rel],
                          env=env, capture_output=True, text=True, timeout=30)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0, proc.stderr


@pytest.mark.parametrize('rel', ['6.9.12-amd64', '6.9.0', '6.1.0-57-amd64', '6.0.1',
                                 '5.10.0-32-amd64', '4.19.0'])
def test_kernels_before_6_10_get_ours_by_default(tmp_path, rel):
    installs, said = decide(tmp_path, rel)
    assert installs and said == ''


@pytest.mark.parametrize('rel', ['6.10.0', '6.10.0-rc1', '6.12.95+deb12-amd64',
                                 '6.19.1', '7.2.13+deb14-amd64', '10.0.0'])
def test_kernels_from_6_10_keep_their_own_by_default(tmp_path, rel):
    installs, said = decide(tmp_path, rel)
    assert not installs
    assert 'kernel %s keeps its own intel_sdsi' % rel in said
    assert 'SDSI_DKMS_ALL_KERNELS=yes in %s' % (tmp_path / 'default') in said


@pytest.mark.parametrize('rel', ['6.10.0', '6.12.95+deb12-amd64', '7.2.13+deb14-amd64'])
def test_opted_in_every_kernel_gets_ours(tmp_path, rel):
    installs, said = decide(tmp_path, rel, all_kernels='yes')
    assert installs and said == ''


@pytest.mark.parametrize('value', ['no', '"no"', ''])
def test_opt_in_no_or_empty_is_the_default(tmp_path, value):
    assert not decide(tmp_path, '6.12.95+deb12-amd64', all_kernels=value)[0]
    assert decide(tmp_path, '6.1.0-57-amd64', all_kernels=value)[0]


def test_opt_in_quoted_yes_counts(tmp_path):
    assert decide(tmp_path, '6.12.95+deb12-amd64', all_kernels='"yes"')[0]


def test_opt_in_neither_yes_nor_no_is_named_and_taken_as_no(tmp_path):
    installs, said = decide(tmp_path, '6.12.95+deb12-amd64', all_kernels='true')
    assert not installs
    assert 'SDSI_DKMS_ALL_KERNELS=true is neither yes nor no; taking no' in said


def test_secure_boot_on_without_mokutil_keeps_the_driver(tmp_path):
    installs, said = decide(tmp_path, '6.1.0-57-amd64', secure_boot=1)
    assert not installs
    assert 'Secure Boot is on' in said and str(tmp_path / 'mok.pub') in said


def test_secure_boot_on_key_not_enrolled_keeps_the_driver(tmp_path):
    installs, said = decide(tmp_path, '6.1.0-57-amd64', secure_boot=1,
                            mokutil='is not enrolled')
    assert not installs and 'Secure Boot is on' in said


def test_secure_boot_on_no_certificate_keeps_the_driver(tmp_path):
    installs, said = decide(tmp_path, '6.1.0-57-amd64', secure_boot=1,
                            mokutil='is already enrolled', cert=False)
    assert not installs and 'Secure Boot is on' in said


def test_secure_boot_on_key_enrolled_installs(tmp_path):
    installs, said = decide(tmp_path, '6.1.0-57-amd64', secure_boot=1,
                            mokutil='is already enrolled')
    assert installs and said == ''


def test_secure_boot_on_opted_in_new_kernel_still_needs_the_key(tmp_path):
    installs, said = decide(tmp_path, '6.12.95+deb12-amd64', all_kernels='yes',
                            secure_boot=1)
    assert not installs and 'Secure Boot is on' in said


@pytest.mark.parametrize('secure_boot', [0, None])
def test_secure_boot_off_or_not_efi_installs(tmp_path, secure_boot):
    assert decide(tmp_path, '6.1.0-57-amd64', secure_boot=secure_boot)[0]


def test_dkms_conf_without_its_policy_installs_nowhere(tmp_path):
    """dkms.conf sourced (as dkms does) from a tree where dkms-policy.sh is
    missing: BUILD_EXCLUSIVE_KERNEL excludes every kernel."""
    conf = tmp_path / 'dkms.conf'
    conf.write_text((REPO / 'drivers/kernel/dkms.conf').read_text())
    out = subprocess.run(
        ['bash', '-c', 'kernelver=6.1.0-57-amd64; . "$1" 2>/dev/null; '
         'printf "%s|%s" "$BUILD_EXCLUSIVE_KERNEL" "$AUTOINSTALL"', 'conf', str(conf)],
        capture_output=True, text=True, timeout=30, env=dict(os.environ))
    assert out.stdout == '^$|'
