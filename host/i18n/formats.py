"""Dates, times and numbers as the current language writes them, through Babel's CLDR data:
Finnish and Finland-Swedish 25.2.2024 and 14.03, decimals with a comma (1,25). English keeps
the ISO look pilkku always had (2024-02-25 14:03, 1.25): the US style CLDR gives plain 'en'
(2/25/24, 2:03 PM) is nobody's at a Finnish club."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from host.i18n import language

LOCALES = {"fi": "fi_FI", "sv": "sv_FI", "en": "en_GB"}
_ENGLISH = {"date": "yyyy-MM-dd", "time": "HH:mm", "datetime": "yyyy-MM-dd HH:mm"}


def _locale() -> str:
    return LOCALES.get(language(), "en_GB")


def date(when: datetime) -> str:
    from babel.dates import format_date

    return format_date(when, _ENGLISH["date"] if language() == "en" else "short",
                       locale=_locale())


def time(when: datetime) -> str:
    from babel.dates import format_time

    return format_time(when, _ENGLISH["time"] if language() == "en" else "short",
                       locale=_locale())


def date_time(when: datetime) -> str:
    """A day and a time to the minute ('25.2.2024 14.03')."""
    return "%s %s" % (date(when), time(when))


def stamp(text: str) -> str:
    """A UTC stamp the store keeps ('2026-12-05T06:03:00+00:00') as the laptop's local day
    and time in the current language; a stamp that does not read as one, as it is."""
    try:
        return date_time(datetime.fromisoformat(text).astimezone())
    except ValueError:
        return text


def decimal(value: Decimal | float | int, places: int = 2) -> str:
    """A number with `places` decimals ('1,25' in Finnish)."""
    from babel.numbers import format_decimal

    return format_decimal(value, "0." + "0" * places if places else "0", locale=_locale(),
                          decimal_quantization=True)
