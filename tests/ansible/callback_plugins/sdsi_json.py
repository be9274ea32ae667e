# SPDX-License-Identifier: GPL-2.0-only
"""A stdout callback for the tests: the whole playbook run as one JSON
document on stdout, every task result of every host and the recap's figures.
Debian's ansible-core has no JSON callback of its own (that one lives in the
ansible.posix collection), and parsing the human recap would be brittle."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = '''
    name: sdsi_json
    type: stdout
    short_description: the run as one JSON document (sdsi tests)
    description:
      - Every task result of every host, then the recap's counts, as JSON.
'''

import json

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'stdout'
    CALLBACK_NAME = 'sdsi_json'

    def __init__(self):
        super(CallbackModule, self).__init__()
        self.results = []

    def _record(self, status, result):
        self.results.append({'host': result._host.get_name(), 'task': result._task.get_name(),
                             'action': result._task.action, 'status': status,
                             'result': result._result})

    def v2_runner_on_ok(self, result):
        self._record('ok', result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record('failed', result)

    def v2_runner_on_unreachable(self, result):
        self._record('unreachable', result)

    def v2_runner_on_skipped(self, result):
        self._record('skipped', result)

    def v2_playbook_on_stats(self, stats):
        recap = dict((h, stats.summarize(h)) for h in sorted(stats.processed))
        self._display.display(json.dumps({'results': self.results, 'stats': recap},
                                         sort_keys=True, default=str))
