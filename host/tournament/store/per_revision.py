"""Reads kept for one store revision: what a costly read of the store gives (every result of
a tournament verified: store/results.py all) is read once while the store's facts' revision
stays (db.facts: every write but the boards' live scores moves it, in the same transaction:
schema.NOT_FACTS; so boards at play, several live scores a second, redo none of it), and
shared by every page of the process that reads it then (the hall's pages, the desk, the
printouts, the standings they show): a look of the hall renders several pages, a page reads
the results several times. Nothing stale is given: the revision is read before each use. A
read that depends on the live states is not kept here.

    value = per_revision.read(store.db, ("results", tournament_id), lambda: ...)

Kept by the store file (its path and inode: another file moved in its place starts its own
revisions) and `what`. Not kept: a read inside a transaction (it may see its own writes,
which may yet be rolled back), a read during which the revision moved (another process wrote:
kept under neither revision), and everything of a file whose revision went back (a backup
copied over it: its revisions count again from lower).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from host.tournament.store.db import Database

T = TypeVar("T")
SIZE = 32  # reads kept: a few tournaments' in a few store files
_KEPT: OrderedDict[tuple, tuple[tuple, Any]] = OrderedDict()
_HIGHEST: dict[tuple, int] = {}  # file -> the highest revision seen of it
_LOCK = threading.Lock()  # (the hall reads in threads)


def read(db: Database, what: Hashable, fresh: Callable[[], T]) -> T:
    """`fresh()`, or what it gave at this revision of this store file. The value is shared:
    the caller copies what it hands out to be changed."""
    if db.conn.in_transaction:
        return fresh()
    stamp = _stamp(db)
    if stamp is None:
        return fresh()
    key = (stamp[0], what)
    with _LOCK:
        if _HIGHEST.get(stamp[0], -1) > stamp[1]:  # the file went back: forget it all
            for old in [k for k in _KEPT if k[0] == stamp[0]]:
                del _KEPT[old]
        _HIGHEST[stamp[0]] = stamp[1]
        kept = _KEPT.get(key)
        if kept is not None and kept[0] == stamp:
            _KEPT.move_to_end(key)
            return kept[1]
    value = fresh()
    if _stamp(db) == stamp:  # no other process wrote meanwhile
        with _LOCK:
            _KEPT[key] = (stamp, value)
            _KEPT.move_to_end(key)
            while len(_KEPT) > SIZE:
                _KEPT.popitem(last=False)
    return value


def _stamp(db: Database) -> tuple[tuple, int] | None:
    """((path, device, inode), revision), or None for a file that cannot be looked at."""
    try:
        seen = os.stat(db.path)
    except OSError:
        return None
    return (str(db.path), seen.st_dev, seen.st_ino), db.facts()


def forget() -> None:
    """Everything kept dropped (for a test that counts reads)."""
    with _LOCK:
        _KEPT.clear()
        _HIGHEST.clear()
