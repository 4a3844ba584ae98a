"""`pbp orders import`: a player's plain-text message read into their order file.

- the reading itself (pbp/plaintext/importer.py), on the bundled examples' states: sequence
  words, lists, quotes, negations, typos, questions instead of guesses, hostile text;
- the corpus of tests/import_corpus/ (scripts/import_corpus.py): per ruleset, 0 wrong
  and at least 90 % exact on the unambiguous messages;
- a round trip: every legal order the bots can play, written out in words by a
  small generator, reads back as the same order, for every ruleset the core finds;
- the command, with its exact messages in French and English.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import sys
import zlib
from pathlib import Path

import pytest

from pbp.base import yamlio
from pbp.engine.campaign import open_campaign
from pbp.model import ruleset, vocabulary
from pbp.model.argtypes import compile_types
from pbp.model.dice import FreeDice
from pbp.model.orders import GmOrders, PlayerOrders, parse_actions
from pbp.model.ruleset import SIMULATE, Refusals
from pbp.plaintext import import_orders, importer, wording
from tests.helpers import REPO, copy_example, pbp

BUILTIN = ("manhunt", "murder", "skirmish", "d100")


def _corpus_module():
    spec = importlib.util.spec_from_file_location("import_corpus", REPO / "scripts" / "import_corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["import_corpus"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


CORPUS = _corpus_module()


@pytest.fixture(scope="module")
def examples():
    return {rid: open_campaign(REPO / "campaigns" / rid) for rid in BUILTIN}


def read(campaign, player: str, text: str) -> import_orders.Imported:
    return import_orders.import_message(campaign, player, text)


def actions(result) -> list:
    return [a.id if a.arg is None else {a.id: a.arg} for a in result.reading.actions]


def keys(result) -> list[str]:
    return [q.key for q in result.reading.questions]


def perceiving(tmp_path, **cells):
    """A copy of the manhunt example whose hunters stand where `cells` says
    (`h4="S05"`) in the state turn 4 is played from."""
    root = copy_example("manhunt", tmp_path)
    path = root / "turns" / "003" / "state.yaml"
    state = yamlio.load_file(path)
    for hid, cell in cells.items():
        state["hunters"][hid]["cell"] = cell
    path.write_text(yamlio.dumps(state), encoding="utf-8")
    return open_campaign(root)


# -- the reading --------------------------------------------------------------------------

def test_sequence_words_lists_and_roleplay(examples):
    mh = examples["manhunt"]
    r = read(mh, "lucy", "Mélétê retient son souffle.\n1) déplacement normal : est 2) recherche de pièges\n"
                         "« Pas un bruit… »\n")
    assert actions(r) == [{"deplacement_normal": "est"}, "recherche_pieges"]
    assert r.reading.roleplay == "Mélétê retient son souffle.\n« Pas un bruit… »"
    r = read(mh, "lucy", "je fouille la salle puis je file vers le nord et ensuite l'est")
    assert actions(r) == ["fouille", {"deplacement_rapide": ["nord", "est"]}]
    assert [e.key for e in r.problems] == ["manhunt.too_many_points"]
    assert r.text == ("# lu dans un message du joueur par « pbp orders import » : vérifiez-le avant de jouer le tour\n"
                      "player: lucy\nturn: 4\nactions:\n  - fouille\n  - deplacement_rapide: [nord, est]\n")


def test_accents_case_and_one_letter_typos_are_forgiven(examples):
    mh = examples["manhunt"]
    assert actions(read(mh, "lucy", "JE ME CAHCE")) == ["se_cacher"]
    assert actions(read(mh, "lucy", "- fouile\n- recherhce de pieges")) == ["fouille", "recherche_pieges"]
    # a short word must be spelt right: "suite" is no typo of "fuite"
    assert keys(read(mh, "lucy", "par la suite, rien.")) == []
    # nor is a character's name a typo of an action's words (Mélétê / melee)
    assert actions(read(mh, "lucy", "Mélétê se repose.")) == ["repos"]


def test_names_by_any_unambiguous_part(examples, tmp_path):
    r = read(examples["manhunt"], "lucy", "j'attaque Grimnir")
    assert actions(r) == [{"combat": "Grimnir le Traqueur"}]
    # both elves in sight of Mélétê (Isarn here, Sylas next door): "l'elfe" is either
    mh = perceiving(tmp_path, h4="S05", h9="C01")
    r = read(mh, "lucy", "j'attaque l'elfe")
    assert keys(r) == ["import_ambiguous"]
    assert r.reading.questions[0].text("fr") == (
        "ligne 1 (« j'attaque l'elfe ») : « l'elfe » peut désigner plusieurs valeurs de « chasseur ». "
        "Valeurs possibles : Isarn l'Elfe noir, Sylas l'Elfe sylvain.")
    # an item by a part of its name, among the player's own belongings
    r = read(mh, "lucy", "je jette la cape")
    assert actions(r) == [{"jeter": ["cape en peau d'écorce"]}]


@pytest.mark.parametrize("text, key", [
    ("si un chasseur arrive, je fuis vers le sud", "import_conditional"),
    ("je me cache ou je fuis vers l'est", "import_alternative"),
    ("je me cache ?", "import_asks"),
    ("Je me cache après avoir fouillé la salle.", "import_order_unclear"),
    ("je vais vers la cuisine", "import_missing"),
    ("j'attaque le Troll", "import_unknown_name"),
    ("je vais au nord et à l'est", "import_two_values"),
    ("Je tends l'oreille.", "import_no_order"),
    ("Actions :\n- je tends l'oreille", "import_no_action"),
    ("je me repose deux fois", "import_repeat"),
])
def test_what_is_not_clear_is_asked_never_guessed(examples, text, key):
    r = read(examples["manhunt"], "lucy", text)
    assert keys(r) == [key] and r.text is None and r.receipt is None


def test_negated_and_nothing(examples):
    mh = examples["manhunt"]
    assert actions(read(mh, "lucy", "Je ne fouille pas, je me repose.")) == ["repos"]
    assert actions(read(mh, "lucy", "je n'ai pas le temps de fouiller, je cours vers l'est")) == \
        [{"deplacement_rapide": ["est"]}]
    r = read(mh, "lucy", "Je ne bouge pas ce tour.")
    assert actions(r) == [] and r.reading.nothing and r.receipt["state"] == "blank"


def test_labels_sections_notes_and_greetings(examples):
    mh = examples["manhunt"]
    r = read(mh, "lucy", "Salut MJ !\nActions :\n- déplacement normal : est\nRP : Elle se cache presque.\n"
                         "Merci !")
    assert actions(r) == [{"deplacement_normal": "est"}]
    assert r.reading.roleplay == "Elle se cache presque."  # thanks are said to the MJ, not roleplay
    r = read(mh, "lucy", "HRP : absente ce week-end\nJe me cache.")
    assert actions(r) == ["se_cacher"] and r.reading.roleplay == ""


def test_every_ruleset_reads_its_own_words(examples):
    assert actions(read(examples["murder"], "damien", "je hante la cafétéria et j'avertis Bruno")) == \
        [{"hanter": {"salle": "cafeteria", "avertir": "bruno"}}]
    assert actions(read(examples["skirmish"], "alice", "Aria avance en 6,6 puis attaque la brute à l'épée")) == \
        [{"deplacer": {"perso": "aria", "vers": ["6-6"]}}, {"melee": {"perso": "aria", "cible": "brute",
                                                                    "arme": "epee"}}]
    r = read(examples["d100"], "kira", "Kira tente de convaincre le garde (Mental, persuasion +2, intention claire)")
    assert actions(r) == [{"jet": {"carac": "mental", "competence": "persuasion", "intention": "clair",
                                   "but": "convaincre le garde"}}]


def test_hostile_text_is_read_safely(examples):
    mh = examples["manhunt"]
    r = read(mh, "lucy", "je me cache\x1b[31m\u202e !\x00\r\nElle\x07 tremble.")
    assert actions(r) == ["se_cacher"] and r.reading.roleplay == "Elle tremble."
    # a long message of words and brackets is read in one pass (no backtracking)
    text = ("je me cache (((( « « [[ " * 2000) + "\n" + "a" * 30000
    r = read(mh, "lucy", text)
    assert r.reading is not None
    # a message may order at most 100 actions, and asks at most 30 things (then says there is more)
    r = read(mh, "lucy", "je me cache\n" * 150 + "je vais vers la cuisine\n" * 50)
    assert len(r.reading.actions) == 100 and len(r.reading.questions) == 31
    assert keys(r)[0] == "import_too_many" and keys(r)[-1] == "import_more_questions"
    assert r.reading.questions[0].text("en") == (
        "line 101 (`je me cache`): too many actions (101); at most 100 in a message, and 20 in a sentence.")
    # the written file is valid YAML whatever the roleplay holds
    r = read(mh, "lucy", "je me cache\n: - [x] {y} # z\n  |\n'\"")
    parsed = yamlio.loads(r.text)
    assert parsed["roleplay"].strip() == ": - [x] {y} # z\n|\n'\""


# -- the corpus ---------------------------------------------------------------------------

@pytest.mark.parametrize("rid", CORPUS.rulesets())
def test_corpus(rid):
    figures = CORPUS.run(rid)
    shown = figures.line() + "".join(f"\n  #{i} {o}: {t.strip()!r}\n      {r}" for i, o, t, r in figures.misses)
    assert figures.messages >= 40, shown
    assert figures.wrong == 0, shown
    assert figures.exact_rate >= 0.9, shown


def test_the_corpus_covers_every_builtin_ruleset():
    assert set(CORPUS.rulesets()) == set(BUILTIN)


# -- the round trip -----------------------------------------------------------------------

def _states(rid: str, tmp_path) -> list:
    """(ruleset, state, scenario) to play from: the example's (or skeleton's) every
    state, and a few turns of a synthetic game."""
    from tests.test_conformance import new_campaign, sources

    out = []
    for source in sources(rid):
        campaign = open_campaign(new_campaign(tmp_path, rid, source))
        for n in range(campaign.last_turn() + 1):
            out.append((campaign.ruleset, campaign.state(n), campaign.scenario))
    rs = ruleset.get(rid)
    if SIMULATE in rs.capabilities:
        rng = random.Random(11)
        scenario = rs.sample_scenario(3, rng)
        dice = FreeDice(5)
        state = rs.setup(scenario, dice).state
        for n in range(1, 4):
            if rs.is_over(state):
                break
            out.append((rs, state, scenario))
            orders = {p: PlayerOrders(p, n, rs.bot_orders(state, scenario, p, rng))
                      for p in rs.players_to_play(state, scenario)}
            state = rs.resolve(state, scenario, orders, GmOrders(n, quiet=True), dice).state
    return [(r, s, sc) for r, s, sc in out if not r.is_over(s)]


def _phrasings(rs, g: wording.Grammar, action_id: str) -> list[str]:
    """The phrasings of an action that say nothing more than the action."""
    spec = rs.actions[action_id] or {}
    mine = (rs.phrasings().get("actions") or {}).get(action_id) or {}
    found = []
    for text in [action_id, spec.get("en"), *(spec.get("aliases") or []), *mine.get("fr", []), *mine.get("en", [])]:
        if not isinstance(text, str) or "{" in text:
            continue
        trigger, words = wording._phrasing(action_id, text)
        node = g.triggers
        for w in words:
            node = node.get(w, {})
        if words and {t.action for t in node.get(None, [])} == {action_id} and not set(words) & {"ne", "n", "pas"}:
            found.append(text.replace("_", " "))
    return found


def _name(names, value, rng) -> str:
    """A name that says `value` and nothing else in its vocabulary."""
    for entry in names.entries:
        if entry.value == value or str(value) in entry.names:
            whole = [n for n in entry.names if n not in entry.weak]
            clashes = {vocabulary.words(n) for other in names.entries if other is not entry for n in other.names}
            whole = [n for n in whole if vocabulary.words(n) not in clashes] or whole
            return max(whole, key=len) if rng.random() < 0.7 else rng.choice(whole)
    return str(value)


def words_for(rs, names: dict, player_name: str, option, rng) -> str:
    """A bot's legal actions written as a player would: the actor first, the action's
    words, then each value by its name (after its label, sometimes), joined by
    sequence words or as a list."""
    g = wording.grammar(rs)
    parts = []
    for action in option:
        slots = g.slots[action.id]
        arg = action.arg
        values = arg if isinstance(arg, dict) else ({None: arg} if slots else {})
        head, tail = [], []
        for s in slots:
            value = values.get(s.field)
            arg = compile_types(rs.rules).action(rs.actions, action.id)
            field = arg.fields.get(s.field) if s.field else None
            if value is None or (field is not None and field.has_default and value == field.default):
                continue
            label = g.labels.get(s.field)
            said = rng.choice(sorted(" ".join(p) for p in label.items)) + " " if label and label.items and (
                s.kind == "int" or s.prose or rng.random() < 0.5) else ""
            if s.kind == "int":
                text = f"{said}{value:+d}" if said else str(value)
            elif s.item == "int" or s.key in g.numbers:  # a square: its numbers ([4, 2] or "4-2")
                text = ", ".join(re.findall(r"\d+", " ".join(str(v) for v in value)))
            elif s.kind == "list":
                text = " et ".join(_name(names[s.key], v, rng) for v in value)
            elif s.prose:
                text = said + str(value)
            else:
                text = said + _name(names[s.key], value, rng)
            (head if s.field is not None and s.field == g.subject else tail).append(text)
        parts.append(" ".join(head + [rng.choice(_phrasings(rs, g, action.id))] + tail))
    if not parts:
        return rng.choice(["je reste là.", "Je ne bouge pas.", f"{player_name} reste sur place."])
    style = rng.randrange(3)
    if style == 0:
        return rng.choice([" puis ", ", then ", ". Ensuite ", " ; "]).join(parts)
    if style == 1:
        return "\n".join(f"- {p}" for p in parts)
    return " ".join(f"{i}) {p}" for i, p in enumerate(parts, 1))


def _canonical(rs, names: dict, actions) -> list:
    """Actions compared by what they name: a text value is its vocabulary's entry."""
    g = wording.grammar(rs)
    out = []
    for a in actions:
        by_field = {s.field: s for s in g.slots[a.id]}

        def same(value, s):
            if isinstance(value, list):
                return [same(v, s) for v in value]
            if isinstance(value, str) and s is not None and s.key in names:
                for entry in names[s.key].entries:
                    if value == entry.value or vocabulary.fold(value) in {vocabulary.fold(n) for n in entry.names}:
                        return ("entry", entry.value)
            return value

        if isinstance(a.arg, dict):
            out.append((a.id, {k: same(v, by_field.get(k)) for k, v in a.arg.items() if v is not None}))
        else:
            out.append((a.id, same(a.arg, by_field.get(None))))
    return out


@pytest.mark.parametrize("rid", ruleset.ids())
def test_every_legal_order_written_in_words_reads_back(tmp_path, rid):
    rng = random.Random(zlib.crc32(rid.encode()))  # the same draw on every run (str hash is salted)
    checked = 0
    for rs, state, scenario in _states(rid, tmp_path):
        people = [x for h in scenario.roster for x in (h, scenario.name(h))]
        for player in rs.players_to_play(state, scenario):
            if rs.lost_turn(state, scenario, player):
                continue
            compiled = {k: wording.Names(v) for k, v in rs.import_names(state, scenario, player).items()}
            options = rs.legal_orders(state, scenario, player)
            for option in rng.sample(options, min(len(options), 12)):
                text = words_for(rs, compiled, scenario.name(player), option, rng)
                reading = importer.read(text, rs, compiled, people, player, rs.closed_actions(state, scenario, player))
                assert reading.questions == [], (text, [q.text("en") for q in reading.questions])
                problems = Refusals()
                got = parse_actions([a.id if a.arg is None else {a.id: a.arg} for a in reading.actions], rs,
                                    scenario, problems)
                assert not problems, (text, problems)
                assert _canonical(rs, compiled, got) == _canonical(rs, compiled, option), (text, got, option)
                checked += 1
    # every ruleset checks some; those with bots of their own, many (synthetic games too)
    assert checked >= (100 if SIMULATE in ruleset.get(rid).capabilities else 1), checked


# -- the ruleset data ---------------------------------------------------------------------

def _strings(node, where=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, f"{where}.{k}")
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, where)
    else:
        yield where, node


@pytest.mark.parametrize("rid", BUILTIN)
def test_phrasings_are_words_and_every_source_names_something(examples, rid):
    rs = examples[rid].ruleset
    data = rs.phrasings()
    # a bare `on` or `no` in YAML is a boolean, not a word
    assert [(w, v) for w, v in _strings(data) if not isinstance(v, str) and ".set." not in w
            and not (w.endswith(".numbers") and isinstance(v, int))] == []
    assert set(data.get("actions") or {}) <= set(rs.actions)
    campaign = examples[rid]
    state = campaign.state(campaign.last_turn())
    # a player's own names may be none (Aria and Bran know no spell): some player's are some
    found = set()
    for player in rs.players_to_play(state, campaign.scenario):
        found |= {k for k, v in rs.import_names(state, campaign.scenario, player).items() if v}
    declared = [k for k, v in (data.get("values") or {}).items() if isinstance(v, dict) and "from" in v]
    assert [k for k in declared if k not in found] == [], "a `from:` path of phrasings.yaml finds nothing"


def test_the_language_words_are_words():
    data = yamlio.load_file(Path(importer.__file__).with_name("import_words.yaml"))
    assert [(w, v) for w, v in _strings(data) if not isinstance(v, str)] == []


# -- the command ---------------------------------------------------------------------------

@pytest.fixture
def manhunt(tmp_path):
    root = copy_example("manhunt", tmp_path)
    (root / "turns/004/orders/lucy.yaml").unlink()
    return root


def _english(root: Path) -> None:
    config = root / "campaign.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("lang: fr", "lang: en"), encoding="utf-8")


MESSAGE = "Mélétê retient son souffle.\nJe vais vers l'est, puis je cherche des pièges.\n"
FILE_FR = ("# lu dans un message du joueur par « pbp orders import » : vérifiez-le avant de jouer le tour\n"
           "player: lucy\nturn: 4\nactions:\n  - deplacement_normal: est\n  - recherche_pieges\n"
           "roleplay: |\n  Mélétê retient son souffle.\n")
RECEIPT_FR = ("[size=150][b]Accusé de réception — La chasse à l'homme, tour 4[/b][/size]\n\n"
              "[b]Mélétê[/b] (lucy),\nvos ordres sont bien arrivés et sont valides. Voici ce qui sera joué\u00a0:\n"
              "[list]\n[*]déplacement normal : est\n[*]recherche de pièges\n[/list]\n\n"
              "Votre roleplay, tel qu'il sera cité\u00a0:\n[quote=\"Mélétê\"]Mélétê retient son souffle.[/quote]\n")


def test_import_prints_the_file_the_check_and_the_receipt(manhunt, tmp_path):
    message = tmp_path / "message.txt"
    message.write_text(MESSAGE, encoding="utf-8")
    r = pbp("orders", "import", "--player", "lucy", message, cwd=manhunt)
    assert r.exit_code == 0, r.output
    assert r.stdout == (FILE_FR + "\npbp check : ordres valides (2 actions).\n\n"
                        "Accusé de réception à renvoyer au joueur :\n" + RECEIPT_FR)
    assert not (manhunt / "turns/004/orders/lucy.yaml").exists()


def test_import_write_is_what_check_and_receipt_then_see(manhunt):
    from click.testing import CliRunner

    from pbp.cli import main

    r = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import", "--player", "Lucy", "--write"],
                           input=MESSAGE)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Écrit : turns/004/orders/lucy.yaml\n\npbp check : ordres valides (2 actions).\n")
    assert (manhunt / "turns/004/orders/lucy.yaml").read_text(encoding="utf-8") == FILE_FR
    assert pbp("receipt", "--player", "lucy", cwd=manhunt).stdout == RECEIPT_FR
    assert pbp("check", cwd=manhunt).exit_code == 0
    again = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import", "--player", "lucy", "--write"],
                               input="je me cache")
    assert again.exit_code == 1
    assert again.stderr == ("turns/004/orders/lucy.yaml: un fichier d'ordres existe déjà pour ce tour ; "
                            "ajoutez --force pour le remplacer.\n")
    forced = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import", "--player", "lucy", "--write",
                                       "--force"], input="je me cache")
    assert forced.exit_code == 0
    assert "  - se_cacher\n" in (manhunt / "turns/004/orders/lucy.yaml").read_text(encoding="utf-8")


def test_import_asks_in_the_campaign_language_and_writes_nothing(manhunt):
    from click.testing import CliRunner

    from pbp.cli import main

    def run(*args, text):
        return CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import", "--player", "lucy", *args],
                                  input=text)

    r = run("--write", text="je tire sur le Troll\nje vais vers la cuisine")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == (
        "ligne 1 (« je tire sur le Troll ») : « le Troll » ne désigne rien de connu (« chasseur »). "
        "Valeurs possibles : Grimnir le Traqueur.\n"
        "ligne 2 (« je vais vers la cuisine ») : deplacement_normal : il manque « direction ». "
        "Valeurs possibles : nord, est, sud, ouest.\n"
        "2 points à faire préciser au joueur : rien n'a été écrit.\n")
    assert not (manhunt / "turns/004/orders/lucy.yaml").exists()
    _english(manhunt)
    r = run(text="si un chasseur arrive, je fuis")
    assert r.exit_code == 1
    assert r.stderr == ("line 1 (`si un chasseur arrive, je fuis`): a conditional order (`if …`) cannot be played: "
                        "ask the player what their character does. Valid values: flight.\n"
                        "1 point to ask the player about: nothing was written.\n")


def test_import_in_english_and_refused_orders(manhunt):
    from click.testing import CliRunner

    from pbp.cli import main

    _english(manhunt)
    r = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import", "--player", "lucy", "--format",
                                  "markdown"], input="I search the room and then I rest.")
    assert r.exit_code == 1  # what `pbp check` refuses is said, and the exit code says it too
    assert r.stdout == (
        "# read from the player's message by `pbp orders import`: check it before running the turn\n"
        "player: lucy\nturn: 4\nactions:\n  - search\n  - rest\n\n"
        "pbp check would refuse these orders (1 problem):\n"
        "  turns/004/orders/lucy.yaml:6: these actions cost 4 points; 2 at most a turn.\n\n"
        "Receipt to send back to the player:\n"
        "### Receipt — La chasse à l'homme, turn 4\n\n"
        "**Mélétê** (lucy),  \nyour orders have arrived but cannot be played as they are:\n\n"
        "- These actions cost 4 points; 2 at most a turn.\n\n"
        "Fix them and send the file again; otherwise you will play the default orders.\n")


def test_the_message_is_bounded_and_read_from_regular_files_only(manhunt, tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"je me cache " * 6000)
    r = pbp("orders", "import", "--player", "lucy", big, cwd=manhunt)
    assert r.exit_code == 1
    assert r.stderr == (f"{big}: fichier trop gros : 65537 octets, au plus 65536 (limite « order_file_bytes »).\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = pbp("orders", "import", "--player", "lucy", fifo, cwd=manhunt)
    assert r.exit_code == 1
    assert r.stderr == (f"{fifo}: ce n'est pas un fichier ordinaire : pbp ne lit un message que dans un fichier "
                        "ou sur l'entrée standard.\n")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("je me caché".encode("utf-8") + " et caché".encode("latin-1"))  # half UTF-8: no reading
    r = pbp("orders", "import", "--player", "lucy", bad, cwd=manhunt)
    assert r.exit_code == 1 and "n'est pas en UTF-8" in r.stderr
    ansi = tmp_path / "ansi.txt"
    ansi.write_bytes("Je me cache. « Pas un bruit… »".encode("cp1252"))  # Notepad's ANSI: read, with a note
    r = pbp("orders", "import", "--player", "lucy", ansi, cwd=manhunt)
    assert r.exit_code == 0 and "lu en Windows-1252" in r.stderr and "« Pas un bruit… »" in r.stdout


def test_orders_still_prints_the_blank_form(manhunt):
    r = pbp("orders", "--player", "lucy", cwd=manhunt)
    assert r.exit_code == 0 and r.stdout.startswith("# Ordres de Mélétê (lucy) pour le tour 4.\n")
    r = pbp("orders", cwd=manhunt)
    assert r.exit_code == 2 and "Erreur : il manque l'option « --player »." in r.stderr
    r = pbp("orders", "--player", "lucy", "--write", cwd=manhunt)
    assert r.exit_code == 0 and (manhunt / "turns/004/orders/lucy.yaml").exists()
    # the player may be named before `import` too
    from click.testing import CliRunner

    from pbp.cli import main

    (manhunt / "turns/004/orders/lucy.yaml").unlink()
    r = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "--player", "lucy", "import"], input="je me cache")
    assert r.exit_code == 0 and "  - se_cacher\n" in r.stdout
    r = CliRunner().invoke(main, ["-C", str(manhunt), "orders", "import"], input="je me cache")
    assert r.exit_code == 2 and "Erreur : il manque l'option « --player »." in r.stderr


def test_an_unknown_player_is_refused(tmp_path):
    root = copy_example("murder", tmp_path)
    r = pbp("orders", "import", "--player", "nobody", cwd=root)
    assert r.exit_code == 1 and r.stderr.startswith("joueur inconnu « nobody »")
