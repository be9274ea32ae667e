#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 26, "Every name says where it lives": the mechanical part, by
# patterns, so that it also runs on a tree where other branches have added
# files.  Run it at the root of a checkout (the cwd); it changes the work
# tree and the index (git mv), commits nothing.  Idempotent: a second run
# changes nothing.
#
#   - backends/model/ (the hardware model, the bottom layer) -> model/;
#     its in-process adapter model_backend.[ch] -> backends/inproc/
#     inproc_backend.[ch]; emu_model_backend/emu_model_with_socket ->
#     inproc_backend_for/inproc_backend_with_socket
#   - backends/window/window_backend.h's emu_window* names -> window_backend*
#   - cli/fe_X -> cli/cli_X; fe_ -> cli_, FE_ -> CLI_;
#     struct fe_ctl_backend -> struct cli_ctl_sockets
#   - shmem/'s bare exported names get a shmem_ prefix
#   - the window's unit tests tests/unit/shmem/ -> tests/unit/window/, the
#     window backend's tests/unit/window_backend/ -> tests/unit/backends/window/
#   - includes of another folder's header name the folder from the root
#     ("shmem/control.h"), meson's include path is the root (root_inc)
#   - every include guard matches its file (guard_for() below; the same rule
#     as scripts/check-cycles.py's)
#   - stale names in comments
# Kernel code (drivers/kernel/, drivers/core/, rig/sdsi_window.c) keeps its
# bare includes: Kbuild and the rig build it from a flat copy.
set -euo pipefail

die() { echo "rename-26: $*" >&2; exit 2; }
[ -e .git ] || die "run it at the root of a git checkout"
[ "$(git rev-parse --show-toplevel)" = "$(pwd -P)" ] || die "run it at the root of the checkout"

# mv_tracked SRC DST: git mv one tracked file, if it is still at SRC.
mv_tracked() {
	if git ls-files --error-unmatch -- "$1" >/dev/null 2>&1; then
		mkdir -p "$(dirname "$2")"
		git mv -- "$1" "$2"
	fi
}

# mv_tree SRC_DIR DST_DIR: every tracked file below SRC_DIR, to DST_DIR.
mv_tree() {
	local f
	git ls-files -z -- "$1/" | while IFS= read -r -d '' f; do
		mv_tracked "$f" "$2/${f#"$1"/}"
	done
	# git mv leaves empty directories (and untracked build debris) behind.
	[ -d "$1" ] && find "$1" -depth -type d -empty -delete 2>/dev/null
	return 0
}

# --- files ---------------------------------------------------------------
# The in-process adapter first, then the rest of backends/model/ is the model.
mv_tracked backends/model/model_backend.c backends/inproc/inproc_backend.c
mv_tracked backends/model/model_backend.h backends/inproc/inproc_backend.h
if [ -f backends/model/meson.build ] && [ ! -e model/meson.build ]; then
	mv_tree backends/model model
elif [ -d backends/model ]; then
	mv_tree backends/model model
fi

# cli/: no front end prefix.
git ls-files -z -- 'cli/fe_*' | while IFS= read -r -d '' f; do
	mv_tracked "$f" "cli/cli_${f#cli/fe_}"
done

# The window's unit tests mirror window/; their memfd helper is named for
# what it makes, not after window/window_file.h.
if git ls-files --error-unmatch tests/unit/shmem/window_file.c >/dev/null 2>&1; then
	sed -i 's/"window_file\.h"/"window_memfd.h"/' tests/unit/shmem/*.c
	mv_tracked tests/unit/shmem/window_file.c tests/unit/window/window_memfd.c
	mv_tracked tests/unit/shmem/window_file.h tests/unit/window/window_memfd.h
fi
mv_tracked tests/unit/shmem/test_shmem_ctlpage.c tests/unit/window/test_ctlpage_served.c
mv_tracked tests/unit/shmem/test_shmem_doorbell.c tests/unit/window/test_doorbell.c
if [ -d backends/window ] && [ -d tests/unit/window_backend ]; then
	mv_tree tests/unit/window_backend tests/unit/backends/window
fi

# --- contents ------------------------------------------------------------
python3 - <<'PY'
import os
import re
import subprocess

def tracked():
    out = subprocess.run(['git', 'ls-files', '-z'], capture_output=True,
                         check=True).stdout.decode()
    return [f for f in out.split('\0') if f and os.path.isfile(f)]

FILES = tracked()

def read(path):
    with open(path, 'rb') as f:
        data = f.read()
    if b'\0' in data:
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None

def write(path, text):
    if not os.path.exists(path) or read(path) != text:
        with open(path, 'w') as f:
            f.write(text)

def subst(pairs, files):
    for path in files:
        text = read(path)
        if text is None:
            continue
        new = text
        for pat, rep in pairs:
            new = re.sub(pat, rep, new)
        if new != text:
            write(path, new)

def blocks(text):
    """A meson.build's blocks: runs of lines between blank lines."""
    return re.split(r'\n\s*\n', text.strip('\n'))

SPDX = '# SPDX-License-Identifier: GPL-2.0-only\n'

# -- meson: the adapter's library moves beside the other backends --------
if os.path.isfile('model/meson.build') and not os.path.exists('backends/inproc/meson.build'):
    parts = blocks(read('model/meson.build'))
    keep = [b for b in parts if 'model_backend' not in b]
    move = [b for b in parts if 'model_backend' in b]
    if move:
        os.makedirs('backends/inproc', exist_ok=True)
        write('backends/inproc/meson.build', SPDX + '\n\n'.join(move) + '\n')
        write('model/meson.build', '\n\n'.join(keep) + '\n')
        subprocess.run(['git', 'add', 'backends/inproc/meson.build'], check=True)

top = read('meson.build')
top = top.replace("subdir('backends/model')\n", "subdir('model')\nsubdir('backends/inproc')\n")
if 'root_inc' not in top:
    top = re.sub(r"(hw_inc = include_directories\('include'\)\n)",
                 r'\1# Includes name their folder from the root ("shmem/control.h"), as\n'
                 r"# libnvme's <nvme/tree.h>; include/ stays for the layouts (<sdsi/hw.h>).\n"
                 r"root_inc = include_directories('.')\n", top, count=1)
write('meson.build', top)

# -- meson: the window's tests -------------------------------------------
# Their blocks leave tests/unit/shmem/meson.build for tests/unit/window/'s,
# made here or, if another branch made it, appended to.
shm = 'tests/unit/shmem/meson.build'
win = 'tests/unit/window/meson.build'
MEMFD = ("# The memfd window the tests of window/ and shmem/ map from each side.\n"
         "window_memfd_src = files('window_memfd.c')")
if os.path.isfile(shm):
    parts = blocks(read(shm))
    move = [b for b in parts if 'test_shmem_ctlpage.c' in b or 'test_shmem_doorbell.c' in b]
    if move:
        keep = [b for b in parts if b not in move]
        def retarget(b):
            b = b.replace("'test_shmem_ctlpage.c'", "'test_ctlpage_served.c'")
            b = b.replace("'test_shmem_ctlpage'", "'test_window_ctlpage_served'")
            b = b.replace("test('shmem_ctlpage'", "test('window_ctlpage_served'")
            b = b.replace("'test_shmem_doorbell.c'", "'test_doorbell.c'")
            b = b.replace("'test_shmem_", "'test_window_")
            b = b.replace("test('shmem_", "test('window_")
            b = b.replace("suite : ['unit', 'shmem']", "suite : ['unit', 'window']")
            return b
        old = blocks(read(win)) if os.path.isfile(win) else [SPDX.strip()]
        if 'window_memfd_src' not in '\n'.join(old):
            old.insert(1, MEMFD)
        write(win, '\n\n'.join(old + [retarget(b) for b in move]) + '\n')
        write(shm, '\n\n'.join(keep) + '\n')
        subprocess.run(['git', 'add', win], check=True)
for m in (shm, win):
    if os.path.isfile(m):
        write(m, read(m).replace("'window_file.c'", 'window_memfd_src'))
unit = 'tests/unit/meson.build'
if os.path.isfile(unit):
    text = read(unit)
    m = re.search(r"foreach component : \[([^\]]*)\]", text)
    if m:
        names = re.findall(r"'([^']*)'", m.group(1))
        if os.path.isfile('tests/unit/backends/window/meson.build'):
            names = ['backends/window' if n == 'window_backend' else n for n in names]
        if os.path.isfile(win) and 'shmem' in names:
            # window/ first: shmem's test compiles its memfd helper.
            names = [n for n in names if n != 'window']
            names.insert(names.index('shmem'), 'window')
        text = text[:m.start(1)] + ', '.join("'%s'" % n for n in names) + text[m.end(1):]
    write(unit, text)

FILES = tracked()
# The check of these rules and its tests name the old names on purpose.
RULES = ('scripts/check-cycles.py', 'tests/scripts/')
TEXT = [f for f in FILES if not f.startswith(RULES) and read(f) is not None]

# -- names, everywhere ----------------------------------------------------
pairs = [
    (r"its two backends \(backends/model,", "its two backends (backends/inproc,"),
    (r"backends/model/model_backend", "backends/inproc/inproc_backend"),
    (r"'sdsi_model_backend'", "'sdsi_inproc_backend'"),
    (r"\bemu_model_backend\b", "inproc_backend_for"),
    (r"\bemu_model_with_socket\b", "inproc_backend_with_socket"),
    (r"\bmodel_backend", "inproc_backend"),
    (r"\bbackends/model/", "model/"),
    (r"\bbackends/model\b", "model"),
    (r"test\('emu_window_backend'", "test('window_backend'"),
    (r"\bnvram_add_licence\b", "nvram_add_license"),
    (r"\bnvram_append_licence\b", "nvram_append_license"),
    (r"\bfe_", "cli_"),
    (r"\bFE_", "CLI_"),
    (r"\bcli_ctl_backend\b", "cli_ctl_sockets"),
]
# The window backend's names, as its header declares them (so that names
# another branch added are renamed too); emu/'s own emu_window_mount is not
# among them.
names = set()
for f in FILES:
    if os.path.basename(f) == 'window_backend.h':
        names |= set(re.findall(r'\b(?:emu_window\w*|EMU_WINDOW\w*)\b', read(f)))
names.discard('EMU_WINDOW_BACKEND_H')
for n in sorted(names, key=len, reverse=True):
    if n == 'emu_window_backend':
        new = 'window_backend_for'
    elif n.startswith('emu_window'):
        new = 'window_backend' + n[len('emu_window'):]
    else:
        new = 'WINDOW_BACKEND' + n[len('EMU_WINDOW'):]
    pairs.append((r'\b%s\b' % n, new))
subst(pairs, TEXT)

# -- shmem/: no bare exported names ---------------------------------------
shmem_c = [f for f in TEXT if f.startswith('shmem/') and f.endswith(('.c', '.h'))]
subst([(r"(?<!struct )\bshmem_options\b(?!\.h)", "option_table")],
      [f for f in shmem_c if f == 'shmem/shmem_options.c'])
funcs = ('parse_options', 'run', 'run_doorbell', 'create_sockets', 'map_window',
         'print_violations', 'print_stats', 'stop_signals_block')
subst([
    (r"\bstruct options\b", "struct shmem_options"),
    (r"\bstruct (gap_stats|poll_stats|controls)\b", r"struct shmem_\1"),
    (r"\b(%s)(?=\s*\()" % '|'.join(funcs), r"shmem_\1"),
    (r"\bstop_requested\b", "shmem_stop_requested"),
    (r"\bPROGRAM\b", "SHMEM_PROGRAM"),
], shmem_c)

# -- meson: the include path is the root ----------------------------------
for f in TEXT:
    if os.path.basename(f) != 'meson.build' or f == 'meson.build':
        continue
    text = read(f)
    text = re.sub(r"include_directories\(\s*'\.'\s*\)", 'root_inc', text)
    text = re.sub(r"include_directories\(\s*'\.\./[^']*'(?:\s*,\s*'\.\./[^']*')*\s*\)",
                  'root_inc', text)
    text = text.replace('[hw_inc, root_inc, root_inc]', '[hw_inc, root_inc]')
    write(f, text)

# -- includes name their folder -------------------------------------------
KERNEL = ('drivers/kernel/', 'drivers/core/', 'rig/sdsi_window.c')
PUBLIC = ('include/', 'lib/include/')
headers = [f for f in FILES if f.endswith('.h')]
by_name = {}
for h in headers:
    by_name.setdefault(os.path.basename(h), []).append(h)
INCLUDE = re.compile(r'^(\s*#\s*include\s*)"([^"/]+)"', re.M)
for f in TEXT:
    if not f.endswith(('.c', '.h')) or f.startswith(KERNEL) or f.startswith(PUBLIC):
        continue
    here = os.path.dirname(f)
    def fix(m):
        name = m.group(2)
        if os.path.isfile(os.path.join(here, name)):
            return m.group(0)
        cands = [h for h in by_name.get(name, ()) if not h.startswith(KERNEL[0])]
        if len(cands) > 1:
            cands = [h for h in cands if not h.startswith('tests/')] or cands
        if len(cands) != 1:
            return m.group(0)
        h = cands[0]
        for p in PUBLIC:
            if h.startswith(p):
                h = h[len(p):]
        return '%s"%s"' % (m.group(1), h)
    write(f, INCLUDE.sub(fix, read(f)))

# -- guards ----------------------------------------------------------------
def guard_for(path):
    """SDSI_ and the words of the path (below include/ for the public
    headers), a leading sdsi of each name and a word that repeats the one
    before it left out: window/window_file.h -> SDSI_WINDOW_FILE_H."""
    if path.endswith('.in'):
        path = path[:-3]
    for p in PUBLIC:
        if path.startswith(p):
            path = path[len(p):]
            break
    words = ['SDSI']
    for part in path.split('/'):
        w = [x for x in re.split(r'[^A-Za-z0-9]+', part.upper()) if x]
        if w and w[0] == 'SDSI':
            w = w[1:]
        for x in w:
            if x != words[-1]:
                words.append(x)
    return '_'.join(words)

GUARD = re.compile(r'^#ifndef (\w+)\n#define \1\b', re.M)
for f in TEXT:
    if not f.endswith(('.h', '.h.in')):
        continue
    text = read(f)
    m = GUARD.search(text)
    if not m or m.group(1) == guard_for(f):
        continue
    write(f, re.sub(r'\b%s\b' % m.group(1), guard_for(f), text))
PY
