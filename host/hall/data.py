"""What the hall's pages show, as plain data read from the store: the tables with each
board's last confirmed live state, the standings or bracket (from the format engines), the
schedule, the results with their verification, a match's report and the statistics
(host/tournament/stats.py, from the match logs). No HTML here; the templates only lay it out."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from host.games import GAME_NAMES, POINT_GAMES
from host.hall import marks
from host.replay.command import render as replay_lines
from host.tournament import stats
from host.tournament.formats import ENGINES
from host.tournament.night import bracket
from host.tournament.night.ranking import standings
from host.tournament.night.status import table_status
from host.tournament.store import Store
from rules_core import matchlog

# `pilkku sync --watch` marks a board silent once it judges it not answering (after 15 s of
# its own clock: host/sync/followed.py) and refreshes the heartbeat of those it holds answering
# every second; this is for a watcher that itself stopped (a busy laptop holds it for seconds).
STALE_MS = 15000
FORMAT_NAMES = {"round_robin": "Round robin", "bracket": "Single elimination",
                "double": "Double elimination", "groups": "Groups into a knockout",
                "hakukaavio": "Hakukaavio", "list": "Match list", None: "No draw yet"}


def tournament(store: Store, name: str | None) -> dict:
    t = store.tournaments.get(name)
    t["unit"] = "points" if t["game"] in POINT_GAMES else "racks"
    t["game_name"] = GAME_NAMES.get(t["game"], t["game"])
    t["format_name"] = FORMAT_NAMES.get(t["format"], str(t["format"]).replace("_", " "))
    return t


def tables(store: Store, t: dict, now_ms: int) -> list[dict]:
    """One card per table: the newest board state seen there (or none), whether that board
    still answers, and the match the store has queued at the table."""
    boards: dict[int, dict] = {}
    for row in store.live.states(t["id"]):
        if row["table"] is not None and (row["table"] not in boards or row["changed_ms"]
                                         > boards[row["table"]]["changed_ms"]):
            boards[row["table"]] = row
    winners = {m["code"]: m["winner"] for m in store.matches.all(t["id"])}
    cards = []
    for number in store.tables.numbers(t["id"]):
        queued = store.tables.schedule(t["id"], number)
        seen = boards.get(number)
        card: dict[str, Any] = {"number": number, "board": None, "state": None,
                                "answering": False, "queued": queued[:3], "winner": None}
        if seen is not None:
            card["board"] = seen["board_id"]
            card["state"] = seen["state"]
            card["answering"] = not seen["silent"] and now_ms - seen["answered_ms"] < STALE_MS
            card["winner"] = _winner(seen["state"], winners)
        cards.append(card)
    return cards


def _winner(state: dict | None, winners: dict) -> int | None:
    """Which player (0, 1) won the finished match a board shows: the store's winner once its
    result is in, else the higher score (the board's final score)."""
    if state is None or not state["finished"]:
        return None
    name = winners.get(state.get("match_id"))
    if name in state["players"]:
        return state["players"].index(name)
    one, two = state["score"]
    return None if one == two else int(two > one)


def looked(store: Store, t: dict, now_ms: int) -> tuple:
    """Changes whenever a page could: the store's revision (every write moves it: a result,
    a correction, an assignment, a board's live state or silence) and which boards still
    answer (their heartbeats do not move the revision: it is judged here by the clock)."""
    answering = tuple((r["board_id"], not r["silent"] and now_ms - r["answered_ms"] < STALE_MS)
                      for r in store.live.states(t["id"]))
    return (store.db.revision(),) + answering


def _round_name(number: int | None, last: int, knockout: bool) -> str:
    if number is None:
        return "Matches"
    if knockout:
        names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        if last - number in names:
            return names[last - number]
    return "Round %d" % number


def _bout(m: dict, feeders: dict, kind: str | None) -> dict:
    """A match in the draw: its two slots (a name, or whose winner it waits for) with the
    score each shows ("w.o." for a walkover's winner), and how it was decided."""
    mark = marks.mark(m, kind)
    slots = []
    for i in (1, 2):
        name = m["player%d" % i]
        waits = feeders.get((m["code"], i))
        slots.append({"name": name or ("winner of %s" % waits if waits else "to be drawn"),
                      "known": name is not None,
                      "won": m["winner"] is not None and m["winner"] == name,
                      "score": mark["slots"][i - 1]})
    return {"id": m["id"], "code": m["code"], "slots": slots,
            "table": m["table"] if mark["played"] else None, "finished": mark["decided"],
            "note": mark["how"]}


def _drawn(store: Store, t: dict, matches: list[dict], kinds: dict) -> dict:
    """A format drawn by its engine as results come (double, groups, hakukaavio), through
    the engine's own view (host/tournament/night/bracket.py)."""
    drawn = bracket.view(store, t)
    rows = {m["code"]: m for m in matches}
    rounds = [{"name": r["stage"], "out": r["out"], "matches": [
        _bout(rows[g["match"]], {}, kinds.get(g["match"])) for g in r["games"]]}
        for r in drawn["rounds"]]
    return {"league": None, "rounds": rounds, "champion": drawn["winner"], "knockout": True,
            "description": drawn["description"], "groups": drawn["groups"],
            "placings": drawn["placings"], "ranking": drawn["placings"],
            "title": drawn["title"], "still_in": drawn["in"], "finished": drawn["finished"]}


def draw(store: Store, t: dict) -> dict:
    """Standings (a league table where the format ranks one) and the draw round by round;
    a knockout's slots say whose winner they wait for."""
    matches = store.matches.all(t["id"])
    checked = store.results.all(t["id"])
    not_counted = [r for r in checked if not r["verified"]]
    kinds = marks.kinds(checked)
    if t["format"] in ENGINES:
        return dict(_drawn(store, t, matches, kinds), not_counted=not_counted,
                    problems=store.results.problems(t["id"], checked))
    knockout = t["format"] == "bracket"
    feeders = {(m["next"], m["next_slot"]): m["code"] for m in matches if m["next"]}
    numbers = sorted({m["round"] for m in matches if m["round"] is not None})
    last = numbers[-1] if numbers else 0
    rounds = []
    for number in numbers + ([None] if any(m["round"] is None for m in matches) else []):
        shown = []
        for m in (m for m in matches if m["round"] == number):
            shown.append(_bout(m, feeders, kinds.get(m["code"])))
        rounds.append({"name": _round_name(number, last, knockout), "matches": shown})
    champion = None
    if knockout and matches:
        champion = [m for m in matches if m["round"] == last][0]["winner"]
    # The ranking `pilkku standings` shows (night/ranking.py): a league table in a round robin
    # or a list (only results that verify count; the others are listed), else placings.
    ranked = standings(store, t["id"])
    league = ranked["ranking"] if t["format"] in ("round_robin", "list", None) else None
    return {"league": league, "placings": [] if league is not None else ranked["ranking"],
            "ranking": ranked["ranking"], "title": ranked["title"], "rounds": rounds,
            "champion": champion, "knockout": knockout, "not_counted": not_counted,
            "problems": store.results.problems(t["id"], checked)}


TV_BOUTS = 24  # boxes a TV across the hall shows at most; a bigger draw: its latest rounds


def tv_rounds(rounds: list[dict]) -> list[dict]:
    """The rounds the TV's draw shows: all of a small draw (a double of 8: its final in view
    with the rest); of a bigger one (a 64-player hakukaavio) the latest rounds, as many as fit
    TV_BOUTS boxes (at least the last: the final once it is drawn)."""
    if sum(len(r["matches"]) for r in rounds) <= TV_BOUTS:
        return rounds
    shown: list[dict] = []
    for r in reversed(rounds):
        if shown and sum(len(s["matches"]) for s in shown) + len(r["matches"]) > TV_BOUTS:
            break
        shown.insert(0, r)
    return shown


_FINAL_SIDE = "Winners' bracket and final"
_SIDES = (("Winners'", _FINAL_SIDE), ("Grand final", _FINAL_SIDE), ("Losers'", "Losers' bracket"),
          ("Group", "Groups"), ("Knockout", "Knockout"))


def sides(rounds: list[dict]) -> list[dict]:
    """The rounds in rows a screen holds: a double's winners' side with its final, then its
    losers' side; groups, then the knockout; any other draw one row (the page wraps a row
    that is wider than the screen, never cuts it)."""
    rows: dict[str | None, list[dict]] = {}
    for r in rounds:
        name = next((side for prefix, side in _SIDES if r["name"].startswith(prefix)), None)
        rows.setdefault(name, []).append(r)
    return [{"name": name, "rounds": shown} for name, shown in rows.items()]


def schedule(store: Store, t: dict) -> list[dict]:
    """Every match in order of play and where it stands: "playing at table N" only once the
    board there has started it (the boards' live states), else its place in the queue."""
    kinds = marks.kinds(store.results.all(t["id"]))
    places = {queued["match_id"]: (number, place)
              for number in store.tables.numbers(t["id"])
              for place, queued in enumerate(store.tables.schedule(t["id"], number), 1)}
    started = store.live.started(t["id"])
    rows = []
    for m in store.matches.all(t["id"]):
        mark = marks.mark(m, kinds.get(m["code"]))
        if mark["decided"]:
            status = mark["how"] if not mark["played"] else "finished"
        elif m["code"] in places:
            status = table_status(*places[m["code"]], started.get(m["code"]))
        elif None in (m["player1"], m["player2"]):
            status = "waits for earlier matches"
        else:
            status = "waiting"
        rows.append(dict(m, status=status, mark=mark,
                         table=m["table"] if mark["played"] else None))
    return rows


def results(store: Store, t: dict) -> list[dict]:
    """The current results, each with how it reads (marks.mark); a result not played at a
    table (a walkover) names none."""
    matches = {m["code"]: m for m in store.matches.all(t["id"])}
    shown = []
    for r in store.results.all(t["id"]):
        match = matches[r["match"]]
        mark = marks.mark(match, r["kind"])
        shown.append(dict(r, id=match["id"], mark=mark,
                          table=r["table"] if mark["played"] else None))
    return shown


# A document's figures, kept by its SHA-256: a document never changes, and another store
# (or result) with another document is another key, whatever its path, id or size.
_FIGURES: dict[bytes, dict] = {}
FIGURES_KEPT = 4096


def _figures(document: str) -> dict | None:
    key = hashlib.sha256(document.encode("utf-8", "surrogatepass")).digest()
    if key not in _FIGURES:
        try:
            figures = stats.of_match(json.loads(document))
        except (ValueError, matchlog.BadLog):
            return None
        if len(_FIGURES) >= FIGURES_KEPT:
            _FIGURES.clear()
        _FIGURES[key] = figures
    return _FIGURES[key]


def find_match(store: Store, t: dict, given: str) -> dict | None:
    """The match a page names: by its row id (digits, as the pages link it) or by its code
    (/match/R1-02.html); None if neither. An id is looked up first: an imported list's code
    made of digits is found by its code only when no match has that id."""
    matches = store.matches.all(t["id"])
    if given.isascii() and given.isdigit():
        found = next((m for m in matches if m["id"] == int(given)), None)
        if found is not None:
            return found
    return next((m for m in matches if m["code"] == given), None)


def report(store: Store, t: dict, given: str) -> dict | None:
    """A match: who, where, the result, how it came and its verification, the figures of each
    player and the referee's reading of the log (host/replay; the rule options' keys left
    out), or None if there is no such match."""
    match = find_match(store, t, given)
    if match is None:
        return None
    out: dict[str, Any] = {"match": match, "result": None, "lines": [], "players": [],
                           "duration_s": None, "played": None, "mark": marks.mark(match, None)}
    stored = store.results.current(match["code"], t["id"])
    if stored is None:
        return out
    verified = next(r["verified"] for r in store.results.all(t["id"])
                    if r["result_id"] == stored["id"])
    out["result"] = dict(stored, verified=verified)
    out["mark"] = marks.mark(match, stored["kind"])
    figures = _figures(stored["document"])
    if figures is not None:
        out["players"] = [dict(f, name=n) for n, f in zip(figures["players"],
                                                           figures["per_player"], strict=True)]
        out["duration_s"] = figures["duration_s"]
        document = json.loads(stored["document"])
        # "rules: foul_hand=..." is the engine's keys, not words a player reads
        out["lines"] = [line for line in replay_lines(document)
                        if not line.startswith("rules: ")]
        out["played"] = _board_times(document)
    return out


_YEAR_2000 = 946_684_800


def _board_times(document: dict) -> tuple[int, int] | None:
    """When the board's clock says the match started and ended (seconds since 1970), if it
    had been set (a board's clock before the laptop sets it counts from its boot)."""
    meta = document.get("meta") if isinstance(document, dict) else None
    started, ended = (meta or {}).get("started"), (meta or {}).get("ended")
    if type(started) is int and type(ended) is int and _YEAR_2000 < started <= ended:
        return started, ended
    return None


def player_stats(store: Store, t: dict) -> list[dict]:
    """Each player's figures over the tournament, summed match by match (stats.add)."""
    totals = {p["name"]: {"player": p["name"], "matches": 0, "won": 0}
              for p in store.players.all(t["id"])}
    for r in store.results.all(t["id"]):
        stored = store.results.current(r["match"], t["id"])
        if stored is None:
            continue
        figures = _figures(stored["document"])
        if figures is None:
            continue
        for index, name in enumerate(figures["players"]):
            if name not in totals:
                continue
            total = totals[name]
            total["matches"] += 1
            total["won"] += int(figures["winner"] == index)
            stats.add(total, figures["per_player"][index])
    rows = [row for row in totals.values() if row["matches"]]
    rows.sort(key=lambda r: (-r["won"], -(r["avg_x100"] or 0), r["player"]))
    return rows + [dict(row, **{k: None for k in stats.KEYS})
                   for row in totals.values() if not row["matches"]]
