"""The hall's standings count only results whose signature verifies, as `pilkku standings`
does (host/hall/data.py, `draw`): a result whose signature was removed and its score flipped
in the store file, or passed off as an unsigned hand entry, is counted for nobody on the
hall's draw page, which names it under the table instead. (`pilkku standings` is tested for
this in tests/host/test_store_tamper.py; the hall was not.)"""

from __future__ import annotations

import html
import json
import re
import sqlite3
import urllib.request

import pytest

from host import cli
from host.bench.hall import serving
from tests.host.test_store_tamper import chained_night

# R1-01 is Anna vs Dan, 2:0 to Anna on the board; the store's editor gives it to Dan.
FLIP = ("UPDATE matches SET score1 = 0, score2 = 2, winner_id = player2_id WHERE code = "
        "'R1-01';")
TAMPERS = {
    "signature removed, score flipped": "UPDATE results SET hmac = NULL WHERE chain_n = 1;",
    "passed off as a hand entry": "UPDATE results SET hmac = NULL, kind = 'manual', chain_n = "
                                  "NULL WHERE chain_n = 1;",
}


@pytest.fixture
def night(tmp_path) -> str:
    """A round robin of four with three results from one board, each a link of its chain."""
    return str(chained_night(tmp_path / "night.db"))


def hall_standings(db: str) -> tuple[dict[str, tuple[int, ...]], str]:
    """The hall's draw page: {player: (played, won, lost, for, against)} and the page."""
    with serving(db) as (url, _hall):
        with urllib.request.urlopen(url + "/draw.html", timeout=10) as response:
            page = response.read().decode("utf-8")
    table = page[page.index('class="grid standings"'):]
    table = table[:table.index("</table>")]
    rows = {}
    for cells in re.findall(r"<tr[^>]*>((?:<td>[^<]*</td>)+)</tr>", table):
        values = [html.unescape(v) for v in re.findall(r"<td>([^<]*)</td>", cells)]
        rows[values[1]] = tuple(int(v) for v in values[2:7])
    return rows, page


def pilkku_standings(db: str, capsys) -> dict[str, tuple[int, ...]]:
    cli.main(["standings", "--json", "--db", db])
    document = json.loads(capsys.readouterr().out)
    return {r["player"]: (r["played"], r["won"], r["lost"], r["for"], r["against"])
            for r in document["standings"]}


def test_an_untouched_night_counts_every_result(night, capsys):
    rows, page = hall_standings(night)
    assert rows == pilkku_standings(night, capsys)
    assert sum(played for played, *_ in rows.values()) == 6  # three matches, two players each
    assert "Not counted" not in page


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_result_that_does_not_verify_is_counted_for_nobody_in_the_hall(night, capsys, name):
    conn = sqlite3.connect(night)  # the store file edited as an attacker would
    conn.executescript(TAMPERS[name] + FLIP)
    conn.commit()
    conn.close()
    rows, page = hall_standings(night)
    assert rows["Dan"] == (0, 0, 0, 0, 0)  # the flipped win is not Dan's
    assert rows["Anna"][0] <= 1  # nor Anna's original win counted
    assert sum(played for played, *_ in rows.values()) == 4  # two matches left
    assert rows == pilkku_standings(night, capsys)
    assert "Not counted: R1-01 (Anna – Dan)" in html.unescape(page)
