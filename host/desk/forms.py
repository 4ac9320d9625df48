"""A posted form read and checked before anything is done: each field given once, as text of
the right kind (a line of text without < or >, a whole number in range, one of a few
choices). BadForm's text says which field and what is wrong, in the director's words and the
page's language: a field's label is marked N_() where it is written (or _() where the form is
read) and translated here, at the moment the refusal is said (inside the page's i18n.use)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from host.hall.whole_body import FORM_MAX
from host.i18n import _, gettext

_WHOLE = re.compile(r"[0-9]{1,6}", re.ASCII)  # int() would take '٣', '３' and ' 3'
_DECIMAL = re.compile(r"-?[0-9]*[.,][0-9]+|-[0-9]+", re.ASCII)
TEXT_MAX = 200


class BadForm(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def read(body: bytes) -> dict[str, str]:
    """The fields of a form posted as application/x-www-form-urlencoded."""
    if len(body) >= FORM_MAX:
        raise BadForm(_("the form is longer than the desk takes (%(most)d bytes): shorten "
                        "the reason") % {"most": FORM_MAX})
    try:
        text = body.decode("utf-8")
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=40, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise BadForm(_("the form could not be read (not a form of the desk)")) from None
    twice = sorted(name for name, values in fields.items() if len(values) > 1)
    if twice:
        raise BadForm(_("the form gives %(field)s more than once") % {"field": twice[0][:40]})
    return {name: values[0] for name, values in fields.items()}


def _label(label: str) -> str:
    """A field's label in the page's language (marked N_() where written)."""
    return gettext(label) if label else label


def _first(label: str) -> str:
    return _label(label).capitalize()


class Fields:
    """Typed reads of a form's fields, each raising BadForm with the field's label."""

    def __init__(self, form: dict[str, str]) -> None:
        self.form = form

    def has(self, name: str) -> bool:
        return bool(self.form.get(name, "").strip())

    def text(self, name: str, label: str, longest: int = TEXT_MAX) -> str:
        value = self.form.get(name, "").strip()
        if not value:
            raise BadForm(_("give %(what)s") % {"what": _label(label)})
        if len(value) > longest:
            raise BadForm(_("%(what)s is longer than %(most)d characters")
                          % {"what": _first(label), "most": longest})
        if not value.isprintable():
            raise BadForm(_("%(what)s must be one line of text") % {"what": _first(label)})
        if "<" in value or ">" in value:
            raise BadForm(_("%(what)s may not hold < or >") % {"what": _first(label)})
        return value

    def whole(self, name: str, label: str, low: int = 1, high: int = 9999) -> int:
        value = self.form.get(name, "").strip()
        if not value:
            raise BadForm(_("give %(what)s") % {"what": _label(label)})
        if _DECIMAL.fullmatch(value):
            raise BadForm(_("%(what)s must be a whole number from %(low)d to %(high)d, not "
                            "%(value)s") % {"what": _first(label), "low": low, "high": high,
                                            "value": value[:20]})
        if not _WHOLE.fullmatch(value) or not low <= int(value) <= high:
            raise BadForm(_("%(what)s must be a whole number from %(low)d to %(high)d")
                          % {"what": _first(label), "low": low, "high": high})
        return int(value)

    def choice(self, name: str, label: str, options: dict[str, str]) -> str:
        """One of `options` (the value sent -> what it means)."""
        value = self.form.get(name, "")
        if value not in options:
            raise BadForm(_("choose %(what)s (%(options)s)") % {
                "what": _label(label),
                "options": _(" or ").join(_label(v) for v in options.values())})
        return value

    def typed(self, name: str, wanted: str) -> None:
        """The director typed `wanted` to confirm a dangerous action."""
        if self.form.get(name, "").strip() != wanted:
            raise BadForm(_("type %(word)s to confirm: nothing was done") % {"word": wanted})

    def flag(self, name: str) -> bool:
        return self.form.get(name, "") == "1"
