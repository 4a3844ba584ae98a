"""The MJ's loop between two `pbp run`s: who has sent what, what pbp
understood of each file (the receipt to send back), and who to remind.

Nothing here writes: each function reads the turn's inputs through the very
code `pbp run` uses (turn_inputs.gather, turn.compute) and returns what the commands
print with the common templates (check, receipt, remind).
"""

from __future__ import annotations

from pbp.base.errors import ForcedRollError, PbpError
from pbp.base.record import Record
from pbp.engine import turn, turn_inputs, turn_record
from pbp.engine.campaign import Campaign
from pbp.engine.deadline import turn_deadline
from pbp.model import orders as od


class TurnCheck(Record):
    """Everything `pbp check` says of turn n."""

    __slots__ = ("turn", "inputs", "forced", "unused", "rolls")

    def __init__(self, turn: int, inputs: turn_inputs.TurnInputs, forced: list[PbpError] | None = None,
                 unused: list[PbpError] | None = None, rolls: list | None = None):
        self.turn = turn
        self.inputs = inputs
        self.forced = [] if forced is None else forced  # forced rolls the dice cannot give
        self.unused = [] if unused is None else unused  # forced labels no roll asks for
        self.rolls = [] if rolls is None else rolls  # the labels the turn rolls, as resolved now

    @property
    def ok(self) -> bool:
        return not self.inputs.errors and not self.forced


def check_turn(campaign: Campaign, n: int) -> TurnCheck:
    """Turn n's orders judged in one pass; when they are all valid, the turn is
    also resolved in memory so gm.yaml's forced rolls are checked against the
    dice they force (a value the die cannot give, a label nothing rolls)."""
    state = campaign.state(n - 1)
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    inputs = turn_inputs.gather(campaign, n, state)
    report = TurnCheck(n, inputs)
    if inputs.errors:
        return report
    try:
        out = turn.compute(campaign, n, inputs, files=False, state=state)  # read once, no output bytes
    except ForcedRollError as exc:
        report.forced.append(exc)
        return report
    report.unused = list(out.warnings)
    report.rolls = out.rolls
    return report


def deadline_text(campaign: Campaign, n: int) -> str | None:
    return turn_deadline(campaign.config.get("deadline"), n, campaign.lang)


def action_lines(campaign: Campaign, actions: list[od.Action]) -> list[str]:
    """Each action as the player wrote it, in the campaign's language (od.action_lines)."""
    return od.action_lines(campaign.ruleset, campaign.lang, actions)


def receipt(campaign: Campaign, handle: str, n: int) -> dict:
    """What pbp understood of `handle`'s orders for turn n, for the receipt template."""
    inputs = turn_inputs.gather(campaign, n, campaign.state(n - 1))
    lines = not any(imported(path) for h, path in campaign.order_files(n) if h == handle)
    mine = [e.for_player(campaign.lang, lines) for e in inputs.by_player.get(handle, [])]
    orders = inputs.orders.get(handle)
    state = order_state(inputs, handle)
    if state == "inactive":  # the receipt tells the player what they sent, expected or not
        state = "blank" if handle in inputs.blank else "missing"
    return dict(player=handle, character=campaign.names.get(handle, handle), turn=n, state=state,
                actions=action_lines(campaign, orders.actions) if orders else [],
                roleplay=orders.roleplay if orders and not orders.default else "",
                problems=mine, lost_reason=inputs.lost.get(handle), ruleset=campaign.ruleset.id,
                deadline=deadline_text(campaign, n), **at_deadline(campaign, inputs.played.get(handle)))


def at_deadline(campaign: Campaign, played) -> dict:
    """What the receipt says a player without valid orders will play
    (pbp.engine.at_deadline decides): `how`, "default" or "fallback"; `plays`, those
    actions as the player's form names them; for the fallback, `default` (the
    default orders refused to them) and `reasons` (the rules' words, private:
    the receipt goes to that player alone)."""
    if played is None:
        return dict(how=None, plays=[], default=[], reasons=[])
    from pbp.engine.at_deadline import refusal_texts

    return dict(how=played.how, plays=action_lines(campaign, played.orders.actions),
                default=action_lines(campaign, played.default), reasons=refusal_texts(played.refusals, campaign.lang))


def imported(path) -> bool:
    """Whether an order file was written by `pbp orders import` (its first line says so,
    in either language): its player sent a private message and knows no line of it."""
    from pbp.base import i18n

    try:
        with open(path, "rb") as f:
            head = f.read(300).decode("utf-8", "replace")
    except OSError:
        return False
    return any(head.startswith("# " + i18n.t(lang, "import_file_header")) for lang in ("fr", "en"))


def reminder(campaign: Campaign, n: int) -> dict:
    """Who still has to send valid orders for turn n, for the reminder post.
    Only players who have something to order count (not a lost turn, not out
    of the game, not set inactive by the missed-orders policy)."""
    state = campaign.state(n - 1)
    inputs = turn_inputs.gather(campaign, n, state)
    missing = [h for h in inputs.missing + inputs.blank if h not in inputs.inactive]
    refused = [h for h in inputs.refused if h in campaign.roster]
    return dict(turn=n, missing=[h for h in campaign.roster if h in missing],
                refused=[h for h in campaign.roster if h in refused], deadline=deadline_text(campaign, n),
                received=len(inputs.valid),
                fallback=public_fallback(campaign, state, n) if missing or refused else None)


def public_fallback(campaign: Campaign, state: dict, n: int) -> list[str] | None:
    """The game's fallback order as the forms name it, for the public reminder,
    or None when it is the default orders themselves. Said whatever the players'
    states: who gets it, and why, may be secret (an engaged Péji in manhunt), so
    the reminder says the rule, never that it applies to someone."""
    from pbp.engine.at_deadline import Policy

    policy = Policy(campaign, state, n)
    fallback = action_lines(campaign, policy.fallback)
    return None if fallback == action_lines(campaign, policy.default) else fallback


# -- pbp status: where each player stands for the next turn's orders ---------------------

def order_state(inputs: turn_inputs.TurnInputs, handle: str) -> str:
    """Where `handle` stands in a turn's gathered orders, as `pbp check`,
    `pbp remind` and `pbp run` judge them: refused (a file to fix), lost (a
    lost turn: nothing to order), valid, inactive (no longer expected), blank
    (an unfilled form: as if nothing was sent), missing, or out of the game."""
    if handle in inputs.refused:
        return "refused"
    if handle in inputs.lost:
        return "lost"
    if handle in inputs.valid:
        return "valid"
    if handle in inputs.inactive:
        return "inactive"
    if handle in inputs.blank:
        return "blank"
    if handle in inputs.defaulted:
        return "missing"
    return "out"


#: how many order overviews the user's cache keeps (one per state of a turn's files)
REMEMBERED = 64


def order_overview(campaign: Campaign, n: int, state: dict) -> dict:
    """Turn n's orders as `pbp status` shows them, judged by `turn_inputs.gather` from
    `state` (turn n-1's): `states` maps each handle of the roster to its
    `order_state`; `refused` lists every refused file's handle, one that is not
    in the roster too (as `pbp check` counts them); `deadline`, what each
    player without valid orders will play (`deadline_lines`). A bad file is
    never an error here: it is "refused".

    Kept in the user's cache by what the judgement depends on (the order files'
    bytes, turn n-1's state and record, the campaign's files, pbp's and the
    ruleset's code): `pbp status` again on the same files parses no order file,
    so does not import PyYAML."""
    key = _overview_key(campaign, n)
    if key is not None:
        from pbp.base import usercache

        found = usercache.read_entry("orders", usercache.data_tag(), key)
        if isinstance(found, tuple) and len(found) == 2 and found[0] == key and isinstance(found[1], dict):
            return found[1]
    inputs = turn_inputs.gather(campaign, n, state)
    roster = campaign.roster
    overview = {"states": {h: order_state(inputs, h) for h in roster},
                "refused": [h for h in roster if h in inputs.refused] + [h for h in inputs.refused if h not in roster],
                "deadline": deadline_lines(campaign, inputs, ahead=True)}
    if key is not None:
        from pbp.base import usercache

        usercache.write_entry("orders", usercache.data_tag(), key, (key, overview), keep=REMEMBERED)
    return overview


def _overview_key(campaign: Campaign, n: int) -> str | None:
    """A digest of everything `turn_inputs.gather` reads to judge turn n's player
    files, or None when an order file cannot be read as `gather` reads one (a
    FIFO, a folder, a link out of the campaign, too large): then they are judged
    each time, and say why."""
    import os
    from hashlib import blake2b

    from pbp.base import usercache
    from pbp.engine.campaign import read_bytes

    digest = blake2b(digest_size=20)

    def add(*parts) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little") + data)

    # the code that judges: pbp's core and the ruleset's own modules and data
    here = os.path.dirname(os.path.dirname(turn.__file__))  # pbp/
    code = [os.path.join(here, name)
            for name in ("engine/turn_inputs.py", "engine/turn_record.py", "engine/turn.py", "model/orders.py",
                         "engine/loop.py", "model/ruleset.py", "engine/campaign.py", "engine/campaign_config.py",
                         "model/defaults.py", "model/defaults.yaml", "engine/at_deadline.py", "messages.yaml")]
    folder = campaign.ruleset.folder()
    try:
        code += sorted(e.path for e in os.scandir(folder) if e.is_file() and e.name.endswith((".py", ".yaml")))
        add(n, campaign.text, [(path, usercache.file_signature(os.stat(path))) for path in code])
        for name in ("world.yaml", "characters.yaml"):
            path = campaign.root / name
            add(read_bytes(path, name) if path.is_file() else None)
        previous = campaign.turn_dir(n - 1)
        for name in ("state.yaml", turn_record.RECORD_FILE):
            path = previous / name
            add(read_bytes(path, campaign.rel(path)) if path.is_file() else None)
        limit = campaign.limits["order_file_bytes"]
        folder = campaign.turn_dir(n) / "orders"
        add(os.path.realpath(folder))  # a linked folder on the way is refused by `gather`
        for handle, path in campaign.order_files(n):  # read as `gather` reads them: never a FIFO, a link out
            add(handle, path.name, campaign.read_input(path, limit, "order_file_bytes"))
    except (OSError, PbpError):
        return None
    return digest.hexdigest()



# -- at the deadline: what each player without valid orders plays ------------------------

def deadline_lines(campaign: Campaign, inputs: turn_inputs.TurnInputs, ahead: bool = False) -> list[str]:
    """One line per player without valid orders, in the campaign's language:
    who, why (nothing sent, a blank form, a refused file) and what they play
    (pbp.engine.at_deadline); `ahead`: said before the run (`pbp check`), where a
    refused file is only played so with `pbp run --at-deadline`."""
    from pbp.base import i18n
    from pbp.engine.at_deadline import refusal_texts

    lang, names = campaign.lang, campaign.names
    lines = []
    for handle, played in inputs.played.items():
        who = f"{handle} ({names[handle]})" if names.get(handle, handle) != handle else handle
        why_key = "deadline_why_refused_check" if ahead and played.why == "refused" else f"deadline_why_{played.why}"
        why = i18n.t(lang, why_key, file=played.file)
        actions = "; ".join(action_lines(campaign, played.orders.actions)) or i18n.t(lang, "deadline_no_action")
        if played.how == "default":
            lines.append(i18n.t(lang, "deadline_default", player=who, why=why, actions=actions))
            continue
        default = "; ".join(action_lines(campaign, played.default)) or i18n.t(lang, "deadline_no_action")
        reasons = refusal_texts(played.refusals, lang)
        lines.append(i18n.t(lang, "deadline_fallback", player=who, why=why, actions=actions, default=default,
                            source=played.source or i18n.t(lang, "deadline_rulesets_default"), reasons=reasons))
    return lines

