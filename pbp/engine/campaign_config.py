"""campaign.yaml's checks (pbp/engine/campaign.py reads the file and runs them):
its keys, the language, format and dialect among the valid ones, the roster's
handles, `limits:`, the shapes of pbp/engine/campaign_schema.yaml, and a
`rules:` override held to the ruleset's rules.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base import i18n, yamlio
from pbp.base.errors import ErrorList, PbpError, UnknownRuleError
from pbp.base.files import handle_file
from pbp.model import ruleset as rulesets, schema
from pbp.model.defaults import defaults
from pbp.render import formats

FORMATS = formats.EXTENSIONS  # format name -> post file extension; the formats are in pbp/render/formats.py
DIALECTS = ("phpbb", "forumactif", "xenforo")
CONFIG_KEYS = ("ruleset", "title", "lang", "format", "dialect", "secret", "players",
               "rules", "default_orders", "limits", "deadline", "nmr")
#: a forum handle: letters, digits, `_ - .` and single spaces inside ("Vieux Loup": phpBB
#: and Forumactif allow them); its files are named by `handle_file`
HANDLE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_.-]| (?! ))*(?<! )$")
#: what a turn folder (turns/NNN/) holds besides a player's report
TURN_FOLDER = ("state.yaml", "rolls.yaml", "events.yaml", "turn.yaml", "gm.yaml", "orders", "private",
               *(f"{post}.{ext}" for post in ("public", "gm") for ext in FORMATS.values()),
               "rules")  # the copy of the rules files a turn kept (pbp/engine/rules_record.py: COPY_FOLDER)
#: handles a roster may not use (compared case-insensitively): the names of the public
#: thread and the MJ in any language a forum may use, and the names a turn folder holds,
#: so that no handle can be taken for an audience or a file
RESERVED_HANDLES = frozenset({"gm", "public", "mj", "all", "tous"}
                             | {n for name in TURN_FOLDER for n in (name, name.split(".")[0])})


def check_limits(raw, bad) -> None:
    """campaign.yaml `limits:`: known names, whole numbers of at least 1."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        raise bad("limits_not_mapping", ("limits",))
    known = defaults()["limits"]
    for key, value in raw.items():
        if key not in known:
            raise bad("unknown_limit", ("limits", key), key=key, valid=list(known),
                      suggestion=i18n.closest(str(key), known))
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad("bad_limit", ("limits", key), key=key, value=value)



def check_keys(config: dict, bad) -> None:
    """campaign.yaml's keys: each one pbp knows, the required ones there, the
    language, format and dialect among the valid ones; `players` a mapping."""
    for key in config:
        if key not in CONFIG_KEYS:
            raise bad("unknown_key", (key,), key=key, valid=list(CONFIG_KEYS),
                      suggestion=i18n.closest(str(key), CONFIG_KEYS))
    for key in ("ruleset", "players"):  # the secret: secret.yaml, or here (pbp/engine/secret.py)
        if not config.get(key):
            raise bad("config_missing", (), key=key)
    for key, default, valid in (("lang", "fr", i18n.LANGS), ("format", formats.DEFAULT, FORMATS),
                                ("dialect", "phpbb", DIALECTS)):
        value = config.get(key, default)
        if isinstance(value, str) and value not in valid:  # not text at all: the schema below says so
            raise bad("bad_choice", (key,), value=value, valid=list(valid))
    if not isinstance(config["players"], dict):
        raise bad("players_not_mapping", ("players",))


def check_players(players: dict, bad) -> None:
    """The roster's handles: well formed, each with an order file of its own, none reserved."""
    files: dict[str, str] = {}
    for handle in players:
        if not HANDLE.match(str(handle)):
            raise bad("bad_handle", ("players", handle), handle=handle)
        name = handle_file(handle).casefold()
        if name in files:  # "Vieux Loup" and vieux_loup: one order file for two players
            raise bad("handle_same_file", ("players", handle), handle=handle, other=files[name],
                      name=f"{handle_file(handle)}.yaml")
        files[name] = str(handle)
        if name in RESERVED_HANDLES or str(handle).casefold() in RESERVED_HANDLES:
            raise bad("reserved_handle", ("players", handle), handle=handle,
                      reserved=sorted({n.split(".")[0] for n in RESERVED_HANDLES}))


def check_overrides(campaign, rules, file, text: str) -> None:
    """A `rules:` override (campaign.yaml's, or the one a turn's record says it was
    played with) names rules the ruleset has, each with the shape of the value it
    replaces (a number stays a number...): refused on its line of `file` otherwise."""
    if not rules:
        return
    if not isinstance(rules, dict):
        raise PbpError("file_not_mapping", file=file, line=yamlio.line_of(text, ("rules",)))
    try:
        rulesets.get(campaign.config["ruleset"], rules)
    except UnknownRuleError as exc:
        exc.file = file
        exc.line = yamlio.line_of(text, ("rules", *exc.params["rule"].split(".")))
        raise
    rules_data = type(campaign.ruleset).shared_data()
    errors = schema.check(schema.from_example(_overridden(rules_data, rules)), rules,
                          file=file, text=text, path=("rules",))
    if errors:
        raise ErrorList(errors)


def _overridden(data, overrides):
    """The part of a ruleset's data a campaign's `rules:` override touches: what
    their shapes are checked against (a schema of the whole data, hundreds of
    numbers, for the few an MJ changes, would be built for nothing). A key the
    data does not have was refused before (pbp.model.ruleset.merge_overrides)."""
    if not isinstance(data, dict) or not isinstance(overrides, dict):
        return data
    return {str(k): _overridden(data[str(k)], v) for k, v in overrides.items() if str(k) in data}


_CAMPAIGN_SCHEMA: list = []


def campaign_schema() -> schema.Node:
    """The shapes of campaign.yaml (pbp/engine/campaign_schema.yaml), compiled once."""
    if not _CAMPAIGN_SCHEMA:
        _CAMPAIGN_SCHEMA.append(schema.load(Path(__file__).with_name("campaign_schema.yaml"))["campaign"])
    return _CAMPAIGN_SCHEMA[0]
