"""What a form acted on, as the page showed it, so that an action on something another
browser changed since is refused with what changed, never applied blind. Each form carries
the state it saw (a short text: `state=...`); the action compares it with the store's now.

    match:  players, table, queue stamp, winner, outcome, score, current result
    tables: each table's queue (the codes), for "start the next match" and removing a table
    player: withdrawn or not, and their undecided matches with their tables"""

from __future__ import annotations

from host.i18n import N_, _
from host.tournament.store import Store, per_revision

# (N_: a stale form's words are said in the page's language, translated where raised)
_WORDS = {"p": N_("its players"), "t": N_("its table"), "q": N_("its place in a queue"),
          "w": N_("its winner"), "o": N_("its outcome"), "s": N_("its score"),
          "r": N_("its result")}


class Stale(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _line(parts: dict[str, object]) -> str:
    return ";".join("%s=%s" % (k, "" if v is None else v) for k, v in parts.items())


def _parts(line: str) -> dict[str, str]:
    return dict(part.partition("=")[::2] for part in line.split(";") if part)


def match(store: Store, row: dict) -> str:
    """A match row's state (store.matches.get's row)."""
    # (every match's current result read once per store revision: the night's screen
    # states every match)
    current = per_revision.read(store.db, ("current results", row["tournament_id"]),
                                lambda: store.results.current_ids(row["tournament_id"]))
    return _line({"p": "%s,%s" % (row["player1_id"], row["player2_id"]),
                  "t": row["table_number"], "q": row["queued"], "w": row["winner_id"],
                  "o": row["outcome"], "s": None if row["score1"] is None else "%s:%s" % (
                      row["score1"], row["score2"]),
                  "r": current.get(row["id"])})


def check_match(store: Store, row: dict, seen: str) -> None:
    """Stale naming what changed in the match since its page showed `seen`."""
    now = match(store, row)
    if seen == now:
        return
    old, new = _parts(seen), _parts(now)
    changed = [_(_WORDS[k]) for k in _WORDS if old.get(k) != new.get(k)]
    names = {p["id"]: p["name"] for p in store.players.all(row["tournament_id"])}
    raise Stale(_("%(match)s changed since your page was loaded (%(changed)s): %(now)s. "
                  "Nothing was done: look at it again and decide.") % {
                      "match": row["code"], "changed": ", ".join(changed) or _("its state"),
                      "now": _now_words(row, names)})


def _now_words(row: dict, names: dict) -> str:
    if row["outcome"] == "void":
        return _("it is void now")
    if row["outcome"] == "both_lose":
        return _("it is lost by both now")
    if row["winner_id"] is not None:
        return _("%(player)s won it %(score1)s:%(score2)s") % {
            "player": names.get(row["winner_id"], "?"), "score1": row["score1"],
            "score2": row["score2"]}
    if row["table_number"] is not None:
        return _("it is at table %(table)d now") % {"table": row["table_number"]}
    return _("it is waiting now, at no table")


def tables(store: Store, tournament_id: int) -> str:
    """Every table's queue."""
    return _line({str(n): ",".join(q["match_id"] for q in store.tables.schedule(
        tournament_id, n)) for n in store.tables.numbers(tournament_id)})


def check_tables(store: Store, tournament_id: int, seen: str) -> None:
    now = tables(store, tournament_id)
    if seen == now:
        return
    old, new = _parts(seen), _parts(now)
    moved = [_("table %(number)s: %(queue)s") % {"number": n, "queue": new.get(n) or (
        _("removed") if n not in new else _("free"))}
             for n in sorted(set(old) | set(new), key=lambda n: int(n) if n.isdigit() else 0)
             if old.get(n) != new.get(n)]
    raise Stale(_("the tables changed since your page was loaded (%(tables)s). Nothing was "
                  "done: look at them again and decide.") % {"tables": "; ".join(moved)})


def player(store: Store, tournament_id: int, row: dict) -> str:
    """A player's state (store.players.get's row)."""
    # (the open matches read once per store revision: the night's screen asks for every
    # player's state, 64 reads of every open match before)
    undecided = per_revision.read(store.db, ("open matches", tournament_id),
                                  lambda: store.matches.open(tournament_id))
    open_ = [m for m in undecided if row["id"] in (m["player1_id"], m["player2_id"])]
    return _line({"x": 1 if row["withdrawn"] is not None else 0,
                  "m": ",".join("%s@%s" % (m["code"], m["table_number"] or "")
                                for m in open_)})


def check_player(store: Store, tournament_id: int, row: dict, seen: str) -> None:
    if seen != player(store, tournament_id, row):
        raise Stale(_("%(player)s's matches changed since your page was loaded (a result came "
                      "in, a match started or was drawn). Nothing was done: look again and "
                      "decide.") % {"player": row["name"]})
