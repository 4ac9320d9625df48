"""`pilkku sync`: the laptop's end of the sync protocol (rules_core/sync_protocol.py) over a
board's USB serial: say hello, set the board's clock, pull every finished result, store it,
and only then acknowledge it (the board frees it), push what the table plays next.

Nothing a board sends is trusted before it is checked: every reply is tagged with the pairing
key over this session (host/sync/replies.py checks its shape and bounds), a result carries
the board's MAC as a link of the board's chain. A request is sent again until its reply comes
(the board answers a repeat from its cache, so nothing is applied twice); a damaged frame or
the board's NAK costs one retransmission at once, and a silent line a few of its round trips.
Results come in pieces (host/sync/pieces.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import serial

from host.board import port_clock
from host.i18n import _, pgettext
from host.sync import mend, replies
from host.sync.collect import StoreDamaged, StoreResult, collect
from host.sync.pieces import GAP, Pulled, pull
from host.sync.replies import LineLost, NoAnswer, PortBusy, SyncError
from rules_core import sync_protocol as sp
from rules_core import sync_reader

BAUD = 115200
MAX_FRUITLESS = 400  # sendings of a request in a row that bring nothing: then the sync gives up
OLD_PROBE = 3  # silent hellos before a hello of protocol 2 asks whether the board is that old
HELLO_PART = 24  # bytes of the hello's reply per part: it is long, and the line not known yet
GIVE_UP_S = 5.0  # seconds without one whole frame from a device: the sync gives up on it
__all__ = ["BAUD", "Link", "Pulled", "SyncError", "pull", "sync_board"]


class Link:
    """Requests and replies with one board, in one session."""

    def __init__(self, port: str, key: bytes | None, timeout: float = 0.25,
                 attempts: int = 40) -> None:
        try:
            self.serial = serial.Serial(port, BAUD, timeout=0.005, exclusive=True)
        except serial.SerialException as error:
            if "exclusively lock" in str(error):  # pyserial's words for a port flock()ed
                raise PortBusy(_("%(port)s is held by another program: a running `pilkku "
                                 "sync --watch` holds its boards (it syncs them itself), or "
                                 "mpremote, a serial monitor") % {"port": port}) from None
            if not os.path.exists(port):
                raise LineLost(_("%(port)s is gone: is the board plugged in?")
                               % {"port": port}) from None
            raise SyncError(_("cannot open %(port)s: %(error)s (is another program using it?)")
                            % {"port": port, "error": error}) from None
        self.port = port
        # Seconds for every wait on the board: the laptop's, or the own clock of a board this
        # process runs (host/board/port_clock.py: the same wait for it on a loaded laptop).
        self.clock = port_clock.clock_for(port)
        self.in_clock = _(" of the board's own clock") if port_clock.is_emulated(port) else ""
        self.key = key
        self.signer = sp.Key(key) if key else None
        self.timeout = timeout
        self.attempts = attempts
        self.reader = sync_reader.Reader()
        self.seq = int.from_bytes(os.urandom(2), "big") & 0x3FFF  # room for a long session
        self.session: str | None = None
        self.board = "?"
        self.piece = sp.PIECE_MAX  # bytes asked for per piece of a result (adapts)
        self.lost = 0.0  # piece frames lost and line bytes they were sent in, decaying: the
        self.carried = 0.0  # line's damage rate, from which the piece size follows
        self.sent_bytes = 0
        self.retransmissions = 0
        self.got: list = []  # the last reply's (tag, signed body), of each part if in parts
        self.parts: dict[int, tuple] = {}  # offset -> (bytes, total, tag, body) of the parts
        # of the reply to the request being sent, kept across its sendings
        self.rtt = timeout / 4  # seconds a request and its reply take, learnt as they come
        self.heard_at = 0.0  # when the last bytes came from the board
        self.whole_at = 0.0  # when the last whole frame came (any kind: a NAK too)
        self.heard_bytes = 0  # bytes that came from the device, frames or not
        self.ahead: set[int] = set()  # numbers of pulls sent ahead, not yet read
        self.held: list = []  # frames that came for them while another was read

    def close(self) -> None:
        self.serial.close()

    def request(self, kind: str, payload: dict | None = None,
                sendings: int | None = None, since: float | None = None) -> dict:
        """The board's reply (checked to be tagged with the key in this session). NoAnswer
        after the link's `attempts` sendings met by silence, or after `sendings` sendings
        whatever came back, or when no whole frame has come for GIVE_UP_S since `since` (by
        default: now); SyncError after MAX_FRUITLESS sendings in a row that brought nothing
        of the reply (a new part of a reply in parts is something: on a poor line most
        requests come damaged, each answered by a NAK, and a long reply takes many)."""
        frame = self.next_frame(kind, dict(payload or {}))
        since = self.clock() if since is None else since
        silent = fruitless = sent = 0  # silent: sendings met by silence, not damage
        while fruitless < (sendings or MAX_FRUITLESS) and silent < self.attempts:
            self.check_alive(since)
            parts = len(self.parts)
            got, heard = self._send(frame, sent)
            sent += 1
            if got is not None:
                payload, self.got = got
                if self.session is not None:
                    self.verify()
                return payload
            silent += not heard
            fruitless = 0 if sendings is None and len(self.parts) > parts else fruitless + 1
        if silent < self.attempts and sendings is None:
            raise SyncError(_("%(port)s: %(count)d frames in a row came back damaged for one "
                              "request, bringing nothing of its reply: check the cable (or the "
                              "device is not a pilkku board)") % {
                                  "port": self.port, "count": MAX_FRUITLESS})
        # Silence is never an older firmware's: a board of another protocol answers a hello
        # (its refusal names both versions), and one of protocol 2 the hello in its layout.
        raise NoAnswer(_("%(port)s: no answer from the board (%(count)d sendings met silence, "
                         "the last awaited %(seconds)s s%(clock)s; is the scoreboard running? a "
                         "board at the REPL needs a reset; check the cable)") % {
                             "port": self.port, "count": silent, "clock": self.in_clock,
                             "seconds": "%.2f" % self.first_wait()})

    def _send(self, frame: bytes, sent: int) -> tuple[tuple[dict, list] | None, bool]:
        """One sending of a request: its reply (or None) and whether anything, if only a
        damaged frame, came back."""
        if sent:
            self.retransmissions += 1
        try:
            self.serial.write(frame)
            self.sent_bytes += len(frame)
            sent_at = self.clock()
            damaged = self.reader.damaged
            got = self._wait(self.seq)
        except (serial.SerialException, OSError) as lost:
            raise self.lost_line(lost) from None
        if got is not None and not sent:  # Karn: only clean round trips
            self.learn(self.clock() - sent_at)
        return got, got is not None or self.reader.damaged != damaged

    def next_frame(self, kind: str, payload: dict) -> bytes:
        """The frame of the next request in this session (its number is `seq` now), tagged
        with the pairing key (a hello: untagged)."""
        self.seq = (self.seq + 1) & 0xFFFF
        self.parts = {}
        body = sp.body(self.seq, kind, payload)
        tag = sp.NO_TAG
        if kind != sp.HELLO:
            if self.signer is None or self.session is None:
                raise SyncError(_("no pairing key for this tournament: run `pilkku pair`"))
            tag = sp.tag(self.signer, self.session, body)
        return sp.frame(body, tag)

    def check_alive(self, since: float) -> None:
        """NoAnswer when no whole frame has come from the device for GIVE_UP_S since `since`
        (the start of the wait): a silent device, or one sending what is no frame of ours
        (a line without its newline, noise), is given up on soon, and the other boards of
        the sync go on. A live board on a poor line sends whole frames, its NAKs at least."""
        if self.clock() - max(since, self.whole_at) <= GIVE_UP_S:
            return
        if not self.held:  # what came while a busy laptop did not look: then judge
            self.held = self.frames()
            if self.clock() - max(since, self.whole_at) <= GIVE_UP_S:
                return
        if self.heard_bytes == 0:
            why = _("it was silent")
        elif self.reader.damaged:
            why = _("%(count)d frame(s) came back damaged and no whole frame, in %(bytes)d "
                    "bytes") % {"count": self.reader.damaged, "bytes": self.heard_bytes}
        else:
            why = _("it sent %(bytes)d bytes and no whole frame") % {"bytes": self.heard_bytes}
        raise NoAnswer(_("%(port)s: gave up on the device after %(seconds)d s%(clock)s: %(why)s "
                         "(is it a pilkku board, with its scoreboard running? a board at the "
                         "REPL needs a reset; check the cable); nothing on it was changed") % {
                             "port": self.port, "seconds": GIVE_UP_S, "clock": self.in_clock,
                             "why": why})

    def learn(self, rtt: float) -> None:
        self.rtt = 0.8 * self.rtt + 0.2 * rtt

    def lost_line(self, lost: OSError | serial.SerialException) -> SyncError:
        return LineLost(_("%(port)s: lost the connection (%(error)s): plug the board back in and "
                          "sync again; nothing unsynced is lost") % {
                              "port": self.port, "error": lost})

    def verify(self) -> None:
        """The last reply (each of its parts) must carry the key's tag in this session."""
        signer, session = self.signer, self.session
        if signer is None or session is None or not self.got or not all(
                sp.same(tag, sp.tag(signer, session, body)) for tag, body in self.got):
            raise SyncError(_("%(port)s: board %(board)s answered without this tournament's "
                              "key: it is paired with another tournament, or it is not the "
                              "board it says; nothing was changed (pair it: pilkku pair --port "
                              "%(port)s)") % {"port": self.port, "board": self.board})

    def first_wait(self) -> float:
        """Seconds to wait for a reply to begin: four round trips of this line (never more
        than the link's timeout), so a lost frame costs little on a fast line, and a slow
        one is given its time."""
        return min(self.timeout, max(0.03, 4 * self.rtt))

    def frames(self) -> list:
        """The frames that have come, at once: read(4096) would sit out the serial timeout
        after every reply that is shorter. A board of protocol 2 answering the old hello
        (`hello`) ends the sync: it must be flashed."""
        if self.held:
            frames, self.held = self.held, []
            return frames
        data = self.serial.read(self.serial.in_waiting or 1)
        if data:
            self.heard_at = self.clock()
            self.heard_bytes += len(data)
        frames = self.reader.feed(data)
        if frames:
            self.whole_at = self.clock()
        for _seq, kind, payload, _tag, _body in frames:
            if kind == sp.OLD_REPLY and payload.get("ok") is True:
                raise SyncError(_("%(port)s: the board speaks sync protocol 2, this pilkku "
                                  "%(version)d: flash it with this pilkku (pilkku flash --port "
                                  "%(port)s)") % {"port": self.port, "version": sp.VERSION})
        return frames

    def _wait(self, seq: int) -> tuple[dict, list] | None:
        """The reply to `seq` (and its (tag, body) pairs), or None after the wait, or at once
        when a damaged frame or a NAK came (the reply or the request was damaged: send again
        rather than wait). A reply in parts is over when all have come (kept across the
        request's sendings: the board sends the same parts again) or the line is quiet."""
        deadline = self.clock() + self.first_wait()
        damaged = self.reader.damaged
        parts = len(self.parts)
        last = False
        while not last:
            # One look after the deadline too: a laptop that did not run this thread until
            # past it (a busy one) reads what came in time before calling it silence.
            last = self.clock() >= deadline
            for got_seq, kind, payload, tag, body in self.frames():
                if got_seq == seq and kind == sp.REPLY:
                    return payload, [(tag, body)]
                if got_seq == seq and kind == sp.PART:
                    self.parts[payload["offset"]] = (payload["data"], payload["total"], tag,
                                                     body)
                    whole = self._whole_reply()
                    if whole is not None:
                        return whole
                if kind == sp.NAK:
                    self.reader.damaged += 1  # counts as a damaged frame: not silence
                    return None
            if len(self.parts) != parts:  # parts are coming: wait for the line to be quiet
                deadline = max(deadline, self.heard_at + GAP)
                last = self.clock() >= deadline
            elif self.reader.damaged != damaged:
                return None
        return None

    def _whole_reply(self) -> tuple[dict, list] | None:
        """The reply the parts make once they are all in, else None. Parts of two lengths
        (a board not what it says) are a malformed reply."""
        totals = {total for _data, total, _tag, _body in self.parts.values()}
        if len(totals) != 1:
            raise SyncError("%s: board %s sent parts of replies of different lengths: run "
                            "`pilkku flash --port %s`" % (self.port, self.board, self.port))
        total = totals.pop()
        text = bytearray(total)
        have = bytearray(total)
        for offset, (data, _total, _tag, _body) in self.parts.items():
            text[offset:offset + len(data)] = data
            have[offset:offset + len(data)] = b"\x01" * len(data)
        if have.count(0):
            return None
        try:
            payload = sp.loads_reply(bytes(text))
        except sp.FrameError as why:
            raise SyncError("%s: board %s sent a reply in parts that is not one (%s): run "
                            "`pilkku flash --port %s`" % (self.port, self.board, why,
                                                          self.port)) from None
        return payload, [(tag, body) for _data, _total, tag, body in self.parts.values()]

    def call(self, kind: str, payload: dict | None = None,
             sendings: int | None = None) -> dict:
        """A request whose reply must say ok, checked for its kind (replies.py)."""
        reply = self.request(kind, payload, sendings)
        return replies.check(self, kind, reply, payload or {})

    def hello(self) -> dict:
        ours = os.urandom(8).hex()
        self.session = None
        payload = {"version": sp.VERSION, "nonce": ours, "part": HELLO_PART}
        since = self.clock()  # the whole hello, the old one too, within GIVE_UP_S
        try:
            answer = self.request(sp.HELLO, payload, OLD_PROBE, since)
        except NoAnswer:
            # Silence: perhaps a board of protocol 2, which cannot read this layout. Ask in
            # its own; its answer ends the sync with "flash it" (frames()).
            self.check_alive(since)
            self.serial.write(sp.old_frame(self.seq, sp.HELLO, {"version": 2, "nonce": ours}))
            answer = self.request(sp.HELLO, payload, since=since)
        reply = replies.check(self, sp.HELLO, answer, {})
        self.board = reply["board"]
        if reply["paired"] and self.signer is not None:
            # The hello's tag can be checked only now that its reply named the board's nonce.
            self.session = reply["nonce"] + ours
            self.verify()
        return reply


# What a sync talks to on the laptop's side (host/sync/commands.py provides it): how a
# result is stored (StoreResult, StoreDamaged: host/sync/collect.py), and
#   schedule_for(table) -> list[dict]    the matches the table plays next
ScheduleFor = Callable[[int], list]


# claim(board, table, hello) -> None, or why the board may not be that table (another board
# holds it, the tournament has no such table); a refused board gets no table and an empty
# schedule, and its results are still pulled.
Claim = Callable[[str, "int | None", dict], "str | None"]


def sync_board(link: Link, store_result: StoreResult, schedule_for: ScheduleFor,
               say: Callable[[str], None] = print, table: int | None = None,
               wall_time: Callable[[], float] = time.time, claim: Claim | None = None,
               store_damaged: StoreDamaged | None = None,
               last_link: mend.LastLink | None = None, hello: dict | None = None,
               lang: str | None = None) -> dict:
    """One board's whole sync; returns a summary of what changed. `lang`: the language of
    the board's displays, sent with its schedule (a board before it ignores the field).
    Without `store_damaged` the board's damaged results are left on it (counted as kept);
    without `last_link` a board whose chain was lost on its flash is not synced
    (host/sync/mend.py). `hello`: the reply to the hello just said on this link (the
    watcher's, which looked who the board is)."""
    hello = hello if hello is not None else link.hello()
    board = hello["board"]
    say(_("%(port)s: board %(board)s, firmware %(firmware)s, table %(table)s") % {
        "port": link.port, "board": board, "firmware": hello["firmware"],
        "table": hello["table"] if hello["table"] is not None else pgettext("table", "none")})
    if not hello["paired"]:
        raise SyncError(mend.unpaired(link.port, hello) or (
            _("%(port)s: board %(board)s is not paired with this tournament: run `pilkku pair "
              "--port %(port)s`") % {"port": link.port, "board": board}))
    link.call(sp.CLOCK, {"time": int(wall_time())})
    for note in mend.notes(link.port, hello):  # its kept files, found damaged
        say(note)
    if hello["chain"] is None:  # its chain lost: given the head the store holds
        hello["chain"] = mend.chain(link, hello, last_link, say)
    wanted = table if table is not None else hello["table"]
    refused = claim(board, wanted, hello) if claim is not None else None
    if refused:
        say(_("%(port)s: board %(board)s refused: %(why)s") % {
            "port": link.port, "board": board, "why": refused})
    elif table is not None and table != hello["table"]:
        link.call(sp.TABLE, {"table": table})
        say(_("%(port)s: board %(board)s is now table %(table)d") % {
            "port": link.port, "board": board, "table": table})
    summary = {"board": board, "table": None if refused else wanted, "refused": refused,
               "chain": hello["chain"], "stored": 0, "duplicates": 0, "kept": 0,
               "damaged": 0, "scheduled": 0, "retransmissions": 0}
    collect(link, board, store_result, store_damaged, say, summary)
    if refused:
        link.call(sp.SCHEDULE, {"matches": []})  # no tournament match on a board without a table
    elif summary["table"] is not None:
        matches = schedule_for(summary["table"])
        link.call(sp.SCHEDULE, {"matches": matches} if lang is None else
                  {"matches": matches, "lang": lang})
        summary["scheduled"] = len(matches)
        say(_("%(port)s: table %(table)s gets %(count)d match(es): %(matches)s") % {
            "port": link.port, "table": summary["table"], "count": len(matches),
            "matches": ", ".join(m["match_id"] for m in matches) or _("none")})
    summary["retransmissions"] = link.retransmissions
    return summary
