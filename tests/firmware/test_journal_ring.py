"""The journal's ring outside littlefs (firmware/journal_ring.py, docs/journal.md "The key's
record outside littlefs") on the NOR flash model (tests/firmware/nor_flash.py), under
CPython: records read back in order; a power cut at every erase and program of a script
(appends, quiet ticks, releases, boots), at page starts, bytes into a page, random bits and
weakly programmed, then a boot, more records and another boot, loses nothing acknowledged;
a cut at every byte of chosen programs and every 256th byte of an erase; the ring's own
bounds checks; erase-ahead; a ring that fills; damage set aside. The same cuts on the unix
port: test_journal_ring_unix.py."""

from __future__ import annotations

import re

import pytest
from nor_flash import Misuse, NorFlash, PowerCut
from ring_play import COUNT, chain, payload, play, script, sweep

from firmware.journal_ring import (
    MAX_PAYLOAD,
    PAGE,
    SECTOR,
    Ring,
    RingError,
    RingFull,
)


def appended(ring: Ring, sizes) -> list[tuple[int, int, bytes]]:
    out = []
    for size in sizes:
        data = payload(ring.last + 1, size)
        out.append((ring.append(0x45, data), 0x45, data))
        ring.tidy()
    return out


def test_records_read_back_in_order_across_pages_sectors_and_boots():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    sizes = [0, 1, 245, 246, 300, MAX_PAYLOAD, 17, 500, 2, MAX_PAYLOAD, 99] * 3
    records = appended(ring, sizes)
    assert [r[0] for r in records] == list(range(1, len(sizes) + 1))
    assert chain(ring) == records
    again = Ring(flash, 0, COUNT)
    assert chain(again) == records and again.last == len(sizes)
    more = appended(again, [60, 61])
    assert chain(Ring(flash, 0, COUNT)) == records + more
    assert [r[0] for r in more] == [len(sizes) + 1, len(sizes) + 2]


def test_every_program_is_whole_aligned_pages_0xff_but_its_own_bytes():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    ring.tidy()
    before = bytes(flash.cells)
    ring.append(0x45, b"abc")  # the model raises Misuse on anything but whole pages
    changed = [i for i in range(len(before)) if flash.cells[i] != before[i]]
    assert len(changed) <= 3 + 11 and changed[-1] - changed[0] < 14


def test_a_cut_at_every_erase_and_program_loses_nothing_acknowledged():
    lines = sweep(script(120))
    operations = {int(line.split()[0]) for line in lines}
    assert len(operations) > 120  # every append, erase, header, retirement and boot copy
    landed = [line for line in lines if line.split()[4] == "1"]
    # the record in flight is found after some cuts (whole, or whole but weak) and not others
    assert landed and len(landed) < len(lines)


def _what(flash: NorFlash, at: int) -> str:
    """What wrote operation `at` of a script played on `flash`."""
    shape, (off, first) = flash.shapes[at - 1], flash.written[at - 1]
    if shape == 0:
        return "erase"
    if any(start < at <= end for start, end in flash.boots):
        return "boot copy" if off or first[:4] not in (b"PKR1", bytes(4)) else "boot header"
    if off == 0 and first[:4] == b"PKR1":
        return "header"
    if off == 0 and first[:4] == bytes(4):
        return "retirement"
    if off == 0 and first[:4] == b"\xff" * 4:
        return "confirmation"
    return "spanning" if shape > 1 else "record"


@pytest.mark.parametrize("which", ["record", "spanning", "header", "confirmation",
                                   "retirement", "boot copy"])
def test_a_cut_at_every_byte_of_a_program(which):
    steps = script(60)
    flash = NorFlash(8)
    play(flash, steps)
    chosen = [at for at in range(1, flash.ops + 1) if _what(flash, at) == which][:2]
    assert chosen, which
    lines = sweep(steps, only=set(chosen), every_byte=True)
    assert len(lines) >= 256 * len(chosen)


def test_a_cut_inside_an_erase_at_every_256th_byte():
    steps = script(60)
    flash = NorFlash(8)
    play(flash, steps)
    erases = [at for at, shape in enumerate(flash.shapes, 1) if shape == 0]
    assert len(erases) >= 4
    lines = sweep(steps, only=set(erases), every_byte=True)
    assert len(lines) == len(erases) * 17


def test_a_weakly_programmed_last_record_is_kept_by_the_boots_copy():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = appended(ring, [50] * 10)
    flash.cut(1, how="weak")  # the 11th record: whole on flash, its bits weak
    with pytest.raises(PowerCut):
        ring.append(0x45, payload(11, 50))
    flash.power_on()
    ring = Ring(flash, 0, COUNT)
    assert [r[0] for r in chain(ring)] == list(range(1, 12))  # the 11th landed
    records += [chain(ring)[-1]] + appended(ring, [50] * 5)
    flash.decay()  # its original fades: the copy the boot wrote stands in
    assert chain(Ring(flash, 0, COUNT)) == records


def test_a_boot_with_nothing_to_mend_writes_nothing():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    appended(ring, [80] * 30)
    Ring(flash, 0, COUNT)  # writes the copy of record 30
    programs, erases = flash.programs, flash.erases
    for _ in range(5):
        Ring(flash, 0, COUNT)
    assert (flash.programs, flash.erases) == (programs, erases)


def test_bounds_are_checked_before_the_device_is_called():
    flash = NorFlash(16)
    with pytest.raises(RingError):
        Ring(flash, 10, 8)  # past the device's 16 blocks
    with pytest.raises(RingError):
        Ring(flash, -1, 8)
    ring = Ring(flash, 4, 8)
    steps: list[tuple] = []
    for n in range(1, 201):
        steps += [("A", 0x45, 30 + n * 7 % 900), ("T",)] + ([("R", n - 5)] if n % 20 == 0 else [])
    acked, _flight, _released, alive = play(flash, steps, ring=ring)
    assert alive is not None and len(acked) == 200
    assert set(flash.touched) <= set(range(4, 12)) and len(set(flash.touched)) == 8
    ops = flash.ops
    for pos in (-1, 8 * SECTOR, 8 * SECTOR + 20):
        with pytest.raises(RingError, match="outside the ring"):
            ring.read(pos, 4)
    with pytest.raises(RingError, match="outside the ring"):
        ring.read(SECTOR - 8, 4)  # runs past its sector
    with pytest.raises(RingError, match="not whole pages"):
        ring._program(0, PAGE // 2, ring._spans[1])
    with pytest.raises(RingError, match="outside the ring"):
        ring._erase(8)
    for kind, size in ((0x45, MAX_PAYLOAD + 1), (0xFF, 3), (0x00, 3)):
        with pytest.raises(RingError):
            ring.append(kind, bytes(size))
    assert flash.ops == ops


def test_the_model_refuses_what_a_chip_would_get_wrong():
    flash = NorFlash(2)
    with pytest.raises(Misuse):
        flash.writeblocks(0, bytes(3), 300)
    with pytest.raises(Misuse):
        flash.writeblocks(2, bytes(PAGE), 0)
    with pytest.raises(Misuse):
        flash.ioctl(6, -1)


def test_erase_ahead_keeps_a_sector_ready_so_no_record_erases():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    while ring.tidy():
        pass
    for n in range(1, 200):
        erases = flash.erases
        ring.append(0x45, payload(n, 120 + n % 90))
        assert flash.erases == erases  # never an erase in a record's path
        while ring.tidy():
            pass
        if n % 40 == 0:
            ring.release(n - 10)
    assert ring.late == 0
    # no quiet tick at all: records still go to flash, each new sector erased in the record's
    # path (slow, counted), nothing lost
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = [(ring.append(0x45, payload(n, 400)), 0x45, payload(n, 400)) for n in range(1, 30)]
    assert ring.late >= 2 and chain(Ring(flash, 0, COUNT)) == records


def test_a_match_that_outgrows_the_ring_is_refused_whole_then_goes_on_once_released():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = []
    with pytest.raises(RingFull):
        while True:
            data = payload(ring.last + 1, 700)
            records.append((ring.append(0x45, data), 0x45, data))
            ring.tidy()
    ops = flash.ops
    with pytest.raises(RingFull):
        ring.append(0x45, payload(ring.last + 1, 700))
    assert flash.ops == ops  # refused: nothing written
    assert chain(Ring(flash, 0, COUNT)) == records
    # the journal files the oldest records elsewhere (littlefs) between keys, then releases
    ring = Ring(flash, 0, COUNT)
    released = records[-8][0]
    ring.release(released)
    more = appended(ring, [700] * 5)
    found = [r for r in chain(Ring(flash, 0, COUNT)) if r[0] > released]
    assert found == [r for r in records if r[0] > released] + more


def test_a_long_match_streams_through_a_small_ring_and_survives_cuts():
    """Spilling as the journal will: when fewer than 3 sectors are left, the records up to
    the last one go elsewhere (a list standing for littlefs) and are released. 1500 records
    through six sectors; a cut at every operation of a window of it."""

    def run(flash, cut_at=None):
        filed: list = []
        acked: list = []
        if cut_at:
            flash.cut(cut_at)
        try:
            ring = Ring(flash, 0, COUNT)
            for n in range(1, 1501):
                data = payload(n, 40 + n % 60)
                acked.append((ring.append(0x45, data), 0x45, data))
                ring.tidy()
                if ring.room() < 3:
                    filed += chain(ring, filed[-1][0] if filed else 0)
                    ring.release(filed[-1][0])
        except PowerCut:
            pass
        return filed, acked

    flash = NorFlash(8)
    filed, acked = run(flash)
    assert len(acked) == 1500 and filed
    assert filed + chain(Ring(flash, 0, COUNT), filed[-1][0]) == acked
    window = range(flash.ops // 2, flash.ops // 2 + 60)
    for at in window:
        flash = NorFlash(8)
        filed, acked = run(flash, at)
        flash.power_on()
        after = filed[-1][0] if filed else 0
        found = filed + chain(Ring(flash, 0, COUNT), after)
        assert found[:len(acked)] == acked and len(found) <= len(acked) + 1, at


def test_damage_is_set_aside_and_the_ring_restarts():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = appended(ring, [300] * 40)
    # a byte flipped in record 5, in the oldest sector: not something a cut does
    pos = next(p for p, number, _k, _n in ring.records() if number == 5)
    flash.cells[pos + 20] ^= 0x10
    ring = Ring(flash, 0, COUNT)
    assert [r[0] for r in chain(ring)] == [1, 2, 3, 4]
    assert re.fullmatch(r"ring: record \d+ found after 4: set aside", ring.problem or "")
    with pytest.raises(RingError, match="set aside"):
        ring.append(0x45, b"x")
    ring.restart()
    number = ring.append(0x45, b"new")
    assert number > records[-1][0]
    assert chain(Ring(flash, 0, COUNT)) == [(number, 0x45, b"new")]


def test_damage_among_the_last_records_is_found_byte_by_byte():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = appended(ring, [40] * 6)
    pos = next(p for p, number, _k, _n in ring.records() if number == 3)
    flash.cells[pos + 9] ^= 0x01  # records 4-6 follow it in the same page
    ring = Ring(flash, 0, COUNT)
    assert chain(ring) == records[:2]
    assert ring.problem == "ring: record 4 found after 2: set aside"


def test_cuts_in_the_boots_copy_boot_after_boot_lose_nothing():
    flash = NorFlash(8)
    ring = Ring(flash, 0, COUNT)
    records = appended(ring, [300] * 5)
    for byte in (5, 40, 200, 120, 7, 60):  # the power flickers: each boot's copy cut
        flash.cut(1, 0, byte)
        with pytest.raises(PowerCut):
            Ring(flash, 0, COUNT)
        flash.power_on()
    ring = Ring(flash, 0, COUNT)
    assert ring.problem is None and chain(ring) == records
    more = appended(ring, [300] * 3)
    assert chain(Ring(flash, 0, COUNT)) == records + more
