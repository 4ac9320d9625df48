"""Hypothesis stateful tests: random referee events, legal and not, thrown at each game.

Nothing but the engine's refusal may come out; a refusal changes nothing; an accepted event
is undone exactly and redone exactly; invariants hold in every state; replaying the log
gives the same state.
"""

from __future__ import annotations

import engine_checks
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rules_core import games
from rules_core.match import Match

FOUL_KINDS = ("scratch", "wrong_ball", "no_rail", "touch", "cue_off", "nonsense")
CHOICES = ("break", "rerack", "accept", "bih", "play", "pass", "rebreak")


def _event(data, state, game):
    """One referee event drawn around the current state: mostly plausible, sometimes not."""
    table = state.on_table or [1]
    kind = data.draw(st.sampled_from(
        ("shot",) * 14 + ("lag", "choose", "choose", "choose", "warn", "concede", "adjust",
                          "junk")))
    if kind == "shot":
        event = {"t": "shot"}
        pocketed = data.draw(st.lists(st.sampled_from(table), unique=True, max_size=3))
        if pocketed:
            event["pocketed"] = pocketed
        if data.draw(st.booleans()):
            event["first"] = data.draw(st.sampled_from([table[0], table[0], table[-1], 0]))
        if data.draw(st.integers(0, 5)) == 0:
            event["foul"] = data.draw(st.sampled_from(FOUL_KINDS))
        if game.NAME == "9ball" and data.draw(st.integers(0, 6)) == 0:
            event["push"] = True
        if game.NAME == "8ball" and pocketed and data.draw(st.booleans()):
            event["call"] = {"ball": data.draw(st.sampled_from(table)),
                             "pocket": data.draw(st.integers(0, 7))}
        if state.breaking and data.draw(st.booleans()):
            event["cushions"] = data.draw(st.integers(0, 6))
        if data.draw(st.integers(0, 9)) == 0:
            event["off"] = [data.draw(st.sampled_from(table))]
        return event
    if kind == "lag":
        return {"t": "lag", "winner": data.draw(st.sampled_from([0, 1, 2]))}
    if kind == "choose":
        option = state.pending_option
        plausible = option is not None and data.draw(st.integers(0, 4)) > 0
        pool = list(option["choices"]) if plausible else list(CHOICES)
        choice = data.draw(st.sampled_from(pool))
        event = {"t": "choose", "choice": choice}
        if (choice in ("break", "rerack")) == plausible or data.draw(st.integers(0, 4)) == 0:
            event["breaker"] = data.draw(st.sampled_from([0, 1]))
        return event
    if kind == "warn":
        return {"t": "warn", "player": data.draw(st.sampled_from([0, 1]))}
    if kind == "concede":
        return {"t": "concede", "player": data.draw(st.sampled_from([0, 1])),
                "scope": data.draw(st.sampled_from(["rack"] * 5 + ["match"]))}
    if kind == "adjust":
        return {"t": "adjust", "reason": data.draw(st.sampled_from(["", "scorer slip"])),
                "score": [data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))]}
    return data.draw(st.sampled_from([{"t": "dance"}, {"x": 1}, "shot", {"t": "shot", "q": 1}]))


class GameMachine(RuleBasedStateMachine):
    GAME = ""

    @initialize(breaker=st.sampled_from([None, 0, 1, 0, 1]), race_to=st.integers(1, 3))
    def start(self, breaker, race_to):
        self.match = Match({"game": self.GAME, "players": ["Anna", "Ben"],
                            "race_to": race_to, "breaker": breaker})
        self.game = games.get(self.GAME)
        self.score_floor = [0, 0]

    @rule(data=st.data())
    def referee_event(self, data):
        referee = _event(data, self.match.state, self.game)
        states = engine_checks.try_event(self.match, referee)
        if states is None:
            return
        _before, after = states
        event("accepted %s%s" % (referee["t"], " (match over)" if after["finished"] else ""))
        if referee["t"] == "adjust":
            self.score_floor = list(after["score"])
        for player in (0, 1):
            assert after["score"][player] >= self.score_floor[player], "racks went down"
        self.score_floor = list(after["score"])

    @rule()
    def undo_then_redo(self):
        engine_checks.undo_then_redo(self.match)

    @invariant()
    def one_shooter_and_sane_table(self):
        state = self.match.state
        assert state.shooter in (None, 0, 1)
        assert state.on_table == sorted(set(state.on_table))
        assert set(state.on_table) <= set(self.game.RACK)
        assert all(0 <= n <= 2 or not self.game.THREE_FOULS for n in state.fouls_in_a_row)
        if state.finished:
            assert state.winner in (0, 1)
            assert state.pending_option is None
        option = state.pending_option
        if option is not None:
            assert option["player"] in (0, 1) and option["choices"]

    @invariant()
    def replay_gives_the_same_state(self):
        engine_checks.replay_gives_the_same_state(self.match)


class NineBallMachine(GameMachine):
    GAME = "9ball"


class EightBallMachine(GameMachine):
    GAME = "8ball"


_SETTINGS = settings(max_examples=80, stateful_step_count=80, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
TestNineBall = NineBallMachine.TestCase
TestNineBall.settings = _SETTINGS
TestEightBall = EightBallMachine.TestCase
TestEightBall.settings = _SETTINGS
