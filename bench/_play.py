"""Playing turns the way an MJ does, for the benchmarks that need a campaign with
a history: bots choose each player's orders, which are written as the players'
YAML order files, and the real `pbp run` resolves them (and commits).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from _timing import PBP, CommandFailed

#: roleplay as players write it: accents, French quotes, and the odd character a
#: forum or Markdown would read as markup (pbp must quote it inert)
ROLEPLAY = [
    "{name} avance à pas feutrés, une main sur le mur.",
    "« Il y a quelqu'un ? » murmure {name}, qui regrette aussitôt d'avoir parlé.",
    "{name} compte ses pas : *douze*, puis treize. Le couloir ne finit pas.",
    "Le cœur battant, {name} retient son souffle [b]et attend[/b].",
    "{name} griffonne une flèche à la craie sur la pierre -> par ici.",
    "Une odeur de cire froide. {name} serre les dents et continue, coûte que coûte.",
    "{name} se retourne : rien. Pourtant, _quelque chose_ a bougé.",
    "{name} essuie le sang de sa lèvre et repart vers l'est, ou ce qu'il croit être l'est.",
]


def action_yaml(action):
    """An action as a player writes it: `fouille`, `deplacement_normal: nord`,
    `combat: {chasseur: h3}` (fields the bot left empty are not written)."""
    arg = action.arg
    if isinstance(arg, dict):
        arg = {k: v for k, v in arg.items() if v is not None}
    if arg is None or arg == {}:
        return action.id
    return {action.id: arg}


def write_orders(path: Path, player: str, turn: int, actions, roleplay: str | None) -> None:
    data = {"player": player, "turn": turn, "actions": [action_yaml(a) for a in actions]}
    if roleplay:
        data["roleplay"] = roleplay
    write_yaml(path, data)


class _Dumper(yaml.SafeDumper):
    """Multi-line text as a `|` block, the way people write narration and roleplay."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def write_yaml(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100),
                    encoding="utf-8")


def pbp(root: Path, *args: str, command: list[str] | None = None, env: dict | None = None
        ) -> subprocess.CompletedProcess:
    """Run pbp on a campaign (untimed: building, not measuring); `command`: another
    version's pbp (bench/_ab.py)."""
    done = subprocess.run([*(command or PBP), "-C", str(root), *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise CommandFailed(f"pbp {' '.join(args)} on {root}: exit {done.returncode}\n{done.stderr[-3000:]}")
    return done


def init(root: Path, ruleset: str, *extra: str, command: list[str] | None = None) -> None:
    """`pbp init` into its own git repository. bench/out/ lies inside pbp's own
    checkout: left to itself, `pbp init` would commit the campaign there."""
    from _timing import git, git_identity

    root.parent.mkdir(parents=True, exist_ok=True)
    pbp(root.parent, "init", str(root), "--ruleset", ruleset, "--no-git", *extra, command=command)
    git(root, "init", "-q")
    git_identity(root)
    (root / ".gitignore").write_text(".pbp.lock\n*.tmp\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"pbp init ({ruleset})")
