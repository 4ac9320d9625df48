"""The hall's pages: a page key ("index", "tv", "draw", "schedule", "results", "stats",
"match/ID", "overlay/N") turned into HTML from the store (data.py) and the Jinja2 templates in
templates/. The same pages are served live (app.py) and written as static files (export.py);
every link is relative, so both work. `main(...)` renders only the part that the live page
swaps in when the server pushes an update.

Every page is made in one language (`lang`: en, fi, sv; host/i18n): the templates' words
through Jinja2's i18n extension, the words other modules make through words.shown, dates,
times and decimals through Babel's CLDR (host/i18n/formats.py)."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from host import i18n
from host.hall import data
from host.hall.words import shown
from host.i18n import N_, _, formats, pgettext
from host.tournament import stats
from host.tournament.store import Store

HERE = Path(__file__).parent
STATIC = HERE / "static"
TOP_PAGES = ("index", "tv", "draw", "tv-draw", "schedule", "results", "stats")
# A match by its id (digits, as the pages link it) or its code (an imported list's codes are
# any text up to 20 characters: no slash, no control character).
_KEY = re.compile(r"^(index|tv|draw|tv-draw|schedule|results|stats|"
                  r"match/[^/\x00-\x1f\x7f]{1,20}|overlay/[0-9]{1,4})$")
TITLES = {"index": N_("Tables"), "tv": N_("Tables"), "draw": N_("Standings and draw"),
          "tv-draw": N_("Draw"), "schedule": N_("Schedule"), "results": N_("Results"),
          "stats": N_("Statistics"), "match": N_("Match report"), "overlay": N_("Overlay")}
# Pages the director's browser sees with more: the schedule's Assign forms, the reasons the
# director gave (walkovers, withdrawals, corrections), which no one else sees.
DIRECTOR_PAGES = re.compile(r"^(schedule|results|match/.*)$")


class NoPage(LookupError):
    pass


def _average(value: Any) -> str:
    """An average kept as hundredths (avg_x100) with two decimals: 1.25, in Finnish 1,25."""
    if value is None:
        return "–"
    if i18n.language() == "en":  # no Babel to import for the English pages and the CLI
        sign = "-" if value < 0 else ""
        return "%s%d.%02d" % (sign, abs(value) // 100, abs(value) % 100)
    from decimal import Decimal

    return formats.decimal(Decimal(value) / 100)


def _duration(seconds: int) -> str:
    if seconds >= 3600:
        return _("%(hours)d h %(minutes)02d min") % {"hours": seconds // 3600,
                                                     "minutes": seconds % 3600 // 60}
    return _("%(minutes)d min %(seconds)02d s") % {"minutes": seconds // 60,
                                                   "seconds": seconds % 60}


def _verdict(verified: bool | None, kind: str | None = "board") -> str:
    if verified:
        return (_("verified: signed by the table's board") if kind in (None, "board")
                else _("verified: signed by the director"))
    if verified is False:
        return _("NOT verified: the signature does not match (not counted)")
    return _("unsigned (not counted)")


def _race(unit: str, race_to: Any) -> str:
    """The race: 'race to 5' (racks), 'race to 60' (points: Kaisa, 14.1), each as a club
    says it ('5 erävoittoon', 'pelataan 60 pisteeseen')."""
    if unit == "points":
        return pgettext("points", "race to %(race)s") % {"race": race_to}
    return _("race to %(race)s") % {"race": race_to}


def _local(value: str | int | None) -> str:
    """A time in the laptop's local time zone, to the minute: the store's ISO times (UTC)
    and a board's clock (seconds since 1970)."""
    if value is None or value == "":
        return "–"
    try:
        when = (datetime.fromtimestamp(value, timezone.utc) if isinstance(value, int)
                else datetime.fromisoformat(value))
    except (ValueError, OverflowError, OSError):
        return str(value)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    if i18n.language() == "en":
        return when.astimezone().strftime("%Y-%m-%d %H:%M")
    return formats.date_time(when.astimezone())


def _clock(value: int) -> str:
    """A board's time (seconds since 1970) as the hour and minute here."""
    when = datetime.fromtimestamp(value, timezone.utc).astimezone()
    return when.strftime("%H:%M") if i18n.language() == "en" else formats.time(when)


ENV = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                  autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
ENV.filters.update(average=_average, duration=_duration, local=_local, clock=_clock,
                   dash=lambda v: "–" if v is None else v, words=shown)
ENV.globals.update(verdict=_verdict, race=_race,
                   languages=[(code, i18n.SWITCH[code]) for code in i18n.LANGUAGES])
i18n.install(ENV)  # the page's language: the one `page` and `main` are called in


def valid_key(key: str) -> bool:
    return bool(_KEY.match(key))


def for_director(key: str) -> bool:
    """The page shows the director more than it shows anyone else."""
    return bool(DIRECTOR_PAGES.match(key))


def _context(store: Store, t: dict, key: str, now_ms: int) -> tuple[str, dict]:
    """The template and what it shows for a page key; NoPage if there is no such page."""
    if not valid_key(key):
        raise NoPage(key)
    kind, _, arg = key.partition("/")
    if kind in ("index", "tv"):
        return "index.html", {"cards": data.tables(store, t, now_ms),
                              "body_class": "tv" if kind == "tv" else ""}
    if kind == "overlay":
        card = next((c for c in data.tables(store, t, now_ms) if c["number"] == int(arg)),
                    None)
        if card is None:
            raise NoPage(key)
        return "overlay.html", {"c": card, "bare": True, "body_class": "overlay-page"}
    if kind == "draw":
        drawn = data.draw(store, t)
        return "draw.html", {"draw": drawn, "sides": data.sides(drawn["rounds"])}
    if kind == "tv-draw":
        drawn = data.draw(store, t)
        return "draw.html", {"draw": drawn, "sides": data.sides(data.tv_rounds(drawn["rounds"])),
                             "body_class": "tv tv-draw"}
    if kind == "schedule":
        return "schedule.html", {"matches": data.schedule(store, t),
                                 "tables": store.tables.numbers(t["id"])}
    if kind == "results":
        return "results.html", {"results": data.results(store, t),
                                "problems": store.results.problems(t["id"])}
    if kind == "stats":
        return "stats.html", {"rows": data.player_stats(store, t)}
    report = data.report(store, t, arg)
    if report is None:
        raise NoPage(key)
    return "match.html", {"report": report}


def _variables(store: Store, t: dict, key: str, now_ms: int, live: bool,
               director: bool, csrf: str = "") -> tuple[Any, dict]:
    name, given = _context(store, t, key, now_ms)
    variables = {"t": t, "page": key, "root": "../" if "/" in key else "", "live": live,
                 "director": director, "csrf": csrf if director else "",
                 "title": _(TITLES[key.partition("/")[0]]),
                 "bare": False, "body_class": "", "lang": i18n.language()}
    variables.update(given)
    return ENV.get_template(name), variables


def page(store: Store, t: dict, key: str, now_ms: int, live: bool = True,
         director: bool = False, version: int = 0, lang: str | None = None,
         csrf: str = "") -> str:
    """The whole page in `lang` (None: the language spoken now, e.g. the CLI's for
    `pilkku hall --export`); `version` is the server's update count it was rendered at
    (the live page skips a pushed update it already shows)."""
    with i18n.use(lang or i18n.language()):
        template, variables = _variables(store, t, key, now_ms, live, director, csrf)
        return template.render(variables, version=version)


def main(store: Store, t: dict, key: str, now_ms: int, director: bool = False,
         lang: str | None = None, csrf: str = "") -> str:
    """Only the page's <main>, as a live update swaps it in (the director's with its forms)."""
    with i18n.use(lang or i18n.language()):
        template, variables = _variables(store, t, key, now_ms, True, director, csrf)
        return "".join(template.blocks["main"](template.new_context(variables)))


def stats_csv(store: Store, t: dict) -> str:
    """The tournament's statistics per player as CSV (averages as decimals with a point, in
    every language: a file for programs, its columns named in English)."""
    with i18n.use("en"):
        return _stats_csv(store, t)


def _stats_csv(store: Store, t: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = ["player", "matches", "won"] + list(stats.KEYS)
    writer.writerow([c if c != "avg_x100" else "average" for c in columns])
    for row in data.player_stats(store, t):
        writer.writerow([(_average(row[c]) if c == "avg_x100" and row[c] is not None
                          else "" if row.get(c) is None else row[c]) for c in columns])
    return out.getvalue()


def keys(store: Store, t: dict) -> list[str]:
    """Every page of the tournament: the top pages, each match's report, each overlay."""
    return list(TOP_PAGES) + ["match/%d" % m["id"] for m in store.matches.all(t["id"])] + \
        ["overlay/%d" % n for n in store.tables.numbers(t["id"])]
