#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""No circle between the product's source files, and no edge between its
folders outside the layers (docs/architecture.md, "Layers").

Three graphs over the C files the build compiles, tests, fuzzers, benchmarks
and soak harnesses left out:
  - calls: file A -> file B when A's object needs a symbol B's defines
    (nm), so a file reaches another only through what it declares;
  - includes: A -> B when A includes B, resolved with A's own -I list (the
    kernel's sources, which meson does not compile, by their own folder
    and, as Kbuild's flat copies find them, by a header's unique name);
  - compiles: a library or program of folder X that compiles a source of
    folder Y is an edge X -> Y, as if it included it.
A strongly connected set of more than one file is a circle: those files
cannot be read, tested or moved one at a time.  Each edge between two
folders must be in ALLOWED.  And
the names: no identifier beginning emu_ defined outside emu/, no fe_
prefix left, every include guard as guard_for() makes it from its path.
Prints each graph's size, every circle, forbidden edge and bad name; exits
1 if there is one.

  check-cycles.py BUILD_DIR [SOURCE_ROOT]
      (needs BUILD_DIR/compile_commands.json; SOURCE_ROOT defaults to the
      checkout this script is in)"""
import json
import os
import re
import shlex
import subprocess
import sys

NOT_PRODUCT = ('tests/', 'fuzz/', 'bench/', 'soak/', 'build')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
# Folders whose subfolders are folders of their own.
PARENTS = ('drivers', 'backends', 'tools')
# Kernel code: built by Kbuild from a flat copy, never by meson.
KERNEL = ('drivers/kernel/', 'rig/sdsi_window.c', 'rig/sdsi_bad_disc.c')

# The layers, bottom up: whom each folder may use (include, call, compile).
# Every folder may use include/ (the layouts) and util/ (the helpers every
# room needs), which use nothing.  Keep in step with docs/architecture.md,
# "Layers".
ALWAYS = ('include', 'util')
ALLOWED = {
    'include': set(),
    'util': set(),
    'paths': set(),
    'lock': set(),
    'licensing': {'paths'},
    'drivers/core': set(),
    'drivers/kernel': {'drivers/core'},
    'model': {'licensing', 'lock'},
    'drivers/fuse': {'drivers/core', 'lock'},
    'backends/inproc': {'drivers/fuse', 'drivers/core', 'model', 'lock'},
    'window': {'paths'},
    'backends/window': {'drivers/fuse', 'drivers/core', 'window'},
    'cli': {'model', 'licensing', 'paths'},
    'shmem': {'model', 'cli', 'window'},
    'emu': {'backends/inproc', 'backends/window', 'drivers/fuse', 'model',
            'cli'},
    'lib': {'licensing', 'paths'},
    'tools/intel_sdsi': {'lib', 'cli', 'paths'},
    'tools/sdsi-authority': {'licensing', 'cli', 'paths'},
    'rig': set(),
}


def folder(rel):
    """The folder a repository path belongs to ('' for the top)."""
    parts = rel.split('/')
    if parts[0] in PARENTS and len(parts) > 2:
        return parts[0] + '/' + parts[1]
    return parts[0] if len(parts) > 1 else ''


def guard_for(rel):
    """SDSI_ and the words of the path (below include/ for the public
    headers), a leading sdsi of each name and a word that repeats the one
    before it left out: window/window_file.h -> SDSI_WINDOW_FILE_H,
    include/sdsi/hw.h -> SDSI_HW_H."""
    if rel.endswith('.in'):
        rel = rel[:-3]
    for p in ('lib/include/', 'include/'):
        if rel.startswith(p):
            rel = rel[len(p):]
            break
    words = ['SDSI']
    for part in rel.split('/'):
        w = [x for x in re.split(r'[^A-Za-z0-9]+', part.upper()) if x]
        if w and w[0] == 'SDSI':
            w = w[1:]
        for x in w:
            if x != words[-1]:
                words.append(x)
    return '_'.join(words)


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
        obj = os.path.normpath(os.path.join(d, e['output']))
        files.setdefault(os.path.normpath(os.path.join(d, e['file'])), []).append(
            (obj, dirs))
    return files


def call_graph(files, rel, is_product):
    defined, needed = {}, {}
    for src, compiles in files.items():
        if not is_product(src):
            continue
        for obj, _ in compiles:
            if not os.path.exists(obj):
                continue
            out = subprocess.run(['nm', obj], capture_output=True, text=True,
                                 check=True).stdout
            for fields in (line.split() for line in out.splitlines()):
                if len(fields) == 3 and fields[1] in 'TDBRVW':
                    defined.setdefault(fields[2], set()).add(rel(src))
                elif len(fields) == 2 and fields[0] == 'U':
                    needed.setdefault(rel(src), set()).add(fields[1])
    return {a: {b for s in syms for b in defined.get(s, ()) if b != a}
            for a, syms in needed.items()}, defined


def include_graph(todo, rel, is_product, by_name):
    """todo: [(path, -I dirs, flat)]; flat: a bare name not beside the
    file is found by its unique name (Kbuild's flat copies)."""
    graph, seen = {}, set()
    while todo:
        path, dirs, flat = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path, errors='replace') as f:
            names = INCLUDE.findall(f.read())
        for name in names:
            cands = [os.path.normpath(os.path.join(d, name))
                     for d in [os.path.dirname(path)] + dirs]
            if flat and '/' not in name and len(by_name.get(name, ())) == 1:
                cands += by_name[name]
            for target in cands:
                if os.path.isfile(target):
                    if is_product(target):
                        graph.setdefault(rel(path), set()).add(rel(target))
                        todo.append((target, dirs, flat))
                    break
    return graph


def compile_edges(files, build, rel, is_product):
    """{(home folder, source folder): [source]} for each compile of a
    product source into a target of another folder."""
    edges = {}
    for src, compiles in files.items():
        if not is_product(src):
            continue
        for obj, _ in compiles:
            out = os.path.relpath(obj, build).split('/')
            while out and not out[-1].endswith('.p'):
                out.pop()
            home = folder('/'.join(out[:-1] + ['x']))
            there = folder(rel(src))
            if home != there and not there.startswith(home + '/'):
                edges.setdefault((home, there), []).append(rel(src))
    return edges


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


def source_files(top, build):
    """Every C source and header below top, build directories left out."""
    found = []
    for d, subdirs, names in os.walk(top):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith('.')
                            and not os.path.join(d, s).startswith(build)
                            and not (d == top and s.startswith('build')))
        found += [os.path.join(d, n) for n in sorted(names)
                  if n.endswith(('.c', '.h', '.h.in'))]
    return found


def folder_edges(graphs, comp):
    """{(from, to): [evidence]} between folders, from every graph."""
    edges = {}
    for kind, graph in graphs:
        for a, targets in graph.items():
            for b in targets:
                fa, fb = folder(a), folder(b)
                if fa != fb and fb not in ALWAYS:
                    edges.setdefault((fa, fb), []).append(f'{a} {kind} {b}')
    for (fa, fb), srcs in comp.items():
        if fb not in ALWAYS:
            edges.setdefault((fa, fb), []).extend(
                f'{fa}/meson.build compiles {s}' for s in srcs)
    return edges


EMU_DEFINE = [
    re.compile(r'^\s*#\s*define\s+((?:emu|EMU)_\w*)', re.M),
    re.compile(r'\b(?:struct|union|enum)\s+(emu_\w+)\s*\{'),
    re.compile(r'\btypedef\b[^;]*?\b(emu_\w+)\s*;'),
    # A function declared or defined at file scope (calls are indented).
    re.compile(r'^(?:[A-Za-z_][\w\s\*]*?[\s\*])(emu_\w+)\s*\(', re.M),
]
FE = re.compile(r'\b(?:fe|FE)_\w+')
GUARD = re.compile(r'^#ifndef (\w+)\n#define \1\b', re.M)


def name_rules(sources, rel, defined):
    """The naming rules of issue 26: [message]."""
    bad = []
    for path in sources:
        r = rel(path)
        with open(path, errors='replace') as f:
            text = f.read()
        base = os.path.basename(r)
        if base.startswith(('fe_', 'FE_')):
            bad.append(f'{r}: a file named with the front end prefix fe_')
        for m in sorted(set(FE.findall(text))):
            bad.append(f'{r}: {m}: the fe_ prefix names no folder (cli_)')
        if folder(r) != 'emu':
            for pat in EMU_DEFINE:
                for m in sorted(set(pat.findall(text))):
                    bad.append(f'{r}: {m}: an emu_ name defined outside emu/')
        if r.endswith(('.h', '.h.in')):
            m = GUARD.search(text)
            if m and m.group(1) != guard_for(r):
                bad.append(f'{r}: include guard {m.group(1)}, not {guard_for(r)}')
    for sym, srcs in sorted(defined.items()):
        if sym.lower().startswith('emu_'):
            for s in sorted(srcs):
                if folder(s) != 'emu':
                    bad.append(f'{s}: {sym}: an emu_ symbol defined outside emu/')
    return sorted(set(bad))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    top = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def rel(path):
        return os.path.relpath(path, top)

    def is_product(path):
        r = rel(path)
        return not r.startswith('..') and not r.startswith(NOT_PRODUCT) \
            and not path.startswith(build)

    files = compiled_files(build)
    sources = source_files(top, build)
    by_name = {}
    for s in sources:
        if is_product(s) and s.endswith('.h'):
            by_name.setdefault(os.path.basename(s), []).append(s)
    todo = [(s, d, False) for s, c in files.items() if is_product(s) for _, d in c]
    todo += [(s, [os.path.join(top, 'include')], True) for s in sources
             if rel(s).startswith(KERNEL) and s not in files]
    calls, defined = call_graph(files, rel, is_product)
    graphs = (('calls', calls),
              ('includes', include_graph(todo, rel, is_product, by_name)))
    status = 0
    for name, graph in graphs:
        found = circles(graph)
        edges = sum(len(v) for v in graph.values())
        print(f'check-cycles: {name}: {edges} edges, {len(found)} circle(s)')
        for part in found:
            status = 1
            print(f'check-cycles: {name} circle:')
            for a in part:
                print(f'  {a} -> {" ".join(sorted(graph[a] & set(part)))}')

    edges = folder_edges(graphs, compile_edges(files, build, rel, is_product))
    print(f'check-cycles: folders: {len(edges)} edges between folders')
    for (fa, fb), why in sorted(edges.items()):
        if fb in ALLOWED.get(fa, ()):
            continue
        status = 1
        print(f'check-cycles: forbidden edge {fa or "(top)"} -> {fb} '
              '(not in ALLOWED, docs/architecture.md "Layers"):')
        for w in sorted(set(why))[:5]:
            print(f'  {w}')

    bad = name_rules([s for s in sources], rel, defined)
    print(f'check-cycles: names: {len(bad)} problem(s)')
    for b in bad:
        status = 1
        print(f'  {b}')
    return status


if __name__ == '__main__':
    sys.exit(main())
