"""Stores for the hall's tests made in-process by the director's operations (host.tournament
.night), no boards: a tournament drawn, results entered as signed match logs (as a board's
would be, kind 'board'), live states written as the watcher writes them. Fast enough to make
one per test; tests/hall/tournament.py plays real ones on virtual boards."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from host.tournament import night
from host.tournament.store import Store
from rules_core import matchlog
from rules_core.match import Match

PLAYERS = ["Äijälä Öhman", "Åsa Ek", "Ben", "Caisa"]


def log_text(players: list[str], winner: int, race: int, code: str) -> str:
    """A finished 9-ball match log: each rack given by a concession, the loser's one rack
    first (race - 1 : race ... the loser gets one rack when the race allows it)."""
    match = Match({"game": "9ball", "players": list(players), "race_to": race, "rules": None})
    match.apply({"t": "lag", "winner": 0})
    match.apply({"t": "choose", "choice": "break", "breaker": 0})
    for player in [1 - winner] * min(1, race - 1) + [winner] * race:
        match.apply({"t": "concede", "player": 1 - player})  # the other player gets the rack
    return matchlog.dumps(match, {"match_id": code, "started": 1_796_000_000,
                                  "ended": 1_796_001_500})


def cup(db: Path, fmt: str = "round_robin", players: list[str] | None = None,
        game: str = "9ball", race: int = 2, tables: int = 2, options: dict | None = None) -> int:
    """A drawn tournament in the store at `db`; returns its id."""
    names = PLAYERS if players is None else players
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Kevät Cup", game, race)
        if fmt not in ("round_robin", "bracket"):
            night.plan_format(store, tid, fmt, options or {})
        night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(names)])
        if fmt == "round_robin":
            night.draw_round_robin(store, tid)
        elif fmt == "bracket":
            night.draw_bracket(store, tid)
        else:
            night.draw_opening(store, tid)
        night.set_tables(store, tid, tables)
    return tid


def play(store: Store, tid: int, code: str, winner: int = 0) -> None:
    """`code` played to its end at a board: `winner` (0: player 1) wins, the result signed."""
    match = next(m for m in store.matches.all(tid) if m["code"] == code)
    t = store.tournaments.by_id(tid)
    text = log_text([match["player1"], match["player2"]], winner, t["race_to"], code)
    key = store.tournaments.key(tid)
    signature = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
    night.record_result(store, code, text, "pk-board", signature, None, None,
                        tournament_id=tid)


def play_out(store: Store, tid: int, winner=lambda code: 0) -> None:
    """Every match played as it comes, until none is left with both players."""
    while True:
        ready = [m for m in store.matches.all(tid) if m["winner"] is None
                 and m.get("outcome") is None and None not in (m["player1"], m["player2"])]
        if not ready:
            return
        play(store, tid, ready[0]["code"], winner(ready[0]["code"]))


def live(code: str, players: list[str], score: list[int], finished: bool = False) -> dict:
    """A board's live state as the watcher stores it (host/sync/watch.check_live)."""
    return {"game": "9ball", "players": players, "score": score, "shooter": 0,
            "finished": finished, "race_to": 2, "rack": sum(score) + 1, "inning": 1,
            "fouls": [0, 0], "clock": None, "events": 5, "match_id": code}


def every_card_state(store: Store, tid: int, playing: dict | None = None) -> list[list[str]]:
    """Round 1's five matches at tables 1-5 in every state a card shows (docs/hall.md): no
    board, board idle (its match not started), playing (`playing`: more of its live state),
    finished (the second player won), board not answering; the players of each."""
    first = [m for m in store.matches.all(tid) if m["round"] == 1]
    for table, m in enumerate(first, 1):
        night.assign(store, tid, m["code"], table)
    names = [[m["player1"], m["player2"]] for m in first]
    store.live.put("pk-2", tid, 2, None)
    store.live.put("pk-3", tid, 3, dict(live(first[2]["code"], names[2], [1, 0]),
                                        **(playing or {})))
    store.live.put("pk-4", tid, 4, live(first[3]["code"], names[3], [1, 2], True))
    store.live.put("pk-5", tid, 5, live(first[4]["code"], names[4], [0, 1]))
    store.live.silent("pk-5")
    return names
