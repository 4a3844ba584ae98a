"""A rules file compiled: its definitions as objects, each formula compiled
once with the names it may use where it stands, each problem an error at its
file:line. The engine (pbp/rulesets/data) runs a Program; `pbp rules check`
(pbp.datarules.lint) reasons about one.

Names a formula may use (French spellings in brackets):

    <stat>, <gauge>              the acting character's (the gauge's owner in a threshold);
                                 `stat.<stat>`, `jauge.<gauge>` say the same
    target.<stat> [cible.]       the character the action's argument names
    arg [argument]               the action's argument (a number, a text, a choice)
    gm.<input> [mj.]             what the MJ gave in gm.yaml (`inputs:`)
    turn [tour]                  the turn being played
    <as>, <as>.<column>          a roll or a check made earlier in the same effects
                                 (`as:`, else the table's or check's id): the total,
                                 a column of the row rolled; a check's `<as>` is its
                                 success, `<as>.roll`, `<as>.margin`, `<as>.critical`
"""

from __future__ import annotations

import functools

from pbp.base.errors import PbpError
from pbp.base.record import Record
from pbp.datarules import absence, opposed, phases, places, states, votes
from pbp.datarules.format import VERBS, RulesFile, word

KIND = {"number": "number", "text": "text", "bool": "bool", "list": "list", "choice": "text", "character": "text",
        "item": "text", "place": "text", "direction": "text", "item_here": "text"}
PREFIXES = {"cible": "target", "mj": "gm", **places.PREFIXES}
#: prefixes that only say what kind of value a name is (`jauge.energie` is the actor's `energie`)
KIND_PREFIXES = ("stat", "stats", "carac", "jauge", "jauges", "gauge", "gauges")
PLAIN = {"tour": "turn", "argument": "arg", **places.PLAIN}
AUDIENCES = ("public", "actor", "self", "target", "gm", "owner", "all")
AUDIENCE_WORDS = {"acteur": "actor", "moi": "actor", "self": "actor", "joueur": "actor", "cible": "target",
                  "mj": "gm", "tous": "public", "all": "public", "owner": "actor", "proprietaire": "actor"}


class FormulaNames:
    """The names a formula may read: looked up in the engine's spelling, and
    suggested after a typo in the writer's (`cible.forse` -> `cible.force`)."""

    def __init__(self, scope: dict):
        self.scope = scope

    def __call__(self, name: str):
        return self.scope.get(canonical_name(name))

    def spelled(self, name: str) -> list[str]:
        """The names to suggest for `name`, with the prefix it was written with."""
        head, dot, _ = name.partition(".")
        if dot and head in KIND_PREFIXES:  # stat.forse: the actor's own stats and gauges
            engine = {*absence.PLAIN, *PLAIN, *PLAIN.values()}  # the turn, the argument, absences: no stat
            return [f"{head}.{known}" for known in self.scope if "." not in known and known not in engine]
        if dot:
            family = f"{PREFIXES.get(head, head)}."
            mine = [f"{head}.{known[len(family):]}" for known in self.scope if known.startswith(family)]
            if mine:
                return mine
        return [known for known in self.scope if "." not in known] or list(self.scope)


@functools.lru_cache(maxsize=4096)  # a pure function of the name, asked at every evaluation
def canonical_name(name: str) -> str:
    """A formula's name in the engine's spelling (`cible.force` -> `target.force`)."""
    head, dot, rest = name.partition(".")
    state_name = states.canonical(head, rest) or votes.canonical(head, rest)  # état.prison.reste -> state.prison.left
    if state_name is not None:
        return state_name
    if dot and head in KIND_PREFIXES:
        return canonical_name(rest)
    if dot:
        head = PREFIXES.get(head, head)
        sub, dot2, last = rest.partition(".")
        if head == "target" and dot2 and sub in KIND_PREFIXES:  # cible.jauge.pv
            return f"target.{last}"
        if head == "target":  # cible.lieu, cible.objet.corde
            return f"target.{canonical_name(rest)}"
        return f"{head}.{rest}"
    return PLAIN.get(name, name)


class Formula0(Record):
    """A constant written where a formula may be (`cost: 2`): no compiling."""

    __slots__ = ("value",)
    names_used = frozenset()
    dice_terms = ()

    def __init__(self, value):
        self.value = value

    def evaluate(self, env, roll=None):
        return self.value

    @property
    def kind(self):
        return "bool" if isinstance(self.value, bool) else "number" if isinstance(self.value, int) else "text"


class Effect(Record):
    __slots__ = ("verb", "value", "on", "as_name", "to", "then", "otherwise", "path", "formulas", "blanks")

    def __init__(self, verb, value, on, as_name, to, then, otherwise, path, formulas, blanks=({}, {})):
        self.verb, self.value, self.on, self.as_name, self.to = verb, value, on, as_name, to
        self.then, self.otherwise, self.path, self.formulas = then, otherwise, path, formulas
        # (after `then`, after `else`): columns of a result bound on both sides that only the other side gives
        self.blanks = blanks


class Program(Record):
    """The compiled rules: plain definitions (the file's data) and compiled parts."""

    __slots__ = ("data", "actions", "thresholds", "checks", "end_when", "costs", "requires", "formulas", "plays",
                 "door_rules", "door_effects", "item_effects", "input_effects",
                 "votes", "victories", "pools", "opposed", "order", "periodic", "track_missed", "score")

    def __init__(self, data: dict):
        self.data = data
        self.actions: dict[str, list[Effect]] = {}
        self.thresholds: dict[tuple, list[Effect]] = {}  # (gauge, index) -> effects
        self.checks: dict[str, object] = {}  # check id -> target formula
        self.costs: dict[str, object] = {}
        self.requires: dict[str, list] = {}  # action id -> [(formula, message words, path)]
        self.end_when = None
        self.plays = None  # who is asked for orders (None: everyone in play)
        self.formulas: list[tuple[tuple, object]] = []  # (path in the file, formula): every one compiled
        self.door_rules: dict[str, object] = {}  # door kind -> who may open it (pbp.datarules.places)
        self.door_effects: dict[str, list[Effect]] = {}  # door kind -> what opening it costs
        self.item_effects: dict[str, list[Effect]] = {}  # item -> what using it does
        self.input_effects: dict[tuple, list[Effect]] = {}  # (input, effects|end_effects) -> effects (input_effects.py)
        self.votes: dict = {}  # vote id -> {voters, actions, effects, none} (pbp/datarules/votes.py)
        self.victories: list = []  # (victory, when formula, effects)
        self.pools: dict = {}  # check id -> its pool's size formula (pbp/datarules/opposed.py)
        self.opposed: dict = {}  # opposition id -> {roll, versus} formulas
        self.order: dict = {}  # `by`/`initiative` -> formula (pbp/datarules/phases.py)
        self.periodic: list = []  # each `periodic:` entry's effects
        self.track_missed = False  # whether each character's missed turns are counted (pbp/datarules/absence.py)

    @property
    def stats(self) -> dict:
        return self.data.get("stats") or {}

    @property
    def gauges(self) -> dict:
        return self.data.get("gauges") or {}

    @property
    def tables(self) -> dict:
        return self.data.get("tables") or {}

    @property
    def inputs(self) -> dict:
        return self.data.get("inputs") or {}


def compile_rules(rules: RulesFile, lang: str = "fr") -> tuple[Program, list[PbpError]]:
    """The Program of a rules file whose shape is checked, and every problem
    found compiling it (unknown names, a formula that does not parse)."""
    return _Compiler(rules, lang).run()


class _Compiler:
    def __init__(self, rules: RulesFile, lang: str):
        self.rules, self.lang, self.data = rules, lang, rules.data
        self.program = Program(rules.data)
        self.errors: list[PbpError] = []

    def run(self):
        data, program = self.data, self.program
        fill_columns(data.get("tables") or {})  # first: the effects' names read every table's columns
        for action_id, action in (data.get("actions") or {}).items():
            base = ("actions", action_id)
            scope = self.scope(action)
            if action.get("cost") is not None:
                program.costs[action_id] = self.formula(action["cost"], base + ("cost",), scope, "number")
            program.requires[action_id] = [
                (self.formula(r["if"], base + ("requires", i, "if"), scope, "bool"), r.get("message"),
                 base + ("requires", i)) for i, r in enumerate(action.get("requires") or [])]
            program.actions[action_id] = self.effects(action["effects"], base + ("effects",), dict(scope))
            self.fields_refs(action.get("arg"), base + ("arg",))
        for gauge_id, gauge in (data.get("gauges") or {}).items():
            for i, threshold in enumerate(gauge.get("thresholds") or []):
                path = ("gauges", gauge_id, "thresholds", i)
                if not any(k in threshold for k in ("at", "below", "above", "every")):
                    self.errors.append(self.rules.error("rules_threshold_empty", path))
                program.thresholds[gauge_id, i] = self.effects(threshold["effects"], path + ("effects",),
                                                               self.scope({}))
        for input_id, spec in (data.get("inputs") or {}).items():
            for key in ("effects", "end_effects"):
                if spec.get(key) is not None:
                    program.input_effects[input_id, key] = self.effects(spec[key], ("inputs", input_id, key),
                                                                        self.scope({}))
        opposed.compile_pools(self)
        opposed.compile_opposed(self)
        for check_id, check in (data.get("checks") or {}).items():
            if check.get("dice") is not None:
                self.dice(check["dice"], ("checks", check_id, "dice"))
            program.checks[check_id] = self.formula(check["target"], ("checks", check_id, "target"),
                                                    {**self.fields_names(), **self.scope({})}, "number")
        budget_gauge = (data.get("budget") or {}).get("gauge")
        if budget_gauge is not None:
            self.ref(budget_gauge, "gauges", ("budget", "gauge"))
        places.compile_parts(self)
        if data.get("plays") is not None:
            program.plays = self.formula(data["plays"], ("plays",), self.scope({}), "bool")
        votes.compile_votes(self)
        phases.compile_phases(self)
        end = data.get("end") or {}
        if end.get("when") is not None:
            program.end_when = self.formula(end["when"], ("end", "when"), {"turn": "number", **self.gm_names(),
                                                                           **votes.team_names(data),
                                                                           **phases.formula_names(data, "turn")},
                                            "bool")
        # each character's score at the end (`end: score:`): the best win (pbp/rulesets/data/scores.py)
        program.score = None if end.get("score") is None else self.formula(end["score"], ("end", "score"),
                                                                              self.scope({}), "number")
        if end.get("score_every_turn") and program.score is None:  # a ranking needs its score
            self.errors.append(self.rules.error("rules_ranking_without_score", ("end", "score_every_turn")))
        program.track_missed = absence.tracked(data, program.formulas, canonical_name)
        return program, self.errors

    # -- names -------------------------------------------------------------------------
    def character_names(self, prefix: str = "") -> dict[str, str]:
        names = {prefix + k: KIND.get(word(v.get("type", "number")), "number") for k, v in
                 (self.data.get("stats") or {}).items()}
        names.update({prefix + k: "number" for k in self.data.get("gauges") or {}})
        names.update(states.formula_names(self.data, prefix))
        return names

    def fields_refs(self, arg, path: tuple) -> None:
        """An argument of fields (fields.py): each `among` names stats or gauges, `short` one of its fields."""
        from pbp.datarules.fields import is_fields

        if not is_fields(arg):
            return
        fields = arg.get("fields") or {}
        if arg.get("short") is not None and arg["short"] not in fields:
            self.errors.append(self.rules.error("rules_unknown_ref", path + ("short",), value=arg["short"],
                                                section="fields", valid=list(fields), suggestion=None))
        for name, field in fields.items():
            for i, stat in enumerate(field.get("among") or [] if isinstance(field, dict) else []):
                self.ref(stat, "stats", path + ("fields", name, "among", i), also="gauges")

    def fields_names(self) -> dict[str, str]:
        """`arg.<field>` of every action whose argument is made of fields: what a
        check's chance may read (a check is rolled by actions; fields.py)."""
        from pbp.datarules.fields import formula_names, is_fields

        names = {}
        for action in (self.data.get("actions") or {}).values():
            if is_fields(action.get("arg")):
                names = {**formula_names(action["arg"]), **names}
        return names

    def gm_names(self) -> dict[str, str]:
        return {f"gm.{k}": KIND.get(word(v["type"]), "text") if word(v["type"]) != "bool" else "bool"
                for k, v in (self.data.get("inputs") or {}).items()}

    def scope(self, action: dict) -> dict[str, str]:
        """The names a formula of this action (or a threshold: `action` empty) may use."""
        names = {"turn": "number", **self.character_names(), **self.gm_names(), **places.names(self.data)}
        for name, kind in {**phases.formula_names(self.data), **absence.formula_names()}.items():
            names.setdefault(name, kind)  # (a stat of that name is the stat)
        arg = action.get("arg")
        if arg is not None:
            kind = word(arg if isinstance(arg, str) else arg.get("type"))
            names["arg"] = KIND.get(kind, "text")
            if kind == "character":
                names.update(self.character_names("target."))
                names.update(places.target_names(self.data))
            elif kind == "fields":  # arg.<field> (pbp/rulesets/data/fields.py)
                from pbp.datarules.fields import formula_names

                names.update(formula_names(arg))
        return names

    def takes_character(self, path: tuple, scope: dict) -> bool:
        """Whether the effect at `path` has a character to act on (`sur: cible`, a
        ballot, an opposition): its action's argument is a character, even when the
        rules give characters no stat a formula could read as `cible.<stat>`."""
        if any(k.startswith("target.") for k in scope):
            return True
        if len(path) < 2 or path[0] != "actions":
            return False
        arg = ((self.data.get("actions") or {}).get(path[1]) or {}).get("arg")
        return arg is not None and word(arg if isinstance(arg, str) else arg.get("type")) == "character"

    # -- parts -------------------------------------------------------------------------
    def formula(self, source, path: tuple, scope: dict, kind: str):
        if isinstance(source, bool) or isinstance(source, int):
            return Formula0(source)
        from pbp.datarules.formula import FormulaError, compile_formula

        text = str(source)
        if len(text) > 400:
            self.errors.append(self.rules.error("rules_formula_too_long", path, length=len(text), limit=400))
            return Formula0(0)
        try:
            compiled = compile_formula(text, names=FormulaNames(scope),
                                       where=(self.rules.source, self.rules.line(path)), lang=self.lang,
                                       expect=kind)
        except FormulaError as exc:
            if exc.file is None:
                exc.located(self.rules.source, self.rules.line(path))
            self.errors.append(exc)
            return Formula0(0)
        self.program.formulas.append((path, compiled))
        return compiled

    def dice(self, expr, path: tuple) -> None:
        from pbp.model.dice import parse

        try:
            parse(expr)
        except PbpError:
            self.errors.append(self.rules.error("rules_bad_dice", path, value=expr))

    def effects(self, effects: list, path: tuple, scope: dict) -> list[Effect]:
        out = []
        for i, raw in enumerate(effects):
            out.append(self.effect(raw, path + (i,), scope))
        return out

    def effect(self, raw: dict, path: tuple, scope: dict) -> Effect:
        verb = next(v for v in VERBS if v in raw)
        value, formulas = raw[verb], {}
        on = word(raw.get("who", "self"))
        if on == "target" and not self.takes_character(path, scope):
            self.errors.append(self.rules.error("rules_no_target", path + ("who",)))
        to = self.audience(raw.get("to"), path + ("to",))
        as_name = raw.get("as")
        then = otherwise = ()
        if verb in ("add", "set"):
            value = self.changes(value, path + (verb,), scope, formulas, verb)
        elif verb == "roll":
            value = self.ref(value, "tables", path + (verb,))
            as_name = as_name or value
            self.bind_roll(scope, as_name, value)
        elif verb == "check":
            value = self.ref(value, "checks", path + (verb,))
            as_name = as_name or value
            for name, kind in (("", "bool"), (".roll", "number"), (".margin", "number"), (".critical", "bool"),
                               (".band", "text")):
                scope[as_name + name] = kind
        elif verb == "if":
            formulas["if"] = self.formula(value, path + ("if",), scope, "bool")
        elif verb == "say":
            value = self.message(value, path + ("say",))
        elif verb == "reveal":
            value = self.ref(value, "stats", path + (verb,), also="gauges")
        elif verb in places.VERBS:
            value = places.compile_effect(self, verb, value, path, scope, formulas)
        elif verb == "lose_turn":
            formulas["lose_turn"] = self.formula(value if value is not True else 1, path + (verb,), scope, "number")
        elif verb in states.VERBS:
            value = states.compile_effect(self, raw, verb, path, scope, formulas)
        elif verb in votes.VERBS:
            value = votes.compile_effect(self, raw, verb, path, scope, formulas)
        elif verb in opposed.VERBS:
            value = opposed.compile_effect(self, raw, verb, path, scope, formulas)
            as_name = as_name or value
        then_scope, else_scope = dict(scope), dict(scope)
        if isinstance(raw.get("then"), list):
            then = self.effects(raw["then"], path + ("then",), then_scope)
        if isinstance(raw.get("else"), list):
            otherwise = self.effects(raw["else"], path + ("else",), else_scope)
        # a result bound in both branches (`as:` in `then` and in `else`) is known after them
        both = {k: v for k, v in then_scope.items() if k not in scope and else_scope.get(k) == v}
        blanks = one_sided_columns(then_scope, else_scope, scope, both)
        scope.update(both)
        return Effect(verb, value, on, as_name, to, then, otherwise, path, formulas, blanks)

    def changes(self, value, path, scope, formulas, verb) -> dict:
        """`add: {energie: -5}`: gauge (or, for `set`, stat) -> formula."""
        if not isinstance(value, dict) or not value:
            self.errors.append(self.rules.error("rules_change_shape", path, verb=verb))
            return {}
        known = dict(self.data.get("gauges") or {})
        if verb == "set":
            known.update(self.data.get("stats") or {})
        for name, source in value.items():
            if name not in known:
                # `{faim: si(a, -4, -2)}`: YAML's commas split the formula into keys `-4`, `-2)`
                split = not str(name).replace("_", "a").isalnum()
                self.errors.append(self.rules.error("rules_change_split" if split else "rules_unknown_name",
                                                    path + (name,), name=name, valid=sorted(known)))
                continue
            formulas[name] = self.formula(source, path + (name,), scope, "number")
        return value

    def bind_roll(self, scope: dict, as_name: str, table_id) -> None:
        scope[as_name] = "number"
        scope[as_name + ".roll"] = "number"
        table = (self.data.get("tables") or {}).get(table_id) or {}
        for row in table.get("rows") or []:
            for column, cell in row.items():
                if column in ("roll", "weight", "table"):
                    continue
                kind = "bool" if isinstance(cell, bool) else "number" if isinstance(cell, int) else "text"
                scope.setdefault(f"{as_name}.{column}", kind)

    def ref(self, value, section: str, path: tuple, also: str | None = None):
        known = list(self.data.get(section) or {}) + (list(self.data.get(also) or {}) if also else [])
        if not isinstance(value, str) or value not in known:
            from pbp.base import i18n

            self.errors.append(self.rules.error("rules_unknown_ref", path, value=value, section=section,
                                                valid=known, suggestion=i18n.closest(str(value), known)))
            return str(value)  # refused above; a name the rest of the compilation can still hold (`as:`, scope)
        return value

    def message(self, value, path: tuple):
        if isinstance(value, str) and value in (self.data.get("messages") or {}):
            return value
        if isinstance(value, (str, dict)):
            return value
        self.errors.append(self.rules.error("rules_message_shape", path))
        return ""

    def audience(self, raw, path: tuple):
        if raw is None:
            return None
        values = raw if isinstance(raw, list) else [raw]
        out = []
        for value in values:
            found = AUDIENCE_WORDS.get(str(value), str(value))
            if found not in AUDIENCES:
                self.errors.append(self.rules.error("rules_bad_audience", path, value=value,
                                                    valid=["public", "actor", "target", "gm"]))
            out.append(found)
        return tuple(out)


BLANK = {"number": 0, "bool": False, "text": ""}


def one_sided_columns(then_scope: dict, else_scope: dict, scope: dict, both: dict) -> tuple[dict, dict]:
    """A result bound on both sides of an `if`/`check` (`as: loot` rolling table A
    in `then`, table B in `else`) whose tables have different columns: every
    column is known after it (added to `both`), 0 (false, empty) on the side whose
    table lacks it, as a row that does not say a column. Returns the blanks to
    bind after `then` ran and after `else` ran."""
    blanks: tuple[dict, dict] = ({}, {})
    for side, other, missing in ((then_scope, else_scope, blanks[1]), (else_scope, then_scope, blanks[0])):
        for name, kind in side.items():
            result = name.rsplit(".", 1)[0]
            if "." in name and name not in scope and name not in other and result in both and kind in BLANK:
                missing[name] = BLANK[kind]
                both[name] = kind
    return blanks


def fill_columns(tables: dict) -> None:
    """Every row of a table with every column its table's rows name, and those of
    the sub-tables its rows chain (`table: sponsor`, whose row's columns the result
    reads): a row that does not say one gets 0, false or an empty text (the kind of
    the column's other values), so `<as>.<column>` has a value whatever row is rolled."""
    own = {table_id: _blank_columns(table) for table_id, table in tables.items()}
    for table_id, table in tables.items():
        blank = dict(own[table_id])
        for sub in _chained(table_id, tables):
            for column, value in own[sub].items():
                blank.setdefault(column, value)
        for row in table.get("rows") or []:
            for column, value in blank.items():
                row.setdefault(column, value)


def _blank_columns(table: dict) -> dict:
    blank: dict = {}
    for row in table.get("rows") or []:
        for column, value in row.items():
            if column in ("roll", "weight", "table", "text"):
                continue
            blank.setdefault(column, False if isinstance(value, bool) else 0 if isinstance(value, int) else "")
    return blank


def _chained(table_id: str, tables: dict) -> list[str]:
    """The tables a table's rows chain, directly or through other sub-tables (each once)."""
    found: list[str] = []
    todo = [table_id]
    while todo:
        for row in tables[todo.pop()].get("rows") or []:
            sub = row.get("table")
            if isinstance(sub, str) and sub in tables and sub != table_id and sub not in found:
                found.append(sub)
                todo.append(sub)
    return found
