"""The firmware plays a whole match, for `pilkku bench`: runs in the MicroPython unix port
(compiled with mpy-cross, beside the firmware's packages), never imported by the host.

    IMAGE LOG SAMPLE [ROM]
                        the match of LOG (lines: the settings, then one event a line) on a
                        fresh LittleFS2 image; with SAMPLE 1 it prints
                        BASE bytes            heap in use before the firmware is imported
                        HEAP live code        the firmware's heap (above BASE): the most in use
                                              after any tick (collected), and of that what the
                                              imported modules hold (measured once the App is
                                              gone: code, constants, module globals)
                        JOURNAL events bytes  what the journal wrote while the match was played
                        FLASH play all erases bytes littlefs programmed (play; with filing the
                                              result away) and blocks erased
                        I2C bytes             written to the displays
                        MODULES name ...      the firmware's modules imported by the end
                        then OK. With SAMPLE 0 it only plays (no collections of its own), so
                        the smallest heap it needs is found by running it with smaller heaps.
                        With ROM (a ROMFS image file) the code comes from it, mounted at /rom
                        as a board mounts its ROM partition: read first into one block of the
                        heap (the unix port cannot map a file), so BASE includes it; it prints
                        ROM bytes.

The App is built as firmware/main.py builds it, on a board whose I2C bus only counts bytes
(a Pico's keeps nothing either). The match starts through the menu's keys; each event is
applied as the App applies what the referee panel returns for a key, then the App ticks.
"""

import gc
import json
import sys

TICK_MS = 10
TICKS_PER_EVENT = 3  # the ticks after a key: the frame is drawn, a tone starts


def _allocated():
    return gc.mem_alloc()  # type: ignore[attr-defined]  # MicroPython's gc


def say(*words):
    sys.stdout.write(" ".join([str(w) for w in words]) + "\n")


class CountingI2C:
    """machine.I2C's writeto: counts bytes, keeps nothing."""

    def __init__(self):
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)
        return len(buf)


class QuietPWM:
    """machine.PWM without the sound (hardware.fakes.FakePWM keeps a log: heap)."""

    def freq(self, hz=None):
        return 2000 if hz is None else None

    def duty_u16(self, value=None):
        return 0 if value is None else None

    def deinit(self):
        pass


class NoSerial:
    def read(self):
        return b""

    def write(self, data):
        pass


class BenchBoard:
    """A board module's interface (hardware/boards/__init__.py) with nothing behind it."""

    def __init__(self):
        from hardware.fakes import KeyMatrix

        self.bus = CountingI2C()
        self.matrix = KeyMatrix()

    def i2c(self):
        return self.bus

    def keypad_pins(self):
        return self.matrix.rows, self.matrix.cols

    def settle(self):
        pass

    def buzzer_pwm(self):
        return QuietPWM()

    def usb(self):
        return NoSerial()

    def host_ms(self):
        return None

    def wait(self, timeout_ms):
        return -1

    def tick_done(self, ms):
        pass


def mount(image, blocks=512):
    """A fresh LittleFS2 image at /flash on a block device that counts programmed bytes."""
    import vfs  # type: ignore[import-not-found]

    from hardware.boards.virtual_flash import PROGSIZE, FlashImage

    class Counting(FlashImage):
        programmed = 0

        def writeblocks(self, block, buf, offset=None):
            self.programmed += len(buf)
            FlashImage.writeblocks(self, block, buf, offset)

    dev = Counting(image, blocks)
    vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROGSIZE), "/flash")
    return dev


class Sampler:
    """The heap in use after each step (a tick, an event with its ticks), once collected:
    what stays allocated, not the garbage a step leaves for the next collection (how much
    room that needs shows in the smallest heap that plays the match: SAMPLE 0)."""

    def __init__(self, on):
        self.on = on
        self.base = 0
        self.live = 0

    def after(self):
        if self.on:
            gc.collect()
            self.live = max(self.live, _allocated() - self.base)
            return _allocated() - self.base
        return 0


def mount_rom(path):
    """The ROMFS image at /rom, first on sys.path; the one heap block holding it."""
    import os

    import vfs  # type: ignore[import-not-found]

    data = bytearray(os.stat(path)[6])  # one block, the image's size: no read buffer growth
    with open(path, "rb") as f:
        f.readinto(data)
    vfs.mount(vfs.VfsRom(data), "/rom")
    sys.path.insert(0, "/rom")
    return data


def main(argv):
    rom = mount_rom(argv[3]) if len(argv) > 3 else None
    sampler = Sampler(argv[2] == "1")
    dev = mount(argv[0])
    log = open(argv[1])
    settings = json.loads(log.readline())
    board = BenchBoard()
    if sampler.on:
        gc.collect()
        sampler.base = _allocated()
    from firmware.app import App
    from firmware.config import Config
    from firmware.journal import Journal
    from hardware.keys import PRESS

    sampler.after()
    app = App(board, Journal("/flash/journal"), Config("/flash/"))
    now = 0
    keys = "C" * app.menu.games.index(settings["game"]) + "%d#" % settings["race_to"]
    for key in keys:  # the menu: C to the game, its race typed, # starts it
        app.key(key, PRESS, now)
    now = _ticks(app, now)
    sampler.after()
    if app.match is None:
        raise RuntimeError("the menu did not start the match")
    journal_start = app.store.log.flash_bytes()
    flash_start = dev.programmed
    i2c_start = board.bus.bytes
    count = 0
    for line in log:
        event = json.loads(line)
        app.dirty = True  # as the App's key handler marks it
        app.act(event, now)
        now = _ticks(app, now)
        event = None
        sampler.after()
        count += 1
    log.close()
    if len(app.match.log) != count or not app.match.state.finished:
        raise RuntimeError("the firmware refused an event of the log")
    journal_bytes = app.store.log.flash_bytes() - journal_start
    play_programmed = dev.programmed - flash_start
    app.key("#", PRESS, now)  # the referee leaves the result: the match is filed away
    _ticks(app, now)
    sampler.after()
    i2c = board.bus.bytes - i2c_start
    app = None
    code = sampler.after()  # the modules stay imported, as on the board between matches
    if sampler.on:
        if rom is not None:
            say("ROM", len(rom))
        say("BASE", sampler.base)
        say("HEAP", sampler.live, code)
        say("JOURNAL", count, journal_bytes)
        say("FLASH", play_programmed, dev.programmed - flash_start, dev.erases)
        say("I2C", i2c)
        say("MODULES", *sorted([name for name in sys.modules
                                if name.split(".")[0] in ("rules_core", "hardware", "firmware")]))
    say("OK")


def _ticks(app, now):
    for _ in range(TICKS_PER_EVENT):
        now += TICK_MS
        app.tick(now)
    return now
