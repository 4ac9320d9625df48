"""`pilkku sim`: a virtual board with its displays in the terminal and the keyboard as the
referee's keypad. With a script (or without a terminal) it plays key presses and prints
every changed frame as text, so it runs in CI. `pilkku sim --pico` does the same on an
emulated Raspberry Pi Pico (docs/pico.md): the stock UF2, pilkku flashed onto it once (kept
in the user's cache), about four times slower than the real chip.

Script lines:  KEY            tap a key of the keypad (0-9 A B C D * #)
               hold KEY MS    hold a key (a long press)
               wait MS        let time pass
               # ...          a comment, printed as a caption
"""

from __future__ import annotations

import os
import select
import sys
import tempfile
import termios
import time
import tty
from collections.abc import Callable
from pathlib import Path

from hardware.keys import KEYPAD_4X4
from host.board import face
from host.board.pico.board import PicoBoard
from host.board.pico.chip import PicoError
from host.board.registry import BoardBusy, FolderLock
from host.board.virtual_board import CPYTHON_NOTICE, VirtualBoard
from host.errors import os_reason
from host.i18n import _, language

Board = VirtualBoard | PicoBoard
DEMO = Path(__file__).resolve().parents[2] / "examples" / "sim-demo.txt"
TICK = 20
# The PC keyboard: the keypad's own keys, plus friendlier ones for the common actions.
KEYS = {" ": "A", "\r": "#", "\n": "#", "f": "B", "p": "C", "u": "D"}


def key_legend() -> str:
    """The keys of the PC keyboard, under the face (in the CLI's language)."""
    return _("keys: 0-9 balls/choices  SPACE/a shot  ENTER/# pot  f/b foul  p/c push-safety  "
             "u/d clear  U undo(long D)  * shift  q quit")


def boot(folder: Path | None = None, lock: FolderLock | None = None) -> VirtualBoard:
    """A virtual board with the current firmware on its flash, running (holding `lock`, the
    folder's, while it runs). A new board's displays speak the CLI's language (its settings
    written with the firmware, as `pilkku pair` or a sync would: firmware/config.py); a
    board kept in a folder keeps the language it has."""
    where = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="pilkku-sim-"))
    board = VirtualBoard(where)
    if lock is not None:
        board.keep_open = (lock.fd,)
    if board.cpython:
        print(_(CPYTHON_NOTICE), file=sys.stderr)
    new = not board.image.exists()
    board.install_firmware()
    if new and language() != "en":
        board.install(settings(language()))
    board.start()
    board.run(200, TICK)
    return board


def settings(lang: str) -> dict[str, bytes]:
    """A new board's own settings file (both copies, as the firmware keeps it: firmware/kept)
    saying only its displays' language; the board makes its id at its first boot."""
    from firmware import kept

    with tempfile.TemporaryDirectory(prefix="pilkku-sim-") as folder:
        path = os.path.join(folder, kept.CONFIG)
        kept.write(path, {"lang": lang})
        return {name: Path(folder, name).read_bytes()
                for name in (kept.CONFIG, kept.CONFIG + ".2")}


def boot_pico(where: Path, lock: FolderLock, stepped: bool) -> PicoBoard:
    """An emulated Pico in `where` (its flash kept there), pilkku on it: the first time from
    a chip flashed once and kept in the user's cache. Running, showing its first frame."""
    from host.board.pico import ready

    board = PicoBoard(where)
    if not board.image.exists():
        cache = ready.cache_folder()
        _say(_("an emulated Pico with pilkku on it (flashed once, kept in %(folder)s)")
             % {"folder": cache})
        cache.mkdir(parents=True, exist_ok=True)
        board = ready.board_from(ready.flashed(cache, romfs=True, say=_say), where)
    board.keep_open = (lock.fd,)
    board.start(stepped=stepped)
    if stepped:
        ready.boot(board)
    else:
        ready.up(board)
    return board


def _say(line: str) -> None:
    print("pilkku sim: " + line, file=sys.stderr, flush=True)


def frame_text(board: Board) -> str:
    """The displays as one line; a score display's left colon (the shooter's mark) leads
    its score, as on the glass: ":   1" (a blank column when it is dark)."""
    seen = board.texts()
    return "%1s%s | %1s%s | %s | %s" % (seen["mark_1"], seen["score_1"], seen["mark_2"],
                                        seen["score_2"], seen["clock"], seen["message"].rstrip())


def play(board: Board, lines: list[str], say: Callable[[str], None] = print) -> None:
    """Run a script, printing each changed frame."""
    last = frame_text(board)
    say(last)
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#") and line != "#":
            say(line)
            continue
        words = line.split()
        if words[0] == "wait":
            board.run(int(words[1]), TICK)
        elif words[0] == "hold":
            board.hold(_key(words[1], number), int(words[2]) if len(words) > 2 else 1000)
        else:
            board.tap(_key(words[0], number))
        now = frame_text(board)
        if now != last:
            say("%-12s %s" % (line, now))
            last = now


def _key(word: str, number: int) -> str:
    key = word.upper()
    if len(key) != 1 or key not in KEYPAD_4X4:  # ("" is in any string)
        raise ValueError(_("script line %(line)d: '%(word)s' is not a key (0-9 A B C D * #)")
                         % {"line": number, "word": ascii(word[:20])[1:-1]})
    return key


def read_script(path: str) -> list[str]:
    """A script's lines, each checked (ValueError says which line is wrong and why)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        why = os_reason(error) if isinstance(error, OSError) else _("not UTF-8 text")
        raise ValueError(_("cannot read the script %(path)s (%(error)s): give a text file of "
                           "key presses, see examples/sim-demo.txt") % {
                               "path": path, "error": why}) from None
    if not any(line.strip() and not line.strip().startswith("# ") for line in lines):
        raise ValueError(_("the script %(path)s has no key presses (see examples/sim-demo.txt)")
                         % {"path": path})
    for number, raw in enumerate(lines, 1):
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] in ("wait", "hold"):
            times = words[1:] if words[0] == "wait" else words[2:]
            if words[0] == "hold":
                _key(words[1] if len(words) > 1 else "", number)
            if len(times) > 1 or (words[0] == "wait" and not times) or not all(
                    t.isdigit() and 0 < int(t) <= 3600_000 for t in times):
                raise ValueError(_("script line %(line)d: '%(text)s': wait MS / hold KEY [MS] "
                                   "take a whole number of milliseconds up to an hour")
                                 % {"line": number, "text": ascii(raw.strip()[:30])[1:-1]})
        else:
            _key(words[0], number)
            if len(words) > 1:
                raise ValueError(_("script line %(line)d: '%(text)s': one key per line")
                                 % {"line": number, "text": ascii(raw.strip()[:30])[1:-1]})
    return lines


def interactive(board: Board) -> None:
    """Draw the face, read keys, keep the board's clock running in real time. The board's USB
    serial is announced, so `pilkku sync` (or mpremote) can reach it meanwhile."""
    from host.board.registry import announce

    entry = announce(board.pty_path)
    try:
        _interactive(board)
    finally:
        entry.unlink(missing_ok=True)


def _interactive(board: Board) -> None:
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin)
    tty.setcbreak(stdin)
    shown = ""
    legend = key_legend()
    started = time.monotonic()
    try:
        while True:
            picture = face.draw(board.bus)
            if picture != shown:
                sys.stdout.write("\x1b[H\x1b[J" + picture + "\n\n" + legend + "\n"
                                 + _("USB serial: %(port)s") % {"port": board.pty_path} + "\n")
                sys.stdout.flush()
                shown = picture
            if select.select([stdin], [], [], TICK / 1000)[0]:
                char = os.read(stdin, 1).decode(errors="replace")
                if char == "q":
                    return
                if char == "U":
                    board.hold("D")
                    continue
                key = KEYS.get(char, char.upper())
                if key in KEYPAD_4X4:
                    board.tap(key)
                    continue
            behind = int((time.monotonic() - started) * 1000) - board.now
            if behind > 0 and isinstance(board, VirtualBoard):  # a Pico keeps its own time
                board.run(max(TICK, behind - behind % TICK), TICK)
    finally:
        termios.tcsetattr(stdin, termios.TCSADRAIN, saved)


def main(script: str | None, folder: str | None, pico: bool = False) -> int:
    demo = script is None and not sys.stdin.isatty()
    if demo:
        print("pilkku sim: " + _("no terminal, playing the demo script %(script)s")
              % {"script": DEMO.name})
        script = str(DEMO)
    lines: list[str] = []
    if script is not None:
        try:
            lines = read_script(script)
        except ValueError as bad:
            print("pilkku sim: %s" % bad, file=sys.stderr)
            return 2
    where = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="pilkku-sim-"))
    lock = FolderLock(where)
    try:
        lock.take()  # one board per folder: its flash is not installed on under a running board
    except BoardBusy as busy:
        print("pilkku sim: %s" % busy, file=sys.stderr)
        return 2
    try:
        try:
            board = boot_pico(where, lock, script is not None) if pico else boot(where, lock)
        except (PicoError, OSError) as error:
            print("pilkku sim: %s" % error, file=sys.stderr)
            return 2
        lock.note(board.pty_path, board.process.pid if board.process else 0)
        try:
            if script is not None:
                play(board, lines)
            else:
                interactive(board)
        finally:
            board.close()
    finally:
        lock.release()
    return 0
