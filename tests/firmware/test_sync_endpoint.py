"""The board's end of the sync protocol (firmware/sync_endpoint.py) on a desk board under
CPython: the real firmware, journal and settings on a folder, the USB serial a pair of byte
queues, the laptop's frames made with rules_core/sync_protocol.py as `pilkku sync` makes them.
Each request's reply is checked whole; the virtual-board tests (tests/host/test_sync*.py) show
the same over a pty, these reach every branch fast enough for mutation testing."""

from __future__ import annotations

import json
import sys
import types

import pytest
from desk_board import DeskBoard
from displays import shown

from firmware import sync_endpoint
from firmware.sync_endpoint import Endpoint
from firmware.sync_pull import CHUNK
from rules_core import sync_protocol as sp
from rules_core import sync_reader

KEY = bytes(range(32))
NONCE = "fedcba9876543210"


class Usb:
    """The board's USB serial: what the laptop sent, not yet read; what the board wrote."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.out = bytearray()

    def read(self) -> bytes:
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> None:
        self.out += data


class SerialDesk(DeskBoard):
    def __init__(self) -> None:
        super().__init__()
        self.line = Usb()

    def usb(self):
        return self.line


def desk_board(key: bytes | None = KEY, table: int | None = 3) -> SerialDesk:
    desk = SerialDesk()
    config: dict = {"board": "pk-desk", "table": table}
    if key is not None:
        config["key"] = key.hex()
    (desk.flash / "config.json").write_text(json.dumps(config))
    return desk.boot()


def play_a_race_to_one(desk: DeskBoard) -> None:
    """A free game from the menu: race to 1, lag to player 1, the 9 on the break, leave."""
    desk.tap("1", "#", "1", "1", "9", "A", "#")


class Laptop:
    """The laptop's side, by hand: frames in, frames out."""

    def __init__(self, desk: SerialDesk, key: bytes = KEY) -> None:
        self.desk = desk
        self.key = sp.Key(key)
        self.session = ""
        self.seq = 100
        self.reader = sync_reader.Reader()

    def send(self, data: bytes) -> bytes:
        """Bytes in, one tick, what the board wrote."""
        self.desk.line.incoming += data
        try:
            self.desk.run(10)
        except KeyboardInterrupt:  # (pytest would stop the whole run on it)
            pytest.fail("the board left the scoreboard for the REPL")
        out = bytes(self.desk.line.out)
        self.desk.line.out.clear()
        return out

    def frames(self, data: bytes) -> list:
        return self.reader.feed(self.send(data))

    def hello(self, version=sp.VERSION, nonce=NONCE, seq=None) -> dict:
        self.seq = self.seq + 1 if seq is None else seq
        (frame,) = self.frames(sp.encode(self.seq, sp.HELLO,
                                         {"version": version, "nonce": nonce}))
        reply = frame[2]
        if reply.get("ok"):
            self.session = reply["nonce"] + nonce
        return reply

    def signed(self, kind: str, payload: dict, seq: int | None = None) -> bytes:
        if seq is None:
            self.seq += 1
            seq = self.seq
        body = sp.body(seq, kind, payload)
        return sp.frame(body, sp.tag(self.key, self.session, body))

    def ask(self, kind: str, payload: dict | None = None, seq: int | None = None) -> dict:
        """The reply (checked to be tagged in this session and to answer this number)."""
        frames = self.frames(self.signed(kind, payload or {}, seq))
        got_seq, got_kind, reply, tag, body = frames[0]
        assert got_kind == sp.REPLY and got_seq == (self.seq if seq is None else seq)
        assert tag == sp.tag(self.key, self.session, body)
        return reply


@pytest.fixture
def desk() -> SerialDesk:
    return desk_board()


@pytest.fixture
def laptop(desk) -> Laptop:
    laptop = Laptop(desk)
    assert laptop.hello()["ok"] is True
    return laptop


# --- hello, sessions and order --------------------------------------------------------------

def test_the_hello_says_who_the_board_is(desk):
    laptop = Laptop(desk)
    raw = laptop.send(sp.encode(7, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE}))
    seq, kind, reply, tag, _body = sp.decode(raw[:-1])
    assert (seq, kind, tag) == (7, "r", sp.tag(sp.Key(KEY), reply["nonce"] + NONCE, _body))
    nonce = reply.pop("nonce")
    assert len(nonce) == 16 and sp.nonce_ok(nonce)
    assert reply == {"ok": True, "protocol": 4, "board": "pk-desk", "firmware": "dev",
                     "table": 3, "paired": True, "chain": [0, ""], "mended": [], "lost": []}
    again = laptop.send(sp.encode(7, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE}))
    assert again == raw  # the same hello again (a lost reply): the same session
    other = laptop.send(sp.encode(8, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE}))
    assert sp.decode(other[:-1])[2]["nonce"] != nonce  # a new hello: a new session


@pytest.mark.parametrize("version, says", [
    (2, "the laptop speaks sync protocol 2, this board 4: flash the board with the laptop's "
        "pilkku"),
    (3, "the laptop speaks sync protocol 3, this board 4: flash the board with the laptop's "
        "pilkku"),
    (True, "the laptop speaks sync protocol True, this board 4"),
    ("4", "the laptop speaks sync protocol 4, this board 4"),
    (123456789012, "the laptop speaks sync protocol 12345678, this board 4"),
])
def test_a_hello_of_another_version_is_refused(desk, version, says):
    laptop = Laptop(desk)
    reply = laptop.hello(version=version)
    assert reply["ok"] is False and reply["error"].startswith(says)
    assert "error" in reply and set(reply) == {"ok", "error"}
    assert laptop.frames(laptop.signed(sp.LIVE, {}))[0][2] == {"ok": False,
                                                              "error": "say hello first"}


@pytest.mark.parametrize("nonce", ["", "0" * 15, "0" * 17, "0123456789abcdeg", 5, None])
def test_a_hello_without_a_good_nonce_is_refused(desk, nonce):
    reply = Laptop(desk).hello(nonce=nonce)
    assert reply == {"ok": False, "error": "a hello carries the laptop's nonce (16 hex digits)"}


def test_a_protocol_2_hello_is_answered_in_its_own_layout(desk):
    laptop = Laptop(desk)
    out = laptop.send(sp.old_frame(9, sp.HELLO, {"version": 2, "nonce": NONCE}))
    assert out == sp.old_frame(9, "r", {
        "ok": False, "error": "this board speaks sync protocol 4: flash the board with the "
                              "laptop's pilkku (pilkku flash)"})


def test_an_unpaired_board_answers_only_the_hello(tmp_path):
    desk = desk_board(key=None)
    laptop = Laptop(desk)
    reply = laptop.hello()
    assert reply["paired"] is False and reply["ok"] is True
    out = laptop.send(laptop.signed(sp.LIVE, {}))
    seq, _kind, refused, tag, _body = sp.decode(out[:-1])
    assert refused == {"ok": False, "error": "this board is not paired: run `pilkku pair` "
                                             "for this tournament"}
    assert tag == sp.NO_TAG  # nothing to sign with


def test_requests_need_the_key_and_go_in_order(desk, laptop):
    assert laptop.ask(sp.TABLE, {"table": 4}) == {"ok": True, "table": 4}
    wrong = Laptop(desk, key=b"another key")
    wrong.session = laptop.session
    refused = laptop.frames(wrong.signed(sp.TABLE, {"table": 9}, laptop.seq + 1))[0][2]
    assert refused == {"ok": False, "error": "refused: the request is not signed with this "
                                             "board's pairing key"}
    unsigned = laptop.frames(sp.encode(laptop.seq + 1, sp.TABLE, {"table": 9}))[0][2]
    assert unsigned["ok"] is False and "not signed" in unsigned["error"]
    last = laptop.seq
    for seq in (last - 1, last + sp.SEQ_WINDOW + 1, 0):
        refused = laptop.ask(sp.TABLE, {"table": 9}, seq=seq)
        assert refused == {"ok": False, "error": "refused: request %d out of order in this "
                                                 "session (say hello again)" % seq}
    assert laptop.ask(sp.LIVE, seq=last + sp.SEQ_WINDOW)["ok"] is True  # the widest gap: fine
    assert desk.app.config.table == 4


def test_the_last_request_again_gets_its_very_reply_and_is_not_applied_again(desk, laptop):
    frame = laptop.signed(sp.TABLE, {"table": 5})
    first = laptop.send(frame)
    desk.app.config.set_table(6)  # changed since on the board (by hand)
    assert laptop.send(frame) == first  # byte for byte, from the cache
    assert desk.app.config.table == 6  # not applied again
    unsigned = laptop.frames(sp.encode(laptop.seq + 1, sp.TABLE, {"table": 7}))[0][2]
    assert unsigned["ok"] is False
    assert laptop.send(frame) == first  # a refusal is not cached: the last answered stays
    bad = laptop.signed(sp.TABLE, {"table": 99999})  # answered (a refusal of its content)
    assert sp.decode(laptop.send(bad)[:-1])[2]["ok"] is False
    assert sp.decode(laptop.send(frame)[:-1])[2]["error"].endswith("out of order in this "
                                                                    "session (say hello again)")


def test_a_session_quiet_for_exactly_the_minute_is_still_on(desk, laptop):
    desk.app.endpoint.quiet_since = desk.now + 10 - sp.SESSION_MS  # at the next tick: 60 s
    assert laptop.ask(sp.LIVE)["ok"] is True


def test_the_same_number_for_another_kind_is_out_of_order(desk, laptop):
    assert laptop.ask(sp.TABLE, {"table": 4})["ok"] is True
    refused = laptop.ask(sp.LIVE, seq=laptop.seq)
    assert refused == {"ok": False, "error": "refused: request %d out of order in this "
                                             "session (say hello again)" % laptop.seq}


def test_a_quiet_session_expires(desk, laptop):
    desk.run(sp.SESSION_MS - 100)
    assert laptop.ask(sp.LIVE)["ok"] is True  # within the minute: still on
    desk.run(sp.SESSION_MS + 100)
    raw = laptop.send(laptop.signed(sp.LIVE, {}))
    assert sp.decode(raw[:-1])[2] == {"ok": False,
                                      "error": "the session expired: say hello again"}
    assert laptop.frames(laptop.signed(sp.LIVE, {}))[0][2]["error"] == "say hello first"
    assert laptop.hello()["ok"] is True and laptop.ask(sp.LIVE)["ok"] is True


def test_frames_of_the_boards_own_kinds_are_never_answered(desk, laptop):
    for kind, body in ((sp.REPLY, b"{}"), (sp.PIECE, b"000abc"), (sp.NAK, b"{}")):
        frame = sp.frame(sp.digits(laptop.seq + 1, 3) + kind.encode() + body)
        assert laptop.send(frame) == b""
    assert laptop.send(sp.old_frame(1, "r", {"ok": True})) == b""


def test_a_damaged_frame_is_answered_with_a_nak(desk):
    laptop = Laptop(desk)
    damaged = bytearray(sp.encode(1, sp.LIVE, {}))
    damaged[5] ^= 1
    # Before a session too: on a poor line most hellos come damaged, and a NAK changes nothing.
    assert laptop.send(bytes(damaged)) == sp.NAK_FRAME
    laptop.hello()
    assert laptop.send(bytes(damaged)) == sp.NAK_FRAME
    assert laptop.send(b"noise without a frame\r\n") == b""  # nothing begun as a frame
    out = laptop.send(bytes(damaged) + laptop.signed(sp.LIVE, {}))
    assert out.endswith(sp.NAK_FRAME) and out.count(b"~") == 2  # the reply, then the NAK


def test_a_reply_asked_for_in_parts_comes_in_tagged_parts_and_again_the_same(desk):
    """A hello and a pull asked for in parts ("part": size): the reply's text cut in part
    frames of at most that size, each tagged in the session, making the reply as it would come
    whole; the same request again gets the very same parts (nothing done twice)."""
    laptop = Laptop(desk)
    hello = sp.encode(101, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE, "part": 24})
    out = laptop.send(hello)
    parts = laptop.reader.feed(out)
    assert len(parts) > 3 and {p[1] for p in parts} == {sp.PART}
    text = b"".join(p[2]["data"] for p in sorted(parts, key=lambda p: p[2]["offset"]))
    assert all(len(p[2]["data"]) <= 24 and p[2]["total"] == len(text) for p in parts)
    reply = sp.loads_reply(text)
    assert reply["ok"] is True and reply["board"] == "pk-desk"
    laptop.session, laptop.seq = reply["nonce"] + NONCE, 101
    assert all(p[3] == sp.tag(laptop.key, laptop.session, p[4]) for p in parts)
    assert laptop.send(hello) == out  # the same hello again: the same parts
    (seq,) = results_on(desk, 1)
    pull = laptop.signed(sp.PULL, {"seq": seq, "size": 16, "at": [], "link": True, "part": 16})
    out = laptop.send(pull)
    parts = laptop.reader.feed(out)
    text = b"".join(p[2]["data"] for p in sorted(parts, key=lambda p: p[2]["offset"]))
    linked = sp.loads_reply(text)
    assert linked["frames"] == 0 and linked["link"][0] == 1 and len(linked["link"][2]) == 64
    assert laptop.send(pull) == out
    assert laptop.ask(sp.LIVE)["ok"] is True  # a short reply asked for whole: one frame


# --- Ctrl-C ---------------------------------------------------------------------------------

def test_a_lone_ctrl_c_is_dropped_a_deliberate_one_leaves_for_the_repl(desk, laptop):
    assert laptop.send(b"\x03") == b""
    assert laptop.send(b"abc\x03def") == b""
    assert laptop.ask(sp.LIVE)["ok"] is True  # still there
    endpoint = desk.app.endpoint

    def quiet(data: bytes) -> None:
        try:
            endpoint.feed(data, desk.now)
        except KeyboardInterrupt:
            pytest.fail("%r took the board to the REPL" % data)

    for data in (b"\r\x03", b"\x03\x03", b"x\r\x03\x01", b"\r\x03x\x03",
                 b"a\x03\r\x03b\x03", b"a\x03b\x03\x03"):
        quiet(b"\n")
        with pytest.raises(KeyboardInterrupt):
            endpoint.feed(data, desk.now)
    quiet(b"\r")
    with pytest.raises(KeyboardInterrupt):
        endpoint.feed(b"\x03", desk.now)  # the CR came in the read before
    quiet(b"x")
    quiet(b"\x03")
    with pytest.raises(KeyboardInterrupt):
        endpoint.feed(b"\x03", desk.now)  # two in a row, across reads
    for data in (b"x", b"\x03a\x03", b"ab\x03", b"x", b"\x03\n", b"\n\x03"):
        quiet(data)  # lone ones, wherever they are
    quiet(b"")  # nothing: nothing happens


# --- what the requests do -------------------------------------------------------------------

def test_clock_table_and_schedule(desk, laptop):
    endpoint = desk.app.endpoint
    assert endpoint.wall_time(desk.now) is None
    desk.run(2500)  # the board has been on a while: its own seconds are not the wall's
    assert laptop.ask(sp.CLOCK, {"time": 1700000000}) == {"ok": True}
    assert endpoint.wall_time(desk.now) == 1700000000
    desk.run(5000)
    assert endpoint.wall_time(desk.now) == 1700000005
    assert endpoint.wall_time(desk.now + 1000000) == 1700001005
    endpoint._answer(sp.CLOCK, {"time": 1700000000}, 1000500)  # the board on 1000.5 s
    assert endpoint.wall_time(1000500) == 1700000000 and endpoint.wall_time(1001000) == \
        1700000001
    for bad in ({"time": -1}, {"time": "1"}, {"time": True}, {"time": (1 << 40) + 1}, {}):
        reply = laptop.ask(sp.CLOCK, bad)
        assert reply == {"ok": False, "error": "bad request: 'time' must be a whole number "
                                               "from 0 to 1099511627776"}
    assert laptop.ask(sp.CLOCK, {"time": 1 << 40}) == {"ok": True}
    assert laptop.ask(sp.TABLE, {"table": 1}) == {"ok": True, "table": 1}
    assert laptop.ask(sp.TABLE, {"table": 9999}) == {"ok": True, "table": 9999}
    for bad in (0, 10000, "7"):
        assert laptop.ask(sp.TABLE, {"table": bad})["error"] == \
            "bad request: 'table' must be a whole number from 1 to 9999"
    matches = [{"match_id": "R1-%02d" % i, "settings": {"game": "9ball", "race_to": 1,
                                                         "players": ["A", "B"]}}
               for i in range(8)]
    assert laptop.ask(sp.SCHEDULE, {"matches": matches}) == {"ok": True, "count": 8}
    assert desk.app.config.schedule() == matches
    assert desk.texts()["message"].startswith("R1-00")  # the menu shows it at once
    refused = "a schedule is a list of at most 8 matches"
    for bad in (matches + matches[:1], "abc", None):
        assert laptop.ask(sp.SCHEDULE, {"matches": bad}) == {"ok": False, "error": refused}
    for bad in ([5], [{"match_id": "x"}], [{"match_id": "x", "settings": []}]):
        assert laptop.ask(sp.SCHEDULE, {"matches": bad}) == {
            "ok": False, "error": "each match needs a match_id and settings"}
    for code in ("x" * 21, 5):
        assert laptop.ask(sp.SCHEDULE, {"matches": [{"match_id": code, "settings": {}}]}) == {
            "ok": False, "error": "bad request: 'match_id' must be a text of at most 20 "
                                  "characters"}
    assert laptop.ask(sp.SCHEDULE, {"matches": [{"match_id": "x" * 20, "settings": {}}]}) == \
        {"ok": True, "count": 1}
    assert laptop.ask(sp.SCHEDULE, {"matches": []}) == {"ok": True, "count": 0}
    # A kind the protocol does not have never reaches the board's answer (the frame is
    # refused as damaged); the answer still refuses one by name.
    assert laptop.frames(laptop.signed("X", {}))[0][:3] == (0, sp.NAK, {})
    assert desk.app.endpoint._answer("X", {}, desk.now) == {"ok": False,
                                                            "error": "unknown request 'X'"}


def test_live(desk, laptop):
    assert laptop.ask(sp.LIVE) == {"ok": True, "live": None}  # no result held: as it was
    desk.tap("1", "#", "1", "1")  # a race to one, lag to player 1, player 1 breaks
    live = laptop.ask(sp.LIVE)["live"]
    state = desk.app.match.state
    assert live == {"game": "9ball", "players": state.players, "score": [0, 0],
                    "shooter": state.shooter, "finished": False, "race_to": 1, "rack": 1,
                    "inning": state.inning, "fouls": [0, 0], "clock": live["clock"],
                    "events": len(desk.app.match.log), "match_id": None}
    assert live["events"] >= 2 and live["clock"] is None or isinstance(live["clock"], str)


def test_live_says_how_many_results_wait_for_the_laptop(desk, laptop):
    """A match played whole between two of the watcher's looks is never seen in play: the
    live answer's count of results held (damaged ones too) has it pulled at once."""
    first, second = results_on(desk, 2)
    assert laptop.ask(sp.LIVE) == {"ok": True, "live": None, "unsynced": 2}
    flip_done(desk, first)
    pull(laptop, {"seq": first, "size": 1000, "at": [0, 4], "link": True})  # set aside
    assert laptop.ask(sp.RESULTS)["damaged"] == [first]
    assert laptop.ask(sp.LIVE)["unsynced"] == 2
    assert laptop.ask(sp.ACK, {"seq": first, "damaged": True})["ok"] is True
    assert laptop.ask(sp.LIVE)["unsynced"] == 1
    desk.tap("1", "#", "1", "1")  # a match in play is not one
    assert laptop.ask(sp.LIVE)["unsynced"] == 1
    desk.tap("9", "A")  # the 9 on the break: finished, its last shot can still be undone
    assert laptop.ask(sp.LIVE)["live"]["finished"] is True
    assert laptop.ask(sp.LIVE)["unsynced"] == 1
    desk.tap("#")  # its result screen left: closed in the journal, a result
    assert laptop.ask(sp.LIVE) == {"ok": True, "live": None, "unsynced": 2}
    for seq in desk.app.endpoint.journal.finished():
        assert laptop.ask(sp.ACK, {"seq": seq})["ok"] is True
    assert laptop.ask(sp.LIVE) == {"ok": True, "live": None}  # none held: left out


def test_live_and_the_journal_name_the_scheduled_match(desk, laptop):
    match = {"match_id": "R2-07", "settings": {"game": "9ball", "race_to": 2,
                                               "players": ["Äijä", "Öhman"]}}
    assert laptop.ask(sp.SCHEDULE, {"matches": [match]})["ok"] is True
    desk.tap("#", "1", "1")  # the scheduled match, lag to player 1, who breaks
    assert laptop.ask(sp.LIVE)["live"]["match_id"] == "R2-07"
    again = desk.power_cut()  # the journal's meta names the match after a cut too
    assert again.app.match_meta["match_id"] == "R2-07"
    assert again.app.match_meta["board"] == "pk-desk"


def test_the_chain_is_kept_on_flash(desk, laptop):
    (seq,) = results_on(desk, 1)
    reply, _ = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4], "link": True})
    again = SerialDesk()  # the power goes and comes back: the same flash
    again.flash, again._keep_flash = desk.flash, desk
    laptop.desk = again.boot()
    assert laptop.hello()["chain"] == [1, reply["link"][2]]
    assert (again.flash / "chain.json").is_file()


def test_the_clock_shown(desk, laptop):
    endpoint = desk.app.endpoint

    class Shot:
        running = True

        def seconds(self, now):
            return now // 1000

    class Game:
        def text(self):
            return "b1:05"

    app = desk.app
    app.now = 42000
    app.shot_clock, app.game_clock = Shot(), None
    assert endpoint._clock() == "42"
    Shot.running = False
    assert endpoint._clock() is None
    app.game_clock = Game()
    assert endpoint._clock() == "b1:05"
    app.shot_clock = app.game_clock = None
    assert endpoint._clock() is None


def results_on(desk: SerialDesk, count: int) -> list[int]:
    for _ in range(count):
        play_a_race_to_one(desk)
    return desk.app.endpoint.journal.finished()


def document_of(desk: SerialDesk, seq: int) -> bytes:
    parts: list[str] = []
    desk.app.endpoint.journal.dump_document(seq, parts.append)
    return "".join(parts).encode()


def pull(laptop: Laptop, payload: dict, seq: int | None = None) -> tuple[dict, list]:
    """A pull's reply and its pieces, as (offset, bytes), each checked to be tagged."""
    frames = laptop.frames(laptop.signed(sp.PULL, payload, seq))
    reply = frames[0][2]
    pieces = []
    for got_seq, kind, piece, tag, body in frames[1:]:
        assert (got_seq, kind) == (frames[0][0], sp.PIECE)
        assert tag == sp.tag(laptop.key, laptop.session, body)
        pieces.append((piece["offset"], piece["data"]))
    return reply, pieces


def test_a_result_is_pulled_in_pieces_with_its_link(desk, laptop):
    (seq,) = results_on(desk, 1)
    assert laptop.ask(sp.RESULTS) == {"ok": True, "results": [seq], "damaged": []}
    document = document_of(desk, seq)
    total = len(document)
    reply, pieces = pull(laptop, {"seq": seq, "size": 100, "at": [0, 3], "link": True})
    n, prev, mac = reply.pop("link")
    assert reply == {"ok": True, "seq": seq, "total": total, "frames": 3}
    assert (n, prev) == (1, "")
    assert mac == sp.result_mac(sp.Key(KEY), "pk-desk", 1, "", document)
    assert pieces == [(0, document[:100]), (100, document[100:200]), (200, document[200:300])]
    # Stretches asked for: pieces from each, none past the end; no link unless asked.
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [total - 70, 5, 10, 1,
                                                                total, 3]})
    assert reply == {"ok": True, "seq": seq, "total": total, "frames": 3}
    assert pieces == [(total - 70, document[-70:-6]), (total - 6, document[-6:]),
                      (10, document[10:74])]
    reply, pieces = pull(laptop, {"seq": seq, "size": 1000, "at": [], "link": True})
    assert reply["frames"] == 0 and pieces == [] and reply["link"] == [n, prev, mac]
    assert json.loads(document)["meta"]["board"] == "pk-desk"


def test_a_pull_again_gets_the_same_bytes_and_the_same_link(desk, laptop):
    (seq,) = results_on(desk, 1)
    frame = laptop.signed(sp.PULL, {"seq": seq, "size": 50, "at": [0, 4], "link": True})
    first = laptop.send(frame)
    assert first.count(b"~") == 5
    assert laptop.send(frame) == first  # the reply from the cache, the pieces made again
    other = Laptop(desk)  # another session: the link was kept, not signed anew
    other.hello()
    again, _pieces = pull(other, {"seq": seq, "size": 50, "at": [0, 1], "link": True})
    assert again["link"] == sp.decode(first[:first.index(b"\n")])[2]["link"]
    assert again["link"][0] == 1 and desk.app.endpoint.chain.head() == [1, again["link"][2]]


@pytest.mark.parametrize("payload, says", [
    ({"size": 15, "at": [0, 1]}, "bad request: 'size' must be a whole number from 16 to 1000"),
    ({"size": 1001, "at": [0, 1]}, "bad request: 'size' must be a whole number from 16 to "
                                   "1000"),
    ({"size": 64, "at": [0]}, "bad request: 'at' must be a list of at most 8 offsets and "
                              "counts"),
    ({"size": 64, "at": [0, 1] * 9}, "bad request: 'at' must be a list of at most 8 offsets "
                                     "and counts"),
    ({"size": 64, "at": "0,1"}, "bad request: 'at' must be a list of at most 8 offsets and "
                                "counts"),
    ({"size": 64}, "bad request: 'at' must be a list of at most 8 offsets and counts"),
    ({"size": 64, "at": [0, 0]}, "bad request: 'at' must hold offsets and counts"),
    ({"size": 64, "at": [-1, 1]}, "bad request: 'at' must hold offsets and counts"),
    ({"size": 64, "at": [0, 65]}, "bad request: 'at' must hold offsets and counts"),
    ({"size": 64, "at": [(1 << 18) + 1, 1]}, "bad request: 'at' must hold offsets and counts"),
    ({"size": 64, "at": [0, True]}, "bad request: 'at' must hold offsets and counts"),
    ({"size": 16, "at": [0, 40, 0, 25]}, "bad request: a pull asks for at most 64 pieces, "
                                         "4096 bytes"),
    ({"size": 100, "at": [0, 41]}, "bad request: a pull asks for at most 64 pieces, 4096 "
                                   "bytes"),
    ({"size": 64, "at": [0, 1], "ack": -1}, "bad request: 'ack' must be a whole number from "
                                            "0 to 1099511627776"),
])
def test_bad_pulls_are_refused(desk, laptop, payload, says):
    (seq,) = results_on(desk, 1)
    reply, pieces = pull(laptop, dict(payload, seq=seq))
    assert reply == {"ok": False, "error": says} and pieces == []
    assert desk.app.endpoint.journal.finished() == [seq]  # nothing freed


def test_the_most_a_pull_may_ask_for(desk, laptop):
    (seq,) = results_on(desk, 1)
    total = len(document_of(desk, seq))
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [0, 64]})
    assert reply["frames"] == min(64, -(-total // 64)) == len(pieces)
    assert 200 + 16 < total < 200 + 16 * 16
    reply, pieces = pull(laptop, {"seq": seq, "size": 16, "at": [0, 12, 200, 16]})
    assert reply["frames"] == 12 + -(-(total - 200) // 16) == len(pieces)
    document = document_of(desk, seq)
    assert b"".join(piece for _, piece in pieces) == document[:192] + document[200:]
    reply, _ = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4]})
    assert reply["ok"] is True and reply["frames"] == -(-total // 1000)
    reply, _ = pull(laptop, {"seq": seq, "size": 16, "at": [1 << 18, 1]})
    assert reply == {"ok": True, "seq": seq, "total": total, "frames": 0}
    reply, _ = pull(laptop, {"seq": seq, "size": 16, "at": [total - 1, 1, total, 1]})
    assert reply["frames"] == 1
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [total - 64, 5]})
    assert reply["frames"] == 1 == len(pieces)  # exactly one piece's worth left
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [total - 65, 5]})
    assert reply["frames"] == 2 == len(pieces)
    reply, pieces = pull(laptop, {"seq": seq, "size": 16, "at": [0, 1] * 8})  # 8 stretches
    assert reply["frames"] == 8 == len(pieces)


def test_a_pull_of_no_such_result_is_refused(desk, laptop):
    for seq in (77, 0):
        reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [0, 1]})
        assert reply == {"ok": False, "error": "JournalError: no finished match %d" % seq}
        assert pieces == []
    (seq,) = results_on(desk, 1)  # and a pull after a refused one goes through
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [0, 1]})
    assert reply["ok"] is True and len(pieces) == 1


def test_a_result_with_finnish_names_is_pulled_whole_in_its_utf8_bytes(desk, laptop):
    match = {"match_id": "R1-01", "settings": {"game": "9ball", "race_to": 1,
                                               "players": ["Äijälä", "Åström"]}}
    assert laptop.ask(sp.SCHEDULE, {"matches": [match]})["ok"] is True
    desk.tap("#", "1", "1", "9", "A", "#")  # the scheduled match, the 9 on the break, filed
    (seq,) = desk.app.endpoint.journal.finished()
    document = document_of(desk, seq)
    reply, pieces = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4]})
    assert reply["total"] == len(document) > len(document.decode())  # bytes, not characters
    assert b"".join(data for _offset, data in pieces) == document
    assert json.loads(document)["settings"]["players"] == ["Äijälä", "Åström"]


def test_pieces_the_heap_has_no_room_for_are_left_out_and_pulled_again(desk, laptop,
                                                                        monkeypatch):
    (seq,) = results_on(desk, 1)
    document = document_of(desk, seq)
    made = []
    stuff = sp.stuff

    def short_of_heap(data, start, most):
        made.append(start)
        if len(made) == 2:
            raise MemoryError("memory allocation failed, allocating 100 bytes")
        return stuff(data, start, most)

    monkeypatch.setattr(sp, "stuff", short_of_heap)
    reply, pieces = pull(laptop, {"seq": seq, "size": 100, "at": [0, 3]})
    assert reply["frames"] == 3 and pieces == [(0, document[:100])]  # the rest left out
    reply, pieces = pull(laptop, {"seq": seq, "size": 100, "at": [100, 2]})
    assert pieces == [(100, document[100:200]), (200, document[200:300])]  # asked again
    assert laptop.ask(sp.RESULTS)["results"] == [seq]  # and the board goes on


def test_a_request_the_heap_has_no_room_to_answer_is_dropped_then_answered(desk, laptop,
                                                                         monkeypatch):
    live = desk.app.endpoint._live
    calls = []

    def short_of_heap():
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return live()

    monkeypatch.setattr(desk.app.endpoint, "_live", short_of_heap)
    frame = laptop.signed(sp.LIVE, {})
    assert laptop.frames(frame) == []  # no answer, and no traceback on the line
    assert laptop.ask(sp.LIVE, seq=laptop.seq)["ok"] is True  # the same request again


def test_a_line_the_heap_has_no_room_to_read_is_dropped_and_the_board_goes_on(desk, laptop,
                                                                          monkeypatch):
    reader = desk.app.endpoint.reader
    feed = reader.feed
    calls = []

    def short_of_heap(data):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 2048 bytes")
        return feed(data)

    monkeypatch.setattr(reader, "feed", short_of_heap)
    assert laptop.frames(laptop.signed(sp.LIVE, {})) == []  # lost, and no traceback
    assert laptop.ask(sp.LIVE, seq=laptop.seq)["ok"] is True  # the same request again


def test_a_result_being_pulled_is_made_once_not_at_every_pull(desk, laptop, monkeypatch):
    first, second = results_on(desk, 2)
    journal = desk.app.endpoint.journal
    read = []
    dump = journal.dump_document
    monkeypatch.setattr(journal, "dump_document", lambda seq, *how: (read.append(seq),
                                                                     dump(seq, *how)))
    for seq in (first, first, first, second, second):
        assert pull(laptop, {"seq": seq, "size": 64, "at": [0, 1]})[0]["ok"] is True
    assert read == [first, second]  # each made once, in one reading of its file


def test_a_pulled_result_is_held_in_small_pieces_of_the_heap_not_one_block_of_its_length(
        desk, laptop):
    """On a Pico the sync's boot leaves the heap in small holes (~3 KB the largest with 20 KB
    free): the pulled document is held in CHUNK-byte pieces, which fit them, and its pieces
    and link are those of the whole document (issue 31)."""
    (seq,) = results_on(desk, 1)
    document = document_of(desk, seq)
    reply, pieces = pull(laptop, {"seq": seq, "size": 100, "link": True, "at": [0, 40]})
    assert b"".join(data for _offset, data in pieces) == document
    held = desk.app.endpoint.pulled[1]
    assert len(document) > CHUNK and len(held) == -(-len(document) // CHUNK)
    assert all(len(chunk) <= CHUNK for chunk in held)
    assert b"".join(held) == document
    n, prev, mac = reply["link"]
    assert mac == sp.result_mac(laptop.key, desk.app.config.board, n, prev, document)


def flip_done(desk: SerialDesk, seq: int) -> bytes:
    """A flipped middle in a done file on the board's flash: its record's CRC fails."""
    path = desk.app.endpoint.journal._done_path(seq)  # noqa: SLF001
    with open(path, "r+b") as f:
        f.seek(len(f.read()) // 2)
        f.write(b"\x00\x00")
    with open(path, "rb") as f:
        return f.read()


def test_a_result_damaged_on_flash_is_set_aside_pulled_as_bytes_and_freed(desk, laptop):
    """Issue 32: a damaged done file was refused at every pull, for ever, and held the
    results after it. Now the pull that finds it says so; the board sets it aside, lists it
    apart, sends its bytes as they are (no link: nothing is signed) and frees it on its own
    acknowledgement; the menu says it holds one until then."""
    first, second = results_on(desk, 2)
    damaged = flip_done(desk, first)
    reply, pieces = pull(laptop, {"seq": first, "size": 1000, "at": [0, 4], "link": True})
    assert reply == {"ok": False, "damaged": True,
                     "error": "finished match %d is damaged: set aside for the laptop" % first}
    assert pieces == [] and desk.app.endpoint.chain.head() == [0, ""]  # nothing signed
    assert laptop.ask(sp.RESULTS) == {"ok": True, "results": [second], "damaged": [first]}
    desk.run(50)
    assert "1 DAMAGED RESULT HELD: SYNC" in shown(desk)
    reply, pieces = pull(laptop, {"seq": second, "size": 1000, "at": [0, 4], "link": True})
    assert reply["ok"] is True and b"".join(p for _, p in pieces) == document_of(desk, second)
    assert reply["link"][:2] == [1, ""]  # the chain goes on without the damaged one
    reply, pieces = pull(laptop, {"seq": first, "size": 64, "at": [0, 64], "damaged": True})
    assert reply == {"ok": True, "seq": first, "total": len(damaged), "damaged": True,
                     "frames": -(-len(damaged) // 64)}
    assert b"".join(p for _, p in pieces) == damaged  # the file's bytes, as they are
    assert desk.app.endpoint.chain.head()[0] == 1  # and still nothing signed
    assert laptop.ask(sp.ACK, {"seq": first}) == {"ok": True, "gone": True}  # not a result
    assert desk.app.endpoint.journal.damaged() == [first]
    assert laptop.ask(sp.ACK, {"seq": first, "damaged": True}) == {"ok": True, "gone": False}
    assert laptop.ask(sp.ACK, {"seq": first, "damaged": True}) == {"ok": True, "gone": True}
    assert laptop.ask(sp.RESULTS) == {"ok": True, "results": [second], "damaged": []}
    desk.run(50)
    assert "DAMAGED" not in shown(desk)
    reply, pieces = pull(laptop, {"seq": first, "size": 64, "at": [0, 1], "damaged": True})
    assert reply == {"ok": False, "error": "JournalError: no damaged result %d" % first}


@pytest.mark.parametrize("payload, says", [
    ({"seq": 7, "damaged": True}, "JournalError: no damaged result 7"),
    ({"seq": 1 << 41, "damaged": True}, "bad request: 'seq' must be a whole number from 0 to "
                                        "1099511627776"),
    ({"seq": -1, "damaged": True}, "bad request: 'seq' must be a whole number from 0 to "
                                   "1099511627776"),
    ({"damaged": 1}, "bad request: 'damaged' must be true when it is given"),
    ({"damaged": False}, "bad request: 'damaged' must be true when it is given"),
    ({"damaged": "yes"}, "bad request: 'damaged' must be true when it is given"),
    ({"damaged": True, "link": True}, "bad request: a damaged result has no link"),
    ({"damaged": True, "size": 15}, "bad request: 'size' must be a whole number from 16 to "
                                    "1000"),
    ({"damaged": True, "at": [0, 65]}, "bad request: 'at' must hold offsets and counts"),
])
def test_hostile_pulls_of_a_damaged_result_are_refused_cleanly(desk, laptop, payload, says):
    first, second = results_on(desk, 2)
    flip_done(desk, first)
    assert pull(laptop, {"seq": first, "size": 64, "at": [0, 1]})[0]["damaged"] is True
    asked = dict({"seq": first, "size": 64, "at": [0, 1]}, **payload)
    if "seq" not in payload and payload.get("damaged") is True:
        asked["seq"] = first
    reply, pieces = pull(laptop, asked)
    assert reply == {"ok": False, "error": says} and pieces == []
    journal = desk.app.endpoint.journal
    assert journal.damaged() == [first] and journal.finished() == [second]  # nothing freed
    # A result that is not damaged is not pulled as damaged, nor freed as damaged.
    reply, _ = pull(laptop, {"seq": second, "size": 64, "at": [0, 1], "damaged": True})
    assert reply == {"ok": False, "error": "JournalError: no damaged result %d" % second}
    assert laptop.ask(sp.ACK, {"seq": second, "damaged": True}) == {"ok": True, "gone": True}
    assert laptop.ask(sp.ACK, {"seq": first, "damaged": 1}) == {
        "ok": False, "error": "bad request: 'damaged' must be true when it is given"}
    assert journal.damaged() == [first] and journal.finished() == [second]
    assert laptop.ask(sp.LIVE)["ok"] is True  # and the board goes on


def test_the_acknowledge_frees_a_result_and_its_link(desk, laptop):
    first, second = results_on(desk, 2)
    pull(laptop, {"seq": first, "size": 1000, "at": [0, 4], "link": True})
    assert laptop.ask(sp.ACK, {"seq": first}) == {"ok": True, "gone": False}
    assert laptop.ask(sp.ACK, {"seq": first}) == {"ok": True, "gone": True}
    assert laptop.ask(sp.RESULTS) == {"ok": True, "results": [second], "damaged": []}
    chain = desk.app.endpoint.chain
    assert chain.links == {} and chain.head()[0] == 1
    reply, _ = pull(laptop, {"seq": second, "size": 1000, "at": [0, 4], "link": True})
    assert reply["link"][:2] == [2, chain.links["%d" % second][1]]
    assert reply["link"][1] != ""  # the link before it
    assert laptop.ask(sp.ACK, {"seq": True}) == {
        "ok": False, "error": "bad request: 'seq' must be a whole number from 0 to "
                              "1099511627776"}


def test_an_acknowledge_rides_on_the_next_pull_and_frees_after_its_pieces(desk, laptop):
    first, second = results_on(desk, 2)
    pull(laptop, {"seq": first, "size": 1000, "at": [0, 4], "link": True})
    reply, pieces = pull(laptop, {"seq": second, "size": 1000, "at": [0, 4], "link": True,
                                  "ack": first})
    assert reply["ok"] is True and pieces[0][1] == document_of(desk, second)[:1000]
    assert desk.app.endpoint.journal.finished() == [second]
    # acknowledging the result being pulled: freed, and a repeat of that pull sends no piece
    frame = laptop.signed(sp.PULL, {"seq": second, "size": 1000, "at": [0, 4],
                                    "ack": second})
    out = laptop.send(frame)
    assert out.count(b"~") == 1 + len(pieces)
    assert desk.app.endpoint.journal.finished() == []
    assert laptop.send(frame).count(b"~") == 1  # the reply again, no pieces: it is gone


def test_a_flash_error_is_a_refusal_and_the_board_goes_on(desk, laptop):
    endpoint = desk.app.endpoint

    def broken(*_args):
        raise OSError(28, "no space")

    endpoint.config.set_table = broken
    assert laptop.ask(sp.TABLE, {"table": 2}) == {"ok": False,
                                                  "error": "OSError: [Errno 28] no space"}
    (seq,) = results_on(desk, 1)
    endpoint.journal.acknowledge = broken
    reply, pieces = pull(laptop, {"seq": seq, "size": 1000, "at": [0, 4], "ack": seq})
    assert reply["ok"] is True and pieces  # the pull answered; the acknowledge failed quietly
    assert laptop.ask(sp.LIVE)["ok"] is True


def test_a_result_too_long_to_send_is_refused(desk, laptop, monkeypatch):
    (seq,) = results_on(desk, 1)
    size = len(document_of(desk, seq))
    monkeypatch.setattr(sp, "MAX_RESULT", size - 1)
    reply, pieces = pull(laptop, {"seq": seq, "size": 64, "at": [0, 1]})
    assert reply == {"ok": False, "error": "result %d is too long to send (%d bytes)"
                                           % (seq, size)}
    assert pieces == [] and desk.app.endpoint.chain.head() == [0, ""]  # nothing signed
    monkeypatch.setattr(sp, "MAX_RESULT", size)  # just as long as a result may be: sent
    assert pull(laptop, {"seq": seq, "size": 64, "at": [0, 1]})[0]["ok"] is True


def test_the_chain_lives_beside_the_settings(tmp_path):
    class Settings:
        path = "/flash/config.json"

    assert sync_endpoint._folder(Settings()) == "/flash/"
    Settings.path = "config.json"
    assert sync_endpoint._folder(Settings()) == ""
    Settings.path = None
    assert sync_endpoint._folder(Settings()) is None
    assert sync_endpoint._folder(object()) is None  # settings without a file at all
    assert Endpoint(None, None, Settings())._live() is None  # no app: no match


def test_the_firmware_version(monkeypatch):
    assert sync_endpoint.firmware_version() == "dev"
    stamp = types.ModuleType("pilkku_version")
    stamp.VERSION = "abc123"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pilkku_version", stamp)  # as `pilkku flash` writes it
    assert sync_endpoint.firmware_version() == "abc123"
