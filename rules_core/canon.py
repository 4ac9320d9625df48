"""Canonical JSON for the values the engine deals in (dict, list, str, int, bool, None).

MicroPython's `json.dumps` cannot sort keys and its dicts are not ordered like CPython's, so
everything that is stored, sent or compared goes through `dumps` here: keys sorted, no spaces,
the same bytes on the board and on the host.
"""

import json


def dumps(value):
    parts = []
    _emit(value, parts)
    return "".join(parts)


def _emit(value, parts):
    if isinstance(value, dict):
        parts.append("{")
        first = True
        for key in sorted(value):
            if not isinstance(key, str):
                raise TypeError("canonical JSON needs string keys")
            if not first:
                parts.append(",")
            first = False
            parts.append(json.dumps(key))
            parts.append(":")
            _emit(value[key], parts)
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _emit(item, parts)
        parts.append("]")
    elif value is None or isinstance(value, (bool, int, str)):
        parts.append(json.dumps(value))
    else:
        raise TypeError("canonical JSON has no %s" % type(value).__name__)


def copy(value):
    """Deep copy of a JSON-like value (MicroPython has no copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value
