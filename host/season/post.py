"""Text to post (docs/season.md): a tournament's invitation and its results as plain text a
director pastes into the federation's forum or an email. Read from the store as every reader
reads it: the tournament as the hall names it (hall/data.py), the final ranking of
night/ranking.py, each game's score as the hall marks it (hall/marks.py: w.o., void), the
prize money the director saved (season/prize.py). Every word is in TEXT below, so that the
tournament's language can be given to them in one place.

    invitation(store, tournament, details) -> str   details: date, time, place, fee,
                                                    registration, contact, note, series
    results(store, tournament, link=None, series=None) -> str   link: where the hall's
        export is; series: the series' table after the night follows
"""

from __future__ import annotations

from host.hall import data, marks
from host.season import prize as prizes
from host.season.series import parse_date, shown_date, table_of
from host.tournament.night.ranking import standings
from host.tournament.store import Store, StoreError

LINE_MAX = 200  # a typed detail (a place, a note)
SERIES_TOP = 10  # the series' places a results text lists
DETAILS = ("date", "time", "place", "fee", "registration", "contact", "note", "series")

TEXT = {
    "invitation": "INVITATION: %s",
    "game": "%s, %s, %s",
    "race_points": "played to %d points",
    "race_racks": "race to %d",
    "when": "When: %s",
    "at": "%s at %s",
    "where": "Where: %s",
    "fee": "Entry fee: %s",
    "registration": "Registration: %s",
    "contact": "Contact: %s",
    "welcome": "Welcome!",
    "results": "RESULTS: %s",
    "so_far": "(the standings so far: the tournament has not ended)",
    "placings": "Final placings:",
    "placing": "%d. %s",
    "withdrawn": " (withdrew)",
    "games": "Games:",
    "game_line": "%s  %s - %s  %s",
    "prize": "Prize money (pot %s):",
    "prize_line": "%d. %s %s",
    "series": "%s after this night (%s):",
    "series_line": "%d. %s %d",
    "not_in_series": "'%s' is not a night of the series '%s': add it first (pilkku series add "
                     "'%s' '%s')",
    "counts_for": "Counts for the ranking series %s.",
    "links": "Draw and results: %s/draw.html and %s/results.html",
    "no_link": "(the hall's pages: `pilkku hall --export DIR`, then give --link URL)",
    "detail": "%s: at most %d printable characters",
    "time": "%s: write it 18:00, not '%s'",
}


def _detail(what: str, text: str | None) -> str | None:
    if text is None:
        return None
    word = text.strip()
    if len(word) > LINE_MAX or not word.isprintable():
        raise StoreError(TEXT["detail"] % (what, LINE_MAX))
    return word or None


def _headline(t: dict) -> str:
    race = TEXT["race_points" if t["unit"] == "points" else "race_racks"] % t["race_to"]
    return TEXT["game"] % (t["game_name"], race, t["format_name"])


def invitation(store: Store, name: str | None, details: dict,
               names: dict[str, str] | None = None) -> str:
    """`details` by the CLI's options' names; a refusal calls each by `names` (the desk's
    labels), else by its option (--place)."""
    called = {key: "--" + key for key in DETAILS} | (names or {})
    t = data.tournament(store, name)
    planned = store.tournaments.plan(t["id"]).get("format")
    if t["format"] is None and planned:
        t["format_name"] = data.FORMAT_NAMES.get(planned, planned)
    day = parse_date(details.get("date"))
    clock = _detail(called["time"], details.get("time"))
    if clock and not (len(clock) <= 5 and clock.replace(":", "").replace(".", "").isdigit()):
        raise StoreError(TEXT["time"] % (called["time"], clock[:20]))
    lines = [TEXT["invitation"] % t["name"], "", _headline(t)]
    if day:
        when = shown_date(day)
        lines.append(TEXT["when"] % (TEXT["at"] % (when, clock) if clock else when))
    for key, what in (("place", "where"), ("registration", "registration"),
                      ("contact", "contact")):
        value = _detail(called[key], details.get(key))
        if value:
            lines.append(TEXT[what] % value)
    if details.get("fee") is not None:
        lines.append(TEXT["fee"] % prizes.money(prizes.cents(called["fee"], details["fee"])))
    if details.get("series") is not None:
        lines.append(TEXT["counts_for"] % store.series.get(details["series"])["name"])
    note = _detail(called["note"], details.get("note"))
    lines += ["", note] if note else []
    lines += ["", TEXT["welcome"]]
    return "\n".join(lines) + "\n"


def results(store: Store, name: str | None, link: str | None = None,
            series: str | None = None) -> str:
    """`series`: the series' table after this night (its top SERIES_TOP) follows the games."""
    t = data.tournament(store, name)
    ranked = standings(store, t["id"])
    lines = [TEXT["results"] % t["name"], _headline(t)]
    if not ranked["final"]:
        lines.append(TEXT["so_far"])
    lines += ["", TEXT["placings"]]
    for row in ranked["ranking"]:
        lines.append(TEXT["placing"] % (row["place"], row["player"])
                     + (TEXT["withdrawn"] if row.get("withdrawn") else ""))
    kinds = marks.kinds(store.results.all(t["id"]))
    games = [m for m in store.matches.all(t["id"]) if m["winner"] or m["outcome"]]
    if games:
        lines += ["", TEXT["games"]]
        one = max(len(m["player1"] or "") for m in games)
        two = max(len(m["player2"] or "") for m in games)
        for m in games:
            score = marks.mark(m, kinds.get(m["code"]))["score"]
            lines.append((TEXT["game_line"] % (m["code"], (m["player1"] or "").ljust(one),
                                               (m["player2"] or "").ljust(two), score)).rstrip())
    saved = store.series.prize(t["id"])
    if saved is not None:
        shared = prizes.split(saved["settings"], ranked["ranking"])
        lines += ["", TEXT["prize"] % prizes.money(shared["pot"])]
        lines += [TEXT["prize_line"] % (p["place"], p["player"], prizes.money(p["amount"]))
                  for p in shared["prizes"]]
    if series is not None:
        lines += [""] + _series_lines(store, series, t)
    url = _detail("--link", link)
    lines += ["", TEXT["links"] % (url.rstrip("/"), url.rstrip("/")) if url
              else TEXT["no_link"]]
    return "\n".join(lines) + "\n"


def _series_lines(store: Store, name: str, t: dict) -> list[str]:
    """The series' table as it stands after the night `t` (its top SERIES_TOP)."""
    held = {n["tournament_id"]: n for n in store.series.nights(store.series.get(name)["id"])}
    if t["id"] not in held:
        raise StoreError(TEXT["not_in_series"] % (t["name"], name, name, t["name"]))
    document = table_of(store, name, held[t["id"]]["played"])
    lines = [TEXT["series"] % (document["series"], shown_date(held[t["id"]]["played"]))]
    lines += [TEXT["series_line"] % (r["place"], r["name"], r["total"])
              for r in document["rows"][:SERIES_TOP]]
    return lines
