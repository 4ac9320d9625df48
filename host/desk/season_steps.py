"""What each of the desk's season forms does (host/desk/season.py posts them here): the same
host/season and store operations the CLI's `pilkku series` and `pilkku prize` call, with the
form's fields read as the CLI reads its options. The desk adds no rules: every check is the
season's (StoreError) or the form's (BadForm), and a refusal changes nothing.

    STEPS[name](store, t, fields) -> what was done, in the director's words
"""

from __future__ import annotations

import hashlib
import json
from typing import Callable

from host.desk.forms import BadForm, Fields
from host.desk.versions import Stale
from host.games import GAME_NAMES
from host.i18n import N_, _
from host.season import prize
from host.season import series as season
from host.tournament.store import Store, StoreError
from host.tournament.store.people import Ambiguous, shown_person

# What was done, why a form is stale and the form's own refusals (BadForm: a field missing or
# wrong): said in the page's language (N_, translated where used: a field's label by forms.py).
WORDS = {
    "made": N_("Series '%(series)s' made (%(game)s), counting by the point table '%(table)s' "
               "version %(version)d."),
    "added": N_("'%(tournament)s' is a night of '%(series)s' now."),
    "linked_new": N_("New people: %(people)s."),
    "removed": N_("'%(tournament)s' taken out of '%(series)s'."),
    "closed": N_("'%(series)s' closed: its table is frozen as shown."),
    "version": N_("Point table '%(table)s' version %(version)d made."),
    "moved": N_("Open series now counting by it: %(series)s."),
    "no_move": N_("No open series counts by it."),
    "prize": N_("The prize money is kept with the tournament."),
    "printed": N_("The prize money is kept with the tournament and shown on the final "
                  "ranking's printout."),
    "no_tournament": N_("the desk follows no tournament yet: set one up first"),
    "other": N_("the desk follows another tournament now ('%(tournament)s'): this form was "
                "made for an earlier one. Nothing was done: look at the page again."),
    "stale": N_("the season changed since this page was shown (another form or the CLI): "
                "nothing was done. Look at the page again and send the form from there."),
    "series": N_("the series"),
    "name": N_("the series' name"),
    "table": N_("the point table"),
    "game": N_("the game"),
    "best": N_("the number of best nights that count"),
    "not_playing": N_("the form names '%(name)s', who does not play %(tournament)s"),
    "ambiguous": N_("'%(name)s' could be %(count)d people (%(people)s): choose who in the "
                    "form, one of them or a new person"),
    "pick": N_("choose who '%(name)s' is (one of the people of that name, or a new person)"),
    "close_word": "close",  # typed as the page asks (<kbd>close</kbd>), in every language
    "fee": N_("the entry fee"),
    "players": N_("the players who paid"),
    "nothing": N_("give at least one of the points to change (the others stay as they are)"),
    "numbers": N_("%(what)s takes whole numbers separated by commas, e.g. 5,3,1"),
}
# The prize form's fields as its refusals call them (host/season/prize.py names options).
LABELS = {"fee": N_("The entry fee"), "players": N_("the players who paid"),
          "federation": N_("The federation's share"), "organiser": N_("The organiser's share"),
          "paid": N_("Places paid"), "unit": N_("Rounded down to")}
PICK = "pick-"  # + a player's name: '#ID' or 'new', for a name several people have


def state(store: Store, tid: int | None) -> str:
    """What the season's forms act on: the series (their nights, points, closing), the point
    tables, the people's names and this tournament's prize and players. A form made before
    any of it changed is refused as stale (the desk's other forms do the same)."""
    parts = {
        "t": tid,
        "series": [[s["id"], s["name"], s["points_name"], s["points_version"], s["closed"],
                    [n["tournament_id"] for n in store.series.nights(s["id"])]]
                   for s in store.series.all()],
        "tables": [[p["name"], p["version"]] for p in store.series.point_tables()],
        "people": [[p["id"], p["name"]] for p in store.people.all()],
        "prize": store.series.prize(tid) if tid is not None else None,
        "players": ([[p["id"], p["name"]] for p in store.players.all(tid)]
                    if tid is not None else []),
    }
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def check(store: Store, t: dict | None, form: dict[str, str]) -> None:
    """Stale: the form was made for another tournament, or before the season changed."""
    tid = None if t is None else t["id"]
    if form.get("tournament", "") != ("" if tid is None else str(tid)):
        if t is None:
            raise BadForm(_(WORDS["no_tournament"]))
        raise Stale(_(WORDS["other"]) % {"tournament": t["name"]})
    if form.get("state", "") != state(store, tid):
        raise Stale(_(WORDS["stale"]))


def _optional(f: Fields, name: str, label: str) -> str | None:
    return f.text(name, label) if f.has(name) else None


def _numbers(f: Fields, name: str, label: str) -> list[int] | None:
    text = _optional(f, name, label)
    if text is None:
        return None
    words = [w.strip() for w in text.split(",")]
    if not all(w.isascii() and w.isdigit() and len(w) <= 4 for w in words):
        raise BadForm(_(WORDS["numbers"]) % {"what": _(label)})
    return [int(w) for w in words]


def new(store: Store, t: dict | None, f: Fields) -> str:
    game = f.choice("game", WORDS["game"], {k: v for k, v in sorted(GAME_NAMES.items())})
    keys = _optional(f, "tie_break", N_("the tie-breaks"))
    season.new_series(
        store, f.text("name", WORDS["name"], season.NAME_MAX), game,
        date_from=_optional(f, "date_from", N_("the first day")),
        date_to=_optional(f, "date_to", N_("the last day")),
        points_name=_optional(f, "points", WORDS["table"]) or season.DEFAULT_POINTS,
        best_of=(f.whole("best", WORDS["best"], 1, season.BEST_OF_MAX) if f.has("best")
                 else None),
        tie_break=None if keys is None else [k.strip() for k in keys.split(",") if k.strip()],
        carry_from=_optional(f, "carry", N_("the series carried over from")),
        carry_points=_numbers(f, "carry_points", N_("the points carried")))
    made = store.series.get(f.text("name", WORDS["name"]))
    return _(WORDS["made"]) % {"series": made["name"], "game": _(GAME_NAMES[made["game"]]),
                               "table": made["points_name"],
                               "version": made["points_version"]}


def _tournament(t: dict | None) -> dict:
    if t is None:
        raise BadForm(_(WORDS["no_tournament"]))
    return t


def add(store: Store, t: dict | None, f: Fields) -> str:
    t = _tournament(t)
    picks, fresh = {}, []
    for field, value in f.form.items():
        if field.startswith(PICK) and value:
            name = field[len(PICK):]
            if value == "new":
                fresh.append(name)
            elif value.startswith("#") and value[1:].isascii() and value[1:].isdigit():
                picks[name] = value
            else:
                raise BadForm(_(WORDS["pick"]) % {"name": name[:40]})
    playing = {p["name"] for p in store.players.all(t["id"])}
    for who in [*picks, *fresh]:
        if who not in playing:
            raise BadForm(_(WORDS["not_playing"]) % {"name": who[:40], "tournament": t["name"]})
    name = f.text("series", WORDS["series"])
    before = {p["id"] for p in store.people.all()}
    try:
        season.add_nights(store, name, [t["name"]], _optional(f, "date", N_("the night's date")),
                          picks, fresh)
    except Ambiguous as unsure:  # (the CLI's text names its options; the desk has a choice)
        raise BadForm(_(WORDS["ambiguous"]) % {
            "name": unsure.name, "count": len(unsure.people),
            "people": "; ".join(shown_person(p) for p in unsure.people)}) from None
    made = [p["name"] for p in store.people.all() if p["id"] not in before]
    said = _(WORDS["added"]) % {"tournament": t["name"], "series": name}
    return said + (" " + _(WORDS["linked_new"]) % {"people": ", ".join(made)} if made else "")


def remove(store: Store, t: dict | None, f: Fields) -> str:
    t = _tournament(t)
    name = f.text("series", WORDS["series"])
    season.remove_night(store, name, t["name"])
    return _(WORDS["removed"]) % {"tournament": t["name"], "series": name}


def close(store: Store, t: dict | None, f: Fields) -> str:
    name = f.text("series", WORDS["series"])
    store.series.get(name)  # says there is no such series before asking to confirm
    f.typed("confirm", WORDS["close_word"])
    season.close(store, name)
    return _(WORDS["closed"]) % {"series": name}


def points(store: Store, t: dict | None, f: Fields) -> str:
    changes = {key: _optional(f, key, key) for key in ("win", "participation", "places", "beat")}
    if all(v is None for v in changes.values()):
        raise BadForm(_(WORDS["nothing"]))
    name = f.text("table", WORDS["table"], 40)
    version, moved = season.change_points(store, name, **changes)
    return _(WORDS["version"]) % {"table": name, "version": version} + " " + (
        _(WORDS["moved"]) % {"series": ", ".join(moved)} if moved else _(WORDS["no_move"]))


def prize_money(store: Store, t: dict | None, f: Fields) -> str:
    t = _tournament(t)
    players = (f.whole("players", WORDS["players"], 1, 9999) if f.has("players")
               else len(store.players.all(t["id"])))
    settings = prize.settings_from(f.text("fee", WORDS["fee"], 20), players,
                                   f.form.get("federation", "0").strip() or "0",
                                   f.form.get("organiser", "0").strip() or "0",
                                   f.form.get("paid", "").strip() or "50,30,20",
                                   f.form.get("round", "").strip() or "1",
                                   {k: _(v) for k, v in LABELS.items()})
    printed = f.flag("print")
    store.series.save_prize(t["id"], settings, printed)
    return _(WORDS["printed"] if printed else WORDS["prize"])


STEPS: dict[str, Callable[[Store, dict | None, Fields], str]] = {
    "new": new, "add": add, "remove": remove, "close": close, "points": points,
    "prize": prize_money,
}


def run(store: Store, t: dict | None, step: str, form: dict[str, str]) -> str:
    """The step checked (stale?) and done: each season operation is one transaction of its
    own (all or nothing), the form read whole before it."""
    check(store, t, form)
    return STEPS[step](store, t, Fields(form))


__all__ = ["STEPS", "WORDS", "check", "run", "state", "StoreError"]
