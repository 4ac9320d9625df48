"""The boards page's actions, each a checked form (host/desk/forms.py) -> what the CLI does ->
what the director reads; the desk adds no rules of its own:

- pair: a board on a port the watcher sees, not paired with the tournament, gets its key as
  `pilkku pair --port P` gives it (host/sync/pair.py, on the port the watcher lends), then
  its table as `pilkku sync --port P --table N` gives it (the watcher's sync);
- move: a board followed on a port gets another table, as `pilkku sync --port P --table N`;
- flash: the board on a port flashed as `pilkku flash --port P` does, synced first
  (host/desk/boards_jobs.py; the answer is the page with its progress).

Each raises BadForm (bad or unknown input: 400), Stale (the board changed since the page was
loaded: 409) or Refused (the CLI's own refusal: 400), and nothing is done."""

from __future__ import annotations

from typing import Any

from host.desk.boards_view import board_state, stranger_state
from host.desk.forms import BadForm, Fields
from host.desk.versions import Stale
from host.tournament.store import Store

TEXT = {  # what the actions say (one place: Finnish and Swedish come next)
    "no_watcher": ("the boards are not synced by this desk (pilkku sync --watch runs "
                   "elsewhere): pair, move and flash there, or run pilkku desk alone"),
    "no_board": "there is no board %s at this desk: load the boards page again",
    "no_port": "there is no board on %s at this desk: load the boards page again",
    "off_port": ("board %s is on no port now (unplugged?): plug it in; it is taken up again "
                 "by itself. Nothing was done"),
    "stale": ("board %s has changed since the page was loaded (another port or table, or it "
              "was unplugged): nothing was done; here it is as it is now"),
    "stale_port": ("what answers on %s has changed since the page was loaded: nothing was "
                   "done; here it is as it is now"),
    "no_table": "the tournament has no table %d (tables: %s): nothing was done",
    "held": ("table %d is held by board %s: move that board first, or if %s is out of use: "
             "pilkku tables --release %d. Nothing was done"),
    "same": "board %s is table %d already: nothing was done",
    "busy": "a flash of %s is under way: wait for it to end",
    "paired": "board %s on %s is paired with tournament '%s'",
    "mended": ("; it had lost its settings (its config was damaged on its flash) and is "
               "paired again"),
    "at_table": "; it is table %d",
    "not_synced": ("; it did not take table %d yet (%s): move it to the table once it shows "
                   "live"),
    "moved": "board %s is table %d now (it was %s)",
    "not_moved": "board %s was not moved: %s",
    "pair_failed": "board on %s was not paired: %s",
}
TRIES = 3  # syncs after a pairing: the board restarts into its scoreboard meanwhile


class Refused(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _watcher(watcher: Any) -> Any:
    if watcher is None:
        raise Refused(TEXT["no_watcher"])
    return watcher


def _table(store: Store, tid: int, f: Fields, board: str | None) -> int:
    """The table asked for: one the tournament has, held by no other board (what `pilkku
    sync --table` refuses, checked before anything is sent to a board)."""
    table = f.whole("table", "the table")
    numbers = store.tables.numbers(tid)
    if table not in numbers:
        raise BadForm(TEXT["no_table"] % (table, ", ".join(map(str, numbers)) or "none yet"))
    holder = store.boards.holder(tid, table, but=board)
    if holder is not None:
        raise Refused(TEXT["held"] % (table, holder, holder, table))
    return table


def _followed(watcher: Any, f: Fields) -> dict:
    name = f.text("board", "the board", 40)
    row = next((b for b in watcher.view()["boards"] if b["board"] == name), None)
    if row is None:
        raise BadForm(TEXT["no_board"] % name)
    return row


def _stranger(watcher: Any, port: str) -> dict | None:
    return next((s for s in watcher.view()["strangers"] if s["port"] == port), None)


def move(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    from host.sync.watch_orders import sync_ports

    watcher = _watcher(watcher)
    row = _followed(watcher, f)
    if f.form.get("state", "") != board_state(row):
        raise Stale(TEXT["stale"] % row["board"])
    if not row["on_port"] or row["lent"]:
        raise Refused(TEXT["off_port"] % row["board"])
    table = _table(store, t["id"], f, row["board"])
    if table == row["table"]:
        raise BadForm(TEXT["same"] % (row["board"], table))
    order = sync_ports(watcher, [row["port"]], table)
    outcome = order.outcomes.get(row["port"])
    if not isinstance(outcome, dict):
        raise Refused(TEXT["not_moved"] % (row["board"], outcome))
    if outcome["refused"]:
        raise Refused(TEXT["not_moved"] % (row["board"], outcome["refused"]))
    return TEXT["moved"] % (row["board"], table, "table %s" % row["table"]
                            if row["table"] is not None else "at no table")


def pair(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    from host.board.mpremote_link import LinkError
    from host.sync import pair as pairing
    from host.sync.watch_orders import NotLent, borrowed, sync_ports

    watcher = _watcher(watcher)
    port = f.text("port", "the port", 200)
    found = _stranger(watcher, port)
    if found is None:
        raise BadForm(TEXT["no_port"] % port)
    if f.form.get("state", "") != stranger_state(found):
        raise Stale(TEXT["stale_port"] % port)
    if jobs is not None and jobs.running(port):
        raise Refused(TEXT["busy"] % port)
    table = _table(store, t["id"], f, found["board"])
    key = store.tournaments.key(t["id"])
    # Where each board was last seen: a board whose config was damaged gets its table back
    # (as `pilkku pair` gives it).
    tables = {b["board_id"]: b["table"] for b in store.boards.all(t["id"])
              if b["table"] is not None}
    try:
        with borrowed(watcher, port):
            paired = pairing.pair(port, key, tables)
    except (LinkError, NotLent) as error:
        raise Refused(TEXT["pair_failed"] % (port, error)) from None
    said = TEXT["paired"] % (paired.board, port, t["name"])
    if paired.mended:
        said += TEXT["mended"]
    outcome: Any = None
    for _ in range(TRIES):
        outcome = sync_ports(watcher, [port], table).outcomes.get(port)
        if isinstance(outcome, dict):
            break
    if isinstance(outcome, dict) and not outcome["refused"]:
        return said + TEXT["at_table"] % table
    why = outcome["refused"] if isinstance(outcome, dict) else outcome
    return said + TEXT["not_synced"] % (table, why)


def flash(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    """The flash begun (its progress on the page); what it is, said."""
    watcher = _watcher(watcher)
    port = f.text("port", "the port", 200)
    seen = watcher.view()
    row = next((b for b in seen["boards"] if b["port"] == port and b["on_port"]), None)
    stranger = _stranger(watcher, port)
    if row is None and stranger is None:
        raise BadForm(TEXT["no_port"] % port)
    state = board_state(row) if row is not None else stranger_state(stranger or {})
    if f.form.get("state", "") != state:
        raise Stale(TEXT["stale_port"] % port)
    board = row["board"] if row is not None else (stranger or {}).get("board")
    if jobs.start(watcher, port, board) is None:
        raise Refused(TEXT["busy"] % port)
    return port


ACTIONS = {"pair": pair, "move": move, "flash": flash}
