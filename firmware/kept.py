"""The board's kept files beside the journal: /config.json (its id, table and pairing key),
/schedule.json (what its table plays next) and /chain.json (its chain of signed results). Each
is checked when read and kept in two copies, so that a flipped byte or a lost file in one is
seen and mended from the other, and a file whose copies are both bad is named (`read` says
LOST), never read as a default (docs/journal.md, "The board's kept files").

A copy is the value's canonical JSON on one line, then the CRC-32 of that line's bytes in 8
hex digits on a line of its own:

    {"board":"pk-1a2b3c4d","table":3}
    5e0b8c11

`write` writes it whole to <name>.tmp and renames that over <name>, then the same for the
second copy <name>.2: littlefs, the unix port and FAT replace the target in the rename, so a
cut leaves each copy old or new, and the first copy is never older than the second. A file of
the older firmware (the JSON alone, one copy) is read once as it is and written again checked:
a board updated in the field keeps its key and its chain.
"""

import os

from firmware.room import open_file
from hardware.compat import const
from rules_core import bounded, canon
from rules_core.crc import crc32

CONFIG = "config.json"
SCHEDULE = "schedule.json"
CHAIN = "chain.json"
# The second copy is <name>.2, and each copy is written to <name>.tmp first. (Names are kept
# few here: every module name is interned on the board, see docs/performance.md.)
_MAX_FILE = const(16384)  # bytes: eight scheduled matches with their settings fit many times
_DEPTH = const(12)
_TAIL = const(10)  # the CRC line: a newline, 8 hex digits, a newline

# What `read` found:
_NONE = const(0)  # no copy at all: a new board's
_GOOD = const(1)  # read; a copy a cut had left old or missing is written again
MENDED = const(2)  # one copy damaged (or gone while the other is there): read from the other,
# and the damaged one written again
LOST = const(3)  # both copies damaged: nothing read, nothing written (left for a person)

_MISSING = const(0)
_BAD = const(1)
_CHECKED = const(2)
_OLD = const(3)  # the older firmware's JSON alone


def _load(path, well_formed, parse=True):
    """(value, its CRC line, how it read) of one copy; not `parse`d, a checked copy's value is
    None (its CRC line says whether it is the other copy's)."""
    try:
        size = os.stat(path)[6]
    except OSError:
        return None, None, _MISSING
    if size > _MAX_FILE + _TAIL:  # read() would take the whole of it from the heap at once
        return None, None, _BAD
    try:
        with open_file(path, "rb") as f:
            data = f.read()
    except OSError:  # the flash would not give it back: damaged as much as a wrong CRC
        return None, None, _BAD
    # (A MemoryError is let through: a full heap is no damaged file, and a copy named
    # damaged for it would be written over, and a config's key lost.)
    end = len(data) - _TAIL
    crc = data[end:] if end >= 0 else None
    how = _OLD
    if crc is not None and crc[0] == 0x0A and crc[-1] == 0x0A:
        if crc != ("\n%08x\n" % crc32(memoryview(data)[:end])).encode():
            return None, None, _BAD
        if not parse:
            return None, crc, _CHECKED
        data = data[:end]
        how = _CHECKED
    elif data[:1] not in (b"{", b"["):  # neither checked nor the older firmware's JSON
        return None, None, _BAD
    try:
        value = bounded.loads(data, _MAX_FILE, _DEPTH)
    except bounded.Malformed:
        return None, None, _BAD
    if well_formed is not None and not well_formed(value):
        return None, None, _BAD
    return value, crc, how


def read(path, well_formed=None, mend=True):
    """(value, what was found: _NONE, _GOOD, MENDED or LOST) of the kept file at `path`, whose
    value must pass `well_formed` too. A copy found damaged, missing or older than the other
    is written again from the good one (unless `mend` is False); so is a file of the older
    firmware, checked now. The value is None for _NONE and LOST."""
    value, crc, first = _load(path, well_formed)
    if first == _CHECKED:
        _value, other_crc, how = _load(path + ".2", None, False)
        if other_crc != crc:
            _mend(path + ".2", value, mend)  # damaged, gone, or a cut left it older
        return value, MENDED if how == _BAD else _GOOD
    if first == _OLD:  # the older firmware's (which never wrote a second copy)
        _mend(path, value, mend, True)
        return value, _GOOD
    value, crc, how = _load(path + ".2", well_formed)
    if how != _MISSING and how != _BAD:
        # The first copy went bad or was lost: the second is whole.
        _mend(path, value, mend, how == _OLD)
        return value, MENDED
    # No good copy: a whole .tmp is the newest value (a cut before its rename; or the older
    # firmware's, which deleted the file before it renamed the .tmp).
    value, crc, found = _load(path + ".tmp", well_formed)
    if found != _MISSING and found != _BAD:
        _mend(path, value, mend, True)
        return value, MENDED if first == _BAD or how == _BAD else _GOOD
    if first == _MISSING and how == _MISSING:
        return None, _NONE
    return None, LOST


def _mend(path, value, mend, both=False):
    if not mend:
        return
    try:
        if both:
            write(path, value)
        else:
            _put(path, _checked(value))
    except OSError:
        pass  # the value read is good; the copy is mended at the next write or read


def _checked(value):
    text = canon.dumps(value).encode()
    return text, ("\n%08x\n" % crc32(text)).encode()


def _put(path, lines):
    tmp = (path[:-2] if path.endswith(".2") else path) + ".tmp"
    with open_file(tmp, "wb") as f:
        for line in lines:
            if f.write(line) not in (None, len(line)):
                raise OSError(28)  # ENOSPC: a short write
    os.rename(tmp, path)


def write(path, value):
    """Keep `value` at `path`: both copies, the first whole before the second is begun."""
    lines = _checked(value)
    _put(path, lines)
    _put(path + ".2", lines)
