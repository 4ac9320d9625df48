"""The printouts printed: headless Chromium prints each page to PDF as its print dialog would
(the page's own @page size), and the PDF's text is read back (pypdf): the names with Ä/Ö/Å,
each sheet's match and players on the page it should be, as many pages as fit, every match of
a draw, nothing wider than the page, the results and the ranking as `pilkku standings --json`
has them.

Screenshots of page one of each printout go to $PILKKU_DESK_SHOTS (docs/desk when making the
docs), else to the test's temporary folder."""

from __future__ import annotations

import contextlib
import io
import json
import os
import unicodedata
from pathlib import Path

import pytest

from host import cli
from host.bench.hall import CHROMIUM, DRIVER, chromium
from host.tournament import night
from host.tournament.store import Store
from tests.desk.printing import A4, login, overflow, pdf, read, screenshot, serving
from tests.hall import night as nights

# A long double-barrelled name wraps in its column (the escaping of a hostile name is
# test_printouts_http.py's: these pages are the docs' pictures too).
NAMES = ["Äijälä Öhman", "Åsa Ek", "Pertti-Juhani Väänänen-Kärkkäinen", "Caisa", "Öljy Åberg",
         "Bengt"]
LANDSCAPE = (A4[1], A4[0])


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (CHROMIUM and DRIVER):
        pytest.skip("no Chromium here: the printouts' PDF tests need Debian's chromium and "
                    "chromium-driver")
    driver = chromium(tmp_path_factory.mktemp("print-profile"))
    yield driver
    driver.quit()


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PILKKU_DESK_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def flat(text: str) -> str:
    """The text as one line: NFKC (no ligature, Ä as one letter), spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def has(page: str, text: str) -> bool:
    """The text is on the page, wherever a line wrapped it (a long name in its column)."""
    return "".join(text.split()) in "".join(page.split())


def printed(browser, url: str, hall, path: str, landscape: bool = False) -> list[str]:
    """Each page's text of `path` printed; asserts every page is A4 in its orientation and
    nothing on it is wider than the page."""
    login(browser, url, hall)
    texts, sizes = read(pdf(browser, url + path))
    assert sizes == [LANDSCAPE if landscape else A4] * len(texts), (
        path, sizes, texts[0][:200])
    assert overflow(browser, landscape) is None, (path, overflow(browser, landscape))
    return [flat(t) for t in texts]


def standings_json(db: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["standings", "--json", "--db", db]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory) -> str:
    """Six players of a 9-ball round robin, race to 3; round 1 played at the boards."""
    db = str(tmp_path_factory.mktemp("print-rr") / "desk.db")
    tid = nights.cup(db, "round_robin", players=NAMES, race=3)
    with Store.open(db) as store:
        for code in ("R1-01", "R1-02", "R1-03"):
            nights.play(store, tid, code, winner=code == "R1-02")
    return db


@pytest.fixture(scope="module")
def kaisa(tmp_path_factory) -> str:
    """A Kaisa round robin of four to 60, every kind of result but a board's: scores typed
    from paper (60-35, a game decided otherwise 45v-35), a walkover, a void, both lost."""
    db = str(tmp_path_factory.mktemp("print-kaisa") / "desk.db")
    tid = nights.cup(db, "round_robin", players=NAMES[:4], game="kaisa", race=60)
    with Store.open(db) as store:
        night.record_hand(store, tid, "R1-01", "60:35", "paper sheet")
        night.record_hand(store, tid, "R1-02", "35-45v", "paper sheet, conceded")
        first = store.matches.get(tid, "R2-01")
        night.walkover(store, tid, "R2-01", store.players.names(first)[0], "did not come")
        night.no_winner(store, tid, "R2-02", "void", "played with the wrong balls")
        night.no_winner(store, tid, "R3-01", "both_lose", "neither came")
    return db


def test_four_pre_filled_sheets_fill_one_page_and_a_fifth_starts_the_next(
        browser, round_robin, tmp_path):
    with Store.open(round_robin) as store:
        matches = {m["code"]: m for m in store.matches.all(store.tournaments.get()["id"])}
    codes = ["R1-01", "R1-02", "R1-03", "R2-01", "R2-02"]
    with serving(round_robin) as (url, hall):
        pages = printed(browser, url, hall, "/print/sheets?matches=" + ",".join(codes[:4]))
        assert len(pages) == 1
        for code in codes[:4]:
            one, two = matches[code]["player1"], matches[code]["player2"]
            assert code in pages[0] and has(pages[0], one) and has(pages[0], two), code
        assert pages[0].count("9-ball, race to 3") == 4
        assert "Äijälä Öhman" in pages[0] and has(pages[0], NAMES[2])

        pages = printed(browser, url, hall, "/print/sheets?matches=" + ",".join(codes))
        assert len(pages) == 2
        assert [c for c in codes if c in pages[0]] == codes[:4]
        assert [c for c in codes if c in pages[1]] == codes[4:]
        assert has(pages[1], matches["R2-02"]["player1"])
        screenshot(browser, url + "/print/sheets?matches=" + ",".join(codes[:4]),
                   shots(tmp_path) / "print-sheets.png", False)


def test_blank_sheets_have_room_for_each_game_and_no_names(browser, round_robin, tmp_path):
    with serving(round_robin) as (url, hall):
        pages = printed(browser, url, hall, "/print/sheets/blank?count=4")
        assert len(pages) == 1 and pages[0].count("9-ball, race to 3") == 4
        pages = printed(browser, url, hall, "/print/sheets/blank?game=kaisa&count=4")
        assert len(pages) == 2  # two a page: sixty innings each
        assert all(p.count("Kaisa, to") == 2 and "45v-35" in p for p in pages)
        assert "Inning 41 42" in pages[0] and "60" in pages[0]
        pages = printed(browser, url, hall, "/print/sheets/blank?game=14.1&count=3")
        assert len(pages) == 2 and pages[0].count("14.1 continuous, to") == 2
        for page in pages:
            assert not any(has(page, name) for name in NAMES)
        screenshot(browser, url + "/print/sheets/blank?game=kaisa&count=2",
                   shots(tmp_path) / "print-sheets-blank-kaisa.png", False)


def test_a_kaisa_sheet_has_its_players_the_60_and_the_recorded_result(browser, kaisa,
                                                                        tmp_path):
    with Store.open(kaisa) as store:
        waiting = store.matches.get(store.tournaments.get()["id"], "R3-02")
        names = store.players.names(waiting)
    with serving(kaisa) as (url, hall):
        pages = printed(browser, url, hall, "/print/sheets?matches=open")
        assert len(pages) == 1
        assert pages[0].startswith("R3-02 Round 3 Table")
        assert "Kaisa, to 60" in pages[0]
        assert has(pages[0], "%s points" % names[0]) and has(pages[0], "%s points" % names[1])
        assert ("The winner's points are recorded as 60, the loser's at most 60. A game "
                "decided otherwise than at 60") in pages[0]
        assert "with v, e.g. 45v-35" in pages[0]
        screenshot(browser, url + "/print/sheets?matches=open",
                   shots(tmp_path) / "print-sheets-kaisa.png", False)


def _row(code: str, text: str, codes: list[str]) -> str:
    """The printed text from a match's code up to the next match's code."""
    start = text.index(code + " ")
    ends = [text.find(c + " ", start + 1) for c in codes if c != code]
    return text[start:min([e for e in ends if e > start] + [len(text)])]


def test_the_results_and_ranking_agree_with_pilkku_standings(browser, kaisa, tmp_path):
    wanted = standings_json(kaisa)
    with serving(kaisa) as (url, hall):
        text = " ".join(printed(browser, url, hall, "/print/results"))
        screenshot(browser, url + "/print/results", shots(tmp_path) / "print-results.png",
                   False)
    assert "Standings so far" in text  # R3-02 is still to play
    at, packed = 0, "".join(text.split())  # a long name may wrap in its column
    for row in wanted["standings"]:
        line = "%d %s %d %d %d %d %d %d" % (row["place"], row["player"], row["played"],
                                           row["won"], row["lost"], row["for"],
                                           row["against"], row["difference"])
        found = packed.find("".join(line.split()), at)
        assert found > at, (line, text)
        at = found
    codes = ["R1-01", "R1-02", "R2-01", "R2-02", "R3-01"]
    rows = {code: _row(code, text, codes) for code in codes}
    assert "60–35" in rows["R1-01"] and "entered by hand" in rows["R1-01"]
    assert "35–45" in rows["R1-02"] and "entered by hand" in rows["R1-02"]
    assert "w.o." in rows["R2-01"] and "walkover" in rows["R2-01"]
    assert "void — did not count" in rows["R2-02"]
    assert "lost by both — both absent" in rows["R3-01"]
    assert "R3-02" not in text  # not played: no result
    assert "paper sheet" not in text and "neither came" not in text  # the reasons stay


def test_a_round_robins_draw_is_its_grid_and_rounds(browser, round_robin, tmp_path):
    with Store.open(round_robin) as store:
        tid = store.tournaments.get()["id"]
        matches = store.matches.all(tid)
    with serving(round_robin) as (url, hall):
        pages = printed(browser, url, hall, "/print/draw")
        screenshot(browser, url + "/print/draw", shots(tmp_path) / "print-draw-round-robin.png",
                   False)
    text = " ".join(pages)
    assert "Player against player" in text
    for m in matches:
        assert m["code"] in text, m["code"]
        if m["winner"] is not None:  # each side's score in the grid, his own first
            assert "%d–%d" % (m["score1"], m["score2"]) in text
            assert "%d–%d" % (m["score2"], m["score1"]) in text
    assert all(has(text, name) for name in NAMES)


def test_a_double_of_eight_fits_one_landscape_page(browser, tmp_path):
    db = str(tmp_path / "double.db")
    tid = nights.cup(db, "double", players=NAMES + ["Pelaaja 7", "Pelaaja 8"])
    with Store.open(db) as store:  # the losers' side wins the final: a bracket reset
        nights.play_out(store, tid, lambda code: int(code.startswith(("L", "F-1"))))
        matches = store.matches.all(tid)
    with serving(db) as (url, hall):
        pages = printed(browser, url, hall, "/print/draw", landscape=True)
        screenshot(browser, url + "/print/draw", shots(tmp_path) / "print-draw-double.png",
                   True)
    assert len(pages) == 1
    assert "Winners' bracket and final" in pages[0] and "Losers' bracket" in pages[0]
    assert "Grand final, bracket reset" in pages[0]
    for m in matches:
        assert m["code"] in pages[0] and has(pages[0], m["player1"]), m["code"]
    assert has(pages[0], "Winner: %s" % matches[-1]["winner"])


def test_a_64_player_hakukaavio_draw_prints_every_game_on_a_few_pages(browser, tmp_path):
    db = str(tmp_path / "haku64.db")
    tid = nights.cup(db, "hakukaavio", players=["Pelaaja %d" % i for i in range(1, 63)]
                     + ["Äijälä Öhman", "Åsa Ek"], tables=8)
    with Store.open(db) as store:
        nights.play_out(store, tid, lambda code: sum(map(ord, code)) % 2)
        matches = store.matches.all(tid)
    with serving(db) as (url, hall):
        pages = printed(browser, url, hall, "/print/draw")
        screenshot(browser, url + "/print/draw",
                   shots(tmp_path) / "print-draw-hakukaavio.png", False)
    text = " ".join(pages)
    for m in matches:
        assert m["code"] + " " in text, m["code"]
    assert "Äijälä Öhman" in text and "Åsa Ek" in text
    # Boxes four across, round after round: about 40 games a page, not a round a page.
    assert len(pages) <= -(-len(matches) // 32) + 1, (len(pages), len(matches))


def test_a_bracket_of_sixteen_before_play_fits_one_landscape_page(browser, tmp_path):
    db = str(tmp_path / "bracket.db")
    tid = nights.cup(db, "bracket", players=NAMES + ["Pelaaja %d" % i for i in range(7, 17)])
    with Store.open(db) as store:
        matches = store.matches.all(tid)
    with serving(db) as (url, hall):
        pages = printed(browser, url, hall, "/print/draw", landscape=True)
    assert len(pages) == 1
    for m in matches:
        assert m["code"] in pages[0], m["code"]
    assert "Quarter-finals" in pages[0] and "Final" in pages[0]
    assert "winner of R1-01" in pages[0] and "winner of R3-02" in pages[0]  # the final's
    assert has(pages[0], "Äijälä Öhman") and has(pages[0], NAMES[2])


def test_groups_print_their_tables_then_the_knockout(browser, tmp_path):
    db = str(tmp_path / "groups.db")
    tid = nights.cup(db, "groups", players=NAMES + ["Pelaaja 7", "Pelaaja 8"])
    with Store.open(db) as store:
        nights.play_out(store, tid)
        matches = store.matches.all(tid)
    with serving(db) as (url, hall):
        text = " ".join(printed(browser, url, hall, "/print/draw"))
    assert "Group A Won Lost Diff." in text and "Group B Won Lost Diff." in text
    assert text.index("Groups") < text.index("Knockout round 1")
    for m in matches:
        assert m["code"] + " " in text, m["code"]
