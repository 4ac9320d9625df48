"""`pilkku bench --desk`'s plumbing with tiny sizes (host/bench/desk.py QUICK): the night it
measures is the one it says, every figure comes out as a number with its budget, and the
desk's actions reached every client whose page they changed. No timing is asserted:
docs/performance.md holds the figures."""

from __future__ import annotations

import json

from host import cli
from host.bench import command as bench
from host.bench import desk as bench_desk
from host.tournament.store import Store

KEYS = ("desk_action_to_pages_ms_p50", "desk_action_to_pages_ms_p99",
        "desk_night_screen_ms_p50", "desk_night_screen_ms_p99", "desk_print_sheets_ms_p99",
        "desk_print_draw_ms_p99", "desk_print_results_ms_p99", "desk_printouts_ms_p99",
        "desk_night_screen_cpu_ms_p99", "desk_printouts_cpu_ms_p99",
        "desk_playing_night_screen_ms_p50", "desk_playing_night_screen_ms_p99",
        "desk_playing_printouts_ms_p99")


def test_the_night_is_a_hakukaavio_played_part_way_with_a_board_at_every_table(tmp_path):
    db = bench_desk.night(tmp_path, players=16, tables=4, results=8)
    with Store.open(db) as store:
        t = store.tournaments.get()
        assert (t["format"], t["game"], t["race_to"]) == ("hakukaavio", "kaisa", 60)
        assert len(store.players.all(t["id"])) == 16
        results = store.results.all(t["id"])
        assert len(results) == 8 and all(r["verified"] for r in results)
        assert {r["kind"] for r in results} == {"board"}
        live = {row["table"]: row["state"]["match_id"] for row in store.live.states(t["id"])}
        for number in store.tables.numbers(t["id"]):
            assert live[number] == store.tables.schedule(t["id"], number)[0]["match_id"]


def test_bench_desk_gives_every_figure_and_its_budget(capsys):
    assert cli.main(["bench", "--desk", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in KEYS:
        assert isinstance(figures[key], float), key
    assert figures["desk_action_updates_missed"] == 0
    # Two actions, five clients (one on each hall page, one on the night screen): every
    # page but the tables page (its board still shows the match played) changes each time.
    assert figures["desk_action_clients"] == 5
    assert 2 * 4 <= figures["desk_action_to_pages_samples"] <= 2 * 5
    assert figures["desk_printouts_ms_p99"] == max(figures[k] for k in KEYS
                                                   if k.startswith("desk_print_")
                                                   and "cpu" not in k)
    # (the same pages while the boards play: their live scores leave the night's reads kept)
    assert figures["desk_playing_samples"] == 3
    table = bench.table(figures)
    assert "<= 1000: " in table and "<= 100: " in table and "<= 200: " in table


def test_the_desk_budgets_are_the_issues():
    assert bench.verdict("desk_action_to_pages_ms_p99", 1000) == "met"
    assert bench.verdict("desk_action_to_pages_ms_p99", 1001) == "MISSED"
    assert bench.verdict("desk_night_screen_ms_p99", 101) == "MISSED"
    assert bench.verdict("desk_printouts_ms_p99", 200) == "met"
