"""Setting a night up: the tournament made, its players entered, its format planned, its
matches imported or drawn, its tables. Each is one transaction; nothing is half done."""

from __future__ import annotations

import random
import sqlite3

from host.i18n import _
from host.tournament import formats
from host.tournament.formats import lists
from host.tournament.formats.hakukaavio import OpeningFailed
from host.tournament.formats.hakukaavio_places import SEED_COUNTS, numbering
from host.tournament.night import imports
from host.tournament.night.engine import store_new_games
from host.tournament.night.status import format_word
from host.tournament.store import ImportRefused, Store, StoreError
from host.tournament.store.text import shown
from rules_core.match import check_settings
from rules_core.refusal import Refused

DRAWN_ONCE = ("round_robin", "bracket") + formats.ENGINES


def new_tournament(store: Store, name: str, game: str, race_to: int,
                   rules: dict | None = None) -> int:
    """A new tournament (with its own pairing key); its settings checked as a board checks a
    match's."""
    try:
        settings = check_settings({"game": game, "players": ["1", "2"], "race_to": race_to,
                                   "rules": rules})
    except Refused as refusal:
        raise StoreError(refusal.text) from None
    return store.tournaments.new(name, settings, race_to)


def plan_format(store: Store, tournament_id: int, name: str, options: dict) -> None:
    """The format the draw will be (at `tournament new --format`), with its options."""
    if name not in formats.FORMATS:
        raise StoreError(_("--format: one of %(formats)s") % {
            "formats": ", ".join(formats.FORMATS)})
    with store.db.transaction():
        store.tournaments.set_plan(tournament_id, dict(options, format=name))


def import_players(store: Store, tournament_id: int, rows: list[tuple[int, str, str]]) -> int:
    """Players from (line, name, club) rows, all or none; refused once the draw is made."""
    _refuse_after_draw(store, tournament_id, _("new players"))
    count = store.players.add(tournament_id, rows)
    with store.db.transaction():  # each a person already when the name is known (people.py)
        store.people.link_known(tournament_id)
    return count


def _refuse_after_draw(store: Store, tournament_id: int, what: str) -> None:
    drawn = store.tournaments.format(tournament_id)
    if drawn in DRAWN_ONCE:
        raise StoreError(_("the %(format)s is drawn already, so %(what)s would not play in it; "
                           "start a new tournament to draw again") % {
            "format": format_word(drawn), "what": what})


def import_matches(store: Store, tournament_id: int, rows: list[tuple[int, dict]]) -> int:
    """Matches from (line, {"id", "player1", "player2", "round", "table"}) rows, all or none.
    round and table are text from the file, or None."""
    with store.db.transaction() as db:
        if store.tournaments.format(tournament_id) in ("bracket",) + formats.ENGINES:
            raise StoreError(_("this tournament is a bracket: its matches come from the draw "
                               "and its results; start a new tournament to import a list"))
        ids = {p["name"]: p["id"] for p in store.players.all(tournament_id)}
        codes = store.matches.codes(tournament_id)
        pairs = {imports.pair_key(r["player1_id"], r["player2_id"], r["round"]) for r in
                 db.execute("SELECT * FROM matches WHERE tournament_id = ?", (tournament_id,))}
        problems, ready = [], []
        for line, row in rows:
            problem, match = imports.check_match_row(row, ids, codes, pairs)
            if problem:
                problems.append(_("line %(line)d: %(problem)s") % {"line": line,
                                                                   "problem": problem})
            else:
                ready.append(match)
        if problems:
            raise ImportRefused(problems)
        for match in ready:
            match_id = store.matches.insert(tournament_id, match)
            if match.get("table") is not None:
                store.tables.queue(tournament_id, match_id, match["table"])
        db.execute("UPDATE tournaments SET format = COALESCE(format, 'list') WHERE id = ?",
                   (tournament_id,))
    return len(rows)


def draw_round_robin(store: Store, tournament_id: int) -> int:
    """Everyone meets everyone once, round by round."""
    with store.db.transaction():
        players = _players_for_draw(store, tournament_id, "round_robin")
        count = 0
        for number, pairs in enumerate(lists.round_robin(players), 1):
            for index, (a, b) in enumerate(pairs, 1):
                store.matches.insert(tournament_id, {"code": "R%d-%02d" % (number, index),
                                                     "round": number, "player1": a,
                                                     "player2": b})
                count += 1
        store.tournaments.set_format(tournament_id, "round_robin")
    return count


def draw_bracket(store: Store, tournament_id: int) -> int:
    """A single-elimination bracket, byes to the top seeds."""
    with store.db.transaction():
        players = _players_for_draw(store, tournament_id, "bracket")
        plan = lists.bracket(players)
        ids = [store.matches.insert(tournament_id, {
            "code": m.code, "round": m.round, "player1": m.player1, "player2": m.player2})
            for m in plan]
        for match_id, m in zip(ids, plan, strict=True):
            if m.next is not None:
                store.matches.link(match_id, ids[m.next], m.next_slot)
        store.tournaments.set_format(tournament_id, "bracket")
    return len(plan)


def draw_opening(store: Store, tournament_id: int, rng: random.Random | None = None) -> int:
    """The opening of the planned engine format, drawn from the players (seed order; the
    hakukaavio's number draw places the seeds and draws the others at random: with `rng`, the
    draw a preview showed, drawn again the same)."""
    plan = store.tournaments.plan(tournament_id)
    name = plan.get("format")
    if name not in formats.ENGINES:
        raise StoreError(_("this tournament has no double, groups or hakukaavio plan: "
                           "start it with `pilkku tournament new NAME --format ...`"))
    with store.db.transaction():
        players = _players_for_draw(store, tournament_id, name)
        try:
            engine = formats.make_engine(name, len(players), plan)
        except OpeningFailed as failed:
            raise StoreError(_("the 24-seed opening fails for %(count)d players (%(why)s); "
                               "seed 1 to 8 players instead (--seeds N)") % {
                "count": len(players), "why": failed}) from None
        except ValueError as bad:
            raise StoreError("%s: %s" % (name, bad)) from None
        order = list(range(1, len(players) + 1))
        if name == "hakukaavio":  # the number draw (§2, §11): seeds placed, others random
            order = numbering(len(players), plan.get("seeds", 0),
                              rng or random.SystemRandom())
        plan["numbers"] = {str(pid): n for pid, n in zip(players, order, strict=True)}
        store.tournaments.set_plan(tournament_id, plan)
        store.tournaments.set_format(tournament_id, name)
        return store_new_games(store, tournament_id, engine, plan)


def set_seeds(store: Store, tournament_id: int, names: list[str]) -> None:
    """The seeds before the draw, best first: the players named take the first places of the
    seed order (the order the draw seeds by), the others follow in their order; the plan
    counts them (a hakukaavio's seeds: 1 to 8, or 24, or none). Refused once drawn."""
    with store.db.transaction() as db:
        _refuse_after_draw(store, tournament_id, _("new seeds"))
        if store.matches.any(tournament_id):
            raise StoreError(_("the matches are there already: seeds are set before the draw"))
        players = store.players.all(tournament_id)
        known = {p["name"] for p in players}
        for name in names:
            if name not in known:
                raise StoreError(_("no player named '%(name)s' in this tournament") % {
                    "name": shown(name)})
        if len(set(names)) != len(names):
            raise StoreError(_("a player is seeded once"))
        plan = store.tournaments.plan(tournament_id)
        if plan.get("format") == "hakukaavio" and len(names) not in SEED_COUNTS:
            raise StoreError(_("a hakukaavio seeds 1 to 8 players, or 24 (%(count)d chosen)")
                             % {"count": len(names)})
        order = [n for n in names] + [p["name"] for p in players if p["name"] not in names]
        for place, name in enumerate(order, 1):
            db.execute("UPDATE players SET seed = ? WHERE tournament_id = ? AND name = ?",
                       (place, tournament_id, name))
        if plan.get("format"):
            store.tournaments.set_plan(tournament_id, dict(plan, seeds=len(names)))


def remove_player(store: Store, tournament_id: int, name: str) -> None:
    """A player taken off the list before the draw (entered by mistake, did not come); the
    seeds after them move up. Refused once drawn (then they withdraw)."""
    with store.db.transaction() as db:
        if store.matches.any(tournament_id) or \
                store.tournaments.format(tournament_id) in DRAWN_ONCE:
            raise StoreError(_("the draw is made: a player who does not play on withdraws "
                               "(pilkku withdraw, or the desk's Players page)"))
        player = store.players.get(tournament_id, name)
        plan = store.tournaments.plan(tournament_id)
        seeded = [p["id"] for p in store.players.all(tournament_id)][:plan.get("seeds", 0) or 0]
        try:
            db.execute("DELETE FROM former_names WHERE player_id = ?", (player["id"],))
            db.execute("DELETE FROM players WHERE id = ?", (player["id"],))
        except sqlite3.IntegrityError:
            raise StoreError(_("%(name)s is named elsewhere in the store and cannot be "
                               "removed: withdraw them instead") % {"name": shown(name)}
                             ) from None
        if player["id"] in seeded:
            store.tournaments.set_plan(tournament_id, dict(plan, seeds=len(seeded) - 1))


def _players_for_draw(store: Store, tournament_id: int, what: str) -> list[int]:
    if store.matches.any(tournament_id):
        raise StoreError(_("this tournament has matches already; a %(format)s is drawn once, "
                           "on an empty tournament (start a new one)") % {
            "format": format_word(what)})
    players = [p["id"] for p in store.players.all(tournament_id)]
    if len(players) < 2:
        raise StoreError(_("a %(format)s needs at least two players: `pilkku players import "
                           "FILE.csv` first") % {"format": format_word(what)})
    return players


def set_tables(store: Store, tournament_id: int, count: int) -> list[int]:
    """Tables 1..count exist (a removed one among them is back in use)."""
    if count < 1:
        raise StoreError(_("give the number of tables, 1 or more"))
    with store.db.transaction():
        for number in range(1, count + 1):
            store.tables.ensure(tournament_id, number)
    return store.tables.numbers(tournament_id)
