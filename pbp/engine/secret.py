"""Where the dice secret lives: secret.yaml, a file git ignores.

Every die of a campaign comes from its secret (pbp/model/dice.py): whoever reads it
can tell every future roll. A campaign folder is a git repository, and MJs push
it to a forge as a backup; so the secret is kept out of the history, in
secret.yaml, which `pbp init` writes and the campaign's .gitignore lists (and
pbp's own commits leave out even without it: pbp/engine/archive.py). The price: a
clone of the backup has no secret, so the MJ keeps a copy of secret.yaml
elsewhere (the README says so). At the end `pbp reveal` puts it in the bundle,
where `pbp audit` reads it as the campaign does.

Campaigns made before kept the secret in campaign.yaml: they keep working, and
`pbp status`, `pbp setup` and `pbp run` tell the MJ to `pbp secret move` it
(the history already holds it: moving it keeps the next commits clean, it does
not clean the past; the secret cannot change mid-game, turn 0 committed to it).
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.base import yamlio
from pbp.base.errors import InputError, PbpError
from pbp.engine.campaign import CAMPAIGN_FILE, SECRET_FILE, atomic_write, read_secret, read_text


def new_secret() -> str:
    import secrets

    return secrets.token_hex(16)


def file_text(secret: str, lang: str) -> str:
    from pbp.base import i18n

    return "".join(f"# {line}\n" for line in i18n.t(lang, "secret_file_header").split("\n")) \
        + yamlio.dumps({"secret": secret})


_SECRET_LINE = re.compile(r"^secret\s*:")


def without_secret(text: str) -> str | None:
    """campaign.yaml's text without its `secret:` line (and the comment just above
    that speaks of it), or None when that text would read as anything else than
    the same configuration without the secret (a secret written over several
    lines, a flow mapping): then the MJ edits by hand."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if _SECRET_LINE.match(line)), None)
    if at is None:
        return None
    start = at
    while start > 0 and lines[start - 1].startswith("#") and "secret" in lines[start - 1].casefold():
        start -= 1
    new = "\n".join(lines[:start] + lines[at + 1:])
    before = yamlio.loads(text, "campaign.yaml")
    try:
        after = yamlio.loads(new, "campaign.yaml")
    except PbpError:
        return None
    expected = {k: v for k, v in before.items() if k != "secret"}
    return new if after == expected else None


def move(root: Path, lang: str) -> bool:
    """campaign.yaml's secret written to secret.yaml (git ignores it) and taken out of
    campaign.yaml. False when campaign.yaml holds none."""
    from pbp.engine import archive

    text = read_text(root / CAMPAIGN_FILE, CAMPAIGN_FILE)
    config = yamlio.loads(text, CAMPAIGN_FILE)
    if not isinstance(config, dict) or config.get("secret") is None:
        return False
    value = str(config["secret"])
    new_config = without_secret(text)
    if new_config is None:
        raise InputError("secret_move_by_hand", file=CAMPAIGN_FILE, line=yamlio.line_of(text, ("secret",)))
    existing = read_secret(root)
    if existing is not None and existing != value:
        raise InputError("secret_twice", file=SECRET_FILE)
    archive.ignore(root)
    atomic_write(root / SECRET_FILE, file_text(value, lang))
    atomic_write(root / CAMPAIGN_FILE, new_config)
    return True
