"""A match log taken as a match's result: from a board through `pilkku sync` (signed, its
link kept), or a log file the director records. One transaction: the result stored, and what
follows it (night/follow.py)."""

from __future__ import annotations

import re
from typing import Any

from host.i18n import N_, _
from host.tournament.night.follow import decide
from host.tournament.night.in_play import refuse_if_playing
from host.tournament.store import Store, StoreError
from host.tournament.store.results import SetAside, log_players

HOW = {"walkover": N_("a walkover"), "hand": N_("a score typed in"), "void": N_("void"),
       "both_lose": N_("lost by both"), "correction": N_("a correction"),
       "manual": N_("a log recorded by hand"), "board": N_("another result")}  # (said: _())


def set_aside_note(code: str, aside: SetAside) -> str:
    """What the sync says of a board's result kept not counted."""
    by = _("board %(board)s's result") % {"board": aside.source} if aside.kind == "board" \
        else _("the director (%(how)s)") % {"how": _(HOW[aside.kind]) if aside.kind in HOW
                                             else aside.kind}
    return _("not counted: %(match)s was decided by %(by)s, result #%(by_result)d, before it "
             "came; kept in the history as #%(result)d (to count it instead: pilkku correct "
             "%(match)s --use-board-result --reason TEXT)") % {
        "match": code, "by": by, "by_result": aside.by, "result": aside.result}


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
    match's table may be playing it (night/in_play.py). A board's result for a game a
    correction has since given to other players, emptied or taken out is kept as that game,
    void (played_elsewhere), and a text says it cannot count: the board may free it."""
    with store.db.transaction():
        try:
            match = store.matches.get(tournament_id, code)
        except StoreError:
            if chain_n is None or tournament_id is None:
                raise
            match = None  # (a board's result for a game a correction took out)
        changed = None
        if chain_n is not None:  # a board's: the game it played may be another's now
            changed = played_elsewhere(store, tournament_id, code, document_text, match,
                                       board_id)
        if match is None and changed is None:
            store.matches.get(tournament_id, code)  # (raises: no such match)
        if changed is not None:
            match, why = changed
        assert match is not None
        if not confirm_in_play:  # (a log the director enters: its table may be playing it)
            refuse_if_playing(store, match["tournament_id"], [match], False)
        outcome = store.results.take(match, document_text, board_id, hmac_hex, started, ended,
                                     kind, chain_n, None if changed is None else code)
        if outcome is None:
            return False
        if isinstance(outcome, SetAside) and changed is not None:
            one, two = store.players.names(match)
            return _("not counted: %(why)s before board %(board)s's result came (%(player1)s "
                     "vs %(player2)s); kept in the history as %(match)s, void, #%(result)d: it "
                     "cannot count, the draw no longer has that game (if the change was wrong, "
                     "correct that match again: pilkku results --history)") % {
                "why": why, "board": board_id, "player1": one, "player2": two,
                "match": match["code"], "result": outcome.result}
        if isinstance(outcome, SetAside):
            return set_aside_note(code, outcome)
        slot, score1, score2 = outcome
        decide(store, match, match["player%d_id" % slot], score1, score2)
    return True


def played_elsewhere(store: Store, tournament_id: int | None, code: str, text: str,
                     match: dict | None, board_id: str) -> tuple[dict, str] | None:
    """A board's log of `code` whose players the match no longer has (a correction gave the
    code to other players, emptied its slot, or took the game out): (the void copy of the
    game the board played, made once: `code`v1, ... with the log's players; why it cannot
    count). None when the log fits the match, or names players not in the tournament."""
    names = log_players(text)
    if names is None or tournament_id is None or (
            match is not None and store.players.order(names, match) is not None):
        return None
    ids = []
    for name in names:
        found = [p["id"] for p in store.players.all(tournament_id)
                 if name in store.players.known(p["id"])]
        if not found:
            return None
        ids.append(found[0])
    # Why it cannot count: English in the void copy's entry (the store's data), said in the
    # language spoken in the answer.
    values = {"match": code, "players": ""}
    if match is None:
        message = N_("%(match)s is no game of the draw now (a correction redrew it)")
    elif None in (match["player1_id"], match["player2_id"]):
        message = N_("%(match)s has no players now (a correction emptied its place)")
    else:
        message = N_("%(match)s was given to other players by the director (now %(players)s)")
        values["players"] = " vs ".join(str(n) for n in store.players.names(match))
    why, said = message % values, _(message) % values
    pattern = re.compile(re.escape(code) + r"v[0-9]+")
    for row in store.db.rows("SELECT * FROM matches WHERE tournament_id = ? AND outcome = "
                             "'void'", tournament_id):
        if pattern.fullmatch(row["code"]) and store.players.order(names, row) is not None:
            return row, said
    codes = store.matches.codes(tournament_id)
    number = 1
    while "%sv%d" % (code, number) in codes:
        number += 1
    round_ = match["round"] if match is not None else _round_of(code)
    copy_id = store.matches.insert(tournament_id, {"code": "%sv%d" % (code, number),
                                                   "round": round_, "player1": ids[0],
                                                   "player2": ids[1]})
    copy = store.matches.by_id(copy_id)
    assert copy is not None
    reason = "board %s played %s as %s vs %s; %s" % (board_id, code, names[0], names[1], why)
    document = store.results.director_document(copy, "void", None, None, reason, None)
    store.results.entry(tournament_id, copy, document, "void", reason)
    store.matches.set_outcome(copy, "void")
    return store.matches.by_id(copy_id) or copy, said


def _round_of(code: str) -> int | None:
    """The round a code names (R3-02, W2-01, L4-01), when it names one."""
    found = re.match(r"[A-Z]+([0-9]+)-", code)
    return int(found.group(1)) if found else None
