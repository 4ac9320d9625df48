"""The store's people: a person known across the store's tournaments, whom each tournament's
player is (players.person_id). A person is picked by name with completion, never merged
silently: a name two people share is asked about, a new person with a known name is made only
when the director says so, and two spellings of one person are joined by the director with a
reason, kept in people_joins as the audit trail (`pilkku people history`).

    complete(prefix)        the people whose name starts with (or has a word starting with)
                            the prefix, for a picker: [{id, name, club, licence, nights}]
    add(name, club, licence, new=False)   a person; a known name refused unless new
    find(word)              one person by '#id' or by a name only one person has
    named(name)             the people of that name (two different people may share one)
    link_tournament(tid, new=(), picks={})   link every unlinked player of a tournament
    link_player(player_id, '#id')   one player linked to the person picked (the desk's picker)
    of_tournament(tid)      player id -> person id
    join(kept, joined, reason)   two spellings made one person, audited
    split(joined, reason)   a join taken back (audited too)
    joins()                 the audit trail of joins
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from host.i18n import N_, _
from host.tournament.store.db import Part
from host.tournament.store.schema import StoreError, now
from host.tournament.store.text import name_problem, shown

FIELD_MAX = 40  # a club's name or a licence number
COMPLETE_MAX = 20  # how many a picker is offered
REASON_MAX = 200

TEXT = {  # (N_: said in the language spoken where raised)
    "no_person": N_("no person '%(name)s': `pilkku people` lists them (or `pilkku people "
                    "complete %(name)s`)"),
    "no_id": N_("no person #%(id)d: `pilkku people` lists them"),
    "ambiguous": N_("%(count)d people are named '%(name)s' (%(people)s): say which by number, "
                    "e.g. #%(id)d"),
    "known": N_("a person named '%(name)s' is known already (%(people)s): link to them by "
                "number, or make another person of the same name with --new"),
    "club": N_("a club is at most %(most)d printable characters (found '%(found)s')"),
    "licence": N_("a licence number is at most %(most)d printable characters (found "
                  "'%(found)s')"),
    "reason": N_("say why with --reason (1 to %(most)d characters, e.g. 'the same person, "
                 "spelled two ways')"),
    "same": N_("#%(id)d is the same person already"),
    "joined": N_("#%(id)d %(name)s was joined into #%(kept)d: use #%(kept)d"),
    "both_played": N_("#%(kept)d %(kept_name)s and #%(joined)d %(joined_name)s both played "
                      "'%(tournament)s': they are two people, not one"),
    "link_ambiguous": N_("'%(name)s' could be %(count)d people (%(people)s): pick one with "
                         "--person '%(name)s=#ID', or make a new person with --new '%(name)s'"),
    "split_by_number": N_("say which joined person by number (#ID, as `pilkku people "
                          "history` shows it), not '%(found)s'"),
    "no_join": N_("#%(id)d was not joined into anybody (or the join was taken back already): "
                  "`pilkku people history` lists the joins"),
    "pick_unknown": N_("--person names '%(name)s', who does not play this tournament"),
    "pick_name": N_("--person '%(pick)s' is #%(id)d %(person)s, not '%(name)s': check the "
                    "number"),
    "licence_word": N_("licence %(licence)s"),
}


class Ambiguous(StoreError):
    """A player's name several people have: `name`, and `people` (their rows) to pick from."""

    def __init__(self, name: str, people: list[dict]) -> None:
        super().__init__(_(TEXT["link_ambiguous"]) % {
            "name": shown(name), "count": len(people),
            "people": "; ".join(shown_person(r) for r in people)})
        self.name = name
        self.people = people


def shown_person(row: dict) -> str:
    extra = ", ".join(x for x in (row["club"], row["licence"] and _(TEXT["licence_word"]) % {
        "licence": row["licence"]}) if x)
    return "#%d %s%s" % (row["id"], row["name"], " (%s)" % extra if extra else "")


class People(Part):
    def all(self) -> list[dict]:
        """Every person (not those joined into another), with how many nights each played."""
        return self.db.rows(
            "SELECT p.id, p.name, p.club, p.licence, (SELECT COUNT(*) FROM players q WHERE "
            "q.person_id = p.id) AS nights FROM people p WHERE p.joined_into IS NULL "
            "ORDER BY p.name, p.id")

    def complete(self, prefix: str) -> list[dict]:
        """The people a picker offers for what was typed: a name or a word of it starting with
        `prefix` (case and accents as typed, case ignored), the most played first."""
        typed = prefix.strip().casefold()
        found = []
        for row in self.all():
            name = row["name"].casefold()
            if not typed or name.startswith(typed) or any(
                    word.startswith(typed) for word in name.split()):
                found.append(row)
        found.sort(key=lambda r: (not r["name"].casefold().startswith(typed), -r["nights"],
                                  r["name"], r["id"]))
        return found[:COMPLETE_MAX]

    def named(self, name: str) -> list[dict]:
        return [r for r in self.all() if r["name"] == name.strip()]

    def get(self, person_id: int) -> dict:
        row = self.db.one("SELECT id, name, club, licence, joined_into FROM people WHERE id = ?",
                          person_id)
        if row is None:
            raise StoreError(_(TEXT["no_id"]) % {"id": person_id})
        if row["joined_into"] is not None:
            raise StoreError(_(TEXT["joined"]) % {"id": person_id, "name": row["name"],
                                                  "kept": row["joined_into"]})
        return row

    def current(self, person_id: int) -> int:
        """The person a person id stands for now (one joined into another: that one)."""
        for _hop in range(100):  # (a join never points back: the kept one is never joined)
            row = self.db.one("SELECT joined_into FROM people WHERE id = ?", person_id)
            if row is None or row["joined_into"] is None:
                return person_id
            person_id = row["joined_into"]
        return person_id

    def find(self, word: str) -> dict:
        """A person by '#id' (or a bare number) or by a name only one person has."""
        text = word.strip()
        digits = text[1:] if text.startswith("#") else text
        if digits.isascii() and digits.isdigit() and len(digits) < 10:
            return self.get(int(digits))
        rows = self.named(text)
        if not rows:
            raise StoreError(_(TEXT["no_person"]) % {"name": shown(text)})
        if len(rows) > 1:
            raise StoreError(_(TEXT["ambiguous"]) % {
                "count": len(rows), "name": shown(text),
                "people": "; ".join(shown_person(r) for r in rows), "id": rows[0]["id"]})
        return rows[0]

    def add(self, name: str, club: str = "", licence: str = "", *, new: bool = False) -> int:
        """A new person. A name someone has already is refused unless `new` (two different
        people of one name are kept apart, never guessed)."""
        name, club, licence = name.strip(), club.strip(), licence.strip()
        problem = name_problem(name)
        if problem:
            raise StoreError(problem)
        for what, value in (("club", club), ("licence", licence)):
            if len(value) > FIELD_MAX or not value.isprintable():
                raise StoreError(_(TEXT[what]) % {"most": FIELD_MAX, "found": shown(value)})
        with self.db.transaction():
            known = self.named(name)
            if known and not new:
                raise StoreError(_(TEXT["known"]) % {"name": shown(name), "people": "; ".join(
                    shown_person(r) for r in known)})
            return self._insert(name, club, licence)

    def _insert(self, name: str, club: str, licence: str) -> int:
        cursor = self.conn.execute(
            "INSERT INTO people (name, club, licence, created) VALUES (?, ?, ?, ?)",
            (name, club, licence, now()))
        return int(cursor.lastrowid or 0)

    def of_tournament(self, tournament_id: int) -> dict[int, int | None]:
        """player id -> person id (None: not linked yet)."""
        return {r[0]: r[1] for r in self.conn.execute(
            "SELECT id, person_id FROM players WHERE tournament_id = ?", (tournament_id,))}

    def link_tournament(self, tournament_id: int, new: tuple[str, ...] | list[str] = (),
                        picks: dict[str, str] | None = None) -> list[dict]:
        """Link every player of the tournament not linked yet (and those the director names,
        though linked at entry: link_known), all or none: a name in `picks`
        to the person it names ('#id'); a name in `new` to a new person; a name no person has
        to a new person; a name exactly one person has to that person; a name several people
        have is refused (say which). Returns [{player, person, how}] for the players linked
        ('known', 'new', 'picked')."""
        picks = dict(picks or {})
        done = []
        with self._transaction():
            players = self.db.rows("SELECT id, name, club, person_id FROM players WHERE "
                                   "tournament_id = ? ORDER BY seed", tournament_id)
            names = {p["name"] for p in players}
            for name in list(picks) + list(new):
                if name not in names:
                    raise StoreError(_(TEXT["pick_unknown"]) % {"name": shown(name)})
            for player in players:
                name = player["name"]
                if player["person_id"] is not None and name not in picks and name not in new:
                    continue  # (linked at entry by a known name: the director's word wins)
                if name in picks:
                    person = self.find(picks[name])
                    if person["name"] != name:
                        raise StoreError(_(TEXT["pick_name"]) % {
                            "pick": shown(picks[name]), "id": person["id"],
                            "person": person["name"], "name": shown(name)})
                    person_id, how = person["id"], "picked"
                else:
                    known = self.named(name)
                    if name in new or not known:
                        person_id, how = self._insert(name, player["club"], ""), "new"
                    elif len(known) == 1:
                        person_id, how = known[0]["id"], "known"
                    else:
                        raise Ambiguous(name, known)
                self.conn.execute("UPDATE players SET person_id = ? WHERE id = ?",
                                  (person_id, player["id"]))
                done.append({"player": name, "person": person_id, "how": how})
        return done

    def link_player(self, player_id: int, person_word: str) -> dict:
        """One player linked to the person the director picked ('#id': the desk's name
        picker), who must have the player's name. (Inside the caller's transaction, if any.)"""
        with self._transaction():
            person = self.find(person_word)
            row = self.db.one("SELECT name FROM players WHERE id = ?", player_id)
            if row is None or row["name"] != person["name"]:
                raise StoreError(_(TEXT["pick_name"]) % {
                    "pick": shown(person_word), "id": person["id"], "person": person["name"],
                    "name": shown(row["name"] if row else "")})
            self.conn.execute("UPDATE players SET person_id = ? WHERE id = ?",
                              (person["id"], player_id))
        return person

    def link_known(self, tournament_id: int) -> list[str]:
        """At entry (night.import_players: the desk's setup, `pilkku players import`): each
        player not linked yet whose name exactly one person has is that person. A name several
        people have is left unlinked, never merged silently (the director says who: the desk's
        season page, `pilkku people link`), and so is a name no person has (a new person is
        made when the night joins a series: a typo is not made a person). Returns the names
        left unlinked because several people have them. (Inside the caller's transaction.)"""
        shared: list[str] = []
        if not self._people_kept():
            return shared
        for player in self.db.rows("SELECT id, name FROM players WHERE tournament_id = ? AND "
                                   "person_id IS NULL ORDER BY seed, id", tournament_id):
            known = self.named(player["name"])
            if len(known) == 1:
                self.conn.execute("UPDATE players SET person_id = ? WHERE id = ?",
                                  (known[0]["id"], player["id"]))
            elif known:
                shared.append(player["name"])
        return shared

    def _people_kept(self) -> bool:
        """Whether the store keeps people (schema v10): a store opened by Store.open always
        does; one left at an older version on purpose (the migrations' tests, which enter
        players into it with today's operations) does not, and its players stay as they were."""
        return self.db.one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'people'") is not None

    def renamed(self, player_id: int, old: str) -> None:
        """A player's name corrected (night/corrections.py rename_player): a link made by the
        old name (the person has that name) no longer holds, so it is made again by the new
        one as at entry, as is a player not linked yet; a link the director made otherwise (a
        join, a pick) stays. (Inside the caller's transaction.)"""
        if not self._people_kept():
            return
        row = self.db.one("SELECT p.tournament_id, p.person_id, q.name AS person FROM players p "
                          "LEFT JOIN people q ON q.id = p.person_id WHERE p.id = ?", player_id)
        if row is None or (row["person_id"] is not None and row["person"] != old):
            return
        self.conn.execute("UPDATE players SET person_id = NULL WHERE id = ?", (player_id,))
        self.link_known(row["tournament_id"])

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """The caller's transaction if one is open (a series adding its nights), else one."""
        if self.conn.in_transaction:
            yield
        else:
            with self.db.transaction():
                yield

    def join(self, kept_word: str, joined_word: str, reason: str) -> dict:
        """Two spellings of one person made one: the joined person's players become the kept
        one's, the joined person is kept (not listed) and the join is kept with its reason."""
        reason = reason.strip()
        if not reason or len(reason) > REASON_MAX or not reason.isprintable():
            raise StoreError(_(TEXT["reason"]) % {"most": REASON_MAX})
        with self.db.transaction():
            kept, joined = self.find(kept_word), self.find(joined_word)
            if kept["id"] == joined["id"]:
                raise StoreError(_(TEXT["same"]) % {"id": kept["id"]})
            both = self.db.one(
                "SELECT t.name FROM players a JOIN players b ON a.tournament_id = "
                "b.tournament_id JOIN tournaments t ON t.id = a.tournament_id WHERE "
                "a.person_id = ? AND b.person_id = ? LIMIT 1", kept["id"], joined["id"])
            if both is not None:
                raise StoreError(_(TEXT["both_played"]) % {
                    "kept": kept["id"], "kept_name": kept["name"], "joined": joined["id"],
                    "joined_name": joined["name"], "tournament": both["name"]})
            moved = [r[0] for r in self.conn.execute(
                "SELECT id FROM players WHERE person_id = ? ORDER BY id", (joined["id"],))]
            self.conn.execute("UPDATE players SET person_id = ? WHERE person_id = ?",
                              (kept["id"], joined["id"]))
            self.conn.execute("UPDATE people SET joined_into = ? WHERE id = ?",
                              (kept["id"], joined["id"]))
            for field in ("club", "licence"):  # what the kept one lacks, the joined one gave
                if not kept[field] and joined[field]:
                    self.conn.execute("UPDATE people SET %s = ? WHERE id = ?" % field,
                                      (joined[field], kept["id"]))
            self.conn.execute(
                "INSERT INTO people_joins (kept, joined, name, reason, at, players) VALUES "
                "(?, ?, ?, ?, ?, ?)", (kept["id"], joined["id"], joined["name"], reason, now(),
                                       json.dumps(moved)))
        return {"kept": kept["id"], "joined": joined["id"], "players": len(moved)}

    def split(self, joined_word: str, reason: str) -> dict:
        """A join taken back: the players it moved are the joined person's again (those the
        kept person played since stay his), the joined person is listed again, and the join
        is kept, marked undone with the reason."""
        reason = reason.strip()
        if not reason or len(reason) > REASON_MAX or not reason.isprintable():
            raise StoreError(_(TEXT["reason"]) % {"most": REASON_MAX})
        digits = joined_word.strip().lstrip("#")
        if not (digits.isascii() and digits.isdigit() and len(digits) < 10):
            raise StoreError(_(TEXT["split_by_number"]) % {"found": shown(joined_word)})
        with self.db.transaction():
            join = self.db.one("SELECT * FROM people_joins WHERE joined = ? AND undone IS NULL "
                               "ORDER BY id DESC LIMIT 1", int(digits))
            if join is None:
                raise StoreError(_(TEXT["no_join"]) % {"id": int(digits)})
            moved = json.loads(join["players"])
            holder = self.current(join["kept"])  # (the kept one may have been joined since)
            for player in moved:
                self.conn.execute("UPDATE players SET person_id = ? WHERE id = ? AND "
                                  "person_id = ?", (join["joined"], player, holder))
            self.conn.execute("UPDATE people SET joined_into = NULL WHERE id = ?",
                              (join["joined"],))
            self.conn.execute("UPDATE people_joins SET undone = ?, undo_reason = ? WHERE id = ?",
                              (now(), reason, join["id"]))
        return {"kept": join["kept"], "joined": join["joined"], "players": len(moved)}

    def joins(self) -> list[dict]:
        """Every join, oldest first: when, who was kept, who was joined, why, and when and
        why it was taken back (if it was)."""
        return self.db.rows(
            "SELECT j.at, j.kept, k.name AS kept_name, j.joined, j.name AS joined_name, "
            "j.reason, j.players, j.undone, j.undo_reason FROM people_joins j "
            "JOIN people k ON k.id = j.kept ORDER BY j.id")

    def set_details(self, word: str, club: str | None, licence: str | None) -> dict:
        """A person's club or licence number set (None: as it is)."""
        with self.db.transaction():
            person = self.find(word)
            for field, value in (("club", club), ("licence", licence)):
                if value is None:
                    continue
                value = value.strip()
                if len(value) > FIELD_MAX or not value.isprintable():
                    raise StoreError(_(TEXT[field]) % {"most": FIELD_MAX,
                                                       "found": shown(value)})
                self.conn.execute("UPDATE people SET %s = ? WHERE id = ?" % field,
                                  (value, person["id"]))
            return self.get(person["id"])
