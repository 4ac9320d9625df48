"""The quiet ticks' flash work (firmware/between_keys.py, issue 31): the journal's steps that
may erase or write littlefs wait until no key has come for FLASH_IDLE_MS, then go one step
per quiet tick while the journal says it has more; a finished match's filing goes at once
(the next start needs it); the first quiet tick after a key still readies the match (its
copy of the state) and lets the journal pad its log (a board without a ring)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from firmware import between_keys
from firmware.between_keys import FLASH_IDLE_MS, BetweenKeys
from firmware.journal import AHEAD_ROOM


class Store:
    def __init__(self) -> None:
        self.calls: list[bool] = []
        self.more = False
        self.steps = 0  # steps of flash work left, each reported through `more`

    def prepare(self, idle: bool = True):
        self.calls.append(idle)
        self.more = idle and self.steps > 0
        if self.more:
            self.steps -= 1
        return None


def _app(store: Store) -> SimpleNamespace:
    return SimpleNamespace(store=store, match=None, now=0, key_at=0, schedule_owed=[],
                           notify=lambda text, now: None)


def test_flash_work_waits_until_keys_stop_then_goes_a_step_a_tick(monkeypatch):
    monkeypatch.setattr(between_keys, "_mem_free", None)
    store = Store()
    store.steps = 3
    app = _app(store)
    between = BetweenKeys()
    app.now = app.key_at = 5000  # a key
    between.busy()
    app.now += 10
    between.quiet(app)  # the first quiet tick: the journal readied, no flash work yet
    assert store.calls == [False]
    for _ in range(40):  # 400 ms more of quiet ticks, keys still expected
        app.now += 10
        between.quiet(app)
    assert store.calls == [False]
    while app.now - app.key_at < FLASH_IDLE_MS - 10:
        app.now += 10
        between.quiet(app)
    assert True not in store.calls  # (its look every IDLE_CHECK ticks: still not idle)
    for _ in range(20):
        app.now += 10
        between.quiet(app)
    assert store.calls.count(True) == 4  # three steps, then the one that found no more
    assert store.calls[-4:] == [True] * 4
    app.key_at = app.now  # a key again: nothing until the next idle stretch
    between.busy()
    store.steps = 2
    count = len(store.calls)
    app.now += 10
    between.quiet(app)
    assert store.calls[count:] == [False]


def test_a_finished_match_is_filed_at_once(monkeypatch):
    """The journal's own `more` (a finished match's filing, done whether idle or not) keeps
    the quiet ticks calling it, keys or no keys."""
    monkeypatch.setattr(between_keys, "_mem_free", None)

    class Filing(Store):
        def prepare(self, idle: bool = True):
            self.calls.append(idle)
            self.more = self.steps > 0
            if self.more:
                self.steps -= 1

    store = Filing()
    store.steps = 2
    app = _app(store)
    between = BetweenKeys()
    app.now = app.key_at = 100
    between.busy()
    for _ in range(4):
        app.now += 10
        between.quiet(app)
    assert store.calls == [False, False, False]


def test_a_latched_press_ends_the_loops_wait_within_a_slice():
    """Issue 31: a real board waits out its 10 ms tick in 1 ms slices while the keypad can
    latch, and a press its edge interrupt latched ends the wait at the next slice (taken
    then, not up to a whole tick later); a board without the latch, or stepped by a host,
    waits its tick in one call as before."""
    from firmware.between_keys import TICK_MS, wait_tick

    class Board:
        def __init__(self, host=None):
            self.waits: list[int] = []
            self.host = host

        def host_ms(self):
            return self.host

        def wait(self, ms):
            self.waits.append(ms)
            if len(self.waits) == 3:
                keypad.latched = 1 << 5  # the edge interrupt, during the third slice
            return -1

    keypad = SimpleNamespace(can_latch=True, latched=0)
    app = SimpleNamespace(keypad=keypad)
    board = Board()
    assert wait_tick(app, board) == -1
    assert board.waits == [1, 1, 1]
    keypad.latched = 0
    board = Board()
    wait_tick(app, board)
    assert board.waits == [1, 1, 1]  # (latched in the third again)
    keypad.latched, keypad.can_latch = 0, False
    board = Board()
    wait_tick(app, board)
    assert board.waits == [TICK_MS]
    keypad.can_latch = True
    board = Board(host=5)
    wait_tick(app, board)
    assert board.waits == [TICK_MS]


def test_a_long_press_falling_due_ends_the_loops_wait(monkeypatch):
    """Issue 31: a held key's LONG (the undo) is seen at the slice it falls due (the
    keypad's long_due), not up to a whole tick later; with none due the tick is waited out."""
    from firmware import between_keys
    from firmware.between_keys import TICK_MS, wait_tick

    clock = [100]
    monkeypatch.setattr(between_keys, "ticks_ms", lambda: clock[0])

    class Board:
        def __init__(self):
            self.waits: list[int] = []

        def host_ms(self):
            return None

        def wait(self, ms):
            self.waits.append(ms)
            clock[0] += ms
            return -1

    keypad = SimpleNamespace(can_latch=True, latched=0, long_due=104)
    app = SimpleNamespace(keypad=keypad)
    board = Board()
    wait_tick(app, board)
    assert board.waits == [1, 1, 1, 1] and clock[0] == 104
    keypad.long_due = None
    board = Board()
    wait_tick(app, board)
    assert board.waits == [1] * TICK_MS


def _menu_app(game: str) -> SimpleNamespace:
    store = Store()
    store.ahead = lambda settings, idle: None  # type: ignore[attr-defined]
    menu = SimpleNamespace(selected=lambda: ({"game": game, "race_to": 60}, {}))
    app = _app(store)
    app.menu = menu
    return app


def _quiet_for(between: BetweenKeys, app: SimpleNamespace, ms: int) -> None:
    for _ in range(ms // 10):
        app.now += 10
        between.quiet(app)


@pytest.mark.parametrize("free, loaded", [(AHEAD_ROOM, True), (AHEAD_ROOM - 1, False)])
def test_the_menu_loads_the_selected_games_panel_once_the_keys_stop(
        monkeypatch, tmp_path, free, loaded):
    # A stand-in for Kaisa's panel module, not yet loaded.
    (tmp_path / "stand_in_panel.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "stand_in_panel", raising=False)
    monkeypatch.setitem(between_keys.PANELS, "kaisa", "stand_in_panel")
    monkeypatch.setattr(between_keys, "_mem_free", lambda: free)
    monkeypatch.setattr(between_keys.gc, "collect", lambda: None)
    app = _menu_app("kaisa")
    between = BetweenKeys()
    app.now = app.key_at = 5000  # a key: the menu's keys may go on
    between.busy()
    _quiet_for(between, app, FLASH_IDLE_MS - 100)
    assert "stand_in_panel" not in sys.modules  # not while keys may come
    _quiet_for(between, app, 2000)
    assert ("stand_in_panel" in sys.modules) == loaded  # and only with room for the match
    assert between_keys.panel_loaded("kaisa") == loaded
    assert between_keys.panel_loaded("9ball")  # (8- and 9-ball have no panel of their own)


def test_no_heap_for_the_next_events_copy_leaves_it_to_the_key(monkeypatch):
    # A quiet tick's copy of the match's state meets a full heap: the loop goes on (a
    # MemoryError there ended it, and the watchdog reset the board mid-match).
    monkeypatch.setattr(between_keys, "_mem_free", None)
    collected: list[int] = []
    monkeypatch.setattr(between_keys.gc, "collect", lambda: collected.append(1))

    def no_room() -> None:
        raise MemoryError

    app = _app(Store())
    app.match = SimpleNamespace(state=SimpleNamespace(finished=False), prepare=no_room)
    between = BetweenKeys()
    between.busy()
    app.now += 10
    between.quiet(app)  # the first quiet tick readies the match: no room, no raise
    assert collected == [1]


class Heap:
    """A heap that the ticks fill with `crumbs` bytes each and a collection empties."""

    def __init__(self, free: int, crumbs: int) -> None:
        self.top, self.free, self.crumbs, self.collections = free, free, crumbs, 0

    def collect(self) -> None:
        self.collections += 1
        self.free = self.top


def test_the_idle_menu_collects_rarely_and_a_keys_garbage_at_once(monkeypatch):
    # A collection takes ~30 ms on a Pico and a press falling in one waits for it: the idle
    # menu's own crumbs (~30 bytes a tick) collected at every 2 KB put one in every ~0.75 s.
    heap = Heap(150 * 1024, 32)
    monkeypatch.setattr(between_keys, "_mem_free", lambda: heap.free)
    monkeypatch.setattr(between_keys.gc, "collect", heap.collect)
    app = _menu_app("9ball")
    between = BetweenKeys()

    def ticks(ms: int) -> None:
        for _ in range(ms // 10):
            app.now += 10
            heap.free -= heap.crumbs
            between.quiet(app)

    ticks(3_000)
    heap.collections = 0  # (the first look, which knows no collection yet, made one)
    ticks(9_000)  # 9 s idle, its journal's flash work begun at 1 s: ~28 KB of crumbs
    assert heap.collections == 0
    ticks(4_000)  # past GC_IDLE_STEP of them: one collection
    assert heap.collections == 1
    heap.free -= 4096  # a key's garbage: collected at the first look after it
    app.key_at = app.now
    between.busy()
    ticks(10)
    assert heap.collections == 2


def test_a_match_low_on_heap_collects_and_one_with_room_does_not(monkeypatch):
    heap = Heap(between_keys.GC_RESERVE + 8192, 64)
    monkeypatch.setattr(between_keys, "_mem_free", lambda: heap.free)
    monkeypatch.setattr(between_keys.gc, "collect", heap.collect)
    app = _app(Store())
    app.match = SimpleNamespace(state=SimpleNamespace(finished=True))
    between = BetweenKeys()
    least = heap.free
    for _ in range(6000):  # a minute's ticks, 64 bytes each
        app.now += 10
        heap.free -= heap.crumbs
        between.quiet(app)
        least = min(least, heap.free)
    assert heap.collections >= 3
    # the heap looked at every HEAP_LOOK_MS at least: never more crumbs below the reserve
    assert least >= between_keys.GC_RESERVE - between_keys.HEAP_LOOK_MS // 10 * heap.crumbs


def test_the_heap_is_looked_at_after_a_key_and_seldom_else(monkeypatch):
    # gc.mem_free walks the heap's whole table, ~9 ms on a Pico: a press falling in it
    # waits. It was called at every look, after each clock's second and each scroll step.
    looks: list[int] = []
    app = _app(Store())
    app.match = SimpleNamespace(state=SimpleNamespace(finished=True))
    monkeypatch.setattr(between_keys, "_mem_free", lambda: looks.append(app.now) or 100_000)
    between = BetweenKeys()
    for _second in range(10):  # a clock drawn every second: a look after each
        for _ in range(100):
            app.now += 10
            between.quiet(app)
        between.busy()
    assert 4 <= len(looks) <= 6  # every HEAP_LOOK_MS, not every second
    looks.clear()
    app.key_at = app.now
    between.busy()
    app.now += 10
    between.quiet(app)
    assert looks == [app.now]  # the first quiet tick after a key looks at once


def test_the_room_for_a_file_is_held_again_at_a_look_with_no_key(monkeypatch):
    from firmware import room

    monkeypatch.setattr(room, "_room", [])
    monkeypatch.setattr(between_keys, "_mem_free", lambda: 100_000)
    app = _app(Store())
    app.match = SimpleNamespace(state=SimpleNamespace(finished=True))
    between = BetweenKeys()
    app.key_at = app.now = 5000
    between.busy()
    app.now += 10
    between.quiet(app)  # the look after a key: not there (a key may follow at once)
    assert room._room == []  # noqa: SLF001
    for _ in range(between_keys.HEAP_LOOK_MS // 10 + between_keys.IDLE_CHECK):
        app.now += 10
        between.quiet(app)
    assert len(room._room) == 1  # noqa: SLF001


class _Readied:
    """A match that says whether the quiet ticks readied it (prepare) or let go of its
    copies (shed)."""

    def __init__(self) -> None:
        self.state = SimpleNamespace(finished=False)
        self.calls: list[str] = []

    def prepare(self) -> None:
        self.calls.append("prepare")

    def shed(self) -> None:
        self.calls.append("shed")


@pytest.mark.parametrize("free, done", [(between_keys.SHORT_FREE - 1024, "shed"),
                                        (between_keys.SHORT_FREE + 1024, "prepare")])
def test_a_match_short_of_heap_holds_one_state_and_one_with_room_readies_the_next(
        monkeypatch, free, done):
    heap = Heap(free, 0)
    monkeypatch.setattr(between_keys, "_mem_free", lambda: heap.free)
    monkeypatch.setattr(between_keys.gc, "collect", heap.collect)
    app = _app(Store())
    app.match = match = _Readied()
    between = BetweenKeys()
    for _key in range(3):
        app.key_at = app.now = app.now + 500
        heap.free -= 4096  # the key's garbage: collected at the first look after it
        between.busy()
        app.now += 10
        between.quiet(app)
    assert match.calls == [done] * 3
