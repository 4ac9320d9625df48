"""The board's texts in Finnish (firmware/words.py): the English text as the code writes it
-> what a Finnish referee reads. Loaded only on a board set to Finnish; a text not here shows
in English. Words from docs/glossary.md (teikkaus, aloituslyonti, kasipallo, rangaistus-
lyonnit, peliaika); Ä and Ö draw as A and O, so no word here turns into another without
its dots ("KASI" would read as eight: ball in hand is KP). Each text fits its display as its
English does (tests/firmware/test_words.py).

The abbreviations: ALO aloituslyonti (the break), TEIK teikkaus (the lag), KP kasipallo (ball
in hand), RL rangaistuslyonnit (the shootout), 1P/2P the one-dot and two-dot cue balls
(piste), PUN/VALK the red and the white; a win is said whole (VOITTI), it scrolls: the
result stands on the row, an abbreviated win reads as anything. The menu's # is the key that
starts the match. The fouls' short names stay as on the referee's card (docs/referee.md)."""

# A line "ENGLISH=TRANSLATION" a text (firmware/words.py reads it into a table).
text = """
%s WON=%s VOITTI
%s WON %d-%d=%s VOITTI %d-%d
%s BRK?=%s ALOITUS?
%s BRK=%s ALO
LAG 1/2?=TEIK 1/2
%s WARN=%s VAROITUS
%s BIH=%s KP
SHOOTOUT LAG 1/2?=RANGAISTUSLYONNIT TEIK 1/2
%s SO=%s RL
%s 1D=%s 1P
%s 2D=%s 2P
1DOT=1PISTE
2DOT=2PISTE
1ST=ENSIN
2ND=TOISENA
PLAY=PELAA
BRK=ALO
BIH=KP
LAG 1ST=TEIKKAUS
WHO BRK?=KUKA ALO
CHOOSE=VALITSE
NO UNDO=EI KUMOA
GAME END=PELI OHI
%s GO=%s #
%s %s-%s GO=%s %s-%s #
9BALL=9PALLO
8BALL=8PALLO
NO CLOCK=EI KELLO
5 MIN LEFT=5 MIN JALJELLA
TIME UP=AIKA OHI
BREAK OVER=TAUKO OHI
BREAK 1/2?=TAUKO 1/2?
%s BREAK=%s TAUKO
WHT=VALK
RED=PUN
KEY 1/2=1 TAI 2
CLEARED=PYYHITTY
NO BALL=EI PALLO
GIVE UP 1/2?=LUOVUTUS 1/2?
CONFIG DAMAGED: PAIR AGAIN=ASETUKSET RIKKI: PARITA UUDELLEEN
SCHEDULE DAMAGED: SYNC AGAIN=PELIOHJELMA RIKKI: SYNKRONOI UUDELLEEN
"""
