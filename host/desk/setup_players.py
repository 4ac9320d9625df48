"""The players of a night set up at the desk: typed one by one (completed from the store's people
and the names of its earlier tournaments; the person picked is the player's), pasted as a list
(one a line; a tab before the club, as a spreadsheet's two columns paste), or a players file
uploaded (read as `pilkku players import` reads it: night/players_file.py); then the seeds,
best first. Each goes through the operation the CLI calls (night.import_players,
night.set_seeds): all or nothing, refused once the draw is made. Names with < or > are refused
here as in every desk form."""

from __future__ import annotations

import email
import re
import tempfile
from pathlib import Path

from host.desk.forms import BadForm, Fields
from host.i18n import N_, _
from host.tournament import night
from host.tournament.night.corrections import rename_player
from host.tournament.night.players_file import MAX_BYTES, read_players
from host.tournament.night.setup import remove_player, set_seeds
from host.tournament.store import ImportRefused, Store
from host.tournament.store.text import NAME_MAX

CLUB_MAX = 60
PASTE_MAX = 65536  # bytes of a pasted list: hundreds of names
UPLOAD_MAX = MAX_BYTES + 16384  # a players file (the reader's limit) and the form around it
KNOWN_MAX = 5000  # names offered for completion
_PICK = re.compile(r"(.*\S) #(\d{1,9})")  # a name two people share, as the picker offers it

WORDS = {
    "name": N_("the player's name"),
    "club": N_("the club"),
    "player": N_("the player"),
    "there": N_("there is a player named %(name)s already: nothing was added"),
    # (N_: the answers said in the page's language where used)
    "added_one": N_("%(player)s is in (%(total)d players in all)."),
    "added": N_("Players added: %(count)d (%(total)d in all)."),
    "read": N_("The file: %(how)s."),
    "paste_empty": N_("paste the players' names, one a line: nothing was added"),
    "paste_long": N_("the pasted list is longer than the desk takes (%(most)d KB): paste it "
                     "in parts"),
    "line": N_("line %(line)d: %(problem)s"),
    "angle": N_("a name may not hold < or >"),
    "club_angle": N_("a club may not hold < or >"),
    "club_long": N_("the club is longer than %(most)d characters"),
    "no_file": N_("choose the players file to upload: nothing was added"),
    "file_long": N_("the file is over %(most)d KB: is it the players list?"),
    "not_form": N_("the upload could not be read (not a form of the desk)"),
    "empty_file": N_("the file chosen is empty: nothing was added"),
    "new_name": N_("the new name"),
    "renamed": N_("%(player)s is %(name)s now."),
    "removed": N_("%(player)s is off the list (%(total)d players in all)."),
    "seeded": N_("Seeds: %(players)s."),
    "no_seeds": N_("No seeds: the draw takes the players in their order."),
}


def known_names(store: Store, tid: int, prefix: str = "") -> list[dict]:
    """The names the name picker offers (a <datalist>, and /desk/people/complete as typed):
    the store's people first, as store.people.complete(prefix) orders them (the most played
    first), those already in this tournament left out; a name two people share is offered
    once for each, as 'NAME #ID' with its club and licence number as the label, so the
    director picks which. Then the names of earlier tournaments' players who are nobody's
    yet. [{"value", "label"}] ("label": "" when the value says it all)."""
    here = {p for p in store.people.of_tournament(tid).values() if p is not None}
    names = {p["name"] for p in store.players.all(tid)}
    people = store.people.complete(prefix) if prefix else store.people.all()
    if not prefix:
        people.sort(key=lambda r: (-r["nights"], r["name"], r["id"]))
    shared = {r["name"] for r in store.people.all() if len(store.people.named(r["name"])) > 1}
    offered = []
    for person in people[:KNOWN_MAX]:
        if person["id"] in here or (person["name"] in names and person["name"] not in shared):
            continue
        extra = ", ".join(x for x in (person["club"], person["licence"]) if x)
        if person["name"] in shared:
            offered.append({"value": "%s #%d" % (person["name"], person["id"]),
                            "label": "%s (%s)" % (person["name"], extra) if extra
                            else person["name"]})
        else:
            offered.append({"value": person["name"], "label": ""})
    taken = {r["name"] for r in store.people.all()} | names
    typed = prefix.strip().casefold()
    for row in store.db.rows(
            "SELECT DISTINCT name FROM players WHERE tournament_id != ? ORDER BY name LIMIT ?",
            tid, KNOWN_MAX):
        if row["name"] not in taken and (not typed or any(
                word.startswith(typed) for word in [row["name"].casefold(),
                                                    *row["name"].casefold().split()])):
            offered.append({"value": row["name"], "label": ""})
    return offered


def _picked(store: Store, typed: str) -> tuple[str, dict | None]:
    """A name as typed, or as the picker offers a name two people share ('NAME #ID'): the
    player's name and the person picked (None: none picked)."""
    found = _PICK.fullmatch(typed)
    if found is None:
        return typed, None
    name, number = found[1], int(found[2])
    person = next((r for r in store.people.all() if r["id"] == number), None)
    if person is None:
        raise BadForm(_("there is no person #%(id)d: choose the name from the list")
                      % {"id": number})
    if person["name"] != name:
        raise BadForm(_("#%(id)d is %(person)s, not %(name)s: choose the name from the list")
                      % {"id": number, "person": person["name"], "name": name})
    return name, person


def _total(store: Store, tid: int) -> int:
    return len(store.players.all(tid))


def one(store: Store, tid: int, f: Fields) -> str:
    """One player typed in."""
    typed = " ".join(p for p in f.text("name", WORDS["name"], NAME_MAX + 12).split(" ") if p)
    name, person = _picked(store, typed)
    if len(name) > NAME_MAX:
        f.text("name", WORDS["name"], NAME_MAX)  # (says it is too long)
    club = f.text("club", WORDS["club"], CLUB_MAX) if f.has("club") else ""
    if any(p["name"] == name for p in store.players.all(tid)):
        raise BadForm(_(WORDS["there"]) % {"name": name})
    night.import_players(store, tid, [(1, name, club or (person or {}).get("club", ""))])
    said = _(WORDS["added_one"]) % {"player": name, "total": _total(store, tid)}
    player = next(p for p in store.players.all(tid) if p["name"] == name)
    if person is not None:
        store.people.link_player(player["id"], "#%d" % person["id"])
    elif len(store.people.named(name)) > 1:
        said += " " + _("%(count)d people are named %(name)s: who this is is asked when the "
                        "night is added to a series (or choose from the list next time).") % {
            "count": len(store.people.named(name)), "name": name}
    return said


def _checked(rows: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The desk's own check of every row: no < or > (the store checks the rest)."""
    problems = []
    for line, name, club in rows:
        if "<" in name or ">" in name:
            problems.append(_(WORDS["line"]) % {"line": line, "problem": _(WORDS["angle"])})
        elif "<" in club or ">" in club:
            problems.append(_(WORDS["line"]) % {"line": line, "problem": _(WORDS["club_angle"])})
        elif len(club) > CLUB_MAX:
            problems.append(_(WORDS["line"]) % {"line": line, "problem": _(WORDS["club_long"]) % {
                "most": CLUB_MAX}})
    if problems:
        raise ImportRefused(problems)
    return rows


def paste(store: Store, tid: int, text: str) -> str:
    """A pasted list: a name a line, a tab before its club."""
    rows = []
    for line, whole in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        name, _tab, club = whole.partition("\t")
        name = " ".join(p for p in name.split(" ") if p)
        if name or club.strip():
            rows.append((line, name, club.strip()))
    if not rows:
        raise BadForm(_(WORDS["paste_empty"]))
    count = night.import_players(store, tid, _checked(rows))
    return _(WORDS["added"]) % {"count": count, "total": _total(store, tid)}


def upload(store: Store, tid: int, data: bytes) -> str:
    """A players file as `pilkku players import FILE` reads it."""
    if not data:
        raise BadForm(_(WORDS["empty_file"]))
    with tempfile.TemporaryDirectory(prefix="pilkku-players-") as folder:
        path = Path(folder) / "players.csv"
        path.write_bytes(data)
        rows, how = read_players(str(path))
    count = night.import_players(store, tid, _checked(rows))
    return " ".join((_(WORDS["added"]) % {"count": count, "total": _total(store, tid)},
                     _(WORDS["read"]) % {"how": how}))


def multipart(body: bytes, content_type: str) -> tuple[dict[str, str], bytes | None]:
    """The text fields and the file ("file") of a multipart/form-data upload."""
    head = email.message_from_string("Content-Type: %s\n\n" % content_type)
    boundary = head.get_param("boundary")
    if head.get_content_type() != "multipart/form-data" or not isinstance(boundary, str) \
            or not boundary:
        raise BadForm(_(WORDS["not_form"]))
    fields: dict[str, str] = {}
    data = None
    for chunk in body.split(b"--" + boundary.encode("latin-1"))[1:]:
        if chunk.startswith(b"--"):
            break
        headers, sep, content = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not sep:
            raise BadForm(_(WORDS["not_form"]))
        content = content.removesuffix(b"\r\n")
        part = email.message_from_bytes(headers + b"\r\n\r\n")
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str) or name in fields:
            raise BadForm(_(WORDS["not_form"]))
        if name == "file":
            data = content
        else:
            try:
                fields[name] = content.decode("utf-8")
            except UnicodeDecodeError:
                raise BadForm(_(WORDS["not_form"])) from None
    return fields, data


def seeds(store: Store, tid: int) -> list[str]:
    """The seeded players, best first."""
    count = store.tournaments.plan(tid).get("seeds", 0) or 0
    return [p["name"] for p in store.players.all(tid)][:count]


def _player(store: Store, tid: int, f: Fields) -> str:
    name = f.text("player", WORDS["player"], NAME_MAX)
    store.players.get(tid, name)  # StoreError: no such player
    return name


def _seeded(store: Store, tid: int, names: list[str]) -> str:
    set_seeds(store, tid, names)
    chosen = seeds(store, tid)
    return (_(WORDS["seeded"]) % {"players": ", ".join(chosen)} if chosen
            else _(WORDS["no_seeds"]))


def seed(store: Store, tid: int, f: Fields) -> str:
    """The player becomes the next seed."""
    name = _player(store, tid, f)
    chosen = seeds(store, tid)
    return _seeded(store, tid, chosen + [name] if name not in chosen else chosen)


def unseed(store: Store, tid: int, f: Fields) -> str:
    name = _player(store, tid, f)
    return _seeded(store, tid, [n for n in seeds(store, tid) if n != name])


def clear_seeds(store: Store, tid: int, f: Fields) -> str:
    return _seeded(store, tid, [])


def rename(store: Store, tid: int, f: Fields) -> str:
    """A name corrected before the draw (as `pilkku players rename`)."""
    name = _player(store, tid, f)
    new = " ".join(p for p in f.text("new_name", WORDS["new_name"], NAME_MAX).split(" ") if p)
    rename_player(store, tid, name, new)
    return _(WORDS["renamed"]) % {"player": name, "name": new}


def remove(store: Store, tid: int, f: Fields) -> str:
    """A player taken off the list before the draw, the name typed to confirm."""
    name = _player(store, tid, f)
    f.typed("confirm", name)
    remove_player(store, tid, name)
    return _(WORDS["removed"]) % {"player": name, "total": _total(store, tid)}
