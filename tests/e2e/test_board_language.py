"""A board in Finnish end to end: the tournament's boards set to Finnish in the store, a
virtual board (the firmware in the MicroPython unix port, its displays decoded from HT16K33
RAM) synced as `pilkku sync` syncs it: its menu and a Kaisa game through its keypad read in
Finnish, English where the Finnish table has no text, and still Finnish after a power cut."""

from __future__ import annotations

from displays import play, power_cut, seen

from host.sync.session import Link, SyncError, sync_board
from host.tournament import night
from host.tournament.store import Store
from tests.host.sync_setup import desk, make_board


def kaisa_night(path) -> tuple[str, bytes]:
    """A Kaisa night (to 60) of Anna and Ben at one table, its boards in Finnish."""
    with Store.open(path) as store:
        tid = night.new_tournament(store, "Kaisailta", "kaisa", 60)
        night.import_players(store, tid, [(2, "Anna", ""), (3, "Ben", "")])
        night.draw_round_robin(store, tid)
        night.set_tables(store, tid, 1)
        store.tournaments.set_board_language(tid, "fi")
        return str(path), store.tournaments.key(tid)


def synced(port: str, db: str, key: bytes) -> dict:
    """`pilkku sync` of one board (host/sync/commands.py: the tournament's board language)."""
    laptop = desk(db)
    for attempt in range(5):
        link = Link(port, key)
        try:
            return sync_board(link, laptop.store_result, laptop.schedule_for,
                              say=lambda _s: None, lang=laptop.board_language())
        except SyncError:
            if attempt == 4:
                raise
        finally:
            link.close()
    raise AssertionError("unreachable")


def test_a_board_set_to_finnish_shows_its_menu_and_a_kaisa_game_in_finnish(tmp_path, firmware):
    db, key = kaisa_night(tmp_path / "results.db")
    board = make_board(tmp_path / "board", firmware, key)
    try:
        assert seen(board)[3] == "9BALL GO"  # a new board speaks English
        assert synced(board.pty_path, db, key)["scheduled"] == 1
        board.run(100)
        menu = seen(board)
        assert menu[3].startswith("R1-") and "GO" not in menu[3]  # "R1-01 ANNA-BEN #" scrolls
        board.tap("C")
        assert seen(board)[3] == "9PALLO #"
        board.tap("C")
        assert seen(board)[3] == "8PALLO #"
        board.tap("C")
        board.tap("C")
        assert seen(board)[3] == "KAISA #"
        board.tap("C")  # back to the scheduled match: Anna and Ben
        play(board, [
            ("#", ("   0", "   0", " -60", "TEIK 1/2")),  # the lag (teikkaus)
            ("2", ("   0", "   0", " -60", "BEN 1 1P")),  # "BEN 1 1PISTE 2 2PISTE" scrolls
            ("2", ("   0", "   0", " -60", "ANNA 1P")),  # Ben takes two-dot: Anna opens
            ("A", ("   0", "   0", " -60", "BEN 2P")),  # the opening shot misses
            ("92", ("   0", "   9", " -60", "PUN+K 9")),  # a red (punainen), nakki on kaisa
        ])
        board.run(2600)  # the shot's points leave the row
        play(board, [
            ("B", ("   0", "   9", " -60", "FSCR")),  # a foul's kind: no Finnish text, English
            ("D", ("   0", "   9", " -60", "BEN 2P")),
            ("0", ("   0", "   9", " -60", "+?")),
            ("D", ("   0", "   9", " -60", "BEN 2P")),
        ])
        power_cut(board)
        assert seen(board) == ("   0", "   9", " -60", "BEN 2P")  # Finnish after a power cut
        play(board, [
            ("*", ("   0", "   9", " -60", "*")),
            ("1", ("   0", "   9", " -60", "BEN VOIT")),  # Anna concedes: "BEN VOITTI 60-0"
        ])
    finally:
        board.close()
