"""The board's texts in Finnish (firmware/words.py): the English text as the code writes it
-> what a Finnish referee reads. Loaded only on a board set to Finnish; a text not here shows
in English. Words from docs/glossary.md (teikkaus, aloituslyonti, kasipallo, rangaistus-
lyonnit, peliaika); Ä and Ö draw as A and O, so no word here turns into another without
its dots ("KASI" would read as eight: ball in hand is KP). Each text fits its display as its
English does (tests/firmware/test_words.py)."""

WORDS = {
    # the match (firmware/screens.py)
    "%s WON": "%s VOITTI",  # scrolls: the result stands, no abbreviation of the win
    "%s WON %d-%d": "%s VOITTI %d-%d",
    "%s BRK?": "%s ALOITUS?",
    "%s BRK": "%s ALO",  # aloituslyonti
    "LAG 1/2?": "TEIK 1/2",  # teikkaus
    "%s WARN": "%s VAROITUS",
    "%s BIH": "%s KP",  # kasipallo
    "SHOOTOUT LAG 1/2?": "RANGAISTUSLYONNIT TEIK 1/2",
    "%s SO": "%s RL",  # rangaistuslyonnit
    "%s 1D": "%s 1P",  # the one-dot cue ball: yhden pisteen pallo
    "%s 2D": "%s 2P",
    "1DOT": "1PISTE",
    "2DOT": "2PISTE",
    "1ST": "ENSIN",
    "2ND": "TOISENA",
    "PLAY": "PELAA",
    "BRK": "ALO",
    "BIH": "KP",
    # refusals (screens.REFUSAL_SHORT)
    "LAG 1ST": "TEIKKAUS",
    "WHO BRK?": "KUKA ALO",
    "CHOOSE": "VALITSE",
    "NO UNDO": "EI KUMOA",
    "GAME END": "PELI OHI",
    # the menu (firmware/menu.py): # starts the match
    "%s GO": "%s #",
    "%s %s-%s GO": "%s %s-%s #",
    "9BALL": "9PALLO",
    "8BALL": "8PALLO",
    # Kaisa's clock and panel (firmware/kaisa_face.py, referee_kaisa.py)
    "NO CLOCK": "EI KELLO",
    "5 MIN LEFT": "5 MIN JALJELLA",
    "TIME UP": "AIKA OHI",
    "BREAK OVER": "TAUKO OHI",
    "BREAK 1/2?": "TAUKO 1/2?",
    "%s BREAK": "%s TAUKO",
    "WHT": "VALK",
    "RED": "PUN",
    # the panel (firmware/referee.py)
    "KEY 1/2": "1 TAI 2",
    "CLEARED": "PYYHITTY",
    "NO BALL": "EI PALLO",
    "GIVE UP 1/2?": "LUOVUTUS 1/2?",
}
