"""Turn deadlines, from the campaign's data only (never the wall clock, so that
posts replay byte for byte):

    deadline:
      first: 2026-12-06 20:00   # turn 1's deadline, in the forum's time
      every: 7 days             # then: "N days", "N hours", or a weekday and a time
                                #   ("dimanche 20:00", "sunday 20:00")
      turns:                    # a turn's own deadline, when the MJ moves one
        4: 2026-12-31 12:00
      zone: heure de Paris      # optional, printed after the time

`deadline_of(config, n)` gives turn n's datetime (or None: no deadline) and
`describe(when, lang)` the words a post shows.
"""

from __future__ import annotations

import datetime as dt
import re

from pbp.base.errors import InputError
from pbp.base.patterns import Lazy

WEEKDAYS = {
    "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
}
DAY_NAMES = {"fr": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
             "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]}
MONTHS = {"fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                 "novembre", "décembre"],
          "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                 "November", "December"]}
_PERIOD = Lazy(r"^\s*(\d+)\s*(jours?|days?|j|d|heures?|hours?|h)\s*$", re.I)
_WEEKLY = Lazy(r"^\s*([a-zéû]+)\s+(\d{1,2})[:h](\d{2})\s*$", re.I)


def parse_datetime(value, where: str) -> dt.datetime:
    """A date-time as the MJ writes it: `2026-12-06 20:00` (YAML may already have
    made it a datetime, or a date for a bare day: then 23:59)."""
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None, second=0, microsecond=0)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, 23, 59)
    text = str(value).strip().replace("T", " ").replace("h", ":")
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            parsed = dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
        return parsed if fmt != "%Y-%m-%d" else parsed.replace(hour=23, minute=59)
    raise InputError("deadline_bad_datetime", file="campaign.yaml", where=where, value=value)


def _step(every, first: dt.datetime):
    """A function turn_index -> datetime for the `every:` rule."""
    match = _PERIOD.match(str(every))
    if match:
        count, unit = int(match.group(1)), match.group(2).lower()
        delta = dt.timedelta(hours=count) if unit.startswith("h") else dt.timedelta(days=count)
        if count < 1:
            raise InputError("deadline_bad_every", file="campaign.yaml", value=every)
        return lambda k: first + k * delta
    match = _WEEKLY.match(str(every))
    if match and match.group(1).lower() in WEEKDAYS and int(match.group(2)) < 24 and int(match.group(3)) < 60:
        weekday = WEEKDAYS[match.group(1).lower()]
        hour, minute = int(match.group(2)), int(match.group(3))
        # the first such moment at or after turn 1's deadline, then weekly
        start = first.replace(hour=hour, minute=minute)
        start += dt.timedelta(days=(weekday - start.weekday()) % 7)
        if start < first:
            start += dt.timedelta(days=7)
        return lambda k: first if k == 0 else start + dt.timedelta(days=7 * k)
    raise InputError("deadline_bad_every", file="campaign.yaml", value=every)


def deadline_of(config: dict | None, n: int) -> dt.datetime | None:
    """Turn n's deadline, or None when the campaign sets none for it."""
    if not config:
        return None
    if not isinstance(config, dict):
        raise InputError("deadline_not_mapping", file="campaign.yaml")
    own = (config.get("turns") or {})
    if not isinstance(own, dict):
        raise InputError("deadline_not_mapping", file="campaign.yaml")
    if n in own:
        return parse_datetime(own[n], f"deadline.turns.{n}")
    if config.get("first") is None:
        return None
    first = parse_datetime(config["first"], "deadline.first")
    if n < 1:
        return None
    if config.get("every") is None:
        return first if n == 1 else None
    return _step(config["every"], first)(n - 1)


def describe(when: dt.datetime, lang: str, zone: str | None = None) -> str:
    """`dimanche 6 décembre 2026 à 20 h 00` / `Sunday 6 December 2026 at 20:00`."""
    day = DAY_NAMES[lang if lang in DAY_NAMES else "en"][when.weekday()]
    month = MONTHS[lang if lang in MONTHS else "en"][when.month - 1]
    if lang == "fr":
        number = "1er" if when.day == 1 else str(when.day)
        text = f"{day} {number} {month} {when.year} à {when.hour} h {when.minute:02d}"
    else:
        text = f"{day} {when.day} {month} {when.year} at {when.hour:02d}:{when.minute:02d}"
    return f"{text} ({zone})" if zone else text


def turn_deadline(config: dict | None, n: int, lang: str) -> str | None:
    """Turn n's deadline in the words a post shows (None: no deadline), from
    the campaign's `deadline:` section."""
    when = deadline_of(config, n)
    return describe(when, lang, (config or {}).get("zone")) if when else None
