"""data: a ruleset the MJ writes as data. A campaign saying `ruleset: data` has
its rules in `rules.yaml` beside campaign.yaml (docs/rules-format.md): stats,
gauges and their thresholds, random tables, checks, an action menu with costs
and prerequisites, the MJ's inputs, the end of the game. pbp reads it as a
stranger's file (pbp/datarules/format.py), compiles its formulas
(pbp/datarules/formula.py) and plays it here with everything the built-in
rulesets get: refusals naming what is valid, seeded dice forced by label,
posts from generic templates (templates/data/), exact odds, bots.

- rules.py    values of characters, words in two languages, audiences
- resolve.py  the set-up and the turn: effects, gauges, thresholds, the end
- tables.py   a table rolled in a turn: its row, a chained sub-table's, what the post shows
- checks.py   order legality (budget, costs, prerequisites, targets), the MJ's inputs
- balance.py  bots' legal orders, exact odds of every table and check
- odds.py     exact odds of pools (each number of successes) and opposed rolls (margins, scores)
- odds_sheet.py  `pbp odds --character X --target Y`: those odds' values read on the sheets
- places.py   places, doors, movement and items (pbp/datarules/places.py compiles them)
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.model.ruleset import ODDS, SIMULATE, Resolution, Ruleset, Scenario, plain_copy

from . import checks, rules as R
from .resolve import Turn, set_up


#: words the import cuts a message at: a name the rules declare is matched whole first
#: ("Fouiller et cacher" is one order), but a name that starts or ends with one ("Et
#: puis") would take every "et" of a message: no phrasing (its id and synonyms still are)
_SEQUENCE_WORDS = frozenset({"et", "puis", "ensuite", "and", "then"})


def _phrasing(name: str) -> bool:
    words = name.lower().split()
    return bool(words) and words[0] not in _SEQUENCE_WORDS and words[-1] not in _SEQUENCE_WORDS


class DataRuleset(Ruleset):
    id = "data"
    example = "energy-duel"
    capabilities = frozenset({ODDS, SIMULATE})

    def __init__(self, overrides: dict | None = None, rules_file=None):
        """`rules_file`: the campaign's rules.yaml as read (pbp.datarules.format);
        without one, the starter rules of the skeleton (`pbp init --ruleset data`)."""
        from pbp.datarules import load

        if rules_file is None:
            rules_file = load.starter(overrides)
        self.file = rules_file
        self.program = rules_file.program
        self.rules = {**plain_copy(self.shared_data()), **order_schema(rules_file.data)}

    @classmethod
    def for_campaign(cls, root, overrides: dict | None = None, lang: str = "fr") -> "DataRuleset":
        from pbp.datarules import load

        return cls.from_sources(load.sources(root), overrides, lang)

    @classmethod
    def from_sources(cls, sources, overrides=None, lang="fr", shown=None) -> "DataRuleset":
        """The rules from the bytes of rules.yaml (the campaign's, or the copy a
        turn kept: pbp/engine/rules_record.py), every message naming it as `shown` says."""
        from pbp.datarules import load
        from pbp.datarules.format import RULES_FILE

        name = (shown or {}).get(RULES_FILE, RULES_FILE)
        if RULES_FILE not in sources:
            raise load.missing(name)
        ruleset = cls(None, load.parse(sources[RULES_FILE], name, overrides, lang))
        ruleset.sources = {RULES_FILE: sources[RULES_FILE]}
        return ruleset

    def phrasings(self) -> dict:
        """How players write these orders in a message (`pbp orders import`): each
        action's names as the MJ wrote them (`Fouiller une salle`), besides its id,
        English id and synonyms (the order schema's aliases); a free-text argument
        is what follows them (pbp/import_args.py)."""
        actions = {}
        for action_id, spec in self.program.data["actions"].items():
            names = R.name_of(spec, action_id)
            actions[action_id] = {lang: [names[lang]] for lang in ("fr", "en") if _phrasing(names.get(lang) or "")}
        # the MJ wrote names, not phrasings: "je fouille la salle" is read for "Fouiller une salle"
        return {"actions": actions, "spoken_forms": True}

    # -- the scenario ------------------------------------------------------------------
    def validate_scenario(self, scenario):
        return checks.scenario_problems(self, scenario)

    def import_names(self, state, scenario, player):
        """The core's names (characters, choices), and the exits, places and items
        the player's position lets them name (places.py)."""
        from . import places

        return {**super().import_names(state, scenario, player), **places.import_names(self, state, player)}

    def validate_state(self, state, scenario):
        from . import places, states

        return values_missing(self.program, state) + inputs_mistyped(self.program, state) + \
            states.state_problems(self.program, state) + places.state_problems(self.program.data, state,
                                                                               scenario.roster)

    # -- turns ---------------------------------------------------------------------------
    def setup(self, scenario, dice, quiet: bool = False):
        state, events = set_up(self.program, scenario, quiet)
        return Resolution(state, events)

    def players_to_play(self, state, scenario):
        if state.get("over"):
            return []
        playing = R.playing(state, scenario.roster)
        if self.program.plays is None:
            return playing
        formula = self.program.plays
        return [h for h in playing if formula.evaluate(R.env(formula.names_used, state, self.program.data, h, None,
                                                                None, {}))]

    def lost_turn(self, state, scenario, player):
        from .states import blocked

        me = state["characters"][player]
        return "lost_turn" if me["lost"] > 0 or blocked(self.program, state, player) else None

    def check_orders(self, state, scenario, orders):
        return checks.check_orders(self, state, scenario, orders)

    def check_gm(self, state, scenario, gm_orders):
        return checks.gm_inputs(self, scenario, gm_orders.orders)[1]

    def resolve(self, state, scenario, orders, gm_orders, dice):
        if gm_orders.quiet and not gm_orders.orders:  # a simulated turn: the simulated MJ's decisions
            inputs = checks.simulated_inputs(self, scenario)
        else:
            inputs = checks.gm_inputs(self, scenario, gm_orders.orders)[0]
        out = ev.collector(gm_orders.quiet)
        Turn(self, state, scenario, dice, out, inputs).play(orders)
        return Resolution(state, out)

    def is_over(self, state):
        return bool(state.get("over"))

    def standing(self, state, scenario):
        if self.is_over(state):
            return []
        return [{"name": scenario.name(h), "handle": h,
                 "status": "standing_playing" if R.in_play(state, h) else "standing_out"} for h in scenario.roster]

    def arg_context(self, state, scenario, player):
        return checks.arg_facts(self, state, scenario, player)

    def order_context(self, state, scenario, player):
        from . import balance

        return balance.order_context(self, state, scenario, player)

    # -- secrecy -------------------------------------------------------------------------
    def secret_values(self, state, scenario):
        """Every stat and gauge not public, as the reports print them (`Race Frison`),
        in both languages, unless the rules revealed it."""
        found = set()
        for handle, me in state["characters"].items():
            for section, values in (("stats", me["stats"]), ("gauges", me["gauges"])):
                for ident, spec in getattr(self.program, section).items():
                    if "public" in R.visibility(spec.get("visibility")) or ident in me["revealed"]:
                        continue
                    for name in set(R.name_of(spec, ident).values()):
                        found.add(f"{name} {values.get(ident)}")
        from . import places

        found |= places.secret_values(self.program.data, state)
        if self.program.data.get("states"):
            from .states import secret_names

            found |= secret_names(self.program, state)
        return found

    # -- balance tools -------------------------------------------------------------------
    def legal_orders(self, state, scenario, player):
        from . import balance

        return balance.legal_orders(self, state, scenario, player)

    def bot_orders(self, state, scenario, player, rng):
        from . import balance

        return balance.bot_orders(self, state, scenario, player, rng)

    def sample_scenario(self, players, rng):
        """`players` characters with the rules' default sheets (pbp simulate without a campaign)."""
        roster = {f"joueur{i}": {"character": f"Personnage {i}"} for i in range(1, players + 1)}
        return Scenario({}, {}, roster)

    def game_summary(self, state, scenario):
        from . import balance

        return balance.game_summary(self, state, scenario)

    def odds(self):
        from . import balance

        return balance.calculators(self)


def order_schema(data: dict) -> dict:
    """The rules as the core reads an order schema: each action with its English id,
    its synonyms as aliases and its argument in the core's types (the rest of the
    rules file beside it), and the missed-orders policy as `default_orders`."""
    actions = {}
    names = shown_names(data["actions"])
    for action_id, spec in data["actions"].items():
        entry = {**spec, "aliases": list(spec.get("synonyms") or []), "names": names[action_id]}
        if spec.get("arg") is not None:
            entry["arg"] = core_arg(spec["arg"])
        actions[action_id] = entry
    return {**data, "actions": actions,
            "default_orders": list((data.get("missed_orders") or {}).get("orders") or [])}


def shown_names(actions: dict) -> dict[str, dict[str, str]]:
    """Each action as a receipt or the MJ's report names it, in each language: the
    name the MJ wrote (« Fouiller une salle »), its id after it in parentheses
    where two actions share that name; its id alone where it has no name."""
    named = {action_id: R.name_of(spec, action_id) if spec.get("name") else {} for action_id, spec in actions.items()}
    out = {}
    for action_id, names in named.items():
        out[action_id] = {}
        for lang, name in names.items():
            twins = [other for other, theirs in named.items() if theirs.get(lang, "").lower() == name.lower()]
            out[action_id][lang] = f"{name} ({action_id})" if len(twins) > 1 else name
    return out


def core_arg(arg) -> dict:
    """An argument of the rules file in the core's argument types (pbp.model.argtypes):
    a character in play other than the actor unless the rules say `alive: false`
    or `others: false` (`in_sight: true`: one the actor sees); a number; a choice;
    a place, a direction or an item as a name (places.py checks it where the actor
    stands); else the player's own words (`pbp orders import` keeps them as written)."""
    spec = {"type": arg} if isinstance(arg, str) else dict(arg)
    kind = R.word(spec["type"])
    if kind == "fields":  # named fields: the core's map (fields.py)
        from .fields import core_arg as fields_arg

        return fields_arg(spec, core_arg)
    out = {"optional": bool(spec.get("optional"))}
    if kind == "number":
        out.update(type="int", min=spec.get("min"), max=spec.get("max"))
    elif kind == "character":
        out.update(type="character", alive=spec.get("alive", True), others=spec.get("others", True),
                   in_sight=bool(spec.get("in_sight")))
    elif kind == "choice":
        out.update(type="choice", values=[str(v) for v in spec.get("values") or []])
    elif kind in ("place", "direction", "item", "item_here"):  # a name, checked where the actor stands (places.py)
        out.update(type="text", shown_as=kind)
    else:  # a free text: the player's own words (`pbp orders import` keeps them as written)
        out.update(type="text", prose=True)
    return out


RULESET = DataRuleset


def inputs_mistyped(program, state: dict) -> list:
    """A state.yaml the MJ edited by hand: each MJ input it keeps (`inputs:`, and
    `inputs_by:` for the inputs given per character) holds a value of its type,
    as gm.yaml must give it (checks.gm_inputs), else refused at its place."""
    from pbp.base import i18n
    from pbp.base.errors import PbpError
    from pbp.model.ruleset import Refusals

    specs = program.data.get("inputs") or {}
    problems = Refusals()
    kept = [(("inputs",), state.get("inputs"), "game")]
    kept += [(("inputs_by", handle), given, "character")
             for handle, given in (state.get("inputs_by") if isinstance(state.get("inputs_by"), dict) else {}).items()]
    for at, given, per in kept:
        for name, value in (given if isinstance(given, dict) else {}).items():
            spec = specs.get(name)
            if isinstance(spec, dict) and R.word(spec.get("per", "game")) == per:
                checks.input_value(spec, value, at + (name,), problems)
    return [PbpError(f"data.{r.key}" if i18n.has(f"data.{r.key}") else r.key, file="state.yaml", at=r.at, **r.params)
            for r in problems]


def values_missing(program, state: dict) -> list:
    """A state.yaml the MJ edited by hand: each character holds every stat and
    gauge of the rules (the turn reads them all), each of its kind, else
    refused at its place."""
    from pbp.base.errors import PbpError

    errors = []
    characters = state.get("characters") if isinstance(state.get("characters"), dict) else {}
    for handle, me in characters.items():
        if not isinstance(me, dict):
            continue
        for section in ("stats", "gauges"):
            held = me.get(section) if isinstance(me.get(section), dict) else {}
            for name in getattr(program, section):
                if name not in held:
                    errors.append(PbpError("data.state_missing_value", file="state.yaml",
                                           at=("characters", handle, section), name=name, handle=handle))
                elif (expected := checks.value_kind_problem(program, section, name, held[name])) is not None:
                    errors.append(PbpError("data.state_value_kind", file="state.yaml",
                                           at=("characters", handle, section, name), name=name, handle=handle,
                                           expected=expected, value=held[name]))
    return errors
