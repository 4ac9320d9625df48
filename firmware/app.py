"""The scoreboard app: the main loop that turns referee keys into match events, keeps the
journal, feeds the clocks and draws the displays.

One tick (every few ms, never blocking): scan the keypad, read the USB serial, run the
buzzer, draw what changed. A key gesture becomes an event only after the journal has it on
flash; then the displays confirm it. A refused event leaves the match as it was and shows
its reason on the message display for a moment.

What a key would otherwise wait for (a garbage collection, the copy of the state its event is
tried on, the journal's flash erase) is done between keys, in ticks that had nothing to do
(firmware/between_keys.py; docs/performance.md, key to display).
"""

import gc

from firmware import screens
from firmware.between_keys import BetweenKeys, panel_loaded, ticks_ms, ticks_us, wait_tick
from firmware.menu import Menu, playable
from firmware.referee import EXTEND, REDO, UNDO, Panel
from firmware.shotclock import TIME_UP, WARN, ShotClock
from firmware.unsynced import Unsynced, journal_meta
from hardware.buzzer import SHORT, WARNING, Buzzer
from hardware.buzzer import TIME_UP as TIME_UP_TONE
from hardware.compat import ticks_add, ticks_diff
from hardware.ht16k33 import Scroller
from hardware.keypad_latch import LatchedKeypad
from hardware.keys import LONG, PRESS
from hardware.panel import Panel as Displays
from rules_core.refusal import Refused

WATCHDOG_MS = 8000  # the longest a Pico's watchdog counts; a tick takes milliseconds
NOTICE_MS = 2500
TYPING_NOTICE_MS = 1000


class App:
    def __init__(self, board, store=None, config=None):
        self.board = board
        self.displays = Displays(board.i2c())
        self.displays.init()
        rows, cols = board.keypad_pins()
        # A press made while the loop is busy (flash work between keys) is latched by the
        # columns' edge interrupts and taken at the next scan (hardware/keypad_latch.py).
        interrupts = getattr(board, "key_interrupts", None)  # (a board file without them)
        self.keypad = LatchedKeypad(rows, cols, long_ms=800, settle=board.settle,
                                    interrupts=interrupts() if interrupts else None)
        self.buzzer = Buzzer(board.buzzer_pwm())
        self.usb = board.usb()
        if store is None or config is None:  # a board without flash (tests, a desk)
            from firmware.ram_store import MemoryStore, NoConfig

            store = store if store is not None else MemoryStore()
            config = config if config is not None else NoConfig()
        self.store, self.config = store, config
        self._held = {}  # seq -> match_id of the results on flash (menu.playable)
        self._schedule_sent = False  # the laptop sent a schedule while a match was up
        self.schedule_owed = []  # matches played, still in the kept schedule (keep_schedule)
        self.menu = Menu(playable(self.config.schedule(), self.store, self._held))
        self.endpoint = Unsynced(self)  # the sync endpoint once a laptop has spoken
        self.match_meta = {}  # what the match in play was started with (match_id, table...)
        self.match = self.panel = None
        self.abandoning = False  # a held *: the next # abandons the match
        self.shot_clock = None  # a ShotClock while a match runs with one
        self.game_clock = None  # Kaisa: its game clock and cues (firmware/kaisa_face.py)
        self.now = 0
        self.key_at = 0  # when the last key came (firmware/between_keys.py waits for quiet)
        self.dirty = True  # the texts must be made again (nothing is built on a quiet tick)
        self._on_key = self._on_key  # bound once
        self._seconds, self._noticing = -1, False  # what the last drawing showed
        self.notice_until = 0
        self.scroller = Scroller(self.displays.message, step_ms=200, hold_ms=800)
        self.shown = [None, None, None, None]
        self.between = BetweenKeys()  # the quiet ticks' work (firmware/between_keys.py)
        resumed = self.store.resume()
        if resumed is not None:
            self.match_meta = journal_meta(self.store)
            self._begin(resumed)  # after a power cut the shot clock restarts with the next shot
        # What the boot found damaged, said once: a match the journal set aside, a kept file
        # whose two copies were both bad (firmware/config.py).
        problems = [p for p in (self.store.problem, self.config.problem) if p]
        if problems:
            self.notify("  ".join(problems), 0)

    # --- the loop -------------------------------------------------------------------

    def run(self):
        board = self.board
        board.serial_interrupt(False)  # a Ctrl-C is a byte now: the endpoint decides
        dog = board.watchdog(WATCHDOG_MS)  # a loop stuck longer resets the board
        while True:
            dog.feed()
            asked = wait_tick(self, board)
            if asked >= 0:
                now = asked
            elif board.host_ms() is None:
                now = ticks_ms()
            else:
                self.endpoint.feed(self.usb.read(), self.now)  # the host steps the clock
                continue
            began = ticks_us()
            if self.tick(now):
                self.between.busy()
            else:
                self.between.quiet(self)
            board.tick_done(asked, ticks_diff(ticks_us(), began))

    def tick(self, now):
        """One tick; True if it drew something new (a key, a notice, a clock's second)."""
        self.now = now
        self.endpoint.feed(self.usb.read(), now)  # a deliberate Ctrl-C interrupts here
        self.keypad.scan(now, self._on_key)
        self._clocks(now)
        self.buzzer.tick(now)
        return self.draw(now)

    def _on_key(self, name, gesture):
        # A bound method made once: the keypad calls it with no closure built per tick.
        self.dirty = True
        self.key_at = self.now
        self.key(name, gesture, self.now)

    def _clocks(self, now):
        if self.game_clock is not None:
            self.game_clock.tick(self, now)
        if self.shot_clock is None:
            return
        signal = self.shot_clock.tick(now)
        if signal == WARN:
            self.buzzer.play(WARNING, now, 1)
        elif signal == TIME_UP:
            self.buzzer.play(TIME_UP_TONE, now, 2)
            self.notify("TIME", now, quiet=True)

    # --- keys -----------------------------------------------------------------------

    def key(self, name, gesture, now):
        if gesture not in (PRESS, LONG):
            return
        if self.match is None or (self.match.state.finished and gesture == PRESS and
                                  name == "#" and not self.panel.busy()):
            if gesture == PRESS:
                self._menu_key(name, now)
            return
        if self.abandoning:
            self._abandon_key(name, gesture, now)
            return
        panel = self.panel
        if gesture == LONG and name == "*" and not self.match.state.finished:
            panel.clear()  # the press armed the shift: the hold means the match itself
            self.abandoning = True
            return
        before = panel.entry_text()
        action = panel.press(name) if gesture == PRESS else panel.long_press(name)
        if action is not None:
            self.act(action, now)
            return
        why = panel.why
        panel.why = None
        if why is None and gesture == PRESS and name not in "*D" and \
                panel.entry_text() == before:
            why = "NOT NOW"  # a key that changed nothing still says so
        if why is not None:  # while typing, only a moment: the entry comes back by itself
            self.notify(why, now, ms=TYPING_NOTICE_MS if panel.busy() else NOTICE_MS)
        elif panel.entry_text() is not None:
            self.end_notice()  # what is being typed shows at once, over any notice

    def _abandon_key(self, name, gesture, now):
        """A held * asks "ABANDON? #": # files the match away unfinished (kept for the
        laptop, marked abandoned), any other key keeps it."""
        if gesture != PRESS:
            return
        self.abandoning = False
        self.dirty = True
        if name != "#":
            self.notify("KEPT", now)
            return
        meta = self._result_meta(now)
        meta["abandoned"] = True
        try:
            self._file_result(meta)
        except Exception as error:  # the flash: say it, the match stays up
            self.notify("FLASH ERROR %s" % type(error).__name__, now)
            return
        self._leave_match()  # a scheduled match stays in the menu: it is still to be played
        self.notify("ABANDONED", now)

    def _menu_key(self, name, now):
        if self.match is not None:
            # The result stays up (and the last shot can still be undone) until the referee
            # leaves it: only then is the match closed in the journal.
            self._file_result(self._result_meta(now))
            self._leave_match(self.match_meta.get("match_id"))
            return
        chosen = self.menu.press(name)
        if chosen is not None:
            settings, meta = chosen
            meta["board"] = self.config.board
            meta["table"] = self.config.table
            meta["started"] = self.endpoint.wall_time(now)
            meta["shot_clock"] = self.menu.shot_clock  # so a resumed match gets it back
            try:
                match = self.store.start(settings, meta)
                self.match_meta = meta
                self._begin(match)
            except Refused as refusal:
                self.notify(refusal.text, now)
            except Exception as error:  # JournalFull, a flash error: say it, stay in the menu
                self.notify(str(error) or "FLASH ERROR", now)

    def _file_result(self, meta):
        """Close the match in the journal. The menu learns the result's match from here, not
        by reading the filed result back from flash (every record of it) in the same key."""
        seq = self.store.finish(meta)
        if seq is not None:
            self._held[seq] = None if meta.get("abandoned") else self.match_meta.get("match_id")

    def _result_meta(self, now):
        state = self.match.state
        return {"score": list(state.score), "winner": state.winner,
                "ended": self.endpoint.wall_time(now)}

    def _leave_match(self, played=None):
        """Back to the menu; `played` leaves its list now, the kept schedule between keys."""
        self.abandoning = False
        self.match = self.panel = None
        self.shot_clock = None
        if self.game_clock is not None:
            self.game_clock.close()
            self.game_clock = None
        if played is not None:
            self.schedule_owed.append(played)
        if self._schedule_sent:  # the laptop sent one during the match: read it now
            self._schedule_sent = False
            self.schedule_changed()
            return
        self.dirty = True
        self.menu.set_schedule([m for m in self.menu.schedule if m["match_id"] != played])

    def keep_schedule(self):
        """Between keys: the matches played leave the kept schedule too (a cut before this
        leaves them there, and the menu still skips them: their results are held)."""
        played, self.schedule_owed = self.schedule_owed, []
        matches = self.config.schedule()
        left = [m for m in matches if m.get("match_id") not in played]
        if len(left) != len(matches):
            self.config.set_schedule(left)

    def schedule_changed(self):  # the laptop sent one: shown now, or once the match is left
        self.dirty = True
        if self.match is None:
            self.menu.set_schedule(playable(self.config.schedule(), self.store, self._held))
        else:
            self._schedule_sent = True

    def _begin(self, match):
        """Put a match on the table with its panel and clocks; if that fails (no heap for the
        game's panel, say) the board stays in the menu rather than half in a match."""
        game_clock = None
        shot_clock = ShotClock() if self.match_meta.get("shot_clock") else None
        if not panel_loaded(match.state.game):
            # Its modules load next, with all the heap free (the collection costs less than
            # the loading; 8- and 9-ball need none, and the menu has collected already).
            gc.collect()
        if match.state.game == "14.1":  # its own panel, loaded only when 14.1 is played
            from firmware.referee_straight import Panel as StraightPanel

            panel = StraightPanel(match)
        elif match.state.game == "kaisa":  # its panel and game clock, loaded only for Kaisa
            from firmware.kaisa_face import Face

            game_clock = Face(self, match, shot_clock is not None)
            shot_clock = None  # the menu's clock is Kaisa's game clock
            panel = game_clock.panel
        else:
            panel = Panel(match)
        self.match, self.panel = match, panel
        self.game_clock, self.shot_clock = game_clock, shot_clock
        self.dirty = True

    def act(self, action, now):
        """Apply a referee action; a refusal changes nothing and says why."""
        match = self.match
        if action == EXTEND:
            if self.shot_clock is None or not self.shot_clock.extend(match.state.shooter, now):
                self.notify("NO EXT", now)
            return
        if isinstance(action, tuple):  # Kaisa's game clock: a break starts or ends
            self.game_clock.key(self, action, now)
            return
        before = match.state
        try:
            if action == UNDO:
                match.undo()
            elif action == REDO:
                match.redo()
            else:
                match.apply(action)
        except Refused as refusal:
            self.panel.clear()
            self.notify(screens.REFUSAL_SHORT.get(refusal.code) or refusal.text, now)
            return
        except Exception as error:  # the journal could not write: nothing is confirmed
            self.panel.clear()
            self.notify("FLASH ERROR %s: RESTART THE BOARD" % type(error).__name__, now)
            return
        self.buzzer.play(SHORT, now)
        state = match.state
        if self.panel.busy() and (action == UNDO or action == REDO or state.finished
                                  or state.rack != before.rack):
            # A half-entered shot belongs to the table as it was: it must not be carried
            # into the next rack (or over an undone shot).
            self.panel.clear()
            self.notify("CLEARED", now, quiet=True)
        if self.game_clock is not None:
            self.game_clock.after(self, action, now)
        self._restart_shot_clock(before, now)

    def _restart_shot_clock(self, before, now):
        clock = self.shot_clock
        if clock is None:
            return
        state = self.match.state
        if state.finished:
            clock.stop()
            return
        if state.rack != before.rack:
            clock.new_rack()
        clock.start(now, after_break=before.breaking and not state.breaking)

    def notify(self, text, now, quiet=False, ms=NOTICE_MS):
        self.dirty = True
        if not quiet:
            self.buzzer.play(WARNING, now, 1)
        try:
            self.scroller.start(text.upper(), now, loop=False)
        except MemoryError:  # no heap for its text (it ended the loop): the message as it was
            gc.collect()
            return
        self.notice_until = ticks_add(now, ms)
        self.shown[3] = None

    def end_notice(self):
        """The notice gives way at once (Kaisa: a shot's points, to the next key)."""
        self.dirty = True
        self.notice_until = self.now
        self.scroller.stop()
        self.shown[3] = None

    # --- displays -------------------------------------------------------------------

    def frame(self):
        if self.match is None:
            return self._held_damaged(self.menu.frame())
        seconds = None
        if self.shot_clock is not None and self.shot_clock.running:
            seconds = self.shot_clock.seconds(self.now)
        if self.game_clock is not None:
            seconds = self.game_clock.text()  # Kaisa: the game clock's M:SS, or None
        entry = "ABANDON? # YES" if self.abandoning else self.panel.entry_text()
        return screens.frame(self.match.state, entry, seconds)

    def _held_damaged(self, texts):
        """The menu says, until a sync has taken them, that the board holds damaged results
        (set aside by the journal, firmware/journal.py): they wait for the laptop."""
        count = len(self.store.damaged())
        if not count:
            return texts
        return texts[:3] + ("%s  %d DAMAGED RESULT%s HELD: SYNC" % (
            texts[3], count, "S" if count > 1 else ""),)

    def draw(self, now):
        """Draw what changed; True if the texts were made again (the tick was not quiet)."""
        self.now = now
        noticing = ticks_diff(self.notice_until, now) > 0 or (
            self.shown[3] is None and not self.scroller.done)
        seconds = self.shot_clock.seconds(now) if self.shot_clock is not None else -1
        drew = self.dirty or seconds != self._seconds or noticing != self._noticing
        if drew:
            self.dirty = False
            self._seconds = seconds
            self._noticing = noticing
            self._draw_texts(now, noticing)
        else:
            self.scroller.tick(now)
        self.displays.show()
        return drew

    def _draw_texts(self, now, noticing):
        texts = self.frame()
        self.displays.mark(None if self.match is None else screens.marked(self.match.state))
        displays = (self.displays.score_1, self.displays.score_2, self.displays.clock)
        for index in range(3):
            if texts[index] != self.shown[index]:
                displays[index].text(texts[index], True)
                self.shown[index] = texts[index]
        if not noticing and texts[3] != self.shown[3]:
            self.shown[3] = texts[3]
            self.scroller.start(texts[3], now)  # a short text just shows; a long one loops
        else:
            self.scroller.tick(now)
