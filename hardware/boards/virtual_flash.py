"""The virtual board's flash chip: a block device over an image file, for littlefs.

    dev = mount("build/flash.img", 256, "/flash")   # 1 MB, formatted on first use
    open("/flash/journal/current.log", "rb")        # the same littlefs code as on a Pico

`FlashImage` speaks MicroPython's extended block protocol (see `vfs.AbstractBlockDev`):
4096-byte blocks like the Pico's flash; `readblocks(n, buf, off)` and
`writeblocks(n, buf, off)` read and program anywhere inside a block, `ioctl(6, n)` erases one
(to 0xFF). Every write goes straight to the image file and is flushed to the OS, so a
`kill -9` of the `micropython` process leaves the image exactly as a power cut leaves the
flash: what littlefs had programmed is there, nothing more. Runs in the unix port (which has
`vfs.VfsLfs2`); the class also works on CPython, for tests.

The ROM partition a ROMFS build of MicroPython keeps /rom in is virtual_vfs.RomPartition,
another FlashImage.
"""

BLOCK_SIZE = 4096
PROGSIZE = 256  # littlefs program size, as the Pico's _boot.py mounts its flash
_CHUNK = 512  # bytes of 0xFF written at a time when erasing

# Block protocol ioctl operations (vfs.AbstractBlockDev).
IOCTL_INIT = 1
IOCTL_DEINIT = 2
IOCTL_SYNC = 3
IOCTL_BLOCK_COUNT = 4
IOCTL_BLOCK_SIZE = 5
IOCTL_BLOCK_ERASE = 6


class FlashImage:
    """A flash chip of `blocks` blocks kept in the file `path` (created erased if missing).
    Counts reads, programs and erases, for benchmarks and wear estimates."""

    def __init__(self, path, blocks, block_size=BLOCK_SIZE, f=None, ghost=None):
        self.path = path
        self.blocks = blocks
        self.block_size = block_size
        self.reads = 0
        self.programs = 0
        self.erases = 0
        self._ghost = ghost  # where this chip object goes on writing after a reset
        self._ff = memoryview(b"\xff" * _CHUNK)  # sliced without copying
        if f is None:  # else the image file an earlier FlashImage of the same chip opened
            try:
                f = open(path, "r+b")
            except OSError:
                f = open(path, "w+b")
        self._f = f
        f.seek(0, 2)
        size = f.tell()
        if size < blocks * block_size:  # a new (or short) image: the rest is erased flash
            while size < blocks * block_size:
                step = min(_CHUNK, blocks * block_size - size)
                f.write(self._ff[:step])
                size += step
            f.flush()

    def readblocks(self, block, buf, offset=0):
        self.reads += 1
        self._f.seek(block * self.block_size + offset)
        got = self._f.readinto(buf)
        if got != len(buf):
            raise OSError(5)  # EIO: past the end of the chip

    def power_off(self):
        """The board was reset: what the program before the reset still had buffered (a
        file it left open, flushed by its finaliser whenever the GC collects it) must not
        reach the flash, as on a chip the reset cleared that RAM. From here this object
        reads and writes a copy of the chip as it was, which nothing else reads: the old
        program's littlefs stays consistent and its late writes succeed, quietly. (Failing
        them is no way out: a finaliser runs with the GC locked, an exception from here
        unwinds through littlefs and leaves the freed file on its list of open files, and
        an error code is printed on the console.)"""
        ghost = self._ghost
        buf = bytearray(self.block_size)
        self._f.seek(0)
        ghost.seek(0)
        for _ in range(self.blocks):
            self._f.readinto(buf)
            ghost.write(buf)
        ghost.flush()
        self._f = ghost

    def writeblocks(self, block, buf, offset=None):
        # Nothing here or in _erase allocates: littlefs writes from a file's finaliser too,
        # with the GC locked (the rp2 port's flash driver is C and allocates nothing).
        if offset is None:  # the simple protocol: erase whole blocks, then program them
            index = len(buf) // self.block_size
            while index > 0:
                index -= 1
                self._erase(block + index)
            offset = 0
        self.programs += 1
        self._f.seek(block * self.block_size + offset)
        self._f.write(buf)
        self._f.flush()

    def _erase(self, block):
        self.erases += 1
        f = self._f
        f.seek(block * self.block_size)
        left = self.block_size  # a multiple of _CHUNK
        while left > 0:
            f.write(self._ff)
            left -= _CHUNK
        f.flush()

    def ioctl(self, op, arg):
        if op == IOCTL_BLOCK_COUNT:
            return self.blocks
        if op == IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == IOCTL_BLOCK_ERASE:
            self._erase(arg)
            return 0
        if op == IOCTL_SYNC:
            self._f.flush()
            return 0
        if op in (IOCTL_INIT, IOCTL_DEINIT):
            return 0
        return None

    def close(self):
        self._f.close()


def mount(image_path, size_blocks, mountpoint, resettable=False):
    """Mount the littlefs image at `mountpoint` (formatting it if it holds no filesystem,
    as a new Pico does); return the FlashImage. Needs MicroPython's `vfs`. `resettable`:
    open beside the image the file `power_cycle` needs (IMAGE.before-reset)."""
    ghost = open(image_path + ".before-reset", "w+b") if resettable else None
    dev = FlashImage(image_path, size_blocks, ghost=ghost)  # while the host's files show
    _mount(dev, mountpoint)
    return dev


def power_cycle(dev, image_path, size_blocks, mountpoint):
    """A reset of the board, for a FlashImage mounted resettable: the old chip object
    powered off, so what the program before held in RAM reaches the flash neither now nor
    when the GC collects it; the flash mounted afresh, as the next boot finds it. The new
    FlashImage."""
    import vfs

    fresh = FlashImage(image_path, size_blocks, f=dev._f, ghost=dev._ghost)
    dev.power_off()
    if mountpoint != "/":  # _mount takes "/" down itself
        vfs.umount(mountpoint)
    _mount(fresh, mountpoint)
    return fresh


def _mount(dev, mountpoint):
    import vfs

    if mountpoint == "/":
        vfs.umount("/")  # the host's filesystem at first (the image is open), or the old chip
    try:
        fs = vfs.VfsLfs2(dev, progsize=PROGSIZE)
    except OSError:
        vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
        fs = vfs.VfsLfs2(dev, progsize=PROGSIZE)
    vfs.mount(fs, mountpoint)
