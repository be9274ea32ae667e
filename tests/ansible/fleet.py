# SPDX-License-Identifier: GPL-2.0-only
"""A fleet of test hosts for the Ansible collection: each host is a network
namespace with its own veth link and address, running its own ssh server
inside its own `sdsi-emu run` (so an ssh session on that host finds the
emulated platform at /sys/bus/auxiliary, as on a real machine).  Ansible
connects with the OpenSSH client, as it would to any server.

The server is Dropbear from Debian's dropbear-bin: that package is the
binaries alone, while installing openssh-server enables and starts an sshd
on the machine itself wherever an init system runs.  Nothing outside the
temporary directory changes: the host key is generated there; /run and
/root are tmpfs mounts inside the emulator's private mount namespace, the
latter holding the authorized_keys Dropbear reads from the user's home.
stop() ends every server and emulator this started, removes the namespaces
(and with them the veth links) and checks that no mount of theirs is left."""
import os
import shutil
import signal
import subprocess
import time

DROPBEAR = '/usr/sbin/dropbear'
RUN_NETNS = '/run/netns'
# On every host's PATH as ansible-core searches it (it adds the sbin
# directories to the remote PATH), and empty on Debian.
LOCAL_SBIN = '/usr/local/sbin'
# The 198.18.0.0/15 benchmarking range (RFC 2544): addresses that belong to
# no real network, one /30 per host: .1 on our side, .2 in the namespace.
NET = '198.18.%d.%d'


def run(*argv, check=True, **kw):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)
    if check and proc.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(argv), proc.returncode, proc.stderr))
    return proc


class Host:
    def __init__(self, fleet, index, ppins, features):
        self.index = index
        self.features = features
        self.name = 'node%d' % index
        self.ppins = ppins
        self.addr = NET % (index, 2)
        tag = '%d%d' % (fleet.tag, index)
        self.netns = 'sdsi-ans%s' % tag
        self.veth = 'sdsia%s' % tag      # at most 15 characters
        self.dir = os.path.join(fleet.dir, self.name)
        self.state = os.path.join(self.dir, 'nvram')
        self.caps = os.path.join(self.dir, 'caps')
        os.makedirs(self.caps)
        self.proc = None

    def start(self, fleet):
        run('ip', 'netns', 'add', self.netns)
        fleet.netns.append(self.netns)
        run('ip', 'link', 'add', self.veth, 'type', 'veth', 'peer', 'name', 'eth0',
            'netns', self.netns)
        run('ip', 'addr', 'add', NET % (self.index, 1) + '/30', 'dev', self.veth)
        run('ip', 'link', 'set', self.veth, 'up')
        run('ip', '-n', self.netns, 'addr', 'add', self.addr + '/30', 'dev', 'eth0')
        run('ip', '-n', self.netns, 'link', 'set', 'eth0', 'up')
        run('ip', '-n', self.netns, 'link', 'set', 'lo', 'up')
        # Inside the emulator's private mount namespace: a /run of its own
        # for the pid file, a home of its own for authorized_keys, the built
        # intel_sdsi in /usr/local/sbin (where a module finds it by name, as
        # an installed one, for playbooks that do not name an executable),
        # then the server: foreground, keys only, on this host's address.
        inner = ('mount -t tmpfs -o mode=0755,size=1m sdsi-test-run /run && '
                 'mount -t tmpfs -o mode=0700,size=1m sdsi-test-home /root && '
                 'mount -t tmpfs -o mode=0755,size=1m sdsi-test-bin %s && '
                 'ln -s %s %s/intel_sdsi && '
                 'mkdir -m 0700 /root/.ssh && cp %s /root/.ssh/authorized_keys && '
                 'exec %s -F -E -s -m -r %s -p %s:22 -P /run/dropbear.pid'
                 % (LOCAL_SBIN, fleet.tool, LOCAL_SBIN, fleet.authorized_keys, DROPBEAR,
                    fleet.host_key, self.addr))
        ppins = ','.join('%x' % p for p in self.ppins)
        log = open(os.path.join(self.dir, 'server.log'), 'w')
        self.proc = subprocess.Popen(
            ['ip', 'netns', 'exec', self.netns, fleet.emu, 'run',
             '--sockets', str(len(self.ppins)), '--ppin', ppins, '--features', self.features,
             '--authority', fleet.authority_dir, '--state', self.state,
             '--', '/bin/sh', '-c', inner],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()

    def wait_ready(self, deadline):
        """Until the server accepts logins (an ssh run that succeeds)."""
        while True:
            proc = subprocess.run(['ssh', *self.ssh_args, 'root@' + self.addr, 'true'],
                                  capture_output=True, text=True, timeout=60)
            if proc.returncode == 0:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                with open(os.path.join(self.dir, 'server.log')) as f:
                    log = f.read()
                raise RuntimeError('%s: the ssh server did not come up (exit %s): %s %s'
                                   % (self.name, self.proc.poll(), proc.stderr, log))
            time.sleep(0.2)

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        # sdsi-emu passes SIGTERM on to the server, then unmounts and exits.
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)


class Fleet:
    """layout: one list of socket PPINs per host; features: the --features of
    sdsi-emu for each host; tool: the intel_sdsi every host has on its PATH."""

    def __init__(self, workdir, emu, authority_dir, layout, features, tool):
        self.dir = workdir
        os.makedirs(workdir, exist_ok=True)
        self.emu = emu
        self.tool = tool
        self.authority_dir = authority_dir
        self.tag = os.getpid() % 1000
        self.netns = []
        self.key = os.path.join(workdir, 'id_ed25519')
        self.host_key = os.path.join(workdir, 'dropbear_ed25519_host_key')
        self.authorized_keys = os.path.join(workdir, 'authorized_keys')
        self.known_hosts = os.path.join(workdir, 'known_hosts')
        run('ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'sdsi-test', '-f', self.key)
        shutil.copy(self.key + '.pub', self.authorized_keys)
        run('dropbearkey', '-t', 'ed25519', '-f', self.host_key)
        pub = [line for line in run('dropbearkey', '-y', '-f', self.host_key).stdout.splitlines()
               if line.startswith('ssh-ed25519 ')][0]
        pub = ' '.join(pub.split()[:2])
        self.hosts = [Host(self, i, ppins, features[i]) for i, ppins in enumerate(layout)]
        with open(self.known_hosts, 'w') as f:
            f.writelines('%s %s\n' % (h.addr, pub) for h in self.hosts)
        self.ssh_args = ['-F', '/dev/null', '-i', self.key, '-o', 'IdentitiesOnly=yes',
                         '-o', 'UserKnownHostsFile=' + self.known_hosts,
                         '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes',
                         '-o', 'ConnectTimeout=10', '-o', 'ControlMaster=no']
        for h in self.hosts:
            h.ssh_args = self.ssh_args

    def start(self):
        # `ip netns add` makes /run/netns (a bind mount of itself) when it is
        # missing; stop() removes it again then, and only then.
        self.made_run_netns = not os.path.exists(RUN_NETNS)
        for h in self.hosts:
            h.start(self)
        deadline = time.monotonic() + 60
        for h in self.hosts:
            h.wait_ready(deadline)

    def stop(self):
        """Every process, namespace and mount of the fleet gone; errors raised after."""
        for h in self.hosts:
            h.stop()
        problems = []
        for ns in self.netns:
            proc = run('ip', 'netns', 'del', ns, check=False)
            if proc.returncode != 0:
                problems.append('ip netns del %s: %s' % (ns, proc.stderr.strip()))
        self.netns = []
        if getattr(self, 'made_run_netns', False) and not os.listdir(RUN_NETNS):
            run('umount', RUN_NETNS, check=False)
            os.rmdir(RUN_NETNS)
        with open('/proc/self/mountinfo') as f:
            left = [line for line in f if self.dir in line or 'sdsi-ans' in line]
        if left:
            problems.append('mounts left: %s' % left)
        if problems:
            raise RuntimeError('; '.join(problems))
