"""`pilkku bench` syncing a virtual board (host/board/virtual_board.py) into a real store:
finished matches written into the board's journal over mpremote, then pulled by `pilkku
sync`'s own session over a relay that paces the line at its baud rate (and, for the poor
line, damages bytes at a given rate), counting the bytes each way.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path

from host.board.mpremote_link import Link as ReplLink
from host.board.pty_relay import PtyRelay
from host.board.virtual_board import VirtualBoard
from host.sync.commands import Desk
from host.sync.session import BAUD, Link, Pulled, SyncError, sync_board
from host.tournament import night
from host.tournament.store import Store

ROOT = Path(__file__).resolve().parents[2]
SYNC_MATCH = ROOT / "examples" / "demo-9ball.json"  # a finished club-night race to 3

FILL = """import json
from firmware.journal import Journal
_j = Journal('journal', max_finished=10000)
_s = json.loads(%r)
_e = json.loads(%r)
_i = %d
for _code, _players in json.loads(%r):
    _s['players'] = _players
    _m = _j.start(_s, {'board': 'pk-bench', 'table': 3, 'match_id': _code,
                       'started': 1700000000 + 3600 * _i})
    for _x in _e:
        _m.apply(_x)
    _j.finish({'score': _m.state.score, 'winner': _m.state.winner,
               'ended': 1700002400 + 3600 * _i})
    _i += 1
print(len(_j.finished()))
"""
FILL_BATCH = 8  # matches one run on the board writes: a run must end within mpremote's 10 s


def tournament(db: Path, count: int) -> tuple[dict, bytes, list[tuple[str, list[str]]]]:
    """A 9-ball round robin in a real store with at least `count` matches: the tournament,
    its pairing key and the first `count` matches' (code, players)."""
    entrants = 2
    while entrants * (entrants - 1) // 2 < count:
        entrants += 1
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Bench", "9ball", 3)
        night.import_players(store, tid, [(n, "Pelaaja %02d" % n, "")
                                          for n in range(1, entrants + 1)])
        night.draw_round_robin(store, tid)
        played = [(m["code"], [m["player1"], m["player2"]]) for m in store.matches.all(tid)]
        return store.tournaments.by_id(tid), store.tournaments.key(tid), played[:count]


class CountingSerial:
    """The sync link's port, counting the bytes that come in (the link counts what it sends)."""

    def __init__(self, port) -> None:
        self.port = port
        self.received = 0

    def read(self, size: int = 1) -> bytes:
        data = self.port.read(size)
        self.received += len(data)
        return data

    def __getattr__(self, name: str):
        return getattr(self.port, name)


class LineRelay(PtyRelay):
    """A 115200 baud cable on a pty: bytes pass to and from the board's pty no faster than the
    line carries them (10 bits a byte, each way on its own), so the sync's time holds its
    bytes' time on the line and its stalls (round trips, the board's work) on top."""

    def __init__(self, board_port: str, baud: int = BAUD) -> None:
        self.rate = baud / 10  # bytes a second
        self.free_at: dict[int, float] = {}  # per direction: when the line is done
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        free_at = max(self.free_at.get(target, 0.0), time.monotonic()) + len(data) / self.rate
        self.free_at[target] = free_at
        delay = free_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the last byte arrives when the line has carried it
        os.write(target, data)


class NoisyLineRelay(LineRelay):
    """The same line, damaging each byte it carries with probability `rate`, from a seeded
    stream: a poor cable. A damaged byte is, by turns at random, replaced by any other byte
    (Ctrl-C, "~" and newlines too), lost, or followed by an inserted one."""

    def __init__(self, board_port: str, rate: float, seed: int = 1) -> None:
        self.noise = rate
        self.rng = random.Random(seed)
        self.damaged = 0
        self.lock = threading.Lock()
        super().__init__(board_port)

    def carry(self, data: bytes, target: int) -> None:
        chunk = bytearray()
        with self.lock:
            for byte in data:
                if self.rng.random() >= self.noise:
                    chunk.append(byte)
                    continue
                self.damaged += 1
                kind = self.rng.randrange(3)
                if kind == 0:
                    chunk.append((byte + self.rng.randrange(1, 256)) & 0xFF)
                elif kind == 1:
                    chunk += bytes((byte, self.rng.randrange(256)))
        super().carry(bytes(chunk), target)


def fill_journal(port: str, matches: list[tuple[str, list[str]]],
                 batch: int = FILL_BATCH) -> None:
    """The tournament's matches, each played as the club-night demo race, written finished
    into the board's journal by the firmware's own Journal, run on the board through its REPL
    (mpremote's raw REPL), `batch` matches a run; then the firmware restarted."""
    doc = json.loads(SYNC_MATCH.read_text())
    with ReplLink.open(port) as link:
        link.raw_repl(soft_reset=True)
        done = "0"
        for first in range(0, len(matches), batch):
            done = link.run(FILL % (json.dumps(doc["settings"]), json.dumps(doc["events"]),
                                    first, json.dumps(matches[first:first + batch])))
        if done.strip() != str(len(matches)):
            raise RuntimeError("the board holds %r finished matches, not %d"
                               % (done, len(matches)))
        link.start_firmware()


def firmware_answers(port: str, key: bytes) -> None:
    """Back from fill_journal's restart: the firmware is up when it answers a hello (a wait
    bounded by the board's own answer, not a guess at its boot time)."""
    link = Link(port, key)
    try:
        link.hello()
    finally:
        link.close()


def sync_figures(folder: Path, firmware: dict[str, bytes], count: int,
                 byte_errors: float = 0.0) -> dict[str, float]:
    """`count` finished tournament matches pulled by `pilkku sync`'s own laptop end (the
    session and the SQLite store, host/sync/commands.Desk) through a 115200 baud line
    (LineRelay) to the board's pty, against the time the bytes sent both ways need on that
    line. With `byte_errors`, the line damages that share of its bytes (NoisyLineRelay) and
    "completed" says whether one sync stored every result."""
    name = "sync" if not byte_errors else "sync-noisy"
    db = folder / (name + ".db")
    held, key, matches = tournament(db, count)
    board = VirtualBoard(folder / name)
    files = dict(firmware)
    files["config.json"] = json.dumps({"board": "pk-bench", "table": 3,
                                       "key": key.hex()}).encode()
    board.install(files)
    board.start()
    try:
        fill_journal(board.pty_path, matches)
        firmware_answers(board.pty_path, key)
        desk = Desk(str(db), held)
        payload = [0]

        def store(board_id: str, result: Pulled) -> str:
            payload[0] += len(result.text.encode())
            return desk.store_result(board_id, result)

        relay = NoisyLineRelay(board.pty_path, byte_errors) if byte_errors else \
            LineRelay(board.pty_path)
        link = Link(relay.port, key)
        counter = CountingSerial(link.serial)
        link.serial = counter  # type: ignore[assignment]
        try:
            start = time.monotonic()
            try:
                summary = sync_board(link, store, desk.schedule_for, say=lambda _line: None)
            except SyncError:
                if not byte_errors:
                    raise
                summary = {"stored": -1}
            spent = time.monotonic() - start
        finally:
            link.close()
            relay.close()
    finally:
        board.close()
    with Store.open(db) as stored:
        recorded = len([r for r in stored.results.all(held["id"]) if r["verified"]])
    if byte_errors:  # completed: every result stored once (none kept, none twice), freed
        return {"completed": summary["stored"] == count and recorded == count
                and summary.get("duplicates") == 0 and summary.get("kept") == 0,
                "retransmissions": link.retransmissions, "seconds": spent}
    if summary["stored"] != count or recorded != count:
        raise RuntimeError("the sync stored %d of %d results (%d in the store)"
                           % (summary["stored"], count, recorded))
    wire = link.sent_bytes + counter.received
    return {"seconds": spent, "wire_bytes": wire, "payload_bytes": payload[0],
            "retransmissions": link.retransmissions,
            "line_seconds": wire * 10 / BAUD}


def noisy_figures(folder: Path, firmware: dict[str, bytes], count: int) -> dict:
    """Syncs over a poor line: `count` results at 1 % byte errors, a quarter as many at 3 %
    (flip, drop and insert), whether each completed in one sync, the frames sent again, and
    the time per result at 3 % against at 1 %; and how soon `pilkku sync` gives up on a
    silent device and on one sending junk without a newline."""
    for name in ("1pct", "3pct"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    one = sync_figures(folder / "1pct", firmware, count, 0.01)
    few = max(1, count // 4)
    three = sync_figures(folder / "3pct", firmware, few, 0.03)
    figures: dict = {
        "sync_completes_at_1pct_byte_errors": one["completed"],
        "sync_retries_at_1pct": one["retransmissions"], "sync_s_at_1pct": one["seconds"],
        "sync_completes_at_3pct_byte_errors": three["completed"],
        "sync_matches_at_3pct": few,
        "sync_retries_at_3pct": three["retransmissions"], "sync_s_at_3pct": three["seconds"]}
    if one["completed"] and three["completed"]:
        figures["sync_s_per_result_3pct_vs_1pct"] = (three["seconds"] / few) / (
            one["seconds"] / count)
    figures.update(give_up_figures())
    return figures


def give_up_figures() -> dict:
    """Seconds `pilkku sync`'s link takes to give up on a silent pty and on one that sends
    junk (a frame's start, never its newline) all the while."""
    figures = {}
    for name, junk in (("silent", b""), ("junk", b"~123P{" + b"x" * 50)):
        master, slave = os.openpty()
        running = [True]

        def send(master: int = master, junk: bytes = junk, running: list = running) -> None:
            while running[0] and junk:
                try:
                    os.write(master, junk)
                except OSError:
                    return
                time.sleep(0.02)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        link = Link(os.ttyname(slave), b"k" * 32)
        start = time.monotonic()
        try:
            link.hello()
        except SyncError:
            pass
        figures["sync_gives_up_%s_s" % name] = time.monotonic() - start
        link.close()
        running[0] = False
        sender.join(1)
        os.close(master)
        os.close(slave)
    return figures
