"""`pilkku flash` to a board whose MicroPython has a ROM partition: the firmware goes there as
one ROMFS image, so its bytecode runs in place from flash instead of being loaded into RAM.

The image (the packages' .mpy files and the version stamp; boot.py and main.py stay on the
filesystem, where the board runs them from)
is made by mpremote's own ROMFS writer (host/board/mpremote_link.py). Written with the same
guarantees as the files on the filesystem (host/board/flash.py):
- unchanged -> nothing sent: the board hashes its partition's first len(image) bytes;
- nothing half-written is ever used: the version stamp on the filesystem goes first; the
  partition's blocks are erased (no valid ROMFS there from then on: the board boots without
  /rom), every chunk but the first is written and the board's hash of them checked, and only
  then the first chunk (the ROMFS header) is written and the whole image's hash checked. A
  cut anywhere before leaves a partition the board does not mount; after, the whole image;
- only then are the firmware's files on the filesystem deleted (they would be a second,
  older build beside the one in /rom): a board cut off in between runs the new build from
  /rom (first on its sys.path) and the next flash deletes them;
- the board's version is read back after a soft reset, and it must come from /rom.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from dataclasses import dataclass

from host.board import firmware_image, toolchain
from host.board.mpremote_link import Link, romfs_image
from host.i18n import _

STAMP = firmware_image.VERSION_FILE
FOLDERS = toolchain.BOARD_PACKAGES
CHUNK = 4096  # bytes of the image per exec (mpremote's romfs deploy sends the same)
PAGE = 256  # chunks are padded with 0xFF to whole flash pages
WBITS = 9

# The partition in either form `mpremote romfs deploy` writes (host/board/mpremote_link.py
# finds which with mpremote's own query): mapped memory with vfs.rom_ioctl's erase (3),
# write (4) and done (5) (the virtual board's model), or a block device object (the rp2
# port's rp2.Flash over the partition): erase with ioctl(6, block), program with
# writeblocks(block, buf, offset) (the offset form programs without erasing), read through
# its buffer protocol over XIP memory. memoryview() reads both.
ROM_CODE = """import vfs
from binascii import a2b_base64
try:
 from deflate import DeflateIO, RAW
 from io import BytesIO
except ImportError:
 pass
_pk_d = vfs.rom_ioctl(2, 0)
_pk_o = hasattr(_pk_d, 'ioctl')
_pk_b = _pk_d.ioctl(5, 0) if _pk_o else 0
def _pk_rw(o, b, z):
 d = a2b_base64(b)
 if z:
  d = DeflateIO(BytesIO(d), RAW, %d).read()
 if _pk_o:
  r = _pk_d.writeblocks(o // _pk_b, d, o %% _pk_b)
 else:
  r = vfs.rom_ioctl(4, 0, o, d)
 if r is not None and r < 0:
  raise OSError(-r)
def _pk_re(o, n):
 if _pk_o:
  for k in range(o // _pk_b, (o + n + _pk_b - 1) // _pk_b):
   r = _pk_d.ioctl(6, k)
   if r is not None and r < 0:
    raise OSError(-r)
  return
 r = vfs.rom_ioctl(3, 0, o, n) if vfs.rom_ioctl(6, 0) > 0 else vfs.rom_ioctl(3, 0, n)
 if r < 0:
  raise OSError(-r)
def _pk_end():
 if not _pk_o:
  vfs.rom_ioctl(5, 0)
try:
 vfs.umount('/rom')
except OSError:
 pass
""" % WBITS

WHERE = """try:
 import firmware
 print(firmware.__file__)
except ImportError:
 print('-')
"""


@dataclass
class Partition:
    size: int
    block: int
    device: bool = False  # a block device object (the rp2 port's), not mapped memory

    def describe(self) -> str:
        """What the board has, in its own terms, for the messages of `pilkku flash`."""
        return _("a %(size)d KB ROM partition (%(blocks)d blocks of %(block)d bytes, %(kind)s)") % {
            "size": self.size // 1024, "blocks": self.size // self.block, "block": self.block,
            "kind": _("a block device over XIP flash") if self.device else _("mapped memory")}


def image(files: dict[str, bytes]) -> bytes:
    """The ROMFS image of the firmware: every file of `files` but boot.py and main.py."""
    return romfs_image({path: data for path, data in files.items()
                        if path not in firmware_image.SCRIPTS})


def partition(link: Link) -> Partition | str:
    """The board's ROM partition 0, or why it has none (a phrase for the messages)."""
    found = link.rom_partition()
    return found if isinstance(found, str) else Partition(*found)


def _hash(link: Link, start: int, end: int) -> str:
    return link.run("import vfs, hashlib, binascii\nh = hashlib.sha256()\n"
                    "h.update(memoryview(vfs.rom_ioctl(2, 0))[%d:%d])\n"
                    "print(binascii.hexlify(h.digest()).decode())\n" % (start, end)).strip()


def holds(link: Link, data: bytes) -> bool:
    """True if the partition's first len(data) bytes are `data`."""
    return _hash(link, 0, len(data)) == hashlib.sha256(data).hexdigest()


def write(link: Link, data: bytes, deflate: bool, on_chunk=None) -> int:
    """Erase and write the image, its first chunk last (see the module's docstring). Returns
    the bytes sent over the line."""
    link.run(ROM_CODE)
    blocks = -(-len(data) // 4096) * 4096
    link.run("_pk_re(0, %d)" % blocks)
    sent = 0
    order = list(range(CHUNK, len(data), CHUNK)) + [0]
    for number, start in enumerate(order, 1):
        if start == 0:
            if _hash(link, CHUNK, len(data)) != hashlib.sha256(data[CHUNK:]).hexdigest():
                raise RomError(_("the ROM partition does not read back what was written"))
        chunk = data[start:start + CHUNK]
        chunk += b"\xff" * (-len(chunk) % PAGE)
        packed, squeezed = chunk, False
        if deflate:
            packer = zlib.compressobj(9, zlib.DEFLATED, -WBITS)
            smaller = packer.compress(chunk) + packer.flush()
            if len(smaller) < len(chunk):
                packed, squeezed = smaller, True
        encoded = base64.b64encode(packed)
        sent += len(encoded)
        link.run("_pk_rw(%d,%r,%d)" % (start, encoded, squeezed))
        if on_chunk is not None:
            on_chunk("romfs", min(number * CHUNK, len(data)), len(data))
    if not holds(link, data):
        raise RomError(_("the ROM partition does not read back the image that was written"))
    link.run("_pk_end()")
    return sent


def clear(link: Link, block: int) -> None:
    """Erase the partition's first block: the board no longer mounts the ROMFS in it."""
    link.run(ROM_CODE + "_pk_re(0, %d)" % block)


def runs_from(link: Link, reset: bool = True) -> str:
    """Where the board imports the firmware from after a soft reset ("-": nowhere); `reset`
    False: the caller has just soft-reset it (and imported nothing of the firmware)."""
    if reset:
        link.raw_repl(soft_reset=True)
    return link.run(WHERE).strip()


class RomError(RuntimeError):
    pass
