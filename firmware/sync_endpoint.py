"""The board's end of the sync protocol (rules_core/sync_protocol.py): requests from the
tournament laptop on the USB serial, answered from the journal, the config and the match in
play. Everything here is driven by the app's tick; nothing blocks.

A write (schedule, table, clock, acknowledging a result) is applied only with the pairing
key's MAC over this session's nonce; a repeated request (same sequence number) gets the
reply it already had and is not applied again.
"""

import os

from rules_core import sync_protocol as sp

MAX_SCHEDULE = 8  # matches a board keeps for its table


def firmware_version():
    try:
        from pilkku_version import VERSION  # type: ignore[import-not-found]

        return VERSION
    except ImportError:
        return "dev"


class Endpoint:
    def __init__(self, usb, journal, config, app=None):
        self.usb = usb
        self.journal = journal
        self.config = config
        self.app = app
        self.reader = sp.Reader()
        self.nonce = None
        self.last = None  # (seq, kind, reply frame) of the last request answered
        self.pulled = None  # (seq, text, mac) of the result being pulled, in pieces
        self.clock_offset = None  # wall seconds minus board seconds, once the host set it

    def feed(self, data, now):
        if not data:
            return
        for seq, kind, payload in self.reader.feed(data):
            self._request(seq, kind, payload, now)

    def wall_time(self, now):
        """Seconds since 1970 by the clock the host set, or None before that."""
        if self.clock_offset is None:
            return None
        return self.clock_offset + now // 1000

    # --- requests -----------------------------------------------------------------

    def _request(self, seq, kind, payload, now):
        if kind != sp.HELLO and self.last is not None and self.last[:2] == (seq, kind):
            self.usb.write(self.last[2])  # a retransmission: the same reply, nothing redone
            return
        try:
            reply = self._answer(seq, kind, payload, now)
        except Exception as error:  # a flash error, a bad payload: say so, keep running
            reply = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
        frame = sp.encode(seq, sp.REPLY, reply)
        self.last = (seq, kind, frame)
        self.usb.write(frame)

    def _answer(self, seq, kind, payload, now):
        if not isinstance(payload, dict):
            return _no("the payload must be an object")
        if kind == sp.HELLO:
            return self._hello(payload)
        if self.nonce is None:
            return _no("say hello first")
        if kind in sp.WRITES:
            refusal = self._check_mac(seq, kind, payload)
            if refusal is not None:
                return refusal
        if kind == sp.CLOCK:
            self.clock_offset = int(payload["time"]) - now // 1000
            return {"ok": True}
        if kind == sp.TABLE:
            self.config.set_table(int(payload["table"]))
            return {"ok": True, "table": self.config.table}
        if kind == sp.SCHEDULE:
            return self._schedule(payload)
        if kind == sp.LIVE:
            return {"ok": True, "live": self._live()}
        if kind == sp.RESULTS:
            return {"ok": True, "results": self.journal.finished()}
        if kind == sp.PULL:
            return self._pull(payload)
        if kind == sp.ACK:
            gone = not self.journal.acknowledge(int(payload["seq"]))
            if self.pulled is not None and self.pulled[0] == payload["seq"]:
                self.pulled = None
            return {"ok": True, "gone": gone}
        return _no("unknown request '%s'" % kind)

    def _hello(self, payload):
        version = payload.get("version")
        if version != sp.VERSION:
            return _no("the laptop speaks sync protocol %s, this board %d: flash the board "
                       "with the laptop's pilkku" % (version, sp.VERSION))
        self.nonce = "".join(["%02x" % b for b in os.urandom(8)])
        self.last = None
        return {"ok": True, "protocol": sp.VERSION, "board": self.config.board,
                "firmware": firmware_version(), "table": self.config.table,
                "nonce": self.nonce, "paired": self.config.key() is not None}

    def _check_mac(self, seq, kind, payload):
        key = self.config.key()
        if key is None:
            return _no("this board is not paired: run `pilkku pair` for this tournament")
        if not sp.same(payload.get("mac"), sp.write_mac(key, self.nonce, seq, kind, payload)):
            return _no("refused: the request is not signed with this board's pairing key")
        return None

    def _schedule(self, payload):
        matches = payload.get("matches")
        if not isinstance(matches, list) or len(matches) > MAX_SCHEDULE:
            return _no("a schedule is a list of at most %d matches" % MAX_SCHEDULE)
        for match in matches:
            if not isinstance(match, dict) or "match_id" not in match or "settings" not in match:
                return _no("each match needs a match_id and settings")
        self.config.set_schedule(matches)
        if self.app is not None:
            self.app.schedule_changed()
        return {"ok": True, "count": len(matches)}

    def _live(self):
        match = self.app.match if self.app is not None else None
        if match is None:
            return None
        state = match.state
        return {"game": state.game, "players": state.players, "score": state.score,
                "shooter": state.shooter, "finished": state.finished,
                "events": len(match.log), "match_id": self.app.match_meta.get("match_id")}

    def journal_meta(self):
        log = getattr(self.journal, "log", None)
        meta = getattr(log, "meta", None)
        return meta if isinstance(meta, dict) else {}

    def _pull(self, payload):
        seq = int(payload["seq"])
        offset = int(payload.get("offset", 0))
        if self.pulled is None or self.pulled[0] != seq:
            parts = []
            self.journal.dump_document(seq, parts.append)
            text = "".join(parts)
            self.pulled = (seq, text, sp.mac(self.config.key() or b"", text.encode()))
        text = self.pulled[1]
        return {"ok": True, "seq": seq, "offset": offset, "total": len(text),
                "text": text[offset:offset + sp.CHUNK], "mac": self.pulled[2]}


def _no(reason):
    return {"ok": False, "error": reason}

