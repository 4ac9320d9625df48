"""The USB serial before a laptop has spoken (firmware/unsynced.py): the sync endpoint is loaded
with the first byte of a frame ("~"), not with any byte. What else comes on the line before
a laptop (mpremote's Ctrl-B leaving the raw REPL, a terminal's CR, line noise) would load
~7 KB of heap and ~140 names (on the Pico: past the names' pool's next 9 KB doubling with a
Kaisa match up) for nothing: the endpoint drops such bytes anyway. A deliberate Ctrl-C still
takes the board to the REPL."""

from __future__ import annotations

import pytest
from test_sync_endpoint import NONCE, Laptop, desk_board

from firmware.unsynced import Unsynced
from rules_core import sync_protocol as sp


def fed(desk, data: bytes) -> None:
    desk.line.incoming += data
    desk.run(10)


@pytest.mark.parametrize("noise", [b"\r\x02", b"\x02", b"\r\n", b"abc\x00\xff", b"\x03",
                                   b"x\x03y"])
def test_bytes_before_a_frame_leave_the_endpoint_unloaded(noise):
    desk = desk_board()
    fed(desk, noise)
    assert isinstance(desk.app.endpoint, Unsynced)
    assert desk.line.out == b""


def test_a_frame_loads_the_endpoint_and_is_answered_bytes_before_it_too():
    desk = desk_board()
    fed(desk, b"\r\x02")  # mpremote left the raw REPL: nothing
    hello = sp.encode(7, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE})
    fed(desk, b"noise" + hello[:5])  # the frame begins in this read
    assert not isinstance(desk.app.endpoint, Unsynced)
    fed(desk, hello[5:])
    seq, kind, reply, _tag, _body = sp.decode(bytes(desk.line.out)[:-1])
    assert (seq, kind, reply["ok"], reply["board"]) == (7, "r", True, "pk-desk")


def test_a_laptop_after_the_noise_syncs_as_ever():
    desk = desk_board()
    fed(desk, b"\r\n\x02")
    laptop = Laptop(desk)
    assert laptop.hello()["ok"] is True
    assert laptop.ask(sp.LIVE)["ok"] is True


def test_a_deliberate_ctrl_c_leaves_for_the_repl_before_any_laptop_a_lone_one_does_not():
    for data in (b"\r\x03", b"\x03\x03", b"x\r\x03\x01"):
        desk = desk_board()
        with pytest.raises(KeyboardInterrupt):
            fed(desk, data)
    desk = desk_board()
    fed(desk, b"\r")
    with pytest.raises(KeyboardInterrupt):
        fed(desk, b"\x03")  # the CR came in the read before
    desk = desk_board()
    for data in (b"x", b"\x03", b"a\x03b", b"\x03\n"):
        fed(desk, data)  # lone ones
    assert isinstance(desk.app.endpoint, Unsynced)


def test_no_heap_for_the_endpoint_keeps_the_scoreboard_and_the_next_frame_loads_it(
        monkeypatch):
    """On a Pico after a match the heap is in small holes: the endpoint's import or making
    may find no room. The board goes on (a MemoryError ended its loop, and the watchdog reset
    it under the laptop), the frame is dropped, and the laptop's next one loads it."""
    from firmware import sync_endpoint

    made = []
    endpoint = sync_endpoint.Endpoint

    def short_of_heap(*args):
        made.append(1)
        if len(made) == 1:
            raise MemoryError("memory allocation failed, allocating 1280 bytes")
        return endpoint(*args)

    monkeypatch.setattr(sync_endpoint, "Endpoint", short_of_heap)
    desk = desk_board()
    hello = sp.encode(7, sp.HELLO, {"version": sp.VERSION, "nonce": NONCE})
    fed(desk, hello)  # no room: dropped, no answer, the loop goes on
    assert isinstance(desk.app.endpoint, Unsynced) and desk.line.out == b""
    fed(desk, hello)  # the laptop sends it again
    seq, kind, reply, _tag, _body = sp.decode(bytes(desk.line.out)[:-1])
    assert (seq, kind, reply["ok"]) == (7, "r", True)
