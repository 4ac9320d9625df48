"""Canonical JSON for the values the engine deals in (dict, list, str, int, bool, None).

MicroPython's `json.dumps` cannot sort keys, its dicts are not ordered like CPython's and it
escapes strings differently (CPython writes "ä" as \u00e4, MicroPython as UTF-8), so
everything that is stored, sent or compared goes through `dumps` here: keys sorted, no spaces,
strings escaped by one rule (quote, backslash and control characters; everything else as
UTF-8), the same bytes on the board and on the host.
"""


def dumps(value):
    """The canonical JSON of `value`, made whole (a key's record, a signature's text)."""
    pieces = []  # type: list[str]
    _put(value, pieces.append)
    return "".join(pieces)


def dump(value, write):
    """Write `value` piece by piece to `write` (a file's write, say), dicts and lists at any
    depth an item at a time: on the board no buffer holds a whole document or a whole item."""
    _put(value, write)


def _put(value, put):
    # Pieces put as they come and joined once: on a Pico every string made (and every call)
    # costs tens of microseconds, and this is in every key's record (docs/performance.md).
    if isinstance(value, str):
        _string(value, put)
    elif isinstance(value, dict):
        sep = "{"
        for key in sorted(value):
            if not isinstance(key, str):
                raise TypeError("canonical JSON needs string keys")
            put(sep)
            sep = ","
            _string(key, put)
            put(":")
            _put(value[key], put)
        put("}" if sep == "," else "{}")
    elif value is None:
        put("null")
    elif value is True:
        put("true")
    elif value is False:
        put("false")
    elif isinstance(value, int):
        put("%d" % value)
    elif isinstance(value, (list, tuple)):
        sep = "["
        for item in value:
            put(sep)
            sep = ","
            _put(item, put)
        put("]" if sep == "," else "[]")
    else:
        raise TypeError("canonical JSON has no %s" % type(value).__name__)


_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
            0x08: b"\\b", 0x0C: b"\\f"}


def _string(text, put):
    raw = text.encode()
    # Three scans in C, not a Python loop over the bytes: most strings need no escape.
    if not raw or (min(raw) >= 0x20 and b'"' not in raw and b"\\" not in raw):
        put('"')
        put(text)
        put('"')
        return
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
    put(out.decode())


def copy(value):
    """Deep copy of a JSON-like value (MicroPython has no copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value
