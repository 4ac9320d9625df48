"""The event log of the match in progress, on flash: `JournalLog`, the list-like store that
`Match(settings, log=...)` takes (see docs/journal.md).

It keeps only the file offset of each effective event (4 bytes per event, in fixed pieces)
and reads an event back from flash when it is asked for. Loading scans the file: a record
whose CRC fails or that runs past the end of the file (a write torn by a power cut) ends
the file; it and anything after it are dropped by rewriting the good prefix to a temporary
file and renaming it over the journal (littlefs renames atomically).

Between keys the log is armed (`arm`): littlefs never programs a block twice, so the first
write after a flush copies the file's last block into a newly erased one, a 4 KB erase (45 ms
on the Pico's flash) in the key's path. A pad record written then, and not flushed, takes
that erase between keys; the next record joins it in the erased block and both are flushed
together. A power cut before that loses only the pad, which means nothing. Pads count as
live bytes: a finished log with nothing undone is filed away by renaming it, pads and all.
"""

import json

from firmware import snapshot
from firmware.journal_records import (
    KIND_EVENT,
    KIND_FINISH,
    KIND_PAD,
    KIND_SETTINGS,
    KIND_UNDO,
    OVERHEAD,
    PIECE,
    JournalError,
    Unreadable,
    file_size,
    flush_to_flash,
)
from firmware.journal_rewrite import Rewrites
from rules_core import canon


class JournalLog(Rewrites):
    """The events of the match in progress, on flash: a list-like store for
    `Match(settings, log=...)`. `append` writes an E record, `pop` a U record; `[i]` and
    iteration read events back from the file. In RAM: one file offset per effective event."""

    def __init__(self, journal, path, tmp):
        self._journal = journal
        self._io = journal._io
        self._path = path
        self._tmp = tmp
        self._f = None
        self._pieces = []  # lists of PIECE offsets, allocated whole
        self._skip = 0  # pieces before _pieces[0] not held (a resume from a snapshot)
        self._count = 0
        self._end = 0  # where the next record goes: the end of the good records
        self._live = 0  # bytes of the S record, the effective E records and the pads
        self._broken = None  # why the log refuses to go on, after a failed write
        self._armed = False  # a pad is written and not flushed: the next write erases nothing
        self._prepared = False  # armed between keys: snapshots wait for the next arm
        self._snapshot = None  # (point, state) of the snapshot waiting for it
        self._last = None  # (count, its record's payload) of the last event written
        self.seq = 0
        self.settings = None
        self.meta = None
        self.finish_meta = None  # set once an F record is on flash
        self._finish_at = -1
        self._first = 0  # where the first event's record goes: the end of the S record
        # Resumed from a snapshot: the offsets of the events before its last one are read
        # from the file only when needed (undo past it, filing away, compaction).
        self._unindexed = 0
        self.resume_point = None  # (count, state fields) of the snapshot resume may use
        self.damaged = False  # True once load set damaged records aside (a copy in DAMAGED)
        # The records before the snapshot, which boot did not read: checked between keys
        # (check_prefix) from _checked (-1: nothing left to check) up to _prefix_end.
        self._checked = -1
        self._prefix_end = 0
        self.prefix_damaged = False  # one of them failed: filed away whole, as damaged

    # -- the offset index -------------------------------------------------------------

    def _push(self, offset):
        slot = self._count % PIECE
        number = self._count // PIECE - self._skip
        if slot == 0 and number == len(self._pieces):
            self._pieces.append([0] * PIECE)
        self._pieces[number][slot] = offset
        self._count += 1

    def _offset(self, index):
        if index < self._unindexed:
            self._index_prefix()
        return self._pieces[index // PIECE - self._skip][index % PIECE]

    def _drop(self):
        self._count -= 1
        if self._count % PIECE == 0 and len(self._pieces) + self._skip > self._count // PIECE + 1:
            self._pieces.pop()

    # -- loading ----------------------------------------------------------------------

    def begin(self, seq, settings, meta, payload):
        """A new match that begins in the board's ring (firmware/journal_ring_file.py): its
        S record (`payload`) programmed there, nothing written to littlefs; on flash when
        this returns."""
        f = self._journal._log_file(self._path, True)
        size = self._io.write(f, KIND_SETTINGS, payload)
        self._f = f
        self.seq, self.settings, self.meta = seq, settings, meta
        self._first = self._live = self._end = size

    def load(self, fresh=False):
        """Scan the file; keep the longest run of good records that makes sense (S first,
        U only with an event to undo, nothing after F) and cut anything after it. Returns
        True if the file held a match (False: no usable S record, the file is moved aside).
        `fresh`: no littlefs file, the match is in the board's ring alone."""
        io = self._io
        f = self._f = self._journal._log_file(self._path, fresh)
        size = file_size(f)
        n = io.read(f, 0, size)
        start = None
        if n >= 0 and io.kind == KIND_SETTINGS and io.meta() is not None:
            start = io.value()
        if start is None:
            self.close()
            return False
        self.seq, self.settings = start.get("seq", 0), start.get("settings")
        self.meta = start.get("meta") or {}
        offset = self._first = self._live = n + OVERHEAD
        offset = self._from_snapshot(f, size, offset)
        base = self._count
        while offset < size:
            n = io.read(f, offset, size)
            if n < 0:
                break
            kind = io.kind
            if kind == KIND_EVENT:
                self._push(offset)
                self._live += n + OVERHEAD
            elif kind == KIND_FINISH:
                meta = io.meta()  # before _indexed: it reads others through the same buffer
                if meta is None:
                    n = -2  # whole, but not an F record's JSON: damage
                    break
                if not self._indexed():
                    # Finished, and a record before the snapshot is damaged: the match is
                    # whole but for it, filed away as a damaged result (Journal._file_away).
                    self.prefix_damaged = True
                self.finish_meta, self._finish_at = meta, offset
                offset += n + OVERHEAD
                break
            elif kind == KIND_UNDO and self._count <= self._unindexed + 1 \
                    and not self._indexed():
                # The events before the snapshot are needed and cannot be read back: scan
                # from the start, as without one, to find the damage and keep what precedes.
                offset, base = self._forget_snapshot(), 0
                continue
            elif kind == KIND_UNDO and self._count:
                self._live -= self._io.size_at(f, self._offset(self._count - 1))
                self._drop()
                if self._count < base:  # undone past the snapshot: its state is stale
                    self.resume_point = None
            elif kind == KIND_PAD:
                self._live += n + OVERHEAD  # kept when the log is filed away as it is
            else:
                n = -2  # a record out of place: as good as a bad CRC
                break
            offset += n + OVERHEAD
        self._end = offset
        if offset < size and self.finish_meta is None:
            # A torn tail: the bad record runs past the end of the file. Anything else is
            # damage, not a power cut: a copy of the file is kept for the host to look at.
            torn = n == -1
            self._cut(offset, not torn)
        elif self.finish_meta is None:
            self._maybe_compact()
        return True

    def _from_snapshot(self, f, size, first):
        """Take the count, the offset index's end and the live bytes from the snapshot if it
        is this log's (see firmware/snapshot.py); return where the scan goes on from."""
        journal = self._journal
        doc = snapshot.find(journal.root, self._io, f, size, first, self.seq, journal.version)
        if doc is None:
            return first
        count = doc["count"]
        # Only the piece holding the snapshot's last event is held: a boot allocates the
        # same whether the match is at event 300 or 3000.
        self._skip = (count - 1) // PIECE
        self._pieces = [[0] * PIECE]
        self._pieces[0][(count - 1) % PIECE] = doc["last"]
        self._count = count
        self._unindexed = count - 1
        self._live = doc["live"]
        self.resume_point = (count, doc["state"])
        self._checked, self._prefix_end = first, doc["last"]
        return doc["end"]

    def _forget_snapshot(self):
        """Drop what the snapshot gave (the index, the count, the live bytes); return where a
        scan from the first event starts."""
        self._pieces = []
        self._count = self._skip = self._unindexed = 0
        self._live = self._first
        self.resume_point = None
        self._checked = -1  # the scan from the start reads them all
        return self._first

    def _indexed(self):
        """Read the offsets before the snapshot if they are not yet; False if they cannot
        be read back (a record there is damaged)."""
        if self._unindexed:
            try:
                self._index_prefix()
            except JournalError:
                return False
        return True

    def _index_prefix(self):
        """Read the offsets of the events before the snapshot's last one from the file."""
        want = self._unindexed
        held, count, skip = self._pieces, self._count, self._skip
        self._unindexed = self._skip = 0
        self._pieces, self._count = [], 0
        io = self._io
        done = False
        try:
            f = self._file()
            offset = self._first
            limit = held[0][want % PIECE]  # the snapshot's last event
            while offset < limit:
                n = io.read(f, offset, limit)
                if n < 0:
                    break
                if io.kind == KIND_EVENT:
                    self._push(offset)
                elif io.kind == KIND_UNDO and self._count:
                    self._drop()
                elif io.kind != KIND_PAD:
                    break
                offset += n + OVERHEAD
            if offset == limit and self._count == want:
                scanned = self._pieces
                first = held[0]  # the piece the snapshot's last event is in
                for index in range(skip * PIECE, want):
                    first[index % PIECE] = scanned[index // PIECE][index % PIECE]
                held = scanned[:skip] + held
                skip = 0
                done = True
        finally:
            self._pieces, self._count, self._skip = held, count, skip
            if not done:
                self._unindexed = want
        if not done:
            raise Unreadable("the events before the journal's snapshot cannot be read back")

    def keep_snapshot(self, count, state):
        """Match took a snapshot of `state` after `count` events: put it on flash, or, in a
        log armed between keys, at the next arm (a new file: some 115 ms of flash on a Pico,
        kept out of the key). Only a shortcut for resume: if it cannot be written the old
        one stays, still right."""
        if count != self._count or self.finish_meta is not None or self._broken is not None:
            return
        point = {"count": count, "end": self._end, "last": self._offset(count - 1),
                 "live": self._live, "seq": self.seq}
        if self._prepared:
            self._snapshot = (point, state)  # a state is never changed once the match's
        else:
            self._keep(point, state)

    def _keep(self, point, state):
        snapshot.keep(self._journal.root, self._io, self._journal.version, self._file(),
                      point, state)

    # -- the list-like store ----------------------------------------------------------

    def _write(self, kind, payload):
        f = self._file(True)
        self._armed = False
        try:
            self._to_end(f)
            size = self._io.write(f, kind, payload)
            flush_to_flash(f)
        except Exception as error:
            # The record may or may not be on flash: as after a power cut, only a restart
            # (which scans the file) can tell. Until then the journal takes no more.
            self._broken = "journal write failed (%s): restart the board" % error
            raise
        self._end += size  # (nothing allocated once the record is on flash: see append)
        return size

    def _to_end(self, f):
        # Not a seek where the file is already: littlefs flushes at a seek, and the write
        # after that flush would erase again what arm erased.
        if f.tell() != self._end:
            f.seek(self._end)

    def arm(self, idle=True):
        """Between keys: write the snapshot waiting (if no record came since), then a pad
        record, not flushed, so that the next record's write erases no flash (see the top of
        this module). Nothing once finished or broken, no second pad once armed; a failed
        pad write breaks the log, as a record's would. With the ring in front of the file
        (its records erase nothing, and need no pad) one step of flash work instead, only
        when `idle` (no key for a while): the snapshot, or its filing or erasing ahead
        (RingFile.quiet). True if it did any."""
        f = self._f
        if f is None or self.finish_meta is not None or self._broken is not None:
            return False
        self._prepared = True
        ring = getattr(f, "durable", False)
        if ring and not idle:
            return False  # keys are coming: the snapshot and the filing wait
        kept, self._snapshot = self._snapshot, None
        if kept is not None and kept[0]["end"] == self._end:  # else a record came since
            self._keep(kept[0], kept[1])  # first: it reads the log, and a seek flushes
            if ring:
                return True  # with a ring: one slow thing per quiet tick
        if ring:
            # The ring (firmware/journal_ring_file.py): no pad, its records erase nothing;
            # its filing to littlefs or a sector erased ahead instead.
            try:
                return f.quiet()
            except MemoryError:
                raise  # no heap for littlefs' file: nothing written, taken again later
            except Exception as error:
                self._broken = "journal write failed (%s): restart the board" % error
            return False
        if self._armed:
            return False
        try:
            self._to_end(f)
            size = self._io.write(f, KIND_PAD, b"")
        except Exception as error:
            self._broken = "journal write failed (%s): restart the board" % error
            return False
        self._end += size
        self._live += size
        self._armed = True
        return False

    def append(self, event):
        if self.finish_meta is not None:
            raise JournalError("the match is finished")
        payload = canon.dumps(event).encode()
        # Its place in the index and its undo's copy are made first: out of heap once its
        # record is on flash, the key would show FLASH ERROR with the event recorded.
        self._push(self._end)  # (where _write puts it)
        last = (self._count, payload)  # its undo reads no flash (~2.5 ms on a Pico)
        try:
            self._live += self._write(KIND_EVENT, payload)
        except Exception:
            self._drop()  # not taken (the log is broken: see _write)
            raise
        self._last = last

    def pop(self):
        if not self._count:
            raise IndexError("no event to undo")
        if self.finish_meta is not None:
            raise JournalError("the match is finished")
        if self._unindexed and self._count - 1 <= self._unindexed:
            self._index_prefix()  # undone below the snapshot: Match replays them all
        last, self._last = self._last, None
        kept = last is not None and last[0] == self._count  # its bytes as written: no read
        event = json.loads(last[1]) if kept else self[self._count - 1]
        size = (len(last[1]) if kept else self._io.length) + OVERHEAD
        self._write(KIND_UNDO, b"")
        self._drop()
        self._live -= size
        self._maybe_compact()
        return event

    def __len__(self):
        return self._count

    def __getitem__(self, index):
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("no event %d" % index)
        f = self._file()
        if self._io.read(f, self._offset(index), self._end) < 0 or self._io.kind != KIND_EVENT:
            raise Unreadable("event %d cannot be read back from flash" % index)
        return self._io.value()

    def __iter__(self):
        for index in range(self._count):
            yield self[index]

    def finish(self, meta):
        at = self._end
        self._write(KIND_FINISH, canon.dumps({"meta": meta}).encode())
        self.finish_meta, self._last = meta, None  # (no bytes pinned in its filing)
        self._finish_at = at

    def flash_bytes(self):
        """Bytes the match in progress takes in its file (for benchmarks and docs)."""
        return self._end

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None
