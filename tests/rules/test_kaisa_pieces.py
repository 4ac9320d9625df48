"""Kaisa's pieces with words the referee reads (docs/games/kaisa.md): the points of a legal
pot and the line that explains them (the board's "last shot"), where pocketed balls go back
on the table, and a club's point table checked entry by entry."""

from __future__ import annotations

import pytest

from rules_core import kaisa_points as points
from rules_core import kaisa_spots as spots
from rules_core import kaisa_table as table
from rules_core.refusal import Refused


@pytest.mark.parametrize("call, corner, middle, nakki, limit, scored", [
    (("red", "corner", "direct", False), ["red"], [], [], "kyyti_cushion",
     (3, "red corner")),
    (("red", "corner", "cushion", False), ["red"], [], ["white", "kaisa"], "kyyti_cushion",
     (11, "red corner via cushion + nakki kaisa, white")),
    (("white", "middle", "direct", True), [], ["white"], ["red", "red"], "kyyti_cushion",
     (7, "white middle via cushion + nakki red, red")),
    (("red", "corner", "kyyti", False), ["red"], [], ["kaisa"], "kyyti_cushion",
     (3, "red corner by kyyti (no nakki by kyyti)")),
    (("red", "corner", "off", False), ["red"], [], ["white"], "kyyti_cushion",
     (3, "red corner off a ball (no nakki by a ball)")),
    (("kaisa", "middle", "kyyti", True), [], ["kaisa"], [], "kyyti_cushion",
     (6, "kaisa middle via cushion by kyyti (only 6)")),
    (("kaisa", "middle", "kyyti", False), [], ["kaisa"], [], "kyyti_or_off_cushion",
     (6, "kaisa middle by kyyti (only 6)")),
    (("kaisa", "middle", "off", True), [], ["kaisa"], [], "kyyti_cushion",
     (6, "kaisa middle via cushion off a ball (only 6)")),
    (("kaisa", "middle", "off", False), [], ["kaisa"], [], "kyyti_cushion",
     (6, "kaisa middle off a ball")),
    (("red", "corner", "direct", False), ["red", "white"], ["red"], [], "kyyti_cushion",
     (8, "red corner (3) + white corner (2) + red middle (3)")),
])
def test_the_points_of_a_pot_and_the_words_that_explain_them(call, corner, middle, nakki,
                                                               limit, scored):
    assert points.pot(None, call, corner, middle, nakki, limit) == scored


def test_a_clubs_table_replaces_entries_and_the_middle_falls_back_to_its_corner():
    club = {"corner": {"red": {"-": 4}}, "middle": {"kaisa": {"trick": 5}}}
    assert points.pot(club, ("red", "middle", "direct", False), [], ["red"], [],
                      "kyyti_cushion") == (4, "red middle")
    assert points.pot(club, ("kaisa", "middle", "kyyti", True), [], ["kaisa"], [],
                      "kyyti_cushion") == (5, "kaisa middle via cushion by kyyti (only 5)")


@pytest.mark.parametrize("balls, taken, placed", [
    (["red", "kaisa"], ["centre"], [["kaisa", "head_line"], ["red", "foot_line"]]),
    (["kaisa"], [], [["kaisa", "centre"]]),
    (["red", "red"], ["head_line"], [["red", "foot_line"], ["red", "head"]]),
    (["white", "red", "white"], [], [["red", "head_line"], ["white", "hand"],
                                     ["white", "hand"]]),
    (["red"], list(spots.SPOTS), [["red", None]]),
    ([], [], []),
])
def test_where_balls_go_back(balls, taken, placed):
    assert spots.respot(balls, taken) == placed


@pytest.mark.parametrize("balls, taken, words", [
    (["blue"], [], "balls to respot are white, red or kaisa"),
    ("red", [], "balls to respot are white, red or kaisa"),
    (["red"], ["corner"], "spots are: head_line, foot_line, head, foot, centre"),
    (["red"], "centre", "spots are: head_line, foot_line, head, foot, centre"),
])
def test_respotting_refuses_what_it_does_not_know(balls, taken, words):
    with pytest.raises(Refused) as refused:
        spots.respot(balls, taken)
    assert (refused.value.code, refused.value.text) == ("bad_field", words)


@pytest.mark.parametrize("club", [
    {"corner": {"red": {"-": 0}}}, {"corner": {"red": {"-": 99}}},
    {"middle": {"kaisa": {"trick": 8}}}, {},
])
def test_a_clubs_table_within_bounds_is_taken(club):
    table.check(club)


@pytest.mark.parametrize("club, entry", [
    ({"corner": {"red": {"-": 100}}}, "corner red -"),
    ({"corner": {"red": {"-": -1}}}, "corner red -"),
    ({"corner": {"red": {"-": True}}}, "corner red -"),
    ({"corner": {"red": {"-": 2.0}}}, "corner red -"),
    ({"corner": {"red": {"x": 2}}}, "corner red x"),
    ({"corner": {"blue": {"-": 2}}}, "corner blue"),
    ({"corner": {"red": 3}}, "corner red"),
    ({"corner": {"red": {"trick": 3}}}, "corner red trick"),
    ({"side": {}}, "side"),
    ({"corner": 5}, "corner"),
])
def test_a_clubs_table_names_the_entry_it_refuses(club, entry):
    with pytest.raises(Refused) as refused:
        table.check(club)
    assert (refused.value.code, refused.value.text) == (
        "bad_rules", "point table: '%s' is no entry with 0 to 99 points" % entry)
