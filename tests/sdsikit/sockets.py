# SPDX-License-Identifier: GPL-2.0-only
"""Talking to a daemon's Unix control socket (sdsi-emu's and sdsi-shmem's
--ctl) as the control-socket tests do: connecting with a deadline, sending
a request, reading an answer to its end.  The daemons close a connection
once they have answered it (or once it sat idle past its limit), so the
end of the answer is the end of the connection."""
import socket


def connect(path, send=b'', timeout=30):
    """A connection to the socket at PATH that gives up on a step after
    TIMEOUT seconds, with SEND (bytes, possibly half a request) sent."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(str(path))
    if send:
        s.sendall(send)
    return s


def receive_until_closed(s, timeout=None):
    """Everything the server sends until it closes the connection (a
    reset counts as closing), with s's own timeout unless TIMEOUT is
    given; closes s."""
    if timeout is not None:
        s.settimeout(timeout)
    data = b''
    while True:
        try:
            chunk = s.recv(4096)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    s.close()
    return data


def request(path, line, timeout=30):
    """The whole answer (bytes) to one request LINE (no newline)."""
    return receive_until_closed(connect(path, line.encode() + b'\n', timeout))
