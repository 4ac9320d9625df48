"""The non-blocking scroller, fed with milliseconds."""

from __future__ import annotations

from hardware.ht16k33 import Chain, Scroller, Seg7x4, Seg14x4
from hardware.ht16k33_model import Bus


def run(scroller: Scroller, disp, bus: Bus, addrs, until: int, step: int = 10):
    """Tick every ``step`` ms up to ``until``; return [(ms, text)] each time the view changed."""
    seen = []
    for now in range(step, until + 1, step):
        if scroller.tick(now):
            disp.show()
            seen.append((now, "".join(bus.text(a) for a in addrs)))
    return seen


def test_single_run_timing(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=200, hold_ms=1000)
    s.start("FOUL P2", 0, loop=False)
    disp.show()
    assert bus.text(0x73) == "FOUL"
    assert not s.done
    seen = run(s, disp, bus, [0x73], 3000)
    assert seen == [(1000, "OUL "), (1200, "UL P"), (1400, "L P2")]
    assert s.done  # the last window was held 1000 ms, then done
    assert bus.text(0x73) == "L P2"


def test_done_only_after_final_hold(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=100, hold_ms=500)
    s.start("ABCDE", 0, loop=False)
    assert s.tick(499) is False and not s.done
    assert s.tick(500) is True
    assert s.tick(999) is False and not s.done
    assert s.tick(1000) is False and s.done


def test_loop_wraps_with_gap(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=100, hold_ms=300, gap=2)
    s.start("ABCDEF", 0, loop=True)
    seen = run(s, disp, bus, [0x73], 1500)
    # tape "ABCDEF  " (8 cells): one step each 100 ms after a 300 ms hold, back to the start
    # after 8 steps, where it holds again.
    assert [t for _, t in seen] == [
        "BCDE", "CDEF", "DEF ", "EF  ", "F  A", "  AB", " ABC", "ABCD", "BCDE", "CDEF", "DEF ",
    ]
    times = [ms for ms, _ in seen]
    assert times[:8] == [300, 400, 500, 600, 700, 800, 900, 1000]
    assert times[8] == 1300  # held 300 ms on the start again
    assert not s.done


def test_dots_do_not_take_a_step(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=100, hold_ms=100)
    s.start("V1.2.3 OK", 0, loop=False)
    disp.show()
    assert bus.text(0x73) == "V1.2.3"
    seen = run(s, disp, bus, [0x73], 1000)
    assert [t for _, t in seen] == ["1.2.3 ", "2.3 O", "3 OK"]


def test_short_text_just_shows(bus: Bus) -> None:
    disp = Seg7x4(bus, 0x70)
    disp.init()
    s = Scroller(disp)
    s.start("12", 0)
    disp.show()
    assert s.done and bus.text(0x70) == "12  "
    assert s.tick(10_000) is False


def test_late_ticks_move_one_step_not_a_burst(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=100, hold_ms=100)
    s.start("ABCDEFGH", 0, loop=False)
    assert s.tick(5000) is True  # the loop stalled for 5 s
    disp.show()
    assert bus.text(0x73) == "BCDE"
    assert s.tick(5050) is False
    assert s.tick(5100) is True


def test_restart_replaces_message(bus: Bus) -> None:
    disp = Seg14x4(bus, 0x73)
    disp.init()
    s = Scroller(disp, step_ms=100, hold_ms=100)
    s.start("ABCDEFGH", 0)
    s.tick(100)
    s.start("12345678", 150)
    disp.show()
    assert bus.text(0x73) == "1234"
    assert s.tick(200) is False and s.tick(250) is True


def test_scroll_over_chained_backpacks(bus: Bus) -> None:
    row = Chain([Seg14x4(bus, 0x73), Seg14x4(bus, 0x74)])
    for d in row.displays:
        d.init()
    s = Scroller(row, step_ms=250, hold_ms=1000)
    s.start("BALL IN HAND", 0, loop=False)
    row.show()
    assert bus.text(0x73) + bus.text(0x74) == "BALL IN "
    seen = run(s, row, bus, [0x73, 0x74], 5000)
    assert seen == [
        (1000, "ALL IN H"),
        (1250, "LL IN HA"),
        (1500, "L IN HAN"),
        (1750, " IN HAND"),
    ]
    assert s.done
