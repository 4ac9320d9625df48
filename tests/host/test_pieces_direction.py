"""The size of the pieces a sync pulls a result in follows the line's measured loss rate in
the right direction (host/sync/pieces.py, `_adapt`): on a clean line the pieces grow to
PIECE_MAX, on a damaging one they shrink, and the worse the line the smaller they are. Each
steady line ends at the size that carries the most result bytes per line byte, found here by
trying every size (a frame of z + OVERHEAD bytes arrives whole with (1 - p) ** (z + OVERHEAD),
and z of them are the result's), not by the module's own formula. The 3 % sync test bounds
the piece from above only; these bound it from both sides, at every rate."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from host.sync import pieces
from rules_core import sync_protocol as sp

H = sp.OVERHEAD


def best(rate: float) -> int:
    """The piece size that carries the most result bytes per line byte at a byte error rate."""
    return max(range(sp.PIECE_MIN, sp.PIECE_MAX + 1),
               key=lambda z: z / (z + H) * (1 - rate) ** (z + H))


def line(rate: float, pulls: int = 40, piece: int = sp.PIECE_MAX) -> list[int]:
    """The piece size after each of `pulls` pulls on a line that damages `rate` of its bytes:
    each pull asks for a burst of pieces of the size chosen so far and loses the share of
    frames such a line loses (its expected count: no chance in the test)."""
    link = SimpleNamespace(piece=piece, lost=0.0, carried=0.0)
    sizes = []
    for _ in range(pulls):
        frames = max(1, min(sp.COUNT_MAX, sp.BURST_MAX // link.piece))
        lost = frames * (1 - (1 - rate) ** (link.piece + H))
        pieces._adapt(link, lost, frames * (link.piece + H) + pieces.HEADER)
        sizes.append(link.piece)
    return sizes


def test_on_a_clean_line_the_pieces_grow_to_the_largest():
    assert line(0.0, pulls=8, piece=sp.PIECE_MIN) == [32, 64, 128, 256, 512, 1000, 1000, 1000]
    assert line(0.0, pulls=3) == [sp.PIECE_MAX] * 3


@pytest.mark.parametrize("rate", [0.0005, 0.001, 0.003, 0.01, 0.02, 0.03])
def test_on_a_damaging_line_the_pieces_settle_at_the_best_size(rate):
    settled = line(rate)[-4:]
    assert best(rate) < sp.PIECE_MAX
    # within a byte of the best (two above 200 bytes: the rate is learnt from whole frames,
    # and the reply's bytes are counted with the pieces')
    assert all(abs(size - best(rate)) <= max(1, best(rate) // 100) for size in settled), (
        rate, settled, best(rate))


def test_the_worse_the_line_the_smaller_the_pieces():
    rates = [0.0, 0.0005, 0.001, 0.003, 0.01, 0.02, 0.03, 0.1]
    settled = [line(rate)[-1] for rate in rates]
    assert settled == sorted(settled, reverse=True) and len(set(settled[:-1])) == len(rates) - 1
    assert settled[0] == sp.PIECE_MAX and settled[-1] == sp.PIECE_MIN
    assert 36 <= settled[rates.index(0.01)] <= 44  # about 40 bytes at 1 % (the docstring's)


def test_a_line_that_turns_bad_shrinks_the_pieces_and_one_that_clears_grows_them_again():
    link = SimpleNamespace(piece=sp.PIECE_MAX, lost=0.0, carried=0.0)
    frames = sp.BURST_MAX // sp.PIECE_MAX
    pieces._adapt(link, frames, frames * (sp.PIECE_MAX + H) + pieces.HEADER)  # all lost
    assert link.piece < sp.PIECE_MAX
    shrunk = link.piece
    for _ in range(12):  # clean pulls: the lost count halves each time, and is forgotten
        frames = max(1, min(sp.COUNT_MAX, sp.BURST_MAX // link.piece))
        pieces._adapt(link, 0, frames * (link.piece + H) + pieces.HEADER)
    assert link.piece == sp.PIECE_MAX > shrunk


def test_a_single_frame_lost_shrinks_the_pieces():
    link = SimpleNamespace(piece=sp.PIECE_MAX, lost=0.0, carried=0.0)
    frames = sp.BURST_MAX // sp.PIECE_MAX
    pieces._adapt(link, 1, frames * (sp.PIECE_MAX + H) + pieces.HEADER)  # 1 of 4 lost
    assert link.piece < sp.PIECE_MAX
