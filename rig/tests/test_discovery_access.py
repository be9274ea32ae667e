# SPDX-License-Identifier: GPL-2.0-only
"""A barid configuration (rig/rig.sh's last column) really runs access
type BARID: every socket's discovery table, as the guest reads it through
/dev/sdsi_window, says BARID with the lent BAR's TBIR and the region's
offset from the window's start, and that BAR of the host bridge is the
window (rig/sdsi_window.c's barid=K).  So the suite that passes on such a
configuration passed on regions the driver mapped through
pci_resource_start() + offset, not on LOCAL ones.  Deselected in LOCAL
configurations (conftest.py), whose tables the rest of the suite reads."""
import mmap
import os
import struct

import pytest

from guest import SOCKETS
from sdsikit.layout import DISC_ACCESS_BARID, DISC_ACCESS_MASK, \
    DISC_TBIR_MASK, WINDOW_MMIO_OFFSET, WINDOW_SLOT_SIZE

BARID = os.environ.get('SDSI_BARID', '')
PHYS = int(os.environ.get('SDSI_PHYS', '0'), 0)
BRIDGE = '/sys/bus/pci/devices/0000:00:00.0'
IORESOURCE_MEM = 0x200

pytestmark = pytest.mark.barid


def tables():
    """Each socket's discovery dwords 0 and 2, read where the driver
    reads them."""
    fd = os.open('/dev/sdsi_window', os.O_RDONLY | os.O_NOFOLLOW)
    try:
        with mmap.mmap(fd, SOCKETS * WINDOW_SLOT_SIZE, mmap.MAP_SHARED,
                       mmap.PROT_READ) as m:
            return [struct.unpack_from('<III', m, n * WINDOW_SLOT_SIZE)
                    for n in range(SOCKETS)]
    finally:
        os.close(fd)


def test_every_table_is_barid_into_the_lent_bar():
    for n, (access, _, tbir_offset) in enumerate(tables()):
        assert access & DISC_ACCESS_MASK == DISC_ACCESS_BARID, \
            f'socket {n}: access type {access & DISC_ACCESS_MASK}'
        assert tbir_offset & DISC_TBIR_MASK == int(BARID), \
            f'socket {n}: TBIR {tbir_offset & DISC_TBIR_MASK}'
        assert tbir_offset & ~DISC_TBIR_MASK == \
            n * WINDOW_SLOT_SIZE + WINDOW_MMIO_OFFSET, \
            f'socket {n}: offset {tbir_offset & ~DISC_TBIR_MASK:#x}'


def test_the_bar_is_the_window():
    with open(os.path.join(BRIDGE, 'resource')) as f:
        line = f.read().splitlines()[int(BARID)]
    start, end, flags = (int(word, 16) for word in line.split())
    assert start == PHYS, f'BAR {BARID} starts at {start:#x}, not {PHYS:#x}'
    assert end > start + SOCKETS * WINDOW_SLOT_SIZE, line
    assert flags & IORESOURCE_MEM, line


def test_driver_mapped_the_regions_in_the_bar():
    """/proc/iomem names each region the driver claimed by its device;
    with BARID they lie in the BAR at its start + the table's offset."""
    with open('/proc/iomem') as f:
        iomem = f.read()
    for n in range(SOCKETS):
        at = PHYS + n * WINDOW_SLOT_SIZE + WINDOW_MMIO_OFFSET
        assert f'{at:08x}-' in iomem, \
            f'socket {n}: no region claimed at {at:#x}:\n{iomem}'
