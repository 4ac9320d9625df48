"""The night's truth, rehearsed (issue 27): a twelve-player Kaisa hakukaavio on four virtual
tables under `pilkku sync --watch`, with every slip a director met on a real night, each put
right with the documented commands, and the night then played to its champion:

- the players come from the file a Finnish Excel saves (`;`, Windows-1252, `nimi;seura`);
- a late entry after the first game, drawn into the games not started;
- a paper result: a table whose board broke, its score typed in by the director;
- a board unplugged mid-match and plugged in again on another pty: the watcher finds it and
  the match goes on where it was;
- a withdrawal while the player's own match is being played: asked, confirmed; the board's
  result is kept in the history, not counted, and the board freed;
- a wrong winner of round 1 corrected after round 2 was played: what follows shown, the game
  played kept;
and at the end one ranking: `standings` and `bracket` agree, every result verifies, every
board holds nothing. Boards play through their keypads (the firmware in the real MicroPython
unix port); the watcher runs in a thread of this process, as `pilkku sync --watch` runs it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from displays import powered_up
from kaisa_night import (
    LATE,
    NAMES,
    TABLES,
    NightStore,
    as_drawn,
    favourite,
    play_match,
    play_until,
    showing,
)

from host import cli
from host.board import registry
from host.board.virtual_board import VirtualBoard
from tests.host.watch_setup import LIMIT_S, announce, plugged_in_again, until, watching


class Night(NightStore):
    """The director's laptop: `pilkku ...` on the night's store; what it said."""

    def __init__(self, db: str, capsys) -> None:
        super().__init__(db)
        self.capsys = capsys
        self.transcript = Path(db).with_suffix(".txt")  # what was typed and said, in order

    def __call__(self, *args: str, code: int = 0) -> str:
        got = cli.main(list(args) + ["--db", self.db])
        out, err = self.capsys.readouterr()
        with self.transcript.open("a", encoding="utf-8") as f:
            f.write("$ pilkku %s\n%s" % (" ".join(args), out + err))
        assert got == code, (args, out, err)
        return out + err


@pytest.fixture
def announced(tmp_path, monkeypatch):
    folder = tmp_path / "announced"
    monkeypatch.setattr(registry, "VIRTUAL_BOARDS", folder)
    return lambda board: announce(folder, board)


def test_a_kaisa_night_with_every_slip_put_right(tmp_path, capsys, firmware, announced):
    pilkku = Night(str(tmp_path / "kaisa.db"), capsys)
    players = tmp_path / "pelaajat.csv"  # as Excel saves a Finnish sheet: ; and Windows-1252
    players.write_bytes(("nimi;seura\r\n" + "".join("%s;KK\r\n" % n for n in NAMES))
                        .encode("cp1252"))
    pilkku("tournament", "new", "Kaisailta", "--game", "kaisa", "--race", "10",
           "--format", "hakukaavio")
    said = pilkku("players", "import", str(players))
    assert "12" in said and "Windows-1252" in said, said
    pilkku("matches", "generate")
    pilkku("tables", str(TABLES))
    pilkku("assign", "--auto")
    boards: dict[int, VirtualBoard] = {}
    heard: list[str] = []
    try:
        for table in range(1, TABLES + 1):
            board = powered_up(tmp_path / ("table%d" % table), firmware)
            boards[table] = board
            assert "is paired" in pilkku("pair", "--port", board.pty_path)
            pilkku("sync", "--port", board.pty_path, "--table", str(table))
            announced(board)
        with watching(pilkku.db, heard, interval=0.3):
            _the_night(pilkku, boards, announced, heard, tmp_path)
    finally:
        for board in boards.values():
            board.close()
    _one_truth_at_the_end(pilkku, boards)


def _sync(pilkku: Night) -> str:
    """A one-shot `pilkku sync` while the watcher runs: the watcher syncs every board now."""
    return pilkku("sync")


def _the_night(pilkku: Night, boards: dict, announced, heard: list, tmp_path) -> None:
    # The first game at table 1, its result pulled by the watcher as the referee leaves it.
    first = until(lambda: showing(boards[1]), "table 1's first match on its board")
    play_match(boards[1], first)
    until(lambda: pilkku.decided(first), "table 1's result in the store")

    # A late entry: drawn into the games not started (round 2 has not begun).
    said = pilkku("players", "add", LATE, "--club", "KK")
    assert LATE in said

    # Table 4's board broke: its match is played on paper and typed in.
    paper = until(lambda: showing(boards[4]), "a match at table 4")
    m = pilkku.match(paper)
    winner = favourite(m["player1"], m["player2"])
    score = "10:4" if winner == m["player1"] else "4:10"
    pilkku("record", paper, "--score", score, "--reason", "taulu rikki, paperilla")
    assert pilkku.decided(paper) and pilkku.match(paper)["winner"] == winner

    # Table 2's board is unplugged mid-match and comes back on another pty.
    code = until(lambda: as_drawn(pilkku, boards[2]), "a match at table 2 as drawn")
    for key in "#11":  # started: lag to player 1, who opens
        boards[2].tap(key)
    old = boards[2].pty_path
    boards[2].close()
    boards[2], spare = plugged_in_again(tmp_path / "table2", old)
    try:
        announced(boards[2])
        until(lambda: any("is on %s now" % boards[2].pty_path in s for s in heard),
              "the watcher finds table 2's board on its new port")
    finally:
        for fd in spare:
            os.close(fd)
    m = pilkku.match(code)
    boards[2].tap("3")  # the match goes on where it was: the opener pots the kaisa
    boards[2].run(2600)
    boards[2].tap("3")
    boards[2].run(2600)
    boards[2].tap("#")
    until(lambda: pilkku.decided(code), "table 2's result after the replug")

    # A withdrawal while the player's match is being played at table 3.
    code = until(lambda: as_drawn(pilkku, boards[3]), "a match at table 3 as drawn")
    for key in "#11":
        boards[3].tap(key)
    until(lambda: any("playing" in line and code in line
                      for line in pilkku("matches").splitlines()), "table 3 playing")
    leaving = pilkku.match(code)["player2"]
    asked = pilkku("withdraw", leaving, "--reason", "sairastui", code=2)
    assert "being played at table 3" in asked and "--yes" in asked
    assert not pilkku.decided(code)  # asked, nothing done
    pilkku("withdraw", leaving, "--reason", "sairastui", "--yes")
    assert pilkku.match(code)["winner"] != leaving
    for _shot in range(2):  # the referee plays the game out anyway: player 1 wins
        boards[3].tap("3")
        boards[3].run(2600)
    boards[3].tap("#")
    until(lambda: "not counted" in pilkku("results", "--history"),
          "table 3's board result kept in the history, not counted")

    # Later in the night a wrong winner of round 1 is found, after games drawn from it
    # were played: pilkku shows what follows; the director keeps the games played, or voids
    # them where keeping them would have a player play on after going out.
    play_until(pilkku, boards, pilkku.wrong_winner_played_on, LIMIT_S)
    wrong, flipped = pilkku.wrong_winner_played_on() or ("", "")
    before = pilkku.match(wrong)
    plan = json.loads(pilkku("correct", wrong, "--score", flipped, "--reason",
                             "väärä voittaja", "--dry-run", "--json"))
    assert plan["depends"] and plan["choice_needed"]
    assert pilkku.match(wrong)["winner"] == before["winner"]  # shown, nothing changed
    refused = pilkku("correct", wrong, "--score", flipped, "--reason", "väärä voittaja",
                     code=2)
    assert "--played void" in refused  # (and keep, when keeping them makes a valid draw)
    choice = "void" if plan["keep_refused"] else "keep"
    assert plan["keep_refused"] or "--played keep" in refused
    said = pilkku("correct", wrong, "--score", flipped, "--reason", "väärä voittaja",
                  "--played", choice, "--yes")
    assert "%s corrected" % wrong in said
    assert pilkku.match(wrong)["winner"] not in (None, before["winner"])

    # The rest of the night at the boards; at its end no board holds a result.
    play_until(pilkku, boards, pilkku.finished, LIMIT_S)
    assert "0 kept on the boards; all done" in _sync(pilkku)


def _one_truth_at_the_end(pilkku: Night, boards: dict) -> None:
    with pilkku.store() as store:
        tid = pilkku.tid()
        results = store.results.all(tid)
        key = store.tournaments.key(tid)
        assert all(r["verified"] and store.results.verify(r["result_id"], key) for r in results)
        kinds = {r["kind"] for r in results}
        assert {"board", "hand", "walkover", "correction"} <= kinds, kinds
    standings = json.loads(pilkku("standings", "--json"))
    bracket = json.loads(pilkku("bracket", "--json"))
    assert bracket["finished"]
    assert standings["final"] and standings["title"].lower() == "final ranking"
    order = [row["player"] for row in standings["standings"]]
    assert order == [row["player"] for row in bracket["placings"]]
    assert order[0] == bracket["winner"] and len(order) == len(NAMES) + 1
    history = pilkku("results", "--history")
    assert "väärä voittaja" in history and "sairastui" in history
