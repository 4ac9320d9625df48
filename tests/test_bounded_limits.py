"""Bounded decoding (rules_core/bounded.py) at its limits: the nesting counted before the
parser runs agrees with the document's true depth whatever its strings hold (brackets,
quotes, backslashes), each refusal says what was wrong, and the range checks hold at both
ends. What a board or the laptop reads from outside passes here first."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import bounded

TRICKY = st.text(st.sampled_from(['[', ']', '{', '}', '"', '\\', 'a', ' ', 'ä']), max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3),
    max_leaves=10)


def true_depth(value) -> int:
    if isinstance(value, list):
        return 1 + max([true_depth(v) for v in value], default=0)
    if isinstance(value, dict):
        return 1 + max([true_depth(v) for v in value.values()], default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_the_nesting_counted_is_the_documents_own(value):
    text = json.dumps(value, ensure_ascii=False)
    depth = true_depth(value)
    assert bounded.loads(text, 1 << 16, depth) == value
    if depth:
        with pytest.raises(bounded.Malformed) as refused:
            bounded.loads(text, 1 << 16, depth - 1)
        assert str(refused.value) == "nested deeper than %d" % (depth - 1)


@pytest.mark.parametrize("text, words", [
    ("[1, 2]" + " " * 10, "longer than 10 bytes"),
    ('{"a": 1.5}', "only whole numbers are allowed"),
    ("[[0.5]]", "only whole numbers are allowed"),
    ("[%d]" % (bounded.MAX_INT + 1), "number out of range"),
    ("[%d]" % (-bounded.MAX_INT - 1), "number out of range"),
    ("[1, ", "not JSON"),
])
def test_each_refusal_says_what_was_wrong(text, words):
    with pytest.raises(bounded.Malformed) as refused:
        bounded.loads(text, 10 if words.startswith("longer") else 1000, 4)
    assert str(refused.value) == words


def test_the_range_holds_at_both_ends_and_keys_are_strings():
    assert bounded.loads(str(-bounded.MAX_INT), 100, 1) == -bounded.MAX_INT
    assert bounded.loads(str(bounded.MAX_INT), 100, 1) == bounded.MAX_INT
    with pytest.raises(bounded.Malformed) as refused:
        bounded.check({"a": [{1: "b"}]})  # only a value built in code can have such a key
    assert str(refused.value) == "object keys must be strings"


@pytest.mark.parametrize("value, taken", [
    (5, True), (7, True), (6, True), (4, False), (8, False),
    (True, False), (5.0, False), ("5", False), (None, False),
])
def test_a_whole_number_in_a_range(value, taken):
    assert bounded.whole(value, 5, 7) is taken
