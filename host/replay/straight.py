"""`pilkku replay` for 14.1 continuous: the match inning by inning, each inning closed by its
run and the score line, then each player's statistics."""

from __future__ import annotations

from collections.abc import Iterator

from host.i18n import _, language, ngettext
from host.replay import pool, words
from rules_core import matchlog


def render(doc: dict) -> Iterator[str]:
    """Lines of a 14.1 match as a referee reads it. Raises matchlog.BadLog on a bad log."""
    inning = None  # (turn number, shooter) of the inning being printed
    run = 0
    match = None
    for match, before, event in matchlog.steps(doc):
        if event is None:
            yield from words.header(match.state)
            continue
        after = match.state
        if event["t"] == "shot" and (before.inning, before.shooter) != inning:
            if inning is not None:
                yield _close(before, inning[1], run)
            inning = (before.inning, before.shooter)
            run = 0
            yield _("%(player)s, inning %(inning)d (%(score)s)") % {
                "player": words.name(before, before.shooter),
                "inning": before.stats[before.shooter]["innings"],
                "score": words.score_line(before)}
        run += _points(after, before.shooter) if event["t"] == "shot" else 0
        yield "  " + _describe(event, before, after)
    if match is None:
        return
    state = match.state
    if inning is not None:
        yield _close(state, inning[1], run)
    yield words.footer(state)
    for player in (0, 1):
        yield _player_line(state, player)


def _points(state, player) -> int:
    total = 0
    for note in state.notes:
        if note.startswith("points:%d:" % player):
            total += int(note.split(":")[2])
    return total


def _close(state, player, run) -> str:
    return "  = " + _("%(player)s's run %(run)d; %(score)s") % {
        "player": state.players[player], "run": run, "score": _score(state)}


def _score(state) -> str:
    return "%s %d : %d %s" % (state.players[0], state.score[0], state.score[1], state.players[1])


def average(state, player) -> str:
    """Points per inning with two decimals, in integer arithmetic as the board does it."""
    innings = state.stats[player]["innings"]
    if not innings:
        return "-"
    hundredths = (abs(state.score[player]) * 100 * 2 + innings) // (2 * innings)
    sign = "-" if state.score[player] < 0 and hundredths else ""
    return "%s%d.%02d" % (sign, hundredths // 100, hundredths % 100)


def _player_line(state, player) -> str:
    stats = state.stats[player]
    return _("%(player)s: %(points)d points in %(innings)d innings (average %(average)s), "
             "high run %(high)d, %(balls)d balls, %(fouls)d fouls, %(penalty)d penalty points"
             ) % {"player": state.players[player], "points": state.score[player],
                  "innings": stats["innings"], "average": _decimal(average(state, player)),
                  "high": state.runs[player]["high"], "balls": stats["balls"],
                  "fouls": stats["fouls"], "penalty": stats["penalty"]}


def _decimal(text: str) -> str:
    """1.25 as the language writes it (1,25 in Finnish and Swedish)."""
    return text if language() == "en" else text.replace(".", ",")


def _describe(event: dict, before, after) -> str:
    kind = event["t"]
    if kind == "shot":
        return _shot(event, before) + _outcome(after)
    if kind == "rack":
        return _("Rack %(number)d: %(placement)s") % {"number": after.rack,
                                                       "placement": _placement(after.placement)}
    if kind == "choose" and event["choice"] in ("accept", "rebreak"):
        who = words.name(before, before.shooter)
        if event["choice"] == "accept":
            return _("%(player)s accepts the table") % {"player": who} + _outcome(after)
        return _("%(player)s demands a re-break: %(breaker)s breaks again") % {
            "player": who, "breaker": words.name(after, after.shooter)}
    return pool.describe(event, before, after)


def _shot(event: dict, before) -> str:
    if before.breaking:
        kind = event.get("break", "?")
        what = _("safety break") if kind == "safety" else _("called break") \
            if kind == "called" else _("%(kind)s break") % {"kind": kind}
    else:
        what = _("safety") if event.get("safety") else _("shot")
    parts = pool.balls(event)
    if "cushions" in event:
        count = event["cushions"]
        said = {"count": count}
        if event.get("cue_cushion"):
            parts.append(ngettext("%(count)d object ball to a cushion, the cue ball too",
                                  "%(count)d object balls to a cushion, the cue ball too",
                                  count) % said)
        else:
            parts.append(ngettext("%(count)d object ball to a cushion, not the cue ball",
                                  "%(count)d object balls to a cushion, not the cue ball",
                                  count) % said)
    return "%s: %s" % (what, ", ".join(parts))


def _placement(placement) -> str:
    text = ngettext("%(count)d ball racked", "%(count)d balls racked",
                    placement["racked"]) % {"count": placement["racked"]}
    ball15 = {"head_spot": _("the 15th ball to the head spot"),
              "centre_spot": _("the 15th ball to the centre spot"),
              "behind_head": _("the 15th ball to in hand behind the head string")}
    cue = {"head_spot": _("cue ball on the head spot"),
           "centre_spot": _("cue ball on the centre spot"),
           "behind_head": _("cue ball in hand behind the head string")}
    if placement["ball15"]:
        text += "; " + ball15[placement["ball15"]]
    if placement["cue"]:
        text += "; " + cue[placement["cue"]]
    return text


def _outcome(after) -> str:
    return words.outcome(after, _phrase)


def _phrase(after, head: str, args: list[str]) -> str | None:
    """14.1's own notes; the rest are worded as in 8- and 9-ball."""
    if head == "points":
        return "+%s" % args[1]
    if head == "penalty":
        return "-%s" % args[1]
    if head == "three_fouls":
        return _("THIRD FOUL IN A ROW")
    if head == "rack_due":
        return _("14 down: rack")
    if head == "safety":
        return _("safety")
    if head in ("continue", "groups", "rebreak", "rack_won"):
        return ""  # not said in 14.1
    return None
