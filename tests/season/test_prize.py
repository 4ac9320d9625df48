"""Prize money (host/season/prize.py) worked by hand, on the printout when the director says,
and the text to post (host/season/post.py): the placings, the games with their scores, the
prize money, the link to the hall's export."""

from __future__ import annotations

import pytest

from host.cli import main
from host.hall.app import Hall
from host.season import post, prize, series
from host.tournament.store import Store, StoreError
from tests.desk.printing import get
from tests.season.test_series_table import round_robin, win


def ranking(*places: int) -> list[dict]:
    return [{"place": p, "player": "P%d" % i} for i, p in enumerate(places, 1)]


def test_twelve_entries_ten_euros_each():
    # pot 120; federation 10 % = 12; organiser 10 % = 12; prizes 96: 50 % 48, 30 % 28.80
    # -> 28, 20 % 19.20 -> 19; the rounding left 1, to the organiser (13 in all)
    settings = prize.settings_from("10", 12, "10", "10", "50,30,20", "1")
    shared = prize.split(settings, ranking(*range(1, 13)))
    assert (shared["pot"], shared["federation"], shared["organiser"]) == (12000, 1200, 1200)
    assert [p["amount"] for p in shared["prizes"]] == [4800, 2800, 1900]
    assert (shared["remainder"], shared["organiser_total"]) == (100, 1300)
    assert shared["pot"] == (shared["federation"] + shared["organiser_total"]
                             + sum(p["amount"] for p in shared["prizes"]))


def test_players_sharing_a_place_share_its_places_sums():
    # the same pot; 3rd and 4th shared (a hakukaavio's 3rd place shared): 3rd's 19 and 4th's
    # 0 make 19, 9.50 each, rounded down to 9 each; the remainder is 2
    settings = prize.settings_from("10", 12, "10", "10", "50,30,20", "1")
    shared = prize.split(settings, ranking(1, 2, 3, 3, 5))
    assert [(p["place"], p["amount"], p["shared"]) for p in shared["prizes"]] == [
        (1, 4800, False), (2, 2800, False), (3, 900, True), (3, 900, True)]
    assert shared["remainder"] == 200
    # to half euros the shared ones get 9.50
    halves = prize.split(prize.settings_from("10", 12, "10", "10", "50,30,20", "0,5"),
                         ranking(1, 2, 3, 3, 5))
    assert [p["amount"] for p in halves["prizes"]] == [4800, 2850, 950, 950]  # 28.80: 28.50
    assert prize.money(950) == "9,50 €" and prize.money(4800) == "48 €"


@pytest.mark.parametrize("args, words", [
    (("x", 12), "not an amount"), (("10", 12, "0", "0", "50,60"), "adding up to 100"),
    (("10", 12, "60", "50"), "at most 100"), (("10", 0), "needs players"),
    (("10", 12, "0", "0", "100", "0"), "cash unit"), (("10", 12, "-1"), "percentage"),
])
def test_bad_settings_say_what_is_wrong(args, words):
    with pytest.raises(StoreError, match=words):
        prize.settings_from(*args)


@pytest.fixture
def played(tmp_path):
    db = tmp_path / "pilkku.db"
    with Store.open(db) as store:
        tid = round_robin(store, "Viikkokisa", ["Aino", "Bror", "Cai"])
        win(store, tid, "Aino", "Bror")
        win(store, tid, "Aino", "Cai")
        win(store, tid, "Bror", "Cai")
    return str(db)


def test_on_the_printout_only_when_the_director_says(played, capsys):
    hall = Hall(played, None)
    assert main(["--db", played, "prize", "--fee", "10", "--paid", "70,30", "--save"]) == 0
    _status, body = get(hall, "/print/results")
    assert "Prize money" not in body
    assert main(["--db", played, "prize", "--fee", "10", "--paid", "70,30", "--save",
                 "--print"]) == 0
    out = capsys.readouterr().out
    assert "Pot: 3 x 10 € = 30 €" in out and "Aino" in out
    _status, body = get(hall, "/print/results")
    assert "Prize money" in body and "21 €" in body and "9 €" in body


def test_the_results_to_post(played):
    with Store.open(played) as store:
        prize_settings = prize.settings_from("10", 3, paid="70,30")
        store.series.save_prize(store.tournaments.get()["id"], prize_settings, False)
        text = post.results(store, None, "https://club.example/kisa/")
        matches = store.matches.all(store.tournaments.get()["id"])
    lines = text.splitlines()
    assert lines[0] == "RESULTS: Viikkokisa"
    assert lines[lines.index("Final placings:") + 1:][:3] == ["1. Aino", "2. Bror", "3. Cai"]
    games = lines[lines.index("Games:") + 1:][:3]
    assert [g.split()[-1] in ("60–40", "40–60") for g in games] == [True] * 3
    assert sorted(g.split()[0] for g in games) == sorted(m["code"] for m in matches)
    assert "1. Aino 21 €" in lines and "2. Bror 9 €" in lines
    assert lines[-1] == ("Draw and results: https://club.example/kisa/draw.html and "
                         "https://club.example/kisa/results.html")


def test_the_invitation_to_post(played):
    with Store.open(played) as store:
        text = post.invitation(store, None, {"date": "1.12.2026", "time": "18:00",
                                             "place": "Biljardisali", "fee": "10"})
        with pytest.raises(StoreError, match="not a date"):
            post.invitation(store, None, {"date": "31.2.2026"})
    assert text.splitlines()[:7] == ["INVITATION: Viikkokisa", "",
                                     "Kaisa, played to 60 points, Round robin",
                                     "When: 1.12.2026 at 18:00", "Where: Biljardisali",
                                     "Entry fee: 10 €", ""]


def test_the_results_to_post_with_the_series_after_the_night(played):
    with Store.open(played) as store:
        series.new_series(store, "Syksy", "kaisa")
        with pytest.raises(StoreError, match="not a night of the series 'Syksy'"):
            post.results(store, None, series="Syksy")
        series.add_nights(store, "Syksy", ["Viikkokisa"], "29.9.2026")
        lines = post.results(store, None, series="Syksy").splitlines()
        invited = post.invitation(store, None, {"series": "Syksy"})
    at = lines.index("Syksy after this night (29.9.2026):")
    # default points: Aino 1+10+2 = 13, Bror 1+8+1 = 10, Cai 1+6 = 7
    assert lines[at + 1:at + 4] == ["1. Aino 13", "2. Bror 10", "3. Cai 7"]
    assert "Counts for the ranking series Syksy." in invited


@pytest.mark.parametrize("lang, words", [
    ("fi", ["TULOKSET: Viikkokisa", "Lopulliset sijoitukset:", "Pelit:",
            "Palkintorahat (potti 30 €):", "Kaavio ja tulokset:"]),
    ("sv", ["RESULTAT: Viikkokisa", "Slutplacering:", "Matcher:", "Prispengar (pott 30 €):",
            "Lottning och resultat:"])])
def test_the_texts_to_post_in_the_tournaments_language(played, lang, words):
    """A tournament set to Finnish or Swedish posts its texts in it, whatever the CLI speaks
    (here English); its refusals are the asker's."""
    from host import i18n

    with Store.open(played) as store:
        tid = store.tournaments.get()["id"]
        store.series.save_prize(tid, prize.settings_from("10", 3, paid="70,30"), False)
        english = post.results(store, None)
        store.tournaments.set_board_language(tid, lang)
        with i18n.use("en"):
            text = post.results(store, None, "https://club.example/kisa")
            invited = post.invitation(store, None, {"date": "1.12.2026", "time": "18:00",
                                                    "fee": "10"})
            with pytest.raises(StoreError, match="write it 18:00"):
                post.invitation(store, None, {"time": "six"})
    assert "RESULTS: Viikkokisa" in english
    for line in words:
        assert line in text, text
    assert ("Kaisa, pelataan 60 pisteeseen, Kaikki kaikkia vastaan" if lang == "fi" else
            "Kaisa, spelas till 60 poäng, Alla mot alla") in text, text
    assert ("KUTSU: Viikkokisa" if lang == "fi" else "INBJUDAN: Viikkokisa") in invited
    assert ("1.12.2026 klo 18:00" if lang == "fi" else "1.12.2026 kl. 18:00") in invited
    for english_word in ("Final placings", "Games:", "Prize money", "When:", "Welcome"):
        assert english_word not in text + invited
