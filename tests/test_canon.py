"""Canonical JSON (rules_core/canon.py): the bytes a match log, a state fingerprint and a
signed result are made of, so the board and the laptop must write exactly the same ones.

The oracle is CPython's own json module with sorted keys, no spaces and UTF-8 left as it is:
it escapes by the same rule (quote, backslash, the control characters, \\b \\f \\n \\r \\t by
name), so any difference is canon's mistake and would break a signature or a fingerprint."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import canon


def oracle(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def test_keys_sorted_no_spaces_and_every_kind_of_value():
    value = {"b": [1, -2, True, False, None], "a": {"z": "", "y": [[], {}]}, "Ä": 0}
    assert canon.dumps(value) == \
        '{"a":{"y":[[],{}],"z":""},"b":[1,-2,true,false,null],"Ä":0}'
    assert canon.dumps(("x", 3)) == '["x",3]'  # a tuple is written as a list


@pytest.mark.parametrize("char, written", [
    ('"', '\\"'), ("\\", "\\\\"), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"),
    ("\b", "\\b"), ("\f", "\\f"), ("\x00", "\\u0000"), ("\x0b", "\\u000b"),
    ("\x1f", "\\u001f"), (" ", " "), ("\x7f", "\x7f"), ("/", "/"), ("ä", "ä"),
    ("✓", "✓"),
])
def test_each_character_is_written_by_the_one_rule(char, written):
    # alone, and among plain text: each takes the escaping path by itself
    assert canon.dumps(char) == '"%s"' % written
    assert canon.dumps("Ö%sx" % char) == '"Ö%sx"' % written
    assert canon.dumps({char: char}) == '{"%s":"%s"}' % (written, written)


def test_every_control_character_matches_the_oracle():
    for code in range(0x20):
        text = "a" + chr(code) + "b"
        assert canon.dumps(text) == oracle(text), hex(code)
        assert json.loads(canon.dumps(text)) == text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), max_size=6),
                      inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_any_value_is_written_as_the_oracle_writes_it(value):
    text = canon.dumps(value)
    assert text == oracle(value)
    pieces: list[str] = []
    canon.dump(value, pieces.append)
    assert "".join(pieces) == text  # written piece by piece, the same bytes
    assert json.loads(text) == value


@pytest.mark.parametrize("value, named", [
    (1.5, "float"), (b"x", "bytes"), ({1, 2}, "set"), ({"a": [0.0]}, "float"),
])
def test_what_json_cannot_hold_is_refused_by_name(value, named):
    with pytest.raises(TypeError, match="^canonical JSON has no %s$" % named):
        canon.dumps(value)


@pytest.mark.parametrize("value", [{1: "a"}, {"a": {None: 1}}, {("a",): 1}])
def test_keys_must_be_strings(value):
    with pytest.raises(TypeError, match="^canonical JSON needs string keys$"):
        canon.dumps(value)


def test_written_piece_by_piece_a_refusal_stops_at_the_value_it_cannot_write():
    written: list[str] = []
    with pytest.raises(TypeError):
        canon.dump([1, 2.5, 3], written.append)
    assert "".join(written) == "[1,"


def test_copy_is_deep():
    value = {"a": [1, {"b": ["c"]}], "d": "e", "n": None}
    twin = canon.copy(value)
    assert twin == value
    twin["a"][1]["b"].append("x")
    twin["a"].append(2)
    twin["f"] = 1
    assert value == {"a": [1, {"b": ["c"]}], "d": "e", "n": None}
    assert canon.copy(7) == 7 and canon.copy("s") == "s" and canon.copy(None) is None
