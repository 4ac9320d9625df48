"""Kaisa on the board, beside its panel (firmware/referee_kaisa.py): the game clock, its
buzzer cues, the time_up event and the last shot's points on the message row. Loaded only
when a Kaisa match starts.

The game clock is rules_core.kaisa_clock (pure logic fed with ms), fed here from the app's
tick. It runs when the menu's clock is on (B): 60 minutes from the end of the lag, one break
of at most 5 minutes per player (* C), a buzzer and "5 MIN LEFT" with 5 minutes left, and at
time up the buzzer and the event {"t": "time_up"} appended to the match: the engine enters
the final innings. The clock is not in the match log (the engine has no event for it); it is
kept in a small file beside the journal (a temporary file renamed over it), written on every
break, start and time up in the tick after its key's, never in it, and for the time played
once the keys have stopped for FLASH_IDLE_MS with SAVE_MS of play since the last write (while
the table stays quiet, every SAVE_QUIET_MS): the write takes ~100 ms on a Pico, and a press
falling in it waits, so it goes where presses are fewest (every 5 s of play, one in 50 did).
After a power cut the game time goes on from the last write, so at most SAVE_QUIET_MS of
play is counted again, and the time the board was off is not counted.
"""

import json
import os

from firmware.between_keys import FLASH_IDLE_MS
from firmware.referee import UNDO
from firmware.referee_kaisa import BREAK, Panel, flash
from firmware.room import open_file
from firmware.words import w
from hardware.buzzer import SHORT, WARNING
from hardware.buzzer import TIME_UP as TIME_UP_TONE
from hardware.compat import ticks_diff
from rules_core import canon
from rules_core.kaisa_clock import BREAK_OVER, FIVE_LEFT, TIME_UP, Clock
from rules_core.refusal import Refused

FILE = "kaisa_clock.json"
SAVE_MS = 5000  # play before the file is written again, once the keys stop
SAVE_QUIET_MS = 20000  # ... and without keys: the most play a power cut can give back


class Face:
    def __init__(self, app, match, on):
        self.app = app
        self.panel = Panel(match, self)
        self.flashing = False  # a shot's points are on the message row
        self.clock = None  # a kaisa_clock.Clock while the game clock is on
        self.mono = 0  # ms since this face began: the board's ticks unwrapped
        self.last = None  # the board's ticks at the last tick (unknown before the first)
        self.shown = 0  # what the clock display shows: seconds (negative on a break)
        self.saved = 0  # mono at the last write of the file
        self.owed = False  # the file is written in the next tick that takes no key
        self.keyed = False  # an action was taken since the last write
        self.stopped = -1  # mono when the game ended: the clock shows that moment
        root = getattr(app.store, "root", None)
        self.path = None if root is None else root + "/" + FILE
        self.seq = getattr(getattr(app.store, "log", None), "seq", 0)  # the journal's match
        self._load()  # after a power cut: the clock as it was last written
        if self.clock is None and on:
            self.clock = Clock()
        self.sync(match.state)

    # --- the app's hooks -------------------------------------------------------------

    def pressed(self):
        """A key: the shot's points give way to what the referee enters."""
        if self.flashing:
            self.flashing = False
            self.app.end_notice()

    def on_break(self):
        """The player on a break, or None."""
        return None if self.clock is None else self.clock.on_break

    def tick(self, app, now):
        if self.last is not None:
            self.mono += ticks_diff(now, self.last)
        self.last = now
        self._run(app, now)
        if self.owed and app.key_at != now:
            self.save()  # never in a key's tick: the key's display first (~100 ms)

    def _run(self, app, now):
        clock = self.clock
        if clock is None or clock.started is None or self.stopped >= 0:
            return
        shown = self._seconds(self.mono)
        if shown == self.shown:
            return
        self.shown = shown
        app.dirty = True  # the clock display shows another second
        for signal in clock.poll(self.mono):
            self._signal(app, signal, now)
        since = self.mono - self.saved
        if since >= SAVE_QUIET_MS or (since >= SAVE_MS and self.keyed and
                                      ticks_diff(now, app.key_at) >= FLASH_IDLE_MS):
            self.owed = True

    def after(self, app, action, now):
        """An accepted action: start or stop the clock with the game, say the shot's points,
        and append time_up if the time is up but the log has none (after an undo of it)."""
        state = app.match.state
        self.sync(state)
        self.keyed = True
        if action == UNDO or not isinstance(action, dict):
            return
        text = flash(action, state)
        if text is not None:
            app.notify(text, now, quiet=True)
            self.flashing = True
        self._time_up(app, now)

    def key(self, app, action, now):
        """A break starts (("clock", "break", player)) or ends (("clock", "resume"))."""
        clock = self.clock
        if clock is None:
            self.flashing = False
            app.notify(w("NO CLOCK"), now)
            return
        try:
            if action[1] == BREAK:
                clock.take_break(action[2], self.mono)
            else:
                clock.end_break(self.mono)
        except Refused as refusal:
            self.flashing = False
            app.notify(refusal.text, now)
            return
        app.buzzer.play(SHORT, now)
        self.shown = self._seconds(self.mono)
        self.owed = True

    def text(self):
        """The clock display: the game time left (M:SS) or on a break its time left (bM:SS);
        None when the game clock is off."""
        clock = self.clock
        if clock is None:
            return None
        seconds = self._seconds(self.stopped if self.stopped >= 0 else self.mono)
        if seconds < 0:
            seconds = -1 - seconds
            return "b%d:%02d" % (seconds // 60, seconds % 60)
        return "%d:%02d" % (seconds // 60, seconds % 60)

    def close(self):
        """The match is over and left: its clock file goes."""
        self.owed = False
        if self.path is not None:
            _remove(self.path)

    # --- the clock -------------------------------------------------------------------

    def _seconds(self, at):
        clock = self.clock
        if clock.on_break is not None:
            return -1 - (clock.break_left(at) + 999) // 1000
        return (clock.left(at) + 999) // 1000

    def _signal(self, app, signal, now):
        if signal == FIVE_LEFT:
            app.buzzer.play(WARNING, now, 1)
            self.flashing = False
            app.notify(w("5 MIN LEFT"), now, quiet=True)
        elif signal == TIME_UP:
            self._time_up(app, now)
            app.buzzer.play(TIME_UP_TONE, now, 2)
            self.flashing = False
            app.notify(w("TIME UP"), now, quiet=True)
            self.owed = True
        elif signal.startswith(BREAK_OVER):
            self.clock.end_break(self.mono)
            self.shown = self._seconds(self.mono)
            app.buzzer.play(WARNING, now, 1)
            self.flashing = False
            app.notify(w("BREAK OVER"), now, quiet=True)
            self.owed = True

    def _time_up(self, app, now):
        clock = self.clock
        state = app.match.state
        if (clock is not None and clock.started is not None and clock.left(self.mono) == 0
                and state.phase == "play" and state.shooter is not None
                and not state.finished):
            app.act({"t": "time_up"}, now)

    def sync(self, state):
        """Follow the game: the clock starts when play starts (after the lag), stands still
        while the result is up, and starts over if the lag is undone."""
        clock = self.clock
        if clock is None:
            return
        if state.phase == "lag":
            if clock.started is not None:
                self.clock = Clock()
                self.owed = True
            return
        if clock.started is None:
            clock.start(self.mono)
            self.shown = self._seconds(self.mono)
            self.owed = True
        if state.finished and self.stopped < 0:
            self.stopped = self.mono
            self.owed = True
        elif not state.finished and self.stopped >= 0:
            # Undone after the end: the time the result stood is not game time.
            clock.started += self.mono - self.stopped
            if clock.on_break is not None:
                clock.break_from += self.mono - self.stopped
            self.stopped = -1
            self.owed = True

    # --- the file --------------------------------------------------------------------

    def save(self):
        self.owed = False  # (a failed write is tried again at the next second due one)
        if self.path is None or self.clock is None:
            return
        saved = self.clock.to_dict()
        # Times relative to now: the board's ticks start again from 0 after a power cut.
        if saved["started"] is not None:
            saved["started"] -= self.mono
        saved["break_from"] -= self.mono
        saved["stopped"] = None if self.stopped < 0 else self.stopped - self.mono
        saved["seq"] = self.seq
        tmp = self.path + ".tmp"
        try:
            with open_file(tmp, "w") as f:
                f.write(canon.dumps(saved))
            try:
                os.rename(tmp, self.path)
            except OSError:  # a port that does not rename over a file
                _remove(self.path)
                os.rename(tmp, self.path)
        except (OSError, MemoryError):
            return  # a full flash, or no heap for the file now: the clock runs on in RAM
        self.saved = self.mono
        self.keyed = False

    def _load(self):
        if self.path is None:
            return
        try:
            # Only a match resumed after a power cut has its file: a new one's open would take
            # littlefs' 1 KB file cache from the heap before finding none, at its fullest
            # moment (the game's modules just loaded).
            os.stat(self.path)
            with open_file(self.path) as f:
                saved = json.loads(f.read())
            if saved.get("seq") != self.seq:
                return  # another match's clock
            clock = Clock.from_dict(saved)
        except (OSError, ValueError, KeyError, TypeError):
            return
        if clock.started is not None:
            clock.started += self.mono
        clock.break_from += self.mono
        if saved.get("stopped") is not None:
            self.stopped = self.mono + saved["stopped"]
        self.clock = clock
        if clock.started is not None:
            self.shown = self._seconds(self.mono)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
