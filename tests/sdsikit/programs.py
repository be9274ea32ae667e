# SPDX-License-Identifier: GPL-2.0-only
"""Where the suites find the programs under test.  The integration suites
take sdsi-emu from $SDSI_EMU (scripts/run-integration.sh sets it) and the
other daemons beside it in the same build tree; the tool suite takes all
of them from the build directory $SDSI_BUILD_DIR (TOOL, EMU and AUTHORITY
are None where one is not built)."""
import os

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


def shmem_path():
    """sdsi-shmem of $SDSI_EMU's build tree (BUILD/shmem/sdsi-shmem)."""
    emu = os.environ.get('SDSI_EMU', '')
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
        emu))), 'shmem', 'sdsi-shmem')
    if not os.access(path, os.X_OK):
        raise pytest.UsageError(f'no sdsi-shmem beside $SDSI_EMU ({path})')
    return path
