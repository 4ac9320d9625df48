"""Groups into a knockout, free of storage: round-robin groups filled by snake seeding, then
the top K of each group in a seeded single-elimination knockout.

    draw = Groups(players=12, groups=4, advance=2)
    draw.groups        -> [[1, 8, 9], [2, 7, 10], ...]  (snake: 1-4, then 8-5, then 9-12)
    draw.pending()     -> [{"code": "A-1-01" | "K1-01", "stage", "round", "first", "second"}]
    draw.record(a, b, winner, score=(0, 0)) -> the games that became known
    draw.standings(g)  -> lists.league rows of group g (the store's tie-breaks)
    draw.finished(), draw.winner(), draw.placings(), draw.view()

Players are 1..N in seed order. The knockout seeds are the group winners in group order, then
the runners-up, and so on (lists.bracket: byes to the top seeds), so that 1 v 8 is A1 v D2.
"""

from __future__ import annotations

from host.i18n import _
from host.tournament.formats import lists

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Groups:
    def __init__(self, players: int, groups: int = 2, advance: int = 2):
        if groups < 1 or groups > len(LETTERS):
            raise ValueError(_("groups: 1 to %(max)d") % {"max": len(LETTERS)})
        if players < 2 * groups:
            raise ValueError(_("%(groups)d groups need at least %(players)d players") % {
                "groups": groups, "players": 2 * groups})
        smallest = players // groups
        if not 1 <= advance <= smallest or groups * advance < 2:
            raise ValueError(_("--advance takes 1 to %(max)d (the smallest group's size), and "
                               "the knockout needs two players") % {"max": smallest})
        self.count = players
        self.advance = advance
        self.groups: list[list[int]] = [[] for _ in range(groups)]
        for index in range(players):
            row, column = divmod(index, groups)
            self.groups[column if row % 2 == 0 else groups - 1 - column].append(index + 1)
        self.games: list[dict] = []
        for g, members in enumerate(self.groups):
            for number, pairs in enumerate(lists.round_robin(members), 1):
                for index, (a, b) in enumerate(pairs, 1):
                    self.games.append({"code": "%s-%d-%02d" % (LETTERS[g], number, index),
                                       "stage": "group %s" % LETTERS[g], "round": number,
                                       "first": a, "second": b, "winner": None,
                                       "score": (0, 0)})
        self.knockout: list[lists.BracketMatch] | None = None
        self.seeds: list[int] = []  # the knockout's seeds, once the groups are played

    def _group_done(self) -> bool:
        return all(g["winner"] is not None for g in self.games if g["stage"] != "knockout")

    def standings(self, group: int) -> list[lists.Row]:
        name = "group %s" % LETTERS[group]
        finished = [{"player1": g["first"], "player2": g["second"], "score1": g["score"][0],
                     "score2": g["score"][1], "winner": g["winner"]}
                    for g in self.games if g["stage"] == name and g["winner"] is not None]
        return lists.league(self.groups[group], finished)

    def _start_knockout(self) -> None:
        tables = [self.standings(g) for g in range(len(self.groups))]
        seeds = [table[place].player for place in range(self.advance) for table in tables]
        self.seeds = seeds
        self.knockout = lists.bracket(seeds)
        self._sync_knockout()

    def _sync_knockout(self) -> None:
        """Knockout matches with both players known become games."""
        assert self.knockout is not None
        known = {g["code"] for g in self.games}
        for m in self.knockout:
            if m.player1 is not None and m.player2 is not None and "K" + m.code[1:] not in known:
                self.games.append({"code": "K" + m.code[1:], "stage": "knockout",
                                   "round": m.round, "first": m.player1, "second": m.player2,
                                   "winner": None, "score": (0, 0)})

    def pending(self) -> list[dict]:
        return [dict(g) for g in self.games if g["winner"] is None]

    def record(self, a: int, b: int, winner: int, score: tuple[int, int] = (0, 0)) -> list[dict]:
        if winner not in (a, b):
            raise ValueError("the winner is %d or %d" % (a, b))
        game = next((g for g in self.games if g["winner"] is None
                     and {g["first"], g["second"]} == {a, b}), None)
        if game is None:
            raise ValueError("no game between %d and %d is waiting for a result" % (a, b))
        known = len(self.games)
        game["winner"] = winner
        game["score"] = score if game["first"] == a else (score[1], score[0])
        if game["stage"] == "knockout":
            assert self.knockout is not None
            match = next(m for m in self.knockout if "K" + m.code[1:] == game["code"])
            if match.next is not None and match.next_slot is not None:
                setattr(self.knockout[match.next], "player%d" % match.next_slot, winner)
            self._sync_knockout()
        elif self._group_done():
            self._start_knockout()
        return [dict(g) for g in self.games[known:]]

    def winner(self) -> int | None:
        if self.knockout is None:
            return None
        final = [g for g in self.games if g["code"] == "K" + self.knockout[-1].code[1:]]
        return final[0]["winner"] if final else None

    def finished(self) -> bool:
        return self.winner() is not None

    def placings(self) -> list[dict]:
        """The knockout by the round each player went out in (losers of a round share a
        place; while it runs, those still in come first and share one); then those who did
        not go through, by their group place (sharing it). Before the knockout: everyone by
        group place so far. Each row's `out`: "knockout round R" / "final", "group place P",
        or None (the champion, or still in)."""
        rows: list[dict] = []
        champion = self.winner()
        knocked = [g for g in self.games if g["stage"] == "knockout" and g["winner"]]
        out_round = {(g["second"] if g["winner"] == g["first"] else g["first"]): g["round"]
                     for g in knocked}
        last = max((m.round for m in self.knockout or []), default=0)
        through = self.seeds
        ranked = sorted(through, key=lambda p: (p != champion, -out_round.get(p, 99), p))
        for p in ranked:
            before = rows[-1] if rows else None
            shares = before is not None and p != champion and before["player"] != champion \
                and out_round.get(before["player"]) == out_round.get(p)
            out = None if p not in out_round else "final" if out_round[p] == last else \
                "knockout round %d" % out_round[p]
            rows.append({"place": before["place"] if before and shares else len(rows) + 1,
                         "player": p, "stage": "knockout", "out": out})
        tables = [self.standings(g) for g in range(len(self.groups))]
        for place in range(self.advance if through else 0, max(len(t) for t in tables)):
            first = len(rows) + 1
            for table in tables:
                if place < len(table) and table[place].player not in through:
                    rows.append({"place": first, "player": table[place].player,
                                 "stage": "group place %d" % (place + 1),
                                 "out": "group place %d" % (place + 1)})
        return rows

    def view(self) -> dict:
        return {"format": "groups", "players": self.count,
                "groups": [{"name": LETTERS[g], "players": members,
                            "standings": [{"player": r.player, "rank": r.rank, "won": r.won,
                                           "lost": r.lost, "difference": r.difference}
                                          for r in self.standings(g)]}
                           for g, members in enumerate(self.groups)],
                "games": [dict(g) for g in self.games], "finished": self.finished(),
                "winner": self.winner()}
