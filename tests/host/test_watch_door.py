"""The watcher's door (host/sync/door.py) refused plainly, nothing started: a second
`pilkku sync --watch` on a store one already watches, and a runtime folder that lies too deep
for the door's socket (a path of at most 107 bytes, which Linux's bind refused before with
"AF_UNIX path too long")."""

from __future__ import annotations

import contextlib
import io

from sync_setup import make_store
from watch_setup import runtime_folder, watching

from host import cli
from host.sync import door


def _watch(db: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["sync", "--watch", "--db", db])
    return code, out.getvalue()


def test_a_second_watcher_on_the_same_store_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_folder()))
    db, _t, _key = make_store(tmp_path / "cup.db")
    with watching(db, []):
        code, said = _watch(db)
    assert code == 2, said
    assert "runs on this store already" in said and "Traceback" not in said


def test_a_runtime_folder_too_deep_for_the_door_says_what_to_do(tmp_path, monkeypatch):
    deep = runtime_folder() / ("d" * 50) / ("e" * 50)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(deep))
    db, _t, _key = make_store(tmp_path / "cup.db")
    assert len(bytes(door.address(db))) > door.SOCKET_PATH_MAX
    code, said = _watch(db)
    assert code == 2, said
    assert "lies too deep" in said and "set XDG_RUNTIME_DIR to a shorter folder" in said
    assert "Traceback" not in said and not deep.exists()  # nothing made there
