"""The virtual board's `vfs` module, as a MicroPython build with a ROM partition has it: the
unix port's `vfs` (which has `VfsRom` but no `rom_ioctl`) plus `rom_ioctl` over the virtual
ROM partition (`RomPartition`, below). virtual_rom.py installs it as `vfs` in
sys.modules, so `import vfs` in the REPL, in `mpremote romfs` and in `pilkku flash` gets it.

    rom_ioctl(1)                      -> number of ROM partitions (1, or 0 without one)
    rom_ioctl(2, 0)                   -> the partition as a memoryview (its mapping)
    rom_ioctl(3, 0, length)           -> erase [0, length); returns the smallest write
    rom_ioctl(3, 0, offset, length)   -> erase [offset, offset + length); the same
    rom_ioctl(4, 0, offset, buf)      -> program buf at offset; 0
    rom_ioctl(5, 0)                   -> writing done; 0
    rom_ioctl(6, 0)                   -> the erase block size (ranged erase is supported)
Anything else, or a partition other than 0, returns -22 (EINVAL), as the C ports do.
"""

import vfs as _port_vfs
from virtual_flash import (  # type: ignore[import-not-found]
    _CHUNK,
    BLOCK_SIZE,
    IOCTL_BLOCK_ERASE,
    FlashImage,
)

for _name in dir(_port_vfs):  # the unix port's own: mount, umount, VfsRom, VfsLfs2, ...
    if not _name.startswith("__"):
        globals()[_name] = getattr(_port_vfs, _name)

_EINVAL = -22
partition = None  # the RomPartition, set by virtual_rom at power-up

ROM_BLOCKS = 32  # the ROM partition: 128 KB of 4096-byte blocks
ROM_MIN_WRITE = 256  # a Pico's flash page: the smallest program the partition takes


class RomPartition:
    """The ROM partition, in its own image file. A board maps its flash into memory (a Pico's
    XIP window): `view` is that mapping, read in place by `vfs.VfsRom`. The unix port cannot
    map a file, so the mapping is one bytearray of the partition's size in the heap, read
    from the file at power-up and kept equal to it on every write. Writes go through the
    chip as on NOR flash: `erase` sets whole blocks to 0xFF, `program` can only clear bits
    (programming over unerased bytes ANDs them, as the silicon does)."""

    def __init__(self, path, blocks=ROM_BLOCKS):
        self.chip = FlashImage(path, blocks)
        self.size = blocks * BLOCK_SIZE
        self.mapped = bytearray(self.size)
        self.chip.readblocks(0, self.mapped)
        self.view = memoryview(self.mapped)

    def erase(self, offset, length):
        """Erase the blocks that hold [offset, offset + length); False if out of range."""
        if offset < 0 or length < 0 or offset + length > self.size:
            return False
        block = offset // BLOCK_SIZE
        while block * BLOCK_SIZE < offset + length:
            self.chip.ioctl(IOCTL_BLOCK_ERASE, block)
            start = block * BLOCK_SIZE
            for at in range(start, start + BLOCK_SIZE, _CHUNK):
                self.mapped[at:at + _CHUNK] = self.chip._ff
            block += 1
        return True

    def program(self, offset, data):
        """Program `data` at `offset`; False if out of range."""
        if offset < 0 or offset + len(data) > self.size:
            return False
        old = bytes(self.view[offset:offset + len(data)])
        if any(b != 0xFF for b in old):
            data = bytes([old[i] & data[i] for i in range(len(old))])  # NOR: bits only go to 0
        block, within = divmod(offset, BLOCK_SIZE)
        self.chip.writeblocks(block, data, within)
        self.mapped[offset:offset + len(data)] = data
        return True


def install(path):
    """The partition in the image file at `path`, and this module as `vfs` for everyone."""
    import sys

    global partition
    partition = RomPartition(path)
    sys.modules["vfs"] = sys.modules[__name__]
    return sys.modules[__name__]


def mount_rom():
    """Mount the partition's ROMFS at /rom if it holds a valid one (as a board's boot does);
    True if it did."""
    try:
        umount("/rom")  # noqa: F821  # the port's, copied in above
    except OSError:
        pass
    try:
        mount(VfsRom(rom_ioctl(2, 0)), "/rom")  # noqa: F821
    except OSError:  # erased, or a write cut short before its first block: no ROMFS
        return False
    return True


def rom_ioctl(op, *args):
    if op == 1:
        return 0 if partition is None else 1
    if partition is None or not args or args[0] != 0:
        return _EINVAL
    if op == 2:
        return partition.view
    if op == 3 and len(args) in (2, 3):
        offset, length = (0, args[1]) if len(args) == 2 else (args[1], args[2])
        return ROM_MIN_WRITE if partition.erase(offset, length) else _EINVAL
    if op == 4 and len(args) == 3:
        return 0 if partition.program(args[1], args[2]) else _EINVAL
    if op == 5:
        return 0
    if op == 6:
        return BLOCK_SIZE
    return _EINVAL
