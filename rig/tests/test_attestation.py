# SPDX-License-Identifier: GPL-2.0-only
"""The attestation transport of the driver under test, /dev/isdsiN
(docs/interface.md §2.10), run by rig/guest-run.sh after the suites and on
its own, since its outcome is the configuration's `attest=` word.

The requester is the tests' own (tests/sdsikit/spdm_requester.py, written
from DSP0274 1.0 with Python's cryptography and sharing no code with the
responder or the driver): it
completes the owner's flow through the ioctl, and every signature and the
chain are verified against the attestation-root.pem of the part's authority.
Our driver (SDSI_ATTEST_EXPECT=ok) must give every part with bit 12 its
node and none to the others; the upstream ones (none) have no transport at
all, and the transport's tests are deselected there; a user's driver (any)
is held to whichever it shows.  A part of the first generation has bit 12
clear, so the flow sets it (a BIOS setting, then a rebind) and restores it.
On success the flow writes "ok" to $SDSI_ATTEST_OUT, which guest-run.sh
reads.

Then the owner's own tool over the same transport: the built
`intel_sdsi --attest verify --trust ROOT --json` on each socket with a
node and with --all, its verdict checked against what sysfs reads, and a
root the owner did not trust refused with exit 10 (issue 28, section 4)."""
import errno
import fcntl
import hashlib
import os
import pathlib
import stat
import struct
import subprocess
import time

import pytest

from guest import (ATTEST_EXPECT, DRIVER, ROOT, SOCKETS, driver_sees_feature,
                   driver_sees_metering, transport_shown)
from guest import isdsi_nodes as nodes
from sdsikit import spdm_requester as spdm
from sdsikit import schemas
from sdsikit.isdsi_proxy import Libsdsi
from sdsikit.layout import (FEATURE_ATTESTATION, FEATURES_KNOWN, REG_FEATURES,
                            SPDM_COMMAND_HDR, SPDM_MESSAGE_MAX,
                            SPDM_REQUEST_MAX, SPDM_RESPONSE_MAX)

def ioc(direction, nr, size):
    """Linux's _IOC() on x86: direction 2 bits, size 14, type 8, number 8."""
    return direction << 30 | size << 16 | 0xFC << 8 | nr


# As Intel's header computes them: the size is a pointer's.
POINTER = struct.calcsize('P')
SPDM_INFO = ioc(2, 0, POINTER)          # _IOR(0xFC, 0, struct sdsi_spdm_info *)
SPDM_COMMAND = ioc(3, 1, POINTER)       # _IOWR(0xFC, 1, struct sdsi_spdm_command *)
INFO_FORMAT = '<IHHHH'
GET_VERSION = bytes([spdm.V10, 0x84, 0, 0])


def node(n):
    return f'/dev/isdsi{n}'


def wait_for(predicate, what, timeout=10):
    """devtmpfs makes and removes nodes from a kernel thread of its own."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f'{what} within {timeout} s')
        time.sleep(0.05)


def has_bit12(n):
    return driver_sees_feature(n, FEATURE_ATTESTATION)


class Ioctl:
    """/dev/isdsiN, open, with the ops the transcript's Requester uses."""

    def __init__(self, n):
        self.n = n
        self.fd = os.open(node(n), os.O_RDWR)

    def command(self, message, size=None):
        """SDSI_IF_SPDM_COMMAND: the answer's bytes, or OSError."""
        buf = bytearray(SPDM_COMMAND_HDR + SPDM_MESSAGE_MAX)
        struct.pack_into('<I', buf, 0, len(message) if size is None else size)
        buf[SPDM_COMMAND_HDR:SPDM_COMMAND_HDR + len(message)] = message
        fcntl.ioctl(self.fd, SPDM_COMMAND, buf, True)
        got, = struct.unpack_from('<I', buf)
        assert got <= SPDM_RESPONSE_MAX, got
        return bytes(buf[SPDM_COMMAND_HDR:SPDM_COMMAND_HDR + got])

    def exchange(self, req):
        rsp = self.command(req)
        assert rsp[0] == spdm.V10, rsp[:4]
        return rsp

    def info(self):
        buf = bytearray(struct.calcsize(INFO_FORMAT))
        fcntl.ioctl(self.fd, SPDM_INFO, buf, True)
        return struct.unpack(INFO_FORMAT, buf)

    def state_certificate(self):
        with open(f'{ROOT}/intel_vsec.sdsi.{self.n}/state_certificate', 'rb') as f:
            return f.read()

    def close(self):
        os.close(self.fd)


def rebind(n):
    name = f'intel_vsec.sdsi.{n}'
    with open(f'{ROOT}/{name}/driver/unbind', 'w') as f:
        f.write(name)
    with open(f'{DRIVER}/bind', 'w') as f:
        f.write(name)


def features_at_probe(n):
    with open(f'{ROOT}/intel_vsec.sdsi.{n}/registers', 'rb') as f:
        regs = f.read()
    return int.from_bytes(regs[REG_FEATURES:REG_FEATURES + 8], 'little')


@pytest.fixture
def attesting(target):
    """Socket 0 with bit 12 as the driver saw it at probe, and its node;
    a part without it gets it for the test, and its features back after."""
    n = 0
    original = None
    if not has_bit12(n):
        original = features_at_probe(n) & FEATURES_KNOWN
        target.set_features(n, original | FEATURE_ATTESTATION)
        rebind(n)
        assert has_bit12(n)
    wait_for(lambda: os.path.exists(node(n)), f'no {node(n)}')
    yield n
    if original is not None:
        target.set_features(n, original)
        rebind(n)
        wait_for(lambda: not os.path.exists(node(n)), f'{node(n)} stays')


@pytest.fixture
def dev(attesting):
    d = Ioctl(attesting)
    yield d
    d.close()


@pytest.fixture(scope='module')
def root_pem():
    """What the owner trusts: the root of the authority sdsi-shmem was
    started with (only read here, so not the conftest's authority, which
    sets up to issue licences)."""
    return (pathlib.Path(os.environ['SDSI_AUTHORITY']) /
            'attestation-root.pem').read_bytes()


def test_nodes_follow_bit12():
    """One node per part whose driver saw bit 12 at probe, none for the
    others; no node at all from a driver without the transport."""
    wait_for(lambda: all(os.path.exists(node(n)) == (transport_shown() and has_bit12(n))
                         for n in range(SOCKETS)),
             f'the nodes {nodes()} do not follow bit 12 (expect {ATTEST_EXPECT})')
    if not transport_shown():
        assert nodes() == []
    for name in nodes():
        assert int(name[len('/dev/isdsi'):]) < SOCKETS, name


@pytest.mark.transport
def test_node_is_roots_alone(attesting):
    st = os.stat(node(attesting))
    assert stat.S_ISCHR(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == 0o600
    assert (st.st_uid, st.st_gid) == (0, 0)


@pytest.mark.transport
def test_info(dev):
    api, version, dev_no, max_req, max_rsp = dev.info()
    with open(f'{ROOT}/intel_vsec.sdsi.{dev.n}/guid') as f:
        assert api == int(f.read(), 16)
    assert (version, dev_no, max_req, max_rsp) == \
        (1, dev.n, SPDM_REQUEST_MAX, SPDM_RESPONSE_MAX)


@pytest.mark.transport
def test_flow_verifies_against_the_attestation_root(dev, root_pem):
    """The owner's flow: VCA, DIGESTS, the chain, CHALLENGE, signed
    MEASUREMENTS, each signature over the requester's own transcript and
    the chain to the authority's root; measurement 1 is the state
    certificate as the driver reads it."""
    req, key, meas = spdm.full_flow(dev, root_pem)
    assert meas[1] == (2, hashlib.sha384(dev.state_certificate()).digest())
    _, m1, sig = req.challenge(0)
    spdm.verify(key, m1, sig)
    out = os.environ.get('SDSI_ATTEST_OUT')
    if out:
        pathlib.Path(out).write_text('ok\n')


@pytest.mark.transport
def test_request_bounds(dev):
    """1008 bytes is the most the mailbox carries: it goes through and the
    responder answers (an ERROR, for a GET_VERSION that long); 1009 is
    EOVERFLOW before the mailbox, as is any size the structure's 4096 bytes
    would hold; 0 is EINVAL."""
    rsp = dev.command(GET_VERSION + bytes(SPDM_REQUEST_MAX - len(GET_VERSION)))
    assert rsp[0] == spdm.V10
    for size in (SPDM_REQUEST_MAX + 1, SPDM_MESSAGE_MAX, 0xFFFFFFFF):
        with pytest.raises(OSError) as e:
            dev.command(bytes(SPDM_REQUEST_MAX + 1), size=size)
        assert e.value.errno == errno.EOVERFLOW, size
    with pytest.raises(OSError) as e:
        dev.command(b'', size=0)
    assert e.value.errno == errno.EINVAL
    # The mailbox is still in order: a plain GET_VERSION is answered.
    assert dev.exchange(GET_VERSION)[1] == 0x04


@pytest.mark.transport
def test_other_numbers_are_not_ours(dev):
    """Same magic and numbers, other sizes or directions (a structure's
    size where Intel's header puts a pointer's), and number 2: ENOTTY."""
    for cmd in (ioc(2, 0, struct.calcsize(INFO_FORMAT)),
                ioc(3, 1, SPDM_COMMAND_HDR + SPDM_MESSAGE_MAX),
                ioc(1, 1, POINTER), ioc(3, 2, POINTER)):
        with pytest.raises(OSError) as e:
            fcntl.ioctl(dev.fd, cmd, bytearray(SPDM_COMMAND_HDR + SPDM_MESSAGE_MAX), True)
        assert e.value.errno == errno.ENOTTY, hex(cmd)


@pytest.mark.transport
def test_libsdsi_speaks_through_the_ioctl(attesting):
    """sdsi_spdm_transact() finds the character device and uses the ioctl:
    its answer is the responder's VERSION."""
    lib = Libsdsi(os.path.join(os.environ['SDSI_BUILD'], 'lib', 'libsdsi.so.1'),
                  attesting)
    ret, rsp = lib.transact(GET_VERSION)
    assert ret == 0, rsp
    assert rsp[:2] == bytes([spdm.V10, 0x04])
    ret, message = lib.transact(bytes(SPDM_REQUEST_MAX + 1))
    assert ret != 0 and b'1008' in message


@pytest.mark.transport
def test_an_open_file_outlives_the_binding(attesting):
    """Unbind removes the node; a file still open then answers ENODEV and
    never reaches the registers, and closing it after is harmless.  The
    rebound driver's node works."""
    n = attesting
    held = Ioctl(n)
    name = f'intel_vsec.sdsi.{n}'
    with open(f'{ROOT}/{name}/driver/unbind', 'w') as f:
        f.write(name)
    try:
        wait_for(lambda: not os.path.exists(node(n)), f'{node(n)} stays after unbind')
        with pytest.raises(OSError) as e:
            held.command(GET_VERSION)
        assert e.value.errno == errno.ENODEV
    finally:
        with open(f'{DRIVER}/bind', 'w') as f:
            f.write(name)
        held.close()
    wait_for(lambda: os.path.exists(node(n)), f'no {node(n)} after bind')
    again = Ioctl(n)
    assert again.exchange(GET_VERSION)[1] == 0x04
    again.close()


# Mailbox failures armed in the silicon, and what the sysfs files answer
# for them (tests/integration/conformance/test_faults.py).
MAILBOX_FAULTS = (
    ('oob-owner', errno.EBUSY),
    ('no-rdy', errno.ETIMEDOUT),
    ('status-failure', errno.EIO),
    ('bad-packet-size', errno.EPROTO),
)


@pytest.mark.transport
@pytest.mark.parametrize('kind,code', MAILBOX_FAULTS, ids=[k for k, _ in MAILBOX_FAULTS])
def test_mailbox_errors_are_the_sysfs_files(target, dev, kind, code):
    """A fault in the mailbox fails the exchange with the errno a
    state_certificate read gets from the same fault; cleared, both work."""
    target.fault(dev.n, kind)
    try:
        with pytest.raises(OSError) as e:
            dev.state_certificate()
        assert e.value.errno == code, kind
        with pytest.raises(OSError) as e:
            dev.command(GET_VERSION)
        assert e.value.errno == code, kind
    finally:
        target.clear(dev.n, kind)
    assert dev.exchange(GET_VERSION)[1] == 0x04
    dev.state_certificate()


# ---- intel_sdsi --attest verify, the owner's tool, through the ioctl -------

# Exit statuses of docs/exit-codes.md: the part failed attestation; no
# attestation transport on that socket.
NOT_ATTESTED, NO_DEVICE = 10, 3
CHECKS = ('version', 'capabilities', 'algorithms', 'digest', 'chain', 'trust',
          'root-hash', 'slot-digest', 'challenge-signature', 'challenge-nonce',
          'challenge-chain-hash', 'measurement-signature', 'measurement-state',
          'measurement-meter')


@pytest.fixture(scope='module')
def authority_root():
    """The attestation-root.pem of the authority that issued the parts,
    where the owner keeps a trust anchor: a file given with --trust."""
    return str(pathlib.Path(os.environ['SDSI_AUTHORITY']) / 'attestation-root.pem')


@pytest.fixture(scope='module')
def other_root(tmp_path_factory):
    """A root the parts' authority never signed with: another authority's."""
    directory = tmp_path_factory.mktemp('other') / 'authority'
    program = os.path.join(os.environ['SDSI_BUILD'], 'tools', 'sdsi-authority',
                           'sdsi-authority')
    subprocess.run([program, 'init', str(directory)], check=True,
                   capture_output=True, timeout=120)
    return str(directory / 'attestation-root.pem')


def sysfs_sha384(n, name):
    with open(f'{ROOT}/intel_vsec.sdsi.{n}/{name}', 'rb') as f:
        return hashlib.sha384(f.read()).hexdigest()


def attest_verify(tool, trust, *where, expect):
    """intel_sdsi WHERE --attest verify --trust TRUST --json: its exit
    status must be EXPECT; the document, validated by its schema."""
    done = tool(*where, '--attest', 'verify', '--trust', trust, '--json')
    assert done.returncode == expect, (where, done.returncode, done.stderr)
    return schemas.check('all.json' if '--all' in where else 'attestation.json',
                         done.stdout)


def assert_attested(n, d, trust):
    """A verdict of socket N that every check passed, measured what the
    driver reads through sysfs and was rooted in TRUST's certificate."""
    assert d['device'] == f'intel_vsec.sdsi.{n}', d
    assert d['attested'] is True and d['failed_check'] is None, d
    assert d['trust'] == trust
    metering = driver_sees_metering(n)
    results = {c['name']: c['result'] for c in d['checks']}
    assert results == {name: 'not-run' if name == 'measurement-meter' and not metering
                       else 'ok' for name in CHECKS}, d['checks']
    measured = {m['index']: m['value'] for m in d['measurements']}
    assert measured[1] == sysfs_sha384(n, 'state_certificate'), d['measurements']
    if metering:
        assert measured[2] == sysfs_sha384(n, 'meter_certificate'), d['measurements']
    assert d['anchor'] == d['certificates'][0]['subject']


@pytest.mark.transport
def test_intel_sdsi_verifies_each_part_through_the_ioctl(attesting, tool, authority_root):
    """The built intel_sdsi, as an owner runs it, on every socket whose
    driver gives it /dev/isdsiN (about a second each under TCG): exit 0,
    every check passed, and measurement 1 is the SHA-384 of the state
    certificate the driver reads."""
    with_node = [n for n in range(SOCKETS) if os.path.exists(node(n))]
    assert attesting in with_node
    for n in with_node:
        assert_attested(n, attest_verify(tool, authority_root, '-d', n, expect=0),
                        authority_root)


@pytest.mark.transport
def test_intel_sdsi_all_gives_each_socket_its_verdict(attesting, tool, authority_root):
    """--all: one document per socket, in device order; every socket whose
    driver gives it /dev/isdsiN is attested; one without bit
    12 (a first-generation part) cannot run (ENODEV, exit 3) and has no
    verdict."""
    with_node = [n for n in range(SOCKETS) if os.path.exists(node(n))]
    assert attesting in with_node
    everywhere = len(with_node) == SOCKETS
    d = attest_verify(tool, authority_root, '--all',
                      expect=0 if everywhere else NO_DEVICE)
    results = d['results']
    assert [r['device'] for r in results] == \
        [f'intel_vsec.sdsi.{n}' for n in range(SOCKETS)]
    for n, r in enumerate(results):
        if n in with_node:
            assert_attested(n, r, authority_root)
        else:
            assert r['error']['name'] == 'ENODEV', r


@pytest.mark.transport
def test_intel_sdsi_refuses_a_root_the_owner_did_not_trust(attesting, tool, other_root):
    """Another authority's root: the chain leads to none the owner gave,
    so the part fails attestation (exit 10) at the trust check."""
    d = attest_verify(tool, other_root, '-d', attesting, expect=NOT_ATTESTED)
    assert d['attested'] is False and d['failed_check'] == 'trust', d
    assert {c['name']: c['result'] for c in d['checks']}['trust'] == 'failed'
    assert d['anchor'] is None
