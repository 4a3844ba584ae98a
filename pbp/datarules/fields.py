"""What an argument made of named fields (`type: fields`, French `champs`) means
in a rules file: its fields' types, the names its formulas may use
(`arg.<field>`, `arg.<field>.id` for a stat field) and how `pbp rules explain`
shows it. The engine's side (an order's fields bound for its formulas, the
core's argument types, the bots' values) is pbp/rulesets/data/fields.py;
docs/rules-format.md says what each key means to the MJ.
"""

from __future__ import annotations

from pbp.datarules.format import word

#: the kind of `arg.<field>` in formulas, by the field's type
FIELD_KIND = {"number": "number", "stat": "number", "choice": "text", "text": "text", "character": "text"}


def is_fields(arg) -> bool:
    return isinstance(arg, dict) and word(arg.get("type")) == "fields"


def field_type(field) -> str:
    return word(field if isinstance(field, str) else field.get("type", "text"))


def formula_names(arg: dict) -> dict[str, str]:
    """The names a formula of an action with this argument may use, with their kind."""
    names = {}
    for name, field in (arg.get("fields") or {}).items():
        kind = field_type(field)
        names[f"arg.{name}"] = FIELD_KIND.get(kind, "text")
        if kind == "stat":
            names[f"arg.{name}.id"] = "text"
    return names


def describe(arg: dict, kinds: dict) -> str:
    """The fields as `pbp rules explain` shows them: `{carac: physique | logique, modificateur: nombre, ...}`."""
    parts = []
    for name, field in (arg.get("fields") or {}).items():
        spec = {"type": field} if isinstance(field, str) else field
        kind = field_type(spec)
        values = spec.get("among") if kind == "stat" else spec.get("values") if kind == "choice" else None
        shown = " | ".join(str(v) for v in values) if values else kinds.get(kind, kind)
        if spec.get("default") is not None:
            shown += f" = {spec['default']}"
        parts.append(f"{name}{'?' if spec.get('optional') else ''}: {shown}")
    return "{" + ", ".join(parts) + "}"
