"""`pilkku sync --watch` follows boards by who they are, not by their port (issue 27, item 7):
a board unplugged and plugged in again on another port goes on as itself (its table, its
match); a port where another board answers now is that other board; a one-shot `pilkku sync`
while the watcher runs is carried out by the watcher; `pilkku pair` borrows the port from it;
a tournament created while the watcher and the hall run is taken up by both.

Virtual boards (the firmware in the MicroPython unix port, on ptys) announced as `pilkku board
start` announces them, under the real watcher (host/sync/watch.py) in a thread of this
process."""

from __future__ import annotations

import contextlib
import io
import json

from sync_setup import PLAYERS, make_board, make_store
from watch_setup import Cable, replugging, row, until, watching

from host import cli
from host.sync import watch as watch_module
from host.tournament import night
from host.tournament.store import Store


def state(db: str, board: str) -> dict | None:
    found = row(db, board)
    return json.loads(found["state"]) if found and found["state"] else None


def results(db: str) -> list[dict]:
    with Store.open(db) as store:
        return store.results.all(store.tournaments.get()["id"])


def test_a_board_plugged_in_again_on_another_port_goes_on_as_itself(tmp_path, firmware,
                                                                      announced):
    with replugging(tmp_path, firmware, announced, table=1) as plug:
        db, board, said = plug.db, plug.board, plug.said
        with watching(db, said, interval=0.3):
            until(lambda: any("table 1 gets" in s for s in said), "the board's first sync")
            for key_name in "#11":  # the table's first match: lag to player 1, who breaks
                board.tap(key_name)
            playing = until(lambda: state(db, "pk-a"), "the match in play in the store")
            old = plug.unplug()  # its port is gone
            board = plug.plug_in_again(old)  # another port
            assert board.pty_path != old
            until(lambda: any("is on %s now" % board.pty_path in s for s in said),
                  "the board found on its new port")
            assert state(db, "pk-a") == playing  # the same match, where it was
            assert row(db, "pk-a")["table_number"] == 1 and not row(db, "pk-a")["silent"]
            board.tap("9")
            board.tap("A")  # the 9 on the break: the match won
            board.tap("#")
            done = until(lambda: results(db), "the result stored")
        assert [(r["board"], r["table"]) for r in done] == [("pk-a", 1)]
        assert not any("not answering" in s or "gone from" in s for s in said), said


def test_a_port_where_another_board_answers_now_is_that_board(tmp_path, firmware, monkeypatch):
    """Two adapters' cables, each board's end swapped into the other's: each port is the
    board that answers there, its table and its match with it."""
    db, _t, key = make_store(tmp_path / "cup.db", tables=2)
    a = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    b = make_board(tmp_path / "b", firmware, key, table=2, board_id="pk-b")
    first, second = Cable(), Cable()
    monkeypatch.setattr(watch_module, "found_ports", lambda: [first.port, second.port])
    said: list[str] = []
    try:
        first.plug(a.pty_path)
        second.plug(b.pty_path)
        with watching(db, said, interval=0.3):
            until(lambda: sum("gets" in s for s in said) >= 2, "both boards synced")
            for board in (a, b):
                for key_name in "#11":
                    board.tap(key_name)
            a_playing = until(lambda: state(db, "pk-a"), "table 1's match in the store")
            b_playing = until(lambda: state(db, "pk-b"), "table 2's match in the store")
            assert a_playing["match_id"] != b_playing["match_id"]
            first.unplug()
            second.unplug()
            first.plug(b.pty_path)
            second.plug(a.pty_path)
            until(lambda: any("%s: board pk-b answers here now, not board pk-a" % first.port
                              in s for s in said), "pk-b seen on the first port")
            until(lambda: any("board pk-a (table 1) is on %s now" % second.port in s
                              for s in said), "pk-a found on the second port")
            a.tap("9")  # table 1's match ends on the second port
            a.tap("A")
            a.tap("#")
            done = until(lambda: results(db), "table 1's result stored")
            assert [(r["board"], r["table"], r["match"]) for r in done] == [
                ("pk-a", 1, a_playing["match_id"])]
            assert state(db, "pk-b") == b_playing and row(db, "pk-b")["table_number"] == 2
    finally:
        for thing in (first, second, a, b):
            thing.close()


def test_pilkku_sync_while_the_watcher_runs_is_done_by_the_watcher(tmp_path, firmware,
                                                                    announced):
    db, _t, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    said: list[str] = []
    try:
        announced(board)
        with watching(db, said, interval=0.3, sync_every=10 ** 6):
            until(lambda: any("table 1 gets" in s for s in said), "the board's first sync")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = cli.main(["sync", "--db", db])
            printed = out.getvalue()
            assert code == 0, printed
            assert "synced 1 board(s)" in printed and "by the running `pilkku sync --watch`" \
                in printed, printed
            assert "%s: board pk-a" % board.pty_path in printed  # what the sync said
            with contextlib.redirect_stdout(out):  # a port named: the watcher's too
                assert cli.main(["sync", "--db", db, "--port", board.pty_path]) == 0
    finally:
        board.close()


def _night_two(db: str) -> int:
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Night 2", "9ball", 1)
        night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(PLAYERS)])
        night.draw_round_robin(store, tid)
        night.set_tables(store, tid, 1)
        return tid


def test_a_new_tournament_is_taken_up_by_the_running_watcher_and_hall(tmp_path, firmware,
                                                                      announced, monkeypatch):
    db, first, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    halls: list = []
    monkeypatch.setattr("host.hall.app.server",
                        lambda hall, host, port: halls.append(hall) or _NoServer())
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["hall", "--db", db, "--port", "0"]) == 0
    hall = halls[0]
    said: list[str] = []
    try:
        announced(board)
        with watching(db, said, interval=0.3):
            until(lambda: (row(db, "pk-a") or {}).get("tournament_id") == first["id"],
                  "the board watched for the first night")
            second = _night_two(db)
            with contextlib.redirect_stdout(io.StringIO()):  # the port borrowed from the watcher
                assert cli.main(["pair", "--port", board.pty_path, "--db", db]) == 0
            until(lambda: (row(db, "pk-a") or {}).get("tournament_id") == second,
                  "the board watched for the second night")
            assert any("now watching the boards of tournament 'Night 2'" in s for s in said)
            with Store.open(db) as store:
                assert [(b["board_id"], b["table"]) for b in store.boards.all(second)] == [
                    ("pk-a", 1)]
        store, shown = hall.open()
        store.close()
        assert shown["name"] == "Night 2"
    finally:
        board.close()


class _NoServer:
    def run(self) -> None:
        pass
