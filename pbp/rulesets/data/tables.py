"""A random table rolled during a turn: the row its die gives, a chained
sub-table's row in its place (`table: sponsor` on a row), and what the post
shows of it: the first row's text, then each sub-table's die and row."""

from __future__ import annotations

from . import rules as R


def roll(turn, table_id: str, label: str, depth: int = 0, chain: list | None = None):
    """The row a table's die gives (a sub-table's row, chained): (Roll, row).
    `chain` gathers each table rolled when the row chains a sub-table: its id,
    die and own row, the first table first."""
    from pbp.datarules.lint import rows_by_face, table_dice

    spec = turn.program.tables[table_id]
    rolled = turn.dice.roll(label, table_dice(spec))
    index = next(i for low, high, i in rows_by_face(spec) if low <= rolled.total <= high)
    row = spec["rows"][index]
    if row.get("table") and depth < 10:
        if chain is not None:
            chain.append({"table": table_id, "roll": rolled, "row": row})
        _, sub = roll(turn, row["table"], f"{label}.{row['table']}", depth + 1, chain)
        row = {**row, **{k: v for k, v in sub.items() if k not in ("roll", "weight")}}
        row.pop("table", None)
    elif chain:  # the last sub-table of a chain
        chain.append({"table": table_id, "roll": rolled, "row": row})
    return rolled, row


def shown(turn, spec: dict, row: dict, chain: list, said) -> tuple:
    """(the text the post gives the roll, the sub-tables rolled after it): a row
    that chains nothing, its text; a chained one, its own text, then each
    sub-table's name, die and row's text."""
    if not chain:
        return R.filled(R.words(row.get("text")), said), []
    sub = [{"table": step["table"], "name": R.name_of(turn.program.tables[step["table"]], step["table"]),
            "roll": step["roll"], "text": R.filled(R.words(step["row"].get("text")), said)} for step in chain[1:]]
    return R.filled(R.words(chain[0]["row"].get("text")), said), sub
