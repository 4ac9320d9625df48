"""The board's end of the sync protocol (rules_core/sync_protocol.py): requests from the
tournament laptop on the USB serial, answered from the journal, the config and the match in
play. Everything here is driven by the app's tick; nothing blocks, and no byte sequence can
stop it: a frame that does not decode is dropped, a request that does not check out is refused.

Every request after the hello must carry the pairing key's tag over this session (the board's
nonce and the laptop's) and the next sequence number; the request before it, sent again, gets
the very reply it had (cached; a pull's pieces are made again, the same bytes), and is not
applied twice. Replies and pieces are tagged the same way. A damaged frame is answered with a
NAK, so the laptop sends again at once; a hello of protocol 2 gets a refusal it can read.
A request the heap has no room to answer is dropped, and the pieces of a pull it has no room
to make are left out: the laptop asks again, as after a line that lost them.

The serial is also the REPL's. A lone Ctrl-C (0x03) is line noise and is dropped; a Ctrl-C
right after a carriage return (what mpremote and `pilkku flash` send) or two in a row (a person
at a terminal) raises KeyboardInterrupt: the board leaves the scoreboard for the REPL.
"""

import gc
import os

from firmware.result_chain import Chain
from firmware.sync_pull import TIME_MAX, Pulling
from firmware.sync_pull import no as _no
from firmware.unsynced import repl_asked
from hardware.compat import ticks_diff
from rules_core import bounded, sync_reader
from rules_core import sync_protocol as sp

MAX_SCHEDULE = 8  # matches a board keeps for its table
_CODE_MAX = 20  # characters of a match code (host/tournament/imports.py)


def firmware_version():
    try:
        from pilkku_version import VERSION  # type: ignore[import-not-found]

        return VERSION
    except ImportError:
        return "dev"


class Endpoint(Pulling):
    def __init__(self, usb, journal, config, app=None):
        self.usb = usb
        self.journal = journal
        self.config = config
        self.app = app
        self.reader = sync_reader.Reader()
        self.chain = Chain(_folder(config))
        if journal is not None:  # links of results acknowledged since its last write: gone
            self.chain.keep(journal.finished())
        self.key = None  # the pairing key (sp.Key) as of this session's hello
        self.session = None  # the board's nonce and the laptop's, once a hello came
        self.last = None  # (seq, kind, reply frame, pull) of the last request answered
        self.quiet_since = 0
        self.pulled = None  # ((seq, damaged), its bytes in chunks, link, length) being pulled
        self.clock_offset = None  # wall seconds minus board seconds, once the host set it
        self._last_byte = 0

    def feed(self, data, now):
        if not data:
            return
        if repl_asked(data, self._last_byte):
            raise KeyboardInterrupt  # the REPL is asked for (see the docstring)
        self._last_byte = data[-1]
        damaged = self.reader.damaged
        try:
            frames = self.reader.feed(data)
        except MemoryError:  # no heap for the line now (it ended the loop): the laptop
            gc.collect()  # sends its frame again
            return
        for seq, kind, payload, tag, body in frames:
            if kind == sp.OLD_HELLO:
                self.usb.write(sp.old_frame(seq, "r", _no(
                    "this board speaks sync protocol %d: flash the board with the laptop's "
                    "pilkku (pilkku flash)" % sp.VERSION)))
            else:
                try:
                    self._request(seq, kind, payload, tag, body, now)
                except MemoryError:  # no heap for the answer now: the laptop asks again
                    gc.collect()
        if self.reader.damaged != damaged:
            self.usb.write(sp.NAK_FRAME)  # a frame came damaged: the laptop sends it again
            # (a hello too: on a poor line most come damaged, and a NAK changes nothing)

    def wall_time(self, now):
        """Seconds since 1970 by the clock the host set, or None before that."""
        if self.clock_offset is None:
            return None
        return self.clock_offset + now // 1000

    # --- requests -----------------------------------------------------------------

    def _request(self, seq, kind, payload, tag, body, now):
        if kind == sp.HELLO:
            last, session = self.last, self.session
            if last is not None and last[0] == seq and last[1] == kind and session is not None \
                    and session[16:] == payload.get("nonce"):
                self.usb.write(last[2])  # the same hello again: the same session
                return
            self._reply(seq, kind, self._hello(payload), None, payload.get("part"))
            self.quiet_since = now
            return
        if kind in (sp.REPLY, sp.PIECE, sp.NAK, sp.OLD_REPLY):
            return  # our own kinds, echoed by something on the line: never answered
        if self.session is not None and ticks_diff(now, self.quiet_since) > sp.SESSION_MS:
            self.session = None
            self._reply(seq, None, _no("the session expired: say hello again"))
            return
        refusal = self._check(seq, kind, tag, body)
        if refusal == "again":
            self.usb.write(self.last[2])  # a retransmission: the same reply, nothing redone
            if self.last[3] is not None:
                self._pieces(seq, self.last[3])  # a pull's pieces: made again, the same bytes
            return
        if refusal is not None:
            self._reply(seq, None, _no(refusal))  # not cached: it changed nothing
            return
        self.quiet_since = now
        pull = None
        try:
            if kind == sp.PULL:
                reply, pull = self._pull(payload)
            else:
                reply = self._answer(kind, payload, now)
        except sp.FrameError as bad:
            reply = _no("bad request: %s" % bad)
        except MemoryError:  # not a refusal to keep for the request: feed drops it
            raise
        except Exception as error:  # a flash error: say so, keep running
            reply = _no("%s: %s" % (type(error).__name__, error))
        self._reply(seq, kind, reply, pull, payload.get("part"))
        if pull is not None:
            try:
                self._pieces(seq, pull)
            except MemoryError:  # the rest are lost pieces: the laptop asks for them again,
                gc.collect()  # smaller (host/sync/pieces.py); the ack below still counts
            if "ack" in payload:  # the result before, stored: freed once its pieces are out
                try:
                    self._acknowledge(payload)
                except Exception:  # a flash error: the result stays, the next sync frees it
                    pass

    def _check(self, seq, kind, tag, body):
        """None if the request may be applied, "again" for a repeat of the last one, or why
        it is refused."""
        if self.session is None:
            return "say hello first"
        if self.key is None:
            return "this board is not paired: run `pilkku pair` for this tournament"
        if not sp.same(tag, sp.tag(self.key, self.session, body)):
            return "refused: the request is not signed with this board's pairing key"
        last = self.last
        if last is not None and last[0] == seq and last[1] == kind:
            return "again"
        # Numbers only go up, by at most SEQ_WINDOW (a request lost on the line leaves a gap).
        if last is None or not last[0] < seq <= last[0] + sp.SEQ_WINDOW:
            return "refused: request %d out of order in this session (say hello again)" % seq
        return None

    def _reply(self, seq, kind, reply, pull=None, part=None):
        """Send (and cache) a reply: one frame, or when the request asked for parts of `part`
        bytes (16 to 1000) and the reply is longer, its text cut in part frames, each tagged:
        on a poor line a long frame seldom comes whole, its short parts do."""
        parted = bounded.whole(part, sp.PIECE_MIN, sp.PIECE_MAX)
        text = sp.reply_text(reply) if parted else b""
        if parted and len(text) > part:
            frames = []
            offset = 0
            while offset < len(text):
                stuffed, took = sp.stuff(text, offset, part)
                frames.append(self._signed(sp.part_body(seq, offset, len(text), stuffed)))
                offset += took
            frame = b"".join(frames)
        else:
            frame = self._signed(sp.body(seq, sp.REPLY, reply))
        if kind is not None:
            self.last = (seq, kind, frame, pull)
        self.usb.write(frame)

    def _signed(self, body):
        return sp.frame(body, self._tag(body))

    def _tag(self, *body):
        if self.key is None or self.session is None:
            return sp.NO_TAG
        return sp.tag(self.key, self.session, *body)

    def _answer(self, kind, payload, now):
        if kind == sp.CLOCK:
            self.clock_offset = sp.whole(payload, "time", 0, TIME_MAX) - now // 1000
            return {"ok": True}
        if kind == sp.TABLE:
            self.config.set_table(sp.whole(payload, "table", 1, 9999))
            return {"ok": True, "table": self.config.table}
        if kind == sp.SCHEDULE:
            return self._schedule(payload)
        if kind == sp.LIVE:
            reply = {"ok": True, "live": self._live()}
            journal = self.journal
            held = 0 if journal is None else len(journal.finished()) + len(journal.damaged())
            if held:
                # Results wait for the laptop: a match played whole between two of its looks
                # is pulled at once. Left out when none (the reply as it was: no bytes more);
                # "unsynced" is a name the app has interned already.
                reply["unsynced"] = held
            return reply
        if kind == sp.RESULTS:
            return {"ok": True, "results": self.journal.finished(),
                    "damaged": self.journal.damaged()}
        if kind == sp.ACK:
            return {"ok": True, "gone": self._acknowledge(payload, "seq")}
        if kind == sp.CHAIN:  # the chain's head, from the laptop, while the chain is lost
            if not self.chain.mend(payload.get("n"), payload.get("mac")):
                return _no("the board's chain of results is whole: nothing to mend")
            return {"ok": True, "chain": self.chain.head()}
        return _no("unknown request '%s'" % kind)

    def _hello(self, payload):
        self.session = None
        version = payload.get("version")
        if version != sp.VERSION or isinstance(version, bool):
            return _no("the laptop speaks sync protocol %s, this board %d: flash the board "
                       "with the laptop's pilkku" % (str(version)[:8], sp.VERSION))
        theirs = payload.get("nonce")
        if not sp.nonce_ok(theirs):
            return _no("a hello carries the laptop's nonce (16 hex digits)")
        key = self.config.key()
        self.key = sp.Key(key) if key else None
        ours = "".join(["%02x" % b for b in os.urandom(8)])
        self.session = ours + theirs
        self.last = None
        return {"ok": True, "protocol": sp.VERSION, "board": self.config.board,
                "firmware": firmware_version(), "table": self.config.table,
                "nonce": ours, "paired": self.key is not None, "chain": self.chain.head(),
                "mended": self._kept("mended"), "lost": self._kept("lost")}

    def _kept(self, which):
        """The kept files (firmware/kept.py) found `which` ("mended": one copy damaged,
        mended from the other; "lost": both), by name."""
        names = list(getattr(self.config, which, ()))
        if getattr(self.chain, which):
            names.append("chain")
        names.sort()
        return names

    def _schedule(self, payload):
        matches = payload.get("matches")
        if not isinstance(matches, list) or len(matches) > MAX_SCHEDULE:
            return _no("a schedule is a list of at most %d matches" % MAX_SCHEDULE)
        for match in matches:
            if not isinstance(match, dict) or not isinstance(match.get("settings"), dict):
                return _no("each match needs a match_id and settings")
            sp.text_field(match, "match_id", _CODE_MAX)
        if payload.get("lang") is not None:  # the displays' language (firmware/words.py)
            lang = sp.text_field(payload, "lang", 8)  # "fi": room for a longer code
            if hasattr(self.config, "set_language"):
                self.config.set_language(lang)
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
                "race_to": state.race_to, "rack": state.rack, "inning": state.inning,
                "fouls": state.fouls_in_a_row, "clock": self._clock(),
                "events": len(match.log), "match_id": self.app.match_meta.get("match_id")}

    def _clock(self):
        """What the clock display shows: Kaisa's game clock (M:SS, bM:SS on a break) or the
        shot clock's seconds; None when no clock runs."""
        app = self.app
        if app.game_clock is not None:
            return app.game_clock.text()
        shot = app.shot_clock
        if shot is not None and shot.running:
            return "%d" % shot.seconds(app.now)
        return None


def _folder(config):
    path = getattr(config, "path", None)
    if not isinstance(path, str):
        return None  # a board without flash settings keeps its chain in RAM
    return path[:path.rfind("/") + 1] if "/" in path else ""

