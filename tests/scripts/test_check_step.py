# SPDX-License-Identifier: GPL-2.0-only
"""scripts/check-step.sh's background steps, run by a real make on a small
Makefile of their own: a step started with --start runs beside the others
and --join prints its output and ends as the step would have in the
foreground, failure included; and when make stops early (another step
failed), the background step is killed with its children, leaving nothing
behind."""
import os
import pathlib
import subprocess
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
STEP = REPO / 'scripts/check-step.sh'


def make(tmp_path, recipe):
    """make in TMP_PATH on a Makefile whose target `all` is RECIPE (lines
    of $(STEP) calls); (exit status, output)."""
    lines = ''.join('\t%s\n' % line for line in recipe)
    (tmp_path / 'Makefile').write_text(
        'STEP = %s %s/times.txt\nall:\n%s' % (STEP, tmp_path, lines))
    proc = subprocess.run(['make', '--no-print-directory', '-C', str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout + proc.stderr


def gone(path, seconds):
    """True once the process whose pid the background step wrote to PATH
    is gone, within SECONDS."""
    pid = int(path.read_text())
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not os.path.exists('/proc/%d' % pid):
            return True
        time.sleep(0.1)
    return False


def test_background_step_joined_with_its_output_and_time(tmp_path):
    status, out = make(tmp_path, [
        # The outputs are computed, so that make's echo of the recipe
        # line does not show them.
        "$(STEP) --start slow sh -c 'sleep 1; echo slow-$$((6*7))'",
        "$(STEP) quick sh -c 'echo quick-$$((6*7))'",
        "$(STEP) --join slow",
        "@$(STEP) --summary"])
    assert status == 0, out
    assert out.index('quick-42') < out.index('slow-42')
    assert 'check: slow took' in out and 'check: quick took' in out
    assert 'check: all 2 steps took' in out
    assert 'check: wall clock' in out


def test_failing_background_step_fails_at_its_join(tmp_path):
    status, out = make(tmp_path, [
        "$(STEP) --start broken sh -c 'echo why-$$((6*7)); exit 3'",
        "$(STEP) quick true",
        "$(STEP) --join broken",
        "$(STEP) never-reached echo never-reached"])
    assert status != 0
    assert 'why-42' in out
    assert 'check: step broken FAILED (exit 3)' in out
    assert 'never-reached' not in out


def test_background_step_killed_when_make_stops(tmp_path):
    marker = tmp_path / 'pid'
    done = tmp_path / 'finished'
    status, out = make(tmp_path, [
        "$(STEP) --start long sh -c 'sleep 60 & echo $$! >%s; wait; touch %s'"
        % (marker, done),
        "sleep 1",
        "$(STEP) failing false",
        "$(STEP) --join long"])
    assert status != 0 and 'check: step failing FAILED (exit 1)' in out
    assert gone(marker, 10), 'the background step outlived make'
    assert not done.exists()


def test_join_of_a_step_never_started(tmp_path):
    status, out = make(tmp_path, ["$(STEP) --join nothing"])
    assert status != 0 and 'no background step nothing' in out


def test_join_fails_when_the_step_was_killed_from_outside(tmp_path):
    pids = tmp_path / 'times.txt.d' / 'long.pid'
    status, out = make(tmp_path, [
        "$(STEP) --start long sleep 30",
        "sleep 1",
        # bash's kill: dash's takes no process group.
        "bash -c 'kill -KILL -- -$$(cat %s)'" % pids,
        "$(STEP) --join long"])
    assert status != 0
    assert 'check: long: ended without a status' in out
    assert 'check: step long FAILED (exit 1)' in out
