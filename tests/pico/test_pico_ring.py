"""The journal's ring (firmware/journal_ring.py) on the emulated chip's own flash object: the
stock plain UF2, `rp2.Flash(start=320*4096, len=32*4096)` (the ring's place in the layout of
docs/journal.md, "The key's record outside littlefs"; on this freshly formatted littlefs those
blocks are blank and unused). The module's source is run over the raw REPL, its two imports
(hardware.compat's const, rules_core.crc's crc32) given from MicroPython's own modules, as the
stock chip has no pilkku on it. Records appended with quiet ticks between them, a power cut
30 bytes into a record's program, and a boot that finds every acknowledged record; every
program whole aligned pages. The chip's times are printed (not asserted)."""

from __future__ import annotations

from pathlib import Path

from test_pico_flash_strict import chip, stock  # noqa: F401 (fixtures)

from host.board.mpremote_link import Link
from host.board.pico import ready

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
import rp2, time
dev = rp2.Flash(start=320 * 4096, len=32 * 4096)
def payload(n, size):
    t = b'%d:' % n
    return bytes(t + bytes(97 + (n + i) % 26 for i in range(size - len(t))))
"""
PLAY = """
blank = bytearray(4096)
print(all(dev.readblocks(n, blank) or blank == b'\\xff' * 4096 for n in range(32)))
t = time.ticks_us(); ring = Ring(dev, 0, 32); boot = time.ticks_diff(time.ticks_us(), t)
tidy = []
for k in range(3):
    t = time.ticks_us(); did = ring.tidy(); tidy.append((did, time.ticks_diff(time.ticks_us(), t)))
print([did for did, us in tidy])
times = []
for n in range(1, 121):
    data = payload(n, 30 + n * 7 % 60)
    t = time.ticks_us(); ring.append(0x45, data)
    times.append(time.ticks_diff(time.ticks_us(), t))
    if n % 10 == 0:
        ring.tidy()
times.sort()
print(ring.last, ring.late)
print('boot', boot, 'tidy', [us for did, us in tidy], 'append p50', times[60], 'max', times[-1])
"""
CHECK = """
t = time.ticks_us(); ring = Ring(dev, 0, 32); boot = time.ticks_diff(time.ticks_us(), t)
got = [(n, bytes(ring.read(p, l))) for p, n, k, l in ring.records()]
print([n for n, d in got] == list(range(1, 121)), all(d == payload(n, len(d)) for n, d in got))
print(ring.problem, ring.last)
for n in range(121, 126):
    ring.append(0x45, payload(n, 50))
print([n for p, n, k, l in Ring(dev, 0, 32).records()] == list(range(1, 126)))
print('boot after the cut', boot)
"""


def ring_source() -> str:
    source = (ROOT / "firmware" / "journal_ring.py").read_text()
    source = source.replace("from hardware.compat import const", "from micropython import const")
    return source.replace(
        "from rules_core.crc import crc32",
        "import binascii\n\n\ndef crc32(data, crc=0):\n"
        "    return binascii.crc32(data, crc) & 0xFFFFFFFF")


def test_the_ring_on_the_chips_flash_keeps_every_record_through_a_cut(chip):  # noqa: F811
    board, link = chip
    said = link.run(ring_source() + SETUP + PLAY).split("\r\n")
    assert said[:3] == ["True", "[True, True, False]", "120 0"], said
    print(said[3])  # the chip's times, in microseconds
    board.cut_in_flash(1, 0, 30)  # 30 bytes into the next record's page
    link.transport.exec_raw_no_follow("ring.append(0x45, payload(121, 80))\n")
    assert board.wait_dead()
    link.close()
    board.start()
    board.wait_ms(ready.USB_UP_MS)
    with Link.open(board.pty_path) as again:
        again.raw_repl(soft_reset=False)
        said = again.run(ring_source() + SETUP + CHECK).split("\r\n")
    assert said[:3] == ["True True", "None 120", "True"], said
    print(said[3])
    assert board.misaligned == []
