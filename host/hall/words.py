"""The hall's bridge to words made elsewhere in English: the round and stage names of the
draw (host/tournament/night/bracket.py, data.py), a match's status (night/status.py), how a
result came (marks.py), the ranking's title (night/ranking.py), the games' and formats' names.
Those modules give the same English to `pilkku bracket --json`, `pilkku matches` and the desk,
and the hall's data leans on it (data.sides groups rounds by their English names), so they
are translated here, as the page shows them: a whole word by the catalogue, a sentence with a
number in it by the pattern it was made from. English is shown as it came.

Phase 2 of issue 29 marks these words where they are written (docs/languages.md); each one
moved there leaves this table."""

from __future__ import annotations

import re

from host.i18n import N_, _, language

# Whole words: each is its own message in the catalogue.
WORDS = (
    # data.py: units, formats, round names, slots
    N_("points"), N_("racks"), N_("Round robin"), N_("Single elimination"),
    N_("Double elimination"), N_("Groups into a knockout"), N_("Hakukaavio"),
    N_("Match list"), N_("No draw yet"), N_("Matches"), N_("Final"), N_("Semi-finals"),
    N_("Quarter-finals"), N_("to be drawn"), N_("Winners' bracket and final"),
    N_("Losers' bracket"), N_("Groups"), N_("Knockout"),
    # data.py and night/status.py: a match's status
    N_("finished"), N_("waits for earlier matches"), N_("waiting"), N_("lost by both"),
    N_("void: did not count"),
    # host/games.py
    N_("8-ball"), N_("9-ball"), N_("14.1 continuous"), N_("Kaisa"),
    # marks.py
    N_("match log entered at the laptop"), N_("corrected by the director"), N_("walkover"),
    N_("entered by hand"), N_("void"), N_("void — did not count"),
    N_("lost by both — both absent"), N_("w.o."), N_("board"), N_("manual"),
    N_("correction"), N_("hand"),
    # night/bracket.py, night/ranking.py
    N_("Grand final"), N_("Grand final, bracket reset"), N_("final ranking"),
    N_("standings so far"),
    # formats/ranking.py: where a player went out (the ranking's "out")
    N_("final"), N_("semi-final"), N_("quarter-final"), N_("grand final"),
    N_("grand final, reset"),
)
_WORDS = frozenset(WORDS)

# Sentences with numbers or names in them: the English pattern, the message it stands for.
PATTERNS = tuple((re.compile(pattern), message) for pattern, message in (
    (r"Round (?P<number>\d+)", N_("Round %(number)s")),
    (r"Winners' round (?P<number>\S+)", N_("Winners' round %(number)s")),
    (r"Losers' round (?P<number>\S+)", N_("Losers' round %(number)s")),
    (r"Knockout round (?P<number>\S+)", N_("Knockout round %(number)s")),
    (r"Group (?P<group>\S+), round (?P<number>\S+)", N_("Group %(group)s, round %(number)s")),
    # formats/ranking.py: where a player went out
    (r"round (?P<number>\d+)", N_("round %(number)s")),
    (r"losers' round (?P<number>\d+)", N_("losers' round %(number)s")),
    (r"winners' round (?P<number>\d+)", N_("winners' round %(number)s")),
    (r"knockout round (?P<number>\d+)", N_("knockout round %(number)s")),
    (r"group place (?P<number>\d+)", N_("group place %(number)s")),
    (r"winner of (?P<match>.+)", N_("winner of %(match)s")),
    (r"playing at table (?P<table>\d+)", N_("playing at table %(table)s")),
    (r"finished at table (?P<table>\d+), result not in yet",
     N_("finished at table %(table)s, result not in yet")),
    (r"next at table (?P<table>\d+), not started", N_("next at table %(table)s, not started")),
    (r"queued at table (?P<table>\d+) \((?P<place>\d+)(st|nd|rd|th)\)",
     N_("queued at table %(table)s (number %(place)s in the queue)")),
    (r"hakukaavio \(one loss out from round (?P<round>\d+)\), (?P<count>\d+) players",
     N_("hakukaavio (one loss out from round %(round)s), %(count)s players")),
    (r"hakukaavio \(two losses out, to the end\), (?P<count>\d+) players",
     N_("hakukaavio (two losses out, to the end), %(count)s players")),
    (r"double elimination, (?P<count>\d+) players",
     N_("double elimination, %(count)s players")),
    (r"double elimination \(no bracket reset\), (?P<count>\d+) players",
     N_("double elimination (no bracket reset), %(count)s players")),
    (r"(?P<groups>\d+) groups, top (?P<top>\d+) to the knockout, (?P<count>\d+) players",
     N_("%(groups)s groups, top %(top)s to the knockout, %(count)s players")),
))


def shown(text: object) -> object:
    """`text` in the language of the page, if it is one of the words above; else as it is
    (a name, a score, anything not known here)."""
    if not isinstance(text, str) or language() == "en" or not text:
        return text
    if text in _WORDS:
        return _(text)
    for pattern, message in PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return _(message) % found.groupdict()
    return text
