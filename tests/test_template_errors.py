"""A broken template of the campaign's own (templates/ in the campaign folder)
is the MJ's input: `pbp run`, `pbp post` and `pbp setup` say which file, which
line and what is wrong, in the campaign's language, exit 1, and leave the
campaign as it was."""

from __future__ import annotations

import pytest

from pbp.render.render import template_paths
from tests.helpers import copy_example, pbp, unsealed, write

# (template source, line, what the French message says after "modèle invalide : ", the English one)
BROKEN = {
    "syntax": ("{{ m.h(turn) }}\n{% for e in events %}\n{{ e.kind }\n{% endfor %}\n", 3,
               "modèle invalide : erreur de syntaxe : unexpected '}'.",
               "invalid template: syntax error: unexpected '}'."),
    "undefined": ("{{ m.h(turn) }}\n\n{{ tour }}\n", 3,
                  "modèle invalide : « tour » n'est pas défini. Vouliez-vous dire « turn » ? Valeurs possibles : "
                  "audience, by_player, character, events, fmt, lang, m, names, next_deadline, player, title, turn.",
                  "invalid template: `tour` is undefined. Did you mean `turn`? Valid values: "
                  "audience, by_player, character, events, fmt, lang, m, names, next_deadline, player, title, turn."),
    "attribute": ("{{ m.h(turn) }}\n{{ names.personne }}\n", 2,
                  "modèle invalide : dict object n'a pas d'attribut « personne ».",
                  "invalid template: dict object has no attribute `personne`."),
    "runtime": ("{{ m.h(turn) }}\n{% set n = events | length %}\n\n{{ turn // (n - n) }}\n", 4,
                "modèle invalide : erreur pendant le rendu : ZeroDivisionError: integer division or modulo by zero.",
                "invalid template: error while rendering: ZeroDivisionError: integer division or modulo by zero."),
}


def snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _lang(root, lang):
    text = (root / "campaign.yaml").read_text()
    (root / "campaign.yaml").write_text(text + f"lang: {lang}\n")


@pytest.fixture
def ready(toy_campaign):
    assert pbp("setup", "--no-commit", cwd=toy_campaign).exit_code == 0
    return toy_campaign


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_run_names_the_broken_template(ready, case, lang):
    source, line, fr, en = BROKEN[case]
    _lang(ready, lang)
    write(ready, "templates/public.j2", source)
    before = snapshot(ready)
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    assert r.stderr == f"templates/public.j2:{line}: {fr if lang == 'fr' else en}\n"
    assert snapshot(ready) == before  # no turn folder, no lock left, nothing committed


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_post_rendered_again_names_the_broken_template(ready, case):
    """`pbp post` prints the post the turn wrote (what its seal covers), whatever the
    templates became; in another format it is rendered again, and the broken
    template is named."""
    assert pbp("run", "--no-commit", "--no-orders", cwd=ready).exit_code == 0
    archived = (ready / "turns/001/public.bbcode").read_text(encoding="utf-8")
    source, line, fr, _ = BROKEN[case]
    write(ready, "templates/public.j2", source)
    before = snapshot(ready)
    assert unsealed(pbp("post", cwd=ready).stdout) == unsealed(archived)
    r = pbp("post", "--format", "markdown", cwd=ready)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == f"templates/public.j2:{line}: {fr}\n"
    assert snapshot(ready) == before


def test_a_missing_include_says_where_templates_are_looked_up(ready):
    write(ready, "templates/public.j2", "{{ m.h(turn) }}\n{% include 'morceaux.j2' %}\n")
    write(ready, "templates/morceau.j2", "un morceau\n")
    before = snapshot(ready)
    r = pbp("run", "--no-orders", cwd=ready)
    from tests.toy import Toy

    looked = ", ".join("templates" if p == ready / "templates" else str(p.resolve())
                       for p in template_paths("toy", "fr", ready, Toy().folder()))
    assert r.exit_code == 1
    assert r.stderr == (f"templates/public.j2:2: modèle invalide : le modèle inclus « morceaux.j2 » est introuvable "
                        f"(cherché dans : {looked}). Vouliez-vous dire « morceau.j2 » ?\n")
    assert snapshot(ready) == before


def test_an_error_in_an_included_campaign_template_names_that_file(ready):
    write(ready, "templates/public.j2", "{{ m.h(turn) }}\n{% include 'morceau.j2' %}\n")
    write(ready, "templates/fr/morceau.j2", "Les joueurs :\n{{ joueurs | join(', ') }}\n")
    r = pbp("run", "--no-commit", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    assert r.stderr.startswith("templates/fr/morceau.j2:2: modèle invalide : « joueurs » n'est pas défini.")


def test_setup_with_a_broken_setup_template_writes_nothing(toy_campaign):
    write(toy_campaign, "templates/setup_public.j2", "Bonjour {{ title }\n")
    before = snapshot(toy_campaign)
    r = pbp("setup", cwd=toy_campaign)
    assert r.exit_code == 1
    assert r.stderr == "templates/setup_public.j2:1: modèle invalide : erreur de syntaxe : unexpected '}'.\n"
    assert snapshot(toy_campaign) == before and not (toy_campaign / "turns").exists()


def test_an_example_campaign_with_a_broken_private_template(tmp_path):
    """A real ruleset's posts: the broken template is a player's report."""
    root = copy_example("manhunt", tmp_path)
    write(root, "templates/manhunt/fr/private.j2", "{% if turn %}\nRapport {{ turn }\n{% endif %}\n")
    before = snapshot(root)
    for args in (["run", "--no-commit"], ["post", "--turn", "3", "--player", "lucy", "--format", "markdown"]):
        r = pbp(*args, cwd=root)
        assert r.exit_code == 1, args
        assert r.stderr == "templates/manhunt/fr/private.j2:2: modèle invalide : erreur de syntaxe : unexpected '}'.\n"
    assert pbp("post", "--turn", "3", "--format", "markdown", cwd=root).exit_code == 0  # not that template
    assert pbp("post", "--turn", "3", "--player", "lucy", cwd=root).exit_code == 0  # the archived report
    assert snapshot(root) == before


# -- a campaign's templates are data: a sandbox, bounded -----------------------------------

REFUSED = "modèle refusé : un modèle est une donnée, rendue dans un bac à sable, et celui-ci va au-delà ({}). " \
          "Rien n'a été exécuté ; corrigez ou retirez ce modèle."
HOSTILE = {
    "mro": ("{{ m.h(turn) }}\n{{ ''.__class__.__mro__[1].__subclasses__() }}\n", 2,
            "access to attribute '__class__' of 'str' object is unsafe"),
    "globals": ("{{ m.h(turn) }}\n\n{{ cycler.__init__.__globals__.os.system('touch pwned') }}\n", 3,
                "access to attribute '__init__' of 'type' object is unsafe"),
    "formatter": ("{{ m.__init__.__globals__ }}\n", 1,
                  "access to attribute '__init__' of 'BBCodeFormatter' object is unsafe"),
    "format": ("{{ '{0.__class__}'.format(turn) }}\n", 1,
               "access to attribute '__class__' of 'int' object is unsafe"),
    "nested ranges": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n", 1,
                      "over 250000 loop iterations and calls in one rendering"),
    "repeat": ("{{ m.h(turn) }}\n{{ 'x' * 1000000000 }}\n", 2, "a repeated value of 1000000000 items, over 1000000"),
    "power": ("{{ 2 ** 100000000 }}\n", 1, "exponent 100000000 over 1000"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_template_reaching_beyond_the_sandbox_is_refused_by_file_and_line(ready, case):
    source, line, why = HOSTILE[case]
    write(ready, "templates/public.j2", source)
    before = snapshot(ready)
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    assert r.stderr == f"templates/public.j2:{line}: {REFUSED.format(why)}\n"
    assert snapshot(ready) == before
    assert not (ready / "pwned").exists()


def test_a_template_drawing_at_random_is_refused_by_file_and_line(ready):
    """A post is replayed byte for byte (pbp verify, pbp audit): jinja2's `random`
    filter, which draws from Python's own generator, is no filter of pbp's."""
    write(ready, "templates/public.j2", "{{ m.h(turn) }}\n{{ ['a', 'b'] | random }}\n")
    before = snapshot(ready)
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    assert r.stderr == "templates/public.j2:2: modèle invalide : erreur de syntaxe : No filter named 'random'.\n"
    assert snapshot(ready) == before


def test_a_template_writing_without_end_is_refused_by_file(ready):
    write(ready, "templates/public.j2", "{% for i in range(90000) %}{{ 'x' * 100 }}{% endfor %}\n")
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    assert r.stderr == f"templates/public.j2: {REFUSED.format('over 4194304 characters written')}\n"


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_template_that_is_a_link_out_or_a_fifo_is_refused(ready, tmp_path, kind):
    import os

    secret = tmp_path / "secret.txt"
    secret.write_text("mot de passe\n")
    write(ready, "templates/public.j2", "{{ m.h(turn) }}\n{% include 'extra.j2' %}\n")
    if kind == "link":
        os.symlink(secret, ready / "templates" / "extra.j2")
    else:
        os.mkfifo(ready / "templates" / "extra.j2")
    r = pbp("run", "--no-orders", cwd=ready)
    assert r.exit_code == 1
    why = "a link out of its folder" if kind == "link" else "not a regular file"
    assert r.stderr == f"templates/public.j2:2: {REFUSED.format('extra.j2: ' + why)}\n"
