# SPDX-License-Identifier: GPL-2.0-only
"""Compare include/sdsi/sysfs_files.h, as printed by sysfs-files (built by
meson), with the documented ABI: the table of docs/interface.md section
9.2 (name, mode, st_size, mailbox command) and the conformance suite's own
expectations in tests/sdsikit/sysfs.py (names in listing order, modes,
st_sizes, and which files each driver generation shows for which
ENABLED_FEATURES bits, Socket.expected_files):

    check_sysfs_files.py SYSFS_FILES INTERFACE_MD TESTS_DIR

Exit 0 when they agree, 1 with one line per difference."""
import itertools
import re
import subprocess
import sys
import types


def doc_table(path):
    """{name: (mode, st_size, early st_size or None, command, ctrl)} of the
    table under '### 9.2'."""
    rows, inside = {}, False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('### '):
                inside = line.startswith('### 9.2 ')
                continue
            if not inside or not line.startswith('| ') or '---' in line:
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if cells[0] == 'file':
                continue
            size = re.fullmatch(r'(\d+)(?: \((\d+) early\))?', cells[2])
            command = re.search(r'\b0x([0-9a-f]+)\b', cells[3])
            bit = re.search(r'control bit (\d+)', cells[3])
            rows[cells[0]] = (int(cells[1], 8), int(size.group(1)),
                              int(size.group(2)) if size.group(2) else None,
                              int(command.group(1), 16) if command else 0,
                              1 << int(bit.group(1)) if bit else 0)
    return rows


def c_side(program, features):
    out = subprocess.run([program] + [hex(f) for f in features], check=True,
                         capture_output=True, text=True).stdout
    files, sizes, visible = [], {}, {}
    for line in out.splitlines():
        kind, rest = line.split(None, 1)
        if kind == 'file':
            name, mode, size, command, ctrl, needs, early = rest.split()
            files.append((name, int(mode, 8), int(size), int(command, 16),
                          int(ctrl, 16), int(needs, 16), int(early)))
        elif kind == 'size':
            abi, *values = rest.split()
            sizes[abi] = [int(v) for v in values]
        else:
            abi, feat, *shown = rest.split()
            visible[abi, int(feat, 16)] = {
                n: int(m, 8) for n, m in (s.split('=') for s in shown)}
    return files, sizes, visible


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    sys.path.insert(0, argv[3])
    from sdsikit import layout, sysfs

    bits = list(layout.FEATURE_BITS.values())
    combos = sorted({sum(c) for n in range(len(bits) + 1)
                     for c in itertools.combinations(bits, n)})
    files, sizes, visible = c_side(argv[1], combos)
    doc = doc_table(argv[2])
    problems = []

    def differ(what, c, other, where):
        if c != other:
            problems.append(f'{what}: include/sdsi/sysfs_files.h says {c!r}, '
                            f'{where} says {other!r}')

    names = [f[0] for f in files]
    differ('files in listing order', names, list(sysfs.ATTRIBUTES),
           'tests/sdsikit/sysfs.py ATTRIBUTES')
    differ('files', sorted(names), sorted(doc), 'docs/interface.md 9.2')
    modes = {f[0]: f[1] for f in files}
    for i, (name, mode, size, command, ctrl, needs, early) in enumerate(files):
        want_size = sysfs.ST_SIZES.get(name, layout.REGS_ST_SIZE['current'])
        differ(f'{name} mode', oct(mode), oct(sysfs.MODES.get(name, 0)),
               'tests/sdsikit/sysfs.py MODES')
        differ(f'{name} st_size', size, want_size, 'tests/sdsikit/sysfs.py')
        if name in doc:
            d_mode, d_size, d_early, d_command, d_ctrl = doc[name]
            differ(f'{name} mode', oct(mode), oct(d_mode), 'docs/interface.md 9.2')
            differ(f'{name} st_size', size, d_size, 'docs/interface.md 9.2')
            differ(f'{name} command', hex(command), hex(d_command),
                   'docs/interface.md 9.2')
            differ(f'{name} control bits', hex(ctrl), hex(d_ctrl),
                   'docs/interface.md 9.2')
            if d_early is not None:
                differ(f'{name} early st_size', sizes['early'][i], d_early,
                       'docs/interface.md 9.2')
        if name == 'registers':
            differ('registers early st_size', sizes['early'][i],
                   layout.REGS_ST_SIZE['early'], 'tests/sdsikit/layout.py')

    # The rule, against the conformance suite's: same files, their own modes.
    for (abi, features), shown in sorted(visible.items()):
        sock = sysfs.Socket.__new__(sysfs.Socket)
        sock.ctx = types.SimpleNamespace(abi=abi)
        sock.features = features
        want = {n: modes[n] for n in sock.expected_files()}
        differ(f'{abi} driver, features {features:#x}: files shown', shown,
               want, 'Socket.expected_files')

    for problem in problems:
        print(f'check_sysfs_files: {problem}', file=sys.stderr)
    if not problems:
        print(f'check_sysfs_files: {len(files)} files and {len(visible)} '
              'visibility cases agree')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
