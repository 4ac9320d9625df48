"""What the watcher's tests share: the watcher (`pilkku sync --watch`'s, host/sync/watch.py)
running in a thread with its door open, what it said, waits for what the store shows, a
cable whose board end can be unplugged, plugged into another board, or held; virtual boards
announced in a test's own folder, plugged in again on another pty, or on a cable, and an
older firmware (tests/host/test_watch_*.py, tests/desk's boards tests, tests/e2e's nights)."""

from __future__ import annotations

import fcntl
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from host.board import firmware_image, registry
from host.board.virtual_board import VirtualBoard
from host.sync import door
from host.sync import watch as watch_module
from host.sync.watch import Watcher
from host.tournament.store import Store
from tests.host.sync_setup import make_board, make_store

LIMIT_S = 90.0  # a safety net only: every wait ends at the event it waits for
OLD = "older0000000"  # the version of older(firmware)


def until(check: Callable[[], object], what: str, limit: float = LIMIT_S) -> object:
    """Wait for `check()` to be true (its value), looking every 0.1 s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("never came: %s" % what)


def row(db: str, board: str) -> dict | None:
    """The board's row in the store's live table (any tournament)."""
    with Store.open(db) as store:
        found = store.db.conn.execute(
            "SELECT board_id, tournament_id, table_number, state, answered_ms, silent FROM live "
            "WHERE board_id = ?", (board,)).fetchone()
    return dict(found) if found else None


@contextmanager
def watching(db: str, said: list[str], **options) -> Iterator[Watcher]:
    """The watcher of the store's newest tournament, every board found, its door open."""
    watcher = Watcher(db, say=said.append, **options)
    entrance = door.Door(db, watcher.handle)
    entrance.open()
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    try:
        yield watcher
    finally:
        watcher.stop.set()
        thread.join(timeout=20)
        entrance.close()


def announce(folder: Path, board: VirtualBoard) -> None:
    """The virtual board announced in `folder`, where pilkku looks for this machine's
    virtual boards (host/board/registry.py), its old port's entry gone."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.port"):
        if old.read_text() == board.pty_path:
            old.unlink()
    assert board.process is not None
    (folder / ("%d.port" % board.process.pid)).write_text(board.pty_path)


def announcing(tmp_path: Path, monkeypatch, firmware: dict[str, bytes]
               ) -> Callable[[VirtualBoard], None]:
    """Virtual boards announced in this test's own folder (as `pilkku board start` does:
    announce(board) with what it returns); the watchers' doors in its runtime folder; the
    laptop's firmware (what the watcher and the desk compare with, its version_of, what a
    flash installs) the test module's `firmware` (others may be editing the sources meanwhile,
    as tests/host/test_flash.py pins it)."""
    monkeypatch.setattr(firmware_image, "image", lambda arch=None, platform=None: firmware)
    monkeypatch.setattr(firmware_image, "version_of",
                        lambda platform=None, compiled=True: firmware_image.version(firmware))
    folder = tmp_path / "announced"
    folder.mkdir()
    monkeypatch.setattr(registry, "VIRTUAL_BOARDS", folder)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_folder()))
    return lambda board: announce(folder, board)


def runtime_folder() -> Path:
    """A test's own runtime folder (XDG_RUNTIME_DIR: its watchers' doors, its announced
    boards), in the run's (tests/conftest.py): a test's tmp_path can lie too deep for a
    door's socket path (107 bytes), in a second worker's tmp_path above all."""
    return Path(tempfile.mkdtemp(prefix="rt-", dir=os.environ.get("PILKKU_TESTS_RUNTIME")))


def older(firmware: dict[str, bytes]) -> dict[str, bytes]:
    """`firmware` stamped with another version (OLD): a board the laptop would flash."""
    files = dict(firmware)
    files[firmware_image.VERSION_FILE] = ("VERSION = %r\n" % OLD).encode()
    return files


def taking(name: str) -> list[int]:
    """Ptys opened until one has `name` (or forty are): their file descriptors, to close once
    the board unplugged has come back on another pty."""
    held: list[int] = []
    for _ in range(40):
        master, slave = os.openpty()
        held += [master, slave]
        if os.ttyname(slave) == name:
            break
    return held


def plugged_in_again(folder: Path, old: str) -> tuple[VirtualBoard, list[int]]:
    """The board of `folder` started again on a pty other than `old`, as a board plugged
    into another USB socket: (the board, the ptys held meanwhile, to close once pilkku has
    found it). Tried again if another process let the old name go while the board started
    (others' tests take ptys too)."""
    held: list[int] = []
    for _ in range(5):
        held += taking(old)
        board = VirtualBoard(folder)
        board.start()
        board.run(100)
        if board.pty_path != old:
            return board, held
        board.close()
    raise AssertionError("the board came back on %s five times" % old)


class Replugged:
    """A cup of two tables (make_store's) and its board pk-a at `table`, announced, that the
    test unplugs and plugs in again on another pty (replugging): `board` is the one plugged
    in now, `said` what the watcher the test runs says."""

    def __init__(self, tmp_path: Path, firmware: dict[str, bytes], announced, table: int
                 ) -> None:
        self.db, _t, key = make_store(tmp_path / "cup.db", tables=2)
        self.folder = tmp_path / "a"
        self.announced = announced
        self.board = make_board(self.folder, firmware, key, table=table, board_id="pk-a")
        self.said: list[str] = []
        self.spare: list[int] = []  # ptys held so that the board comes back on another
        announced(self.board)

    def unplug(self) -> str:
        """The board unplugged: its port is gone (its name taken meanwhile); the port."""
        old = self.board.pty_path
        self.board.close()
        self.spare += taking(old)
        return old

    def plug_in_again(self, old: str) -> VirtualBoard:
        """The board plugged in again on a pty other than `old`, announced there."""
        self.board, held = plugged_in_again(self.folder, old)
        self.spare += held
        self.announced(self.board)
        return self.board

    def close(self) -> None:
        self.board.close()
        for fd in self.spare:
            os.close(fd)


@contextmanager
def replugging(tmp_path: Path, firmware: dict[str, bytes], announced, table: int
               ) -> Iterator[Replugged]:
    """A Replugged board, closed after (with the ptys held)."""
    plug = Replugged(tmp_path, firmware, announced, table)
    try:
        yield plug
    finally:
        plug.close()


class Cable:
    """A USB-serial adapter and its cable: the laptop's end, `port`, a pty that stays; the
    board's end plugged into a board's port, unplugged, plugged into another board; and held
    (bytes kept back both ways, as a busy laptop's kernel keeps a pty's bytes) and let go."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.board = -1
        self.lock = threading.Lock()
        self.holding = False
        self.kept: list[tuple[int, bytes]] = []
        self.running = True
        self.thread = threading.Thread(target=self._carry, daemon=True)
        self.thread.start()

    def plug(self, board_port: str) -> None:
        fd = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        for _ in range(100):  # a cable just unplugged from it lets go within its select()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.05)
        tty.setraw(fd)
        with self.lock:
            self.board = fd

    def unplug(self) -> None:
        with self.lock:
            if self.board >= 0:
                os.close(self.board)
            self.board = -1

    def hold(self) -> None:
        with self.lock:
            self.holding = True

    def let_go(self) -> None:
        with self.lock:
            self.holding = False
            kept, self.kept = self.kept, []
            for target, data in kept:
                self._write(target, data)

    def _write(self, target: int, data: bytes) -> None:
        if target == -1:  # to the board: whichever is plugged in now
            target = self.board
        if target >= 0:
            try:
                os.write(target, data)
            except OSError:
                pass

    def _carry(self) -> None:
        while self.running:
            with self.lock:
                ends = [fd for fd in (self.master, self.board) if fd >= 0]
            try:
                ready = select.select(ends, [], [], 0.05)[0]
            except (OSError, ValueError):
                continue
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                with self.lock:
                    target = -1 if fd == self.master else self.master
                    if fd != self.master and fd != self.board:
                        continue  # unplugged meanwhile
                    if self.holding:
                        self.kept.append((target, data))
                    else:
                        self._write(target, data)

    def close(self) -> None:
        self.running = False
        self.thread.join()  # first: polling a closed fd's number, it took the next file's bytes
        self.unplug()
        os.close(self.master)
        os.close(self.slave)


@contextmanager
def on_a_cable(tmp_path: Path, firmware: dict[str, bytes], monkeypatch
               ) -> Iterator[tuple[str, dict, VirtualBoard, Cable]]:
    """A cup of one table (make_store's) and its board pk-a at table 1, plugged in through a
    Cable whose port is the only one the watcher finds: (db, tournament, board, cable); both
    closed after."""
    db, tournament, key = make_store(tmp_path / "cup.db")
    board = make_board(tmp_path / "a", firmware, key, table=1, board_id="pk-a")
    cable = Cable()
    monkeypatch.setattr(watch_module, "found_ports", lambda: [cable.port])
    try:
        cable.plug(board.pty_path)
        yield db, tournament, board, cable
    finally:
        cable.close()
        board.close()
