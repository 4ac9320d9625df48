"""The boards' language on the laptop's side: a tournament setting (`pilkku tournament new
--board-lang fi`, English unless set, kept when the format's plan is written again), sent
with each board's schedule (tests/firmware/test_words.py, tests/e2e/test_board_language.py)
and written at pairing (host/sync/pair.py's program, run here on a board's config folder)."""

from __future__ import annotations

import pytest

from firmware import words
from firmware.config import DAMAGED, Config
from host.sync import pair
from host.tournament import night
from host.tournament.store import Store, StoreError
from tests.host.test_tournament_cli import Director


@pytest.fixture(autouse=True)
def english_after():
    yield
    words.use("en")


def test_a_tournament_sets_its_boards_language_and_a_new_plan_keeps_it(tmp_path, capsys):
    pilkku = Director(tmp_path, capsys)
    pilkku.ok("tournament", "new", "Kaisailta", "--game", "kaisa", "--race", "60",
              "--board-lang", "fi")
    pilkku.ok("tournament", "new", "Club Night", "--game", "9ball", "--race", "2")
    with pytest.raises(SystemExit) as refused:
        pilkku("tournament", "new", "Cup", "--game", "9ball", "--race", "2", "--board-lang", "de")
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "--board-lang" in err and "Traceback" not in err
    with Store.open(pilkku.db) as store:
        kaisa = store.tournaments.get("Kaisailta")["id"]
        assert store.tournaments.board_language(kaisa) == "fi"
        assert store.tournaments.board_language(store.tournaments.get("Club Night")["id"]) \
            == "en"
        night.plan_format(store, kaisa, "hakukaavio", {})  # the plan written again
        assert store.tournaments.plan(kaisa)["format"] == "hakukaavio"
        assert store.tournaments.board_language(kaisa) == "fi"
        with pytest.raises(StoreError, match="the boards speak en, fi, sv"):
            store.tournaments.set_board_language(kaisa, "de")
        assert store.tournaments.board_language(kaisa) == "fi"


def _paired(folder, lang) -> Config:
    program = pair.WRITE_KEY % (DAMAGED, {}, "00ff", lang)
    exec(program.replace('Config("/")', "Config(%r)" % (str(folder) + "/")), {})
    words.use("en")
    return Config(str(folder) + "/")  # the board starts again


def test_pairing_writes_the_boards_language(tmp_path, capsys):
    assert _paired(tmp_path, "fi").values["lang"] == "fi" and words.w("TIME UP") == "AIKA OHI"
    assert _paired(tmp_path, None).values["lang"] == "fi"  # not given: left as it is
    assert "lang" not in _paired(tmp_path, "en").values and words.w("TIME UP") == "TIME UP"
    assert "pk-" in capsys.readouterr().out
