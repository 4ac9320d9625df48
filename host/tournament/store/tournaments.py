"""The store's tournaments: made with their pairing key, found by name (or the latest), and
the format each one plays with its plan (options and, once drawn, the players' numbers)."""

from __future__ import annotations

import json
import secrets

from firmware.words import LANGUAGES as BOARD_LANGUAGES  # the board's (one definition)
from host.i18n import _
from host.tournament.store.db import Part
from host.tournament.store.schema import StoreError, dicts, now
from host.tournament.store.text import shown
from rules_core import canon

TOURNAMENT_NAME_MAX = 80
# The boards' displays' language (firmware/words.py), kept in the plan: a tournament setting
# without a column of its own (the plan is the tournament's JSON of settings).
BOARD_LANG = "board_lang"


class Tournaments(Part):
    def new(self, name: str, settings: dict, race_to: int) -> int:
        """A new tournament of checked `settings` (rules_core.match.check_settings)."""
        name = name.strip()
        if not name or len(name) > TOURNAMENT_NAME_MAX or not name.isprintable():
            raise StoreError(_("a tournament's name is 1 to %(max)d characters, no control "
                               "characters (found '%(name)s')") % {
                "max": TOURNAMENT_NAME_MAX, "name": shown(name)})
        with self.db.transaction() as db:
            if db.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise StoreError(_("a tournament named '%(name)s' exists already: pick another "
                                   "name, or act on it with --tournament '%(name)s'") % {
                    "name": shown(name)})
            cursor = db.execute(
                "INSERT INTO tournaments (name, game, race_to, rules, pairing_key, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, settings["game"], race_to, canon.dumps(settings["rules"]),
                 secrets.token_bytes(32), now()))
            return int(cursor.lastrowid or 0)

    def get(self, name: str | None = None) -> dict:
        """The tournament named, or the latest one created."""
        if name is None:
            row = self.db.one("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1")
            if row is None:
                raise StoreError(_("no tournament in %(store)s yet: start one with `pilkku "
                                   "tournament new NAME --game 9ball --race 5`") % {
                    "store": self.db.path})
        else:
            row = self.db.one("SELECT * FROM tournaments WHERE name = ?", name)
            if row is None:
                known = ", ".join(t["name"] for t in self.all()) or _("none")
                raise StoreError(_("no tournament named '%(name)s' (known: %(known)s)") % {
                    "name": shown(name), "known": known})
        row["rules"] = json.loads(row["rules"])
        del row["pairing_key"]  # kept out of listings; ask key() for it
        return row

    def all(self) -> list[dict]:
        return dicts(self.conn.execute(
            "SELECT t.id, t.name, t.game, t.race_to, t.format, t.created, "
            "(SELECT COUNT(*) FROM players WHERE tournament_id = t.id) AS players, "
            "(SELECT COUNT(*) FROM matches WHERE tournament_id = t.id) AS matches "
            "FROM tournaments t ORDER BY t.id"))

    def by_id(self, tournament_id: int) -> dict:
        row = self.db.one("SELECT name FROM tournaments WHERE id = ?", tournament_id)
        if row is None:
            raise StoreError(_("no tournament with id %(id)d") % {"id": tournament_id})
        return self.get(row["name"])

    def key(self, tournament_id: int) -> bytes:
        """The pairing key: 32 random bytes, written to boards by pair/flash."""
        row = self.conn.execute("SELECT pairing_key FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        if row is None:
            raise StoreError(_("no tournament with id %(id)d") % {"id": tournament_id})
        return bytes(row[0])

    def format(self, tournament_id: int) -> str | None:
        row = self.conn.execute("SELECT format FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        return row[0] if row else None

    def set_format(self, tournament_id: int, name: str) -> None:
        self.conn.execute("UPDATE tournaments SET format = COALESCE(?, format) WHERE id = ?",
                          (name, tournament_id))

    def plan(self, tournament_id: int) -> dict:
        """The format planned at `tournament new --format` with its options, and once drawn
        the players' numbers: {"format": ..., options..., "numbers": {player id: number}}."""
        row = self.conn.execute("SELECT format_options FROM tournaments WHERE id = ?",
                                (tournament_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else {}

    def set_plan(self, tournament_id: int, plan: dict) -> None:
        board_lang = self.plan(tournament_id).get(BOARD_LANG)
        if board_lang is not None and BOARD_LANG not in plan:
            plan = dict(plan, **{BOARD_LANG: board_lang})  # a new plan keeps it
        self.conn.execute("UPDATE tournaments SET format_options = ? WHERE id = ?",
                          (json.dumps(plan), tournament_id))

    def board_language(self, tournament_id: int) -> str:
        """The language of the tournament's boards' displays (firmware/words.py): "en" unless
        set; sent with each board's schedule and written at pairing."""
        return str(self.plan(tournament_id).get(BOARD_LANG) or "en")

    def set_board_language(self, tournament_id: int, lang: str) -> None:
        if lang not in BOARD_LANGUAGES:
            raise StoreError(_("the boards speak %(languages)s (found '%(found)s')") % {
                "languages": ", ".join(BOARD_LANGUAGES), "found": shown(lang)})
        self.set_plan(tournament_id, dict(self.plan(tournament_id), **{BOARD_LANG: lang}))
