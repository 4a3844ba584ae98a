"""La chasse à l'homme written as data (campaigns/manhunt-data/rules.yaml) against
the built-in manhunt ruleset, in the same labyrinth (campaigns/manhunt/world.yaml),
on the same scenarios with the same forced dice: the noise, fatigue and stress
totals, the cells and the items found must be equal.

The scenarios keep to what data can say. What it cannot (rules.yaml's header lists
it): the hunters (no fight, no shot, no hunters' phase; a noise multiple always
brings its +2 stress, the built-in only when a hunter is free), traps, the panic's
two random steps, the fast move's turn to the right or left at a wall, a searched
cell left empty, the forced drop at fatigue level 4. The last test shows one of
these differences on purpose (the panic)."""

from __future__ import annotations

import copy

import pytest

from pbp.base import yamlio
from pbp.model import orders as od, ruleset
from pbp.model.dice import Dice
from pbp.model.ruleset import Refusals, Scenario
from pbp.render.render import package_dir

CAMPAIGNS = package_dir("campaigns")
WORLD = yamlio.load_file(CAMPAIGNS / "manhunt" / "world.yaml")
HUNTERS = yamlio.load_file(CAMPAIGNS / "manhunt" / "characters.yaml")["hunters"]
#: the built-in's item names -> rules.yaml's item ids
ITEMS = {spec["nom"]: ident for ident, spec in yamlio.load_file(CAMPAIGNS / "manhunt-data" / "rules.yaml")
         ["objets"].items()}


class Game:
    """The same game in both rulesets: `play` one turn from raw order lists with
    the built-in's roll labels (`lucy.fouille.table`), renamed for the data's."""

    LABELS = {"fouille.table": "fouille.fouille"}

    def __init__(self, starts: dict[str, str], inventory: dict[str, list[str]] | None = None):
        from pbp.datarules import load
        from pbp.rulesets.data import DataRuleset

        inventory = inventory or {}
        roster = {h: {"character": h.capitalize()} for h in starts}
        self.builtin = ruleset.get("manhunt")
        pejis = {h: {"start": c, "inventory": list(inventory.get(h, []))} for h, c in starts.items()}
        self.b_sc = Scenario(copy.deepcopy(WORLD), {"pejis": pejis, "hunters": copy.deepcopy(HUNTERS)}, roster)
        self.data = DataRuleset(None, load.read(CAMPAIGNS / "manhunt-data"))
        sheets = {h: {"lieu": c, "objets": [ITEMS[i] for i in inventory.get(h, [])]} for h, c in starts.items()}
        self.d_sc = Scenario({}, sheets, roster)
        assert self.builtin.validate_scenario(self.b_sc) == [] and self.data.validate_scenario(self.d_sc) == []
        self.b_state = self.builtin.setup(self.b_sc, Dice("t", 0)).state
        self.d_state = self.data.setup(self.d_sc, Dice("t", 0)).state
        self.turn = 0

    def _orders(self, rs, sc, state, player, raw):
        problems = Refusals()
        actions = od.parse_actions(raw, rs, sc, problems)
        assert not problems, problems
        orders = od.PlayerOrders(player, self.turn + 1, actions)
        return orders, [r.key for r in rs.check_orders(state, sc, orders)]

    def refused(self, player, raw) -> tuple[list, list]:
        return (self._orders(self.builtin, self.b_sc, self.b_state, player, raw)[1],
                self._orders(self.data, self.d_sc, self.d_state, player, raw)[1])

    def play(self, forced: dict | None = None, **raw):
        self.turn += 1
        forced = forced or {}
        renamed = {}
        for label, total in forced.items():
            handle, _, rest = label.partition(".")
            if rest.startswith("fouille.") and rest != "fouille.table":  # the sub-table: chained in the data
                rest = "fouille.fouille." + rest.split(".", 1)[1]
            if not rest.startswith("panique."):  # the panic's random steps: the data rolls none
                renamed[f"{handle}.{self.LABELS.get(rest, rest)}"] = total
        self.b_state = self._resolve(self.builtin, self.b_sc, self.b_state, raw, forced)
        self.d_state = self._resolve(self.data, self.d_sc, self.d_state, raw, renamed)
        return self

    def _resolve(self, rs, sc, state, raw, forced):
        orders = {}
        for handle in rs.players_to_play(state, sc):
            orders[handle], refused = self._orders(rs, sc, state, handle, raw.get(handle, []))
            assert refused == [], (rs.id, refused)
        gm = od.GmOrders(self.turn, orders={})
        dice = Dice("t", self.turn, forced)
        state = rs.resolve(copy.deepcopy(state), sc, orders, gm, dice).state
        assert dice.unused_forced() == [], (rs.id, dice.unused_forced())
        return state

    def numbers(self, handle) -> tuple[tuple, tuple]:
        """(noise, fatigue, stress) in the built-in and in the data."""
        b, d = self.b_state["pejis"][handle], self.d_state["characters"][handle]["gauges"]
        return (b["noise"], b["fatigue"], b["stress"]), (d["bruit"], d["fatigue"], d["stress"])

    def cells(self, handle) -> tuple[str, str]:
        return self.b_state["pejis"][handle]["cell"], self.d_state["characters"][handle]["place"]

    def items(self, handle) -> tuple[list, list]:
        data = self.d_state["characters"][handle]["items"]
        return self.b_state["pejis"][handle]["inventory"], [next(n for n, i in ITEMS.items() if i == d) for d in data]


def same(pair):
    builtin, data = pair
    assert builtin == data
    return builtin


def test_melete_turn_one_a_closed_door_and_a_search_for_traps():
    g = Game({"lucy": "S01"}).play(lucy=[{"deplacement_normal": "nord"}, "recherche_pieges"])
    assert same(g.numbers("lucy")) == (2, 0, 5)  # door +1/+2, search for traps +1/+3
    assert same(g.cells("lucy")) == "S05"


def test_back_through_the_door_left_open_costs_nothing():
    g = Game({"lucy": "S01"}).play(lucy=[{"deplacement_normal": "nord"}])
    g.play(lucy=[{"deplacement_normal": "sud"}])
    assert same(g.numbers("lucy")) == (1, 0, 2)
    assert same(g.cells("lucy")) == "S01"


@pytest.mark.parametrize("table, sub, item", [
    (1, 1, "fendeur de crâne"), (4, 20, "épée à 2 mains"), (5, 19, "gilet de cuir"), (10, 9, "rondache"),
    (11, 1, "potion de force"), (12, 8, "cape en peau d'écorce"), (13, 20, "rations de survie"),
    (14, None, "pierre précieuse"), (15, None, "pierre précieuse"), (16, None, None), (20, None, None)])
def test_a_search_finds_the_same_item_at_the_same_cost(table, sub, item):
    forced = {"lucy.fouille.table": table}
    if sub is not None:
        find = "arme" if table <= 4 else "equipement" if table <= 10 else "potion"
        forced[f"lucy.fouille.{find}"] = sub
    g = Game({"lucy": "S01"}).play(forced, lucy=["fouille"])
    assert same(g.numbers("lucy")) == (2, 0, 2)
    assert same(g.items("lucy")) == ([item] if item else [])


def test_the_fast_move_crosses_two_cells_and_the_flight_costs_more():
    g = Game({"ysolde": "S05", "corbin": "S05"})
    g.play(ysolde=[{"deplacement_rapide": "est"}], corbin=[{"fuite": "est"}])
    assert same(g.cells("ysolde")) == "C02" and same(g.cells("corbin")) == "C02"
    assert same(g.numbers("ysolde")) == (2, 1, 1)
    assert same(g.numbers("corbin")) == (2, 2, 3)


def test_rest_and_hiding_floor_at_zero():
    g = Game({"corbin": "S05"})
    g.play(corbin=[{"fuite": "est"}])
    g.play(corbin=["repos"])
    assert same(g.numbers("corbin")) == (2, 0, 2)  # fatigue 2 - 3 stays at 0
    g.play(corbin=["se_cacher"])
    assert same(g.numbers("corbin")) == (0, 0, 3)  # noise 2 - 3 stays at 0, +1 stress


def test_a_noise_multiple_of_five_brings_two_stress():
    """The built-in also brings a hunter (rolled among the neighbouring cells); the
    data only says so to the Péji, and gives the stress."""
    g = Game({"lucy": "S01"})
    g.play(lucy=[{"deplacement_normal": "nord"}, "recherche_pieges"])
    g.play({"lucy.fouille.table": 12, "lucy.fouille.potion": 8}, lucy=["fouille"])
    g.play(lucy=[{"revetir_armure": "cape en peau d'écorce"}])
    assert same(g.numbers("lucy")) == (6, 0, 9)
    assert g.b_state["pejis"]["lucy"]["worn"] == ["cape en peau d'écorce"]
    assert g.d_state["characters"]["lucy"]["gauges"]["protection"] == 1


@pytest.mark.parametrize("item, numbers", [
    ("rations de survie", (1, 0, 3)),       # fatigue 2 - 3 -> 0; +1 noise for the action
    ("dés de Ranald", (1, 2, 0)),           # stress 3 - 3
    ("potion de restauration suprême", (1, 0, 0)),
])
def test_an_item_used_does_what_it_says_and_is_used_up(item, numbers):
    g = Game({"corbin": "S05"}, {"corbin": [item]})
    g.play(corbin=[{"fuite": "est"}])
    g.play(corbin=[{"utilisation_equipement": item}])
    assert same(g.numbers("corbin")) == (numbers[0] + 2, *numbers[1:])
    assert same(g.items("corbin")) == []


def test_both_refuse_a_wall_an_item_not_carried_and_the_same_action_twice():
    g = Game({"lucy": "S01"})
    for raw in ([{"deplacement_normal": "ouest"}], [{"utilisation_equipement": "clé"}],
                ["recherche_pieges", "recherche_pieges"]):
        builtin, data = g.refused("lucy", raw)
        assert builtin and data, raw


def test_both_refuse_to_run_from_fatigue_level_three():
    g = Game({"corbin": "S05"})
    g.play(corbin=[{"fuite": "est"}])  # S05 -> C01 -> C02: fatigue 2
    g.play(corbin=[{"fuite": "ouest"}])  # back to S05: fatigue 4
    assert same(g.numbers("corbin")) == (4, 4, 6)
    assert g.refused("corbin", [{"deplacement_rapide": "est"}]) == ([], [])
    # fatigue 6 (level 3), as a state edited by the MJ says (a third flight would also panic)
    g.b_state["pejis"]["corbin"]["fatigue"] = g.d_state["characters"]["corbin"]["gauges"]["fatigue"] = 6
    builtin, data = g.refused("corbin", [{"deplacement_rapide": "est"}])
    assert builtin and data == ["requires"]


def test_the_panic_is_where_the_data_says_less():
    """Stress 10: both make the Péji lose the next turn with +3 noise and +3 fatigue,
    but the built-in also runs two random steps (rolled, crossing doors for free) and
    brings the stress back to 5 only once the lost turn is over; the data keeps the
    Péji where they are and sets the stress to 5 at once."""
    g = Game({"lucy": "S05"})
    g.play(lucy=["recherche_pieges"])   # stress 3
    g.play(lucy=["recherche_pieges"])   # 6
    g.play(lucy=["recherche_pieges"])   # 9
    g.play({"lucy.panique.1": 1, "lucy.panique.2": 1}, lucy=["recherche_pieges"])  # 12: panic
    (b_noise, b_fatigue, b_stress), (d_noise, d_fatigue, d_stress) = g.numbers("lucy")
    # the panic's +3 noise reaches 7: a noise multiple, +2 stress in both
    assert d_noise == b_noise == 7 and d_fatigue == b_fatigue == 3 and d_stress == 5 and b_stress == 14
    assert g.d_state["characters"]["lucy"]["lost"] == 1 and g.b_state["pejis"]["lucy"]["lost_turns"] == 1


def test_the_mj_deals_the_hunters_wounds_through_gm_yaml(tmp_path):
    """The hunters are the MJ's: `blessures_infligees: {lucy: 2}` in gm.yaml raises Mélétê's
    wounds 1 -> 3 at the end of the turn, and the level 3 it arrives at adds its fatigue (+2)
    and stress (+3); level 2, jumped over, does nothing (`à: 2`: arrives at 2)."""
    from pbp.base import yamlio
    from tests.helpers import copy_example, pbp, write

    root = copy_example("manhunt-data", tmp_path)
    before = yamlio.load_file(root / "turns/003/state.yaml")["characters"]["lucy"]["gauges"]
    write(root, "turns/004/gm.yaml", {"orders": {"blessures_infligees": {"lucy": 2}}})
    r = pbp("run", "--no-commit", cwd=root)
    assert r.exit_code == 0, r.output
    after = yamlio.load_file(root / "turns/004/state.yaml")["characters"]["lucy"]["gauges"]
    assert before["blessures"] == 1 and after["blessures"] == 3
    replay = copy_example("manhunt-data", tmp_path / "again")
    assert pbp("run", "--no-commit", cwd=replay).exit_code == 0
    plain = yamlio.load_file(replay / "turns/004/state.yaml")["characters"]["lucy"]["gauges"]
    assert after["fatigue"] == plain["fatigue"] + 2 and after["stress"] == min(plain["stress"] + 3, 10)
