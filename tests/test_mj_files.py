"""The MJ's own files (campaign.yaml, world.yaml, characters.yaml, turns/NNN/state.yaml)
are held to their schemas when the campaign loads them.

By hand, on every example campaign: the classic mistakes, with their exact messages
naming file, line and field. Then a seeded mutation of each example's files (a key
deleted, a value replaced by text, a number, a list, a mapping, null): whatever the MJ
writes, `pbp check` and `pbp status` either work or end with exit 1 and a message naming
the file; never an internal error, and the campaign folder is left as it was.
"""

from __future__ import annotations

import copy
import os
import random
import re
from pathlib import Path

import pytest

from pbp.base import yamlio
from pbp.base.errors import InputError, PbpError
from pbp.model import ruleset, schema
from pbp.render.render import package_dir
from tests.helpers import copy_example, pbp
from tests.toy import Toy

EXAMPLES = sorted(d.name for d in package_dir("campaigns").iterdir() if (d / "campaign.yaml").exists())


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file of a folder with what a write would change (pbp writes by replacing)."""
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            info = os.stat(os.path.join(folder, name))
            out[os.path.join(folder, name)] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return out


def last_state(root: Path) -> str:
    done = max(p.name for p in (root / "turns").iterdir() if (p / "state.yaml").exists())
    return f"turns/{done}/state.yaml"


def broken(tmp_path: Path, name: str, rel: str, old: str, new: str, lang: str = "fr") -> Path:
    """A copy of an example with one mistake: `old` replaced by `new` in `rel`."""
    root = copy_example(name, tmp_path)
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if lang != "fr":
        config = root / "campaign.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", f"lang: {lang}"), encoding="utf-8")
    return root


# -- the classic mistakes, by hand ------------------------------------------------------------

CASES = [
    # manhunt
    ("manhunt", "turns/003/state.yaml", "    cell: S05\n", "", "status",
     "turns/003/state.yaml:11: il manque « pejis.lucy.cell » (un identifiant de world.yaml (cells))."),
    ("manhunt", "world.yaml", "  S02:\n    name: l'Atelier du Tanneur\n", "  S02: l'Atelier du Tanneur\n  S02b:\n    name: x\n",
     "status", "world.yaml:13: « cells.S02 » : attendu un dictionnaire (des lignes « clé: valeur »), trouvé le texte "
     "« l'Atelier du Tanneur »."),
    ("manhunt", "characters.yaml", "  lucy: {name: Mélétê, start: S01, inventory: []}\n", "  lucy: [Mélétê, S01]\n",
     "check", "characters.yaml:6: « pejis.lucy » : attendu un dictionnaire (des lignes « clé: valeur »), trouvé une "
     "liste."),
    ("manhunt", "world.yaml", "nord: {to: S05, door: porte, state: fermee}", "nord: {to: s05, door: porte, state: fermee}",
     "check", "world.yaml:11: « cells.S01.exits.nord.to » : « s05 » n'existe pas dans world.yaml (cells). "
     "Vouliez-vous dire « S05 » ?"),
    ("manhunt", "world.yaml", "      ouest: {to: S01, door: rideau, state: fermee}\n", "", "check",
     "world.yaml:12: la case S01 mène à S02, mais S02 n'a pas de sortie vers S01."),
    ("manhunt", "turns/003/state.yaml", "    target: lucy\n", "    target: lucie\n", "status",
     "turns/003/state.yaml:83: « hunters.h1.target » : « lucie » n'existe pas dans state.yaml (pejis). Vouliez-vous "
     "dire « lucy » ? Valeurs possibles : lucy, johannes, ysolde, corbin."),
    ("manhunt", "campaign.yaml", "turn_limit: 10", "turn_limit: dix", "check",
     "campaign.yaml:13: « rules.turn_limit » : attendu un nombre entier, trouvé le texte « dix »."),
    ("manhunt", "characters.yaml", "  johannes: {name: Johannes, start: S02, inventory: [corde de chanvre]}",
     "  johannes: {name: Johannes, start: S02, inventory: [corde de chanvres]}", "check",
     "characters.yaml:7: « pejis.johannes.inventory[1] » : « corde de chanvres » n'existe pas dans rules (items). "
     "Vouliez-vous dire « corde de chanvre » ?"),
    ("manhunt", "characters.yaml", "  lucy: {name: Mélétê, start: S01, inventory: []}",
     "  lucy: {name: Mélétê, genre: x, start: S01, inventory: []}", "check",
     "characters.yaml:6: « pejis.lucy.genre » : « x » n'est pas une valeur possible. Valeurs possibles : f, m, n."),
    # murder
    ("murder", "turns/008/state.yaml", "    room: labo_chimie\n", "", "status",
     "turns/008/state.yaml:25: il manque « players.alice.room » (un identifiant de world.yaml (rooms))."),
    ("murder", "turns/008/state.yaml", "    died:\n      turn: 3\n      room: serre\n      cause: trap\n", "    died: null\n",
     "status", "turns/008/state.yaml:81: « players.damien.died » : attendu un dictionnaire (des lignes « clé: valeur »),"
     " trouvé rien (null)."),
    ("murder", "turns/008/state.yaml", "    by: yann", "    by: yan", "status",
     "turns/008/state.yaml:178: « traps.chambre_froide.by » : « yan » n'existe pas dans state.yaml (players). "
     "Vouliez-vous dire « yann » ? Valeurs possibles : alice, bruno, chloe, damien, elsa, fabien, gaelle, hugo, margot, "
     "yann."),
    ("murder", "world.yaml", "  hall: {name: le Hall d'accueil}", "  hall: [le Hall d'accueil]", "check",
     "world.yaml:5: « rooms.hall » : attendu du texte ou un dictionnaire (des lignes « clé: valeur »), ou null, trouvé "
     "une liste."),
    ("murder", "world.yaml", "  - [hall, couloir, 3]", "  - {from: hall, to: couloirs, length: 3}", "check",
     "world.yaml:20: « passages[1].to » : « couloirs » n'existe pas dans world.yaml (rooms). Vouliez-vous dire "
     "« couloir » ?"),
    ("murder", "characters.yaml", "innocents:\n", "innocents: [1, 2]\nold:\n", "check",
     "characters.yaml:6: « innocents » : attendu un dictionnaire (des lignes « clé: valeur »), trouvé une liste."),
    ("murder", "campaign.yaml", "    murderers: 2", "    murderers: deux", "check",
     "campaign.yaml:20: « rules.composition.murderers » : attendu un nombre entier, trouvé le texte « deux »."),
    # skirmish
    ("skirmish", "world.yaml", "  largeur: 14", "  largeur: quatorze", "check",
     "world.yaml:3: « grille.largeur » : attendu un nombre entier, trouvé le texte « quatorze »."),
    ("skirmish", "characters.yaml", "personnages:", "personnages: [aria, bran]\nold:", "check",
     "characters.yaml:2: « personnages » : attendu un dictionnaire (des lignes « clé: valeur »), trouvé une liste.\n"
     "characters.yaml:3: « old » : champ inconnu. Valeurs possibles : personnages."),
    ("skirmish", "characters.yaml", "    faction: aube\n    position: [3, 3]", "    faction: aurore\n    position: [3, 3]",
     "check", "characters.yaml:6: « personnages.aria.faction » : « aurore » n'existe pas dans world.yaml (factions). "
     "Vouliez-vous dire « aube » ? Valeurs possibles : aube, ombre."),
    ("skirmish", "turns/003/state.yaml", "    type: creature", "    type: monstre", "status",
     "turns/003/state.yaml:351: « units.brute.type » : « monstre » n'est pas une valeur possible. Valeurs possibles : "
     "character, creature, door, object."),
    ("skirmish", "turns/003/state.yaml", "    - 8\n    - 8\n", "    - 8\n    - 9\n", "status",
     "turns/003/state.yaml:304: units.fenn.position : la case [8, 9] n'est pas sur la grille (x de 0 à 13, y de 0 à 8) "
     "ou est un mur."),
    # d100
    ("d100", "turns/003/state.yaml", "    pv: 11\n    force: 5", "    pv: onze\n    force: 5", "status",
     "turns/003/state.yaml:3: « characters.kira.pv » : attendu un nombre entier, trouvé le texte « onze »."),
    ("d100", "world.yaml", "factions:", "factions: [empire, syndicat]\nold:", "check",
     "world.yaml:3: « factions » : attendu un dictionnaire (des lignes « clé: valeur »), ou null, trouvé une liste.\n"
     "world.yaml:4: « old » : champ inconnu. Valeurs possibles : factions."),
    ("d100", "campaign.yaml", "title: Sauvetage sur Tellis IV", "title: [Sauvetage, Tellis]", "check",
     "campaign.yaml:5: « title » : attendu du texte, trouvé une liste."),
    ("d100", "characters.yaml", "  physique: 45\n", "  physique: quarante\n", "check",
     "characters.yaml:7: kira.physique : physique doit être un entier de 0 à 100 (trouvé : quarante)."),
    ("d100", "characters.yaml", "  physique: 45\n", "  genre: q\n  physique: 45\n", "check",
     "characters.yaml:7: kira.genre : genre « q » inconnu (f : féminin, m : masculin, n : neutre ; absent : "
     "tournures neutres). Valeurs possibles : f, m, n."),
]


@pytest.mark.parametrize("name, rel, old, new, command, expected", CASES,
                         ids=[f"{c[0]}-{c[1].split('/')[-1]}-{i}" for i, c in enumerate(CASES)])
def test_classic_mistakes_are_named_with_file_line_and_field(tmp_path, name, rel, old, new, command, expected):
    root = broken(tmp_path, name, rel, old, new)
    before = snapshot(root)
    r = pbp(command, cwd=root)
    assert r.exit_code == 1 and r.stderr == expected + "\n", r.stderr
    assert snapshot(root) == before


@pytest.mark.parametrize("name, rel, old, new, expected", [
    ("manhunt", "turns/003/state.yaml", "    cell: S05\n", "",
     "turns/003/state.yaml:11: `pejis.lucy.cell` is missing (an id from world.yaml (cells))."),
    ("murder", "turns/008/state.yaml", "    status: dead\n    room: null\n", "    status: alive\n    room: null\n",
     "turns/008/state.yaml:77: `players.damien.room`: expected an id from world.yaml (rooms), found nothing (null)."),
    ("skirmish", "world.yaml", "    position: [5, 7]", "    position: 5, 7",
     "world.yaml:16: `cibles.brute.position`: expected a list (`- value` lines), found the text `5, 7`."),
    ("d100", "world.yaml", "  empire: {nom: Garnison impériale}", "  empire: [Garnison impériale]",
     "world.yaml:4: `factions.empire`: expected text or a mapping (`key: value` lines), or null, found a list."),
], ids=lambda v: v if v in EXAMPLES else "")
def test_messages_in_english(tmp_path, name, rel, old, new, expected):
    root = broken(tmp_path, name, rel, old, new, lang="en")
    r = pbp("status", cwd=root)
    assert r.exit_code == 1 and r.stderr == expected + "\n", r.stderr


def test_every_problem_is_reported_not_only_the_first(tmp_path):
    root = copy_example("manhunt", tmp_path)
    state = root / "turns/003/state.yaml"
    text = state.read_text(encoding="utf-8")
    state.write_text(text.replace("    cell: S05\n", "").replace("    cell: C01\n", "    cell: [C01]\n")
                     .replace("    stress: 6\n", "    stress: -6\n"), encoding="utf-8")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        "turns/003/state.yaml:11: il manque « pejis.lucy.cell » (un identifiant de world.yaml (cells)).",
        "turns/003/state.yaml:29: « pejis.johannes.cell » : attendu un identifiant de world.yaml (cells), trouvé une "
        "liste.",
        "turns/003/state.yaml:51: « pejis.ysolde.stress » : -6 est trop petit (minimum 0).",
    ]


@pytest.mark.parametrize("content, expected", [
    ("ruleset: [manhunt]\nsecret: x\nplayers: {lucy: Lucy}\n",
     "campaign.yaml:1: « ruleset » : attendu du texte, trouvé une liste."),
    ("ruleset: toy\nsecret: x\nformat: [bbcode]\nplayers: {lucy: Lucy}\n",
     "campaign.yaml:3: « format » : attendu du texte, trouvé une liste."),
    ("ruleset: toy\nsecret: x\nplayers: {lucy: [Lucy, Lou]}\n",
     "campaign.yaml:3: « players.lucy » : attendu du texte ou un dictionnaire (des lignes « clé: valeur »), trouvé une "
     "liste."),
    ("ruleset: toy\nsecret: {a: 1}\nplayers: {lucy: Lucy}\n",
     "campaign.yaml:2: « secret » : attendu du texte, trouvé un dictionnaire."),
    ("- ruleset: toy\n", "campaign.yaml: le contenu doit être un dictionnaire YAML (des lignes « clé: valeur »)."),
])
def test_campaign_file_types(tmp_path, content, expected):
    (tmp_path / "campaign.yaml").write_text(content, encoding="utf-8")
    r = pbp("status", cwd=tmp_path)
    assert r.exit_code == 1 and r.stderr == expected + "\n", r.stderr


@pytest.mark.parametrize("name", EXAMPLES)
def test_world_or_characters_not_a_mapping(tmp_path, name):
    root = copy_example(name, tmp_path)
    (root / "characters.yaml").write_text("# sheets\n- kira\n- lucy\n", encoding="utf-8")
    r = pbp("check", cwd=root)
    assert r.exit_code == 1
    assert r.stderr == "characters.yaml:2: le contenu doit être un dictionnaire YAML (des lignes « clé: valeur »).\n"


def test_a_ruleset_without_schema_is_not_checked():
    assert Toy.schema() == {}
    assert set(ruleset.load_class("manhunt").schema()) == {"world", "characters", "state"}


# -- the schema language itself -----------------------------------------------------------------

def problems(spec, value, types=None, **context):
    node = schema.compile_node(spec, types)
    return [e.text("en") for e in schema.check(node, value, file="f.yaml", context=context)]


def test_schema_types_and_their_messages():
    spec = {"fields": {
        "n": {"type": "int", "min": 1, "max": 3}, "x": "number", "b": "bool", "d": "dice",
        "c": {"type": "choice", "values": ["nord", "sud"]}, "s": {"type": "str", "pattern": "^[a-z]+$"},
        "l": {"type": "list", "of": "int", "max": 1}, "t": {"type": "text", "nullable": True},
        "o": {"type": "str", "optional": True}, "m": {"type": "map", "keys": "str", "values": "int", "min": 1},
    }}
    value = {"n": 4, "x": True, "b": "oui", "d": "2d", "c": "nrd", "s": "Abc", "l": [1, "2"], "t": None, "m": {},
             "z": 1}
    assert problems(spec, value) == [
        "f.yaml: `n`: 4 is too large (maximum 3).",
        "f.yaml: `x`: expected a number, found true.",
        "f.yaml: `b`: expected true or false, found the text `oui`.",
        "f.yaml: `d`: invalid dice expression `2d` (examples: 1d10, 2d6+1, d%, 2d6+1d4-2).",
        "f.yaml: `c`: `nrd` is not a valid value. Did you mean `nord`? Valid values: nord, sud.",
        "f.yaml: `s`: `Abc` does not have the expected form (^[a-z]+$).",
        "f.yaml: `l`: 2 items; at most 1.",
        "f.yaml: `l[2]`: expected a whole number, found the text `2`.",
        "f.yaml: `m`: 0 items; at least 1 are needed.",
        "f.yaml: `z`: unknown field. Valid values: b, c, d, l, m, n, o, s, t, x.",
    ]
    assert problems(spec, []) == ["f.yaml: the file must hold a mapping (`key: value` lines); it holds a list."]


def test_schema_refs_covers_when_one_of_and_defaults():
    types = {"cell": {"type": "ref", "to": "world.cells"}}
    spec = {"fields": {
        "at": "cell", "room": {"type": "ref", "to": "world.rooms", "text": True},
        "who": {"type": "map", "covers": "roster", "values": {
            "fields": {"status": {"type": "choice", "values": ["alive", "dead"]}, "room": {"type": "cell", "nullable": True},
                       "door": {"type": "str", "default": "ouverture"}},
            "when": [{"if": {"status": "alive"}, "then": {"room": "cell"}}]}},
        "v": {"type": "one_of", "options": ["int", {"type": "list", "of": "int"}]},
    }}
    world = {"cells": {"S01": {}, "S02": {}}, "rooms": {101: "Hall"}}
    value = {"at": "S03", "room": "101", "who": {"lucy": {"status": "alive", "room": None}}, "v": "x"}
    assert problems(spec, value, types, world=world, roster=["lucy", "bob"]) == [
        "f.yaml: `at`: `S03` does not exist in world.yaml (cells). Did you mean `S02`? Valid values: S01, S02.",
        "f.yaml: `who.lucy.room`: expected an id from world.yaml (cells), found nothing (null).",
        "f.yaml: `who`: the entry for `bob` is missing (campaign.yaml (players)).",
        "f.yaml: `v`: expected a whole number or a list (`- value` lines), found the text `x`.",
    ]
    assert value["who"]["lucy"]["door"] == "ouverture"  # a default is filled in for the code that relies on it
    dead = {"at": "S01", "room": 101, "who": {"lucy": {"status": "dead", "room": None},
                                              "bob": {"status": "alive", "room": "S02"}}, "v": [1]}
    assert problems(spec, dead, types, world=world, roster=["lucy", "bob"]) == []


def test_schema_definition_errors_are_the_rulesets_bug():
    for spec in ({"type": "strng"}, {"type": "int", "values": [1]}, {"type": "choice"}, {"type": "ref"},
                 {"type": "one_of", "options": ["int"]}, {"fields": {"a": 3}}):
        with pytest.raises(schema.SchemaDefinitionError):
            schema.compile_node(spec)
    with pytest.raises(schema.SchemaDefinitionError, match="refers to itself"):
        schema.compile_node("a", {"a": {"type": "list", "of": "a"}})


def test_an_override_keeps_the_shape_of_the_rules_value():
    node = schema.from_example({"limit": 10, "ratio": 0.5, "dice": "1d6", "name": "x", "on": True,
                                "table": [{"max": 3, "find": "rien"}], "free": None})
    errors = schema.check(node, {"limit": 2.5, "ratio": 1, "dice": 4, "name": 3, "on": 1,
                                 "table": [{"max": "trois"}], "free": [1], "+new": "anything"},
                          file="campaign.yaml", path=("rules",))
    assert [e.text("en") for e in errors] == [
        "campaign.yaml: `rules.limit`: expected a whole number, found the number 2.5.",
        "campaign.yaml: `rules.name`: expected text, found the number 3.",
        "campaign.yaml: `rules.on`: expected true or false, found the number 1.",
        "campaign.yaml: `rules.table[1].max`: expected a whole number, found the text `trois`.",
    ]
    assert all(isinstance(e, InputError) for e in errors)


# -- mutations of every example's files ----------------------------------------------------------

MUTATIONS = ("delete", "texte", 7, [1, 2], {"x": 1}, None)
#: nodes mutated per file: half near the top of the file, half deeper
NODES_PER_FILE = 3
FILE_NAMED = re.compile(r"^(campaign\.yaml|world\.yaml|characters\.yaml|rules\.yaml|turns/\d{3}/(state\.yaml|gm\.yaml|orders/))")


def nodes(value, path=()):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield path + (key,)
        yield from nodes(item, path + (key,))


def mutated(data, path, mutation):
    data = copy.deepcopy(data)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if mutation == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(mutation)
    return data


#: each example's files the MJ edits (a data campaign has its rules.yaml, and no world.yaml)
MUTATED = [(name, which) for name in EXAMPLES for which in ("campaign", "world", "characters", "state", "rules")
           if which == "state" or (package_dir("campaigns") / name / f"{which}.yaml").is_file()]


@pytest.mark.parametrize("name, which", MUTATED, ids=[f"{n}-{w}" for n, w in MUTATED])
def test_mutated_files_never_break_pbp(tmp_path, name, which):
    root = copy_example(name, tmp_path)
    rel = last_state(root) if which == "state" else f"{which}.yaml"
    path = root / rel
    original = yamlio.load_file(path)
    rng = random.Random(f"{name}/{rel}")
    every = list(nodes(original))
    shallow = [p for p in every if len(p) <= 2]
    deep = [p for p in every if len(p) > 2] or shallow
    picked = rng.sample(shallow, min(len(shallow), NODES_PER_FILE // 2)) + \
        rng.sample(deep, min(len(deep), NODES_PER_FILE - NODES_PER_FILE // 2))
    cases = 0
    for node in picked:
        for mutation in MUTATIONS:
            path.write_text(yamlio.dumps(mutated(original, node, mutation)), encoding="utf-8")
            before = snapshot(root)
            for command in ("check", "status"):
                r = pbp(command, cwd=root)
                where = f"{rel} {node} -> {mutation!r}, pbp {command}"
                assert "Erreur interne" not in r.output and "Traceback" not in r.output, (where, r.output)
                assert r.exit_code in (0, 1), (where, r.output)
                if r.exit_code == 1:
                    lines = r.stderr.splitlines()
                    # a line under a message (indented: a formula and a caret under its error) goes with it
                    assert lines and all(FILE_NAMED.match(line) or line.startswith(" ") for line in lines) \
                        and FILE_NAMED.match(lines[0]), (where, r.stderr)
                cases += 1
            assert snapshot(root) == before, where
    assert cases == 2 * len(MUTATIONS) * len(picked) and len(picked) == NODES_PER_FILE


@pytest.mark.parametrize("name", EXAMPLES)
def test_validate_scenario_is_safe_on_any_data(name):
    """Simulations and tests call the hook on data no schema has checked: it reports,
    it never raises."""
    root = package_dir("campaigns") / name
    config = yamlio.load_file(root / "campaign.yaml")
    rs = ruleset.load_class(config["ruleset"]).for_campaign(root, config.get("rules") or {})
    roster = {str(h): v if isinstance(v, dict) else {"character": str(v)} for h, v in config["players"].items()}
    world = yamlio.load_file(root / "world.yaml") if (root / "world.yaml").is_file() else {}
    characters = yamlio.load_file(root / "characters.yaml")
    rng = random.Random(name)
    scenarios = [ruleset.Scenario(garbage, characters, roster) for garbage in ("texte", 7, [1, 2], None)]
    scenarios += [ruleset.Scenario(world, garbage, roster) for garbage in ("texte", 7, [1, 2], None)]
    for data, build in ((world, lambda w: ruleset.Scenario(w, characters, roster)),
                        (characters, lambda c: ruleset.Scenario(world, c, roster))):
        every = list(nodes(data))
        deep = [p for p in every if len(p) > 2]
        for node in [p for p in every if len(p) <= 2] + rng.sample(deep, min(len(deep), 25)):
            scenarios += [build(mutated(data, node, m)) for m in (*MUTATIONS, True)]
    for scenario in scenarios:
        found = rs.validate_scenario(scenario)
        assert isinstance(found, list) and all(isinstance(e, PbpError) and e.file for e in found)


def test_a_file_wrong_from_top_to_bottom_is_reported_whole():
    """Every problem is listed; past the first ones, no "did you mean" (each would compare
    with every valid value: quadratic on a big labyrinth)."""
    world = {"cells": {f"C{i:04d}": {"exits": {"nord": {"to": f"X{i:04d}"}}} for i in range(300)}}
    node = schema.compile_node({"fields": {"cells": {"type": "map", "values": {"fields": {"exits": {
        "type": "map", "values": {"fields": {"to": {"type": "ref", "to": "world.cells"}}}}}}}}})
    errors = schema.check(node, world, file="world.yaml", context={"world": world})
    assert len(errors) == 300 and errors[-1].params["path"] == "cells.C0299.exits.nord.to"
    assert sum(1 for e in errors if e.params.get("suggestion")) == schema.MAX_SUGGESTED
