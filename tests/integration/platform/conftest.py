# SPDX-License-Identifier: GPL-2.0-only
"""Host-side tests of sdsi-emu: they start the emulator themselves and
find it through $SDSI_EMU (scripts/run-integration.sh sets it).  How they
start it is the test kit's (sdsikit.emu)."""
import pytest

from sdsikit.emu import Emu
from sdsikit.programs import emu_path


@pytest.fixture(scope='session')
def emu():
    return emu_path()


@pytest.fixture
def sdsi(emu):
    return Emu(emu)
