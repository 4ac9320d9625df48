"""`pilkku bench --watch`'s plumbing (host/bench/watching.py), for a few seconds and without
the spinning load: every figure comes out. The figure itself (30 minutes on a busy laptop) is
in docs/performance.md; no timing is asserted here."""

from __future__ import annotations

from host import cli
from host.bench import command as bench
from host.bench import watching
from host.board import firmware_image


def test_the_watch_bench_is_registered():
    args = cli.build_parser().parse_args(["bench", "--watch", "30", "--json"])
    assert args.func is bench.cmd_bench and args.watch == 30 and args.json


def test_the_watch_bench_counts_its_figures(tmp_path):
    figures = watching.false_alarms(tmp_path, firmware_image.image(), minutes=0.05,
                                    spinners=0, say=lambda _line: None)
    assert figures["watch_boards"] == 4 and figures["watch_samples"] >= 4
    for key in ("watch_false_alarms", "watch_silent_samples", "watch_hall_red_samples",
                "watch_polls_missed", "watch_most_polls_missed_in_a_row"):
        assert isinstance(figures[key], int) and figures[key] >= 0, key
