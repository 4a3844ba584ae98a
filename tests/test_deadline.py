"""Deadlines from the campaign's data: fixed, periodic, weekly, per turn."""

import datetime as dt

import pytest

from pbp.base.errors import PbpError
from pbp.engine.deadline import deadline_of, describe


def test_every_n_days_from_the_first_deadline():
    config = {"first": dt.datetime(2026, 12, 6, 20, 0), "every": "7 jours"}
    assert [deadline_of(config, n) for n in (1, 2, 3)] == [dt.datetime(2026, 12, 6, 20), dt.datetime(2026, 12, 13, 20),
                                                          dt.datetime(2026, 12, 20, 20)]
    assert deadline_of({"first": "2026-12-06 20:00", "every": "48 hours"}, 3) == dt.datetime(2026, 12, 10, 20)


def test_a_weekly_rule_takes_the_next_such_day_after_the_first():
    # 2026-12-02 is a Wednesday: turn 1 on that date, then every Sunday 20:00
    config = {"first": "2026-12-02 18:00", "every": "dimanche 20:00"}
    assert [deadline_of(config, n) for n in (1, 2, 3)] == [dt.datetime(2026, 12, 2, 18), dt.datetime(2026, 12, 13, 20),
                                                          dt.datetime(2026, 12, 20, 20)]
    assert deadline_of({"first": "2026-12-06 20:00", "every": "Sunday 20:00"}, 2) == dt.datetime(2026, 12, 13, 20)


def test_a_turn_may_have_its_own_deadline():
    config = {"first": "2026-12-06 20:00", "every": "7 days", "turns": {2: "2026-12-31"}}
    assert deadline_of(config, 2) == dt.datetime(2026, 12, 31, 23, 59)
    assert deadline_of(config, 3) == dt.datetime(2026, 12, 20, 20)
    assert deadline_of(None, 3) is None and deadline_of({"first": "2026-12-06 20:00"}, 2) is None


def test_descriptions_in_both_languages():
    when = dt.datetime(2026, 12, 6, 20, 5)
    assert describe(when, "fr") == "dimanche 6 décembre 2026 à 20 h 05"
    assert describe(when, "en", "Paris time") == "Sunday 6 December 2026 at 20:05 (Paris time)"
    assert describe(dt.datetime(2027, 1, 1, 9, 0), "fr") == "vendredi 1er janvier 2027 à 9 h 00"


@pytest.mark.parametrize("config, message", [
    ({"first": "6 décembre"}, "deadline.first : « 6 décembre » n'est pas une date et heure (écrivez 2026-12-06 20:00)."),
    ({"first": "2026-12-06 20:00", "every": "souvent"}, "deadline.every : « souvent » ; écrivez « 7 jours »"),
    ({"first": "2026-12-06 20:00", "every": "dimanche 25:00"}, "deadline.every : « dimanche 25:00 »"),
    ("dimanche", "« deadline » est un dictionnaire"),
])
def test_bad_deadlines_are_explained(config, message):
    with pytest.raises(PbpError) as info:
        deadline_of(config, 2)
    assert message in info.value.text("fr") and info.value.file == "campaign.yaml"
