"""The store's players of a tournament: added in seed order, named (and every name they had),
renamed, and withdrawn."""

from __future__ import annotations

from host.i18n import _
from host.tournament.store.db import Part
from host.tournament.store.schema import ImportRefused, StoreError, dicts, now
from host.tournament.store.text import name_problem, shown


class Players(Part):
    def add(self, tournament_id: int, rows: list[tuple[int, str, str]]) -> int:
        """Add players from (line, name, club) rows, all or none, seeded after those there."""
        with self.db.transaction() as db:
            names = {r[0] for r in db.execute("SELECT name FROM players WHERE tournament_id = ?",
                                              (tournament_id,))}
            problems = []
            for line, name, _club in rows:
                problem = name_problem(name) or (
                    _("player '%(name)s' is listed twice") % {"name": shown(name)}
                    if name in names else None)
                if problem:
                    problems.append(_("line %(line)d: %(problem)s") % {"line": line,
                                                                       "problem": problem})
                names.add(name)
            if problems:
                raise ImportRefused(problems)
            seed = db.execute("SELECT COALESCE(MAX(seed), 0) FROM players WHERE "
                              "tournament_id = ?", (tournament_id,)).fetchone()[0]
            for offset, (_line, name, club) in enumerate(rows, 1):
                db.execute("INSERT INTO players (tournament_id, seed, name, club) "
                           "VALUES (?, ?, ?, ?)", (tournament_id, seed + offset, name, club))
        return len(rows)

    def add_late(self, tournament_id: int, name: str, club: str) -> int:
        """(Inside the caller's transaction.) One player added after the draw, seeded last;
        returns their id. StoreError for a bad or taken name."""
        problem = name_problem(name) or (_("there is a player '%(name)s' already") % {
                                             "name": shown(name)}
                                         if self.db.one("SELECT 1 FROM players WHERE "
                                                        "tournament_id = ? AND name = ?",
                                                        tournament_id, name) else None)
        if problem:
            raise StoreError(problem)
        cursor = self.conn.execute(
            "INSERT INTO players (tournament_id, seed, name, club) VALUES (?, (SELECT "
            "COALESCE(MAX(seed), 0) + 1 FROM players WHERE tournament_id = ?), ?, ?)",
            (tournament_id, tournament_id, name, club))
        return int(cursor.lastrowid or 0)

    def all(self, tournament_id: int) -> list[dict]:
        return dicts(self.conn.execute(
            "SELECT id, seed, name, club FROM players WHERE tournament_id = ? ORDER BY seed",
            (tournament_id,)))

    def get(self, tournament_id: int, name: str) -> dict:
        row = self.db.one("SELECT * FROM players WHERE tournament_id = ? AND name = ?",
                          tournament_id, name)
        if row is None:
            raise StoreError(_("no player named '%(name)s' in this tournament: `pilkku "
                               "players` lists them") % {"name": shown(name)})
        return row

    def names(self, match: dict) -> list[str | None]:
        """The names of a match's two players (None for a slot not filled yet)."""
        names = []
        for key in ("player1_id", "player2_id"):
            row = self.conn.execute("SELECT name FROM players WHERE id = ?",
                                    (match[key],)).fetchone()
            names.append(row[0] if row else None)
        return names

    def known(self, player_id: int | None) -> set[str]:
        """Every name a player has had (a renamed player's older logs still name them)."""
        return {r[0] for r in self.conn.execute(
            "SELECT name FROM players WHERE id = ? UNION SELECT name FROM former_names "
            "WHERE player_id = ?", (player_id, player_id))}

    def order(self, logged: list, match: dict) -> tuple[int, int] | None:
        """Which of the match's slots (1, 2) each player the log names holds, or None if the
        log names other players."""
        one, two = self.known(match["player1_id"]), self.known(match["player2_id"])
        if logged[0] in one and logged[1] in two:
            return (1, 2)
        if logged[0] in two and logged[1] in one:
            return (2, 1)
        return None

    def slot_of(self, match: dict, name: str) -> int:
        """The match's slot (1, 2) of the player named."""
        for slot in (1, 2):
            if name in self.known(match["player%d_id" % slot]):
                return slot
        names = self.names(match)
        raise StoreError(_("%(player)s does not play match %(match)s (%(player1)s vs "
                           "%(player2)s)") % {"player": name, "match": match["code"],
                                              "player1": names[0], "player2": names[1]})

    def rename(self, tournament_id: int, old: str, new: str) -> None:
        """A player's name corrected; logs naming the old name are still theirs."""
        new = new.strip()
        with self.db.transaction():
            player = self.get(tournament_id, old)
            problem = name_problem(new)
            if problem:
                raise StoreError(problem)
            if new == old:
                raise StoreError(_("'%(name)s' is the name already") % {"name": shown(old)})
            taken = self.db.one(
                "SELECT p.name FROM players p LEFT JOIN former_names f ON f.player_id = p.id "
                "WHERE p.tournament_id = ? AND p.id != ? AND (p.name = ? OR f.name = ?)",
                tournament_id, player["id"], new, new)
            if taken is not None:
                raise StoreError(_("'%(name)s' is (or was) the name of another player, "
                                   "%(other)s: pick a name the boards can tell apart") % {
                    "name": new, "other": taken["name"]})
            self.conn.execute("INSERT INTO former_names (player_id, name, until) VALUES "
                              "(?, ?, ?)", (player["id"], old, now()))
            self.conn.execute("UPDATE players SET name = ? WHERE id = ?", (new, player["id"]))

    def withdraw(self, player_id: int) -> None:
        self.conn.execute("UPDATE players SET withdrawn = ? WHERE id = ?", (now(), player_id))

    def withdrawn(self, tournament_id: int) -> dict[int, str]:
        """The withdrawn players' ids, with when they withdrew."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT id, withdrawn FROM players WHERE tournament_id = ? AND withdrawn IS NOT "
            "NULL", (tournament_id,))}
