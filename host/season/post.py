"""Text to post (docs/season.md): a tournament's invitation and its results as plain text a
director pastes into the federation's forum or an email. Read from the store as every reader
reads it: the tournament as the hall names it (hall/data.py), the final ranking of
night/ranking.py, each game's score as the hall marks it (hall/marks.py: w.o., void), the
prize money the director saved (season/prize.py). The texts are in the tournament's language
(language_of: its boards' language, else the asker's), whatever the CLI's or the page's.

    invitation(store, tournament, details) -> str   details: date, time, place, fee,
                                                    registration, contact, note, series
    results(store, tournament, link=None, series=None) -> str   link: where the hall's
        export is; series: the series' table after the night follows
"""

from __future__ import annotations

from host import i18n
from host.hall import data, marks
from host.hall.words import shown as word
from host.i18n import _
from host.season import prize as prizes
from host.season.series import parse_date, shown_date, table_of
from host.tournament.night.ranking import standings
from host.tournament.store import Store, StoreError
from host.tournament.store.tournaments import BOARD_LANG

LINE_MAX = 200  # a typed detail (a place, a note)
SERIES_TOP = 10  # the series' places a results text lists
DETAILS = ("date", "time", "place", "fee", "registration", "contact", "note", "series")



def language_of(store: Store, tournament_id: int) -> str:
    """The tournament's language (its boards' and its texts': `pilkku tournament language`,
    the desk's setup); a tournament without one set speaks the language of the one asking
    (the CLI's, the page's)."""
    chosen = store.tournaments.plan(tournament_id).get(BOARD_LANG)
    return chosen if chosen in i18n.LANGUAGES else i18n.language()


def _detail(what: str, text: str | None) -> str | None:
    if text is None:
        return None
    word = text.strip()
    if len(word) > LINE_MAX or not word.isprintable():
        raise StoreError(_("%(what)s: at most %(most)d printable characters")
                         % {"what": what, "most": LINE_MAX})
    return word or None


def _headline(t: dict) -> str:
    race = (_("played to %(race)d points") if t["unit"] == "points" else
            _("race to %(race)d")) % {"race": t["race_to"]}
    return "%s, %s, %s" % (word(t["game_name"]), race, word(t["format_name"]))


def invitation(store: Store, name: str | None, details: dict,
               names: dict[str, str] | None = None) -> str:
    """`details` by the CLI's options' names; a refusal (in the asker's language) calls each
    by `names` (the desk's labels), else by its option (--place)."""
    called = {key: "--" + key for key in DETAILS} | (names or {})
    t = data.tournament(store, name)
    planned = store.tournaments.plan(t["id"]).get("format")
    if t["format"] is None and planned:
        t["format_name"] = data.FORMAT_NAMES.get(planned, planned)
    day = parse_date(details.get("date"))
    clock = _detail(called["time"], details.get("time"))
    if clock and not (len(clock) <= 5 and clock.replace(":", "").replace(".", "").isdigit()):
        raise StoreError(_("%(what)s: write it 18:00, not '%(found)s'")
                         % {"what": called["time"], "found": clock[:20]})
    given = {key: _detail(called[key], details.get(key))
             for key in ("place", "registration", "contact", "note")}
    fee = (None if details.get("fee") is None
           else prizes.money(prizes.cents(called["fee"], details["fee"])))
    counts = (None if details.get("series") is None
              else store.series.get(details["series"])["name"])
    with i18n.use(language_of(store, t["id"])):
        lines = [_("INVITATION: %(tournament)s") % {"tournament": t["name"]}, "", _headline(t)]
        if day:
            when = shown_date(day)
            lines.append(_("When: %(day)s") % {"day": _("%(day)s at %(time)s") % {
                "day": when, "time": clock} if clock else when})
        if given["place"]:
            lines.append(_("Where: %(place)s") % {"place": given["place"]})
        if given["registration"]:
            lines.append(_("Registration: %(how)s") % {"how": given["registration"]})
        if given["contact"]:
            lines.append(_("Contact: %(who)s") % {"who": given["contact"]})
        if fee is not None:
            lines.append(_("Entry fee: %(fee)s") % {"fee": fee})
        if counts is not None:
            lines.append(_("Counts for the ranking series %(series)s.") % {"series": counts})
        lines += ["", given["note"]] if given["note"] else []
        lines += ["", _("Welcome!")]
    return "\n".join(lines) + "\n"


def results(store: Store, name: str | None, link: str | None = None,
            series: str | None = None) -> str:
    """`series`: the series' table after this night (its top SERIES_TOP) follows the games."""
    t = data.tournament(store, name)
    url = _detail("--link", link)
    series_rows = None if series is None else _series_rows(store, series, t)
    with i18n.use(language_of(store, t["id"])):
        return _results(store, t, url, series_rows)


def _results(store: Store, t: dict, url: str | None, series_rows: tuple | None) -> str:
    ranked = standings(store, t["id"])
    lines = [_("RESULTS: %(tournament)s") % {"tournament": t["name"]}, _headline(t)]
    if not ranked["final"]:
        lines.append(_("(the standings so far: the tournament has not ended)"))
    lines += ["", _("Final placings:")]
    for row in ranked["ranking"]:
        lines.append("%d. %s" % (row["place"], row["player"])
                     + (" " + _("(withdrew)") if row.get("withdrawn") else ""))
    kinds = marks.kinds(store.results.all(t["id"]))
    games = [m for m in store.matches.all(t["id"]) if m["winner"] or m["outcome"]]
    if games:
        lines += ["", _("Games:")]
        one = max(len(m["player1"] or "") for m in games)
        two = max(len(m["player2"] or "") for m in games)
        for m in games:
            score = word(marks.mark(m, kinds.get(m["code"]))["score"])
            lines.append(("%s  %s - %s  %s" % (m["code"], (m["player1"] or "").ljust(one),
                                               (m["player2"] or "").ljust(two), score)).rstrip())
    saved = store.series.prize(t["id"])
    if saved is not None:
        shared = prizes.split(saved["settings"], ranked["ranking"])
        lines += ["", _("Prize money (pot %(pot)s):") % {"pot": prizes.money(shared["pot"])}]
        lines += ["%d. %s %s" % (p["place"], p["player"], prizes.money(p["amount"]))
                  for p in shared["prizes"]]
    if series_rows is not None:
        series_name, played, rows = series_rows
        lines += ["", _("%(series)s after this night (%(day)s):") % {
            "series": series_name, "day": shown_date(played)}]
        lines += ["%d. %s %d" % (r["place"], r["name"], r["total"]) for r in rows]
    lines += ["", _("Draw and results: %(draw)s and %(results)s") % {
        "draw": url.rstrip("/") + "/draw.html", "results": url.rstrip("/") + "/results.html"}
        if url else _("(the hall's pages: `pilkku hall --export DIR`, then give --link URL)")]
    return "\n".join(lines) + "\n"


def _series_rows(store: Store, name: str, t: dict) -> tuple[str, str, list[dict]]:
    """The series' table as it stands after the night `t` (its top SERIES_TOP)."""
    held = {n["tournament_id"]: n for n in store.series.nights(store.series.get(name)["id"])}
    if t["id"] not in held:
        raise StoreError(
            _("'%(tournament)s' is not a night of the series '%(series)s': add it first "
              "(pilkku series add '%(series)s' '%(tournament)s')")
            % {"tournament": t["name"], "series": name})
    document = table_of(store, name, held[t["id"]]["played"])
    return document["series"], held[t["id"]]["played"], document["rows"][:SERIES_TOP]
