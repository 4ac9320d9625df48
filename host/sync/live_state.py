"""What a board says about the match on its table (its reply to `L`), checked field by field
before the watcher stores it for the hall (nothing from a board is trusted before it is
checked), and what a change between two looks means: a match that ended (its result is
pulled at once); and how many results the board holds for the laptop (its reply's
`unsynced`: a match played whole between two looks is pulled at once too)."""

from __future__ import annotations

from typing import Any

from rules_core import sync_protocol as sp
from rules_core.games import GAMES

NAME_MAX = 40
CLOCK_MAX = 8
EVENTS_MAX = 100000
SCORE_MAX = 100000


class BadLive(ValueError):
    pass


def _int(value: Any, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadLive("%s must be a whole number from %d to %d" % (what, low, high))
    return value


def _pair(value: Any, low: int, high: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadLive("%s must be two numbers" % what)
    return [_int(v, low, high, what) for v in value]


def _text(value: Any, most: int, what: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= most or not value.isprintable():
        raise BadLive("%s must be printable text of at most %d characters" % (what, most))
    return value


def check_live(payload: Any) -> dict | None:
    """The board's live reply, checked field by field (exact types, ranges, sizes) and cut
    to the fields the hall shows; None: no match on the board. BadLive says what is wrong."""
    if payload is None:
        return None
    if not isinstance(payload, dict):
        raise BadLive("the live state must be an object")
    game = payload.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise BadLive("unknown game %r" % (game,))
    players = payload.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise BadLive("a match has two players")
    shooter = payload.get("shooter")
    if shooter is not None:
        _int(shooter, 0, 1, "the shooter")
    finished = payload.get("finished")
    if not isinstance(finished, bool):
        raise BadLive("'finished' must be true or false")
    return {
        "game": game,
        "players": [_text(p, NAME_MAX, "a player's name") for p in players],
        "score": _pair(payload.get("score"), -SCORE_MAX, SCORE_MAX, "the score"),
        "shooter": shooter,
        "finished": finished,
        "race_to": _int(payload.get("race_to"), 1, SCORE_MAX, "the race"),
        "rack": _int(payload.get("rack"), 0, SCORE_MAX, "the rack"),
        "inning": _int(payload.get("inning"), 0, SCORE_MAX, "the inning"),
        "fouls": _pair(payload.get("fouls"), 0, 99, "fouls in a row"),
        "clock": _text(payload.get("clock"), CLOCK_MAX, "the clock", optional=True),
        "events": _int(payload.get("events"), 0, EVENTS_MAX, "the event count"),
        "match_id": _text(payload.get("match_id"), NAME_MAX, "the match id", optional=True),
    }


def ended(before: dict | None, now: dict | None) -> bool:
    """Whether the match `before` showed in play has ended by `now`: finished, or gone from
    the board (the referee left its result screen at once, or abandoned it), or another
    match in its place. Its result (or its abandoned log) is on the board to be pulled. (Fewer
    events is an undo, not a new match.)"""
    if before is None or before["finished"]:
        return False
    if now is None or now["finished"]:
        return True
    return any(before[k] != now[k] for k in ("game", "players", "match_id"))


def unsynced(reply: dict) -> int | None:
    """How many results (damaged ones too) the board holds for the laptop, as its live reply
    says; None from a board whose firmware does not say it (before this field)."""
    value = reply.get("unsynced")
    if value is None:
        return None
    return _int(value, 0, sp.MAX_RESULTS, "the count of results not synced")
