"""Canonical JSON for the values the engine deals in (dict, list, str, int, bool, None).

MicroPython's `json.dumps` cannot sort keys, its dicts are not ordered like CPython's and it
escapes strings differently (CPython writes "ä" as \u00e4, MicroPython as UTF-8), so
everything that is stored, sent or compared goes through `dumps` here: keys sorted, no spaces,
strings escaped by one rule (quote, backslash and control characters; everything else as
UTF-8), the same bytes on the board and on the host.
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
            write(_string(key))
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
    elif isinstance(value, str):
        write(_string(value))
    elif value is None or isinstance(value, (bool, int)):
        write(json.dumps(value))
    else:
        raise TypeError("canonical JSON has no %s" % type(value).__name__)


_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
            0x08: b"\\b", 0x0C: b"\\f"}


def _string(text):
    raw = text.encode()
    for byte in raw:  # bytes, not characters: no one-character strings are made
        if byte < 0x20 or byte == 0x22 or byte == 0x5C:
            break
    else:
        return '"' + text + '"'
    out = bytearray(b'"')
    for byte in raw:
        escape = _ESCAPES.get(byte)
        if escape is not None:
            out.extend(escape)
        elif byte < 0x20:
            out.extend(("\\u%04x" % byte).encode())
        else:
            out.append(byte)
    out.append(0x22)
    return out.decode()


def copy(value):
    """Deep copy of a JSON-like value (MicroPython has no copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value
