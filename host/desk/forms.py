"""A posted form read and checked before anything is done: each field given once, as text of
the right kind (a line of text without < or >, a whole number in range, one of a few
choices). BadForm's text says which field and what is wrong, in the director's words."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from host.hall.whole_body import FORM_MAX

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
        raise BadForm("the form is longer than the desk takes (%d bytes): shorten the "
                      "reason" % FORM_MAX)
    try:
        text = body.decode("utf-8")
        fields = parse_qs(text, keep_blank_values=True, max_num_fields=40, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise BadForm("the form could not be read (not a form of the desk)") from None
    twice = sorted(name for name, values in fields.items() if len(values) > 1)
    if twice:
        raise BadForm("the form gives %s more than once" % twice[0][:40])
    return {name: values[0] for name, values in fields.items()}


class Fields:
    """Typed reads of a form's fields, each raising BadForm with the field's label."""

    def __init__(self, form: dict[str, str]) -> None:
        self.form = form

    def has(self, name: str) -> bool:
        return bool(self.form.get(name, "").strip())

    def text(self, name: str, label: str, longest: int = TEXT_MAX) -> str:
        value = self.form.get(name, "").strip()
        if not value:
            raise BadForm("give %s" % label)
        if len(value) > longest:
            raise BadForm("%s is longer than %d characters" % (label.capitalize(), longest))
        if not value.isprintable():
            raise BadForm("%s must be one line of text" % label.capitalize())
        if "<" in value or ">" in value:
            raise BadForm("%s may not hold < or >" % label.capitalize())
        return value

    def whole(self, name: str, label: str, low: int = 1, high: int = 9999) -> int:
        value = self.form.get(name, "").strip()
        if not value:
            raise BadForm("give %s" % label)
        if _DECIMAL.fullmatch(value):
            raise BadForm("%s must be a whole number from %d to %d, not %s"
                          % (label.capitalize(), low, high, value[:20]))
        if not _WHOLE.fullmatch(value) or not low <= int(value) <= high:
            raise BadForm("%s must be a whole number from %d to %d" % (
                label.capitalize(), low, high))
        return int(value)

    def choice(self, name: str, label: str, options: dict[str, str]) -> str:
        """One of `options` (the value sent -> what it means)."""
        value = self.form.get(name, "")
        if value not in options:
            raise BadForm("choose %s (%s)" % (label, " or ".join(options.values())))
        return value

    def typed(self, name: str, wanted: str) -> None:
        """The director typed `wanted` to confirm a dangerous action."""
        if self.form.get(name, "").strip() != wanted:
            raise BadForm("type %s to confirm: nothing was done" % wanted)

    def flag(self, name: str) -> bool:
        return self.form.get(name, "") == "1"
