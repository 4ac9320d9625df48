"""Board files: pin maps built against a stand-in ``machine``, detect(), the virtual board."""

from __future__ import annotations

import importlib
import re
import sys
import time
import types
from pathlib import Path

import pytest

from hardware import boards
from hardware.ht16k33 import Seg7x4
from hardware.ht16k33_model import Bus
from hardware.keys import PRESS, Keypad
from hardware.panel import LAYOUT, SCORE_1, SCORE_2, Panel

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


class Made:
    """A stand-in for machine.Pin / I2C / PWM that records how it was made."""

    OUT, IN, OPEN_DRAIN, PULL_UP = "OUT", "IN", "OPEN_DRAIN", "PULL_UP"

    def __init__(self, *args, **kwargs) -> None:
        self.args = args
        self.kwargs = kwargs
        self.duty = None

    def duty_u16(self, value=None):
        self.duty = value

    def value(self, v=None):
        return 1


def _count_feed(self) -> None:
    self.feeds += 1


def _timer_init(self, **settings) -> None:
    self.running = settings


def _timer_deinit(self) -> None:
    self.running = None


@pytest.fixture
def fake_machine(monkeypatch: pytest.MonkeyPatch):
    machine = types.ModuleType("machine")
    machine.Pin = type("Pin", (Made,), {})  # type: ignore[attr-defined]
    machine.I2C = type("I2C", (Made,), {})  # type: ignore[attr-defined]
    machine.PWM = type("PWM", (Made,), {})  # type: ignore[attr-defined]
    machine.WDT = type("WDT", (Made,), {"feeds": 0, "feed": _count_feed})  # type: ignore[attr-defined]
    machine.Timer = type("Timer", (Made,), {  # type: ignore[attr-defined]
        "PERIODIC": 1, "ONE_SHOT": 0, "running": None, "init": _timer_init,
        "deinit": _timer_deinit})
    machine.mem32 = {}  # type: ignore[attr-defined]  # address -> the word written
    monkeypatch.setitem(sys.modules, "machine", machine)
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = (  # type: ignore[attr-defined]
        lambda char: machine.mem32.__setitem__("kbd_intr", char))
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.delitem(sys.modules, "hardware.boards.stdio_serial", raising=False)
    monkeypatch.setattr(time, "sleep_us", lambda us: None, raising=False)
    for name in ("hardware.boards.pico", "hardware.boards.esp32"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield machine
    for name in ("hardware.boards.pico", "hardware.boards.esp32"):
        sys.modules.pop(name, None)


def test_detect_picks_by_platform(fake_machine) -> None:
    assert boards.detect("rp2").NAME == "pico"
    assert boards.detect("esp32").NAME == "esp32"
    assert boards.detect("linux").NAME == "virtual"
    assert boards.detect("darwin").NAME == "virtual"
    assert boards.detect().NAME == "virtual"  # CPython here


def test_detect_imports_only_the_board_in_use() -> None:
    sys.modules.pop("hardware.boards.pico", None)
    sys.modules.pop("hardware.boards.esp32", None)
    boards.detect("linux")
    assert "hardware.boards.pico" not in sys.modules
    assert "hardware.boards.esp32" not in sys.modules


@pytest.mark.parametrize("name", ["pico", "esp32"])
def test_board_builds_its_parts(fake_machine, name: str) -> None:
    board = importlib.import_module("hardware.boards." + name)
    bus = board.i2c()
    assert bus.kwargs["freq"] == 400000 == board.I2C_FREQ
    assert bus.kwargs["sda"].args == (board.SDA,) and bus.kwargs["scl"].args == (board.SCL,)
    rows, cols = board.keypad_pins()
    assert [p.args[0] for p in rows] == list(board.ROWS)
    assert all(p.args[1] == "OPEN_DRAIN" and p.kwargs["value"] == 1 for p in rows)
    assert [p.args for p in cols] == [(n, "IN", "PULL_UP") for n in board.COLS]
    pwm = board.buzzer_pwm()
    assert pwm.args[0].args == (board.BUZZER,) and (pwm.duty == 0 or pwm.kwargs["duty_u16"] == 0)
    led = board.status_led()
    assert led.args == (board.LED, "OUT") and led.kwargs["value"] == 0
    board.settle()
    used = [board.SDA, board.SCL, board.BUZZER, board.LED, *board.ROWS, *board.COLS]
    assert len(used) == len(set(used)), "a pin is used twice"


def test_the_pico_watchdog_is_a_wdt_stopped_at_its_enable_bit(fake_machine) -> None:
    pico = importlib.import_module("hardware.boards.pico")
    assert pico.watchdog(8000).kwargs["timeout"] == 8000
    assert pico.watchdog(60000).kwargs["timeout"] == 8388  # the RP2040 counts no longer
    pico.watchdog_off()
    assert fake_machine.mem32[0x4005B000] == 1 << 30  # CTRL's clear alias: ENABLE off
    pico.serial_interrupt(False)
    assert fake_machine.mem32["kbd_intr"] == -1
    pico.serial_interrupt(True)
    assert fake_machine.mem32["kbd_intr"] == 3


def test_the_esp32_watchdog_is_fed_by_a_timer_only_after_the_handover(fake_machine) -> None:
    """The calls the ESP32 board file makes (what they do on the port is modelled on the unix
    port: tests/hardware/test_esp32_watchdog.py)."""
    esp32 = importlib.import_module("hardware.boards.esp32")
    from firmware import app

    assert esp32.WATCHDOG_MS == app.WATCHDOG_MS  # boot.py's WDT is the one the loop feeds
    dog = esp32.watchdog(8000)
    assert dog.kwargs == {"timeout": 8000} and esp32._feeder is None
    esp32.watchdog_off()  # the REPL: a periodic timer feeds the WDT
    feeder = esp32._feeder
    assert feeder.args == (0,) and feeder.running["mode"] == feeder.PERIODIC
    assert feeder.running["period"] == 1000 < 8000
    fed = dog.feeds
    feeder.running["callback"](feeder)
    assert dog.feeds == fed + 1
    assert esp32.watchdog(8000) is dog and feeder.running is None  # the loop took it back
    esp32.after_reset()  # boot.py: the WDT again, fed by the timer
    assert feeder.running["period"] == 1000


def test_esp32_avoids_troublesome_pins(fake_machine) -> None:
    board = importlib.import_module("hardware.boards.esp32")
    strapping_or_flash = {0, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17}
    input_only = {34, 35, 36, 37, 38, 39}
    keys = set(board.ROWS) | set(board.COLS)
    assert not keys & strapping_or_flash
    assert not keys & input_only


def test_only_board_files_import_machine() -> None:
    pattern = re.compile(r"^\s*(import machine|from machine import)", re.M)
    importers = sorted(
        p.relative_to(HARDWARE).as_posix()
        for p in HARDWARE.rglob("*.py")
        if pattern.search(p.read_text())
    )
    assert importers == ["boards/esp32.py", "boards/pico.py"]


def test_no_module_below_firmware_reads_a_clock() -> None:
    clock = re.compile(r"ticks_ms\(|ticks_us\(|time\.time\(|monotonic\(")
    readers = [p.name for p in HARDWARE.rglob("*.py") if clock.search(p.read_text())]
    assert readers == []


def test_virtual_board_forwards_copies_to_a_callable() -> None:
    virtual = boards.detect("linux")
    got = []
    bus = virtual.i2c(lambda addr, data: got.append((addr, data)))
    disp = Seg7x4(bus, 0x70)
    disp.init()
    disp.number(12)
    disp.show()
    assert got[0] == (0x70, b"\x21")
    assert got[1] == (0x70, bytes(17))
    assert all(isinstance(d, bytes) for _, d in got)  # copies, not the driver's buffer
    model = Bus()
    model.add(0x70)
    for addr, data in got:
        model.writeto(addr, data)
    assert model.text(0x70) == "  12"


def test_virtual_board_default_model_holds_the_panel() -> None:
    virtual = boards.detect("linux")
    panel = Panel(virtual.i2c())
    panel.init()
    panel.score_1.number(61)
    panel.score_2.number(-3)
    panel.clock.text("45:00")
    panel.message.text("P1 BREAK")
    assert panel.show() == 5  # the message row is two backpacks
    model = virtual.model
    assert model.scan() == [a for a, _ in LAYOUT]
    assert [model.text(a) for a in model.scan()] == ["  61", "  -3", "45:00", "P1 B", "REAK"]
    assert panel.show() == 0


def test_the_panel_marks_one_score_display_and_sends_only_a_change() -> None:
    virtual = boards.detect("linux")
    panel = Panel(virtual.i2c())
    panel.init()
    panel.score_1.number(3)
    panel.score_2.number(12)
    model = virtual.model
    for player, marks in ((0, (":", "")), (1, ("", ":")), (None, ("", "")), (1, ("", ":"))):
        panel.mark(player)
        panel.show()
        assert (model.mark(SCORE_1), model.mark(SCORE_2)) == marks, player
        assert (model.text(SCORE_1, mark=False), model.text(SCORE_2, mark=False)) == \
            ("   3", "  12")
    writes = model.transactions
    panel.mark(1)
    panel.score_2.text("12", True)  # the score drawn again leaves the mark alone
    assert panel.show() == 0 and model.transactions == writes


def test_virtual_keypad_and_buzzer() -> None:
    virtual = boards.detect("linux")
    rows, cols = virtual.keypad_pins()
    pad = Keypad(rows, cols, debounce_ms=10, settle=virtual.settle)
    got = []
    virtual.matrix.press("5")
    for ms in (0, 10, 20):
        pad.scan(ms, lambda n, e: got.append((n, e)))
    virtual.matrix.release("5")
    assert got == [("5", PRESS)]
    assert virtual.buzzer_pwm() is virtual.pwm
    led = virtual.status_led()
    led.toggle()
    assert led.value() == 1
