"""Checking what a board answers before anything of it is used: each reply's shape, types
and bounds by the request it answers (exact types: no bool for a number, no float). A reply
that does not check out ends the sync with that board with a clear message; nothing of it is
stored or acknowledged."""

from __future__ import annotations

from typing import Any

from host.i18n import N_, _
from rules_core import bounded
from rules_core import sync_protocol as sp

_BIG = 1 << 40
KEPT_FILES = ("chain", "config", "schedule")  # the board's kept files a hello may name
# The requests as a person reads them (translated where said).
_WHAT = {sp.HELLO: N_("hello"), sp.CLOCK: N_("clock"), sp.TABLE: N_("table"),
         sp.SCHEDULE: N_("schedule"), sp.LIVE: N_("live"), sp.RESULTS: N_("results"),
         sp.PULL: N_("pull"), sp.ACK: N_("acknowledge"), sp.CHAIN: N_("chain head")}


class SyncError(RuntimeError):
    pass


class NoAnswer(SyncError):
    """No whole reply came to a request however often it was sent."""


class LineLost(SyncError):
    """The port itself went away (a board unplugged, a virtual board's pty closed): its
    device is gone, not merely silent."""


class PortBusy(SyncError):
    """The port cannot be opened because another program holds it (a running
    `pilkku sync --watch`, mpremote, a serial monitor)."""


class Damaged(SyncError):
    """The board found the result a pull asked for damaged and set it aside: it is pulled
    again as a damaged result's bytes (docs/sync-protocol.md, "Damaged results")."""

    def __init__(self, port: str, seq: int) -> None:
        super().__init__(_("%(port)s: result #%(seq)d is damaged on the board: set aside")
                         % {"port": port, "seq": seq})
        self.seq = seq


def malformed(link: Any, kind: str, detail: str) -> SyncError:
    what = _(_WHAT[kind]) if kind in _WHAT else kind
    return SyncError(_("%(port)s: board %(board)s sent a malformed reply to %(request)s "
                       "(%(detail)s): its firmware is not this pilkku's, or it is not a pilkku "
                       "board; nothing of it was stored (run `pilkku flash --port %(port)s`)") % {
                           "port": link.port, "board": link.board, "request": what,
                           "detail": detail})


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text[:200])


def check(link: Any, kind: str, reply: dict, asked: dict) -> dict:
    """`reply` if it says ok and has what a reply to `kind` must have; else SyncError."""
    ok = reply.get("ok")
    if not isinstance(ok, bool):
        raise malformed(link, kind, _("no 'ok'"))
    if not ok:
        error = reply.get("error")
        if not isinstance(error, str):
            raise malformed(link, kind, _("a refusal without its reason"))
        damaged = reply.get("damaged")
        if damaged is not None and (damaged is not True or kind != sp.PULL
                                    or asked.get("damaged")):
            raise malformed(link, kind, _("'damaged' where it has no place"))
        if damaged:
            raise Damaged(link.port, asked["seq"])
        raise SyncError(_("%(port)s: the board refused: %(why)s") % {
            "port": link.port, "why": _printable(error)})
    problem = _CHECKS[kind](reply, asked) if kind in _CHECKS else None
    if problem:
        raise malformed(link, kind, problem)
    return reply


def _whole(reply: dict, name: str, low: int, high: int) -> str | None:
    if not bounded.whole(reply.get(name), low, high):
        return _("'%(name)s' is not a whole number from %(low)d to %(high)d") % {
            "name": name, "low": low, "high": high}
    return None


def _hello(reply: dict, _asked: dict) -> str | None:
    if reply.get("protocol") != sp.VERSION or isinstance(reply.get("protocol"), bool):
        return _("protocol is not %(version)d") % {"version": sp.VERSION}
    if not sp.board_id_ok(reply.get("board")):
        return _("the board id is not 1-32 of a-z, 0-9 and '-'")
    firmware = reply.get("firmware")
    if not isinstance(firmware, str) or len(firmware) > 64 or not firmware.isprintable():
        return _("no firmware version")
    if reply.get("table") is not None and not bounded.whole(reply.get("table"), 1, 9999):
        return _("the table is not a number from 1 to 9999")
    if not sp.nonce_ok(reply.get("nonce")):
        return _("no nonce")
    if not isinstance(reply.get("paired"), bool):
        return _("no 'paired'")
    for name in ("mended", "lost"):  # the kept files the board found damaged
        names = reply.get(name)
        if not isinstance(names, list) or len(set(names)) != len(names) \
                or not all(n in KEPT_FILES for n in names):
            return _("'%(name)s' is not a list of the board's kept files") % {"name": name}
    chain = reply.get("chain")
    if chain is None and "chain" in reply["lost"]:
        return None  # lost on its flash: the laptop gives it its head (host/sync/mend.py)
    return _chain(reply)


def _chain(reply: dict, asked: dict | None = None) -> str | None:
    """A chain head, [n, MAC or ""] (the one asked for, in the reply to a K request)."""
    chain = reply.get("chain")
    if not (isinstance(chain, list) and len(chain) == 2 and bounded.whole(chain[0], 0, _BIG)
            and _mac_or_empty(chain[1])) or "chain" in reply.get("lost", ()):
        return _("no chain head")
    if asked is not None and chain != [asked["n"], asked["mac"]]:
        return _("another chain head than the one given")
    return None


def _mac_or_empty(value: Any) -> bool:
    return isinstance(value, str) and (value == "" or _is_mac(value))


def _is_mac(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef"
                                                               for c in value)


def _results(reply: dict, _asked: dict) -> str | None:
    for name in ("results", "damaged"):
        numbers = reply.get(name)
        if not isinstance(numbers, list) or len(numbers) > sp.MAX_RESULTS:
            return _("'%(name)s' is not a list of at most %(count)d numbers") % {
                "name": name, "count": sp.MAX_RESULTS}
        if not all(bounded.whole(n, 0, _BIG) for n in numbers) \
                or len(set(numbers)) != len(numbers):
            return _("'%(name)s' holds something else than distinct result numbers") % {
                "name": name}
    if set(reply["results"]) & set(reply["damaged"]):
        return _("a result both whole and damaged")
    return None


def _pull(reply: dict, asked: dict) -> str | None:
    """The reply to a pull: the result asked for, its length in bytes, how many piece frames
    follow (no more than asked), its link when asked."""
    if reply.get("seq") != asked["seq"] or isinstance(reply.get("seq"), bool):
        return _("a reply about another result")
    problem = _whole(reply, "total", 0, sp.MAX_RESULT) or _whole(reply, "frames", 0,
                                                                  sum(asked["at"][1::2]))
    if problem:
        return problem
    if "link" not in reply and asked.get("link"):
        return _("no 'link' though it was asked for")
    if reply.get("damaged", False) is not bool(asked.get("damaged")) or (
            "damaged" in reply and (reply["damaged"] is not True or "link" in reply)):
        return _("a damaged result's bytes where a result was asked for, or the other way")
    link = reply.get("link")
    if link is not None and not (isinstance(link, list) and len(link) == 3
                                 and bounded.whole(link[0], 1, _BIG)
                                 and _mac_or_empty(link[1]) and _is_mac(link[2])):
        return _("'link' is not [n, previous MAC, MAC]")
    return None


def _ack(reply: dict, _asked: dict) -> str | None:
    return None if isinstance(reply.get("gone"), bool) else "no 'gone'"


def _table(reply: dict, _asked: dict) -> str | None:
    return _whole(reply, "table", 1, 9999)


def _schedule(reply: dict, _asked: dict) -> str | None:
    return _whole(reply, "count", 0, 64)


_CHECKS = {sp.HELLO: _hello, sp.RESULTS: _results, sp.PULL: _pull, sp.ACK: _ack,
           sp.TABLE: _table, sp.SCHEDULE: _schedule, sp.CHAIN: _chain}
