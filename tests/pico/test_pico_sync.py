"""Results synced from the emulated Pico into the real store (SQLite, host/tournament/
store.py) by `pilkku sync`'s own laptop end, with the power cut at random instructions in
the middle of syncs: the director syncs again each time, and in the end every result is in
the store exactly once, verified, and freed on the board."""

from __future__ import annotations

import random

from host.bench.syncing import fill_journal, tournament
from host.board.pico import ready
from host.sync.pair import pair
from host.sync.replies import SyncError
from host.tournament.store import Store
from tests.host.sync_setup import board_results, sync

COUNT = 3
SYNC_COST = 580_000_000  # instructions of the emulated chip in a sync of these results
TIMEOUT_S = 1.0  # the link's wait for a reply: the emulated chip runs ~4x slower than a Pico


def power_up(pico) -> None:
    pico.kill()
    pico.start()
    ready.up(pico)


def _stored(db) -> int:
    with Store.open(db) as store:
        return store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]


def test_results_synced_exactly_once_through_power_cuts(tmp_path, flashed):
    db = tmp_path / "cup.db"
    held, key, matches = tournament(db, COUNT)
    pico = ready.board_from(flashed(True).image, tmp_path / "pico")
    pico.start()
    try:
        ready.up(pico)
        assert pair(pico.pty_path, key)
        fill_journal(pico.pty_path, matches, batch=1)  # a run within mpremote's 10 s
        rng = random.Random(1203)
        cut = failed = 0
        stages: list[int] = []  # results in the store after each sync that was cut off
        for _ in range(4):
            pico.cut_after(rng.randint(20_000_000, SYNC_COST))
            try:
                done = sync(pico.pty_path, str(db), key, timeout=TIMEOUT_S)
                assert done["stored"] + done["duplicates"] >= 1
                pico.kill()  # the cut falls after the sync, as the board is put away
            except SyncError:
                failed += 1
                stages.append(_stored(db))
                assert pico.wait_dead(30)  # the sync failed as the power went
            cut += 1
            power_up(pico)
        summary = sync(pico.pty_path, str(db), key, timeout=TIMEOUT_S)
        left = board_results(pico.pty_path, key)
    finally:
        pico.close()
    print("results stored when a sync was cut off:", stages)
    assert cut == 4 and failed >= 1  # at least one sync was cut off midway
    assert max(stages) >= 1  # ... once with results already stored (their acks in flight)
    assert summary["kept"] == 0 and left == []  # all in, all freed on the board
    with Store.open(db) as store:
        rows = store.results(held["id"])
        assert len(rows) == COUNT and all(row["verified"] for row in rows)
        assert sorted(row["match"] for row in rows) == sorted(code for code, _ in matches)
        stored = store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        assert stored == COUNT  # never a second copy, replaced or not
        assert store.chain_problems(held["id"]) == ([], set())
