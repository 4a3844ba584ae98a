"""seals.yaml, the log of the codes the thread should show (pbp/engine/seal.py
makes the codes): what pbp printed and what the MJ posted, and `problems`, its
comparison with the archive's codes for `pbp status` and `pbp verify`.

The file sits at the campaign's root (a log that `pbp undo` leaves alone): the
commitment and, for each turn, every code a run printed and the code the MJ
says the thread shows (`pbp posted`).
"""

from __future__ import annotations

from pbp.base import yamlio
from pbp.base.errors import InputError
from pbp.base.patterns import Lazy
from pbp.base.record import Record
from pbp.engine.campaign import atomic_write, read_text
from pbp.engine.seal import archive_codes, commitment, short

SEALS_FILE = "seals.yaml"


def load_seals(campaign) -> dict:
    """seals.yaml as {"commitment": hex | None, "turns": {n: {"printed": [...], "posted": hex | None}}}.
    A file the MJ broke by hand is refused by name."""
    path = campaign.root / SEALS_FILE
    empty = {"commitment": None, "turns": {}}
    if not path.exists():
        return empty
    raw = yamlio.loads(read_text(path, SEALS_FILE), SEALS_FILE, remember=True) or {}
    turns = raw.get("turns") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or not isinstance(turns if turns is not None else {}, dict):
        raise InputError("seals_bad", file=SEALS_FILE)
    out = {"commitment": raw.get("commitment") if isinstance(raw.get("commitment"), str) else None, "turns": {}}
    for key, entry in (turns or {}).items():
        if isinstance(key, bool) or not isinstance(key, int) or not isinstance(entry, dict):
            raise InputError("seals_bad", file=SEALS_FILE)
        printed = entry.get("printed") or []
        posted = entry.get("posted")
        if not isinstance(printed, list) or not all(isinstance(c, str) for c in printed) or \
                (posted is not None and not isinstance(posted, str)):
            raise InputError("seals_bad", file=SEALS_FILE)
        out["turns"][key] = {"printed": list(printed), "posted": posted}
    return out


def _save(campaign, seals: dict) -> None:
    turns = {}
    for n in sorted(seals["turns"]):
        entry = seals["turns"][n]
        turns[n] = {"printed": entry["printed"], **({"posted": entry["posted"]} if entry.get("posted") else {})}
    header = ("# The codes pbp printed in the public posts (pbp/engine/seal.py): for each turn, every code\n"
              "# a run printed (oldest first) and `posted`, the one the thread shows (pbp posted).\n")
    atomic_write(campaign.root / SEALS_FILE, header + seals_yaml({"commitment": seals["commitment"], "turns": turns}))


#: a code as pbp writes it, which YAML reads as a text without quotes: hex digits, one
#: of them a letter at least (all digits would be a number), not `0b` and binary digits
_PLAIN_CODE = Lazy("(?!0b[01]*$)(?=[0-9]*[a-f])[0-9a-f]+")


def seals_yaml(data: dict) -> str:
    """seals.yaml's text, as `yamlio.dumps` writes it. Written here line by line
    when every value is a code as pbp writes it: the file is written again at
    every turn, and PyYAML takes some 15 ms for 500 turns (a cost that grew with
    the campaign). Anything else (a file edited by hand) is left to PyYAML."""
    commit, turns = data["commitment"], data["turns"]
    values = [] if commit is None else [commit]
    for entry in turns.values():
        values += entry["printed"] + ([entry["posted"]] if "posted" in entry else [])
    if not all(isinstance(v, str) and _PLAIN_CODE.fullmatch(v) for v in values) or \
            not all(type(n) is int for n in turns):
        return yamlio.dumps(data)
    lines = [f"commitment: {'null' if commit is None else commit}", "turns:" if turns else "turns: {}"]
    for n, entry in turns.items():
        lines.append(f"  {n}:")
        lines += ["    printed:", *(f"    - {code}" for code in entry["printed"])] if entry["printed"] \
            else ["    printed: []"]
        if "posted" in entry:
            lines.append(f"    posted: {entry['posted']}")
    return "\n".join(lines) + "\n"


def record_printed(campaign, n: int, code: str) -> None:
    """Keep the code a run of turn n just printed (and, at set-up, the commitment)."""
    seals = load_seals(campaign)
    if n == 0:
        seals["commitment"] = commitment(campaign.secret)
    entry = seals["turns"].setdefault(n, {"printed": [], "posted": None})
    if not entry["printed"] or entry["printed"][-1] != code:
        entry["printed"].append(code)
    _save(campaign, seals)


def record_posted(campaign, n: int, code: str) -> None:
    seals = load_seals(campaign)
    entry = seals["turns"].setdefault(n, {"printed": [], "posted": None})
    entry["posted"] = code
    _save(campaign, seals)


def printed_code(campaign, n: int) -> str | None:
    """The last code pbp printed for turn n, if any."""
    printed = load_seals(campaign)["turns"].get(n, {}).get("printed") or []
    return printed[-1] if printed else None


class Problem(Record):
    """A difference between the archive and the codes printed or posted: a
    catalogue key and its parameters; `serious` ones fail `pbp verify`."""

    __slots__ = ("key", "params", "serious")

    def __init__(self, key: str, params: dict, serious: bool = True):
        self.key, self.params, self.serious = key, params, serious


def problems(campaign, codes: dict[int, str] | None = None) -> list[Problem]:
    """Where the archive no longer matches what pbp printed or the MJ posted
    (`codes`: the archive's, default `archive_codes` with the digests remembered)."""
    seals = load_seals(campaign)
    codes = codes if codes is not None else archive_codes(campaign, remembered=True)
    out: list[Problem] = []
    now = commitment(campaign.secret)
    if seals["commitment"] and seals["commitment"] != now:
        where = "campaign.yaml" if campaign.config.get("secret") is not None else "secret.yaml"
        out.append(Problem("seal_commitment_changed", {"was": seals["commitment"], "now": now, "file": where}))
    unsealed = [n for n in codes if n not in seals["turns"] or not seals["turns"][n]["printed"]]
    changed: list[int] = []  # turns whose code is no longer the one printed or posted
    for n, entry in sorted(seals["turns"].items()):
        printed, posted = entry["printed"], entry["posted"]
        if n not in codes:
            if posted:
                out.append(Problem("seal_posted_undone", {"turn": n, "posted": short(posted)}))
            continue
        code = codes[n]
        if (posted or (printed[-1] if printed else code)) != code:
            changed.append(n)
            if len(changed) > 1:  # a later code follows from the first changed one
                continue
            if posted:
                out.append(Problem("seal_posted_changed", {"turn": n, "posted": short(posted), "now": short(code)}))
            else:
                out.append(Problem("seal_printed_changed", {"turn": n, "printed": short(printed[-1]),
                                                            "now": short(code)}))
        elif not posted and len(set(printed)) > 1:
            out.append(Problem("seal_reprinted", {"turn": n, "count": len(set(printed)),
                                                  "codes": [short(c) for c in printed]}, serious=False))
    if len(changed) > 1:
        out.append(Problem("seal_changed_later", {"turns": changed[1:], "first": changed[0]}))
    if unsealed and seals["turns"]:
        out.append(Problem("seal_not_printed", {"turns": unsealed}, serious=False))
    return out
