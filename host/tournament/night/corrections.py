"""The director puts the night right: a result replaced (the old one kept, the new one a signed
entry by the director), a walkover, a player withdrawn (the format says what becomes of their
remaining matches: formats/withdrawal.py), a player renamed.

An entry by the director is signed with the tournament's own key, as a board signs its logs, so
an edit in the store afterwards shows as FAILED like any other. Its document is either a match
log (a corrected log) or a "pilkku.director/1" object (store/results.py)."""

from __future__ import annotations

from host.i18n import _
from host.tournament.night.consequences import Change, Plan, apply_plan, plan_correction
from host.tournament.night.follow import decide, walk_over, withdrawal_walkovers
from host.tournament.night.how import Refused, way
from host.tournament.night.in_play import InPlay, playing_now, refuse_if_playing
from host.tournament.night.plan_text import same_plan
from host.tournament.night.scores import director_score
from host.tournament.night.tables import fill_tables
from host.tournament.store import Store, StoreError


def correct(store: Store, tournament_id: int, code: str, reason: str, *,
            log_text: str | None = None, score: str | tuple[int, int] | None = None,
            winner: str | None = None, damaged: int | None = None, played: str | None = None,
            shown: dict | None = None, planned: tuple[int, Plan] | None = None) -> dict:
    """Replace a finished match's result by the director's: a corrected match log, or a
    score (and the winner, if the score does not say). Returns the new current result.
    A match whose result came damaged from its board (store/damaged.py: one naming it, or
    `damaged`, the one the director says it was) has none to replace: the director's is its
    first, and settles the damaged one.

    What the change means for the draw is planned first (correction_plan) and applied in the
    same transaction: matches drawn from the old result and not started are redrawn; played or
    in play ones need `played` ("keep" or "void"), else StoreError names them. `shown`: the
    plan's as_dict() the director saw; refused if the night has moved on since. `planned`:
    (the store's revision, the plan correction_plan made at it): applied as it is when the
    revision has not moved since (nothing was written: planning again would give it again)."""
    reason = _reason(reason)
    with store.db.transaction():
        match, old, slot, score1, score2 = _new_result(store, tournament_id, code, log_text,
                                                      score, winner, damaged)
        if planned is not None and planned[0] == store.db.revision():
            plan = planned[1]
        else:
            plan = plan_correction(store, tournament_id, code, Change(slot, (score1, score2)),
                                   played)
        if shown is not None and not same_plan(plan.as_dict(), shown):
            raise Refused(_("the night has moved on since the plan was shown (a result came "
                            "in or a match started): %(how)s") % {"how": way("plan_again")},
                          match=code)
        followed = apply_plan(store, tournament_id, plan, reason)
        why = reason if not followed else "%s (%s)" % (reason, followed)
        document = log_text if log_text is not None else store.results.director_document(
            match, "correction", slot, (score1, score2), why, None if old is None else old["id"])
        if old is not None:
            new = store.results.replace(old["id"], document, tournament_id, match,
                                        "correction", why)
        else:
            new = store.results.entry(tournament_id, match, document, "correction", why)
        store.damaged.settle(tournament_id, code, new, damaged)
        match = store.matches.get(tournament_id, code)
        store.matches.undo_advance(match)
        decide(store, match, match["player%d_id" % slot], score1, score2)
    return store.results.current(code, tournament_id) or {}


def correction_plan(store: Store, tournament_id: int, code: str, *,
                    log_text: str | None = None, score: str | tuple[int, int] | None = None,
                    winner: str | None = None, damaged: int | None = None,
                    played: str | None = None) -> Plan:
    """What correct() with the same arguments would change (reads only): its text() and
    as_dict() are shown to the director before it is applied."""
    _match, _old, slot, score1, score2 = _new_result(store, tournament_id, code, log_text,
                                                    score, winner, damaged)
    return plan_correction(store, tournament_id, code, Change(slot, (score1, score2)), played)


def _new_result(store: Store, tournament_id: int, code: str, log_text: str | None,
                score: str | tuple[int, int] | None, winner: str | None,
                damaged: int | None) -> tuple[dict, dict | None, int, int, int]:
    """The match, its current result, and the corrected (winner's slot, score1, score2)."""
    match = store.matches.get(tournament_id, code)
    old = store.results.current_row(match["id"])
    if old is None and damaged is None and not store.damaged.waits_for(tournament_id, code):
        raise Refused(_("match %(match)s has no result to replace: %(how)s") % {
            "match": code, "how": way("enter")}, match=code)
    if log_text is not None:
        slot, score1, score2 = store.results.outcome_or_refuse(log_text, tournament_id, code,
                                                               match)
    else:
        slot, score1, score2 = director_score(store, match, score, winner)
    return match, old, slot, score1, score2


def walkover(store: Store, tournament_id: int, code: str, winner: str, reason: str, *,
             confirm_in_play: bool = False) -> None:
    """The match is won by `winner` without being played (the opponent did not come).
    InPlay (night/in_play.py) if its table may be playing it, unless `confirm_in_play`."""
    reason = _reason(reason)
    with store.db.transaction():
        match = store.matches.get(tournament_id, code)
        if match["winner_id"] is not None:
            raise Refused(_("match %(match)s is finished already; to change its result: "
                            "%(how)s") % {"match": code, "how": way("correct")}, match=code)
        if None in (match["player1_id"], match["player2_id"]):
            raise StoreError(_("match %(match)s waits for the winners of earlier matches")
                             % {"match": code})
        slot = store.players.slot_of(match, winner)
        refuse_if_playing(store, tournament_id, [match], confirm_in_play)
        walk_over(store, tournament_id, match, slot, reason)


def withdraw(store: Store, tournament_id: int, name: str, reason: str, *,
             confirm_in_play: bool = False) -> list[str]:
    """The player plays no more; returns the matches decided by it now (the format's rule
    decides; a bracket match still waiting for its players is decided when they are known).
    InPlay if a match it gives away may be being played at its table, unless
    `confirm_in_play`."""
    reason = _reason(reason)
    with store.db.transaction():
        player = store.players.get(tournament_id, name)
        if player["withdrawn"] is not None:
            raise StoreError(_("%(player)s withdrew already (%(when)s)") % {
                "player": name, "when": player["withdrawn"]})
        busy = {} if confirm_in_play else playing_now(store, tournament_id, [
            m for m in store.matches.open(tournament_id)
            if player["id"] in (m["player1_id"], m["player2_id"])])
        store.players.withdraw(player["id"])
        decided = store.matches.decided_codes(tournament_id)
        withdrawal_walkovers(store, tournament_id, reason)
        fill_tables(store, tournament_id, None)
        # (a match the walkovers drew and decided too: a double's two withdrawn losers)
        now = sorted(store.matches.decided_codes(tournament_id) - decided)
        if busy.keys() & set(now):
            raise InPlay([busy[code] for code in now if code in busy])
        return now


def rename_player(store: Store, tournament_id: int, old: str, new: str) -> None:
    """A player's name corrected; logs naming the old name are still theirs (and a link to a
    person made by the old name is made again by the new one: store/people.py renamed)."""
    player = store.players.get(tournament_id, old)["id"]
    store.players.rename(tournament_id, old, new)
    with store.db.transaction():
        store.people.renamed(player, old)


def _reason(text: str) -> str:
    text = (text or "").strip()
    if not text or len(text) > 200 or not text.isprintable():
        raise StoreError(_("say why with --reason TEXT (one line, up to 200 characters)"))
    return text
