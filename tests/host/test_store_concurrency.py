"""The store under concurrency: many processes opening a new store at once all get it, and a
store another command keeps locked says it is busy and which command to run again."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
import sys

import pytest

from host.tournament.store import Store
from host.tournament.store.schema import SCHEMA_VERSION, StoreError


def _open_when_told(path: str, go, outcomes) -> None:
    go.wait()
    try:
        with Store.open(path) as store:
            store.tournaments.all()
        outcomes.put("ok")
    except StoreError as error:
        outcomes.put(error.text)


def test_many_processes_opening_a_new_store_at_once_all_get_it(tmp_path):
    path = str(tmp_path / "new.db")
    context = multiprocessing.get_context("fork")
    go, outcomes = context.Event(), context.Queue()
    processes = [context.Process(target=_open_when_told, args=(path, go, outcomes))
                 for _ in range(24)]
    for process in processes:
        process.start()
    go.set()  # all at once, into the same empty file
    got = [outcomes.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(10)
    assert got == ["ok"] * len(processes)
    versions = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchall()
    assert sorted(v for (v,) in versions) == list(range(1, SCHEMA_VERSION + 1))  # each once


def test_a_locked_store_says_busy_and_which_command_to_retry(tmp_path, monkeypatch):
    path = tmp_path / "busy.db"
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another command in the middle of a long write
    try:
        monkeypatch.setattr("host.tournament.store.db.BUSY_SECONDS", 0.2)
        monkeypatch.setattr(sys, "argv", ["/usr/bin/pilkku", "results", "--db", str(path)])
        with pytest.raises(StoreError) as raised:
            with Store.open(path) as store:
                store.tournaments.all()
        assert "busy" in raised.value.text and "not a pilkku store" not in raised.value.text
        assert "pilkku results --db %s" % path in raised.value.text
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_the_busy_message_reaches_the_director_without_a_traceback(tmp_path):
    path = tmp_path / "busy2.db"
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import sys, host.tournament.store.db as d; "
             "d.BUSY_SECONDS = 0.2; "
             "from host.cli import main; sys.argv = ['pilkku', 'results', '--db', %r]; "
             "sys.exit(main())" % str(path)], capture_output=True, text=True, timeout=60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "busy" in said and "Traceback" not in said
    assert "pilkku results --db" in said
