"""The board's texts in Swedish (firmware/words.py): the English text as the code writes it
-> what a Finland-Swedish referee reads. Loaded only on a board set to Swedish; a text not
here shows in English (the pool words Swedish clubs say in English: break, lag, shootout).
Ä, Ö and Å draw as A, O and A, so no word here turns into another without its marks ("KÖR"
would read as cows). Each text fits its display as its English does
(tests/firmware/test_words.py).

The abbreviations: FRI fri boll (ball in hand), 1P/2P the one-dot and two-dot cue balls
(prick), VIT/ROD the white and the red; a win is said whole (VANN), it scrolls as in
Finnish. The fouls' short names stay as on the referee's card (docs/referee.md)."""

# A line "ENGLISH=TRANSLATION" a text (firmware/words.py reads it into a table).
text = """
%s WON=%s VANN
%s WON %d-%d=%s VANN %d-%d
%s BRK?=%s BREAK?
%s WARN=%s VARNING
%s BIH=%s FRI
%s 1D=%s 1P
%s 2D=%s 2P
1DOT=1PRICK
2DOT=2PRICK
1ST=FORST
2ND=ANDRA
PLAY=SPELA
BIH=FRI
CHOOSE=VALJ
NO UNDO=EJ ANGRA
GAME END=AVSLUTAD
BAD BALL=FEL BOLL
5 MIN LEFT=5 MIN KVAR
TIME UP=TID SLUT
BREAK OVER=PAUS SLUT
BREAK 1/2?=PAUS 1/2?
%s BREAK=%s PAUS
WHT=VIT
RED=ROD
CLEARED=RENSAT
NO BALL=EJ BOLL
GIVE UP 1/2?=GER UPP 1/2?
CONFIG DAMAGED: PAIR AGAIN=INSTALLNINGAR SKADADE: PARA IGEN
SCHEDULE DAMAGED: SYNC AGAIN=SPELSCHEMA SKADAT: SYNKA IGEN
"""
