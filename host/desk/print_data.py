"""What the printouts show (host/desk/printouts.py serves them, templates/print_*.html lay
them out): score sheets for chosen matches or blank ones, the draw, and the night's results
with the ranking. Read from the store through the readers the hall and the CLI use: the draw
and the results as the hall reads them (host/hall/data.py), how each result came in the hall's
words (host/hall/marks.py), the ranking of night/ranking.py. No rule of its own: a sheet's
boxes follow the tournament's game and race, nothing more.

    sheets(store, t, codes)        -> {"sheets", "per_page", "kind", ...}   PrintError: unknown
    blank(t, game, count)          -> the same, names and match left empty
    draw(store, t)                 -> {"sides", "landscape", "grid", "groups", ...}
    results(store, t)              -> {"results", "ranking", "title", "final", "not_counted"}
"""

from __future__ import annotations

from host.games import GAME_NAMES
from host.hall import data, marks
from host.i18n import _
from host.season import prize
from host.tournament.night.ranking import standings
from host.tournament.store import Store
from host.tournament.store.text import shown

SHEETS_MAX = 200  # sheets in one printout (50 pages of four): a night's round, not a flood
# How a game is scored on paper: racks won (boxes to cross), or points inning by inning.
KINDS = {"8ball": "racks", "9ball": "racks", "kaisa": "kaisa", "14.1": "straight"}
PER_PAGE = {"racks": 4, "kaisa": 2, "straight": 2}  # sheets on an A4 page (cut apart)
INNINGS = 60  # inning boxes of a points sheet: three rows of 20
RACK_BOXES_MAX = 25  # a longer race gets a line to write the racks on, not boxes
BOXES_MM = 120  # the width the boxes share (the page's 190 mm less the name and the total)
GRID_MAX = 16  # a round robin's grid (player against player) up to this many players
TREE_MAX = 8  # a bracket's rounds side by side up to this many games in its first round
OPEN = "open"  # ?matches=open: every match not decided whose players are known


class PrintError(Exception):
    """A printout that cannot be made as asked: `text` says why and what to ask instead."""

    def __init__(self, text: str, status: int = 400) -> None:
        super().__init__(text)
        self.text = text
        self.status = status


def _game(t: dict, game: str) -> dict:
    """The game's name, how it is scored on paper, and its race when it is the tournament's
    (a blank sheet of another game leaves the race to be written in)."""
    kind = KINDS[game]
    race = t["race_to"] if game == t["game"] else None
    note = None
    if kind == "kaisa":
        as_scored = game == t["game"] and t["rules"].get("winner_recorded") == "scored"
        to = race or _("the race")  # in the printout's language (the page's)
        note = (_("The winner's points are recorded as scored, the loser's at most %(race)s. "
                  "A game decided otherwise than at %(race)s (a concession, time): the "
                  "winner's points with v, e.g. 45v-35.") if as_scored else
                _("The winner's points are recorded as %(race)s, the loser's at most "
                  "%(race)s. A game decided otherwise than at %(race)s (a concession, time): "
                  "the winner's points with v, e.g. 45v-35.")) % {"race": to}
    boxes = list(range(1, race + 1)) if kind == "racks" and race and race <= RACK_BOXES_MAX \
        else []
    return {"game": game, "game_name": GAME_NAMES[game], "kind": kind, "race": race,
            "boxes": boxes, "box_mm": min(8.0, BOXES_MM / max(1, len(boxes))),
            "innings": [list(range(first, first + 20)) for first in range(1, INNINGS, 20)],
            "note": note, "per_page": PER_PAGE[kind]}


def _stages(store: Store, t: dict) -> dict[str, str]:
    """Match code -> the round it belongs to, as the draw names it."""
    return {m["code"]: r["name"] for r in data.draw(store, t)["rounds"] for m in r["matches"]}


def sheets(store: Store, t: dict, codes: list[str]) -> dict:
    """Score sheets for the matches named (in the order named), with their players, round
    and table; OPEN alone names every match not decided whose players are known. PrintError
    (404) names a code the tournament has not."""
    matches = store.matches.all(t["id"])
    by_code = {m["code"]: m for m in matches}
    if codes == [OPEN]:
        codes = [m["code"] for m in matches if m["winner"] is None and m["outcome"] is None
                 and None not in (m["player1"], m["player2"])]
        if not codes:
            raise PrintError("no match is waiting to be played in %s: nothing to print"
                             % t["name"], 404)
    if len(codes) > SHEETS_MAX:
        raise PrintError("at most %d sheets at a time (asked for %d)" % (SHEETS_MAX, len(codes)))
    unknown = [c for c in codes if c not in by_code]
    if unknown:
        more = " and %d more" % (len(unknown) - 5) if len(unknown) > 5 else ""
        raise PrintError("no match %s%s in %s (`pilkku matches` lists them)" % (
            ", ".join("'%s'" % shown(c, 20) for c in unknown[:5]), more, t["name"]), 404)
    stages = _stages(store, t)
    made = []
    for code in codes:
        m = by_code[code]
        made.append({"code": code, "stage": stages.get(code, ""),
                     "table": m["table"] if m["winner"] is None and m["outcome"] is None
                     else None,
                     "players": [m["player1"] or "", m["player2"] or ""]})
    return dict(_game(t, t["game"]), t=t, sheets=made, blank=False)


def blank(t: dict, game: str | None, count: int) -> dict:
    """`count` sheets with nothing filled in but the game (and its race, when it is the
    tournament's)."""
    game = game or t["game"]
    if game not in KINDS:
        raise PrintError("game is one of %s (got '%s')" % (", ".join(KINDS), shown(game, 20)))
    if not 1 <= count <= SHEETS_MAX:
        raise PrintError("count is a whole number from 1 to %d (got %d)" % (SHEETS_MAX, count))
    made = [{"code": "", "stage": "", "table": None, "players": ["", ""]}] * count
    return dict(_game(t, game), t=t, sheets=made, blank=True)


def draw(store: Store, t: dict) -> dict:
    """The draw as the hall reads it, in sides (a double's winners' side with its final,
    then its losers' side; groups, then the knockout), each laid out as a tree of rounds side
    by side (a bracket or a double small enough for a landscape page) or round after round
    (any draw: boxes that flow onto as many pages as they need). A round robin also as its
    grid of player against player."""
    drawn = data.draw(store, t)
    sides = data.sides(drawn["rounds"])
    tree = t["format"] in ("bracket", "double") and all(
        len(side["rounds"]) <= 8 and max(len(r["matches"]) for r in side["rounds"]) <= TREE_MAX
        for side in sides)
    grid = _grid(store, t) if t["format"] == "round_robin" else None
    return {"t": t, "sides": sides, "tree": tree,
            "landscape": tree or (grid is not None and len(grid["players"]) > 8),
            "grid": grid, "groups": drawn.get("groups") or [],
            "description": drawn.get("description"), "champion": drawn.get("champion"),
            "title": drawn["title"], "ranking": drawn["ranking"]}


def _grid(store: Store, t: dict) -> dict | None:
    """A round robin's cross table: each player's row shows his score against each column's
    player (his own first), "won w.o." / "lost w.o." for a walkover, the hall's word for a
    void or a match lost by both; None over GRID_MAX players (the rounds show it then)."""
    players = [p["name"] for p in store.players.all(t["id"])]
    if len(players) > GRID_MAX:
        return None
    kinds = marks.kinds(store.results.all(t["id"]))
    cells: dict[tuple[str, str], str] = {}
    for m in store.matches.all(t["id"]):
        mark = marks.mark(m, kinds.get(m["code"]))
        one, two = m["player1"], m["player2"]
        if not mark["decided"] or None in (one, two):
            continue
        if not mark["played"] and m["winner"] is not None:  # a walkover
            won, lost = _("won w.o."), _("lost w.o.")  # the printout's language
            cells[one, two] = won if m["winner"] == one else lost
            cells[two, one] = won if m["winner"] == two else lost
        elif not mark["played"]:
            cells[one, two] = cells[two, one] = mark["score"]
        else:
            cells[one, two] = "%s–%s" % tuple(mark["slots"])
            cells[two, one] = "%s–%s" % tuple(reversed(mark["slots"]))
    return {"players": players,
            "rows": [[None if a == b else cells.get((a, b), "") for b in players]
                     for a in players]}


def results(store: Store, t: dict) -> dict:
    """Every current result as the hall shows it (a walkover "w.o.", a void, a score entered
    by hand marked), a result that does not count marked, and the ranking (final, or so far)
    that `pilkku standings` prints."""
    ranked = standings(store, t["id"])
    not_counted = {r["match"]: r["check"] for r in ranked["not_counted"]}
    shown_results = []
    for r in data.results(store, t):
        how = r["mark"]["how"]
        if r["match"] in not_counted:
            how = "; ".join(w for w in (how, "not counted: %s" % not_counted[r["match"]]
                                        .lower()) if w)
        shown_results.append(dict(r, how=how))
    return {"t": t, "results": shown_results, "ranking": ranked["ranking"],
            "ranking_title": ranked["title"], "final": ranked["final"],
            "unit": "points" if KINDS[t["game"]] != "racks" else "racks",
            "prize": prize.for_printout(store.series.prize(t["id"]), ranked["ranking"])}
