"""The heap kept for one littlefs file (firmware/room.py): an open that finds no block for its
file and cache lets the room go, collects, and opens again; without the room held the
MemoryError is the caller's, as before; the quiet ticks hold it again."""

from __future__ import annotations

import pytest

from firmware import room


@pytest.fixture
def heap(monkeypatch):
    """A heap with one block for a file: the room's, or none while the room holds it."""
    state = {"collections": 0, "opens": 0}

    def fake_open(path, mode="r"):
        state["opens"] += 1
        if room._room:  # noqa: SLF001  # (the block is the room's)
            raise MemoryError("memory allocation failed, allocating 1148 bytes")
        return (path, mode)

    def collect():
        state["collections"] += 1

    monkeypatch.setattr(room, "open", fake_open, raising=False)
    monkeypatch.setattr(room.gc, "collect", collect)
    monkeypatch.setattr(room, "_room", [])
    return state


def test_an_open_with_no_block_for_it_takes_the_room(heap):
    room.hold()
    assert room.open_file("journal/done/3.log", "rb") == ("journal/done/3.log", "rb")
    assert heap == {"collections": 1, "opens": 2}
    room.hold()  # a quiet tick: held again
    assert room.open_file("journal/chain.tmp", "wb") == ("journal/chain.tmp", "wb")
    assert heap == {"collections": 2, "opens": 4}


def test_without_the_room_a_full_heap_is_the_callers(heap, monkeypatch):
    def full(path, mode="r"):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    monkeypatch.setattr(room, "open", full, raising=False)
    with pytest.raises(MemoryError):
        room.open_file("journal/seq")
    room.hold()
    with pytest.raises(MemoryError):  # the room given, and still no block: the caller's
        room.open_file("journal/seq")
    assert heap["collections"] == 1


def test_no_block_for_the_room_itself_is_tried_again_later(heap, monkeypatch):
    def no_heap(_size):
        raise MemoryError

    monkeypatch.setattr(room, "bytearray", no_heap, raising=False)
    room.hold()
    assert room._room == []  # noqa: SLF001
