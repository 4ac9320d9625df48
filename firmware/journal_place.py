"""Where the journal's ring lives on a board's flash (docs/journal.md, "Where the ring lives"):
the layout `pilkku flash` gives a Pico, and `board_ring`, the ring the board offers.

    blocks of rp2.Flash() (4 KB each, 352 on a Pico with the stock firmware)
    0-1      the boot stub: a littlefs the stock _boot.py mounts, holding only boot.py
    2-319    the real littlefs, mounted at / by the stub's boot.py
    320-351  the ring (firmware/journal_ring.py)

A board has the ring only when / is that littlefs of FS_BLOCKS blocks on a flash of
FLASH_BLOCKS: a board in the old layout (littlefs over all 352 blocks, the ring's sectors
littlefs' own) or with no rp2.Flash (the unix port) gets None, and the journal writes its
records to littlefs as before.
"""

import os

BLOCK = 4096
FLASH_BLOCKS = 352  # rp2.Flash() on a Pico with the stock MicroPython (1408 KB)
STUB_BLOCKS = 2
FS_FIRST = 2
FS_BLOCKS = 318
RING_FIRST = 320
RING_COUNT = 32
LAYOUT = "ring1"  # what a board in this layout says it has (LAYOUT_OLD: littlefs over all)
LAYOUT_OLD = "littlefs"


def layout():
    """The layout of this board's flash: LAYOUT, LAYOUT_OLD, or None (no rp2.Flash)."""
    try:
        import rp2
    except ImportError:
        return None
    try:
        blocks = rp2.Flash().ioctl(4, 0)
        mounted = os.statvfs("/")[2]
    except Exception:  # noqa: BLE001  # no flash object, no filesystem: no ring
        return None
    if blocks == FLASH_BLOCKS and mounted == FS_BLOCKS:
        return LAYOUT
    return LAYOUT_OLD


def board_ring():
    """The journal's ring on this board, or None when its flash is not in the ring's layout."""
    if layout() != LAYOUT:
        return None
    import rp2

    from firmware.journal_ring import Ring, RingError

    try:
        return Ring(rp2.Flash(start=RING_FIRST * BLOCK, len=RING_COUNT * BLOCK))
    except RingError:  # (no room: cannot happen on the layout checked above)
        return None
