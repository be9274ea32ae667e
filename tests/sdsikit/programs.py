# SPDX-License-Identifier: GPL-2.0-only
"""Where the suites find the programs under test.  The integration suites
take sdsi-emu from $SDSI_EMU (scripts/run-integration.sh sets it) and the
other daemons beside it in the same build tree; the tool suite takes all
of them from the build directory $SDSI_BUILD_DIR (TOOL, EMU and AUTHORITY
are None where one is not built)."""
import os
import subprocess

import pytest

BUILD_DIR = os.environ.get("SDSI_BUILD_DIR", "")


def built(relpath):
    """BUILD_DIR/RELPATH if it is an executable there, else None."""
    path = os.path.join(BUILD_DIR, relpath)
    return path if BUILD_DIR and os.access(path, os.X_OK) else None


TOOL = built("tools/intel_sdsi")
EMU = built("emu/sdsi-emu")
AUTHORITY = built("tools/sdsi-authority/sdsi-authority")


def emu_path():
    path = os.environ.get('SDSI_EMU', '')
    if not path or not os.access(path, os.X_OK):
        raise pytest.UsageError('set SDSI_EMU to the sdsi-emu binary '
                                f'(got {path!r})')
    return os.path.abspath(path)


def build_of(emu):
    """The build tree of the sdsi-emu at EMU (BUILD/emu/sdsi-emu)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(emu)))


def beside(emu, *parts):
    """A program of EMU's build tree: BUILD/PARTS..., which must be
    executable."""
    path = os.path.join(build_of(emu), *parts)
    if not os.access(path, os.X_OK):
        raise pytest.UsageError(f'no {parts[-1]} beside sdsi-emu ({path})')
    return path


def shmem_path():
    """sdsi-shmem beside $SDSI_EMU (BUILD/shmem/sdsi-shmem)."""
    return beside(os.environ.get('SDSI_EMU', ''), 'shmem', 'sdsi-shmem')


def authority_path():
    """sdsi-authority beside $SDSI_EMU."""
    return beside(os.environ.get('SDSI_EMU', ''), 'tools', 'sdsi-authority',
                  'sdsi-authority')


def authority_init(directory):
    """A fresh authority in DIRECTORY (`sdsi-authority init`, the one beside
    $SDSI_EMU): its keys and attestation-root.pem.  Returns DIRECTORY."""
    subprocess.run([authority_path(), 'init', str(directory)], check=True,
                   capture_output=True)
    return directory


def sanitizer_preload(library):
    """What a program built without sanitizers (Python, QEMU) needs in its
    environment to load LIBRARY, a shared object of this project, as a dict
    of variables: nothing for a plain build; for an ASan or TSan build, the
    runtime LIBRARY names preloaded, since a sanitizer runtime must be
    loaded before anything else (TSan's cannot be loaded later at all:
    "cannot allocate memory in static TLS block"); with ASan, leak checking
    off, since the program's own leaks are neither ours nor instrumented."""
    needed = subprocess.run(['ldd', library], capture_output=True, text=True,
                            check=True).stdout
    env = {}
    for line in needed.splitlines():
        name, _, rest = line.strip().partition(' => ')
        if name.startswith(('libasan.so', 'libtsan.so')):
            env['LD_PRELOAD'] = rest.split(' (', 1)[0]
        if name.startswith('libasan.so'):
            env['ASAN_OPTIONS'] = ':'.join(
                filter(None, [os.environ.get('ASAN_OPTIONS', ''), 'detect_leaks=0']))
    return env
