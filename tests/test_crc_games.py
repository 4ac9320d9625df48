"""Two small pieces every match rests on: the CRC-32 that guards the journal's records and the
sync frames (the port's, or the fallback a port without binascii uses: both must be zlib's),
and the table of games (a game's module is loaded when its first match is made, once)."""

from __future__ import annotations

import zlib

import pytest

from rules_core import crc, games

DATA = [b"", b"a", b"123456789", bytes(range(256)), "Äänestys ✓".encode(), b"\xff" * 97]


@pytest.mark.parametrize("data", DATA)
def test_both_crcs_are_zlibs(data):
    assert crc.soft_crc32(data) == zlib.crc32(data)
    assert crc.crc32(data) == zlib.crc32(data)


def test_the_check_value_and_chaining():
    assert crc.soft_crc32(b"123456789") == 0xCBF43926  # CRC-32's published check value
    whole = b"".join(DATA)
    running = 0
    soft = 0
    for piece in DATA:  # a record written piece by piece gets the CRC of the whole
        running = crc.crc32(piece, running)
        soft = crc.soft_crc32(piece, soft)
    assert running == soft == zlib.crc32(whole)


def test_the_crc_is_unsigned_whatever_the_port_gives(monkeypatch):
    monkeypatch.setattr(crc, "_port_crc32", lambda data, value: -1)  # a port's signed int
    assert crc.crc32(b"x") == 0xFFFFFFFF


@pytest.mark.parametrize("name, module", [
    ("9ball", "rules_core.nineball"), ("8ball", "rules_core.eightball"),
    ("kaisa", "rules_core.kaisa"), ("14.1", "rules_core.straight"),
])
def test_each_game_is_loaded_once_by_its_settings_name(monkeypatch, name, module):
    monkeypatch.setattr(games, "_loaded", {})  # as on a board just powered on
    game = games.get(name)
    assert game.__name__ == module and game.NAME == name
    assert games._loaded == {name: game}
    assert games.get(name) is game


@pytest.mark.parametrize("name", ["9BALL", "nineball", "", None, 9, ["9ball"], "14"])
def test_an_unknown_game_is_none(monkeypatch, name):
    monkeypatch.setattr(games, "_loaded", {})
    assert games.get(name) is None
    assert games._loaded == {}
