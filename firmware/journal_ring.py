"""The journal's ring of pre-erased flash sectors, outside littlefs (docs/journal.md, "The key's
record outside littlefs"): a key's record goes to flash with one program of whole 256-byte
pages into a sector erased ahead, never an erase or a littlefs call in the key's path.

    ring = Ring(dev, first, count)   # dev: rp2.Flash(start=, len=) or a block device: scans
    ring.problem                     # None, or why records after a point were set aside
    for pos, number, kind, length in ring.records(after): ring.read(pos, length)
    number = ring.append(kind, payload, tag)   # returns once the record is on flash
    ring.tidy()                      # between keys: erase a sector ahead (True if it did)
    ring.release(number)             # records up to it are kept elsewhere: reuse their sectors
    ring.restart()                   # retire every sector: a new, empty ring

A sector: a 16-byte header at offset 0 (magic, sector number, base record number, CRC-32),
programmed right after its erase (so it certifies the erase), a confirmation byte at 16
programmed after the header (so a header a cut may have left weak is never trusted), then
records packed one after another from offset 20. A record: kind (1 byte, not 0x00 or
0xFF), payload length (2, little endian), record number (4), payload, CRC-32 of all before
it (4), programmed as whole pages that are 0xFF but for its own bytes (a program only
clears bits: what the page held stays). Record numbers rise by one; the chain is read sector
by sector in sector-number order. A retired sector's header is programmed to zeros; a sector
with no valid header is free. RAM: one buffer of 5 pages (a record of up to 1 KB at any
offset of a page), allocated once; an append allocates nothing (its CRC's int aside).

Every device call goes through _read/_program/_erase, which refuse a block or offset outside
the ring (rp2.Flash checks nothing) and a program that is not whole aligned pages (the boot
ROM would send 256 bytes of the source per page, whatever follows the buffer).
"""

from struct import pack_into, unpack_from

from hardware.compat import const
from rules_core.crc import crc32

SECTOR = const(4096)
PAGE = const(256)
HEAD = const(20)  # the sector header, its confirmation and 3 bytes unused
_CONFIRM = const(16)  # 0x00 once the header's program has returned
OVERHEAD = const(11)  # a record's kind, length, number and CRC
MAX_RECORD = const(1024)
MAX_PAYLOAD = const(1013)  # MAX_RECORD - OVERHEAD
_SPAN = const(5)  # pages a record can touch: (255 + MAX_RECORD + 255) // 256
_MAGIC = const(0x31524B50)  # b"PKR1"
_FREE = const(0)  # no valid header (or retired): to be erased before use
_READY = const(1)  # erased, header programmed, nothing after it
_USED = const(2)  # holds records (or the bytes of a torn one); as bytes for `in` (below)
_ERASE = const(6)  # block protocol ioctl: erase a block
_COUNT = const(4)  # block protocol ioctl: block count
_FF = b"\xff" * PAGE
_ZEROS = bytes(HEAD)  # a retired sector's header


class RingError(Exception):
    """The ring cannot do what was asked; `text` says why, for the board to show."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


class RingFull(RingError):
    """No sector is free for the record: nothing was written."""


def get32(buf, at):  # little endian, one call into C: a record's head is in every key's path
    return unpack_from("<I", buf, at)[0]


def put32(buf, at, value):
    pack_into("<I", buf, at, value)


class Ring:
    def __init__(self, dev, first=0, count=None, ahead=2):
        blocks = dev.ioctl(_COUNT, 0)
        if count is None:
            count = blocks - first
        if first < 0 or count < 3 or first + count > blocks:
            raise RingError("no room for a ring of %s blocks at block %d of %d"
                            % (count, first, blocks))
        self.dev = dev
        self.first = first
        self.count = count
        self.ahead = ahead
        self._buf = bytearray(_SPAN * PAGE)  # the pages a record is programmed from
        view = memoryview(self._buf)
        self._spans = [view[:PAGE * k] for k in range(_SPAN + 1)]  # made once: no slicing
        self._head = bytearray(7)  # a record's kind, length and number
        self._state = bytearray(count)
        self._number = [0] * count  # each sector's number (from its header)
        self._top = [0] * count  # the last record number a sector holds (0: none)
        self._sector = -1  # where records go now
        self._at = 0  # and at which offset of it
        self._next = 1  # the next record's number
        self._next_sector = 1
        self._cursor = 0  # where the search for a sector to erase begins
        self.problem = None
        self.last = 0  # the chain's last record number (0: none)
        self.pos = 0  # where the last record written is (for read/readinto)
        self.late = 0  # sectors erased in a record's path: no quiet tick came first
        self._seen_max = 0  # the highest record number seen, set aside ones too
        self._scan()

    # --- the device, checked ---------------------------------------------------------

    def _check(self, i, off, n):
        if not (0 <= i < self.count and 0 <= off and n >= 0 and off + n <= SECTOR):
            raise RingError("flash access outside the ring: sector %d, bytes %d..%d"
                            % (i, off, off + n))

    def _read(self, i, off, buf):
        self._check(i, off, len(buf))
        self.dev.readblocks(self.first + i, buf, off)

    def _program(self, i, off, pages):
        self._check(i, off, len(pages))
        if off % PAGE or len(pages) % PAGE or not pages:
            raise RingError("not whole pages: sector %d offset %d length %d"
                            % (i, off, len(pages)))
        self.dev.writeblocks(self.first + i, pages, off)

    def _erase(self, i):
        self._check(i, 0, SECTOR)
        self.dev.ioctl(_ERASE, self.first + i)

    # --- boot -------------------------------------------------------------------------

    def _scan(self):
        """Read every header, order the sectors, walk the chain to its end; then make the
        tail safe to append to (see _settle)."""
        head = self._buf
        top_number = 0
        top_base = 0
        newest = -1
        for i in range(self.count):
            self._read(i, 0, self._spans[1])
            if get32(head, 0) != _MAGIC or crc32(self._spans[1][:12]) != get32(head, 12):
                self._state[i] = _FREE
                self._number[i] = 0
                continue
            number = get32(head, 4)
            top_base = max(top_base, get32(head, 8))
            confirmed = head[_CONFIRM] == 0
            self._number[i] = number
            self._state[i] = _USED if self._tail(i) > HEAD else _READY if confirmed else _FREE
            if number > top_number:
                top_number, newest = number, i
        # An unconfirmed header may be weak (a cut fell in its program): it is never used,
        # and retired now, so that no later boot trusts it either. (Ready sectors are opened
        # lowest number first, and all were numbered after every sector with records.)
        for i in range(self.count):
            if self._state[i] == _FREE and self._number[i]:
                self._retire(i)
        self._next_sector = top_number + 1
        self._cursor = (newest + 1) % self.count if newest >= 0 else 0
        seen = 0
        copied = False
        where = None
        for i, off, number, kind, length, copy in self._walk():
            self._top[i] = number
            seen = number
            copied = copy
            where = (i * SECTOR + off, kind, length)
        self.last = seen
        self._next = max(seen, top_base - 1, self._seen_max) + 1
        self._settle(copied, where)

    def _tail(self, i):
        """Where the bytes of sector `i` that are not 0xFF end (HEAD if none are)."""
        page = self._spans[1]
        at = SECTOR - PAGE
        while True:
            self._read(i, at, page)
            low = HEAD if at == 0 else 0
            k = low if self._buf[low:PAGE] == _FF[low:] else PAGE  # whole pages at C speed
            while k > low and self._buf[k - 1] == 0xFF:
                k -= 1
            if k > low or at == 0:
                return at + k if k > low else HEAD
            at -= PAGE

    def _used(self):
        """The sectors that hold records, oldest first."""
        order = [i for i in range(self.count) if self._state[i] == _USED]
        order.sort(key=lambda i: self._number[i])
        return order

    def _record(self, i, off):
        """(kind, length, number, crc) of a whole, valid record at `off`, else None. One read
        for a record within a page's length (most are), two for a longer one."""
        room = SECTOR - off
        if room < OVERHEAD:
            return None
        whole = self._spans[_SPAN]
        self._read(i, off, self._spans[1] if room >= PAGE else whole[:room])
        buf = self._buf
        kind = buf[0]
        length = buf[1] | buf[2] << 8
        if kind in (0, 0xFF) or length > MAX_PAYLOAD or OVERHEAD + length > room:
            return None
        if OVERHEAD + length > PAGE:
            self._read(i, off, whole[:OVERHEAD + length])
        crc = get32(buf, 7 + length)
        if crc32(whole[:7 + length]) != crc:
            return None
        return kind, length, get32(buf, 3), crc

    def _walk(self):
        """(sector, offset, number, kind, length, copy) of each record of the chain, in order.
        Past bytes that are no whole record (torn by a cut, or damaged) the walk looks at
        each next byte, and from an 0xFF byte (a page's unwritten end) at the next page
        boundary: a boot writes there (see _settle). A record that repeats the last one's
        number and CRC is the boot's copy of it: passed over (`copy` marks the record it
        repeats). A record whose number does not follow is damage: the chain ends before it
        and `problem` says so."""
        last = 0
        last_crc = -1
        self._seen_max = 0
        for i in self._used():
            off = HEAD
            while off + OVERHEAD <= SECTOR:
                found = self._record(i, off)
                if found is None:
                    off = off - off % PAGE + PAGE if self._buf[0] == 0xFF else off + 1
                    continue
                kind, length, number, crc = found
                self._seen_max = max(self._seen_max, number)
                if number == last and crc == last_crc:
                    yield i, off, number, kind, length, True
                elif last and number != last + 1:
                    self.problem = ("ring: record %d found after %d: set aside" % (number, last))
                    return
                else:
                    last, last_crc = number, crc
                    yield i, off, number, kind, length, False
                off += OVERHEAD + length

    def _settle(self, copied, where):
        """Appends go on in the newest sector that holds anything, at the page boundary after
        its last byte that is not 0xFF: never over bytes a cut may have left half programmed.
        Then the chain's last record is written once more there (unless it is already a
        copy): it may be the one the cut fell in, whole but weakly programmed."""
        used = self._used()
        if not used:
            return
        newest = used[-1]
        tail = self._tail(newest)
        self._sector = newest
        self._at = (tail + PAGE - 1) // PAGE * PAGE
        if self.problem is None and where is not None and not copied:
            pos, kind, length = where
            try:
                self._write(kind, self.read(pos, length), self.last)
            except RingFull:
                pass  # no room for the copy: the record stays where it is

    def records(self, after=0):
        """(pos, number, kind, length) of each record of the chain numbered above `after`."""
        for i, off, number, kind, length, copy in self._walk():
            if number > after and not copy:
                yield i * SECTOR + off, number, kind, length

    def read(self, pos, length):
        """The payload of the record at `pos` (from records())."""
        out = bytearray(length)
        self._read(pos // SECTOR, pos % SECTOR + 7, out)
        return out

    def readinto(self, pos, at, buf):
        """Bytes `at`... of the payload of the record at `pos` into `buf` (no allocation)."""
        self._read(pos // SECTOR, pos % SECTOR + 7 + at, buf)

    def append(self, kind, payload, tag=b""):
        """Write a record (its payload `tag` then `payload`: no concatenation allocated);
        its number once it is on flash. RingFull (a sector was needed and none is free) or
        RingError (a bad record, or a ring with damage) write nothing."""
        if self.problem is not None:
            raise RingError(self.problem)
        size = len(tag) + len(payload)
        if kind in (0, 0xFF) or size > MAX_PAYLOAD:
            raise RingError("ring: no record of kind %d and %d bytes" % (kind, size))
        number = self._next
        self._write(kind, payload, number, tag)
        self._next = number + 1
        self.last = number
        return number

    def _write(self, kind, payload, number, tag=b""):
        lead = len(tag)
        length = lead + len(payload)
        size = OVERHEAD + length
        if self._sector < 0 or self._at + size > SECTOR:
            self._open()
        i = self._sector
        off = self._at
        start = off % PAGE
        pages = (start + size + PAGE - 1) // PAGE
        buf = self._buf
        for k in range(pages):
            buf[k * PAGE:k * PAGE + PAGE] = _FF
        head = self._head
        head[0] = kind
        head[1] = length & 0xFF
        head[2] = length >> 8
        put32(head, 3, number)
        buf[start:start + 7] = head
        buf[start + 7:start + 7 + lead] = tag
        buf[start + 7 + lead:start + 7 + length] = payload
        put32(buf, start + 7 + length, crc32(payload, crc32(tag, crc32(head))))
        self._program(i, off - start, self._spans[pages])
        self.pos = i * SECTOR + off  # where it is, for read/readinto
        self._at = off + size
        self._top[i] = number

    def _open(self):
        """The next sector for records: the oldest ready one, or one erased now."""
        best = -1
        for i in range(self.count):
            if self._state[i] == _READY and (best < 0 or self._number[i] < self._number[best]):
                best = i
        if best < 0:
            best = self._free()
            if best < 0:
                raise RingFull("ring full: no sector free for the record")
            self.late += 1
            self._prepare(best)
        self._state[best] = _USED
        self._top[best] = 0
        self._sector = best
        self._at = HEAD

    def _free(self):
        for k in range(self.count):
            i = (self._cursor + k) % self.count
            if self._state[i] == _FREE:
                return i
        return -1

    def _prepare(self, i):
        """Erase a free sector and program its header: ready for records."""
        self._erase(i)
        page = self._spans[1]
        self._buf[:PAGE] = _FF
        put32(page, 0, _MAGIC)
        put32(page, 4, self._next_sector)
        put32(page, 8, self._next)
        put32(page, 12, crc32(page[:12]))
        self._program(i, 0, page)
        self._buf[:PAGE] = _FF
        self._buf[_CONFIRM] = 0
        self._program(i, 0, page)
        self._number[i] = self._next_sector
        self._next_sector += 1
        self._state[i] = _READY
        self._cursor = (i + 1) % self.count

    def tidy(self):
        """Between keys: erase one sector ahead if fewer than `ahead` are ready. True if it
        did (a 45 ms erase on a Pico)."""
        ready = sum(1 for state in self._state if state == _READY)
        if ready >= self.ahead or self.problem is not None:
            return False
        i = self._free()
        if i < 0:
            return False
        self._prepare(i)
        return True

    def room(self):
        """Sectors a record may still open (ready or free)."""
        return sum(1 for i in range(self.count) if self._state[i] != _USED)

    def release(self, number):
        """Records up to `number` are kept elsewhere: retire the oldest sectors that hold
        none above it, oldest first (so the chain never has a hole), one program each."""
        for i in self._used():
            if self._top[i] > number:
                return
            self._retire(i)

    def empty(self):  # no sector holds records (a scan in C, not a walk in Python)
        return b"\x02" not in self._state  # (MicroPython finds bytes in it, not an int)

    def restart(self):
        """Retire every sector that holds records: an empty ring, numbers going on."""
        if not self.empty():  # (after a filing, as a match starts, it is)
            for i in self._used():
                self._retire(i)
        self.problem = None
        self._next = max(self._next, self._seen_max + 1)

    def _retire(self, i):
        page = self._spans[1]
        self._buf[:PAGE] = _FF
        self._buf[:HEAD] = _ZEROS
        self._program(i, 0, page)
        self._state[i] = _FREE
        self._number[i] = 0
        self._top[i] = 0
        if i == self._sector:
            self._sector = -1
