"""The board's texts in Finnish and Swedish (firmware/words.py, words_fi.py, words_sv.py):
each table translates texts the code shows, keeps their placeholders, and each text fits the
message row (rendered through the HT16K33 model) when its English does; a board set to a
language shows it, keeps it across a power cut, and shows English for a text its table
lacks; a schedule's "lang" sets it, and a board of the firmware before it ignores the field."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from firmware import menu, referee_kaisa, screens, words, words_fi, words_sv
from firmware.config import Config
from hardware.boards import virtual
from hardware.panel import MESSAGE_1, MESSAGE_2, Panel
from rules_core import sync_protocol as sp

ROOT = Path(__file__).resolve().parents[2]


def table(lang: str) -> dict[str, str]:
    """The language's table as the board reads it (firmware/words.py use())."""
    words.use(lang)
    read = dict(words._state[1])
    words.use("en")
    return read


TABLES = {"fi": table("fi"), "sv": table("sv")}
MODULES = {"fi": words_fi, "sv": words_sv}
# The English texts the code passes through w(): the literals, and the tables' values it
# looks up (screens.CHOICE_SHORT, REFUSAL_SHORT, menu.GAME_LABEL, referee_kaisa.BALL_SHORT).
LOOKED_UP = (list(screens.CHOICE_SHORT.values()) + list(screens.REFUSAL_SHORT.texts.values())
             + list(menu.GAME_LABEL.values()) + list(referee_kaisa.BALL_SHORT))
# Texts whose English fits the row and whose translation scrolls: the winner is said whole
# (the result stands on the row; an abbreviated win reads as anything).
SCROLL = {"fi": {"%s WON"}, "sv": {"%s WON"}}
# Sample arguments: a player's tag is at most 4 cells ("ANNA", "PL 1"), a number 2 digits.
SAMPLE = {"s": "ANNA", "d": "60"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    words.use("en")  # the language is the board's (a module's): the next test starts English


def code_texts() -> set[str]:
    found = set(LOOKED_UP)
    for path in sorted((ROOT / "firmware").glob("*.py")):
        found.update(re.findall(r'\bw\("((?:[^"\\]|\\.)*)"\)', path.read_text()))
    return found


def placeholders(text: str) -> list[str]:
    return re.findall(r"%[sd]", text)


def filled(text: str) -> str:
    return re.sub(r"%([sd])", lambda m: SAMPLE[m.group(1)], text)


def on_the_row(text: str) -> str:
    """What the 8-cell message row shows of `text` (two 14-segment backpacks, read back)."""
    bus = virtual.model_bus()
    panel = Panel(virtual.ForwardingI2C(bus))
    panel.init()
    panel.message.text(text)
    panel.show()
    return (bus.text(MESSAGE_1) + bus.text(MESSAGE_2)).rstrip()


def test_the_board_and_the_laptop_know_one_list_of_languages():
    """The languages the laptop offers a tournament's boards (host/tournament/store/
    tournaments.py) are the ones the board shows, one definition: each has its table, and
    anything else shows English."""
    from host.tournament.store.tournaments import BOARD_LANGUAGES

    assert BOARD_LANGUAGES is words.LANGUAGES and words.LANGUAGES[0] == "en"
    for lang in words.LANGUAGES:
        assert words.use(lang) == lang
        assert lang == "en" or (ROOT / "firmware" / ("words_%s.py" % lang)).is_file()
    for other in ("de", "FI", "", None, 7):
        assert words.use(other) == "en"


def test_the_code_passes_its_texts_through_the_words():
    texts = code_texts()
    assert {"LAG 1/2?", "%s WON", "KAISA", "TIME UP", "NO BALL", "CHOOSE"} <= texts
    assert len(texts) > 40


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_each_table_translates_texts_the_code_shows(lang):
    unknown = sorted(set(TABLES[lang]) - code_texts())
    assert unknown == [], "%s: texts the code no longer shows: %s" % (lang, unknown)


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_each_line_of_a_language_is_one_text_read_once(lang):
    lines = [line for line in MODULES[lang].text.split("\n") if line]
    assert len(lines) == len(TABLES[lang]) > 20  # no English text twice, none without "="
    assert all(line.count("=") == 1 for line in lines)


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_a_translation_keeps_its_placeholders(lang):
    for english, text in sorted(TABLES[lang].items()):
        assert placeholders(text) == placeholders(english), (lang, english, text)


def test_the_row_reads_back_what_it_is_given():
    assert on_the_row("TEIK 1/2") == "TEIK 1/2"
    assert on_the_row("PL 1 VOITTI") == "PL 1 VOI"  # longer: it scrolls, 8 cells at a time
    assert on_the_row("VÄÄRÄ") == "VAARA"  # no dots on a 14-segment cell: read another word


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_every_text_fits_the_message_row_as_its_english_does(lang):
    for english, text in sorted(TABLES[lang].items()):
        shown = on_the_row(filled(text))
        # Every character draws as itself (capitals, no Ä Ö Å: they would read as A O A).
        assert shown == filled(text)[:len(shown)], (lang, text, shown)
        assert filled(text) == filled(text).upper() and text.isascii(), (lang, text)
        if on_the_row(filled(english)) == filled(english) and english not in SCROLL[lang]:
            assert shown == filled(text), (lang, english, "%r does not fit" % text)


def test_a_board_set_to_finnish_shows_finnish_and_english_where_the_table_has_none(
        monkeypatch):
    assert words.use("fi") == "fi"
    assert words.w("LAG 1/2?") == "TEIK 1/2"
    assert words.w("NO PUSH") == "NO PUSH"  # not in the table: English
    monkeypatch.delitem(words._state[1], "TIME UP")  # a text the Finnish table lacks
    assert words.w("TIME UP") == "TIME UP"
    assert screens.REFUSAL_SHORT.get("match_over") == "PELI OHI"
    assert screens.REFUSAL_SHORT.get("no_push") == "NO PUSH"
    assert screens.REFUSAL_SHORT.get("unknown") is None
    assert words.use("de") == "en" and words.w("LAG 1/2?") == "LAG 1/2?"
    assert words.use("sv") == "sv" and words.w("TIME UP") == "TID SLUT"
    assert words.use("fi") == "fi" and words.w("TIME UP") == "AIKA OHI"  # read again, whole
    # The language's module is dropped once read: only its table stays.
    assert "firmware.words_fi" not in sys.modules and "firmware.words_sv" not in sys.modules


def language(config: Config) -> str:
    return config.values.get("lang") or "en"


def test_the_language_is_kept_on_the_board_and_read_at_boot(tmp_path):
    config = Config(str(tmp_path) + "/")
    assert language(config) == "en" and words._state[0] == "en"
    config.set_language("fi")
    assert words.w("TIME UP") == "AIKA OHI"
    words.use("en")
    again = Config(str(tmp_path) + "/")  # a power cut: the language is read back
    assert language(again) == "fi" and words.w("TIME UP") == "AIKA OHI"
    again.set_language("xx")  # a language this firmware has not: English
    assert language(Config(str(tmp_path) + "/")) == "en" and words._state[0] == "en"


# --- the schedule's "lang" ---------------------------------------------------------------

def _desk_and_laptop():
    from test_sync_endpoint import Laptop, desk_board

    desk = desk_board()
    laptop = Laptop(desk)
    assert laptop.hello()["ok"] is True
    return desk, laptop


def test_a_schedule_sets_the_boards_language_and_the_menu_speaks_it():
    desk, laptop = _desk_and_laptop()
    assert desk.app.frame()[3] == "9BALL GO"
    assert laptop.ask(sp.SCHEDULE, {"matches": [], "lang": "fi"}) == {"ok": True, "count": 0}
    assert desk.app.frame()[3] == "9PALLO #"
    assert language(desk.app.config) == "fi"
    again = desk.power_cut()
    assert again.app.frame()[3] == "9PALLO #"
    assert laptop.ask(sp.SCHEDULE, {"matches": [], "lang": 7}) == {
        "ok": False, "error": "bad request: 'lang' must be a text of at most 8 characters"}
    assert laptop.ask(sp.SCHEDULE, {"matches": []}) == {"ok": True, "count": 0}
    assert language(desk.app.config) == "fi"  # a laptop that says nothing leaves it


def test_a_board_of_the_firmware_before_the_language_ignores_the_field(monkeypatch):
    # The board's end of the sync as it was before the language (its last commit without it).
    old = subprocess.run(["git", "show", "a452229:firmware/sync_endpoint.py"], cwd=ROOT,
                         capture_output=True, text=True)
    if old.returncode != 0:
        pytest.skip("no git history here: %s" % old.stderr.strip())
    module = types.ModuleType("firmware.sync_endpoint")
    module.__file__ = str(ROOT / "firmware" / "sync_endpoint.py")
    exec(compile(old.stdout, "old sync_endpoint.py", "exec"), module.__dict__)
    assert "lang" not in old.stdout
    monkeypatch.setitem(sys.modules, "firmware.sync_endpoint", module)
    desk, laptop = _desk_and_laptop()
    assert type(desk.app.endpoint).__module__ == "firmware.sync_endpoint"
    assert desk.app.endpoint.__class__ is module.Endpoint
    matches = [{"match_id": "R1-01", "settings": {"game": "kaisa", "players": ["A", "B"],
                                                  "race_to": 60}}]
    assert laptop.ask(sp.SCHEDULE, {"matches": matches, "lang": "fi"}) == {
        "ok": True, "count": 1}
    assert language(desk.app.config) == "en" and desk.app.frame()[3].endswith(" GO")


# --- the heap -----------------------------------------------------------------------------

HEAP_PROBE = """import gc
import micropython
from firmware import app, words
def names():
    micropython.qstr_info()
gc.collect()
before = gc.mem_alloc()
names()
words.use(%r)
gc.collect()
print("HEAP", gc.mem_alloc() - before, len(words._state[1]))
names()
"""


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_a_language_costs_its_table_and_interns_no_name_per_text(lang, tmp_path):
    # The firmware compiled as the board runs it, in the MicroPython unix port: the table
    # is a few KB, and its texts are not interned (forty new names brought the names'
    # pool's next 14 KB on Kaisa's path: docs/performance.md).
    from host.board import toolchain

    toolchain.compile_packages(tmp_path)
    (tmp_path / "probe.py").write_text(HEAP_PROBE % lang)
    done = subprocess.run([toolchain.micropython_binary(), "-X", "heapsize=320k",
                           str(tmp_path / "probe.py")], capture_output=True, text=True,
                          env=dict(os.environ, MICROPYPATH=str(tmp_path)))
    assert done.returncode == 0, done.stderr
    pools = [int(line.split("n_qstr=")[1].split(",")[0]) for line in done.stdout.splitlines()
             if line.startswith("qstr pool:")]
    (heap,) = [line.split()[1:] for line in done.stdout.splitlines() if line.startswith("HEAP")]
    assert int(heap[1]) == len(TABLES[lang])
    assert int(heap[0]) < 128 * len(TABLES[lang]), heap  # 64-bit: 4.5 KB for Finnish's 41
    assert pools[1] - pools[0] <= 3, pools  # the module's name and its "text"
