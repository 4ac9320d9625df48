"""The setup's name picker through the store's people (host/desk/setup_players.py): a typed
name completed from store.people.complete (the most played first; a name two people share
offered once for each, with the club that tells them apart), and a player entered as the
person picked — never merged silently with another person of the same name."""

from __future__ import annotations

import json

from host.tournament.store import Store
from tests.desk.client import call
from tests.desk.test_desk_setup import desk as desk  # noqa: F401  (the fixture)
from tests.desk.test_desk_setup import new_tournament, refused, said


def _people(db) -> dict[str, int]:
    """Two Matti Virtanens (one of PK, licence 2231) and Aino Aalto, who played two nights."""
    with Store.open(db) as store:
        first = store.people.add("Matti Virtanen", "PK", "2231")
        second = store.people.add("Matti Virtanen", new=True)
        aino = store.people.add("Aino Aalto")
        for night in ("Ilta 1", "Ilta 2"):
            tid = store.tournaments.get(night)["id"]
            store.people.link_tournament(tid, picks={"Aino Aalto": "#%d" % aino})
    return {"pk": first, "other": second, "aino": aino}


def _linked(db, name: str) -> int | None:
    with Store.open(db) as store:
        t = store.tournaments.get()
        player = next(p for p in store.players.all(t["id"]) if p["name"] == name)
        return store.people.of_tournament(t["id"])[player["id"]]


def test_the_picker_offers_people_and_links_the_one_picked(desk):  # noqa: F811
    browser, db = desk
    for night in ("Ilta 1", "Ilta 2"):
        tid = new_tournament(browser, name=night)
        browser.post("/desk/setup/paste", {"tournament": tid, "names": "Aino Aalto\nBen Berg"})
    who = _people(db)
    tid = new_tournament(browser, name="Ilta 3")
    status, page = browser.get("/desk/setup")
    known = page[page.index('<datalist id="known-names">'):page.index("</datalist>")]
    assert known.index('value="Aino Aalto"') < known.index("Matti Virtanen")  # most played
    assert ('<option value="Matti Virtanen #%d" label="Matti Virtanen (PK, 2231)">' % who["pk"]
            in known), known
    assert '<option value="Matti Virtanen #%d" label="Matti Virtanen">' % who["other"] in known
    assert '<option value="Ben Berg">' in known  # a name of an earlier night, not a person
    status, body = call(browser.app, "GET", "/desk/people/complete?prefix=vir",
                        headers=browser._headers(None))
    offered = json.loads(body)
    assert [o["value"] for o in offered] == ["Matti Virtanen #%d" % who["pk"],
                                            "Matti Virtanen #%d" % who["other"]]
    status, page = browser.post("/desk/setup/player", {"tournament": tid,
                                                       "name": "Matti Virtanen #%d" % who["other"]})
    assert status == 200 and "Matti Virtanen is in" in said(page), said(page)
    assert _linked(db, "Matti Virtanen") == who["other"]
    status, page = browser.post("/desk/setup/player", {"tournament": tid, "name": "Aino Aalto"})
    assert _linked(db, "Aino Aalto") == who["aino"]
    # typed plainly, a name two people share is left for the director to say who
    tid = new_tournament(browser, name="Ilta 4")
    status, page = browser.post("/desk/setup/player", {"tournament": tid,
                                                       "name": "Matti Virtanen"})
    assert status == 200 and "2 people" in said(page), said(page)
    assert _linked(db, "Matti Virtanen") is None
    refused(browser, db, "/desk/setup/player", {"tournament": tid, "name": "Aino Aalto #%d"
                                                % who["pk"]}, 400, "is Matti Virtanen")
    refused(browser, db, "/desk/setup/player", {"tournament": tid, "name": "Aino Aalto #999"},
            400, "no person #999")
