"""`pilkku bench`'s plumbing, with tiny sizes (bench.QUICK): every figure comes out, as a
number, in the table and the JSON. No timing is asserted here: benchmarks measure, tests
check (docs/performance.md holds the figures)."""

from __future__ import annotations

import json

import pytest

from host import cli
from host.bench import command as bench
from host.bench import logs as bench_logs
from host.board.virtual_board import has_micropython
from rules_core import matchlog

ISSUE_KEYS = (
    "replay_events_per_s_micropython", "replay_events_per_s_cpython", "undo_ms_micropython_500",
    "key_to_display_ms_p50", "key_to_display_ms_p99", "heap_peak_bytes_kaisa",
    "heap_peak_bytes_straight_pool", "min_heap_kb_firmware", "mpy_bytes_total",
    "i2c_bytes_per_frame", "flash_unchanged_s", "flash_full_s", "flash_full_vs_mpremote_ratio",
    "sync_wire_bytes_per_payload_byte", "sync_time_vs_line_rate", "journal_bytes_per_event",
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


@pytest.mark.skipif(not has_micropython(), reason="needs the MicroPython unix port")
def test_a_quick_run_prints_every_figure_as_json(capsys):
    assert bench.run(bench.QUICK, as_json=True, say=lambda _line: None) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ISSUE_KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["i2c_min_bytes_per_frame"] <= figures["i2c_bytes_per_frame"]
    assert figures["sync_matches"] == bench.QUICK.sync_matches
    assert figures["heap_code_bytes_kaisa"] <= figures["heap_peak_bytes_kaisa"]
