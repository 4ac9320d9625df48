"""What a match's state reads as, in words the director and the hall share: won, void, lost by
both, waiting, or where it stands at its table ("playing" only once its board has started it).
`pilkku matches`, the hall's schedule and the director's desk all say it this way."""

from __future__ import annotations


def match_status(match: dict, queues: dict, started: dict[str, bool]) -> str:
    """A row of store.matches.all: `queues` table -> its codes in order (store.tables
    .schedule), `started` code -> whether its board has finished it (store.live.started)."""
    if match.get("outcome") is not None:  # decided without a winner (schema v9)
        return "void: did not count" if match["outcome"] == "void" else "lost by both"
    if match["winner"] is not None:
        return "won by %s %d:%d" % (match["winner"], max(match["score1"], match["score2"]),
                                    min(match["score1"], match["score2"]))
    if match["table"] is not None:
        place = queues.get(match["table"], []).index(match["code"]) + 1
        return table_status(match["table"], place, started.get(match["code"]))
    if None in (match["player1"], match["player2"]):
        return "waits for earlier matches"
    return "waiting"


def table_status(table: int, place: int, on_board: bool | None) -> str:
    """Where a match queued at a table stands (`pilkku matches`, the hall's schedule):
    "playing" only once its board has started it (store.live.started: `on_board` False),
    finished there before its result is in (True); else its place in the table's queue."""
    if on_board is not None:
        return ("finished at table %d, result not in yet" if on_board
                else "playing at table %d") % table
    if place == 1:
        return "next at table %d, not started" % table
    return "queued at table %d (%s)" % (table, ordinal(place))


def ordinal(n: int) -> str:
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th"))
