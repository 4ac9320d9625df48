"""How the journal's log of the match in progress is rewritten on flash: cut back to its
good records after a power cut or damage, compacted once undone events outweigh the rest,
and written compact when a finished match is filed away. `Rewrites` is the base of
firmware/journal_log.py's `JournalLog`, whose fields it works on; every rewrite goes to a
temporary file renamed over the log (atomic on littlefs: a power cut leaves either file,
both good). Also the check, between keys, of the records before the snapshot that the boot
skipped (`check_prefix`).
"""

import os

from firmware import snapshot
from firmware.journal_records import (
    DAMAGED,
    KIND_EVENT,
    KIND_PAD,
    KIND_UNDO,
    OVERHEAD,
    PIECE,
    TMP,
    JournalError,
    Unreadable,
    file_size,
    flush_to_flash,
)
from firmware.room import open_file


class Rewrites:
    """The rewrites of a JournalLog (see there for the fields), the file they and the log
    work on (`_file`: refused once the log is broken), and the check between keys of the
    records its boot skipped."""

    def _file(self, writing=False):
        if writing and self._broken is not None:
            raise JournalError(self._broken)
        if self._f is None:
            raise JournalError(self._broken or "no match in progress")  # why, if it broke
        return self._f

    def _cut(self, end, keep_copy):
        """Make the file its first `end` bytes; first keep a copy of it all in DAMAGED if
        `keep_copy` (damage, not a torn tail: the host may want to look at it)."""
        io = self._io
        f = self._f
        root = self._journal.root
        if keep_copy:
            self.damaged = True
            g = open_file(root + "/" + DAMAGED + TMP, "wb")
            io.copy_bytes(f, g, file_size(f))
            flush_to_flash(g)
            g.close()
            os.rename(root + "/" + DAMAGED + TMP, root + "/" + DAMAGED)
        g = open_file(self._tmp, "wb")
        io.copy_bytes(f, g, end)
        flush_to_flash(g)
        g.close()
        del f, g  # see _replace
        self._replace()

    def _replace(self):
        """Rename the temporary file over the journal and reopen it. The callers drop their
        references to the old and the temporary file first: a file object holds littlefs'
        1 KB cache, and reopening then reuses one of theirs instead of needing a third block
        from a fragmented heap."""
        self.close()  # with a ring: its records filed and released first (RingFile)
        os.rename(self._tmp, self._path)
        self._f = self._journal._log_file(self._path)
        self._armed = False  # a new file object: its first write erases, as after a flush

    def _maybe_compact(self):
        """Compact once undone events and U records outweigh the effective log (and
        `compact_min`). Compaction only saves space: if it fails (flash full, say) the file
        is still good and the log goes on, unless the file handle was lost."""
        if self._end - self._live <= max(self._live, self._journal.compact_min):
            return
        try:
            self.compact()
        except Exception as error:
            if self._f is None:
                self._broken = "journal compaction failed (%s): restart the board" % error

    def compact(self):
        """Rewrite the file with only the S record and the effective events."""
        io = self._io
        f = self._file(True)
        g = open_file(self._tmp, "wb")
        try:
            n = io.read(f, 0, self._end)
            if n < 0:
                raise JournalError("the journal's first record cannot be read")
            end = io.put_last(g)
            pieces = []
            for index in range(self._count):
                n = io.read(f, self._offset(index), self._end)
                if n < 0:
                    raise JournalError("event %d cannot be read back" % index)
                if index % PIECE == 0:
                    pieces.append([0] * PIECE)
                pieces[index // PIECE][index % PIECE] = end
                end += io.put_last(g)
            flush_to_flash(g)
        finally:
            g.close()
        del f, g  # see _replace
        snapshot.remove(self._journal.root)  # its offsets are the old file's
        self._replace()
        self._pieces = pieces
        self._end = self._live = end

    def compact_already(self):
        """True once finished if the file holds only the S record, the effective events and
        the F record, in that order, and nothing after it: what write_compact would write."""
        if self._finish_at != self._live or self._finish_at < 0:
            return False
        return file_size(self._file()) == self._end

    def write_compact(self, g):
        """Write the S record, the effective events and the F record to `g`; Unreadable if
        one of them no longer reads back (the caller then files the log away whole)."""
        io = self._io
        f = self._file()
        for index in range(-1, self._count + 1):
            if index < 0:
                offset = 0
            elif index < self._count:
                offset = self._offset(index)
            else:
                offset = self._finish_at
            if io.read(f, offset, self._end) < 0:
                raise Unreadable("the journal cannot be read back")
            io.put_last(g)

    def check_prefix(self, budget):
        """Between keys, before the log is armed: read up to `budget` more of the records
        before the snapshot, which the boot skipped to stay as quick at event 3000 as at 300
        (each a seek and two reads, its CRC checked). True once, when one of them is
        damaged: the match plays on from the snapshot (its state is whole), an undo past it
        is refused, and the finished match is filed away whole as a damaged result. Never
        while armed (a seek flushes the pad, and the next record would erase again)."""
        at = self._checked
        if at < 0 or self._armed or not self._unindexed or self._broken is not None \
                or self._f is None:
            return False
        io, f, end = self._io, self._f, self._prefix_end
        while budget > 0 and at < end:
            n = io.read(f, at, end)
            if n < 0 or io.kind not in (KIND_EVENT, KIND_UNDO, KIND_PAD):
                self._checked = -1
                self.prefix_damaged = True
                return True
            at += n + OVERHEAD
            budget -= 1
        self._checked = at if at < end else -1
        return False
