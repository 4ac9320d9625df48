"""The journal's finished matches (done/<seq>.log) and the damaged results set aside
(damaged/<seq>.log), kept until the laptop acknowledges them: `FinishedMatches`, a base of
firmware/journal.py's `Journal`, whose fields (_done, _aside, _io, log, paths) it works on.
A finished match whose filing to littlefs waits for a quiet tick (a board with a ring,
firmware/journal_ring_file.py) is listed, and its meta known, before it is filed; anything
that reads its file files it first (`_filed`). Filing a finished match away
(`_file_away`; on a board with a ring a step per quiet tick, `_file_step`) is here too.
"""

import json
import os

from firmware import snapshot
from firmware.journal_records import (
    CURRENT,
    KIND_EVENT,
    KIND_FINISH,
    KIND_PAD,
    KIND_SETTINGS,
    OVERHEAD,
    SET_ASIDE,
    TMP,
    JournalError,
    ResultDamaged,
    Unreadable,
    file_size,
    flush_to_flash,
)
from firmware.room import open_file
from rules_core import canon
from rules_core.match import FORMAT


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _text(data):
    return str(data, "utf-8")


class FinishedMatches:
    """The finished and the damaged results of a Journal (see there for the fields)."""

    def _filed(self):
        """File away a finished match still waiting for its quiet tick (Journal.prepare)."""
        log = self.log
        if log is not None and log.finish_meta is not None:
            self._file_away()

    def _waiting(self):
        """The sequence number of a finished match not yet filed away, or 0."""
        log = self.log
        return log.seq if log is not None and log.finish_meta is not None else 0

    def _put_aside(self, seq, source):
        """Rename a damaged result's file into SET_ASIDE, whole: kept for the laptop, which
        gets its bytes as they are; it is no longer a result the board can read."""
        self._mkdir(self._path(SET_ASIDE))
        os.rename(source, self._aside_path(seq))
        if seq not in self._aside:
            self._aside.append(seq)
            self._aside.sort()

    def _file_away(self):
        if self.ring is not None:
            while self._file_step():
                pass
            return self._filed_seq
        log = self.log
        seq = log.seq
        path = self._done_path(seq)
        whole = True
        if _exists(path):
            log.close()
            os.remove(self._path(CURRENT))
        elif log.prefix_damaged or not self._compact_into(log, path):
            # A record of it no longer reads back: the whole log, F and all, is the result,
            # for the laptop to see as damaged (a cut back to the damage would lose it).
            log.close()
            self._put_aside(seq, self._path(CURRENT))
            whole = False
        return self._now_filed(seq, whole)

    def _now_filed(self, seq, whole=True):
        self.log = None
        snapshot.remove(self.root)
        if whole and seq not in self._done:
            self._done.append(seq)
            self._done.sort()
        self._filed_seq = seq
        return seq

    def _file_step(self):
        """A finished match's filing on a board with a ring, one step a call (one littlefs
        write each: a key latched meanwhile waits for one): SEQ; its records still in the
        ring, FILE_STEP at a time, when littlefs has its file; the file renamed into done/
        (or its effective records written there, compact); then the ring let go. False once
        it is filed (done/<seq>.log, or set aside as damaged)."""
        log = self.log
        if log is None:
            return False
        seq = log.seq
        f = log._f
        path = self._done_path(seq)
        if self._seq_kept < self._seq:
            self._keep_seq()
            return True
        if self._done_written == seq or _exists(path):
            # done/<seq>.log has every record: current.log goes first, the ring's records
            # last (a cut between leaves the match in the ring alone, which a boot finds
            # filed by its number: never a ring half let go under a current.log).
            f.close_file()
            _remove(self._path(CURRENT))
            f.close(False)
            log._f = None
            self._done_written = 0
            self._now_filed(seq)
            return False
        if log.prefix_damaged:
            log.close()
            self._put_aside(seq, self._path(CURRENT))
            self._now_filed(seq, False)
            return False
        if f.in_littlefs() and log.compact_already():
            if f.file_step():
                return True
            log.close()
            os.rename(self._path(CURRENT), path)
            self._now_filed(seq)
            return False
        if not self._compact_to(log, seq, path):
            log.close()
            self._put_aside(seq, self._path(CURRENT))
            self._now_filed(seq, False)
            return False
        self._done_written = seq
        return True

    def _compact_into(self, log, path):
        """File the finished log away as `path`; False if its records cannot be read back."""
        if log.compact_already():
            # Nothing undone: the file is the result as it stands. Renaming it needs no
            # second file (1 KB of littlefs cache from a heap the match has fragmented).
            log.close()
            os.rename(self._path(CURRENT), path)
            return True
        if not self._compact_to(log, log.seq, path):
            return False
        log.close()
        os.remove(self._path(CURRENT))
        return True

    def _compact_to(self, log, seq, path):
        """The log's compact form written whole to a temporary file, then renamed `path` (a
        cut leaves no file or a whole one); False, and no file, if its records cannot be read
        back."""
        tmp = self._done_path(seq, TMP)
        g = open_file(tmp, "wb")
        try:
            log.write_compact(g)
            flush_to_flash(g)
        except Unreadable:
            g.close()
            g = None
            os.remove(tmp)
            return False
        finally:
            if g is not None:
                g.close()
        os.rename(tmp, path)
        return True

    # -- finished matches -------------------------------------------------------------

    def finished(self):
        """Sequence numbers of the finished matches the host has not acknowledged."""
        waiting = self._waiting()
        if waiting and waiting not in self._done:
            return self._done + [waiting]
        return list(self._done)

    def meta(self, seq):
        """A finished match's meta (its start meta with the finish meta over it)."""
        if seq and seq == self._waiting():
            meta = dict(self.log.meta)
            meta.update(self.log.finish_meta)
            return meta
        return self._scan_done(seq)[1]

    def _scan_done(self, seq, on_event=None):
        """Check done/<seq>.log record by record; call `on_event(payload)` for each event.
        Returns (settings, meta): the start meta updated with the finish meta. A file that
        is not a whole match is set aside (ResultDamaged): the next read is not refused the
        same way for ever, and the laptop gets it as a damaged result."""
        self._filed()
        if seq not in self._done:
            raise JournalError("no finished match %s" % seq)
        with open_file(self._done_path(seq), "rb") as f:
            found = self._read_done(f, on_event)
        if found is not None:
            return found
        self._done.remove(seq)
        try:
            self._put_aside(seq, self._done_path(seq))
        except OSError:  # (a flash error: it stays where it was, refused as before)
            self._done.append(seq)
            self._done.sort()
            raise JournalError("finished match %d is damaged" % seq)
        raise ResultDamaged(seq)

    def _read_done(self, f, on_event):
        io = self._io
        size = file_size(f)
        offset = 0
        settings = meta = None
        while offset < size:
            n = io.read(f, offset, size)
            if n < 0:
                return None
            offset += n + OVERHEAD
            kind = io.kind
            if kind == KIND_SETTINGS and settings is None:
                meta = io.meta()  # None unless an object with an object "meta"
                if meta is None:
                    return None
                settings = io.value().get("settings")
                if not isinstance(settings, dict):
                    return None
            elif kind == KIND_EVENT and settings is not None:
                if on_event is not None:
                    on_event(io.payload())
            elif kind == KIND_PAD and settings is not None:
                pass  # filed by renaming the log it was armed in: means nothing
            elif kind == KIND_FINISH and settings is not None and offset == size:
                finish = io.meta()
                if finish is None:
                    return None
                meta.update(finish)
                return settings, meta
            else:
                return None
        return None

    def document(self, seq):
        """The finished match as a "pilkku.match/1" document (see rules_core/matchlog.py)."""
        events = []
        settings, meta = self._scan_done(seq, lambda payload: events.append(json.loads(payload)))
        return {"format": FORMAT, "settings": settings, "events": events, "meta": meta}

    def dump_document(self, seq, write, check_first=True):
        """Write the document as canonical JSON to `write` piece by piece, the same text as
        canon.dumps(document(seq)) without holding the events in RAM. With `check_first` the
        file is checked before anything is written, so a damaged one raises JournalError
        before any text; without, the file is read once and some text may be written before
        the error (for a writer that counts, or fills a buffer it then drops)."""
        if check_first:
            self._scan_done(seq)
        first = [True]

        def event(payload):
            if not first[0]:
                write(",")
            first[0] = False
            write(_text(payload))

        write('{"events":[')
        settings, meta = self._scan_done(seq, event)
        write('],"format":')
        write(json.dumps(FORMAT))
        write(',"meta":')
        canon.dump(meta, write)
        write(',"settings":')
        canon.dump(settings, write)
        write("}")

    def acknowledge(self, seq):
        """The host has the result: delete it. False if there is no such result."""
        self._filed()
        if seq not in self._done:
            return False
        os.remove(self._done_path(seq))
        self._done.remove(seq)
        return True

    # -- damaged results --------------------------------------------------------------

    def damaged(self):
        """Sequence numbers of the results set aside as damaged, not yet acknowledged (a
        finished match waiting to be filed is not yet one)."""
        return list(self._aside)

    def damaged_bytes(self, seq, most):
        """A damaged result's file as it is on flash, in one bytearray of its length (at
        most `most` bytes, else JournalError before anything is allocated)."""
        self._filed()
        if seq not in self._aside:
            raise JournalError("no damaged result %s" % seq)
        with open_file(self._aside_path(seq), "rb") as f:
            size = file_size(f)
            if size > most:
                raise JournalError("damaged result %d is too long to send (%d bytes)"
                                   % (seq, size))
            data = bytearray(size)
            f.seek(0)
            got = f.readinto(data)
        if got != size:
            raise JournalError("damaged result %d cannot be read" % seq)
        return data

    def acknowledge_damaged(self, seq):
        """The host has stored a damaged result's bytes: delete it. False if unknown."""
        if seq not in self._aside:
            return False
        os.remove(self._aside_path(seq))
        self._aside.remove(seq)
        return True

