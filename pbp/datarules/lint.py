"""What a rules file says, checked beyond its shape: every problem at once, each
at its file:line.

- `problems` (when the file loads): names that refer to nothing or that are the
  language's own words (pbp.datarules.names), formulas that
  do not compile, tables that leave a face of their die without a row or give it
  two, sub-tables that do not exist, faces out of the die;
- `warnings` (`pbp rules check`): what runs but is most likely a mistake: a
  threshold no gauge can reach, a formula that can divide by zero; and (in
  pbp.datarules.lint_play, which `pbp rules check` runs after these) an action
  nobody can ever take, a secret a public message would show, a formula that
  goes out of bounds.
"""

from __future__ import annotations

import re

from pbp.base.errors import PbpError
from pbp.datarules.format import RulesFile

_RANGE = re.compile(r"^\s*(-?\d+)\s*(?:(?:-|–|\.\.|à|to)\s*(-?\d+)\s*)?$")
#: the most faces a table's die may have (a d1000 is the largest forum MJs use)
MAX_FACES = 10000


def problems(rules: RulesFile, lang: str = "fr") -> list[PbpError]:
    from pbp.datarules.program import compile_rules

    from pbp.datarules import names

    program, errors = compile_rules(rules, lang)
    rules.program = program
    errors += names.problems(rules)  # a stat called `min`, `name`, `__class__`...
    for table_id in (rules.data.get("tables") or {}):
        errors += table_problems(rules, table_id)
    return errors


def face_range(value) -> tuple[int, int] | None:
    """`3` -> (3, 3); `"3-4"`, `"3..4"`, `"3 à 4"` -> (3, 4); anything else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value, value
    found = _RANGE.match(str(value))
    if not found:
        return None
    low = int(found.group(1))
    high = int(found.group(2)) if found.group(2) is not None else low
    return (low, high) if low <= high else None


def table_dice(table: dict) -> str:
    """The die a table is rolled with: its `dice`, else 1d(sum of the rows' weights)."""
    if table.get("dice") is not None:
        return str(table["dice"])
    return f"1d{sum(row.get('weight', 1) for row in table['rows'])}"


def rows_by_face(table: dict) -> list[tuple[int, int, int]]:
    """(low, high, row index) of a table's rows, by face (weights laid end to end)."""
    if table.get("dice") is None:
        out, face = [], 1
        for i, row in enumerate(table["rows"]):
            weight = row.get("weight", 1)
            out.append((face, face + weight - 1, i))
            face += weight
        return out
    return [(*face_range(row.get("roll")), i) for i, row in enumerate(table["rows"])
            if face_range(row.get("roll")) is not None]


def table_problems(rules: RulesFile, table_id: str) -> list[PbpError]:
    from pbp.model.dice import parse

    table = rules.data["tables"][table_id]
    base = ("tables", table_id)
    errors = []
    for i, row in enumerate(table["rows"]):
        sub = row.get("table")
        if sub is not None and sub not in rules.data["tables"]:
            errors.append(rules.error("rules_unknown_ref", base + ("rows", i, "table"), value=sub, section="tables",
                                      valid=list(rules.data["tables"])))
        if table.get("dice") is not None and face_range(row.get("roll")) is None:
            errors.append(rules.error("rules_row_roll", base + ("rows", i), value=row.get("roll", "-")))
    if table.get("dice") is None:
        return errors
    try:
        expr = parse(table["dice"])
    except PbpError:
        return errors + [rules.error("rules_bad_dice", base + ("dice",), value=table["dice"])]
    low, high = expr.minimum, expr.maximum
    if high - low >= MAX_FACES:
        return errors + [rules.error("rules_table_too_wide", base + ("dice",), value=table["dice"], limit=MAX_FACES)]
    seen: dict[int, int] = {}
    for first, last, i in rows_by_face(table):
        if first < low or last > high:
            errors.append(rules.error("rules_row_outside", base + ("rows", i), first=first, last=last,
                                      dice=table["dice"], low=low, high=high))
        twice = []
        for face in range(max(first, low), min(last, high) + 1):
            if face in seen:
                twice.append(face)
            else:
                seen[face] = i
        if twice:
            errors.append(rules.error("rules_row_overlap", base + ("rows", i), face=_spans(twice),
                                      other=seen[twice[0]] + 1))
    holes = [face for face in range(low, high + 1) if face not in seen]
    if holes:
        errors.append(rules.error("rules_table_hole", base + ("rows",), faces=_spans(holes), dice=table["dice"]))
    return errors


def _spans(faces: list[int]) -> list[str]:
    """[1, 2, 3, 5] -> ["1-3", "5"]."""
    out, start = [], faces[0]
    for previous, face in zip(faces, faces[1:] + [None]):
        if face != previous + 1 if face is not None else True:
            out.append(str(start) if start == previous else f"{start}-{previous}")
            start = face
    return out


def warnings(rules: RulesFile) -> list[PbpError]:
    """What runs but is most likely a mistake (`pbp rules check`): a threshold its
    gauge can never reach, a formula that can divide by zero."""
    errors = []
    for gauge_id, gauge in (rules.data.get("gauges") or {}).items():
        low, high = gauge.get("min"), gauge.get("max")
        for i, threshold in enumerate(gauge.get("thresholds") or []):
            if _unreachable(threshold, low, high):
                value = next(threshold[k] for k in ("at", "below", "above") if k in threshold)
                errors.append(rules.error("rules_warning_unreachable", ("gauges", gauge_id, "thresholds", i),
                                          value=value, gauge=gauge_id, low=_shown(low, "-∞"), high=_shown(high, "∞")))
    bounds = name_bounds(rules.data)
    for path, formula in rules.program.formulas:
        known = {name: bounds[canonical(name)] for name in formula.names_used if canonical(name) in bounds}
        divisors = formula.zero_divisors(known)
        if divisors:
            errors.append(rules.error("rules_warning_divide", path, divisors=list(divisors)))
    from pbp.datarules import places

    return errors + places.warnings(rules)


def _shown(value, default: str):
    return default if value is None else value


def _unreachable(threshold: dict, low, high) -> bool:
    low = -float("inf") if low is None else low
    high = float("inf") if high is None else high
    if "at" in threshold:
        return not low <= threshold["at"] <= high
    if "below" in threshold:
        return threshold["below"] <= low
    if "above" in threshold:
        return threshold["above"] >= high
    return False


def canonical(name: str) -> str:
    from pbp.datarules.program import canonical_name

    return canonical_name(name)


def name_bounds(data: dict) -> dict:
    """The bounds of every name a formula may read that the rules bound: the
    gauges (and the target's), the number stats with a min or a max."""
    from pbp.datarules.formula import Interval

    out = {}
    for section in ("gauges", "stats"):
        for ident, spec in (data.get(section) or {}).items():
            if spec.get("min") is None and spec.get("max") is None:
                continue
            whole = section == "gauges" or spec.get("type", "number") in ("number", "nombre")
            interval = Interval(-float("inf") if spec.get("min") is None else spec["min"],
                                float("inf") if spec.get("max") is None else spec["max"], whole=whole)
            out[ident] = out[f"target.{ident}"] = interval
    return out
