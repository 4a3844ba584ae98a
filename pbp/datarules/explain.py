"""`pbp rules explain`: the rules as pbp understood them, to set beside the MJ's own
rules page. A plain view of a checked rules file (every text in both languages,
every table row with its exact chance), rendered by templates/data/<lang>/explain.j2
as a post or for the terminal."""

from __future__ import annotations

from fractions import Fraction

from pbp.base.i18n import by_lang
from pbp.datarules import absence, opposed, phases, places, states, votes
from pbp.datarules.format import VERBS, RulesFile, word
from pbp.datarules.lint import rows_by_face, table_dice

#: how an effect reads, in each language: (fr, en) with {value} and {who}
SAYS = {
    "add": ("ajouter à {value}", "add to {value}"),
    "set": ("fixer {value}", "set {value}"),
    "roll": ("tirer sur la table {value}", "roll on the table {value}"),
    "check": ("tester {value}", "check {value}"),
    "if": ("si {value}", "if {value}"),
    "say": ("dire : {value}", "say: {value}"),
    "out": ("hors jeu", "out of the game"),
    "lose_turn": ("perd {value} tour(s)", "loses {value} turn(s)"),
    "reveal": ("révéler {value}", "reveal {value}"),
    **states.SAYS,
    **votes.SAYS,
    **opposed.SAYS,
    **places.SAYS,
}
WHO = {"target": (" (sur la cible)", " (on the target)"), "all": (" (sur tous)", " (on everyone)"),
       "others": (" (sur les autres)", " (on the others)")}
BRANCHES = {"check": (("si réussi", "on success"), ("sinon", "else")),
            "if": (("alors", "then"), ("sinon", "else")),
            "oppose": (("si l'acteur l'emporte", "if the actor wins"), ("sinon", "else"))}


def view(rules: RulesFile) -> dict:
    data = rules.data
    return {
        "title": _words(data.get("title")),
        "stats": [{"id": k, **v} for k, v in (data.get("stats") or {}).items()],
        "gauges": [{"id": k, **v, "thresholds": [_threshold(t) for t in v.get("thresholds") or []]}
                   for k, v in (data.get("gauges") or {}).items()],
        "tables": [_table(k, v) for k, v in (data.get("tables") or {}).items()],
        "checks": [{"id": k, **v} for k, v in (data.get("checks") or {}).items()],
        "actions": [{"id": k, **v, "effects": effects(v["effects"])} for k, v in data["actions"].items()],
        "budget": data.get("budget") or {}, "plays": data.get("plays"), "inputs": data.get("inputs") or {},
        "end": data.get("end") or {}, "missed": (data.get("missed_orders") or {}).get("orders") or [],
        "data": data,
    }


def _words(value) -> dict:
    if isinstance(value, dict):
        fr = str(value.get("fr", value.get("en", "")))
        return {"fr": fr, "en": str(value.get("en", fr))}
    return {"fr": "" if value is None else str(value), "en": "" if value is None else str(value)}


def _threshold(threshold: dict) -> dict:
    when = next((k, threshold[k]) for k in ("at", "below", "above", "every") if k in threshold)
    return {"when": when[0], "value": when[1], "once": bool(threshold.get("once")),
            "effects": effects(threshold["effects"])}


def _table(ident: str, table: dict) -> dict:
    from pbp.balance.odds import distribution

    faces = distribution(table_dice(table))
    order = []
    for row in table["rows"]:
        order += [k for k in row if k not in ("roll", "weight", "text", "table") and k not in order]
    rows = []
    for low, high, i in rows_by_face(table):
        row = table["rows"][i]
        chance = sum((q for face, q in faces.items() if low <= face <= high), Fraction(0))
        columns = {k: row[k] for k in order if k in row}
        rows.append({"faces": str(low) if low == high else f"{low}-{high}", "text": _words(row.get("text")),
                     "columns": columns, "table": row.get("table"), "chance": f"{chance} ({float(chance) * 100:.1f} %)"})
    return {"id": ident, "name": _words(table.get("name")), "dice": table_dice(table), "rows": rows}


def effects(items: list) -> list[dict]:
    """Each effect as a line in both languages, with its branches under it."""
    out = []
    for effect in items:
        verb = next(v for v in VERBS if v in effect)
        value = _shown(effect[verb])
        fr, en = (text.format(value=value) for text in SAYS[verb])
        extra = WHO.get(word(effect.get("who", "self")), ("", ""))
        line = {"fr": fr + extra[0], "en": en + extra[1]}
        if effect.get("to") is not None:
            to = effect["to"] if isinstance(effect["to"], list) else [effect["to"]]
            line = {"fr": line["fr"] + f" (pour : {', '.join(map(str, to))})",
                    "en": line["en"] + f" (to: {', '.join(map(str, to))})"}
        if effect.get("as"):
            line = {"fr": line["fr"] + f" (résultat : {effect['as']})", "en": line["en"] + f" (result: {effect['as']})"}
        branches = []
        for (fr_name, en_name), key in zip(BRANCHES.get(verb, ()), ("then", "else")):
            if effect.get(key):
                branches.append({"name": {"fr": fr_name, "en": en_name}, "effects": effects(effect[key])})
        out.append({"text": line, "branches": branches})
    return out


def _shown(value) -> str:
    if isinstance(value, dict) and set(value) <= {"fr", "en"}:
        return f"« {value.get('fr', value.get('en'))} »"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def items(described: list[dict], lang: str) -> list:
    """Described effects as list items of one language: a line, or (line, its branches)."""
    out = []
    for effect in described:
        branches = [(b["name"][lang], items(b["effects"], lang)) for b in effect["branches"]]
        out.append((effect["text"][lang], branches) if branches else effect["text"][lang])
    return out


#: the words of the explanation, in each language
WORDS = by_lang({
    "heading": ("Les règles telles que pbp les a comprises", "The rules as pbp understood them"),
    "stats": ("Caractéristiques", "Stats"),
    "gauges": ("Jauges", "Gauges"),
    "tables": ("Tables", "Tables"),
    "checks": ("Tests", "Checks"),
    "actions": ("Actions", "Actions"),
    "turn": ("Le tour", "The turn"),
    "inputs": ("Décisions du MJ (gm.yaml, orders:)", "The GM's decisions (gm.yaml, orders:)"),
    "end": ("Fin de la partie", "End of the game"),
    "default": ("par défaut", "default"),
    "seen": ("vue par", "seen by"),
    "start": ("départ", "start"),
    "bounds": ("de {low} à {high}", "from {low} to {high}"),
    "at": ("à {value}", "at {value}"),
    "below": ("sous {value}", "below {value}"),
    "above": ("au-dessus de {value}", "above {value}"),
    "every": ("tous les {value}", "every {value}"),
    "once": (" (une seule fois)", " (once only)"),
    "cost": ("coût {value}", "cost {value}"),
    "arg": ("argument : {value}", "argument: {value}"),
    "requires": ("possible si {value}", "possible if {value}"),
    "once_turn": ("pas deux fois par tour", "not twice a turn"),
    "dice": ("{dice} {sign} {target}", "{dice} {sign} {target}"),
    "critical": ("critique : réussite {success}, échec {failure}", "critical: success {success}, failure {failure}"),
    "points": ("{value} points par tour", "{value} points a turn"),
    "gauge_points": ("coûts payés sur la jauge {value}", "costs paid from the gauge {value}"),
    "count": ("au plus {value} actions par tour", "at most {value} actions a turn"),
    "count_one": ("au plus 1 action par tour", "at most 1 action a turn"),
    "distinct": ("jamais deux fois la même action", "never the same action twice"),
    "plays": ("joue ce tour si {value}", "plays this turn if {value}"),
    "missed": ("sans ordres : {value}", "without orders: {value}"),
    "last_standing": ("quand il reste au plus {value} personnage(s) en jeu",
                      "when at most {value} character(s) are left"),
    "when": ("quand {value}", "when {value}"),
    "max_turns": ("après le tour {value}", "after turn {value}"),
    "stuck": ("quand plus personne ne peut agir", "when nobody can act any more"),
    "winners": ("les gagnants : les personnages encore en jeu (aucun : match nul)",
                "the winners: the characters still in play (none: a draw)"),
    "score": ("les gagnants : le meilleur score, {value} (ceux encore en jeu d'abord ; à égalité, tous) ; "
              "le post donne le classement",
              "the winners: the best score, {value} (those still in play first; tied, all of them); "
              "the post gives the ranking"),
    "score_every_turn": ("le classement après chaque tour", "the ranking after every turn"),
    "per_character": ("par personnage", "per character"),
    "keep_false": ("pour ce tour seulement", "this turn only"),
    "nothing": ("rien", "nothing"),
    "header": (["faces", "résultat", "colonnes", "chance"], ["faces", "result", "columns", "chance"]),
})


def _name(item: dict, lang: str) -> str:
    return _words(item.get("name"))[lang] or item["id"]


def sections(rules: RulesFile, lang: str) -> dict:
    """The explanation in one language: {heading, sections: [{title, items, tables}]}."""
    v, w = view(rules), WORDS[lang]
    out = []

    def add(title, lines, tables=()):
        if lines or tables:
            out.append({"title": w[title], "items": lines, "tables": list(tables)})

    add("stats", [f"{_name(s, lang)} ({s['id']}) — {w['default']} {_cell(s.get('default', '-'), lang)} — {w['seen']} "
                  f"{_seen(s.get('visibility'), lang)}" for s in v["stats"]])
    add("gauges", [(f"{_name(g, lang)} ({g['id']}) — {w['start']} {g.get('start', g.get('max', 0))}, "
                    + w["bounds"].format(low=g.get("min", "-∞"), high=g.get("max", "∞"))
                    + f" — {w['seen']} {_seen(g.get('visibility'), lang)}",
                    [(w[t["when"]].format(value=t["value"]) + (w["once"] if t["once"] else ""),
                      items(t["effects"], lang)) for t in g["thresholds"]]) for g in v["gauges"]])
    add("tables", [], [{"title": f"{t['name'][lang] or t['id']} ({t['id']}, {t['dice']})", "header": w["header"],
                        "rows": [[r["faces"], r["text"][lang] + (f" → {r['table']}" if r["table"] else ""),
                                  ", ".join(f"{k} {_cell(x, lang)}" for k, x in r["columns"].items()), r["chance"]]
                                 for r in t["rows"]]} for t in v["tables"]])
    add("checks", [(f"{_name(c, lang)} ({c['id']}): " + w["dice"].format(dice=opposed.dice_text(c), sign=c["success"],
                                                                          target=c["target"]),
                    [w["critical"].format(success=c["critical"].get("success", "-"),
                                          failure=c["critical"].get("failure", "-"))] if c.get("critical") else [])
                   for c in v["checks"]])
    add("actions", [(_action_line(a, w, lang), items(a["effects"], lang)) for a in v["actions"]])
    add("turn", _turn_lines(v, w))
    add("inputs", [_acting(f"{_name(dict(i, id=k), lang)} ({k}): {KINDS[lang].get(word(i['type']), i['type'])}"
                           + (f", {w['per_character']}" if word(i.get("per", "game")) == "character" else "")
                           + (f", {w['keep_false']}" if i.get("keep") is False else "")
                           + (f", {w['default']} {_cell(i['default'], lang)}" if i.get("default") is not None else ""),
                           i, lang)
                   for k, i in v["inputs"].items()])
    add("end", _end_lines(v["end"], w))
    out += _block_sections(rules, lang, w)
    return {"heading": w["heading"] + (f" — {v['title'][lang]}" if v["title"][lang] else ""), "sections": out}


def _block_sections(rules: RulesFile, lang: str, w: dict) -> list[dict]:
    """The sections of the rules' optional blocks, each explained by its own module:
    places, states, phases, opposed rolls, votes and teams."""
    out: list[dict] = []
    places.explain(rules.data, lang, lambda title, lines: out.append({"title": title, "items": lines, "tables": []})
                   if lines else None, lambda listed: items(effects(listed), lang))
    if rules.data.get("states"):
        out.append({"title": states.WORDS[lang]["title"], "tables": [],
                    "items": states.explained(rules.data, lang, lambda spec, ident: _name(dict(spec, id=ident), lang),
                                              lambda seen: f"{w['seen']} {_seen(seen, lang)}")})
    order_lines = phases.explained(rules.data, lang, lambda raw: _words(raw)[lang], lambda raw: items(effects(raw), lang))
    if order_lines:
        out.append({"title": phases.EXPLAIN[lang]["title"], "tables": [], "items": order_lines})
    if rules.data.get("opposed"):
        out.append({"title": {"fr": "Jets opposés", "en": "Opposed rolls"}[lang], "tables": [],
                    "items": opposed.explained(rules.data, lang, lambda spec, ident: _name(dict(spec, id=ident), lang))})
    if rules.data.get("votes") or (rules.data.get("end") or {}).get("teams"):
        out.append({"title": votes.EXPLAIN[lang]["title"], "tables": [],
                    "items": [item if isinstance(item, str) else (item[0], items(effects(item[1]), lang))
                              for item in votes.explained(rules, lang,
                                                          lambda spec, ident: _name(dict(spec, id=ident), lang),
                                                          lambda raw: raw)]})
    out += _bots(rules.data, lang)
    return out


#: the bots of `pbp simulate` (`simulation: {actions: N}`, pbp/rulesets/data/balance.py)
BOTS = {"fr": {"title": "Parties simulées (pbp simulate)",
               "actions": "un bot donne au plus {value} action(s) par tour"},
        "en": {"title": "Simulated games (pbp simulate)",
               "actions": "a bot gives at most {value} action(s) a turn"}}


def _bots(data: dict, lang: str) -> list[dict]:
    most = (data.get("simulation") or {}).get("actions")
    if most is None:
        return []
    return [{"title": BOTS[lang]["title"], "tables": [], "items": [BOTS[lang]["actions"].format(value=most)]}]


AUDIENCES = {"fr": {"public": "tous", "owner": "le joueur et le MJ", "gm": "le MJ seul"},
             "en": {"public": "everyone", "owner": "the player and the GM", "gm": "the GM alone"}}
KINDS = {"fr": {"character": "personnage", "number": "nombre", "text": "texte", "choice": "choix", "bool": "oui/non"},
         "en": {"character": "character", "number": "number", "text": "text", "choice": "choice", "bool": "yes/no"}}


def _seen(value, lang: str) -> str:
    values = value if isinstance(value, list) else [value or "public"]
    return ", ".join(AUDIENCES[lang].get(word(x), str(x)) for x in values)


def _cell(value, lang: str) -> str:
    """A value as the MJ wrote it: a truth in their words (oui/non, yes/no)."""
    if isinstance(value, bool):
        return {"fr": ("oui", "non"), "en": ("yes", "no")}[lang][0 if value else 1]
    return str(value)


def _acting(line: str, spec: dict, lang: str):
    """An input's line, with the effects it runs at the start and the end of its turn (input_effects.py)."""
    said = {"fr": ("au début du tour", "à la fin du tour"), "en": ("at the start of the turn", "at the end of the turn")}
    children = [(when, items(effects(spec[key]), lang)) for key, when in zip(("effects", "end_effects"), said[lang])
                if spec.get(key)]
    return (line, children) if children else line


def _action_line(action: dict, w: dict, lang: str) -> str:
    parts = [f"{_name(action, lang)} ({action['id']}" + (f", {action['en']}" if action.get("en") else "") + ")"]
    if action.get("cost") is not None:
        parts.append(w["cost"].format(value=action["cost"]))
    if action.get("arg") is not None:
        arg = action["arg"]
        kind = word(arg if isinstance(arg, str) else arg["type"])
        if kind == "fields":  # named fields: each with what it accepts (pbp/rulesets/data/fields.py)
            from pbp.datarules.fields import describe

            kind = describe(arg, KINDS[lang])
        parts.append(w["arg"].format(value=KINDS[lang].get(kind, kind)))
    if action.get("once"):
        parts.append(w["once_turn"])
    parts += [w["requires"].format(value=r["if"]) for r in action.get("requires") or []]
    return " — ".join(parts)


def _turn_lines(v: dict, w: dict) -> list[str]:
    budget, lines = v["budget"], []
    if budget.get("points") is not None:
        lines.append(w["points"].format(value=budget["points"]))
    if budget.get("gauge"):
        lines.append(w["gauge_points"].format(value=budget["gauge"]))
    if budget.get("count"):
        lines.append(w["count_one"] if budget["count"] == 1 else w["count"].format(value=budget["count"]))
    if budget.get("distinct"):
        lines.append(w["distinct"])
    if v["plays"] is not None:
        lines.append(w["plays"].format(value=v["plays"]))
    lines.append(w["missed"].format(value=", ".join(map(str, v["missed"])) or w["nothing"]))
    return lines + absence.explained(v["data"], "fr" if w is WORDS["fr"] else "en")


def _end_lines(end: dict, w: dict) -> list[str]:
    lines = [w[key].format(value=end[key]) for key in ("last_standing", "when", "max_turns") if key in end]
    if end.get("stuck"):
        lines.append(w["stuck"])
    if lines and end.get("score") is not None:
        every = [w["score_every_turn"]] if end.get("score_every_turn") else []
        return lines + [w["score"].format(value=end["score"])] + every
    return lines + [w["winners"]] if lines else []
