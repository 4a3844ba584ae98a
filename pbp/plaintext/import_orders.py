"""A player's pasted message made their order file for the next turn (`pbp orders
import`): what the importer read (pbp/plaintext/importer.py), the file's text, and what
`pbp check` and `pbp receipt` would say of it, through the very code they use.

Nothing here writes: the command writes the file (atomically) when asked. The
message is read bounded (the campaign's `order_file_bytes`), from a regular file or
standard input only.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pbp.base import i18n
from pbp.base.errors import InputError, PbpError
from pbp.base.files import read_at_most
from pbp.engine import loop, turn_inputs
from pbp.engine.campaign import Campaign, handle_file
from pbp.model import orders as od
from pbp.plaintext import importer


@dataclass
class Imported:
    player: str
    turn: int
    target: Path  # turns/NNN/orders/<player>.yaml
    reading: importer.Reading
    text: str | None = None  # the order file; None while a question is open
    problems: list[PbpError] = field(default_factory=list)  # what `pbp check` would say of it
    receipt: dict | None = None  # the receipt template's context
    existing: list[Path] = field(default_factory=list)  # order files the player already has this turn


def read_source(path: str, stdin, limit: int) -> bytes:
    """At most limit + 1 bytes of a message: standard input (`-`), or a regular file
    anywhere (the MJ's own: a FIFO or a device would block or never end)."""
    if path == "-":
        return stdin.read(limit + 1)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError("file_unreadable", file=path, reason=exc.strerror) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("import_not_file", file=path)
        return read_at_most(fd, limit)
    finally:
        os.close(fd)


def read_message(data: bytes, source: str, limit: int, notes: list | None = None) -> str:
    """A message's text: at most `limit` bytes (the campaign's `order_file_bytes`), UTF-8
    (or Windows-1252 where that is the one reading, said in `notes`)."""
    from pbp.base.yamlio import decode

    if len(data) > limit:
        raise InputError("file_too_large", file=source, size=len(data), limit=limit, limit_key="order_file_bytes")
    return decode(data, source, notes)


def import_message(campaign: Campaign, handle: str, message: str) -> Imported:
    """What `handle`'s message orders for the next turn, with the file, the check and
    the receipt when nothing is left to ask."""
    n, state = turn_inputs.next_turn_of(campaign, handle, "import_player_out")
    rs, scenario = campaign.ruleset, campaign.scenario
    people = [x for h in campaign.roster for x in (h, scenario.name(h))]
    reading = importer.read(message, rs, rs.import_names(state, scenario, handle), people, handle,
                            rs.closed_actions(state, scenario, handle))
    target = campaign.turn_dir(n) / "orders" / f"{handle_file(handle)}.yaml"
    out = Imported(handle, n, target, reading, existing=[p for h, p in campaign.order_files(n) if h == handle])
    if reading.questions:
        return out
    out.text = order_text(campaign.lang, handle, n, reading, rs)
    source = campaign.rel(target)
    parsed, problems = od.parse_player_orders(out.text.encode("utf-8"), source, ruleset=rs, scenario=scenario,
                                              turn=n, expected_player=handle, limits=campaign.limits,
                                              facts=rs.arg_context(state, scenario, handle))
    lost = rs.lost_turn(state, scenario, handle)
    if parsed is not None and not lost:
        problems = problems + od.check_rules(parsed, state, rs, scenario)
    out.problems = problems
    if problems:
        status = "refused"
    elif lost:
        status = "lost"
    elif parsed.blank:
        status = "blank"
    else:
        status = "valid"
    actions = parsed.actions if parsed is not None and status != "lost" else []
    played = None
    if status in ("blank", "refused"):  # what they would play at the deadline, as pbp.engine.at_deadline decides
        from pbp.engine.at_deadline import Policy

        played = Policy(campaign, state, n).play(handle, status)
    if status == "blank":
        actions = played.orders.actions
    # the receipt `pbp receipt` would print once the file is in place (pbp/engine/loop.py's)
    out.receipt = dict(player=handle, character=campaign.names.get(handle, handle), turn=n, state=status,
                       actions=loop.action_lines(campaign, actions),
                       roleplay=parsed.roleplay if parsed is not None else "",
                       problems=[e.for_player(campaign.lang, lines=False) for e in problems], lost_reason=lost,
                       ruleset=rs.id,
                       deadline=loop.deadline_text(campaign, n), **loop.at_deadline(campaign, played))
    return out


class _Literal(yaml.SafeDumper):
    """Writes a multi-line text as a `|` block, the way players write their roleplay."""


_Literal.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def order_text(lang: str, player: str, n: int, reading: importer.Reading, ruleset=None) -> str:
    """The order file, as a player would write it: player, turn, one action a line
    (`- combat: {chasseur: Sylas l'Elfe sylvain}`), the roleplay as a block. An
    English campaign's file says what its English form shows (`- move: hall`)."""
    head = {"player": player, "turn": n}
    text = f"# {i18n.t(lang, 'import_file_header')}\n"
    text += yaml.safe_dump(head, allow_unicode=True, sort_keys=False, width=1000)
    if reading.actions:
        text += "actions:\n"
        for a in reading.actions:
            action_id, arg = english(ruleset, a.id, a.arg) if lang == "en" and ruleset is not None else (a.id, a.arg)
            text += f"  - {action_id}\n" if arg is None else f"  - {action_id}: {_flow(arg)}\n"
    else:
        text += "actions: []\n"
    if reading.roleplay:
        block = yaml.dump({"roleplay": reading.roleplay + "\n"}, Dumper=_Literal, allow_unicode=True, width=1000)
        if yaml.safe_load(block) != {"roleplay": reading.roleplay + "\n"}:  # a text no block can hold as is
            block = yaml.safe_dump({"roleplay": reading.roleplay}, allow_unicode=True, width=1000,
                                   default_style='"')
        text += block
    return text


def english(ruleset, action_id: str, arg):
    """An action as an English form writes it: its `en:` id, its fields' `en:` names
    and its choices' English words, where the ruleset gives them (pbp.model.orders accepts
    each as the French one)."""
    from pbp.model.argtypes import compile_types

    spec = ruleset.actions.get(action_id) or {}
    name = spec.get("en") if isinstance(spec.get("en"), str) else action_id
    return name, compile_types(ruleset.rules).action(ruleset.actions, action_id).english(arg)


def _flow(value) -> str:
    """A value on one line, quoted where YAML needs it (`[nord, est]`, `{salle: hall}`)."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000, sort_keys=False)
    return text[:-5].strip() if text.endswith("\n...\n") else text.strip()
