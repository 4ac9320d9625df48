"""Run in the MicroPython unix port by tests/firmware/test_names_heap.py (compiled with
mpy-cross beside the firmware): names with letters beyond ASCII on the displays, and what that
does to the qstr pool (``micropython.qstr_info()`` lines, read by the test).

    intern             texts with Ä Ö Å (and letters no font has) drawn and scrolled: the
                       qstr pool before and after, and what the displays read
    edge -1 fi|ascii   the probe: the app in its menu, then one new qstr at a time ("i N"
                       before each pool line): where the pool's next block is taken
    edge FILL fi|ascii the app in its menu with FILL new qstrs (the pool full), the heap cut
                       into small holes, then a synced schedule with Finnish (or the same
                       names in ASCII) shown for three seconds: "OK" and the message row, or
                       "MemoryError" when the main loop's tick raised it

The probe takes the same arguments but for FILL: the unix port interns its command line, so
the two runs reach the menu with the same qstrs.
"""

import gc

import micropython

from firmware.app import App
from firmware.ram_store import MemoryStore
from hardware.ht16k33 import Scroller
from hardware.ht16k33_model import Bus
from hardware.panel import LAYOUT, MESSAGE_1, MESSAGE_2, SCORE_1, Panel

FINNISH = (("Pertti \u00c4ij\u00e4l\u00e4", "\u00c5sa \u00d6hman"),
           ("\u00d6sten \u00c5berg", "J\u00f6rgen \u00c5kerblom"))
ASCII = (("Pertti Aijala", "Asa Ohman"), ("Osten Aberg", "Jorgen Akerblom"))


def model():
    bus = Bus()
    for address, kind in LAYOUT:
        bus.add(address, kind)
    return bus


class Quiet:
    """A buzzer PWM and a USB line with nothing behind them."""

    def freq(self, value=None):
        return 0

    def duty_u16(self, value=None):
        return 0

    def deinit(self):
        pass

    def read(self):
        return b""

    def write(self, data):
        pass


class Board:
    def __init__(self):
        from hardware.fakes import KeyMatrix

        self.bus = model()
        self.matrix = KeyMatrix()

    def i2c(self):
        return self.bus

    def keypad_pins(self):
        return self.matrix.rows, self.matrix.cols

    def settle(self):
        pass

    def buzzer_pwm(self):
        return Quiet()

    def usb(self):
        return Quiet()


class Schedule:
    """The board's settings, the synced schedule in RAM."""

    board = "pk-00000000"
    table = 1
    problem = None  # as firmware/config.Config's: no kept file found damaged

    def __init__(self):
        self.matches = []

    def key(self):
        return None

    def schedule(self):
        return self.matches

    def set_schedule(self, matches):
        self.matches = matches


def intern():
    bus = model()
    panel = Panel(bus)
    panel.init()
    scroller = Scroller(panel.message)
    panel.message.text("WARM UP.")  # the driver's own first call, in ASCII
    micropython.qstr_info()
    for name in ("\u00c4ij\u00e4l\u00e4", "\u00f6hman \u00c5", "\u0141\u0107\u6f22\u00e5"):
        panel.message.text(name.upper())
        panel.show()
        print("shown", bus.text(MESSAGE_1) + bus.text(MESSAGE_2))
    scroller.start("R1-01 \u00c4IJ\u00c4L\u00c4-\u00d6HMAN GO \u00e4\u00f6\u00e5 \u017d\u0160", 0)
    for ms in range(0, 20000, 100):
        scroller.tick(ms)
    panel.score_1.text("\u00c4:\u00d6", True)
    panel.show()
    print("score", bus.text(SCORE_1))
    micropython.qstr_info()


def booted():
    board = Board()
    settings = Schedule()
    app = App(board, MemoryStore(), settings)
    now = 0
    for _ in range(5):
        now += 10
        app.tick(now)
    return board, settings, app, now


def probe():
    micropython.qstr_info()
    for i in range(4000):
        print("i", i)
        chr(0x4E00 + i)  # a new one-character string: a new qstr
        micropython.qstr_info()


def edge(fill, names):
    board, settings, app, now = booted()
    if fill < 0:
        probe()
        return
    for i in range(fill):
        chr(0x4E00 + i)
    micropython.qstr_info()
    holes = []
    try:
        while True:
            holes.append(bytearray(200))
    except MemoryError:
        pass
    for i in range(0, len(holes), 2):
        holes[i] = None  # every other block freed: a heap of small holes
    gc.collect()
    settings.set_schedule([
        {"match_id": "R1-0%d" % (n + 1),
         "settings": {"game": "kaisa", "race_to": 10, "players": list(players)}}
        for n, players in enumerate(FINNISH if names == "fi" else ASCII)])
    try:
        app.schedule_changed()  # what the sync endpoint calls once the schedule is on flash
        for _ in range(300):
            now += 10
            app.tick(now)
    except MemoryError as error:
        print("MemoryError", error)
    else:
        print("OK", board.bus.text(MESSAGE_1) + board.bus.text(MESSAGE_2))
    micropython.qstr_info()


def main(args):
    if args[0] == "intern":
        intern()
    else:
        edge(int(args[1]), args[2])
