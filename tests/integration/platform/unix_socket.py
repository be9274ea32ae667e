# SPDX-License-Identifier: GPL-2.0-only
"""What the control-socket tests share of talking to a daemon's Unix
socket: reading an answer to its end.  The daemons close a connection
once they have answered it (or once it sat idle past its limit), so the
end of the answer is the end of the connection."""


def receive_until_closed(s):
    """Everything the server sends until it closes the connection (a
    reset counts as closing), with s's own timeout; closes s."""
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
