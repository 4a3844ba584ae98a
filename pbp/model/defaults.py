"""The core's defaults (pbp/model/defaults.yaml): the `limits` on what pbp reads,
the forums' post sizes, the missed-turn policy. A campaign's own values go over
them (pbp.engine.campaign); the reading of order files bounds itself by them.
"""

from __future__ import annotations

from pathlib import Path

from pbp.base import yamlio

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
_defaults: dict = {}


def defaults() -> dict:
    """The core's defaults (pbp/model/defaults.yaml): `limits` on what pbp reads."""
    if not _defaults:
        _defaults.update(yamlio.load_data_file(DEFAULTS_FILE) or {})
    return _defaults


def limits(overrides: dict | None = None) -> dict:
    """The input limits: the defaults with a campaign's `limits:` over them."""
    return {**defaults()["limits"], **(overrides or {})}
