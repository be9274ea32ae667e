# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu run` in a real chroot: a minimal tree holding the built
sdsi-emu, the libraries ldd names and /bin/true.  What the root lacks
(/ a mount point, /proc, /sys, /dev/fuse) is named, each with how to give
it, and nothing else is; with all four given, run runs.  The mounts are
made in a private mount namespace (unshare -m) that ends with the test."""
import os
import re
import shutil
import subprocess

import pytest

from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

EMU = os.path.join(os.environ.get("SDSI_BUILD_DIR", ""), "emu", "sdsi-emu")
LACKS = {
    "root": "/ is not a mount point (bind-mount the chroot's directory onto itself",
    "proc": "/proc is not mounted (mount -t proc proc /proc)",
    "sys": "/sys is not mounted (mount -t sysfs sysfs /sys)",
    "fuse": "/dev/fuse is missing (bind-mount the host's /dev/fuse there)",
}


def copy_with_libraries(program, tree, dest):
    shutil.copy(program, tree / dest.lstrip("/"))
    out = subprocess.run(["ldd", program], check=True, capture_output=True, text=True).stdout
    for lib in re.findall(r"(/\S+)", out):
        target = tree / lib.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(lib, target)


ASAN_NO_PROC = re.compile(r"==\d+==WARNING: reading executable name failed")


def sanitized():
    """Whether EMU is the sanitizer build's (linked with libasan)."""
    done = subprocess.run(["ldd", EMU], capture_output=True, text=True, check=True)
    return "libasan" in done.stdout


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "chroot"
    for d in ("proc", "sys", "dev", "tmp", "bin"):
        (root / d).mkdir(parents=True)
    copy_with_libraries(EMU, root, "/sdsi-emu")
    copy_with_libraries("/bin/true", root, "/bin/true")
    if sanitized():
        # The sanitizer runtime reads its options from /proc/self/environ,
        # and LeakSanitizer needs /proc at exit: in a root without /proc it
        # fails the program.  This plain file (hidden wherever the test
        # mounts /proc) turns the leak check off for these runs alone; the
        # directory is still no mount, so /proc still counts as missing.
        (root / "proc" / "self").mkdir()
        (root / "proc" / "self" / "environ").write_bytes(
            b"ASAN_OPTIONS=detect_leaks=0:abort_on_error=1\0")
    return root


def run_in_chroot(tree, given):
    """sdsi-emu run -q -- /bin/true chrooted into tree, after making in a
    private mount namespace the mounts named in given."""
    steps = []
    if "root" in given:
        steps.append(f"mount --bind {tree} {tree}")
    if "proc" in given:
        steps.append(f"mount -t proc proc {tree}/proc")
    if "sys" in given:
        steps.append(f"mount -t sysfs sysfs {tree}/sys")
    if "fuse" in given:
        steps.append(f"touch {tree}/dev/fuse && mount --bind /dev/fuse {tree}/dev/fuse")
    steps.append(f"exec chroot {tree} /sdsi-emu run -q -- /bin/true")
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-ec",
                           " && ".join(steps)], capture_output=True, text=True, timeout=60)
    # ASan says once per process that it could not read /proc/self/exe.
    done.stderr = "".join(line for line in done.stderr.splitlines(keepends=True)
                          if not ASAN_NO_PROC.match(line))
    return done


def test_a_bare_chroot_is_told_all_it_lacks(tree):
    done = run_in_chroot(tree, ())
    assert done.returncode == 7, done
    assert done.stderr.startswith("sdsi-emu: run cannot start in this root, which lacks what "
                                  "a chroot into a plain directory lacks: "), done.stderr
    for words in LACKS.values():
        assert words in done.stderr
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("lacking", sorted(LACKS))
def test_each_lack_is_named_alone(tree, lacking):
    done = run_in_chroot(tree, set(LACKS) - {lacking})
    assert done.returncode == 7, done
    assert LACKS[lacking] in done.stderr, done.stderr
    for other in set(LACKS) - {lacking}:
        assert LACKS[other] not in done.stderr


def test_a_chroot_with_all_it_needs_runs(tree):
    done = run_in_chroot(tree, set(LACKS))
    assert (done.returncode, done.stderr) == (0, ""), done
