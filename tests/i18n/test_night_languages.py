"""The tournament's commands through a night in Finnish and Swedish (issue 29): a double
elimination drawn, played, shown (matches, tables, bracket, standings), a result corrected
with its plan, voided, the history, a table removed, a player withdrawn, and the director's
slips refused (a match that is not there, a result without its log, a finished match
assigned, a file that is not there, a header that is wrong) - each answer in the language of
`LANG`, with no English left (tests/i18n/test_cli_languages.py's finder), while --json and
--csv keep their English keys and data. On the desk, the night's refusal and a correction's
plan come in the page's language, no longer marked lang="en"."""

from __future__ import annotations

import json

import pytest

from host.desk.app import make
from host.hall.app import Hall
from tests.desk.client import hidden
from tests.host.test_cli_matrix import run
from tests.i18n.test_cli_languages import LOCALES, english_in
from tests.i18n.test_desk_languages import Speaking, _matches
from tests.i18n.test_hall_languages import stores as stores  # noqa: F401  (the fixture)

# A word of each answer that only its language has (the night is said, not left English).
SAID = {"fi": ["Mitä tämä korjaus muuttaa:", "pöytä", "Voittajapuoli", "sija",
               "tiedostoa tai kansiota ei ole", "on jo päättynyt"],
        "sv": ["Vad den här rättelsen ändrar:", "bord", "Vinnarsidan", "placering",
               "filen eller mappen finns inte", "är redan avslutad"]}


def night(folder) -> list[tuple[list[str], int]]:
    """(the call, its exit code) in the order a director makes them."""
    players = folder / "pelaajat.csv"
    players.write_text("nimi;seura\nAnna;A\nBen;B\nCid;C\nDan;D\nEve;E\n", encoding="utf-8")
    bad = folder / "pelit.csv"
    bad.write_text("koodi,pelaaja1\nX,Anna\n", encoding="utf-8")
    return [
        (["tournament", "new", "Cup", "--game", "9ball", "--race", "2", "--format", "double"],
         0),
        (["players", "import", str(players)], 0),
        (["players"], 0),
        (["matches", "generate"], 0),
        (["tables", "2"], 0),
        (["assign", "--auto"], 0),
        (["tables"], 0),
        (["matches"], 0),
        (["record", "W1-02", "--score", "2:0", "--reason", "paperi"], 0),
        (["record", "W2-02", "--score", "0:2", "--reason", "paperi"], 0),
        (["results"], 0),
        (["bracket"], 0),
        (["standings"], 0),
        (["correct", "W1-02", "--score", "0:2", "--reason", "väärin", "--yes"], 0),
        (["results", "--history"], 0),
        (["tables", "--remove", "2"], 0),
        (["players", "rename", "Eve", "Eeva"], 0),
        (["withdraw", "Eeva", "--reason", "sairas", "--yes"], 0),
        (["assign", "W1-02", "1"], 2),
        (["assign", "R9-09", "1"], 2),
        (["record", "W1-02"], 2),
        (["correct", "W1-02", "--reason", "x"], 2),
        (["walkover", "Q1-01", "Anna", "--reason", "x"], 2),
        (["players", "import", str(folder / "ei-ole.csv")], 2),
        (["matches", "import", str(bad)], 2),
        (["tournament", "new", "Cup", "--game", "9ball", "--race", "2"], 2),
    ]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_night_of_the_tournament_commands_in_the_environments_language(tmp_path,
                                                                          monkeypatch, lang):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", LOCALES[lang])
    db = str(tmp_path / "ilta.db")
    failures, said = [], []
    for argv, expected in night(tmp_path):
        code, text = run(argv + ["--db", db])
        said.append(text)
        left = english_in(text, lang)
        if "Traceback" in text or code != expected or left:
            failures.append("%s: exit %s, English %s: %r" % (" ".join(argv[:3]), code, left,
                                                             text.strip()[:400]))
    assert not failures, "\n".join(failures)
    whole = "\n".join(said)
    assert [word for word in SAID[lang] if word not in whole] == []

    code, text = run(["matches", "--json", "--db", db])  # data stays English
    rows = json.loads(text)
    assert code == 0 and {"match", "round", "player1", "player2", "table", "status"} <= set(
        rows[0])
    assert {r["status"] for r in rows} & {"waiting", "waits for earlier matches"}
    code, text = run(["results", "--csv", "--db", db])
    assert code == 0 and text.startswith("match,round,table,player1,score1,")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_nights_refusal_and_plan_on_a_desk_page_in_its_language(stores, lang):  # noqa: F811
    """A finished match sent to a table is refused in the page's words, not marked English;
    a correction's plan likewise."""
    db = stores[0]
    hall = Hall(db, None)
    browser = Speaking(make(hall), hall, lang)
    done = [m for m in _matches(db) if m["state"] == "finished" and m["player1"]
            and m["player2"]][0]
    status, html = browser.post("/desk/assign", {"match": done["code"],
                                                 "state": done["version"], "table": "1"})
    assert status == 400, html
    assert '<p id="said" class="said refused">' in html, html[-800:]
    assert {"fi": "on jo päättynyt", "sv": "är redan avslutad"}[lang] in html
    _, page = browser.get("/desk/match/%s" % done["code"])
    status, html = browser.post("/desk/correct", {
        "match": done["code"], "state": hidden(page, "correct"), "score": "0:2",
        "winner": "2", "reason": "väärin kirjattu"})
    if 'id="plan"' in html:  # (a correction that changes more than the match is asked)
        assert '<pre id="plan" class="plan">' in html
        assert {"fi": "Mitä tämä korjaus muuttaa:",
                "sv": "Vad den här rättelsen ändrar:"}[lang] in html
