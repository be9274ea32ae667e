# SPDX-License-Identifier: GPL-2.0-only
"""The documentation of the options every sdsi.ondemand module takes, the
ones module_utils/intel_sdsi.py's COMMON_ARGS defines; a module's
DOCUMENTATION pulls it in with extends_documentation_fragment."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    DOCUMENTATION = r'''
options:
  executable:
    description:
      - The intel_sdsi program on the managed host, a name looked up in PATH or a path.
    type: str
    default: intel_sdsi
  sysfs_root:
    description:
      - Look for the devices under this directory instead of
        C(/sys/bus/auxiliary/devices) (intel_sdsi C(--sysfs-root)); for an
        emulated platform mounted elsewhere, e.g. by C(sdsi-emu mount), whose
        mount point it may name.  A directory that does not exist fails the
        task.
    type: path
'''
