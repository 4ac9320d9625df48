"""What `pilkku sync` does about a board's kept files found damaged on its flash
(firmware/kept.py), as its hello names them (docs/sync-protocol.md, "Kept files damaged"):

- a file mended by the board from its second copy is named: a flash going bad is seen before
  it costs anything;
- a lost schedule is named, and sent again with the table's matches;
- a lost config is why the board is not paired: the sync says to pair it again;
- a lost chain is given the head this store holds of the board (its last link) in a K
  request, tagged with the tournament's key; the board signs its results on from it, and the
  store verifies them as any others. Never a chain restarted silently: the sync says what it
  did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.i18n import N_, _
from host.sync.replies import SyncError
from rules_core import sync_protocol as sp

LastLink = Callable[[str], tuple[int, str]]  # board -> (n, MAC) of its last stored link
# The kept files a hello may name (replies.KEPT_FILES), as a person reads them.
_WHAT = {"chain": N_("chain of signed results"), "config": N_("config"),
         "schedule": N_("schedule")}


def notes(port: str, hello: dict) -> list[str]:
    """A line for each kept file the board mended, and for a lost schedule."""
    board = hello["board"]
    lines = [_("%(port)s: board %(board)s: its %(file)s was damaged on its flash and mended "
               "from its second copy (if this happens again, the board's flash may be failing)")
             % {"port": port, "board": board, "file": _(_WHAT[name])}
             for name in hello["mended"]]
    if "schedule" in hello["lost"]:
        lines.append(_("%(port)s: board %(board)s: its schedule was damaged on its flash: "
                       "%(what)s") % {"port": port, "board": board,
                                      "what": _("sent again") if hello["table"] is not None
                                      else _("dropped (the board has no table)")})
    return lines


def unpaired(port: str, hello: dict) -> str | None:
    """Why a board is not paired, when it is that its config was lost."""
    if "config" not in hello["lost"]:
        return None
    return _("%(port)s: board %(board)s lost its settings (its config was damaged on its "
             "flash): its pairing key and table went with it; pair it again: pilkku pair "
             "--port %(port)s") % {"port": port, "board": hello["board"]}


def chain(link: Any, hello: dict, last_link: LastLink | None,
          say: Callable[[str], None]) -> list:
    """Give a board whose chain was lost the head this store holds of it; the new head."""
    port, board = link.port, hello["board"]
    if last_link is None:
        raise SyncError(_("%(port)s: board %(board)s lost its chain of signed results "
                          "(damaged on its flash): sync it with pilkku sync and the "
                          "tournament's store, which gives it its last result's link")
                        % {"port": port, "board": board})
    n, mac = last_link(board)
    head = link.call(sp.CHAIN, {"n": n, "mac": mac})["chain"]
    if n:
        say(_("%(port)s: board %(board)s: its chain of signed results was damaged on its "
              "flash; it goes on from #%(n)d, the last of its results this store holds (any "
              "result it held unstored is signed again from there)") % {
                  "port": port, "board": board, "n": n})
    else:
        say(_("%(port)s: board %(board)s: its chain of signed results was damaged on its "
              "flash, and this store holds none of its results: it starts again from #1 (a "
              "store that holds results of this board will refuse the new ones: sync it with "
              "that store first)") % {"port": port, "board": board})
    return head
