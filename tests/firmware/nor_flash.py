"""A register-level model of the Pico's NOR flash (a W25Q16JV behind the boot ROM's
flash_range_erase / flash_range_program and rp2.Flash's block protocol), for the journal
ring's tests on CPython and on the MicroPython unix port.

    flash = NorFlash(blocks)            # 4096-byte sectors, all erased (0xFF)
    flash.readblocks(n, buf, off)       # rp2.Flash's calls: offsets from block n's start
    flash.writeblocks(n, buf, off)      # program (off given) or erase, then program (no off)
    flash.ioctl(6, n)                   # erase sector n; ioctl(4, 0): the block count
    flash.cut(2, page=1, byte=17)       # a power cut inside the 2nd erase or program from now
    flash.power_on()                    # the power back: the same cells, a new boot
    flash.decay()                       # weakly programmed bits read 1 again

What the chip does: an erase sets a sector's bytes to 0xFF; a program can only clear bits (the
flash ANDs what is sent into what it holds), a page of 256 bytes at a time, from a
page-aligned address. A program of anything but whole aligned pages raises Misuse here: the
boot ROM would send 256 bytes of the source per page (whatever follows the buffer in RAM) and
the chip would wrap inside the page. So does any access outside the chip (the SDK's hard
assert; rp2.Flash itself checks nothing). `ops` counts erases and programs, `touched` the
blocks each one reached, `shapes` its pages (0: an erase).

A cut falls inside the `at`-th operation from now: after `page` whole pages of a program (or
whole sectors of a multi-sector erase) and `byte` bytes of the next, and
- how="prefix": those bytes programmed (or erased to 0xFF), the rest as they were;
- how="bits": the page (or sector) in flight gets a random subset of the bits it was to clear
  (or, erasing, to set): a cut stops the cells mid-way, not byte by byte;
- how="weak": the operation completes, but the bits it cleared are weak: `decay()` sets them
  back to 1 (a cut after the cells read programmed, before the chip's program-verify ended).
The cut raises PowerCut there and at every operation after it until `power_on()`. A cut asked
for past the operation's end does not land: `missed` says so and it is dropped.
"""

SECTOR = 4096
PAGE = 256


class PowerCut(Exception):
    """The power went: nothing after this reaches the flash."""


class Misuse(Exception):
    """What a real chip would get wrong: outside the chip, or not whole aligned pages."""


class NorFlash:
    def __init__(self, blocks, seed=1):
        self.blocks = blocks
        self.cells = bytearray(b"\xff" * (blocks * SECTOR))
        self.ops = 0
        self.erases = 0
        self.programs = 0
        self.touched = []  # the block of every erase and program, in order
        self.shapes = []  # of each: pages programmed, or 0 for an erase
        self.written = []  # of each: (offset in its block, its first 4 bytes)
        self.boots = []  # (ops before, ops after) of each boot, noted by the tests
        self.dead = False
        self.missed = ""
        self.weak = []  # (address, bits) programmed weakly
        self._cut = None  # (operations left, page, byte, how)
        self._seed = seed

    # --- power --------------------------------------------------------------------------

    def cut(self, at=1, page=0, byte=0, how="prefix"):
        self._cut = (at, page, byte, how)
        self.missed = ""

    def power_on(self):
        self.dead = False
        self._cut = None

    def decay(self):
        for address, bits in self.weak:
            self.cells[address] |= bits
        self.weak = []

    def _random(self):
        self._seed = (self._seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._seed >> 16) & 0xFF

    def _operation(self, block):
        """One more erase or program: the cut it falls in, or None."""
        if self.dead:
            raise PowerCut()
        self.ops += 1
        self.touched.append(block)
        if self._cut is None:
            return None
        at, page, byte, how = self._cut
        if at > 1:
            self._cut = (at - 1, page, byte, how)
            return None
        self._cut = None
        return page, byte, how

    # --- the block protocol ------------------------------------------------------------

    def _span(self, block, off, length):
        start = block * SECTOR + off
        if block < 0 or off < 0 or start + length > self.blocks * SECTOR:
            raise Misuse("flash access outside the chip: block %d offset %d length %d"
                         % (block, off, length))
        return start

    def readblocks(self, block, buf, off=0):
        if self.dead:
            raise PowerCut()
        start = self._span(block, off, len(buf))
        buf[:] = self.cells[start:start + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:
            for k in range((len(buf) + SECTOR - 1) // SECTOR):
                self.ioctl(6, block + k)
            off = 0
        start = self._span(block, off, len(buf))
        if start % PAGE or len(buf) % PAGE:
            raise Misuse("a program of %d bytes at 0x%x: not whole aligned pages (the chip "
                         "would program whole pages of what follows the buffer)"
                         % (len(buf), start))
        cut = self._operation(block)
        self.shapes.append(len(buf) // PAGE)
        self.written.append((off, bytes(buf[:4])))
        self.programs += 1
        self._firm(start, len(buf), buf)
        for k in range(len(buf) // PAGE):
            at = start + k * PAGE
            if cut is not None and k == cut[0] and cut[2] != "weak":
                self._torn_page(at, buf, k * PAGE, cut[1], cut[2])
            self._and(at, buf, k * PAGE, PAGE, cut is not None and cut[2] == "weak")
        if cut is not None and cut[2] == "weak":
            self._die()
        if cut is not None:
            self.missed = "no page %d in a program of %d pages" % (cut[0], len(buf) // PAGE)

    def _and(self, at, buf, src, length, weak):
        old = self.cells[at:at + length]
        new = bytes(buf[src:src + length])
        if weak:
            for j in range(length):
                cleared = old[j] & ~new[j] & 0xFF
                if cleared:
                    self.weak.append((at + j, cleared))
        anded = int.from_bytes(old, "little") & int.from_bytes(new, "little")
        self.cells[at:at + length] = anded.to_bytes(length, "little")

    def _torn_page(self, at, buf, src, byte, how):
        if how == "bits":
            for j in range(PAGE):
                to_clear = self.cells[at + j] & ~buf[src + j] & 0xFF
                self.cells[at + j] &= ~(to_clear & self._random()) & 0xFF
        else:
            self._and(at, buf, src, byte, False)
        self._die()

    def _die(self):
        self.dead = True
        raise PowerCut()

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return SECTOR
        if op != 6:
            return 0
        start = self._span(arg, 0, SECTOR)
        cut = self._operation(arg)
        self.shapes.append(0)
        self.written.append((0, b""))
        self.erases += 1
        if cut is not None:
            page, byte, how = cut
            if page > 0:  # one sector: no whole sector before the cut
                self.missed = "no sector %d in an erase of one sector" % page
            elif how == "bits":
                for j in range(SECTOR):
                    self.cells[start + j] |= self._random()
                self._die()
            else:
                self.cells[start:start + byte] = b"\xff" * byte
                self._die()
        self.cells[start:start + SECTOR] = b"\xff" * SECTOR
        self._firm(start, SECTOR, None)
        return 0

    def _firm(self, start, length, buf):
        """Weak bits a later erase (buf None) or program (of a 0 there) leaves no longer
        weak: erased, or programmed again in full."""
        kept = []
        for address, bits in self.weak:
            if start <= address < start + length:
                if buf is None:
                    continue
                bits &= buf[address - start]
            if bits:
                kept.append((address, bits))
        self.weak = kept
