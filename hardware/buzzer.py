"""Non-blocking beep patterns on a PWM-driven piezo, fed with milliseconds.

A pattern is a flat tuple of (frequency Hz, duration ms) pairs; frequency 0 is a pause.
``play`` starts one, ``tick(now_ms)`` from the main loop moves it on, and the PWM object
(``machine.PWM`` on a board, ``hardware.fakes.FakePWM`` elsewhere) is only touched when the
tone changes. A pattern of lower priority does not cut into one of higher priority.
"""

from hardware.compat import due, ticks_add

SHORT = (2700, 60)
WARNING = (2700, 150, 0, 100, 2700, 150, 0, 100, 2700, 150)
TIME_UP = (2000, 400, 0, 150, 2000, 400, 0, 150, 1500, 1000)

DUTY_HALF = 32768  # 50 % duty: the loudest square wave for a piezo


class Buzzer:
    """Plays patterns on ``pwm`` (needs ``freq(hz)`` and ``duty_u16(value)``)."""

    def __init__(self, pwm, volume: int = DUTY_HALF) -> None:
        self.pwm = pwm
        self.volume = volume
        self.pattern = None  # the pattern playing, or None
        self.priority = 0
        self._step = 0
        self._until = 0
        self._freq = -1
        self._duty = -1
        self._tone(0)

    @property
    def playing(self) -> bool:
        return self.pattern is not None

    def _tone(self, freq: int) -> None:
        if freq:
            if freq != self._freq:
                self.pwm.freq(freq)
                self._freq = freq
            duty = self.volume
        else:
            duty = 0
        if duty != self._duty:
            self.pwm.duty_u16(duty)
            self._duty = duty

    def play(self, pattern, now_ms: int, priority: int = 0) -> bool:
        """Start ``pattern`` now; False (and nothing changes) if a higher priority one plays."""
        if len(pattern) < 2 or len(pattern) % 2:
            raise ValueError("pattern is (freq, ms) pairs")
        if self.pattern is not None and priority < self.priority:
            return False
        self.pattern = pattern
        self.priority = priority
        self._step = 0
        self._tone(pattern[0])
        self._until = ticks_add(now_ms, pattern[1])
        return True

    def stop(self) -> None:
        self.pattern = None
        self.priority = 0
        self._tone(0)

    def tick(self, now_ms: int) -> bool:
        """Move the pattern on if its current step is over; True while still playing."""
        pattern = self.pattern
        if pattern is None:
            return False
        if not due(now_ms, self._until):
            return True
        self._step += 2
        if self._step >= len(pattern):
            self.stop()
            return False
        self._tone(pattern[self._step])
        # A late tick shortens nothing after it: the next step starts now.
        self._until = ticks_add(now_ms, pattern[self._step + 1])
        return True
