# SPDX-License-Identifier: GPL-2.0-only
"""Issue 25, reproduction 2: an authority's DIR that a hostile user can
change.  The user owns DIR's parent; they move root's authority aside and
put theirs in its place, whose root.key is a link to root's real one and
whose licensor key is their own.  Root's `akc DIR` must not certify their
key, nor `cap DIR` sign with theirs, nor `init DIR` write into their
directory: DIR is checked on init, akc and cap alike, every component from
"/" down, and its key files are opened without following a link."""
import os

import pytest

from authority_files import EXIT_OK, EXIT_REFUSED, parse_akc, run
from sdsikit.hostile_user import attacker, ground  # noqa: F401 (fixtures)


def cap_args(auth, out):
    return ("cap", auth, "--ppin", "0x42", "--feature", "SGX1", "-o", out)


def swap_in_their_authority(attacker, parent, auth, evil):
    """As the attacker: root's DIR moved aside, theirs in its place: root.key
    a link to root's own, licensor.pub and licensor.key theirs."""
    script = (f'set -e; cd "{parent}"; mv auth auth.real; mkdir auth; '
              f'ln -s "{parent}/auth.real/root.key" auth/root.key; '
              f'ln -s "{parent}/auth.real/root.pub" auth/root.pub; '
              f'cp "{evil}/licensor.pub" "{evil}/licensor.key" auth/; chmod 700 auth')
    done = attacker.run(["sh", "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_swapped_authority_not_used(attacker, ground):
    parent = os.path.join(ground, "theirs")
    os.mkdir(parent, 0o755)
    auth = os.path.join(parent, "auth")
    assert run("init", auth).returncode == EXIT_OK
    evil = os.path.join(ground, "evil")
    assert run("init", evil).returncode == EXIT_OK
    attacker.give(evil)
    os.lchown(parent, attacker.uid, attacker.gid)   # the parent is theirs, DIR root's
    os.chmod(evil, 0o755)
    os.chmod(os.path.join(evil, "licensor.key"), 0o644)
    # Even before the swap, a parent another user owns is refused.
    out = os.path.join(ground, "x.akc")
    r = run("akc", auth, "-o", out)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"{parent} is owned by uid {attacker.uid}" in r.stderr
    swap_in_their_authority(attacker, parent, auth, evil)
    for args in (("akc", auth, "-o", out), cap_args(auth, out + ".cap"), ("init", auth)):
        r = run(*args)
        assert r.returncode == EXIT_REFUSED, (args, r.stderr)
        assert f"{parent} is owned by uid {attacker.uid}" in r.stderr
    assert not os.path.exists(out) and not os.path.exists(out + ".cap")


@pytest.mark.parametrize("command", ["akc", "cap"])
def test_a_linked_key_file_not_followed(ground, command):
    """In a DIR only root can change, a key file that is a link is refused:
    its target could be anywhere."""
    auth = os.path.join(ground, "auth")
    assert run("init", auth).returncode == EXIT_OK
    other = os.path.join(ground, "other")
    assert run("init", other).returncode == EXIT_OK
    name = "licensor.pub" if command == "akc" else "licensor.key"
    os.unlink(os.path.join(auth, name))
    os.symlink(os.path.join(other, name), os.path.join(auth, name))
    out = os.path.join(ground, "x.bin")
    r = run("akc", auth, "-o", out) if command == "akc" else run(*cap_args(auth, out))
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"{auth}/{name}: a symbolic link, not followed" in r.stderr
    assert not os.path.exists(out)


def test_a_key_file_of_another_user_refused(attacker, ground):
    auth = os.path.join(ground, "auth")
    assert run("init", auth).returncode == EXIT_OK
    os.lchown(os.path.join(auth, "licensor.pub"), attacker.uid, attacker.gid)
    out = os.path.join(ground, "x.akc")
    r = run("akc", auth, "-o", out)
    assert r.returncode == EXIT_REFUSED, r.stderr
    assert f"{auth}/licensor.pub: owned by uid {attacker.uid}" in r.stderr
    assert not os.path.exists(out)


def test_dir_writable_by_others_refused_even_sticky(ground):
    auth = os.path.join(ground, "auth")
    assert run("init", auth).returncode == EXIT_OK
    os.chmod(auth, 0o1777)
    out = os.path.join(ground, "x.akc")
    for args in (("akc", auth, "-o", out), cap_args(auth, out)):
        r = run(*args)
        assert r.returncode == EXIT_REFUSED, r.stderr
        assert f"authority directory {auth}: writable by others (mode 1777)" in r.stderr
    os.chmod(auth, 0o700)
    r = run("akc", auth, "-o", out)
    assert r.returncode == EXIT_OK, r.stderr
    assert parse_akc(open(out, "rb").read())
