"""Character sheets (characters.yaml) and factions (world.yaml): reading them
into one normalised shape, saying precisely what is wrong with them, and what
of them a public post must never show (`secret_values`).

A module of its own because the sheets are d100's biggest input: four skill
categories with budgets, items in three slots, French and English keys, each
problem named by its place. Read once per scenario and rules (`read`).

A sheet, keyed by the player's forum handle in characters.yaml:

    kira:
      nom: Kira Vel
      physique: 45
      logique: 62
      mental: 71
      pv: 10              # gauge maxima
      force: 3            # 0: the character has no Force
      action: 5
      alignement: 7       # light points out of 10 (the rest is dark)
      travers: "Ne peut pas mentir à un enfant."
      competences:
        armes:      {sabre: 2, telekinesie: {niveau: 1, force: true}}
        techniques: {pilotage: {de: 1d6, plage: 2}}
        autres:     {persuasion: 2, discretion: -1}
        speciales:  {sixieme_sens: {niveau: 1, passif: true}}
      inventaire: [rations]
      equipement: [{nom: Medpac, effet: {pv: 3}, usages: 2}]
      armement: [Sabre laser]
      confiance: {empire: -2}

Keys are French; English spellings are accepted (SHEET_ALIASES). Nothing here
reads a file: the campaign hands the parsed YAML in.
"""

from __future__ import annotations

from pbp.base import i18n
from pbp.base.errors import InputError, PbpError
from pbp.model.dice import parse as parse_dice
from pbp.model.orders import normalize_id

SLOTS = ("inventaire", "equipement", "armement")
SHEET_KEYS = ("nom", "physique", "logique", "mental", "pv", "force", "action", "alignement", "travers",
              "competences", "inventaire", "equipement", "armement", "confiance",
              "espece", "histoire", "notes", "generation", "genre")
#: a character's grammatical gender (docs/design.md, "The output"); neutral wording when absent
GENRES = ("f", "m", "n")
SHEET_ALIASES = {
    "name": "nom", "physical": "physique", "logic": "logique", "mind": "mental", "hp": "pv",
    "vie": "pv", "points_de_vie": "pv", "actions": "action", "alignment": "alignement", "flaw": "travers",
    "skills": "competences", "inventory": "inventaire", "equipment": "equipement", "armament": "armement",
    "weapons": "armement", "armes": "armement", "trust": "confiance", "species": "espece",
    "story": "histoire", "background": "histoire", "gender": "genre",
}
SKILL_KEYS = {"niveau": "niveau", "level": "niveau", "passif": "passif", "passive": "passif",
              "force": "force", "de": "de", "die": "de", "plage": "plage", "range": "plage",
              "carac": "carac", "description": "description"}
ITEM_KEYS = {"nom": "nom", "name": "nom", "effet": "effet", "effect": "effet", "usages": "usages",
             "uses": "usages", "jet": "jet", "check": "jet", "description": "description"}
CHECK_KEYS = {"carac": "carac", "competence": "competence", "skill": "competence",
              "modificateur": "modificateur", "modifier": "modificateur"}


def _problem(message: str, where: str, file: str = "characters.yaml", **params) -> InputError:
    return InputError(f"d100.{message}", file=file, where=where, **params)


def _field_of(table: dict, key, at: str, message: str, problems: list):
    """The field a sheet key names (accents and case ignored), or None after
    recording `message` with the valid keys and the closest one."""
    field = table.get(normalize_id(key))
    if field is None:
        problems.append(_problem(message, at, key=key, valid=sorted(set(table.values())),
                                 suggestion=i18n.closest(normalize_id(key), table)))
    return field


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def factions(world: dict) -> dict[str, dict]:
    """Faction id -> {"id", "name"} from world.yaml's `factions`."""
    out = {}
    raw = (world.get("factions") if isinstance(world, dict) else None) or {}
    if not isinstance(raw, dict):
        return out
    for key, value in raw.items():
        if isinstance(value, dict):
            name = value.get("nom") or value.get("name") or str(key)
        else:
            name = str(value) if value is not None else str(key)
        out[normalize_id(key)] = {"id": normalize_id(key), "name": str(name)}
    return out


def carac_of(word, rules: dict) -> str | None:
    """A characteristic id from any accepted spelling, or None."""
    spec = rules["arg_types"]["carac"]
    word = normalize_id(word)
    if word in rules["characteristics"]:
        return word
    return (spec.get("aliases") or {}).get(word)


def read_sheet(handle: str, raw, rules: dict, known_factions: dict) -> tuple[dict, list[PbpError]]:
    """One sheet, normalised, and the problems found in it."""
    problems: list[PbpError] = []
    sheet = {"handle": handle, "name": handle, "characteristics": {}, "gauges": {}, "skills": {},
             "items": {}, "alignment": None, "flaw": "", "trust": {}, "genre": None}
    if not isinstance(raw, dict):
        return sheet, [_problem("sheet_not_mapping", handle)]
    fields = {}
    for key, value in raw.items():
        name = normalize_id(key)
        name = SHEET_ALIASES.get(name, name)
        if name not in SHEET_KEYS:
            problems.append(_problem("sheet_unknown_key", f"{handle}.{key}", key=key, valid=list(SHEET_KEYS),
                                     suggestion=i18n.closest(name, SHEET_KEYS)))
            continue
        fields[name] = value
    sheet["name"] = str(fields.get("nom") or handle)
    low, high = rules["characteristic_range"]["min"], rules["characteristic_range"]["max"]
    for carac in rules["characteristics"]:
        value = fields.get(carac)
        if not _int(value) or not low <= value <= high:
            problems.append(_problem("bad_characteristic", f"{handle}.{carac}", carac=carac, value=value,
                                     low=low, high=high))
            value = 0
        sheet["characteristics"][carac] = value
    for gauge in rules["gauges"]:
        value = fields.get(gauge, 0 if gauge == "force" else None)
        if not _int(value) or value < 0:
            problems.append(_problem("bad_gauge", f"{handle}.{gauge}", gauge=gauge, value=value))
            value = 0
        sheet["gauges"][gauge] = value
    total = rules["alignment"]["points"]
    alignment = fields.get("alignement")
    if alignment is not None and (not _int(alignment) or not 0 <= alignment <= total):
        problems.append(_problem("bad_alignment", f"{handle}.alignement", value=alignment, total=total))
        alignment = None
    sheet["alignment"] = alignment
    if fields.get("genre") is not None and fields["genre"] not in GENRES:
        problems.append(_problem("bad_genre", f"{handle}.genre", value=fields["genre"], valid=list(GENRES)))
    sheet["genre"] = fields.get("genre") if fields.get("genre") in GENRES else None
    sheet["flaw"] = str(fields.get("travers") or "")
    sheet["skills"] = _read_skills(handle, fields.get("competences"), rules, problems)
    sheet["items"] = _read_items(handle, fields, rules, problems)
    trust = fields.get("confiance") or {}
    if not isinstance(trust, dict):
        problems.append(_problem("bad_trust", f"{handle}.confiance", value=trust,
                                 low=rules["trust"]["min"], high=rules["trust"]["max"]))
        trust = {}
    for faction, value in trust.items():
        fid = normalize_id(faction)
        if fid not in known_factions:
            problems.append(_problem("sheet_unknown_faction", f"{handle}.confiance.{faction}", faction=faction,
                                     valid=list(known_factions), suggestion=i18n.closest(fid, known_factions)))
        elif not _int(value) or not rules["trust"]["min"] <= value <= rules["trust"]["max"]:
            problems.append(_problem("bad_trust", f"{handle}.confiance.{faction}", value=value,
                                     low=rules["trust"]["min"], high=rules["trust"]["max"]))
        else:
            sheet["trust"][fid] = value
    return sheet, problems


def _read_skills(handle, raw, rules, problems) -> dict:
    skills: dict[str, dict] = {}
    if raw is None:
        return skills
    where = f"{handle}.competences"
    categories = rules["skills"]["categories"]
    aliases = rules["skills"].get("category_aliases") or {}
    if not isinstance(raw, dict):
        problems.append(_problem("skills_not_mapping", where, valid=categories))
        return skills
    for cat_key, entries in raw.items():
        cat = normalize_id(cat_key)
        cat = aliases.get(cat, cat)
        if cat not in categories:
            problems.append(_problem("unknown_category", f"{where}.{cat_key}", category=cat_key, valid=categories,
                                     suggestion=i18n.closest(cat, list(categories) + list(aliases))))
            continue
        if entries is None:
            continue
        if not isinstance(entries, dict):
            problems.append(_problem("category_not_mapping", f"{where}.{cat_key}", category=cat_key))
            continue
        bonus = malus = 0
        for name, value in entries.items():
            at = f"{where}.{cat_key}.{name}"
            skill = _read_skill(name, value, cat, at, rules, problems)
            if skill["id"] in skills:
                problems.append(_problem("duplicate_skill", at, skill=name))
                continue
            skills[skill["id"]] = skill
            if skill["level"] > 0:
                bonus += skill["level"]
            else:
                malus -= skill["level"]
        _check_category_points(rules, f"{where}.{cat_key}", cat, bonus, malus, problems)
    return skills


def _read_skill(name, value, cat: str, at: str, rules, problems) -> dict:
    """One skill of a sheet: a level, or its fields (niveau, passif, force, de, plage, carac)."""
    skill = {"id": normalize_id(name), "name": str(name), "category": cat, "level": 0,
             "passive": False, "force": False, "die": None, "range": 0, "carac": None}
    spec = value if isinstance(value, dict) else {"niveau": value}
    for key, field_value in spec.items():
        field = _field_of(SKILL_KEYS, key, at, "skill_unknown_key", problems)
        if field is not None:
            _read_skill_field(skill, field, field_value, at, rules, problems)
    return skill


def _read_skill_field(skill: dict, field: str, value, at: str, rules, problems) -> None:
    low, high = rules["skills"]["level_min"], rules["skills"]["level_max"]
    if field == "niveau":
        if not _int(value) or not low <= value <= high:
            problems.append(_problem("bad_skill_level", at, value=value, low=low, high=high))
        else:
            skill["level"] = value
    elif field in ("passif", "force"):
        skill["passive" if field == "passif" else "force"] = bool(value)
    elif field == "de":
        try:
            parse_dice(value)
            skill["die"] = str(value)
        except PbpError:
            problems.append(_problem("bad_skill_die", at, value=value))
    elif field == "plage":
        limit = rules["situation"]["range_max"]
        if not _int(value) or not 0 <= value <= limit:
            problems.append(_problem("bad_skill_range", at, value=value, high=limit))
        else:
            skill["range"] = value
    elif field == "carac":
        carac = carac_of(value, rules)
        if carac is None:
            problems.append(_problem("bad_skill_carac", at, value=value, valid=rules["characteristics"]))
        skill["carac"] = carac


def _check_category_points(rules, where: str, cat: str, bonus: int, malus: int, problems) -> None:
    """A category's bonus and malus points against its budget and the balance rule."""
    budget = (rules["skills"].get("budget") or {}).get(cat)
    if budget is not None and (bonus > budget or malus > budget):
        problems.append(_problem("skill_budget", where, category=cat, bonus=bonus, malus=malus, budget=budget))
    if rules["skills"].get("more_bonus_than_malus") and malus and bonus <= malus:
        problems.append(_problem("skill_balance", where, category=cat, bonus=bonus, malus=malus))


def _read_items(handle, fields, rules, problems) -> dict:
    items: dict[str, dict] = {}
    for slot in SLOTS:
        raw = fields.get(slot)
        if raw is None:
            continue
        listed = isinstance(raw, list)
        for i, entry in enumerate(raw if listed else [raw]):
            at = f"{handle}.{slot}.{i + 1}"  # as the MJ counts, in the message
            # where the core finds the item's line (a list position counts from 0 there)
            path = (handle, slot, i) if listed else (handle, slot)
            first = len(problems)
            item = {"id": "", "name": "", "slot": slot, "effect": {}, "uses": None, "check": None, "at": path}
            spec = entry if isinstance(entry, dict) else {"nom": entry}
            for key, value in spec.items():
                field = _field_of(ITEM_KEYS, key, at, "item_unknown_key", problems)
                if field is None:
                    continue
                if field == "nom":
                    item["name"] = str(value) if value is not None else ""
                elif field == "effet":
                    item["effect"] = _read_effect(at, value, rules, problems)
                elif field == "usages":
                    if not _int(value) or value < 0:
                        problems.append(_problem("bad_item_uses", at, value=value))
                    else:
                        item["uses"] = value
                elif field == "jet":
                    item["check"] = _read_item_check(at, value, rules, problems)
            item["id"] = normalize_id(item["name"])
            if not item["id"]:
                problems.append(_problem("item_no_name", at))
            elif item["id"] in items:
                problems.append(_problem("duplicate_item", at, item=item["name"]))
            else:
                items[item["id"]] = item
            for problem in problems[first:]:
                problem.params.setdefault("at", path)
    return items


def _read_effect(at, value, rules, problems) -> dict:
    if not isinstance(value, dict):
        problems.append(_problem("bad_item_effect", at, value=value, valid=rules["gauges"]))
        return {}
    out = {}
    for gauge, delta in value.items():
        gauge = SHEET_ALIASES.get(normalize_id(gauge), normalize_id(gauge))
        if gauge not in rules["gauges"] or not _int(delta):
            problems.append(_problem("bad_item_effect", at, value=value, valid=rules["gauges"]))
            continue
        out[gauge] = delta
    return out


def _read_item_check(at, value, rules, problems) -> dict | None:
    if not isinstance(value, dict):
        value = {"carac": value}
    out = {"carac": None, "competence": None, "modificateur": 0}
    for key, field_value in value.items():
        field = _field_of(CHECK_KEYS, key, at, "item_unknown_key", problems)
        if field is None:
            continue
        if field == "carac":
            out["carac"] = carac_of(field_value, rules)
        elif field == "competence":
            out["competence"] = normalize_id(field_value)
        elif field == "modificateur":
            out["modificateur"] = field_value if _int(field_value) else 0
    if out["carac"] is None:
        problems.append(_problem("bad_item_check", at, valid=rules["characteristics"]))
        return None
    return out


def read_all(scenario, rules: dict) -> tuple[dict[str, dict], list[PbpError]]:
    """Every roster player's sheet, normalised, and every problem of
    characters.yaml and world.yaml."""
    problems: list[PbpError] = []
    world = scenario.world if isinstance(scenario.world, dict) else {}
    raw_factions = world.get("factions")
    if raw_factions is not None and not isinstance(raw_factions, dict):
        problems.append(_problem("factions_not_mapping", "factions", file="world.yaml"))
        world = {}
    known = factions(world)
    sheets = {}
    characters = scenario.characters if isinstance(scenario.characters, dict) else {}
    for handle in scenario.roster:
        if handle not in characters:
            problems.append(_problem("sheet_missing", handle, player=handle, valid=list(characters)))
            continue
        sheet, found = read_sheet(handle, characters[handle], rules, known)
        problems += found
        for item in sheet["items"].values():
            check = item["check"]
            if check and check["competence"] and check["competence"] not in sheet["skills"]:
                problems.append(_problem("item_unknown_skill", f"{handle}.{item['slot']}", item=item["name"],
                                         skill=check["competence"], valid=list(sheet["skills"]), at=item["at"]))
        sheets[handle] = sheet
    return sheets, problems


def read(scenario, rules: dict, rules_key: str) -> tuple[dict, list[PbpError], dict]:
    """(sheets, their problems, factions) of a scenario, read once: a scenario
    never changes, and `rules_key` names the rules they were read with (one
    scenario is played by two rulesets in `pbp simulate --override`)."""
    def build():
        sheets, problems = read_all(scenario, rules)
        return sheets, problems, factions(scenario.world)
    return scenario.derived(("d100.sheets", rules_key), build)


def find_faction(known: dict, word) -> dict | None:
    """The faction a player or the MJ names, by id or by name (accents and case ignored)."""
    key = normalize_id(word)
    if key in known:
        return known[key]
    for faction in known.values():
        if normalize_id(faction["name"]) == key:
            return faction
    return None


def sheet_data(sheet: dict, rules: dict) -> dict:
    """A sheet as event data: what its player (and the MJ) may read."""
    total = rules["alignment"]["points"]
    skills = [{k: s[k] for k in ("name", "category", "level", "passive", "force", "die", "range")}
              for s in sheet["skills"].values()]
    skills.sort(key=lambda s: rules["skills"]["categories"].index(s["category"]))
    items = [{"name": i["name"], "slot": i["slot"], "uses": i["uses"], "effect": i["effect"]}
             for i in sheet["items"].values()]
    return {"name": sheet["name"], "characteristics": sheet["characteristics"], "max_gauges": sheet["gauges"],
            "skills": skills, "items": items, "flaw": sheet["flaw"],
            "alignment": sheet["alignment"], "total": total, "genre": sheet["genre"]}


# -- secrecy ---------------------------------------------------------------------------------

def alignment_words(light: int, total: int, lang: str) -> str:
    """An alignment as the reports print it ("4 points clairs, 6 points obscurs"):
    the templates and `secret_values` share this wording."""
    dark = total - light
    if lang == "en":
        return f"{light} light {'point' if light == 1 else 'points'}, {dark} dark {'point' if dark == 1 else 'points'}"
    return (f"{light} {'point clair' if light <= 1 else 'points clairs'}, "
            f"{dark} {'point obscur' if dark <= 1 else 'points obscurs'}")


#: how the English reports name each characteristic (templates/d100/en)
CARAC_EN = {"physique": "Physical", "logique": "Logic", "mental": "Mind"}
#: how the reports name each gauge, in French and English (the forms secret_values gives)
GAUGE_LABELS = {"pv": ("PV", "HP"), "force": ("Force",), "action": ("Action",)}


def secret_values(state: dict, sheets: dict, known_factions: dict, rules: dict) -> set[str]:
    """What only a sheet's player and the MJ know (README, Secrecy): the flaw,
    the characteristics, the gauges, the alignment and the trust of every
    character in the state, each as the reports print it (a bare 45 or +2
    would match anything): "Physique 45", "PV 11/15", "4 clair(s), 6 obscur(s)",
    "Empire +2". (Items become public when used, skills are common words a
    check's purpose may use: the audiences alone keep them secret.)"""
    total = rules["alignment"]["points"]
    out = set()
    for handle, me in (state.get("characters") or {}).items():
        sheet = sheets.get(handle)
        if sheet is None:
            continue
        out.add(sheet.get("flaw") or "")
        out |= {f"{label} {value}" for carac, value in sheet["characteristics"].items()
                for label in (carac.capitalize(), CARAC_EN.get(carac, carac))}
        for gauge in rules["gauges"]:
            labels = GAUGE_LABELS.get(gauge, (gauge.capitalize(),))
            out |= {f"{label} {me[gauge]}/{sheet['gauges'][gauge]}" for label in labels}
        light = me.get("light")
        if light is not None:
            out |= {alignment_words(light, total, lang) for lang in ("fr", "en")}
            out |= {f"{light} point(s) clair(s)", f"{light} light point(s)", f"{light} clair(s), {total - light} obscur(s)",
                    f"{light} point clair", f"{light} points clairs", f"{light} light point", f"{light} light points"}
        for fid, level in (me.get("trust") or {}).items():
            name = known_factions[fid]["name"] if fid in known_factions else fid
            out.add(f"{name} {level:+d}")
    return {v.strip() for v in out if v and v.strip()}
