"""The firmware plays a whole match, for `pilkku bench`: runs in the MicroPython unix port
(compiled with mpy-cross, beside the firmware's packages), never imported by the host.

    IMAGE LOG SAMPLE [ROM [synced]]
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
                        PHASE name bytes      the heap in use (collected) at each point of
                                              the run, from the VM's own ("vm", before this
                                              driver is imported) to the end ("modules")
                        qstr pool: ...        micropython.qstr_info(): the names interned
                        then OK. With SAMPLE 0 it only plays (no collections of its own), so
                        the smallest heap it needs is found by running it with smaller heaps.
                        With SAMPLE 2 it plays half the match and then takes the firmware's
                        heap apart, printing
                        IMPORT module bytes   what importing each firmware module added
                                              (its own, not the modules it imported)
                        PART name bytes       what dropping each part of the App at mid match
                                              frees: the undo snapshots, the event index, the
                                              match with its panel, the displays, the
                                              journal, keypad, menu; then the App itself.
                        With ROM (a ROMFS image file) the code comes from it, mounted at /rom
                        as a board mounts its ROM partition: read first into one block of the
                        heap (the unix port cannot map a file), so BASE includes it; it prints
                        ROM bytes. With "synced" a laptop has spoken before the match (a
                        frame's first byte on the USB serial: the App loads its endpoint).

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


class IdlePin:
    """A keypad pin with no key held: columns read high (hardware.fakes would load the
    firmware's hardware.keys into the bench's own heap, before the firmware's is counted)."""

    def value(self, level=None):
        return 1 if level is None else None


class BenchBoard:
    """A board module's interface (hardware/boards/__init__.py) with nothing behind it."""

    def __init__(self):
        self.bus = CountingI2C()
        self.pins = ([IdlePin() for _ in range(4)], [IdlePin() for _ in range(4)])

    def i2c(self):
        return self.bus

    def keypad_pins(self):
        return self.pins

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

    def tick_done(self, ms, spent_us):
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
    # The flash chip's driver is C on a board; the firmware's `hardware` package it came
    # through is imported again by the firmware, and counted there.
    del sys.modules["hardware.boards"]
    del sys.modules["hardware"]
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


START = 0  # the heap in use before this driver was imported (set by its run script)
_PHASES = ("vm", "driver", "rom", "flash", "base", "imports", "app", "match_start",
           "mid_match", "match_end", "filed", "modules")


class Phases:
    """The heap in use (collected) at each named point of a sampled run: preallocated, so
    taking them allocates nothing of its own."""

    def __init__(self, on):
        self.on = on
        self.bytes = [0] * len(_PHASES)
        self.bytes[0] = START

    def at(self, name):
        if self.on:
            gc.collect()
            self.bytes[_PHASES.index(name)] = _allocated()

    def say(self):
        for index in range(len(_PHASES)):
            say("PHASE", _PHASES[index], self.bytes[index])


class ImportCosts:
    """What importing each module adds to the heap, less the modules it imports in turn
    (builtins.__import__ wrapped; slots preallocated, so the record costs no heap)."""

    def __init__(self):
        import builtins

        self.names = [""] * 96
        self.costs = [0] * 96
        self.count = 0
        self.depth = 0
        self.inner = [0] * 32  # what the imports nested at each depth added
        self._import = builtins.__import__
        builtins.__import__ = self.wrapped

    def wrapped(self, name, globals=None, locals=None, fromlist=(), level=0):
        known = len(sys.modules)
        gc.collect()
        before = _allocated()
        self.depth += 1
        self.inner[self.depth] = 0
        module = self._import(name, globals, locals, fromlist, level)
        gc.collect()
        added = _allocated() - before
        own = added - self.inner[self.depth]
        self.depth -= 1
        self.inner[self.depth] += added
        if len(sys.modules) > known and self.count < len(self.names):
            self.names[self.count] = name if level == 0 else module.__name__
            self.costs[self.count] = own
            self.count += 1
        return module

    def say(self):
        for index in range(self.count):
            say("IMPORT", self.names[index], self.costs[index])


_PARTS = (  # (name, the App's attributes it is made of), dropped in this order
    ("undo_snapshots", ()), ("event_index", ()),
    ("match_state_and_panel", ("match", "panel", "game_clock", "shot_clock")),
    ("displays", ("displays", "scroller", "shown")),
    ("journal_and_sync_endpoint", ("store", "endpoint")),  # the endpoint holds the journal
    ("keypad", ("keypad",)), ("buzzer", ("buzzer",)),
    ("menu_and_config", ("menu", "config")))


def _drop(app, step):
    """Drop one part of the App (in a call of its own: the VM leaves what its value stack
    held in the frame, and the GC scans frames conservatively)."""
    if step == 0:  # the undo snapshots (the state in play stays)
        app.match._snapshots = {}
        app.match._redo = []
    elif step == 1:  # the journal's index of event offsets on flash
        app.match.log._pieces = []
    for name in _PARTS[step][1]:
        setattr(app, name, None)


def _scrub(depth):
    """Calls deep enough to overwrite what a returned call left on the C stack."""
    return _scrub(depth - 1) + 1 if depth else 0


def take_apart(app):
    """At mid match: drop the App's parts one by one, printing what each frees."""
    for step in range(len(_PARTS)):
        _scrub(40)
        gc.collect()
        before = _allocated()
        _drop(app, step)
        _scrub(40)
        gc.collect()
        say("PART", _PARTS[step][0], before - _allocated())


def main(argv):
    mode = int(argv[2])
    phases = Phases(mode == 1)
    costs = None
    phases.at("driver")
    rom = mount_rom(argv[3]) if len(argv) > 3 else None
    synced = len(argv) > 4 and argv[4] == "synced"
    phases.at("rom")
    sampler = Sampler(mode == 1)
    dev = mount(argv[0])
    phases.at("flash")
    log = open(argv[1])
    total = 0
    if mode:
        total = -1  # the settings line
        for _line in log:
            total += 1
        log.seek(0)
    settings = json.loads(log.readline())
    board = BenchBoard()
    if mode == 2:
        costs = ImportCosts()
    phases.at("base")
    sampler.base = phases.bytes[_PHASES.index("base")]
    from firmware.app import App
    from firmware.config import Config
    from firmware.journal import Journal
    from hardware.keys import PRESS

    sampler.after()
    phases.at("imports")
    app = App(board, Journal("/flash/journal"), Config("/flash/"))
    for key in app.keypad.keys:  # each key pressed and released once, as a match leaves
        key.update(True, 0)  # them (the bench feeds the App events, not key presses, and an
        key.update(True, 30)  # unused key holds less)
        key.update(False, 40)
        key.update(False, 70)
    if synced:  # a frame's first byte ("~", firmware/unsynced.py) loads the endpoint; the
        app.endpoint.feed(b"~", 0)  # frame is never finished: nothing to answer
    phases.at("app")
    now = 0
    keys = "C" * app.menu.games.index(settings["game"]) + "%d#" % settings["race_to"]
    for key in keys:  # the menu: C to the game, its race typed, # starts it
        app.key(key, PRESS, now)
    now = _ticks(app, now)
    sampler.after()
    phases.at("match_start")
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
        if count == total // 2:
            phases.at("mid_match")
            if mode == 2:
                break
    log.close()
    if costs is not None:  # SAMPLE 2
        costs.say()
        take_apart(app)
        _scrub(40)
        gc.collect()
        before = _allocated()
        app = None
        _scrub(40)
        gc.collect()
        say("PART", "rest_of_app", before - _allocated())
        say("OK")
        return
    if len(app.match.log) != count or not app.match.state.finished:
        raise RuntimeError("the firmware refused an event of the log")
    phases.at("match_end")
    journal_bytes = app.store.log.flash_bytes() - journal_start
    play_programmed = dev.programmed - flash_start
    app.key("#", PRESS, now)  # the referee leaves the result: the match is filed away
    _ticks(app, now)
    sampler.after()
    phases.at("filed")
    i2c = board.bus.bytes - i2c_start
    app = None
    code = sampler.after()  # the modules stay imported, as on the board between matches
    phases.at("modules")
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
        phases.say()
        import micropython  # type: ignore[import-not-found]

        # "qstr pool: n_pool=.., n_qstr=.., ...": the names interned
        micropython.qstr_info()  # type: ignore[attr-defined]
    say("OK")


def _ticks(app, now):
    for _ in range(TICKS_PER_EVENT):
        now += TICK_MS
        app.tick(now)
    return now
