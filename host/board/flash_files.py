"""`pilkku flash`, the firmware as files: the .mpy files on the board's filesystem (littlefs),
for boards without a ROM partition (host/board/flash.py chooses; host/board/flash_rom.py is
the other way).

1. One round trip: the board prints the sha256 of every file it holds under rules_core/,
   hardware/, firmware/ (and of boot.py, main.py and the version stamp).
2. Copy only what differs, each file to `path.tmp` and renamed over `path` once its hash
   checks (littlefs renames atomically: a cut cable leaves the old module or the new one,
   never half of one); delete files under those folders the image does not have. Nothing
   else on the board (the journal, settings) is touched.
3. The version stamp goes first (removed) and last (written): a board cut off mid-flash
   reports no version rather than a wrong one.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from dataclasses import dataclass, field
from typing import Callable

from host.board import firmware_image, toolchain
from host.board.mpremote_link import Link
from host.i18n import _

FOLDERS = toolchain.BOARD_PACKAGES
STAMP = firmware_image.VERSION_FILE
ROOT_FILES = firmware_image.SCRIPTS + (STAMP,)
CHUNK = 4096  # bytes of a file per exec: few round trips, a small buffer on the board
WBITS = 9  # deflate window 2**9: what the board needs to inflate is small

Say = Callable[[str], None]
OnChunk = Callable[[str, int, int], None]  # path, bytes written so far, file size


@dataclass
class Plan:
    copy: list[str] = field(default_factory=list)  # image paths, the stamp not among them
    delete: list[str] = field(default_factory=list)  # board files, deepest folders' first
    folders: list[str] = field(default_factory=list)  # board folders the image has no file in
    unchanged: int = 0
    stamp: bool = False  # the version stamp differs


# --- code run on the board (MicroPython; kept small: the board compiles it each time) ------

HASH = """import os, hashlib, binascii
def _pk_hash(p, b=bytearray(1024)):
 h = hashlib.sha256()
 with open(p, 'rb') as f:
  while True:
   n = f.readinto(b)
   if not n:
    break
   h.update(memoryview(b)[:n])
 return binascii.hexlify(h.digest()).decode()
"""

SCAN = """def _pk_scan(p):
 try:
  m = os.stat(p)[0]
 except OSError:
  return
 if m & 0x4000:
  print('D', p)
  for e in os.ilistdir(p):
   _pk_scan(p + '/' + e[0])
 else:
  print('F', _pk_hash(p), p)
for p in %r:
 _pk_scan(p)
"""

WRITE = """from binascii import a2b_base64
try:
 from deflate import DeflateIO, RAW
 from io import BytesIO
except ImportError:
 pass
_pk_f = None
def _pk_w(p, b, z, first, h):
 global _pk_f
 t = p + '.tmp'
 if first:
  s = ''
  for d in p.split('/')[1:-1]:
   s += '/' + d
   try:
    os.mkdir(s)
   except OSError:
    pass
  _pk_f = open(t, 'wb')
 try:
  d = a2b_base64(b)
  if z:
   d = DeflateIO(BytesIO(d), RAW, %d).read()
  _pk_f.write(d)
 except Exception:
  _pk_f.close()
  raise
 if h:
  _pk_f.close()
  if _pk_hash(t) != h:
   os.remove(t)
   raise ValueError('%%s arrived damaged' %% p)
  try:
   os.rename(t, p)
  except OSError:
   os.remove(p)
   os.rename(t, p)
""" % WBITS

DELETE = """for p in %r:
 try:
  os.remove(p)
 except OSError:
  pass
for p in %r:
 try:
  os.rmdir(p)
 except OSError:
  pass
"""

# --- the steps ------------------------------------------------------------------------

def scan(link: Link) -> tuple[dict[str, str], list[str]]:
    """What the board holds of ours: {image path: sha256 hex}, and its folders."""
    roots = ["/" + name for name in FOLDERS]
    roots += ["/" + name + suffix for name in ROOT_FILES for suffix in ("", ".tmp")]
    files: dict[str, str] = {}
    folders: list[str] = []
    for line in link.run(HASH + SCAN % roots).splitlines():
        words = line.split(" ", 2)
        if words[0] == "F" and len(words) == 3:
            files[words[2][1:]] = words[1]
        elif words[0] == "D" and len(words) == 2:
            folders.append(words[1][1:])
    return files, folders


def plan(files: dict[str, bytes], on_board: dict[str, str], folders: list[str]) -> Plan:
    result = Plan()
    for path in sorted(files, key=_write_order):
        if on_board.get(path) == _sha(files[path]):
            result.unchanged += path != STAMP
        elif path == STAMP:
            result.stamp = True
        else:
            result.copy.append(path)
    result.delete = sorted((path for path in on_board if path not in files), key=depth_first)
    needed = {"/".join(path.split("/")[:end]) for path in files
              for end in range(1, path.count("/") + 1)}
    result.folders = sorted((path for path in folders if path not in needed), key=depth_first)
    return result


def write_file(link: Link, path: str, data: bytes, deflate: bool,
               on_chunk: OnChunk | None = None) -> None:
    """Send one file in chunks to path.tmp; the last chunk checks its hash and renames it."""
    digest = _sha(data)
    for start in range(0, max(len(data), 1), CHUNK):
        chunk = data[start:start + CHUNK]
        packed, squeezed = chunk, False
        if deflate:
            packer = zlib.compressobj(9, zlib.DEFLATED, -WBITS)
            smaller = packer.compress(chunk) + packer.flush()
            packed, squeezed = (smaller, True) if len(smaller) < len(chunk) else (chunk, False)
        last = start + CHUNK >= len(data)
        link.run("_pk_w(%r,%r,%d,%d,%r)" % (
            "/" + path, base64.b64encode(packed), squeezed, start == 0, digest if last else ""))
        if on_chunk is not None:
            on_chunk(path, min(start + CHUNK, len(data)), len(data))


def apply(link: Link, files: dict[str, bytes], todo: Plan, deflate: bool, say: Say,
          on_chunk: OnChunk | None) -> None:
    """Copy and delete as planned, the stamp removed first and written last."""
    if not (todo.copy or todo.delete or todo.stamp):
        return
    link.run(HASH + WRITE)
    # A board cut off from here on reports no version, not the old one: its files are mixed.
    link.run(DELETE % (["/" + STAMP], []))
    total = len(todo.copy) + len(todo.delete)
    for number, path in enumerate(todo.copy, 1):
        write_file(link, path, files[path], deflate, on_chunk)
        say("[%d/%d] %s %s" % (number, total, path, _size(len(files[path]))))
    if todo.delete or todo.folders:
        link.run(DELETE % (["/" + path for path in todo.delete],
                           ["/" + path for path in todo.folders]))
    for number, path in enumerate(todo.delete, len(todo.copy) + 1):
        say("[%d/%d] %s" % (number, total, _("%(path)s deleted") % {"path": path}))
    write_file(link, STAMP, files[STAMP], deflate)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_order(path: str) -> tuple[int, str]:
    # Packages first, then boot.py and main.py (a fresh board cut off mid-flash has no main.py
    # and waits at the REPL), the stamp last of all.
    return (ROOT_FILES.index(path) + 1 if path in ROOT_FILES else 0, path)


def depth_first(path: str) -> tuple[int, str]:
    return (-path.count("/"), path)


def _size(count: int) -> str:
    return "%d B" % count if count < 1000 else "%.1f kB" % (count / 1000)
