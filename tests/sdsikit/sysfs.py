# SPDX-License-Identifier: GPL-2.0-only
"""The platform as the conformance suite sees it: its configuration (from
the environment) and each intel_vsec.sdsi.N directory, read and written with
plain system calls so that every errno reaches the test untouched."""
import errno
import os
import re
import struct

from sdsikit.layout import (FEATURES_KNOWN, GUID_V1, REGS_SIZE, REGS_ST_SIZE,
                         decode_registers, parse_features)

DEVICE_RE = re.compile(r'^intel_vsec\.sdsi\.(\d+)$')
ATTRIBUTES = ('guid', 'registers', 'state_certificate', 'meter_certificate',
              'meter_current', 'provision_akc', 'provision_cap')
MAILBOX_READS = ('state_certificate', 'meter_certificate', 'meter_current')
PROVISION_FILES = ('provision_akc', 'provision_cap')
MODES = {'guid': 0o444, 'registers': 0o400, 'state_certificate': 0o400,
         'meter_certificate': 0o400, 'meter_current': 0o400,
         'provision_akc': 0o200, 'provision_cap': 0o200}
ST_SIZES = {'guid': 4096, 'state_certificate': 4096,
            'meter_certificate': 4096, 'meter_current': 4096,
            'provision_akc': 1024, 'provision_cap': 1024}


def _env_int(name, default):
    value = os.environ.get(name)
    return default if value in (None, '') else int(value, 0)


class Context:
    """What the platform was started with: SDSI_ABI, SDSI_TARGET,
    SDSI_SYSFS_ROOT, and optionally SDSI_SOCKETS, SDSI_FEATURES (the
    --features value), SDSI_AKC_THRESHOLD, SDSI_CAP_THRESHOLD, SDSI_UPDATES."""

    def __init__(self):
        self.abi = os.environ.get('SDSI_ABI', 'current')
        if self.abi not in ('current', 'early'):
            raise ValueError(f'SDSI_ABI={self.abi}: expected current or early')
        self.target = os.environ.get('SDSI_TARGET', 'fuse')
        self.root = os.environ.get('SDSI_SYSFS_ROOT',
                                   '/sys/bus/auxiliary/devices')
        self.driver_dir = os.path.join(os.path.dirname(self.root), 'drivers',
                                       'intel_sdsi')
        self.sockets = _env_int('SDSI_SOCKETS', None)
        self.features = os.environ.get('SDSI_FEATURES', '')
        self.akc_threshold = _env_int('SDSI_AKC_THRESHOLD', 3)
        self.cap_threshold = _env_int('SDSI_CAP_THRESHOLD', 3)
        self.updates = _env_int('SDSI_UPDATES', 4)

    def device_names(self):
        try:
            names = os.listdir(self.root)
        except FileNotFoundError:
            return []
        found = [n for n in names if DEVICE_RE.match(n)]
        return sorted(found, key=lambda n: int(DEVICE_RE.match(n).group(1)))


class Socket:
    def __init__(self, ctx, name):
        self.ctx = ctx
        self.name = name
        self.n = int(DEVICE_RE.match(name).group(1))
        self.path = os.path.join(ctx.root, name)
        self.guid = int(self.read_text('guid'), 16)
        self.configured_features = parse_features(ctx.features, self.guid)
        self.refresh()

    def refresh(self):
        """Sample the features as the driver did at its last probe: from
        the qword at 0x10 of the very bytes it exposes as registers."""
        (value,) = struct.unpack_from('<Q', self.read('registers'), 0x10)
        self.features = value & FEATURES_KNOWN

    @property
    def layout_mismatch(self):
        """The early driver assumed the V1 layout for any GUID.  On a V2
        part its mailbox lands on control qword 1 and its registers file
        starts 8 bytes before the PPIN, so it reads the V2
        CONTENT_AUTH_ERROR_STATUS as ENABLED_FEATURES."""
        return self.ctx.abi == 'early' and self.guid != GUID_V1

    def file(self, attr):
        return os.path.join(self.path, attr)

    def exists(self, attr):
        return os.path.lexists(self.file(attr))

    def read_text(self, attr):
        with open(self.file(attr)) as f:
            return f.read()

    @property
    def on_demand(self):
        return bool(self.features & (1 << 3))

    @property
    def metering(self):
        return bool(self.features & (1 << 26))

    @property
    def regs_st_size(self):
        return REGS_ST_SIZE[self.ctx.abi]

    @property
    def regs_len(self):
        """Bytes a whole read returns: the current driver clamps to the
        GUID's layout; the early one knows only the 72-byte layout."""
        return REGS_SIZE[self.registers_guid]

    @property
    def registers_guid(self):
        """The layout the registers file follows under this ABI."""
        return self.guid if self.ctx.abi == 'current' else GUID_V1

    def read(self, attr, size=4096, offset=0):
        """One read() (pread() when offset is non-zero) on a fresh handle."""
        fd = os.open(self.file(attr), os.O_RDONLY)
        try:
            if offset:
                return os.pread(fd, size, offset)
            return os.read(fd, size)
        finally:
            os.close(fd)

    def write(self, attr, data):
        """One write() at offset 0 on a fresh handle; returns its count."""
        fd = os.open(self.file(attr), os.O_WRONLY)
        try:
            return os.write(fd, data)
        finally:
            os.close(fd)

    def registers(self):
        """The hardware's registers.  Under a layout mismatch only the first
        64 bytes of the V2 block are in the file; the socket ID is not."""
        data = self.read('registers')
        if self.layout_mismatch:
            regs = decode_registers(data[8:] + bytes(16), self.guid)
            regs.socket_id = regs.socket_id_tool = None
            return regs
        return decode_registers(data, self.registers_guid)

    def unbind(self):
        with open(os.path.join(self.path, 'driver', 'unbind'), 'w') as f:
            f.write(self.name + '\n')   # as `echo NAME > unbind` writes it

    def bind(self):
        with open(os.path.join(self.ctx.driver_dir, 'bind'), 'w') as f:
            f.write(self.name)

    def expected_files(self):
        """The attribute files this ABI shows for the configured features."""
        if self.ctx.abi == 'early':
            return {'guid', 'registers', 'state_certificate',
                    'provision_akc', 'provision_cap'}
        files = {'guid', 'registers'}
        if self.on_demand:
            files |= {'state_certificate', 'provision_akc', 'provision_cap'}
            if self.metering:
                files |= {'meter_certificate', 'meter_current'}
        return files


def errno_of(fn, *args):
    """The errno fn(*args) fails with, or None if it succeeds."""
    try:
        fn(*args)
    except OSError as e:
        return e.errno
    return None


def errname(code):
    return 'success' if code is None else errno.errorcode.get(code, str(code))
