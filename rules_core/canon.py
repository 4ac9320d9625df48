"""Canonical JSON for the values the engine deals in (dict, list, str, int, bool, None).

MicroPython's `json.dumps` cannot sort keys and its dicts are not ordered like CPython's, so
everything that is stored, sent or compared goes through `dumps` here: keys sorted, no spaces,
the same bytes on the board and on the host.
"""

import json


def dumps(value):
    parts = []  # type: list[str]
    dump(value, parts.append)
    return "".join(parts)


def dump(value, write):
    """Write `value` piece by piece to `write` (a file's write, say): on the board this
    needs no buffer the size of the whole document."""
    if isinstance(value, dict):
        write("{")
        first = True
        for key in sorted(value):
            if not isinstance(key, str):
                raise TypeError("canonical JSON needs string keys")
            if not first:
                write(",")
            first = False
            write(json.dumps(key))
            write(":")
            dump(value[key], write)
        write("}")
    elif isinstance(value, (list, tuple)):
        write("[")
        for i, item in enumerate(value):
            if i:
                write(",")
            dump(item, write)
        write("]")
    elif value is None or isinstance(value, (bool, int, str)):
        write(json.dumps(value))
    else:
        raise TypeError("canonical JSON has no %s" % type(value).__name__)


def copy(value):
    """Deep copy of a JSON-like value (MicroPython has no copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value
