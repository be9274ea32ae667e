#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""No circle between the product's source files (docs/architecture.md).

Two graphs over the C files the build compiles, tests, fuzzers, benchmarks
and soak harnesses left out:
  - calls: file A -> file B when A's object needs a symbol B's defines
    (nm), so a file reaches another only through what it declares;
  - includes: A -> B when A includes B, resolved with A's own -I list.
A strongly connected set of more than one file is a circle: those files
cannot be read, tested or moved one at a time.  Prints each graph's size
and every circle; exits 1 if there is one.

  check-cycles.py BUILD_DIR      (needs BUILD_DIR/compile_commands.json)"""
import json
import os
import re
import shlex
import subprocess
import sys

NOT_PRODUCT = ('tests/', 'fuzz/', 'bench/', 'soak/', 'build')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def compiled_files(build):
    """{source: (object, [-I dirs])} for every compile of the build."""
    with open(os.path.join(build, 'compile_commands.json')) as f:
        entries = json.load(f)
    files = {}
    for e in entries:
        d = e['directory']
        args = e.get('arguments') or shlex.split(e['command'])
        dirs = [os.path.normpath(os.path.join(d, a[2:]))
                for a in args if a.startswith('-I') and len(a) > 2]
        files[os.path.normpath(os.path.join(d, e['file']))] = (
            os.path.normpath(os.path.join(d, e['output'])), dirs)
    return files


def call_graph(files, rel, is_product):
    defined, needed = {}, {}
    for src, (obj, _) in files.items():
        if not is_product(src) or not os.path.exists(obj):
            continue
        out = subprocess.run(['nm', obj], capture_output=True, text=True,
                             check=True).stdout
        for fields in (line.split() for line in out.splitlines()):
            if len(fields) == 3 and fields[1] in 'TDBRVW':
                defined.setdefault(fields[2], set()).add(rel(src))
            elif len(fields) == 2 and fields[0] == 'U':
                needed.setdefault(rel(src), set()).add(fields[1])
    return {a: {b for s in syms for b in defined.get(s, ()) if b != a}
            for a, syms in needed.items()}


def include_graph(files, rel, is_product):
    graph, todo, seen = {}, [(s, d) for s, (_, d) in files.items()
                             if is_product(s)], set()
    while todo:
        path, dirs = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path, errors='replace') as f:
            names = INCLUDE.findall(f.read())
        for name in names:
            for d in [os.path.dirname(path)] + dirs:
                target = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(target):
                    if is_product(target):
                        graph.setdefault(rel(path), set()).add(rel(target))
                        todo.append((target, dirs))
                    break
    return graph


def circles(graph):
    """Strongly connected sets of more than one file (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while not part or part[-1] != v:
                part.append(stack.pop())
                on.discard(part[-1])
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(10000)
    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def rel(path):
        return os.path.relpath(path, top)

    def is_product(path):
        r = rel(path)
        return not r.startswith('..') and not r.startswith(NOT_PRODUCT) \
            and not path.startswith(build)

    files = compiled_files(build)
    status = 0
    for name, graph in (('calls', call_graph(files, rel, is_product)),
                        ('includes', include_graph(files, rel, is_product))):
        found = circles(graph)
        edges = sum(len(v) for v in graph.values())
        print(f'check-cycles: {name}: {edges} edges, {len(found)} circle(s)')
        for part in found:
            status = 1
            print(f'check-cycles: {name} circle:')
            for a in part:
                print(f'  {a} -> {" ".join(sorted(graph[a] & set(part)))}')
    return status


if __name__ == '__main__':
    sys.exit(main())
