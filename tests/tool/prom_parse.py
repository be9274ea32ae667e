# SPDX-License-Identifier: GPL-2.0-only
"""A strict reader of the Prometheus text exposition format 0.0.4 as
intel_sdsi writes it: HELP and TYPE once per family, before its samples,
families not interleaved, label values unescaped (backslash, double quote,
newline).  Returns {family: {"type", "help", "samples": {labels: value}}}
with labels a frozenset of (name, value) pairs."""
import math
import re

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}


def _labels(text, pos):
    """Parse {a="b",...} from text[pos] == '{'; returns (pairs, next pos)."""
    pairs = []
    pos += 1
    while text[pos] != "}":
        m = NAME.match(text, pos)
        assert m, f"label name expected at {pos}: {text!r}"
        name, pos = m.group(0), m.end()
        assert text[pos:pos + 2] == '="', text
        pos += 2
        value = []
        while text[pos] != '"':
            if text[pos] == "\\":
                assert text[pos + 1] in ESCAPES, f"bad escape in {text!r}"
                value.append(ESCAPES[text[pos + 1]])
                pos += 2
            else:
                assert text[pos] != "\n"
                value.append(text[pos])
                pos += 1
        pairs.append((name, "".join(value)))
        pos += 1
        if text[pos] == ",":
            pos += 1
    names = [n for n, _ in pairs]
    assert len(names) == len(set(names)), f"repeated label in {text!r}"
    return frozenset(pairs), pos + 1


def parse(text):
    families, order, current = {}, [], None
    assert text == "" or text.endswith("\n"), "the last line must end with a newline"
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name, help_text = line[7:].split(" ", 1)
            assert name not in families, f"family {name} printed twice"
            families[name] = {"help": help_text, "type": None, "samples": {}}
            order.append(name)
            current = name
        elif line.startswith("# TYPE "):
            name, kind = line[7:].split(" ")
            assert name == current and families[name]["type"] is None, line
            assert kind in ("gauge", "counter"), line
            families[name]["type"] = kind
        else:
            m = NAME.match(line)
            assert m and m.group(0) == current, f"sample outside its family: {line!r}"
            labels, pos = _labels(line, m.end())
            assert line[pos - 1] == "}" and line[pos] == " ", line
            value = float(line[pos + 1:])
            assert math.isfinite(value), line
            samples = families[current]["samples"]
            assert labels not in samples, f"duplicate series: {line!r}"
            samples[labels] = value
    return families


def series(families, name):
    """{labels as dict items tuple: value} of one family, {} when absent."""
    fam = families.get(name, {"samples": {}})
    return {tuple(sorted(k)): v for k, v in fam["samples"].items()}


def value(families, name, **labels):
    want = tuple(sorted(labels.items()))
    found = series(families, name)
    assert want in found, f"{name}{dict(want)} not in {list(found)}"
    return found[want]
