"""The store's ranking series (host/season/): point tables kept in versions, the series with
the version each counts by, the nights (tournaments) in each, and a closed series' table kept
as it stood. It keeps; the season's rules are host/season/'s.

    points(name, version=None)   a point table's version (the latest by default)
    set_points(name, table)      a new version; the open series counting by the name move to
                                 it, the closed ones keep theirs -> (version, [series moved])
    new, get(name), all, nights(series id), add_night, remove_night, close
"""

from __future__ import annotations

import json

from host.i18n import N_, _
from host.tournament.store.db import Part
from host.tournament.store.schema import StoreError, now
from host.tournament.store.text import shown

TEXT = {  # (N_: said in the language spoken where raised)
    "no_points": N_("no point table '%(table)s': `pilkku series points` lists them"),
    "no_version": N_("no point table '%(table)s' version %(version)d: `pilkku series points` "
                     "lists them"),
    "no_series": N_("no series named '%(series)s' (known: %(known)s): start one with `pilkku "
                    "series new NAME`"),
    "taken": N_("a series named '%(series)s' exists already: pick another name"),
    "closed": N_("the series '%(series)s' was closed on %(day)s: its table is frozen"),
    "in_it": N_("'%(tournament)s' is in the series '%(series)s' already"),
    "not_in": N_("'%(tournament)s' is not in the series '%(series)s'"),
}


def _day(stamp: str) -> str:
    """A time kept (ISO) as its day, as Finnish clubs write it: 25.2.2026."""
    year, month, day = stamp[:10].split("-")
    return "%d.%d.%d" % (int(day), int(month), int(year))


def _decoded(row: dict) -> dict:
    row["tie_break"] = json.loads(row["tie_break"])
    row["carry"] = json.loads(row["carry"])
    row["frozen"] = json.loads(row["frozen"]) if row["frozen"] else None
    return row


class Series(Part):
    def points(self, name: str, version: int | None = None) -> dict:
        if version is None:
            row = self.db.one("SELECT * FROM point_tables WHERE name = ? ORDER BY version DESC "
                              "LIMIT 1", name)
        else:
            row = self.db.one("SELECT * FROM point_tables WHERE name = ? AND version = ?",
                              name, version)
        if row is None:
            raise StoreError(_(TEXT["no_points"] if version is None else TEXT["no_version"])
                             % {"table": shown(name), "version": version})
        row["points"] = json.loads(row["points"])
        return row

    def point_tables(self) -> list[dict]:
        rows = self.db.rows("SELECT name, version, points, created FROM point_tables "
                            "ORDER BY name, version")
        for row in rows:
            row["points"] = json.loads(row["points"])
        return rows

    def set_points(self, name: str, table: dict) -> tuple[int, list[str]]:
        """(Its own transaction, or the caller's.) A new version of the point table `name`;
        the open series counting by it move to it."""
        def write() -> tuple[int, list[str]]:
            version = self.conn.execute("SELECT COALESCE(MAX(version), 0) + 1 FROM point_tables "
                                        "WHERE name = ?", (name,)).fetchone()[0]
            self.conn.execute("INSERT INTO point_tables VALUES (?, ?, ?, ?)",
                              (name, version, json.dumps(table, sort_keys=True), now()))
            moved = [r[0] for r in self.conn.execute(
                "SELECT name FROM series WHERE points_name = ? AND closed IS NULL ORDER BY id",
                (name,))]
            self.conn.execute("UPDATE series SET points_version = ? WHERE points_name = ? AND "
                              "closed IS NULL", (version, name))
            return version, moved

        if self.conn.in_transaction:
            return write()
        with self.db.transaction():
            return write()

    def new(self, row: dict) -> int:
        """A series from checked fields (host/season/series.py): name, game, date_from,
        date_to, points_name, points_version, best_of, tie_break, carry."""
        if self.db.one("SELECT 1 FROM series WHERE name = ?", row["name"]):
            raise StoreError(_(TEXT["taken"]) % {"series": shown(row["name"])})
        cursor = self.conn.execute(
            "INSERT INTO series (name, game, date_from, date_to, points_name, points_version, "
            "best_of, tie_break, carry, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row["name"], row["game"], row["date_from"], row["date_to"], row["points_name"],
             row["points_version"], row["best_of"], json.dumps(row["tie_break"]),
             json.dumps(row["carry"]), now()))
        return int(cursor.lastrowid or 0)

    def get(self, name: str) -> dict:
        row = self.db.one("SELECT * FROM series WHERE name = ?", name)
        if row is None:
            known = ", ".join(s["name"] for s in self.all()) or "-"
            raise StoreError(_(TEXT["no_series"]) % {"series": shown(name), "known": known})
        return _decoded(row)

    def by_id(self, series_id: int) -> dict:
        row = self.db.one("SELECT * FROM series WHERE id = ?", series_id)
        if row is None:
            raise StoreError(_(TEXT["no_series"]) % {"series": "#%d" % series_id, "known": "-"})
        return _decoded(row)

    def all(self) -> list[dict]:
        return [_decoded(r) for r in self.db.rows("SELECT * FROM series ORDER BY id")]

    def nights(self, series_id: int) -> list[dict]:
        """The series' nights in the order played: {tournament_id, tournament, played}."""
        return self.db.rows(
            "SELECT n.tournament_id, t.name AS tournament, n.played FROM series_nights n "
            "JOIN tournaments t ON t.id = n.tournament_id WHERE n.series_id = ? "
            "ORDER BY n.played, n.tournament_id", series_id)

    def refuse_closed(self, series: dict) -> None:
        if series["closed"]:
            raise StoreError(_(TEXT["closed"]) % {"series": shown(series["name"]),
                                                  "day": _day(series["closed"])})

    def add_night(self, series: dict, tournament: dict, played: str) -> None:
        """(Inside the caller's transaction.)"""
        self.refuse_closed(series)
        if self.db.one("SELECT 1 FROM series_nights WHERE series_id = ? AND tournament_id = ?",
                       series["id"], tournament["id"]):
            raise StoreError(_(TEXT["in_it"]) % {"tournament": shown(tournament["name"]),
                                                 "series": shown(series["name"])})
        self.conn.execute("INSERT INTO series_nights VALUES (?, ?, ?)",
                          (series["id"], tournament["id"], played))

    def remove_night(self, series: dict, tournament: dict) -> None:
        self.refuse_closed(series)
        cursor = self.conn.execute("DELETE FROM series_nights WHERE series_id = ? AND "
                                   "tournament_id = ?", (series["id"], tournament["id"]))
        if not cursor.rowcount:
            raise StoreError(_(TEXT["not_in"]) % {"tournament": shown(tournament["name"]),
                                                  "series": shown(series["name"])})

    def close(self, series: dict, table: list[dict]) -> None:
        """(Inside the caller's transaction.) The series closed, its table kept as it is."""
        self.refuse_closed(series)
        self.conn.execute("UPDATE series SET closed = ?, frozen = ? WHERE id = ?",
                          (now(), json.dumps(table, ensure_ascii=False), series["id"]))

    # A tournament's prize money as the director set it (host/season/prize.py): kept so that
    # the final ranking's printout can show it when the director said so.
    def prize(self, tournament_id: int) -> dict | None:
        row = self.db.one("SELECT settings, printed FROM prizes WHERE tournament_id = ?",
                          tournament_id)
        if row is None:
            return None
        return {"settings": json.loads(row["settings"]), "printed": bool(row["printed"])}

    def save_prize(self, tournament_id: int, settings: dict, printed: bool) -> None:
        with self.db.transaction():
            self.conn.execute("INSERT OR REPLACE INTO prizes VALUES (?, ?, ?, ?)",
                              (tournament_id, json.dumps(settings, sort_keys=True),
                               int(printed), now()))
