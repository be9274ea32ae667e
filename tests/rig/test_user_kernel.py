# SPDX-License-Identifier: GPL-2.0-only
"""make check-kernel with a kernel or driver of the user's: what
rig/user-kernel.sh accepts, and the error, naming the variable, the
path and the reason, for each thing it refuses.  No guest is booted: the
kernel, its modules tree, build tree and driver are made here with the real
file formats (a bzImage setup header, ELF modules with a .modinfo section
that modinfo reads), and the booted runs are the rig's user-driver and
user-kernel configurations."""
import os
import pathlib
import struct
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / 'rig/user-kernel.sh'
REL = '6.99.0-rig-test'
NEEDED = {'9p': 'fs/9p', '9pnet_virtio': 'net/9p', 'virtio_pci': 'drivers/virtio',
          'overlay': 'fs/overlayfs'}


def bzimage(path, release):
    """A file with the x86 boot setup header: "HdrS" at 0x202 and, at
    0x20e, where the version string lies (less 0x200)."""
    data = bytearray(0x400)
    data[0x202:0x206] = b'HdrS'
    struct.pack_into('<H', data, 0x20e, 0x100)
    text = f'{release} (rig@test) #1 SMP'.encode() + b'\0'
    data[0x300:0x300 + len(text)] = text
    path.write_bytes(bytes(data))
    return path


def module(path, name, release, body=''):
    """An ELF relocatable object whose .modinfo names the module and its
    vermagic, as kbuild writes them; a driver's text, then a MiB of data
    (as big as a real module, in lines: more than a pipe holds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    src = path.with_suffix('.c')
    src.write_text(f'const char text[] = "{body}";\n')
    obj = path.with_suffix('.o')
    subprocess.run(['gcc', '-c', '-o', obj, src], check=True)
    info = path.with_suffix('.modinfo')
    info.write_bytes(f'name={name}\0vermagic={release} SMP mod_unload \0'
                     .encode())
    pad = path.with_suffix('.pad')
    pad.write_bytes((b'\xa5' * 63 + b'\n') * (1 << 14))
    subprocess.run(['objcopy', '--add-section', f'.modinfo={info}',
                    '--add-section', f'.pad={pad}', obj, path], check=True)
    for p in (src, obj, info, pad):
        p.unlink()
    return path


@pytest.fixture
def kernel(tmp_path):
    """A kernel as make bzImage, make modules_install INSTALL_MOD_PATH=root
    and a build tree leave it; returns the environment naming it."""
    image = bzimage(tmp_path / 'bzImage', REL)
    root = tmp_path / 'root'
    mods = root / 'lib/modules' / REL
    for name, where in NEEDED.items():
        module(mods / 'kernel' / where / f'{name}.ko', name, REL)
    module(mods / 'kernel/drivers/platform/x86/intel/intel_sdsi.ko',
           'intel_sdsi', REL, 'meter_current')
    build = tmp_path / 'linux'
    (build / 'include/generated').mkdir(parents=True)
    (build / 'Makefile').write_text('# kernel\n')
    (build / 'include/generated/utsrelease.h').write_text(
        f'#define UTS_RELEASE "{REL}"\n')
    (mods / 'build').symlink_to(build)
    return {'KERNEL_IMAGE': str(image), 'KERNEL_MODULES': str(root)}


def resolve(env, script=SCRIPT, *args):
    full = {k: v for k, v in os.environ.items()
            if k not in ('KERNEL_IMAGE', 'KERNEL_MODULES', 'KERNEL_BUILD',
                         'DRIVER_MODULE', 'KERNEL_PART')}
    full.update(env)
    return subprocess.run([script, *args], env=full, capture_output=True,
                          text=True, timeout=60)


def values(done):
    assert done.returncode == 0, done.stderr
    out = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition('=')
        out[key] = value.strip("'")
    return out


def refused(env, *words):
    done = resolve(env)
    assert done.returncode == 2, done.stdout
    message = done.stderr.strip()
    assert message.startswith('check-kernel: '), message
    for word in words:
        assert word in message, message
    return message


def test_kernel_with_its_own_driver(kernel, tmp_path):
    got = values(resolve(kernel))
    assert got['user_rel'] == REL
    assert got['user_moddir'] == str(tmp_path / 'root/lib/modules' / REL)
    assert got['user_build'] == str(tmp_path / 'linux')
    assert got['user_driver'] == ''
    assert (got['user_abi'], got['user_part']) == ('current', 'v2')


def test_early_driver_defaults_to_a_v1_part(kernel, tmp_path):
    module(tmp_path / 'root/lib/modules' / REL /
           'kernel/drivers/platform/x86/intel/intel_sdsi.ko', 'intel_sdsi', REL)
    got = values(resolve(kernel))
    assert (got['user_abi'], got['user_part']) == ('early', 'v1')
    assert values(resolve({**kernel, 'KERNEL_PART': 'v2'}))['user_part'] == 'v2'


def test_part_must_be_v1_or_v2(kernel):
    refused({**kernel, 'KERNEL_PART': 'v3'}, 'KERNEL_PART=v3', 'v1 or v2')


def test_image_missing(kernel, tmp_path):
    path = tmp_path / 'nope'
    refused({**kernel, 'KERNEL_IMAGE': str(path)}, f'KERNEL_IMAGE={path}',
            'no such file')


def test_image_a_directory(kernel, tmp_path):
    refused({**kernel, 'KERNEL_IMAGE': str(tmp_path)}, 'not a regular file')


def test_image_not_a_bzimage(kernel, tmp_path):
    path = tmp_path / 'vmlinux'
    path.write_bytes(b'\x7fELF' + bytes(0x400))
    refused({**kernel, 'KERNEL_IMAGE': str(path)}, f'KERNEL_IMAGE={path}',
            'not an x86 bzImage')


def test_image_needs_modules(kernel):
    refused({'KERNEL_IMAGE': kernel['KERNEL_IMAGE']},
            'KERNEL_MODULES is needed', f'lib/modules/{REL}')


def test_modules_without_image(kernel):
    refused({'KERNEL_MODULES': kernel['KERNEL_MODULES']},
            'without KERNEL_IMAGE')


def test_modules_of_another_release(kernel, tmp_path):
    bzimage(tmp_path / 'other', '6.98.0-other')
    refused({**kernel, 'KERNEL_IMAGE': str(tmp_path / 'other')},
            'no lib/modules/6.98.0-other', f'it holds: {REL}')


def test_modules_not_a_directory(kernel, tmp_path):
    refused({**kernel, 'KERNEL_MODULES': str(tmp_path / 'none')},
            f'KERNEL_MODULES={tmp_path / "none"}', 'no such directory')


@pytest.mark.parametrize('name', NEEDED)
def test_needed_module_missing_or_built_in(kernel, tmp_path, name):
    mods = tmp_path / 'root/lib/modules' / REL
    (mods / 'kernel' / NEEDED[name] / f'{name}.ko').unlink()
    refused(kernel, f'no {name} module', 'modules.builtin')
    # Built into the kernel instead: fine.
    (mods / 'modules.builtin').write_text(
        f'kernel/{NEEDED[name]}/{name}.ko\n')
    values(resolve(kernel))


def test_compressed_modules_count(kernel, tmp_path):
    mods = tmp_path / 'root/lib/modules' / REL / 'kernel/fs/9p'
    subprocess.run(['xz', mods / '9p.ko'], check=True)
    values(resolve(kernel))


def test_no_intel_sdsi_and_no_driver(kernel, tmp_path):
    (tmp_path / 'root/lib/modules' / REL /
     'kernel/drivers/platform/x86/intel/intel_sdsi.ko').unlink()
    refused(kernel, 'no intel_sdsi module', 'DRIVER_MODULE')


def test_build_link_dangling(kernel, tmp_path):
    link = tmp_path / 'root/lib/modules' / REL / 'build'
    link.unlink()
    link.symlink_to('/nonexistent/linux-headers')
    refused(kernel, f'lib/modules/{REL}/build -> /nonexistent/linux-headers',
            'does not exist', 'KERNEL_BUILD')


def test_build_link_absolute_inside_the_root(kernel, tmp_path):
    """dpkg -x of a Debian image and headers: the build link is absolute
    (/usr/src/...) and the headers lie under the same root."""
    root = tmp_path / 'root'
    headers = root / 'usr/src/linux-headers-rig'
    (headers / 'include/generated').mkdir(parents=True)
    (headers / 'Makefile').write_text('# kernel\n')
    (headers / 'include/generated/utsrelease.h').write_text(
        f'#define UTS_RELEASE "{REL}"\n')
    link = root / 'lib/modules' / REL / 'build'
    link.unlink()
    link.symlink_to('/usr/src/linux-headers-rig')
    assert values(resolve(kernel))['user_build'] == str(headers)


def test_build_tree_without_makefile(kernel, tmp_path):
    (tmp_path / 'linux/Makefile').unlink()
    refused(kernel, f'KERNEL_BUILD={tmp_path / "root/lib/modules" / REL / "build"}',
            'no Makefile')


def test_build_tree_not_prepared(kernel, tmp_path):
    (tmp_path / 'linux/include/generated/utsrelease.h').unlink()
    refused(kernel, 'no include/generated/utsrelease.h')


def test_build_tree_of_another_release(kernel, tmp_path):
    (tmp_path / 'linux/include/generated/utsrelease.h').write_text(
        '#define UTS_RELEASE "6.98.0-other"\n')
    refused(kernel, 'built for release 6.98.0-other', f'is {REL}')


def test_driver_of_the_kernel_release(kernel, tmp_path):
    ko = module(tmp_path / 'drv/intel_sdsi.ko', 'intel_sdsi', REL,
                'meter_current')
    got = values(resolve({**kernel, 'DRIVER_MODULE': str(ko)}))
    assert got['user_driver'] == str(ko)
    assert got['user_rel'] == REL


def test_driver_vermagic_mismatch(kernel, tmp_path):
    ko = module(tmp_path / 'drv/intel_sdsi.ko', 'intel_sdsi', '6.98.0-other')
    refused({**kernel, 'DRIVER_MODULE': str(ko)}, f'DRIVER_MODULE={ko}',
            'built for release 6.98.0-other', "vermagic '6.98.0-other",
            f'is {REL}')


def test_driver_alone_takes_its_release(tmp_path):
    ko = module(tmp_path / 'drv/intel_sdsi.ko', 'intel_sdsi', REL)
    got = values(resolve({'DRIVER_MODULE': str(ko)}))
    assert (got['user_rel'], got['user_image'], got['user_abi']) == \
        (REL, '', 'early')


def test_driver_not_a_module(tmp_path):
    path = tmp_path / 'intel_sdsi.ko'
    path.write_text('not ELF\n')
    refused({'DRIVER_MODULE': str(path)}, f'DRIVER_MODULE={path}',
            'not a kernel module')


def test_driver_another_module(tmp_path):
    ko = module(tmp_path / 'drv/intel_vsec.ko', 'intel_vsec', REL)
    refused({'DRIVER_MODULE': str(ko)}, "module 'intel_vsec'",
            'expected intel_sdsi')


def test_driver_missing(tmp_path):
    refused({'DRIVER_MODULE': str(tmp_path / 'x.ko')}, 'no such file')


def test_nothing_to_test():
    refused({'KERNEL_PART': 'v1'}, 'nothing to test')


def test_check_kernel_refuses_before_building(kernel, tmp_path):
    """scripts/check-kernel.sh (make check-kernel) checks the variables
    before it installs, builds or boots anything: a bad one costs nothing."""
    done = resolve({'DRIVER_MODULE': str(tmp_path / 'x.ko')},
                   REPO / 'scripts/check-kernel.sh', str(tmp_path / 'build'))
    assert done.returncode == 2
    assert done.stderr == f'check-kernel: DRIVER_MODULE={tmp_path}/x.ko: ' \
        'no such file\n'
    done = resolve(kernel, REPO / 'scripts/check-kernel.sh',
                   str(tmp_path / 'build'), '6.1')
    assert done.returncode == 2
    assert 'KERNELS=6.1: not with a kernel or driver of your own' in done.stderr
