"""The ESP32's watchdog (hardware/boards/esp32.py) in the MicroPython unix port, on the port's
WDT and soft Timer modelled at their level (tests/hardware/esp32_port/machine.py over
hardware/boards/virtual_wdt.py): a wedged scoreboard loop is reset, the REPL it hands over to
is not, and neither is the raw REPL after a soft reset once boot.py has run. Timeouts are
shortened (1 s, fed every 125 ms: the board's 8 s and 1 s in the same ratio); each stage
lasts 1.5 s, longer than the timeout."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from host.board import toolchain

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = """import sys
import time

import machine
import micropython

micropython.kbd_intr(3)  # the watchdog's reset arrives as SIGINT, as on the virtual board


def board():
    from hardware.boards import esp32

    esp32.WATCHDOG_MS = 1000
    esp32.FEED_MS = 125
    return esp32


def busy(ms):
    # Someone's code at the REPL (or mpremote's): bytecodes, then sleeping.
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < ms // 2:
        pass
    time.sleep_ms(ms // 2)


def loop(dog, ms):
    # The scoreboard's loop: it feeds the WDT every tick.
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < ms:
        dog.feed()
        time.sleep_ms(10)


def soft_reset(boot):
    machine.soft_reset()
    for name in list(sys.modules):
        if name.startswith("hardware"):
            del sys.modules[name]
    if boot:
        board().after_reset()


STAGE = 1500
step = "boot"
try:
    esp32 = board()
    esp32.after_reset()  # boot.py at power-on
    busy(STAGE)
    step = "loop"
    dog = esp32.watchdog(1000)  # main.py: the scoreboard takes the WDT over
    loop(dog, STAGE)
    if sys.argv[1] == "wedged":
        step = "wedged"
        while True:  # the loop is stuck
            pass
    step = "repl"
    esp32.watchdog_off()  # Ctrl-C: the REPL asked for
    busy(STAGE)
    step = "raw-repl"
    soft_reset(boot=sys.argv[1] == "boot.py")  # mpremote's raw REPL, `pilkku flash`
    busy(STAGE)
    print("ALIVE")
except KeyboardInterrupt:
    print("RESET" if machine.twdt.fired else "INTERRUPTED", step)
"""


@pytest.fixture(scope="module")
def port(tmp_path_factory) -> Path:
    """The scenario and the port's modules, beside the repository's hardware package."""
    folder = tmp_path_factory.mktemp("esp32-port")
    shutil.copyfile(ROOT / "hardware" / "boards" / "virtual_wdt.py", folder / "virtual_wdt.py")
    shutil.copyfile(Path(__file__).parent / "esp32_port" / "machine.py", folder / "machine.py")
    (folder / "scenario.py").write_text(SCENARIO)
    return folder


def _run(port: Path, step: str) -> str:
    done = subprocess.run(
        [toolchain.micropython_binary(), str(port / "scenario.py"), step],
        capture_output=True, text=True, timeout=30,
        env={"MICROPYPATH": "%s:%s" % (port, ROOT), "PATH": "/usr/bin:/bin"})
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr


def test_a_wedged_loop_is_reset(port):
    assert _run(port, "wedged") == "RESET wedged"


def test_the_repl_handed_over_to_is_not_reset_nor_the_raw_repl_after_a_soft_reset(port):
    assert _run(port, "boot.py") == "ALIVE"


def test_without_boot_py_a_soft_reset_leaves_the_watchdog_unfed(port):
    """Why boot.py starts the feeder again: a soft reset stops the timer, not the WDT."""
    assert _run(port, "no boot.py") == "RESET raw-repl"
