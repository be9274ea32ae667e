# SPDX-License-Identifier: GPL-2.0-only
"""Compare tests/sdsikit/layout.py with the C headers of include/sdsi/, as
printed by layout_constants (built by meson):

    check_layout.py LAYOUT_CONSTANTS LAYOUT_PY

Fails when a printed constant differs from the module's or is missing from
it, and when the module has an upper-case int or bytes constant that the C
side does not print (a copy nobody checks).  Exit 0 when they agree."""
import importlib.util
import subprocess
import sys


def c_constants(program):
    out = subprocess.run([program], check=True, capture_output=True,
                         text=True).stdout
    constants = {}
    for line in out.splitlines():
        name, kind, value = line.split()
        if name in constants:
            raise SystemExit(f'{program}: {name} printed twice')
        constants[name] = int(value) if kind == 'int' else bytes.fromhex(value)
    return constants


def module_constants(module):
    return {name: value for name, value in vars(module).items()
            if name.isupper() and not isinstance(value, bool)
            and isinstance(value, (int, bytes))}


def compare(c_side, py_side):
    problems = []
    for name, value in sorted(c_side.items()):
        if name not in py_side:
            problems.append(f'{name}: in include/sdsi ({value!r}), '
                            'missing from sdsi_layout.py')
        elif py_side[name] != value:
            problems.append(f'{name}: include/sdsi says {value!r}, '
                            f'sdsi_layout.py says {py_side[name]!r}')
    for name in sorted(set(py_side) - set(c_side)):
        problems.append(f'{name}: in sdsi_layout.py but not printed by '
                        'tests/layout/layout_constants.c (add it there)')
    return problems


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__)
    # The module is loaded from its file: it imports nothing of the kit.
    spec = importlib.util.spec_from_file_location('sdsikit_layout', argv[2])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    c_side = c_constants(argv[1])
    problems = compare(c_side, module_constants(module))
    for problem in problems:
        print(f'check_layout: {problem}', file=sys.stderr)
    if not problems:
        print(f'check_layout: {len(c_side)} constants agree')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
