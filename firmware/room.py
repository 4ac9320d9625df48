"""Heap for one littlefs file, held from the boot (issue 31): on a Pico an open takes 1 148
bytes in one block (the file and its 1 KB cache), and once the sync's modules are loaded, or
a game's beside a match, the heap is in small holes, often none that big. An open that finds
no block (`open_file`) lets the room go, collects, and opens again; the quiet ticks `hold` it
again once a block that big is free."""

import gc

SIZE = 1152
_room = []  # type: list[bytearray]


def hold():
    """Take the room if it is not held (no block that big: the next look tries again)."""
    if not _room:
        try:
            _room.append(bytearray(SIZE))
        except MemoryError:
            pass


def open_file(path, mode="r"):
    """open(path, mode), with the room let go for it if the heap has no block for it."""
    try:
        return open(path, mode)
    except MemoryError:
        if not _room:
            raise
        _room.pop()
        gc.collect()  # (~30 ms on a Pico: better than no file)
        return open(path, mode)
