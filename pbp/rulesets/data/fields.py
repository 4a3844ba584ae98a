"""An action's argument made of named fields (`type: fields`, French `champs`):
the d100's `jet: {carac: mental, competence: persuasion, modificateur: -10}`.

    arg:
      type: champs
      court: carac                    # a bare value fills this field (`- jet: physique`)
      champs:
        carac: {type: carac, parmi: [physique, logique, mental]}
        competence: {type: carac, parmi: [persuasion, piratage], optionnel: true}
        modificateur: {type: nombre, min: -50, max: 50, défaut: 0}
        intention: {type: choix, valeurs: [clair, obscur], optionnel: true}
        but: {type: texte, optionnel: true}

Each field is a number, a choice, a text, a character, or a `stat` (`carac`): the
id of one of the actor's stats or gauges among `among` (`parmi`). In formulas,
`arg.<field>` is the field's value; for a stat field it is the actor's VALUE of
the stat named (0 when the field is left out) and `arg.<field>.id` the id named
("" when left out). A field left out takes its `default` (a number 0, a text "").
The core checks the order's fields (pbp.model.argtypes, `map`); what
the rules file means by them is pbp/datarules/fields.py; this module plays them.
"""

from __future__ import annotations

from pbp.datarules.fields import field_type, is_fields

from . import rules as R

def core_arg(arg: dict, one) -> dict:
    """The argument in the core's types: a `map` of the fields (`one`: the data
    ruleset's own converter of a single argument), a stat field a choice of its ids."""
    fields = {}
    for name, field in (arg.get("fields") or {}).items():
        spec = {"type": field} if isinstance(field, str) else dict(field)
        if field_type(spec) == "stat":
            out = {"type": "choice", "values": [str(v) for v in spec.get("among") or []],
                   "optional": bool(spec.get("optional"))}
        else:
            out = one(spec)
        if spec.get("default") is not None:
            out["default"] = spec["default"]
            out["optional"] = True
        if spec.get("en"):
            out["en"] = spec["en"]
        fields[name] = out
    core = {"type": "map", "fields": fields, "optional": bool(arg.get("optional"))}
    if arg.get("short"):
        core["short"] = arg["short"]
    return core


def bound(arg: dict, given, state: dict, actor: str | None) -> dict:
    """`arg.<field>` (and `arg.<field>.id`) -> value, for an order's fields as the
    core normalised them: what a formula of the action reads."""
    given = given if isinstance(given, dict) else {}
    out = {}
    for name, key, kind in _plan(arg):
        value = given.get(name)
        if kind == "stat":
            out[key + ".id"] = value or ""
            found = R.value_of(state, actor, value) if value and actor else None
            out[key] = found if isinstance(found, int) and not isinstance(found, bool) else 0
        elif value is None:
            out[key] = 0 if kind == "number" else ""
        else:
            out[key] = value
    return out


#: id(argument spec) -> (the spec, [(field, `arg.<field>`, type)]): read once per rules file, not per order
_PLANS: dict[int, tuple] = {}


def _plan(arg: dict) -> list[tuple[str, str, str]]:
    kept = _PLANS.get(id(arg))
    if kept is None or kept[0] is not arg:  # the spec itself is kept: its id cannot be another's
        if len(_PLANS) > 256:  # rules files read one after another (tests, a long process): the newest kept
            _PLANS.clear()
        kept = (arg, [(name, f"arg.{name}", field_type(field)) for name, field in (arg.get("fields") or {}).items()])
        _PLANS[id(arg)] = kept
    return kept[1]


def sample_values(arg: dict, state: dict, handle: str, one) -> list[dict]:
    """The field values a bot tries: the short field's every value, each other
    field at its default (a required one without a default: its first value); `one(spec)`: the
    values the data ruleset tries for a single argument. A free text is left out."""
    fields = arg.get("fields") or {}
    base = {}  # every field, as the core normalises an order (a field left out: its default, or None)
    for name, field in fields.items():
        spec = {"type": field} if isinstance(field, str) else field
        base[name] = spec.get("default")
        if base[name] is None and not spec.get("optional"):
            tried = _values(spec, one)
            base[name] = tried[0] if tried else None
    short = arg.get("short")
    if short not in fields:
        return [base]
    spec = fields[short] if isinstance(fields[short], dict) else {"type": fields[short]}
    return [{**base, short: value} for value in _values(spec, one)] or [base]


def state_free(arg: dict) -> bool:
    """Whether sample_values gives the same values whatever the state (no field names a
    character), needing no `one`: once per argument spec."""
    return R.derived(arg, "state free", lambda a: all(field_type(f) in STATE_FREE for f in (a.get("fields") or {}).values()))


#: the field types whose values a bot tries are the rules' own (a character's depend on who is in play)
STATE_FREE = frozenset({"stat", "choice", "number", "text"})


def _values(spec: dict, one) -> list:
    if field_type(spec) == "stat":
        return [str(v) for v in spec.get("among") or []]
    return [v for v in one({"arg": spec}) if v is not None]


def shown(arg: dict, given) -> str | None:
    """The fields an order gave, as the post shows them (`physique, persuasion, -10`),
    the free texts left out (a purpose is the player's roleplay, told by the rules' messages)."""
    if not isinstance(given, dict):
        return given
    parts = []
    for name, _, kind in _plan(arg):
        value = given.get(name)
        if value in (None, "", 0) or kind == "text":
            continue
        parts.append(f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value))
    return ", ".join(parts) or None
