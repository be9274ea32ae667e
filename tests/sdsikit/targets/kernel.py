# SPDX-License-Identifier: GPL-2.0-only
"""The kernel target: a real Linux intel_sdsi driver in a guest, bound to
devices of the sdsi_window test module, whose memory sdsi-shmem plays as
the hardware (from the host, through the guest's RAM file, in the rig).
Control requests go through the control page that follows the sockets'
slots in that memory (window/ctlpage.h), mapped from /dev/sdsi_window
($SDSI_WINDOW); rig/guest-run.sh sets the environment."""
import fcntl
import json
import mmap
import os
import struct
import threading
import time

from sdsikit.layout import (CTLPAGE_MAGIC, CTLPAGE_OFF_MAGIC, CTLPAGE_OFF_REPLY,
                         CTLPAGE_OFF_REPLY_TEXT, CTLPAGE_OFF_REQUEST,
                         CTLPAGE_OFF_REQUEST_TEXT, CTLPAGE_OFF_VERSION,
                         CTLPAGE_SIZE, CTLPAGE_TEXT, CTLPAGE_VERSION,
                         WINDOW_SLOT_SIZE)
from sdsikit.targets import FAULT_KINDS, NotSupported

# The window's layout (include/sdsi/window.h), under this module's names.
SLOT_SIZE = WINDOW_SLOT_SIZE
PAGE_SIZE = CTLPAGE_SIZE
REQUEST_SEQ, REPLY_SEQ = CTLPAGE_OFF_REQUEST, CTLPAGE_OFF_REPLY
REQUEST_TEXT, REPLY_TEXT = CTLPAGE_OFF_REQUEST_TEXT, CTLPAGE_OFF_REPLY_TEXT
TEXT_SIZE = CTLPAGE_TEXT


class ControlPage:
    """The client side of sdsi-shmem's control page, in a window of that
    many sockets that starts offset bytes into the file at path."""

    def __init__(self, path, sockets, offset=0):
        self.fd = os.open(path, os.O_RDWR)
        self.lock = threading.Lock()
        self.map = mmap.mmap(self.fd, PAGE_SIZE, mmap.MAP_SHARED,
                             mmap.PROT_READ | mmap.PROT_WRITE,
                             offset=offset + sockets * SLOT_SIZE)

    def _u32(self, off):
        return struct.unpack_from('<I', self.map, off)[0]

    def ready(self):
        return self._u32(CTLPAGE_OFF_MAGIC) == CTLPAGE_MAGIC and \
            self._u32(CTLPAGE_OFF_VERSION) == CTLPAGE_VERSION

    def wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline:
                raise RuntimeError('sdsi-shmem did not announce its control '
                                   f'page within {timeout} s')
            time.sleep(0.05)

    def request(self, line, timeout=30):
        text = line.encode()
        assert len(text) < TEXT_SIZE, line
        deadline = time.monotonic() + timeout
        # One request at a time: threads of this process, then processes.
        with self.lock:
            fcntl.flock(self.fd, fcntl.LOCK_EX)
            try:
                # Never write over a request still being served (one that
                # an earlier client gave up on): the server may be copying.
                self._wait_reply(self._u32(REQUEST_SEQ), line, deadline)
                self.map[REQUEST_TEXT:REQUEST_TEXT + len(text) + 1] = \
                    text + b'\0'
                seq = (self._u32(REQUEST_SEQ) + 1) & 0xFFFFFFFF
                # The text is in place before the counter announces it
                # (x86 keeps stores in order; the server reads the counter
                # first).
                struct.pack_into('<I', self.map, REQUEST_SEQ, seq)
                self._wait_reply(seq, line, deadline)
                reply = bytes(self.map[REPLY_TEXT:REPLY_TEXT + TEXT_SIZE])
                return reply.split(b'\0', 1)[0].decode()
            finally:
                fcntl.flock(self.fd, fcntl.LOCK_UN)

    def _wait_reply(self, seq, line, deadline):
        while self._u32(REPLY_SEQ) != seq:
            if not self.ready():
                raise RuntimeError(f'sdsi-shmem: {line!r}: the server '
                                   'withdrew its control page (it exited)')
            if time.monotonic() > deadline:
                raise RuntimeError(f'sdsi-shmem: {line!r}: no answer in '
                                   'time')
            time.sleep(0.0005)


class Target:
    def __init__(self):
        path = os.environ.get('SDSI_WINDOW')
        if not path:
            raise RuntimeError('SDSI_WINDOW is not set: the suite must run '
                               'in the kernel rig (rig/rig.sh)')
        self.page = ControlPage(path, int(os.environ.get('SDSI_SOCKETS',
                                                         '1')))

    def _request(self, *words):
        line = ' '.join(str(w) for w in words)
        reply = self.page.request(line)
        if reply != 'ok':
            raise RuntimeError(f'sdsi-shmem: {line!r}: {reply or "no answer"}')

    def power_cycle(self, n):
        self._request('power-cycle', n)

    def violations(self, n):
        # One socket's status line fits the page's 256-byte reply once no
        # fault is armed, as at the end of a run.
        reply = self.page.request(f'status {n}')
        try:
            return json.loads(reply)['protocol_violations']
        except (ValueError, KeyError) as e:
            raise RuntimeError(f'sdsi-shmem: status {n}: {reply!r}') from e

    def violation_report(self, n):
        # Longer than a page's reply once two are kept: the host's
        # shmem.log has them all (sdsi-shmem prints them at exit).
        return self.page.request(f'violations {n}')

    def fault(self, n, kind, count=None, param=None):
        assert kind in FAULT_KINDS, kind
        if kind == 'oob-owner' and count is not None:
            # The model counts every look at the free mailbox; the real
            # driver's looks are loads from memory that nobody sees.
            raise NotSupported('oob-owner with a count: the driver\'s reads '
                               'of the control register are invisible over '
                               'shared memory')
        self._request('fault', n, kind, count or 0, param or 0)

    def clear(self, n, kind=None):
        self._request('clear', n, *([kind] if kind else []))

    def fault_state(self, n, kind):
        raise NotSupported('sdsi-shmem answers its control page with ok or '
                           'an error, never with the state of a fault')

    def set_iblock(self, n, locked):
        self._request('iblock', n, 'on' if locked else 'off')

    def set_features(self, n, value):
        self._request('features', n, hex(value))

    def advance(self, n, seconds):
        raise NotSupported('sdsi-shmem keeps the model on the host\'s clock '
                           'and has no control request to move it')
