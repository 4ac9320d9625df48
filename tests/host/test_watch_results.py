"""Results under `pilkku sync --watch` (issue 27, item 10): a finished match is pulled as soon
as the live watch sees its match has ended, even when the referee left the result screen
before any poll saw it finished (it waited for the watcher's next whole sync, up to 30 s), or
when no poll saw it in play at all (the board's live answer says it holds a result); and
`pilkku record --help` says what becomes of a result typed in: it is signed."""

from __future__ import annotations

import pytest
from watch_setup import on_a_cable, row, until, watching

from host import cli
from host.sync.live_state import BadLive, unsynced
from host.tournament.store import Store
from rules_core import sync_protocol as sp


def test_a_match_left_at_once_is_pulled_at_once(tmp_path, firmware, monkeypatch):
    """The watcher's polls held back (a cable holding the bytes) while the referee pots the
    last ball and leaves the result screen: the next poll finds the board at its menu, and the
    result is pulled then. No whole sync is due for a million seconds."""
    said: list[str] = []
    with on_a_cable(tmp_path, firmware, monkeypatch) as (db, t, board, cable):
        with watching(db, said, interval=0.3, sync_every=10 ** 6):
            until(lambda: any("table 1 gets" in s for s in said), "the board's first sync")
            for key_name in "#11":  # the table's first match starts
                board.tap(key_name)
            until(lambda: (row(db, "pk-a") or {}).get("state"), "the match in play")
            cable.hold()
            try:
                for key_name in "9A#":  # the 9 on the break wins it; its result left at once
                    board.tap(key_name)
            finally:
                cable.let_go()
            until(lambda: _results(db, t["id"]), "the result pulled")
        assert not any("has not answered" in s for s in said), said


def test_a_match_played_whole_between_two_looks_is_pulled_at_once(tmp_path, firmware,
                                                                 monkeypatch):
    """The watcher's polls held back from before the match starts until after its result
    screen is left: no poll ever saw it in play. The board's live answer says it holds a
    result unsynced, and the result is pulled then. No whole sync is due for a million
    seconds."""
    said: list[str] = []
    with on_a_cable(tmp_path, firmware, monkeypatch) as (db, t, board, cable):
        with watching(db, said, interval=0.3, sync_every=10 ** 6):
            until(lambda: any("table 1 gets" in s for s in said), "the board's first sync")
            until(lambda: row(db, "pk-a"), "the board's first live answer")
            cable.hold()
            try:
                for key_name in "#119A#":  # the table's first match, won on the break, left
                    board.tap(key_name)
            finally:
                cable.let_go()
            until(lambda: _results(db, t["id"]), "the result pulled")
        assert (row(db, "pk-a") or {}).get("state") is None  # never seen in play


def _results(db: str, tid: int) -> list[dict]:
    with Store.open(db) as store:
        return store.results.all(tid)


def test_record_says_its_result_is_signed():
    parser = cli.build_parser()
    record = parser._subparsers._group_actions[0].choices["record"]  # type: ignore[union-attr]
    assert "unsigned" not in record.description
    assert "signed by the director" in record.description


@pytest.mark.parametrize("value", [-1, sp.MAX_RESULTS + 1, True, "2", 1.0, [1]])
def test_a_boards_count_of_results_held_is_checked(value):
    assert unsynced({"ok": True, "live": None}) is None  # a board before it: none said
    assert unsynced({"ok": True, "live": None, "unsynced": 3}) == 3
    with pytest.raises(BadLive):
        unsynced({"ok": True, "live": None, "unsynced": value})
