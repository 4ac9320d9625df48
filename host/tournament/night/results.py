"""A match log taken as a match's result: from a board through `pilkku sync` (signed, its
link kept), or a log file the director records. One transaction: the result stored, and what
follows it (night/follow.py)."""

from __future__ import annotations

from typing import Any

from host.tournament.night.follow import decide
from host.tournament.night.in_play import refuse_if_playing
from host.tournament.store import Store
from host.tournament.store.results import SetAside

HOW = {"walkover": "a walkover", "hand": "a score typed in", "void": "void",
       "both_lose": "lost by both", "correction": "a correction", "manual": "a log recorded "
       "by hand", "board": "another result"}


def set_aside_note(code: str, aside: SetAside) -> str:
    """What the sync says of a board's result kept not counted."""
    by = "board %s's result" % aside.source if aside.kind == "board" else \
        "the director (%s)" % HOW.get(aside.kind, aside.kind)
    return ("not counted: %s was decided by %s, result #%d, before it came; kept in the "
            "history as #%d (to count it instead: pilkku correct %s --use-board-result "
            "--reason TEXT)" % (code, by, aside.by, aside.result, code))


def record_result(store: Store, code: str, document_text: str, board_id: str,
                  hmac_hex: str | None, started: Any, ended: Any, *,
                  tournament_id: int | None = None, kind: str | None = None,
                  chain_n: int | None = None, confirm_in_play: bool = True) -> bool | str:
    """Store a finished match log (the "pilkku.match/1" text exactly as received, its bytes
    kept for the HMAC). True: recorded; False: this match already has this exact document
    (sync delivered it twice); a text: a board's result for a match decided already, kept in
    the history but not counted (the text says so and how to count it instead: the board may
    free it). ResultRefused when the log does not replay, is not finished, names other
    players/game/race/rules, or the director's log is for a match decided already. In the same
    transaction: winner and score from the replay, the draw gone on, and every free table
    (this one first) given its next waiting match. tournament_id None: the latest tournament
    holding a match with this code. `chain_n`: the result's link, kept already by
    store.chains.record. `confirm_in_play` False (the director's log file): InPlay if the
    match's table may be playing it (night/in_play.py)."""
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if not confirm_in_play:  # (a log the director enters: its table may be playing it)
            refuse_if_playing(store, match["tournament_id"], [match], False)
        outcome = store.results.take(match, document_text, board_id, hmac_hex, started, ended,
                                     kind, chain_n)
        if outcome is None:
            return False
        if isinstance(outcome, SetAside):
            return set_aside_note(code, outcome)
        slot, score1, score2 = outcome
        decide(store, match, match["player%d_id" % slot], score1, score2)
    return True
