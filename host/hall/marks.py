"""How a match's result reads to the audience: a walkover is "w.o." (no score was played, at
no table), a void match "did not count", both losing is no score, a score typed in by the
director or a log entered at the laptop says so. From the current result's kind (results.kind:
board, manual, correction, walkover, hand) and the match's outcome (matches.outcome: void,
both_lose). The director's reasons are not here: they are the director's (pages.py shows them
only on the director's own pages)."""

from __future__ import annotations

# How a result came, in words (None: played at a board, nothing to say).
KIND_WORDS = {"board": None, "manual": "match log entered at the laptop",
              "correction": "corrected by the director", "walkover": "walkover",
              "hand": "entered by hand"}
# A match decided without a winner: (what stands for the score, the words).
OUTCOMES = {"void": ("void", "void — did not count"),
            "both_lose": ("lost by both", "lost by both — both absent")}
NOT_PLAYED = ("walkover", "void", "both_lose")  # decided at no table


def mark(match: dict, kind: str | None) -> dict:
    """{"score": the score as shown ("2–1", "w.o.", "void", "" while open), "how": words
    for how it was decided or None, "played": False when it was not played at a table,
    "decided": the match has a result, "slots": the text in each player's score box}."""
    outcome = match.get("outcome")
    if outcome in OUTCOMES:
        score, how = OUTCOMES[outcome]
        return {"score": score, "how": how, "played": False, "decided": True,
                "slots": ["", ""]}
    if match.get("winner") is None:
        return {"score": "", "how": None, "played": True, "decided": False, "slots": ["", ""]}
    if kind == "walkover":
        won = 0 if match["winner"] == match["player1"] else 1
        return {"score": "w.o.", "how": KIND_WORDS["walkover"], "played": False,
                "decided": True, "slots": ["w.o." if i == won else "" for i in (0, 1)]}
    one, two = match.get("score1"), match.get("score2")
    words = KIND_WORDS.get(kind, kind) if kind else None
    return {"score": "" if one is None or two is None else "%d–%d" % (one, two),
            "how": words, "played": True, "decided": True,
            "slots": ["" if s is None else str(s) for s in (one, two)]}


def kinds(results: list[dict]) -> dict[str, str]:
    """Match code -> the kind of its current result (store.results.all's rows)."""
    return {r["match"]: r["kind"] for r in results}
