"""The players files clubs have (issue 27, item 6): what Finnish Excel saves (';', Windows-1252,
a Finnish header), UTF-8 with or without a BOM, UTF-16 from Excel's "Unicode text", first
names and surnames in columns of their own, a bare list of names; each read as the director
meant, and said back how it was read."""

from __future__ import annotations

import pytest

from host.tournament.night.players_file import read_players
from host.tournament.store.schema import ImportRefused

FINNISH = "Nimi;Seura;Lisenssi\r\nEeva Äijälä;BK Oulu;123\r\nMatti Mäkelä;;\r\nÅke Öst;Åbo BK;9\r\n"
NAMES = [(2, "Eeva Äijälä", "BK Oulu"), (3, "Matti Mäkelä", ""), (4, "Åke Öst", "Åbo BK")]


@pytest.mark.parametrize("data, encoding", [
    (FINNISH.encode("cp1252"), "Windows-1252"),
    (FINNISH.encode("utf-8"), "UTF-8"),
    (b"\xef\xbb\xbf" + FINNISH.encode("utf-8"), "UTF-8"),
    (FINNISH.replace(";", "\t").encode("utf-16"), "UTF-16"),
])
def test_what_finnish_excel_saves_is_read_as_meant(tmp_path, data, encoding):
    path = tmp_path / "pelaajat.csv"
    path.write_bytes(data)
    rows, how = read_players(str(path))
    assert rows == NAMES
    assert encoding in how and "Nimi" in how
    assert "not used: Lisenssi" in how  # a column pilkku does not use is named, not refused


def test_a_comma_file_with_an_english_header(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text('name,club\nAnna,"BK, Kuopio"\nBen,\n')
    rows, how = read_players(str(path))
    assert rows == [(2, "Anna", "BK, Kuopio"), (3, "Ben", "")]
    assert "separated by ','" in how


def test_a_swedish_header(tmp_path):
    path = tmp_path / "spelare.csv"
    path.write_text("Namn;Förening\nÅsa Lind;Vasa BK\n", encoding="utf-8")
    assert read_players(str(path))[0] == [(2, "Åsa Lind", "Vasa BK")]


def test_first_name_and_surname_columns_are_joined(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("Sukunimi;Etunimi;Seura\nÄijälä;Eeva;BK Oulu\n", encoding="utf-8")
    rows, how = read_players(str(path))
    assert rows == [(2, "Eeva Äijälä", "BK Oulu")] and "joined" in how


def test_a_bare_list_of_names(tmp_path):
    path = tmp_path / "names.txt"
    path.write_bytes("Eeva Äijälä\r\nMatti  Mäkelä\r\n\r\nJussi Korhonen\r\n".encode("cp1252"))
    rows, how = read_players(str(path))
    assert [r[1] for r in rows] == ["Eeva Äijälä", "Matti Mäkelä", "Jussi Korhonen"]
    assert rows[0][0] == 1 and "no header" in how and "one column" in how


def test_a_bare_list_with_clubs(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("Eeva Äijälä;BK Oulu\nMatti Mäkelä;\n", encoding="utf-8")
    assert read_players(str(path))[0] == [(1, "Eeva Äijälä", "BK Oulu"), (2, "Matti Mäkelä", "")]


def test_a_players_column_among_others(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("Nro;Pelaajan nimi;Seura\n1;Eeva;X\n", encoding="utf-8")
    rows, how = read_players(str(path))
    assert rows == [(2, "Eeva", "X")] and "not used: Nro" in how


@pytest.mark.parametrize("data, says", [
    (b"\xff\xfe\x00\xd8", "says UTF-16 but is not"),
    (b"nimi\nA\x81b\n", "line 2: neither UTF-8 nor Windows-1252"),
    (b"x" * (1 << 20) + b"xx", "over 1024 KB"),
    (b"nimi;seura\nEeva;X;extra\n", "line 2: 3 fields, the header has 2"),
])
def test_what_is_no_players_list_is_refused(tmp_path, data, says):
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    with pytest.raises(ImportRefused) as refused:
        read_players(str(path))
    assert says in str(refused.value.args[0])

