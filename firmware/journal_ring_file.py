"""The match in progress's log when the board has a ring (docs/journal.md, "The key's record
outside littlefs"): current.log as littlefs holds it, followed by the records the ring holds
for it, read and written as one file. `JournalLog` takes it where it would open current.log.

    f = RingFile(ring, path, tmp)          # takes the ring's records that go on from the
                                           # littlefs file (none yet: `fresh`, see below)
    f.write(record)            # one journal record: a ring record, on flash when it returns
    f.seek(pos); f.readinto(buf); f.tell()   # the whole log, littlefs' part and the ring's
    f.quiet()                  # between keys: one step, FILE_STEP records filed to littlefs,
                               # or a sector erased ahead
    f.settle()                 # file every record to littlefs; the ring is empty after
    f.close()                  # settles first (close(False): the ring let go unfiled, for a
                               # match littlefs holds elsewhere: done/<seq>.log)

A match begins in the ring (`fresh`: its S record is the first ring record, at offset 0,
and no littlefs file exists yet): the key that starts it programs one page. littlefs gets
current.log with the first filing (written whole to `tmp`, then renamed: a cut leaves no
file or a whole one), and a boot with no current.log takes the match from the ring's S
record at offset 0.

A ring record's payload is a tag (the CRC of the log's S record, which names the match, and
the record's offset in the log, 4 bytes each, little endian) and the journal record's bytes.
At boot the ring's records of this match are taken in order from the littlefs file's end:
one whose offset is below it is already filed (the filing was cut before the ring's release),
one above it ends the log (damage). Records go to littlefs between keys, FILE_AT at a time
(one littlefs append and commit per quiet tick, at most FILE_STEP records), and only
then are their sectors released; a record too long
for the ring is written to littlefs in the key. Before littlefs' file is rewritten (cut back,
compacted, filed away: firmware/journal_rewrite.py), `close` settles: no ring record naming
the old file's offsets outlives it.
"""

from firmware.journal_records import KIND_SETTINGS as _KIND_S
from firmware.journal_records import flush_to_flash
from firmware.journal_ring import MAX_PAYLOAD, RingFull, get32, put32
from firmware.room import open_file

_TAG = 8
FILE_AT = 64  # records waiting in the ring before the quiet ticks file them to littlefs
FILE_STEP = 32  # ... of them in one quiet tick: one littlefs append and commit (~1.5 KB)
MOST = 256  # ... that a key files itself (no quiet tick came): RAM for the index is bounded
_CHUNK = 256



class RingFile:
    durable = True  # a write is on flash when it returns: flush_to_flash has nothing to do

    def __init__(self, ring, path, tmp=None, fresh=False):
        self.ring = ring
        self._path = path
        self._tmp = tmp or path + ".tmp"
        self._f = None  # littlefs' part (none yet for a match that begins in the ring)
        self._filed = 0  # littlefs' part ends here
        if not fresh:
            self._f = open_file(path, "r+b")
            self._f.seek(0, 2)
            self._filed = self._f.tell()
        self._end = self._filed  # the log ends here
        self._pos = 0
        self._tag = bytearray(_TAG)
        self._buf = bytearray(_CHUNK)
        self._offs = []  # each waiting record's offset in the log
        self._at = []  # ... its place in the ring
        self._lens = []  # ... its length
        self._nums = []  # ... its ring record number (released once filed)
        self._filed_number = 0  # the ring number of the last record filed
        self._id = self._match_id() if not fresh else 0
        self.problem = None  # what the boot's walk of the ring set aside, for the displays
        self._take()

    def _match_id(self):
        """The CRC of the log's first record (S): tells this match's ring records from an
        older match's."""
        head = self._buf
        f = self._f
        f.seek(0)
        if self._filed < 7 or f.readinto(memoryview(head)[:3]) != 3:
            return 0
        n = head[1] | head[2] << 8
        if 7 + n > self._filed:
            return 0
        f.seek(3 + n)
        f.readinto(memoryview(head)[:4])
        return get32(head, 0)

    def _take(self):
        """At boot: the ring's records of this match that go on from littlefs' part."""
        ring = self.ring
        if ring.problem is None and ring.empty():
            return  # none (a match that starts now: the ring was just restarted)
        tag = memoryview(self._tag)
        filed = 0
        for pos, number, kind, length in ring.records():
            if length < _TAG:
                continue
            ring.readinto(pos, 0, tag)
            off = get32(tag, 4)
            if not self._id and off == 0 and kind == _KIND_S:
                self._id = get32(tag, 0)  # a match that began in the ring: its S record
            elif get32(tag, 0) != self._id or not self._id:
                continue
            if off != self._end:
                if off < self._end:
                    continue  # filed already
                self.problem = "JOURNAL DAMAGED: LAST SHOTS SET ASIDE"
                filed = 1  # a record missing before it: damage, the log ends here, and
                break  # the ring is emptied (settle) so that no later boot reads past it
            if len(self._offs) >= MOST:
                self._file()  # (no release inside the ring's walk: below)
                filed = 1
            self._note(pos, off, length - _TAG, number)
        if ring.problem is not None:
            self.problem = "JOURNAL DAMAGED: LAST SHOTS SET ASIDE"
        if filed or ring.problem is not None:
            self.settle()

    def _note(self, pos, off, length, number):
        self._offs.append(off)
        self._at.append(pos)
        self._lens.append(length)
        self._nums.append(number)
        self._end = off + length

    # --- the file's calls --------------------------------------------------------------

    def write(self, data):
        n = len(data)
        if n + _TAG > MAX_PAYLOAD:
            self.settle()  # too long for the ring (a long S or F): littlefs, in order
            if self._f is None:
                self._create(0, data)
            else:
                self._f.seek(self._end)
                self._f.write(data)
                flush_to_flash(self._f)
            self._end += n
            self._filed = self._end
            self._pos = self._end
            return n
        if len(self._offs) >= MOST:
            self.settle()
        if not self._end:  # the S record: the match's id is its CRC (its last 4 bytes)
            self._id = get32(data, n - 4)
        put32(self._tag, 0, self._id)
        put32(self._tag, 4, self._end)
        try:
            number = self.ring.append(data[0], data, self._tag)
        except RingFull:  # nothing filed for a long time: file now, in the key
            self.settle()
            number = self.ring.append(data[0], data, self._tag)
        self._note(self.ring.pos, self._end, n, number)
        self._pos = self._end
        return n

    def seek(self, offset, whence=0):
        if whence == 2:
            offset += self._end
        elif whence == 1:
            offset += self._pos
        self._pos = offset
        return offset

    def tell(self):
        return self._pos

    def readinto(self, buf):
        view = memoryview(buf)
        want = len(buf)
        got = 0
        pos = self._pos
        while got < want and pos < self._end:
            if pos < self._filed:
                step = min(want - got, self._filed - pos)
                self._f.seek(pos)
                step = self._f.readinto(view[got:got + step])
                if not step:
                    break
            else:
                k = self._index(pos)
                inner = pos - self._offs[k]
                step = min(want - got, self._lens[k] - inner)
                self.ring.readinto(self._at[k], _TAG + inner, view[got:got + step])
            got += step
            pos += step
        self._pos = pos
        return got

    def _index(self, pos):
        """The waiting record that holds byte `pos` of the log (a binary search)."""
        offs = self._offs
        low, high = 0, len(offs) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if offs[mid] <= pos:
                low = mid
            else:
                high = mid - 1
        return low

    def flush(self):
        pass

    # --- between keys ------------------------------------------------------------------

    def waiting(self):
        """Records in the ring not yet filed to littlefs."""
        return len(self._offs)

    def quiet(self):
        """Between keys, one step: FILE_STEP records filed to littlefs once FILE_AT wait,
        else a sector erased ahead. Each is one littlefs commit or one erase (some 45 ms of
        flash on a Pico), so a key latched meanwhile waits for one step. True if it did."""
        if len(self._offs) >= FILE_AT:
            self._file(FILE_STEP)
            self._release()
            return True
        return self.ring.tidy()

    def in_littlefs(self):
        """True once littlefs has a file for the match (its first filing)."""
        return self._f is not None

    def file_step(self):
        """A finished match's filing, one step: FILE_STEP more records to littlefs. True if
        any were waiting."""
        if not self._offs:
            return False
        self._file(FILE_STEP)
        self._release()
        return True

    def _create(self, count, extra=None):
        """littlefs' file for a match that began in the ring: its first `count` waiting
        records (and `extra`) written whole to the temporary file, then renamed into place
        (a cut leaves no file, or a whole one), then opened to go on."""
        import os

        g = open_file(self._tmp, "wb")
        try:
            self._copy(g, count)
            if extra is not None:
                g.write(extra)
            flush_to_flash(g)
        finally:
            g.close()
        os.rename(self._tmp, self._path)
        self._f = open_file(self._path, "r+b")

    def _copy(self, g, count):
        view = memoryview(self._buf)
        for k in range(count):
            at, length, done = self._at[k], self._lens[k], 0
            while done < length:
                step = min(_CHUNK, length - done)
                self.ring.readinto(at, _TAG + done, view[:step])
                g.write(view[:step])
                done += step

    def _file(self, most=0):
        """Append the first `most` waiting records (0: all) to littlefs' file and commit it
        (the file made, if the match began in the ring)."""
        count = len(self._offs)
        if most and most < count:
            count = most
        if not count:
            return
        if self._f is None:
            self._create(count)
        else:
            f = self._f
            f.seek(self._filed)
            self._copy(f, count)
            flush_to_flash(f)
        self._filed = self._offs[count - 1] + self._lens[count - 1]
        self._filed_number = self._nums[count - 1]
        del self._offs[:count]
        del self._at[:count]
        del self._lens[:count]
        del self._nums[:count]

    def _release(self):
        """The ring's sectors that hold only filed records, retired."""
        number = self._filed_number
        if number:
            self.ring.release(number)

    def settle(self):
        """Every record filed to littlefs, then the ring's sectors released (a ring with
        damage, once its chain is filed, begins again)."""
        self._file()
        if self.ring.problem is not None:
            self.ring.restart()
        else:
            self.ring.release(self.ring.last)

    def close_file(self):
        """littlefs' part closed, nothing filed (the match is filed elsewhere: close(False)
        lets the ring go after)."""
        if self._f is not None:
            self._f.close()
            self._f = None

    def close(self, keep=True):
        """Settle and close; `keep` False: the records are kept elsewhere (the finished match's
        done file): the ring is let go without filing them."""
        if not keep:
            self._offs = []
            self._at = []
            self._lens = []
            self._nums = []
        try:
            self.settle()
        finally:
            if self._f is not None:
                self._f.close()
                self._f = None
