"""Why the hakukaavio's search drew a pair (host/tournament/formats/hakukaavio_why.py), on
HAKUKAAVIO.md §13's worked example: the reasons are the search's own (the exhaustive search's
scores as the spec quotes them; the fast search's searcher and the partner it passed over),
and watching the search changes none of its choices."""

from __future__ import annotations

from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.formats.hakukaavio_why import why
from tests.host.test_formats_hakukaavio import RESULTS_13, play_13


def watched_13() -> tuple[Hakukaavio, dict]:
    """§13 played as play_13 plays it, the reason for each game noted when it is drawn."""
    draw = Hakukaavio(7)
    reasons: dict = {}
    real = draw.run_draw

    def run_draw():
        found = why(draw.games, draw.count, draw.knockout)
        made = real()
        for game in made:
            reasons[tuple(sorted(game.players()))] = found.get(tuple(sorted(game.players())))
        return made

    draw.run_draw = run_draw  # type: ignore[method-assign]
    for _number in range(1, 100):
        if draw.finished():
            break
        game = [g for g in draw.pending() if g["ready"]][0]
        pair = tuple(sorted((game["first"], game["second"])))
        draw.record(game["first"], game["second"], RESULTS_13.get(pair, 5))
    return draw, reasons


def test_watching_the_search_changes_none_of_its_choices():
    watched, _reasons = watched_13()
    plain, _drawn = play_13()
    assert [g.as_dict() for g in watched.games] == [g.as_dict() for g in plain.games]


def test_the_reasons_are_the_searchs_own_in_the_worked_example():
    _draw, reasons = watched_13()
    # After result 5, two games unfinished: 1 (fewest games, lowest number) searches; 2 he
    # has met (round 1), so 3.
    assert reasons[(1, 3)] == {"how": "fast", "first": 1, "games": 2, "tie": True,
                               "passed": [(2, "met")], "rematch": False, "open": 2}
    # After result 8 four are in: the exhaustive search's scores as §13 quotes them.
    assert reasons[(2, 7)] == {"how": "exhaustive", "left": 4, "open": 0, "scores": [
        ((2, 5), 140), ((2, 7), 100), ((2, 1), 364), ((5, 7), 141), ((5, 1), 145)]}
    assert all(r is not None for r in reasons.values())
