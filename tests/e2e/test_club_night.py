"""A whole small tournament: four players, a round robin, two virtual tables played through
their keypads and synced over their ptys until the standings are final."""

from __future__ import annotations

import json

from host import cli
from host.board.virtual_board import VirtualBoard
from host.tournament.store import Store


def pilkku(capsys, *args: str) -> str:
    code = cli.main(list(args))
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def play_the_scheduled_match(board: VirtualBoard) -> bool:
    board.run(100)
    if not board.texts()["message"].startswith("R"):
        return False  # nothing scheduled on this table
    for key in "#11":  # start it; player 1 wins the lag and breaks
        board.tap(key)
    board.tap("9")
    board.tap("A")  # the 9 on the break: race to 1 won
    board.tap("#")  # leave the result
    return True


def test_a_round_robin_on_two_virtual_tables(tmp_path, capsys, firmware):
    db = str(tmp_path / "club.db")
    players = tmp_path / "players.csv"
    players.write_text("name,club\nAnna,BK\nBen,BK\nCaisa,PK\nDan,PK\n")
    pilkku(capsys, "tournament", "new", "Club Night", "--game", "9ball", "--race", "1",
           "--db", db)
    pilkku(capsys, "players", "import", str(players), "--db", db)
    pilkku(capsys, "matches", "generate", "--round-robin", "--db", db)
    pilkku(capsys, "tables", "2", "--db", db)
    boards = []
    try:
        for table in (1, 2):
            board = VirtualBoard(tmp_path / ("table%d" % table))
            board.install(firmware)
            board.start()
            board.run(100)
            boards.append(board)
            assert "is paired" in pilkku(capsys, "pair", "--port", board.pty_path, "--db", db)
            pilkku(capsys, "sync", "--port", board.pty_path, "--table", str(table), "--db", db)
        for _round in range(6):
            played = [play_the_scheduled_match(board) for board in boards]
            if not any(played):
                break
            out = pilkku(capsys, "sync", "--port", boards[0].pty_path, "--port",
                         boards[1].pty_path, "--db", db)
            assert "%d result(s) stored" % sum(played) in out
    finally:
        for board in boards:
            board.close()
    with Store.open(db) as store:
        tournament = store.tournaments.get()
        results = store.results.all(tournament["id"])
        assert len(results) == 6  # everyone met everyone once, each result stored once
        key = store.tournaments.key(tournament["id"])
        assert all(r["verified"] and store.results.verify(r["result_id"], key) for r in results)
    standings = json.loads(pilkku(capsys, "standings", "--json", "--db", db))["standings"]
    assert sum(row["won"] for row in standings) == 6
    assert sorted(row["played"] for row in standings) == [3, 3, 3, 3]
