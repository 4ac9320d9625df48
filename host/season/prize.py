"""A tournament's prize money (docs/season.md): the pot from the entries, the federation's and
the organiser's shares, the places paid and their percentages, amounts rounded to cash, ties
sharing their places' sums. Money is counted in cents (whole numbers), never floats.

The rule, as a club treasurer counts it:
1. pot = entry fee x players (every player entered paid, a withdrawn one too);
2. the federation's share = its percentage of the pot, rounded down to the cash unit;
3. the organiser's share = its percentage of the pot, rounded down to the cash unit;
4. the prize money = the pot less both shares; place k gets its percentage of it, rounded
   down to the cash unit;
5. players sharing places (the night's final ranking: night/ranking.py) share the sum of the
   places they cover, each the same, rounded down to the cash unit;
6. whatever the rounding left over goes to the organiser (said as such).

    split(settings, ranking) -> {"pot", "federation", "organiser", "remainder", "prizes":
                                 [{place, player, amount}], ...}   amounts in cents
    settings: {"fee", "players", "federation", "organiser", "paid": [percent, ...], "unit"}
"""

from __future__ import annotations

import re

from host.i18n import N_, _
from host.tournament.store import StoreError

PAID_MAX = 16
FEE_MAX = 100_000_00  # cents
DEFAULT_UNIT = 100  # whole euros

TEXT = {  # (N_: said in the language spoken where raised)
    "money": N_("%(what)s: '%(found)s' is not an amount of money (e.g. 10, 12.50 or 12,50)"),
    "percent": N_("%(what)s: '%(found)s' is not a percentage from 0 to 100"),
    "paid": N_("%(what)s: 1 to %(most)d percentages separated by commas, adding up to 100, "
               "e.g. 50,30,20 (found '%(found)s')"),
    "shares": N_("the federation's and the organiser's shares together are %(sum)d %%: at "
                 "most 100"),
    "players": N_("a pot needs players: this tournament has none (give %(what)s)"),
    "unit": N_("%(what)s: the cash unit is 0.01 to 100 (e.g. 1 for whole euros, 0.5), not "
               "'%(found)s'"),
}
_MONEY = re.compile(r"(\d{1,7})(?:[.,](\d{1,2}))?", re.ASCII)


def cents(what: str, text: str) -> int:
    """'12', '12.5', '12,50' as cents."""
    found = _MONEY.fullmatch(str(text).strip())
    if not found:
        raise StoreError(_(TEXT["money"]) % {"what": what, "found": str(text)[:20]})
    amount = int(found[1]) * 100 + int((found[2] or "0").ljust(2, "0"))
    if amount > FEE_MAX:
        raise StoreError(_(TEXT["money"]) % {"what": what, "found": str(text)[:20]})
    return amount


def percent(what: str, text: str) -> int:
    word = str(text).strip().rstrip("%").strip()
    if not (word.isascii() and word.isdigit() and len(word) <= 3 and int(word) <= 100):
        raise StoreError(_(TEXT["percent"]) % {"what": what, "found": str(text)[:20]})
    return int(word)


# What a refusal calls each setting: the CLI's options (the desk gives its fields' labels).
OPTIONS = {"fee": "--fee", "players": "--players N", "federation": "--federation",
           "organiser": "--organiser", "paid": "--paid", "unit": "--round"}


def settings_from(fee: str, players: int, federation: str = "0", organiser: str = "0",
                  paid: str = "50,30,20", unit: str = "1",
                  names: dict[str, str] | None = None) -> dict:
    """Typed settings checked (StoreError naming what is wrong, each setting called by
    `names` (OPTIONS by default)."""
    called = dict(OPTIONS, **(names or {}))
    words = [w for w in str(paid).split(",")]
    if not 1 <= len(words) <= PAID_MAX or not all(w.strip() for w in words):
        raise StoreError(_(TEXT["paid"]) % {"what": called["paid"], "most": PAID_MAX,
                                            "found": str(paid)[:40]})
    shares = [percent(called["paid"], w) for w in words]
    if sum(shares) != 100:
        raise StoreError(_(TEXT["paid"]) % {"what": called["paid"], "most": PAID_MAX,
                                            "found": str(paid)[:40]})
    cash = cents(called["unit"], unit)
    if not 1 <= cash <= 10000:
        raise StoreError(_(TEXT["unit"]) % {"what": called["unit"], "found": str(unit)[:20]})
    settings: dict = {"fee": cents(called["fee"], fee), "players": players,
                "federation": percent(called["federation"], federation),
                "organiser": percent(called["organiser"], organiser), "paid": shares,
                "unit": cash}
    if settings["federation"] + settings["organiser"] > 100:
        raise StoreError(_(TEXT["shares"]) % {
            "sum": settings["federation"] + settings["organiser"]})
    if players < 1:
        raise StoreError(_(TEXT["players"]) % {"what": called["players"]})
    return settings


def _down(amount: int, unit: int) -> int:
    return amount // unit * unit


def split(settings: dict, ranking: list[dict]) -> dict:
    """The money shared out by the settings over the ranking ([{place, player}], best first:
    players sharing a place have the same place)."""
    unit = settings["unit"]
    pot = settings["fee"] * settings["players"]
    federation = _down(pot * settings["federation"] // 100, unit)
    organiser = _down(pot * settings["organiser"] // 100, unit)
    money = pot - federation - organiser
    place_sums = [_down(money * share // 100, unit) for share in settings["paid"]]
    prizes: list[dict] = []
    by_place: dict[int, list[str]] = {}
    for row in ranking:
        by_place.setdefault(row["place"], []).append(row["player"])
    for place, players in sorted(by_place.items()):
        covered = place_sums[place - 1: place - 1 + len(players)]
        if not covered:
            continue
        each = _down(sum(covered) // len(players), unit)
        for player in players:
            prizes.append({"place": place, "player": player, "amount": each,
                           "shared": len(players) > 1})
    paid_out = sum(p["amount"] for p in prizes)
    remainder = money - paid_out
    return {"pot": pot, "fee": settings["fee"], "players": settings["players"],
            "federation": federation, "federation_percent": settings["federation"],
            "organiser": organiser, "organiser_percent": settings["organiser"],
            "remainder": remainder, "organiser_total": organiser + remainder,
            "unit": unit, "paid": settings["paid"], "prizes": prizes}


def money(amount: int) -> str:
    """Cents as a Finnish club writes euros: 45 €, 12,50 €."""
    if amount % 100 == 0:
        return "%d €" % (amount // 100)
    return "%d,%02d €" % (amount // 100, amount % 100)


def for_printout(saved: dict | None, ranking: list[dict]) -> dict | None:
    """The prize money the final ranking's printout shows (host/desk/print_data.py): the
    saved settings shared out over the ranking, when the director asked for it (--print);
    amounts as money."""
    if saved is None or not saved["printed"]:
        return None
    shared = split(saved["settings"], ranking)
    shared["shown"] = [dict(p, money=money(p["amount"])) for p in shared["prizes"]]
    shared["pot_money"] = money(shared["pot"])
    return shared
