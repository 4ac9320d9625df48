"""A single elimination after a changed winner (night/consequences.py plans, this walks the
links): each match names where its winner goes, so a changed winner changes the next match's
place. Not started, that match just takes the new winner. Played or in play with the old
winner, it can only be voided (its place belongs to the new winner now): it stays in the
history as CODEv1, a new match takes its code and links, and the match after it loses the
old match's winner in turn (voided too if it was played). Also: a match voided by a
correction, in any format (void_match)."""

from __future__ import annotations

from host.i18n import N_
from host.tournament.night.in_play import playing_now
from host.tournament.store import Store

KEEP_REFUSED = N_("%(matches)s cannot be kept: in a single elimination a played match keeps "
                  "its place only with the same two players, and that place now belongs to "
                  "another player; void it (%(how)s)")  # (said with _(): consequences.py)


def plan_linked(store: Store, tid: int, match: dict, new_winner: int | None,
                names: dict[int, str]) -> tuple[list[dict], list[dict]]:
    """(redrawn, depends): the later matches the changed winner reaches, along the links."""
    redrawn: list[dict] = []
    depends: list[dict] = []
    if match["next_match_id"] is None or new_winner == match["winner_id"]:
        return redrawn, depends
    current = store.matches.by_id(match["next_match_id"])
    slot = match["next_slot"]
    while current is not None:
        why = playing_now(store, tid, [current]).get(current["code"])
        row = {"match": current["code"], "id": current["id"], "slot": slot,
               "players": [names.get(current["player1_id"]), names.get(current["player2_id"])],
               "table": current["table_number"], "result": _result(current, names)}
        if current["winner_id"] is None and current["outcome"] is None and why is None:
            redrawn.append(row)
            break
        depends.append(dict(row, state="played" if why is None else "in play", why=why,
                            kept=False))
        if current["winner_id"] is None or current["next_match_id"] is None:
            break
        slot = current["next_slot"]
        current = store.matches.by_id(current["next_match_id"])
    return redrawn, depends


def _result(match: dict, names: dict) -> str | None:
    if match["winner_id"] is None:
        return None
    return "%s won %d:%d" % (names.get(match["winner_id"]), match["score1"], match["score2"])


def apply_linked(store: Store, tid: int, code: str, depends: list[dict], reason: str) -> None:
    """(Inside the correction's transaction.) Each depending match voided and a new one made in
    its place, its slot from the match before left empty (the correction fills the first);
    the first match not started after them loses the voided one's winner from its slot."""
    for row in depends:
        old = store.matches.by_id(row["id"])
        assert old is not None
        void_match(store, tid, row, code, reason, rename=True)
        slot = row["slot"]
        other = old["player%d_id" % (3 - slot)]
        players = {1: None, 2: None, 3 - slot: other}
        new_id = store.matches.insert(tid, {"code": old["code"], "round": old["round"],
                                            "player1": players[1], "player2": players[2]})
        store.matches.undo_advance(old)  # (its winner out of the next match's slot)
        if old["next_match_id"] is not None:
            store.matches.link(new_id, old["next_match_id"], old["next_slot"])
        store.matches.relink(old["id"], new_id)


def void_match(store: Store, tid: int, row: dict, code: str, reason: str,
               rename: bool) -> None:
    """The match does not count: a signed entry of kind 'void' by the director (its result
    kept, replaced), its outcome void; `rename`: its code is a bracket's place that another
    match takes now, so it becomes CODEv1 (row["renamed"])."""
    match = store.matches.by_id(row["id"])
    assert match is not None
    why = "drawn from %s's old result (%s)" % (code, reason)
    old = store.results.current_row(match["id"])
    document = store.results.director_document(match, "void", None, None, why,
                                               None if old is None else old["id"])
    if old is not None:
        store.results.replace(old["id"], document, tid, match, "void", why)
    else:
        store.results.entry(tid, match, document, "void", why)
    store.matches.set_outcome(match, "void")
    if rename:
        codes = store.matches.codes(tid)
        number = 1
        while "%sv%d" % (match["code"], number) in codes:
            number += 1
        store.matches.rename(match["id"], "%sv%d" % (match["code"], number))
        row["renamed"] = "%sv%d" % (match["code"], number)
