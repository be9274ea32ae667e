# SPDX-License-Identifier: GPL-2.0-only
"""Writes the results table of docs/conformance.md from JUnit files, one
column per target, so that the table is what the runs said and nothing
else.  Usage:

  conformance-table.py DOC 'LABEL=FILE[,FILE...]'...

Rows are the test ids (module::name[params], the module path stripped);
a cell is "pass", "**FAIL**", "skip" or "-" (not run by that target: a
test deselected there, or a socket the configuration does not have).  The
table replaces the lines between <!-- results:begin --> and
<!-- results:end --> in DOC."""
import sys
import xml.etree.ElementTree as ET

BEGIN, END = '<!-- results:begin -->', '<!-- results:end -->'


def outcomes(paths):
    out = {}
    for path in paths:
        for case in ET.parse(path).getroot().iter('testcase'):
            module = case.get('classname', '').rsplit('.', 1)[-1]
            key = f'{module}::{case.get("name")}'
            if case.find('failure') is not None or \
                    case.find('error') is not None:
                out[key] = '**FAIL**'
            elif case.find('skipped') is not None:
                out[key] = 'skip'
            else:
                out[key] = 'pass'
    return out


def main(argv):
    if len(argv) < 3 or any('=' not in a for a in argv[2:]):
        sys.exit(__doc__)
    doc = argv[1]
    columns = []
    for arg in argv[2:]:
        label, files = arg.split('=', 1)
        columns.append((label, outcomes(files.split(','))))
    rows = sorted(set().union(*(c for _, c in columns)))
    lines = ['| test | ' + ' | '.join(l for l, _ in columns) + ' |',
             '|---|' + '---|' * len(columns)]
    for row in rows:
        lines.append(f'| `{row}` | ' +
                     ' | '.join(c.get(row, '-') for _, c in columns) + ' |')
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        sys.exit(f'{doc}: no {BEGIN} ... {END} section')
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, 'w') as f:
        f.write(head + BEGIN + '\n' + '\n'.join(lines) + '\n' + END + tail)


if __name__ == '__main__':
    main(sys.argv)
