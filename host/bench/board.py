"""`pilkku bench` on virtual boards (host/board/virtual_board.py: the firmware in the unix port, its
USB serial on a pty, its wires on TCP): key to display, I2C bytes per frame, `pilkku flash`
against `mpremote cp -r`, and `pilkku sync` pulling finished matches.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from hardware.panel import LAYOUT
from host.board import firmware_image, flash
from host.board.mpremote_link import Link as ReplLink
from host.board.pty_relay import PtyRelay
from host.board.virtual_board import VirtualBoard
from host.sync.session import BAUD, Link, Pulled, sync_board
from rules_core import matchlog

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "sim-demo.txt"  # a 9-ball race through the keypad
SYNC_MATCH = ROOT / "examples" / "demo-9ball.json"  # a finished club-night race to 3
TICK = 10  # ms: the firmware's own tick
LONG_MS = 800  # the App's long press (firmware/app.py: Keypad long_ms)
RAM_WRITE = 17  # an HT16K33 frame: the RAM pointer and 16 bytes of display RAM
DISPLAY_ADDRESSES = {address for address, _kind in LAYOUT}


class TapBus:
    """Stands in the virtual board's display model: every write passes on to it and is
    counted, by tick, against the least that had to be sent (the backpacks whose RAM
    changed, each in one frame)."""

    def __init__(self, model) -> None:
        self.model = model
        self.ram: dict[int, bytes] = {}
        self.sent = 0  # bytes since the last take()
        self.needed = 0

    def writeto(self, addr: int, data: bytes) -> None:
        self.model.writeto(addr, data)
        if addr not in DISPLAY_ADDRESSES:
            return
        self.sent += len(data)
        if len(data) == RAM_WRITE and data[0] == 0:
            if self.ram.get(addr) != data:
                self.needed += RAM_WRITE
            self.ram[addr] = bytes(data)

    def take(self) -> tuple[int, int]:
        got = (self.sent, self.needed)
        self.sent = self.needed = 0
        return got

    def __getattr__(self, name: str):
        return getattr(self.model, name)  # text(), for texts()


def _script(path: Path) -> list[tuple[str, str, int]]:
    """(action, key, ms) of a `pilkku sim` script: tap, hold or wait."""
    steps = []
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or (words[0].startswith("#") and line.strip() != "#"):
            continue
        if words[0] == "wait":
            steps.append(("wait", "", int(words[1])))
        elif words[0] == "hold":
            steps.append(("hold", words[1], int(words[2]) if len(words) > 2 else 1000))
        else:
            steps.append(("tap", words[0], 60))
    return steps


class KeyClock:
    """Steps a board tick by tick, timing each tick from the request to its acknowledgement
    (the tick's I2C writes arrive before it) and counting its display bytes."""

    def __init__(self, board: VirtualBoard, bus: TapBus) -> None:
        self.board = board
        self.bus = bus
        self.frames: list[tuple[float, int, int]] = []  # (ms, bytes, needed) per frame

    def tick(self) -> tuple[float, int]:
        bus = self.bus
        with self.board._lock:  # the wire reader may be passing on writes
            bus.take()
        start = time.perf_counter()
        self.board.step(TICK)
        spent = (time.perf_counter() - start) * 1000
        with self.board._lock:
            sent, needed = bus.take()
        if sent:
            self.frames.append((spent, sent, needed))
        return spent, sent

    def hold(self, key: str, ms: int, after: int) -> list[float]:
        """Press `key` for `ms`: the latencies of the frames it caused (the first frame after
        the press, and after a long press the first frame from the long press on)."""
        caused = []
        self.board.key(key, True)
        waiting_long = ms >= LONG_MS
        first = True
        for number in range(1, ms // TICK + 1):
            spent, sent = self.tick()
            if sent and first:
                caused.append(spent)
                first = False
            elif sent and waiting_long and number * TICK >= LONG_MS:
                caused.append(spent)
                waiting_long = False
        self.board.key(key, False)
        for _ in range(after // TICK):
            self.tick()
        return caused


def key_to_display(folder: Path, firmware: dict[str, bytes], repeats: int,
                   passes: int = 1) -> dict:
    """The sim demo's 9-ball race through the keypad, `repeats` times on a fresh board, in
    `passes` passes: each key press's frame, from the tick's request to its acknowledgement,
    and bytes per changed frame. The pass with the lowest p99 is the figure: the firmware
    does the same work in every pass, and a busy machine only adds to a pass's tail (every
    pass's p99 is kept beside it)."""
    runs = [_key_pass(folder / ("keys%d" % number), firmware, repeats)
            for number in range(passes)]
    best = min(runs, key=lambda run: run["p99"])
    best["p99_passes"] = [run["p99"] for run in runs]
    return best


def _key_pass(folder: Path, firmware: dict[str, bytes], repeats: int) -> dict:
    board = VirtualBoard(folder)
    board.install(firmware)
    board.start()
    try:
        bus = TapBus(board.bus)
        board.bus = bus  # type: ignore[assignment]
        clock = KeyClock(board, bus)
        for _ in range(20):
            clock.tick()  # the boot frames are not the match's
        clock.frames = []
        latencies: list[float] = []
        for _ in range(repeats):
            for action, key, ms in _script(SCRIPT):
                if action == "wait":
                    for _ in range(ms // TICK):
                        clock.tick()
                else:
                    latencies += clock.hold(key, ms, 60)
    finally:
        board.close()
    latencies.sort()
    frames = clock.frames
    return {
        "p50": latencies[len(latencies) // 2],
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "samples": len(latencies),
        "bytes_per_frame": sum(f[1] for f in frames) / len(frames),
        "min_bytes_per_frame": sum(f[2] for f in frames) / len(frames),
        "frames": len(frames),
    }


# --- flash ---------------------------------------------------------------------------------

def _quiet(_line: str) -> None:
    pass


def flash_times(folder: Path) -> dict[str, float]:
    """`pilkku flash` onto a fresh virtual board, again with nothing changed, and `mpremote
    cp -r` of the same files onto another fresh board."""
    board = VirtualBoard(folder / "flash-pilkku")
    board.start()
    try:
        full = flash.flash(board.pty_path, say=_quiet).seconds
        unchanged = flash.flash(board.pty_path, say=_quiet).seconds
    finally:
        board.close()
    files = firmware_image.image()
    staging = folder / "flash-files"
    for path, data in files.items():
        (staging / path).parent.mkdir(parents=True, exist_ok=True)
        (staging / path).write_bytes(data)
    tops = sorted({path.split("/")[0] for path in files})
    board = VirtualBoard(folder / "flash-mpremote")
    board.start()
    try:
        mpremote = shutil.which("mpremote", path=str(Path(sys.executable).parent)) or "mpremote"
        start = time.monotonic()
        done = subprocess.run([mpremote, "connect", board.pty_path, "cp", "-r"] + tops + [":"],
                              cwd=staging, capture_output=True, text=True, timeout=120)
        copied = time.monotonic() - start
        if done.returncode != 0:
            raise RuntimeError("mpremote cp -r failed: %s" % (done.stdout + done.stderr)[-500:])
    finally:
        board.close()
    return {"full": full, "unchanged": unchanged, "mpremote": copied}


# --- sync ----------------------------------------------------------------------------------

FILL = """import json
from firmware.journal import Journal
_j = Journal('journal', max_finished=10000)
_s = json.loads(%r)
_e = json.loads(%r)
for _i in range(%d):
    _m = _j.start(_s, {'board': 'pk-bench', 'table': 3, 'started': 1700000000 + 3600 * _i})
    for _x in _e:
        _m.apply(_x)
    _j.finish({'score': _m.state.score, 'winner': _m.state.winner,
               'ended': 1700002400 + 3600 * _i})
print(len(_j.finished()))
"""


class CountingSerial:
    """The sync link's port, counting the bytes that come in (the link counts what it sends)."""

    def __init__(self, port) -> None:
        self.port = port
        self.received = 0

    def read(self, size: int = 1) -> bytes:
        data = self.port.read(size)
        self.received += len(data)
        return data

    def __getattr__(self, name: str):
        return getattr(self.port, name)


class LineRelay(PtyRelay):
    """A 115200 baud cable on a pty: bytes pass to and from the board's pty no faster than the
    line carries them (10 bits a byte, each way on its own), so the sync's time holds its
    bytes' time on the line and its stalls (round trips, the board's work) on top."""

    def __init__(self, board_port: str, baud: int = BAUD) -> None:
        self.rate = baud / 10  # bytes a second
        self.free_at: dict[int, float] = {}  # per direction: when the line is done
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        free_at = max(self.free_at.get(target, 0.0), time.monotonic()) + len(data) / self.rate
        self.free_at[target] = free_at
        delay = free_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the last byte arrives when the line has carried it
        os.write(target, data)


def fill_journal(port: str, count: int) -> None:
    """`count` finished matches written into the board's journal by the firmware's own Journal,
    run on the board through its REPL (mpremote's raw REPL), then the firmware restarted."""
    doc = json.loads(SYNC_MATCH.read_text())
    with ReplLink.open(port) as link:
        link.raw_repl(soft_reset=True)
        done = link.run(FILL % (json.dumps(doc["settings"]), json.dumps(doc["events"]), count))
        if done.strip() != str(count):
            raise RuntimeError("the board holds %r finished matches, not %d" % (done, count))
        link.start_firmware()


def sync_figures(folder: Path, firmware: dict[str, bytes], count: int) -> dict[str, float]:
    """`count` finished matches pulled by `sync_board` through a 115200 baud line (LineRelay)
    to the board's pty, against the time the bytes sent both ways need on that line."""
    board = VirtualBoard(folder / "sync")
    files = dict(firmware)
    key = os.urandom(32)  # this run's own: no other program may free the board's results
    files["config.json"] = json.dumps({"board": "pk-bench", "table": 3,
                                       "key": key.hex()}).encode()
    board.install(files)
    board.start()
    try:
        fill_journal(board.pty_path, count)
        time.sleep(0.5)  # the firmware boots (as a board does after `pilkku flash`)
        pulled: list[Pulled] = []
        lock = threading.Lock()

        def store(_board: str, result: Pulled) -> str:
            if not result.verified:
                return "kept: not verified"
            matchlog.load(result.document)  # the laptop checks it replays
            with lock:
                pulled.append(result)
            return "stored"

        relay = LineRelay(board.pty_path)
        link = Link(relay.port, key)
        counter = CountingSerial(link.serial)
        link.serial = counter  # type: ignore[assignment]
        try:
            start = time.monotonic()
            summary = sync_board(link, store, lambda _table: [], say=_quiet)
            spent = time.monotonic() - start
        finally:
            link.close()
            relay.close()
    finally:
        board.close()
    if summary["stored"] != count:
        raise RuntimeError("the sync stored %d of %d results" % (summary["stored"], count))
    wire = link.sent_bytes + counter.received
    payload = sum(len(p.text.encode()) for p in pulled)
    return {"seconds": spent, "wire_bytes": wire, "payload_bytes": payload,
            "retransmissions": link.retransmissions,
            "line_seconds": wire * 10 / BAUD}
