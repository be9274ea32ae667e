# SPDX-License-Identifier: GPL-2.0-only
"""The test kit every Python suite shares, imported as `sdsikit` (the root
pytest.ini puts tests/ on pytest's pythonpath):

    layout      the ABI's layouts and decoders, from docs/interface.md
                (checked against include/sdsi/ by tests/layout)
    sysfs       a socket's sysfs files as the conformance suite reads them
    targets     what serves those files: FUSE, the window, the kernel
    licplatform the programs, an authority and a platform for licensing
    daemon      waiting for a long-running daemon's tree, stopping it
    emu         `sdsi-emu run` with the inside runner in it
    inside      the inside runner itself (python3 -m sdsikit.inside)
    sockets     talking to a daemon's control socket
    violations  protocol_violations read and asserted 0 at a suite's end
    schemas     docs/schema/ loaded for validation
"""
