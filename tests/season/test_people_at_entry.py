"""People at entry (store/people.py link_known): a player entered (the desk's setup, `pilkku
players import`, a late entry) whose name exactly one person has is that person at once; a
name several people have is left unlinked and shown at the desk's season page as to link,
never merged silently; a name nobody has waits for the series (a typo is not made a person);
a name corrected is linked again by the new name."""

from __future__ import annotations

from host.cli import main
from host.desk.app import make
from host.hall.app import Hall
from host.tournament import night
from host.tournament.night.entries import add_late_player
from host.tournament.store import Store
from tests.desk.client import Browser, hidden
from tests.season.test_series_table import round_robin


def _people(db) -> dict[str, int]:
    """Aino (one person), Matti (two people of that name)."""
    with Store.open(db) as store:
        aino = store.people.add("Aino")
        store.people.add("Matti")
        store.people.add("Matti", new=True)
        return {"Aino": aino}


def links(store: Store, tid: int) -> dict[str, int | None]:
    persons = store.people.of_tournament(tid)
    return {p["name"]: persons[p["id"]] for p in store.players.all(tid)}


def test_a_known_name_is_that_person_a_shared_one_is_left_to_link(tmp_path):
    db = tmp_path / "pilkku.db"
    aino = _people(db)["Aino"]
    with Store.open(db) as store:
        tid = night.new_tournament(store, "Ilta", "kaisa", 60)
        night.import_players(store, tid, [(1, "Aino", ""), (2, "Matti", ""), (3, "Jusi", "")])
        assert links(store, tid) == {"Aino": aino, "Matti": None, "Jusi": None}
        assert len(store.people.all()) == 3  # nobody made of 'Jusi' (a typo, maybe)
        night.rename_player(store, tid, "Jusi", "Aino Aalto")
        night.rename_player(store, tid, "Aino", "Aino A.")  # the link by name no longer holds
        assert links(store, tid) == {"Aino A.": None, "Matti": None, "Aino Aalto": None}
        night.rename_player(store, tid, "Aino A.", "Aino")
        assert links(store, tid)["Aino"] == aino


def test_the_cli_import_and_a_late_entry_link_too(tmp_path, capsys):
    db = tmp_path / "pilkku.db"
    aino = _people(db)["Aino"]
    names = tmp_path / "pelaajat.txt"
    names.write_text("Aino\nMatti\nOlli\n", encoding="utf-8")
    with Store.open(db) as store:
        night.new_tournament(store, "Ilta", "kaisa", 60)
    assert main(["--db", str(db), "players", "import", str(names)]) == 0
    with Store.open(db) as store:
        tid = store.tournaments.get("Ilta")["id"]
        assert links(store, tid) == {"Aino": aino, "Matti": None, "Olli": None}
        late = round_robin(store, "Myöhään", ["Olli", "Eeva"])
        add_late_player(store, late, "Aino")
        assert links(store, late)["Aino"] == aino


def test_the_desks_setup_links_and_the_season_page_shows_to_link(tmp_path):
    db = tmp_path / "pilkku.db"
    aino = _people(db)["Aino"]
    with Store.open(db) as store:
        night.new_tournament(store, "Ilta", "kaisa", 60)
    hall = Hall(str(db), None)
    browser = Browser(make(hall), hall)
    status, page = browser.get("/desk/setup")
    status, page = browser.post("/desk/setup/paste", {
        "tournament": hidden(page, None, "tournament"), "names": "Aino\nMatti\nOlli\n"})
    assert status == 200, page
    with Store.open(db) as store:
        assert links(store, store.tournaments.get("Ilta")["id"]) == {
            "Aino": aino, "Matti": None, "Olli": None}
    status, page = browser.get("/desk/season")
    assert "To link: Matti" in page.split('id="to-link-here"')[1].split("</p>")[0]
