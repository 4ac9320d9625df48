"""Is a match being played at its table? Asked before the director decides a match the boards
may still be playing (a walkover, a withdrawal's walkovers, a hand result, a void, both lose):
the board's result would come later and not count. The operation raises InPlay unless told
`confirm_in_play=True`; the CLI turns it into a question (at a terminal) or into "add --yes",
the director's desk into its own question.

A match is in play when a board's live state (store/live.py, written by `pilkku sync --watch`)
names it; in doubt (no live state from the table's board), when it is the current match of a
table a board holds: the board may have started it since it last answered."""

from __future__ import annotations

from collections.abc import Iterable

from host.i18n import _
from host.tournament.night.how import CLI, in_words, way
from host.tournament.store import Store, StoreError
from host.tournament.store.live import now_ms

FRESH_MS = 60_000  # a live state older than this is what the board showed, not shows


class InPlay(StoreError):
    """The matches a decision would take from their tables: `playing` holds one line each
    ("L1-02 is being played at table 1 (3:2)")."""

    def __init__(self, playing: list[str]) -> None:
        self.playing = playing
        self.what = in_words("; ".join(playing), CLI)
        self.question = self.asked(CLI)
        super().__init__(_("%(matches)s: the board's result would be kept in the history but "
                           "not counted; add --yes to decide it anyway") % {
            "matches": self.what})

    def asked(self, wording: dict[str, str]) -> str:
        """The question, its lines' ways out in `wording`'s words (night/how.py)."""
        return (_("%(matches)s. Decide it anyway? The board's result will be kept in the "
                  "history but not counted.") % {
            "matches": in_words("; ".join(self.playing), wording)})


def playing(store: Store, tournament_id: int, match: dict) -> str | None:
    """Why `match` may be being played at a table (one line), or None."""
    states = store.live.states(tournament_id)
    fresh = now_ms() - FRESH_MS
    for row in sorted(states, key=lambda r: -r["answered_ms"]):
        state = row["state"]
        if state is None or state.get("match_id") != match["code"]:
            continue
        said = {"match": match["code"], "score": "(%d:%d)" % tuple(state["score"]),
                "where": _("at table %(table)s") % {"table": row["table"]}
                if row["table"] is not None else
                _("at board %(board)s") % {"board": row["board_id"]}}
        if row["silent"] or row["answered_ms"] < fresh:
            return _("%(match)s was being played %(where)s %(score)s when its board last "
                     "answered") % said
        if state.get("finished"):
            return _("%(match)s was played %(where)s %(score)s: its result is on the board, "
                     "not yet synced") % said
        return _("%(match)s is being played %(where)s %(score)s") % said
    table = match["table_number"]
    if table is None:
        return None
    board = store.boards.holder(tournament_id, table)
    schedule = store.tables.schedule(tournament_id, table)
    if board is None or not schedule or schedule[0]["match_id"] != match["code"]:
        return None
    if any(r["board_id"] == board and not r["silent"] and r["answered_ms"] >= fresh
           for r in states):
        return None  # its board answers, on another match or in its menu
    return (_("%(match)s is the current match at table %(table)d, whose board %(board)s may "
              "have started it (its live state is not known: %(how)s)") % {
        "match": match["code"], "table": table, "board": board, "how": way("follow")})


def playing_now(store: Store, tournament_id: int, matches: Iterable[dict]) -> dict[str, str]:
    """code -> why, for each of `matches` that may be being played."""
    found = {}
    for match in matches:
        why = playing(store, tournament_id, match)
        if why:
            found[match["code"]] = why
    return found


def refuse_if_playing(store: Store, tournament_id: int, matches: Iterable[dict],
                      confirm_in_play: bool) -> None:
    """InPlay naming each of `matches` that may be being played, unless confirmed."""
    if confirm_in_play:
        return
    found = playing_now(store, tournament_id, matches)
    if found:
        raise InPlay(list(found.values()))
