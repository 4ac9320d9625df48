"""What a stored result's document says, read from its bytes alone: the director's entries
("pilkku.director/1": a score and winner, or void / both lose), a board's match log replayed
(its players, winner and the points it records), the times a board signed, and the signature
of an entry. Pure functions of the document; the costly ones (a replay, a parse) remembered by
the document's digest, so the results a page shows at every look (store/results.py all,
verify, history) are replayed once per document, not once per look: a 64-player Kaisa night's
pages read ~70 logs of ~70 events each, ~150 ms a read before.

    sign(key, document) -> hex HMAC-SHA256        signed_times(document) -> (started, ended)
    no_winner_kind(text), director_outcome(text), replayed(text), log_players(text)
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from rules_core import bounded, matchlog

DIRECTOR = "pilkku.director/1"  # the format of an entry the director signs (no match log)
NO_WINNER = ("void", "both_lose")  # the director's entries that decide a match without a winner
REMEMBERED = 2048  # documents: a night's results several times over; only digests are kept


def sign(key: bytes, document: bytes) -> str:
    return hmac.new(key, document, hashlib.sha256).hexdigest()


T = TypeVar("T")


class _Memo:
    """The last REMEMBERED readings of one kind, by the document's SHA-256 (the documents
    themselves are not kept: a log may be a megabyte). The hall's pages are read in threads."""

    def __init__(self) -> None:
        self.kept: OrderedDict[bytes, Any] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, data: str | bytes, read: Callable[[], T]) -> T:
        key = hashlib.sha256(data.encode("utf-8", "surrogatepass") if isinstance(data, str)
                             else data).digest()
        with self.lock:
            if key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
        value = read()
        with self.lock:
            self.kept[key] = value
            while len(self.kept) > REMEMBERED:
                self.kept.popitem(last=False)
        return value


_TIMES, _DIRECTOR, _REPLAYED = _Memo(), _Memo(), _Memo()


def signed_times(document: bytes) -> tuple[Any, Any] | None:
    """(started, ended) of the document's meta, or None when it is no JSON object with one
    (the store keeps the times beside the document for queries: verify compares them)."""
    return _TIMES(document, lambda: _times(document))


def _times(document: bytes) -> tuple[Any, Any] | None:
    try:
        value = bounded.loads(document, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
    except bounded.Malformed:
        return None
    meta = value.get("meta", {}) if isinstance(value, dict) else None
    return (meta.get("started"), meta.get("ended")) if isinstance(meta, dict) else None


def no_winner_kind(text: str) -> str | None:
    """'void' or 'both_lose' for such a director's entry; None for anything else."""
    kind = _DIRECTOR(text, lambda: _director(text))[0]
    return kind if kind in NO_WINNER else None


def director_outcome(text: str) -> tuple[int, int, int] | None:
    """(winner's slot, score1, score2) of a director's entry; None for anything else (a void
    or both-lose entry too: no_winner_kind). bounded.Malformed for an entry without them."""
    kind, outcome = _DIRECTOR(text, lambda: _director(text))
    if kind == "malformed":
        raise bounded.Malformed("a director's entry needs score [a, b] and winner 1 or 2")
    return outcome


def _director(text: str) -> tuple[str | None, tuple[int, int, int] | None]:
    """(no-winner kind or "malformed" or None, the outcome of a director's entry or None)."""
    try:
        doc = bounded.loads(text, matchlog.MAX_TEXT, matchlog.MAX_DEPTH)
    except bounded.Malformed:
        return None, None
    if not isinstance(doc, dict) or doc.get("format") != DIRECTOR:
        return None, None
    score, winner = doc.get("score"), doc.get("winner")
    if doc.get("kind") in NO_WINNER and score is None and winner is None:
        return str(doc["kind"]), None
    if not (isinstance(score, list) and len(score) == 2 and winner in (1, 2)
            and all(type(s) is int for s in score)):
        return "malformed", None
    return None, (winner, score[0], score[1])


def replayed(text: str) -> tuple[tuple, int | None, tuple[int, int]] | None:
    """A match log replayed: (the players it names, the winner's index or None, the points
    it records); None when it does not replay (damaged, or no match log)."""
    return _REPLAYED(text, lambda: _replayed(text))


def _replayed(text: str) -> tuple[tuple, int | None, tuple[int, int]] | None:
    try:
        played = matchlog.loads(text)
    except (matchlog.BadLog, bounded.Malformed, UnicodeDecodeError, ValueError):
        return None
    names = played.settings.get("players")
    return (tuple(names) if isinstance(names, (list, tuple)) else (), played.state.winner,
            points(played.state))


def points(state: Any) -> tuple[int, int]:
    """The points a finished match's state records for its two players."""
    # A game that records other points than it played (Kaisa: the winner's race_to, the
    # loser's at most race_to) counts what it records; the points played stay in its log.
    recorded = getattr(state, "result", None) or state.score
    return recorded[0], recorded[1]


def outcome(winner: int, points: tuple[int, int],
            order: tuple[int, int]) -> tuple[int, int, int]:
    """(winner's slot, score of slot 1, score of slot 2) of a replayed log; `order` gives the
    match slot of each player the log names."""
    score = {order[0]: points[0], order[1]: points[1]}
    return order[winner], score[1], score[2]


def log_players(text: str) -> list[str] | None:
    """The two players a match log names, or None when it is no log that replays."""
    done = replayed(text)
    names = done[0] if done is not None else None
    return list(names) if names is not None and len(names) == 2 else None


def forget() -> None:
    """Every reading remembered dropped (for a test that counts replays)."""
    for memo in (_TIMES, _DIRECTOR, _REPLAYED):
        with memo.lock:
            memo.kept.clear()
