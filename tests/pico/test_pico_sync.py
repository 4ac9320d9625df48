"""Results synced from the emulated Pico into the real store (SQLite, host/tournament/
store.py) by `pilkku sync`'s own laptop end, with the power cut at random instructions in
the middle of syncs: the director syncs again each time, and in the end every result is in
the store exactly once, verified, and freed on the board.

The sync and mpremote wait for the chip in its own clock (host/board/port_clock.py), with
`pilkku sync`'s own timeouts: a loaded laptop slows the emulator, not the chip."""

from __future__ import annotations

import random

from host.bench.syncing import fill_journal, tournament
from host.board.pico import ready
from host.sync.pair import pair
from host.sync.replies import SyncError
from host.tournament.store import Store
from tests.host.sync_setup import board_results, desk, sync

COUNT = 3
# Instructions of the emulated chip in a sync of these results, measured on 4 December (the
# stored results at ~84, 109 and 162 M): a cut drawn past the sync's end cuts nothing.
SYNC_COST = 170_000_000
ACK_COST = 30_000_000  # ... in a pull that carries an ack and frees the result on the flash


def power_up(pico) -> None:
    pico.kill()
    pico.start()
    ready.up(pico)


def _stored(db) -> int:
    with Store.open(db) as store:
        return store.db.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]


def test_results_synced_exactly_once_through_power_cuts(tmp_path, flashed):
    db = tmp_path / "cup.db"
    held, key, matches = tournament(db, COUNT)
    pico = ready.board_from(flashed(True).image, tmp_path / "pico")
    pico.start()
    try:
        ready.up(pico)
        assert pair(pico.pty_path, key)
        fill_journal(pico.pty_path, matches, batch=1)
        rng = random.Random(1203)
        laptop = desk(str(db))
        stages: list[int] = []  # results in the store after each sync that was cut off
        for number in range(4):
            # Every other sync, the first among them, cuts just after a result is stored:
            # one sync at least is cut midway however long a sync takes.
            armed = [number % 2 == 0]

            def store_then_cut(board, pulled, armed=armed):
                said = laptop.store_result(board, pulled)
                if armed[0]:  # its ack rides the next pull: the cut falls around it
                    pico.cut_after(rng.randint(1_000_000, ACK_COST))
                    armed[0] = False
                return said

            if not armed[0]:
                pico.cut_after(rng.randint(20_000_000, SYNC_COST))  # anywhere in the sync
            try:
                done = sync(pico.pty_path, str(db), key, store_result=store_then_cut)
                assert done["kept"] == 0  # (all may be in already: a cut after the last ack)
                pico.kill()  # the cut falls after the sync, as the board is put away
            except SyncError as failed:
                stages.append(_stored(db))
                # The sync failed as the power went, not for anything else: the chip is off.
                assert pico.wait_dead(0), "sync %d failed with the power on: %s" % (
                    number, failed)
            power_up(pico)
        summary = sync(pico.pty_path, str(db), key)
        left = board_results(pico.pty_path, key)
    finally:
        pico.close()
    print("results stored when a sync was cut off:", stages)
    assert stages and max(stages) >= 1  # syncs cut off midway, with results already stored
    assert summary["kept"] == 0 and left == []  # all in, all freed on the board
    with Store.open(db) as store:
        rows = store.results.all(held["id"])
        assert len(rows) == COUNT and all(row["verified"] for row in rows)
        assert sorted(row["match"] for row in rows) == sorted(code for code, _ in matches)
        stored = store.db.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        assert stored == COUNT  # never a second copy, replaced or not
        assert store.chains.problems(held["id"]) == ([], set())
