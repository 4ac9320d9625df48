"""A player entered after the draw (a late entry): in a round robin given a match against
everyone (the rounds' byes first, then rounds of their own), in a hakukaavio drawn into the
tail until the first round-2 game starts (as KaisaKaavio does: the games not started are
drawn again with the new number, formats/hakukaavio.py add_players), in an imported list
added (their matches come with `pilkku matches import`); a bracket, a double or groups refuse
(their draw is seeded once, with every player in it)."""

from __future__ import annotations

from host.i18n import N_, _
from host.tournament import formats
from host.tournament.night.engine import engine_of, next_code, store_new_games
from host.tournament.night.follow import WITHDRAWN, withdrawal_walkovers
from host.tournament.night.in_play import playing
from host.tournament.night.status import format_word
from host.tournament.night.tables import fill_tables
from host.tournament.store import Store, StoreError

_CLOSED = {  # (said with _())
    "bracket": N_("a single elimination is seeded when it is drawn: a player added now has no "
                  "place in it"),
    "double": N_("a double elimination is seeded when it is drawn: a player added now has no "
                 "place in it"),
    "groups": N_("the groups are drawn and seeded: a player added now has no group"),
}


def add_late_player(store: Store, tournament_id: int, name: str, club: str = "") -> dict:
    """Add one player; returns {"player", "added": [codes of their new matches or of the
    games drawn again], "removed": [codes of games not started that are no longer drawn]}."""
    name, club = (name or "").strip(), (club or "").strip()
    with store.db.transaction():
        form = store.tournaments.format(tournament_id)
        drawn = store.matches.any(tournament_id)
        if drawn and form in _CLOSED:
            raise StoreError(_("%(player)s cannot be added now: %(why)s") % {
                "player": name, "why": _(_CLOSED[form])})
        if drawn and form in formats.ENGINES and form != "hakukaavio":
            raise StoreError(_("%(player)s cannot be added now: the %(format)s is drawn") % {
                "player": name, "format": format_word(form)})
        player = store.players.add_late(tournament_id, name, club)
        store.people.link_known(tournament_id)  # a known name is that person (people.py)
        if not drawn or form in (None, "list"):
            done: dict = {"added": [], "removed": []}
        elif form == "round_robin":
            done = _round_robin(store, tournament_id, player)
        else:
            done = _hakukaavio(store, tournament_id, player, name)
        withdrawal_walkovers(store, tournament_id, WITHDRAWN)
        fill_tables(store, tournament_id, None)
    done["player"] = name
    return done


def _round_robin(store: Store, tid: int, player: int) -> dict:
    """A match against every other player: in a round where that player rests, else in a
    round of its own after the last."""
    matches = store.matches.all(tid)
    others = [p["id"] for p in store.players.all(tid) if p["id"] != player]
    codes = store.matches.codes(tid)
    rounds = sorted({m["round"] for m in matches if m["round"] is not None})
    met: set[int] = set()
    added = []
    for round_ in rounds:
        busy = {p for m in matches if m["round"] == round_
                for p in (m["player1_id"], m["player2_id"])}
        resting = [p for p in others if p not in busy and p not in met]
        if len(resting) == 1:
            added.append(_insert(store, tid, codes, round_, resting[0], player))
            met.add(resting[0])
    last = rounds[-1] if rounds else 0
    for other in (p for p in others if p not in met):
        last += 1
        added.append(_insert(store, tid, codes, last, other, player))
    return {"added": added, "removed": []}


def _insert(store: Store, tid: int, codes: set, round_: int, one: int, two: int) -> str:
    code = next_code(codes, round_)
    codes.add(code)
    store.matches.insert(tid, {"code": code, "round": round_, "player1": one, "player2": two})
    return code


def _hakukaavio(store: Store, tid: int, player: int, name: str) -> dict:
    """The new number drawn into the opening's games not started (§2)."""
    plan = store.tournaments.plan(tid)
    if plan.get("seeds") == 24:
        raise StoreError(_("%(player)s cannot be added now: with 24 seeds the opening's "
                           "walkovers are fixed by the field's size") % {"player": name})
    engine, numbers = engine_of(store, tid)
    stored = store.db.rows("SELECT * FROM matches WHERE tournament_id = ? ORDER BY seq", tid)
    for m in stored:  # a game a board has started is started (it is not drawn again)
        if m["winner_id"] is None and m["outcome"] is None and playing(store, tid, m):
            engine.start(numbers[m["player1_id"]], numbers[m["player2_id"]])
    try:
        (number,) = engine.add_players(1)
    except ValueError:
        started = next((m["code"] for m in stored if (m["round"] or 0) >= 2 and (
            m["winner_id"] is not None or m["outcome"] or playing(store, tid, m))), _("a game"))
        raise StoreError(_("%(player)s cannot be added now: a round-2 game has started "
                           "(%(match)s), so late entries are closed (as in KaisaKaavio)") % {
            "player": name, "match": started}) from None
    plan["numbers"][str(player)] = number
    store.tournaments.set_plan(tid, plan)
    ids = {n: pid for pid, n in ((int(k), v) for k, v in plan["numbers"].items())}
    drawn = {(g.round, frozenset((ids[g.first], ids[g.second])))
             for g in engine.games if g.second is not None}
    removed = []
    for m in stored:
        if m["winner_id"] is None and m["outcome"] is None and (
                m["round"], frozenset((m["player1_id"], m["player2_id"]))) not in drawn:
            store.matches.remove(m["id"])
            removed.append(m["code"])
    before = store.matches.codes(tid)
    store_new_games(store, tid, engine, plan)
    engine_of(store, tid)  # the stored games follow the draw (else nothing is changed)
    return {"added": sorted(store.matches.codes(tid) - before), "removed": removed}
