"""A new tournament from the desk, as `pilkku tournament new NAME --game --race --rule
--format ...` then `pilkku tables N` make it: its name, game and race, the game's ruleset
options (rules_core's, each with its default first), the format with its options (checked by
the CLI's own check of them, cmd_prepare._format_plan), and the tables."""

from __future__ import annotations

import argparse
import json

from host.desk.forms import BadForm, Fields
from host.games import GAME_NAMES
from host.i18n import N_, _
from host.tournament import night
from host.tournament.cli.cmd_prepare import _format_plan
from host.tournament.formats.hakukaavio_places import DEFAULT
from host.tournament.store import Store
from host.tournament.store.tournaments import BOARD_LANGUAGES, TOURNAMENT_NAME_MAX
from rules_core import games

RACE_MAX = 1000  # rules_core.match's
TABLES_MAX = 99
# The formats in the order a director meets them (the values are the CLI's --format).
# (N_: English here and in a refusal's "choose ..."; the page shows them in its language)
FORMAT_WORDS = {"hakukaavio": N_("Hakukaavio (KaisaKaavio's draw)"),
                "single": N_("Single elimination"), "double": N_("Double elimination"),
                "groups": N_("Groups, then a knockout"), "round_robin": N_("Round robin")}
PLACING_WORDS = {"rounds": N_("rounds: by the round a player went out, then wins, then points"),
                 "wins": N_("wins: the winner, then everyone by wins, then points"),
                 "finalists": N_("finalists (KaisaKaavio §10)"),
                 "top3": N_("top 3 (KaisaKaavio §10)"), "cup": N_("cup (KaisaKaavio §10)")}
# The rules' options as the form says them (the names and values are the CLI's --rule's).
RULE_WORDS = {
    "break_scratch": N_("a foul on the opening break"),
    "break_scratch=seed": N_("-1, outside the three fouls (the seed's)"),
    "break_scratch=wpa": N_("an ordinary foul (WPA)"),
    "warning_required": N_("a warning at two fouls in a row"),
    "warning_required=true": N_("required"), "warning_required=false": N_("not required"),
    "fouls_cleared_by": N_("fouls in a row are cleared by"),
    "fouls_cleared_by=legal_shot": N_("any legal shot"),
    "fouls_cleared_by=pot": N_("a called ball pocketed"),
    "three_foul_extra": N_("points lost on the third foul in a row besides its own"),
    "ball_in_hand": N_("the cue ball after a foul"),
    "ball_in_hand=wpa": N_("where it lies; behind the head string after a scratch (WPA)"),
    "ball_in_hand=anywhere": N_("in hand anywhere"),
    "break_cushions": N_("object balls to cushions on the break"),
    "break_rule": N_("who breaks the next rack"),
    "break_rule=winner": N_("the rack's winner"), "break_rule=alternate": N_("in turns"),
    "break_rule=loser": N_("the rack's loser"),
    "break_decides_group": N_("one group's balls on the break give the breaker that group"),
    "break_decides_group=false": N_("no: the table stays open (WPA)"),
    "break_decides_group=true": N_("yes"),
    "winner_recorded": N_("the winner's points recorded"),
    "winner_recorded=race_to": N_("the race's (60)"),
    "winner_recorded=scored": N_("as scored"),
    "middle_twice": N_("a second straight middle kaisa in one inning"),
    "middle_twice=pass": N_("scores nothing and ends the inning"),
    "middle_twice=continue": N_("the inning goes on"),
    "foul_hand": N_("ball in hand after a cue ball foul"),
    "foul_hand=opponent": N_("for the incoming opponent"),
    "foul_hand=owner": N_("only for the owner of a ball that left the table"),
    "middle_kaisa_limit": N_("\"only 6\" for a kaisa into the middle"),
    "middle_kaisa_limit=kyyti_or_off_cushion": N_("by kyyti, or off a ball via a cushion"),
    "middle_kaisa_limit=via_cushion": N_("by kyyti or off a ball, only via a cushion"),
}
WORDS = {
    # (N_: every word here said in the page's language, translated where used)
    "name": N_("the tournament's name"),
    "game": N_("the game"),
    "race": N_("the race (racks or points to win)"),
    "format": N_("the format"),
    "knockout": N_("the round from which one loss eliminates"),
    "placings": N_("how the ranking places players"),
    "groups": N_("how many groups"),
    "advance": N_("how many of each group go on"),
    "tables": N_("the number of tables"),
    "rule": N_("the rule %(rule)s"),
    "made": N_("Tournament '%(name)s': %(game)s, race to %(race)d, %(format)s, tables 1 to "
               "%(tables)d. Next: its players."),
    "exists": N_("a tournament named '%(name)s' exists already: pick another name"),
    "followed": N_("The desk follows '%(tournament)s' (it was started with --tournament): "
                   "start pilkku desk again without it to run the new one."),
}


def rule_options() -> list[dict]:
    """Each game's ruleset options a form can choose: {"game", "name", "options": [(value
    sent, shown)]}, the default first (a point table is left to the CLI's --rule)."""
    shown = []
    for code in sorted(GAME_NAMES):
        for name, values in games.get(code).OPTIONS.items():
            if all(isinstance(v, (str, int, bool)) for v in values):
                shown.append({"game": code, "name": name, "field": "%s.%s" % (code, name),
                              "words": RULE_WORDS.get(name, name.replace("_", " ")),
                              "options": [(json.dumps(v), RULE_WORDS.get(
                                  "%s=%s" % (name, str(v).lower()), str(v).lower()))
                                          for v in values]})
    return shown


# Each language in its own name (the tournament's language: its boards and its texts to post).
LANGUAGE_NAMES = {"en": "English", "fi": "suomi", "sv": "svenska"}


def page() -> dict:
    """What the new tournament's form offers."""
    return {"games": GAME_NAMES, "formats": FORMAT_WORDS, "placings": PLACING_WORDS,
            "default_placing": DEFAULT, "rules": rule_options(), "name_max": TOURNAMENT_NAME_MAX,
            "race_max": RACE_MAX, "tables_max": TABLES_MAX, "languages": LANGUAGE_NAMES}


def _rules(f: Fields, game: str) -> dict:
    """The game's options chosen other than their defaults (as --rule NAME=VALUE)."""
    chosen = {}
    for option in rule_options():
        if option["game"] != game or not f.has(option["field"]):
            continue
        sent = dict(option["options"])
        value = f.choice(option["field"], _(WORDS["rule"]) % {"rule": option["name"]}, sent)
        if value != option["options"][0][0]:
            chosen[option["name"]] = json.loads(value)
    return chosen


def _format(f: Fields) -> dict:
    """The format and its options, checked as the CLI checks them."""
    name = f.choice("format", WORDS["format"], FORMAT_WORDS)
    knockout = f.whole("knockout_from", WORDS["knockout"], 2, 6) \
        if name == "hakukaavio" and f.has("knockout_from") else None
    placings = f.choice("placings", WORDS["placings"], PLACING_WORDS) \
        if name == "hakukaavio" and f.has("placings") else DEFAULT
    groups = f.whole("groups", WORDS["groups"], 1, 26) if name == "groups" else 2
    advance = f.whole("advance", WORDS["advance"], 1, 64) if name == "groups" else 2
    return _format_plan(argparse.Namespace(
        format=name, knockout_from=knockout, seeds=0, placings=placings,
        no_reset=name == "double" and not f.flag("reset"), groups=groups, advance=advance))


def new(store: Store, f: Fields, followed: str | None) -> str:
    """The tournament made, its format planned and its tables: what was done."""
    name = f.text("name", WORDS["name"], TOURNAMENT_NAME_MAX)
    game = f.choice("game", WORDS["game"], GAME_NAMES)
    race = f.whole("race", WORDS["race"], 1, RACE_MAX)
    rules = _rules(f, game)
    options = _format(f)
    tables = f.whole("tables", WORDS["tables"], 1, TABLES_MAX)
    lang = f.form.get("lang", "")  # (empty: not set, as without --board-lang)
    if lang:
        f.choice("lang", N_("the language"), {code: code for code in BOARD_LANGUAGES})
    if any(t["name"] == name for t in store.tournaments.all()):
        raise BadForm(_(WORDS["exists"]) % {"name": name})
    tid = night.new_tournament(store, name, game, race, rules)
    night.plan_format(store, tid, options.pop("format"), options)
    night.set_tables(store, tid, tables)
    if lang:
        store.tournaments.set_board_language(tid, lang)
    said = _(WORDS["made"]) % {"name": name, "game": _(GAME_NAMES[game]), "race": race,
                               "format": _(FORMAT_WORDS[f.form["format"]]).lower(),
                               "tables": tables}
    if followed is not None and followed != name:
        said += " " + _(WORDS["followed"]) % {"tournament": followed}
    return said
