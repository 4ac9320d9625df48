"""`pilkku bench` in the MicroPython unix port: the engine's replay and undo, and the firmware
playing whole matches (heap, journal, flash, displays), with board-sized heaps.

The board's packages and the two drivers (host/bench/driver.py, host/bench/firmware.py) are
compiled with mpy-cross into one folder, as the board runs them; each measurement is one
`micropython -X heapsize=...` run of a driver (a tiny script imports it: `-c` or `-m` would
cost the heap more than the board's boot does).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from host.board import toolchain
from rules_core.match import Match

HOST = Path(__file__).resolve().parent
DRIVERS = ("bench_driver", "bench_firmware")
SPEED_HEAP = "1024k"  # replay speed: the engine alone, the GC out of the way
BOARD_HEAP = "320k"  # undo and the sampled match: room for the harness around the firmware
# (the sampled Kaisa match with its ROMFS image in RAM peaks at ~246 KB on the 64-bit port)


class BenchError(RuntimeError):
    pass


class Build:
    """The compiled firmware and drivers in `folder`, and runs of a driver there."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        toolchain.compile_packages(folder)
        for name in DRIVERS:
            source = name.replace("bench_", "") + ".py"  # host/bench/driver.py -> bench_driver
            toolchain.compile_file(HOST / source, folder / (name + ".mpy"), "host/bench/" + source)
            # The heap in use before the driver is imported: the VM's own (its START).
            (folder / ("run_%s.py" % name)).write_text(
                "import gc\ngc.collect()\nstart = gc.mem_alloc()\nimport sys\nimport %s\n"
                "%s.START = start\n%s.main(sys.argv[1:])\n" % (name, name, name))

    def run(self, driver: str, args: list[str], heap: str, check: bool = True,
            timeout: float = 120) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [toolchain.micropython_binary(), "-X", "heapsize=" + heap,
             str(self.folder / ("run_%s.py" % driver))] + args,
            capture_output=True, text=True, timeout=timeout,
            env=dict(os.environ, MICROPYPATH=str(self.folder)))
        if check and done.returncode != 0:
            raise BenchError("%s %s failed in the unix port (heap %s):\n%s" % (
                driver, args[0], heap, (done.stdout + done.stderr)[-1500:]))
        return done

    def write_log(self, name: str, doc: dict) -> Path:
        """A log as the drivers read it: the settings, then one event a line."""
        path = self.folder / (name + ".jsonl")
        lines = [json.dumps(doc["settings"])] + [json.dumps(e) for e in doc["events"]]
        path.write_text("\n".join(lines) + "\n")
        return path

    def image(self, name: str) -> Path:
        """A path for a fresh flash image (the driver formats it)."""
        path = self.folder / (name + ".img")
        path.unlink(missing_ok=True)
        return path


def _words(output: str, tag: str) -> list[int]:
    for line in output.splitlines():
        words = line.split()
        if words and words[0] == tag:
            return [int(w) for w in words[1:]]
    raise BenchError("no %s line in the driver's output:\n%s" % (tag, output[-800:]))


# --- the engine --------------------------------------------------------------------------

def replay_micropython(build: Build, logs: dict[str, dict], rounds: int) -> float:
    """Events per second replaying every long log in the unix port (each log's best round:
    a busy machine only ever slows a round down)."""
    events = micros = 0
    for game, doc in sorted(logs.items()):
        path = build.write_log("long-" + game.replace(".", ""), doc)
        counted, *times = _words(build.run("bench_driver", ["replay", str(path), str(rounds)],
                                           SPEED_HEAP).stdout, "REPLAY")
        events += counted
        micros += min(times)
    return events / (micros / 1e6)


def replay_cpython(logs: dict[str, dict], rounds: int) -> float:
    """The same replay in this CPython, the same way."""
    events = 0
    spent = 0.0
    for _game, doc in sorted(logs.items()):
        times = []
        for _round in range(rounds + 1):
            start = time.perf_counter()
            match = Match(doc["settings"])
            for event in doc["events"]:
                match.apply(event)
            times.append(time.perf_counter() - start)
        spent += min(times[1:])
        events += len(doc["events"])
    return events / spent


def undo_ms(build: Build, logs: dict[str, dict], rounds: int) -> dict[str, tuple[float, float]]:
    """Undo at the end of each long log's match, on the journal, in ms: the best round and
    the median (every round does the same work; a busy machine only adds to some)."""
    result = {}
    for game, doc in sorted(logs.items()):
        name = "long-" + game.replace(".", "")
        path = build.write_log(name, doc)
        times = sorted(_words(build.run("bench_driver", ["undo", str(build.image(name)),
                                                         str(path), str(rounds)],
                                        BOARD_HEAP).stdout, "UNDO"))
        result[game] = (times[0] / 1000, times[len(times) // 2] / 1000)
    return result


# --- the firmware plays whole matches ---------------------------------------------------------

def _rom_args(rom: Path | None, synced: bool) -> list[str]:
    return ([str(rom)] if rom is not None else []) + (["synced"] if synced else [])


def firmware_match(build: Build, game: str, doc: dict, rom: Path | None = None,
                   synced: bool = False) -> dict[str, Any]:
    """One sampled run of the firmware through `doc`'s match: heap, journal, flash, I2C
    (with `rom`, a ROMFS image, the code runs from it: host/bench/rom.py; `synced`: a laptop
    has spoken first, so the sync endpoint is loaded)."""
    name = "full-" + game.replace(".", "")
    path = build.write_log(name, doc)
    out = build.run("bench_firmware", [str(build.image(name)), str(path), "1"]
                    + _rom_args(rom, synced), BOARD_HEAP).stdout
    (base,) = _words(out, "BASE")
    live, code = _words(out, "HEAP")
    events, journal = _words(out, "JOURNAL")
    play, everything, erases = _words(out, "FLASH")
    (i2c,) = _words(out, "I2C")
    modules = [line.split()[1:] for line in out.splitlines() if line.startswith("MODULES")][0]
    return {"base": base, "live": live, "code": code, "events": events,
            "journal": journal, "flash_play": play, "flash_all": everything,
            "erases": erases, "i2c": i2c, "phases": _named(out, "PHASE"),
            "qstrs": _qstr_pool(out),
            "mpy_imported": sum(_mpy_size(build.folder, name) for name in modules)}


def _qstr_pool(output: str) -> dict[str, int]:
    """micropython.qstr_info()'s line: the names interned, and the bytes of the pools
    holding them (the names' own characters left out: loaded from ROM they stay there)."""
    for line in output.splitlines():
        if line.startswith("qstr pool:"):
            info = {key.strip(): int(value) for key, value in
                    (item.split("=") for item in line.split(":", 1)[1].split(","))}
            return {"qstrs": info["n_qstr"],
                    "pool_bytes": info["n_total_bytes"] - info["n_str_data_bytes"]}
    raise BenchError("no qstr pool line in the driver's output:\n%s" % output[-800:])


def _named(output: str, tag: str) -> dict[str, int]:
    """The driver's `TAG name bytes` lines, as a dict (in the order printed)."""
    return {words[1]: int(words[2]) for words in (line.split() for line in output.splitlines())
            if words and words[0] == tag}


def firmware_anatomy(build: Build, game: str, doc: dict,
                     rom: Path | None = None) -> dict[str, dict[str, int]]:
    """The firmware's heap taken apart (host/bench/firmware.py, SAMPLE 2): what importing
    each module added, and what each part of the App holds at mid match."""
    name = "parts-" + game.replace(".", "")
    path = build.write_log(name, doc)
    out = build.run("bench_firmware", [str(build.image(name)), str(path), "2"]
                    + ([str(rom)] if rom is not None else []), BOARD_HEAP).stdout
    return {"imports": _named(out, "IMPORT"), "parts": _named(out, "PART")}


def _mpy_size(folder: Path, module: str) -> int:
    """The size of a module's .mpy file (a package's: its __init__.mpy)."""
    path = folder / (module.replace(".", "/") + ".mpy")
    if not path.exists():
        path = folder / module.replace(".", "/") / "__init__.mpy"
    return path.stat().st_size


def plays_in(build: Build, name: str, path: Path, heap_kb: int, tries: int = 2,
             rom: Path | None = None, synced: bool = False) -> bool:
    """The firmware plays the match to its end with `heap_kb` of heap, every one of `tries`
    times (a MemoryError, or a refusal the App made of one, is a failure). Near the limit one
    run may pass and the next fail: the GC scans the C stack conservatively, and the stack
    holds other values from run to run (address randomisation)."""
    for _ in range(tries):
        image = build.image("%s-%d" % (name, heap_kb))
        done = build.run("bench_firmware", [str(image), str(path), "0"]
                         + _rom_args(rom, synced), "%dk" % heap_kb, check=False)
        image.unlink(missing_ok=True)
        if done.returncode != 0 or not done.stdout.strip().endswith("OK"):
            return False
    return True


def min_heap_kb(build: Build, game: str, doc: dict, low: int = 8, high: int = 1024,
                rom: Path | None = None, synced: bool = False) -> int:
    """The smallest heap (KB) in which the firmware plays `doc`'s match, by bisection."""
    name = ("min-" + game.replace(".", "") + ("-rom" if rom is not None else "")
            + ("-synced" if synced else ""))
    path = build.write_log(name, doc)
    if not plays_in(build, name, path, high, rom=rom, synced=synced):
        raise BenchError("the firmware does not play the %s match even in %d KB" % (game, high))
    while high - low > 1:  # low fails (or is untried), high plays
        middle = (low + high) // 2
        if plays_in(build, name, path, middle, rom=rom, synced=synced):
            high = middle
        else:
            low = middle
    return high


def firmware_matches(build: Build, matches: dict[str, dict], bisect: bool,
                     say: Callable[[str], None]) -> dict[str, dict]:
    """Every full match sampled, and bisected for its heap (the games side by side: the
    bench must fit in minutes on two cores)."""
    results = {game: firmware_match(build, game, doc) for game, doc in sorted(matches.items())}
    if bisect:
        say("bisecting the heap the firmware needs ...")
        with ThreadPoolExecutor(max_workers=2) as pool:
            found = {game: pool.submit(min_heap_kb, build, game, doc)
                     for game, doc in sorted(matches.items())}
            for game, future in found.items():
                results[game]["min_heap_kb"] = future.result()
    return results
