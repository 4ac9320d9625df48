"""`pilkku bench` on virtual boards (host/board/virtual_board.py: the firmware in the unix port, its
USB serial on a pty, its wires on TCP): key to display, I2C bytes per frame, `pilkku flash`
against `mpremote cp -r` (syncing: host/bench/syncing.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hardware.panel import LAYOUT
from host.board import firmware_image, flash
from host.board.virtual_board import VirtualBoard

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "sim-demo.txt"  # a 9-ball race through the keypad
TICK = 10  # ms: the firmware's own tick
RAM = Path("/dev/shm")  # a tmpfs, for the key boards' flash images
LONG_MS = 800  # the App's long press (firmware/app.py: Keypad long_ms)
RAM_WRITE = 17  # an HT16K33 frame: the RAM pointer and 16 bytes of display RAM
DISPLAY_ADDRESSES = {address for address, _kind in LAYOUT}


class TapBus:
    """Stands in the virtual board's display model: every write passes on to it, and the bytes
    for the displays are counted."""

    def __init__(self, model) -> None:
        self.model = model
        self.sent = 0  # bytes since the last take()

    def writeto(self, addr: int, data: bytes) -> None:
        self.model.writeto(addr, data)
        if addr in DISPLAY_ADDRESSES:
            self.sent += len(data)

    def take(self) -> int:
        sent, self.sent = self.sent, 0
        return sent

    def shown(self) -> dict[int, str]:
        """What each display shows, decoded from its RAM."""
        return {address: self.model.text(address) for address in DISPLAY_ADDRESSES}

    def __getattr__(self, name: str):
        return getattr(self.model, name)  # text(), for texts()


def least_bytes(before: dict[int, str], after: dict[int, str]) -> int:
    """The least I2C bytes that change what the displays show from `before` to `after`,
    worked out from the characters alone (not from what the firmware wrote): one RAM write,
    the pointer and 16 bytes, for each backpack whose characters changed."""
    return RAM_WRITE * sum(1 for address in after if after[address] != before.get(address))


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
    (the tick's I2C writes arrive before it), counting its display bytes against the least
    its changed characters needed. Beside each round trip it keeps the firmware's own time
    on the tick, which the board's clock measured and the acknowledgement carries."""

    def __init__(self, board: VirtualBoard, bus: TapBus) -> None:
        self.board = board
        self.bus = bus
        self.frames: list[tuple[float, int, int]] = []  # (ms, bytes, needed) per frame
        self.firmware_ms = 0.0  # the last tick's own time on the board
        with board._lock:
            self.shown = bus.shown()

    def tick(self) -> tuple[float, int]:
        bus = self.bus
        with self.board._lock:  # the wire reader may be passing on writes
            bus.take()
        start = time.perf_counter()
        spent_us = self.board.step(TICK)
        spent = (time.perf_counter() - start) * 1000
        self.firmware_ms = spent_us / 1000
        with self.board._lock:
            sent = bus.take()
            shown = bus.shown()
        needed = least_bytes(self.shown, shown)
        self.shown = shown
        if sent or needed:
            self.frames.append((spent, sent, needed))
        return spent, sent

    def hold(self, key: str, ms: int, after: int) -> list[tuple[float, float]]:
        """Press `key` for `ms`: the latencies of the frames it caused (the first frame after
        the press, and after a long press the first frame from the long press on), each as
        (round trip, the firmware's own time) in ms."""
        caused = []
        self.board.key(key, True)
        waiting_long = ms >= LONG_MS
        first = True
        for number in range(1, ms // TICK + 1):
            spent, sent = self.tick()
            if sent and first:
                caused.append((spent, self.firmware_ms))
                first = False
            elif sent and waiting_long and number * TICK >= LONG_MS:
                caused.append((spent, self.firmware_ms))
                waiting_long = False
        self.board.key(key, False)
        for _ in range(after // TICK):
            self.tick()
        return caused


def key_to_display(folder: Path, firmware: dict[str, bytes], repeats: int,
                   passes: int = 1) -> dict:
    """The sim demo's 9-ball race through the keypad, `repeats` times on a fresh board, in
    `passes` passes: each key press's frame, from the tick's request to its acknowledgement,
    and bytes per changed frame. The budget holds the worst pass: its p99 is the figure (a
    busy machine adds to a pass's tail, and a board is never quieter than its worst moment);
    p50 is over every pass's samples; each pass's p99 is kept beside it.

    Beside the round trip, the firmware's own time on the same ticks (`firmware_p50`,
    `firmware_p99` of the pass with the worst such p99): what a real board's tick costs
    before its display is written, without the virtual board's TCP wires and threads.

    The boards' flash images are kept in RAM (/dev/shm, where the machine has one:
    `flash_in_ram`): on the host's disk a littlefs program is a write() that stalls behind
    other programs' writes for tens of ms (docs/performance.md) - the host's disk, which a
    board's flash chip does not have."""
    ram = RAM if RAM.is_dir() and os.access(RAM, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="pilkku-keys-", dir=ram or folder) as flash:
        runs = [_key_pass(Path(flash) / ("keys%d" % number), firmware, repeats)
                for number in range(passes)]
    worst = dict(max(runs, key=lambda run: run["p99"]))
    worst["flash_in_ram"] = ram is not None
    pooled = sorted(ms for run in runs for ms in run["latencies"])
    worst["p50"] = pooled[len(pooled) // 2]
    worst["samples"] = len(pooled)
    worst["p99_passes"] = [run["p99"] for run in runs]
    worst["p99_best"] = min(worst["p99_passes"])
    own = sorted(ms for run in runs for ms in run["firmware"])
    worst["firmware_p50"] = own[len(own) // 2]
    worst["firmware_p99"] = max(run["firmware_p99"] for run in runs)
    worst["firmware_max"] = own[-1]
    for run in runs:
        del run["latencies"], run["firmware"]
    del worst["latencies"], worst["firmware"]
    return worst


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


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
        caused: list[tuple[float, float]] = []
        for _ in range(repeats):
            for action, key, ms in _script(SCRIPT):
                if action == "wait":
                    for _ in range(ms // TICK):
                        clock.tick()
                else:
                    caused += clock.hold(key, ms, 60)
    finally:
        board.close()
    latencies = [trip for trip, _own in caused]
    frames = clock.frames
    return {
        "latencies": latencies,
        "p99": _p99(latencies),
        "firmware": [own for _trip, own in caused],
        "firmware_p99": _p99([own for _trip, own in caused]),
        "bytes_per_frame": sum(f[1] for f in frames) / len(frames),
        "min_bytes_per_frame": sum(f[2] for f in frames) / len(frames),
        "frames": len(frames),
    }


# --- flash ---------------------------------------------------------------------------------

def _quiet(_line: str) -> None:
    pass


def flash_times(folder: Path) -> dict[str, float]:
    """`pilkku flash` onto a fresh virtual board, again with nothing changed, and `mpremote
    cp -r` of the same files onto another fresh board (boards without a ROM partition: the
    ROM way is host/bench/rom.py's)."""
    board = VirtualBoard(folder / "flash-pilkku", rom=False)
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
    board = VirtualBoard(folder / "flash-mpremote", rom=False)
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
