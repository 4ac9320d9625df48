"""The journal's record format and its file primitives (see docs/journal.md).

A file is a run of records: 1 byte kind, 2 bytes payload length (little endian), the payload,
then the CRC-32 of kind, length and payload (4 bytes, little endian). Each record is written
with one write call and flushed. Kinds: S (settings and meta: the first record), E (an
accepted event), U (undo of the last effective event), F (finished: the result meta; the
last record), P (a pad, empty, meaning nothing: written between keys so that the next
record's write finds its flash erased, firmware/journal_log.py `arm`); K is the snapshot
file's one record (firmware/snapshot.py). `Records` reads
and writes them; firmware/journal_log.py and firmware/journal.py decide what a run of them
means.
"""

import json
import os
import struct

from hardware.compat import const
from rules_core.crc import crc32

KIND_SETTINGS = const(0x53)  # b"S"
KIND_EVENT = const(0x45)  # b"E"
KIND_UNDO = const(0x55)  # b"U"
KIND_FINISH = const(0x46)  # b"F"
KIND_PAD = const(0x50)  # b"P"
KIND_SNAPSHOT = const(0x4B)  # b"K": the snapshot file's one record (firmware/snapshot.py)

_HEAD = const(3)  # kind, length
OVERHEAD = const(7)  # head and CRC
_MAX_PAYLOAD = const(65535)
_BUF = const(256)  # starting size of the read and write buffers
PIECE = const(64)  # event offsets per piece of a log's index (firmware/journal_log.py)

CURRENT = "current.log"  # the match in progress
DAMAGED = "damaged.log"  # a damaged journal file, kept for the host to look at
SET_ASIDE = "damaged"  # the folder of finished matches that failed their check: <seq>.log
TMP = ".tmp"  # a file being written; renamed into place when it is whole

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


class ResultDamaged(JournalError):
    """A finished match failed its check: it was set aside whole (SET_ASIDE/<seq>.log) for
    the laptop, and every other result goes on as before."""

    def __init__(self, seq):
        super().__init__("finished match %d is damaged: set aside for the laptop" % seq)
        self.seq = seq


class Unreadable(JournalError):
    """A record of the match in progress no longer reads back (damage, not a power cut)."""


def flush_to_flash(f):
    """Push a file's writes to the flash: flush (littlefs commits the file on flush), then
    fsync where there is one (CPython), else os.sync where there is one (MicroPython). A
    log with the ring in front of it (firmware/journal_ring_file.py) is on flash already."""
    f.flush()
    if getattr(f, "durable", False):
        return
    fsync = getattr(os, "fsync", None)
    if fsync is not None:
        fsync(f.fileno())
        return
    sync = getattr(os, "sync", None)
    if sync is not None:
        sync()


def file_size(f):
    f.seek(0, 2)
    return f.tell()


class Records:
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
        total = n + OVERHEAD
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
        if limit - offset < OVERHEAD:
            return -1
        buf = self._rbuf
        f.seek(offset)
        if f.readinto(memoryview(buf)[:_HEAD]) != _HEAD:
            return -1
        n = buf[1] | (buf[2] << 8)
        total = n + OVERHEAD
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

    def crc(self):
        """The stored CRC of the record read last."""
        return struct.unpack_from("<I", self._rbuf, _HEAD + self.length)[0]

    def payload(self):
        """A copy of the payload of the record read last."""
        return self._rbuf[_HEAD:_HEAD + self.length]

    def value(self):
        """The payload of the record read last, parsed as JSON."""
        try:
            return json.loads(self._rbuf[_HEAD:_HEAD + self.length])
        except ValueError:
            raise JournalError("a journal record is not JSON")

    def meta(self):
        """The "meta" object of the S or F record read last ({} if it has none); None if
        the payload is not such an object: damage a CRC did not catch."""
        try:
            value = self.value()
        except JournalError:
            return None
        meta = value.get("meta", {}) if isinstance(value, dict) else None
        return meta if isinstance(meta, dict) else None

    def put_last(self, f):
        """Write the record read last, as it is (one write call)."""
        total = self.length + OVERHEAD
        if f.write(memoryview(self._rbuf)[:total]) not in (None, total):
            raise OSError(28)
        return total

    def copy_bytes(self, src, dst, count):
        """Copy the first `count` bytes of `src` to `dst`, a buffer at a time; return how
        many were copied (fewer if `src` is shorter)."""
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

    @staticmethod
    def size_at(f, offset):
        """The size on flash of the record at `offset` (its head read, nothing checked)."""
        head = bytearray(_HEAD)
        f.seek(offset)
        f.readinto(head)
        return (head[1] | (head[2] << 8)) + OVERHEAD
