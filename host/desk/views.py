"""What the desk's pages show, read from the store: the night's screen (every match with its
state, the tables beside), one match with what can be done to it, the players for a
withdrawal. Each thing a form acts on carries its state (versions.py)."""

from __future__ import annotations

from pathlib import Path

from host.desk import versions
from host.hall import data
from host.i18n import N_, _
from host.tournament.store import Store, per_revision

# How a decided match came, for the list (marks.mark's words are the audience's).
HOW = {"board": N_("board"), "manual": N_("log at the laptop"), "correction": N_("corrected"),
       "walkover": N_("w.o."), "hand": N_("paper sheet"), "void": N_("void"),
       "both_lose": N_("both lose")}  # (N_: the page shows them with tr())


def night(store: Store, t: dict, now_ms: int) -> dict:
    """The night's screen: {"matches", "tables", "players", "tables_state", "free"}."""
    tid = t["id"]
    live = _live_scores(store, tid)
    waits = _needs_director(store, tid)
    rows = []
    for m in data.schedule(store, t):
        rows.append(dict(m, state=_state(m, live), live=live.get(m["code"]),
                         needs=_said(waits.get(m["code"])),
                         version=versions.match(store, store.matches.get(tid, m["code"]))))
    cards = data.tables(store, t, now_ms)
    for card in cards:
        card["holder"] = card["board"] or store.boards.holder(tid, card["number"])
    return {"matches": rows, "tables": cards, "players": players(store, tid),
            "tables_state": versions.tables(store, tid),
            "free": [c["number"] for c in cards if not c["queued"]]}


def _state(m: dict, live: dict) -> str:
    """The match's state in a word the list sorts and colours by."""
    if m["mark"]["decided"]:
        return "finished"
    if m["status"].startswith("playing") or (m["code"] in live and m["table"] is not None):
        return "playing"
    if m["table"] is not None:
        return "queued"
    return "waiting"


def _live_scores(store: Store, tid: int) -> dict[str, str]:
    """code -> the score its board shows now ("3:2"), for the matches boards are playing."""
    shown = {}
    for row in sorted(store.live.states(tid), key=lambda r: r["changed_ms"]):
        state = row["state"]
        if state and state.get("match_id") and not state.get("finished"):
            shown[state["match_id"]] = "%d:%d" % tuple(state["score"])
    return shown


def _needs_director(store: Store, tid: int) -> dict[str, tuple[str, dict]]:
    """code -> what waits for the director: a damaged result from its board, a board's
    result set aside (it came after the match was decided). The history is read again only
    when the store's facts have changed (every result replayed: half the screen's time; the
    boards' live scores leave it: store/per_revision.py)."""
    return per_revision.read(store.db, ("needs director", tid), lambda: _read_needs(store, tid))


def _inode(store: Store) -> int:
    try:
        return Path(store.path).stat().st_ino
    except OSError:
        return 0


def _said(need: tuple[str, dict] | None) -> str | None:
    """What the director is needed for, in the page's language (kept as data per revision:
    read once for every language)."""
    return _(need[0]) % need[1] if need else None


def _read_needs(store: Store, tid: int) -> dict[str, tuple[str, dict]]:
    needs = {}
    for row in store.results.history(tid):
        if row["set_aside"]:
            needs[row["match"]] = (N_("a board's result came after it was decided and was "
                                      "set aside (#%(result)s): correct it to count that one"),
                                   {"result": row["result"]})
    for code in {m["code"] for m in store.matches.all(tid)}:
        if store.damaged.waits_for(tid, code):
            needs[code] = (N_("its board's result came damaged: enter the result from the "
                              "sheet"), {})
    return needs


def match(store: Store, t: dict, code: str) -> dict:
    """One match (StoreError if there is none): its row as the list shows it, its state,
    its history of results and what the director may do."""
    tid = t["id"]
    row = store.matches.get(tid, code)
    shown = next(m for m in data.schedule(store, t) if m["code"] == row["code"])
    live = _live_scores(store, tid)
    decided = shown["mark"]["decided"]
    both = None not in (row["player1_id"], row["player2_id"])
    history = [h for h in store.results.history(tid) if h["match"] == row["code"]]
    return {"m": dict(shown, state=_state(shown, live), live=live.get(row["code"])),
            "version": versions.match(store, row), "history": history, "how": HOW,
            "can": {"start": both and not decided and row["table_number"] is None,
                    "unstart": not decided and row["table_number"] is not None,
                    "decide": both and not decided, "correct": decided,
                    "void": both}, "tables": store.tables.numbers(tid)}


def players(store: Store, tid: int) -> list[dict]:
    """The players still in, each with their state for a withdrawal form."""
    withdrawn = store.players.withdrawn(tid)
    shown = []
    for p in store.players.all(tid):
        if p["id"] in withdrawn:
            continue
        row = store.players.get(tid, p["name"])
        shown.append({"name": p["name"], "version": versions.player(store, tid, row)})
    return shown
