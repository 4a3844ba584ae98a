"""The core's record of a turn (turns/NNN/turn.yaml) and its events as archived.

turn.yaml holds the roster, the rules overrides and the rendering a turn was
played with, its dice version and the missed-orders counts: `pbp verify` replays
each turn as it was (`as_recorded`). events.yaml names each roll of the roll log
by its label (`stored_form`), read back whole (`stored_events`).
"""

from __future__ import annotations

from pbp.base import yamlio
from pbp.base.errors import PbpError
from pbp.engine import rules_record
from pbp.engine.campaign import FORMATS, Campaign, read_text
from pbp.engine.campaign_config import check_overrides
from pbp.model import events as ev


#: the core's record of a turn: the roster and the rendering it was played with
#: (so `pbp verify` replays it as it was), and the missed-orders counts
RECORD_FILE = "turn.yaml"


def record_of(campaign: Campaign, n: int, remember: bool = True) -> dict:
    """The record of turn n (turns/NNN/turn.yaml), {} when there is none (an
    archive from before records, or a turn not played). `remember`: as
    `Campaign.state`'s."""
    if n < 0:
        return {}
    path = campaign.turn_dir(n) / RECORD_FILE
    if not path.exists():
        return {}
    text = read_text(path, campaign.rel(path))
    data = yamlio.loads(text, campaign.rel(path), remember=remember)
    fmt = (data.get("render") or {}).get("format") if isinstance(data, dict) and isinstance(data.get("render"), dict) else None
    if fmt is not None and fmt not in FORMATS:  # a turn is replayed in a format pbp has, or refused
        raise PbpError("bad_choice", file=campaign.rel(path), line=yamlio.line_of(text, ("render", "format")),
                       value=fmt, valid=list(FORMATS))
    rules = data.get("rules") if isinstance(data, dict) else None
    if rules != (campaign.config.get("rules") or {}):  # the campaign's own were checked when it was opened
        check_overrides(campaign, rules, campaign.rel(path), text)
    if isinstance(data, dict):
        rules_record.check(data, n, campaign.rel(path), text)
    return data if isinstance(data, dict) else {}


def dice_version(campaign: Campaign, n: int, previous: dict) -> int:
    """The dice version turn n is played with: the one the campaign was set up
    with, for its whole life (docs/dice.md, "Which version a turn uses").
    Turn n > 0 takes turn n-1's (`previous`, its record); the set-up takes
    the newest version, or, replayed, the one its record says (absent: 0).
    No MJ chooses it once the secret is known: a turn whose record says
    another version than its previous turn's replays DIFFERENT."""
    from pbp.model import dice_versions

    if n > 0:
        return dice_versions.recorded(previous)
    if campaign.last_turn() is not None:  # turn 0 is archived: this is its replay
        return dice_versions.recorded(record_of(campaign, 0, remember=False))
    return dice_versions.VERSION


#: what campaign.yaml means when it does not say (Campaign.lang, .format, .dialect)
DEFAULT_RENDER = {"lang": "fr", "format": "bbcode", "dialect": "phpbb"}


def as_recorded(campaign: Campaign, record: dict, n: int | None = None, rendering: bool = True) -> Campaign:
    """The campaign as turn n was played: its recorded roster, rules overrides,
    rules files (pbp/engine/rules_record.py) and rendering (a player who joined
    later, a rules number or a format changed since, leave it as it was).
    `rendering=False`: rendered as the campaign says today (`pbp post` of a past
    turn in today's language or another format), with that turn's rules all the same."""
    if not record:
        return campaign
    same_files = rules_record.same_as_now(campaign, record)
    roster = record.get("roster")
    render = {k: v for k, v in (record.get("render") or {}).items() if v is not None} if rendering else {}
    same_roster = roster is None or roster == campaign.roster
    # a record without `rules` is from before pbp recorded them: the campaign's rules
    same_rules = "rules" not in record or (record["rules"] or {}) == (campaign.config.get("rules") or {})
    if same_roster and same_rules and same_files and \
            all(campaign.config.get(k, DEFAULT_RENDER.get(k)) == v for k, v in render.items()):
        return campaign  # as it is now: its world, sheets and rules already read and checked
    config = dict(campaign.config)
    if roster is not None:
        config["players"] = roster
    if not same_rules:
        config["rules"] = record["rules"]
    config.update(render)
    replayed = campaign.replace(config=config, recorded=None if same_files else rules_record.recorded(campaign, n,
                                                                                                        record))
    # the ruleset and the world's names are the campaign language's (Ruleset.world_in)
    _keep_read(campaign, replayed, same_rules and same_files and replayed.lang == campaign.lang, same_roster)
    return replayed


def _keep_read(campaign: Campaign, replayed: Campaign, same_rules: bool, same_roster: bool) -> None:
    """What does not depend on the roster, the rules or the language is not read
    again (the ruleset, when the rules and the language are the same; the
    scenario, when the roster is too)."""
    kept = ("ruleset",) if same_rules else ()
    kept += ("scenario",) if same_roster and same_rules else ()
    for name in kept:
        if name in campaign.__dict__:
            replayed.__dict__[name] = campaign.__dict__[name]


# -- events.yaml: rolls by label -----------------------------------------------------
#
# The roll log (rolls.yaml) holds every roll of a turn, whole. events.yaml names
# a roll of that log by its label, `{roll: <label>}`, where an event's data held
# it whole: the same record, once. Reading events.yaml back puts each roll in
# its place again (`resolve_rolls`), so a template gets the very data it got
# when the turn was run. A roll that is not the log's, as the log has it, stays
# whole. An archive written before (rolls whole in events.yaml) is read as it is,
# and `pbp verify` compares it with its own form (`pbp.engine.turn.as_archived`).

ROLL_REF = "roll"


def stored_form(events: list[ev.Event], log: list[dict]) -> list[dict]:
    """events.yaml's content: each event's readable form, the rolls of the log
    given by label."""
    by_label = {r["label"]: r for r in log}
    return [_refer(e.to_dict(), by_label) for e in events]


def _refer(value, by_label: dict):
    if isinstance(value, dict):
        label = value.get("label")
        if type(label) is str and "total" in value and by_label.get(label) == value:
            return {ROLL_REF: label}
        if len(value) == 1 and ROLL_REF in value:
            # it would read back as a reference: a ruleset's bug, said before anything is written
            raise ValueError(f"event data holds {value!r}: a mapping of the one key {ROLL_REF!r} is events.yaml's "
                             "reference to a roll of the log")
        return {k: _refer(v, by_label) for k, v in value.items()}
    if isinstance(value, list):
        return [_refer(v, by_label) for v in value]
    return value


def resolve_rolls(value, by_label: dict):
    """events.yaml's data with each `{roll: <label>}` of the log replaced by a
    copy of that roll's record."""
    if isinstance(value, dict):
        if len(value) == 1 and type(value.get(ROLL_REF)) is str and value[ROLL_REF] in by_label:
            # a copy of its own, faces included: nothing shared between two places of the data
            return {k: list(v) if isinstance(v, list) else v for k, v in by_label[value[ROLL_REF]].items()}
        return {k: resolve_rolls(v, by_label) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_rolls(v, by_label) for v in value]
    return value


def stored_events(campaign: Campaign, n: int) -> list[ev.Event]:
    """Turn n's events as events.yaml records them, each roll given by label
    put back from the roll log (rolls.yaml): the data the turn's templates got."""
    folder = campaign.turn_dir(n)
    path = folder / "events.yaml"
    if not (folder / "state.yaml").exists() or not path.exists():
        raise PbpError("turn_not_resolved", turn=n)
    raw = yamlio.load_file(path) or []
    rolls_path = folder / "rolls.yaml"
    log = yamlio.load_file(rolls_path) if rolls_path.exists() else None
    by_label = {r["label"]: r for r in log if isinstance(r, dict) and isinstance(r.get("label"), str)} \
        if isinstance(log, list) else {}
    try:
        return [ev.Event.from_dict(resolve_rolls(e, by_label) if by_label else e) for e in raw]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise PbpError("bad_events_file", file=campaign.rel(path), problem=str(exc)) from None
