"""Kaisa beyond the scenario files: enough scenarios, the example logs replayed to their
results, settings refused, the game clock and the respotting helper (on CPython and in the
MicroPython unix port), and Hypothesis stateful tests of the game."""

from __future__ import annotations

import json
import sys
from io import StringIO
from pathlib import Path

import engine_checks
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from unix_port import run_micropython

from host import cli
from rules_core.kaisa_clock import BREAK_MS, GAME_MS, Clock
from rules_core.kaisa_spots import kaisa_back, respot
from rules_core.match import Match
from rules_core.refusal import Refused

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios" / "kaisa"
MIN = 60 * 1000


def test_enough_kaisa_scenarios():
    files = [p for p in SCENARIOS.glob("*.json") if not p.name.startswith("_")]
    assert len(files) >= 40


# --- the example logs ----------------------------------------------------------------------

@pytest.mark.parametrize("name, score, winner, result, phase", [
    ("kaisa-60.json", [63, 40], 0, [60, 40], "play"),
    ("kaisa-final-innings.json", [53, 65], 1, [53, 60], "final"),
    ("kaisa-shootout.json", [34, 41], 1, [34, 41], "shootout"),
])
def test_examples_replay_to_their_result(capsys, name, score, winner, result, phase):
    assert cli.main(["replay", "--json", str(ROOT / "examples" / name)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["score"], state["winner"], state["result"], state["phase"]) == (
        score, winner, result, phase)
    assert state["finished"] is True


def test_replay_text_reads_inning_by_inning(capsys):
    assert cli.main(["replay", str(ROOT / "examples" / "kaisa-60.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  red middle + nakki kaisa = 9 (continues; respot red)" in lines
    assert "  FOUL cue ball pocketed, first contact red = -3" in lines
    assert lines[4].startswith("Inning 1: Aino Laine [one-dot ball, opening shot]")
    assert lines[-3].startswith("Result: Aino Laine 63 : 40 Eero Salo, Aino Laine wins "
                                "(recorded 60 : 40")


def test_replay_text_shows_the_phases(capsys):
    assert cli.main(["replay", str(ROOT / "examples" / "kaisa-shootout.json")]) == 0
    out = capsys.readouterr().out
    assert "TIME UP (Aino Laine 21 : 15 Eero Salo)" in out
    assert "[final inning 2 of 2, ball in hand]" in out
    assert "PENALTY SHOOTOUT (Aino Laine 24 : 17 Eero Salo)" in out
    assert "[shootout inning 10]" in out


# --- settings ------------------------------------------------------------------------------

def _match(race_to=60, rules=None):
    settings_ = {"game": "kaisa", "players": ["Aino", "Eero"], "race_to": race_to,
                 "breaker": 0}
    if rules is not None:
        settings_["rules"] = rules
    return Match(settings_)


@pytest.mark.parametrize("table", [
    {"side": {"red": {"-": 3}}}, {"corner": 3}, {"corner": {"blue": {"-": 1}}},
    {"corner": {"red": 3}}, {"corner": {"red": {"x": 3}}}, {"corner": {"red": {"k": 100}}},
    {"corner": {"red": {"k": True}}}, {"corner": {"red": {"k": "9"}}},
    {"corner": {"red": {"trick": 3}}}, {"middle": {"white": {"w": 2}}}, [], "table",
])
def test_malformed_point_table_is_refused(table):
    with pytest.raises(Refused) as refused:
        _match(rules={"points": table})
    assert refused.value.code == "bad_rules"
    assert "point table" in refused.value.text or "'points'" in refused.value.text


def test_club_table_replaces_entries_and_middle_follows_corner():
    match = _match(rules={"points": {"corner": {"red": {"k": 10}}, "middle": {"kaisa": {"-": 8,
                                                                               "trick": 6}}}})
    match.apply({"t": "shot", "call": "red", "pocket": "corner", "corner": ["red"]})
    match.apply({"t": "shot", "call": "red", "pocket": "middle", "middle": ["red"],
                 "nakki": ["kaisa"]})
    assert match.state.score == [13, 0]
    match.apply({"t": "shot", "call": "kaisa", "pocket": "middle", "middle": ["kaisa"]})
    assert match.state.score == [21, 0]


def test_race_to_must_make_sense_for_kaisa():
    with pytest.raises(Refused) as refused:
        _match(race_to=5)
    assert refused.value.code == "bad_settings"
    assert _match(race_to=60).state.race_to == 60


# --- the game clock ------------------------------------------------------------------------

def test_clock_five_minutes_left_then_time_up():
    clock = Clock()
    assert clock.poll(0) == []
    clock.start(1000)
    assert clock.poll(1000 + 55 * MIN - 1) == []
    assert clock.poll(1000 + 55 * MIN) == ["five_left"]
    assert clock.poll(1000 + 56 * MIN) == []
    assert clock.left(1000 + 59 * MIN) == MIN
    assert clock.poll(1000 + GAME_MS) == ["time_up"]
    assert clock.poll(1000 + GAME_MS + MIN) == []
    assert clock.left(1000 + 2 * GAME_MS) == 0


def test_clock_breaks_add_to_the_game_time():
    clock = Clock()
    clock.start(0)
    clock.take_break(0, 10 * MIN)
    assert clock.left(12 * MIN) == 50 * MIN  # stopped during the break
    assert clock.break_left(12 * MIN) == 3 * MIN
    clock.end_break(13 * MIN)
    assert clock.left(13 * MIN) == 50 * MIN
    clock.take_break(1, 20 * MIN)
    assert clock.poll(25 * MIN) == ["break_over:1"]  # 5 minutes used: the clock runs again
    assert clock.left(27 * MIN) == 41 * MIN  # 27 - 3 - 5 minutes played
    clock.end_break(27 * MIN)
    assert clock.left(27 * MIN) == 41 * MIN
    # 60 minutes of play + 3 + 5 minutes of breaks: time up at 68 minutes.
    assert clock.poll(63 * MIN - 1) == []
    assert clock.poll(63 * MIN) == ["five_left"]
    assert clock.poll(68 * MIN) == ["time_up"]


@pytest.mark.parametrize("steps, code", [
    ([("take_break", 0, 0)], "no_break"),  # not started
    ([("start", 0), ("start", 1)], "clock_started"),
    ([("start", 0), ("take_break", 0, 1), ("take_break", 1, 2)], "no_break"),
    ([("start", 0), ("take_break", 0, 1), ("end_break", 2), ("take_break", 0, 3)], "no_break"),
    ([("start", 0), ("end_break", 1)], "no_break"),
    ([("start", 0), ("take_break", 2, 1)], "bad_player"),
    ([("start", 0), ("take_break", 0, GAME_MS)], "no_break"),  # time is up
])
def test_clock_refuses(steps, code):
    clock = Clock()
    with pytest.raises(Refused) as refused:
        for name, *args in steps:
            getattr(clock, name)(*args)
    assert refused.value.code == code


def test_clock_survives_a_power_cut():
    clock = Clock()
    clock.start(0)
    clock.take_break(1, 30 * MIN)
    assert clock.poll(32 * MIN) == []
    saved = json.loads(json.dumps(clock.to_dict()))
    again = Clock.from_dict(saved)
    assert again.to_dict() == clock.to_dict()
    assert again.left(40 * MIN) == clock.left(40 * MIN) == 25 * MIN
    assert again.poll(40 * MIN) == clock.poll(40 * MIN) == ["break_over:1"]


def test_clock_break_is_capped():
    clock = Clock()
    clock.start(0)
    clock.take_break(0, 0)
    clock.end_break(20 * MIN)  # 20 minutes away: only 5 are added
    assert clock.left(20 * MIN) == GAME_MS - 15 * MIN
    assert clock.break_left(20 * MIN) == 0
    assert BREAK_MS == 5 * MIN


# --- respotting ----------------------------------------------------------------------------

@pytest.mark.parametrize("balls, taken, placed", [
    (["red"], [], [["red", "head_line"]]),
    (["kaisa"], [], [["kaisa", "centre"]]),
    (["red", "kaisa"], ["centre"], [["kaisa", "head_line"], ["red", "foot_line"]]),
    (["red", "red"], ["head_line"], [["red", "foot_line"], ["red", "head"]]),
    (["kaisa", "red"], ["centre", "head_line", "foot_line"], [["kaisa", "head"],
                                                            ["red", "foot"]]),
    (["red"], ["head_line", "foot_line", "head", "foot"], [["red", "centre"]]),
    (["kaisa"], ["centre", "head_line", "foot_line", "head", "foot"], [["kaisa", None]]),
    (["white", "red"], [], [["red", "head_line"], ["white", "hand"]]),
    ([], ["centre"], []),
])
def test_respot(balls, taken, placed):
    assert respot(balls, taken) == placed


def test_respot_refuses_unknown_names():
    for balls, taken in ((["blue"], []), (["red"], ["middle"]), ("red", []), (["red"], None)):
        with pytest.raises(Refused):
            respot(balls, taken)


def test_kaisa_goes_back_to_the_centre_when_it_frees():
    assert kaisa_back("head_line", True, False) is True
    assert kaisa_back("head_line", True, True) is False  # a ball touched it
    assert kaisa_back("head_line", False, False) is False
    assert kaisa_back("centre", True, False) is False


def test_the_shootout_refuses_an_adjustment_that_leaves_a_player_no_inning():
    # Found by the state machine below: 'left' set to 0 for a player before the shootout's
    # first inning, and that inning counted it down to -1.
    match = Match({"game": "kaisa", "players": ["Aino", "Eero"], "race_to": 20, "breaker": 0})
    for step in [
        {"as_called": False, "call": "white", "first": "none", "off": ["white"],
         "pocket": "corner", "t": "shot"},
        {"as_called": False, "corner": ["white"], "first": "none", "t": "shot"},
        {"as_called": False, "corner": ["white"], "first": "none", "foul": "cue_in", "t": "shot"},
        {"t": "time_up"},
        {"as_called": False, "first": "none", "foul": "cue_in", "off": ["red"], "t": "shot"},
        {"t": "shot"},
        {"as_called": False, "corner": ["red"], "off": ["white"], "t": "shot"},
        {"off": ["white"], "t": "shot"},
        {"t": "shot"},
    ]:
        match.apply(step)
    assert match.state.phase == "shootout" and match.state.shooter is None
    before = match.state.to_dict()
    with pytest.raises(Refused) as refused:
        match.apply({"t": "adjust", "reason": "scorer slip", "left": [2, 0]})
    assert refused.value.code == "bad_field"
    assert "each player has an inning left" in str(refused.value)
    assert match.state.to_dict() == before
    match.apply({"t": "adjust", "reason": "scorer slip", "left": [2, 1]})
    match.apply({"t": "lag", "winner": 0})
    match.apply({"t": "choose", "choice": "second"})
    assert match.state.shooter == 1 and match.state.left == [2, 0]


_UNITS = '''
import sys
from rules_core import canon
from rules_core.kaisa_clock import Clock
from rules_core.kaisa_spots import respot, kaisa_back

def main(args):
    out = []
    clock = Clock()
    clock.start(5)
    clock.take_break(1, 600000)
    out.append(clock.poll(900000))
    clock.end_break(1000000)
    out.append([clock.left(1000000), clock.poll(3300000 + 300000), clock.poll(3900000)])
    out.append(Clock.from_dict(clock.to_dict()).to_dict() == clock.to_dict())
    out.append(respot(["red", "white", "kaisa", "red"], ["centre", "foot"]))
    out.append([kaisa_back("head", True, False), kaisa_back("centre", True, False)])
    canon.dump(out, sys.stdout.write)
'''


def test_clock_and_spots_agree_under_micropython(mpy_build):
    (mpy_build / "kaisa_units.py").write_text(_UNITS)
    namespace: dict = {}
    exec(compile(_UNITS, "kaisa_units", "exec"), namespace)
    real, sys.stdout = sys.stdout, StringIO()
    try:
        namespace["main"]([])
        expected = sys.stdout.getvalue()
    finally:
        sys.stdout = real
    assert run_micropython(mpy_build, "kaisa_units", []) == expected
    assert json.loads(expected)[3] == [["kaisa", "head_line"], ["red", "foot_line"],
                                       ["red", "head"], ["white", "hand"]]


# --- Hypothesis: random referee events -----------------------------------------------------

BALLS = ("white", "red", "kaisa")
TABLES = (None, {"middle": {"kaisa": {"-": 9, "trick": 6}}, "corner": {"red": {"k": 10}}})


def _shot(data):
    shot = {"t": "shot"}
    draw = data.draw
    if draw(st.integers(0, 3)):
        ball = draw(st.sampled_from(BALLS))
        pocket = draw(st.sampled_from(("corner", "middle")))
        shot["call"], shot["pocket"] = ball, pocket
        way = draw(st.sampled_from((None, None, "direct", "cushion", "kyyti", "off")))
        if way:
            shot["way"] = way
        if way in ("kyyti", "off") and draw(st.booleans()):
            shot["cushion"] = True
        if draw(st.integers(0, 3)):
            shot[pocket] = [ball]
            if draw(st.booleans()):
                shot["nakki"] = draw(st.lists(st.sampled_from(BALLS), max_size=3))
    if draw(st.integers(0, 5)) == 0:
        where = draw(st.sampled_from(("corner", "middle")))
        shot[where] = shot.get(where, []) + [draw(st.sampled_from(BALLS))]
    if draw(st.integers(0, 2)) == 0:
        shot["first"] = draw(st.sampled_from(("none",) + BALLS))
    if draw(st.integers(0, 4)) == 0:
        shot["foul"] = draw(st.sampled_from((
            "cue_in", "cue_off", "cue_in", "touch", "hand", "push", "wrong_cue", "other", "jump",
            "mankeli", "frozen", "stop", "scratch")))
    if draw(st.integers(0, 12)) == 0:
        shot["off"] = [draw(st.sampled_from(BALLS))]
    if draw(st.integers(0, 12)) == 0:
        shot["as_called"] = False
    if draw(st.integers(0, 12)) == 0:
        shot["hand"] = draw(st.booleans())
    return shot


def _event(data, state):
    kind = data.draw(st.sampled_from(("shot",) * 16 + (
        "lag", "choose", "choose", "time_up", "adjust", "concede", "junk")))
    if kind == "shot":
        return _shot(data)
    if kind == "lag":
        return {"t": "lag", "winner": data.draw(st.sampled_from((0, 1, 2)))}
    if kind == "choose":
        option = state.pending_option
        choices = list(option["choices"]) if option else ["one_dot", "first", "second"]
        return {"t": "choose", "choice": data.draw(st.sampled_from(choices + ["bih"]))}
    if kind == "time_up":
        return {"t": "time_up"}
    if kind == "adjust":
        adjust = {"t": "adjust", "reason": data.draw(st.sampled_from(("", "scorer slip")))}
        what = data.draw(st.sampled_from(("score", "score", "in_hand", "shooter", "winner",
                                           "left")))
        if what == "score":
            adjust["score"] = [data.draw(st.integers(-20, 70)), data.draw(st.integers(-20, 70))]
        elif what == "left":
            adjust["left"] = [data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))]
        elif what == "in_hand":
            adjust["in_hand"] = [data.draw(st.booleans()), data.draw(st.booleans())]
        else:
            adjust[what] = data.draw(st.sampled_from((0, 1)))
        return adjust
    if kind == "concede":
        if data.draw(st.integers(0, 3)):
            return {"t": "shot"}
        return {"t": "concede", "player": data.draw(st.sampled_from((0, 1)))}
    return data.draw(st.sampled_from(({"t": "dance"}, {"x": 1}, "shot", {"t": "shot", "q": 1},
                                      {"t": "shot", "call": "red"})))


class KaisaMachine(RuleBasedStateMachine):
    @initialize(breaker=st.sampled_from((None, 0, 1, 0)), race_to=st.sampled_from((10, 20, 60)),
                table=st.sampled_from(TABLES), middle_twice=st.sampled_from(("pass", "continue")),
                foul_hand=st.sampled_from(("opponent", "owner")),
                recorded=st.sampled_from(("race_to", "scored")))
    def start(self, breaker, race_to, table, middle_twice, foul_hand, recorded):
        self.match = Match({"game": "kaisa", "players": ["Aino", "Eero"], "race_to": race_to,
                            "breaker": breaker,
                            "rules": {"points": table, "middle_twice": middle_twice,
                                      "foul_hand": foul_hand, "winner_recorded": recorded}})
        self.expected = [0, 0]  # shot points + penalties + adjustments
        self.from_shots = [0, 0]

    @rule(data=st.data())
    def referee_event(self, data):
        referee = _event(data, self.match.state)
        states = engine_checks.try_event(self.match, referee)
        if states is None:
            return
        before, after = states
        event("accepted %s in %s" % (referee["t"], after["phase"]))
        if referee["t"] == "shot":
            last = after["last"]
            assert last["player"] == before["shooter"]
            self.expected[last["player"]] += last["points"]
            self.from_shots[last["player"]] += last["points"]
        elif referee["t"] == "adjust" and "score" in referee:
            self.expected = list(referee["score"])
        else:
            assert after["score"] == before["score"]

    @rule()
    def undo_then_redo(self):
        engine_checks.undo_then_redo(self.match)

    @invariant()
    def score_is_the_sum_of_shots_penalties_and_adjustments(self):
        state = self.match.state
        assert state.score == self.expected
        assert [state.stats[p]["points"] for p in (0, 1)] == self.from_shots

    @invariant()
    def phase_turn_and_ball_in_hand_agree(self):
        state = self.match.state
        assert state.phase in ("lag", "play", "final", "shootout")
        assert (state.left is None) == (state.phase in ("lag", "play"))
        if state.left is not None:
            assert min(state.left) >= 0
        assert state.shooter in (None, 0, 1)
        if state.shooter is None:
            assert state.phase in ("lag", "shootout")
        if state.finished:
            assert state.winner in (0, 1) and state.pending_option is None
            assert state.ball_in_hand is None
            won, lost = state.winner, 1 - state.winner
            result, score = state.result, state.score
            assert result == score or (result[lost] == min(score[lost], state.race_to)
                                       and result[won] in (state.race_to, score[won]))
        else:
            assert state.result is None and state.winner is None
            in_hand = state.shooter is not None and state.phase != "shootout" and \
                state.in_hand[state.shooter]
            assert state.ball_in_hand == ("behind_head" if in_hand else None)
        assert min(state.fouls_in_a_row) >= 0

    @invariant()
    def replay_gives_the_same_state(self):
        engine_checks.replay_gives_the_same_state(self.match)


TestKaisa = KaisaMachine.TestCase
TestKaisa.settings = settings(max_examples=120, stateful_step_count=100, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
