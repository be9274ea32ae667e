# SPDX-License-Identifier: GPL-2.0-only
"""SDSI_RIG_GUEST_SCRIPT: rig/guest-script.sh, which rig/guest-run.sh runs
in each guest after a configuration's suites, with no guest booted: a
passing script's verdict is "pass", a failing one's "fail"; the script
runs in the configuration's results directory with the environment it is
given, and its output and exit status land in script.log.  And rig/rig.sh
refuses a script that is not there before it fetches or boots anything.
The booted runs are the rig's own (docs/conformance.md)."""
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / 'rig/guest-script.sh'


def script(path, body):
    path.write_text('#!/bin/sh\n' + body)
    path.chmod(0o755)
    return path


def run(user_script, results, **env):
    results.mkdir(exist_ok=True)
    done = subprocess.run([SCRIPT, user_script, results], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr
    return (results / 'script').read_text(), (results / 'script.log').read_text()


def test_a_passing_script(tmp_path):
    authority = tmp_path / 'authority'
    authority.mkdir()
    user = script(tmp_path / 'ok.sh',
                  'test -d "$SDSI_AUTHORITY" || exit 9\n'
                  'echo "in $(pwd) for $SDSI_CONFIG"\n'
                  'echo left > left-here\n')
    verdict, log = run(user, tmp_path / 'results', SDSI_AUTHORITY=str(authority),
                       SDSI_CONFIG='6.12-sdsi')
    assert verdict == 'pass\n'
    assert f'in {tmp_path / "results"} for 6.12-sdsi' in log
    assert log.endswith(f'guest-script: {user} exited 0\n')
    # What the script leaves in its working directory reaches the host.
    assert (tmp_path / 'results' / 'left-here').read_text() == 'left\n'


def test_a_failing_script(tmp_path):
    user = script(tmp_path / 'bad.sh', 'echo trying; exit 3\n')
    verdict, log = run(user, tmp_path / 'results')
    assert verdict == 'fail\n'
    assert 'trying\n' in log
    assert log.endswith(f'guest-script: {user} exited 3\n')


def test_a_script_that_cannot_run_fails(tmp_path):
    user = tmp_path / 'not-executable.sh'
    user.write_text('#!/bin/sh\nexit 0\n')
    verdict, log = run(user, tmp_path / 'results')
    assert verdict == 'fail\n'
    assert 'exited 126' in log


def test_the_rig_refuses_a_missing_script(tmp_path):
    """Before anything is fetched or built: exit 2, naming the variable."""
    (tmp_path / 'build').mkdir()
    done = subprocess.run([REPO / 'rig/rig.sh', tmp_path / 'build', '6.12'],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ,
                                   SDSI_RIG_GUEST_SCRIPT=str(tmp_path / 'none.sh')))
    assert done.returncode == 2
    assert f'SDSI_RIG_GUEST_SCRIPT={tmp_path / "none.sh"}: no readable file' in done.stderr
    assert not (tmp_path / 'build' / 'kernel-rig' / 'apt').exists()
