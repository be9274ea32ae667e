# SPDX-License-Identifier: GPL-2.0-only
"""Every command block of README.md and docs/*.md that claims to run, runs:
the sh blocks of each document in order, in one fresh directory, with the
build's programs first on PATH, each exiting 0 and printing its output
block exactly.  And every block follows the convention (doc_blocks.py)."""
import glob
import os
import signal
import subprocess
import tempfile
import time

import pytest

from doc_blocks import parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ['README.md'] + sorted(os.path.relpath(p, ROOT)
                              for p in glob.glob(os.path.join(ROOT, 'docs', '*.md')))
BLOCK_TIMEOUT = 240


def blocks_of(doc):
    with open(os.path.join(ROOT, doc)) as f:
        return parse(doc, f.read())


def build_dir():
    build = os.environ.get('SDSI_BUILD', '')
    if not build or not os.path.isdir(build):
        raise pytest.UsageError(f'set SDSI_BUILD to the build directory (got {build!r})')
    return os.path.abspath(build)


def program_path(build):
    dirs = [os.path.join(build, d) for d in
            ('emu', 'tools', 'tools/sdsi-authority', 'shmem')]
    return os.pathsep.join(dirs + [os.environ.get('PATH', '/usr/bin:/bin')])


@pytest.mark.parametrize('doc', DOCS)
def test_blocks_follow_the_convention(doc):
    errors = [f'{b.where}: {e}' for b in blocks_of(doc) for e in b.errors]
    assert errors == []


def test_readme_has_runnable_blocks():
    """The tour is runnable: an empty run of it must not pass."""
    runnable = [b for b in blocks_of('README.md') if b.info == 'sh' and not b.not_run]
    assert len(runnable) >= 6, [b.where for b in runnable]
    assert sum(b.output is not None for b in runnable) >= 3


def mounts_below(root):
    with open('/proc/self/mountinfo') as f:
        points = [line.split()[4] for line in f]
    return [p for p in points if p == root or p.startswith(root + '/')]


def group_alive(proc):
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    return True


def end_group(proc):
    """Stop what a block left behind: its session's processes."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if not group_alive(proc):
                return
            time.sleep(0.05)
    proc.wait()


def in_clone(text):
    """A block marked <!-- run in the clone -->: run as a reader would after
    make build, from the tree's top directory, with PATH as the reader's
    shell has it (none of the build's programs); whatever it sets, the
    build's programs must then be found in ./build."""
    env = dict(os.environ)
    for name in ('SDSI_SYSFS_ROOT', 'SDSI_EMU_CTL', 'SDSI_EMU_STATE', 'NOTIFY_SOCKET'):
        env.pop(name, None)
    build = build_dir()
    env['PATH'] = os.pathsep.join(d for d in env.get('PATH', '/usr/bin:/bin').split(os.pathsep)
                                  if d and not os.path.abspath(d).startswith(build + os.sep))
    check = ''.join(
        f'[ "$(command -v {name})" = "$PWD/build/{where}/{name}" ] || '
        f'{{ echo "{name} is not on PATH from ./build: $(command -v {name})" >&2; exit 1; }}\n'
        for where, name in (('emu', 'sdsi-emu'), ('tools', 'intel_sdsi'),
                            ('tools/sdsi-authority', 'sdsi-authority'), ('shmem', 'sdsi-shmem')))
    return text + check, ROOT, env


RUN_DOCS = [d for d in DOCS if any(b.info == 'sh' and not b.not_run for b in blocks_of(d))]


@pytest.mark.parametrize('doc', RUN_DOCS)
def test_blocks_run_as_written(doc):
    if os.geteuid() != 0:
        pytest.skip('the documents run their commands as root (sdsi-emu run)')
    build = build_dir()
    env = dict(os.environ, PATH=program_path(build))
    for name in ('SDSI_SYSFS_ROOT', 'SDSI_EMU_CTL', 'SDSI_EMU_STATE', 'NOTIFY_SOCKET'):
        env.pop(name, None)
    work = tempfile.mkdtemp(prefix='sdsi-doc.')
    logs = tempfile.mkdtemp(prefix='sdsi-doc-logs.')
    procs, failures = [], []
    try:
        for block in blocks_of(doc):
            if block.info != 'sh' or block.not_run:
                continue
            # Files, not pipes: a process the block leaves behind must not
            # hold the test up, it is found and reported instead.
            text, cwd, block_env = block.text, work, env
            if block.in_clone:
                text, cwd, block_env = in_clone(block.text)
            with open(os.path.join(logs, 'out'), 'w+') as out_f, \
                    open(os.path.join(logs, 'err'), 'w+') as err_f:
                proc = subprocess.Popen(['bash', '-euo', 'pipefail', '-c', text],
                                        cwd=cwd, env=block_env, stdout=out_f, stderr=err_f,
                                        text=True, start_new_session=True)
                procs.append(proc)
                try:
                    proc.wait(timeout=BLOCK_TIMEOUT)
                except subprocess.TimeoutExpired:
                    end_group(proc)
                out_f.seek(0)
                err_f.seek(0)
                out, err = out_f.read(), err_f.read()
            if proc.returncode is None or proc.returncode < 0:
                failures.append(f'{block.where}: still running after {BLOCK_TIMEOUT} s\n{err}')
                break
            if proc.returncode != 0:
                failures.append(f'{block.where}: exit {proc.returncode}\n'
                                f'--- block\n{block.text}--- stdout\n{out}--- stderr\n{err}')
                break
            if group_alive(proc):
                failures.append(f'{block.where}: left processes running (a block stops '
                                f'what it starts)\n--- block\n{block.text}')
                break
            if block.output is not None and out != block.output:
                failures.append(f'{block.where}: output differs\n--- expected\n'
                                f'{block.output}--- got\n{out}--- stderr\n{err}')
                break
    finally:
        for proc in procs:
            end_group(proc)
        left = mounts_below(work)
        for point in reversed(left):
            subprocess.run(['umount', '-l', point], check=False)
        subprocess.run(['rm', '-rf', '--one-file-system', work, logs], check=False)
    assert not left, f'{doc}: left mounted: {left}'
    assert not failures, '\n'.join(failures)
