"""The running watcher's door. `pilkku sync --watch` holds its boards' ports (each opened
exclusively), so the other pilkku commands on the same store ask it instead of opening them:
`pilkku sync` asks it to sync now and prints what it did; `pilkku pair` borrows a port for as
long as it writes the key, `pilkku flash` for as long as it flashes (from every watcher of
the user's: it names no store).

The door is a Unix socket in the user's runtime folder, named after the store (its real
path, hashed: a socket's name is short, a store's path need not be), made by the watcher with
permissions 0600 and used by a client only if its own user owns it. One JSON line asks; the
watcher answers in JSON lines:

    {"do": "sync", "ports": [...] or null, "table": n or null, "tournament": name or null}
        -> {"say": text} ... (what the sync says, as it goes)
        -> {"done": true, "synced": n, "stored": n, "duplicates": n, "kept": n,
            "damaged": n, "failed": [text ...], "refused": n, "tournament": name}
    {"do": "lend", "port": P, "sync": true or false}
        -> {"say": text} ... (with "sync": the board held on P is synced first, as it goes)
        -> {"lent": true, "synced": what the sync-first did, or null}
                            the watcher has let go of P; it takes it up again when the
                            borrower closes its end (or dies: the kernel closes it)
        -> {"error": text}  it could not (lent already, the board would not let go)

A client that finds no door (or a door no one answers: a watcher that died) is told None and
does the work itself. Answers are waited for as long as the watcher keeps talking: it says
each step of a sync, and a quiet door for ANSWER_S means a watcher that hangs."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from host.i18n import _, language
from host.tournament.store.schema import default_path

LINE_MAX = 65536  # bytes of one line: a request is small, a said line too
ANSWER_S = 300.0  # seconds a client waits for the watcher's next line before giving up
SOCKET_PATH_MAX = 107  # bytes of a Unix socket's path on Linux (sun_path: 108 with its NUL)


class DoorError(RuntimeError):
    """The watcher's door is there and answered, but not as it should (says what to do)."""


def address(db: str | None) -> Path:
    """Where the door of the watcher of store `db` is."""
    store = os.path.realpath(db or default_path())
    runtime = Path(os.environ.get("XDG_RUNTIME_DIR") or "/tmp")
    return runtime / ("pilkku-watch-%s.sock" % hashlib.sha256(store.encode()).hexdigest()[:16])


def _lines(conn: socket.socket) -> Iterator[dict]:
    """The JSON lines coming on `conn` until it closes (a line not JSON ends it)."""
    buffer = b""
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                item = json.loads(line)
            except ValueError:
                return
            if isinstance(item, dict):
                yield item
        if len(buffer) > LINE_MAX:
            return


def send(conn: socket.socket, item: dict) -> None:
    conn.sendall(json.dumps(item, ensure_ascii=False).encode() + b"\n")


Handler = Callable[[dict, socket.socket], None]


class Door:
    """The watcher's end: `open()` makes the socket (WatcherRuns if another watcher answers
    there), then each connection is handled by `handle(request, conn)` in a thread of its
    own; `close()` takes the socket away."""

    def __init__(self, db: str | None, handle: Handler) -> None:
        self.path = address(db)
        self.handle = handle
        self.sock: socket.socket | None = None

    def open(self) -> None:
        if _connect(self.path) is not None:
            raise DoorError(_("a `pilkku sync --watch` runs on this store already (its door: "
                              "%(door)s): it keeps the boards in sync; stop it first to start "
                              "another") % {"door": self.path})
        if len(os.fsencode(self.path)) > SOCKET_PATH_MAX:
            raise DoorError(_("the runtime folder %(folder)s lies too deep for the watcher's "
                              "door (a socket's path is at most %(most)d bytes): set "
                              "XDG_RUNTIME_DIR to a shorter folder") % {
                                  "folder": self.path.parent, "most": SOCKET_PATH_MAX})
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a watcher's that died: no one answers there
        self.path.parent.mkdir(parents=True, exist_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # 0600 from the start: no moment open to other users
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        sock.listen(8)
        self.sock = sock
        threading.Thread(target=self._accept, args=(sock,), daemon=True).start()

    def _accept(self, sock: socket.socket) -> None:
        while True:
            try:
                conn, _address = sock.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(10.0)  # the request comes at once, or not at all
                request = next(_lines(conn), None)
                conn.settimeout(None)
                if request is not None:
                    self.handle(request, conn)
            except OSError:
                pass  # the client went away: nothing to answer

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()


def _connect(path: Path) -> socket.socket | None:
    """A connection to the door at `path`, or None: none there, no one answers, or not the
    user's own (someone else's socket is never talked to)."""
    try:
        if os.stat(path).st_uid != os.getuid():
            return None
    except OSError:
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except OSError:
        conn.close()
        return None
    return conn


def ask(db: str | None, request: dict, heard: Callable[[dict], None]) -> dict | None:
    """Ask the watcher of store `db`; each line it says goes to `heard`, its last answer
    ({"done": ...}) is returned. None: no watcher runs on this store. DoorError: it stopped
    answering (or went away) before it was done."""
    conn = _connect(address(db))
    if conn is None:
        return None
    with conn:
        try:
            conn.settimeout(ANSWER_S)
            send(conn, request)
            for item in _lines(conn):
                if item.get("done") is True:
                    return item
                heard(item)
        except TimeoutError:
            raise DoorError(_("the running `pilkku sync --watch` said nothing for %(seconds)d "
                              "s: it may hang; stop it (Ctrl-C) and run the command again")
                            % {"seconds": ANSWER_S}) from None
        except OSError as error:
            raise DoorError(_("the running `pilkku sync --watch` went away (%(error)s): run "
                              "the command again") % {"error": error}) from None
    raise DoorError(_("the running `pilkku sync --watch` stopped before it was done: run the "
                      "command again"))


@contextlib.contextmanager
def borrowed(db: str | None, port: str, sync: bool = False,
             heard: Callable[[str], None] | None = None) -> Iterator[dict | None]:
    """Borrow `port` from the watcher of store `db` for the duration (yields its answer:
    {"lent": true, "synced": what its sync-first did, or None}), or yields None when no
    watcher runs there. `sync`: the board the watcher holds there is synced first (a flash);
    what that sync says goes to `heard`. DoorError: it would not lend it."""
    with _borrowed_at(address(db), port, sync, heard) as answer:
        yield answer


@contextlib.contextmanager
def _borrowed_at(path: Path, port: str, sync: bool,
                 heard: Callable[[str], None] | None) -> Iterator[dict | None]:
    conn = _connect(path)
    if conn is None:
        yield None
        return
    with conn:
        try:
            conn.settimeout(ANSWER_S)
            send(conn, {"do": "lend", "port": port, "sync": sync})
            answer = None
            for item in _lines(conn):
                if "say" in item:
                    if heard is not None:
                        heard(str(item["say"]))
                    continue
                answer = item
                break
        except OSError as error:
            raise DoorError(_("the running `pilkku sync --watch` did not lend %(port)s "
                              "(%(error)s): stop it and run the command again") % {
                                  "port": port, "error": error}) from None
        if answer is None or answer.get("lent") is not True:
            raise DoorError(_("the running `pilkku sync --watch` did not lend %(port)s: "
                              "%(why)s") % {"port": port, "why": (answer or {}).get(
                                  "error", _("it said nothing"))})
        if heard is not None and isinstance(answer.get("synced"), str):
            heard("%s: %s" % (port, answer["synced"]))
        yield answer


@contextlib.contextmanager
def borrowed_from_every_watcher(port: str, sync: bool = False,
                                heard: Callable[[str], None] | None = None) -> Iterator[int]:
    """Borrow `port` from every watcher of this user that runs (`pilkku sync --watch` or
    `pilkku desk`, whatever its store: a command that names no store, `pilkku flash`, cannot
    know which holds the port); yields how many lent it. DoorError: one would not."""
    runtime = address(None).parent
    with contextlib.ExitStack() as stack:
        lent = 0
        for path in sorted(runtime.glob("pilkku-watch-*.sock")):
            if stack.enter_context(_borrowed_at(path, port, sync, heard)) is not None:
                lent += 1
        yield lent


def ask_to_sync(db: str | None, ports: list[str] | None, table: int | None,
                tournament: str | None) -> int | None:
    """`pilkku sync` while `pilkku sync --watch` runs on store `db`: the watcher, which holds
    the boards' ports, is asked to sync now, and what it did is printed as a sync of the
    command's own would be; the command's exit status. None: no watcher runs there (the
    command syncs the boards itself)."""
    started = time.monotonic()
    try:
        answer = ask(db, {"do": "sync", "ports": ports, "table": table,
                          "tournament": tournament},
                     lambda item: print(item.get("say", ""), flush=True))
    except DoorError as error:
        print("pilkku sync: %s" % error)
        return 1
    if answer is None:
        return None
    if "error" in answer:
        print("pilkku sync: %s" % answer["error"])
        return 2
    failed, refused, damaged = answer["failed"], answer["refused"], answer["damaged"]
    for why in failed:
        print(why)
    seconds = "%.1f" % (time.monotonic() - started)
    print(_("synced %(boards)d board(s) in %(seconds)s s, by the running `pilkku sync --watch` "
            "(it holds the boards): %(stored)d result(s) stored, %(duplicates)d already "
            "stored, %(kept)d kept on the boards; %(tail)s") % {
                "boards": answer["synced"], "stored": answer["stored"],
                "seconds": seconds if language() == "en" else seconds.replace(".", ","),
                "duplicates": answer["duplicates"], "kept": answer["kept"],
                "tail": "; ".join(filter(None, (
                    _("%(count)d came damaged: their bytes are stored, pilkku results says "
                      "what to do") % {"count": damaged} if damaged else "",
                    _("%(count)d failed: see above") % {"count": len(failed)} if failed else "",
                    _("%(count)d refused a table (see above)") % {"count": refused}
                    if refused else ""))) or _("all done")})
    return 1 if failed or refused else 0
