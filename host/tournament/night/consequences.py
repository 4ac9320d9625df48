"""What a changed result means for the rest of the draw, worked out before anything is done:
which later matches stand, which are redrawn (not started), which are in play or played and
were drawn from the old result (the director keeps them as played, or voids them), and which
tables' queues change. Then applied as one change (apply_plan, in the caller's transaction).

    plan = plan_correction(store, tid, "R1-03", Change(winner=2, score=(9, 63)), played=None)
    plan.text(), plan.as_dict()          # for the CLI and the director's desk
    apply_plan(store, tid, plan, reason) # -> "R3-02 redrawn, R3-04 voided" (what followed)

The change is "match X's outcome becomes Y": a winner (its slot) and score, or 'void' /
'both_lose'. The draw is replayed from the stored results with that one changed
(night/draw_replay.py) and compared with the stored matches, paired by their two players: a
stored match the replay draws stands (its code, table and result kept; its round as
replayed); one it does not draw is removed if not started, or depends if played or in play:
`played="keep"` forces it into the replay as a game that happened (the hakukaavio only: in a
bracket its place now belongs to another player), `played="void"` voids it (a signed entry of
kind 'void'), and what was drawn only from it goes too. docs/formats.md, "Correcting a result
after the draw went on".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host.i18n import _
from host.tournament import formats
from host.tournament.formats import lists
from host.tournament.formats.hakukaavio import Hakukaavio
from host.tournament.night import draw_replay as dr
from host.tournament.night.engine import is_drawn, next_code
from host.tournament.night.how import CLI, Refused, way
from host.tournament.night.in_play import playing_now
from host.tournament.night.linked import KEEP_REFUSED, apply_linked, plan_linked, void_match
from host.tournament.night.plan_text import followed, plan_dict, plan_text, row_said
from host.tournament.night.tables import last_games
from host.tournament.store import Store, StoreError

PLAYED = ("keep", "void")


@dataclass
class Change:
    """A match's new outcome: a winner (slot 1 or 2) and score, or 'void' / 'both_lose'."""

    winner: int | None = None
    score: tuple[int, int] | None = None
    outcome: str | None = None


@dataclass
class Plan:
    tournament_id: int
    code: str
    change: Change
    played: str | None
    format: str
    names: dict[int, str] = field(default_factory=dict)
    stands: list[dict] = field(default_factory=list)
    redrawn: list[dict] = field(default_factory=list)
    depends: list[dict] = field(default_factory=list)
    new: list[dict] = field(default_factory=list)
    queues: list[dict] = field(default_factory=list)
    keep_refused: str | None = None
    before: dict = field(default_factory=dict)  # the match as it is (players, result)
    # for apply_plan: the replay it follows and the stored matches by id
    final: dr.Replay | None = None
    stored: dict[int, dr.Stored] = field(default_factory=dict)

    @property
    def choice_needed(self) -> bool:
        return bool(self.depends) and self.played is None

    def text(self, wording: dict[str, str] = CLI) -> str:
        """The plan as the director reads it; `wording`: how the ways out are said
        (night/how.py: the command line's, or the desk's)."""
        return plan_text(self, wording)

    def as_dict(self) -> dict:
        return plan_dict(self)


def plan_correction(store: Store, tournament_id: int, code: str, change: Change,
                    played: str | None = None) -> Plan:
    """What changing `code`'s outcome to `change` does to the night (reads only)."""
    if played not in (None,) + PLAYED:
        raise StoreError(_("--played takes keep or void"))
    match = store.matches.get(tournament_id, code)
    name = store.tournaments.format(tournament_id) or "list"
    names = {p["id"]: p["name"] for p in store.players.all(tournament_id)}
    plan = Plan(tournament_id, code, change, played, name, names)
    plan.before = {"players": [names.get(match["player1_id"]), names.get(match["player2_id"])],
                   "winner": names.get(match["winner_id"]), "outcome": match["outcome"],
                   "score": None if match["score1"] is None else [match["score1"],
                                                                  match["score2"]]}
    if name == "bracket":
        new_winner = None if change.outcome else match["player%d_id" % (change.winner or 1)]
        plan.redrawn, plan.depends = plan_linked(store, tournament_id, match, new_winner,
                                                 names)
        plan.keep_refused = _(KEEP_REFUSED) % {
            "matches": ", ".join(r["match"] for r in plan.depends), "how": way("void_played")}
        return plan
    if name not in formats.ENGINES or not is_drawn(store, tournament_id):
        return plan  # a list, a round robin: nothing is drawn from results
    _plan_draw(store, tournament_id, match, plan)
    return plan


def _plan_draw(store: Store, tid: int, match: dict, plan: Plan) -> None:
    numbers = {int(k): v for k, v in store.tournaments.plan(tid).get("numbers", {}).items()}
    stored = _read(store, tid, match["id"])
    plan.stored = {s.id: s for s in stored}
    target = plan.stored[match["id"]]
    original = [s for s in stored if s.id != target.id or match["outcome"] != "void"]
    manual = _manual(store, tid, original)
    base = dr.replay(_fresh(store, tid), original, numbers, {}, manual)
    triggers = _triggers(base, stored)
    hand = {s.id: triggers[s.id] for s in original if s.started and base.of(s.id) is None}
    changed = [_changed(s, match, plan.change) if s.id == target.id else s for s in stored]
    changed = [s for s in changed if s.id != target.id or plan.change.outcome != "void"]
    void_run = dr.replay(_fresh(store, tid), changed, numbers, hand, manual)
    depends = [s for s in changed if s.started and void_run.of(s.id) is None]
    final = void_run
    if depends:
        keep_run = _keep(store, tid, changed, numbers, hand, triggers, void_run)
        plan.keep_refused = _keep_refused(plan, keep_run, depends)
        if plan.played == "keep" and plan.keep_refused is None:
            final = keep_run
    plan.final = final
    _classify(store, tid, plan, target, changed, depends, base)


def _manual(store: Store, tid: int, stored: list) -> dict:
    """The director's pairings (night/pairing.py) the replay makes again: stored id -> (the
    stored id of the result before it, or -1 when that is gone: made when nothing else can
    be, the games it replaced)."""
    ids = {s.id for s in stored}
    return {p["match_id"]: (p["after"] if p["after"] in ids or p["after"] is None else -1,
                            p["replaced"])
            for p in store.tournaments.plan(tid).get("pairings", []) if p["match_id"] in ids}


def _fresh(store: Store, tid: int):
    options = store.tournaments.plan(tid)
    return formats.make_engine(options["format"], len(options["numbers"]), options)


def _read(store: Store, tid: int, target: int) -> list[dr.Stored]:
    """The stored matches with both players, void ones left out (but the one changed)."""
    rows = store.db.rows(
        "SELECT m.*, (SELECT MIN(r.id) FROM results r WHERE r.match_id = m.id) AS entered "
        "FROM matches m WHERE tournament_id = ? AND player1_id IS NOT NULL AND player2_id IS "
        "NOT NULL AND (outcome IS NOT 'void' OR id = ?) ORDER BY seq", tid, target)
    playing = playing_now(store, tid, [r for r in rows if r["winner_id"] is None
                                       and r["outcome"] is None])
    return [dr.Stored(r["id"], r["code"], r["round"], r["seq"],
                      (r["player1_id"], r["player2_id"]), _outcome(r), r["table_number"],
                      r["entered"], playing.get(r["code"])) for r in rows]


def _outcome(row: dict) -> tuple | None:
    if row["winner_id"] is not None:
        return ("win", row["winner_id"], (row["score1"] or 0, row["score2"] or 0))
    if row["outcome"] == "both_lose":
        return ("both_lose",)
    return None


def _changed(stored: dr.Stored, match: dict, change: Change) -> dr.Stored:
    outcome: tuple | None = ("both_lose",)
    if change.outcome is None:
        winner = match["player%d_id" % (change.winner or 1)]
        outcome = ("win", winner, change.score or (0, 0))
    return dr.Stored(stored.id, stored.code, stored.round, stored.seq, stored.players,
                     outcome, stored.table, stored.entered or 1 << 62, stored.playing)


def _triggers(base: dr.Replay, stored: list[dr.Stored]) -> dict[int, dr.Force]:
    """Stored id -> when the unchanged draw made it: after which stored result (None: the
    opening), and the games each player had before it; a match the unchanged draw did not make
    takes the result of the one before it in order."""
    found: dict[int, dr.Force] = {}
    last: int | None = None
    games = {row.stored: game for game, row in base.made if row.stored is not None}
    for s in stored:
        row = base.of(s.id)
        needs = None
        if row is not None:
            last = base.entered[row.after - 1] if row.after else None
            game = games.get(s.id)
            if game is not None:
                needs = {row.first: game.rounds[0] - 1, row.second: game.rounds[1] - 1}
        found[s.id] = (last, needs)
    return found


def _keep(store: Store, tid: int, changed: list, numbers: dict, hand: dict, triggers: dict,
          run: dr.Replay) -> dr.Replay:
    """The replay with every played or started game that depends forced in, until none is
    left out (a kept game can move the draw on again)."""
    if not isinstance(run.engine, Hakukaavio):
        return run
    forced = dict(hand)
    for _round in range(len(changed) + 1):
        missing = [s for s in changed if s.started and run.of(s.id) is None]
        if not missing:
            break
        forced.update({s.id: triggers[s.id] for s in missing})
        run = dr.replay(_fresh(store, tid), changed, numbers, forced,
                        _manual(store, tid, changed))
    return run


def _keep_refused(plan: Plan, run: dr.Replay, depends: list) -> str | None:
    if not isinstance(run.engine, Hakukaavio):
        codes = ", ".join(s.code for s in depends)
        return ("%s cannot be kept: in a %s a played game keeps its place in the bracket "
                "only with the same two players, and that place now belongs to another "
                "player; void it (%s)" % (codes, plan.format, way("void_played")))
    if any(run.of(s.id) is None for s in depends):
        return ("the kept games move the draw on without end; void them (%s)"
                % way("void_played"))
    return dr.keep_problem(run, plan.stored, plan.names)


def _classify(store: Store, tid: int, plan: Plan, target: dr.Stored, changed: list,
              depends: list, base: dr.Replay) -> None:
    final = plan.final
    assert final is not None
    names = plan.names
    kept = plan.played == "keep" and plan.keep_refused is None
    dep_ids = {s.id for s in depends}
    for s in changed:
        row = final.of(s.id)
        if s.id == target.id:
            continue
        if s.id in dep_ids:
            plan.depends.append(_row(s, names, state="in play" if s.outcome is None else
                                     "played", why=s.playing, kept=kept))
        elif row is None:
            plan.redrawn.append(_row(s, names))
        elif _later(s, target, base):
            plan.stands.append(_row(s, names, was=s.round, now=row.round))
    _name_new(store, tid, plan)
    plan.queues = _queues(store, tid, plan)


def _later(s: dr.Stored, target: dr.Stored, base: dr.Replay) -> bool:
    """Drawn after the changed result, or a later match of one of its players."""
    row = base.of(s.id)
    entered = base.entered.index(target.id) + 1 if target.id in base.entered else None
    if row is not None and entered is not None and row.after >= entered:
        return True
    return s.seq > target.seq and bool(set(s.players) & set(target.players))


def _row(s: dr.Stored, names: dict, **more) -> dict:
    row = {"match": s.code, "id": s.id, "players": [names.get(p) for p in s.players],
           "table": s.table, "result": _result(s, names)}
    row.update(more)
    return row


def _result(s: dr.Stored, names: dict) -> str | None:
    if s.outcome is None:
        return None
    if s.outcome[0] == "both_lose":
        return "lost by both"
    return "%s won %d:%d" % (names.get(s.outcome[1]), *s.outcome[2])


def _name_new(store: Store, tid: int, plan: Plan) -> None:
    """The codes the new games take: the engine's (double, groups), or the next free
    R<round>-<n> (a code used before, even by a removed match, is not given again)."""
    assert plan.final is not None
    codes = store.matches.codes(tid)
    for index, row in enumerate(plan.final.games):
        if row.stored is not None:
            continue
        code = row.code or next_code(codes, row.round)
        codes.add(code)
        plan.new.append({"match": code, "index": index, "round": row.round,
                         "players": [plan.names.get(row.first), plan.names.get(row.second)]})


def _queues(store: Store, tid: int, plan: Plan) -> list[dict]:
    """Each table whose queue the change alters: its queue before and after (the free tables
    filled as fill_tables fills them after the correction: the corrected match's table first,
    by the same rule, lists.fill, with the players' last games as they will be)."""
    assert plan.final is not None
    gone = {r["match"] for r in plan.redrawn}
    if plan.played == "void":
        gone |= {r["match"] for r in plan.depends}
    gone.add(plan.code)  # decided now
    before = {n: [m["match_id"] for m in store.tables.schedule(tid, n)]
              for n in store.tables.numbers(tid)}
    after = {n: [c for c in q if c not in gone] for n, q in before.items()}
    queued = {c for q in after.values() for c in q}
    by_id = plan.stored
    new = {r["index"]: r["match"] for r in plan.new}
    waiting, busy = [], set()
    for index, row in enumerate(plan.final.games):
        code = new.get(index) or by_id[row.stored].code  # type: ignore[index]
        if code in queued:
            busy |= {row.first, row.second}
        elif code not in gone and row.stored not in _decided(plan):
            waiting.append({"code": code, "player1": row.first, "player2": row.second})
    first = store.matches.get(tid, plan.code)["table_number"]
    free = sorted((n for n, q in after.items() if not q), key=lambda n: n != first)
    for match, table in lists.fill(free, waiting, busy, True, _last_after(store, tid, plan)):
        after[table].append(match["code"])
    return [{"table": n, "before": before[n], "after": after[n]} for n in before
            if before[n] != after[n]]


def _last_after(store: Store, tid: int, plan: Plan) -> dict[int, int]:
    """The players' last games (tables.last_games) as the correction leaves them: a game
    voided while in play, and the changed match if it had no entry yet, finish now (their
    entries come in that order: apply_plan, then the change's own)."""
    last = last_games(store, tid)
    now = max(last.values(), default=0)
    ending = [r["id"] for r in plan.depends if plan.played == "void" and r["state"] == "in play"]
    target = store.matches.get(tid, plan.code)
    if store.results.current_row(target["id"]) is None:
        ending.append(target["id"])
    for match_id in ending:
        now += 1
        for player in plan.stored[match_id].players:
            last[player] = now
    return last


def _decided(plan: Plan) -> set[int]:
    assert plan.final is not None
    return set(plan.final.entered)


def apply_plan(store: Store, tid: int, plan: Plan, reason: str) -> str:
    """(Inside the caller's transaction, before the changed match's own entry.) The stored
    matches made the plan's replay: the depending ones voided (played="void") with a signed
    entry each, the redrawn removed, the new inserted, every match's round and order of play
    as replayed. Returns what followed, for the correction's entry ("R3-02 redrawn, ...")."""
    if plan.choice_needed:
        raise choice_refused(plan)
    if plan.depends and plan.played == "keep" and plan.keep_refused:
        raise Refused(plan.keep_refused)
    if plan.format == "bracket":
        if plan.played == "void":
            apply_linked(store, tid, plan.code, plan.depends, reason)
        return followed(plan)
    if plan.final is None:
        return ""
    final = plan.final
    new_codes = {r["match"] for r in plan.new}
    if plan.played == "void":
        for row in plan.depends:
            # (a double's or groups' code is a place in the bracket: another game's now)
            void_match(store, tid, row, plan.code, reason, plan.format != "hakukaavio")
    reuse = {}
    for row in plan.redrawn:
        if row["match"] in new_codes:  # the same place of a bracket: the row takes its game
            reuse[row["match"]] = row["id"]
        else:
            store.matches.remove(row["id"])
    for index, game in enumerate(final.games):
        match_id = game.stored
        if match_id is None:
            code = next(r["match"] for r in plan.new if r["index"] == index)
            players = {"code": code, "round": game.round, "player1": game.first,
                       "player2": game.second}
            if code in reuse:
                match_id = reuse[code]
                store.matches.set_players(match_id, game.first, game.second)
            else:
                match_id = store.matches.insert(tid, players)
        store.matches.place(match_id, game.round, index + 1)
    return followed(plan)


def choice_text(plan: Plan) -> str:
    """The command line's words for choice_refused."""
    return choice_refused(plan).text


def choice_refused(plan: Plan) -> Refused:
    """The correction needs the choice of what becomes of the games played from it."""
    listed = "; ".join("%s %s (%s)" % (r["match"], " – ".join(map(str, r["players"])),
                                       r["why"] or row_said(r))
                       for r in plan.depends)
    head = _("correcting %(match)s changes the draw that these were drawn from, and they have "
             "been played or are in play: %(matches)s.") % {"match": plan.code,
                                                            "matches": listed}
    if plan.keep_refused is not None:  # (its words end naming how to void them)
        return Refused(head + " " + _("They cannot be kept: %(why)s: they then do not count, "
                                      "and what was drawn from them goes too") % {
            "why": plan.keep_refused})
    return Refused(head + " " + _("Choose: %(how)s") % {"how": way("choose_played")})
