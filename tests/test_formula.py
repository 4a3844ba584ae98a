"""The formula language of data rulesets (pbp/datarules/formula.py): exact values of
every operator and function, errors placed and worded in French and English,
limits on hostile sources, dice terms, interval bounds, and a property test
that any source either compiles and evaluates within its bounds or is refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pbp.datarules.formula import FormulaError, Interval, compile_formula

NAMES = {
    "stat.force": "number", "stat.finesse": "number", "competence.x": "number", "malus": "number",
    "jauge.energie": "number", "blessé": "bool", "rôle": "text", "sac": "list", "arg.cible": "text",
}
ENV = {"stat.force": 7, "stat.finesse": 4, "competence.x": 3, "malus": 2, "jauge.energie": 10,
       "blessé": False, "rôle": "loup", "sac": ["corde", "lampe"], "arg.cible": "Ysolde"}


def value(source: str, env=None, roll=None, **kw):
    return compile_formula(source, names=NAMES, **kw).evaluate(ENV if env is None else env, roll)


def refusal(source: str, lang: str = "fr", names=None, where=("rules.yaml", 12), **kw) -> FormulaError:
    with pytest.raises(FormulaError) as caught:
        compile_formula(source, names=NAMES if names is None else names, where=where, lang=lang, **kw)
    return caught.value


class Rolls:
    """A fake roller: each call recorded, the totals given in order."""

    def __init__(self, *totals):
        self.totals, self.calls = list(totals), []

    def __call__(self, term, label):
        self.calls.append((term, label))
        return self.totals.pop(0)


# -- values ------------------------------------------------------------------------------

@pytest.mark.parametrize("source, expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("-3 + 5", 2), ("- -3", 3), ("+4", 4),
    ("7 / 2", Fraction(7, 2)), ("6 / 3", 2), ("1/3 + 1/6", Fraction(1, 2)), ("7 // 2", 3), ("-7 // 2", -4),
    ("7 % 3", 1), ("-7 % 3", 2), ("7 % -3", -2), ("7/2 // 1", 3), ("1.5 * 2", 3), ("0.1 + 0.2", Fraction(3, 10)),
    ("stat.force + 5 * competence.x - malus", 20),
    ("borne(stat.force + 5 * competence.x - malus, 1, 95)", 20),
    ("borne(stat.force * 100, 1, 95)", 95), ("clamp(-4, 1, 95)", 1), ("borne(5, 10, 1)", 1),
    ("min(3, 1, 2)", 1), ("max(3, 1, 2)", 3), ("min(7/2, 4)", Fraction(7, 2)), ("max(5)", 5),
    ("abs(-3)", 3), ("abs(-7/2)", Fraction(7, 2)),
    ("si(blessé, 1, 2)", 2), ("if(non blessé, 1, 2)", 1), ("SI(vrai; 'a'; 'b')", "a"),
    ("compte(sac)", 2), ("count(sac) * 10", 20),
])
def test_values(source, expected):
    result = value(source)
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize("source, expected", [
    # half away from zero, as an MJ rounds by hand
    ("arrondi(5/2)", 3), ("arrondi(-5/2)", -3), ("arrondi(7/3)", 2), ("arrondi(8/3)", 3), ("round(-7/3)", -2),
    ("arrondi(4)", 4), ("arrondi(1/2)", 1), ("arrondi(-1/2)", -1), ("arrondi(0.49)", 0),
    ("plancher(7/2)", 3), ("plancher(-7/2)", -4), ("floor(3)", 3),
    ("plafond(7/2)", 4), ("plafond(-7/2)", -3), ("ceil(3)", 3),
])
def test_rounding(source, expected):
    result = value(source)
    assert result == expected and type(result) is int


@pytest.mark.parametrize("source, expected", [
    ("1 < 2", True), ("2 < 2", False), ("2 <= 2", True), ("3 > 2", True), ("2 >= 3", False),
    ("2 = 2", True), ("2 == 2", True), ("2 != 2", False), ("2 <> 3", True), ("2 ≤ 3", True), ("2 ≥ 3", False),
    ("2 ≠ 3", True), ("1 < stat.force <= 7", True), ("1 < stat.force < 7", False), ("1/2 = 0.5", True),
    ("vrai et faux", False), ("true or false", True), ("non vrai", False), ("not faux", True),
    ("vrai ou faux et faux", True), ("(vrai ou faux) et faux", False), ("non blessé et stat.force > 5", True),
    ("rôle = 'loup'", True), ("rôle != \"loup\"", False), ("rôle = «loup»", True),
    ("'corde' dans sac", True), ("'épée' in sac", False), ("'épée' non dans sac", True),
    ("'corde' not in sac", False), ("rôle dans ['loup', 'sorcière']", True), ("stat.force dans [1, 7]", True),
    ("stat.force dans [1, malus]", False), ("blessé = faux", True),
])
def test_conditions(source, expected):
    assert value(source) is expected


def test_keywords_and_functions_in_any_case():
    assert value("SI(VRAI ET NON Faux, MAX(1, 2), 0)") == 2


def test_a_yaml_number_or_yes_no_is_a_formula():
    assert value(50) == 50
    assert value(True) is True
    assert value(1.5) == Fraction(3, 2)


def test_kinds_and_names_used():
    f = compile_formula("si(blessé, stat.force, 2) + 1d6", names=NAMES)
    assert f.kind == "number"
    assert f.names_used == frozenset({"blessé", "stat.force"})
    assert compile_formula("rôle = 'loup'", names=NAMES).kind == "bool"
    assert compile_formula("si(blessé, 'a', rôle)", names=NAMES).kind == "text"


def test_names_from_a_function():
    def names(name):
        return "number" if name.startswith("stat.") else None

    f = compile_formula("stat.force + stat.agilité", names=names)
    assert f.evaluate({"stat.force": 3, "stat.agilité": 4}) == 7
    assert refusal("jauge.x + 1", names=names).key == "formula_unknown_name"


def test_short_circuit_and_lazy_branches():
    # the branch not taken is not evaluated: no roll, no division by zero
    rolls = Rolls(3)
    assert value("si(blessé, 1d6, 1d8) + si(vrai, 0, 1 / (malus - 2))", roll=rolls) == 3
    assert rolls.calls == [("1d8", "d2")]
    assert value("faux et 1 / (malus - 2) > 0") is False
    assert value("vrai ou 1 / (malus - 2) > 0") is True


def test_explain_shows_the_parts_of_a_number():
    formula = compile_formula("borne(stat.force + 5 * competence.x - malus, 1, 95)", names=NAMES)
    assert formula.explain(ENV) == "borne(7 + 5 * 3 - 2, 1, 95)"
    rolled = compile_formula("si(non blessé, 1d6 + 2, 1d4[petit]) + stat.force / 2", names=NAMES)
    assert rolled.explain({**ENV, "stat.force": Fraction(7, 2)}, {"d1": 4}) == (
        "si(non faux, 1d6 (4) + 2, 1d4[petit]) + 7/2 / 2")
    condition = compile_formula("rôle dans sac ou blessé", names=NAMES)
    assert condition.explain(ENV, lang="en") == '"loup" dans ["corde", "lampe"] ou false'


# -- errors: placed, in the MJ's language, saying what would be valid ----------------------

def test_unknown_name_in_french_and_english_with_did_you_mean():
    error = refusal("2 + stat.forse * 3")
    assert (error.key, error.where, error.column) == ("formula_unknown_name", ("rules.yaml", 12), 5)
    assert str(error) == (
        "rules.yaml:12:5: nom inconnu « stat.forse ». Vouliez-vous dire « stat.force » ? "
        "Valeurs possibles : stat.finesse, stat.force.\n"
        "    2 + stat.forse * 3\n"
        "        ^")
    assert refusal("2 + stat.forse * 3", lang="en").text().splitlines()[0] == (
        "rules.yaml:12:5: unknown name `stat.forse`. Did you mean `stat.force`? "
        "Valid values: stat.finesse, stat.force.")


def test_a_function_helper_can_list_the_names_to_suggest():
    def names(name):
        return "number" if name in ("force", "finesse") else None

    names.known = ("force", "finesse")
    assert "Vouliez-vous dire « force » ?" in str(refusal("forse + 1", names=names))


def test_error_lines_and_columns_follow_the_formula():
    # a formula's second line is the YAML file's next line; the first line starts at where's column
    error = refusal("1 +\n  inconnu", where=("rules.yaml", 12, 10))
    assert (error.line, error.column) == (13, 3)
    error = refusal("1 + inconnu", where=("rules.yaml", 4, 10))
    assert (error.line, error.column) == (4, 14)
    # no line known: the file, and the excerpt shows the place
    assert str(refusal("1 + inconnu", where=("rules.yaml", 0))).startswith("rules.yaml: nom inconnu")


@pytest.mark.parametrize("source, key, fr, en", [
    ("1 +", "formula_unexpected_end",
     "la formule s'arrête trop tôt ; attendu : une valeur (nombre, nom, dés, texte, parenthèse).",
     "the formula ends too early; expected: a value (number, name, dice, text, parenthesis)."),
    ("(1 + 2", "formula_unexpected_end",
     "la formule s'arrête trop tôt ; attendu : un opérateur (+ - * / < = et ou…), « ) ».",
     "the formula ends too early; expected: an operator (+ - * / < = and or…), `)`."),
    ("1 + 2)", "formula_unexpected",
     "« ) » inattendu ici ; attendu : un opérateur (+ - * / < = et ou…), la fin de la formule.",
     "unexpected `)` here; expected: an operator (+ - * / < = and or…), the end of the formula."),
    ("a & b", "formula_use_and", "« & » n'existe pas : écrivez et (ou and).",
     "`&` does not exist: write and (or et)."),
    ("a || b", "formula_use_or", "« | » n'existe pas : écrivez ou (ou or).",
     "`|` does not exist: write or (or ou)."),
    ("!blessé", "formula_use_not",
     "« ! » seul n'existe pas : écrivez non (ou not) ; « différent de » s'écrit !=.",
     "`!` alone does not exist: write not (or non); \"different from\" is !=."),
    ("2 ** 3", "formula_no_power", "pas de puissance dans les formules : écrivez la multiplication (x * x).",
     "formulas have no power operator: write the multiplication (x * x)."),
    ("2 ^ 3", "formula_no_power", "pas de puissance dans les formules : écrivez la multiplication (x * x).",
     "formulas have no power operator: write the multiplication (x * x)."),
    ("1,5 * 2", "formula_decimal_comma",
     "la virgule sépare les valeurs d'une fonction : un nombre décimal s'écrit avec un point (1.5).",
     "a comma separates a function's values: write a decimal number with a point (1.5)."),
    ("50 %", "formula_percent",
     "« % » est le reste d'une division : une chance en pourcentage s'écrit sans % (50 pour 50 %).",
     "`%` is a division's remainder: a percentage chance is written without % (50 for 50%)."),
    ("min(50%, stat.force)", "formula_percent",
     "« % » est le reste d'une division : une chance en pourcentage s'écrit sans % (50 pour 50 %).",
     "`%` is a division's remainder: a percentage chance is written without % (50 for 50%)."),
    ("rôle = 'loup", "formula_unclosed_text",
     "texte sans guillemet de fin : fermez-le avec le même guillemet (').",
     "text without its closing quote: close it with the same quote (')."),
    ("1 $ 2", "formula_bad_character", "caractère « $ » inconnu des formules.",
     "character `$` is not part of formulas."),
    ("mni(1, 2)", "formula_unknown_function",
     "fonction inconnue « mni ». Vouliez-vous dire « min » ? Valeurs possibles : si, min, max, borne, abs, "
     "arrondi, plancher, plafond, compte.",
     "unknown function `mni`. Did you mean `min`? Valid values: if, min, max, clamp, abs, round, floor, ceil, count."),
    ("borne(1, 2)", "formula_arg_count",
     "mauvais nombre de valeurs pour borne : elle s'écrit borne(valeur, min, max) (ici 2).",
     "wrong number of values for borne: it is written clamp(value, low, high) (here 2)."),
    ("max + 1", "formula_function_needs_parentheses",
     "« max » est une fonction : écrivez ses valeurs entre parenthèses, par exemple max(a, b).",
     "`max` is a function: write its values in parentheses, e.g. max(a, b)."),
    ("stat.force + blessé", "formula_wrong_kind",
     "« blessé » est une condition (vrai ou faux) ; il faut ici un nombre.",
     "`blessé` is a condition (true or false); a number is needed here."),
    ("si(stat.force, 1, 2)", "formula_wrong_kind",
     "« stat.force » est un nombre ; il faut ici une condition (vrai ou faux).",
     "`stat.force` is a number; a condition (true or false) is needed here."),
    ("si(blessé, 1, 'a')", "formula_wrong_kind", "« 'a' » est un texte ; il faut ici un nombre.",
     "`'a'` is a text; a number is needed here."),
    ("rôle = 3", "formula_compare_kinds", "on ne compare pas un texte et un nombre (« 3 »).",
     "a text and a number cannot be compared (`3`)."),
    ("rôle < 'z'", "formula_order_numbers",
     "« rôle » est un texte : seuls les nombres se comparent avec < <= > >= (les autres avec = et !=).",
     "`rôle` is a text: only numbers compare with < <= > >= (others with = and !=)."),
    ("sac + 1", "formula_list_here",
     "« sac » est une liste : elle ne s'utilise qu'après dans (ou in) ou dans compte(…).",
     "`sac` is a list: it is only used after in (or dans) or in count(…)."),
    ("'a' dans rôle", "formula_not_a_list",
     "« rôle » n'est pas une liste : après dans (ou in), écrivez le nom d'une liste ou [\"a\", \"b\"].",
     "`rôle` is no list: after in (or dans), write a list's name or [\"a\", \"b\"]."),
    ("1 / 0", "formula_division_by_zero_constant", "division par zéro.", "division by zero."),
    ("1d6[a] + 1d8[a]", "formula_duplicate_label",
     "deux jets de dés portent le nom « a » dans cette formule : donnez-leur des noms différents.",
     "two dice rolls are named `a` in this formula: give them different names."),
    ("si(1d20>=15, 1, 2)", "formula_pool_not_condition",
     "« 1d20>=15 » compte des succès (un nombre) ; pour comparer le jet, mettez des espaces : 1d20 >= 15.",
     "`1d20>=15` counts successes (a number); to compare the roll, put spaces: 1d20 >= 15."),
    ("1d0", "bad_dice", "expression de dés invalide « 1d0 » (exemples : 1d10, 2d6+1, d%, 2d6+1d4-2, 2d20kh1, "
     "4d6dl1, 3d6!, 4d6r1, 6d6>=4, 4dF).",
     "invalid dice expression `1d0` (examples: 1d10, 2d6+1, d%, 2d6+1d4-2, 2d20kh1, 4d6dl1, 3d6!, 4d6r1, "
     "6d6>=4, 4dF)."),
    ("", "formula_empty", "formule vide : écrivez un nombre, un nom ou un calcul (par exemple stat.force + 5).",
     "empty formula: write a number, a name or a calculation (e.g. stat.force + 5)."),
    ("1000000000000000000", "formula_number_too_large", "nombre trop grand : au plus 10^18 en valeur absolue.",
     "number too large: at most 10^18 in absolute value."),
])
def test_refusals_in_both_languages(source, key, fr, en):
    error = refusal(source)
    assert error.key == key
    assert error.text("fr").split("\n")[0].split(": ", 1)[1] == fr
    assert error.text("en").split("\n")[0].split(": ", 1)[1] == en


def test_expected_result_kind():
    error = refusal("stat.force + 1", expect="bool")
    assert error.text("fr").splitlines()[0] == (
        "rules.yaml:12:1: cette formule doit donner une condition (vrai ou faux) ; elle donne un nombre.")
    assert compile_formula("stat.force > 1", names=NAMES, expect="bool").kind == "bool"


def test_a_source_that_is_no_text():
    assert refusal(["1"]).key == "formula_not_text"


# -- errors at evaluation ------------------------------------------------------------------

def evaluation_error(source, env, roll=None) -> FormulaError:
    formula = compile_formula(source, names=NAMES, where=("rules.yaml", 7), lang="en")
    with pytest.raises(FormulaError) as caught:
        formula.evaluate(env, roll)
    return caught.value


def test_division_by_zero_at_evaluation_is_placed():
    error = evaluation_error("100 / (malus - 2)", ENV)
    assert str(error) == ("rules.yaml:7:5: division by zero: `malus - 2` is 0; guard it, e.g. "
                          "if(malus - 2 != 0, …, 0).\n    100 / (malus - 2)\n        ^")
    for source in ("100 // (malus - 2)", "100 % (malus - 2)"):
        assert evaluation_error(source, ENV).key == "formula_division_by_zero"


def test_numbers_stay_bounded_at_evaluation():
    big = {**ENV, "stat.force": 10**17}
    assert value("stat.force * 9", big) == 9 * 10**17
    error = evaluation_error("stat.force * 10 + 1", big)
    assert (error.key, error.column) == ("formula_number_too_large", 12)
    # a product of products cannot grow without end
    assert evaluation_error("stat.force * stat.force * stat.force", big).key == "formula_number_too_large"
    fine = {**ENV, "stat.force": 10**12, "malus": 10**12 - 1}
    assert evaluation_error("1 / stat.force / malus", fine).key == "formula_fraction_too_fine"


def test_values_the_engine_gives_are_checked():
    assert evaluation_error("stat.force + 1", {}).key == "formula_missing_value"
    assert evaluation_error("stat.force + 1", {"stat.force": True}).key == "formula_bad_value"
    assert evaluation_error("stat.force + 1", {"stat.force": 1.5}).key == "formula_bad_value"
    assert evaluation_error("stat.force + 1", {"stat.force": 10**18}).key == "formula_bad_value"
    assert evaluation_error("rôle = 'a'", {"rôle": 3}).key == "formula_bad_value"
    assert value("stat.force + 1", {"stat.force": Fraction(4, 2)}) == 3


# -- limits on a stranger's formula --------------------------------------------------------

def test_limits():
    assert refusal("1" + " + 1" * 600).key == "formula_too_long"
    assert refusal("-" * 70 + "1").key == "formula_too_deep"
    assert refusal("si(vrai, " * 70 + "1" + ", 0)" * 70).key == "formula_too_deep"
    assert refusal(" + ".join(["min(1, 2)"] * 200)).key == "formula_too_long"
    assert refusal("+".join(["max(1,2,3)"] * 150)).key == "formula_too_deep"
    assert refusal(",".join(["1"] * 600).join(["max(", ")"])).key == "formula_arg_count"
    # within the limits
    assert value("-" * 60 + "1") == 1
    assert value("(" * 200 + "1" + ")" * 200) == 1


def test_a_wide_formula_is_refused_by_its_size():
    wide = "max(" + ",".join(["-" * 50 + "1"] * 20) + ")"
    assert len(wide) <= 2000
    assert value("max(" + ",".join(["-" * 50 + "1"] * 19) + ")") == 1
    assert refusal(wide).key == "formula_too_big"


# -- dice terms ----------------------------------------------------------------------------

def test_dice_terms_are_handed_to_roll_with_labels_in_source_order():
    formula = compile_formula("1d100 + 2d6+3 - d8[parade] + D4", names=NAMES)
    assert formula.dice_terms == (("d1", "1d100"), ("d2", "2d6"), ("parade", "d8"), ("d4", "D4"))
    rolls = Rolls(50, 7, 5, 2)
    assert formula.evaluate(ENV, rolls) == 50 + 7 + 3 - 5 + 2
    assert rolls.calls == [("1d100", "d1"), ("2d6", "d2"), ("d8", "parade"), ("D4", "d4")]


def test_every_notation_term_is_one_term():
    from pbp.datarules.formula import notation_bounds

    formula = compile_formula("2d20kh1 + 4d6dl1 + 3d6! + 6d6>=4 + 4dF + d% + 1d6!=4", names=NAMES,
                              dice=notation_bounds, expect="number") if False else None
    formula = compile_formula("2d20kh1 + 4d6dl1 + 3d6! + 6d6>=4 + 4dF + d% + 2d10ro1", names=NAMES,
                              dice=notation_bounds)
    assert [term for _, term in formula.dice_terms] == ["2d20kh1", "4d6dl1", "3d6!", "6d6>=4", "4dF", "d%",
                                                        "2d10ro1"]
    assert formula.bounds() == Interval(1 + 3 + 3 + 0 - 4 + 1 + 2, float("inf"))
    # `!=` after a term is "different from", and a comparison written with spaces compares the roll
    assert compile_formula("1d6!=4", names=NAMES).kind == "bool"
    rolls = Rolls(15)
    assert compile_formula("1d20 >= 15", names=NAMES).evaluate({}, rolls) is True


@pytest.mark.parametrize("term, bounds", [
    ("1d6", (1, 6)), ("3d6", (3, 18)), ("d%", (1, 100)), ("4dF", (-4, 4)), ("4df", (-4, 4)), ("2d20kh1", (1, 20)),
    ("2d20kl1", (1, 20)), ("4d6dl1", (3, 18)), ("4d6d1", (3, 18)), ("10d10k3", (3, 30)), ("6d6>=4", (0, 6)),
    ("3d6!", (3, float("inf"))), ("2d10r1", (2, 20)), ("5d10>7", (0, 5)),
])
def test_notation_bounds(term, bounds):
    from pbp.datarules.formula import notation_bounds

    assert notation_bounds(term) == bounds


def test_a_formula_with_dice_needs_a_roller():
    error = evaluation_error("1d6 + 1", {})
    assert error.key == "formula_no_roller"
    assert evaluation_error("1d6 + 1", {}, roll=lambda term, label: "3").key == "formula_bad_roll"


# -- bounds, for the lint ------------------------------------------------------------------

BOUNDS = {"stat.force": Interval(1, 10), "competence.x": Interval(0, 5), "malus": Interval(0, 3),
          "jauge.energie": (0, 100)}


@pytest.mark.parametrize("source, low, high", [
    ("borne(stat.force + 5 * competence.x - malus, 1, 95)", 1, 35),
    ("stat.force + 5 * competence.x - malus", -2, 35),
    ("1d100 + stat.force", 2, 110), ("2d6+3", 5, 15), ("-1d6", -6, -1), ("1d6 * -2", -12, -2),
    ("stat.force / 2", Fraction(1, 2), 5), ("stat.force // 3", 0, 3), ("stat.force % 4", 0, 4),
    ("jauge.energie % 7", 0, 7), ("(stat.force - 20) % 7", 0, 7), ("stat.force % 20", 0, 10),
    ("arrondi(stat.force / 4)", 0, 3),
    ("plancher(stat.force / 4)", 0, 2), ("plafond(stat.force / 4)", 1, 3), ("abs(malus - 2)", 0, 2),
    ("min(stat.force, 5)", 1, 5), ("max(stat.force, 5)", 5, 10), ("si(blessé, 1, 10)", 1, 10),
    ("si(stat.force > 20, 1, 10)", 10, 10), ("stat.force > 0", 1, 1), ("stat.force > 10", 0, 0),
    ("stat.force = 11 ou malus < 4", 1, 1), ("non (stat.force >= 1)", 0, 0), ("blessé", 0, 1),
    ("si(stat.force > 5, stat.force, 5)", 5, 10), ("si(stat.force = 3, stat.force * 2, 0)", 0, 6),
    ("100 / jauge.energie", float("-inf"), float("inf")), ("compte(sac)", 0, float("inf")),
    ("stat.finesse", float("-inf"), float("inf")),
])
def test_bounds(source, low, high):
    assert compile_formula(source, names=NAMES).bounds(BOUNDS) == Interval(low, high)


WHOLE = {"stat.force": Interval(1, 10, whole=True), "malus": Interval(0, 3, whole=True),
         "jauge.energie": Interval(0, 100, whole=True), "competence.x": Interval(0, 5)}


@pytest.mark.parametrize("source, low, high", [
    # whole names: remainders below the divisor, strict comparisons a step inside
    ("stat.force % 4", 0, 3), ("jauge.energie % 7", 0, 6), ("(stat.force - 20) % 7", 0, 6),
    ("competence.x % 4", 0, 4), ("1d6 % 3", 0, 2), ("si(malus > 0, 12 // malus, 0)", 0, 12),
    ("si(malus != 0, 12 / malus, 0)", 0, 12), ("si(malus = 0, 0, 12 / malus)", 0, 12),
    ("si(malus < 1, 0, 6 / malus)", 0, 6), ("si(malus > 5/2, malus, 0)", 0, 3),
    ("si(stat.force > 5/2, 0, stat.force)", 0, 2), ("si(malus != 3, malus, 9)", 0, 9),
    ("si(malus != 3, malus, 0)", 0, 2), ("stat.force / 4", Fraction(1, 4), Fraction(5, 2)),
    ("plancher(stat.force / 4) + arrondi(competence.x)", 0, 7), ("malus > 2.5", 0, 1),
])
def test_bounds_of_whole_numbers(source, low, high):
    found = compile_formula(source, names=NAMES).bounds(WHOLE)
    assert (found.lo, found.hi) == (low, high)


def test_whole_is_known_from_the_formula():
    assert compile_formula("stat.force * 2 + 1d6", names=NAMES).bounds(WHOLE).whole
    assert compile_formula("arrondi(competence.x / 3)", names=NAMES).bounds(WHOLE).whole
    assert not compile_formula("stat.force / 2", names=NAMES).bounds(WHOLE).whole
    assert not compile_formula("competence.x + 1", names=NAMES).bounds(WHOLE).whole


@pytest.mark.parametrize("source, divisors", [
    ("100 / jauge.energie", ("jauge.energie",)), ("100 / stat.force", ()), ("100 // malus", ("malus",)),
    ("100 % (stat.force - 1)", ("stat.force - 1",)), ("si(malus != 0, 100 / malus, 0)", ()),
    ("si(malus = 0, 0, 100 / malus)", ()), ("si(malus > 0, 100 / malus, 0)", ()),
    ("si(malus >= 1, 100 / malus, 0)", ()), ("si(malus >= 0, 100 / malus, 0)", ("malus",)),
    ("malus > 0 et 100 / malus > 1", ()), ("malus = 0 ou 100 / malus > 1", ()),
    ("non (malus = 0) et 100 / malus > 1", ()), ("si(stat.force > 50, 1 / malus, 1)", ()),
    ("si(blessé, 1 / malus, 1)", ("malus",)),
])
def test_divisions_by_zero(source, divisors):
    formula = compile_formula(source, names=NAMES)
    assert formula.zero_divisors(BOUNDS) == divisors
    assert formula.may_divide_by_zero(BOUNDS) is bool(divisors)


# -- any source: compiled and within its bounds, or refused -------------------------------

PROPERTY_NAMES = {"a": "number", "b": "number", "c": "number", "ok": "bool", "mot": "text", "liste": "list"}
PROPERTY_BOUNDS = {"a": Interval(-5, 5, whole=True), "b": Interval(0, 3, whole=True),
                   "c": Interval(Fraction(-7, 2), 100)}


def _formulas():
    from hypothesis import strategies as st

    leaves = st.one_of(
        st.integers(-20, 20).map(str), st.sampled_from(["a", "b", "c", "ok", "mot", "liste", "vrai", "faux",
                                                        "'x'", "1.5", "0", "1d6", "2d20kh1", "d%", "3d6!",
                                                        "6d6>=4", "4dF", "inconnu", "999999999999999999"]))

    def grow(inner):
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "<", "<=", "=", "!=", ">",
                                                   " et ", " ou ", " dans ", "**", ","]), inner)
        call = st.tuples(st.sampled_from(["si", "min", "max", "borne", "abs", "arrondi", "plancher", "plafond",
                                          "compte", "nope"]), st.lists(inner, max_size=4))
        return st.one_of(
            binary.map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
            inner.map(lambda x: f"({x})"), inner.map(lambda x: f"-{x}"), inner.map(lambda x: f"non {x}"),
            call.map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"))
    return st.recursive(leaves, grow, max_leaves=25)


def _typed_formulas():
    """Well-typed numbers and conditions: most compile, so evaluation and bounds are exercised."""
    from hypothesis import strategies as st

    number_leaves = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(
        ["a", "b", "c", "1.5", "1d6", "2d20kh1", "d%", "3d6!", "6d6>=4", "4dF", "compte(liste)", "0"]))

    def numbers(inner):
        conditions = st.one_of(
            st.tuples(inner, st.sampled_from(["<", "<=", "=", "!=", ">", ">="]), inner).map(" ".join),
            st.sampled_from(["ok", "non ok", "mot = 'x'", "mot dans liste", "b dans [1, 2]"]))
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%"]), inner).map(" ".join),
            inner.map(lambda x: f"-({x})"),
            st.tuples(st.sampled_from(["abs", "arrondi", "plancher", "plafond"]), inner).map(
                lambda t: f"{t[0]}({t[1]})"),
            st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=1, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, inner, inner).map(lambda t: "borne({}, {}, {})".format(*t)),
            st.tuples(st.tuples(conditions, st.sampled_from([" et ", " ou "]), conditions).map("".join),
                      inner, inner).map(lambda t: "si({}, {}, {})".format(*t)))
    return st.recursive(number_leaves, numbers, max_leaves=12).flatmap(
        lambda x: st.sampled_from([x, f"{x} > 3", f"non ({x} = 0) et b != 0"]))


def _check_within_bounds(source, data):
    from pbp.datarules.formula import notation_bounds

    try:
        formula = compile_formula(source, names=PROPERTY_NAMES, dice=notation_bounds)
    except FormulaError:
        return
    bounds = formula.bounds(PROPERTY_BOUNDS)
    formula.may_divide_by_zero(PROPERTY_BOUNDS)
    env = {"a": data.draw(st_ints(-5, 5)), "b": data.draw(st_ints(0, 3)),
           "c": data.draw(st_fractions(Fraction(-7, 2), 100)), "ok": data.draw(st_bools()), "mot": "x",
           "liste": ["x", "y"]}

    def roll(term, label):
        low, high = notation_bounds(term)
        return data.draw(st_ints(low, low + 50 if high == float("inf") else high))

    try:
        result = formula.evaluate(env, roll)
    except FormulaError:
        return
    assert type(result) in {"number": (int, Fraction), "bool": (bool,), "text": (str,)}[formula.kind]
    if formula.kind != "text":
        assert result in bounds, (source, env, result, bounds)


def st_ints(low, high):
    from hypothesis import strategies as st

    return st.integers(low, high)


def st_fractions(low, high):
    from hypothesis import strategies as st

    return st.fractions(low, high, max_denominator=12)


def st_bools():
    from hypothesis import strategies as st

    return st.booleans()


def test_any_formula_is_refused_or_evaluates_within_its_bounds():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=200, deadline=None)
    @given(_formulas(), st.data())
    def check(source, data):
        _check_within_bounds(source, data)
    check()


def test_any_well_typed_formula_evaluates_within_its_bounds():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=200, deadline=None)
    @given(_typed_formulas(), st.data())
    def check(source, data):
        _check_within_bounds(source, data)
    check()


def test_any_text_is_refused_or_compiles():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    alphabet = st.sampled_from(list("abcdk0123456789+-*/%<>=!(),;[]'\" .\n«»&|^") + ["et", "ou", "non", "si",
                                                                                    "min", "d", "dans", "vrai"])

    @settings(max_examples=200, deadline=None)
    @given(st.lists(alphabet, max_size=40).map("".join), st.data())
    def check(source, data):
        _check_within_bounds(source, data)
    check()


# -- the MJ's reference: every example of docs/formulas.md gives what the page says ---------

DOC_NAMES = {"stat.force": "number", "competence.tir": "number", "malus": "number", "blessé": "bool",
             "rôle": "text", "sac": "list", "tour": "number", "jauge.energie": "number"}
DOC_VALUES = {"stat.force": 7, "competence.tir": 3, "malus": 2, "blessé": False, "rôle": "loup",
              "sac": ["corde", "lampe"], "tour": 6, "jauge.energie": 10}
#: the headers of the page's example tables (the last two columns: the formula, its result)
DOC_TABLES = ("| Formule | Résultat |", "| Formula | Result |", "| Sur la page de règles | Formule | Résultat |",
              "| On the rules page | Formula | Result |")


def _doc_examples():
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "formulas.md"
    examples, in_table = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line in DOC_TABLES:
            in_table = True
        elif not line.startswith("|"):
            in_table = False
        elif in_table and not line.startswith("|---"):
            source, result = (cell.strip() for cell in line.strip("|").split("|")[-2:])
            examples.append((source.strip("`"), result))
    return examples


def _doc_result(text: str):
    if text in ("vrai", "true", "faux", "false"):
        return text in ("vrai", "true")
    if text.startswith('"'):
        return text.strip('"')
    return Fraction(text) if "/" in text else int(text)


@pytest.mark.parametrize("source, result", _doc_examples())
def test_the_reference_examples(source, result):
    expected = _doc_result(result)
    found = compile_formula(source, names=DOC_NAMES).evaluate(DOC_VALUES)
    assert found == expected and type(found) is type(expected)


def test_the_reference_has_its_examples():
    assert len(_doc_examples()) >= 90


def test_every_formula_message_is_in_both_languages_with_the_same_parameters():
    import re
    from pathlib import Path

    import yaml

    import pbp.datarules.formula as formula_module

    catalogue = yaml.safe_load((Path(formula_module.__file__).with_name("messages.yaml")).read_text("utf-8"))
    keys = {k: v for k, v in catalogue.items() if k.startswith("formula_")}
    source = "".join(p.read_text("utf-8") for p in Path(formula_module.__file__).parent.glob("formula*.py"))
    for key in re.findall(r'"(formula_\w+)"', source):
        assert key in keys, key
    for key, texts in keys.items():
        assert set(texts) == {"fr", "en"}, key
        assert set(re.findall(r"{(\w+)}", texts["fr"])) == set(re.findall(r"{(\w+)}", texts["en"])), key


def test_the_reference_advice_on_quoting_in_yaml():
    import yaml

    written = yaml.safe_load("si: '\"corde\" dans sac'\n"
                             "nom: 'rôle = ''loup'''\n"
                             "long: >-\n  borne(stat.force\n  + 5, 1, 95)\n")
    assert [compile_formula(v, names=NAMES).evaluate(ENV) for v in written.values()] == [True, True, 12]


def test_the_parser_tables_come_back_from_the_users_cache_as_plain_data(monkeypatch):
    import lark

    from pbp.datarules import formula_syntax as module

    module._parser.cache_clear()
    module._tree.cache_clear()
    module._parser()  # built, or read back, and kept
    module._parser.cache_clear()
    module._tree.cache_clear()

    def no_building(*args, **kwargs):
        raise AssertionError("the parser was built again")
    monkeypatch.setattr(lark.Lark, "__init__", no_building)
    try:
        assert value("si(non blessé et stat.force > 5, 1d6[x], 0)", roll=lambda term, label: 4) == 4
    finally:
        module._parser.cache_clear()
        module._tree.cache_clear()
