# SPDX-License-Identifier: GPL-2.0-only
"""Which errors a read may return while the platform is disturbed, and the
judgement of the readers' records against the disturbances (docs/soak.md).

Each rule comes from a documented behaviour:
  unbound (ctl unbind, man sdsi-emu): the attribute files go away, so an
      open fails ENOENT (or ENODEV when it raced the removal, as kernfs
      answers), and a handle opened before fails its read with ENODEV;
  a mailbox fault (ctl fault, docs/model.md "Faults"), on the certificate
      files only, which are the mailbox reads (registers and guid are
      not): oob-owner EBUSY; no-rdy and status-timeout ETIMEDOUT;
      status-failure EIO; bad-packet-size, no-eom, too-many-packets EPROTO;
      rdy-latency and owner-delay nothing at the small delays used here;
  power cycles, ctl advance and provisioning: nothing at all.
A read that fails outside every window that allows its errno, or succeeds
with malformed bytes (op "data"), is unexpected and fails the soak."""
import collections

MAILBOX_FILES = ('state_certificate', 'meter_certificate', 'meter_current')
FAULT_ERRNO = {
    'oob-owner': 'EBUSY', 'no-rdy': 'ETIMEDOUT', 'status-timeout': 'ETIMEDOUT',
    'status-failure': 'EIO', 'bad-packet-size': 'EPROTO', 'no-eom': 'EPROTO',
    'too-many-packets': 'EPROTO', 'rdy-latency': None, 'owner-delay': None,
}
# What a provisioning write gets while each fault is armed: the faults that
# act on every command; the others leave a write (no answer data) alone.
WRITE_FAULT_ERRNO = {'oob-owner': 'EBUSY', 'status-timeout': 'ETIMEDOUT',
                     'status-failure': 'EIO'}


def allowed(kind, attr, op):
    """The errnos a reader's op on attr may get during a window of kind."""
    if kind == 'unbound':
        return {'open': {'ENOENT', 'ENODEV'}, 'read': {'ENODEV'}}.get(op, set())
    if kind in FAULT_ERRNO:
        err = FAULT_ERRNO[kind]
        if err and attr in MAILBOX_FILES and op == 'read':
            return {err}
    return set()


class Window:
    def __init__(self, kind, socket, start):
        self.kind, self.socket, self.start, self.end = kind, socket, start, None


def load_records(path):
    """Lines 't0 t1 file op errno count' written by sdsi-soak-reader."""
    records = []
    with open(path) as f:
        for line in f:
            t0, t1, file, op, err, count = line.split()
            records.append((int(t0), int(t1), int(file), op, err, int(count)))
    return records


def judge(records, files, windows):
    """files: (socket, attr) per reader file index.  Returns (by_errno,
    unexpected): failures counted per (errno, window kind) that explain
    them, and the records no window explains."""
    by_socket = collections.defaultdict(list)
    for w in windows:
        by_socket[w.socket].append(w)
    by_errno = collections.Counter()
    unexpected = []
    for t0, t1, file, op, err, count in records:
        socket, attr = files[file]
        why = None
        for w in by_socket[socket]:
            end = w.end if w.end is not None else t1   # left open by a failure
            if w.start <= t1 and t0 <= end and err in allowed(w.kind, attr, op):
                why = w.kind
                break
        if why is None:
            unexpected.append((t0, t1, socket, attr, op, err, count))
        else:
            by_errno[(err, why)] += count
    return by_errno, unexpected


def describe_unexpected(rec, t_origin):
    t0, t1, socket, attr, op, err, count = rec
    what = 'malformed answer' if op == 'data' else err
    return (f'{count} x {op} of intel_vsec.sdsi.{socket}/{attr}: {what} at '
            f'{(t0 - t_origin) / 1e9:.3f}..{(t1 - t_origin) / 1e9:.3f} s')
