"""A correction's plan (night/consequences.py) as the director reads it: text for the command
line, and a plain dict for `--json` and the director's desk.

The dict: {"match", "format", "change": {"winner", "score", "outcome"}, "before": {"players",
"winner", "score", "outcome"}, "played" (keep, void or null), "choice_needed",
"stands": [row], "redrawn": [row], "depends": [row + "state" ("played" | "in play"), "why",
"kept"], "new": [{"match", "round", "players"}], "queues": [{"table", "before", "after"}],
"keep_refused" (why keep is not possible, or null), "followed" (the words the correction's
entry carries)}; a row is {"match", "players", "table", "result"} (stands: also "was"/"now",
its round before and as replayed)."""

from __future__ import annotations

import re
from typing import Any

from host.i18n import N_, _
from host.tournament.night.how import CLI, in_words

# What followed a correction, as its entry in the store keeps it (English) and as it is said.
_FOLLOWED = {"redrawn": N_("%(match)s redrawn"), "kept": N_("%(match)s kept"),
             "voided": N_("%(match)s voided"), "new": N_("%(match)s new")}


def followed(plan: Any) -> str:
    """"R3-02 redrawn, R3-04 voided, R3-05 new" (empty: nothing followed): English, the words
    the correction's entry keeps in the store (followed_said says them)."""
    words = ["%s redrawn" % r["match"] for r in plan.redrawn]
    words += ["%s %s" % (r["match"], "kept" if plan.played == "keep" else "voided")
              for r in plan.depends]
    words += ["%s new" % r["match"] for r in plan.new]
    return ", ".join(words)


def followed_said(text: str) -> str:
    """followed()'s English words in the language spoken now."""
    said = []
    for word in text.split(", "):
        code, _space, what = word.rpartition(" ")
        said.append(_(_FOLLOWED[what]) % {"match": code} if what in _FOLLOWED else word)
    return ", ".join(said)


def plan_dict(plan: Any) -> dict:
    change = plan.change
    winner = None
    if change.outcome is None and change.winner is not None:
        winner = plan.before["players"][change.winner - 1]
    return {
        "match": plan.code, "format": plan.format,
        "change": {"winner": winner, "score": None if change.score is None else
                   list(change.score), "outcome": change.outcome},
        "before": dict(plan.before), "played": plan.played,
        "choice_needed": plan.choice_needed,
        "stands": [_clean(r) for r in plan.stands],
        "redrawn": [_clean(r) for r in plan.redrawn],
        "depends": [dict(_clean(r), why=r["why"] and in_words(r["why"], CLI))
                    if "why" in r else _clean(r) for r in plan.depends],
        "new": [{k: r[k] for k in ("match", "round", "players")} for r in plan.new],
        "queues": [dict(q) for q in plan.queues],
        "keep_refused": None if plan.keep_refused is None else in_words(
            plan.keep_refused, CLI),
        "followed": followed(plan),
    }


def same_plan(one: dict, two: dict) -> bool:
    """The two plans' dicts change the same (a board's score in "why" moves on meanwhile)."""
    def key(plan: dict) -> dict:
        return dict(plan, depends=[{k: v for k, v in r.items() if k != "why"}
                                   for r in plan.get("depends", [])])
    return key(one) == key(two)


def _clean(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("id", "index")}


def _pair(row: dict) -> str:
    return "%s %s" % (row["match"], " – ".join(str(p) for p in row["players"]))


def plan_text(plan: Any, wording: dict[str, str] = CLI) -> str:
    """The plan in the language spoken now."""
    lines = [_("What this correction changes:"), "  %s" % _change_line(plan)]
    if not (plan.stands or plan.redrawn or plan.depends or plan.new or plan.queues):
        lines.append("  " + _("Nothing else: no later match was drawn from it."))
        return "\n".join(lines)
    if plan.stands:
        lines.append("  " + _("Stands: %(matches)s") % {
            "matches": ", ".join(_stands(r) for r in plan.stands)})
    if plan.redrawn:
        lines.append("  " + _("Redrawn (not started): %(matches)s") % {
            "matches": ", ".join(_pair(r) for r in plan.redrawn)})
    if plan.new:
        lines.append("  " + _("New: %(matches)s") % {
            "matches": ", ".join(_pair(r) for r in plan.new)})
    if plan.depends:
        lines.append("  " + _("In play or played, drawn from the old result (%(choice)s):")
                     % {"choice": _choice(plan, wording)})
        for row in plan.depends:
            lines.append("    %s: %s" % (_pair(row), in_words(row["why"], wording)
                                          if row["why"] else row_said(row)))
        if plan.keep_refused:
            lines.append("    " + _("(keep is not possible: %(why)s)") % {
                "why": in_words(plan.keep_refused, wording)})
    if plan.queues:
        lines.append("  " + _("Tables whose queue changes: %(tables)s") % {"tables": "; ".join(
            _("table %(table)d: %(before)s -> %(after)s") % {
                "table": q["table"], "before": ", ".join(q["before"]) or _("nothing"),
                "after": ", ".join(q["after"]) or _("nothing")}
            for q in plan.queues)})
    if plan.choice_needed:
        lines.append("  " + _("(shown as if voided: the rest follows the choice)"))
    return "\n".join(lines)


_WON = re.compile(r"(?P<player>.+) won (?P<score1>\d+):(?P<score2>\d+)")


def row_said(row: dict) -> str:
    """A plan's row's result ("X won 5:3", "lost by both") or state ("played", "in play"),
    made in English as data, in the language spoken now."""
    text = row["result"] or row["state"]
    found = _WON.fullmatch(text)
    if found:
        return _("%(player)s won %(score1)s:%(score2)s") % found.groupdict()
    words = {"lost by both": N_("lost by both"), "played": N_("played"),
             "in play": N_("in play")}
    return _(words[text]) if text in words else text


def _choice(plan: Any, wording: dict[str, str]) -> str:
    if plan.played == "keep":
        return _("kept: they stand as played")
    if plan.played == "void":
        return _("voided: they do not count")
    return _("keep or void? %(how)s") % {"how": _(wording["keep_or_void"])}


def _stands(row: dict) -> str:
    text = _pair(row)
    if row.get("was") is not None and row.get("now") != row.get("was"):
        text += " " + _("(now round %(number)d)") % {"number": row["now"]}
    return text


def _change_line(plan: Any) -> str:
    before, change = plan.before, plan.change
    players = " – ".join(str(p) for p in before["players"])
    if before["winner"] is not None:
        was = _("%(player)s won %(score1)s:%(score2)s") % {
            "player": before["winner"], "score1": before["score"][0],
            "score2": before["score"][1]}
    elif before["outcome"]:
        was = {"void": _("void"), "both_lose": _("lost by both")}[before["outcome"]]
    else:
        was = _("no result")
    if change.outcome == "void":
        now = _("void")
    elif change.outcome == "both_lose":
        now = _("lost by both")
    else:
        score = change.score or (0, 0)
        now = _("%(player)s wins %(score1)s:%(score2)s") % {
            "player": before["players"][change.winner - 1], "score1": score[0],
            "score2": score[1]}
    return _("%(match)s %(players)s: %(now)s (was: %(was)s)") % {
        "match": plan.code, "players": players, "now": now, "was": was}
