"""A script of ring operations played on the NOR flash model until a power cut, for the ring's
tests on CPython and on the unix port (tests/firmware/test_journal_ring*.py,
ring_driver.py): what was acknowledged, and what a boot after the cut must find.

    acked, flight = play(flash, script)   # (number, kind, payload) of each append that
                                          # returned; the one the cut fell in, or None
    found = chain(ring)                   # (number, kind, payload) the ring reads back

A script is a list of steps: ("A", kind, size) append a record of that many payload bytes
(made from its number, so every record differs), ("T",) a quiet tick (the ring's tidy),
("R", n) release the records up to the n-th acknowledged, ("B",) a boot on the same flash.
"""

from nor_flash import NorFlash, PowerCut

from firmware.journal_ring import MAX_PAYLOAD, Ring

COUNT = 6  # sectors of the rings the tests use: small, so they wrap and fill


def payload(number, size):
    """Bytes of a record: its number, then letters, `size` in all."""
    text = b"%d:" % number
    out = bytearray(size)
    for i in range(size):
        out[i] = text[i] if i < len(text) else 97 + (number + i) % 26
    return bytes(out)


def script(records=120, seed=7):
    """Appends of mixed sizes (page-spanning, sector-filling, the largest), a quiet tick
    after most, a release of the oldest half now and then, and two boots."""
    steps = []
    state = seed
    for n in range(1, records + 1):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        size = (state >> 8) % 300
        if n % 17 == 0:
            size = MAX_PAYLOAD
        steps.append(("A", 0x45 if n % 9 else 0x55, size))
        if n % 5:
            steps.append(("T",))
        if n % 25 == 0:
            steps.append(("R", n - 12))
        if n in (records // 3, records * 3 // 4):
            steps.append(("B",))
    return steps


def play(flash, steps, ring=None, base=0):
    """Run `steps` (boots included) until the end or a power cut. Returns (acked, flight,
    released, ring): every append that returned, the append the cut fell in (or None), the
    number released up to, and the ring (None if the cut fell in a boot)."""
    acked = []
    flight = None
    released = base
    try:
        if ring is None:
            ring = Ring(flash, 0, COUNT)
        for step in steps:
            if step[0] == "A":
                number = ring.last + 1
                data = payload(number, step[2])
                flight = (number, step[1], data)
                got = ring.append(step[1], data)
                acked.append((got, step[1], data))
                flight = None
            elif step[0] == "T":
                ring.tidy()
            elif step[0] == "R":
                if step[1] <= len(acked) and step[1] > 0:
                    released = max(released, acked[step[1] - 1][0])
                    ring.release(released)
            else:
                before = flash.ops
                ring = Ring(flash, 0, COUNT)
                flash.boots.append((before, flash.ops))
    except PowerCut:
        return acked, flight, released, None
    return acked, flight, released, ring


def chain(ring, after=0):
    return [(number, kind, bytes(ring.read(pos, length)))
            for pos, number, kind, length in ring.records(after)]


def check(found, acked, flight, released):
    """What a boot found is every acknowledged record above the released point, in order,
    and at most the one in flight after them. Returns whether the one in flight is there;
    raises AssertionError (with what differs) if not so."""
    want = [record for record in acked if record[0] > released]
    got = [record for record in found if record[0] > released]
    if got == want:
        return False
    if flight is not None and got == want + [flight]:
        return True
    raise AssertionError("found %r, acknowledged %r, in flight %r" % (
        [r[0] for r in got], [r[0] for r in want], flight and flight[0]))


MORE = [("A", 0x45, 40 + i * 37) for i in range(12)] + [("T",)]


def variants(shape, every_byte=False):
    """The cuts tried in an operation of that shape (pages programmed, 0: an erase): at the
    start of each page (or into the sector), a few bytes in, random bits, weak."""
    if shape == 0:
        cuts = [(0, b, "prefix") for b in (range(0, 4096, 256) if every_byte else (0, 16, 3000))]
        return cuts + [(0, 0, "bits")]
    cuts = [(p, b, "prefix") for p in range(shape)
            for b in (range(256) if every_byte else (0, 1, 100, 255))]
    return cuts + [(p, 0, "bits") for p in range(shape)] + [(0, 0, "weak")]


def cut_once(blocks, steps, at, page, byte, how):
    """Play `steps` with a cut inside operation `at`; boot; check; play MORE; let weak bits
    decay; boot; check. Returns (landed, records found at the first boot)."""
    flash = NorFlash(blocks)
    flash.cut(at, page, byte, how)
    acked, flight, released, ring = play(flash, steps)
    if ring is not None:
        raise AssertionError("the cut at operation %d did not land: %s" % (at, flash.missed))
    flash.power_on()
    ring = Ring(flash, 0, COUNT)
    if ring.problem is not None:
        raise AssertionError(ring.problem)
    before = [record for record in chain(ring) if record[0] > released]
    landed = check(before, acked, flight, released)
    acked2, _flight, _released, alive = play(flash, MORE, ring=ring, base=released)
    if alive is None:
        raise AssertionError("a power cut after the boot")
    flash.decay()
    check(chain(Ring(flash, 0, COUNT)), before + acked2, None, released)
    return landed, len(before)


def sweep(steps, blocks=8, only=None, every_byte=False):
    """cut_once at every operation (or those in `only`) of `steps`, each of its variants:
    a line per cut, "at page byte how landed found"."""
    flash = NorFlash(blocks)
    play(flash, steps)
    lines = []
    for at, shape in enumerate(flash.shapes, 1):
        if only is not None and at not in only:
            continue
        for page, byte, how in variants(shape, every_byte):
            landed, found = cut_once(blocks, steps, at, page, byte, how)
            lines.append("%d %d %d %s %d %d" % (at, page, byte, how, landed, found))
    return lines
