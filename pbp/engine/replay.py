"""One archived turn replayed and compared with its archive, byte for byte: the
one replay `pbp verify` (a campaign folder) and `pbp audit` (a stranger's
bundle, read from memory) both judge a turn by, so a turn one accepts the other
accepts, and a tampered one both refuse naming the same files.

    replay_turn(campaign, n, previous)   -> Replay
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.base.errors import PbpError
from pbp.engine import seal
from pbp.engine.campaign import FORMATS


@dataclass
class Replay:
    """One turn computed again from the archive: its code, and how its files
    differ from the archived ones."""

    code: str | None  # None: the turn could not be computed (see error)
    diffs: list[str] = field(default_factory=list)
    codes_only: bool = False  # every difference is in the codes the posts show
    error: PbpError | None = None
    rolls: list = field(default_factory=list)
    dice: int = 0  # the dice version it was replayed with (pbp.model.dice_versions)
    extra: list[str] = field(default_factory=list)  # files of the turn folder pbp neither reads nor writes
    archived: dict[str, bytes] = field(default_factory=dict)  # the turn's outputs as archived
    replayed: dict[str, bytes] = field(default_factory=dict)  # the same files, replayed
    as_played: object = None  # the campaign as the turn was played (its recorded roster, rules, rendering)
    record: dict = field(default_factory=dict)  # the turn's archived record (turn.yaml)


def replay_turn(campaign, n: int, previous: str) -> Replay:
    """Turn n replayed as it was played (its recorded roster, rules and
    rendering; an older archive compared in its own form), sealed on
    `previous` (turn n-1's code), compared with the archive byte for byte.
    A turn the engine refuses to compute gives a Replay with its error."""
    from pbp.engine import turn, turn_posts, turn_record
    from pbp.model import dice_versions

    on_disk = turn.outputs_on_disk(campaign, n)
    record = turn_record.record_of(campaign, n, remember=False)
    as_played = turn_record.as_recorded(campaign, record, n)
    try:
        out = turn.compute(as_played, n, at_deadline=True)  # as it was played: see turn.compute
        if turn_record.RECORD_FILE not in on_disk:  # archived before pbp recorded its turns
            out.files.pop(turn_record.RECORD_FILE, None)
        turn.record_as_archived(out, record)
        turn.as_archived(out, on_disk.get("events.yaml"))  # rolls whole, as archives had them before
        for fmt, ext in FORMATS.items():
            if any(name.endswith("." + ext) for name in on_disk):
                turn_posts.render_all(as_played, out, fmt)
        code = seal.seal_output(as_played, out, previous)
    except PbpError as exc:
        return Replay(None, error=exc, archived=on_disk, as_played=as_played, record=record)
    names = set(on_disk) | set(out.files)
    diffs = sorted(k for k in names if on_disk.get(k) != out.files.get(k))
    codes_only = bool(diffs) and all(
        seal.is_post(k) and k in on_disk and k in out.files
        and seal.sealed_bytes(k, on_disk[k]) == seal.sealed_bytes(k, out.files[k]) for k in diffs)
    extra = [k for k in seal.turn_files(campaign.turn_dir(n))
             if k not in on_disk and k != "gm.yaml" and not k.startswith("orders/")]
    return Replay(code, diffs, codes_only, rolls=out.rolls, dice=dice_versions.recorded(out.record), extra=extra,
                  archived=on_disk, replayed=out.files, as_played=as_played, record=record)
