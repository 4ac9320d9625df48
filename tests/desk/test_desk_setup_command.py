"""`pilkku desk` on a new store (no tournament yet): it starts, says there is none yet, its
director's link opens the setup page, a tournament made there is the one the desk and the
boards' sync follow, and it stops cleanly (its sync thread waited for the tournament instead
of stopping on "no tournament")."""

from __future__ import annotations

import html
import re

from host.desk import guard
from tests.desk.running import Running, free_port
from tests.host.watch_setup import runtime_folder


def test_the_desk_on_a_new_store_opens_on_its_setup(tmp_path):
    db = tmp_path / "new.db"
    desk = Running(db, free_port(), runtime_folder())  # its link opened at once
    try:
        assert "the desk (no tournament yet: set one up at the director's link)" in "".join(
            desk.lines)
        status, page = desk.open("/desk")  # led to the setup page
        assert status == 200 and "A new tournament" in page
        token = guard.form_token(type("H", (), {"token": desk.token})())
        status, page = desk.open("/desk/setup/new", {
            "name": "Kevät Cup", "game": "kaisa", "race": "60", "format": "round_robin",
            "tables": "2", "csrf": token})
        assert status == 200 and "Tournament 'Kevät Cup'" in html.unescape(page)
        tid = re.search(r'name="tournament" value="(\d+)"', page).group(1)
        status, page = desk.open("/desk/setup/paste", {"tournament": tid, "names": "A\nB\nC",
                                                       "csrf": token})
        assert status == 200 and "Players added: 3 (3 in all)" in page
        status, page = desk.open("/desk")  # the night's screen of the new tournament
        assert status == 200 and "Kevät Cup" in page
    finally:
        out = desk.stop()
    assert "the desk stopped" in out and "Traceback" not in out
    assert "sync: stopped" not in out, out
