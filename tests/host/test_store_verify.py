"""The store's checks on results (host/tournament/store/results.py, chain.py) at their edges: the
director reads why a log was refused word for word; a result is found in its own tournament;
a damaged document is shown, not a crash; and a result verifies only when its signature, its
times and its outcome all hold, however the file was changed, even by someone holding the key
(a director's entry re-signed with a shape no director writes)."""

from __future__ import annotations

import json

import pytest
from test_store import PLAYERS, dump, log_text, sign

from host.tournament import night
from host.tournament.store import ResultRefused, Store
from host.tournament.store.chain import link_mac
from host.tournament.store.results import DIRECTOR
from rules_core import canon
from rules_core import sync_protocol as sp

BOARD = "pk-7"


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "verify.db") as opened:
        yield opened


def tournament(store: Store, name: str, players=PLAYERS[:4]) -> int:
    tid = night.new_tournament(store, name, "9ball", 2)
    night.import_players(store, tid, [(i + 2, player, "") for i, player in enumerate(players)])
    return tid


def round_robin(store: Store, name: str = "Cup") -> int:
    tid = tournament(store, name)
    night.draw_round_robin(store, tid)
    return tid


def chained(store: Store, tid: int, code: str, text: str, n: int = 1, prev: str = "",
            started=None, ended=None) -> str:
    """The result delivered as a board's link #n, as `pilkku sync` takes it; its MAC."""
    mac = link_mac(store.tournaments.key(tid), BOARD, n, prev, text.encode())
    assert store.chains.record(tid, BOARD, n, prev, mac, text) is True
    assert night.record_result(store, code, text, BOARD, mac, started, ended, tournament_id=tid,
                               chain_n=n) is True
    return mac


def verified(store: Store, tid: int) -> list:
    return [row["verified"] for row in store.results.all(tid)]


# -- refusals, word for word ------------------------------------------------------------------

@pytest.mark.parametrize("make, says", [
    (lambda: "{not json", "the result for R1-01 is not a pilkku match log (not JSON)"),
    (lambda: json.dumps({"format": "pilkku.match/1", "events": []}),
     "the log for R1-01 does not replay: settings: settings must be an object"),
    (lambda: log_text(["Anna", "Ben"], [2, 0]),
     "the log names Anna and Ben; match R1-01 is Anna vs Dan"),
    (lambda: log_text(["Dan", "Ben"], [2, 0]),
     "the log names Dan and Ben; match R1-01 is Anna vs Dan"),
    (lambda: log_text(["Ben", "Anna"], [2, 0]),
     "the log names Ben and Anna; match R1-01 is Anna vs Dan"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], game="8ball"),
     "the log is a 8ball match; the tournament plays 9ball"),
    (lambda: log_text(["Anna", "Dan"], [3, 0], race=3),
     "the log is a race to 3; the tournament's is 2"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], rules={"break_rule": "alternate"}),
     "the log was played with other ruleset options than the tournament's"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], finish=False),
     "match R1-01 is not finished in the log"),
    (lambda: log_text(["Anna", "Dan"], [2, 0], meta={"match_id": "R2-01"}),
     "the log is for match R2-01, not R1-01"),
])
def test_a_refused_log_says_exactly_why_and_changes_nothing(store, make, says):
    round_robin(store)
    before = dump(store.path)
    with pytest.raises(ResultRefused) as refused:
        night.record_result(store, "R1-01", make(), "pk-1", None, None, None)
    assert str(refused.value) == says
    assert dump(store.path) == before


def test_a_second_result_and_a_match_without_players_are_refused_saying_what_to_do(store):
    tid = round_robin(store)
    night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [2, 0]), "pk-1", None, None, None)
    received = store.results.current("R1-01")["received"]
    with pytest.raises(ResultRefused) as refused:
        night.record_result(store, "R1-01", log_text(["Anna", "Dan"], [0, 2]), "pk-2", None, None,
                            None)
    assert str(refused.value) == (
        "match R1-01 has a result already (from board pk-1, received %s); a different log is "
        "not taken: to replace it, pilkku correct R1-01 --log FILE --reason TEXT" % received)
    cup_tid = tournament(store, "Knockout", PLAYERS)
    night.draw_bracket(store, cup_tid)
    with pytest.raises(ResultRefused) as refused:
        night.record_result(store, "R3-01", log_text(["Anna", "Ben"], [2, 0]), "pk", None, None,
                            None, tournament_id=cup_tid)
    assert str(refused.value) == "match R3-01 has no players yet: it waits for earlier matches"
    assert tid != cup_tid


def test_a_result_whose_link_is_another_document_is_refused(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 0], meta={"match_id": "R1-01"})
    mac = link_mac(store.tournaments.key(tid), BOARD, 1, "", text.encode())
    store.chains.record(tid, BOARD, 1, "", mac, text)
    other = log_text(["Anna", "Dan"], [0, 2], meta={"match_id": "R1-01"})
    before = dump(store.path)
    for document, signature, n in ((other, mac, 1), (text, "00" * 32, 1), (text, mac, 2)):
        with pytest.raises(ResultRefused) as refused:
            night.record_result(store, "R1-01", document, BOARD, signature, None, None,
                                tournament_id=tid, chain_n=n)
        assert str(refused.value) == "the result for R1-01 is not the one board pk-7 signed " \
                                     "as #%d" % n
    assert dump(store.path) == before
    with pytest.raises(ResultRefused) as refused:
        store.chains.record(tid, BOARD, 1, "", mac, other)
    assert str(refused.value) == (
        "board pk-7 sent another result #1 than the one stored: its chain of results was "
        "restarted or forged; the result stays on the board (see docs/security.md)")


# -- finding and showing a result -----------------------------------------------------------

def test_a_result_is_found_in_its_own_tournament(store):
    old = round_robin(store)
    new = round_robin(store, "Cup 2")  # R1-01 is Anna vs Dan in both
    text = log_text(["Anna", "Dan"], [2, 1])
    night.record_result(store, "R1-01", text, "pk-1", None, 5, 6, tournament_id=old)
    found = store.results.current("R1-01", old)
    assert found is not None and found["document"] == text and found["board_id"] == "pk-1"
    assert (found["started"], found["ended"], found["kind"]) == (5, 6, "manual")
    assert store.results.current("R1-01", new) is None and store.results.current("R1-01") is None


def test_a_damaged_document_is_shown_and_fails_verification(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    night.record_result(store, "R1-01", text, "pk-1", sign(store.tournaments.key(tid), text),
                        None, None)
    damaged = text.encode().replace(b'"Anna"', b'"\xffnna"', 1)
    store.db.conn.execute("UPDATE results SET document = ?", (damaged,))
    shown = store.results.current("R1-01", tid)
    assert shown["document"] == damaged.decode("utf-8", "replace")
    assert "\ufffdnna" in shown["document"]
    assert verified(store, tid) == [False]


# -- verification ----------------------------------------------------------------------------

def test_a_board_log_without_meta_verifies(store):
    tid = round_robin(store)
    doc = json.loads(log_text(["Anna", "Dan"], [2, 1]))
    del doc["meta"]  # meta is optional in a match log (docs/match-log.md)
    chained(store, tid, "R1-01", canon.dumps(doc))
    assert verified(store, tid) == [True]


def test_a_board_result_whose_link_is_gone_does_not_verify(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"started": 10, "ended": 20})
    chained(store, tid, "R1-01", text, started=10, ended=20)
    store.db.conn.execute("DELETE FROM board_links")
    key = store.tournaments.key(tid)
    assert store.results.verify(store.results.current("R1-01", tid)["id"], key) \
        is False
    assert verified(store, tid) == [False]


def test_a_board_log_verifies_only_with_the_times_it_signed(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"started": 10, "ended": 20})
    chained(store, tid, "R1-01", text, started=10, ended=20)
    assert verified(store, tid) == [True]
    store.db.conn.execute("UPDATE results SET started = 11")
    assert verified(store, tid) == [False]


def test_a_result_moved_to_other_players_does_not_verify(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    night.record_result(store, "R1-01", text, "pk-1", sign(store.tournaments.key(tid), text),
                        None, None)
    ben = store.db.conn.execute("SELECT id FROM players WHERE name = 'Ben'").fetchone()[0]
    store.db.conn.execute("UPDATE matches SET player1_id = ?, winner_id = ? WHERE code = 'R1-01' "
                       "AND tournament_id = ?", (ben, ben, tid))
    rows = store.results.all(tid)
    assert [(r["player1"], r["verified"]) for r in rows] == [("Ben", False)]


@pytest.mark.parametrize("shape", [
    {"score": 5, "winner": 1},
    {"score": [2, 0, 5], "winner": 1},
    {"score": [2, 0], "winner": 3},
    {"score": ["2", 0], "winner": 1},
    {"score": [2], "winner": 1},
])
def test_a_directors_entry_resigned_in_a_shape_no_director_writes_does_not_verify(store, shape):
    tid = round_robin(store)
    night.walkover(store, tid, "R1-01", "Anna", "Dan did not come")
    assert verified(store, tid) == [True]
    key = store.tournaments.key(tid)
    entry = dict({"format": DIRECTOR, "kind": "walkover", "match_id": "R1-01",
                  "reason": "x"}, **shape)
    document = canon.dumps(entry).encode()
    store.db.conn.execute("UPDATE results SET document = ?, hmac = ?",
                       (document, sign(key, document.decode())))
    assert store.results.verify(store.results.current("R1-01", tid)["id"], key) is False
    assert verified(store, tid) == [False]
    history = store.results.history(tid)
    assert [(h["score1"], h["score2"], h["winner"]) for h in history] == [(None, None, None)]


@pytest.mark.parametrize("document", [b"[1, 2]", b"{not json", b'"text"'])
@pytest.mark.parametrize("replaced", [False, True])
def test_a_board_result_resigned_as_no_match_log_does_not_verify(store, document, replaced):
    """Someone with the key signs something that is no match log under a board's link: the
    result (current, or replaced and kept in the history) does not verify; nothing crashes."""
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"started": 10, "ended": 20})
    chained(store, tid, "R1-01", text, started=10, ended=20)
    old = store.results.current("R1-01", tid)["id"]
    if replaced:
        night.correct(store, tid, "R1-01", "the scorer's slip", score=(1, 2))
    key = store.tournaments.key(tid)
    mac = link_mac(key, BOARD, 1, "", document)
    store.db.conn.execute("UPDATE results SET document = ?, hmac = ? WHERE id = ?",
                       (document, mac, old))
    assert store.results.verify(old, key) is False
    assert [h["verified"] for h in store.results.history(tid) if h["result"] == old] == [False]


def test_a_deleted_result_names_its_link(store):
    tid = round_robin(store)
    first = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    mac = chained(store, tid, "R1-01", first)
    code = next(m["code"] for m in store.matches.all(tid) if m["code"] != "R1-01"
                and {m["player1"], m["player2"]} == {"Ben", "Cid"})
    match = next(m for m in store.matches.all(tid) if m["code"] == code)
    chained(store, tid, code, log_text([match["player1"], match["player2"]], [2, 0],
                                       meta={"match_id": code}), n=2, prev=mac)
    assert store.chains.problems(tid) == ([], set())
    store.db.conn.execute("DELETE FROM results WHERE chain_n = 2")
    assert store.chains.problems(tid) == (
        ["board pk-7: the result of match %s (#2) is missing from the results (deleted?)"
         % code], {(BOARD, 2)})


def test_a_link_changed_after_signing_is_named_in_the_directors_words(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    chained(store, tid, "R1-01", text)
    store.db.conn.execute("UPDATE board_links SET document = ?",
                       (text.replace('"Anna"', '"Anne"').encode(),))
    assert store.chains.problems(tid) == (
        ["board pk-7: result #1 does not verify (changed after the board signed it)"],
        {(BOARD, 1)})


def test_the_store_takes_what_the_board_signs(store):
    """The MAC made as the board makes it (sync_protocol.result_mac over board, number, the
    MAC before and the document), not by the store's own link_mac: a chain of two verifies."""
    tid = round_robin(store)
    key = sp.Key(store.tournaments.key(tid))
    prev = "ab" * 32  # the board's chain went on from an earlier tournament
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    mac = sp.result_mac(key, BOARD, 7, prev, text)
    assert store.chains.record(tid, BOARD, 7, prev, mac, text) is True
    assert night.record_result(store, "R1-01", text, BOARD, mac, None, None, tournament_id=tid,
                               chain_n=7) is True
    assert verified(store, tid) == [True] and store.chains.problems(tid) == ([], set())


def test_the_same_link_again_is_a_no_op(store):
    tid = round_robin(store)
    text = log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"})
    mac = link_mac(store.tournaments.key(tid), BOARD, 1, "", text.encode())
    assert store.chains.record(tid, BOARD, 1, "", mac, text) is True
    before = dump(store.path)
    assert store.chains.record(tid, BOARD, 1, "", mac, text) is False
    assert dump(store.path) == before


def test_a_link_whose_document_is_no_text_never_verifies(store):
    """A document that is not UTF-8 was never signed: its link does not verify, whatever MAC
    the file holds beside it (an empty one too)."""
    tid = round_robin(store)
    chained(store, tid, "R1-01", log_text(["Anna", "Dan"], [2, 1], meta={"match_id": "R1-01"}))
    for mac in ("", "00" * 32):
        store.db.conn.execute("UPDATE board_links SET document = ?, mac = ?", (b"\xff\xfe", mac))
        problems, touched = store.chains.problems(tid)
        assert problems == ["board pk-7: result #1 does not verify (changed after the board "
                            "signed it)"], mac
        assert touched == {(BOARD, 1)}


def test_a_boards_links_by_number(store):
    """What pilkku sync compares with the board's chain head: each kept link's MAC by number,
    for that board only."""
    tid = round_robin(store)
    mac = chained(store, tid, "R1-01", log_text(["Anna", "Dan"], [2, 1],
                                                meta={"match_id": "R1-01"}))
    assert store.chains.links(BOARD) == {1: mac}
    assert store.chains.links("pk-8") == {}
