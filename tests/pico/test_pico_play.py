"""Whole matches on the emulated Pico, played at its keypad and read from its displays (the
HT16K33 RAM its I2C writes leave): every display, and whose score carries the shooter's
mark, after every key, against the same firmware and rules engine on a desk board."""

from __future__ import annotations

from twin import alike, desk, play, view

# 9-ball, race to 2: the lag to PL 2, who lets PL 1 break; a dry break, a push out played
# on, a foul (ball in hand), the 9 on a legal shot, then the 9 on the break: PL 1 wins.
NINE_BALL = "2#21ACA2BA9A9A#"
# Kaisa to 20 points with the game clock on: the lag to PL 2, who takes two-dot; kaisas,
# a nakki and a red, misses between; PL 1 reaches 20.
KAISA = "CCCB20#22A3A33A72A3A3A3"


def test_a_nine_ball_race_to_two_at_the_keypad(pico):
    twin = desk(pico.now)
    views = play(pico, twin, NINE_BALL)
    assert views[-2][:4] == ("   2", "   0", "  r2", "PL 1 WON")
    assert views[-1][3] == "9BALL GO"  # the menu: the result filed


def test_a_kaisa_game_with_its_clock_at_the_keypad(pico):
    twin = desk(pico.now)
    views = play(pico, twin, KAISA)
    clocks = [v[2] for v in views if ":" in v[2] and v[2].strip()[:1].isdigit()]
    assert clocks[0] == "60:00" and clocks[-1] < "59:58"  # the clock ran, seen at each key
    assert views[-1][:2] == ("  24", "  17") and twin.app.match.state.finished
    pico.run(3000)  # the shot's points leave the message row: the result stays
    twin.run(3000)
    assert alike(view(pico), view(twin)) and view(pico)[3] == "PL 1 WON"


def test_pilkku_sim_on_the_emulated_pico(tmp_path, flashed, monkeypatch, capsys):
    """`pilkku sim --pico --script`: the frames printed as on the virtual board."""
    import shutil

    from host import cli
    from host.board.pico import ready

    image = flashed(True).image
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    ready.cache_folder().mkdir(parents=True)
    shutil.copy(image, ready.cache_folder() / image.name)  # flashed already
    script = tmp_path / "race.txt"
    script.write_text("# a race to 1\n1\n#\n1\n1\n9\nA\n", encoding="utf-8")
    code = cli.main(["sim", "--pico", "--script", str(script), "--dir", str(tmp_path / "p")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == " PL 1 |  PL 2 |   r5 | 9BALL GO" and out[1] == "# a race to 1"
    assert out[-1] == "A                1 |     0 |   r1 | PL 1 WON"
