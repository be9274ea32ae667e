# SPDX-License-Identifier: GPL-2.0-only
"""docs/testing.md's "Test seams" table and the sources agree: every
function whose comment begins "test seam:" is in the table, and every
function the table names is declared under such a comment in the header
the table gives, so that the list can neither miss a seam nor keep one
that is gone."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCT = ('cli', 'drivers', 'emu', 'include', 'lib', 'licensing', 'lock', 'model',
           'paths', 'shmem', 'tools', 'util', 'window', 'backends')


def table():
    text = (ROOT / 'docs/testing.md').read_text()
    part = text.split('## Test seams', 1)[1].split('\n## ', 1)[0]
    rows = {}
    for m in re.finditer(r'^\| `(\w+)\(\)` \| `([^`]+)` \|', part, re.M):
        rows[m.group(1)] = m.group(2)
    return rows


def seams_in_sources():
    """Each "test seam:" comment and the function declared after it."""
    found = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob('*.[ch]')):
            text = path.read_text(errors='replace')
            for m in re.finditer(r'/\*\s*\n?\s*\*?\s*test seam:.*?\*/\s*\n([^;{]*?)(\w+)\s*\(',
                                 text, re.S):
                found[m.group(2)] = str(path.relative_to(ROOT))
    return found


def test_the_table_is_not_empty():
    assert table(), 'docs/testing.md: no rows under "Test seams"'


def test_every_seam_in_the_sources_is_in_the_table():
    rows = table()
    missing = {f: where for f, where in seams_in_sources().items() if f not in rows}
    assert not missing, f'"test seam:" functions not in docs/testing.md: {missing}'


def test_every_row_names_a_seam_where_it_says():
    found = seams_in_sources()
    for func, header in table().items():
        assert func in found, f'docs/testing.md names {func}(), which no "test seam:" comment declares'
        assert found[func] == header, f'{func}() is declared in {found[func]}, the table says {header}'
