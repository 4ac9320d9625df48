"""Snapshots of the match in progress, on flash: resuming after a power cut reads the last
snapshot and replays only the events after it, so it takes as long at event 3000 as at 300
(docs/journal.md, "Snapshots").

The journal writes `snapshot` every `Match.snapshot_every` events (32): one record (the
journal's format, kind K, CRC-checked) holding the match's state and where in current.log it
was taken. It is written to `snapshot.tmp` and renamed into place, so a power cut leaves the
old snapshot or the new one. On boot it is used only if all of these hold, else ignored:
its record is whole; it belongs to the match in current.log (same `seq`); it was written by
this firmware (same `version`: a state from other code may not mean the same); the event
record it names is at the offset it names, whole, with the CRC it names, and ends where
the snapshot says the log ended; and no undo after it went below it.
"""

import os

from firmware.journal_records import KIND_EVENT, KIND_SNAPSHOT, OVERHEAD, TMP, flush_to_flash
from firmware.room import open_file
from rules_core import canon
from rules_core.state import FIELDS

FILE = "snapshot"
_KEYS = ("count", "crc", "end", "last", "live", "seq")


def firmware_version():
    """The version `pilkku flash` stamped on the board ("dev" where there is no stamp)."""
    try:
        from pilkku_version import VERSION  # type: ignore[import-not-found]
    except ImportError:
        return "dev"
    return VERSION


def write(root, io, version, point, state):
    """Write the snapshot of `state` taken at `point` (a dict of _KEYS) through a
    temporary file and a rename. Raises whatever the flash raised; the old snapshot is
    then still in place (and still right: the log only grew since).

    The old one is removed before the rename, not renamed over: littlefs, after some
    renames over a file in the folder where the log is open, compacted the folder's
    metadata at every flush of the log until the next snapshot, an erase more per event
    (tests/firmware/test_journal_erases.py). A cut between the two leaves no snapshot:
    resume then replays the whole log, to the same state."""
    doc = {"state": state.to_dict(), "version": version}
    for key in _KEYS:
        doc[key] = point[key]
    payload = canon.dumps(doc).encode()
    doc = None
    tmp = root + "/" + FILE + TMP
    g = open_file(tmp, "wb")
    try:
        io.write(g, KIND_SNAPSHOT, payload)
        flush_to_flash(g)
    finally:
        g.close()
    remove(root)
    os.rename(tmp, root + "/" + FILE)


def keep(root, io, version, f, point, state):
    """Write the snapshot of `state` at `point` (count, end, last, live, seq of the log `f`),
    naming the CRC of its last event's record. Only a shortcut for resume: if it cannot be
    written (a full flash or heap) the old one stays, still right for the log it names."""
    last, end = point["last"], point["end"]
    if io.read(f, last, end) != end - last - OVERHEAD:
        return
    point["crc"] = io.crc()
    try:
        write(root, io, version, point, state)
    except Exception:  # noqa: BLE001  # a full flash or heap: resume replays more
        try:
            os.remove(root + "/" + FILE + TMP)
        except OSError:
            pass


def remove(root):
    try:
        os.remove(root + "/" + FILE)
    except OSError:
        pass


def read(root, io, seq, version):
    """The snapshot on flash if it is whole, of match `seq` and of firmware `version`
    (a dict: _KEYS and "state"), else None. The caller checks it against the log."""
    try:
        f = open_file(root + "/" + FILE, "rb")
    except OSError:
        return None
    try:
        f.seek(0, 2)
        size = f.tell()
        n = io.read(f, 0, size)
        if n < 0 or io.kind != KIND_SNAPSHOT or n + OVERHEAD != size:
            return None
        doc = io.value()
    except Exception:  # noqa: BLE001  # a snapshot is only ever a shortcut: any doubt, none
        return None
    finally:
        f.close()
    if not isinstance(doc, dict) or doc.get("seq") != seq or doc.get("version") != version:
        return None
    for key in _KEYS:
        value = doc.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return None
    if not isinstance(doc.get("state"), dict) or doc["count"] < 1:
        return None
    return doc


def state_of(game, fields):
    """A game's State rebuilt from a snapshot's fields (None if one is missing)."""
    state = game.State()
    for name in FIELDS + state.EXTRA:
        if name not in fields:
            return None
        setattr(state, name, fields[name])
    return state


def find(root, io, f, size, first, seq, version):
    """The snapshot boot may use for match `seq` of firmware `version`, whose log `f` is
    `size` bytes with its first event at `first`, else None: the record it names must be
    an event at the offset it names, whole, with the CRC it names, ending where it says."""
    doc = read(root, io, seq, version)
    if doc is None:
        return None
    last, end = doc["last"], doc["end"]
    if not first <= last < end <= size or doc["live"] > end:
        return None
    if io.read(f, last, end) != end - last - OVERHEAD or io.kind != KIND_EVENT:
        return None
    if io.crc() != doc["crc"]:
        return None
    return doc
