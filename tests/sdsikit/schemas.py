# SPDX-License-Identifier: GPL-2.0-only
"""The JSON contract of docs/schema/, loaded for validation without the
network: every schema is registered under a file:// URI of the local
directory, so the relative $refs (common.json#/$defs/...) resolve there."""
import json
import os
import pathlib

from jsonschema import Draft202012Validator, RefResolver

SCHEMA_DIR = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schema"
BASE = SCHEMA_DIR.as_uri() + "/"


def _load():
    store = {}
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        with open(path) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        store[BASE + path.name] = schema
    return store


STORE = _load()
NAMES = sorted(os.path.basename(uri) for uri in STORE)


def validator(name):
    schema = STORE[BASE + name]
    resolver = RefResolver(base_uri=BASE + name, referrer=schema, store=STORE)
    return Draft202012Validator(schema, resolver=resolver)


def errors(name, doc):
    """The schema's complaints about doc, as strings (none: it validates)."""
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(name).iter_errors(doc)]


def check(name, text):
    """Parse one document of a tool's stdout and assert it validates against name."""
    doc = json.loads(text)
    problems = errors(name, doc)
    assert not problems, (name, problems, doc)
    return doc
