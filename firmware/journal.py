"""The power-safe journal: every accepted event is on flash before the display confirms it.

    journal = Journal("/journal")           # scans, repairs and recovers (see docs/journal.md)
    match = journal.resume()                # the match in progress, exactly as it was, or None
    match = journal.start(settings, meta)   # JournalFull while too many results are unsynced
    match.apply(event); match.undo()        # each returns once its record is flushed
    seq = journal.finish(meta)              # kept in done/<seq>.log until acknowledged
    journal.finished(); journal.document(seq); journal.dump_document(seq, write)
    journal.acknowledge(seq)                # only now is the result deleted

A file is a run of records: 1 byte kind, 2 bytes payload length (little endian), the payload,
then the CRC-32 of kind, length and payload (4 bytes, little endian). Each record is written
with one write call and flushed. A record whose CRC fails or that runs past the end of the
file (a write torn by a power cut) ends the file: it and anything after it are dropped by
rewriting the good prefix to a temporary file and renaming it over the journal (littlefs
renames atomically). Kinds: S (settings and meta: the first record), E (an accepted event),
U (undo of the last effective event), F (finished: the result meta; the last record).

The event log of the match in progress is `JournalLog`, the list-like store that `Match`
takes: it keeps only the file offset of each effective event (4 bytes per event, in fixed
pieces) and reads an event back from flash when it is asked for.
"""

import json
import os
import struct

from hardware.compat import const
from rules_core import canon
from rules_core.crc import crc32
from rules_core.match import Match, check_settings
from rules_core.matchlog import FORMAT
from rules_core.refusal import Refused

KIND_SETTINGS = const(0x53)  # b"S"
KIND_EVENT = const(0x45)  # b"E"
KIND_UNDO = const(0x55)  # b"U"
KIND_FINISH = const(0x46)  # b"F"

_HEAD = const(3)  # kind, length
_OVERHEAD = const(7)  # head and CRC
_MAX_PAYLOAD = const(65535)
_PIECE = const(64)  # event offsets per piece of the index
_BUF = const(256)  # starting size of the read and write buffers

CURRENT = "current.log"
DAMAGED = "damaged.log"
SEQ = "seq"
DONE = "done"
_TMP = ".tmp"
_LOG = ".log"


class JournalError(Exception):
    """The journal cannot do what was asked; `text` says why, for the board to show."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


class JournalFull(JournalError):
    """Too many finished matches are waiting for the host: no new match until a sync."""

    def __init__(self, count):
        super().__init__("%d results not yet synced: sync before starting a match" % count)
        self.count = count


def _sync(f):
    """Push a file's writes to the flash: flush (littlefs commits the file on flush), then
    fsync where there is one (CPython), else os.sync where there is one (MicroPython)."""
    f.flush()
    fsync = getattr(os, "fsync", None)
    if fsync is not None:
        fsync(f.fileno())
        return
    sync = getattr(os, "sync", None)
    if sync is not None:
        sync()


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


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        if not _exists(path):
            raise


def _meta(meta):
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise JournalError("meta must be an object")
    canon.dumps(meta)  # TypeError now, before anything is written, if it is not JSON
    return meta


def _size(f):
    f.seek(0, 2)
    return f.tell()


def _text(data):
    return str(data, "utf-8")


class _Records:
    """Reads and writes records through two buffers that are reused, not reallocated per
    record (a buffer is replaced by a bigger one only for a record longer than any before)."""

    def __init__(self):
        self._rbuf = bytearray(_BUF)
        self._wbuf = bytearray(_BUF)
        self.kind = 0  # of the record read last
        self.length = 0  # its payload length

    @staticmethod
    def _grown(buf, need):
        if len(buf) >= need:
            return buf
        return bytearray((need + 63) & ~63)

    def write(self, f, kind, payload):
        """Write one record with a single write call; return its size on flash."""
        n = len(payload)
        if n > _MAX_PAYLOAD:
            raise JournalError("record too long (%d bytes)" % n)
        total = n + _OVERHEAD
        buf = self._wbuf = self._grown(self._wbuf, total)
        buf[0] = kind
        buf[1] = n & 0xFF
        buf[2] = n >> 8
        buf[_HEAD:_HEAD + n] = payload
        view = memoryview(buf)
        struct.pack_into("<I", buf, _HEAD + n, crc32(view[:_HEAD + n]))
        written = f.write(view[:total])
        if written is not None and written != total:
            raise OSError(28)  # ENOSPC: a short write
        return total

    def read(self, f, offset, limit):
        """Read and check the record at `offset` of a file whose good data ends at `limit`.
        Return its payload length (the kind is in `kind`, the payload in `payload()`), or
        -1 if the record is torn (it runs past `limit`), or -2 if its CRC is wrong."""
        if limit - offset < _OVERHEAD:
            return -1
        buf = self._rbuf
        f.seek(offset)
        if f.readinto(memoryview(buf)[:_HEAD]) != _HEAD:
            return -1
        n = buf[1] | (buf[2] << 8)
        total = n + _OVERHEAD
        if offset + total > limit:
            return -1
        if len(buf) < total:
            kind = buf[0]
            buf = self._rbuf = self._grown(buf, total)
            buf[0] = kind
            buf[1] = n & 0xFF
            buf[2] = n >> 8
        view = memoryview(buf)
        if f.readinto(view[_HEAD:total]) != total - _HEAD:
            return -1
        if struct.unpack_from("<I", buf, _HEAD + n)[0] != crc32(view[:_HEAD + n]):
            return -2
        self.kind = buf[0]
        self.length = n
        return n

    def payload(self):
        """A copy of the payload of the record read last."""
        return self._rbuf[_HEAD:_HEAD + self.length]

    def value(self):
        """The payload of the record read last, parsed as JSON."""
        try:
            return json.loads(self._rbuf[_HEAD:_HEAD + self.length])
        except ValueError:
            raise JournalError("a journal record is not JSON")

    def put_last(self, f):
        """Write the record read last, as it is (one write call)."""
        total = self.length + _OVERHEAD
        if f.write(memoryview(self._rbuf)[:total]) not in (None, total):
            raise OSError(28)
        return total

    def copy_bytes(self, src, dst, count):
        """Copy the first `count` bytes of `src` to `dst`, a buffer at a time."""
        src.seek(0)
        view = memoryview(self._rbuf)
        done = 0
        while done < count:
            step = min(len(view), count - done)
            got = src.readinto(view[:step])
            if not got:
                break
            dst.write(view[:got])
            done += got
        return done


class JournalLog:
    """The events of the match in progress, on flash: a list-like store for
    `Match(settings, log=...)`. `append` writes an E record, `pop` a U record; `[i]` and
    iteration read events back from the file. In RAM: one file offset per effective event."""

    def __init__(self, journal, path, tmp):
        self._journal = journal
        self._io = journal._io
        self._path = path
        self._tmp = tmp
        self._f = None
        self._pieces = []  # lists of _PIECE offsets, allocated whole
        self._count = 0
        self._end = 0  # where the next record goes: the end of the good records
        self._live = 0  # bytes of the S record and the effective E records
        self._broken = None  # why the log refuses to go on, after a failed write
        self.seq = 0
        self.settings = None
        self.meta = None
        self.finish_meta = None  # set once an F record is on flash
        self._finish_at = -1

    # -- the offset index -------------------------------------------------------------

    def _push(self, offset):
        slot = self._count % _PIECE
        if slot == 0 and self._count // _PIECE == len(self._pieces):
            self._pieces.append([0] * _PIECE)
        self._pieces[self._count // _PIECE][slot] = offset
        self._count += 1

    def _offset(self, index):
        return self._pieces[index // _PIECE][index % _PIECE]

    def _drop(self):
        self._count -= 1
        if self._count % _PIECE == 0 and len(self._pieces) > self._count // _PIECE + 1:
            self._pieces.pop()

    # -- loading ----------------------------------------------------------------------

    def load(self):
        """Scan the file; keep the longest run of good records that makes sense (S first,
        U only with an event to undo, nothing after F) and cut anything after it. Returns
        True if the file held a match (False: no usable S record, the file is moved aside)."""
        io = self._io
        f = self._f = open(self._path, "r+b")
        size = _size(f)
        n = io.read(f, 0, size)
        start = None
        if n >= 0 and io.kind == KIND_SETTINGS:
            try:
                start = io.value()
            except JournalError:
                pass
        if not isinstance(start, dict):
            self.close()
            return False
        self.seq = start.get("seq", 0)
        self.settings = start.get("settings")
        self.meta = start.get("meta") or {}
        offset = self._live = n + _OVERHEAD
        while offset < size:
            n = io.read(f, offset, size)
            if n < 0:
                break
            kind = io.kind
            if kind == KIND_EVENT:
                self._push(offset)
                self._live += n + _OVERHEAD
            elif kind == KIND_UNDO and self._count:
                self._live -= self._record_size(f, self._offset(self._count - 1))
                self._drop()
            elif kind == KIND_FINISH:
                self.finish_meta = io.value().get("meta") or {}
                self._finish_at = offset
                offset += n + _OVERHEAD
                break
            else:
                n = -2  # a record out of place: as good as a bad CRC
                break
            offset += n + _OVERHEAD
        self._end = offset
        if offset < size and self.finish_meta is None:
            # A torn tail: the bad record runs past the end of the file. Anything else is
            # damage, not a power cut: a copy of the file is kept for the host to look at.
            torn = n == -1
            self._cut(offset, not torn)
        elif self.finish_meta is None:
            self._maybe_compact()
        return True

    @staticmethod
    def _record_size(f, offset):
        head = bytearray(_HEAD)
        f.seek(offset)
        f.readinto(head)
        return (head[1] | (head[2] << 8)) + _OVERHEAD

    def _cut(self, end, keep_copy):
        """Make the file its first `end` bytes: copy them to a temporary file and rename it
        over the journal (atomic on littlefs: a power cut leaves either file, both good)."""
        io = self._io
        f = self._f
        root = self._journal.root
        if keep_copy:
            g = open(root + "/" + DAMAGED + _TMP, "wb")
            io.copy_bytes(f, g, _size(f))
            _sync(g)
            g.close()
            os.rename(root + "/" + DAMAGED + _TMP, root + "/" + DAMAGED)
        g = open(self._tmp, "wb")
        io.copy_bytes(f, g, end)
        _sync(g)
        g.close()
        del f, g  # see _replace
        self._replace()

    def _replace(self):
        """Rename the temporary file over the journal and reopen it. The callers drop their
        references to the old and the temporary file first: a file object holds littlefs'
        1 KB cache, and reopening then reuses one of theirs instead of needing a third block
        from a fragmented heap."""
        self._f.close()
        self._f = None
        os.rename(self._tmp, self._path)
        self._f = open(self._path, "r+b")

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
        g = open(self._tmp, "wb")
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
                if index % _PIECE == 0:
                    pieces.append([0] * _PIECE)
                pieces[index // _PIECE][index % _PIECE] = end
                end += io.put_last(g)
            _sync(g)
        finally:
            g.close()
        del f, g  # see _replace
        self._replace()
        self._pieces = pieces
        self._end = self._live = end

    # -- the list-like store ----------------------------------------------------------

    def _file(self, writing=False):
        if writing and self._broken is not None:
            raise JournalError(self._broken)
        if self._f is None:
            # After a rewrite that could not reopen the file, reading says why too.
            raise JournalError(self._broken or "no match in progress")
        return self._f

    def _write(self, kind, payload):
        f = self._file(True)
        try:
            f.seek(self._end)
            size = self._io.write(f, kind, payload)
            _sync(f)
        except Exception as error:
            # The record may or may not be on flash: as after a power cut, only a restart
            # (which scans the file) can tell. Until then the journal takes no more.
            self._broken = "journal write failed (%s): restart the board" % error
            raise
        offset = self._end
        self._end += size
        return offset, size

    def append(self, event):
        if self.finish_meta is not None:
            raise JournalError("the match is finished")
        offset, size = self._write(KIND_EVENT, canon.dumps(event).encode())
        self._push(offset)
        self._live += size

    def pop(self):
        if not self._count:
            raise IndexError("no event to undo")
        if self.finish_meta is not None:
            raise JournalError("the match is finished")
        event = self[self._count - 1]
        size = self._io.length + _OVERHEAD
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
            raise JournalError("event %d cannot be read back from flash" % index)
        return self._io.value()

    def __iter__(self):
        for index in range(self._count):
            yield self[index]

    def finish(self, meta):
        offset, size = self._write(KIND_FINISH, canon.dumps({"meta": meta}).encode())
        self.finish_meta = meta
        self._finish_at = offset

    def write_compact(self, g):
        """Write the S record, the effective events and the F record to `g`."""
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
                raise JournalError("the journal cannot be read back")
            io.put_last(g)

    def flash_bytes(self):
        """Bytes the match in progress takes in its file (for benchmarks and docs)."""
        return self._end

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None


class Journal:
    """The journal directory at `root`: the match in progress and the finished matches the
    host has not acknowledged. Opening it repairs what a power cut left half done."""

    def __init__(self, root, max_finished=16, compact_min=4096):
        self.root = root
        self.max_finished = max_finished
        self.compact_min = compact_min  # dead bytes the current file may hold before compaction
        self._io = _Records()
        self.log = None  # the JournalLog of the match in progress
        self._seq = 0  # the last sequence number given to a match
        self._done = []  # sequence numbers of finished, unacknowledged matches
        self._open()

    def _path(self, name):
        return self.root + "/" + name

    def _done_path(self, seq, suffix=_LOG):
        return "%s/%s/%d%s" % (self.root, DONE, seq, suffix)

    def _open(self):
        _mkdir(self.root)
        _mkdir(self._path(DONE))
        for name in os.listdir(self.root):
            if name.endswith(_TMP):
                _remove(self._path(name))
        for name in os.listdir(self._path(DONE)):
            if name.endswith(_TMP):
                _remove(self._path(DONE) + "/" + name)
            elif name.endswith(_LOG) and name[:-len(_LOG)].isdigit():
                self._done.append(int(name[:-len(_LOG)]))
        self._done.sort()
        try:
            with open(self._path(SEQ)) as f:
                self._seq = int(f.read().strip())
        except (OSError, ValueError):
            self._seq = 0
        for seq in self._done:
            self._seq = max(self._seq, seq)
        if _exists(self._path(CURRENT)):
            log = JournalLog(self, self._path(CURRENT), self._path(CURRENT + _TMP))
            if not log.load():
                os.rename(self._path(CURRENT), self._path(DAMAGED))
                return
            self._seq = max(self._seq, log.seq)
            self.log = log
            if log.finish_meta is not None:
                self._file_away()

    # -- the match in progress --------------------------------------------------------

    @property
    def active(self):
        """True while a match is in progress."""
        return self.log is not None

    def start(self, settings, meta=None):
        """Start a match: its S record is on flash when this returns the Match. Refused for
        bad settings; JournalError while a match is in progress; JournalFull while
        `max_finished` results wait for the host."""
        if self.log is not None:
            raise JournalError("a match is in progress: finish it before starting another")
        if len(self._done) >= self.max_finished:
            raise JournalFull(len(self._done))
        settings = check_settings(settings)
        meta = _meta(meta)
        seq = self._seq + 1
        payload = canon.dumps({"meta": meta, "seq": seq, "settings": settings}).encode()
        self._write_text(SEQ, "%d" % seq)
        self._seq = seq
        tmp = self._path(CURRENT + _TMP)
        g = open(tmp, "wb")
        try:
            self._io.write(g, KIND_SETTINGS, payload)
            _sync(g)
        finally:
            g.close()
        os.rename(tmp, self._path(CURRENT))
        log = JournalLog(self, self._path(CURRENT), tmp)
        if not log.load():
            raise JournalError("the new match cannot be read back from flash")
        self.log = log
        return Match(settings, log=log)

    def resume(self):
        """The match in progress rebuilt from flash (a new Match each call), or None."""
        if self.log is None:
            return None
        try:
            return Match(self.log.settings, log=self.log)
        except Refused as refusal:
            raise JournalError("the journal's match does not replay: " + refusal.text)

    def finish(self, meta=None):
        """End the match in progress: write F, then file it away as done/<seq>.log with only
        its effective events. Returns its sequence number. Undo is over once this is called,
        so call it when the result is confirmed."""
        if self.log is None:
            raise JournalError("no match in progress")
        if self.log.finish_meta is None:
            self.log.finish(_meta(meta))
        return self._file_away()

    def _file_away(self):
        log = self.log
        seq = log.seq
        path = self._done_path(seq)
        if not _exists(path):
            tmp = self._done_path(seq, _TMP)
            g = open(tmp, "wb")
            try:
                log.write_compact(g)
                _sync(g)
            finally:
                g.close()
            os.rename(tmp, path)
        log.close()
        os.remove(self._path(CURRENT))
        self.log = None
        if seq not in self._done:
            self._done.append(seq)
            self._done.sort()
        return seq

    # -- finished matches -------------------------------------------------------------

    def finished(self):
        """Sequence numbers of the finished matches the host has not acknowledged."""
        return list(self._done)

    def _scan_done(self, seq, on_event=None):
        """Check done/<seq>.log record by record; call `on_event(payload)` for each event.
        Returns (settings, meta): the start meta updated with the finish meta."""
        if seq not in self._done:
            raise JournalError("no finished match %s" % seq)
        io = self._io
        with open(self._done_path(seq), "rb") as f:
            size = _size(f)
            offset = 0
            settings = meta = None
            while offset < size:
                n = io.read(f, offset, size)
                if n < 0:
                    break
                offset += n + _OVERHEAD
                kind = io.kind
                if kind == KIND_SETTINGS and settings is None:
                    start = io.value()
                    settings = start.get("settings")
                    meta = start.get("meta") or {}
                elif kind == KIND_EVENT and settings is not None:
                    if on_event is not None:
                        on_event(io.payload())
                elif kind == KIND_FINISH and settings is not None and offset == size:
                    meta.update(io.value().get("meta") or {})
                    return settings, meta
                else:
                    break
        raise JournalError("finished match %d is damaged" % seq)

    def document(self, seq):
        """The finished match as a "pilkku.match/1" document (see rules_core/matchlog.py)."""
        events = []
        settings, meta = self._scan_done(seq, lambda payload: events.append(json.loads(payload)))
        return {"format": FORMAT, "settings": settings, "events": events, "meta": meta}

    def dump_document(self, seq, write):
        """Write the document as canonical JSON to `write` piece by piece, the same text as
        canon.dumps(document(seq)) without holding the events in RAM. The file is checked
        first, so a damaged one raises JournalError before anything is written."""
        settings, meta = self._scan_done(seq)
        first = [True]

        def event(payload):
            if not first[0]:
                write(",")
            first[0] = False
            write(_text(payload))

        write('{"events":[')
        self._scan_done(seq, event)
        write('],"format":')
        write(json.dumps(FORMAT))
        write(',"meta":')
        canon.dump(meta, write)
        write(',"settings":')
        canon.dump(settings, write)
        write("}")

    def acknowledge(self, seq):
        """The host has the result: delete it. False if there is no such result."""
        if seq not in self._done:
            return False
        os.remove(self._done_path(seq))
        self._done.remove(seq)
        return True

    # -- helpers ----------------------------------------------------------------------

    def _write_text(self, name, text):
        tmp = self._path(name + _TMP)
        g = open(tmp, "w")
        try:
            g.write(text)
            _sync(g)
        finally:
            g.close()
        os.rename(tmp, self._path(name))

    def close(self):
        if self.log is not None:
            self.log.close()
