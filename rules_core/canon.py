"""Canonical JSON for the values the engine deals in (dict, list, str, int, bool, None).

MicroPython's `json.dumps` cannot sort keys, its dicts are not ordered like CPython's and it
escapes strings differently (CPython writes "ä" as \u00e4, MicroPython as UTF-8), so
everything that is stored, sent or compared goes through `dumps` here: keys sorted, no spaces,
strings escaped by one rule (quote, backslash and control characters; everything else as
UTF-8), the same bytes on the board and on the host.
"""


def dumps(value):
    """The canonical JSON of `value`, made whole (a key's record, a signature's text)."""
    return _text(value)


def _text(value):
    # One string per value joined once: on a Pico each Python call costs tens of
    # microseconds, and this is in every key's record (docs/performance.md, issue 31).
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int):
        return "%d" % value
    if isinstance(value, dict):
        parts = []
        for key in sorted(value):
            parts.append(_key(key) + _text(value[key]))
        return "{" + ",".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join([_text(item) for item in value]) + "]"
    raise TypeError("canonical JSON has no %s" % type(value).__name__)


def _key(key):
    if not isinstance(key, str):
        raise TypeError("canonical JSON needs string keys")
    return _string(key) + ":"


def dump(value, write):
    """Write `value` piece by piece to `write` (a file's write, say), dicts and lists at any
    depth an item at a time: on the board no buffer holds a whole document or a whole item."""
    if isinstance(value, dict):
        write("{")
        for i, key in enumerate(sorted(value)):
            if i:
                write(",")
            write(_key(key))
            dump(value[key], write)
        write("}")
    elif isinstance(value, (list, tuple)):
        write("[")
        for i, item in enumerate(value):
            if i:
                write(",")
            dump(item, write)
        write("]")
    else:
        write(_text(value))


_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
            0x08: b"\\b", 0x0C: b"\\f"}


def _string(text):
    raw = text.encode()
    # Three scans in C, not a Python loop over the bytes: most strings need no escape.
    if not raw or (min(raw) >= 0x20 and b'"' not in raw and b"\\" not in raw):
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
