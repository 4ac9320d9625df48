"""A ranking series' operations (docs/season.md), as the CLI, the hall and the desk call them:
made, given its nights, its table at any date, closed (its table frozen), its point table
changed (open series only). Each checks what was typed and changes nothing on a refusal
(StoreError: its text says what to do).

    new_series(store, name, game, ...)       -> series id
    add_nights(store, series, tournaments=None, played=None)  -> [tournament names added]
    remove_night(store, series, tournament)
    table_of(store, series, until=None)      -> {"series", "closed", "until", "points",
                                                 "version", "best_of", "nights", "rows"}
    close(store, series)                     -> the frozen table
    change_points(store, name, **fields)     -> (version, [open series moved to it])
"""

from __future__ import annotations

import re
from datetime import date

from host.games import GAME_NAMES
from host.i18n import N_, _
from host.season import points as point_rules
from host.season.nights import night
from host.season.table import DEFAULT_TIE_BREAK, TIE_BREAKS, table
from host.tournament.night.ranking import standings
from host.tournament.store import Store, StoreError
from host.tournament.store.text import shown

NAME_MAX = 80
BEST_OF_MAX = 99
CARRY_MAX = 10
DEFAULT_POINTS = "default"

TEXT = {  # (N_: said in the language spoken where raised)
    "name": N_("a series' name is 1 to %(most)d printable characters (found '%(found)s')"),
    "game": N_("'%(game)s' is not a game pilkku knows (%(known)s)"),
    "date": N_("'%(found)s' is not a date: write it 25.2.2026 or 2026-02-25"),
    "dates": N_("the series ends (%(end)s) before it starts (%(start)s)"),
    "tie": N_("'%(found)s' is not a tie-break key (choose from: %(keys)s)"),
    "best": N_("best of N takes N from 1 to %(most)d, not '%(found)s'"),
    "other_game": N_("'%(tournament)s' is %(game)s, the series '%(series)s' is %(its_game)s"),
    "outside": N_("'%(tournament)s' was played on %(day)s, outside the series' dates "
                  "(%(start)s to %(end)s)"),
    "none": N_("no tournament to add: name one, or give the series dates and use --all"),
    "points_name": N_("a point table's name is 1 to 40 printable characters (found "
                      "'%(found)s')"),
    "carry_self": N_("a series cannot carry points over from itself"),
    "carry_without": N_("--carry-points says what the previous series' leaders carry: give "
                        "it with --carry SERIES"),
    "carry_points": N_("--carry-points: 1 to %(most)d numbers from 0 to 1000, e.g. 5,3,1"),
    "not_playing": N_("--person or --new names '%(name)s', who plays none of these nights"),
    "unlinked": N_("'%(tournament)s' has players not linked to people yet (%(players)s): "
                   "link them first (pilkku people link --tournament '%(tournament)s')"),
    "running": N_("'%(tournament)s' has not ended: close the series after it, or take it "
                  "out first (pilkku series remove '%(series)s' '%(tournament)s')"),
}
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})", re.ASCII)
_FINNISH = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", re.ASCII)


def parse_date(text: str | None) -> str | None:
    """'25.2.2026' or '2026-02-25' as an ISO date (None stays None)."""
    if text is None:
        return None
    word = text.strip()
    iso, finnish = _ISO.fullmatch(word), _FINNISH.fullmatch(word)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3])).isoformat()
        if finnish:
            return date(int(finnish[3]), int(finnish[2]), int(finnish[1])).isoformat()
    except ValueError:
        pass
    raise StoreError(_(TEXT["date"]) % {"found": shown(word, 20)})


def shown_date(iso: str | None) -> str:
    """An ISO date as Finnish clubs write it: 25.2.2026."""
    if not iso:
        return ""
    day = date.fromisoformat(iso[:10])
    return "%d.%d.%d" % (day.day, day.month, day.year)


def _name(text: str, limit: int, message: str) -> str:
    name = text.strip()
    if not name or len(name) > limit or not name.isprintable():
        raise StoreError(_(message) % {"found": shown(name), "most": limit})
    return name


def new_series(store: Store, name: str, game: str, *, date_from: str | None = None,
               date_to: str | None = None, points_name: str = DEFAULT_POINTS,
               best_of: int | None = None, tie_break: list[str] | None = None,
               carry_from: str | None = None, carry_points: list[int] | None = None) -> int:
    name = _name(name, NAME_MAX, TEXT["name"])
    points_name = _name(points_name, 40, TEXT["points_name"])
    if game not in GAME_NAMES:
        raise StoreError(_(TEXT["game"]) % {"game": shown(game, 20),
                                            "known": ", ".join(sorted(GAME_NAMES))})
    start, end = parse_date(date_from), parse_date(date_to)
    if start and end and end < start:
        raise StoreError(_(TEXT["dates"]) % {"end": shown_date(end), "start": shown_date(start)})
    keys = DEFAULT_TIE_BREAK if tie_break is None else tie_break
    for key in keys:
        if key not in TIE_BREAKS:
            raise StoreError(_(TEXT["tie"]) % {"found": shown(key, 20),
                                               "keys": ", ".join(TIE_BREAKS)})
    if best_of is not None and not 1 <= best_of <= BEST_OF_MAX:
        raise StoreError(_(TEXT["best"]) % {"most": BEST_OF_MAX, "found": best_of})
    if carry_points is not None and carry_from is None:
        raise StoreError(_(TEXT["carry_without"]))
    carry: dict = {}
    with store.db.transaction():
        if carry_from is not None:
            if carry_from.strip() == name:
                raise StoreError(_(TEXT["carry_self"]))
            source = store.series.get(carry_from.strip())
            carry = {"from": source["id"], "points": _carry_points(carry_points or [3, 2, 1])}
        try:
            version = store.series.points(points_name)["version"]
        except StoreError:
            if points_name != DEFAULT_POINTS:
                raise
            version, _moved = store.series.set_points(points_name, dict(point_rules.DEFAULT))
        return store.series.new({"name": name, "game": game, "date_from": start,
                                 "date_to": end, "points_name": points_name,
                                 "points_version": version, "best_of": best_of,
                                 "tie_break": list(keys), "carry": carry})


def _carry_points(values: list[int]) -> list[int]:
    if not values or len(values) > CARRY_MAX or any(v < 0 or v > 1000 for v in values):
        raise StoreError(_(TEXT["carry_points"]) % {"most": CARRY_MAX})
    return list(values)


def add_nights(store: Store, series_name: str, tournaments: list[str] | None = None,
               played: str | None = None, picks: dict[str, str] | None = None,
               new: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The tournaments named (None: every tournament of the series' game within its dates not
    in it yet) added as nights, each on `played` or the day it was made; their players are
    linked to the people they are (store/people.py link_tournament: `picks` name -> '#id',
    `new` names that are new people, for the nights that have such a player). All or none."""
    day = parse_date(played)
    added: list[str] = []
    playing: set[str] = set()
    with store.db.transaction():
        series = store.series.get(series_name)
        store.series.refuse_closed(series)
        if tournaments is None:
            if not (series["date_from"] or series["date_to"]):
                raise StoreError(_(TEXT["none"]))
            have = {n["tournament_id"] for n in store.series.nights(series["id"])}
            chosen = [store.tournaments.get(t["name"]) for t in store.tournaments.all()
                      if t["id"] not in have and t["game"] == series["game"]
                      and _within(series, day or t["created"][:10])]
        else:
            chosen = [store.tournaments.get(name) for name in tournaments]
        if not chosen:
            raise StoreError(_(TEXT["none"]))
        have = {n["tournament_id"] for n in store.series.nights(series["id"])}
        for tournament in chosen:
            if tournament["id"] in have:
                store.series.add_night(series, tournament, "")  # says it is in already
            when = day or tournament["created"][:10]
            if tournament["game"] != series["game"]:
                raise StoreError(_(TEXT["other_game"]) % {
                    "tournament": shown(tournament["name"]), "game": tournament["game"],
                    "series": shown(series["name"]), "its_game": series["game"]})
            if not _within(series, when):
                raise StoreError(_(TEXT["outside"]) % {
                    "tournament": shown(tournament["name"]), "day": shown_date(when),
                    "start": shown_date(series["date_from"]) or "-",
                    "end": shown_date(series["date_to"]) or "-"})
            store.series.add_night(series, tournament, when)
            names = {p["name"] for p in store.players.all(tournament["id"])}
            playing |= names
            store.people.link_tournament(
                tournament["id"], [n for n in new if n in names],
                {n: who for n, who in (picks or {}).items() if n in names})
            added.append(tournament["name"])
        for name in [*(picks or {}), *new]:
            if name not in playing:
                raise StoreError(_(TEXT["not_playing"]) % {"name": shown(name)})
    return added


def _within(series: dict, when: str) -> bool:
    return ((not series["date_from"] or when >= series["date_from"])
            and (not series["date_to"] or when <= series["date_to"]))


def remove_night(store: Store, series_name: str, tournament: str) -> None:
    with store.db.transaction():
        store.series.remove_night(store.series.get(series_name),
                                  store.tournaments.get(tournament))


def table_of(store: Store, series_name: str, until: str | None = None) -> dict:
    """The series' table after the nights played on or before `until` (None: all); a closed
    series' whole table is the one frozen when it closed."""
    series = store.series.get(series_name)
    day = parse_date(until)
    points = store.series.points(series["points_name"], series["points_version"])
    nights = [n for n in store.series.nights(series["id"]) if day is None or n["played"] <= day]
    if series["frozen"] is not None and day is None:
        rows = series["frozen"]
    else:
        rows = _computed(store, series, points["points"], nights)
    unlinked = [{"tournament": n["tournament"], "players": linked}
                for n in nights if (linked := _unlinked(store, n["tournament_id"]))]
    return {"series": series["name"], "game": series["game"], "closed": series["closed"],
            "until": day, "points": points["points"], "points_name": points["name"],
            "version": points["version"], "best_of": series["best_of"],
            "tie_break": series["tie_break"], "nights": nights, "rows": rows,
            "unlinked": unlinked}


def _unlinked(store: Store, tournament_id: int) -> list[str]:
    persons = store.people.of_tournament(tournament_id)
    return [p["name"] for p in store.players.all(tournament_id) if persons[p["id"]] is None]


def _computed(store: Store, series: dict, points: dict, nights: list[dict]) -> list[dict]:
    facts = [night(store, n["tournament_id"], n["played"]) for n in nights]
    carried = _carried(store, series)
    names = {p["id"]: p["name"] for p in store.people.all()}
    for fact in facts:  # (players not linked yet: their own rows, by their names)
        names.update({p["person"]: p["name"] for p in fact["placings"] if p["person"] < 0})
    for person in carried:
        names.setdefault(person, store.people.get(person)["name"])
    return table(facts, points, names, series["best_of"], series["tie_break"], carried)


def _carried(store: Store, series: dict) -> dict[int, int]:
    """The previous series' leaders' points carried over (shared places: each the place's)."""
    carry = series["carry"]
    if not carry:
        return {}
    source = store.series.by_id(carry["from"])
    rows = table_of(store, source["name"])["rows"]
    carried: dict[int, int] = {}
    for row in rows:
        if row["place"] <= len(carry["points"]):
            person = store.people.current(row["person"])  # joined since: the one kept
            carried[person] = carried.get(person, 0) + carry["points"][row["place"] - 1]
    return carried


def close(store: Store, series_name: str) -> list[dict]:
    """The series closed: its table as it stands now is kept and shown from then on. Refused
    while one of its nights is still being played (it would be frozen without it)."""
    document = table_of(store, series_name)
    if document["unlinked"]:
        first = document["unlinked"][0]
        raise StoreError(_(TEXT["unlinked"]) % {"tournament": shown(first["tournament"]),
                                                "players": ", ".join(first["players"][:5])})
    for held in document["nights"]:
        if not standings(store, held["tournament_id"])["final"]:
            raise StoreError(_(TEXT["running"]) % {"tournament": shown(held["tournament"]),
                                                   "series": shown(series_name)})
    rows = document["rows"]
    with store.db.transaction():
        store.series.close(store.series.get(series_name), rows)
    return rows


def change_points(store: Store, name: str, **fields) -> tuple[int, list[str]]:
    """A new version of the point table `name` with `fields` (as typed) changed; the open
    series counting by it move to it, the closed ones keep theirs."""
    name = _name(name, 40, TEXT["points_name"])
    with store.db.transaction():
        try:
            base = store.series.points(name)["points"]
        except StoreError:
            base = dict(point_rules.DEFAULT)
        table = point_rules.changed(base, **fields)
        return store.series.set_points(name, table)
