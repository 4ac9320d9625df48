"""Bounded JSON decoding for everything that comes from outside (a serial line, a file, the
store): a size limit, a nesting limit checked *before* the parser runs (a deeply nested
`[[[[...` would otherwise exhaust the board's heap or the host's stack), and only the values
the engine deals in: objects, lists, strings, whole numbers in a safe range, true/false/null.
A float, a huge number or anything else is refused like a malformed document. Runs unchanged
on MicroPython and CPython; one definition for the board and the host.
"""

import json

MAX_INT = 1 << 48  # whole numbers beyond this are no score, time or count of ours


class Malformed(ValueError):
    pass


def depth(data, limit):
    """Refuse `data` (bytes) if its arrays and objects nest deeper than `limit`. Strings are
    skipped (a "[" inside one does not count); bytes are scanned, so nothing is allocated."""
    level = 0
    in_string = False
    escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte == 0x5B or byte == 0x7B:  # [ {
            level += 1
            if level > limit:
                raise Malformed("nested deeper than %d" % limit)
        elif byte == 0x5D or byte == 0x7D:
            level -= 1


def loads(data, max_size, max_depth):
    """The value of JSON `data` (bytes or str), checked: at most `max_size` bytes, nested at
    most `max_depth` deep, only JSON values of ours (see `check`). Malformed otherwise."""
    if isinstance(data, str):
        data = data.encode()
    if len(data) > max_size:
        raise Malformed("longer than %d bytes" % max_size)
    depth(data, max_depth)
    try:
        value = json.loads(data.decode())
    except (ValueError, UnicodeError, MemoryError, RuntimeError, TypeError, IndexError,
            KeyError):
        # MicroPython's parser raises more than ValueError on odd input; RuntimeError is
        # CPython's RecursionError; none of them may escape a decoder.
        raise Malformed("not JSON")
    check(value)
    return value


def check(value):
    """Refuse a float, a whole number beyond MAX_INT or a non-string key, anywhere in `value`
    (whose depth is already bounded)."""
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise Malformed("object keys must be strings")
            check(value[key])
    elif isinstance(value, list):
        for item in value:
            check(item)
    elif isinstance(value, bool) or value is None or isinstance(value, str):
        return
    elif isinstance(value, int):
        if value > MAX_INT or value < -MAX_INT:
            raise Malformed("number out of range")
    else:
        raise Malformed("only whole numbers are allowed")


def whole(value, low, high):
    """True if `value` is an int (not a bool, not a float) from low to high."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
