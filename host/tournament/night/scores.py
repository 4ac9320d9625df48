"""A score the director types (a result from a paper sheet, a corrected score): read, and
checked against the tournament's game before anything is stored.

    read_score("5:3") -> (5, 3, 0);  read_score("45v-35") -> (45, 35, 1)  (v: the winner)
    director_score(store, match, "45v-35", winner=None) -> (winner's slot, score1, score2)

Player 1's score comes first (`pilkku matches` shows who is player 1); ':' or '-' between.
A 'v' after a score marks the winner, as KaisaKaavio writes a game decided otherwise than at
the race (the opponent conceded, time ran out): `45v-35` or `35-45v`. Without it, the winner
is the one who reached the race (Kaisa: the recorded score, the winner's 60, rules_core/
kaisa.py `winner_recorded`); a level score needs the winner named (--winner)."""

from __future__ import annotations

import re

from host.i18n import N_, _
from host.tournament.night import how
from host.tournament.store import Store, StoreError

SCORE_MAX = 9999
# A score as typed: -?digits, an optional v, ':' or '-' (or an en dash), the same again.
_SCORE = re.compile(r"^\s*(-?\d{1,4})\s*([vV]?)\s*[:\-\u2013]\s*(-?\d{1,4})\s*([vV]?)\s*$")
HOW = N_("give the score as A:B, two whole numbers, player 1's first (e.g. 5:3); a 'v' after "
         "the winner's score marks a game decided otherwise than at the race (e.g. 45v:35)")


def read_score(text: str | tuple[int, int]) -> tuple[int, int, int]:
    """(score1, score2, marked): marked is the slot a 'v' names, 0 for none. A pair of
    numbers (from code) is taken as an unmarked score."""
    if isinstance(text, tuple):
        if len(text) == 2 and all(type(s) is int and -SCORE_MAX <= s <= SCORE_MAX
                                  for s in text):
            return text[0], text[1], 0
        raise StoreError(_(HOW))
    found = _SCORE.match(text or "") if isinstance(text, str) else None
    if found is None:
        raise StoreError(_("'%(found)s' is not a score: %(how)s") % {"found": str(text)[:40],
                                                                     "how": _(HOW)})
    one, v1, two, v2 = found.groups()
    if v1 and v2:
        raise StoreError(_("'%(found)s': mark only the winner's score with v") % {
            "found": text.strip()})
    return int(one), int(two), 1 if v1 else 2 if v2 else 0


def director_score(store: Store, match: dict, score: str | tuple[int, int] | None,
                   winner: str | None) -> tuple[int, int, int]:
    """The typed score checked against the game: (winner's slot, score1, score2).
    StoreError naming what is wrong and what to type."""
    if score is None:
        raise StoreError(_("%(how)s, or a match log with --log") % {"how": _(HOW)})
    one, two, marked = read_score(score)
    named = None if winner is None else store.players.slot_of(match, winner)
    if marked and named and marked != named:
        raise StoreError(_("the score marks player %(marked)d as the winner, --winner names "
                           "player %(named)d") % {"marked": marked, "named": named})
    t = store.tournaments.by_id(match["tournament_id"])
    slot = marked or named or (0 if one == two else 1 if one > two else 2)
    problem = _against_game(t, (one, two), slot, bool(marked or named))
    if problem:
        said = "%s %d:%d: %s" % (match["code"], one, two, problem)
        raise how.Refused(said) if "\x00" in said else StoreError(said)
    return slot, one, two


def _against_game(t: dict, score: tuple[int, int], slot: int, marked: bool) -> str | None:
    """Why the score cannot end a match of this tournament's game, or None."""
    race, game = t["race_to"], t["game"]
    if game != "kaisa" and min(score) >= race:  # (Kaisa's both at 60: the one with more won)
        return _("only one player can reach the race (%(race)d)") % {"race": race}
    if slot == 0:
        return (_("a level score needs %(how)s (or the winner's score marked v, e.g. "
                  "%(one)dv:%(two)d)") % {"how": how.way("winner"), "one": score[0],
                                          "two": score[1]})
    won, lost = score[slot - 1], score[2 - slot]
    low = -999 if game in ("14.1", "kaisa") else 0
    if min(score) < low:
        return _("scores are from %(low)d") % {"low": low}
    if game in ("8ball", "9ball"):
        if max(score) > race:
            return _("a race to %(race)d has no score above %(race)d") % {"race": race}
        if lost >= race:
            return _("the loser cannot have reached the race (%(race)d)") % {"race": race}
        if won < race and not marked:
            return _("neither reached the race (%(race)d): if the match was decided "
                     "otherwise, mark the winner with v (%(example)s)") % {
                "race": race, "example": _marked(score, slot)}
        return None
    if game == "kaisa":
        as_scored = t["rules"].get("winner_recorded") == "scored"
        if lost > race:
            return (_("Kaisa records the loser's points at most %(most)d: type %(most)d for "
                      "him") % {"most": race})
        if won > race and not as_scored:
            return _("Kaisa records the winner's %(race)d (the points played past it are not "
                     "counted): type %(example)s") % {"race": race,
                                                      "example": _with(score, slot, race)}
        if won < race and not marked:
            return _("neither reached %(race)d: if the game was decided otherwise (a "
                     "concession, time), mark the winner with v, e.g. %(example)s") % {
                "race": race, "example": _marked(score, slot)}
        return None
    # 14.1: the winner's last shot may take him past the race; the loser is below it.
    if lost >= race:
        return _("the loser cannot have reached the race (%(race)d)") % {"race": race}
    if won > race + 14:
        return _("a race to %(race)d ends at most at %(most)d (the last shot's balls)") % {
            "race": race, "most": race + 14}
    if won < race and not marked:
        return _("neither reached the race (%(race)d): if the match was decided "
                 "otherwise, mark the winner with v (%(example)s)") % {
            "race": race, "example": _marked(score, slot)}
    return None


def _marked(score: tuple[int, int], slot: int) -> str:
    return "%d%s:%d%s" % (score[0], "v" if slot == 1 else "", score[1],
                          "v" if slot == 2 else "")


def _with(score: tuple[int, int], slot: int, value: int) -> str:
    fixed = list(score)
    fixed[slot - 1] = value
    return "%d:%d" % (fixed[0], fixed[1])
