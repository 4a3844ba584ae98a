"""A check's verdict: success by the check's sign, criticals by their faces, the
band the roll falls in, and the margin. Read by the turn (resolve.py) and by the
exact odds (odds.py), so that both judge a roll the same way."""

from __future__ import annotations

from . import rules as R


def judge(spec: dict, total: int, chance: int) -> dict:
    """A check's result: success by its sign, criticals by their faces, the band the roll is in."""
    sign = spec.get("success", "<=")
    success = {"<=": total <= chance, ">=": total >= chance, "<": total < chance, ">": total > chance}[sign]
    critical = None
    criticals, bands = R.derived(spec, "faces", _faces)
    for outcome, faces in criticals:
        if faces and faces[0] <= total <= faces[1]:
            critical, success = outcome, outcome == "success"
    band = None
    for item, faces in bands:
        if faces and faces[0] <= total <= faces[1]:
            band = R.words(item.get("text"), str(item["roll"]))
    margin = chance - total if sign in ("<=", "<") else total - chance
    return {"success": success, "critical": critical, "margin": margin, "band": band}


def _faces(spec: dict) -> tuple:
    """A check's critical faces and bands, read from the rules once:
    (((outcome, (low, high)), ...), ((band, (low, high)), ...))."""
    from pbp.datarules.lint import face_range

    criticals = tuple((outcome, face_range((spec.get("critical") or {}).get(outcome)))
                      for outcome in ("success", "failure"))
    return criticals, tuple((item, face_range(item["roll"])) for item in spec.get("bands") or [])
