"""What the e2e tests' Kaisa nights share (the CLI's night, test_night_slips.py, and the
desk's, test_night_at_the_desk.py): the twelve players and the late one, who wins a game, what a
board offers at its menu, the night's store as the test reads it, the wrong winner of round 1
whose correction reaches a game already played, and the boards playing what they show until
a moment of the night comes (a board announced where pilkku looks for virtual boards, and
plugged in again on another pty: tests/host/watch_setup.py)."""

from __future__ import annotations

import re

from kaisa_play import on_glass, play_kaisa

from host.board.virtual_board import VirtualBoard
from host.tournament import night
from host.tournament.store import Store
from tests.host.watch_setup import until

NAMES = ["Pertti Äijälä", "Åsa Öhman", "Jyrki Mäkelä", "Sirpa Hämäläinen", "Kalle Kärkkäinen",
         "Mikko Järvinen", "Tuula Grönroos", "Päivi Nyström", "Hannu Tähtinen", "Eija Löfgren",
         "Väinö Väisänen", "Ritva Pöllänen"]
LATE = "Matti Myöhänen"
TABLES = 4


def showing(board: VirtualBoard) -> str | None:
    """The match the board offers at its menu ("R1-03 AIJALA-OHMAN GO"), or None."""
    board.run(50)
    words = board.texts()["message"].split()
    return words[0] if words and words[0][:1] == "R" and "-" in words[0] else None


def favourite(one: str, two: str) -> str:
    """Who wins: the player higher on the list (the late one last), every third an upset."""
    order = NAMES + [LATE]
    better, worse = sorted((one, two), key=order.index)
    return worse if (order.index(better) + order.index(worse)) % 3 == 0 else better


def play(board: VirtualBoard, m: dict, started=None) -> None:
    """The match `m` (a store row) played at the board, won by the favourite."""
    one, two = m["player1"], m["player2"]
    play_kaisa(board, 1 if favourite(one, two) == one else 2, [one, two], started)


def offered(board: VirtualBoard) -> tuple[str, str, str] | None:
    """(code, player 1, player 2) of the scheduled match the board's menu offers, read off its
    message display as the text goes by ("R1-03 PERTTI-ASA OH GO", each name's first six
    letters), or None if it offers none. The board, not the store, says who plays: a board
    whose schedule is not yet told of a director's redraw still offers the old pairing."""
    windows = [board.texts()["message"]]
    for _step in range(600):  # a pass of the text is some 60 steps; a new text starts again
        board.step(100)
        now = board.texts()["message"]
        if now == windows[-1]:
            continue
        if len(windows) > 1 and now == windows[0]:
            break  # round the whole loop of the text
        windows = windows + [now] if now[:-1] == windows[-1][1:] else [now]
    tape = (windows[0] + "".join(w[-1] for w in windows[1:]))[:len(windows)]  # its loop
    found = re.search(r"(\S+) (.{6})-(.{6}) GO", tape + tape)
    names = {on_glass(n)[:6]: n for n in NAMES + [LATE]}
    if found is None or found[2] not in names or found[3] not in names:
        return None
    return found[1], names[found[2]], names[found[3]]


def as_drawn(store: NightStore, board: VirtualBoard) -> str | None:
    """The code of the match the board offers once its players are the store's (the
    watcher has told the board of a redraw, such as a late entry's), else None: a step of the
    night that follows one match from the board to the desk waits for this."""
    shown = offered(board)
    if shown is None or store.decided(shown[0]):
        return None
    m = store.match(shown[0])
    return shown[0] if (m["player1"], m["player2"]) == shown[1:] else None


def play_match(board: VirtualBoard, code: str) -> None:
    """The match `code` played at the board as a referee plays it: between the players the
    board offers. (A stepped board plays a game in milliseconds, between two of the watcher's
    looks, which a real game never does: the board's live answer says it holds the result,
    and the watcher pulls it at once.)"""
    shown = offered(board)
    assert shown is not None and shown[0] == code, (code, shown, board.texts())
    play(board, {"player1": shown[1], "player2": shown[2]})


class NightStore:
    """The night's store as the test reads it (never writes)."""

    def __init__(self, db: str) -> None:
        self.db = db

    def store(self) -> Store:
        return Store.open(self.db)

    def tid(self) -> int:
        with self.store() as store:
            return store.tournaments.get()["id"]

    def match(self, code: str) -> dict:
        with self.store() as store:
            return next(m for m in store.matches.all(self.tid()) if m["code"] == code)

    def decided(self, code: str) -> bool:
        """Decided, or no longer in the draw (a correction redrew it; the board is told at
        its next sync): either way, not for the referee to play."""
        with self.store() as store:
            m = next((m for m in store.matches.all(self.tid()) if m["code"] == code), None)
        return m is None or m["winner"] is not None or m.get("outcome") is not None

    def set_aside(self, code: str) -> int:
        """Games a board played as `code` after the director had given it to other players
        (its schedule not yet told): each kept as a void copy, `code`v1, v2, ..."""
        with self.store() as store:
            return sum(1 for m in store.matches.all(self.tid())
                       if re.fullmatch(re.escape(code) + r"v[0-9]+", m["code"])
                       and m.get("outcome") == "void")

    def decided_now(self) -> tuple[list, list]:
        """The results taken and the matches decided: what a killed desk must not lose."""
        with self.store() as store:
            tid = self.tid()
            results = [(r["result_id"], r["match"], r["kind"], r["score1"], r["score2"])
                       for r in store.results.all(tid)]
            decided = [(m["code"], m["player1"], m["player2"], m["winner"], m["outcome"])
                       for m in store.matches.all(tid)
                       if m["winner"] is not None or m["outcome"] is not None]
        return results, decided

    def finished(self) -> bool:
        with self.store() as store:
            engine, _numbers = night.engine_of(store, self.tid())
            return engine.finished()

    def wrong_winner_played_on(self) -> tuple[str, str] | None:
        """A round-1 result from a board whose flip changes a game already played (the plan
        says it depends on it): (its code, the flipped score), or None yet."""
        with self.store() as store:
            tid = self.tid()
            kinds = {r["match"]: r["kind"] for r in store.results.all(tid)}
            for m in store.matches.all(tid):
                if m["round"] != 1 or m["winner"] is None or kinds.get(m["code"]) != "board":
                    continue
                flipped = "%d:%d" % (m["score2"], m["score1"])
                if night.correction_plan(store, tid, m["code"], score=flipped).depends:
                    return m["code"], flipped
        return None


def play_until(store: NightStore, boards: dict, done, limit: float) -> None:
    """Each board plays the match it shows until `done()`: the watcher (pilkku desk's, or
    pilkku sync --watch's) brings each result in and the table's next match out at once."""
    for _turn in range(80):
        if done():
            return
        played = []
        for board in boards.values():
            code = showing(board)
            if code is not None and not store.decided(code):
                aside = store.set_aside(code)
                play_match(board, code)
                played.append((code, aside))
        for code, aside in played:  # counted, or set aside: the board showed a game redrawn
            until(lambda c=code, a=aside: (_tick(boards), store.decided(c)
                                           or store.set_aside(c) > a)[1],
                  "%s's result in the store" % code, limit)
        if not played:
            until(lambda: (_tick(boards), done())[1] or any(
                (c := showing(b)) is not None and not store.decided(c)
                for b in boards.values()), "a board with a match to play", limit)
    raise AssertionError("the night never ended")


def _tick(boards: dict) -> None:
    """The boards' own time goes on while the test waits, as a real board's does."""
    for board in boards.values():
        board.run(20)
