# SPDX-License-Identifier: GPL-2.0-only
"""The emulator launcher: sdsi-emu run with the one inside runner in it
(sdsikit/inside.py), sdsi-emu mount waited for until its tree appears, and
the mounts a test may look at."""
import json
import os
import subprocess
import sys

from sdsikit.daemon import wait_for_tree
from sdsikit.programs import beside
from sdsikit.violations import assert_kept

# The directory holding sdsikit: the runner started inside `sdsi-emu run`
# is a new interpreter, which finds the kit through PYTHONPATH.
KIT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def inside_command(*steps):
    """The command line of the inside runner doing STEPS (inside.py)."""
    return [sys.executable, '-m', 'sdsikit.inside', *steps]


def with_kit(env):
    """ENV (a dict) with the kit on PYTHONPATH, for the inside runner."""
    paths = [KIT_ROOT, *filter(None, env.get('PYTHONPATH', '').split(
        os.pathsep))]
    return dict(env, PYTHONPATH=os.pathsep.join(paths))


def run_inside(emu, opts, steps, timeout=60, env=None):
    """`EMU run OPTS -- python3 -m sdsikit.inside STEPS`; returns the
    completed process (its stdout is one JSON result per step).  A last
    step reads every socket's protocol_violations: when the run got that
    far, they must all be 0 (sdsikit.violations), and that step's line is
    taken out of stdout again."""
    env = with_kit(os.environ if env is None else env)
    env.setdefault('SDSI_EMU', emu)
    done = subprocess.run([emu, 'run', *opts, '--',
                           *inside_command(*steps, 'violations')],
                          capture_output=True, text=True, timeout=timeout,
                          env=env)
    lines = done.stdout.splitlines(keepends=True)
    if len(lines) == len(steps) + 1:
        counts = {int(n): c for n, c in json.loads(lines[-1]).items()}
        assert_kept(counts, f'sdsi-emu run {" ".join(map(str, opts))}')
        done.stdout = ''.join(lines[:-1])
    return done


def exec_step(argv):
    """The inside runner's step that runs the command line ARGV."""
    return 'exec:' + json.dumps([str(word) for word in argv])


def run_commands(emu, opts, commands, timeout=240, env=None):
    """Each command line of COMMANDS run in turn inside one `EMU run OPTS`,
    which must exit 0; returns their {"argv", "rc", "out", "err"}."""
    done = run_inside(emu, opts, [exec_step(c) for c in commands],
                      timeout=timeout, env=env)
    assert done.returncode == 0, (done.returncode, done.stderr)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(commands), done.stdout
    return results


class Emu:
    """Runs sdsi-emu and, inside it, the inside runner."""

    def __init__(self, path):
        self.path = path
        self.env = dict(os.environ, SDSI_EMU=path)

    def run(self, *args, timeout=60, **kw):
        return subprocess.run([self.path, *args], capture_output=True,
                              text=True, timeout=timeout, env=self.env, **kw)

    def beside(self, *parts):
        """A program of this sdsi-emu's build tree (programs.beside)."""
        return beside(self.path, *parts)

    def inside(self, opts, *steps, timeout=60):
        """`sdsi-emu run OPTS -- python3 -m sdsikit.inside STEPS`; returns
        the completed process (its stdout is one JSON result per step)."""
        return run_inside(self.path, opts, steps, timeout=timeout,
                          env=self.env)


def mount_points():
    """(mount point, fstype) of every mount of this namespace."""
    found = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            fields = line.split()
            found.append((fields[4], fields[fields.index('-') + 1]))
    return found


def mounts_under(*roots):
    """Mount points at or below any of roots.  Other programs may mount
    FUSE file systems of their own meanwhile, so tests look only where an
    emulator of theirs could have mounted."""
    return sorted(m for m in mount_points()
                  if any(m[0] == r or m[0].startswith(r.rstrip('/') + '/')
                         for r in roots))


def start_mount(sdsi, tmp_path, sockets):
    """`sdsi-emu mount` of SOCKETS sockets at tmp_path/mnt with its state in
    tmp_path/state, waited for until the last socket's registers appear;
    ctl then reaches it through SDSI_EMU_CTL.  Returns (proc, mnt, state);
    the caller stops it."""
    mnt, state = tmp_path / 'mnt', tmp_path / 'state'
    mnt.mkdir()
    state.mkdir(mode=0o700)
    proc = subprocess.Popen([sdsi.path, 'mount', '--state', str(state),
                             '--sockets', str(sockets), str(mnt)],
                            stderr=subprocess.PIPE, text=True, env=sdsi.env)
    wait_for_tree(proc, mnt / 'devices' / f'intel_vsec.sdsi.{sockets - 1}'
                  / 'registers')
    sdsi.env['SDSI_EMU_CTL'] = str(state / 'control.sock')
    return proc, mnt, state
