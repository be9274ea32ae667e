# SPDX-License-Identifier: GPL-2.0-only
"""scripts/check-cycles.py on small trees made here: a tree that keeps the
layers and the naming rules passes, and each broken rule fails it, named:
an edge between folders outside its table (by an include, and by a library
compiling another folder's source), an include guard that is not its
path's, an emu_ name defined outside emu/, the fe_ prefix, a circle.  And
window/ on shmem/ (the control page's old edge) fails.  No object files: the
call graph is empty, the include and compile graphs are the build's."""
import json
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / 'scripts/check-cycles.py'

CLEAN = {
    'include/sdsi/hw.h': '#ifndef SDSI_HW_H\n#define SDSI_HW_H\n#endif\n',
    'model/sdsi_model.h': '#ifndef SDSI_MODEL_H\n#define SDSI_MODEL_H\n'
                          '#include <sdsi/hw.h>\nint sdsi_model_read(void);\n#endif\n',
    'model/model.c': '#include "sdsi_model.h"\nint sdsi_model_read(void) { return 0; }\n',
    'emu/platform.h': '#ifndef SDSI_EMU_PLATFORM_H\n#define SDSI_EMU_PLATFORM_H\n'
                      '#include "model/sdsi_model.h"\n#define EMU_MAX 4\n'
                      'struct emu_platform { int n; };\nint emu_platform_init(void);\n#endif\n',
    'emu/platform.c': '#include "platform.h"\nint emu_platform_init(void)\n'
                      '{\n\treturn sdsi_model_read();\n}\n',
    'cli/cli_value.h': '#ifndef SDSI_CLI_VALUE_H\n#define SDSI_CLI_VALUE_H\n'
                       'int cli_parse_uint(const char *s);\n#endif\n',
    'cli/cli_value.c': '#include "cli_value.h"\n#include "model/sdsi_model.h"\n'
                       'int cli_parse_uint(const char *s) { return emu_call(s); }\n',
}
# Where each source is compiled: its own folder's library.
COMPILES = {'model/model.c': 'model/libsdsi_model.a.p',
            'emu/platform.c': 'emu/sdsi-emu.p',
            'cli/cli_value.c': 'cli/libsdsi_cli.a.p'}


def make_tree(root, files=CLEAN, compiles=COMPILES):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    build = root / 'build'
    build.mkdir()
    entries = [{'directory': str(build), 'file': f'../{src}',
                'output': f'{out}/{pathlib.Path(src).name}.o',
                'command': f'cc -I{root}/include -I{root} -c ../{src}'}
               for src, out in compiles.items()]
    (build / 'compile_commands.json').write_text(json.dumps(entries))
    return build


def check(tmp_path, files=CLEAN, compiles=COMPILES):
    build = make_tree(tmp_path, files, compiles)
    run = subprocess.run(['/usr/bin/python3', str(SCRIPT), str(build), str(tmp_path)],
                         capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def assert_fails(root, changes, *named, compiles=COMPILES):
    """The clean tree with CHANGES (path: text) fails, its output naming each
    of NAMED: every broken rule below is checked this one way."""
    status, out = check(root, dict(CLEAN, **changes), compiles)
    assert status == 1, out
    for text in named:
        assert text in out, out


def test_clean_tree_passes(tmp_path):
    status, out = check(tmp_path)
    assert status == 0, out
    assert 'names: 0 problem(s)' in out
    assert 'forbidden' not in out


def test_forbidden_include_between_folders_fails(tmp_path):
    assert_fails(tmp_path,
                 {'model/model.c': '#include "sdsi_model.h"\n#include "emu/platform.h"\n'},
                 'forbidden edge model -> emu', 'model/model.c includes emu/platform.h')


def test_library_compiling_another_folders_source_fails(tmp_path):
    compiles = dict(COMPILES)
    compiles['model/model.c'] = 'cli/libsdsi_cli.a.p'	# cli -> model: allowed
    status, out = check(tmp_path, compiles=compiles)
    assert status == 0, out
    compiles['model/model.c'] = 'lib/libsdsi.so.p'	# lib -> model: not
    assert_fails(tmp_path / 'lib', {}, 'forbidden edge lib -> model',
                 'lib/meson.build compiles model/model.c', compiles=compiles)


def test_window_on_shmem_is_forbidden(tmp_path):
    files = {'shmem/control.h': ('#ifndef SDSI_SHMEM_CONTROL_H\n#define SDSI_SHMEM_CONTROL_H\n'
                                 '#endif\n'),
             'window/ctlpage.c': '#include "shmem/control.h"\n'}
    compiles = dict(COMPILES, **{'window/ctlpage.c': 'shmem/libsdsi_shmem.a.p'})
    assert_fails(tmp_path, files, 'forbidden edge window -> shmem', 'window/ctlpage.c',
                 compiles=compiles)


def test_include_guard_not_its_path_fails(tmp_path):
    guard = CLEAN['emu/platform.h'].replace('SDSI_EMU_PLATFORM_H', 'EMU_PLATFORM_H')
    assert_fails(tmp_path, {'emu/platform.h': guard},
                 'emu/platform.h: include guard EMU_PLATFORM_H, not SDSI_EMU_PLATFORM_H')


def test_emu_name_defined_outside_emu_fails(tmp_path):
    for decl, name in (('int emu_model_backend(void);\n', 'emu_model_backend'),
                       ('struct emu_window {\n\tint n;\n};\n', 'emu_window'),
                       ('#define EMU_WINDOW_MAX 8\n', 'EMU_WINDOW_MAX')):
        header = CLEAN['model/sdsi_model.h'].replace('#endif', decl + '#endif')
        assert_fails(tmp_path / name, {'model/sdsi_model.h': header},
                     f'model/sdsi_model.h: {name}: an emu_ name defined outside emu/')
    # A call of an emu_ function outside emu/ (cli_value.c above) is no
    # definition, and emu/'s own are its own.


def test_fe_prefix_fails(tmp_path):
    assert_fails(tmp_path,
                 {'cli/cli_value.c': '#include "cli_value.h"\nstatic int FE_MAX = fe_parse(1);\n'},
                 'cli/cli_value.c: FE_MAX: the fe_ prefix',
                 'cli/cli_value.c: fe_parse: the fe_ prefix')


def test_circle_fails(tmp_path):
    files = {'model/model_priv.h': ('#ifndef SDSI_MODEL_PRIV_H\n#define SDSI_MODEL_PRIV_H\n'
                                    '#include "sdsi_model.h"\n#endif\n'),
             'model/sdsi_model.h': CLEAN['model/sdsi_model.h'].replace(
                 '#include <sdsi/hw.h>', '#include <sdsi/hw.h>\n#include "model_priv.h"')}
    assert_fails(tmp_path, files, 'includes circle')
