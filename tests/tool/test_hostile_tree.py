# SPDX-License-Identifier: GPL-2.0-only
"""Issue 25, reproduction 1: a device tree given by --sysfs-root that a
hostile user can change.  Root's intel_sdsi must neither write an AKC
through provision_akc leading to one of root's files, nor print a file of
root's that registers leads to: every attribute is opened relative to the
device directory without following a link, and a tree another user can
change is refused whole."""
import os

import pytest

from abi_bytes import registers
from sdsikit.hostile_user import attacker  # noqa: F401 (a fixture)

VICTIM = b"root's own file, not to be overwritten\n" * 8
SECRET = bytes(range(80))      # a registers-sized secret: decoded as a PPIN if read


@pytest.fixture
def victim(tmp_path):
    """A root-only directory holding a file to overwrite and one to leak."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    target = private / "victim"
    target.write_bytes(VICTIM)
    target.chmod(0o600)
    secret = private / "secret"
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    return target, secret


def akc_file(tmp_path):
    path = tmp_path / "akc.bin"
    path.write_bytes(bytes((i * 7) & 0xFF for i in range(208)))
    return str(path)


def link_attributes(dev, victim):
    target, secret = victim
    os.unlink(os.path.join(dev, "provision_akc"))
    os.symlink(target, os.path.join(dev, "provision_akc"))
    os.unlink(os.path.join(dev, "registers"))
    os.symlink(secret, os.path.join(dev, "registers"))


def assert_untouched(victim):
    target, secret = victim
    assert target.read_bytes() == VICTIM
    assert secret.read_bytes() == SECRET


def test_tree_of_another_user_refused(tool, sysfs, tmp_path, victim, attacker):
    dev = sysfs.add(0, regs=registers())
    link_attributes(dev, victim)
    attacker.give(os.path.dirname(sysfs.root))    # the tree and the directory above it
    r = tool("-d", "0", "-a", akc_file(tmp_path), root=sysfs.root)
    assert r.rc == 5, (r.out, r.err)
    assert f"owned by uid {attacker.uid}, not by root or uid 0" in r.err
    assert "Provisioned" not in r.out
    r = tool("-d", "0", "-i", root=sysfs.root)
    assert r.rc == 5, (r.out, r.err)
    assert "PPIN" not in r.out
    r = tool("-l", root=sysfs.root)
    assert r.rc == 5, (r.out, r.err)
    assert_untouched(victim)


def test_tree_writable_by_others_refused(tool, sysfs, tmp_path, victim):
    dev = sysfs.add(0, regs=registers())
    link_attributes(dev, victim)
    os.chmod(dev, 0o777)
    r = tool("-d", "0", "-a", akc_file(tmp_path), root=sysfs.root)
    assert r.rc == 5, (r.out, r.err)
    assert f"device directory {dev}: writable by others (mode 0777)" in r.err
    assert_untouched(victim)


@pytest.mark.parametrize("attr,args", [
    ("provision_akc", ["-a", "AKC"]),
    ("registers", ["-i"]),
    ("guid", ["-i"]),
    ("state_certificate", ["-s"]),
])
def test_linked_attribute_not_followed(tool, sysfs, tmp_path, victim, attr, args):
    """Even in a tree only root can change, an attribute that is a link is refused."""
    dev = sysfs.add(0, regs=registers(), state=b"")
    os.unlink(os.path.join(dev, attr))
    os.symlink(victim[0] if attr == "provision_akc" else victim[1], os.path.join(dev, attr))
    args = [akc_file(tmp_path) if a == "AKC" else a for a in args]
    r = tool("-d", "0", *args, root=sysfs.root)
    assert r.rc == 5, (r.out, r.err)
    assert f"{dev}/{attr}: a symbolic link, not followed" in r.err
    assert "Provisioned" not in r.out and "PPIN" not in r.out
    assert_untouched(victim)
