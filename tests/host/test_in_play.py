"""A decision against a match its table is playing asks first (issue 27 item 2): a walkover, a
withdrawal, a score typed in, a log recorded by hand, a void or both-lose. The night's
operation raises InPlay (the store unchanged) unless confirmed; the CLI asks at a terminal and
says "add --yes" elsewhere (exit 2)."""

from __future__ import annotations

import io

import pytest

from host.tournament import night as ops
from host.tournament.night.how import CLI, in_words
from host.tournament.night.in_play import InPlay, playing
from host.tournament.store import Store
from tests.host.test_tournament_cli import Director, dump, log_text, round_robin


@pytest.fixture
def night(tmp_path, capsys) -> Director:
    """A 9-ball round robin, race to 2, two tables: R1-01 Anna vs Dan at table 1 (board
    pk-one plays it, 1:0), R1-02 Cid vs Ben at table 2."""
    pilkku = Director(tmp_path, capsys)
    round_robin(pilkku, tables=2)
    live(pilkku, "pk-one", 1, "R1-01", [1, 0])
    return pilkku


def live(pilkku: Director, board: str, table: int, code: str | None, score=(0, 0), *,
         finished=False, at_ms=None) -> None:
    """What `pilkku sync --watch` writes when the board answers."""
    state = None if code is None else {
        "game": "9ball", "players": ["Anna", "Dan"], "score": list(score), "shooter": 0,
        "finished": finished, "race_to": 2, "rack": 1, "inning": 1, "fouls": [0, 0],
        "clock": None, "events": 4, "match_id": code}
    with Store.open(pilkku.db) as store:
        tid = store.tournaments.get()["id"]
        store.boards.note(tid, board, table)
        store.live.put(board, tid, table, state, at_ms)


def tid_of(store: Store) -> int:
    return store.tournaments.get()["id"]


@pytest.mark.parametrize("decide", [
    lambda s, t: ops.walkover(s, t, "R1-01", "Dan", "Anna left"),
    lambda s, t: ops.withdraw(s, t, "Anna", "ill"),
    lambda s, t: ops.record_hand(s, t, "R1-01", "2:1", "the sheet"),
    lambda s, t: ops.no_winner(s, t, "R1-01", "void", "wrong players"),
    lambda s, t: ops.no_winner(s, t, "R1-01", "both_lose", "both gone"),
], ids=["walkover", "withdraw", "hand", "void", "both_lose"])
def test_each_decision_on_a_match_in_play_asks_and_changes_nothing(night, decide):
    before = dump(night.db)
    with Store.open(night.db) as store, pytest.raises(InPlay) as asked:
        decide(store, tid_of(store))
    assert asked.value.playing == ["R1-01 is being played at table 1 (1:0)"]
    assert asked.value.question == ("R1-01 is being played at table 1 (1:0). Decide it "
                                    "anyway? The board's result will be kept in the history "
                                    "but not counted.")
    assert dump(night.db) == before


def test_confirmed_it_is_decided(night):
    with Store.open(night.db) as store:
        tid = tid_of(store)
        assert ops.withdraw(store, tid, "Anna", "ill", confirm_in_play=True) == [
            "R1-01", "R2-01", "R3-01"]


def test_a_withdrawal_asks_only_for_the_match_in_play_it_gives_away(night):
    with Store.open(night.db) as store:  # Ben's matches: none at a playing table
        assert "R1-02" in ops.withdraw(store, tid_of(store), "Ben", "ill")


def test_what_the_board_shows_decides(night):
    with Store.open(night.db) as store:
        tid = tid_of(store)
        match = store.matches.get(tid, "R1-01")
        other = store.matches.get(tid, "R1-02")
        assert playing(store, tid, other) is None  # table 2 has no board
        live(night, "pk-one", 1, "R1-01", [2, 0], finished=True)
        assert playing(store, tid, match) == ("R1-01 was played at table 1 (2:0): its result "
                                              "is on the board, not yet synced")
        store.live.silent("pk-one")
        assert playing(store, tid, match) == ("R1-01 was being played at table 1 (2:0) when "
                                              "its board last answered")
        live(night, "pk-one", 1, None)  # the board answers: in its menu
        assert playing(store, tid, match) is None
        live(night, "pk-one", 1, None, at_ms=1000)  # ... long ago: in doubt again
        assert in_words(playing(store, tid, match), CLI) == (  # (the CLI's way out)
            "R1-01 is the current match at table 1, whose board pk-one may have started it "
            "(its live state is not known: pilkku sync --watch follows the tables)")
        live(night, "pk-two", 2, None)  # a board at table 2 whose state is not known yet
        store.db.conn.execute("DELETE FROM live WHERE board_id = 'pk-two'")
        assert "R1-02 is the current match at table 2, whose board pk-two" in playing(
            store, tid, other)
        ops.assign(store, tid, "R2-01", 2)  # queued second: not what the board plays
        assert playing(store, tid, store.matches.get(tid, "R2-01")) is None


def test_the_cli_says_add_yes_where_it_cannot_ask(night):
    before = dump(night.db)
    for command in (["walkover", "R1-01", "Dan"], ["withdraw", "Anna"],
                    ["record", "R1-01", "--score", "2:1"], ["void", "R1-01"],
                    ["both-lose", "R1-01"],
                    ["record", "R1-01", night.file("r.json", log_text(["Anna", "Dan"],
                                                                        [2, 1]))]):
        code, _, err = night(*command, "--reason", "x")
        assert code == 2, command
        assert ("R1-01 is being played at table 1 (1:0): the board's result would be kept in "
                "the history but not counted; add --yes to decide it anyway") in err, command
    assert dump(night.db) == before
    out = night.ok("walkover", "R1-01", "Dan", "--reason", "Anna left", "--yes")
    assert "R1-01: Dan wins by walkover" in out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("answer, done", [("y\n", True), ("\n", False), ("n\n", False)])
def test_at_a_terminal_it_asks(night, monkeypatch, answer, done):
    monkeypatch.setattr("sys.stdin", Terminal(answer))
    code, out, _ = night("withdraw", "Anna", "--reason", "ill")
    assert out.startswith("R1-01 is being played at table 1 (1:0). Decide it anyway? The "
                          "board's result will be kept in the history but not counted. [y/N]")
    assert code == (0 if done else 1)
    assert ("Anna has withdrawn. Walkovers: R1-01" in out) == done
    assert ("Nothing was changed." in out) != done
