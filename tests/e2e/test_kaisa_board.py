"""Kaisa end to end: the firmware in the MicroPython unix port on the virtual board, a game
played through its keypad with the game clock on, read from its displays (decoded HT16K33
RAM) after every step; the power pulled in the middle and on a break; time up, the final
innings and the shootout to a result."""

from __future__ import annotations

from displays import play, power_cut, seen

from firmware.kaisa_face import SAVE_QUIET_MS

MINUTE = 60 * 1000




def settle(board) -> None:
    board.run(2600)  # the shot's points leave the message row



def seconds(clock: str) -> int:
    minutes, secs = clock.strip().lstrip("b").split(":")
    return int(minutes) * 60 + int(secs)


def test_a_kaisa_game_through_the_keypad_with_the_clock_and_power_cuts(board):
    play(board, [
        ("CCC", ("PL 1", "PL 2", " r60", "KAISA GO")),
        ("B", ("PL 1", "PL 2", " r:60", "KAISA GO")),  # the game clock on
        ("30", ("PL 1", "PL 2", " r:30", "KAISA GO")),
        ("#", ("   0", "   0", "60:00", "LAG 1/2?")),
        ("2", ("   0", "   0", "60:00", "PL 2 1 1")),  # "PL 2 1 1DOT 2 2DOT" scrolls
        ("2", ("   0", "   0", "60:00", "PL 1 1D")),  # PL 2 takes two-dot: PL 1 opens
    ])
    board.run(30000)
    play(board, [
        ("A", ("   0", "   0", "59:30", "PL 2 2D")),  # the opening shot misses
        ("92", ("   0", "   9", None, "RED+K 9")),  # a red, nakki on the kaisa
    ])
    settle(board)
    play(board, [
        ("3", ("   0", "  15", None, "KAISA 6")),
        ("88", ("   0", "  15", None, "NK RR")),  # entering: nakki on both reds
        ("1", ("   0", "  22", None, "WHT+RR 7")),  # the white, nakki on both reds
    ])
    settle(board)
    assert seen(board)[3] == "PL 2 2D"
    play(board, [
        ("B", ("   0", "  22", None, "FSCR")),
        ("8", ("   0", "  19", None, "FSCR -3")),  # the cue ball in, first a red: -3
    ])
    board.run(2 * MINUTE, tick=1000)
    before = seen(board)
    assert before[:2] == ("   0", "  19") and before[3] == "PL 1 BIH"
    power_cut(board)
    after = seen(board)
    assert after[:2] + after[3:] == before[:2] + before[3:]  # score, shooter, ball in hand
    # the clock: from its last write (a quiet table's: every SAVE_QUIET_MS)
    assert 0 <= seconds(after[2]) - seconds(before[2]) <= SAVE_QUIET_MS // 1000
    play(board, [
        ("B", ("   0", "  19", None, "FSCR")),
        ("B", ("   0", "  19", None, "FHAND")),  # from hand: HAND comes second
        ("D", ("   0", "  19", None, "PL 1 BIH")),
        ("*C", ("   0", "  19", None, "BREAK 1/")),
    ])
    game_time = seconds(seen(board)[2])
    play(board, [("1", ("   0", "  19", "b5:00", "PL 1 BRE"))])  # "PL 1 BREAK" scrolls
    board.run(MINUTE, tick=1000)
    assert seen(board)[2] == "b4:00"
    power_cut(board)  # on the break
    assert seconds(seen(board)[2]) - seconds("b4:00") in range(SAVE_QUIET_MS // 1000 + 1)
    assert seen(board)[3] == "PL 1 BRE"
    play(board, [("C", ("   0", "  19", None, "PL 1 BIH"))])
    assert seconds(seen(board)[2]) in (game_time, game_time - 1)  # the game time stood still
    # The rest of the hour: five minutes left, then time up.
    board.run((seconds(seen(board)[2]) - 5 * 60 - 3) * 1000, tick=1000)
    while seen(board)[2] != " 5:00":
        assert seconds(seen(board)[2]) > 300 and seen(board)[3] == "PL 1 BIH"
        board.run(1000, tick=1000)
    assert seen(board)[3] == "5 MIN LE"  # and the buzzer
    board.run(5 * MINUTE, tick=1000)
    assert seen(board)[2:] == ("F1-2", "TIME UP")  # PL 1 (one-dot) was at the table
    settle(board)
    power_cut(board)
    assert seen(board) == ("   0", "  19", "F1-2", "PL 1 BIH")
    play(board, [
        ("2", ("   3", "  19", "F1-2", "RED 3")),  # his inning goes on
        ("A", ("   3", "  19", "F1-1", "PL 2 BIH")),  # his own scratch
        ("A", ("   3", "  19", "F0-1", "PL 1 1D")),
        ("A", ("   3", "  19", "F0-0", "PL 2 2D")),
        ("A", ("   3", "  19", "1010", "SHOOTOUT")),  # "SHOOTOUT LAG 1/2?" scrolls
        ("1", ("   3", "  19", "1010", "PL 1 1 1")),  # "PL 1 1 1ST 2 2ND"
        ("1", ("   3", "  19", "9-10", "PL 1 SO")),
        ("3", ("   9", "  19", "9-10", "KAISA 6")),  # from the centre into a corner: +6
    ])
    settle(board)
    play(board, [
        ("6", ("  15", "  19", "9-10", "KAISA M")),  # "KAISA M 6" scrolls
    ])
    settle(board)
    play(board, [
        ("6", ("  15", "  19", " 9-9", "KAISA MI")),  # straight middle twice: no score
    ])
    board.run(6000)  # "KAISA MIDDLE TWICE IN A ROW" scrolls once
    assert seen(board) == ("  15", "  19", " 9-9", "PL 2 SO")
    play(board, [
        ("3", ("  15", "  25", " 9-9", "KAISA 6")),
        ("3", ("  15", "  31", " 9-9", "KAISA 6")),  # PL 2 reaches 30: he wins at once
    ])
    settle(board)
    assert seen(board)[:3] == ("  15", "  31", " 9-9")
    assert seen(board)[3] == "PL 2 WON"  # "PL 2 WON 15-30" scrolls: the recorded result
    power_cut(board)
    assert seen(board)[:3] == ("  15", "  31", " 9-9")
    play(board, [("#", ("PL 1", "PL 2", "  r5", "9BALL GO"))])  # the menu, as after power-up


def test_undo_after_a_power_cut(board):
    play(board, [
        ("CCC20#11", ("   0", "   0", " -20", "PL 1 1D")),  # no game clock
        ("A", ("   0", "   0", " -20", "PL 2 2D")),
        ("72", ("   0", "   5", " -20", "RED+W 5")),
    ])
    power_cut(board)
    assert seen(board) == ("   0", "   5", " -20", "PL 2 2D")
    board.hold("D")
    assert seen(board) == ("   0", "   0", " -20", "PL 2 2D")
    board.tap("*")
    board.tap("D")
    assert seen(board) == ("   0", "   5", " -20", "PL 2 2D")
