# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-shmem's window as a plain file, read and written as a guest's
driver reads and writes its RAM: one slot of SLOT_SIZE bytes per socket,
its registers WINDOW_MMIO_OFFSET bytes in."""
import struct

from sdsikit.layout import WINDOW_MMIO_OFFSET
from sdsikit.targets.kernel import SLOT_SIZE


def window_holds(window, sockets):
    """Whether the file WINDOW exists and is long enough for the slots of
    SOCKETS sockets (sdsi-shmem sizes it before it serves them)."""
    return window.exists() and window.stat().st_size >= sockets * SLOT_SIZE


def control(window, n):
    """The qword at the start of socket N's registers (the control
    register; IBLOCK and the mailbox bits live there)."""
    with open(window, 'rb') as f:
        f.seek(n * SLOT_SIZE + WINDOW_MMIO_OFFSET)
        return struct.unpack('<Q', f.read(8))[0]


def store(window, n, offset, value):
    """A driver's 64-bit store at OFFSET of socket N's registers."""
    with open(window, 'r+b') as f:
        f.seek(n * SLOT_SIZE + WINDOW_MMIO_OFFSET + offset)
        f.write(struct.pack('<Q', value))
