"""What the sync tests share: a virtual board with a given key, a real tournament store for it
(host/tournament/store/), the laptop's side as `pilkku sync` builds it (host/sync/commands.Desk),
and the referee's keys for a race to one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host.bench.syncing import fill_journal, firmware_answers, tournament
from host.board import firmware_image
from host.board.virtual_board import VirtualBoard
from host.sync.commands import Desk
from host.sync.session import Link, SyncError, sync_board
from host.tournament import night
from host.tournament.store import Store
from tests.displays import powered_up

PLAYERS = ["Anna", "Ben", "Cid", "Dan"]


def make_board(folder: Path, firmware: dict, key: bytes | None, table: int | None = 1,
               board_id: str = "pk-test") -> VirtualBoard:
    files = dict(firmware)
    config: dict = {"board": board_id, "table": table}
    if key is not None:
        config["key"] = key.hex()
    files["config.json"] = json.dumps(config).encode()
    return powered_up(folder, files)


def make_store(path: Path, tables: int = 1) -> tuple[str, dict, bytes]:
    """A 9-ball race-to-1 tournament of four with its round robin drawn and tables set:
    (store path, tournament, pairing key)."""
    with Store.open(path) as store:
        tid = night.new_tournament(store, "Cup", "9ball", 1)
        night.import_players(store, tid, [(i + 2, name, "") for i, name in enumerate(PLAYERS)])
        night.draw_round_robin(store, tid)
        night.set_tables(store, tid, tables)
        return str(path), store.tournaments.by_id(tid), store.tournaments.key(tid)


@contextmanager
def board_holding(folder: Path, count: int, board_id: str) -> Iterator[tuple]:
    """A tournament of `count` matches in folder/results.db and a board holding them all
    finished, its firmware up: (db, tournament, key, board); the board closed after."""
    db = folder / "results.db"
    held, key, matches = tournament(db, count)
    board = make_board(folder / "board", firmware_image.image(), key, 1, board_id)
    try:
        fill_journal(board.pty_path, matches)
        firmware_answers(board.pty_path, key)
        yield db, held, key, board
    finally:
        board.close()


@contextmanager
def free_games_on(folder: Path, firmware: dict, key: bytes, count: int) -> Iterator[VirtualBoard]:
    """A board paired with `key` holding `count` free games played (play_a_race_to_one),
    closed after."""
    board = make_board(folder, firmware, key)
    try:
        for _ in range(count):
            play_a_race_to_one(board)
        yield board
    finally:
        board.close()


def sync_through(relay, db: Path, held: dict, key: bytes, **link_options) -> tuple[dict, Link]:
    """One sync of the board behind `relay` (closed after, with the link): (summary, link)."""
    laptop = Desk(str(db), held)
    link = Link(relay.port, key, **link_options)
    try:
        return sync_board(link, laptop.store_result, laptop.schedule_for,
                          say=lambda _s: None), link
    finally:
        link.close()
        relay.close()


def desk(db: str) -> Desk:
    with Store.open(db) as store:
        return Desk(db, store.tournaments.get())


def sync(port: str, db: str, key: bytes, timeout: float = 0.25, attempts: int = 40,
         store_result=None) -> dict:
    """One `pilkku sync` of one board against the store; SyncError if it failed."""
    laptop = desk(db)
    link = Link(port, key, timeout=timeout, attempts=attempts)
    try:
        return sync_board(link, store_result or laptop.store_result, laptop.schedule_for,
                          say=lambda _s: None, store_damaged=laptop.store_damaged,
                          last_link=laptop.last_link)
    finally:
        link.close()


def sync_until_done(port: str, db: str, key: bytes, tries: int = 5, **kwargs) -> dict:
    """A sync that gives up is simply run again, as a director would."""
    for _ in range(tries - 1):
        try:
            return sync(port, db, key, **kwargs)
        except SyncError:
            continue
    return sync(port, db, key, **kwargs)


def play_a_race_to_one(board: VirtualBoard) -> None:
    """A free game from the menu: race to 1, lag to player 1, the 9 on the break, leave."""
    for key in "1#11":
        board.tap(key)
    board.tap("9")
    board.tap("A")
    board.tap("#")  # leave the result: the match is filed for the laptop


def play_the_scheduled_match(board: VirtualBoard) -> None:
    """The menu's first scheduled match (race to 1 here), won by the first player."""
    board.tap("#")
    board.tap("1")
    board.tap("1")
    board.tap("9")
    board.tap("A")
    board.tap("#")


@contextmanager
def a_result_held(folder: Path, firmware: dict) -> Iterator[tuple[str, dict, bytes, VirtualBoard]]:
    """A cup (make_store's) whose board at table 1 has synced once (R1-01 first on its
    schedule), played R1-01 to its end (play_the_scheduled_match) and holds its result:
    (db, tournament, key, board); the board closed after."""
    db, tournament, key = make_store(folder / "cup.db")
    board = make_board(folder / "board", firmware, key)
    try:
        sync(board.pty_path, db, key)
        board.run(100)
        play_the_scheduled_match(board)
        board.run(100)
        assert len(board_results(board.pty_path, key)) == 1
        yield db, tournament, key, board
    finally:
        board.close()


def sync_saying(port: str, db: str, key: bytes) -> tuple[dict, list[str]]:
    """One sync: (its summary, what the laptop said of each result it stored)."""
    said: list[str] = []

    def store_result(board_id, pulled) -> str:
        said.append(desk(db).store_result(board_id, pulled))
        return said[-1]

    return sync(port, db, key, store_result=store_result), said


def board_results(port: str, key: bytes) -> list[int]:
    link = Link(port, key)
    try:
        link.hello()
        return link.call("R")["results"]
    finally:
        link.close()


class Raw:
    """The laptop's end at the frame level, for tests that send what `Link` never would:
    frames are written as given, replies read whole (bytes and decoded)."""

    def __init__(self, port: str, key: bytes | None) -> None:
        self.link = Link(port, key)

    def close(self) -> None:
        self.link.close()

    def hello(self) -> dict:
        return self.link.hello()

    def signed(self, seq: int, kind: str, payload: dict) -> bytes:
        """A frame tagged for this session (as Link makes them), with the sequence number
        given."""
        from rules_core import sync_protocol as sp

        body = sp.body(seq, kind, payload)
        return sp.frame(body, sp.tag(self.link.signer, self.link.session, body))

    def next_seq(self) -> int:
        self.link.seq = (self.link.seq + 1) & 0xFFFF
        return self.link.seq

    def exchange(self, frame: bytes, wait: float = 1.0, nak: bool = False) -> bytes:
        """Send one frame; the reply frame's bytes (b"" if none came). A NAK is passed over
        unless `nak`."""
        import time

        from rules_core import sync_protocol as sp

        self.link.serial.reset_input_buffer()
        self.link.serial.write(frame)
        got = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            got += self.link.serial.read(self.link.serial.in_waiting or 1)
            if got.endswith(b"\n") and got.rfind(b"~") >= 0:
                line = got[got.rfind(b"~"):]
                try:
                    kind = sp.decode(line[:-1])[1]
                except sp.FrameError:
                    continue
                if kind != sp.NAK or nak:
                    return line
        return b""

    @staticmethod
    def payload(reply: bytes) -> dict:
        from rules_core import sync_protocol as sp

        return sp.decode(reply[:-1])[2]
