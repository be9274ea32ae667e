# SPDX-License-Identifier: GPL-2.0-only
"""Started inside `sdsi-emu run` as `python3 -m sdsikit.isdsi_proxy N`: the
emulation's attestation transport /dev/isdsiN, driven from the test's side
of the namespace over stdin and stdout, so that a requester running in
pytest speaks SPDM through the file as any program inside would.

Each request on stdin: one op byte, a little-endian u32 length, that many
bytes.  Each reply on stdout: an i32 (a count, 0 or -errno) and a u32
length, then that many bytes.  Ops:
    X   one transaction on the open file: write a struct sdsi_spdm_command
        holding the bytes, read the answer; replies its message
    W   write the bytes as they are; replies the count written
    R   read (the bytes: a u32 size); replies the bytes read
    Z   pread of 4100 bytes at offset 0; replies the bytes read
    O   close the file and open it again
    S   the state certificate as a read returns it; M the meter certificate
    F   `sdsi-emu ctl fault N ARGS` (the bytes: space-separated ARGS);
        C   `sdsi-emu ctl clear N`; P `sdsi-emu ctl power-cycle N`; K
        `sdsi-emu ctl ARGS`: the exit status
    L   the names of /dev/isdsi*, newline-separated
    T   the mode of /dev/isdsiN (st_mode)
    E   whether the path in the bytes exists (1 or 0)
    Y   libsdsi's sdsi_spdm_transact() on device N (the bytes: a u32
        answer capacity, then the request); replies the answer, or on
        failure the error's message
With `--libsdsi PATH` (the library to load), X goes through
sdsi_spdm_transact() too, as every program above libsdsi does."""
import ctypes
import glob
import os
import struct
import subprocess
import sys

from sdsikit.layout import SPDM_COMMAND_HDR as COMMAND_HDR
from sdsikit.layout import SPDM_MESSAGE_MAX, SPDM_RESPONSE_MAX

COMMAND_SIZE = COMMAND_HDR + SPDM_MESSAGE_MAX    # struct sdsi_spdm_command


def ctl(*args):
    done = subprocess.run([os.environ['SDSI_EMU'], 'ctl', *args],
                          capture_output=True, timeout=60)
    if done.returncode:
        sys.stderr.write(done.stderr.decode())
    return done.returncode


def read_all(path):
    with open(path, 'rb') as f:
        return f.read()


class Libsdsi:
    """sdsi_spdm_transact() on intel_vsec.sdsi.N, through ctypes."""

    def __init__(self, path, n):
        self.lib = ctypes.CDLL(path)
        self.lib.sdsi_error_new.restype = ctypes.c_void_p
        self.lib.sdsi_error_message.restype = ctypes.c_char_p
        self.lib.sdsi_error_message.argtypes = [ctypes.c_void_p]
        self.lib.sdsi_device_open.argtypes = [
            ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_void_p]
        self.lib.sdsi_spdm_transact.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
            ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
        self.err = self.lib.sdsi_error_new()
        self.dev = ctypes.c_void_p()
        ret = self.lib.sdsi_device_open(None, str(n).encode(),
                                        ctypes.byref(self.dev), self.err)
        if ret:
            raise SystemExit(self.message())

    def message(self):
        return self.lib.sdsi_error_message(self.err).decode()

    def transact(self, req, cap=SPDM_RESPONSE_MAX):
        rsp = ctypes.create_string_buffer(max(cap, 1))
        got = ctypes.c_size_t(12345)
        ret = self.lib.sdsi_spdm_transact(self.dev, req, len(req), rsp, cap,
                                          ctypes.byref(got), self.err)
        if ret:
            return ret, self.message().encode()
        return 0, rsp.raw[:got.value]


class Proxy:
    def __init__(self, n, libsdsi=None):
        self.n = n
        self.path = f'/dev/isdsi{n}'
        self.fd = None
        self.libsdsi = Libsdsi(libsdsi, n) if libsdsi else None

    def file(self):
        if self.fd is None:
            self.fd = os.open(self.path, os.O_RDWR)
        return self.fd

    def op(self, code, data):
        dev = f'/sys/bus/auxiliary/devices/intel_vsec.sdsi.{self.n}'
        if code == b'X' and self.libsdsi:
            return self.libsdsi.transact(data)
        if code == b'Y':
            return self.libsdsi.transact(data[4:], struct.unpack_from('<I', data)[0])
        if code == b'X':
            fd = self.file()
            os.write(fd, struct.pack('<I', len(data)) + data)
            answer = os.read(fd, COMMAND_SIZE)
            size, = struct.unpack_from('<I', answer)
            assert size == len(answer) - COMMAND_HDR, (size, len(answer))
            return 0, answer[COMMAND_HDR:]
        if code == b'W':
            return os.write(self.file(), data), b''
        if code == b'R':
            out = os.read(self.file(), struct.unpack('<I', data)[0])
            return len(out), out
        if code == b'Z':
            out = os.pread(self.file(), COMMAND_SIZE, 0)
            return len(out), out
        if code == b'O':
            if self.fd is not None:
                os.close(self.fd)
            self.fd = None
            self.file()
            return 0, b''
        if code == b'S':
            return 0, read_all(f'{dev}/state_certificate')
        if code == b'M':
            return 0, read_all(f'{dev}/meter_certificate')
        if code == b'F':
            return ctl('fault', str(self.n), *data.decode().split()), b''
        if code == b'K':
            return ctl(*data.decode().split()), b''
        if code == b'C':
            return ctl('clear', str(self.n)), b''
        if code == b'P':
            return ctl('power-cycle', str(self.n)), b''
        if code == b'L':
            names = sorted(os.path.basename(p) for p in glob.glob('/dev/isdsi*'))
            return 0, '\n'.join(names).encode()
        if code == b'T':
            return os.stat(self.path).st_mode, b''
        if code == b'E':
            return int(os.path.lexists(data.decode())), b''
        raise SystemExit(f'isdsi_proxy: unknown op {code!r}')


def main():
    args = sys.argv[1:]
    libsdsi = None
    if args[0] == '--libsdsi':
        libsdsi, args = args[1], args[2:]
    proxy = Proxy(int(args[0]), libsdsi)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            return 0
        code, size = head[:1], struct.unpack('<I', head[1:])[0]
        data = stdin.read(size)
        try:
            ret, out = proxy.op(code, data)
        except OSError as e:
            ret, out = -e.errno, b''
        stdout.write(struct.pack('<iI', ret, len(out)) + out)
        stdout.flush()


if __name__ == '__main__':
    sys.exit(main())
