"""Drives every hardware module the way firmware will, printing what a person would see.

Run by test_hw_micropython.py under the MicroPython unix port (from .mpy files, board-sized
heap) and under CPython; the two outputs must be identical. Times start just before the
wrap of ``ticks_ms`` where the port has one, so the wrap-safe arithmetic is exercised.
"""

import gc

import hardware  # noqa: F401
import hardware.boards
import hardware.buzzer
import hardware.compat
import hardware.fakes
import hardware.ht16k33
import hardware.ht16k33_model
import hardware.keys
import hardware.panel
import hardware.segments
from hardware.compat import ticks_add


def show(panel, model, label):
    panel.show()
    texts = []
    for addr in model.scan():
        texts.append("%02x=%s" % (addr, model.text(addr)))
    print("%s | %s" % (label, " | ".join(texts)))


def main():
    board = hardware.boards.detect()
    print("board", board.NAME)
    panel = hardware.panel.Panel(board.i2c())
    model = board.model
    panel.init(brightness=8)
    show(panel, model, "init")

    for n in (0, 7, -12, 150, 9999, -999):
        panel.score_1.number(n)
        panel.score_2.number(-n if n < 1000 else 0)
        show(panel, model, "score %d" % n)
    panel.clock.text("12:34")
    panel.message.text("Hi, P1.")
    show(panel, model, "clock")
    panel.clock.number(905, colon=True)
    panel.message.text("9-BALL", right=True)
    show(panel, model, "number")
    for ch in range(32, 127):
        panel.message.text(chr(ch) * 8)
        panel.score_1.text(chr(ch) * 4)
        show(panel, model, "char %d" % ch)
    print("writes", [b.writes for b in panel.backpacks])

    base = ticks_add(0, -200)  # 200 ms before the wrap on MicroPython
    scroller = hardware.ht16k33.Scroller(panel.message, step_ms=150, hold_ms=600)
    scroller.start("FOUL - BALL IN HAND", base, loop=False)
    show(panel, model, "scroll 0")
    for dt in range(10, 4000, 10):
        if scroller.tick(ticks_add(base, dt)):
            show(panel, model, "scroll %d" % dt)
    print("scroll done", scroller.done)

    matrix = board.matrix
    rows, cols = board.keypad_pins()
    pad = hardware.keys.Keypad(rows, cols, debounce_ms=20, long_ms=600, settle=board.settle)
    pad.key("A").repeat_ms = 150
    pad.key("A").repeat_delay_ms = 400
    pad.key("A").long_ms = 0
    chatter = (1, 0, 1, 1, 0, 1)
    events = []

    def emit(name, event):
        events.append((dt, name, hardware.keys.EVENT_NAMES[event]))

    for dt in range(0, 1500, 2):
        if 100 <= dt < 100 + 2 * len(chatter):
            matrix.set("5", chatter[(dt - 100) // 2])
        elif dt == 900:
            matrix.set("5", False)
        if dt == 300:
            matrix.set("A", True)
        elif dt == 1200:
            matrix.set("A", False)
        pad.scan(ticks_add(base, dt), emit)
    for e in events:
        print("key %d %s %s" % e)

    pwm = board.buzzer_pwm()
    buzzer = hardware.buzzer.Buzzer(pwm)
    buzzer.play(hardware.buzzer.WARNING, base, priority=1)
    print("short refused", not buzzer.play(hardware.buzzer.SHORT, base, priority=0))
    sounding = pwm.sounding
    for dt in range(1, 1000):
        buzzer.tick(ticks_add(base, dt))
        if pwm.sounding != sounding:
            sounding = pwm.sounding
            print("buzzer %d %s %d" % (dt, "on" if sounding else "off", pwm.freq()))
    print("pwm log", len(pwm.log))
    gc.collect()
    print("ok")


if __name__ == "__main__":
    main()
