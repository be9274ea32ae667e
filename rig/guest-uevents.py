#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The guest's stand-in for udev's module loading: the kernel announces
each new device on the uevent netlink socket with its MODALIAS, and udev's
rule for it (80-drivers.rules: kmod load $env{MODALIAS}) asks modprobe for
the modules whose aliases match.  This does that and nothing else; the
rig's guest has no udev (the Debian kernels lack CONFIG_UEVENT_HELPER, and
the host need not have udev installed).  Every add event with a MODALIAS
is logged with modprobe's outcome.
  guest-uevents.py LOG READY_FILE"""
import os
import socket
import subprocess
import sys

NETLINK_KOBJECT_UEVENT = 15
KERNEL_GROUP = 1


def events(sock):
    """The kernel's messages: "ACTION@DEVPATH" then NUL-separated KEY=VALUE
    lines (udevd's own rebroadcasts, "libudev" first, are not for us)."""
    while True:
        data = sock.recv(65536)
        fields = data.split(b'\0')
        if fields[0].startswith(b'libudev'):
            continue
        env = {}
        for field in fields[1:]:
            key, sep, value = field.partition(b'=')
            if sep:
                env[key.decode()] = value.decode(errors='replace')
        yield env


def main():
    log_path, ready = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM,
                         NETLINK_KOBJECT_UEVENT)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    sock.bind((os.getpid(), KERNEL_GROUP))
    with open(ready, 'w'):
        pass
    with open(log_path, 'a', buffering=1) as log:
        for env in events(sock):
            alias = env.get('MODALIAS')
            if env.get('ACTION') != 'add' or not alias:
                continue
            # -b: honour blacklists, as udev's kmod builtin does.
            run = subprocess.run(['modprobe', '-b', '-q', alias],
                                 capture_output=True, text=True)
            log.write(f"add {env.get('DEVPATH')} {alias}: modprobe "
                      f"exit {run.returncode} {run.stderr.strip()}\n")


if __name__ == '__main__':
    main()
