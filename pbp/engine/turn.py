"""One turn, from its inputs to its output bytes.

    gather (pbp.engine.turn_inputs: orders + gm.yaml, judged) -> ruleset.resolve
    (with dice) -> events -> the turn's files (`compute`) -> its posts
    (pbp.engine.turn_posts) -> the disk (`write`)

Nothing is written but by `write`, which puts a computed turn on disk
(state.yaml last, as the mark that the turn is resolved); `pbp verify` compares
a recomputed turn with the archive byte for byte. The turn's record (turn.yaml)
and its events as archived: pbp.engine.turn_record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbp.base import i18n, yamlio
from pbp.base.errors import ForcedRollError, InputError, PbpError
from pbp.base.i18n import closest
from pbp.base.record import Record
from pbp.engine import rules_record
from pbp.engine.campaign import FORMATS, Campaign, atomic_write
from pbp.engine.deadline import deadline_of, describe
from pbp.engine.turn_inputs import TurnInputs, gather
from pbp.engine.turn_record import RECORD_FILE, dice_version, record_of, stored_form
from pbp.model import events as ev

if TYPE_CHECKING:
    # Imported where used: reading orders and rolling dice by the commands that
    # resolve a turn (pbp status and pbp post read the archive only).
    from pbp.model import orders as od

OUTPUT_FILES = ("state.yaml", "rolls.yaml", "events.yaml", RECORD_FILE)


class TurnOutput(Record):
    __slots__ = ("turn", "state", "events", "files", "warnings", "record", "rolls", "inputs")

    def __init__(self, turn: int, state: dict, events: list[ev.Event], files: dict[str, bytes] | None = None,
                 warnings: list[PbpError] | None = None, record: dict | None = None, rolls: list | None = None,
                 inputs: TurnInputs | None = None):
        self.turn = turn
        self.state = state
        self.events = events
        self.files = {} if files is None else files  # path relative to the turn folder
        self.warnings = [] if warnings is None else warnings
        self.record = {} if record is None else record  # what turn.yaml holds
        self.rolls = [] if rolls is None else rolls  # the roll log (pbp.model.dice.Roll), as rolls.yaml has it
        self.inputs = inputs  # the orders it was played from (None: the set-up)


# -- what the turn records (turn.yaml, read back by pbp.engine.turn_record) ---------

def new_record(campaign: Campaign, inputs: TurnInputs | None, previous: dict,
               playing: list[str] | None = None, dice: int = 0) -> dict:
    """What turn n records: the roster, rendering and dice version (`dice`,
    written when not 0, see `dice_version`) it was played with, and the
    missed-orders counts (consecutive turns without orders, by player).
    `playing`: who is still in play after the turn; the others (dead, escaped,
    eliminated) have nothing to order any more, so no count is kept for them:
    they are never flagged to chase nor waited for."""
    missed = dict(previous.get("missed") or {})
    inactive = set(previous.get("inactive") or [])
    if inputs is not None:
        # a blank form's sender is among the defaulted, counted once; a refused file played at
        # the deadline is a turn without orders too
        for handle in inputs.defaulted + [h for h in inputs.played if h in inputs.refused]:
            missed[handle] = missed.get(handle, 0) + 1
        for handle in inputs.valid:
            missed.pop(handle, None)
            inactive.discard(handle)  # back in the game
        after = campaign.nmr.get("inactive_after")
        if after:
            inactive |= {h for h, count in missed.items() if count >= after}
    if playing is not None:
        missed = {h: count for h, count in missed.items() if h in playing}
        inactive &= set(playing)
    roster = campaign.roster
    record = {"roster": roster, "render": {"lang": campaign.lang, "format": campaign.format,
                                           "dialect": campaign.dialect}}
    if dice:  # absent means 0: a turn of an archive from before versions replays byte for byte
        record["dice"] = dice
    # the campaign's rules overrides in force for this turn: a number changed mid-game
    # applies from the next turn, and a replay plays each turn with its own (as_recorded)
    record["rules"] = campaign.config.get("rules") or {}
    record["missed"] = {h: missed[h] for h in roster if missed.get(h)}
    record["inactive"] = [h for h in roster if h in inactive]
    return record


def _plain(value):
    """Event data as YAML-safe plain values (rolls become dicts, tuples lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    return value


def extra_events(campaign: Campaign, inputs: TurnInputs, state: dict) -> list[ev.Event]:
    """What the core adds to the ruleset's events: the MJ's narration and the
    players' roleplay. Whose roleplay is quoted where is the ruleset's decision
    (`Ruleset.roleplay_audience`, from the state the turn is played from)."""
    out = []
    narration = inputs.gm.narration
    if isinstance(narration, str):
        narration = {"public": narration}
    for key, text in (narration or {}).items():
        # gm.yaml's keys: `public`, `gm`, or a roster handle (`gm` and `public` are reserved handles)
        if key == "public":
            out.append(ev.public("narration", markdown=text))
        elif key == "gm":
            out.append(ev.gm("narration", markdown=text))
        else:
            out.append(ev.private(key, "narration", markdown=text))
    ruleset, scenario = campaign.ruleset, campaign.scenario
    for handle, orders in inputs.orders.items():
        if orders.roleplay:
            audience = ruleset.roleplay_audience(state, scenario, handle)
            out.append(ev.Event("roleplay", {"player": handle, "character": scenario.name(handle),
                                             "text": orders.roleplay}, audience))
    if inputs.played:
        out.append(deadline_event(campaign, inputs))
    for handle, why in inputs.lost.items():
        if handle in inputs.valid:  # they sent orders for a turn they lose: both are told
            out.append(ev.private(handle, "actions_ignored", player=handle, reason=f"{ruleset.id}.{why}"))
    for note in inputs.ignored:
        out.append(ev.gm("file_ignored", file=note.file, player=note.params.get("player")))
    return out


def deadline_event(campaign: Campaign, inputs: TurnInputs) -> ev.Event:
    """For the MJ's report: what each player without valid orders played, and
    why (nothing sent, a blank form, a refused file; the default orders, or the
    ruleset's fallback orders where the default ones are not allowed to them).
    The actions and the rules' reasons are words: given in each language, so
    the report renders in either (`pbp post --format`, a language changed since)."""
    from pbp.engine.at_deadline import refusal_texts
    from pbp.model.orders import action_lines

    rs = campaign.ruleset
    players = []
    for handle, played in inputs.played.items():
        entry = {"player": handle, "why": played.why, "how": played.how,
                 "actions": {lang: action_lines(rs, lang, played.orders.actions) for lang in i18n.LANGS}}
        if played.file:
            entry["file"] = played.file
        if played.how == "fallback":
            entry.update(default={lang: action_lines(rs, lang, played.default) for lang in i18n.LANGS},
                         source=played.source,
                         refusals={lang: refusal_texts(played.refusals, lang) for lang in i18n.LANGS})
        players.append(entry)
    return ev.gm("deadline_played", players=players)


def standing_event(campaign: Campaign, state: dict) -> ev.Event | None:
    """Where each character stands after the turn (Ruleset.standing), for the
    public post's last lines; each status becomes a full message key: the
    ruleset's `<id>.<key>` when it has one, else the core's."""
    rs = campaign.ruleset
    players = []
    for entry in rs.standing(state, campaign.scenario) or []:
        key = str(entry["status"])
        if i18n.has(f"{rs.id}.{key}"):
            key = f"{rs.id}.{key}"
        item = {"name": entry.get("name") or campaign.names.get(entry.get("handle"), entry.get("handle")),
                "handle": entry.get("handle"), "status": key}
        if entry.get("params"):
            item["params"] = dict(entry["params"])
        players.append(item)
    return ev.public("standing", players=players) if players else None


def core_events(campaign: Campaign, n: int, record: dict, state: dict) -> list[ev.Event]:
    """The core's own news of a turn: who the MJ should chase (missed orders),
    where the characters stand and when the next orders are due (both shown at
    the end of the public post)."""
    out = []
    flag_after = campaign.nmr.get("flag_after")
    rs, scenario = campaign.ruleset, campaign.scenario
    # only who has orders to send for the next turn is chased: not once the game
    # is over, nor a player whose next turn is lost (panic, exhaustion...)
    flagged = [h for h, count in (record.get("missed") or {}).items()
               if flag_after and count >= flag_after and not rs.is_over(state)
               and not rs.lost_turn(state, scenario, h)]
    if record.get("missed"):
        out.append(ev.gm("missed_orders", missed=record["missed"], flagged=flagged,
                         inactive=record.get("inactive") or []))
    standing = standing_event(campaign, state)
    if standing is not None:
        out.append(standing)
    if not campaign.ruleset.is_over(state):
        when = deadline_of(campaign.config.get("deadline"), n + 1)
        if when is not None:
            out.append(ev.public("deadline", turn=n + 1, when=describe(when, campaign.lang,
                                                                        (campaign.config.get("deadline") or {})
                                                                        .get("zone"))))
    return out


def compute(campaign: Campaign, n: int, inputs: TurnInputs | None = None, files: bool = True,
            state: dict | None = None, at_deadline: bool = False) -> TurnOutput:
    """Resolve turn `n` from the archive's files, without writing anything.
    `inputs`: the turn's orders, already gathered from `state`, the state of
    turn n-1 (`pbp check` has both: neither is read again); `files=False`: no
    output bytes (the turn is only resolved, to see what it rolls);
    `at_deadline`: a refused player file does not stop the turn, its player
    plays as the deadline policy says (pbp.engine.at_deadline); an archived turn is
    replayed so (a refused file in it was played so)."""
    if n == 0:
        return compute_setup(campaign)
    if state is None:
        state = campaign.state(n - 1, remember=False)  # not kept: `pbp verify` computes every turn
    if campaign.ruleset.is_over(state):
        raise PbpError("game_over", turn=n - 1)
    previous = record_of(campaign, n - 1, remember=False)
    if inputs is None:
        inputs = gather(campaign, n, state, previous)
    inputs.raise_errors(at_deadline)
    from pbp.model.dice import Dice

    version = dice_version(campaign, n, previous)
    dice = Dice(campaign.secret, n, dict(inputs.gm.rolls), version)
    try:
        from pbp.model.ruleset import plain_copy  # the ruleset gets a copy: the state read stays as read

        result = campaign.ruleset.resolve(plain_copy(state), campaign.scenario, inputs.orders,
                                          inputs.gm, dice)
    except ForcedRollError as exc:
        raise exc.located(campaign.rel(campaign.gm_file(n)), _forced_line(inputs.gm, exc.params.get("label")))
    events = list(result.events) + extra_events(campaign, inputs, state)
    rolled = [r.label for r in dice.log]
    warnings = [PbpError("forced_unused", file=campaign.rel(campaign.gm_file(n)),
                         line=_forced_line(inputs.gm, label), label=label, suggestion=closest(label, rolled))
                for label in dice.unused_forced()]
    events += [ev.gm("forced_unused", label=w.params["label"]) for w in warnings]
    record = new_record(campaign, inputs, previous,
                        campaign.ruleset.players_to_play(result.state, campaign.scenario), version)
    copies = rules_record.stamp(campaign, n, record, previous)
    events += core_events(campaign, n, record, result.state)
    out = _finish(campaign, n, result.state, events, dice, warnings, record, files, copies)
    out.inputs = inputs
    return out


def _forced_line(gm: od.GmOrders, label) -> int | None:
    """The line of a forced roll in gm.yaml (`rolls:` or its French `jets:`)."""
    english, french = gm.lines.line(("rolls", label)), gm.lines.line(("jets", label))
    return french if english == gm.lines.line(()) else english


def compute_setup(campaign: Campaign) -> TurnOutput:
    gm_path = campaign.gm_file(0)
    forced = {}
    if campaign.has_input(gm_path):  # set-up reads only gm.yaml's forced rolls
        source = campaign.rel(gm_path)
        data = campaign.read_input(gm_path, campaign.limits["gm_file_bytes"], "gm_file_bytes")
        raw, lines = yamlio.load_untrusted(data, source)
        raw = raw or {}
        if not isinstance(raw, dict):
            raise InputError("gm_not_mapping", file=source)
        rolls = raw.get("rolls", raw.get("jets")) or {}
        if not isinstance(rolls, dict):
            raise InputError("rolls_not_mapping", file=source, line=lines.line(("rolls",)))
        forced = {str(k): v for k, v in rolls.items()}
    from pbp.model.dice import Dice

    version = dice_version(campaign, 0, {})
    dice = Dice(campaign.secret, 0, forced, version)
    try:
        result = campaign.ruleset.setup(campaign.scenario, dice)
    except ForcedRollError as exc:
        raise exc.located(campaign.rel(gm_path))
    record = new_record(campaign, None, {}, dice=version)
    copies = rules_record.stamp(campaign, 0, record, {})
    events = list(result.events) + core_events(campaign, 0, record, result.state)
    return _finish(campaign, 0, result.state, events, dice, [], record, copies=copies)


def _finish(campaign, n, state, events, dice, warnings, record, files: bool = True,
            copies: dict[str, bytes] | None = None) -> TurnOutput:
    forced = [r for r in dice.log if r.forced]
    if forced:  # the MJ report lists the dice set by hand (seal.j2); the audit shows them to the players
        events = list(events) + [ev.gm("forced_rolls", rolls=forced)]
    plain_events = [ev.Event.from_dict(_plain(e.to_dict())) for e in events]
    log = [r.to_dict() for r in dice.log]
    out = TurnOutput(n, state, plain_events, warnings=warnings, record=record, rolls=list(dice.log))
    if not files:
        return out
    from pbp.base import yamldump  # PyYAML, loaded when a turn is written, not by every command

    out.files[RECORD_FILE] = yamldump.dumps(record).encode()
    out.files["state.yaml"] = yamldump.dumps(_plain(state)).encode()
    out.files["rolls.yaml"] = yamldump.dumps(log).encode()
    out.files["events.yaml"] = yamldump.dumps(stored_form(plain_events, log)).encode()
    out.files.update(copies or {})  # the rules files, where they changed (pbp/engine/rules_record.py)
    return out


# -- an archive written by an older pbp, compared in its own form ----------------------

def record_as_archived(out: TurnOutput, archived: dict) -> None:
    """A turn archived before pbp recorded the rules it was played with (its
    turn.yaml has no `rules`, or no `rules_files`) was played with the
    campaign's: its replay's record says none either, nor keeps a copy of the
    rules files, so an older archive still verifies."""
    dropped = [key for key in ("rules", rules_record.KEY) if key not in archived and key in out.record]
    if RECORD_FILE not in out.files or not dropped:
        return
    from pbp.base import yamldump

    for key in dropped:
        del out.record[key]
    if rules_record.KEY in dropped:
        for rel in [rel for rel in out.files if rel.startswith(rules_record.COPY_FOLDER + "/")]:
            del out.files[rel]
    out.files[RECORD_FILE] = yamldump.dumps(out.record).encode()


def as_archived(out: TurnOutput, archived: bytes | None) -> None:
    """An archive written before rolls were given by label holds them whole in
    events.yaml: replayed, such a turn is compared with that form (the same
    events, written the old way), so an older archive still verifies."""
    current = out.files.get("events.yaml")
    if archived is None or current is None or archived == current:
        return
    from pbp.base import yamldump

    whole = yamldump.dumps([e.to_dict() for e in out.events]).encode()
    if archived == whole:
        out.files["events.yaml"] = whole


def write(campaign: Campaign, out: TurnOutput) -> list[str]:
    """Put a computed turn on disk, state.yaml last. Outputs left by an earlier,
    interrupted run of this turn are removed first. Returns the written paths."""
    for old in undo_paths(campaign, out.turn):
        old.unlink()
    folder = campaign.turn_dir(out.turn)
    written = []
    for rel, data in sorted(out.files.items(), key=lambda item: item[0] == "state.yaml"):
        atomic_write(folder / rel, data)
        written.append(campaign.rel(folder / rel))
    return written


def outputs_on_disk(campaign: Campaign, n: int) -> dict[str, bytes]:
    folder = campaign.turn_dir(n)
    found = {}
    for name in OUTPUT_FILES:
        if (folder / name).exists():
            found[name] = (folder / name).read_bytes()
    exts = {v for v in FORMATS.values()}
    for path in list(folder.glob("*.*")) + list((folder / "private").glob("*.*")):
        if path.suffix.lstrip(".") in exts:
            found[str(path.relative_to(folder))] = path.read_bytes()
    copies = folder / rules_record.COPY_FOLDER  # the rules files, kept where they changed
    for path in sorted(copies.iterdir()) if copies.is_dir() else []:
        if path.is_file():
            found[rules_record.copy_path(path.name)] = path.read_bytes()
    return found


def undo_paths(campaign: Campaign, n: int) -> list:
    """The outputs of turn `n` (its orders and gm.yaml stay)."""
    folder = campaign.turn_dir(n)
    return [folder / rel for rel in outputs_on_disk(campaign, n)]
