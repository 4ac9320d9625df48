"""The director decides a match the boards did not: a score typed in from a paper sheet (a
board broke, a table without one), a match void (it does not count) or lost by both (both
absent). Each is a signed entry by the director ("pilkku.director/1", store/results.py) of
kind 'hand', 'void' or 'both_lose', kept with its reason, and followed as any result
(night/follow.py): the draw goes on, the tables fill.

Which formats can have a void or a both-lose: a round robin or a list (void: not counted in
the table; both lose: a loss to each, no points) and the hakukaavio (void: the game is out
of the draw and the draw runs again; both lose: a loss to each). A bracket or a double
cannot: someone must go on (a walkover gives the match to one)."""

from __future__ import annotations

from host.i18n import N_, _
from host.tournament.night.consequences import Change, apply_plan, plan_correction
from host.tournament.night.corrections import _reason as checked_reason
from host.tournament.night.follow import after_result, decide
from host.tournament.night.how import Refused, way
from host.tournament.night.in_play import refuse_if_playing
from host.tournament.night.scores import director_score
from host.tournament.night.tables import fill_tables
from host.tournament.store import Store, StoreError

NO_WINNER = {"void": N_("void"), "both_lose": N_("lost by both")}  # (said with _())
_WITHOUT = {  # format -> why its matches cannot end without a winner
    "bracket": N_("in a single elimination someone must go on to the next round"),
    "double": N_("in a double elimination someone must go on (the loser to the losers' "
                 "bracket)"),
    "groups": N_("a group's games all count for its table and the knockout's seeding"),
}


def record_hand(store: Store, tournament_id: int, code: str, score: str | tuple[int, int],
                reason: str, *, winner: str | None = None,
                confirm_in_play: bool = False) -> dict:
    """A score typed in by the director for an undecided match (`score` as typed: "5:3",
    "45v-35"; `winner` for a level score). Returns the new current result."""
    reason = checked_reason(reason)
    with store.db.transaction():
        match = _undecided(store, tournament_id, code, _("enter its result"))
        slot, score1, score2 = director_score(store, match, score, winner)
        refuse_if_playing(store, tournament_id, [match], confirm_in_play)
        new = store.results.entry(tournament_id, match, store.results.director_document(
            match, "hand", slot, (score1, score2), reason, None), "hand", reason)
        store.damaged.settle(tournament_id, code, new, None)  # (its board's, if it came so)
        decide(store, match, match["player%d_id" % slot], score1, score2)
    return store.results.current(code, tournament_id) or {}


def no_winner(store: Store, tournament_id: int, code: str, outcome: str, reason: str, *,
              confirm_in_play: bool = False, played: str | None = None) -> dict:
    """The match decided without a winner: `outcome` 'void' (it does not count) or
    'both_lose' (both absent: a loss to each); a match decided already has its result
    replaced (kept in the history). What it does to a drawn format's draw is planned and
    applied with it (night/consequences.py): games drawn from it and not started are
    redrawn; played ones need `played` ("keep" or "void"), else StoreError names them.
    Returns the new current result, with "followed": what the draw did ("R3-02 redrawn")."""
    if outcome not in NO_WINNER:
        raise StoreError(_("a match is void or lost by both, not %(outcome)r") % {
            "outcome": outcome})
    reason = checked_reason(reason)
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if match["outcome"] == outcome:
            raise StoreError(_("match %(match)s is %(outcome)s already") % {
                "match": code, "outcome": _(NO_WINNER[outcome])})
        if None in (match["player1_id"], match["player2_id"]):
            raise StoreError(_("match %(match)s waits for the winners of earlier matches: make "
                               "it %(outcome)s once both players are known") % {
                "match": code, "outcome": _(NO_WINNER[outcome])})
        _refuse_format(store, tournament_id, match, outcome)
        if match["winner_id"] is None and match["outcome"] is None:
            refuse_if_playing(store, tournament_id, [match], confirm_in_play)
        plan = plan_correction(store, tournament_id, code, Change(outcome=outcome), played)
        followed = apply_plan(store, tournament_id, plan, reason)
        match = store.matches.get(tournament_id, code)
        old = store.results.current_row(match["id"])
        why = reason if not followed else "%s (%s)" % (reason, followed)
        document = store.results.director_document(match, outcome, None, None, why,
                                                   None if old is None else old["id"])
        if old is None:
            new = store.results.entry(tournament_id, match, document, outcome, why)
        else:
            new = store.results.replace(old["id"], document, tournament_id, match, outcome,
                                        why)
        store.damaged.settle(tournament_id, code, new, None)
        store.matches.set_outcome(match, outcome)
        after_result(store, tournament_id)
        fill_tables(store, tournament_id, match["table_number"])
    current = store.results.current(code, tournament_id) or {}
    current["followed"] = followed
    return current


def _undecided(store: Store, tournament_id: int, code: str, doing: str) -> dict:
    match = store.matches.get(tournament_id, code)
    if match["winner_id"] is not None or match["outcome"] is not None:
        raise Refused(_("match %(match)s is decided already; to change its result: %(how)s")
                      % {"match": code, "how": way("correct_score")}, match=code)
    if None in (match["player1_id"], match["player2_id"]):
        raise StoreError(_("match %(match)s waits for the winners of earlier matches: "
                           "%(doing)s once both players are known") % {
            "match": code, "doing": doing})
    return match


def _refuse_format(store: Store, tournament_id: int, match: dict, outcome: str) -> None:
    name = store.tournaments.format(tournament_id) or "list"
    why = _WITHOUT.get(name)
    if why is not None:
        names = store.players.names(match)
        raise Refused(_("match %(match)s cannot be %(outcome)s: %(why)s. If neither came, "
                        "give it to one of them: %(how)s")
                      % {"match": match["code"], "outcome": _(NO_WINNER[outcome]),
                         "why": _(why), "how": way("walkover")},
                      match=match["code"], name=names[0] or "")


def board_result(store: Store, tournament_id: int, code: str) -> str:
    """The log of the last board's result kept aside for `code` (it came after the match was
    decided: store.results.take's SetAside), for the director to put in force
    (`pilkku correct CODE --use-board-result`)."""
    match = store.matches.get(tournament_id, code)
    row = store.db.one("SELECT document FROM results WHERE match_id = ? AND kind = 'board' AND "
                       "replaced_by IS NOT NULL AND replaced_by < id ORDER BY id DESC LIMIT 1",
                       match["id"])
    if row is None:
        raise StoreError(_("no board's result of %(match)s was kept aside (one that came "
                           "after the match was decided): pilkku results --history lists them")
                         % {"match": code})
    return bytes(row["document"]).decode("utf-8")
