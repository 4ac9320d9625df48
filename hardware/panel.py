"""pilkku's display set: which backpack sits at which I2C address, and drivers for them all.

Two 1.2" 7-segment score displays, a 1.2" 7-segment clock and two 14-segment alphanumeric
backpacks side by side for the shooter, options and messages (one 8-character row; a
build with one alphanumeric backpack passes ``messages=1``). The player at the table has the
left colon of his score display lit (``mark``): it is outside the digits, so a score never
reads as a time, and the driver's text leaves it alone.
"""

from hardware.compat import const
from hardware.ht16k33 import Chain, Seg7x4, Seg14x4
from hardware.segments import SEG7_LEFT_COLON

SCORE_1 = const(0x70)  # player 1: no address jumper
SCORE_2 = const(0x71)  # player 2: A0
CLOCK = const(0x72)  # game / shot clock: A1
MESSAGE_1 = const(0x73)  # left message backpack: A0 + A1
MESSAGE_2 = const(0x74)  # right message backpack: A2

# (address, kind) with the kinds of hardware.ht16k33_model, for the model and the docs.
LAYOUT = (
    (SCORE_1, "seg7big"),
    (SCORE_2, "seg7big"),
    (CLOCK, "seg7big"),
    (MESSAGE_1, "seg14"),
    (MESSAGE_2, "seg14"),
)


class Panel:
    """Drivers for the whole display set on one bus."""

    def __init__(self, i2c, messages: int = 2) -> None:
        self.score_1 = Seg7x4(i2c, SCORE_1)
        self.score_2 = Seg7x4(i2c, SCORE_2)
        self.clock = Seg7x4(i2c, CLOCK)
        alnum = [Seg14x4(i2c, MESSAGE_1)]
        if messages > 1:
            alnum.append(Seg14x4(i2c, MESSAGE_2))
        self.message = Chain(alnum)
        self.backpacks = [self.score_1, self.score_2, self.clock] + alnum

    def init(self, brightness: int = 15) -> None:
        for b in self.backpacks:
            b.init(brightness)

    def brightness(self, level: int) -> None:
        for b in self.backpacks:
            b.brightness(level)

    def mark(self, player) -> None:
        """Mark player ``player``'s score display (0 or 1) as the shooter's, and clear the
        other's; None marks neither. Only the RAM images change: ``show`` sends them, and
        nothing when the mark stays where it was."""
        self.score_1.set_marks(SEG7_LEFT_COLON, player == 0)
        self.score_2.set_marks(SEG7_LEFT_COLON, player == 1)

    def show(self) -> int:
        """Send every changed backpack; return how many were sent."""
        sent = 0
        for b in self.backpacks:
            # (HT16K33.show's own test, here: every drawn tick shows the five, most of them
            # unchanged, and a call costs the chip ~30 us)
            if b._synced and b.buf == b._sent:
                continue
            if b.show():
                sent += 1
        return sent
