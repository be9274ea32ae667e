# SPDX-License-Identifier: GPL-2.0-only
"""The pieces of the licensing tests: the built programs, an authority
directory made by `sdsi-authority`, and an emulated platform served by
`sdsi-emu mount` that the tests drive through its sysfs files, through
`intel_sdsi` and through `sdsi-emu ctl`.

Everything the tests assert about the silicon is read back from the raw
sysfs files and decoded by the conformance suite's decoders (written from
docs/interface.md), so a bug in intel_sdsi's decoders cannot hide a
bug in the model, and the reverse."""
import errno
import hashlib
import json
import os
import signal
import subprocess
import time

import sdsikit.layout as sdsi_layout
from sdsikit.violations import assert_protocol_kept


# The AKC and CAP (docs/formats.md sections 2 and 3) as laid out in
# include/sdsi/license_blob.h, under this module's names.
AKC_SIZE = sdsi_layout.AKC_SIZE
AKC_KEY_OFFSET = sdsi_layout.AKC_KEY_OFFSET
AKC_KEY_SIZE = sdsi_layout.LICENSE_PUBKEY_SIZE
CAP_BLOB_OFFSET = sdsi_layout.CAP_BLOB_OFFSET
SIGNATURE_SIZE = sdsi_layout.LICENSE_SIG_SIZE
LICENSE_ONE_TIME = sdsi_layout.BLOB_TYPE_ONE_TIME
LICENSE_METERED = sdsi_layout.BLOB_TYPE_METERED


def cap_size(bundles):
    return (CAP_BLOB_OFFSET + sdsi_layout.BLOB_HEADER_SIZE +
            sdsi_layout.BUNDLE_SIZE * bundles + SIGNATURE_SIZE)


def key_image(akc):
    """License Key Image: SHA-384 of the licensor key X||Y in the AKC."""
    assert len(akc) == AKC_SIZE, f'AKC of {len(akc)} bytes'
    return hashlib.sha384(akc[AKC_KEY_OFFSET:AKC_KEY_OFFSET +
                              AKC_KEY_SIZE]).digest()


def cap_blob(cap):
    """The licence blob a CAP carries: what the state certificate stores
    (docs/formats.md section 5), header and signature stripped."""
    return cap[CAP_BLOB_OFFSET:len(cap) - SIGNATURE_SIZE]


class Programs:
    """The binaries under test: $SDSI_EMU, and intel_sdsi and
    sdsi-authority from $SDSI_BUILD (scripts/run-integration.sh sets
    both)."""

    def __init__(self):
        build = os.environ.get('SDSI_BUILD', '')
        emu = os.environ.get('SDSI_EMU') or os.path.join(build,
                                                         'emu/sdsi-emu')
        self.emu = os.path.abspath(emu)
        self.tool = os.path.abspath(os.path.join(build, 'tools/intel_sdsi'))
        self.authority = os.path.abspath(os.path.join(
            build, 'tools/sdsi-authority/sdsi-authority'))

    def missing(self):
        return [p for p in (self.emu, self.tool, self.authority)
                if not os.access(p, os.X_OK)]


def run(argv, timeout=60, check=True):
    done = subprocess.run(argv, capture_output=True, text=True,
                          timeout=timeout)
    if check:
        assert done.returncode == 0, (f'{" ".join(argv)}: exit '
                                      f'{done.returncode}\n{done.stderr}')
    return done


class Issued:
    """A file the authority wrote: its path and its bytes."""

    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.data = f.read()

    def tampered(self, name, data):
        """Another file beside this one holding data."""
        path = f'{self.path}.{name}'
        with open(path, 'wb') as f:
            f.write(data)
        return Issued(path)


class Authority:
    """A root key and a licensor key in DIR (`sdsi-authority init`), and
    the AKCs and CAPs it issues (Issued)."""

    def __init__(self, programs, path, create=True):
        self.bin = programs.authority
        self.dir = str(path)
        self.files = path.parent / (path.name + '-issued')
        self.files.mkdir()
        self.issued = 0
        if create:
            run([self.bin, 'init', self.dir])

    @classmethod
    def existing(cls, programs, path):
        """An authority whose key files are already in path."""
        return cls(programs, path, create=False)

    def _out(self, kind):
        self.issued += 1
        return str(self.files / f'{kind}{self.issued}.bin')

    def akc(self, key_rev=1):
        out = self._out('akc')
        run([self.bin, 'akc', self.dir, '-o', out, '--key-rev', str(key_rev)])
        return Issued(out)

    def cap(self, ppin, features=('CC02',), kind='one-time', license_id=None,
            revision=1):
        out = self._out('cap')
        argv = [self.bin, 'cap', self.dir, '--ppin', f'{ppin:x}', '-o', out,
                '--type', kind, '--revision', str(revision)]
        for code in features:
            argv += ['--feature', code]
        if license_id is not None:
            argv += ['--id', f'{license_id:x}']
        run(argv)
        return Issued(out)


class Platform:
    """`sdsi-emu mount OPTS MNT` running in the background.  Use as a
    context manager or call stop(); a test that fails leaves nothing
    mounted."""

    def __init__(self, programs, mnt, opts):
        self.p = programs
        self.mnt = str(mnt)
        self.devices = os.path.join(self.mnt, 'devices')
        os.makedirs(self.mnt, exist_ok=True)
        # Bounds the powered-up time the model counted on its own.
        self.up = Stopwatch()
        self.stderr = None
        self.proc = subprocess.Popen([programs.emu, 'mount', *opts, self.mnt],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if 'control socket ' not in line:
            self.proc.wait(timeout=20)
            raise AssertionError(f'sdsi-emu mount {" ".join(opts)}: exit '
                                 f'{self.proc.returncode}, '
                                 f'{self.proc.stderr.read()}')
        self.ctl_path = line.rsplit('control socket ', 1)[1].strip()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        """Stops the emulator (once); its exit status.  What it printed on
        stderr is kept in self.stderr."""
        if self.stderr is not None:
            return self.proc.returncode
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, self.stderr = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, self.stderr = self.proc.communicate()
        if os.path.ismount(self.mnt):
            subprocess.run(['fusermount3', '-uz', self.mnt])
        return self.proc.returncode

    def assert_protocol_kept(self):
        """While it runs: no socket counted a mailbox protocol violation
        (sdsikit.violations); a platform already stopped is not asked."""
        if self.stderr is None and self.proc.poll() is None:
            assert_protocol_kept(self.p.emu, '--ctl', self.ctl_path)

    def assert_clean_exit(self):
        """The emulator stopped by stop() exited 0 and reported no
        sanitizer error."""
        rc = self.stop()
        assert rc == 0 and 'Sanitizer' not in self.stderr and \
            'runtime error' not in self.stderr, \
            f'sdsi-emu mount: exit {rc}\n{self.stderr}'

    def path(self, n, attr):
        return os.path.join(self.devices, f'intel_vsec.sdsi.{n}', attr)

    # --- the sysfs files, raw --------------------------------------------

    def read(self, n, attr):
        fd = os.open(self.path(n, attr), os.O_RDONLY)
        try:
            return os.read(fd, sdsi_layout.STATE_CERT_MAX)
        finally:
            os.close(fd)

    def write(self, n, attr, data):
        """One write(2) of data, as the tool does; 'ok' or the errno name.
        This bypasses every pre-flight check of intel_sdsi."""
        fd = os.open(self.path(n, attr), os.O_WRONLY)
        try:
            written = os.write(fd, data)
            assert written == len(data), f'short write {written}'
            return 'ok'
        except OSError as e:
            return errno.errorcode[e.errno]
        finally:
            os.close(fd)

    def regs(self, n):
        with open(self.path(n, 'guid')) as f:
            guid = int(f.read(), 16)
        return sdsi_layout.decode_registers(self.read(n, 'registers'), guid)

    def state(self, n):
        return sdsi_layout.decode_state_certificate(
            self.read(n, 'state_certificate'))

    def meter(self, n, current=False):
        return sdsi_layout.decode_meter_certificate(
            self.read(n, 'meter_current' if current else 'meter_certificate'))

    def ppin(self, n):
        return self.regs(n).ppin

    # --- the programs --------------------------------------------------------

    def tool(self, *args):
        return run([self.p.tool, '--sysfs-root', self.devices, *args],
                   check=False)

    def tool_json(self, *args):
        done = self.tool(*args, '--json')
        assert done.returncode == 0, (args, done.returncode, done.stdout,
                                      done.stderr)
        return json.loads(done.stdout)

    def ctl(self, *args):
        return run([self.p.emu, 'ctl', '--ctl', self.ctl_path,
                    *map(str, args)])

    def power_cycle(self, n='all'):
        self.ctl('power-cycle', n)

    def advance(self, seconds, n='all'):
        self.ctl('advance', n, seconds)


def auth_error(regs):
    return bool(regs.auth_err & sdsi_layout.AUTH_ERR_CONTENT)


def licenses(data):
    """(valid, blob bytes) of every licence of a raw state certificate."""
    cert = sdsi_layout.decode_state_certificate(data)
    off = (sdsi_layout.STATE_HEADER_SIZE + 4 * cert.num_licenses +
           sdsi_layout.STATE_KEY_INFO_SIZE)
    out = []
    for size, valid in cert.blob_sizes:
        out.append((valid, data[off:off + size]))
        off += size
    return out


class Stopwatch:
    """Wall-clock seconds since creation, rounded up: the most model time
    that can have passed beside what the tests advance explicitly."""

    def __init__(self):
        self.start = time.monotonic()

    def seconds(self):
        return int(time.monotonic() - self.start) + 1
