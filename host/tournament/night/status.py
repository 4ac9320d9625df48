"""What a match's state reads as, in words the director and the hall share: won, void, lost by
both, waiting, or where it stands at its table ("playing" only once its board has started it).
`pilkku matches`, the hall's schedule and the director's desk all say it this way: in English
as data (the hall translates it where it shows it: host/hall/words.py), or said in the
language spoken now (`said=True`: the CLI's text). The formats' names as the CLI says them in a
sentence (format_word) are here too."""

from __future__ import annotations

from host.i18n import N_, _, language, pgettext


def match_status(match: dict, queues: dict, started: dict[str, bool],
                 said: bool = False) -> str:
    """A row of store.matches.all: `queues` table -> its codes in order (store.tables
    .schedule), `started` code -> whether its board has finished it (store.live.started)."""
    if match.get("outcome") is not None:  # decided without a winner (schema v9)
        text = (N_("void: did not count") if match["outcome"] == "void"
                else N_("lost by both"))
        return _(text) if said else text
    if match["winner"] is not None:
        text = N_("won by %(winner)s %(high)d:%(low)d")
        return (_(text) if said else text) % {
            "winner": match["winner"], "high": max(match["score1"], match["score2"]),
            "low": min(match["score1"], match["score2"])}
    if match["table"] is not None:
        place = queues.get(match["table"], []).index(match["code"]) + 1
        return table_status(match["table"], place, started.get(match["code"]), said)
    text = (N_("waits for earlier matches") if None in (match["player1"], match["player2"])
            else N_("waiting"))
    return _(text) if said else text


def table_status(table: int, place: int, on_board: bool | None, said: bool = False) -> str:
    """Where a match queued at a table stands (`pilkku matches`, the hall's schedule):
    "playing" only once its board has started it (store.live.started: `on_board` False),
    finished there before its result is in (True); else its place in the table's queue."""
    if on_board is not None:
        text = (N_("finished at table %(table)d, result not in yet") if on_board
                else N_("playing at table %(table)d"))
    elif place == 1:
        text = N_("next at table %(table)d, not started")
    else:
        text = N_("queued at table %(table)d (%(place)s)")
    return (_(text) if said else text) % {
        "table": table, "place": ordinal(place, language() if said else "en")}


def ordinal(n: int, lang: str = "en") -> str:
    """2nd, 2. (Finnish), 2:a (Swedish)."""
    if lang == "fi":
        return "%d." % n
    last = n if n < 20 else n % 10 if n % 100 not in (11, 12) else 0
    if lang == "sv":
        return "%d:%s" % (n, "a" if last in (1, 2) else "e")
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th"))


def format_word(name: str | None) -> str:
    """A format's name as a sentence says it ("draws the double"), in the language spoken."""
    words = {"round_robin": pgettext("format", "round robin"),
             "single": pgettext("format", "single"),
             "bracket": pgettext("format", "bracket"),
             "double": pgettext("format", "double"),
             "groups": pgettext("format", "groups"),
             "hakukaavio": pgettext("format", "hakukaavio"),
             "list": pgettext("format", "list")}
    return words.get(name or "list", (name or "").replace("_", " "))
