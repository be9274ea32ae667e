# SPDX-License-Identifier: GPL-2.0-only
"""The fenced blocks of a Markdown document, and the convention that says
which of them run (README.md, "Docs that run"):

  ```sh        commands the test runs, in document order
  ```output    right after an sh block: its exact standard output
  <!-- not run: REASON -->   on the line before an sh block: not run
  <!-- run in the clone -->  on the line before an sh block: run from the
                             source tree's top directory, where a reader
                             who has run make build stands, instead
  anything else (```text, ```json, a bare fence): never run; but a bare
  fence whose first line is a command of ours must say which it is."""
import re
from dataclasses import dataclass, field

NOT_RUN = re.compile(r'^<!-- not run: (\S.*?) -->$')
IN_CLONE = '<!-- run in the clone -->'
# First words that make a block a command block, which must then be marked.
COMMANDS = ('sdsi-emu ', 'intel_sdsi ', 'sdsi-authority ', 'sdsi-shmem ',
            'make ', 'sudo ', 'mkdir ', '$ ')


@dataclass
class Block:
    doc: str
    line: int            # of the opening fence, 1-based
    info: str
    text: str
    not_run: str = None  # the reason, when marked
    in_clone: bool = False  # run from the source tree's top directory
    output: str = None   # the expected stdout, for an sh block
    errors: list = field(default_factory=list)

    @property
    def where(self):
        return f'{self.doc}:{self.line}'


def parse(doc, content):
    """[Block] of the document, each with the convention's errors found."""
    blocks, lines = [], content.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith('```'):
            i += 1
            continue
        info = line[3:].strip()
        start, body = i, []
        i += 1
        while i < len(lines) and lines[i].strip() != '```':
            body.append(lines[i])
            i += 1
        block = Block(doc, start + 1, info, '\n'.join(body) + '\n')
        if i == len(lines):
            block.errors.append('no closing fence')
        i += 1
        prev = lines[start - 1] if start else ''
        marker = NOT_RUN.match(prev)
        if prev.startswith('<!-- not run') and not marker:
            block.errors.append(f'malformed marker {prev!r}: '
                                '<!-- not run: REASON --> with a reason')
        if marker:
            if info != 'sh':
                block.errors.append('a not-run marker belongs before an sh block')
            block.not_run = marker.group(1)
        if prev == IN_CLONE:
            if info != 'sh':
                block.errors.append('a run-in-the-clone marker belongs before an sh block')
            block.in_clone = True
        if info == 'output':
            owner = blocks[-1] if blocks else None
            if (owner is None or owner.info != 'sh' or owner.not_run or
                    owner.output is not None or
                    any(l.strip() for l in lines[owner.end:start])):
                block.errors.append('an output block must follow a run sh '
                                    'block directly')
            else:
                owner.output = block.text
        if not info and body and body[0].startswith(COMMANDS):
            block.errors.append('a command block with no info string: make it '
                                '```sh (run) or mark it <!-- not run: REASON -->')
        block.end = i
        blocks.append(block)
    return blocks
