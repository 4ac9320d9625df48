"""A manual pairing of a hakukaavio game not yet started (issue 27 item 5): the director names
who plays it instead of one of its players (`pilkku opponent R3-02 Cai --instead-of Bror`).

The search's rules are checked first (docs/formats.md, ../shared/HAKUKAAVIO.md) and every
breach named before anything is done. Never allowed: a game started or decided, a player who
is out, a player who is playing another game, a player twice in one round. Allowed only when
the director says so (confirm, the CLI's --yes): a rematch, a game in another round than the
one it replaces, own rounds more than one apart, a player who has an earlier game still to
play.

What it does: the game's row is the new pair (its code kept, its table given again), the new
opponent's own unstarted game in that round is taken out, and the draw runs: it gives the two
players left without a game (the replaced one, the new opponent's old opponent) their games by
its usual rules, when it can. The pairing is kept in the tournament's plan (format_options
"pairings": match id, players, the games it replaced, the last result entered before it, who,
why, when, the breaches overridden): engine_of (night/engine.py) and the correction's replay
(night/draw_replay.py) make it again where it was made, so it survives both.
"""

from __future__ import annotations

import copy

from host.i18n import N_, _
from host.tournament.night.engine import draw_next, engine_of
from host.tournament.night.how import CLI, in_words
from host.tournament.night.in_play import playing
from host.tournament.night.status import format_word
from host.tournament.night.tables import fill_tables
from host.tournament.store import Store, StoreError
from host.tournament.store.schema import now


class PairingRefused(StoreError):
    """The pairing breaks the search's rules: `breaches` one line each; `overridable` True
    when every one is a rule the director may set aside (confirm=True)."""

    def __init__(self, code: str, breaches: list[str], overridable: bool) -> None:
        self.breaches, self.overridable = breaches, overridable
        said = (_("%(match)s cannot be paired so: %(breaches)s; add --yes to pair them anyway")
                if overridable else
                _("%(match)s cannot be paired so: %(breaches)s; nothing was changed"))
        super().__init__(in_words(said % {"match": code, "breaches": "; ".join(breaches)},
                                  CLI))  # (a breach may name a way out)


# A breach of the search's rules: (message marked N_(), its values), said in the language
# spoken (a refusal) or in English (kept in the store with the pairing when set aside); a
# text said already (a match being played: night/in_play.py) is (None, text).
Breach = tuple


def _said(breach: Breach) -> str:
    message, values = breach
    return values if message is None else _(message) % values


def _english(breach: Breach) -> str:
    message, values = breach
    return values if message is None else message % values


def pairings(store: Store, tournament_id: int) -> list[dict]:
    """The manual pairings made, in the order made (the history shows them)."""
    return list(store.tournaments.plan(tournament_id).get("pairings", []))


def pair_game(store: Store, tournament_id: int, code: str, opponent: str, instead_of: str,
              reason: str, confirm: bool = False) -> dict:
    """`opponent` plays hakukaavio game `code` instead of `instead_of`. Returns the pairing
    as kept ({"match", "players", "replaced", "followed", ...}). PairingRefused naming every
    breach (nothing changed); with confirm=True the overridable ones are set aside."""
    reason = (reason or "").strip()
    if not reason:
        raise StoreError(_("a manual pairing needs --reason TEXT (why the director pairs "
                           "them)"))
    with store.db.transaction():
        plan = store.tournaments.plan(tournament_id)
        if plan.get("format") != "hakukaavio" or not plan.get("numbers"):
            raise StoreError(_("a manual pairing is for a drawn hakukaavio: this tournament is "
                               "%(format)s") % {"format": format_word(plan["format"])
                                                if plan.get("format") else _("a list")})
        match = store.matches.get(tournament_id, code)
        names = {p["id"]: p["name"] for p in store.players.all(tournament_id)}
        new = store.players.get(tournament_id, opponent)["id"]
        out = store.players.get(tournament_id, instead_of)["id"]
        if out not in (match["player1_id"], match["player2_id"]):
            raise StoreError(_("%(player)s does not play %(match)s (%(player1)s vs "
                               "%(player2)s)") % {
                "player": instead_of, "match": code, "player1": names.get(match["player1_id"]),
                "player2": names.get(match["player2_id"])})
        stays = match["player2_id"] if out == match["player1_id"] else match["player1_id"]
        engine, numbers = engine_of(store, tournament_id)
        ids = {n: pid for pid, n in numbers.items()}
        hard: list[Breach] = []
        soft: list[Breach] = []
        rows = store.db.rows("SELECT * FROM matches WHERE tournament_id = ? AND outcome IS "
                             "NOT 'void' AND player1_id IS NOT NULL AND player2_id IS NOT "
                             "NULL", tournament_id)
        started = store.live.started(tournament_id)
        game = _game(engine, numbers[stays], numbers[out], match["round"])
        why = _not_open(store, tournament_id, match, started)
        if why or game is None:
            hard.append((None, why) if why else (
                N_("%(match)s is not a game of the draw still to play"), {"match": code}))
            raise PairingRefused(code, [_said(b) for b in hard], False)
        if new in (stays, out):
            raise StoreError(_("%(player)s plays %(match)s already") % {"player": opponent,
                                                                     "match": code})
        a, c = numbers[stays], numbers[new]
        if not engine.is_in(c) or not engine.drawable(c):
            hard.append((N_("%(player)s is out of the tournament"), {"player": opponent}))
        theirs = [g for g in engine.games if g.result is None and c in g.players()]
        taken = None
        for other in theirs:
            row = _row(rows, ids, other)
            busy = row is not None and _not_open(store, tournament_id, row, started)
            if busy:
                hard.append((N_("%(player)s is playing another game: %(why)s"),
                             {"player": opponent, "why": busy}))
            elif other.round == game.round and taken is None:
                taken = other
        for replaced in [g for g in (game, taken) if g is not None]:
            for p in replaced.players():  # (own rounds count the games before: none after)
                mine = replaced.own_round(p)
                later = [g for g in engine.games if p in g.players() and g is not replaced
                         and g.own_round(p) > mine]
                if later:
                    row = _row(rows, ids, later[0]) or {"code": "?"}
                    hard.append((N_("%(player)s has a later game drawn already (%(match)s): "
                                    "only a player's last game can be paired again"),
                                 {"player": names[ids[p]], "match": row["code"]}))
        trial = copy.deepcopy(engine)
        trial.games = [g for g in trial.games if not _same(g, game) and not _same(g, taken)]
        made = trial._create(a, c)
        for p, name in ((a, names[stays]), (c, opponent)):
            twice = [g for g in trial.games if g is not made and g.result is None
                     and p in g.players() and g.round == made.round]
            if twice:
                hard.append((N_("%(player)s would play twice in round %(round)d"),
                             {"player": name, "round": made.round}))
        met = [r for r in rows if {r["player1_id"], r["player2_id"]} == {stays, new}]
        if met:
            soft.append((N_("%(player1)s and %(player2)s have met already (%(matches)s): a "
                            "rematch") if any(r["winner_id"] is not None or r["outcome"]
                                              for r in met) else
                         N_("%(player1)s and %(player2)s are drawn to meet (%(matches)s): a "
                            "rematch"),
                         {"player1": names[stays], "player2": opponent,
                          "matches": ", ".join(r["code"] for r in met)}))
        if made.round != game.round:
            soft.append((N_("the game would be round %(round)d, not round %(was)d as "
                            "%(match)s is"),
                         {"round": made.round, "was": game.round, "match": code}))
        if abs(made.rounds[0] - made.rounds[1]) > 1:
            soft.append((N_("their own rounds would be %(one)d and %(two)d, more than one "
                            "apart"), {"one": made.own_round(a), "two": made.own_round(c)}))
        for other in theirs if made.round > 2 else ():  # (§3 draws rounds 1 and 2 at once)
            if other is not taken and other.own_round(c) < made.own_round(c):
                row = _row(rows, ids, other)
                soft.append((N_("%(player)s has %(match)s still to play before it"),
                             {"player": opponent, "match": row["code"] if row else "?"}))
        if hard:
            raise PairingRefused(code, [_said(b) for b in hard + soft], False)
        if soft and not confirm:
            raise PairingRefused(code, [_said(b) for b in soft], True)
        done = _apply(store, tournament_id, match, plan, game, taken, made, (stays, new),
                      rows, ids, reason, [_english(b) for b in soft], instead_of)
        return dict(done, overridden_said=[_said(b) for b in soft])


def _apply(store: Store, tid: int, match: dict, plan: dict, game, taken, made, pair: tuple,
           rows: list[dict], ids: dict, reason: str, overridden: list[str],
           instead_of: str) -> dict:
    replaced = [[ids[g.first], ids[g.second], g.round] for g in (game, taken) if g is not None]
    gone = [match["code"]]
    store.matches.remove(match["id"])
    if taken is not None:
        row = _row(rows, ids, taken)
        if row is not None:
            gone.append(row["code"])
            store.matches.remove(row["id"])
    first, second = ids[made.first], ids[made.second]
    match_id = store.matches.insert(tid, {"code": match["code"], "round": made.round,
                                          "player1": first, "player2": second})
    last = store.db.one(
        "SELECT m.id FROM matches m WHERE m.tournament_id = ? AND EXISTS (SELECT 1 FROM "
        "results r WHERE r.match_id = m.id) ORDER BY (SELECT MIN(r.id) FROM results r WHERE "
        "r.match_id = m.id) DESC LIMIT 1", tid)
    record = {"match": match["code"], "match_id": match_id, "players": list(pair),
              "instead_of": instead_of, "replaced": replaced, "gone": gone,
              "after": None if last is None else last["id"], "who": "the director",
              "reason": reason, "at": now(), "overridden": overridden}
    plan.setdefault("pairings", []).append(record)
    store.tournaments.set_plan(tid, plan)
    drawn = draw_next(store, tid)
    engine_of(store, tid)  # (raises if the store no longer follows the draw)
    fill_tables(store, tid, None)
    return dict(record, drawn=drawn)


def _same(g, other) -> bool:
    return other is not None and (g.first, g.second, g.round, g.result) == (
        other.first, other.second, other.round, other.result)


def _game(engine, a: int, b: int, round_: int | None):
    """The unfinished game of a and b (in `round_` when there are two)."""
    games = [g for g in engine.games if g.result is None and {a, b} == set(g.players())]
    return next((g for g in games if g.round == round_), games[0] if games else None)


def _row(rows: list[dict], ids: dict, game) -> dict | None:
    """The stored match of an unfinished engine game."""
    pair = {ids[game.first], ids[game.second]}
    return next((r for r in rows if r["winner_id"] is None and r["outcome"] is None
                 and {r["player1_id"], r["player2_id"]} == pair
                 and r["round"] == game.round), None)


def _not_open(store: Store, tid: int, match: dict, started: dict) -> str | None:
    """Why `match` cannot be paired again (decided, started, being played), or None."""
    if match["winner_id"] is not None or match["outcome"] is not None:
        return _("%(match)s is decided already") % {"match": match["code"]}
    if match["code"] in started:
        return _("%(match)s was started on its board") % {"match": match["code"]}
    return playing(store, tid, match)
