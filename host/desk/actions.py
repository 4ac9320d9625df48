"""Each desk action: a checked form (forms.Fields) -> the director's operation
(host.tournament.night, as the CLI calls it) -> what the director reads. An action either
did it (Done), needs the director to confirm (Ask: a plan, a match being played), or raises
BadForm / versions.Stale / StoreError with why nothing was done."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from host.desk import versions
from host.desk.forms import BadForm, Fields
from host.i18n import N_, _
from host.tournament import night
from host.tournament.night.consequences import Change, plan_correction
from host.tournament.night.corrections import correction_plan
from host.tournament.night.entries import add_late_player
from host.tournament.night.how import Refused
from host.tournament.night.in_play import InPlay
from host.tournament.night.plan_text import followed_said
from host.tournament.store import Store, StoreError

PLAYED = {"keep": N_("keep the games played as played"), "void": N_("void the games played")}
# The desk's words for the ways out the night's refusals name (night/how.py; the command line
# says them as commands).
DESK_HOW = {  # (said in the page's language by night/how.py in_words)
    "correct": N_("Correct the result on %(match)s's page"),
    "correct_score": N_("Correct the result on %(match)s's page"),
    "enter": N_("enter its score from the paper sheet, or a walkover, on %(match)s's page"),
    "walkover": N_("a walkover on %(match)s's page"),
    "plan_again": N_("show what it does again"),
    "void_played": N_("choose to void them"),
    "keep_or_void": N_("choose below"),
    "choose_played": N_("keep them (they stand as played), or void them (they do not count, "
                        "and what was drawn from them goes too)"),
    "winner": N_("the winner chosen"),
    "follow": N_("the desk has not heard from that board since"),
}
OUTCOMES = {"void": N_("void (it does not count)"),
            "both_lose": N_("lost by both (both absent)")}


@dataclass
class Done:
    text: str


@dataclass
class Ask:
    """A question before the action goes on: the form is posted again with `more` added."""

    title: str
    text: str
    action: str  # the form's action path
    form: dict[str, str]
    typed: str | None = None  # what the director types to confirm
    more: dict[str, str] = field(default_factory=dict)
    plan: str | None = None
    choose_played: bool = False
    button: str = N_("Confirm")  # (the template shows it with tr())


def _match(store: Store, tid: int, f: Fields, check: bool = True) -> dict:
    code = f.text("match", N_("the match"), 20)
    try:
        row = store.matches.get(tid, code)
    except StoreError:
        raise BadForm(_("there is no match %(match)s in this tournament")
                      % {"match": code}) from None
    if check:
        versions.check_match(store, row, f.form.get("state", ""))
    return row


def _slot_name(store: Store, row: dict, f: Fields, required: bool = True) -> str | None:
    if not required and not f.has("winner"):
        return None
    names = store.players.names(row)
    slot = f.choice("winner", N_("the winner"), {"1": names[0] or _("player 1"),
                                                 "2": names[1] or _("player 2")})
    return names[int(slot) - 1]


def _asking(error: InPlay, action: str, form: dict[str, str]) -> Ask:
    return Ask(_("The match is being played"), error.asked(DESK_HOW), action, form,
               more={"in_play": "1"}, button=_("Decide it anyway"))


def start(store: Store, tid: int, f: Fields) -> Done:
    table = f.whole("table", N_("the table")) if f.has("table") else None
    versions.check_tables(store, tid, f.form.get("state", ""))
    code, number = night.start_next(store, tid, table)
    return Done(_("%(match)s starts at table %(table)s") % {"match": code, "table": number})


def assign(store: Store, tid: int, f: Fields) -> Done:
    row = _match(store, tid, f)
    table = f.whole("table", N_("the table"))
    place = night.assign(store, tid, row["code"], table)
    where = {"match": row["code"], "table": table, "place": place}
    return Done((_("%(match)s is queued at table %(table)s (it plays there now)") if place == 1
                 else _("%(match)s is queued at table %(table)s (%(place)s in the queue)"))
                % where)


def unstart(store: Store, tid: int, f: Fields) -> Done:
    row = _match(store, tid, f)
    table = night.unassign(store, tid, row["code"])
    return Done(_("%(match)s is off table %(table)s: it waits again")
                % {"match": row["code"], "table": table})


def walkover(store: Store, tid: int, f: Fields) -> Done | Ask:
    row = _match(store, tid, f)
    winner = _slot_name(store, row, f)
    reason = f.text("reason", N_("the reason"))
    try:
        night.walkover(store, tid, row["code"], winner or "", reason,
                       confirm_in_play=f.flag("in_play"))
    except InPlay as error:
        return _asking(error, "/desk/walkover", f.form)
    return Done(_("%(match)s: a walkover to %(player)s") % {"match": row["code"],
                                                              "player": winner})


def score(store: Store, tid: int, f: Fields) -> Done | Ask:
    row = _match(store, tid, f)
    typed = f.text("score", N_("the score (as 5:3)"), 20)
    winner = _slot_name(store, row, f, required=False)
    reason = f.text("reason", N_("the reason"))
    try:
        night.record_hand(store, tid, row["code"], typed, reason, winner=winner,
                          confirm_in_play=f.flag("in_play"))
    except InPlay as error:
        return _asking(error, "/desk/score", f.form)
    now = store.matches.get(tid, row["code"])
    return Done(_("%(match)s: %(score)s from the paper sheet") % {
        "match": row["code"], "score": "%s:%s" % (now["score1"], now["score2"])})


def _played(f: Fields) -> str | None:
    return f.choice("played", N_("what becomes of the games played"), PLAYED) \
        if f.has("played") else None


def void(store: Store, tid: int, f: Fields) -> Done | Ask:
    row = _match(store, tid, f)
    outcome = f.choice("outcome", N_("void or lost by both"), OUTCOMES)
    reason = f.text("reason", N_("the reason"))
    f.typed("confirm", row["code"])
    played = _played(f)
    plan = plan_correction(store, tid, row["code"], Change(outcome=outcome), played)
    if plan.choice_needed:
        return Ask(_("Games were played after it"), plan.text(DESK_HOW), "/desk/void", f.form,
                   plan=plan.text(DESK_HOW), choose_played=True, button=_("Apply"))
    try:
        done = night.no_winner(store, tid, row["code"], outcome, reason, played=played,
                               confirm_in_play=f.flag("in_play"))
    except InPlay as error:
        return _asking(error, "/desk/void", f.form)
    followed = done.get("followed")
    said = (_("%(match)s is void") if outcome == "void" else _("%(match)s is lost by both")
            ) % {"match": row["code"]}
    return Done(said + (" (%s)" % followed_said(followed) if followed else ""))


def plan_key(plan_dict: dict) -> str:
    return hashlib.sha256(json.dumps(plan_dict, sort_keys=True, default=str).encode()
                          ).hexdigest()[:24]


def correct(store: Store, tid: int, f: Fields) -> Done | Ask:
    """First the plan (nothing changed), then, confirmed, the correction."""
    row = _match(store, tid, f)
    typed = f.text("score", N_("the score (as 5:3)"), 20)
    winner = _slot_name(store, row, f, required=False)
    reason = f.text("reason", N_("the reason"))
    played = _played(f)
    seen = correction_plan(store, tid, row["code"], score=typed, winner=winner)
    drastic = bool(seen.redrawn or seen.depends or seen.new)
    if not f.has("plan"):
        return Ask(_("What the correction does"), seen.text(DESK_HOW), "/desk/correct", f.form,
                   typed=row["code"] if drastic else None, plan=seen.text(DESK_HOW),
                   more={"plan": plan_key(seen.as_dict())}, choose_played=seen.choice_needed,
                   button=_("Apply the correction"))
    if f.form.get("plan") != plan_key(seen.as_dict()):
        raise versions.Stale(_("the night has moved on since the plan was shown (a result "
                               "came in, a match started): nothing was done; here it is again"))
    if drastic:
        f.typed("confirm", row["code"])
    if seen.choice_needed and played is None:
        raise BadForm(_("choose what becomes of the games played after it"))
    chosen = correction_plan(store, tid, row["code"], score=typed, winner=winner,
                             played=played)
    night.correct(store, tid, row["code"], reason, score=typed, winner=winner, played=played,
                  shown=chosen.as_dict())
    now = store.matches.get(tid, row["code"])
    return Done(_("%(match)s corrected to %(score)s") % {
        "match": row["code"], "score": "%s:%s" % (now["score1"], now["score2"])})


def withdraw(store: Store, tid: int, f: Fields) -> Done | Ask:
    name = f.text("player", N_("the player's name"), 60)
    try:
        player = store.players.get(tid, name)
    except StoreError:
        raise BadForm(_("there is no player named %(name)s in this tournament")
                      % {"name": name}) from None
    versions.check_player(store, tid, player, f.form.get("state", ""))
    reason = f.text("reason", N_("the reason"))
    f.typed("confirm", name)
    try:
        decided = night.withdraw(store, tid, name, reason, confirm_in_play=f.flag("in_play"))
    except InPlay as error:
        return _asking(error, "/desk/withdraw", f.form)
    if decided:
        return Done(_("%(player)s withdrew; decided by it: %(matches)s")
                    % {"player": name, "matches": ", ".join(decided)})
    return Done(_("%(player)s withdrew") % {"player": name})


def late_entry(store: Store, tid: int, f: Fields) -> Done:
    """A player entered after the draw (night/entries.py decides what the format does)."""
    name = f.text("name", N_("the player's name"), 60)
    club = f.text("club", N_("the club"), 60) if f.has("club") else ""
    done = add_late_player(store, tid, name, club)
    said = _("%(player)s is in") % {"player": name}
    if done["added"]:
        said += _("; their games: %(matches)s") % {"matches": ", ".join(done["added"])}
    if done["removed"]:
        said += _("; games no longer drawn: %(matches)s") % {
            "matches": ", ".join(done["removed"])}
    return Done(said)


def remove_table(store: Store, tid: int, f: Fields) -> Done:
    table = f.whole("table", N_("the table"))
    versions.check_tables(store, tid, f.form.get("state", ""))
    f.typed("confirm", _("table %(number)s") % {"number": table})  # as its page asked
    queued = night.remove_table(store, tid, table)
    return Done((_("table %(number)s removed; its matches went back to the queue") if queued
                 else _("table %(number)s removed")) % {"number": table})


def pair(store: Store, tid: int, f: Fields) -> Done | Ask:
    """A hakukaavio game given another opponent (host/desk/pairings.py)."""
    from host.desk import pairings  # (it builds on this module's Ask, Done and _match)

    return pairings.pair(store, tid, f)


def _desk_words(action):
    """The action, its refusals' ways out said in the desk's words (DESK_HOW)."""
    def run(store: Store, tid: int, f: Fields) -> Done | Ask:
        try:
            return action(store, tid, f)
        except Refused as refused:
            raise StoreError(refused.words(DESK_HOW)) from None
    return run


ACTIONS = {name: _desk_words(action) for name, action in {
    "start": start, "assign": assign, "unstart": unstart, "walkover": walkover,
    "score": score, "void": void, "correct": correct, "withdraw": withdraw,
    "remove-table": remove_table, "late-entry": late_entry, "pair": pair}.items()}
