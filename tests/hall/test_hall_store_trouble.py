"""A store the hall cannot read (no tournament yet, busy, replaced) is said once on the
terminal, not at every look (the desk started on an empty store printed a line five times a
second until the director made a tournament); said again when the trouble changes."""

from __future__ import annotations

import asyncio

from host.hall import app
from host.hall.app import Hall
from host.tournament.store import Store


def test_the_same_trouble_is_said_once_and_a_new_one_again(tmp_path, monkeypatch, capsys):
    db = tmp_path / "empty.db"
    Store.open(db).close()
    hall = Hall(str(db), None)
    looks = []
    troubles = ["no tournament yet"] * 20 + ["the store is busy"] * 5 + [None] + \
        ["no tournament yet"] * 3

    def changed():
        looks.append(1)
        trouble = troubles[len(looks) - 1]
        if trouble is not None:
            raise RuntimeError(trouble)
        return {}

    monkeypatch.setattr(hall, "changed", changed)
    monkeypatch.setattr(app, "POLL_S", 0)

    async def watch_until_every_look_is_done():
        watching = asyncio.ensure_future(app._watch_store(hall))
        while len(looks) < len(troubles):
            await asyncio.sleep(0)
        watching.cancel()

    asyncio.run(watch_until_every_look_is_done())
    said = [line for line in capsys.readouterr().err.splitlines() if line]
    assert said == ["pilkku hall: could not read the store (%s); trying again" % t for t in (
        "no tournament yet", "the store is busy", "no tournament yet")]
