"""The columns of a data ruleset's tables as the effects read them (`<as>.<column>`,
compiled by pbp/datarules/program.py): every row given every column its table
and the tables it chains name, and the blanks of a result bound on both sides
of an `if` from tables with different columns.
"""

from __future__ import annotations

BLANK = {"number": 0, "bool": False, "text": ""}


def one_sided_columns(then_scope: dict, else_scope: dict, scope: dict, both: dict) -> tuple[dict, dict]:
    """A result bound on both sides of an `if`/`check` (`as: loot` rolling table A
    in `then`, table B in `else`) whose tables have different columns: every
    column is known after it (added to `both`), 0 (false, empty) on the side whose
    table lacks it, as a row that does not say a column. Returns the blanks to
    bind after `then` ran and after `else` ran."""
    blanks: tuple[dict, dict] = ({}, {})
    for side, other, missing in ((then_scope, else_scope, blanks[1]), (else_scope, then_scope, blanks[0])):
        for name, kind in side.items():
            result = name.rsplit(".", 1)[0]
            if "." in name and name not in scope and name not in other and result in both and kind in BLANK:
                missing[name] = BLANK[kind]
                both[name] = kind
    return blanks


def fill_columns(tables: dict) -> None:
    """Every row of a table with every column its table's rows name, and those of
    the sub-tables its rows chain (`table: sponsor`, whose row's columns the result
    reads): a row that does not say one gets 0, false or an empty text (the kind of
    the column's other values), so `<as>.<column>` has a value whatever row is rolled."""
    own = {table_id: _blank_columns(table) for table_id, table in tables.items()}
    for table_id, table in tables.items():
        blank = dict(own[table_id])
        for sub in _chained(table_id, tables):
            for column, value in own[sub].items():
                blank.setdefault(column, value)
        for row in table.get("rows") or []:
            for column, value in blank.items():
                row.setdefault(column, value)


def _blank_columns(table: dict) -> dict:
    blank: dict = {}
    for row in table.get("rows") or []:
        for column, value in row.items():
            if column in ("roll", "weight", "table", "text"):
                continue
            blank.setdefault(column, False if isinstance(value, bool) else 0 if isinstance(value, int) else "")
    return blank


def _chained(table_id: str, tables: dict) -> list[str]:
    """The tables a table's rows chain, directly or through other sub-tables (each once)."""
    found: list[str] = []
    todo = [table_id]
    while todo:
        for row in tables[todo.pop()].get("rows") or []:
            sub = row.get("table")
            if isinstance(sub, str) and sub in tables and sub != table_id and sub not in found:
                found.append(sub)
                todo.append(sub)
    return found
