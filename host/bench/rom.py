"""`pilkku bench`'s figures for code in ROM and for resume (issue 14), measured in the
MicroPython unix port with the drivers of host/bench/unix.py.

- ROMFS: the firmware's ROMFS image, as `pilkku flash` deploys it (host/board/flash_rom.py,
  mpremote's writer) plus the virtual flash chip's driver (C code on a board), is mounted at
  /rom by the firmware driver before anything else. The unix port cannot map a file, so the
  image is one block of the heap. Nothing in use before the firmware is imported is the
  firmware's (the VM's own, the bench's driver, the image, the flash mounted, as a board's
  boot mounts it before its free heap is read, the log file and the board's stand-in): the
  heap figures are taken above it, and the smallest heap is the smallest -X heapsize that
  plays both matches minus those KB (`heap_breakdown_romfs` lists each).
- Resume: a long 14.1 log of N events is played into the journal on a fresh LittleFS image
  by one process that then ends as a power cut does; a new process opens the journal and
  resumes the match, timed (the best of a few boots: a busy machine only slows one down);
  again after 4, 8, ... 28 more events (see RESUME_CUTS).
- The 32-bit estimate: see `heap_32bit_estimate_kb`.
"""

from __future__ import annotations

import math
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from host.bench import logs as bench_logs
from host.bench.unix import (
    BOARD_HEAP,
    Build,
    _words,
    firmware_anatomy,
    firmware_match,
    min_heap_kb,
)
from host.board import firmware_image, flash, flash_rom, toolchain
from host.board.virtual_board import VirtualBoard

RESUME_BOOTS = 7  # the best boot counts: a loaded machine only ever slows one down
# A resume replays the events after the last snapshot (one every 32): 12 at event 300, 24 at
# 3000. Timed at one cut each, the figure compares those tails, not the lengths; so each count
# is the median over cuts spread over one snapshot period (300, 304, ... 328).
RESUME_CUTS = 8
RESUME_STEP = 4
# Bytes of the firmware's 64-bit heap that a 32-bit build keeps at the same size: the
# journal's open file (1248 B with its littlefs cache, measured in the unix port), its two
# 256 B record buffers, and ~1 KB for the displays' frame buffers and the strings made at
# run time (the flash's mount is not the firmware's: a board mounts it before it reports its
# free heap). The names' pool shrinks from 11 to 7 bytes an entry (a 4-byte pointer, 2 of
# hash and 1 of length), everything else is made of machine words and halves (objects,
# dicts, lists, function and type objects; the GC's blocks are 16 bytes, not 32).
FIXED_BYTES = 3 * 1024
QSTR_ENTRY_64, QSTR_ENTRY_32 = 11, 7


def rom_image(build: Build) -> Path:
    """The ROMFS image of the firmware for the bench's driver, in the build folder."""
    files = firmware_image.image()
    chip = build.folder / "hardware" / "boards" / "virtual_flash.mpy"
    if not chip.exists():
        toolchain.compile_file(toolchain.ROOT / "hardware/boards/virtual_flash.py", chip,
                               "hardware/boards/virtual_flash.py")
    files["hardware/boards/virtual_flash.mpy"] = chip.read_bytes()
    path = build.folder / "firmware.romfs"
    path.write_bytes(flash_rom.image(files))
    return path


def romfs_figures(build: Build, matches: dict[str, dict], bisect: bool,
                  say: Callable[[str], None]) -> dict:
    """The firmware with its code in ROM: heap peaks above everything that is not the
    firmware's (the image, the bench's driver, the flash mounted, the log), where the heap
    goes (`heap_breakdown_romfs`), and the smallest heap (what is not the firmware's not
    counted)."""
    rom = rom_image(build)
    image_kb = math.ceil(rom.stat().st_size / 1024)
    figures: dict = {"romfs_image_bytes": rom.stat().st_size}
    results = {game: firmware_match(build, game, doc, rom) for game, doc in sorted(matches.items())}
    # A board whose laptop has spoken (pilkku sync, --watch) holds the sync endpoint too.
    synced = {game: firmware_match(build, game, doc, rom, synced=True)
              for game, doc in sorted(matches.items())}
    figures["heap_breakdown_romfs"] = {}
    for game, key in (("kaisa", "kaisa"), ("14.1", "straight_pool")):
        figures["heap_peak_bytes_romfs_" + key] = results[game]["live"]
        figures["heap_code_bytes_romfs_" + key] = results[game]["code"]
        figures["heap_peak_bytes_romfs_synced_" + key] = synced[game]["live"]
        figures["heap_breakdown_romfs"][key] = breakdown(
            results[game]["phases"], firmware_anatomy(build, game, matches[game], rom))
        figures["heap_breakdown_romfs"][key]["qstr_pool"] = results[game]["qstrs"]
        figures["heap_breakdown_romfs"][key]["qstr_pool_synced"] = synced[game]["qstrs"]
    if bisect:
        say("bisecting the heap the firmware needs with its code in ROM ...")
        below = {game: result["base"] // 1024 for game, result in results.items()}
        with ThreadPoolExecutor(max_workers=2) as pool:
            found = {game: pool.submit(min_heap_kb, build, game, doc, below[game] + 4, 1024, rom)
                     for game, doc in sorted(matches.items())}
            heaps = {game: future.result() for game, future in found.items()}
        least = {game: heaps[game] - below[game] for game in heaps}
        with ThreadPoolExecutor(max_workers=2) as pool:
            found = {game: pool.submit(min_heap_kb, build, game, doc, below[game] + 4, 1024,
                                       rom, True) for game, doc in sorted(matches.items())}
            figures["min_heap_kb_firmware_romfs_synced"] = max(
                future.result() - below[game] for game, future in found.items())
        figures["min_heap_kb_romfs_kaisa"] = least["kaisa"]
        figures["min_heap_kb_romfs_straight_pool"] = least["14.1"]
        figures["min_heap_kb_firmware_romfs"] = max(least.values())
        # The figure as the last session counted it (only the image left out), to compare.
        figures["min_heap_kb_firmware_romfs_with_harness"] = max(heaps.values()) - image_kb
        pool = max(result["qstrs"]["pool_bytes"] for result in results.values())
        figures["heap_32bit_estimate_kb"] = estimate_32bit(figures["min_heap_kb_firmware_romfs"],
                                                           pool)
    return figures


def breakdown(phases: dict[str, int], anatomy: dict[str, dict[str, int]]) -> dict:
    """Where the heap goes, in bytes: what is in use before the firmware is imported (not
    counted), the firmware's heap above that at each point of the match, what importing each
    module added (with the interned names' pool when it grew then), and what each part of
    the App holds at mid match."""
    base = phases["base"]
    return {
        "not_counted": {
            "vm": phases["vm"],
            "bench_driver": phases["driver"] - phases["vm"],
            "rom_image_block": phases["rom"] - phases["driver"],
            "flash_mounted": phases["flash"] - phases["rom"],
            "log_file_and_board_stand_in": base - phases["flash"],
        },
        "firmware_in_use": {name: phases[name] - base for name in (
            "imports", "app", "match_start", "mid_match", "match_end", "filed", "modules")},
        "modules_imported": anatomy["imports"],
        "parts_at_mid_match": anatomy["parts"],
    }


def estimate_32bit(kb_64bit: int, qstr_pool_bytes: int) -> int:
    """The smallest heap on a 32-bit board, from the 64-bit figure and the names' pool in it:
    FIXED_BYTES stay, the pool shrinks to 7/11, the rest (word-made) halves."""
    fixed = FIXED_BYTES / 1024
    pool = qstr_pool_bytes / 1024
    rest = max(kb_64bit - fixed - pool, 0)
    return math.ceil(fixed + pool * QSTR_ENTRY_32 / QSTR_ENTRY_64 + rest / 2)


def resume_ms(build: Build, counts: tuple[int, ...] = (300, 3000),
              boots: int = RESUME_BOOTS) -> dict[int, dict]:
    """Resume after a cut at each count of events of a long 14.1 match: for each count, the
    median over RESUME_CUTS cuts RESUME_STEP events apart from it (one snapshot period, so
    every count meets the same events after its snapshot: 0, 4, ... 28), of each cut's best
    of `boots` boots, in milliseconds from the journal's open to the resumed match (the
    median: a busy machine slows a cut's every boot now and then); and the most heap the
    journal and the resumed match held (bytes)."""
    result = {}
    for count in counts:
        name = "resume-%d" % count
        cuts = [count + RESUME_STEP * k for k in range(RESUME_CUTS)]
        path = build.write_log(name, bench_logs.straight_log(cuts[-1]))
        image = build.image(name)
        best, held = [], []
        for cut in cuts:
            mode = "play" if cut == count else "more"
            out = build.run("bench_driver", ["resume", mode, str(image), str(path), str(cut)],
                            BOARD_HEAP, timeout=900).stdout
            if _words(out, "PLAYED") != [cut]:
                raise RuntimeError("the driver played %s events, not %d" % (out, cut))
            times = []
            for _ in range(boots):
                took, events, snapshot, heap = _words(
                    build.run("bench_driver", ["resume", "time", str(image), str(cut)],
                              BOARD_HEAP).stdout, "RESUME")
                if events != cut or snapshot != 1:
                    raise RuntimeError("the journal resumed %d events (snapshot used: %d), "
                                       "not %d" % (events, snapshot, cut))
                times.append(took / 1000)
                held.append(heap)
            best.append(min(times))
        result[count] = {"ms": statistics.median(best), "cuts": dict(zip(cuts, best, strict=True)),
                         "heap": max(held)}
    return result


def flash_times(folder: Path) -> dict[str, float]:
    """`pilkku flash` onto a fresh virtual board with a ROM partition (the ROMFS way), again
    with nothing changed, and `mpremote romfs deploy` of the same image onto another."""
    board = VirtualBoard(folder / "flash-rom-pilkku")
    board.start()
    try:
        full = flash.flash(board.pty_path, say=lambda _line: None)
        unchanged = flash.flash(board.pty_path, say=lambda _line: None)
    finally:
        board.close()
    if full.where != "rom":
        raise RuntimeError("pilkku flash did not take the ROM way on a board with a partition")
    image = folder / "flash-rom.romfs"
    image.write_bytes(flash_rom.image(firmware_image.image()))
    board = VirtualBoard(folder / "flash-rom-mpremote")
    board.start()
    try:
        mpremote = shutil.which("mpremote", path=str(Path(sys.executable).parent)) or "mpremote"
        start = time.monotonic()
        done = subprocess.run([mpremote, "connect", board.pty_path, "romfs", "deploy",
                               str(image)], capture_output=True, text=True, timeout=300)
        deployed = time.monotonic() - start
        if done.returncode != 0:
            raise RuntimeError("mpremote romfs deploy failed: %s"
                               % (done.stdout + done.stderr)[-500:])
    finally:
        board.close()
    return {"full": full.seconds, "unchanged": unchanged.seconds, "mpremote": deployed}
