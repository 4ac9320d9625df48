"""The match log file, format "pilkku.match/1": what the board journals, what sync sends and
what the host archives. One definition, used on both sides (see docs/match-log.md).

    {"format": "pilkku.match/1",
     "settings": {"game": "9ball", "players": ["Anna", "Ben"], "race_to": 5, ...},
     "events": [{"t": "lag", "winner": 0}, ...],
     "meta": {"board": "...", "table": 3, ...}}
"""

import json

from rules_core import bounded, canon
from rules_core.match import FORMAT, Match
from rules_core.refusal import Refused

_KEYS = ("format", "settings", "events", "meta")
MAX_TEXT = 1 << 20  # bytes: a match of thousands of events is far below it
MAX_DEPTH = 12  # a log nests 4 deep; a club's Kaisa point table a few more


class BadLog(Exception):
    """A log that cannot be replayed. `index` names the refused event, or is None when the
    document itself is malformed."""

    def __init__(self, text, index=None, code="bad_log"):
        super().__init__(text)
        self.text = text
        self.index = index
        self.code = code


def document(match, meta=None):
    return {
        "format": FORMAT,
        "settings": canon.copy(match.settings),
        "events": list(match.log),
        "meta": canon.copy(meta or {}),
    }


def dumps(match, meta=None):
    return canon.dumps(document(match, meta))


def loads(text):
    """Parse and replay a log given as JSON text."""
    try:
        doc = bounded.loads(text, MAX_TEXT, MAX_DEPTH)
    except bounded.Malformed as why:
        raise BadLog("not a pilkku match log (%s): the file is damaged or is something else"
                     % why)
    return load(doc)


def load(doc):
    """Replay a parsed log document into a Match; BadLog names what is wrong."""
    match = None
    for step in steps(doc):
        match = step[0]
    return match


def steps(doc):
    """Replay a log one event at a time: yields (match, state before, event) after each
    event is applied (and once, with event None, for the settings). Raises BadLog."""
    log = _check(doc)
    try:
        match = Match(doc.get("settings"))
    except Refused as refusal:
        raise BadLog("settings: " + refusal.text, code=refusal.code)
    yield match, None, None
    for index in range(len(log)):
        before = match.state
        try:
            match.apply(log[index])
        except Refused as refusal:
            raise BadLog("event %d refused: %s" % (index, refusal.text), index, refusal.code)
        yield match, before, log[index]


def _check(doc):
    if not isinstance(doc, dict):
        raise BadLog("a match log is a JSON object")
    if doc.get("format") != FORMAT:
        raise BadLog("format must be \"%s\" (found %s)" % (FORMAT, json.dumps(doc.get("format"))))
    for key in doc:
        if key not in _KEYS:
            raise BadLog("unknown top-level field '%s'" % key)
    log = doc.get("events")
    if not isinstance(log, list):
        raise BadLog("'events' must be a list")
    if not isinstance(doc.get("meta", {}), dict):
        raise BadLog("'meta' must be an object")
    return log
