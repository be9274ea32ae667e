# SPDX-License-Identifier: GPL-2.0-only
"""A reader's first contact, `make demo`: it installs only what the build
and the demo need (scripts/ensure-deps.sh --demo), never a test tool, even
on a fresh Debian 12 root; and it shows the build's log only when the
build fails (scripts/build-quietly.sh).  The tests keep their own list:
make check still installs every test tool."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENSURE_DEPS = os.path.join(ROOT, 'scripts', 'ensure-deps.sh')
BUILD_QUIETLY = os.path.join(ROOT, 'scripts', 'build-quietly.sh')

# The tests' tools, by the Debian package names that bring them.
TEST_TOOLS = ('clang-14', 'libclang-rt-14-dev', 'ansible-core', 'dropbear-bin',
              'shellcheck', 'python3-pytest', 'python3-jsonschema', 'openssh-client',
              'debootstrap', 'lintian', 'qemu-system-x86')
TEST_TOOL = re.compile(r'^(clang|libclang|llvm|ansible|dropbear|shellcheck|python3-pytest|'
                       r'openssh|debootstrap|lintian|qemu)')
# What building and the demo cannot do without.
DEMO_NEEDS = ('gcc', 'meson', 'ninja-build', 'pkg-config', 'libfuse3-dev', 'libssl-dev',
              'libjson-c-dev', 'libsystemd-dev', 'python3')


def package_set(*args):
    out = subprocess.run(['bash', ENSURE_DEPS, *args, '--list'], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def test_demo_set_is_the_build_and_the_demo_only():
    demo = package_set('--demo')
    assert [p for p in demo if TEST_TOOL.match(p)] == []
    for need in DEMO_NEEDS:
        assert need in demo


def test_the_tests_keep_their_tools():
    """make build and make check (deps, deps-kernel, deps-deb) still
    install every test tool, on top of the demo's set."""
    demo = set(package_set('--demo'))
    for args, extra in (((), ()), (('--kernel',), ('qemu-system-x86',)),
                        (('--deb',), ('lintian',))):
        full = set(package_set(*args))
        assert demo <= full, args
        for tool in TEST_TOOLS[:9] + extra:
            assert tool in full, (args, tool)


def make_dry_run(target):
    return subprocess.run(['make', '-n', '-C', ROOT, target, 'BUILD=build-dry-run'],
                          check=True, capture_output=True, text=True).stdout


def test_make_demo_asks_for_the_demo_set_alone():
    lines = make_dry_run('demo').splitlines()
    deps = [line for line in lines if 'ensure-deps.sh' in line]
    assert deps == ['scripts/ensure-deps.sh --demo'], lines
    assert 'scripts/build-quietly.sh build-dry-run /usr/local' in lines
    assert not [line for line in lines if line.startswith(('ninja', 'meson'))], lines


def test_make_check_asks_for_every_set():
    lines = make_dry_run('check').splitlines()
    for want in ('scripts/ensure-deps.sh', 'scripts/ensure-deps.sh --kernel',
                 'scripts/ensure-deps.sh --deb'):
        assert want in lines


def host_mirror():
    out = subprocess.run(['bash', '-c', f'. {ROOT}/scripts/private-apt.sh; host_mirror bookworm'],
                         capture_output=True, text=True).stdout.strip()
    return out or 'http://deb.debian.org/debian'


@pytest.fixture(scope='module')
def fresh_root():
    """A fresh Debian 12 root, debootstrap's minbase (about a minute, once
    per build directory): the dpkg status and the package lists of a
    machine on which nothing was installed yet."""
    if os.geteuid() != 0:
        pytest.skip('debootstrap and chroot need root')
    build = os.environ.get('SDSI_BUILD', '')
    assert build and os.path.isdir(build), 'set SDSI_BUILD to the build directory'
    assert shutil.which('debootstrap'), 'debootstrap is missing: scripts/ensure-deps.sh installs it'
    root = os.path.join(build, 'first-contact', 'bookworm')
    if not os.path.exists(os.path.join(root, 'var', 'lib', 'dpkg', 'status')):
        part = root + '.part'
        subprocess.run(['rm', '-rf', '--one-file-system', part], check=True)
        os.makedirs(os.path.dirname(root), exist_ok=True)
        log = root + '.log'
        with open(log, 'w') as f:
            done = subprocess.run(['debootstrap', '--variant=minbase', 'bookworm', part,
                                   host_mirror()], stdout=f, stderr=subprocess.STDOUT)
        assert done.returncode == 0, f'debootstrap failed, see {log}'
        os.rename(part, root)
    return root


def simulate_in(root, *args):
    """ensure-deps.sh ARGS --simulate, run in ROOT: the packages apt-get
    would install there."""
    script = os.path.join(root, 'tmp', 'ensure-deps.sh')
    shutil.copy(ENSURE_DEPS, script)
    try:
        done = subprocess.run(['chroot', root, 'bash', '/tmp/ensure-deps.sh', *args,
                               '--simulate'], capture_output=True, text=True)
    finally:
        os.unlink(script)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line.split()[1] for line in done.stdout.splitlines() if line.startswith('Inst ')]


def test_make_demo_on_a_fresh_debian_12_installs_no_test_tool(fresh_root):
    demo = simulate_in(fresh_root, '--demo')
    print(f'make demo installs {len(demo)} packages on a fresh Debian 12 root: {" ".join(demo)}')
    assert [p for p in demo if TEST_TOOL.match(p)] == []
    for need in DEMO_NEEDS:
        assert need in demo, f'{need}: a fresh root lacks it, so the demo must install it'
    tests = simulate_in(fresh_root)
    for tool in TEST_TOOLS[:9]:
        assert tool in tests, f'{tool}: make check must still install it'


def ninja_dir(tmp_path, command):
    build = tmp_path / 'build'
    build.mkdir()
    (build / 'build.ninja').write_text(
        f'rule step\n  command = {command}\nbuild out: step\ndefault out\n')
    return build


def test_a_build_that_works_shows_no_log(tmp_path):
    build = ninja_dir(tmp_path, 'echo NOISE-OF-THE-BUILD && touch out')
    done = subprocess.run([BUILD_QUIETLY, str(build)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'built {build} (meson and ninja\'s output: {build}/build.log)\n'
    assert done.stderr == ''
    assert 'NOISE-OF-THE-BUILD' in (build / 'build.log').read_text()


def test_a_build_that_fails_shows_its_log(tmp_path):
    build = ninja_dir(tmp_path, 'echo THE-COMPILER-SAYS-WHY && exit 3')
    done = subprocess.run([BUILD_QUIETLY, str(build)], capture_output=True, text=True)
    assert done.returncode == 1          # ninja's status for a failed step
    assert done.stdout == ''
    assert 'THE-COMPILER-SAYS-WHY' in done.stderr
    assert done.stderr.rstrip().endswith(f'its log: {build}/build.log')
