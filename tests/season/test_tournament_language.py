"""The tournament's language (its boards' displays and its texts to post), changed after the
tournament was made: by `pilkku tournament language` and by the desk's setup, bad input
changing nothing, and sent to the boards at their next sync (what the sync's Desk gives each
board's schedule: host/sync/commands.py)."""

from __future__ import annotations

import pytest

from host.cli import main
from host.sync.commands import Desk
from host.tournament.store import Store
from tests.desk.test_desk_setup import desk as desk  # noqa: F401  (the fixture)
from tests.desk.test_desk_setup import new_tournament, refused, said


def test_the_language_changed_on_the_command_line_goes_to_the_next_sync(tmp_path, capsys):
    db = str(tmp_path / "pilkku.db")
    assert main(["--db", db, "tournament", "new", "Viikkokisa", "--game", "kaisa", "--race",
                 "60", "--board-lang", "sv"]) == 0
    with Store.open(db) as store:
        t = store.tournaments.get()
    sync = Desk(db, t)
    assert sync.board_language() == "sv"
    capsys.readouterr()
    assert main(["--db", db, "tournament", "language"]) == 0
    assert capsys.readouterr().out.strip() == "sv"
    assert main(["--db", db, "tournament", "language", "fi"]) == 0
    assert "speaks fi now" in capsys.readouterr().out
    assert sync.board_language() == "fi"  # the next sync's schedule carries it
    with Store.open(db) as store:
        before = store.db.revision()
    with pytest.raises(SystemExit) as exit_code:
        main(["--db", db, "tournament", "language", "de"])
    assert exit_code.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    with Store.open(db) as store:
        assert store.db.revision() == before
    assert sync.board_language() == "fi"


def test_the_language_changed_at_the_desks_setup(desk):  # noqa: F811
    browser, db = desk
    tid = new_tournament(browser)
    status, page = browser.get("/desk/setup")
    assert 'id="language-unset"' in page
    status, page = browser.post("/desk/setup/language", {"tournament": tid, "lang": "sv"})
    assert status == 200 and "svenska" in said(page), said(page)
    assert '<option value="sv" lang="sv" selected>' in page
    with Store.open(db) as store:
        t = store.tournaments.get()
    assert Desk(str(db), t).board_language() == "sv"
    refused(browser, db, "/desk/setup/language", {"tournament": tid, "lang": "de"}, 400,
            "the language")
    refused(browser, db, "/desk/setup/language", {"tournament": tid, "lang": "fi"}, 403,
            "form", csrf=None)
    refused(browser, db, "/desk/setup/language", {"tournament": str(int(tid) + 1),
                                                  "lang": "fi"}, 409, "another tournament")
    assert Desk(str(db), t).board_language() == "sv"


def test_the_language_chosen_for_a_new_tournament_at_the_desk(desk):  # noqa: F811
    browser, db = desk
    new_tournament(browser, name="Syyskisa", lang="fi")
    with Store.open(db) as store:
        t = store.tournaments.get()
    assert t["name"] == "Syyskisa" and Desk(str(db), t).board_language() == "fi"
    refused(browser, db, "/desk/setup/new", {"name": "Toinen", "game": "kaisa", "race": "60",
                                             "format": "hakukaavio", "tables": "2",
                                             "placings": "rounds", "lang": "de"}, 400,
            "the language")
    new_tournament(browser, name="Ilman kieltä")  # not chosen: not set, as without the option
    with Store.open(db) as store:
        assert "board_lang" not in store.tournaments.plan(store.tournaments.get()["id"])
