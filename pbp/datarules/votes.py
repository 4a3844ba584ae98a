"""Votes and teams of a rules file, as the compiler and `pbp rules check` see
them. `votes:` names a vote: its majority rule, what breaks a tie, who may
vote, whether ballots are public or secret, and the effects on the one chosen;
an action's effect `vote: <id>` (`voter:`) casts the actor's ballot for the
action's argument (a character). `end: teams:` (`fin: équipes:`) names the
stat that gives each character's team and `victories:` when a team wins.
The engine's side is pbp/rulesets/data/votes.py."""

from __future__ import annotations

from pbp.base.i18n import by_lang

#: the MJ's words for the vote's choices -> the engine's
WORDS = {"relative": "relative", "absolute": "absolute", "absolue": "absolute", "unanimous": "unanimous",
         "unanimite": "unanimous", "unanimity": "unanimous", "nobody": "nobody", "personne": "nobody",
         "random": "random", "hasard": "random", "all": "all", "tous": "all", "voters": "voters",
         "votants": "voters", "ballots": "ballots", "exprimes": "ballots", "public": "public", "secret": "secret"}
VERBS = ("vote",)


def word(value, default: str) -> str:
    return WORDS.get(str(value), default) if value is not None else default


def effect_lists(data: dict):
    """(path, list) of the votes' effect lists (on the one chosen, when nobody is)."""
    from pbp.model import schema

    for vote_id, vote in (data.get("votes") or {}).items():
        for key in ("effects", "none"):
            if isinstance(vote.get(key), list):
                yield ("votes", vote_id, key), vote[key]
    for i, victory in enumerate((data.get("end") or {}).get("victories") or []):
        if isinstance(victory.get("effects"), list):
            yield ("end", "victories", schema.Index(i), "effects"), victory["effects"]


def team_names(data: dict) -> dict[str, str]:
    """`team.<value>` (`équipe.<value>`): how many characters of that team are in play."""
    teams = (data.get("end") or {}).get("teams") or {}
    return {f"team.{value}": "number" for value in teams.get("values") or []}


def canonical(head: str, rest: str) -> str | None:
    return f"team.{rest}" if head in ("team", "teams", "equipe", "équipe", "camp") and rest else None


def compile_votes(compiler) -> None:
    """Each vote's `voters` formula (each character's view), its effects (on the one
    chosen: `self`), and a secret vote's ballots kept out of the thread: an action
    that casts one is seen by its actor alone unless the rules say otherwise."""
    data, program = compiler.data, compiler.program
    program.votes = {}
    casting: dict[str, list[str]] = {}
    for action_id, action in (data.get("actions") or {}).items():
        for effect in action.get("effects") or []:
            if isinstance(effect, dict) and "vote" in effect:
                casting.setdefault(str(effect["vote"]), []).append(action_id)
    for vote_id, vote in (data.get("votes") or {}).items():
        base = ("votes", vote_id)
        voters = None
        if vote.get("voters") is not None:
            voters = compiler.formula(vote["voters"], base + ("voters",), compiler.scope({}), "bool")
        scope = {**compiler.scope({}), f"{vote_id}.votes": "number"}  # the votes the one chosen got
        effects = {key: compiler.effects(vote.get(key) or [], base + (key,), dict(scope)) for key in ("effects", "none")}
        program.votes[vote_id] = {"voters": voters, "actions": casting.get(vote_id, []), **effects}
        if word(vote.get("ballot"), "public") == "secret":
            for action_id in casting.get(vote_id, []):
                data["actions"][action_id].setdefault("visibility", "owner")
    end = data.get("end") or {}
    program.victories = []
    for i, victory in enumerate(end.get("victories") or []):
        path = ("end", "victories", i)
        from pbp.datarules.phases import formula_names

        when = compiler.formula(victory["when"], path + ("when",), {"turn": "number", **compiler.gm_names(),
                                                                   **team_names(data), **formula_names(data, "turn")},
                                "bool")
        program.victories.append((victory, when, compiler.effects(victory.get("effects") or [], path + ("effects",),
                                                                   compiler.scope({}))))


def compile_effect(compiler, raw: dict, verb: str, path: tuple, scope: dict, formulas: dict):
    """`vote: <id>`: the vote's id; the action must take a character (the ballot)."""
    value = compiler.ref(raw[verb], "votes", path + (verb,))
    if not compiler.takes_character(path, scope):
        compiler.errors.append(compiler.rules.error("rules_vote_needs_character", path + (verb,)))
    return value


def problems(rules) -> list:
    """A team's stat is a stat of the rules; a victory names one of the team values."""
    data, errors = rules.data, []
    teams = (data.get("end") or {}).get("teams")
    victories = (data.get("end") or {}).get("victories") or []
    if victories and not teams:
        errors.append(rules.error("rules_victories_need_teams", ("end", "victories")))
    if teams:
        stats = list(data.get("stats") or {})
        if teams["stat"] not in stats:
            errors.append(rules.error("rules_unknown_ref", ("end", "teams", "stat"), value=teams["stat"],
                                      section="stats", valid=stats))
        values = [str(v) for v in teams.get("values") or []]
        for i, victory in enumerate(victories):
            if str(victory["team"]) not in values:
                errors.append(rules.error("rules_unknown_ref", ("end", "victories", i, "team"), value=victory["team"],
                                          section="end.teams.values", valid=values))
    return errors


def warnings(rules) -> list:
    """A vote no action casts a ballot in; a secret vote whose casting action is public."""
    data, errors = rules.data, []
    program = rules.program
    for vote_id, vote in (data.get("votes") or {}).items():
        casting = program.votes[vote_id]["actions"] if getattr(program, "votes", None) else []
        if not casting:
            errors.append(rules.error("rules_warning_vote_never", ("votes", vote_id), vote=vote_id))
        if word(vote.get("ballot"), "public") == "secret":
            for action_id in casting:
                seen = data["actions"][action_id].get("visibility")
                if seen == "public" or (isinstance(seen, list) and "public" in seen):
                    errors.append(rules.error("rules_warning_secret_ballot", ("actions", action_id, "visibility"),
                                              vote=vote_id, action=action_id))
    return errors


#: `pbp rules explain`: a vote in each language
EXPLAIN = by_lang({
    "title": ("Votes", "Votes"),
    "relative": ("majorité relative (le plus de voix)", "relative majority (the most votes)"),
    "absolute": ("majorité absolue (plus de la moitié {base})", "absolute majority (more than half {base})"),
    "unanimous": ("unanimité {base}", "unanimity {base}"),
    "voters": ("des votants", "of the voters"),
    "ballots": ("des bulletins exprimés", "of the ballots cast"),
    "nobody": ("égalité : personne", "tie: nobody"),
    "random": ("égalité : tirage au sort", "tie: drawn by lot"),
    "all": ("égalité : tous les ex æquo", "tie: everyone tied"),
    "public": ("scrutin public", "public ballot"),
    "secret": ("scrutin secret", "secret ballot"),
    "who": ("votent : {value}", "voters: {value}"),
    "cast": ("par : {value}", "by: {value}"),
    "teams": ("camps : {stat} ({values})", "teams: {stat} ({values})"),
    "victory": ("victoire de {team} quand {when}", "{team} wins when {when}"),
})
SAYS = {"vote": ("voter au scrutin {value} pour la cible", "vote in {value} for the target")}


def explained(rules, lang: str, name, effects) -> list:
    """One item per vote (its rule, its ballot, who votes, its effects), then the teams."""
    w, out = EXPLAIN[lang], []
    program = rules.program
    for vote_id, vote in (rules.data.get("votes") or {}).items():
        rule = word(vote.get("majority"), "relative")
        parts = [f"{name(vote, vote_id)} ({vote_id})",
                 w[rule].format(base=w[word(vote.get("base"), "voters")])]
        if rule == "relative":
            parts.append(w[word(vote.get("ties"), "nobody")])
        parts.append(w[word(vote.get("ballot"), "public")])
        if vote.get("voters") is not None:
            parts.append(w["who"].format(value=vote["voters"]))
        parts.append(w["cast"].format(value=", ".join(program.votes[vote_id]["actions"]) or "-"))
        out.append((" — ".join(parts), effects(vote.get("effects") or [])))
    end = rules.data.get("end") or {}
    if end.get("teams"):
        out.append(w["teams"].format(stat=end["teams"]["stat"], values=", ".join(map(str, end["teams"]["values"]))))
    for victory in end.get("victories") or []:
        out.append(w["victory"].format(team=victory["team"], when=victory["when"]))
    return out
