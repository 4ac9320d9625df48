"""The draw at the desk, shown before it is confirmed: the preview draws it on a copy of the
store (the same operation the CLI's `pilkku matches generate` calls, with a random number
generator from a seed the preview chose), nothing written to the store; the confirmation
draws it on the store with the same seed, so it is the draw shown. A confirmation is refused
as stale when the setup (players, seeds, format, tables) changed since the preview, and its
seed is signed with the desk's form token (another seed would be another draw).

    state(store, tid) -> str             what a setup form saw (check_state compares it)
    preview(store, tid, key) -> dict     the draw as it would be, and the confirming fields
    confirm(store, tid, fields, key)     the draw written, as previewed
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import tempfile
from pathlib import Path

from host.desk.forms import BadForm
from host.desk.versions import Stale
from host.hall import words
from host.hall.data import FORMAT_NAMES
from host.i18n import N_, _
from host.tournament import formats, night
from host.tournament.store import Store, StoreError

# The parts of a setup's state, in the words a stale refusal uses.
# (N_: said in the page's language where used)
PARTS = {"i": N_("the tournament"), "f": N_("the format"), "p": N_("the players"),
         "s": N_("the seeds"), "t": N_("the tables"), "d": N_("the draw (it is made)")}
WORDS = {
    "stale": N_("%(changed)s changed since your page was loaded: nothing was done. Look at "
                "the setup again and decide."),
    "forged": N_("the draw's confirmation is not the one the desk's preview gave: show the "
                 "draw again"),
    "no_format": N_("the tournament has no format to draw: start it at the desk with one"),
    # (N_: said in the page's language where used)
    "drawn": N_("Drew the %(format)s: %(count)d matches."),
    "filled": N_("Started at the free tables: %(matches)s."),
    "at": N_("%(match)s at table %(table)s"),
}


def _short(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def state(store: Store, tid: int) -> str:
    """What a setup form acts on: the tournament, its format's options, its players (who, and
    in which seed order), its tables and whether it is drawn."""
    plan = {k: v for k, v in store.tournaments.plan(tid).items()
            if k not in ("numbers", "seeds")}  # (the seeds are the players' order: "s")
    players = store.players.all(tid)
    parts = {"i": str(tid), "f": _short(json.dumps(plan, sort_keys=True)),
             "p": _short(json.dumps(sorted([p["id"], p["name"], p["club"]] for p in players))),
             "s": _short(",".join(str(p["id"]) for p in players)),
             "t": ",".join(str(n) for n in store.tables.numbers(tid)),
             "d": "1" if store.matches.any(tid) else "0"}
    return ";".join("%s=%s" % item for item in parts.items())


def check_state(store: Store, tid: int, seen: str) -> None:
    """Stale naming what changed since the form's page showed `seen`."""
    now = state(store, tid)
    if seen == now:
        return
    old = dict(part.partition("=")[::2] for part in seen.split(";") if part)
    new = dict(part.partition("=")[::2] for part in now.split(";"))
    changed = [_(words) for key, words in PARTS.items() if old.get(key) != new.get(key)]
    raise Stale(_(WORDS["stale"]) % {"changed": ", ".join(changed).capitalize()})


def _draw(store: Store, tid: int, rng: random.Random) -> int:
    """The tournament's planned draw, as `pilkku matches generate` makes it."""
    plan = store.tournaments.plan(tid).get("format")
    if plan in formats.ENGINES:
        return night.draw_opening(store, tid, rng)
    if plan == "single":
        return night.draw_bracket(store, tid)
    if plan == "round_robin":
        return night.draw_round_robin(store, tid)
    raise StoreError(_(WORDS["no_format"]))


def _mac(key: str, tid: int, seed: str, seen: str) -> str:
    return hmac.new(key.encode(), ("draw %d %s %s" % (tid, seed, seen)).encode(),
                    hashlib.sha256).hexdigest()[:32]


def _drawn(store: Store, tid: int) -> dict:
    """The drawn matches and the players' numbers, as the preview shows them."""
    plan = store.tournaments.plan(tid)
    numbers = {int(k): v for k, v in plan.get("numbers", {}).items()}
    players = [dict(p, number=numbers.get(p["id"])) for p in store.players.all(tid)]
    return {"matches": store.matches.all(tid), "players": players,
            "numbered": bool(numbers), "format": plan.get("format", "")}


def preview(store: Store, tid: int, key: str) -> dict:
    """The draw made on a copy of the store (StoreError as the draw would refuse), and the
    fields that confirm it: {"matches", "players", "numbered", "format", "confirm"}."""
    seed = str(secrets.randbits(63))
    seen = state(store, tid)
    with tempfile.TemporaryDirectory(prefix="pilkku-draw-") as folder:
        copy = Path(folder) / "preview.db"
        store.db.copy_to(copy)
        with Store.open(copy) as shadow:
            _draw(shadow, tid, random.Random(int(seed)))
            shown = _drawn(shadow, tid)
    shown["confirm"] = {"seed": seed, "state": seen, "mac": _mac(key, tid, seed, seen)}
    return shown


def confirm(store: Store, tid: int, form: dict[str, str], key: str, fill: bool) -> str:
    """The draw the preview showed, written; with `fill`, the free tables given their first
    matches (as `pilkku assign --auto`). What was done, in the director's words."""
    seed, seen = form.get("seed", ""), form.get("state", "")
    if not seed.isascii() or not seed.isdigit() or len(seed) > 19 or not hmac.compare_digest(
            form.get("mac", "").encode(), _mac(key, tid, seed, seen).encode()):
        raise BadForm(_(WORDS["forged"]))
    check_state(store, tid, seen)
    count = _draw(store, tid, random.Random(int(seed)))
    said = _(WORDS["drawn"]) % {"format": str(words.shown(format_name(store, tid))).lower(),
                                "count": count}
    if fill and store.tables.numbers(tid):
        started = night.assign_free_tables(store, tid)
        if started:
            said += " " + _(WORDS["filled"]) % {"matches": ", ".join(
                _(WORDS["at"]) % {"match": code, "table": table} for code, table in started)}
    return said


def format_name(store: Store, tid: int) -> str:
    name = store.tournaments.format(tid)
    return FORMAT_NAMES.get(name, str(name).replace("_", " "))
