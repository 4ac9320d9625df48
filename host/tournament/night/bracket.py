"""A drawn format (double, groups, hakukaavio) as the players see it, read from the store:
every round's games with their results or tables, who went out in it, who is still in, the
group tables, and the ranking (night/ranking.py: the one every reader shows). `pilkku
bracket` prints it, its --json is it, and the hall's draw page lays it out."""

from __future__ import annotations

from host.i18n import _
from host.tournament.formats import ENGINES
from host.tournament.formats.groups import Groups
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.night.engine import engine_of
from host.tournament.night.ranking import standings
from host.tournament.night.status import format_word
from host.tournament.store import Store, StoreError

STAGES = {"W": "Winners' round %s", "L": "Losers' round %s", "K": "Knockout round %s"}


def _stage(fmt: str, match: dict) -> str:
    code = match["code"]
    if fmt == "hakukaavio":
        return "Round %d" % match["round"]
    if code.startswith("F-"):
        return "Grand final" if code == "F-1" else "Grand final, bracket reset"
    if code[0] in STAGES and (fmt == "double" or code[0] == "K"):
        return STAGES[code[0]] % code[1:].split("-")[0]
    return "Group %s, round %s" % (code[0], code.split("-")[1])


def _describe(fmt: str, engine) -> str:
    if fmt == "hakukaavio":
        kind = ("one loss out from round %d" % engine.knockout if engine.knockout
                else "two losses out, to the end")
        return "hakukaavio (%s), %d players" % (kind, engine.count)
    if fmt == "double":
        return "double elimination%s, %d players" % (
            "" if engine.reset else " (no bracket reset)", engine.count)
    return "%d groups, top %d to the knockout, %d players" % (
        len(engine.groups), engine.advance, engine.count)


def view(store: Store, t: dict) -> dict:
    """The draw as data, names not numbers (`pilkku bracket --json`, the hall's pages).
    "placings" is the ranking (so far while "finished" is false; "title" says which)."""
    if t["format"] not in ENGINES:
        raise StoreError(_("`pilkku bracket` shows a double, groups or hakukaavio draw; this "
                           "tournament is %(format)s: see `pilkku standings`") % {
            "format": format_word(t["format"]) if t["format"] else _("not drawn yet")})
    engine, numbers = engine_of(store, t["id"])
    names = {numbers[p["id"]]: p["name"] for p in store.players.all(t["id"]) if p["id"] in numbers}
    stages: dict[str, list[dict]] = {}
    for m in store.matches.all(t["id"]):
        stages.setdefault(_stage(t["format"], m), []).append(m)
    outs = _outs(t["format"], engine, names)
    finished = engine.finished()
    ranked = standings(store, t["id"])
    alive = [names[p] for p in engine.players_in()] if isinstance(engine, Hakukaavio) else []
    return {"tournament": t["name"], "format": t["format"],
            "description": _describe(t["format"], engine),
            "rounds": [{"stage": stage, "games": [_game(m) for m in games],
                        "out": outs.get(stage, [])} for stage, games in stages.items()],
            "in": alive, "finished": finished,
            "winner": names.get(engine.winner()) if finished else None,
            "title": ranked["title"], "placings": ranked["ranking"],
            "groups": _groups(engine, names)}


def _game(m: dict) -> dict:
    return {"match": m["code"], "round": m["round"], "player1": m["player1"],
            "player2": m["player2"], "score1": m["score1"], "score2": m["score2"],
            "winner": m["winner"], "table": m["table"]}


def _outs(fmt: str, engine, names: dict) -> dict[str, list[str]]:
    """Stage name -> the players who went out in it."""
    outs: dict[str, list[str]] = {}
    if isinstance(engine, Hakukaavio):
        for r in engine.view()["rounds"]:
            if r["out"]:
                outs["Round %d" % r["round"]] = [names[p] for p in r["out"]]
    elif fmt == "double":
        for row in engine.placings():
            if row["out"] and row["out"][0] == "losers":
                outs.setdefault(STAGES["L"] % row["out"][1], []).append(names[row["player"]])
    return outs


def _groups(engine, names: dict) -> list[dict]:
    if not isinstance(engine, Groups):
        return []
    view = engine.view()["groups"]
    return [{"name": g["name"], "standings": [dict(r, player=names[r["player"]])
                                               for r in g["standings"]]} for g in view]
