"""A change of a table's matches at the desk (a match started there, a start undone, a
correction's redraw, a withdrawal) reaches the table's board at once under the watcher, not
at its next whole sync (every 30 s: a referee waited for the match the director had just
given the table, or was offered one taken off it)."""

from __future__ import annotations

from types import SimpleNamespace

from sync_setup import make_board, make_store
from watch_setup import row, until, watching

from host.sync import watch as watch_module
from host.sync.watch_port import PortWatch
from host.tournament import night
from host.tournament.store import Store
from host.tournament.store.tables import Tables


def offers(board, code: str) -> bool:
    """The board's menu offers match `code` (its own time goes on meanwhile)."""
    board.run(50)
    return board.texts()["message"].startswith(code + " ")


def test_a_match_taken_off_the_table_and_another_given_reach_the_board_at_once(
        tmp_path, firmware, monkeypatch):
    db, t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    monkeypatch.setattr(watch_module, "found_ports", lambda: [board.pty_path])
    said: list[str] = []
    try:
        with watching(db, said, interval=0.2, sync_every=10 ** 6):  # no whole sync is due
            until(lambda: any("table 1 gets 1 match(es): R1-01" in s for s in said),
                  "the board's first sync")
            until(lambda: offers(board, "R1-01"), "R1-01 offered at the board")
            # (until the board's first live answer is in, R1-01 may have been started there:
            # taking it off is refused, night/in_play.py; a loaded laptop's poll comes late)
            until(lambda: row(db, "pk-a"), "the board's first live answer")
            with Store.open(db) as store:  # the director: R1-01 off table 1, R1-02 on it
                night.unassign(store, t["id"], "R1-01")
                night.assign(store, t["id"], "R1-02", 1)
            until(lambda: offers(board, "R1-02"), "R1-02 offered at the board")
    finally:
        board.close()


def test_the_watcher_sends_the_tournaments_board_language(tmp_path, firmware, monkeypatch):
    """A Finnish night's board synced by the watcher (pilkku desk, pilkku sync --watch), not
    only by a one-shot pilkku sync, shows its menu in Finnish."""
    db, t, key = make_store(tmp_path / "cup.db")
    with Store.open(db) as store:
        store.tournaments.set_board_language(t["id"], "fi")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    monkeypatch.setattr(watch_module, "found_ports", lambda: [board.pty_path])
    said: list[str] = []
    try:
        with watching(db, said, interval=0.2):
            until(lambda: any("table 1 gets 1 match(es): R1-01" in s for s in said),
                  "the board's first sync")
            until(lambda: offers(board, "R1-01"), "R1-01 offered at the board")
            board.tap("C")  # the menu's next line: a free game of 9-ball
            assert board.texts()["message"] == "9PALLO #"  # (English: 9BALL GO)
    finally:
        board.close()


def test_a_live_score_does_not_look_at_the_tables_matches_again(tmp_path, monkeypatch):
    """The watcher looks at a table's matches again when the store's facts moved (a match
    started, a result), not at every live score of the night's boards (several a second)."""
    db, t, _key = make_store(tmp_path / "cup.db", tables=2)
    looks = []
    schedule = Tables.schedule
    monkeypatch.setattr(Tables, "schedule",
                        lambda self, *a: looks.append(a) or schedule(self, *a))
    port = PortWatch(None, "/dev/null")
    with Store.open(db) as store:
        tid = t["id"]
        night.assign(store, tid, "R1-01", 1)
        port.board = SimpleNamespace(looked=-1, tournament_id=tid, sent=(1, repr(
            schedule(store.tables, tid, 1)[:8])))
        looks.clear()
        assert not port._moved(store) and len(looks) == 1
        for score in ([1, 0], [2, 0], [2, 1]):  # another table's board at play
            store.live.put("pk-b", tid, 2, {"score": score})
            assert not port._moved(store)
        assert len(looks) == 1
        night.assign(store, tid, "R1-02", 2)  # another table's matches: looked, not moved
        looks.clear()
        assert not port._moved(store) and len(looks) == 1
        night.unassign(store, tid, "R1-01")
        assert port._moved(store)
