"""`pilkku bench`'s plumbing, with tiny sizes (bench.QUICK): every figure comes out, as a
number, in the table and the JSON. No timing is asserted here: benchmarks measure, tests
check (docs/performance.md holds the figures)."""

from __future__ import annotations

import json

import pytest

from host import cli
from host.bench import board as bench_board
from host.bench import command as bench
from host.bench import logs as bench_logs
from host.bench import pico as bench_pico
from host.bench import rom as bench_rom
from host.bench import unix as bench_unix
from host.board.virtual_board import has_micropython
from rules_core import matchlog

ISSUE_KEYS = (
    "replay_events_per_s_micropython", "replay_events_per_s_cpython", "undo_ms_micropython_500",
    "key_to_display_ms_p50", "key_to_display_ms_p99", "heap_peak_bytes_kaisa",
    "heap_peak_bytes_straight_pool", "min_heap_kb_firmware", "mpy_bytes_total",
    "i2c_bytes_per_frame", "flash_unchanged_s", "flash_full_s", "flash_full_vs_mpremote_ratio",
    "sync_wire_bytes_per_payload_byte", "sync_time_vs_line_rate",
    "sync_time_vs_payload_line_rate", "journal_bytes_per_event",
    "min_heap_kb_firmware_romfs", "heap_32bit_estimate_kb", "resume_ms_300", "resume_ms_3000",
    "resume_heap_bytes_300", "resume_heap_bytes_3000",
)


def test_the_generated_logs_replay_and_have_their_length():
    for game, doc in bench_logs.long_logs(60).items():
        assert len(doc["events"]) == 60, game
        assert not matchlog.load(doc).state.finished
    done = [bench_logs.straight_log(None, 12), bench_logs.kaisa_log(None, 10)]
    assert all(matchlog.load(doc).state.finished for doc in done)


def test_the_command_is_registered():
    args = cli.build_parser().parse_args(["bench", "--json", "--quick"])
    assert args.func is bench.cmd_bench and args.json and args.quick


def test_the_table_says_which_budgets_are_met():
    figures = {key: 1.0 for key in ISSUE_KEYS}
    figures["min_heap_kb_firmware"] = 200
    lines = bench.table(figures).splitlines()
    assert any("undo at 500" in line and line.endswith("met") for line in lines)
    assert any("heapsize" in line and line.endswith("MISSED") for line in lines)


def test_key_to_display_is_held_by_the_worst_pass(monkeypatch, tmp_path):
    passes = iter([[1.0] * 99 + [2.0], [1.0] * 99 + [9.0], [0.5] * 100])
    # The firmware's own time on the same ticks: its worst pass need not be the round trip's.
    own = iter([[0.25] * 99 + [3.0], [0.5] * 99 + [0.75], [0.25] * 100])

    def one_pass(folder, firmware, repeats):
        latencies, firmware_ms = next(passes), next(own)
        return {"latencies": latencies, "p99": latencies[99], "bytes_per_frame": 17.0,
                "min_bytes_per_frame": 17.0, "frames": 3, "firmware": firmware_ms,
                "firmware_p99": firmware_ms[99]}

    monkeypatch.setattr(bench_board, "_key_pass", one_pass)
    keys = bench_board.key_to_display(tmp_path, {}, repeats=1, passes=3)
    assert keys["p99"] == 9.0 and keys["p99_passes"] == [2.0, 9.0, 0.5]
    assert keys["p99_best"] == 0.5 and keys["samples"] == 300 and keys["p50"] == 1.0
    assert bench.verdict("key_to_display_ms_p99", keys["p99"]) == "MISSED"
    assert keys["firmware_p99"] == 3.0 and keys["firmware_max"] == 3.0
    assert keys["firmware_p50"] == 0.25


def test_undo_is_held_by_the_median_round():
    figures = bench.undo_figures({"kaisa": (0.9, 6.0), "14.1": (1.0, 2.0)})
    assert figures["undo_ms_micropython_500"] == 6.0
    assert figures["undo_ms_best_micropython_500"] == 1.0
    assert bench.verdict("undo_ms_micropython_500", figures["undo_ms_micropython_500"]) == (
        "MISSED")


def test_sync_is_held_by_the_results_own_line_time():
    """The last session's 2.3 (JSON in base64) misses; the line rate of the bytes actually
    sent has no budget, since it paces itself."""
    assert bench.verdict("sync_time_vs_payload_line_rate", 2.3) == "MISSED"
    assert bench.verdict("sync_time_vs_payload_line_rate", 1.5) == "met"
    assert "sync_time_vs_line_rate" not in bench.BUDGETS


def test_without_the_pico_the_bench_says_why_and_has_no_pico_figures(monkeypatch, tmp_path):
    monkeypatch.setattr(bench_pico, "missing", lambda: "no Pico firmware images: set X")
    said: list[str] = []
    figures = bench_pico.pico_figures(tmp_path, bench_pico.QUICK, said.append)
    assert figures == {"pico_not_measured": "no Pico firmware images: set X"}
    assert said == ["the emulated Pico: not measured (no Pico firmware images: set X)"]
    figures.update({key: 1.0 for key in ISSUE_KEYS})
    lines = bench.table(figures).splitlines()
    assert lines[-1] == "the emulated Pico: not measured (no Pico firmware images: set X)"
    assert not any(line.startswith("Pico:") for line in lines)


def test_the_pico_budgets_are_the_issues():
    assert bench.verdict("pico_key_to_display_ms_p99", 21) == "MISSED"
    assert bench.verdict("pico_key_to_display_ms_p99", 20) == "met"
    assert bench.verdict("pico_boot_ms_romfs", 1501) == "MISSED"
    assert bench.verdict("pico_min_heap_kb_romfs", 64) == "met"
    assert bench.verdict("pico_resume_3000_vs_300", 1.31) == "MISSED"
    table = bench.table({"pico_boot_ms_romfs": 465, "pico_key_to_display_ms_p99": 129})
    assert "<= 1500: met" in table and "<= 20: MISSED" in table


def test_the_least_i2c_bytes_come_from_the_changed_characters():
    from hardware.boards import virtual
    from hardware.panel import CLOCK, MESSAGE_1, SCORE_1, Panel

    model = virtual.model_bus()
    tap = bench_board.TapBus(model)
    panel = Panel(virtual.ForwardingI2C(tap))
    panel.init()
    panel.score_1.text("   1")
    panel.message.text("PL 1")
    panel.show()
    tap.take()
    before = tap.shown()
    panel.score_1.text("   2")  # one display's characters change ...
    panel.show()
    panel.clock.show(force=True)  # ... and the clock, unchanged, is sent again all the same
    sent = tap.take()
    after = tap.shown()
    assert after[SCORE_1] != before[SCORE_1] and after[CLOCK] == before[CLOCK]
    assert after[MESSAGE_1] == before[MESSAGE_1]
    assert bench_board.least_bytes(before, after) == bench_board.RAM_WRITE
    assert sent == 2 * bench_board.RAM_WRITE  # the wasted frame shows against the least


@pytest.mark.skipif(not has_micropython(), reason="needs the MicroPython unix port")
def test_a_quick_run_prints_every_figure_as_json(capsys, monkeypatch):
    # The emulated Pico's figures take minutes and need its images: tests/pico runs it.
    monkeypatch.setattr(bench_pico, "missing", lambda: "left to tests/pico")
    assert bench.run(bench.QUICK, as_json=True, say=lambda _line: None) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ISSUE_KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["i2c_min_bytes_per_frame"] <= figures["i2c_bytes_per_frame"]
    assert figures["sync_matches"] == bench.QUICK.sync_matches
    assert figures["heap_code_bytes_kaisa"] <= figures["heap_peak_bytes_kaisa"]
    assert (figures["min_heap_kb_firmware_romfs"]
            < figures["min_heap_kb_firmware_romfs_with_harness"])
    assert figures["min_heap_kb_firmware_romfs_synced"] > 0


@pytest.mark.skipif(not has_micropython(), reason="needs the MicroPython unix port")
def test_the_romfs_heap_is_taken_apart_without_the_image_or_the_harness(tmp_path):
    """The heap breakdown: the image block and the bench's own heap are set apart from the
    firmware's, each game's modules load only for that game, and the parts add up."""
    build = bench_unix.Build(tmp_path / "build")
    full = {"14.1": bench_logs.straight_log(None, 12), "kaisa": bench_logs.kaisa_log(None, 10)}
    figures = bench_rom.romfs_figures(build, full, bisect=False, say=lambda _line: None)
    games = (("kaisa", "rules_core.kaisa"), ("straight_pool", "rules_core.straight"))
    for key, game_module in games:
        taken = figures["heap_breakdown_romfs"][key]
        apart = taken["not_counted"]
        assert apart["rom_image_block"] >= figures["romfs_image_bytes"], key
        assert apart["bench_driver"] > 0 and apart["flash_mounted"] > 0, key
        in_use = taken["firmware_in_use"]
        assert 0 < in_use["imports"] < in_use["app"] < in_use["match_start"], key
        assert in_use["match_end"] <= figures["heap_peak_bytes_romfs_" + key], key
        assert in_use["modules"] == figures["heap_code_bytes_romfs_" + key] or abs(
            in_use["modules"] - figures["heap_code_bytes_romfs_" + key]) < 1024, key
        modules = taken["modules_imported"]
        assert modules["firmware.app"] > 0 and modules[game_module] > 0, key
        # No laptop has spoken: the sync endpoint and its protocol are not loaded; once one
        # has, the board holds them.
        assert "firmware.sync_endpoint" not in modules, key
        assert "rules_core.sync_protocol" not in modules, key
        assert (figures["heap_peak_bytes_romfs_synced_" + key]
                > figures["heap_peak_bytes_romfs_" + key] + 4096), key
        assert all(cost >= 0 for cost in modules.values()), key
        assert sum(modules.values()) <= in_use["modules"], key
        parts = taken["parts_at_mid_match"]
        # (A match holds no undo snapshot before its 32nd event: no copy of its opening
        # state, and a snapshot is the state itself, issue 31; a short game's part is 0.)
        assert parts["undo_snapshots"] >= 0 and parts["displays"] > 0, key
    straight = figures["heap_breakdown_romfs"]["straight_pool"]["modules_imported"]
    assert "rules_core.kaisa" not in straight and "firmware.kaisa_face" not in straight


@pytest.mark.skipif(not has_micropython(), reason="needs the MicroPython unix port")
def test_bytecode_imported_from_the_rom_image_runs_in_place(tmp_path):
    """What the ROM figures rest on: this unix port's vfs.VfsRom lets a module's bytecode run
    where the image lies, so importing a 30 KB .mpy from /rom costs a few hundred bytes of
    heap, and from a file all of its size."""
    import subprocess

    from host.board import flash_rom, toolchain

    lines = ["    a = (a * %d + %d) %% 1000003\n" % (i, i + 7) for i in range(2000)]
    (tmp_path / "big.py").write_text("def g(a):\n" + "".join(lines) + "    return a\n")
    toolchain.compile_file(tmp_path / "big.py", tmp_path / "big.mpy", "big.py")
    (tmp_path / "big.py").unlink()  # the file way must load the .mpy, not compile the source
    size = (tmp_path / "big.mpy").stat().st_size
    (tmp_path / "big.romfs").write_bytes(flash_rom.image({"big.mpy": (tmp_path / "big.mpy")
                                                          .read_bytes()}))
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import gc, os, sys, vfs\n"
        "if sys.argv[1] == 'rom':\n"
        "    data = bytearray(os.stat(sys.argv[2])[6])\n"
        "    with open(sys.argv[2], 'rb') as f:\n"
        "        f.readinto(data)\n"
        "    vfs.mount(vfs.VfsRom(data), '/rom')\n"
        "    sys.path.insert(0, '/rom')\n"
        "else:\n"
        "    sys.path.insert(0, sys.argv[2])\n"
        "gc.collect(); before = gc.mem_alloc()\n"
        "import big\n"
        "gc.collect(); print(gc.mem_alloc() - before, big.g(1))\n")

    def imported(where: str, path: str) -> tuple[int, str]:
        out = subprocess.run([toolchain.micropython_binary(), "-X", "heapsize=256k", str(probe),
                              where, path], capture_output=True, text=True, timeout=60,
                             check=True).stdout.split()
        return int(out[0]), out[1]

    in_rom, result_rom = imported("rom", str(tmp_path / "big.romfs"))
    in_file, result_file = imported("file", str(tmp_path))
    assert result_rom == result_file  # the same code ran both ways
    assert size > 30000
    assert in_rom < size // 20, (in_rom, size)
    assert in_file > size * 9 // 10, (in_file, size)
