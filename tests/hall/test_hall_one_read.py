"""One verified read of the results per store revision, shared by the hall, the desk and the
printouts (store/per_revision.py), and each match log replayed once, not at every look
(store/documents.py): a 64-player Kaisa night's night screen took 60-110 ms and its printouts
up to 245 ms, most of it every result verified and replayed again on every render. Nothing
stale is ever shown: a change of the store, by this process or another, a write rolled back,
another file moved in its place, is seen at the next read."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from host.hall.app import Hall
from host.tournament.store import Store, documents, per_revision
from host.tournament.store.results import Results
from rules_core import matchlog
from tests.hall import asgi
from tests.hall import night as nights

FLIP = ("UPDATE matches SET score1 = 0, score2 = 2, winner_id = player2_id "
        "WHERE code = 'R1-01'")
REASON = "UPDATE results SET reason = 'x' WHERE id = (SELECT min(id) FROM results)"


@pytest.fixture
def db(tmp_path) -> str:
    """A round robin of four with two results signed as a board signs them."""
    path = str(tmp_path / "night.db")
    tid = nights.cup(path)
    with Store.open(path) as store:
        nights.play(store, tid, "R1-01")
        nights.play(store, tid, "R1-02", 1)
    per_revision.forget()
    documents.forget()
    return path


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How many times the results were read and verified, and logs replayed, since."""
    counts = {"read": 0, "replay": 0}
    read, loads = Results._all, matchlog.loads

    def reading(self, *args):
        counts["read"] += 1
        return read(self, *args)

    def replaying(text):
        counts["replay"] += 1
        return loads(text)

    monkeypatch.setattr(Results, "_all", reading)
    monkeypatch.setattr(matchlog, "loads", replaying)
    return counts


def test_the_hall_the_desk_and_the_printouts_share_one_read_of_a_revision(db, counted):
    hall = Hall(db, None)
    from host.desk import app as desk

    app = desk.make(hall)
    for path in ("/desk", "/schedule.html", "/draw.html", "/results.html", "/print/draw",
                 "/print/results"):
        status, _page = asgi.get(hall, path, True, app=app)
        assert status == 200, path
    assert counted == {"read": 1, "replay": 2}  # the two logs, once


def test_a_new_revision_reads_again_without_replaying_the_logs(db, counted):
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        assert [r["verified"] for r in store.results.all(tid)] == [True, True]
        assert counted == {"read": 1, "replay": 2}
        with store.db.transaction() as conn:
            conn.execute(REASON)
        assert [r["verified"] for r in store.results.all(tid)] == [True, True]
    assert counted == {"read": 2, "replay": 2}  # verified again; the logs known


def test_a_boards_live_score_reads_nothing_again_and_a_result_does(db, counted, monkeypatch):
    """While boards play their live scores move the store's revision several times a second
    (the hall's and the desk's live pages follow it); what is read once per revision (the
    results verified, the engine, the desk's history of results) does not depend on them
    and is not read again for them. A result is read again at once."""
    from host.desk import app as desk
    from host.desk import views

    histories = []
    history = Results.history
    monkeypatch.setattr(Results, "history",
                        lambda self, *a: histories.append(1) or history(self, *a))
    hall = Hall(db, None)
    app = desk.make(hall)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        looked = store.db.revision()
        assert asgi.get(hall, "/desk", True, app=app)[0] == 200
        read, seen = counted["read"], len(histories)
        assert read == 1
        for score in ([1, 0], [2, 0], [2, 1]):
            store.live.put("pk-board", tid, 1, nights.live("R2-01", ["Ben", "Caisa"], score))
            status, page = asgi.get(hall, "/desk", True, app=app)
            assert status == 200 and "%d:%d" % tuple(score) in page  # the live score shown
        assert store.db.revision() > looked  # (the pages' pushes follow every live state)
        assert (counted["read"], len(histories)) == (read, seen)  # nothing read again
        assert views._needs_director(store, tid) == {}
        assert len(histories) == seen
        nights.play(store, tid, "R2-01")  # a result: everything read again
        assert asgi.get(hall, "/desk", True, app=app)[0] == 200
    assert counted["read"] == read + 1 and len(histories) > seen


def test_a_change_by_another_connection_is_seen_at_once(db):
    hall = Hall(db, None)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        assert store.results.all(tid)[0]["verified"] is True
        _status, before = asgi.get(hall, "/results.html")
        with sqlite3.connect(db) as other:  # the store's editor flips the score
            other.execute(FLIP)
        assert store.results.all(tid)[0]["verified"] is False
    _status, after = asgi.get(hall, "/results.html")
    assert "does not verify" not in before and "does not verify" in after


def test_a_write_rolled_back_leaves_nothing_behind(db):
    """A read inside a transaction sees its writes; rolled back, they are gone, and the next
    commit brings the store to the same revision number with other contents."""
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        assert store.results.all(tid)[0]["verified"] is True
        with pytest.raises(RuntimeError):
            with store.db.transaction() as conn:
                conn.execute(FLIP)
                assert store.results.all(tid)[0]["verified"] is False  # its own write
                raise RuntimeError("refused")
        with store.db.transaction() as conn:
            conn.execute(REASON)
        assert store.results.all(tid)[0]["reason"] == "x"
        assert store.results.all(tid)[0]["verified"] is True


def test_another_store_file_moved_in_its_place_is_read(db, tmp_path):
    """A copy of the store changed one way, the store another, each to the same revision;
    the copy moved over the store: the copy's results, not those kept of the store."""
    copy = str(tmp_path / "copy.db")
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as other:
        other.execute(FLIP)
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        with store.db.transaction() as conn:
            conn.execute(REASON)
        assert store.results.all(tid)[0]["verified"] is True
    shutil.move(copy, db)
    with Store.open(db) as store:
        assert store.results.all(tid)[0]["verified"] is False


def test_rows_handed_out_are_the_callers_to_change(db):
    with Store.open(db) as store:
        tid = store.tournaments.get()["id"]
        store.results.all(tid)[0]["verified"] = "changed by a caller"
        assert store.results.all(tid)[0]["verified"] is True


def test_a_drawn_formats_engine_is_rebuilt_once_a_revision_and_each_gets_a_copy(
        tmp_path, monkeypatch):
    """The draw page asks for the hakukaavio's engine twice (the draw, the standings), the
    printouts again: one rebuild from the store while the revision stays; a caller changing
    its engine changes nobody else's."""
    from host.tournament.night import engine as engines

    path = str(tmp_path / "haku.db")
    tid = nights.cup(path, "hakukaavio", players=["Pelaaja %d" % n for n in range(1, 9)])
    with Store.open(path) as store:
        nights.play(store, tid, "R1-01")
    per_revision.forget()
    rebuilt = []
    rebuild = engines._rebuilt
    monkeypatch.setattr(engines, "_rebuilt", lambda *a: rebuilt.append(1) or rebuild(*a))
    hall = Hall(path, None)
    for page in ("/draw.html", "/results.html", "/tv-draw.html"):
        assert asgi.get(hall, page)[0] == 200
    assert len(rebuilt) == 1
    with Store.open(path) as store:
        mine, _numbers = engines.engine_of(store, tid)
        mine.games.clear()
        theirs, _numbers = engines.engine_of(store, tid)
        assert theirs.games and len(rebuilt) == 1
        nights.play(store, tid, "R1-02")  # (its draw rebuilds it inside its transaction)
        rebuilt.clear()
        engines.engine_of(store, tid)
        engines.engine_of(store, tid)
    assert len(rebuilt) == 1  # the new revision's


def test_a_match_report_of_another_store_in_the_same_place_has_its_own_figures(tmp_path):
    """The figures of a result (host/hall/data.py) are kept by its document: another store
    moved in the same place, its result 1 of the same size but another match, shows its own
    (they were kept by the store's path, the result's id and the document's length)."""
    from host.hall import data

    shown = []
    for winner in (0, 1):
        path = str(tmp_path / ("night-%d.db" % winner))
        tid = nights.cup(path)
        with Store.open(path) as store:
            nights.play(store, tid, "R1-01", winner)
        place = str(tmp_path / "night.db")
        shutil.move(path, place)
        with Store.open(place) as store:
            t = data.tournament(store, None)
            document = store.results.current("R1-01", tid)["document"]
            shown.append((len(document), data.report(store, t, "R1-01")["players"]))
    (size0, first), (size1, second) = shown
    assert size0 == size1  # the same size: only the contents tell them apart
    assert [p["name"] for p in first] == [p["name"] for p in second]
    assert first != second
