"""`pilkku flash`, the flash's layout on a Pico (docs/journal.md, "Where the ring lives";
firmware/journal_place.py has the numbers): the stock firmware's littlefs over all 352
blocks becomes a boot stub in blocks 0-1 (a 352-block littlefs holding only STUB as
/boot.py, which the stock _boot.py mounts and which mounts the real littlefs), the real
littlefs in blocks 2-319 and the journal's ring in 320-351.

    layout = probe(link)        # Layout: which one the board has ("ring1", "littlefs",
                                # "stub": the real littlefs did not mount; None: no rp2.Flash)
    convert(link, layout, say)  # to "ring1": the board's own files (results, settings)
                                # carried through the laptop, never only on the board

A conversion is a reformat. First every file that is not the firmware's is read from the
board and kept on the laptop (carried_dir()/<the board's unique id>/), then the flash is
made over, then the files are written back, and only when they read back whole is the
laptop's copy deleted. A cut anywhere leaves them on the board or on the laptop: the next
`pilkku flash` of the same board writes back what the laptop holds. Nothing is written
through the stub while it is mounted at `/`: the one write into it is boot.py into a
littlefs just made, whose root and an inline file < 512 bytes stay in blocks 0-1 (checked:
the blocks after 1 are then made into the real littlefs anyway); after that it is only
mounted and unmounted.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path

from firmware import journal_place as place
from host.board import flash_files
from host.board.mpremote_link import Link
from host.i18n import _

RING1 = place.LAYOUT
OLD = place.LAYOUT_OLD
STUB_LOST = "stub"  # the stub is at / (the real littlefs did not mount: made again)

# The stub's boot.py: under 512 bytes (littlefs keeps it inline, in blocks 0-1). Ctrl-C off
# while / is swapped; if the real littlefs does not mount, the stub goes back read-only (no
# tool writes into it) and pilkku's boot.py is not run: `pilkku flash` then makes it.
STUB = """import vfs,rp2,micropython as m
m.kbd_intr(-1)
k=0
try:
 vfs.umount('/')
 vfs.mount(vfs.VfsLfs2(rp2.Flash(start=%d,len=%d),progsize=256),'/')
 k=1
except Exception:
 try:
  vfs.mount(vfs.VfsLfs2(rp2.Flash(),progsize=256),'/',readonly=True)
 except Exception:
  pass
m.kbd_intr(3)
if k:
 try:
  exec(open('boot.py').read())
 except OSError:
  pass
""" % (place.FS_FIRST * place.BLOCK, place.FS_BLOCKS * place.BLOCK)

PROBE = """try:
 import rp2, os, machine, binascii
 n = rp2.Flash().ioctl(4, 0)
 m = os.statvfs('/')[2]
 s = 0
 try:
  with open('/boot.py') as f:
   s = int(f.read() == %r)
 except OSError:
  pass
 print(n, m, s, binascii.hexlify(machine.unique_id()).decode())
except ImportError:
 print('-')
""" % STUB

LIST = """import os
def _pk_l(p):
 for e in os.ilistdir(p):
  q = p + '/' + e[0] if p != '/' else '/' + e[0]
  if e[1] & 0x4000:
   _pk_l(q)
  else:
   print(os.stat(q)[6], q)
_pk_l('/')
"""

READ = """import binascii
def _pk_r(p, o, n):
 with open(p, 'rb') as f:
  f.seek(o)
  print(binascii.b2a_base64(f.read(n)).decode().strip())
"""

# Make the layout: the stub (mkfs over the whole flash, boot.py written), then the real
# littlefs made and mounted, the ring's sectors erased.
MAKE = """import vfs, rp2
try:
 vfs.umount('/')
except OSError:
 pass
w = rp2.Flash()
vfs.VfsLfs2.mkfs(w, progsize=256)
vfs.mount(vfs.VfsLfs2(w, progsize=256), '/')
with open('/boot.py', 'w') as f:
 f.write(%r)
vfs.umount('/')
r = rp2.Flash(start=%d, len=%d)
vfs.VfsLfs2.mkfs(r, progsize=256)
g = rp2.Flash(start=%d, len=%d)
for i in range(%d):
 g.ioctl(6, i)
vfs.mount(vfs.VfsLfs2(r, progsize=256), '/')
print(rp2.Flash().ioctl(4, 0), __import__('os').statvfs('/')[2])
""" % (STUB, place.FS_FIRST * place.BLOCK, place.FS_BLOCKS * place.BLOCK,
       place.RING_FIRST * place.BLOCK, place.RING_COUNT * place.BLOCK, place.RING_COUNT)

# The stub at / (the real littlefs did not mount): unmount it, make the real one.
REMAKE = """import vfs, rp2
vfs.umount('/')
r = rp2.Flash(start=%d, len=%d)
vfs.VfsLfs2.mkfs(r, progsize=256)
vfs.mount(vfs.VfsLfs2(r, progsize=256), '/')
print(rp2.Flash().ioctl(4, 0), __import__('os').statvfs('/')[2])
""" % (place.FS_FIRST * place.BLOCK, place.FS_BLOCKS * place.BLOCK)

CHUNK = 3072


class LayoutError(RuntimeError):
    pass


@dataclass
class Layout:
    name: str | None  # RING1, OLD, STUB_LOST, or None: not a Pico with rp2.Flash
    board_id: str = ""
    blocks: int = 0  # rp2.Flash()'s
    mounted: int = 0  # the littlefs at /

    def describe(self) -> str:
        if self.name == RING1:
            return _("the journal's ring layout: a boot stub, littlefs in blocks "
                     "%(fs_first)d-%(fs_last)d, the ring in %(ring_first)d-%(ring_last)d") % {
                         "fs_first": place.FS_FIRST,
                         "fs_last": place.FS_FIRST + place.FS_BLOCKS - 1,
                         "ring_first": place.RING_FIRST,
                         "ring_last": place.RING_FIRST + place.RING_COUNT - 1}
        if self.name == OLD:
            return _("littlefs over all %(blocks)d blocks (the stock layout)") % {
                "blocks": self.blocks}
        if self.name == STUB_LOST:
            return _("the boot stub with no littlefs behind it")
        return _("no rp2.Flash (its own filesystem)")


def probe(link: Link) -> Layout:
    words = link.run(PROBE).split()
    if words == ["-"] or len(words) != 4:
        return Layout(None)
    blocks, mounted, stub, board_id = int(words[0]), int(words[1]), words[2] == "1", words[3]
    if blocks == place.FLASH_BLOCKS and mounted == place.FS_BLOCKS:
        name = RING1
    elif mounted == blocks and stub:
        name = STUB_LOST
    elif mounted == blocks == place.FLASH_BLOCKS:
        name = OLD
    else:
        raise LayoutError(_("the board's flash has %(blocks)d blocks and a littlefs of "
                            "%(mounted)d at /: not a layout pilkku knows; nothing was changed")
                          % {"blocks": blocks, "mounted": mounted})
    return Layout(name, board_id, blocks, mounted)


def carried_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "pilkku" / "carried"


def _own(path: str) -> bool:
    """A file of the board's own (results, settings), not the firmware's."""
    top = path.lstrip("/").split("/")[0]
    return top not in flash_files.FOLDERS and path.lstrip("/") not in flash_files.ROOT_FILES \
        and not path.endswith(".tmp")


def read_own(link: Link) -> dict[str, bytes]:
    """Every file of the board's own, whole."""
    link.run(READ)
    files = {}
    for line in link.run(LIST).splitlines():
        size, _sep, path = line.partition(" ")
        if not path or not _own(path):
            continue
        data = b""
        for offset in range(0, int(size), CHUNK):
            data += base64.b64decode(link.run("_pk_r(%r,%d,%d)" % (path, offset, CHUNK)))
        if len(data) != int(size):
            raise LayoutError(_("%(path)s did not read back whole: nothing was changed")
                              % {"path": path})
        files[path.lstrip("/")] = data
    return files


def _keep(folder: Path, files: dict[str, bytes]) -> None:
    for path, data in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".part")
        tmp.write_bytes(data)
        os.replace(tmp, target)


def _held(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".part")}


def convert(link: Link, layout: Layout, deflate: bool, say: flash_files.Say,
            carried: Path | None = None) -> Layout:
    """Bring the board to RING1 (see the top), its files kept in `carried` (by default
    carried_dir()) meanwhile. Returns the layout it has after."""
    if layout.name is None:
        return layout
    folder = (carried or carried_dir()) / layout.board_id
    if layout.name == OLD:
        own = read_own(link)
        _keep(folder, own)  # first on the laptop, then the reformat
        say(_("converting the flash to the journal's ring layout: %(count)d files of the "
              "board's (results, settings) kept on the laptop in %(folder)s first") % {
                  "count": len(own), "folder": folder})
        words = link.run(MAKE).split()
    elif layout.name == STUB_LOST:
        say(_("the boot stub is there but no littlefs behind it: making the littlefs"))
        words = link.run(REMAKE).split()
    else:
        words = [str(layout.blocks), str(layout.mounted)]
    if words != [str(place.FLASH_BLOCKS), str(place.FS_BLOCKS)]:
        raise LayoutError(_("the board's new layout did not come up (%(said)s): flash again; "
                            "the board's files are kept in %(folder)s") % {
                                "said": " ".join(words), "folder": folder})
    back = _held(folder)
    if back:
        link.run(flash_files.HASH + flash_files.WRITE)
        for path, data in back.items():
            flash_files.write_file(link, path, data, deflate)  # each hash-checked on the board
        say(_("%(count)d files of the board's written back from the laptop") % {
            "count": len(back)})
        for path in back:
            (folder / path).unlink()
        for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
            sub.rmdir()
        folder.rmdir()
    return Layout(RING1, layout.board_id, place.FLASH_BLOCKS, place.FS_BLOCKS)
