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
from host.i18n import N_, _
from host.tournament.store import Store

# What the actions say, in the page's language (N_: translated where said, inside the page's
# i18n.use); a reason passed on from the sync or the pairing is theirs.
TEXT = {
    "no_watcher": N_("the boards are not synced by this desk (pilkku sync --watch runs "
                     "elsewhere): pair, move and flash there, or run pilkku desk alone"),
    "no_board": N_("there is no board %(board)s at this desk: load the boards page again"),
    "no_port": N_("there is no board on %(port)s at this desk: load the boards page again"),
    "off_port": N_("board %(board)s is on no port now (unplugged?): plug it in; it is taken "
                   "up again by itself. Nothing was done"),
    "stale": N_("board %(board)s has changed since the page was loaded (another port or "
                "table, or it was unplugged): nothing was done; here it is as it is now"),
    "stale_port": N_("what answers on %(port)s has changed since the page was loaded: nothing "
                     "was done; here it is as it is now"),
    "no_table": N_("the tournament has no table %(table)d (tables: %(tables)s): nothing was "
                   "done"),
    "none_yet": N_("none yet"),
    "held": N_("table %(table)d is held by board %(board)s: move that board first, or if "
               "%(board)s is out of use: pilkku tables --release %(table)d. Nothing was done"),
    "same": N_("board %(board)s is table %(table)d already: nothing was done"),
    "busy": N_("a flash of %(port)s is under way: wait for it to end"),
    "paired": N_("board %(board)s on %(port)s is paired with tournament '%(tournament)s'"),
    "mended": N_("; it had lost its settings (its config was damaged on its flash) and is "
                 "paired again"),
    "at_table": N_("; it is table %(table)d"),
    "not_synced": N_("; it did not take table %(table)d yet (%(why)s): move it to the table "
                     "once it shows live"),
    "moved": N_("board %(board)s is table %(table)d now (it was %(was)s)"),
    "was_at": N_("table %(table)s"),
    "was_nowhere": N_("at no table"),
    "not_moved": N_("board %(board)s was not moved: %(why)s"),
    "pair_failed": N_("board on %(port)s was not paired: %(why)s"),
}
TRIES = 3  # syncs after a pairing: the board restarts into its scoreboard meanwhile


class Refused(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _watcher(watcher: Any) -> Any:
    if watcher is None:
        raise Refused(_(TEXT["no_watcher"]))
    return watcher


def _table(store: Store, tid: int, f: Fields, board: str | None) -> int:
    """The table asked for: one the tournament has, held by no other board (what `pilkku
    sync --table` refuses, checked before anything is sent to a board)."""
    table = f.whole("table", N_("the table"))
    numbers = store.tables.numbers(tid)
    if table not in numbers:
        raise BadForm(_(TEXT["no_table"]) % {
            "table": table, "tables": ", ".join(map(str, numbers)) or _(TEXT["none_yet"])})
    holder = store.boards.holder(tid, table, but=board)
    if holder is not None:
        raise Refused(_(TEXT["held"]) % {"table": table, "board": holder})
    return table


def _followed(watcher: Any, f: Fields) -> dict:
    name = f.text("board", N_("the board"), 40)
    row = next((b for b in watcher.view()["boards"] if b["board"] == name), None)
    if row is None:
        raise BadForm(_(TEXT["no_board"]) % {"board": name})
    return row


def _stranger(watcher: Any, port: str) -> dict | None:
    return next((s for s in watcher.view()["strangers"] if s["port"] == port), None)


def move(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    from host.sync.watch_orders import sync_ports

    watcher = _watcher(watcher)
    row = _followed(watcher, f)
    if f.form.get("state", "") != board_state(row):
        raise Stale(_(TEXT["stale"]) % {"board": row["board"]})
    if not row["on_port"] or row["lent"]:
        raise Refused(_(TEXT["off_port"]) % {"board": row["board"]})
    table = _table(store, t["id"], f, row["board"])
    if table == row["table"]:
        raise BadForm(_(TEXT["same"]) % {"board": row["board"], "table": table})
    order = sync_ports(watcher, [row["port"]], table)
    outcome = order.outcomes.get(row["port"])
    if not isinstance(outcome, dict):
        raise Refused(_(TEXT["not_moved"]) % {"board": row["board"], "why": outcome})
    if outcome["refused"]:
        raise Refused(_(TEXT["not_moved"]) % {"board": row["board"],
                                               "why": outcome["refused"]})
    was = (_(TEXT["was_at"]) % {"table": row["table"]} if row["table"] is not None
           else _(TEXT["was_nowhere"]))
    return _(TEXT["moved"]) % {"board": row["board"], "table": table, "was": was}


def pair(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    from host.board.mpremote_link import LinkError
    from host.sync import pair as pairing
    from host.sync.watch_orders import NotLent, borrowed, sync_ports

    watcher = _watcher(watcher)
    port = f.text("port", N_("the port"), 200)
    found = _stranger(watcher, port)
    if found is None:
        raise BadForm(_(TEXT["no_port"]) % {"port": port})
    if f.form.get("state", "") != stranger_state(found):
        raise Stale(_(TEXT["stale_port"]) % {"port": port})
    if jobs is not None and jobs.running(port):
        raise Refused(_(TEXT["busy"]) % {"port": port})
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
        raise Refused(_(TEXT["pair_failed"]) % {"port": port, "why": error}) from None
    said = _(TEXT["paired"]) % {"board": paired.board, "port": port, "tournament": t["name"]}
    if paired.mended:
        said += _(TEXT["mended"])
    outcome: Any = None
    for _try in range(TRIES):
        outcome = sync_ports(watcher, [port], table).outcomes.get(port)
        if isinstance(outcome, dict):
            break
    if isinstance(outcome, dict) and not outcome["refused"]:
        return said + _(TEXT["at_table"]) % {"table": table}
    why = outcome["refused"] if isinstance(outcome, dict) else outcome
    return said + _(TEXT["not_synced"]) % {"table": table, "why": why}


def flash(store: Store, t: dict, watcher: Any, jobs: Any, f: Fields) -> str:
    """The flash begun (its progress on the page); what it is, said."""
    watcher = _watcher(watcher)
    port = f.text("port", N_("the port"), 200)
    seen = watcher.view()
    row = next((b for b in seen["boards"] if b["port"] == port and b["on_port"]), None)
    stranger = _stranger(watcher, port)
    if row is None and stranger is None:
        raise BadForm(_(TEXT["no_port"]) % {"port": port})
    state = board_state(row) if row is not None else stranger_state(stranger or {})
    if f.form.get("state", "") != state:
        raise Stale(_(TEXT["stale_port"]) % {"port": port})
    board = row["board"] if row is not None else (stranger or {}).get("board")
    if jobs.start(watcher, port, board) is None:
        raise Refused(_(TEXT["busy"]) % {"port": port})
    return port


ACTIONS = {"pair": pair, "move": move, "flash": flash}
