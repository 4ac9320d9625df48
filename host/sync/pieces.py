"""Pulling one finished result from a board (rules_core/sync_protocol.py, request "P"): one
pull asks for up to BURST_MAX bytes from an offset, the board answers with a reply (the
result's length, its chain link when asked) and the bytes themselves in piece frames, each
tagged. What arrives whole is kept; the next pull asks from the first byte still missing, so
a damaged piece costs only itself, never the result from the start.

The piece size follows the line: the damage rate is learnt from the pieces lost (counts that
halve at every pull, so it forgets quickly), and the size chosen is the one that carries the
most result bytes per line byte at that rate, between PIECE_MIN and PIECE_MAX.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial

from host.i18n import _
from host.sync import replies
from host.sync.replies import NoAnswer, SyncError
from rules_core import bounded
from rules_core import sync_protocol as sp

RESULT_DEPTH = 12  # how deep a pulled result document may nest

GAP = 0.03  # seconds of a quiet line after which a pull's answer is over
HEADER = 80  # line bytes of a pull's reply (without its link)
MAX_EARLY = 256  # pieces kept before the reply saying the result's length has come
MAX_STALLS = 400  # pulls in a row that bring nothing new: then the sync gives up
MAX_PULL_SENDINGS = 400  # of one pull, however noisy a live line
RUNS = sp.RUNS_MAX  # stretches of missing bytes one pull asks for again


@dataclass
class Pulled:
    seq: int
    text: str
    board_mac: str
    verified: bool  # the board's MAC over its chain link matches the tournament's key
    document: dict = field(repr=False, default_factory=dict)
    n: int | None = None  # the link's number in the board's chain
    prev: str = ""  # the MAC of the link before


class _Result:
    """The bytes of one result as they arrive, in any order."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.data = bytearray()
        self.have = bytearray()  # 1 for each byte that has come
        self.early: dict[int, bytes] = {}
        self.chained: Any = None
        self.linked = False
        self.asked = 0  # the end of the furthest bytes asked for

    def sized(self, total: int) -> None:
        self.total = total
        self.data = bytearray(total)
        self.have = bytearray(total)
        early, self.early = self.early, {}
        for offset, piece in early.items():
            self.place(offset, piece)

    def place(self, offset: int, piece: bytes) -> bool:
        """Keep a piece; False if it is past the end (the board is not what it says)."""
        if self.total is None:
            if len(self.early) < MAX_EARLY:
                self.early[offset] = piece
            return True
        if offset + len(piece) > self.total:
            return False
        self.data[offset:offset + len(piece)] = piece
        self.have[offset:offset + len(piece)] = b"\x01" * len(piece)
        return True

    def runs(self, size: int) -> tuple[list[int], bool] | None:
        """What to ask for next, as a pull's "at": [offset, pieces, ...] for up to RUNS
        stretches still missing, at most a burst in all, and whether that is all that is
        missing; None when all has come."""
        most = max(1, min(sp.COUNT_MAX, sp.BURST_MAX // size))
        if self.total is None:  # the first pull; or its reply was lost: ask for it alone
            return ([], False) if self.early else ([0, most], False)
        at: list[int] = []
        start = self.have.find(0)
        while start >= 0 and most > 0 and len(at) < 2 * RUNS:
            end = self.have.find(1, start)
            end = self.total if end < 0 else end
            pieces = min(most, -(-(end - start) // size))
            at += [start, pieces]
            most -= pieces
            start = self.have.find(0, end if pieces * size >= end - start else start + 1)
        if not at and self.linked:
            return None
        return at, start < 0


class Request:
    """A pull, framed (and perhaps already sent: `begin`)."""

    def __init__(self, link: Any, payload: dict) -> None:
        self.frame = link.next_frame(sp.PULL, payload)
        self.seq = link.seq
        self.payload = payload
        self.sent = False
        self.whole: bool | None = None  # whether it asks for all that is missing (None:
        # not known when it was sent: all, if the result is no longer than its one run)


def begin(link: Any, seq: int, ack: int | None = None) -> Request:
    """Send the first pull of result `seq` now (its answer is read by `pull`), carrying the
    acknowledgement of the result before (stored): while the board answers, the laptop stores
    the result before, and the line never waits for either."""
    payload = {"seq": seq, "size": link.piece,
               "at": [0, max(1, min(sp.COUNT_MAX, sp.BURST_MAX // link.piece))]}
    if link.piece == sp.PIECE_MAX:  # a clean line: the link with it (else asked apart)
        payload["link"] = True
    if ack is not None:
        payload["ack"] = ack
    request = Request(link, payload)
    _send(link, request)
    link.ahead.add(request.seq)
    return request


def pull(link: Any, seq: int, first: Request | None = None,
         ahead: Callable[[], None] | None = None) -> Pulled:
    """One finished result as the exact text the board signed. `first`: its first pull, sent
    already (`begin`); `ahead` is called once the last bytes needed are on their way (to send
    the next result's first pull behind them). replies.Damaged if the board finds it damaged
    (then set aside there: `pull_damaged`)."""
    result = _gather(link, seq, first, ahead, False)
    return _checked(link, seq, bytes(result.data), result.chained)


def pull_damaged(link: Any, seq: int) -> bytes:
    """A damaged result's bytes, as they are in the board's file: pulled in pieces like any
    result, with no link (the board signs nothing of it; the session's tags vouch for the
    pieces), bounded by the same total."""
    return bytes(_gather(link, seq, None, None, True).data)


def _gather(link: Any, seq: int, first: Request | None, ahead: Callable[[], None] | None,
            damaged: bool) -> _Result:
    """The bytes of result `seq` (and its link, unless `damaged`) as they come, piece by
    piece."""
    result = _Result()
    result.linked = damaged  # a damaged result has no link to ask for
    stalls = 0
    # The acknowledgement the first pull carries goes with every pull of this result until
    # one of them is answered: a reply shows the board took that request, and with it the
    # acknowledgement. A first pull lost on the line (a NAK lost too: only damage heard)
    # would otherwise leave the result before on the board, though it was reported stored.
    ack = first.payload.get("ack") if first is not None else None
    while True:
        if first is not None:
            request, first = first, None
        else:
            runs = result.runs(link.piece)
            if runs is None:
                break
            at, whole = runs
            if not at and result.total is not None:  # all bytes are in, not the link
                result.chained, result.linked = _link_alone(link, seq, result.total, ack), True
                ack = None
                continue
            if result.total is not None and at and at[0] < result.asked:
                link.retransmissions += 1  # bytes asked for before: a pull sent again
            payload = {"seq": seq, "size": link.piece, "at": at}
            if damaged:
                payload["damaged"] = True
            if ack is not None:
                payload["ack"] = ack
            # The link (two MACs: a long reply) with the first pull, else once all bytes
            # are in: on a poor line short replies get through, long ones seldom (there it
            # is asked for alone, in parts: _link_alone).
            if not result.linked and link.piece == sp.PIECE_MAX and (
                    result.total is None and not result.early
                    or result.total is not None and whole):
                payload["link"] = True
            request = Request(link, payload)
            request.whole = whole
        reply, pieces = _exchange(link, request, ahead)
        size, at = request.payload["size"], request.payload["at"]
        result.asked = max([result.asked] + [at[i] + at[i + 1] * size
                                             for i in range(0, len(at), 2)])
        before = (result.have.count(1), len(result.early), result.total, result.linked)
        if reply is not None:
            ack = None
            if result.total is None:
                result.sized(reply["total"])
            elif reply["total"] != result.total:
                raise replies.malformed(link, sp.PULL, _("the result changed between pulls"))
            if "link" in reply and not result.linked:
                result.chained, result.linked = reply["link"], True
        for piece_offset, piece in pieces:
            if not result.place(piece_offset, piece):
                raise replies.malformed(link, sp.PULL, _("a piece past the end of the result"))
        expected = reply["frames"] if reply is not None else sum(at[1::2])
        _adapt(link, max(0, expected - len(pieces)) + (reply is None),
               expected * (size + sp.OVERHEAD) + HEADER)
        # Pulls that bring nothing new, one after another: a line too poor, or a board that
        # does not move on, ends the sync (each pull that brings something moves on: bounded).
        now = (result.have.count(1), len(result.early), result.total, result.linked)
        stalls = stalls + 1 if now == before else 0
        if stalls >= MAX_STALLS:
            raise SyncError(_("%(port)s: %(count)d pulls in a row brought nothing of result "
                              "#%(seq)d: check the cable (or the device is not a pilkku board)")
                            % {"port": link.port, "count": MAX_STALLS, "seq": seq})
    return result


def _link_alone(link: Any, seq: int, total: int, ack: int | None) -> Any:
    """The result's link, asked for in a pull of no pieces, its reply in parts the size of
    the line's pieces (one frame on a clean line): the same request is sent until all parts
    have come (the board sends the same bytes again), so a poor line costs a few sendings."""
    payload: dict = {"seq": seq, "size": link.piece, "at": [], "link": True}
    if link.piece < sp.PIECE_MAX:
        payload["part"] = link.piece
    if ack is not None:
        payload["ack"] = ack
    reply = link.call(sp.PULL, payload)
    if reply["total"] != total:
        raise replies.malformed(link, sp.PULL, _("the result changed between pulls"))
    return reply["link"]


def loads_result(text: str) -> Any:
    """A pulled result document, bounded like every other input from a board."""
    return bounded.loads(text, sp.MAX_RESULT, RESULT_DEPTH)


def _checked(link: Any, seq: int, data: bytes, chained: Any) -> Pulled:
    try:
        text = data.decode()
        document = loads_result(text)
    except (UnicodeError, bounded.Malformed) as why:
        raise replies.malformed(link, sp.PULL, _("the result is not a match log (%(why)s)")
                                % {"why": why}) from None
    if not isinstance(document, dict) or not isinstance(document.get("meta", {}), dict):
        raise replies.malformed(link, sp.PULL, _("the result is not a match log"))
    if chained is None:
        return Pulled(seq, text, "", False, document)
    n, prev, mac = chained
    verified = link.signer is not None and sp.same(
        mac, sp.result_mac(link.signer, link.board, n, prev, data))
    return Pulled(seq, text, mac, verified, document, n, prev)


def _adapt(link: Any, lost: int, carried: int) -> None:
    """Learn the line's damage rate from one pull's piece frames and pick the piece size
    that carries most per line byte at that rate: with h bytes of frame around a piece of
    size z, a frame arrives whole with (1 - p) ** (z + h), and z / (z + h) of it is result,
    which is largest at z = (sqrt(h * h + 4 * h / p) - h) / 2 (about 40 bytes at 1 %)."""
    link.lost = link.lost / 2 + lost
    link.carried = link.carried / 2 + carried
    if link.lost < 0.01:
        link.piece = min(sp.PIECE_MAX, link.piece * 2)
        return
    h = sp.OVERHEAD
    # lost / carried is frames lost per byte; a frame of n bytes is lost with 1 - (1 - p) ** n,
    # so that is far below p on a poor line: the byte rate is got back from the frames'.
    n = link.piece + h
    rate = 1 - (1 - min(0.99, link.lost / link.carried * n)) ** (1 / n)
    best = (math.sqrt(h * h + 4 * h / rate) - h) / 2
    link.piece = max(sp.PIECE_MIN, min(sp.PIECE_MAX, int(best)))


def _last(reply: dict, request: Request) -> bool:
    """Whether a pull's answer brings all of the result that is still missing."""
    if request.whole is not None:
        return request.whole
    at = request.payload["at"]
    return len(at) == 2 and at[0] == 0 and at[1] * request.payload["size"] >= reply["total"]


def _send(link: Any, request: Request) -> None:
    try:
        link.serial.write(request.frame)
    except (serial.SerialException, OSError) as lost:
        raise link.lost_line(lost) from None
    link.sent_bytes += len(request.frame)
    request.sent = True


def _exchange(link: Any, request: Request, ahead: Callable[[], None] | None
              ) -> tuple[dict | None, list[tuple[int, bytes]]]:
    """One pull: (its reply or None, the pieces that came whole). The same request is sent
    again at once on a NAK (the request came damaged), after its first wait in silence; NoAnswer
    after the link's attempts."""
    since = link.clock()
    silent = 0  # sendings met by silence: a damaged frame or a NAK shows a live board
    for sending in range(MAX_PULL_SENDINGS):
        link.check_alive(since)
        if silent >= link.attempts:
            break
        if sending:
            link.retransmissions += 1
            if request.seq != link.seq:
                # Sent ahead, and a later request went since: the board would refuse this
                # number now (numbers only go up), so it goes again under the next one.
                link.ahead.discard(request.seq)
                whole, request = request.whole, Request(link, request.payload)
                request.whole = whole
        fresh = not request.sent or sending > 0
        if fresh:
            _send(link, request)
        damaged = link.reader.damaged
        try:
            heard = _listen(link, request, ahead, fresh and not sending)
        except (serial.SerialException, OSError) as lost:
            raise link.lost_line(lost) from None
        if heard is not None:
            link.ahead.discard(request.seq)
            return heard
        if link.reader.damaged == damaged:
            silent += 1
    if silent < link.attempts:
        raise SyncError(_("%(port)s: %(count)d frames came back damaged for one pull: check "
                          "the cable (or the device is not a pilkku board)") % {
                              "port": link.port, "count": MAX_PULL_SENDINGS})
    raise NoAnswer(_("%(port)s: no answer from the board to a pull (%(count)d sendings met "
                     "silence, the last awaited %(seconds)s s%(clock)s; check the cable)") % {
                         "port": link.port, "count": silent, "clock": link.in_clock,
                         "seconds": "%.2f" % link.first_wait()})


def _listen(link: Any, request: Request, ahead: Callable[[], None] | None, timed: bool
            ) -> tuple[dict | None, list] | None:
    """What came for a pull; None for a NAK or silence (send again). Frames answering a
    pull sent ahead are kept for it. `timed`: sent just now, once (its first bytes time the
    line's round trip)."""
    asked, seq = request.payload, request.seq
    sent = link.clock()
    deadline = sent + max(link.first_wait(), link.timeout if "link" in asked else 0)
    damaged = link.reader.damaged
    reply: dict | None = None
    pieces: dict[int, bytes] = {}
    heard = False
    later: list = []
    while link.clock() < deadline:
        frames = link.frames()
        for frame in frames:
            got_seq, kind, payload, tag, body = frame
            if kind == sp.NAK and not heard:
                link.held = later + link.held
                link.reader.damaged += 1  # counts as a damaged frame: not silence
                return None  # the request came damaged
            if got_seq != seq and got_seq in link.ahead:
                later.append(frame)
            if got_seq != seq or kind not in (sp.REPLY, sp.PIECE):
                continue
            link.got = [(tag, body)]
            link.verify()
            heard = True
            if kind == sp.REPLY:
                reply = replies.check(link, sp.PULL, payload, asked)
                if ahead is not None and _last(reply, request) and link.lost < 0.01:
                    ahead()  # all that is missing is coming: the next pull can go now
                    ahead = None
            elif len(payload["data"]) > asked["size"]:
                raise replies.malformed(link, sp.PULL, _("a piece longer than asked"))
            else:
                pieces[payload["offset"]] = payload["data"]
        if link.reader.damaged != damaged:
            heard = True
        if timed and link.heard_at > sent:  # the first bytes of the answer: a round trip
            link.learn(link.heard_at - sent)
            timed = False
        if reply is not None and len(pieces) + link.reader.damaged - damaged >= reply["frames"]:
            break
        if heard:  # the answer is coming: it is over when the line is quiet (counted from
            # now at the earliest: the frames held for it came while another was read)
            deadline = max(link.heard_at, sent) + GAP
    link.held = later + link.held
    if not heard:
        return None
    return reply, sorted(pieces.items())
