"""The board's words in its language: `w("LAG 1/2?")` is the text the displays show for an
English text of the firmware, in the language the laptop set (firmware/config.py keeps it).

English is the code itself: each text the displays show is written in English where it is
made (firmware/screens.py, menu.py, referee*.py, kaisa_face.py) and passed through `w`, as
gettext does. A language's texts (firmware/words_fi.py, words_sv.py: one string, a line
"ENGLISH=TRANSLATION" a text, placeholders and all) are read into a table when the board is
set to that language, and the module is dropped again: the table is all that stays. A text
the table lacks shows in English. tests/firmware/test_words.py checks that each table's
texts are the code's texts, keep their placeholders and fit the displays as the English do.

Why one string and not a dict literal: every short string literal of a module is a name the
board interns for good, and the names' pool grows by doubling (docs/performance.md, "A cliff
to know"): forty translations as literals brought the next pool, 14 KB, on Kaisa's path. The
string's pieces are plain strings, freed with the table.

The 14-segment font has no room for a diacritic (hardware/segments.py): Ä Ö Å draw as A O A,
so the texts are written in capitals without them, with words that still read one way.
"""

import sys

# The languages a board shows, English first: one definition, the laptop's too (the choices
# of a tournament's board language: host/tournament/store/tournaments.py BOARD_LANGUAGES).
# Here and not in rules_core/sync_protocol.py: the board loads that only once a laptop has
# spoken (9 KB and 80 names, firmware/unsynced.py), and it shows its language from the boot.
LANGUAGES = ("en", "fi", "sv")
_state = ["en", None]  # [the language, its table: None for English]


def use(lang):
    """Show the displays' texts in `lang` (one of LANGUAGES); anything else is English.
    Returns the language now in use."""
    if lang not in LANGUAGES:
        lang = "en"
    if lang != _state[0]:
        table = None
        if lang != "en":
            name = "firmware.words_" + lang  # built, not a literal: no name interned for it
            __import__(name)
            table = {}
            for line in sys.modules[name].text.split("\n"):
                at = line.find("=")
                if at > 0:
                    table[line[:at]] = line[at + 1:]
            del sys.modules[name]  # the module's code and string go at the next collection
            package = sys.modules.get("firmware")
            if package is not None and hasattr(package, "words_" + lang):
                delattr(package, "words_" + lang)
        _state[0] = lang
        _state[1] = table
    return lang


def w(text):
    """`text` (the English, as written in the code) in the board's language."""
    table = _state[1]
    if table is None:
        return text
    return table.get(text, text)
