# SPDX-License-Identifier: GPL-2.0-only
"""The directories the guard tests hand to a program that must refuse or
take them: one of a given mode, and a symbolic link to a private one."""


def directory(path, mode):
    """PATH made a directory of MODE exactly (mkdir's mode is filtered by
    the umask, chmod's is not)."""
    path.mkdir()
    path.chmod(mode)
    return path


def linked_directory(parent, name):
    """PARENT/NAME, a symbolic link to the private directory PARENT/real:
    (the link, the directory)."""
    real = parent / 'real'
    real.mkdir(mode=0o700)
    link = parent / name
    link.symlink_to(real)
    return link, real
