"""Names as the store takes them and text as messages echo it back."""

from __future__ import annotations

from host.i18n import _

NAME_MAX = 40  # the board's limit for a player's name (rules_core.match)


def name_problem(name: str) -> str | None:
    if not name:
        return _("a player needs a name")
    if len(name) > NAME_MAX:
        return _("the name '%(name)s' is longer than the board's %(max)d characters") % {
            "name": shown(name), "max": NAME_MAX}
    if not name.isprintable():
        # A control character (a tab, an escape, a line break) would garble the board, the
        # terminal and the pages: refuse it, naming where it is.
        where = next(i for i, c in enumerate(name) if not c.isprintable())
        return _("the name '%(name)s' has a control character (%(character)s) at place "
                 "%(place)d: type the name again") % {
            "name": shown(name), "character": "U+%04X" % ord(name[where]), "place": where + 1}
    return None


def shown(text: str, limit: int = 48) -> str:
    """Text as a message may echo it: unprintable characters written out (\\x07), and cut
    short (a 5000-character name is not printed back whole)."""
    text = text if len(text) <= limit else text[:limit] + "..."
    return "".join(c if c.isprintable() else ("\\x%02x" % ord(c) if ord(c) < 0x100 else
                                              "\\u%04x" % ord(c)) for c in text)
