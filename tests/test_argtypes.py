"""The one type language of order arguments (pbp/argtypes.py): compiled from the
rulesets' data, checking a player's values against what the ruleset knows
(`Ruleset.arg_context`), and used by the order form and the import."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.base.errors import PbpError
from pbp.cli import main
from pbp.model import orders as od
from pbp.model.argcontext import ArgContext
from pbp.model.argtypes import ArgDefinitionError, compile_types
from pbp.model.ruleset import Refusals, Resolution, Ruleset, Scenario
from tests.helpers import copy_example, pbp

SCENARIO = Scenario({}, {}, {"lena": {"character": "Léna Corbeau"}, "basile": {"character": "Basile Ferrant"},
                             "li": {"character": "Li-Wei"}})
FACTS = {"places": {"hall": "Grand hall", "cave": "Cave voûtée", "tour": "Tour nord"},
         "adjacent": {"hall": "Grand hall", "tour": "Tour nord"},
         "items": {"corde": "Corde de chanvre", "dague": "Dague", "lampe": "Lampe"},
         "carried": {"corde": "Corde de chanvre"},
         "alive": ["lena", "basile"], "in_sight": ["basile", "li"]}


class TypesRuleset(Ruleset):
    """A ruleset whose only rules are an order schema, and who knows the FACTS."""

    id = "types"

    def __init__(self, actions: dict, arg_types: dict | None = None, facts: dict | None = None):
        self.rules = {"actions": actions, "arg_types": arg_types or {}}
        self.facts = FACTS if facts is None else facts

    def setup(self, scenario, dice, quiet=False):
        return Resolution({}, [])

    def resolve(self, state, scenario, orders, gm_orders, dice):
        return Resolution(state, [])

    def arg_context(self, state, scenario, player):
        return self.facts

    def check_orders(self, state, scenario, orders):
        """What the rules know refuses what the file's shape let through."""
        problems = Refusals()
        types = compile_types(self.rules)
        context = ArgContext(scenario, actor=orders.player, facts=self.arg_context(state, scenario, orders.player))
        for action in orders.actions:
            types.action(self.actions, action.id).check(action.arg, context, action.at, problems)
        return problems


def judged(rs: Ruleset, text: str, player: str = "lena") -> tuple[list, list[PbpError]]:
    """An order file read (shape) then judged by the rules (facts): its actions and errors."""
    parsed, errors = od.parse_player_orders(text, "orders/lena.yaml", ruleset=rs, scenario=SCENARIO, turn=1,
                                            expected_player=player, facts=rs.arg_context({}, SCENARIO, player))
    if parsed is not None and not errors:
        errors = od.check_rules(parsed, {}, rs, SCENARIO)
    return (parsed.actions if parsed is not None else []), errors


def one_error(rs, text) -> PbpError:
    _, errors = judged(rs, text)
    assert len(errors) == 1, [e.text("en") for e in errors]
    return errors[0]


# -- the types that know the game -------------------------------------------------------------

def test_a_place_out_of_reach_is_refused_naming_the_places_within_reach():
    rs = TypesRuleset({"aller": {"arg": {"type": "place", "adjacent": True}}})
    actions, errors = judged(rs, "actions:\n  - aller: tour nord\n")
    assert errors == [] and actions[0].arg == "tour"
    error = one_error(rs, "actions:\n  - aller: cave\n")
    assert error.file == "orders/lena.yaml" and error.line == 2
    assert error.text("fr") == ("orders/lena.yaml:2: Cave voûtée n'est pas à portée d'ici. "
                                "Valeurs possibles : Grand hall, Tour nord.")
    assert error.text("en").endswith("Cave voûtée cannot be reached from here. Valid values: Grand hall, Tour nord.")


def test_an_unknown_place_is_refused_with_the_closest_name():
    rs = TypesRuleset({"aller": {"arg": "place"}})
    error = one_error(rs, "actions:\n  - aller: Gran hall\n")
    assert error.key == "arg_unknown_place" and error.params["suggestion"] == "Grand hall"
    assert "Cave voûtée" in error.text("fr")


def test_a_name_several_places_share_asks_for_more_of_it():
    rs = TypesRuleset({"aller": {"arg": "place"}}, facts={"places": {"n": "Tour nord", "s": "Tour sud"}})
    error = one_error(rs, "actions:\n  - aller: tour\n")
    assert error.text("en") == ("orders/lena.yaml:2: `tour` may mean several things: write more of the name. "
                                "Valid values: Tour nord, Tour sud.")


def test_an_item_not_carried_is_refused_naming_what_the_player_carries():
    rs = TypesRuleset({"utiliser": {"arg": "item"}, "jeter": {"arg": {"type": "list", "of": "item"}}})
    assert judged(rs, "actions:\n  - utiliser: corde\n")[0][0].arg == "corde"
    error = one_error(rs, "actions:\n  - utiliser: dague\n")
    assert error.text("fr") == ("orders/lena.yaml:2: vous ne portez pas Dague. "
                                "Valeurs possibles : Corde de chanvre.")
    error = one_error(rs, "actions:\n  - jeter: [corde, lampe]\n")
    assert error.key == "arg_item_not_carried" and error.params["value"] == "Lampe"


def test_a_character_must_be_in_play_in_sight_and_someone_else_as_declared():
    rs = TypesRuleset({"viser": {"arg": {"type": "character", "alive": True, "in_sight": True, "others": True}},
                       "parler": {"arg": "character"}})
    assert judged(rs, "actions:\n  - viser: Basile\n")[0][0].arg == "basile"
    for name in ("Léna", "Wei"):  # herself; out of play
        error = one_error(rs, f"actions:\n  - viser: {name}\n")
        assert error.key == "bad_target" and error.params["valid"] == ["basile"]
    assert judged(rs, "actions:\n  - parler: Wei\n")[0][0].arg == "li"  # no condition: anyone


def test_without_facts_a_place_is_taken_as_written_and_checked_later_by_the_rules():
    rs = TypesRuleset({"aller": {"arg": "place"}}, facts={})
    actions, errors = judged(rs, "actions:\n  - aller: Salle B\n")
    assert errors == [] and actions[0].arg == "Salle B"


def test_a_direction_without_values_is_one_of_the_four_in_either_language():
    rs = TypesRuleset({"aller": {"arg": "direction"}})
    assert [a.arg for a in judged(rs, "actions:\n  - aller: north\n")[0]] == ["nord"]
    error = one_error(rs, "actions:\n  - aller: haut\n")
    assert error.text("en").endswith("Valid values: north, east, south, west.")
    assert compile_types(rs.rules).action(rs.actions, "aller").describe("en") == "north | east | south | west"


# -- compiling: a ruleset's mistake is the ruleset's -----------------------------------------

@pytest.mark.parametrize("actions, arg_types, said", [
    ({"a": {"arg": "lieux"}}, {}, "unknown argument type 'lieux'"),
    ({"a": {"arg": "boucle"}}, {"boucle": {"type": "list", "of": "boucle"}}, "refers to itself"),
    ({"a": {"arg": {"type": "place", "carried": True}}}, {}, "do not apply to `place`"),
])
def test_a_wrong_declaration_is_a_definition_error_naming_where(actions, arg_types, said):
    with pytest.raises(ArgDefinitionError, match=said):
        compile_types({"actions": actions, "arg_types": arg_types}).action(actions, "a")


# -- the form and the import use the same types ------------------------------------------------

def test_the_order_form_lists_whom_the_player_may_target(tmp_path: Path):
    root = copy_example("wizard-duels", tmp_path)
    r = pbp("orders", "--player", "lena", cwd=root)
    assert r.exit_code == 0, r.output
    assert "#   - stupefix: joueur    (en anglais\xa0: stun)\n#       parmi\xa0: Basile Ferrant\n" in r.output
    assert "Léna Corbeau\n" not in r.output  # not herself: `others` is the rules' default


def test_the_import_asks_among_the_targets_the_type_allows(tmp_path: Path):
    root = copy_example("wizard-duels", tmp_path)
    def say(message):
        return CliRunner().invoke(main, ["-C", str(root), "orders", "import", "--player", "lena", "-"], input=message)

    r = say("Je lance Stupefix sur Léna !\n")  # herself: not a target the rules allow, so not read as one
    assert r.exit_code == 1
    assert "stupefix : il manque ce sur quoi porte l'action. Valeurs possibles : Basile Ferrant." in r.output
    r = say("Je lance Stupefix sur Basile !\n")
    assert r.exit_code == 0 and "  - stupefix: basile\n" in r.output


def test_the_import_offers_the_names_the_type_offers():
    rs = TypesRuleset({"aller": {"arg": {"type": "place", "adjacent": True}}})
    names = rs.import_names({}, SCENARIO, "lena")
    assert [(e.value, e.label) for e in names["aller"]] == [("hall", "Grand hall"), ("tour", "Tour nord")]


# -- property: a value is accepted, or refused by a PbpError on its line saying what is valid ---

#: what each refusal of an argument says would be valid (its parameters)
SAYS_VALID = {"arg_missing": "expected", "arg_type": "expected", "arg_range": "low", "bad_choice": "valid",
              "unknown_player_arg": "valid", "ambiguous_player_arg": "valid", "bad_target": "valid",
              "arg_ambiguous_name": "valid",
              "arg_unknown_place": "valid", "arg_place_out_of_reach": "valid",
              "arg_unknown_item": "valid", "arg_item_not_carried": "valid", "unknown_field": "valid",
              "field_missing": "field",
              "list_length": "low", "text_too_long": "limit", "prose_too_long": "limit", "arg_unexpected": None}

flags = st.fixed_dictionaries({}, optional={"optional": st.booleans()})
leaf = st.one_of(
    st.just(None),
    st.sampled_from(["text", "int", "player", "character", "place", "item", "direction"]),
    st.builds(lambda f, p: {"type": "text", "prose": p, **f}, flags, st.booleans()),
    st.builds(lambda f, lo, hi: {"type": "int", "min": lo, "max": hi, **f}, flags, st.integers(-5, 5),
              st.integers(-5, 20)),
    st.builds(lambda f, v: {"type": "choice", "values": v, "aliases": {"zz": v[0]}, **f}, flags,
              st.lists(st.sampled_from(["nord", "sud", "oui", "non", "1"]), min_size=1, max_size=3, unique=True)),
    st.builds(lambda f, a, s, o: {"type": "character", "alive": a, "in_sight": s, "others": o, **f}, flags,
              st.booleans(), st.booleans(), st.booleans()),
    st.builds(lambda f, a: {"type": "place", "adjacent": a, **f}, flags, st.booleans()),
    st.builds(lambda f, c: {"type": "item", "carried": c, **f}, flags, st.booleans()),
)
specs = st.recursive(leaf, lambda inner: st.one_of(
    st.builds(lambda of, lo, hi: {"type": "list", "of": of, "min": lo, "max": hi}, inner, st.integers(0, 2),
              st.integers(1, 3)),
    st.builds(lambda fields, short: {"type": "map", "fields": fields, **({"short": short} if short else {})},
              st.dictionaries(st.sampled_from(["cible", "salle", "objet"]), inner, min_size=1, max_size=3),
              st.sampled_from([None, "cible", "salle"]))), max_leaves=5)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 30), st.text(max_size=10), st.sampled_from(
    ["Basile", "lena", "Wei", "hall", "cave", "Tour", "corde", "dague", "nord", "north", "zz", "x" * 400]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["cible", "salle", "objet", "arme"]), inner,
                                                 max_size=3)), max_leaves=6)
facts = st.fixed_dictionaries({}, optional={key: st.sampled_from([{}, FACTS[key]]) for key in FACTS})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs, values, facts)
def test_every_type_accepts_a_value_or_refuses_it_on_its_line_saying_what_is_valid(spec, value, known):
    rs = TypesRuleset({"agir": {"arg": spec}}, facts=known)
    text = yaml.safe_dump({"actions": [{"agir": value}]}, allow_unicode=True)
    actions, errors = judged(rs, text)
    for error in errors:
        assert isinstance(error, PbpError)
        assert error.key in SAYS_VALID, error.key
        assert error.file == "orders/lena.yaml" and isinstance(error.line, int), (error.key, error.line)
        wanted = SAYS_VALID[error.key]
        assert wanted is None or wanted in error.params, (error.key, error.params)
        for lang in ("fr", "en"):
            assert error.text(lang).startswith("orders/lena.yaml:")
    if not errors:
        assert [a.id for a in actions] == ["agir"]
