"""The board's words in its language: `w("LAG 1/2?")` is the text the displays show for an
English text of the firmware, in the language the laptop set (firmware/config.py keeps it).

English is the code itself: each text the displays show is written in English where it is
made (firmware/screens.py, menu.py, referee*.py, kaisa_face.py) and passed through `w`, as
gettext does. A language's table (firmware/words_fi.py, words_sv.py) maps those English
texts, placeholders and all, to its own; it is imported only when the board is set to that
language, and the last language's table is dropped from the heap. A text a table lacks
shows in English. tests/firmware/test_words.py checks that each table's texts are the
code's texts, keep their placeholders and fit the displays as the English do.

The 14-segment font has no room for a diacritic (hardware/segments.py): Ä Ö Å draw as A O A,
so the tables are written in capitals without them, with words that still read one way
("EI PALLO", never a word that turns into another without its dots).
"""

import sys

LANGUAGES = ("en", "fi", "sv")

_lang = ["en", None]  # [the language, its table: None for English]


def use(lang):
    """Show the displays' texts in `lang` ("en", "fi", "sv"); anything else is English.
    Returns the language now in use."""
    if lang not in LANGUAGES:
        lang = "en"
    if lang == _lang[0]:
        return lang
    _drop("words_" + _lang[0])  # the old table's heap goes at the next collection
    table = None
    if lang == "fi":
        from firmware import words_fi
        table = words_fi.WORDS
    elif lang == "sv":
        from firmware import words_sv
        table = words_sv.WORDS
    _lang[0] = lang
    _lang[1] = table
    return lang


def _drop(name):
    sys.modules.pop("firmware." + name, None)
    import firmware
    if hasattr(firmware, name):
        delattr(firmware, name)


def language():
    return _lang[0]


def w(text):
    """`text` (the English, as written in the code) in the board's language."""
    table = _lang[1]
    if table is None:
        return text
    return table.get(text, text)
