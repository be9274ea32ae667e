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


# Each term the demo shows a reader, with words its explanation must hold.
TERMS = {
    'PPIN': 'Protected Processor Inventory Number',
    'AKC': 'Authentication Key Certificate',
    'CC02': 'feature codes',
    'SG01': 'feature codes',
    'License Key Image Content': 'byte 47',
    'MMRC': 'Master Meter Reference Counter',
    'cmp -l': 'octal',
    '(exit status 5)': 'before it reached the socket',
    '(exit status 6)': 'counted the failure',
}


@pytest.fixture(scope='module')
def demo_output():
    if os.geteuid() != 0:
        pytest.skip('the demo runs sdsi-emu run, as root')
    build = os.environ.get('SDSI_BUILD', '')
    assert build and os.path.isdir(build), 'set SDSI_BUILD to the build directory'
    done = subprocess.run([os.path.join(ROOT, 'scripts', 'demo.sh'), build],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, done.stderr


def steps(out):
    """[(heading, [lines])] of the demo's output, one per ### step."""
    found = []
    for line in out.splitlines():
        if line.startswith('### '):
            found.append((line[4:], []))
        elif found:
            found[-1][1].append(line)
    return found


@pytest.mark.parametrize('term', sorted(TERMS))
def test_the_demo_explains_each_term_where_it_first_shows_it(demo_output, term):
    for heading, lines in steps(demo_output[0]):
        shown = [i for i, line in enumerate(lines)
                 if term in line and not line.startswith('  ^ ')]
        if term in heading or shown:
            break
    else:
        pytest.fail(f'the demo never shows {term!r}')
    first = shown[0] if shown else 0
    words = ' '.join(line[4:] for line in lines[first:] if line.startswith('  ^ '))
    assert TERMS[term] in words, (heading, words)


def test_the_demo_says_the_meters_never_reset(demo_output):
    found = steps(demo_output[0])
    assert not [h for h, _ in found if 'reset' in h]
    cycle = [lines for h, lines in found if 'power cycle of both sockets' in h]
    assert len(cycle) == 1
    words = ' '.join(line[4:] for line in cycle[0] if line.startswith('  ^ '))
    assert 'The meters do not reset at a power cycle' in words, words


def test_the_demo_explains_mmrc_against_the_feature_counter(demo_output):
    """28800 next to 28799: the attested copy's MMRC and CC02, each named
    with the reason they differ."""
    out = demo_output[0]
    cert = out[out.index('Meter certificate for device intel_vsec.sdsi.0'):]
    mmrc = re.search(r'^MMRC counter: +(\d+)$', cert, re.M).group(1)
    cc02 = re.search(r'^    CC02: +(\d+)$', cert, re.M).group(1)
    words = ' '.join(line[4:] for line in cert.splitlines()[:30] if line.startswith('  ^ '))
    assert f'MMRC {mmrc} is exactly 8 hours' in words, words
    assert f'CC02 shows {cc02}, {int(mmrc) - int(cc02)} less' in words, words
    assert 'only from the power cycle' in words


def test_the_demo_notes_read_as_notes(demo_output):
    out, err = demo_output
    for line in (out + err).splitlines():
        if line.startswith('sdsi-emu: note:'):
            assert line.endswith('the emulated sockets work all the same (-q hides this note)')
    explanations = [line for line in out.splitlines() if line.startswith('  ^ ')]
    assert len(explanations) >= 20
    assert [line for line in explanations if len(line) > 80] == []
