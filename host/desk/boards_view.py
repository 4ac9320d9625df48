"""What the desk's boards page shows (host/desk/boards.py serves it): every board seen for the
tournament, from the running watcher (host/sync/watch.py `view`: where each board is, its
firmware, its last answer, what its last sync left on it, whether the watcher holds it to be
answering) and from the store (boards seen before the desk started: their table, firmware,
last live answer); the ports where a board not ours answers, with why (the sync's own words);
the flashes under way or done (host/desk/boards_jobs.py). Each thing a form acts on carries
its state: a form made before it changed is refused as stale."""

from __future__ import annotations

import functools
import hashlib
import time
from pathlib import Path
from typing import Any

from host.i18n import N_
from host.tournament.store import Store

# One place for what the page says of a board: English here (compared, kept), the page's
# language where shown (the template's tr()).
WORDS = {
    "live": N_("live"),
    "not_answering": N_("not answering"),
    "not_answering_do": N_("switched off, unplugged, or its scoreboard stopped? Check its "
                           "power and cable (a board left at the REPL needs a reset): it is "
                           "taken up again by itself, on any port, at its table"),
    "gone": N_("gone from its port"),
    "lent": N_("lent (being paired or flashed)"),
    "unseen": N_("not seen since the desk started"),
    "older": N_("not this laptop's firmware: flash it"),
    "no_watcher": N_("the boards are synced by another program here (pilkku sync --watch): "
                     "their state is the store's; pairing, moving and flashing are done "
                     "where the watcher runs, or by pilkku desk"),
}


def laptop_versions() -> frozenset[str]:
    """The firmware versions this laptop's pilkku installs (one per kind of board: the
    virtual board's, a Pico's, an ESP32's): a board reporting another runs older (or other)
    firmware, and `pilkku flash` brings it up to date. Known from the sources, without
    compiling (firmware_image.version_of); made again when a source changes."""
    from host.board import firmware_image, toolchain

    stamp = []
    for relative in toolchain.board_sources() + [Path("firmware/boot.py"),
                                                 Path("firmware/main.py")]:
        try:
            stamp.append((str(relative), (toolchain.ROOT / relative).stat().st_mtime_ns))
        except OSError:
            stamp.append((str(relative), 0))
    return _versions(tuple(stamp), firmware_image.version_of)


@functools.lru_cache(maxsize=1)
def _versions(_stamp: tuple, version_of: Any) -> frozenset[str]:
    from host.board import firmware_image

    return frozenset(version_of(platform)
                     for platform in (None, *sorted(firmware_image.BOARD_FILES)))


def token(*parts: Any) -> str:
    """The state a form carries: what it was made against (a board's port and table)."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def board_state(row: dict) -> str:
    return token(row["board"], row["port"], row["table"], row["on_port"])


def stranger_state(row: dict) -> str:
    return token(row["port"], row["board"], row["why"])


def page(store: Store, t: dict, watcher: Any, jobs: Any, now: float | None = None) -> dict:
    """The page's variables: boards, strangers, tables, flashes, and whether a watcher runs
    here (without one, only what the store knows)."""
    now = time.time() if now is None else now
    tid = t["id"]
    tables = store.tables.numbers(tid)
    known = {b["board_id"]: b for b in store.boards.all(tid)}
    answered = {r["board_id"]: r for r in store.live.states(tid)}
    seen = watcher.view() if watcher is not None else {"boards": [], "strangers": [],
                                                        "tournament": None}
    versions = laptop_versions()
    running = jobs.by_port() if jobs is not None else {}
    rows = []
    followed = {b["board"]: b for b in seen["boards"]} if seen["tournament"] == tid else {}
    for board_id in sorted(set(followed) | set(known)):
        rows.append(_row(board_id, followed.get(board_id), known.get(board_id),
                         answered.get(board_id), versions, running, now))
    rows.sort(key=lambda r: (r["table"] is None, r["table"] or 0, r["board"]))
    strangers = [dict(s, state=stranger_state(s), job=running.get(s["port"]))
                 for s in seen["strangers"]]
    return {"boards": rows, "strangers": strangers, "tables": tables,
            "watcher": watcher is not None, "words": WORDS,
            "jobs": jobs.all() if jobs is not None else [],
            "laptop": sorted(versions)}


def _row(board_id: str, followed: dict | None, known: dict | None, live: dict | None,
         versions: frozenset[str], running: dict, now: float) -> dict:
    row: dict[str, Any] = {"board": board_id, "port": None, "on_port": False, "kept": 0,
                           "damaged": 0, "trouble": None, "state": None}
    if followed is not None:
        row.update(followed)
    else:  # what its results are is known only once it is synced here
        row.update(table=known["table"] if known else None, kept=None,
                   firmware=known["firmware"] if known else None, answered_at=None)
    if row.get("answered_at") is None and live is not None and live["answered_ms"]:
        row["answered_at"] = live["answered_ms"] / 1000
    if row.get("state") is None and live is not None and not live["silent"]:
        row["state"] = live["state"]
    row["older"] = bool(row.get("firmware")) and row["firmware"] not in versions
    row["job"] = running.get(row["port"]) if row["port"] else None
    row["status"], row["status_class"] = _status(row, followed, live)
    if row["status"] == WORDS["not_answering"] and not row["trouble"]:
        row["trouble"] = WORDS["not_answering_do"]
    row["ago"] = int(max(0, now - row["answered_at"])) if row.get("answered_at") else None
    row["version"] = board_state(row)
    row["can_flash"] = (row["on_port"] and row["older"] and row["job"] is None
                        and not row.get("lent"))
    return row


def _status(row: dict, followed: dict | None, live: dict | None) -> tuple[str, str]:
    """The watcher's own judgement of the board, in the page's words."""
    if followed is None:
        if live is not None and live["silent"]:
            return WORDS["not_answering"], "bad"
        return WORDS["unseen"], "muted"
    if followed["lent"]:
        return WORDS["lent"], "muted"
    if not followed["answering"]:
        return WORDS["not_answering"], "bad"
    if not followed["on_port"]:
        return WORDS["gone"], "bad"
    return WORDS["live"], "ok"


def look(watcher: Any, jobs: Any) -> tuple:
    """What changes the page outside the store (part of the hall's look: host/hall/app.py
    Hall.looks): the watcher's boards, its strangers, the flashes' progress, and every 5 s
    while a board answers (its last answer's time; the page counts the seconds on itself)."""
    seen = watcher.view() if watcher is not None else {"boards": [], "strangers": []}
    boards = tuple(sorted(
        (b["board"], b["port"], b["table"], b["firmware"], b["on_port"], b["answering"],
         b["lent"], b["kept"], b["damaged"], b["trouble"]) for b in seen["boards"]))
    strangers = tuple((s["port"], s["board"], s["why"]) for s in seen["strangers"])
    live = any(b["on_port"] and b["answering"] for b in seen["boards"])
    return (boards, strangers, jobs.look() if jobs is not None else (),
            int(time.time() // 5) if live else None)
