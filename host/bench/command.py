"""`pilkku bench`: what pilkku costs in time, memory, flash and bytes, measured on the real
firmware (the MicroPython unix port and virtual boards), printed as a table or, with --json,
as one JSON object. docs/performance.md records a run and what it means for a Pico.

    pilkku bench            # the table, with each budget met or missed (30-60 s on 2 cores)
    pilkku bench --json     # one JSON object: every figure, nothing else on stdout
    pilkku bench --quick    # tiny sizes: checks the plumbing in seconds, not the figures
    pilkku bench --desk     # the director's desk's figures alone (with --json, --quick)

Where the figures come from:
  host/bench/logs.py     long and full match logs made by the engine itself
  host/bench/unix.py     replay, undo, the firmware's heap, journal and flash in the unix port
  host/bench/board.py    key to display, I2C and flash on virtual boards
  host/bench/syncing.py  sync (into the store) on a virtual board
  host/bench/hall.py     the hall: a key to a browser's page, server-sent-event clients held
  host/bench/desk.py     the director's desk: an action to every open page, the night's
                         screen and printouts of a 64-player hakukaavio (server time)
  host/bench/pico.py     boot, key to display, resume, sync on the emulated Pico (and
                         pico_flash.py: pilkku flash against mpremote)
Budgets hold the worst: key to display by the worst pass's p99, undo by the median round.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from host.arguments import minutes
from host.bench import board as bench_board
from host.bench import desk as bench_desk
from host.bench import hall as bench_hall
from host.bench import logs as bench_logs
from host.bench import pico as bench_pico
from host.bench import rom as bench_rom
from host.bench import syncing as bench_syncing
from host.bench import unix as bench_unix
from host.board import firmware_image, toolchain
from host.i18n import N_, _


@dataclass(frozen=True)
class Sizes:
    events: int = 500  # of the long 14.1 and Kaisa logs (replay, undo)
    replay_rounds: int = 5
    undo_rounds: int = 21
    straight_race: int = 100  # the full 14.1 match
    kaisa_race: int = 60  # the full Kaisa game
    bisect: bool = True
    key_repeats: int = 10  # of the sim demo's 9-ball race, for key to display
    key_passes: int = 5  # of those repeats, each on a fresh board: the worst counts
    sync_matches: int = 50
    resume_events: tuple[int, int] = (300, 3000)  # cut after these many events, then resume
    resume_boots: int = 7  # per cut (host/bench/rom.py: 8 cuts from each size)
    hall_presses: int = 10  # racks won at the keypad, each timed to the browser's page
    hall_clients: int = 200  # server-sent-event clients held at once
    hall_rounds: int = 5  # updates each of them must get
    noisy_sync_matches: int = 20  # synced over a line damaging 1 % of its bytes
    pico: bench_pico.PicoSizes = bench_pico.FULL  # the emulated Pico's (host/bench/pico.py)
    desk: bench_desk.DeskSizes = bench_desk.FULL  # the director's desk's (host/bench/desk.py)


FULL = Sizes()
QUICK = Sizes(events=40, replay_rounds=1, undo_rounds=3, straight_race=12, kaisa_race=10,
              key_repeats=1, key_passes=1, sync_matches=2, resume_events=(40, 320),
              resume_boots=1,
              hall_presses=1, hall_clients=5, hall_rounds=1, noisy_sync_matches=1,
              pico=bench_pico.QUICK, desk=bench_desk.QUICK)

# key: (limit, "<" below it / "<=" at most, what the budget says)
BUDGETS = {
    "undo_ms_micropython_500": (5.0, "<", "undo at 500 events under 5 ms (unix port), median"),
    "key_to_display_ms_p99": (5.0, "<", "key to display p99 under 5 ms (unix port), worst pass"),
    "min_heap_kb_firmware": (64, "<=", "full matches in a 64 KB heap (goal 32 KB)"),
    "min_heap_kb_firmware_romfs": (32, "<=", "full matches, code in ROM, in a 32 KB heap"),
    "resume_3000_vs_300": (1.3, "<=", "resume at 3000 events within 1.3x of at 300"),
    "mpy_bytes_total": (120 * 1024, "<", "compiled firmware under 120 KB"),
    "flash_unchanged_s": (3.0, "<", "unchanged flash under 3 s"),
    "flash_full_vs_mpremote_ratio": (1.0, "<=", "full flash no slower than mpremote cp -r"),
    # The time of the results' own bytes on the line: a protocol sending more bytes for the
    # same results takes longer against it (the line rate of the bytes actually sent would
    # pace itself and always pass).
    "sync_time_vs_payload_line_rate": (1.5, "<=",
                                       "sync within 1.5x of the results' own line time"),
    "journal_bytes_per_event": (64, "<", "journal under 64 bytes per event"),
    # On the emulated Pico (emulated ms, the flash chip's times included).
    "pico_boot_ms_romfs": (1500, "<=", "a Pico, code in ROM, shows within 1.5 s of power on"),
    "pico_key_to_display_ms_p99": (20, "<=", "key to display p99 on a Pico, flash included"),
    "pico_key_to_display_ms_max": (40, "<=", "the slowest key to display on a Pico, flash "
                                   "included"),
    "pico_key_missed": (0, "<=", "no tap missed on a Pico, flash work or not"),
    "pico_resume_3000_vs_300": (1.3, "<=", "a Pico resumes at 3000 events within 1.3x of 300"),
    "pico_min_heap_kb_romfs": (64, "<=", "a Pico, code in ROM, plays and syncs in 64 KB"),
    **bench_desk.BUDGETS,
}

# The table's rows: key, label, format.
ROWS = (
    ("replay_events_per_s_micropython", "replay, unix port (events/s)", "%.0f"),
    ("replay_events_per_s_cpython", "replay, CPython (events/s)", "%.0f"),
    ("undo_ms_micropython_500", "undo at 500 events, unix port (ms)", "%.2f"),
    ("undo_ms_best_micropython_500", "  the best round (ms)", "%.2f"),
    ("key_to_display_ms_p50", "key to display p50 (ms)", "%.2f"),
    ("key_to_display_ms_p99", "key to display p99, worst pass (ms)", "%.2f"),
    ("key_to_display_ms_p99_best", "  the quietest pass (ms)", "%.2f"),
    ("key_tick_firmware_ms_p50", "  the firmware's own time on it, p50 (ms)", "%.2f"),
    ("key_tick_firmware_ms_p99", "  the firmware's own time, p99, worst pass (ms)", "%.2f"),
    ("key_tick_firmware_ms_max", "  the firmware's own time, slowest key (ms)", "%.2f"),
    ("heap_peak_bytes_kaisa", "heap peak, Kaisa game (bytes)", "%d"),
    ("heap_code_bytes_kaisa", "  of which the imported modules", "%d"),
    ("heap_peak_bytes_straight_pool", "heap peak, 14.1 race (bytes)", "%d"),
    ("heap_code_bytes_straight_pool", "  of which the imported modules", "%d"),
    ("min_heap_kb_firmware", "smallest -X heapsize for both (KB)", "%d"),
    ("heap_peak_bytes_romfs_kaisa", "heap peak, Kaisa, code in ROM (bytes)", "%d"),
    ("romfs_image_bytes", "  the ROMFS image, apart (bytes)", "%d"),
    ("min_heap_kb_firmware_romfs", "smallest heap, code in ROM (KB)", "%d"),
    ("min_heap_kb_firmware_romfs_with_harness", "  counting the bench's own heap (KB)", "%d"),
    ("min_heap_kb_firmware_romfs_synced", "  once a laptop has spoken (KB)", "%d"),
    ("heap_32bit_estimate_kb", "  estimated on a 32-bit board (KB)", "%d"),
    ("resume_ms_300", "resume after a cut at 300 events (ms)", "%.2f"),
    ("resume_ms_3000", "resume after a cut at 3000 events (ms)", "%.2f"),
    ("resume_3000_vs_300", "  at 3000 / at 300", "%.2f"),
    ("resume_heap_bytes_300", "heap the resumed journal holds at 300 events (B)", "%d"),
    ("resume_heap_bytes_3000", "heap the resumed journal holds at 3000 events (B)", "%d"),
    ("mpy_bytes_total", "compiled firmware, all .mpy (bytes)", "%d"),
    ("i2c_bytes_per_frame", "I2C bytes per changed frame", "%.1f"),
    ("i2c_min_bytes_per_frame", "  least possible (changed backpacks)", "%.1f"),
    ("flash_full_s", "pilkku flash, fresh board (s)", "%.2f"),
    ("flash_mpremote_s", "mpremote cp -r, fresh board (s)", "%.2f"),
    ("flash_full_vs_mpremote_ratio", "  full flash / mpremote", "%.2f"),
    ("flash_unchanged_s", "pilkku flash, nothing changed (s)", "%.2f"),
    ("flash_romfs_full_s", "pilkku flash, ROMFS, fresh board (s)", "%.2f"),
    ("flash_romfs_mpremote_s", "mpremote romfs deploy, fresh board (s)", "%.2f"),
    ("flash_romfs_vs_mpremote_ratio", "  ROMFS flash / mpremote", "%.2f"),
    ("flash_romfs_unchanged_s", "pilkku flash, ROMFS, nothing changed (s)", "%.2f"),
    ("sync_wire_bytes_per_payload_byte", "sync wire bytes per result byte", "%.2f"),
    ("sync_time_vs_line_rate", "sync time / its bytes' 115200 baud time", "%.2f"),
    ("sync_time_vs_payload_line_rate", "  / the results' own bytes' time", "%.2f"),
    ("sync_completes_at_1pct_byte_errors", "sync of the results at 1 % byte errors completes",
     "%s"),
    ("sync_retries_at_1pct", "  frames sent again", "%d"),
    ("sync_completes_at_3pct_byte_errors", "sync of the results at 3 % byte errors completes",
     "%s"),
    ("sync_retries_at_3pct", "  frames sent again", "%d"),
    ("sync_s_per_result_3pct_vs_1pct", "  time per result, at 3 % / at 1 %", "%.2f"),
    ("sync_gives_up_silent_s", "sync gives up on a silent device (s)", "%.1f"),
    ("sync_gives_up_junk_s", "  on one sending junk without a newline (s)", "%.1f"),
    ("journal_bytes_per_event", "journal bytes per event", "%.1f"),
    ("flash_programmed_bytes_per_event", "  littlefs programs per event (bytes)", "%.0f"),
    ("hall_key_to_page_ms_p50", "hall: key to browser page p50 (ms)", "%.0f"),
    ("hall_key_to_page_ms_p99", "hall: key to browser page p99 (ms)", "%.0f"),
    ("hall_clients_held", "hall: SSE clients kept updated", "%d"),
    ("hall_clients_update_ms_p99", "  their update delay p99 (ms)", "%.0f"),
    *bench_desk.ROWS,
    ("pico_emulated_ms_per_wall_ms", "Pico: emulator speed (emulated/wall ms)", "%.2f"),
    ("pico_boot_ms_romfs", "Pico: boot to a display, code in ROM (ms)", "%d"),
    ("pico_boot_ms_files", "Pico: boot to a display, as files (ms)", "%d"),
    ("pico_key_to_display_ms_p50", "Pico: key to display p50 (ms)", "%d"),
    ("pico_key_to_display_ms_p90", "Pico: key to display p90 (ms)", "%d"),
    ("pico_key_to_display_ms_p99", "Pico: key to display p99 (ms)", "%d"),
    ("pico_key_to_display_ms_long_p50", "  in a long match: p50 (ms)", "%d"),
    ("pico_key_to_display_ms_long_p99", "  in a long match: p99 (ms)", "%d"),
    ("pico_key_to_display_ms_max", "  the slowest key (ms)", "%d"),
    ("pico_key_to_display_ms_kaisa_p50", "  in a Kaisa game with its clock: p50 (ms)", "%d"),
    ("pico_key_to_display_ms_kaisa_max", "  in a Kaisa game with its clock: the slowest (ms)",
     "%d"),
    ("pico_key_missed", "  taps missed (80 ms, random moments)", "%d"),
    ("pico_flash_ops_per_event", "  flash erases and programs per shot", "%.2f"),
    ("pico_resume_ms_300", "Pico: resume after a cut at 300 (ms)", "%d"),
    ("pico_resume_ms_3000", "Pico: resume after a cut at 3000 (ms)", "%d"),
    ("pico_resume_3000_vs_300", "  at 3000 / at 300", "%.2f"),
    ("pico_sync_ms_per_result", "Pico: pilkku sync per result (ms)", "%.0f"),
    ("pico_sync_store_ms_per_result", "  of the laptop's own, in the store (ms)", "%.1f"),
    ("pico_flash_full_s", "Pico: pilkku flash, ROMFS, blank (s)", "%.1f"),
    ("pico_flash_full_vs_mpremote_ratio", "  / mpremote romfs deploy", "%.2f"),
    ("pico_flash_files_full_s", "Pico: pilkku flash, files, blank (s)", "%.1f"),
    ("pico_flash_files_full_vs_mpremote_ratio", "  / mpremote cp -r", "%.2f"),
    ("pico_min_heap_kb_romfs", "Pico: smallest heap, code in ROM (KB)", "%d"),
    ("pico_min_heap_kb_files", "Pico: smallest heap, code as files (KB)", "%d"),
)

Say = Callable[[str], None]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def measure(sizes: Sizes, folder: Path, say: Say = _stderr) -> dict:
    """Every figure, measured now. The order keeps the two cores busy only where it helps."""
    figures: dict = {}
    say("generating the match logs with the engine ...")
    long_logs = bench_logs.long_logs(sizes.events)
    full = {"14.1": bench_logs.straight_log(None, sizes.straight_race),
            "kaisa": bench_logs.kaisa_log(None, sizes.kaisa_race)}
    say("compiling the firmware for the unix port ...")
    build = bench_unix.Build(folder / "build")
    firmware = firmware_image.image()
    figures["mpy_bytes_total"] = sum(len(data) for path, data in firmware.items()
                                     if path.endswith(".mpy"))
    say("replay and undo ...")
    figures["replay_events_per_s_micropython"] = bench_unix.replay_micropython(
        build, long_logs, sizes.replay_rounds)
    figures["replay_events_per_s_cpython"] = bench_unix.replay_cpython(
        long_logs, sizes.replay_rounds)
    figures.update(undo_figures(bench_unix.undo_ms(build, long_logs, sizes.undo_rounds)))
    figures["long_log_events"] = sizes.events
    say("the firmware plays a 14.1 race to %d and a Kaisa game to %d ..."
        % (sizes.straight_race, sizes.kaisa_race))
    figures.update(_firmware_figures(bench_unix.firmware_matches(build, full, sizes.bisect,
                                                                 say)))
    say("the same with the firmware's code in ROM (a ROMFS image) ...")
    figures.update(bench_rom.romfs_figures(build, full, sizes.bisect, say))
    say("resume after a power cut at %d and %d events ..." % sizes.resume_events)
    short, long = sizes.resume_events
    resumed = bench_rom.resume_ms(build, sizes.resume_events, sizes.resume_boots)
    figures["resume_events"] = list(sizes.resume_events)
    figures["resume_ms_300"] = resumed[short]["ms"]  # the keys name the full sizes (--quick: less)
    figures["resume_ms_3000"] = resumed[long]["ms"]
    figures["resume_3000_vs_300"] = resumed[long]["ms"] / resumed[short]["ms"]
    figures["resume_ms_cuts"] = {str(cut): ms for size in (short, long)
                                 for cut, ms in resumed[size]["cuts"].items()}
    figures["resume_heap_bytes_300"] = resumed[short]["heap"]
    figures["resume_heap_bytes_3000"] = resumed[long]["heap"]
    say("key to display on a virtual board ...")
    keys = bench_board.key_to_display(folder, firmware, sizes.key_repeats, sizes.key_passes)
    figures["key_to_display_ms_p50"] = keys["p50"]
    figures["key_to_display_ms_p99"] = keys["p99"]
    figures["key_to_display_ms_p99_passes"] = keys["p99_passes"]
    figures["key_to_display_ms_p99_best"] = keys["p99_best"]
    figures["key_to_display_samples"] = keys["samples"]
    figures["key_to_display_flash_in_ram"] = keys["flash_in_ram"]
    figures["key_tick_firmware_ms_p50"] = keys["firmware_p50"]
    figures["key_tick_firmware_ms_p99"] = keys["firmware_p99"]
    figures["key_tick_firmware_ms_max"] = keys["firmware_max"]
    figures["i2c_bytes_per_frame"] = keys["bytes_per_frame"]
    figures["i2c_min_bytes_per_frame"] = keys["min_bytes_per_frame"]
    say("pilkku flash and mpremote cp -r ...")
    flashed = bench_board.flash_times(folder)
    figures["flash_full_s"] = flashed["full"]
    figures["flash_unchanged_s"] = flashed["unchanged"]
    figures["flash_mpremote_s"] = flashed["mpremote"]
    figures["flash_full_vs_mpremote_ratio"] = flashed["full"] / flashed["mpremote"]
    flashed = bench_rom.flash_times(folder)
    figures["flash_romfs_full_s"] = flashed["full"]
    figures["flash_romfs_unchanged_s"] = flashed["unchanged"]
    figures["flash_romfs_mpremote_s"] = flashed["mpremote"]
    figures["flash_romfs_vs_mpremote_ratio"] = flashed["full"] / flashed["mpremote"]
    say("pulling %d finished matches with pilkku sync ..." % sizes.sync_matches)
    synced = bench_syncing.sync_figures(folder, firmware, sizes.sync_matches)
    figures["sync_matches"] = sizes.sync_matches
    figures["sync_s"] = synced["seconds"]
    figures["sync_line_s"] = synced["line_seconds"]
    figures["sync_retransmissions"] = synced["retransmissions"]
    figures["sync_wire_bytes_per_payload_byte"] = synced["wire_bytes"] / synced["payload_bytes"]
    figures["sync_time_vs_line_rate"] = synced["seconds"] / synced["line_seconds"]
    figures["sync_time_vs_payload_line_rate"] = synced["seconds"] / (
        synced["payload_bytes"] * 10 / bench_syncing.BAUD)
    say("pulling %d over a line that damages 1 %% of its bytes, a quarter as many at 3 %% ..."
        % sizes.noisy_sync_matches)
    figures.update(bench_syncing.noisy_figures(folder, firmware, sizes.noisy_sync_matches))
    figures.update(bench_hall.figures(folder, firmware, sizes, say))
    figures.update(bench_desk.figures(folder, sizes.desk, say))
    figures.update(bench_pico.pico_figures(folder, sizes.pico, say))
    return figures


def undo_figures(undo: dict[str, tuple[float, float]]) -> dict:
    """Undo's figure is the slower game's median round (every round does the same work; the
    budget holds the typical undo, not the luckiest); the best rounds are kept beside it."""
    return {
        "undo_ms_micropython_500": max(median for _best, median in undo.values()),
        "undo_ms_best_micropython_500": max(best for best, _median in undo.values()),
        "undo_ms_median_kaisa": undo["kaisa"][1],
        "undo_ms_median_straight_pool": undo["14.1"][1],
    }


def _firmware_figures(results: dict[str, dict]) -> dict:
    kaisa, straight = results["kaisa"], results["14.1"]
    figures = {
        "heap_peak_bytes_kaisa": kaisa["live"],
        "heap_peak_bytes_straight_pool": straight["live"],
        "heap_code_bytes_kaisa": kaisa["code"],
        "heap_code_bytes_straight_pool": straight["code"],
        "heap_data_bytes_kaisa": kaisa["live"] - kaisa["code"],
        "heap_data_bytes_straight_pool": straight["live"] - straight["code"],
        "mpy_bytes_imported_kaisa": kaisa["mpy_imported"],
        "mpy_bytes_imported_straight_pool": straight["mpy_imported"],
        "heap_harness_bytes": max(kaisa["base"], straight["base"]),
        "full_match_events_kaisa": kaisa["events"],
        "full_match_events_straight_pool": straight["events"],
    }
    events = kaisa["events"] + straight["events"]
    figures["journal_bytes_per_event"] = (kaisa["journal"] + straight["journal"]) / events
    figures["flash_programmed_bytes_per_event"] = (
        kaisa["flash_play"] + straight["flash_play"]) / events
    figures["flash_programmed_bytes_per_match_kaisa"] = kaisa["flash_all"]
    figures["flash_programmed_bytes_per_match_straight_pool"] = straight["flash_all"]
    if "min_heap_kb" in kaisa:
        figures["min_heap_kb_kaisa"] = kaisa["min_heap_kb"]
        figures["min_heap_kb_straight_pool"] = straight["min_heap_kb"]
        figures["min_heap_kb_firmware"] = max(kaisa["min_heap_kb"], straight["min_heap_kb"])
    return figures


def verdict(key: str, value: float) -> str:
    limit, how, _text = BUDGETS[key]
    met = value < limit if how == "<" else value <= limit
    return "met" if met else "MISSED"


def table(figures: dict) -> str:
    """The figures as a text table, with each budget and whether it was met."""
    lines = ["%-40s %12s   %s" % ("figure", "value", "budget")]
    for key, label, form in ROWS:
        if key not in figures:
            continue
        value = form % figures[key]
        budget = ""
        if key in BUDGETS:
            limit, how, _text = BUDGETS[key]
            budget = "%s %g: %s" % (how, limit, verdict(key, figures[key]))
        lines.append("%-40s %12s   %s" % (label, value, budget))
    if "pico_not_measured" in figures:
        lines.append("the emulated Pico: not measured (%s)" % figures["pico_not_measured"])
    return "\n".join(lines)


def machine() -> str:
    return "%s, %s, Python %s, %s" % (platform.node() or "?", platform.machine(),
                                      platform.python_version(), platform.platform(terse=True))


def desk_only(sizes: Sizes, folder: Path, say: Say) -> dict:
    """`pilkku bench --desk`: the director's desk's figures alone (a minute or two)."""
    return bench_desk.figures(folder, sizes.desk, say)


def run(sizes: Sizes, as_json: bool, say: Say = _stderr,
        what: Callable[[Sizes, Path, Say], dict] = measure) -> int:
    try:
        if what is measure:
            toolchain.micropython_binary()
    except toolchain.ToolchainError as error:
        print("pilkku bench: %s" % error, file=sys.stderr)
        return 1
    began = time.monotonic()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="pilkku-bench-") as folder:
        figures = what(sizes, Path(folder), say)
    figures["bench_seconds"] = time.monotonic() - began
    # Timings of a busy machine are slower: the load (1 min) before and after says how busy.
    figures["load_average"] = [round(load, 2), round(os.getloadavg()[0], 2)]
    figures["cores"] = os.cpu_count()
    figures["machine"] = machine()
    figures["date"] = time.strftime("%Y-%m-%d")
    if as_json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    else:
        print(table(figures))
        print("%s, %s, %d cores, load %s; %.0f s" % (
            figures["date"], figures["machine"], figures["cores"],
            "/".join("%.1f" % x for x in figures["load_average"]), figures["bench_seconds"]))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.watch is not None:  # the watcher's false alarms alone: minutes of a busy laptop
        from host.bench import watching

        return watching.command(args.watch, args.json)
    return run(QUICK if args.quick else FULL, args.json,
               what=desk_only if args.desk else measure)


def add_commands(sub) -> None:
    """Register `pilkku bench`."""
    bench = sub.add_parser(
        "bench", help=N_("measure speed, memory, flash and bytes on the real firmware"),
        description=_("Benchmarks on the MicroPython unix port and virtual boards: replay, "
                      "undo, key to display, heap, compiled size, I2C, flash, sync, journal "
                      "(docs/performance.md). Progress on stderr."))
    bench.add_argument("--json", action="store_true", help=_("print one JSON object"))
    bench.add_argument("--quick", action="store_true", help=_("tiny sizes: the plumbing only"))
    bench.add_argument("--desk", action="store_true",
                       help=_("only the director's desk's figures: an action to every open "
                              "page, the night's screen and printouts of a 64-player night"))
    bench.add_argument("--watch", type=minutes, metavar=_("MINUTES"),
                       help=_("only this: `pilkku sync --watch` and 4 virtual boards for "
                              "MINUTES while two processes spin at full load; its false alarms"))
    bench.set_defaults(func=cmd_bench)
