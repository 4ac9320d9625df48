"""Every finished result of one board, in one sync (host/sync/session.py `sync_board`): pulled
(host/sync/pieces.py), stored by the caller, and only then acknowledged, so that the board
frees it; the results the board set aside as damaged (firmware/journal.py) are pulled as the
bytes they are and stored apart, and never hold up the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.i18n import _, language
from host.sync.pieces import Pulled, Request, begin, pull, pull_damaged
from host.sync.replies import Damaged
from rules_core import sync_protocol as sp

# What a sync talks to on the laptop's side (host/sync/commands.py provides it):
#   store_result(board, pulled) -> str   "stored" (or "stored, not counted: ...") /
#                                         "duplicate" / "kept: <reason>"; only on
#                                         "stored..." or "duplicate" is the result acknowledged
#   store_damaged(board, seq, data) -> str   a damaged result's bytes, the same answers: only
#                                         on "stored" or "duplicate" is it acknowledged
StoreResult = Callable[[str, Pulled], str]
StoreDamaged = Callable[[str, int, bytes], str]


def said_outcome(outcome: str) -> str:
    """A result's outcome as a person reads it, in the CLI's language: its first word
    ("stored", "duplicate", "kept") is the one the code decides by and stays English in the
    outcome; what follows it is said where it is made."""
    if outcome == "stored":
        return _("stored")
    if outcome == "duplicate":
        return _("duplicate")
    if outcome.startswith("stored, "):
        return _("stored, %(note)s") % {"note": outcome[len("stored, "):]}
    if outcome.startswith("kept: "):
        return _("kept: %(why)s") % {"why": outcome[len("kept: "):]}
    return outcome


def synced_line(boards: int, seconds: float, stored: int, duplicates: int, kept: int,
                tail: str) -> str:
    """The last line of a sync: how many boards, how long, what became of their results."""
    text = "%.1f" % seconds
    return _("synced %(boards)d board(s) in %(seconds)s s: %(stored)d result(s) stored, "
             "%(duplicates)d already stored, %(kept)d kept on the boards; %(tail)s") % {
                 "boards": boards, "seconds": text if language() == "en" else
                 text.replace(".", ","), "stored": stored, "duplicates": duplicates,
                 "kept": kept, "tail": tail}


def collect(link: Any, board: str, store_result: StoreResult,
            store_damaged: StoreDamaged | None, say: Callable[[str], None],
            summary: dict) -> None:
    """The board's results, then its damaged ones (also those a pull finds damaged). Without
    `store_damaged` the damaged ones stay on the board (counted as kept)."""
    listed = link.call(sp.RESULTS)
    damaged = list(listed["damaged"])
    _pull_all(link, listed["results"], board, store_result, say, summary, damaged)
    _pull_damaged(link, damaged, store_damaged, say, summary)


def _pull_all(link: Any, results: list[int], board: str, store_result: StoreResult,
              say: Callable[[str], None], summary: dict, damaged: list[int]) -> None:
    """Pull, store and acknowledge every result. The next result's first pull goes out as
    soon as the last bytes of this one are on their way, carrying the acknowledgement of the
    result stored before it; this one is stored while the board answers it. So the line
    carries results back to back, and a result is acknowledged only after it is stored. A
    result the board finds damaged goes to `damaged` and the others flow on (an
    acknowledgement its refused pull carried is made good by _confirm_freed)."""
    pending: int | None = None  # stored, not yet acknowledged
    freed: list[int] = []  # the results acknowledged (stored, or stored before)
    prefetched: Request | None = None
    head = summary["head"] = summary["chain"]
    for number, seq in enumerate(results, 1):
        following = results[number] if number < len(results) else None
        sent: list[Request] = []

        def ahead(following: int | None = following, sent: list = sent,
                  ack: int | None = pending) -> None:
            if following is not None and not sent:
                sent.append(begin(link, following, ack))

        try:
            pulled = pull(link, seq, prefetched, ahead)
        except Damaged:
            prefetched = None
            link.ahead.clear()  # (its pull was answered: nothing else was sent ahead)
            damaged.append(seq)
            say(_("%(port)s: result %(number)d/%(count)d (board #%(seq)d): damaged on the "
                  "board, set aside there: pulled as it is below") % {
                      "port": link.port, "number": number, "count": len(results), "seq": seq})
            continue
        ahead()
        if sent and pending is not None:
            pending = None  # its acknowledgement is on its way with the next pull
        prefetched = sent[0] if sent else None
        outcome = store_result(board, pulled)
        if pulled.verified and pulled.n is not None and pulled.n > head[0]:
            head = summary["head"] = [pulled.n, pulled.board_mac]  # signed in this sync
        say(_("%(port)s: result %(number)d/%(count)d (board #%(seq)d): %(outcome)s") % {
            "port": link.port, "number": number, "count": len(results), "seq": seq,
            "outcome": said_outcome(outcome)})
        if outcome == "duplicate" or outcome.startswith("stored"):  # (or stored, not counted)
            if pending is not None:
                link.call(sp.ACK, {"seq": pending})
            pending = seq
            freed.append(seq)
            summary["duplicates" if outcome == "duplicate" else "stored"] += 1
        else:
            summary["kept"] += 1
    if pending is not None:
        link.call(sp.ACK, {"seq": pending})
    _confirm_freed(link, freed)


def _confirm_freed(link: Any, freed: list[int]) -> None:
    """What the sync reports is what the board holds: every result acknowledged in it must be
    gone from the board's list. One left (an acknowledgement that went with a pull and never
    reached the board, or a flash error there) is acknowledged again, on its own; a refusal
    of that ends the sync with the board's reason."""
    if not freed:
        return
    for seq in link.call(sp.RESULTS)["results"]:
        if seq in freed:
            link.call(sp.ACK, {"seq": seq})


def _pull_damaged(link: Any, damaged: list[int], store_damaged: StoreDamaged | None,
                  say: Callable[[str], None], summary: dict) -> None:
    """Pull the bytes of each result the board set aside as damaged, store them, and only
    then acknowledge it (the board deletes it). Each is stored once; what could be read of
    it is named by `pilkku results` until the director has entered its match."""
    for seq in damaged:
        if store_damaged is None:
            summary["kept"] += 1
            continue
        data = pull_damaged(link, seq)
        outcome = store_damaged(link.board, seq, data)
        said = {"port": link.port, "seq": seq, "bytes": len(data),
                "outcome": said_outcome(outcome)}
        say(_("%(port)s: result #%(seq)d came damaged (%(bytes)d bytes): %(outcome)s; pilkku "
              "results says what could be read of it and what to do") % said
            if outcome == "stored" else
            _("%(port)s: result #%(seq)d came damaged (%(bytes)d bytes): %(outcome)s") % said)
        if outcome in ("stored", "duplicate"):
            link.call(sp.ACK, {"seq": seq, "damaged": True})
            summary["damaged"] += 1
        else:
            summary["kept"] += 1
