"""What the scoreboard does in its quiet ticks, so that the next key's tick need not: the
garbage collected when the heap runs low (the key's tick then finds GC_RESERVE free and meets
no collection), the match's copy of its state for the next event made, and the journal's
flash readied for its next record (rules_core/match.py `prepare`, firmware/journal_log.py
`arm`). The journal also reads a few of the records its boot skipped (those before the
snapshot, `check_prefix`); damage found there is shown at once. It acts in the first quiet
tick after a busy one (keys allocate and write) and then every IDLE_CHECK quiet ticks
(docs/performance.md, key to display).

With a ring (firmware/journal_ring_file.py) the journal's flash work between keys (a sector
erased ahead, records filed to littlefs, a snapshot, SEQ) is a step of up to ~50 ms each,
most of it an erase that nothing can interrupt: it waits until no key has come for
FLASH_IDLE_MS (a referee entering a shot presses a key every few hundred ms; between shots
the table is quiet for seconds), then goes one step per quiet tick while the journal says it
did some (`more`), so a key latched during a step is taken at the next tick's scan, before
the next step. A finished match's filing goes at once, a step a tick (the next start needs
it done; the menu's keys are few). docs/journal.md, "Between keys: when the flash works".
"""

import gc
import sys
import time

from firmware import room
from firmware.journal import AHEAD_ROOM
from hardware.compat import due as _due
from hardware.compat import ticks_diff

# Free heap kept for a key's tick, so that none needs a collection: the most one takes is
# about 17 KB (a rack's end, on the 64-bit unix port; less on a 32-bit board), and the quiet
# ticks between two looks at the heap (HEAP_LOOK_MS apart with no key) take ~6 KB more on a
# Pico (~30 bytes a tick); on the 64-bit virtual board up to ~19 KB, where a key after a
# long quiet may then meet a collection (a few ms on a laptop).
GC_RESERVE = 32 * 1024
GC_STEP = 2048  # allocated since the last collection before another is worth its time
GC_IDLE_STEP = 32 * 1024  # the same for the idle menu's own crumbs (see _collect)
IDLE_CHECK = 64  # quiet ticks between two looks
# Free heap after a collection below which a match holds one state between keys: no copy made
# ahead, no state kept for undo (Match.shed). Such a board's keys are ~6 ms slower and its
# undo replays, but its match plays on where the two copies would not fit.
SHORT_FREE = 16 * 1024
# The least time between two looks at the heap when no key came: gc.mem_free walks the
# heap's whole table (~9 ms on a Pico), and a press falling in one waits (each look was one:
# every clock's second, every step of a scrolling text).
HEAP_LOOK_MS = 2000
FLASH_IDLE_MS = 1000  # no key for this long: the journal's flash work between keys may run
TICK_MS = 10  # the loop's tick (firmware/app.py)
WAKE_MS = 1  # the tick's wait in slices this long, a latched press ending it (wait_tick)
_mem_free = getattr(gc, "mem_free", None)  # CPython has no heap of its own to watch
# The board's own clock, for the loop (firmware/app.py) and its wait; CPython (the virtual
# board's fallback) has neither. (hardware/ reads no clock: it is given the time.)
ticks_ms = getattr(time, "ticks_ms", None) or (
    lambda: int(time.monotonic() * 1000))  # type: ignore[attr-defined]
ticks_us = getattr(time, "ticks_us", None) or (
    lambda: int(time.monotonic() * 1000000))  # type: ignore[attr-defined]


class BetweenKeys:
    def __init__(self):
        self._quiet = 0  # quiet ticks since the last busy one (or the last look)
        self._gc_free = 1 << 30  # free heap after the last collection (none yet)
        self._owed = False  # the journal's flash work waits for the keys to stop
        self._ahead_owed = False  # the menu's start made ahead again once they have
        self._key_looked = 0  # app.key_at at the last look at the heap
        self._heap_at = 0  # app.now at the last look at the heap

    def busy(self):
        """A tick drew something (a key, a notice, a clock's second)."""
        self._quiet = 0

    def quiet(self, app):
        """A tick that drew nothing."""
        self._quiet += 1
        if self._quiet > IDLE_CHECK:
            self._quiet = 1  # counted round, never a long int
        store = app.store
        idle = ticks_diff(app.now, app.key_at) >= FLASH_IDLE_MS
        if self._quiet != 1:
            # The journal's flash work, a step a tick: once the keys have stopped, or while
            # it has more of what goes at once (a finished match's filing).
            filing = getattr(store, "more", False)
            if (self._owed and idle) or filing:
                self._owed = False
                self._journal(app, store, idle)
                if filing and app.match is None and _mem_free is not None and \
                        not getattr(store, "more", False):
                    # A filing has just ended: its garbage goes now, not in the next start
                    # (a collection there took the start key 24 -> 51 ms on the Pico).
                    self._collect(True)
            elif idle and app.schedule_owed:
                app.keep_schedule()  # the matches played leave the kept schedule
            elif self._ahead_owed and idle and not getattr(store, "more", False):
                self._ahead_owed = False
                self._ahead(app, True)  # the menu, once the keys have stopped
            return
        keyed = app.key_at != self._key_looked
        if _mem_free is not None and (keyed or ticks_diff(app.now, self._heap_at) >= HEAP_LOOK_MS):
            self._key_looked, self._heap_at = app.key_at, app.now
            self._collect(app.match is None, keyed)
            if not keyed:  # again, if an open took it (no block for it: a collection)
                room.hold()
        match = app.match
        if match is not None and _mem_free is not None and self._gc_free < SHORT_FREE:
            match.shed()
        elif match is not None and not match.state.finished:
            try:
                match.prepare()
            except MemoryError:  # no room for the copy now: the next key makes its own
                gc.collect()
        # Also with no match up: a finished match waits for this to be filed away (a board
        # with a ring, firmware/journal.py finish).
        self._journal(app, store, idle)
        self._owed = not idle
        self._ahead_owed = match is None
        if match is None:
            self._ahead(app, idle)  # the menu: the selected match's start made ahead

    def _ahead(self, app, idle):
        """The menu: the journal makes the selected match's start ahead (Journal.ahead),
        and once the keys have stopped, the game's own panel is loaded as its rules are
        (Kaisa's start key 107 ms on a Pico with its modules loaded in it), when the heap
        has room for it and the match (AHEAD_ROOM); a board short of heap loads them as the
        match starts, as before."""
        ahead = getattr(app.store, "ahead", None)
        if ahead is None or app.match is not None:
            return
        settings = app.menu.selected()[0]
        ahead(settings, idle)
        game = settings.get("game")
        if idle and not panel_loaded(game) and (_mem_free is None or _mem_free() >= AHEAD_ROOM):
            try:
                __import__(PANELS[game])
            except MemoryError:
                gc.collect()

    def _journal(self, app, store, idle):
        found = store.prepare(idle)
        if found:  # damage the journal's check just found: the referee sees it now
            app.notify(found, app.now)

    def _collect(self, in_menu, keyed=True):
        free = _mem_free()
        # In the menu a look after a key collects what it left: starting a match opens its
        # journal and may load a game's modules, so its key wants all the heap. The idle
        # menu's own crumbs wait for GC_IDLE_STEP of them: a collection takes ~30 ms on a
        # Pico, and a press falling in one waits (at GC_STEP one came every ~0.75 s).
        step = GC_STEP if free < GC_RESERVE or (in_menu and keyed) else \
            GC_IDLE_STEP if in_menu else 0
        if step and free <= self._gc_free - step:
            gc.collect()
            self._gc_free = _mem_free()
        elif free > self._gc_free:
            self._gc_free = free  # a collection came by itself


# The games whose referee panel is a module of its own, loaded only for them (firmware/app.py).
PANELS = {"14.1": "firmware.referee_straight", "kaisa": "firmware.kaisa_face"}


def panel_loaded(game):
    """The game's panel module is loaded (or it has none of its own: 8- and 9-ball's)."""
    name = PANELS.get(game)
    return name is None or name in sys.modules


def wait_tick(app, board):
    """Wait out the loop's tick. A board that keeps its own time and latches presses
    (hardware/keypad_latch.py) waits in WAKE_MS slices, and a press latched meanwhile ends
    the wait: it is taken within a slice of the press, not up to a whole tick later. So does
    the moment a held key's LONG falls due (the keypad's `long_due`): a long press (the undo)
    is taken within a slice of its 800 ms, not up to a tick later."""
    keypad = app.keypad
    if not keypad.can_latch or board.host_ms() is not None:
        return board.wait(TICK_MS)
    due = getattr(keypad, "long_due", None)
    asked = -1
    for _ in range(TICK_MS // WAKE_MS):
        asked = board.wait(WAKE_MS)
        if asked >= 0 or keypad.latched:
            break
        if due is not None and _due(ticks_ms(), due):
            break
    return asked
