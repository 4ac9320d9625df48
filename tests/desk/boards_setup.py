"""What the desk's boards tests share (test_desk_boards*.py; their fixtures firmware and
announced are tests/conftest.py's, the boards announced and their older firmware
tests/host/watch_setup.py's): the desk's app over the running watcher and its boards page as
pushed, a board's table in the store, a flash held at its first chunk, and an older board
live at the desk."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from host.board.virtual_board import VirtualBoard
from host.desk.app import make
from host.hall.app import Hall
from host.tournament.store import Store
from tests.desk.client import Browser
from tests.hall.asgi import text
from tests.host.sync_setup import make_board, make_store
from tests.host.watch_setup import OLD, older, until, watching


class Desk:
    """The desk's app over the running watcher, the director's browser at it, and the
    boards page as its event stream pushes it."""

    def __init__(self, db: str, watcher) -> None:
        self.hall = Hall(db, None)
        self.app = make(self.hall, watcher)
        self.browser = Browser(self.app, self.hall)
        self.hall.clients["boards"] = {asyncio.Queue()}  # the open page, following its stream

    def pushed(self) -> str:
        """The boards page's <main> as last pushed to the open page."""
        self.hall.changed()
        return self.hall.sent.get("boards", "")

    def row(self, board: str) -> str:
        return text(self.pushed(), "b-" + board)

    def shows(self, board: str, *words: str, table: int | None = None) -> str:
        """The board's row once it shows `words` (and is at `table`: its first sync done)."""
        start = "%s %s" % (table, board) if table is not None else ""

        def row() -> str | None:
            shown = self.row(board)
            return shown if shown.startswith(start) and all(w in shown for w in words) \
                else None
        return until(row, "board %s shown with %s" % (board, words))  # type: ignore[return-value]


def table_of(db: str, board: str) -> int | None:
    """The board's table in the store (None: not paired with the tournament)."""
    with Store.open(db) as store:
        rows = {b["board_id"]: b["table"] for b in store.boards.all(store.tournaments.get()["id"])}
    return rows.get(board)


@contextmanager
def an_older_board(tmp_path, firmware: dict[str, bytes], announced
                   ) -> Iterator[tuple[VirtualBoard, Desk]]:
    """A tournament of one table and its board pk-b on an older firmware (OLD), announced,
    under the watcher: (the board, the desk) once the page shows it live at table 1."""
    db, _t, key = make_store(tmp_path / "cup.db", tables=1)
    b = make_board(tmp_path / "b", older(firmware), key, table=1, board_id="pk-b")
    try:
        announced(b)
        with watching(db, [], interval=0.3) as watcher:
            desk = Desk(db, watcher)
            desk.shows("pk-b", "live", OLD, table=1)
            yield b, desk
    finally:
        b.close()


def hold_the_flash(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """`pilkku flash`'s flash held at its first chunk written: (set when it is there, set
    this to let it go on)."""
    from host.board import flash as flash_module

    first_chunk, go_on = threading.Event(), threading.Event()
    real = flash_module.flash

    def held(port, say=print, on_chunk=None, **options):
        def chunk(path: str, written: int, size: int) -> None:
            if on_chunk is not None:
                on_chunk(path, written, size)
            if not first_chunk.is_set():
                first_chunk.set()
                go_on.wait(60)
        return real(port, say, chunk, **options)

    monkeypatch.setattr(flash_module, "flash", held)
    return first_chunk, go_on
